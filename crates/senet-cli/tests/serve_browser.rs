//! `senet serve`'s page in a real browser: headless Chromium driven over WebDriver
//! (Debian's `chromium` and `chromium-driver`, which `.ci/run` installs). They are found on
//! `PATH`, or through `SENET_CHROMIUM` and `SENET_CHROMEDRIVER`; without them the test passes
//! after one skip line, unless `SENET_REQUIRE_BROWSER=1` (set by `.ci/run`). A person plays
//! Black in a Regency game against the random player by clicking pieces and their
//! destinations until the game ends; after every change the board drawn in the page must be
//! the engine's board for the record the page holds, and the log must narrate every action.
//! A finished game loaded from a file is analysed, and the analysis view's chart and lists
//! must show the positions the server's analysis names.

mod common;

use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use common::server::Server;
use fantoccini::actions::{InputSource, MOUSE_BUTTON_LEFT, MouseActions, PointerAction};
use fantoccini::{Client, ClientBuilder, Locator};
use hyper_util::client::legacy::connect::HttpConnector;
use senet::registry::AnyRuleset;
use senet::{AnyGame, Phase, Side};
use senet_testkit::external::BROWSER;
use serde_json::{Value, json};

/// A chromedriver on a free port, stopped when dropped.
struct Driver {
    child: Child,
    url: String,
    chromium: PathBuf,
    profile: tempfile::TempDir,
}

impl Driver {
    /// Starts `chromedriver` for `chromium`: the two paths [`BROWSER`] found.
    fn start(chromium: PathBuf, chromedriver: &Path) -> Driver {
        let port = TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .unwrap()
            .port();
        let child = Command::new(chromedriver)
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("chromedriver starts");
        Driver {
            child,
            url: format!("http://127.0.0.1:{port}"),
            chromium,
            profile: tempfile::tempdir().unwrap(),
        }
    }

    async fn connect(&self) -> Client {
        let profile = format!("--user-data-dir={}", self.profile.path().display());
        let capabilities = json!({
            "goog:chromeOptions": {
                "binary": self.chromium,
                "args": [
                    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                    "--no-first-run", "--disable-background-networking",
                    "--disable-component-update", "--disable-sync",
                    "--window-size=1280,1000", profile,
                ],
            }
        });
        let Value::Object(capabilities) = capabilities else {
            unreachable!()
        };
        let started = Instant::now();
        loop {
            let mut builder = ClientBuilder::new(HttpConnector::new());
            builder.capabilities(capabilities.clone());
            match builder.connect(&self.url).await {
                Ok(client) => return client,
                Err(e) if started.elapsed() < Duration::from_secs(30) => {
                    let _ = e;
                    tokio::time::sleep(Duration::from_millis(200)).await;
                }
                Err(e) => panic!("no WebDriver session: {e}"),
            }
        }
    }
}

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// What the page shows, read in one script so that it is one consistent moment.
const SNAPSHOT: &str = r#"
const squares = [...document.querySelectorAll('#board .square')]
  .sort((a, b) => a.dataset.square - b.dataset.square)
  .map((s) => s.dataset.piece || '.').join('');
return {
  board: squares,
  record: document.getElementById('record').textContent,
  status: document.getElementById('status').textContent,
  log: [...document.querySelectorAll('#log li')].map((li) => li.textContent),
  canThrow: !document.getElementById('throw').disabled,
  movable: document.querySelectorAll('#board .square.movable').length,
  moveButtons: document.querySelectorAll('#moves button').length,
  error: document.getElementById('error').hidden ? '' : document.getElementById('error').textContent,
};
"#;

struct Snapshot {
    board: String,
    record: String,
    status: String,
    log: Vec<String>,
    can_throw: bool,
    movable: u64,
    move_buttons: u64,
}

async fn snapshot(client: &Client) -> Snapshot {
    let v = client.execute(SNAPSHOT, vec![]).await.unwrap();
    assert_eq!(v["error"], "", "the page shows an error");
    Snapshot {
        board: v["board"].as_str().unwrap().to_string(),
        record: v["record"].as_str().unwrap().to_string(),
        status: v["status"].as_str().unwrap().to_string(),
        log: v["log"]
            .as_array()
            .unwrap()
            .iter()
            .map(|l| l.as_str().unwrap().to_string())
            .collect(),
        can_throw: v["canThrow"].as_bool().unwrap(),
        movable: v["movable"].as_u64().unwrap(),
        move_buttons: v["moveButtons"].as_u64().unwrap(),
    }
}

/// Checks the page against the engine and returns the game its record replays to.
fn check(page: &Snapshot) -> AnyGame {
    let game = AnyGame::from_record_text(&page.record).unwrap();
    let position = game.position();
    assert_eq!(
        page.board,
        position[..30],
        "the page's board is not the engine's"
    );
    assert_eq!(
        page.log.len(),
        game.history().len(),
        "one log line per action"
    );
    game
}

fn screenshot_path(name: &str) -> PathBuf {
    Path::new(env!("CARGO_TARGET_TMPDIR")).join(name)
}

async fn click(client: &Client, css: &str) {
    client
        .find(Locator::Css(css))
        .await
        .unwrap_or_else(|e| panic!("{css}: {e}"))
        .click()
        .await
        .unwrap_or_else(|e| panic!("{css}: {e}"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_person_plays_regency_against_the_random_player_to_the_end() {
    let Some([chromium, chromedriver]) = BROWSER
        .find("serve_browser")
        .map(|paths| <[PathBuf; 2]>::try_from(paths).unwrap())
    else {
        return;
    };
    let server = Server::start();
    let driver = Driver::start(chromium, &chromedriver);
    let client = driver.connect().await;
    client
        .goto(&format!("{}?pace=0", server.url))
        .await
        .unwrap();

    let started = Instant::now();
    let mut last_record = String::new();
    let mut human_moves = 0;
    let mut shot = false;
    let mut changed = Instant::now();
    loop {
        assert!(
            started.elapsed() < Duration::from_secs(1200),
            "the game did not end in 20 minutes"
        );
        let page = snapshot(&client).await;
        if page.record.is_empty() {
            tokio::time::sleep(Duration::from_millis(50)).await;
            continue;
        }
        let game = check(&page);
        if changed.elapsed() > Duration::from_secs(20) {
            let png = client.screenshot().await.unwrap();
            std::fs::write(screenshot_path("senet-serve-stuck.png"), png).unwrap();
            panic!(
                "the page is stuck: {} (can throw: {}, movable: {}, buttons: {})\n{}",
                page.status, page.can_throw, page.movable, page.move_buttons, page.record
            );
        }
        if page.record != last_record {
            changed = Instant::now();
            last_record = page.record.clone();
            // The narration of the last action names who acted.
            if let Some(line) = page.log.last() {
                assert!(
                    line.starts_with("Black ") || line.starts_with("White "),
                    "{line}"
                );
            }
        }
        match game.phase() {
            Phase::Over(_) => {
                assert!(page.status.contains("The game is over"), "{}", page.status);
                assert!(page.log.last().unwrap().contains("The game is over"));
                break;
            }
            Phase::Throw(Side::Black) if page.can_throw => click(&client, "#throw").await,
            Phase::Move(Side::Black) if page.movable > 0 => {
                if human_moves >= 12 && !shot {
                    // A game well under way with the hints open: for the README and for a
                    // look at the layout. A turn with one legal move has nothing to
                    // weigh, so the picture waits for a turn with a choice.
                    click(&client, "#hint").await;
                    let hints = client
                        .wait()
                        .for_element(Locator::Css("#hints table"))
                        .await
                        .unwrap();
                    let text = hints.text().await.unwrap();
                    if text.contains("forced") {
                        assert_eq!(text.lines().count(), 2, "{text}");
                    } else {
                        assert!(text.contains("% to win"), "{text}");
                        let png = client.screenshot().await.unwrap();
                        std::fs::write(screenshot_path("senet-serve.png"), png).unwrap();
                        shot = true;
                    }
                }
                click(&client, "#board .square.movable").await;
                let targets = client
                    .find_all(Locator::Css("#board .square.target, #trays button.target"))
                    .await
                    .unwrap();
                if let Some(target) = targets.first() {
                    target.click().await.unwrap();
                } else {
                    click(&client, "#moves button").await;
                }
                human_moves += 1;
                // Wait for the move to be drawn before the next look.
                wait_for_change(&client, &page.record).await;
            }
            Phase::Move(Side::Black) if page.move_buttons > 0 => {
                // No piece can move: the only moves are passes, offered as buttons.
                click(&client, "#moves button").await;
                wait_for_change(&client, &page.record).await;
            }
            _ => tokio::time::sleep(Duration::from_millis(30)).await,
        }
    }
    assert!(human_moves > 5, "{human_moves} moves clicked");
    assert!(
        shot,
        "no turn after the twelfth move offered a choice to hint at"
    );

    // The game just played, analysed: a chart point a position.
    click(&client, "#analyse").await;
    client
        .wait()
        .at_most(Duration::from_secs(60))
        .for_element(Locator::Css("#analysis-chart .point"))
        .await
        .unwrap();
    let played = check(&snapshot(&client).await).history().len();
    let dots = client
        .find_all(Locator::Css("#analysis-chart .point"))
        .await
        .unwrap();
    assert_eq!(dots.len(), played + 1, "one point a position");

    // Undo takes back Black's last move and what followed, keeping the throw it spent; redo
    // puts it all back.
    let finished = snapshot(&client).await.record;
    click(&client, "#undo").await;
    wait_for_change(&client, &finished).await;
    let undone = snapshot(&client).await;
    check(&undone);
    assert!(
        finished.starts_with(&undone.record),
        "undo keeps the record's start"
    );
    let last = undone.record.lines().last().unwrap();
    assert!(
        last.starts_with("throw "),
        "the throw stays after an undo: {last}"
    );
    click(&client, "#redo").await;
    wait_for_change(&client, &undone.record).await;
    assert_eq!(snapshot(&client).await.record, finished);

    // The same page on a phone-sized screen.
    client.set_window_size(390, 844).await.unwrap();
    let png = client.screenshot().await.unwrap();
    std::fs::write(screenshot_path("senet-serve-phone.png"), png).unwrap();
    let width = client
        .execute(
            "return document.getElementById('board').getBoundingClientRect().right;",
            vec![],
        )
        .await
        .unwrap();
    let viewport = client
        .execute("return document.documentElement.clientWidth;", vec![])
        .await
        .unwrap();
    assert!(
        width.as_f64().unwrap() <= viewport.as_f64().unwrap(),
        "the board ({width}) must fit a phone's width ({viewport})"
    );
    client.close().await.unwrap();
}

async fn wait_for_change(client: &Client, record: &str) {
    let started = Instant::now();
    while started.elapsed() < Duration::from_secs(10) {
        let now = client
            .execute(
                "return document.getElementById('record').textContent;",
                vec![],
            )
            .await
            .unwrap();
        if now.as_str() != Some(record) {
            return;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    panic!("the page did not change after a click");
}

/// Clicks the middle of `element` as a mouse would, at whatever lies on top there: a chart's
/// dots overlap, which WebDriver's element click refuses as intercepted.
async fn click_at(client: &Client, element: fantoccini::elements::Element) {
    let mouse = MouseActions::new("mouse".to_string())
        .then(PointerAction::MoveToElement {
            element,
            duration: None,
            x: 0.0,
            y: 0.0,
        })
        .then(PointerAction::Down {
            button: MOUSE_BUTTON_LEFT,
        })
        .then(PointerAction::Up {
            button: MOUSE_BUTTON_LEFT,
        });
    client.perform_actions(mouse).await.unwrap();
}

/// Waits until the replay viewer shows `at` actions, and returns the board then.
async fn board_at(client: &Client, at: usize, of: usize) -> String {
    let started = Instant::now();
    let want = format!("{at} / {of}");
    loop {
        let shown = client
            .execute(
                "return document.getElementById('replay-at').textContent;",
                vec![],
            )
            .await
            .unwrap();
        if shown.as_str() == Some(want.as_str()) {
            return snapshot(client).await.board;
        }
        assert!(
            started.elapsed() < Duration::from_secs(20),
            "the board did not show action {want}: {shown}"
        );
        tokio::time::sleep(Duration::from_millis(30)).await;
    }
}

/// The analysis view of a finished game loaded from a file: the chart has a point for each
/// position, a point or a costly move clicked shows its position (the server's analysis says
/// which) as a read-only replay, and "Back to the game" returns to the game's end; on a
/// phone's width the chart fits.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_analysis_view_charts_a_loaded_game_and_shows_its_positions() {
    let Some([chromium, chromedriver]) = BROWSER
        .find("serve_browser analysis")
        .map(|paths| <[PathBuf; 2]>::try_from(paths).unwrap())
    else {
        return;
    };
    // A finished Regency game of a few hundred actions, as a record file.
    let game = (0..)
        .map(|seed| {
            let mut game = AnyGame::new(AnyRuleset::parse("regency").unwrap());
            game.play_random(&mut senet::rng::seeded(seed, 0), senet::DEFAULT_TURN_CAP);
            game
        })
        .find(|g| matches!(g.phase(), Phase::Over(_)) && (300..1200).contains(&g.history().len()))
        .unwrap();
    let actions = game.history().len();
    let files = tempfile::tempdir().unwrap();
    let path = files.path().join("finished.txt");
    std::fs::write(&path, game.record_text()).unwrap();

    let server = Server::start();
    let analysis: Value = reqwest::Client::new()
        .post(format!("{}api/analyse", server.url))
        .json(&json!({ "record": game.record_text() }))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let position =
        |at: usize| analysis["points"][at]["position"].as_str().unwrap()[..30].to_string();
    let driver = Driver::start(chromium, &chromedriver);
    let client = driver.connect().await;
    client
        .goto(&format!("{}?pace=0", server.url))
        .await
        .unwrap();
    while snapshot(&client).await.record.is_empty() {
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    client
        .find(Locator::Css("#load"))
        .await
        .unwrap()
        .send_keys(&path.display().to_string())
        .await
        .unwrap();
    let started = Instant::now();
    let end = loop {
        let page = snapshot(&client).await;
        if !page.record.is_empty() && check(&page).history() == game.history() {
            break page.board;
        }
        assert!(
            started.elapsed() < Duration::from_secs(20),
            "the record did not load"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    };

    // The request goes out at once, and the panel says so until the answer is drawn.
    let status = client
        .execute(
            "document.getElementById('analyse').click();
             return document.getElementById('analysis-status').textContent;",
            vec![],
        )
        .await
        .unwrap();
    assert_eq!(status, "analysing…");
    client
        .wait()
        .at_most(Duration::from_secs(60))
        .for_element(Locator::Css("#analysis-chart .point"))
        .await
        .unwrap();
    let dots = client
        .find_all(Locator::Css("#analysis-chart .point"))
        .await
        .unwrap();
    assert_eq!(dots.len(), actions + 1, "one point a position");
    let exact = client
        .find_all(Locator::Css("#analysis-chart .point.exact"))
        .await
        .unwrap();
    let exact_in_json = analysis["points"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|p| p["exact"] == true)
        .count();
    assert_eq!(exact.len(), exact_in_json);
    let costly: Vec<Value> = analysis["steps"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|s| s["kind"] == "move" && !s["label"].is_null())
        .cloned()
        .collect();
    let marks = client
        .find_all(Locator::Css("#analysis-chart .mark"))
        .await
        .unwrap();
    assert_eq!(marks.len(), costly.len());
    let text = client
        .find(Locator::Css("#analysis"))
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(
        text.contains("Black played better")
            || text.contains("White played better")
            || text.contains("Neither"),
        "{text}"
    );
    assert!(text.contains("luck-adjusted"), "{text}");

    // A point clicked: the board shows its position, read-only. In a long game several
    // points share a pixel across; the one clicked is one that no other point comes within 3
    // pixels of, so that where the click lands cannot be in doubt.
    let clear = client
        .execute(
            "const dots = [...document.querySelectorAll('#analysis-chart .point')]
               .map((c) => [Number(c.getAttribute('cx')), Number(c.getAttribute('cy'))]);
             for (let k = Math.floor(dots.length / 3); k < dots.length; k++) {
               const [x, y] = dots[k];
               if (dots.every(([a, b], j) => j === k || Math.abs(a - x) > 3 || Math.abs(b - y) > 3)) {
                 return k;
               }
             }
             return null;",
            vec![],
        )
        .await
        .unwrap();
    let at = clear.as_u64().expect("a point clear of the others") as usize;
    let dot = client
        .find(Locator::Css(&format!(
            "#analysis-chart .point[data-at='{at}']"
        )))
        .await
        .unwrap();
    click_at(&client, dot).await;
    assert_eq!(board_at(&client, at, actions).await, position(at));
    let page = snapshot(&client).await;
    assert!(
        !page.can_throw && page.movable == 0 && page.move_buttons == 0,
        "the view is read-only"
    );
    let png = client.screenshot().await.unwrap();
    std::fs::write(screenshot_path("senet-analysis.png"), png).unwrap();

    // A costly move clicked: the position where it was chosen.
    if let Some(first) = costly.first() {
        let action = first["action"].as_u64().unwrap() as usize;
        click(&client, "#analysis-costly button").await;
        assert_eq!(board_at(&client, action, actions).await, position(action));
    }

    // On a phone's width the chart is drawn again to fit.
    client.set_window_size(390, 844).await.unwrap();
    tokio::time::sleep(Duration::from_millis(400)).await;
    let fits = client
        .execute(
            "const svg = document.getElementById('analysis-svg');
             return svg.getBoundingClientRect().right <= document.documentElement.clientWidth
               && document.documentElement.scrollWidth <= document.documentElement.clientWidth;",
            vec![],
        )
        .await
        .unwrap();
    assert_eq!(fits, true, "the analysis must fit a phone's width");
    client
        .execute(
            "document.getElementById('analysis').scrollIntoView();",
            vec![],
        )
        .await
        .unwrap();
    let png = client.screenshot().await.unwrap();
    std::fs::write(screenshot_path("senet-analysis-phone.png"), png).unwrap();

    // Back to the game: its last position, and the replay controls gone.
    click(&client, "#replay-leave").await;
    let started = Instant::now();
    loop {
        let hidden = client
            .execute(
                "return document.getElementById('replay-controls').hidden;",
                vec![],
            )
            .await
            .unwrap();
        let page = snapshot(&client).await;
        if hidden == true && page.board == end {
            assert!(page.status.contains("The game is over"), "{}", page.status);
            break;
        }
        assert!(
            started.elapsed() < Duration::from_secs(20),
            "not back to the game"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    client.close().await.unwrap();
}
