//! `senet serve`'s page in a real browser: headless Chromium driven over WebDriver
//! (Debian's `chromium` and `chromium-driver`, which `.ci/run` installs). They are found on
//! `PATH`, or through `SENET_CHROMIUM` and `SENET_CHROMEDRIVER`; without them the tests pass
//! after one skip line, unless `SENET_REQUIRE_BROWSER=1` (set by `.ci/run`).
//!
//! - Every registered ruleset is played to its end in the page: a person clicks pieces and
//!   their destinations (16 moves of Regency, with a hint, 3 of the others), after which the
//!   page's own player menu hands Black to the computer too; after every change
//!   the board drawn must be the engine's board for the record the page holds, the log must
//!   narrate every action, and at the end the result banner must give the engine's result
//!   (and the score, for the rulesets that score). A reload keeps the finished game.
//! - A finished game loaded from a file is analysed, and the analysis view's chart and lists
//!   must show the positions the server's analysis names.
//! - axe-core audits the page (a game under way, dark, a finished game opened by its link, a
//!   phone's width): no violation of impact serious or critical. axe-core is read from
//!   `SENET_AXE_CORE` or from where `.ci/run` installs it (`npm install --no-save --prefix
//!   target/axe axe-core@4`); without it that test passes after one skip line, unless
//!   `SENET_REQUIRE_AXE=1` (set by `.ci/run`).
//!
//! With `SENET_SCREENSHOTS=DIR` (e.g. `docs`) the screenshots `web-start.png`,
//! `web-mid-game.png`, `web-end.png`, `web-dark.png` and `web-phone.png` are written there;
//! otherwise they, and the others, go to `target/tmp/`.

mod common;

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use common::browser::{Browser, choose_player, click, click_a_move};
use common::server::{Server, json_answer};
use fantoccini::actions::{InputSource, MOUSE_BUTTON_LEFT, MouseActions, PointerAction};
use fantoccini::{Client, Locator};
use senet::registry::{AnyRuleset, RULESETS};
use senet::{AnyGame, Phase, Side};
use serde_json::{Value, json};

/// What the page shows, read in one script so that it is one consistent moment.
const SNAPSHOT: &str = r#"
const squares = [...document.querySelectorAll('#board .square')]
  .sort((a, b) => a.dataset.square - b.dataset.square)
  .map((s) => s.dataset.piece || '.').join('');
return {
  board: squares,
  record: document.getElementById('record').textContent,
  status: document.getElementById('status').textContent,
  logLength: document.querySelectorAll('#log li').length,
  lastLog: document.querySelector('#log li:last-child')?.textContent ?? null,
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
    /// The log's number of lines, and its last.
    log_length: usize,
    last_log: Option<String>,
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
        log_length: v["logLength"].as_u64().unwrap() as usize,
        last_log: v["lastLog"].as_str().map(str::to_string),
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
        page.log_length,
        game.history().len(),
        "one log line per action"
    );
    game
}

/// Where the screenshot `name` goes: the `web-*.png` ones to `SENET_SCREENSHOTS` when set
/// (`docs` for the pictures of `docs/web.md` and README.md; relative to the workspace),
/// everything else to `target/tmp/`.
fn screenshot_path(name: &str) -> PathBuf {
    match std::env::var_os("SENET_SCREENSHOTS") {
        Some(dir) if name.starts_with("web-") && !dir.is_empty() => {
            // A relative directory is the workspace's (tests run in the crate's directory).
            let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("../..")
                .join(dir);
            std::fs::create_dir_all(&dir).unwrap();
            dir.join(name)
        }
        _ => Path::new(env!("CARGO_TARGET_TMPDIR")).join(name),
    }
}

async fn screenshot(client: &Client, name: &str) {
    let png = client.screenshot().await.unwrap();
    std::fs::write(screenshot_path(name), png).unwrap();
}

/// Opens a new page on a new game of `rules`, Black a person, White `white`.
async fn open_game(client: &Client, server: &Server, rules: &str, white: &str) {
    client.goto("about:blank").await.unwrap();
    client
        .goto(&format!(
            "{}?pace=0#rules={rules}&black=human&white={white}",
            server.url
        ))
        .await
        .unwrap();
    let started = Instant::now();
    loop {
        let page = snapshot(client).await;
        if !page.record.is_empty() && page.record.starts_with(&format!("rules {rules}\n")) {
            return;
        }
        assert!(
            started.elapsed() < Duration::from_secs(20),
            "no game of {rules}: {}",
            page.record
        );
        tokio::time::sleep(Duration::from_millis(30)).await;
    }
}

/// The result banner against the engine's outcome of `game`; `person` is the side a person
/// plays alone, if any ("You won"), else the banner names the winner.
async fn check_banner(client: &Client, game: &AnyGame, person: Option<Side>) {
    let outcome = game.outcome().expect("the game is over");
    let banner = client
        .execute(
            "const r = document.getElementById('result');
             return { hidden: r.hidden,
               title: document.getElementById('result-title').textContent,
               summary: document.getElementById('result-summary').textContent,
               score: document.getElementById('result-score').hidden ? ''
                 : document.getElementById('result-score').textContent,
               sticks: document.getElementById('sticks').textContent };",
            vec![],
        )
        .await
        .unwrap();
    let text = |k: &str| banner[k].as_str().unwrap().to_string();
    assert_eq!(banner["hidden"], false, "no result banner: {banner}");
    let title = match (outcome.winner, person) {
        (None, _) => "A draw".to_string(),
        (Some(w), Some(p)) if w == p => "You won".to_string(),
        (Some(_), Some(_)) => "You lost".to_string(),
        (Some(w), None) => format!("{w} wins"),
    };
    assert_eq!(text("title"), title, "{banner}");
    let rules = game.rules();
    let summary = text("summary");
    if let Some(w) = outcome.winner {
        assert!(summary.starts_with(&w.to_string()), "{summary}");
    }
    let ancient = rules.to_string().contains("ancient=true");
    if rules.id() != "bell" && !ancient {
        let all = format!("bore off all {} pieces first", rules.pieces_per_side());
        assert!(summary.contains(&all), "{summary}");
    }
    let score = text("score");
    let winner = outcome.winner.unwrap_or(Side::Black);
    match rules.id() {
        "regency" | "jequier" => {
            let p = outcome.points_of(winner);
            assert!(score.contains(&format!("scores {p} point")), "{score}");
        }
        "botermans" => {
            let p = -outcome.points_of(!winner);
            assert!(score.contains(&format!("penalty of {p} point")), "{score}");
        }
        _ => assert_eq!(score, "", "{} keeps no score", rules.id()),
    }
    assert!(
        !text("sticks").contains("to throw"),
        "the sticks wait for a throw after the end: {}",
        text("sticks")
    );
}

/// How many of Black's moves a person clicks in each ruleset before the computer takes
/// Black too: enough in Regency for a hint and a picture of a game well under way, a few in
/// the others. (The banner's "You won" or "You lost" is checked by the accessibility test.)
fn person_moves(rules: &str) -> usize {
    if rules == "regency" { 16 } else { 3 }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_ruleset_is_played_to_its_end_in_the_page() {
    let Some(browser) = Browser::find("serve_browser") else {
        return;
    };
    let server = Server::start();
    let driver = browser.driver();
    let client = driver.connect().await;
    let all_started = Instant::now();
    for info in RULESETS {
        let rules = info.id;
        open_game(&client, &server, rules, "greedy").await;
        let started = Instant::now();
        let mut last_record = String::new();
        let mut human_moves = 0;
        let mut person = Some(Side::Black);
        let mut shot = false;
        let mut changed = Instant::now();
        if rules == "regency" {
            screenshot(&client, "web-start.png").await;
        }
        let game = loop {
            assert!(
                started.elapsed() < Duration::from_secs(300),
                "{rules}: the game did not end in 5 minutes"
            );
            let page = snapshot(&client).await;
            let game = check(&page);
            if changed.elapsed() > Duration::from_secs(20) {
                screenshot(&client, "senet-serve-stuck.png").await;
                panic!(
                    "{rules}: the page is stuck: {} (can throw: {}, movable: {}, buttons: {})\n{}",
                    page.status, page.can_throw, page.movable, page.move_buttons, page.record
                );
            }
            if page.record != last_record {
                changed = Instant::now();
                last_record = page.record.clone();
                // The narration of the last action names who acted.
                if let Some(line) = &page.last_log {
                    assert!(
                        line.starts_with("Black ") || line.starts_with("White "),
                        "{line}"
                    );
                }
            }
            if person.is_some() && human_moves >= person_moves(rules) {
                // The person hands Black to the computer, which plays both sides to the end.
                choose_player(&client, "black", "greedy").await;
                person = None;
                continue;
            }
            match game.phase() {
                Phase::Over(_) => {
                    assert!(page.status.contains("The game is over"), "{}", page.status);
                    assert!(page.last_log.unwrap().contains("The game is over"));
                    break game;
                }
                Phase::Throw(Side::Black) if person.is_some() && page.can_throw => {
                    click(&client, "#throw").await;
                    wait_for_change(&client, &page.record).await;
                }
                Phase::Move(Side::Black)
                    if person.is_some() && (page.movable > 0 || page.move_buttons > 0) =>
                {
                    if rules == "regency" && human_moves >= 12 && !shot && page.movable > 0 {
                        // A game well under way with the hints open: for the README and
                        // for a look at the layout. A turn with one legal move has nothing
                        // to weigh, so the picture waits for a turn with a choice.
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
                            screenshot(&client, "web-mid-game.png").await;
                            shot = true;
                        }
                    }
                    if rules == "kendall" && human_moves == 2 && page.movable > 0 {
                        // Dark colours, chosen with the page's button.
                        click(&client, "#theme").await;
                        screenshot(&client, "web-dark.png").await;
                        click(&client, "#theme").await;
                    }
                    if rules == "piccione" && human_moves == 2 {
                        // A phone's screen: the board upright, every square large enough
                        // to touch, and the whole page within the width.
                        client.set_window_size(390, 844).await.unwrap();
                        tokio::time::sleep(Duration::from_millis(200)).await;
                        check_phone(&client).await;
                        screenshot(&client, "web-phone.png").await;
                        client.set_window_size(1280, 1000).await.unwrap();
                    }
                    click_a_move(&client, page.movable > 0).await;
                    wait_for_change(&client, &page.record).await;
                    human_moves += 1;
                }
                // The computer plays: a look every 100 ms leaves the cores to it.
                _ if person.is_none() => tokio::time::sleep(Duration::from_millis(100)).await,
                _ => tokio::time::sleep(Duration::from_millis(20)).await,
            }
        };
        check_banner(&client, &game, person).await;
        assert!(human_moves >= 3.min(person_moves(rules)), "{rules}");
        if rules == "regency" {
            assert!(human_moves > 5, "{human_moves} moves clicked");
            assert!(
                shot,
                "no turn after the twelfth move offered a choice to hint at"
            );
            regency_after_the_end(&client, &game).await;
        }
        eprintln!(
            "{rules}: {} actions, {human_moves} clicked, {:.1} s",
            game.history().len(),
            started.elapsed().as_secs_f64()
        );
    }
    eprintln!(
        "every ruleset played in {:.1} s",
        all_started.elapsed().as_secs_f64()
    );
    client.close().await.unwrap();
}

/// On a phone's width: the board fits, its squares are at least 40 pixels each way, and the
/// page does not scroll sideways.
async fn check_phone(client: &Client) {
    let sizes = client
        .execute(
            "const board = document.getElementById('board').getBoundingClientRect();
             const square = document.getElementById('sq-1').getBoundingClientRect();
             return [board.right, document.documentElement.clientWidth,
               square.width, square.height, document.documentElement.scrollWidth];",
            vec![],
        )
        .await
        .unwrap();
    let [right, width, w, h, scroll] = [0, 1, 2, 3, 4].map(|k| sizes[k].as_f64().unwrap());
    assert!(
        right <= width,
        "the board ({right}) must fit the phone's width ({width})"
    );
    assert!(w >= 40.0 && h >= 40.0, "squares of {w}×{h} px on a phone");
    assert!(
        scroll <= width,
        "the page scrolls sideways on a phone ({scroll} > {width})"
    );
}

/// The Regency game just finished: analysed (a chart point a position), an undo and a redo,
/// and a reload that keeps the game.
async fn regency_after_the_end(client: &Client, game: &AnyGame) {
    click(client, "#analyse").await;
    client
        .wait()
        .at_most(Duration::from_secs(60))
        .for_element(Locator::Css("#analysis-chart .point"))
        .await
        .unwrap();
    let played = check(&snapshot(client).await).history().len();
    let dots = client
        .find_all(Locator::Css("#analysis-chart .point"))
        .await
        .unwrap();
    assert_eq!(dots.len(), played + 1, "one point a position");

    // Undo takes back Black's last move and what followed, keeping the throw it spent; redo
    // puts it all back. (A person plays Black again: undo takes back a person's moves.)
    choose_player(client, "black", "human").await;
    check_banner(client, game, Some(Side::Black)).await;
    screenshot(client, "web-end.png").await;
    let finished = snapshot(client).await.record;
    click(client, "#undo").await;
    wait_for_change(client, &finished).await;
    let undone = snapshot(client).await;
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
    click(client, "#redo").await;
    wait_for_change(client, &undone.record).await;
    assert_eq!(snapshot(client).await.record, finished);

    // A reload opens the same game, from the address (which the page updates within 300 ms).
    tokio::time::sleep(Duration::from_millis(600)).await;
    client.refresh().await.unwrap();
    let started = Instant::now();
    loop {
        let page = snapshot(client).await;
        if page.record == finished {
            break;
        }
        if started.elapsed() > Duration::from_secs(20) {
            screenshot(client, "senet-serve-reload.png").await;
            let url = client.current_url().await.unwrap();
            let tail = |r: &str| r.lines().rev().take(4).collect::<Vec<_>>().join(" | ");
            panic!(
                "a reload lost the game: {url}\nnow: {}\nwas: {}",
                tail(&page.record),
                tail(&finished)
            );
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// Waits until the page's record is no longer `record`: a click answered.
async fn wait_for_change(client: &Client, record: &str) {
    common::browser::wait_for_change(client, record, Duration::from_secs(10)).await;
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
    let Some(browser) = Browser::find("serve_browser analysis") else {
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
    let request = reqwest::Client::new()
        .post(server.at("/api/analyse"))
        .json(&json!({ "record": game.record_text() }));
    let analysis = json_answer(request).await;
    let position =
        |at: usize| analysis["points"][at]["position"].as_str().unwrap()[..30].to_string();
    let driver = browser.driver();
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
    screenshot(&client, "senet-analysis.png").await;

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
    screenshot(&client, "senet-analysis-phone.png").await;

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

/// Where `.ci/run` installs axe-core (`npm install --no-save --prefix target/axe axe-core@4`).
const AXE_INSTALL: &str = "npm install --no-save --prefix target/axe axe-core@4";

/// axe-core's script: from `SENET_AXE_CORE`, or where `.ci/run` installs it; `None` after one
/// skip line when it is missing, unless `SENET_REQUIRE_AXE=1` (set by `.ci/run`).
fn axe_core() -> Option<String> {
    let path = match std::env::var_os("SENET_AXE_CORE") {
        Some(path) => PathBuf::from(path),
        None => Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../target/axe/node_modules/axe-core/axe.min.js"),
    };
    match std::fs::read_to_string(&path) {
        Ok(script) => Some(script),
        Err(_) => {
            let test = "serve_browser accessibility";
            let missing = format!("axe-core not found at {}", path.display());
            let how = format!("install: {AXE_INSTALL}, or set SENET_AXE_CORE");
            common::skip_unless_required(test, "SENET_REQUIRE_AXE", &missing, &how);
            None
        }
    }
}

/// Runs axe-core on the page as it is and fails on any violation of impact serious or
/// critical, naming `when`.
async fn audit(client: &Client, axe: &str, when: &str) {
    let loaded = client
        .execute("return typeof axe !== 'undefined';", vec![])
        .await
        .unwrap();
    if loaded != true {
        client
            .execute(&format!("{axe}\n;return true;"), vec![])
            .await
            .unwrap();
    }
    let violations = client
        .execute_async(
            "const done = arguments[arguments.length - 1];
             axe.run(document, { resultTypes: ['violations'] }).then((r) => done(
               r.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')
                 .map((v) => `${v.impact} ${v.id}: ${v.help} at `
                   + v.nodes.slice(0, 4).map((n) => n.target.join(' ')).join(', '))),
               (e) => done([`axe failed: ${e}`]));",
            vec![],
        )
        .await
        .unwrap();
    let list: Vec<String> = violations
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap().to_string())
        .collect();
    assert!(list.is_empty(), "{when}: {}", list.join("\n"));
}

/// axe-core's audit of the page: a game under way, light and dark, a finished game opened
/// by its link (the result banner), and a phone's width.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_page_passes_an_accessibility_audit() {
    let Some(browser) = Browser::find("serve_browser accessibility") else {
        return;
    };
    let Some(axe) = axe_core() else {
        return;
    };
    let server = Server::start();
    let driver = browser.driver();
    let client = driver.connect().await;
    open_game(&client, &server, "regency", "greedy").await;
    click(&client, "#throw").await;
    wait_for_change(&client, "rules regency\nrevision 1\n").await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    audit(&client, &axe, "a new game").await;
    click(&client, "#theme").await;
    audit(&client, &axe, "a new game, dark").await;
    click(&client, "#theme").await;

    // A finished game, opened by its link: the banner.
    let game = (0..)
        .map(|seed| {
            let mut game = AnyGame::new(AnyRuleset::parse("kendall").unwrap());
            game.play_random(&mut senet::rng::seeded(seed, 0), senet::DEFAULT_TURN_CAP);
            game
        })
        .find(|g| matches!(g.phase(), Phase::Over(_)))
        .unwrap();
    let link = client
        .execute(
            "const bytes = new TextEncoder().encode(arguments[0]);
             let binary = '';
             for (const b of bytes) binary += String.fromCharCode(b);
             return btoa(binary).replace(/\\+/g, '-').replace(/\\//g, '_').replace(/=+$/, '');",
            vec![json!(game.record_text())],
        )
        .await
        .unwrap();
    client.goto("about:blank").await.unwrap();
    client
        .goto(&format!(
            "{}?pace=0#record={}&black=human&white=greedy",
            server.url,
            link.as_str().unwrap()
        ))
        .await
        .unwrap();
    let started = Instant::now();
    loop {
        let page = snapshot(&client).await;
        if !page.record.is_empty() && check(&page).history() == game.history() {
            break;
        }
        assert!(
            started.elapsed() < Duration::from_secs(20),
            "the link did not open the game"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    check_banner(&client, &game, Some(Side::Black)).await;
    // The menus show the game's ruleset.
    let menu = client
        .execute("return document.getElementById('ruleset').value;", vec![])
        .await
        .unwrap();
    assert_eq!(menu, "kendall");
    audit(&client, &axe, "a finished game").await;
    client.set_window_size(390, 844).await.unwrap();
    tokio::time::sleep(Duration::from_millis(200)).await;
    audit(&client, &axe, "a phone's width").await;

    // Play again: a new game of the same configuration, the banner gone.
    click(&client, "#play-again").await;
    let started = Instant::now();
    loop {
        let page = snapshot(&client).await;
        let hidden = client
            .execute("return document.getElementById('result').hidden;", vec![])
            .await
            .unwrap();
        if page.record.starts_with("rules kendall\n") && page.log_length == 0 && hidden == true {
            break;
        }
        assert!(
            started.elapsed() < Duration::from_secs(20),
            "Play again did not start a new game"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    client.close().await.unwrap();
}
