//! `senet serve`'s JSON API over real HTTP: pages, whole games of every ruleset against a
//! computer player, hints, analyses, every kind of bad request (a 4xx with a one-line reason
//! in plain words), the Host check, the warning for an open address, the cap on a record's
//! actions and the cheap lane of computer work.

mod common;

use common::server::Server;
use reqwest::StatusCode;
use reqwest::blocking::Client;
use senet::analysis::{AnalysisOptions, analyse};
use senet::registry::{AnyRuleset, RULESETS};
use senet::{AnyGame, Phase, Side};
use serde_json::{Value, json};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn post(client: &Client, server: &Server, path: &str, body: &Value) -> (StatusCode, Value) {
    let response = client
        .post(format!("{}{}", server.url, path.trim_start_matches('/')))
        .json(body)
        .send()
        .unwrap();
    let status = response.status();
    (status, response.json().unwrap())
}

/// Posts `body` and expects a game view.
fn view(client: &Client, server: &Server, path: &str, body: &Value) -> Value {
    let (status, view) = post(client, server, path, body);
    assert_eq!(status, StatusCode::OK, "{path} {body}: {view}");
    // The view's record replays, in the library, to the position the view shows.
    let record = view["record"].as_str().unwrap();
    let game = AnyGame::from_record_text(record).unwrap();
    assert_eq!(game.position(), view["position"].as_str().unwrap());
    // The log runs from `log_from` to the last action: the whole game when one is loaded or
    // started, only the new action otherwise; the configuration's constants come only then.
    let from = view["log_from"].as_u64().unwrap() as usize;
    assert_eq!(
        from + view["log"].as_array().unwrap().len(),
        game.history().len()
    );
    if path == "/api/game" {
        assert_eq!(from, 0);
        assert!(view["ruleset"]["throws"].is_array(), "{view}");
    } else {
        assert_eq!(view["log"].as_array().unwrap().len(), 1, "{view}");
        assert!(view.get("ruleset").is_none(), "{view}");
    }
    view
}

/// Posts `body` and expects `status` with a one-line reason containing `needle`.
fn refused(client: &Client, server: &Server, path: &str, body: &Value, status: u16, needle: &str) {
    let (got, reply) = post(client, server, path, body);
    let reason = reply["error"].as_str().unwrap_or_default();
    assert_eq!(got.as_u16(), status, "{path} {body}: {reply}");
    assert!(
        reason.contains(needle),
        "{path} {body}: {reason:?} should mention {needle:?}"
    );
    assert!(!reason.contains('\n'), "{reason:?}");
}

#[test]
fn the_page_and_its_assets_are_served() {
    let server = Server::start();
    let client = Client::new();
    for (path, kind, needle) in [
        ("", "text/html", "<title>Senet</title>"),
        ("app.js", "text/javascript", "/api/move"),
        ("style.css", "text/css", "#board"),
    ] {
        let response = client.get(format!("{}{path}", server.url)).send().unwrap();
        assert_eq!(response.status(), StatusCode::OK, "{path}");
        let content_type = response.headers()["content-type"]
            .to_str()
            .unwrap()
            .to_string();
        assert!(content_type.starts_with(kind), "{path}: {content_type}");
        assert!(response.text().unwrap().contains(needle), "{path}");
    }
    let catalogue: Value = client
        .get(format!("{}api/rulesets", server.url))
        .send()
        .unwrap()
        .json()
        .unwrap();
    let ids: Vec<&str> = catalogue["rulesets"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["id"].as_str().unwrap())
        .collect();
    assert_eq!(ids, RULESETS.iter().map(|r| r.id).collect::<Vec<_>>());
    assert!(catalogue["players"].as_array().unwrap().len() >= 5);
}

/// For every ruleset, Black plays through the API as a person would (a throw, then the
/// first legal move) against the greedy player, until the game ends.
#[test]
fn every_ruleset_plays_a_whole_game_against_a_computer_player() {
    let server = Server::start();
    let client = Client::new();
    for info in RULESETS {
        let mut game = view(&client, &server, "/api/game", &json!({ "rules": info.id }));
        assert!(
            game["ruleset"]["rules_text"]
                .as_str()
                .unwrap()
                .contains("## The rules")
        );
        let mut actions = 0;
        while game["outcome"].is_null() {
            actions += 1;
            assert!(actions < 5000, "{}: the game does not end", info.id);
            let record = game["record"].clone();
            let phase = &game["phase"];
            game = if phase["side"] == "white" {
                view(
                    &client,
                    &server,
                    "/api/computer",
                    &json!({ "record": record, "player": "greedy" }),
                )
            } else if phase["kind"] == "throw" {
                view(&client, &server, "/api/throw", &json!({ "record": record }))
            } else {
                let first = game["moves"][0]["text"].clone();
                view(
                    &client,
                    &server,
                    "/api/move",
                    &json!({ "record": record, "move": first }),
                )
            };
        }
        let log = game["log"].as_array().unwrap();
        let last = log.last().unwrap()["text"].as_str().unwrap();
        assert!(last.contains("The game is over"), "{}: {last}", info.id);
    }
}

#[test]
fn hints_say_what_their_values_mean() {
    let server = Server::start();
    let client = Client::new();
    // A Regency endgame, two pieces against one: the perfect player's values are exact chances.
    let start = format!("{}B.B..W.. b white_opened=true", ".".repeat(22));
    let record = format!("rules regency\nstart {start}\nthrow 1\n");
    let (status, hint) = post(
        &client,
        &server,
        "/api/hint",
        &json!({ "record": record, "player": "perfect:2" }),
    );
    assert_eq!(status, StatusCode::OK, "{hint}");
    assert_eq!(hint["kind"], "exact");
    for m in hint["moves"].as_array().unwrap() {
        let value = m["value"].as_f64().unwrap();
        assert!((0.0..=1.0).contains(&value), "{m}");
        assert!(m["shown"].as_str().unwrap().ends_with("% to win"), "{m}");
    }
    let (status, hint) = post(
        &client,
        &server,
        "/api/hint",
        &json!({ "record": "rules regency\nthrow 2\n", "player": "greedy" }),
    );
    assert_eq!(status, StatusCode::OK, "{hint}");
    assert_eq!(hint["kind"], "heuristic");
    assert!(hint["meaning"].as_str().unwrap().contains("order"));
}

#[test]
fn bad_requests_get_a_4xx_with_a_one_line_reason() {
    let server = Server::start();
    let client = Client::new();
    let fresh = json!({ "record": "rules regency\n" });
    let moving = json!({ "record": "rules regency\nthrow 2\n" });
    let with = |base: &Value, key: &str, value: Value| {
        let mut body = base.clone();
        body[key] = value;
        body
    };
    refused(&client, &server, "/api/game", &json!({}), 400, "record");
    refused(
        &client,
        &server,
        "/api/game",
        &json!({ "rules": "chess" }),
        400,
        "unknown ruleset",
    );
    refused(
        &client,
        &server,
        "/api/game",
        &json!({ "rules": "regency(water=true)" }),
        400,
        "water",
    );
    refused(
        &client,
        &server,
        "/api/game",
        &json!({ "rules": "regency", "record": "rules regency" }),
        400,
        "not both",
    );
    refused(
        &client,
        &server,
        "/api/game",
        &json!({ "record": "rules regency\nthrow 9\n" }),
        400,
        "line 2",
    );
    refused(
        &client,
        &server,
        "/api/game",
        &json!({ "record": "move 9-12" }),
        400,
        "record",
    );
    refused(
        &client,
        &server,
        "/api/game",
        &json!({ "rules": "regency", "colour": "red" }),
        422,
        "colour",
    );
    refused(
        &client,
        &server,
        "/api/game",
        &json!({ "rules": 7 }),
        422,
        "rules",
    );
    refused(
        &client,
        &server,
        "/api/throw",
        &with(&fresh, "value", json!(5)),
        400,
        "5",
    );
    refused(
        &client,
        &server,
        "/api/throw",
        &moving,
        400,
        "no throw is due",
    );
    refused(&client, &server, "/api/move", &moving, 400, "move");
    refused(
        &client,
        &server,
        "/api/move",
        &with(&moving, "move", json!("9-")),
        400,
        "move",
    );
    refused(
        &client,
        &server,
        "/api/move",
        &with(&moving, "move", json!("1-3")),
        400,
        "1-3",
    );
    refused(
        &client,
        &server,
        "/api/move",
        &with(&fresh, "move", json!("11-13")),
        400,
        "must throw",
    );
    refused(&client, &server, "/api/computer", &moving, 400, "player");
    refused(
        &client,
        &server,
        "/api/computer",
        &with(&moving, "player", json!("alphazero")),
        400,
        "alphazero",
    );
    refused(
        &client,
        &server,
        "/api/computer",
        &with(&moving, "player", json!("expectiminimax:9")),
        400,
        "at most 3",
    );
    refused(
        &client,
        &server,
        "/api/computer",
        &with(&moving, "player", json!("mcts:100000")),
        400,
        "at most",
    );
    refused(
        &client,
        &server,
        "/api/hint",
        &with(&fresh, "player", json!("greedy")),
        400,
        "hints are for moves",
    );
    let bell = json!({ "record": "rules bell\nthrow 2\n", "player": "perfect:2" });
    refused(&client, &server, "/api/hint", &bell, 400, "perfect");

    // Not JSON, no JSON content type, too large, wrong method, no such path.
    let raw = |path: &str, content_type: &str, body: String| {
        let response = client
            .post(format!("{}{}", server.url, path.trim_start_matches('/')))
            .header("content-type", content_type)
            .body(body)
            .send()
            .unwrap();
        let status = response.status().as_u16();
        let reply: Value = response.json().unwrap();
        (status, reply["error"].as_str().unwrap().to_string())
    };
    let (status, reason) = raw("api/game", "application/json", "{".to_string());
    assert_eq!(status, 400, "{reason}");
    let (status, reason) = raw("api/game", "text/plain", "{}".to_string());
    assert_eq!(status, 415, "{reason}");
    // A body declared larger than the cap is refused before it is sent: over raw TCP, as a
    // client writing it would race the server's closing of the connection.
    let (status, reason) = exchange(
        server.port(),
        &format!(
            "POST /api/game HTTP/1.1\r\nHost: 127.0.0.1:{}\r\nContent-Type: application/json\r\n\
             Content-Length: {}\r\nConnection: close\r\n\r\n",
            server.port(),
            2 << 20
        ),
    );
    assert_eq!(status, 413, "{reason}");
    let response = client
        .get(format!("{}api/game", server.url))
        .send()
        .unwrap();
    assert_eq!(response.status().as_u16(), 405);
    let response = client
        .get(format!("{}nothing-here", server.url))
        .send()
        .unwrap();
    assert_eq!(response.status().as_u16(), 404);
    let reply: Value = response.json().unwrap();
    assert!(reply["error"].as_str().unwrap().contains("no such"));
}

/// The load test of `docs/web.md`: clients on loopback play games at once (Black by throws
/// and first moves, White by the greedy player) for a few seconds, and no request fails.
/// Run with `--nocapture` to see the throughput and the latencies.
#[test]
fn concurrent_clients_play_games_without_an_error() {
    const CLIENTS: usize = 8;
    const SECONDS: u64 = 5;
    let server = Server::start();
    let started = Instant::now();
    let mut latencies: Vec<Duration> = std::thread::scope(|scope| {
        let clients: Vec<_> = (0..CLIENTS)
            .map(|i| {
                let server = &server;
                scope.spawn(move || {
                    let client = Client::new();
                    let rules = RULESETS[i % RULESETS.len()].id;
                    let new_game = json!({ "rules": rules });
                    let (_, mut game) = post(&client, server, "/api/game", &new_game);
                    let mut latencies = Vec::new();
                    while started.elapsed() < Duration::from_secs(SECONDS) {
                        let record = game["record"].clone();
                        let (path, body) = if game["outcome"].is_object() {
                            ("/api/game", new_game.clone())
                        } else if game["phase"]["side"] == "white" {
                            (
                                "/api/computer",
                                json!({ "record": record, "player": "greedy" }),
                            )
                        } else if game["phase"]["kind"] == "throw" {
                            ("/api/throw", json!({ "record": record }))
                        } else {
                            let first = game["moves"][0]["text"].clone();
                            ("/api/move", json!({ "record": record, "move": first }))
                        };
                        let sent = Instant::now();
                        let (status, reply) = post(&client, server, path, &body);
                        latencies.push(sent.elapsed());
                        assert_eq!(status, StatusCode::OK, "{rules} {path}: {reply}");
                        game = reply;
                    }
                    latencies
                })
            })
            .collect();
        clients
            .into_iter()
            .flat_map(|c| c.join().unwrap())
            .collect()
    });
    let elapsed = started.elapsed().as_secs_f64();
    latencies.sort();
    let at = |q: f64| latencies[((latencies.len() - 1) as f64 * q) as usize];
    println!(
        "{CLIENTS} clients for {elapsed:.1} s: {} requests, {:.0} a second, latency p50 {:?}, \
         p99 {:?}, max {:?}",
        latencies.len(),
        latencies.len() as f64 / elapsed,
        at(0.5),
        at(0.99),
        at(1.0)
    );
    assert!(
        latencies.len() >= CLIENTS * 10,
        "{} requests",
        latencies.len()
    );
}

/// The view marks the configuration's special squares, as the ruleset lists them.
#[test]
fn the_view_marks_the_special_squares_of_the_configuration() {
    let server = Server::start();
    let client = Client::new();
    let squares = |rules: &str| -> Vec<u64> {
        let game = view(&client, &server, "/api/game", &json!({ "rules": rules }));
        game["ruleset"]["special"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s["square"].as_u64().unwrap())
            .collect()
    };
    assert_eq!(squares("regency"), [26, 27, 28, 29, 30]);
    assert!(squares("regency(house_of_water=true)").contains(&15));
}

/// `/api/analyse` answers the library's analysis (the one `senet analyse` prints) of the game
/// its record replays to, with the summary; a second request, whose endgame tables come from
/// the server's cache, answers the same; and bad records and evaluators get a 400 with a
/// reason.
#[test]
fn the_analysis_is_the_librarys_and_bad_input_is_refused() {
    let server = Server::start();
    let client = Client::new();
    // The answer's text is compared: serde_json, without its `float_roundtrip` feature, may
    // read a float one unit in the last place off, while both sides write the same shortest
    // form.
    let analysed = |body: &Value| {
        let response = client
            .post(format!("{}api/analyse", server.url))
            .json(body)
            .send()
            .unwrap();
        let status = response.status();
        let text = response.text().unwrap();
        assert_eq!(status, StatusCode::OK, "{body}: {text}");
        text
    };
    let mut game = AnyGame::new(AnyRuleset::parse("regency").unwrap());
    game.play_random(&mut senet::rng::seeded(11, 0), senet::DEFAULT_TURN_CAP);
    assert!(matches!(game.phase(), Phase::Over(_)));
    let record = game.record_text();
    let library = analyse(&game, &AnalysisOptions::default()).unwrap();
    let mut expected = serde_json::to_value(&library).unwrap();
    expected["summary"] = library.summary().into();
    let expected = expected.to_string();
    for round in ["solved", "cached"] {
        let answer = analysed(&json!({ "record": record }));
        assert!(
            answer == expected,
            "the server's analysis ({round} tables) is not the library's"
        );
    }
    assert_eq!(library.points.len(), game.history().len() + 1);
    assert!(library.finished);
    assert!(library.points.iter().any(|p| p.exact), "no exact point");
    assert!(
        library.points.len() > 3001,
        "too short to be refused at depth 3"
    );

    // An evaluator of the request's choice, on an unfinished game of a ruleset without
    // endgame tables.
    let mut short = AnyGame::new(AnyRuleset::parse("bell").unwrap());
    short.play_random(&mut senet::rng::seeded(2, 0), 10);
    let options = AnalysisOptions {
        evaluator: Some("mcts:200".parse().unwrap()),
        ..AnalysisOptions::default()
    };
    let library = analyse(&short, &options).unwrap();
    let mut expected = serde_json::to_value(&library).unwrap();
    expected["summary"] = library.summary().into();
    let body = json!({ "record": short.record_text(), "player": "mcts:200" });
    assert_eq!(analysed(&body), expected.to_string());
    assert!(!library.finished && library.evaluator == "mcts:200");

    let with = |player: &str| json!({ "record": record, "player": player });
    let bad = [
        (json!({ "record": "rules regency\nthrow 9\n" }), "line 2"),
        (json!({}), "record"),
        (with("alphazero"), "alphazero"),
        (with("random"), "no winning chances"),
        (with("expectiminimax:9"), "at most 3"),
        (with("learned:3"), "at most 3000 with learned:3"),
        (with("mcts:5000"), "at most 500000"),
        (with("expectiminimax:nodes=1000000"), "at most 20000000"),
        (
            json!({ "rules": "bell", "player": "perfect:2" }),
            "perfect:2",
        ),
    ];
    for (body, needle) in bad {
        refused(&client, &server, "/api/analyse", &body, 400, needle);
    }
    refused(
        &client,
        &server,
        "/api/analyse",
        &json!({ "record": record, "depth": 2 }),
        422,
        "depth",
    );
}

/// Sends `GET /api/rulesets` over raw TCP to the server on 127.0.0.1 with `host` as the Host
/// header (none if None); the status and the reason of a refusal.
fn with_host(port: u16, host: Option<&str>) -> (u16, String) {
    let host = host.map_or(String::new(), |h| format!("Host: {h}\r\n"));
    exchange(
        port,
        &format!("GET /api/rulesets HTTP/1.1\r\n{host}Connection: close\r\n\r\n"),
    )
}

/// Sends `request` (head and body as written) over raw TCP to the server on 127.0.0.1 and
/// reads its answer to the end: the status and the reason of a refusal.
fn exchange(port: u16, request: &str) -> (u16, String) {
    let mut stream = TcpStream::connect(("127.0.0.1", port)).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(60)))
        .unwrap();
    stream.write_all(request.as_bytes()).unwrap();
    let mut text = String::new();
    stream.read_to_string(&mut text).unwrap();
    let status = text[9..12].parse().unwrap();
    let body = text.split_once("\r\n\r\n").unwrap().1;
    let reason = match serde_json::from_str::<Value>(body) {
        Ok(reply) => reply["error"].as_str().unwrap_or_default().to_string(),
        Err(_) => String::new(),
    };
    (status, reason)
}

/// Bound to loopback, the server answers only requests whose Host names it (localhost,
/// 127.0.0.1 or [::1], with its port) or a name given with --allow-host: a page of another
/// site whose name was made to resolve to 127.0.0.1 (DNS rebinding) is refused with 421.
#[test]
fn the_host_header_must_name_the_server() {
    let server = Server::start_with(&["--allow-host", "Senet.Example"]);
    let port = server.port();
    for host in [
        format!("localhost:{port}"),
        format!("LocalHost:{port}"),
        format!("127.0.0.1:{port}"),
        format!("[::1]:{port}"),
        format!("senet.example:{port}"),
    ] {
        assert_eq!(with_host(port, Some(&host)), (200, String::new()), "{host}");
    }
    for host in [
        format!("evil.example:{port}"),
        format!("senet.example.evil.example:{port}"),
        format!("localhost:{}", port.wrapping_add(1)),
        "localhost".to_string(),
    ] {
        let (status, reason) = with_host(port, Some(&host));
        assert_eq!(status, 421, "{host}: {reason}");
        assert!(reason.contains(&host), "{reason}");
        assert!(reason.contains("--allow-host"), "{reason}");
        assert!(!reason.contains('\n'), "{reason}");
    }
    let (status, reason) = with_host(port, None);
    assert_eq!(status, 400, "{reason}");
    assert!(reason.contains("no Host"), "{reason}");
    // A name that cannot be a host is refused at start.
    common::senet(&["serve", "--port", "0", "--allow-host", "evil.example/x"])
        .refused("--allow-host");
}

/// Starts `senet serve --port 0` with `args`, reads the address it prints, runs `check` on the
/// port, stops it and returns what it wrote on stderr.
fn serve_stderr(args: &[&str], check: impl FnOnce(u16)) -> String {
    let mut child = Command::new(env!("CARGO_BIN_EXE_senet"))
        .args(["serve", "--port", "0"])
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let port = line
        .trim()
        .rsplit(':')
        .next()
        .unwrap()
        .split('/')
        .next()
        .unwrap()
        .parse()
        .unwrap_or_else(|_| panic!("no port in {line:?}"));
    check(port);
    let _ = child.kill();
    let mut stderr = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut stderr)
        .unwrap();
    let _ = child.wait();
    stderr
}

/// An address other than loopback gets a warning at start (the game has no accounts); the
/// Host check then accepts the address the connection came to.
#[test]
fn a_host_open_to_the_network_gets_a_warning() {
    let stderr = serve_stderr(&["--host", "0.0.0.0"], |port| {
        let local = format!("127.0.0.1:{port}");
        assert_eq!(with_host(port, Some(&local)).0, 200);
        assert_eq!(
            with_host(port, Some(&format!("evil.example:{port}"))).0,
            421
        );
    });
    assert!(stderr.starts_with("senet: warning: "), "{stderr:?}");
    assert!(stderr.contains("anyone"), "{stderr:?}");
    assert_eq!(stderr.lines().count(), 1, "{stderr:?}");
    let stderr = serve_stderr(&["--host", "127.0.0.1"], |_| {});
    assert_eq!(stderr, "");
}

/// The server's cap on the actions of a record.
const MAX_WEB_ACTIONS: usize = 20_000;

/// A Kendall game dragged out to `actions` actions: each move the one that leaves the mover's
/// pieces least advanced, so that neither side bears off.
fn dragged_game(actions: usize) -> AnyGame {
    let mut game = AnyGame::new(AnyRuleset::parse("kendall").unwrap());
    let pieces = usize::from(game.rules().pieces_per_side());
    let mut rng = senet::rng::seeded(1, 0);
    while game.history().len() < actions {
        match game.phase() {
            Phase::Throw(_) => {
                game.throw_random(&mut rng).unwrap();
            }
            Phase::Move(side) => {
                let letter = if side == Side::Black { 'B' } else { 'W' };
                let advanced = |mv| {
                    let after = game.position_after(mv).unwrap();
                    let on: Vec<usize> = after
                        .chars()
                        .take(30)
                        .enumerate()
                        .filter(|&(_, c)| c == letter)
                        .map(|(i, _)| i + 1)
                        .collect();
                    on.iter().sum::<usize>() + 31 * (pieces - on.len())
                };
                let least = game
                    .legal_moves()
                    .iter()
                    .copied()
                    .min_by_key(|&mv| advanced(mv));
                game.play(least.unwrap()).unwrap();
            }
            Phase::Over(_) => panic!("the dragged game ended"),
        }
    }
    game
}

/// A game played to the server's cap of actions: the server makes the last action, accepts
/// the record it wrote back whole, and refuses to go further with plain words; a longer
/// record is refused too.
#[test]
fn a_game_at_the_action_cap_round_trips_and_goes_no_further() {
    let server = Server::start();
    let client = Client::new();
    let mut game = dragged_game(MAX_WEB_ACTIONS - 1);
    let body = json!({ "record": game.record_text(), "player": "greedy" });
    let last = view(&client, &server, "/api/computer", &body);
    let record = last["record"].as_str().unwrap().to_string();
    let replayed = AnyGame::from_record_text(&record).unwrap();
    assert_eq!(replayed.history().len(), MAX_WEB_ACTIONS);
    // Far more than the server took before (64 KiB).
    assert!(record.len() > 150 << 10, "{} bytes", record.len());
    let sent = Instant::now();
    let back = view(&client, &server, "/api/game", &json!({ "record": record }));
    println!(
        "a record of {MAX_WEB_ACTIONS} actions, {} bytes, loaded in {:?}",
        record.len(),
        sent.elapsed()
    );
    assert_eq!(back["record"], record.as_str());
    let reason = "limit of 20000 actions";
    let full = json!({ "record": record, "player": "greedy" });
    refused(&client, &server, "/api/computer", &full, 400, reason);
    let next = match replayed.phase() {
        Phase::Throw(_) => ("/api/throw", json!({ "record": record })),
        _ => {
            let mv = replayed.legal_moves()[0].to_string();
            ("/api/move", json!({ "record": record, "move": mv }))
        }
    };
    refused(&client, &server, next.0, &next.1, 400, reason);
    // Hints and analyses do not lengthen the record.
    let (status, _) = post(&client, &server, "/api/hint", &full);
    assert!(status == StatusCode::OK || status == StatusCode::BAD_REQUEST);
    // A longer record, written elsewhere, is refused with the same cap.
    game = replayed;
    match game.phase() {
        Phase::Throw(_) => {
            game.throw_random(&mut senet::rng::seeded(2, 0)).unwrap();
        }
        _ => {
            let first = game.legal_moves()[0];
            game.play(first).unwrap();
        }
    }
    let longer = json!({ "record": game.record_text() });
    refused(&client, &server, "/api/game", &longer, 400, "20000");
}

/// A greedy hint and a greedy move are answered while searches fill the expensive lane: four
/// analyses of a long Kendall game at depth 2 (two running, two waiting, a few seconds each)
/// all finish after them. In one lane the cheap requests would wait for the first two.
#[test]
fn cheap_requests_do_not_wait_behind_searches() {
    let server = Server::start();
    let mut game = dragged_game(2500);
    let mut rng = senet::rng::seeded(3, 0);
    while matches!(game.phase(), Phase::Throw(_)) {
        game.throw_random(&mut rng).unwrap();
    }
    let record = game.record_text();
    let started = Instant::now();
    let (analyses, cheap) = std::thread::scope(|scope| {
        let analyses: Vec<_> = (0..4)
            .map(|_| {
                let (server, record) = (&server, &record);
                scope.spawn(move || {
                    let body = json!({ "record": record, "player": "expectiminimax:2" });
                    // The server answers within its own 30 s limit (503 beyond it), which a
                    // debug build reaches: the client must not give up first.
                    let client = Client::builder()
                        .timeout(Duration::from_secs(300))
                        .build()
                        .unwrap();
                    let (status, reply) = post(&client, server, "/api/analyse", &body);
                    assert!(
                        status == StatusCode::OK || status == StatusCode::SERVICE_UNAVAILABLE,
                        "{status}: {reply}"
                    );
                    started.elapsed()
                })
            })
            .collect();
        // Time for the analyses to arrive and take the lane.
        std::thread::sleep(Duration::from_millis(200));
        let client = Client::new();
        for path in ["/api/hint", "/api/computer"] {
            let body = json!({ "record": record, "player": "greedy" });
            let (status, reply) = post(&client, &server, path, &body);
            assert_eq!(status, StatusCode::OK, "{path}: {reply}");
        }
        let cheap = started.elapsed();
        let analyses: Vec<Duration> = analyses.into_iter().map(|a| a.join().unwrap()).collect();
        (analyses, cheap)
    });
    println!("cheap requests answered after {cheap:?}; analyses after {analyses:?}");
    for finished in analyses {
        assert!(cheap < finished, "{cheap:?} vs {finished:?}");
    }
}

/// Refusals are plain words: no Rust debug text, no axum texts.
#[test]
fn refusals_are_plain_words() {
    let server = Server::start();
    let client = Client::new();
    let mut game = AnyGame::new(AnyRuleset::parse("regency").unwrap());
    game.play_random(&mut senet::rng::seeded(11, 0), senet::DEFAULT_TURN_CAP);
    assert!(matches!(game.phase(), Phase::Over(_)));
    let over = game.record_text();
    let plain = |path: &str, body: Value, status: u16, needle: &str| {
        let (got, reply) = post(&client, &server, path, &body);
        let reason = reply["error"].as_str().unwrap_or_default();
        assert_eq!(got.as_u16(), status, "{path} {body}: {reply}");
        assert!(reason.contains(needle), "{reason:?} should say {needle:?}");
        for debug in [
            "Over(",
            "Outcome {",
            "Some(",
            "Failed to",
            " at line 1 column",
            "{",
        ] {
            assert!(!reason.contains(debug), "{path}: {reason:?}");
        }
    };
    plain(
        "/api/move",
        json!({ "record": over, "move": "1-3" }),
        400,
        "the game is over",
    );
    plain(
        "/api/throw",
        json!({ "record": over }),
        400,
        "the game is over: ",
    );
    plain(
        "/api/hint",
        json!({ "record": over, "player": "greedy" }),
        400,
        "the game is over",
    );
    let computer = json!({ "record": over, "player": "greedy" });
    plain("/api/computer", computer, 400, "the game is over");
    plain(
        "/api/throw",
        json!({ "record": "rules regency\nthrow 2\n" }),
        400,
        "Black is to move",
    );
    plain("/api/game", json!({ "rules": 7 }), 422, "field `rules`");
    plain(
        "/api/game",
        json!({ "rules": "regency", "colour": 1 }),
        422,
        "unknown field `colour`",
    );
    let response = client
        .post(format!("{}api/game", server.url))
        .header("content-type", "application/json")
        .body("{\"rules\": ")
        .send()
        .unwrap();
    assert_eq!(response.status().as_u16(), 400);
    let reply: Value = response.json().unwrap();
    assert_eq!(
        reply["error"],
        "the request is not valid JSON (at `rules`): EOF while parsing a value"
    );
    let response = client
        .post(format!("{}api/game", server.url))
        .body("{}")
        .send()
        .unwrap();
    assert_eq!(response.status().as_u16(), 415);
    let reply: Value = response.json().unwrap();
    assert!(
        reply["error"]
            .as_str()
            .unwrap()
            .contains("Content-Type: application/json")
    );
}
