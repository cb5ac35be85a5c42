//! Rooms in a real browser: headless Chromium over WebDriver, found as `serve_browser.rs`
//! finds it (without it the test passes after one skip line naming `apt-get install chromium
//! chromium-driver`, unless `SENET_REQUIRE_BROWSER=1`). One page opens a room with "Play a
//! friend"; two pages take its seats by their links and play the game to its end by clicking
//! the Throw button and the pieces, while a third page watches and must show the final
//! position, the result and the revealed seed.

mod common;

use std::time::{Duration, Instant};

use common::browser::{Browser, Driver};
use common::server::{Server, json_answer};
use fantoccini::{Client, Locator};
use senet::AnyGame;

/// The page's record, log length and whether its Throw button is enabled.
async fn page_state(client: &Client) -> (String, u64, bool) {
    let seen = client
        .execute(
            "return [document.getElementById('record').textContent, \
             document.querySelectorAll('#log li').length, \
             !document.getElementById('throw').disabled];",
            vec![],
        )
        .await
        .unwrap();
    (
        seen[0].as_str().unwrap_or_default().to_string(),
        seen[1].as_u64().unwrap_or(0),
        seen[2].as_bool().unwrap_or(false),
    )
}

/// Waits until `client` shows `actions` actions in its log.
async fn wait_for_actions(client: &Client, actions: u64, who: &str) {
    let started = Instant::now();
    loop {
        if page_state(client).await.1 == actions {
            return;
        }
        assert!(
            started.elapsed() < Duration::from_secs(30),
            "{who}'s page does not show action {actions}"
        );
        tokio::time::sleep(Duration::from_millis(30)).await;
    }
}

/// Clicks the first element `css` finds, waiting for it to appear.
async fn click(client: &Client, css: &str) {
    let started = Instant::now();
    loop {
        if let Ok(element) = client.find(Locator::Css(css)).await
            && element.click().await.is_ok()
        {
            return;
        }
        if started.elapsed() > Duration::from_secs(20) {
            let page = client
                .execute(
                    "return [document.getElementById('status').textContent, \
                     document.getElementById('guide').textContent, \
                     document.getElementById('error').textContent, \
                     document.getElementById('moves').innerHTML, \
                     document.getElementById('record').textContent.split('\\n').slice(-4).join(' | '), \
                     window.__errors, document.querySelectorAll('#board .square.movable').length, \
                     document.querySelectorAll('#board .square').length];",
                    vec![],
                )
                .await
                .ok();
            panic!("no {css} to click: {page:?}");
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// A move made as a person makes it: a framed piece then its destination, or the move's
/// button when the board offers none (a pass, a piece entering from the hand). Tried again
/// while the page redraws under the clicks.
async fn click_a_move(client: &Client) {
    let started = Instant::now();
    while started.elapsed() < Duration::from_secs(20) {
        let movable = client
            .find_all(Locator::Css("#board .square.movable"))
            .await
            .unwrap();
        if let Some(piece) = movable.first() {
            if piece.click().await.is_err() {
                continue;
            }
            let targets = client
                .find_all(Locator::Css(
                    "#board .square.target, #trays button.target, #moves button",
                ))
                .await
                .unwrap();
            if let Some(target) = targets.first()
                && target.click().await.is_ok()
            {
                return;
            }
        } else if let Ok(button) = client.find(Locator::Css("#moves button")).await
            && button.click().await.is_ok()
        {
            return;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    click(client, "#moves button").await;
}

async fn href(client: &Client, css: &str) -> String {
    client
        .find(Locator::Css(css))
        .await
        .unwrap()
        .attr("href")
        .await
        .unwrap()
        .unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_pages_play_a_room_to_its_end_while_a_third_watches() {
    let Some(browser) = Browser::find("serve_rooms_browser") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let server = Server::with_rooms(&dir.path().join("rooms.sqlite3"), &[]);
    let drivers: Vec<Driver> = (0..3).map(|_| browser.driver()).collect();
    let black = drivers[0].connect().await;
    let white = drivers[1].connect().await;
    let watcher = drivers[2].connect().await;
    // Black's page opens the room with the form: two people, on the ruleset of the header,
    // Bell here (the address chooses it), whose random games are a tenth as long as
    // Regency's: each action of a room is several round trips to the browsers.
    black.goto(&server.at("/?pace=0#rules=bell")).await.unwrap();
    click(&black, "#friend").await;
    click(&black, "#friend-create").await;
    let started = Instant::now();
    while black.find(Locator::Css("#link-watch")).await.is_err() {
        assert!(started.elapsed() < Duration::from_secs(20), "no links");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let black_link = href(&black, "#link-black").await;
    let white_link = href(&black, "#link-white").await;
    let watch_link = href(&black, "#link-watch").await;
    assert!(black_link.contains("#room=") && black_link.contains("&seat="));
    assert!(!watch_link.contains("seat="));
    let room = watch_link.rsplit("room=").next().unwrap().to_string();
    black.goto("about:blank").await.unwrap();
    black.goto(&black_link).await.unwrap();
    white.goto(&white_link).await.unwrap();
    watcher.goto(&watch_link).await.unwrap();
    for (client, who) in [
        (&black, "Black"),
        (&white, "White"),
        (&watcher, "the watcher"),
    ] {
        client
            .execute(
                "window.__errors = []; window.addEventListener('error', (e) => window.__errors.push(e.message)); \
                 window.addEventListener('unhandledrejection', (e) => window.__errors.push(String(e.reason)));",
                vec![],
            )
            .await
            .unwrap();
        wait_for_actions(client, 0, who).await;
        let title = client
            .find(Locator::Id("room-title"))
            .await
            .unwrap()
            .text()
            .await
            .unwrap();
        assert!(title.contains(&room), "{who}: {title}");
    }
    let http = reqwest::Client::new();
    let state_url = server.at(&format!("/api/rooms/{room}"));
    let state = || json_answer(http.get(&state_url));
    let started = Instant::now();
    let mut actions = 0u64;
    loop {
        let now = state().await;
        assert_eq!(now["actions"].as_u64(), Some(actions));
        let Some(side) = now["view"]["phase"]["side"].as_str() else {
            break;
        };
        let client = if side == "black" { &black } else { &white };
        // The page to act hears the last action at once; the watcher's, checked every so
        // often (each look costs a round trip to a browser), too.
        wait_for_actions(client, actions, side).await;
        if actions.is_multiple_of(16) {
            wait_for_actions(&watcher, actions, "the watcher").await;
        }
        if now["view"]["phase"]["kind"] == "throw" {
            click(client, "#throw:not([disabled])").await;
        } else {
            click_a_move(client).await;
        }
        let clicked = Instant::now();
        while state().await["actions"].as_u64() == Some(actions) {
            assert!(
                clicked.elapsed() < Duration::from_secs(20),
                "{side}'s click at action {actions} did nothing"
            );
            tokio::time::sleep(Duration::from_millis(30)).await;
        }
        actions += 1;
        assert!(
            started.elapsed() < Duration::from_secs(900),
            "the game takes too long"
        );
    }
    let end = state().await;
    let record = end["view"]["record"].as_str().unwrap();
    let game = AnyGame::from_record_text(record).unwrap();
    assert_eq!(
        game.rules().spec().to_string(),
        "bell",
        "the header's ruleset"
    );
    assert!(game.outcome().is_some());
    wait_for_actions(&watcher, actions, "the watcher").await;
    let (shown, _, _) = page_state(&watcher).await;
    assert_eq!(shown, record, "the watcher's page shows the final record");
    let seen = watcher
        .execute(
            "return [document.getElementById('result').hidden, \
             document.getElementById('result-title').textContent, \
             document.getElementById('room-seed').textContent, \
             [...document.querySelectorAll('#board .square')].map((s) => s.dataset.piece || '.').join('')];",
            vec![],
        )
        .await
        .unwrap();
    assert_eq!(seen[0], false, "the result banner is shown");
    let winner = match game.outcome().and_then(|o| o.winner) {
        Some(senet::Side::Black) => "Black wins",
        Some(senet::Side::White) => "White wins",
        None => "A draw",
    };
    assert_eq!(seen[1].as_str(), Some(winner));
    assert_eq!(seen[2].as_str(), end["seed"].as_str());
    assert_eq!(
        seen[3].as_str().unwrap(),
        &end["view"]["position"].as_str().unwrap()[..30]
    );
    // The players see their own result (Bell's games may end in a draw, Be-9).
    let title = black
        .find(Locator::Id("result-title"))
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    let black_sees = match game.outcome().and_then(|o| o.winner) {
        Some(senet::Side::Black) => "You won",
        Some(senet::Side::White) => "You lost",
        None => "A draw",
    };
    assert_eq!(title, black_sees);
    for client in [black, white, watcher] {
        client.close().await.unwrap();
    }
}
