//! End-to-end tests of the computer players in `senet play` and `senet simulate`, and of
//! the endgame tables of `senet solve`: good player arguments play, bad ones end with one
//! line and exit status 2, and seeded games repeat on any number of threads.

mod common;

use std::path::PathBuf;

use common::{senet, senet_with_input};

/// A fresh file path under the test's temporary directory.
fn temp_file(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("senet-cli-players");
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

fn simulate_json(rules: &str, players: &str, games: &str, threads: &str) -> serde_json::Value {
    let out = senet(&[
        "simulate",
        "--rules",
        rules,
        "--players",
        players,
        "--games",
        games,
        "--seed",
        "7",
        "--threads",
        threads,
        "--json",
    ])
    .ok();
    serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {out}"))
}

#[test]
fn simulate_plays_every_computer_player_by_its_senet_ai_name() {
    for (players, names) in [
        ("greedy,random", ["greedy", "random"]),
        ("expectiminimax:1,mcts:10", ["expectiminimax:1", "mcts:10"]),
        (
            "expectiminimax:nodes=300,greedy",
            ["expectiminimax:nodes=300", "greedy"],
        ),
    ] {
        let summary = simulate_json("regency", players, "6", "2");
        assert_eq!(summary["games"], 6, "{players}");
        for (i, name) in names.iter().enumerate() {
            assert_eq!(summary["players"][i]["name"], *name, "{players}");
        }
    }
}

#[test]
fn seeded_games_with_mcts_do_not_depend_on_the_thread_count() {
    // MCTS draws its playouts from the game's stream: game i is the same on any thread.
    for rules in ["regency", "kendall(throw_timing=immediate)"] {
        let one = simulate_json(rules, "mcts:12,greedy", "24", "1");
        assert_eq!(
            one,
            simulate_json(rules, "mcts:12,greedy", "24", "3"),
            "{rules}"
        );
        let wins: u64 = (0..2)
            .map(|i| one["players"][i]["wins"].as_u64().unwrap())
            .sum();
        assert_eq!(wins, 24, "{rules}: {one}");
    }
}

#[test]
fn bad_player_arguments_are_one_line_errors() {
    for (players, needle) in [
        ("random,robot", "unknown player `robot`"),
        ("alphazero,random", "known: human, random, greedy"),
        ("mcts:0,random", "`mcts` needs a budget of at least 1"),
        ("random,expectiminimax:0", "at least 1"),
        ("expectiminimax:nodes=0,random", "at least 1"),
        ("perfect:0,random", "at least 1"),
        ("greedy:3,random", "no parameter"),
        ("mcts:many,random", "a number of playouts"),
        ("random", "two players"),
        ("human,random", "computer players"),
        ("perfect:3,random", "perfect:3 needs --tables FILE"),
    ] {
        senet(&["simulate", "--players", players]).refused(needle);
    }
    senet(&["play", "--players", "human,wizard"]).refused("unknown player `wizard`");
    senet(&["play", "--players", "mcts:0,human"]).refused("at least 1");
    // A perfect player where there are no tables: Bell; and Kendall with stored throws,
    // whose tables of two pieces a side are not solved on demand.
    senet(&["simulate", "--rules", "bell", "--players", "perfect,random"])
        .refused("no endgame tables for `bell`");
    senet(&[
        "simulate",
        "--rules",
        "kendall",
        "--players",
        "perfect,random",
    ])
    .refused("perfect:2 needs --tables FILE (tables of more than 1 pieces a side of kendall");
    senet(&[
        "simulate",
        "--players",
        "perfect,random",
        "--tables",
        "/no/such/tables",
    ])
    .refused("--tables: cannot read");
}

#[test]
fn solved_tables_are_played_from_and_refused_for_other_options() {
    let path = temp_file("kendall-immediate-1.tables");
    let path_text = path.to_str().unwrap();
    let kendall = "kendall(throw_timing=immediate)";
    let out = senet(&[
        "solve", "--rules", kendall, "--pieces", "1", "--out", path_text,
    ])
    .ok();
    assert!(out.contains("1598 positions"), "{out}");
    assert!(out.contains("--tables"), "{out}");
    let summary: serde_json::Value = serde_json::from_str(
        &senet(&[
            "simulate",
            "--rules",
            kendall,
            "--players",
            "perfect:1,greedy",
            "--tables",
            path_text,
            "--games",
            "4",
            "--json",
        ])
        .ok(),
    )
    .unwrap();
    assert_eq!(summary["players"][0]["name"], "perfect:1");
    // The same tables, read for other options or another ruleset: refused.
    senet(&[
        "simulate",
        "--rules",
        "kendall(throw_timing=immediate,trap=true)",
        "--players",
        "perfect,greedy",
        "--tables",
        path_text,
    ])
    .refused("the table was solved for `kendall(throw_timing=immediate)`");
    senet(&["play", "--players", "perfect,human", "--tables", path_text])
        .refused("not for `regency`");
    // A perfect player asking for more pieces than the tables have: refused, not weakened.
    senet(&[
        "simulate",
        "--rules",
        kendall,
        "--players",
        "perfect,greedy",
        "--tables",
        path_text,
    ])
    .refused("perfect:2 needs tables of 2 pieces a side, these have 1");
    // A computer game from the tables, to the end.
    let game = senet(&[
        "play",
        "--rules",
        kendall,
        "--players",
        "perfect:1,expectiminimax:1",
        "--tables",
        path_text,
        "--seed",
        "2",
    ])
    .ok();
    assert!(
        game.contains("endgame tables: kendall(throw_timing=immediate)"),
        "{game}"
    );
    assert!(game.contains("(perfect:1)"), "{game}");
    assert!(game.contains("wins"), "{game}");
}

#[test]
fn solve_refuses_what_it_cannot_solve() {
    let path = temp_file("refused.tables");
    let path_text = path.to_str().unwrap();
    senet(&["solve", "--rules", "bell", "--out", path_text]).refused("--rules");
    senet(&["solve", "--rules", "piccione", "--out", path_text]).refused("--rules");
    senet(&["solve", "--pieces", "0", "--out", path_text]).refused("--pieces");
    senet(&["solve", "--pieces", "6", "--out", path_text]).refused("--pieces");
    senet(&["solve", "--tolerance", "0", "--out", path_text]).refused("--tolerance");
    senet(&["solve", "--out", "/no/such/dir/t"]).refused("--out: cannot write");
    // Kendall with immediate throws on disk holds a layer's graph while it finds the
    // components: about 5.7 GB for 3 pieces a side, where Regency's 16 bytes a position
    // would say 0.8 GB.
    let kendall = [
        "solve",
        "--rules",
        "kendall(throw_timing=immediate)",
        "--pieces",
        "3",
        "--method",
        "on-disk",
        "--max-memory",
        "4G",
        "--out",
        path_text,
    ];
    senet(&kendall).refused("takes about 5.");
    assert!(!path.exists(), "no file is left behind by a refused solve");
}

/// The on-disk and lean methods write tables of the same positions as the compiled one,
/// each value within the 2-byte encoding's step of it.
#[test]
fn every_solve_method_writes_the_same_table() {
    let tables: Vec<Vec<u8>> = ["compiled", "on-disk", "lean"]
        .iter()
        .map(|method| {
            let path = temp_file(&format!("method-{method}.tables"));
            let path_text = path.to_str().unwrap();
            senet(&[
                "solve", "--pieces", "1", "--method", method, "--out", path_text,
            ])
            .ok();
            std::fs::read(&path).unwrap()
        })
        .collect();
    // Header, then 756 values of 2 bytes, then the checksum.
    let values = |t: &[u8]| -> Vec<u16> {
        t[t.len() - 8 - 2 * 756..t.len() - 8]
            .chunks_exact(2)
            .map(|b| u16::from_le_bytes([b[0], b[1]]))
            .collect()
    };
    for table in &tables[1..] {
        assert_eq!(table.len(), tables[0].len());
        let steps = values(table)
            .iter()
            .zip(values(&tables[0]))
            .map(|(a, b)| a.abs_diff(b))
            .max();
        assert!(steps <= Some(1), "{steps:?}");
    }
    senet(&["solve", "--method", "sideways", "--out", "/tmp/x"]).refused("--method");
}

/// A refused or failed solve leaves whatever `--out` names exactly as it was: an earlier
/// table, any other file, a folder.
#[test]
fn a_refused_solve_leaves_an_existing_out_file_untouched() {
    let path = temp_file("kept.tables");
    let path_text = path.to_str().unwrap();
    senet(&[
        "solve", "--rules", "regency", "--pieces", "1", "--out", path_text,
    ])
    .ok();
    let table = std::fs::read(&path).unwrap();
    for args in [
        ["--rules", "regency", "--pieces", "9"],
        ["--rules", "regency", "--pieces", "0"],
        ["--rules", "bell", "--pieces", "1"],
        ["--rules", "regency", "--tolerance", "2"],
    ] {
        let mut command = vec!["solve"];
        command.extend(args);
        command.extend(["--out", path_text]);
        senet(&command).refused("");
        assert_eq!(std::fs::read(&path).unwrap(), table, "{args:?}");
    }
    let folder = temp_file("a-folder");
    std::fs::create_dir_all(&folder).unwrap();
    senet(&["solve", "--pieces", "1", "--out", folder.to_str().unwrap()])
        .refused("not a regular file");
    assert!(folder.is_dir());
    // Solving again replaces the table whole, and leaves no temporary file beside it.
    senet(&[
        "solve", "--rules", "regency", "--pieces", "1", "--out", path_text,
    ])
    .ok();
    assert_eq!(std::fs::read(&path).unwrap(), table);
    let parent = path.parent().unwrap();
    let leftovers: Vec<_> = std::fs::read_dir(parent)
        .unwrap()
        .filter_map(|e| e.ok())
        .filter(|e| e.file_name().to_string_lossy().starts_with(".senet-"))
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");
}

#[test]
fn computer_players_play_whole_games_that_repeat_with_the_seed() {
    let args = [
        "play",
        "--players",
        "expectiminimax:1,mcts:16",
        "--seed",
        "4",
    ];
    let first = senet(&args).ok();
    assert_eq!(first, senet(&args).ok());
    assert!(
        first.contains("(expectiminimax:1)") && first.contains("(mcts:16)"),
        "{first}"
    );
    // A person against a perfect player solved on demand: the note, then the game.
    let out = senet_with_input(
        &["play", "--players", "human,perfect:1", "--seed", "1"],
        "quit\n",
    )
    .ok();
    assert!(out.contains("solving the regency endgames"), "{out}");
    assert!(out.contains("White (W): perfect:1"), "{out}");
}

/// With --checkpoint, a solve writes the same table, removes its checkpoint once the table
/// is written, and refuses a checkpoint file that is not one.
#[test]
fn a_checkpointed_solve_writes_the_same_table_and_refuses_a_bad_checkpoint() {
    let plain = temp_file("checkpointed-plain.tables");
    let table = temp_file("checkpointed.tables");
    let checkpoint = temp_file("checkpointed.senet-checkpoint");
    let (plain_text, table_text) = (plain.to_str().unwrap(), table.to_str().unwrap());
    let checkpoint_text = checkpoint.to_str().unwrap();
    senet(&[
        "solve", "--pieces", "2", "--method", "on-disk", "--out", plain_text,
    ])
    .ok();
    senet(&[
        "solve",
        "--pieces",
        "2",
        "--method",
        "on-disk",
        "--out",
        table_text,
        "--checkpoint",
        checkpoint_text,
    ])
    .ok();
    assert_eq!(
        std::fs::read(&plain).unwrap(),
        std::fs::read(&table).unwrap()
    );
    assert!(
        !checkpoint.exists(),
        "the checkpoint is removed once the table is written"
    );
    std::fs::write(&checkpoint, b"SENETCKP and then nonsense").unwrap();
    senet(&[
        "solve",
        "--pieces",
        "1",
        "--out",
        table_text,
        "--checkpoint",
        checkpoint_text,
    ])
    .refused("--checkpoint");
    assert!(
        checkpoint.exists(),
        "a refused checkpoint is left for its owner to look at"
    );
    std::fs::remove_file(&checkpoint).unwrap();
    senet(&[
        "solve",
        "--out",
        table_text,
        "--checkpoint",
        "/no/such/dir/checkpoint",
    ])
    .refused("--checkpoint: cannot write");
}
