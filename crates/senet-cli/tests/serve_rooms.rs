//! Rooms of `senet serve` over real HTTP: two seats play a game to its end and the revealed
//! seed verifies its throws; tokens act only for their seat of their room; stale actions get
//! a 409; a server killed mid-game loses nothing; the caps refuse plainly; a database of a
//! newer schema is refused; undo by agreement; the event stream. The load test (ignored:
//! `cargo test --release -p senet-cli --test serve_rooms -- --ignored --nocapture`) plays 200
//! rooms at once. Every server gets `--database` in a temporary folder.

mod common;

use std::io::{BufRead, BufReader};
use std::process::Command;
use std::time::{Duration, Instant};

use common::server::{Server, json_answer};
use reqwest::StatusCode;
use reqwest::blocking::Client;
use senet::AnyGame;
use serde_json::{Value, json};
use sha2::{Digest, Sha256};

fn client() -> Client {
    Client::builder()
        .timeout(Duration::from_secs(120))
        .build()
        .unwrap()
}

/// A server with its rooms in a temporary folder (kept while it lives), and a client.
fn start() -> (tempfile::TempDir, Server, Client) {
    let dir = tempfile::tempdir().unwrap();
    let server = Server::with_rooms(&dir.path().join("rooms.sqlite3"), &[]);
    (dir, server, client())
}

fn post(client: &Client, server: &Server, path: &str, body: &Value) -> (StatusCode, Value) {
    let response = client.post(server.at(path)).json(body).send().unwrap();
    let status = response.status();
    (status, response.json().unwrap_or(Value::Null))
}

fn get(client: &Client, server: &Server, path: &str) -> (StatusCode, Value) {
    let response = client.get(server.at(path)).send().unwrap();
    let status = response.status();
    (status, response.json().unwrap_or(Value::Null))
}

/// The state of `room`, as a watcher sees it.
fn room_state(client: &Client, server: &Server, room: &str) -> Value {
    get(client, server, &format!("/api/rooms/{room}")).1
}

/// Whether `room` is in the list of open rooms.
fn listed(client: &Client, server: &Server, room: &str) -> bool {
    let (_, list) = get(client, server, "/api/rooms");
    let rooms = list["rooms"].as_array().unwrap();
    rooms.iter().any(|r| r["room"] == room)
}

/// Joins the room `created` at `side`'s seat.
fn join(client: &Client, server: &Server, created: &Value, side: &str) -> (StatusCode, Value) {
    let room = created["room"].as_str().unwrap();
    let token = &created["seats"][side];
    post(
        client,
        server,
        &format!("/api/rooms/{room}/join"),
        &json!({"token": token}),
    )
}

/// Sends `action` for the seat of `token` in `room`, which has seen `expect` actions.
fn act(
    client: &Client,
    server: &Server,
    room: &str,
    token: &str,
    action: &str,
    expect: u64,
) -> (StatusCode, Value) {
    post(
        client,
        server,
        &format!("/api/rooms/{room}/act"),
        &json!({"token": token, "action": action, "expect": expect}),
    )
}

/// Expects `status` and a one-line reason containing `needle`.
fn refused(got: (StatusCode, Value), status: u16, needle: &str) {
    let reason = got.1["error"].as_str().unwrap_or_default();
    assert_eq!(got.0.as_u16(), status, "{}", got.1);
    assert!(reason.contains(needle), "{reason:?} lacks {needle:?}");
    assert!(!reason.contains('\n'), "{reason:?}");
}

/// A new room: its id and the seats' tokens.
fn create(client: &Client, server: &Server, rules: &str, black: &str, white: &str) -> Value {
    let (status, created) = open_room(client, server, rules, black, white);
    assert_eq!(status, StatusCode::CREATED, "{created}");
    created
}

/// Asks for a new room: the status and the answer.
fn open_room(
    client: &Client,
    server: &Server,
    rules: &str,
    black: &str,
    white: &str,
) -> (StatusCode, Value) {
    let body = json!({"rules": rules, "black": black, "white": white});
    post(client, server, "/api/rooms", &body)
}

/// The token of the side to act in `state` (a room's state or an action's answer).
fn token_to_act<'a>(created: &'a Value, state: &Value) -> Option<&'a str> {
    let side = state["view"]["phase"]["side"].as_str()?;
    created["seats"][side].as_str()
}

/// The action the scripted player sends: a throw, or the first legal move.
fn next_action(state: &Value) -> Option<String> {
    match state["view"]["phase"]["kind"].as_str()? {
        "throw" => Some("throw".to_string()),
        "move" => Some(state["view"]["moves"][0]["text"].as_str()?.to_string()),
        _ => None,
    }
}

/// Plays a room whose seats are both people for at most `most` actions (to the end when it
/// comes first); returns the last answer.
fn play(client: &Client, server: &Server, created: &Value, mut state: Value, most: usize) -> Value {
    let room = created["room"].as_str().unwrap();
    for _ in 0..most {
        let Some(action) = next_action(&state) else {
            break;
        };
        let token = token_to_act(created, &state).unwrap();
        let expect = state["actions"].as_u64().unwrap();
        let (status, answer) = act(client, server, room, token, &action, expect);
        assert_eq!(status, StatusCode::OK, "{action}: {answer}");
        assert_eq!(answer["actions"].as_u64(), Some(expect + 1));
        state = answer;
    }
    state
}

fn sha256_hex(bytes: &[u8]) -> String {
    Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

fn unhex(text: &str) -> Vec<u8> {
    (0..text.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&text[i..i + 2], 16).unwrap())
        .collect()
}

/// Runs `senet replay FILE --seed … [--commitment …]` on `record`.
fn replay_with_seed(record: &str, seed: &str, commitment: &str) -> std::process::Output {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("room.txt");
    std::fs::write(&file, record).unwrap();
    Command::new(env!("CARGO_BIN_EXE_senet"))
        .arg("replay")
        .arg(&file)
        .args(["--seed", seed, "--commitment", commitment])
        .output()
        .unwrap()
}

/// The seed revealed in the finished room's `state` verifies its throws against the
/// commitment given when the room was `created`.
fn assert_seed_verifies(created: &Value, state: &Value) {
    let checked = replay_with_seed(
        state["view"]["record"].as_str().unwrap(),
        state["seed"].as_str().unwrap(),
        created["commitment"].as_str().unwrap(),
    );
    assert!(checked.status.success(), "{checked:?}");
}

#[test]
fn two_people_play_a_room_to_its_end_and_the_seed_verifies_the_throws() {
    let (_dir, server, client) = start();
    let created = create(&client, &server, "regency", "person", "person");
    let room = created["room"].as_str().unwrap();
    let commitment = created["commitment"].as_str().unwrap();
    assert_eq!(commitment.len(), 64);
    for side in ["black", "white"] {
        let token = created["seats"][side].as_str().unwrap();
        assert_eq!(token.len(), 32, "128 bits in hexadecimal");
        assert_eq!(
            created["links"][side].as_str().unwrap(),
            format!("/#room={room}&seat={token}")
        );
    }
    assert_eq!(created["links"]["watch"], format!("/#room={room}"));
    // The room is listed for watchers while it is open.
    assert!(listed(&client, &server, room));
    let (status, joined) = join(&client, &server, &created, "white");
    assert_eq!(status, StatusCode::OK, "{joined}");
    assert_eq!(joined["you"], "white");
    assert!(joined["view"]["ruleset"]["throws"].is_array());
    assert!(joined["seed"].is_null(), "the seed is secret until the end");
    let end = play(&client, &server, &created, joined, 20_000);
    assert!(end["view"]["outcome"].is_object(), "{end}");
    let state = room_state(&client, &server, room);
    let seed = state["seed"]
        .as_str()
        .expect("the seed is revealed at the end");
    assert_eq!(sha256_hex(&unhex(seed)), commitment);
    let record = state["view"]["record"].as_str().unwrap();
    let game = AnyGame::from_record_text(record).unwrap();
    assert!(game.outcome().is_some());
    assert_eq!(state["actions"].as_u64(), Some(game.history().len() as u64));
    let checked = replay_with_seed(record, seed, commitment);
    let out = String::from_utf8_lossy(&checked.stdout);
    assert!(checked.status.success(), "{checked:?}");
    assert!(out.contains("as committed"), "{out}");
    assert!(out.contains("of the record are the seed's stream"), "{out}");
    // Another seed neither matches the commitment nor, with its own, the throws.
    let other = "00".repeat(32);
    let wrong = replay_with_seed(record, &other, commitment);
    assert_eq!(wrong.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&wrong.stderr).contains("not the seed committed to"));
    let own = sha256_hex(&unhex(&other));
    let wrong = replay_with_seed(record, &other, &own);
    assert_eq!(wrong.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&wrong.stderr).contains("the seed's stream gives"));
    // A finished room is no longer listed, and takes no more actions.
    assert!(!listed(&client, &server, room));
    let black = created["seats"]["black"].as_str().unwrap();
    let actions = state["actions"].as_u64().unwrap();
    refused(
        act(&client, &server, room, black, "throw", actions),
        400,
        "nothing to do",
    );
}

#[test]
fn tokens_act_only_for_their_seat_of_their_room_and_stale_actions_are_refused() {
    let (_dir, server, client) = start();
    let a = create(&client, &server, "regency", "person", "person");
    let b = create(&client, &server, "bell", "person", "person");
    let room_b = b["room"].as_str().unwrap();
    let black_a = a["seats"]["black"].as_str().unwrap();
    let black_b = b["seats"]["black"].as_str().unwrap();
    let white_b = b["seats"]["white"].as_str().unwrap();
    let act = |room: &str, token: &str, action: &str, expect: u64| {
        act(&client, &server, room, token, action, expect)
    };
    // Room A's Black token in room B.
    refused(act(room_b, black_a, "throw", 0), 403, "opens no seat");
    // A watcher has no token; a made-up one opens nothing.
    refused(
        act(room_b, &"0".repeat(32), "throw", 0),
        403,
        "opens no seat",
    );
    refused(act(room_b, "not hex", "throw", 0), 403, "opens no seat");
    let (status, _) = post(
        &client,
        &server,
        &format!("/api/rooms/{room_b}/act"),
        &json!({"action": "throw", "expect": 0}),
    );
    assert_eq!(status.as_u16(), 422);
    // White may not act for Black, who throws first.
    refused(act(room_b, white_b, "throw", 0), 403, "not white's turn");
    // Black throws; the same click sent again is stale.
    let (status, first) = act(room_b, black_b, "throw", 0);
    assert_eq!(status, StatusCode::OK, "{first}");
    refused(act(room_b, black_b, "throw", 0), 409, "not the 0 you saw");
    refused(
        act(room_b, black_b, "throw", 1),
        400,
        "to move, not to throw",
    );
    refused(act(room_b, black_b, "31-32", 1), 400, "action");
    refused(
        act("0123456789abcdef", black_b, "throw", 0),
        404,
        "no such room",
    );
    refused(act("..%2Fetc", black_b, "throw", 0), 404, "no such");
    refused(
        open_room(&client, &server, "chess", "person", "person"),
        400,
        "rules",
    );
    refused(
        open_room(&client, &server, "regency", "wizard", "person"),
        400,
        "black",
    );
    refused(
        open_room(&client, &server, "regency", "person", "expectiminimax:9"),
        400,
        "depth",
    );
}

#[test]
fn a_server_killed_mid_game_loses_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let database = dir.path().join("rooms.sqlite3");
    let client = client();
    let (created, before) = {
        let server = Server::with_rooms(&database, &[]);
        let created = create(&client, &server, "kendall", "person", "person");
        let room = created["room"].as_str().unwrap();
        let state = room_state(&client, &server, room);
        play(&client, &server, &created, state, 25);
        let before = room_state(&client, &server, room);
        (created, before)
        // Dropped: SIGKILL, no chance to tidy up.
    };
    let room = created["room"].as_str().unwrap();
    let server = Server::with_rooms(&database, &[]);
    let (status, after) = get(&client, &server, &format!("/api/rooms/{room}"));
    assert_eq!(status, StatusCode::OK, "{after}");
    assert_eq!(after["view"]["record"], before["view"]["record"]);
    assert_eq!(after["view"]["position"], before["view"]["position"]);
    assert_eq!(after["actions"].as_u64(), Some(25));
    assert_eq!(after["commitment"], created["commitment"]);
    let end = play(&client, &server, &created, after, 20_000);
    assert!(end["view"]["outcome"].is_object());
    let state = room_state(&client, &server, room);
    assert_seed_verifies(&created, &state);
}

#[test]
fn a_computer_seat_plays_and_undo_is_by_agreement() {
    let (_dir, server, client) = start();
    // Two computer seats play the whole game by themselves.
    let created = create(&client, &server, "regency", "greedy", "random");
    assert!(created["seats"]["black"].is_null() && created["links"]["black"].is_null());
    let room = created["room"].as_str().unwrap();
    let started = Instant::now();
    let state = loop {
        let state = room_state(&client, &server, room);
        if state["seed"].is_string() {
            break state;
        }
        assert!(started.elapsed() < Duration::from_secs(240), "{state}");
        std::thread::sleep(Duration::from_millis(200));
    };
    assert!(state["view"]["outcome"].is_object());
    assert_seed_verifies(&created, &state);
    // Against a computer seat undo is refused.
    let created = create(&client, &server, "regency", "person", "greedy");
    let room = created["room"].as_str().unwrap();
    refused(
        post(
            &client,
            &server,
            &format!("/api/rooms/{room}/undo"),
            &json!({"token": created["seats"]["black"], "answer": "request"}),
        ),
        400,
        "computer seat",
    );
    // Between people: Black moves, asks to take it back, White declines, then accepts.
    let created = create(&client, &server, "regency", "person", "person");
    let room = created["room"].as_str().unwrap();
    let undo = |side: &str, answer: &str| {
        post(
            &client,
            &server,
            &format!("/api/rooms/{room}/undo"),
            &json!({"token": created["seats"][side], "answer": answer}),
        )
    };
    refused(undo("black", "request"), 400, "nothing to take back");
    let state = room_state(&client, &server, room);
    let mut state = play(&client, &server, &created, state, 1);
    while state["view"]["phase"]["kind"] != "throw" || state["view"]["phase"]["side"] != "white" {
        state = play(&client, &server, &created, state, 1);
    }
    let moved = state["actions"].as_u64().unwrap();
    let mover = state["view"]["log"][0]["side"]
        .as_str()
        .unwrap()
        .to_string();
    assert_eq!(mover, "black");
    refused(undo("white", "request"), 400, "nothing to take back");
    refused(undo("white", "accept"), 400, "no request");
    let (status, asked) = undo("black", "request");
    assert_eq!(status, StatusCode::OK, "{asked}");
    assert_eq!(asked["undo"], "black");
    refused(undo("black", "accept"), 400, "no request of the other side");
    let (_, declined) = undo("white", "decline");
    assert!(declined["undo"].is_null());
    assert_eq!(declined["actions"].as_u64(), Some(moved));
    undo("black", "request");
    let (status, accepted) = undo("white", "accept");
    assert_eq!(status, StatusCode::OK, "{accepted}");
    assert_eq!(accepted["actions"].as_u64(), Some(moved - 1));
    assert_eq!(accepted["view"]["phase"]["kind"], "move");
    assert_eq!(accepted["view"]["phase"]["side"], "black");
    refused(undo("black", "maybe"), 400, "request, accept or decline");
}

/// Reads the next `state` event of a server-sent event stream.
fn next_event(lines: &mut impl BufRead) -> Value {
    let mut data = String::new();
    loop {
        let mut line = String::new();
        assert!(lines.read_line(&mut line).unwrap() > 0, "the stream ended");
        let line = line.trim_end();
        if let Some(rest) = line.strip_prefix("data:") {
            data.push_str(rest.trim_start());
        } else if line.is_empty() && !data.is_empty() {
            return serde_json::from_str(&data).unwrap();
        }
    }
}

#[test]
fn watchers_hear_every_change_and_see_who_is_connected() {
    let (_dir, server, client) = start();
    let created = create(&client, &server, "regency", "person", "person");
    let room = created["room"].as_str().unwrap();
    let stream = client
        .get(server.at(&format!("/api/rooms/{room}/events")))
        .send()
        .unwrap();
    assert_eq!(
        stream.headers()["content-type"].to_str().unwrap(),
        "text/event-stream"
    );
    let mut watcher = BufReader::new(stream);
    let first = next_event(&mut watcher);
    assert_eq!(first["actions"], 0);
    assert_eq!(first["seats"]["black"]["connected"], false);
    // Black's page joins and opens its stream with its presence key.
    let (_, joined) = join(&client, &server, &created, "black");
    let key = joined["presence"].as_str().unwrap();
    let black_stream = client
        .get(server.at(&format!("/api/rooms/{room}/events?presence={key}")))
        .send()
        .unwrap();
    let present = next_event(&mut watcher);
    assert_eq!(present["seats"]["black"]["connected"], true, "{present}");
    let answer = play(&client, &server, &created, joined, 1);
    let heard = next_event(&mut watcher);
    assert_eq!(heard["version"], answer["version"]);
    assert_eq!(heard["actions"], 1);
    assert_eq!(heard["view"]["log_from"], 0);
    assert_eq!(heard["view"]["log"].as_array().unwrap().len(), 1);
    drop(black_stream);
    let gone = next_event(&mut watcher);
    assert_eq!(gone["seats"]["black"]["connected"], false, "{gone}");
}

#[test]
fn caps_refuse_with_clear_errors() {
    let dir = tempfile::tempdir().unwrap();
    let client = client();
    {
        let server = Server::with_rooms(&dir.path().join("a.sqlite3"), &["--rooms-per-hour", "2"]);
        create(&client, &server, "regency", "person", "person");
        create(&client, &server, "regency", "person", "person");
        refused(
            open_room(&client, &server, "regency", "person", "person"),
            429,
            "opened 2 rooms in the last hour",
        );
    }
    let server = Server::with_rooms(
        &dir.path().join("b.sqlite3"),
        &["--max-rooms", "1", "--rooms-per-hour", "0"],
    );
    let created = create(&client, &server, "regency", "person", "person");
    refused(
        open_room(&client, &server, "regency", "person", "person"),
        503,
        "1 open rooms, its limit",
    );
    // 32 event streams a room.
    let room = created["room"].as_str().unwrap();
    let url = server.at(&format!("/api/rooms/{room}/events"));
    let streams: Vec<_> = (0..32)
        .map(|_| {
            let response = client.get(&url).send().unwrap();
            assert_eq!(response.status(), StatusCode::OK);
            response
        })
        .collect();
    refused(
        get(&client, &server, &format!("/api/rooms/{room}/events")),
        503,
        "32 event streams",
    );
    drop(streams);
}

#[test]
fn a_database_of_a_newer_schema_is_refused_at_start() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("rooms.sqlite3");
    // A server creates the schema, at version 1.
    drop(Server::with_rooms(&path, &[]));
    let version: i64 = rusqlite::Connection::open(&path)
        .unwrap()
        .pragma_query_value(None, "user_version", |r| r.get(0))
        .unwrap();
    assert_eq!(version, 1);
    rusqlite::Connection::open(&path)
        .unwrap()
        .pragma_update(None, "user_version", 9)
        .unwrap();
    let output = Command::new(env!("CARGO_BIN_EXE_senet"))
        .args(["serve", "--port", "0", "--database"])
        .arg(&path)
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2), "{output:?}");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("schema version 9, newer than this senet's 1"),
        "{stderr}"
    );
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    // A file that is not a database is refused too, without a panic.
    let junk = dir.path().join("junk.sqlite3");
    std::fs::write(&junk, "not a database, not at all, ".repeat(100)).unwrap();
    let output = Command::new(env!("CARGO_BIN_EXE_senet"))
        .args(["serve", "--port", "0", "--database"])
        .arg(&junk)
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2), "{output:?}");
    assert!(String::from_utf8_lossy(&output.stderr).contains("junk.sqlite3"));
}

/// The server's resident memory in kB (Linux).
fn rss_kb(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))?
        .split_whitespace()
        .next()?
        .parse()
        .ok()
}

/// 200 rooms played at once by scripted clients over HTTP (one task a room, playing both
/// seats), 20 of them watched over their event streams; then the database must hold exactly
/// each client's log. Prints the act latencies and the server's memory.
#[test]
#[ignore = "a load test: run in release with --ignored"]
fn two_hundred_rooms_are_played_at_once() {
    const ROOMS: usize = 200;
    let dir = tempfile::tempdir().unwrap();
    let database = dir.path().join("rooms.sqlite3");
    let server = Server::with_rooms(&database, &["--rooms-per-hour", "0"]);
    let rss_before = rss_kb(server.pid());
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    let url = server.url.trim_end_matches('/').to_string();
    let started = Instant::now();
    let (logs, mut latencies) = runtime.block_on(async move {
        let client = reqwest::Client::builder()
            .timeout(Duration::from_secs(60))
            .pool_max_idle_per_host(ROOMS)
            .build()
            .unwrap();
        let mut tasks = Vec::new();
        for i in 0..ROOMS {
            let client = client.clone();
            let url = url.clone();
            tasks.push(tokio::spawn(async move {
                let rules = ["regency", "bell", "cemea", "botermans"][i % 4];
                let body = json!({"rules": rules, "black": "person", "white": "person"});
                let created =
                    json_answer(client.post(format!("{url}/api/rooms")).json(&body)).await;
                let room = created["room"].as_str().unwrap().to_string();
                let watcher = (i % 10 == 0).then(|| {
                    let client = client.clone();
                    let url = format!("{url}/api/rooms/{room}/events");
                    // The players wait until the watcher hears the room's first state, so
                    // that it follows the game from before its first action.
                    let (listening, heard_first) = tokio::sync::oneshot::channel();
                    let task = tokio::spawn(async move {
                        let mut response = client.get(url).send().await.unwrap();
                        let mut text = String::new();
                        let mut listening = Some(listening);
                        while let Some(chunk) = response.chunk().await.unwrap() {
                            if let Some(listening) = listening.take() {
                                let _ = listening.send(());
                            }
                            text.push_str(&String::from_utf8_lossy(&chunk));
                            if text.contains("\"seed\":\"") {
                                break;
                            }
                        }
                        text.matches("event: state").count()
                    });
                    (task, heard_first)
                });
                let watcher = match watcher {
                    Some((task, heard_first)) => {
                        heard_first.await.unwrap();
                        Some(task)
                    }
                    None => None,
                };
                let mut state = json_answer(client.get(format!("{url}/api/rooms/{room}"))).await;
                let mut log = Vec::new();
                let mut latencies = Vec::new();
                while let Some(action) = next_action(&state) {
                    let token = token_to_act(&created, &state).unwrap();
                    let body = json!({"token": token, "action": action, "expect": log.len()});
                    let sent = Instant::now();
                    let response = client
                        .post(format!("{url}/api/rooms/{room}/act"))
                        .json(&body)
                        .send()
                        .await
                        .unwrap();
                    assert_eq!(response.status(), StatusCode::OK);
                    state = response.json().await.unwrap();
                    latencies.push(sent.elapsed());
                    log.push(
                        state["view"]["log"][0]["action"]
                            .as_str()
                            .unwrap()
                            .to_string(),
                    );
                }
                if let Some(watcher) = watcher {
                    let heard = watcher.await.unwrap();
                    assert!(heard >= 2, "{heard}");
                }
                (room, log, latencies)
            }));
        }
        let mut logs = Vec::new();
        let mut latencies = Vec::new();
        for task in tasks {
            let (room, log, mut times) = task.await.unwrap();
            logs.push((room, log));
            latencies.append(&mut times);
        }
        (logs, latencies)
    });
    let elapsed = started.elapsed();
    let rss_after = rss_kb(server.pid());
    latencies.sort();
    let at = |q: f64| latencies[((latencies.len() - 1) as f64 * q) as usize];
    let actions: usize = logs.iter().map(|(_, log)| log.len()).sum();
    println!(
        "{ROOMS} rooms, {actions} actions in {:.1} s ({:.0} a second): p50 {:.2} ms, p99 {:.2} ms, \
         max {:.2} ms; server RSS {} kB before, {} kB after",
        elapsed.as_secs_f64(),
        actions as f64 / elapsed.as_secs_f64(),
        at(0.5).as_secs_f64() * 1e3,
        at(0.99).as_secs_f64() * 1e3,
        latencies[latencies.len() - 1].as_secs_f64() * 1e3,
        rss_before.unwrap_or(0),
        rss_after.unwrap_or(0),
    );
    // The database holds each client's log, action for action, and every game is over.
    let db = rusqlite::Connection::open(&database).unwrap();
    for (room, log) in &logs {
        let mut query = db
            .prepare("SELECT action FROM actions WHERE room = ?1 ORDER BY n")
            .unwrap();
        let kept: Vec<String> = query
            .query_map([room], |r| r.get(0))
            .unwrap()
            .collect::<Result<_, _>>()
            .unwrap();
        assert_eq!(&kept, log, "room {room}");
        let finished: i64 = db
            .query_row("SELECT finished FROM rooms WHERE id = ?1", [room], |r| {
                r.get(0)
            })
            .unwrap();
        assert_eq!(finished, 1, "room {room}");
    }
}
