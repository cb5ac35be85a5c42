//! The engine in the page (`crates/senet-wasm`) against `senet serve`.
//!
//! - Natively: the engine's answers to the page's requests are the server's JSON, byte for
//!   byte, wherever they are deterministic (the catalogue, games started and replayed, moves,
//!   throws given, hints and analyses of deterministic players, refusals).
//! - In headless Chromium (found as `serve_browser.rs` finds it): the page of the static build
//!   (`crates/senet-wasm/build-static.sh`, into `target/senet-static` or `SENET_STATIC_DIR`),
//!   served by a plain static file server started here, plays every ruleset to its end with no
//!   server behind it, a person first and then the computer players chosen in the page's
//!   menus; the same page under `senet serve` plays Regency and Kendall's stored throws to
//!   their end. The engine's load time and random playouts a second in the page are printed
//!   (`docs/web.md`). Without the static build the browser test passes after one skip line
//!   naming the command that builds it, unless `SENET_REQUIRE_WASM=1` (set by `.ci/run`).

mod common;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use axum::http::{StatusCode, Uri, header};
use axum::response::{IntoResponse, Response};
use common::browser::{Browser, choose_player, click, click_a_move, record};
use common::server::Server;
use fantoccini::{Client, Locator};
use senet::registry::{AnyRuleset, RULESETS};
use senet::rng::{ChaCha8Rng, SeedableRng};
use senet::{AnyGame, Phase, Side};
use senet_wasm::Engine;
use serde_json::{Value, json};

/// A game of `rules` played with random throws and moves from `seed`, at most `turns` turns.
fn seeded(rules: &str, seed: u64, turns: u32) -> AnyGame {
    let mut game = AnyGame::new(rules.parse().unwrap());
    game.play_random(&mut ChaCha8Rng::seed_from_u64(seed), turns);
    game
}

/// POSTs `body` to the server's `path` (GET when `body` is `None`): the status and text.
fn server_answer(server: &Server, path: &str, body: Option<&Value>) -> (u16, String) {
    let client = reqwest::blocking::Client::new();
    let url = format!("{}{}", server.url, path.trim_start_matches('/'));
    let response = match body {
        Some(body) => client.post(url).json(body).send(),
        None => client.get(url).send(),
    }
    .unwrap();
    let status = response.status().as_u16();
    (status, response.text().unwrap())
}

#[test]
fn the_engine_answers_as_the_server_does() {
    let server = Server::start();
    let mut engine = Engine::new([3; 32]);
    let mut same = |path: &str, body: Option<Value>| {
        let (status, expected) = server_answer(&server, path, body.as_ref());
        let text = body.as_ref().map_or(String::new(), Value::to_string);
        match engine.call(path, &text) {
            Ok(answer) => {
                assert_eq!(status, 200, "{path} {text}: the server refused: {expected}");
                assert_eq!(answer, expected, "{path} {text}");
            }
            Err(error) => {
                assert_eq!(status, 400, "{path} {text}: the server answered {expected}");
                let expected: Value = serde_json::from_str(&expected).unwrap();
                assert_eq!(expected["error"], error.to_string(), "{path} {text}");
            }
        }
    };
    same("/api/rulesets", None);
    for info in RULESETS {
        let rules = info.id;
        same("/api/game", Some(json!({ "rules": rules })));
        // A game under way where a throw is due, then where a move is due, each answered.
        let mut game = seeded(rules, 11, 30);
        let mut rng = ChaCha8Rng::seed_from_u64(11);
        let mut record = game.record_text();
        for _ in 0..2 {
            same("/api/game", Some(json!({ "record": record })));
            check_phase(&mut same, &game, &record);
            while let Phase::Throw(_) = game.phase() {
                game.throw_random(&mut rng).unwrap();
            }
            record = game.record_text();
        }
        same(
            "/api/analyse",
            Some(json!({ "record": record, "player": "expectiminimax:1" })),
        );
    }
    // Refusals, in the server's words.
    same("/api/game", Some(json!({ "rules": "chess" })));
    same("/api/game", Some(json!({})));
    same(
        "/api/game",
        Some(json!({ "rules": "regency", "record": "x" })),
    );
    same(
        "/api/game",
        Some(json!({ "record": "rules regency\nmove 1-2\n" })),
    );
    same(
        "/api/computer",
        Some(json!({ "rules": "regency", "player": "mcts:9999" })),
    );
    same(
        "/api/computer",
        Some(json!({ "rules": "regency", "player": "alphazero" })),
    );
    same(
        "/api/hint",
        Some(json!({ "rules": "regency", "player": "greedy" })),
    );
    same("/api/move", Some(json!({ "rules": "regency" })));
}

/// The requests of the phase `game` is in, answered alike (`record` is its record).
fn check_phase(same: &mut impl FnMut(&str, Option<Value>), game: &AnyGame, record: &str) {
    match game.phase() {
        Phase::Throw(_) => {
            let value = game.rules().throw_outcomes()[0].value.get();
            same(
                "/api/throw",
                Some(json!({ "record": record, "value": value })),
            );
            same(
                "/api/move",
                Some(json!({ "record": record, "move": "1-2" })),
            );
        }
        Phase::Move(_) => {
            let mv = game.legal_moves()[0].to_string();
            same("/api/move", Some(json!({ "record": record, "move": mv })));
            // Refused alike where the ruleset has no endgame tables.
            if !game.rules().supports_endgame() {
                same(
                    "/api/hint",
                    Some(json!({ "record": record, "player": "perfect:2" })),
                );
            }
            for player in ["greedy", "expectiminimax:1"] {
                same(
                    "/api/hint",
                    Some(json!({ "record": record, "player": player })),
                );
            }
            same("/api/throw", Some(json!({ "record": record, "value": 1 })));
        }
        Phase::Over(_) => same(
            "/api/computer",
            Some(json!({ "record": record, "player": "greedy" })),
        ),
    }
}

/// Where the static build is, or `None` after one skip line (a failure with
/// `SENET_REQUIRE_WASM=1`). A build older than the page's sources is a failure.
fn static_folder(test: &str) -> Option<PathBuf> {
    let workspace = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let dir = std::env::var_os("SENET_STATIC_DIR")
        .map_or_else(|| workspace.join("target/senet-static"), PathBuf::from);
    let built = dir.join("index.html").is_file() && dir.join("pkg/senet_wasm_bg.wasm").is_file();
    let build = "crates/senet-wasm/build-static.sh";
    if !built {
        let missing = format!("no static build in {}", dir.display());
        let how = format!("build it with {build}");
        common::skip_unless_required(test, "SENET_REQUIRE_WASM", &missing, &how);
        return None;
    }
    for (copy, source) in [
        ("app.js", "crates/senet-cli/assets/app.js"),
        ("style.css", "crates/senet-cli/assets/style.css"),
        ("engine-local.js", "crates/senet-wasm/www/engine-local.js"),
        ("engine-worker.js", "crates/senet-wasm/www/engine-worker.js"),
    ] {
        let fresh = std::fs::read(workspace.join(source)).unwrap();
        assert!(
            std::fs::read(dir.join(copy)).is_ok_and(|c| c == fresh),
            "{}: {copy} is not {source}; build again with {build}",
            dir.display()
        );
    }
    Some(dir)
}

/// The content type of a static file, by its extension.
fn content_type(path: &str) -> &'static str {
    match path.rsplit('.').next() {
        Some("html") => "text/html; charset=utf-8",
        Some("js") => "text/javascript; charset=utf-8",
        Some("css") => "text/css; charset=utf-8",
        Some("svg") => "image/svg+xml",
        Some("wasm") => "application/wasm",
        _ => "application/octet-stream",
    }
}

/// A file of `dir` for the request path `path` (`/` is `index.html`).
fn static_file(dir: &Path, path: &str) -> Response {
    let relative = match path.trim_start_matches('/') {
        "" => "index.html",
        other => other,
    };
    if relative
        .split('/')
        .any(|part| part.is_empty() || part.starts_with('.'))
    {
        return StatusCode::NOT_FOUND.into_response();
    }
    match std::fs::read(dir.join(relative)) {
        Ok(bytes) => ([(header::CONTENT_TYPE, content_type(relative))], bytes).into_response(),
        Err(_) => StatusCode::NOT_FOUND.into_response(),
    }
}

/// A plain static file server for `dir` on a free loopback port: its address.
async fn static_server(dir: PathBuf) -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/", listener.local_addr().unwrap());
    let app = axum::Router::new().fallback(move |uri: Uri| {
        let dir = dir.clone();
        async move { static_file(&dir, uri.path()) }
    });
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    url
}

/// What the page shows, in one script.
const SNAPSHOT: &str = r#"
const squares = [...document.querySelectorAll('#board .square')]
  .sort((a, b) => a.dataset.square - b.dataset.square)
  .map((s) => s.dataset.piece || '.').join('');
return {
  board: squares,
  record: document.getElementById('record').textContent,
  logLength: document.querySelectorAll('#log li').length,
  canThrow: !document.getElementById('throw').disabled,
  movable: document.querySelectorAll('#board .square.movable').length,
  moveButtons: document.querySelectorAll('#moves button').length,
  resultHidden: document.getElementById('result').hidden,
  error: document.getElementById('error').hidden ? '' : document.getElementById('error').textContent,
};
"#;

/// The page's snapshot and the game its record replays to, checked against each other.
async fn snapshot(client: &Client) -> (Value, AnyGame) {
    let page = client.execute(SNAPSHOT, vec![]).await.unwrap();
    assert_eq!(page["error"], "", "the page shows an error");
    let record = page["record"].as_str().unwrap();
    let game = AnyGame::from_record_text(record).unwrap();
    assert_eq!(page["board"].as_str().unwrap(), &game.position()[..30]);
    assert_eq!(
        page["logLength"].as_u64().unwrap() as usize,
        game.history().len()
    );
    (page, game)
}

/// Waits until the page's record is no longer `record`: a click answered.
async fn wait_for_change(client: &Client, record: &str) {
    common::browser::wait_for_change(client, record, Duration::from_secs(60)).await;
}

/// Waits until the page's record starts with `start`: a game drawn, at most 30 s after
/// `started`, looking every `every`; `what` names the game in the failure.
async fn wait_for_game(
    client: &Client,
    start: &str,
    started: Instant,
    every: Duration,
    what: &str,
) {
    loop {
        let record = record(client).await;
        if record.starts_with(start) {
            return;
        }
        assert!(
            started.elapsed() < Duration::from_secs(30),
            "{what}: {record}"
        );
        tokio::time::sleep(every).await;
    }
}

/// Plays a game of `rules` in the page at `url` to its end: a person (Black) against
/// `opponent` (White, chosen in the menu) for a few moves, then the computer (greedy) for both
/// sides, as the menus choose. Returns the finished game.
async fn play_to_the_end(client: &Client, url: &str, rules: &str, opponent: &str) -> AnyGame {
    client.goto("about:blank").await.unwrap();
    client
        .goto(&format!(
            "{url}?pace=0#rules={rules}&black=human&white=greedy"
        ))
        .await
        .unwrap();
    let started = Instant::now();
    let start = format!("rules {rules}\n");
    let what = format!("no game of {rules}");
    wait_for_game(client, &start, started, Duration::from_millis(30), &what).await;
    choose_player(client, "white", opponent).await;
    let mut person_moves = 0;
    let mut person = true;
    let mut last = String::new();
    let mut changed = Instant::now();
    loop {
        assert!(
            started.elapsed() < Duration::from_secs(300),
            "{rules}: the game did not end in 5 minutes"
        );
        let (page, game) = snapshot(client).await;
        let record = page["record"].as_str().unwrap().to_string();
        if record != last {
            last.clone_from(&record);
            changed = Instant::now();
        }
        assert!(
            changed.elapsed() < Duration::from_secs(60),
            "{rules}: the page is stuck\n{record}"
        );
        if person && person_moves >= 3 {
            choose_player(client, "white", "greedy").await;
            choose_player(client, "black", "greedy").await;
            person = false;
            continue;
        }
        match game.phase() {
            Phase::Over(_) => {
                // The banner shows once the last answer is drawn.
                if page["resultHidden"] == false {
                    return game;
                }
            }
            Phase::Throw(Side::Black) if person && page["canThrow"] == true => {
                click(client, "#throw").await;
                wait_for_change(client, &record).await;
            }
            Phase::Move(Side::Black)
                if person
                    && (page["movable"].as_u64() > Some(0)
                        || page["moveButtons"].as_u64() > Some(0)) =>
            {
                click_a_move(client, page["movable"].as_u64() > Some(0)).await;
                wait_for_change(client, &record).await;
                person_moves += 1;
            }
            _ => tokio::time::sleep(Duration::from_millis(30)).await,
        }
    }
}

/// The opponent White starts with in each ruleset: every kind of computer player the page
/// offers is played somewhere (perfect play where the ruleset has endgame tables, learned
/// where it has weights).
fn opponent(rules: &str) -> &'static str {
    match rules {
        "regency" => "perfect:2",
        "botermans" => "random",
        "cemea" => "expectiminimax:1",
        "kendall" => "learned:2",
        "bell" => "mcts:300",
        "jequier" => "expectiminimax:3",
        _ => "greedy",
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_static_page_plays_every_ruleset_with_the_engine_in_the_page() {
    let Some(dir) = static_folder("serve_local") else {
        return;
    };
    let Some(browser) = Browser::find("serve_local") else {
        return;
    };
    let wasm = std::fs::metadata(dir.join("pkg/senet_wasm_bg.wasm"))
        .unwrap()
        .len();
    let url = static_server(dir).await;
    let driver = browser.driver();
    let client = driver.connect().await;

    // The engine's load: the page opened until its first game is drawn, and the module's
    // own fetch and compile in the worker.
    let started = Instant::now();
    client
        .goto(&format!("{url}?pace=0#rules=regency"))
        .await
        .unwrap();
    client
        .wait()
        .for_element(Locator::Css("#log, #record"))
        .await
        .unwrap();
    let what = "the page did not load";
    wait_for_game(
        &client,
        "rules regency",
        started,
        Duration::from_millis(10),
        what,
    )
    .await;
    let page_ms = started.elapsed().as_secs_f64() * 1000.0;
    let engine = |script: &'static str, args: Vec<Value>| {
        let client = client.clone();
        async move {
            client
                .execute_async(script, args)
                .await
                .unwrap_or_else(|e| panic!("{script}: {e}"))
        }
    };
    let ready = engine(
        "const done = arguments[arguments.length - 1];
         import('./engine-local.js').then((m) => m.ready()).then(done, (e) => done({ error: String(e) }));",
        vec![],
    )
    .await;
    // Random playouts in the page, and natively (this test's build: the release figure is
    // `cargo run --release -p senet-wasm --example playouts`).
    let games = 2_000;
    let measured = engine(
        "const done = arguments[arguments.length - 1];
         import('./engine-local.js').then((m) => m.playouts('regency', arguments[0], 1))
           .then(done, (e) => done({ error: String(e) }));",
        vec![json!(games)],
    )
    .await;
    let in_page = games as f64 / (measured["ms"].as_f64().expect("playouts ran") / 1000.0);
    let native_started = Instant::now();
    let native_actions = senet_wasm::playouts("regency", games, 1).unwrap();
    let native = games as f64 / native_started.elapsed().as_secs_f64();
    assert_eq!(measured["actions"].as_f64(), Some(native_actions as f64));
    // Perfect play's tables (Regency, 2 pieces a side) solved in the page, and an analysis of
    // a game of 30 turns with its default evaluator.
    let timed = |path: &'static str, body: Value| {
        engine(
            "const done = arguments[arguments.length - 1];
             const t0 = performance.now();
             import('./engine-local.js').then((m) => m.api(arguments[0], arguments[1]))
               .then(() => done({ ms: performance.now() - t0 }), (e) => done({ error: String(e) }));",
            vec![json!(path), body],
        )
    };
    let mut regency = seeded("regency", 5, 30);
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    // Throws until a move is due (a playout stops where a turn would start).
    while let Phase::Throw(_) = regency.phase() {
        regency.throw_random(&mut rng).unwrap();
    }
    let record = regency.record_text();
    let perfect = timed(
        "/api/hint",
        json!({ "record": record, "player": "perfect:2" }),
    )
    .await;
    let analysis = timed("/api/analyse", json!({ "record": record })).await;
    let ms = |v: &Value| {
        v["ms"]
            .as_f64()
            .unwrap_or_else(|| panic!("the engine refused: {v}"))
    };
    let _ = writeln!(
        std::io::stderr(),
        "serve_local: perfect:2 tables of Regency solved in the page in {:.0} ms; an analysis \
         of {} actions in {:.0} ms",
        ms(&perfect),
        regency.history().len(),
        ms(&analysis)
    );
    let _ = writeln!(
        std::io::stderr(),
        "serve_local: engine {wasm} bytes; page ready in {page_ms:.0} ms (module {:.0} ms); \
         Regency random playouts: {in_page:.0}/s in the page, {native:.0}/s natively ({})",
        ready["loadMs"].as_f64().unwrap_or(f64::NAN),
        if cfg!(debug_assertions) {
            "debug build"
        } else {
            "release build"
        },
    );

    for info in RULESETS {
        let rules = info.id;
        let game = play_to_the_end(&client, &url, rules, opponent(rules)).await;
        assert!(game.outcome().is_some());
        assert_eq!(game.rules(), &AnyRuleset::parse(rules).unwrap());
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_same_page_plays_under_senet_serve() {
    let Some(browser) = Browser::find("serve_local") else {
        return;
    };
    let server = Server::start();
    let driver = browser.driver();
    let client = driver.connect().await;
    // Regency, and Kendall's stored throws.
    for rules in ["regency", "kendall"] {
        let game = play_to_the_end(&client, &server.url, rules, "expectiminimax:1").await;
        assert!(game.outcome().is_some());
    }
}
