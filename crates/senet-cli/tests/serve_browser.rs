//! `senet serve`'s page in a real browser: headless Chromium driven over WebDriver
//! (Debian's `chromium` and `chromium-driver`, which `.ci/run` installs). They are found on
//! `PATH`, or through `SENET_CHROMIUM` and `SENET_CHROMEDRIVER`; without them the test passes
//! after one skip line, unless `SENET_REQUIRE_BROWSER=1` (set by `.ci/run`). A person plays
//! Black in a Regency game against the random player by clicking pieces and their
//! destinations until the game ends; after every change the board drawn in the page must be
//! the engine's board for the record the page holds, and the log must narrate every action.

mod common;

use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use common::server::Server;
use fantoccini::{Client, ClientBuilder, Locator};
use hyper_util::client::legacy::connect::HttpConnector;
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
