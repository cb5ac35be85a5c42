//! `senet play` never loses a game: `--save` is checked before the first move and written
//! after every action, whatever ends the session (the end of the game, `quit`, the end of
//! the input, a closed output, Ctrl-C, unreadable input); `undo` brings back the same throws,
//! and `--resume` goes on with the same seeded stream.

mod common;

use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use common::{senet, senet_with_input};
use senet::{Game, Regency};

/// The game saved in `path`, replayed.
fn saved_game(path: &Path) -> Game<Regency> {
    let text = std::fs::read_to_string(path).unwrap();
    Game::<Regency>::from_record_text(&text).unwrap_or_else(|e| panic!("{e}\n{text}"))
}

/// Runs `senet play` with raw bytes as input; the exit status and stderr.
fn play_with_bytes(args: &[&str], input: &[u8]) -> (Option<i32>, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_senet"))
        .arg("play")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let _ = stdin.write_all(input);
    drop(stdin);
    let output = child.wait_with_output().unwrap();
    (
        output.status.code(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

#[test]
fn a_save_path_that_cannot_be_written_is_refused_before_the_first_move() {
    senet(&["play", "--save", "/no/such/folder/game.txt"]).refused("--save: cannot write");
    let dir = tempfile::tempdir().unwrap();
    senet(&["play", "--save", dir.path().to_str().unwrap()]).refused("not a regular file");
}

#[test]
fn the_record_is_saved_when_the_input_ends_mid_game() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("game.txt");
    let path_text = path.to_str().unwrap();
    // Seed 5: Black throws 2 and plays the first of its moves, then the input ends.
    let args = ["play", "--seed", "5", "--save", path_text];
    senet_with_input(&args, "1\n").ok();
    let game = saved_game(&path);
    assert!(game.history().len() >= 2, "{:?}", game.history());
    assert!(game.outcome().is_none());
}

#[test]
fn bytes_that_are_not_utf8_are_an_unknown_command_and_the_game_goes_on() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("game.txt");
    let args = ["--seed", "5", "--save", path.to_str().unwrap()];
    let (status, stderr) = play_with_bytes(&args, b"\xff\xfe\n1\nquit\n");
    assert_eq!(status, Some(0), "{stderr}");
    assert!(saved_game(&path).history().len() >= 2);
}

#[test]
fn an_endless_input_line_is_refused_and_the_game_is_kept() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("game.txt");
    let args = ["--seed", "5", "--save", path.to_str().unwrap()];
    let (status, stderr) = play_with_bytes(&args, &[0; 100_000]);
    assert_eq!(status, Some(2), "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.contains("longer than 1024 bytes"), "{stderr}");
    // The throw made before the line was read is in the saved record.
    assert_eq!(saved_game(&path).history().len(), 1);
}

#[test]
fn a_closed_output_still_leaves_the_whole_game_saved() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("game.txt");
    let mut child = Command::new(env!("CARGO_BIN_EXE_senet"))
        .args(["play", "--players", "random,random", "--seed", "3"])
        .args(["--save", path.to_str().unwrap()])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Read one line, as `| head -1` does, and close the pipe.
    let mut first = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut first)
        .unwrap();
    let status = child.wait().unwrap();
    assert_eq!(status.code(), Some(0));
    // Whatever was played before the output closed is saved, as a record that replays.
    saved_game(&path);
}

#[cfg(unix)]
#[test]
fn ctrl_c_while_a_person_thinks_loses_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("game.txt");
    let mut child = Command::new(env!("CARGO_BIN_EXE_senet"))
        .args(["play", "--seed", "5", "--save", path.to_str().unwrap()])
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(b"1\n").unwrap();
    stdin.flush().unwrap();
    // Wait until Black's move is saved and the person is asked again.
    let started = Instant::now();
    let moved = |path: &Path| {
        std::fs::read_to_string(path)
            .ok()
            .and_then(|text| Game::<Regency>::from_record_text(&text).ok())
            .is_some_and(|game| {
                game.history()
                    .iter()
                    .any(|a| matches!(a, senet::Action::Move(_)))
            })
    };
    while !moved(&path) {
        assert!(started.elapsed() < Duration::from_secs(30), "no save");
        std::thread::sleep(Duration::from_millis(20));
    }
    // Ctrl-C is SIGINT to the process; sent by a system call rather than the `kill`
    // program, which a bare machine may lack (procps).
    rustix::process::kill_process(
        rustix::process::Pid::from_child(&child),
        rustix::process::Signal::INT,
    )
    .unwrap();
    // A process started where SIGINT is ignored (a background job of a shell without job
    // control, as some CI runners start them) inherits that and goes on; it is then stopped
    // for good, which must lose nothing either.
    let interrupted = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if interrupted.elapsed() > Duration::from_secs(5) {
            child.kill().unwrap();
            break;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    child.wait().unwrap();
    drop(stdin);
    assert!(moved(&path));
}

/// Taking a move back and making it again brings back the very throws that followed it: the
/// session ends exactly as one without the undo.
#[test]
fn undo_and_the_same_move_again_give_the_same_throws() {
    let dir = tempfile::tempdir().unwrap();
    let straight = dir.path().join("straight.txt");
    let undone = dir.path().join("undone.txt");
    // Seed 5: Black throws 2 and may play 8-10 or 11-13.
    let play = |path: &Path, script: &str| {
        let args = ["play", "--seed", "5", "--save", path.to_str().unwrap()];
        senet_with_input(&args, script).ok()
    };
    play(&straight, "2\n1\nquit\n");
    let out = play(&undone, "2\n1\nundo\nundo\n2\n1\nquit\n");
    assert_eq!(out.matches("taken back").count(), 2, "{out}");
    assert_eq!(
        std::fs::read_to_string(&straight).unwrap(),
        std::fs::read_to_string(&undone).unwrap()
    );
}

/// A game stopped and resumed ends exactly as the same game played in one sitting.
#[test]
fn a_resumed_game_goes_on_with_the_same_stream() {
    let dir = tempfile::tempdir().unwrap();
    let straight = dir.path().join("straight.txt");
    let split = dir.path().join("split.txt");
    let moves = "1\n".repeat(400);
    let play = |path: &Path, extra: &[&str], script: &str| {
        let mut args = vec!["play", "--save", path.to_str().unwrap()];
        args.extend(extra);
        senet_with_input(&args, script).ok()
    };
    play(&straight, &["--seed", "8"], &moves);
    assert!(saved_game(&straight).outcome().is_some());
    play(
        &split,
        &["--seed", "8"],
        &format!("{}quit\n", "1\n".repeat(6)),
    );
    assert!(saved_game(&split).outcome().is_none());
    let split_text = split.to_str().unwrap().to_string();
    play(&split, &["--resume", &split_text], &moves);
    assert_eq!(
        std::fs::read_to_string(&straight).unwrap(),
        std::fs::read_to_string(&split).unwrap()
    );
}
