//! `senet train`: weights that learn, checkpoints gone on from, the same weights for the same
//! seed and threads, and every bad argument refused in one line.

mod common;

use common::senet;

fn train(out: &std::path::Path, extra: &[&str]) -> String {
    let mut args = vec![
        "train",
        "--rules",
        "regency",
        "--out",
        out.to_str().unwrap(),
    ];
    args.extend_from_slice(extra);
    senet(&args).ok()
}

#[test]
fn a_stopped_training_goes_on_from_its_checkpoint_to_the_same_weights() {
    let dir = tempfile::tempdir().unwrap();
    let whole = dir.path().join("whole.safetensors");
    let parts = dir.path().join("parts.safetensors");
    let common = ["--strength-games", "0", "--threads", "2", "--seed", "9"];
    train(
        &whole,
        &[&["--games", "40", "--checkpoint", "20"][..], &common].concat(),
    );
    // The same training stopped after its first checkpoint, then started again.
    train(
        &parts,
        &[&["--games", "20", "--checkpoint", "20"][..], &common].concat(),
    );
    let resumed = train(
        &parts,
        &[&["--games", "40", "--checkpoint", "20"][..], &common].concat(),
    );
    assert!(resumed.contains("going on from 20 games"), "{resumed}");
    let same = std::fs::read(&whole).unwrap() == std::fs::read(&parts).unwrap();
    assert!(same, "going on from the checkpoint gave other weights");
    // Other settings do not go on from it.
    let other = senet(&[
        "train",
        "--rules",
        "regency",
        "--out",
        parts.to_str().unwrap(),
        "--games",
        "200",
        "--seed",
        "10",
        "--threads",
        "2",
    ]);
    other.refused("trained with other settings");
}

#[test]
fn the_weights_play_as_the_learned_player_and_report_their_strength() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("w.safetensors");
    let printed = train(
        &out,
        &[
            "--games",
            "30",
            "--checkpoint",
            "30",
            "--strength-games",
            "6",
            "--opponent",
            "random",
        ],
    );
    assert!(
        printed.contains("30 games: learned:1 won")
            && printed.contains("of 6 games against random"),
        "{printed}"
    );
    assert!(printed.contains("trained 30 games"), "{printed}");
    let weights = senet_ai::learned::Weights::read(&out).unwrap();
    assert_eq!(weights.info.ruleset, "regency");
    assert_eq!(weights.info.games, 30);
}

#[test]
fn bad_arguments_are_refused_in_one_line() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("w.safetensors");
    let out = out.to_str().unwrap();
    let refusals: &[(&[&str], &str)] = &[
        (&["--games", "0"], "--games 0"),
        (&["--games", "100000001"], "--games"),
        (&["--threads", "0"], "--threads 0"),
        (&["--threads", "100000"], "--threads"),
        (&["--hidden", "0"], "--hidden 0"),
        (&["--hidden", "257"], "--hidden 257"),
        (&["--alpha", "5"], "step size"),
        (&["--alpha", "NaN"], "step size"),
        (&["--lambda", "1.5"], "lambda"),
        (&["--checkpoint", "0"], "--checkpoint 0"),
        (&["--strength-games", "1000000"], "--strength-games"),
        (&["--strength-depth", "9"], "--strength-depth 9"),
        (&["--exact-pieces", "4"], "--exact-pieces 4"),
        (
            &["--exact-pieces", "1", "--rules", "bell"],
            "no space for bell",
        ),
        (&["--opponent", "alphazero"], "--opponent"),
        (&["--rules", "chess"], "--rules"),
    ];
    for (extra, needle) in refusals {
        let mut args = vec!["train", "--out", out];
        if !extra.contains(&"--games") {
            args.extend_from_slice(&["--games", "10"]);
        }
        args.extend_from_slice(extra);
        senet(&args).refused(needle);
    }
    // A file that is not a weights file is never overwritten by mistake.
    let text = dir.path().join("notes.txt");
    std::fs::write(&text, "my notes").unwrap();
    senet(&["train", "--out", text.to_str().unwrap(), "--games", "10"])
        .refused("not a senet weights file");
    assert_eq!(std::fs::read_to_string(&text).unwrap(), "my notes");
}
