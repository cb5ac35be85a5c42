//! `senet analyse`: a game saved by `senet play` analysed as text, JSON (the library's own
//! serialisation) and SVG, and bad arguments refused in one line.

mod common;

use common::senet;
use senet::AnyGame;
use senet::analysis::{AnalysisOptions, Tables, analyse};

/// A game of Regency played to its end by two computer players and saved by `senet play`.
fn saved_game(dir: &std::path::Path) -> std::path::PathBuf {
    let path = dir.join("game.txt");
    senet(&[
        "play",
        "--players",
        "greedy,expectiminimax:1",
        "--seed",
        "11",
        "--save",
        path.to_str().unwrap(),
    ])
    .ok();
    path
}

#[test]
fn a_saved_game_is_analysed_as_text_json_and_svg() {
    let dir = tempfile::tempdir().unwrap();
    let record = saved_game(dir.path());
    let record_arg = record.to_str().unwrap();
    let svg = dir.path().join("chance.svg");
    let text = senet(&[
        "analyse",
        record_arg,
        "--player",
        "expectiminimax:1",
        "--svg",
        svg.to_str().unwrap(),
    ])
    .ok();
    for needle in [
        "evaluator: expectiminimax:1",
        "endgame tables: regency endgames, up to 2 pieces a side",
        "luck-adjusted",
        "result 100 won, 0 lost",
        "Black: ",
        "White: ",
    ] {
        assert!(text.contains(needle), "{needle:?} missing from:\n{text}");
    }
    let drawn = std::fs::read_to_string(&svg).unwrap();
    assert!(
        drawn.starts_with("<svg") && drawn.contains("Black&apos;s winning chance")
            || drawn.contains("Black's winning chance"),
        "{}",
        &drawn[..200.min(drawn.len())]
    );

    let json = senet(&[
        "analyse",
        record_arg,
        "--player",
        "expectiminimax:1",
        "--json",
    ])
    .ok();
    let printed: serde_json::Value = serde_json::from_str(&json).unwrap();
    // The CLI prints the library's analysis of the same record, value for value.
    let game = AnyGame::from_record_text(&std::fs::read_to_string(&record).unwrap()).unwrap();
    let options = AnalysisOptions {
        evaluator: Some("expectiminimax:1".parse().unwrap()),
        tables: Tables::OnDemand,
        seed: 0,
    };
    let library = serde_json::to_string_pretty(&analyse(&game, &options).unwrap()).unwrap();
    assert!(
        json.trim_end() == library,
        "the CLI's JSON is not the library's analysis"
    );
    let points = printed["points"].as_array().unwrap();
    assert_eq!(points.len(), game.history().len() + 1);
    assert_eq!(printed["finished"], true);
    assert_eq!(printed["sides"].as_array().unwrap().len(), 2);
    // The end of the game is inside the tables, and the winner's chance ends at 1.
    assert_eq!(points.last().unwrap()["exact"], true);
    let winner_is_black = points.last().unwrap()["black"] == 1.0;
    assert!(winner_is_black || points.last().unwrap()["black"] == 0.0);
}

#[test]
fn bad_arguments_are_refused_in_one_line() {
    let dir = tempfile::tempdir().unwrap();
    let record = saved_game(dir.path());
    let record = record.to_str().unwrap();
    senet(&["analyse", record, "--player", "random"]).refused("gives no winning chances");
    senet(&["analyse", record, "--player", "perfect:3"]).refused("needs endgame tables");
    senet(&["analyse", record, "--player", "expectiminimax:99"]).refused("--player");
    senet(&["analyse", record, "--tables", record, "--no-tables"]).refused("cannot be used with");
    senet(&["analyse", record, "--tables", record]).refused("--tables");
    senet(&["analyse", "/nonexistent/game.txt"]).refused("cannot read the record");
    let broken = dir.path().join("broken.txt");
    std::fs::write(&broken, "rules regency\nmove 9-12\n").unwrap();
    senet(&["analyse", broken.to_str().unwrap()]).refused("broken.txt");
    let svg = senet(&[
        "analyse",
        record,
        "--no-tables",
        "--player",
        "expectiminimax:1",
        "--svg",
        "/nonexistent/dir/x.svg",
    ]);
    svg.refused("--svg");
}
