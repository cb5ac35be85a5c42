//! `senet fit-endgame`: an endgame network written beside the main one, checkpoints gone on
//! from to the same bytes, tables read from a file, and every bad argument refused in one
//! line.

mod common;

use common::senet;
use senet_ai::learned::Weights;

fn fit(out: &std::path::Path, extra: &[&str]) -> String {
    let mut args = vec![
        "fit-endgame",
        "--rules",
        "regency",
        "--out",
        out.to_str().unwrap(),
    ];
    args.extend_from_slice(extra);
    senet(&args).ok()
}

#[test]
fn a_stopped_fit_goes_on_from_its_checkpoint_to_the_same_weights() {
    let dir = tempfile::tempdir().unwrap();
    let whole = dir.path().join("whole.safetensors");
    let parts = dir.path().join("parts.safetensors");
    let common = ["--pieces", "2", "--seed", "5"];
    let printed = fit(
        &whole,
        &[&["--games", "60", "--checkpoint", "30"][..], &common].concat(),
    );
    assert!(
        printed.contains("up to 2 pieces a side") && printed.contains("60 games: mean error"),
        "{printed}"
    );
    fit(
        &parts,
        &[&["--games", "30", "--checkpoint", "30"][..], &common].concat(),
    );
    let resumed = fit(
        &parts,
        &[&["--games", "60", "--checkpoint", "30"][..], &common].concat(),
    );
    assert!(resumed.contains("going on from 30 games"), "{resumed}");
    let same = std::fs::read(&whole).unwrap() == std::fs::read(&parts).unwrap();
    assert!(same, "going on from the checkpoint gave other weights");
    // The main network is the one that comes with senet; the endgame one was fitted.
    let weights = Weights::read(&whole).unwrap();
    let committed = senet_ai::learned::committed(&senet::Regency::default()).unwrap();
    assert_eq!(
        (&weights.net, &weights.info),
        (&committed.net, &committed.info)
    );
    let endgame = weights.endgame.unwrap();
    assert_eq!((endgame.max_pieces, endgame.games), (2, 60));
    assert_ne!(endgame.net, committed.net);
    // Other settings do not go on from it.
    senet(&[
        "fit-endgame",
        "--out",
        parts.to_str().unwrap(),
        "--pieces",
        "2",
        "--games",
        "90",
        "--seed",
        "6",
    ])
    .refused("fitted with other settings");
}

#[test]
fn tables_are_read_from_a_file_of_senet_solve() {
    let dir = tempfile::tempdir().unwrap();
    let tables = dir.path().join("k2.senet-endgame");
    let tables = tables.to_str().unwrap();
    senet(&[
        "solve", "--rules", "regency", "--pieces", "2", "--out", tables,
    ])
    .ok();
    let out = dir.path().join("w.safetensors");
    let printed = fit(
        &out,
        &["--tables", tables, "--games", "20", "--hidden", "6"],
    );
    assert!(printed.contains("fitted 20 games"), "{printed}");
    let endgame = Weights::read(&out).unwrap().endgame.unwrap();
    assert_eq!((endgame.max_pieces, endgame.net.hidden()), (2, 6));
    // Tables of another ruleset are refused.
    senet(&[
        "fit-endgame",
        "--rules",
        "kendall(throw_timing=immediate)",
        "--tables",
        tables,
        "--out",
        dir.path().join("k.safetensors").to_str().unwrap(),
    ])
    .refused("--tables");
}

#[test]
fn bad_arguments_are_refused_in_one_line() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("w.safetensors");
    let out = out.to_str().unwrap();
    let bell = dir.path().join("bell.safetensors");
    senet(&[
        "train",
        "--rules",
        "bell",
        "--games",
        "2",
        "--strength-games",
        "0",
        "--out",
        bell.to_str().unwrap(),
    ])
    .ok();
    let refusals: &[(&[&str], &str)] = &[
        (&["--games", "0"], "--games 0"),
        (&["--games", "100000001"], "--games"),
        (&["--checkpoint", "0"], "--checkpoint 0"),
        (&["--hidden", "0"], "--hidden 0"),
        (&["--hidden", "257"], "--hidden 257"),
        (&["--alpha", "5"], "--alpha 5"),
        (&["--alpha-games", "0"], "--alpha-games 0"),
        (&["--pieces", "0"], "--pieces 0"),
        (&["--pieces", "4"], "senet solve"),
        (&["--pieces", "2", "--tables", "x"], "--tables"),
        (&["--tables", "/no/such/file"], "--tables"),
        (&["--rules", "bell", "--pieces", "1"], "no space for bell"),
        (&["--rules", "chess"], "--rules"),
        (&["--weights", bell.to_str().unwrap()], "--weights"),
    ];
    for (extra, needle) in refusals {
        let mut args = vec!["fit-endgame", "--out", out];
        if !extra.contains(&"--games") {
            args.extend_from_slice(&["--games", "10"]);
        }
        if !extra.contains(&"--tables") && !extra.contains(&"--pieces") {
            args.extend_from_slice(&["--pieces", "1"]);
        }
        args.extend_from_slice(extra);
        senet(&args).refused(needle);
    }
    senet(&["fit-endgame", "--out", out]).refused("--tables FILE or --pieces K");
    // A file that is not a weights file is never overwritten by mistake.
    let text = dir.path().join("notes.txt");
    std::fs::write(&text, "my notes").unwrap();
    senet(&[
        "fit-endgame",
        "--out",
        text.to_str().unwrap(),
        "--pieces",
        "1",
    ])
    .refused("not a senet weights file");
    assert_eq!(std::fs::read_to_string(&text).unwrap(), "my notes");
}
