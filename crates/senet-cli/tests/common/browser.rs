//! Headless Chromium driven over WebDriver: Debian's `chromium` and `chromium-driver`, which
//! `.ci/run` installs, found on `PATH` or through `SENET_CHROMIUM` and `SENET_CHROMEDRIVER`
//! ([`BROWSER`]); without them a test passes after one skip line naming the install command,
//! unless `SENET_REQUIRE_BROWSER=1` (set by `.ci/run`).

use std::net::TcpListener;
#[cfg(unix)]
use std::os::unix::process::CommandExt;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use fantoccini::{Client, ClientBuilder, Locator};
use hyper_util::client::legacy::connect::HttpConnector;
use senet_testkit::external::BROWSER;
use serde_json::{Value, json};

/// The two programs a browser test needs.
pub(crate) struct Browser {
    chromium: PathBuf,
    chromedriver: PathBuf,
}

impl Browser {
    /// Chromium and chromedriver, or `None` after one line saying that `test` was skipped
    /// (a failure with `SENET_REQUIRE_BROWSER=1`).
    pub(crate) fn find(test: &str) -> Option<Browser> {
        let [chromium, chromedriver] = <[PathBuf; 2]>::try_from(BROWSER.find(test)?).unwrap();
        Some(Browser {
            chromium,
            chromedriver,
        })
    }

    /// A chromedriver of its own, on a free port, in a process group of its own (on Unix),
    /// which the browsers it starts join.
    pub(crate) fn driver(&self) -> Driver {
        let port = TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .unwrap()
            .port();
        let mut command = Command::new(&self.chromedriver);
        command
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null());
        #[cfg(unix)]
        command.process_group(0);
        let child = command.spawn().expect("chromedriver starts");
        Driver {
            child,
            url: format!("http://127.0.0.1:{port}"),
            chromium: self.chromium.clone(),
            profile: tempfile::tempdir().unwrap(),
        }
    }
}

/// A chromedriver on a free port with its own browser profile, stopped when dropped.
pub(crate) struct Driver {
    child: Child,
    url: String,
    chromium: PathBuf,
    profile: tempfile::TempDir,
}

impl Driver {
    /// A session of headless Chromium, 1280×1000 (tried again for 30 s while chromedriver
    /// starts).
    pub(crate) async fn connect(&self) -> Client {
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
                Err(_) if started.elapsed() < Duration::from_secs(30) => {
                    tokio::time::sleep(Duration::from_millis(200)).await;
                }
                Err(e) => panic!("no WebDriver session: {e}"),
            }
        }
    }
}

impl Drop for Driver {
    /// Stops chromedriver and, on Unix, every browser it started: killing chromedriver alone
    /// left the browsers of sessions never closed running after the tests (two Chromiums,
    /// 24 processes, after a run of `.ci/run`).
    fn drop(&mut self) {
        #[cfg(unix)]
        let _ = Command::new("kill")
            .args(["-KILL", "--", &format!("-{}", self.child.id())])
            .stderr(Stdio::null())
            .status();
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Clicks the first element `css` finds, which must be there.
pub(crate) async fn click(client: &Client, css: &str) {
    client
        .find(Locator::Css(css))
        .await
        .unwrap_or_else(|e| panic!("{css}: {e}"))
        .click()
        .await
        .unwrap_or_else(|e| panic!("{css}: {e}"));
}

/// Clicks one move for the side to act, as a person would: a framed piece (if `movable`)
/// and its destination, or the first of the move buttons when the board offers none.
pub(crate) async fn click_a_move(client: &Client, movable: bool) {
    if movable {
        click(client, "#board .square.movable").await;
        let targets = client
            .find_all(Locator::Css("#board .square.target, #trays button.target"))
            .await
            .unwrap();
        match targets.first() {
            Some(target) => target.click().await.unwrap(),
            None => click(client, "#moves button").await,
        }
    } else {
        click(client, "#moves button").await;
    }
}

/// The game record the page shows.
pub(crate) async fn record(client: &Client) -> String {
    let record = client
        .execute(
            "return document.getElementById('record').textContent;",
            vec![],
        )
        .await
        .unwrap();
    record.as_str().unwrap_or_default().to_string()
}

/// Waits, at most `within`, until the page's record is no longer `record`.
pub(crate) async fn wait_for_change(client: &Client, record: &str, within: Duration) {
    let started = Instant::now();
    while started.elapsed() < within {
        if self::record(client).await != record {
            return;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    panic!("the page did not change after a click");
}

/// Chooses `player` for `side` in the page's menu, as a person would; the menu must offer it.
pub(crate) async fn choose_player(client: &Client, side: &str, player: &str) {
    let chosen = client
        .execute(
            "const select = document.getElementById(arguments[0]);
             if (![...select.options].some((o) => o.value === arguments[1])) return false;
             select.value = arguments[1];
             select.dispatchEvent(new Event('change'));
             return true;",
            vec![json!(format!("player-{side}")), json!(player)],
        )
        .await
        .unwrap();
    assert_eq!(chosen, true, "the {side} menu does not offer {player}");
}
