//! Every scenario of the rule specifications, asked of `senet moves` (the rules oracle) and
//! checked against after-positions written out by hand from the specification.
//!
//! Adding a ruleset's scenarios is one entry per scenario in [`scenarios`]. The test also
//! reads the scenario table of `docs/rules/<id>.md` and fails while a scenario of a registered
//! ruleset has no entry, or an entry names a scenario the table lacks.

mod common;

use std::collections::BTreeSet;
use std::path::Path;

use common::{parse_moves, pos, senet};
use senet::registry::RULESETS;

/// One scenario: the position (`start` or the notation), the throw(s) given to
/// `senet moves`, and what the specification says follows.
struct Scenario {
    /// The specification's id, e.g. `R-S4`.
    id: &'static str,
    /// The ruleset, with options where the scenario names one.
    rules: &'static str,
    position: String,
    /// The `--throw` argument; empty when the position already holds its throw.
    throws: &'static str,
    /// The legal moves in notation; empty to leave them unchecked (the after-positions
    /// are always checked).
    moves: &'static [&'static str],
    /// The position after each legal move, with all its consequences.
    after: Vec<String>,
}

/// The scenarios, in the notation of the position: Black is the side to move ("me"), White
/// the opponent. Where a scenario gives the opponent no piece at all, a White piece stands
/// on square 1, out of the way: with none the opponent would already have won.
fn scenarios() -> Vec<Scenario> {
    vec![
        // ------------------------------------------------------------ regency.md
        Scenario {
            id: "R-S1",
            // The start, after the forced 10→11: Black (even) throws; a 1 lets it throw
            // again, and attacks on lone White pieces swap.
            rules: "regency",
            position: "start".to_string(),
            throws: "1",
            moves: &["2-3", "4-5", "6-7", "8-9", "11-12"],
            after: vec![
                pos(&[3, 4, 6, 8, 11], &[1, 2, 5, 7, 9], "b white_opened=false"),
                pos(&[2, 5, 6, 8, 11], &[1, 3, 4, 7, 9], "b white_opened=false"),
                pos(&[2, 4, 7, 8, 11], &[1, 3, 5, 6, 9], "b white_opened=false"),
                pos(&[2, 4, 6, 9, 11], &[1, 3, 5, 7, 8], "b white_opened=false"),
                pos(&[2, 4, 6, 8, 12], &[1, 3, 5, 7, 9], "b white_opened=false"),
            ],
        },
        Scenario {
            id: "R-S2",
            rules: "regency",
            position: pos(&[2, 4, 6, 8, 11], &[1, 3, 5, 7, 9], "w white_opened=false"),
            throws: "3",
            moves: &["9-12"],
            after: vec![pos(&[2, 4, 6, 8, 11], &[1, 3, 5, 7, 12], "b")],
        },
        Scenario {
            id: "R-S3",
            rules: "regency",
            position: pos(&[2, 4, 6, 8, 11], &[1, 3, 5, 7, 9], "w white_opened=false"),
            throws: "2",
            moves: &["9-11"],
            after: vec![pos(&[2, 4, 6, 8, 9], &[1, 3, 5, 7, 11], "b")],
        },
        Scenario {
            id: "R-S4",
            rules: "regency",
            position: pos(&[12], &[14, 15], "b"),
            throws: "2",
            moves: &["pass"],
            after: vec![pos(&[12], &[14, 15], "w")],
        },
        Scenario {
            id: "R-S5",
            rules: "regency",
            position: pos(&[12], &[14, 15], "b"),
            throws: "4",
            moves: &["12-16"],
            after: vec![pos(&[16], &[14, 15], "b")],
        },
        Scenario {
            id: "R-S6",
            rules: "regency",
            position: pos(&[13], &[14, 15, 16], "b"),
            throws: "4",
            moves: &["pass"],
            after: vec![pos(&[13], &[14, 15, 16], "w")],
        },
        Scenario {
            id: "R-S7",
            rules: "regency",
            position: pos(&[3, 25], &[1, 2], "b"),
            throws: "2",
            moves: &["3-5", "25-27"],
            after: vec![pos(&[5, 25], &[1, 2], "w"), pos(&[3, 4], &[1, 2], "w")],
        },
        Scenario {
            id: "R-S7",
            rules: "regency(house_of_water=true)",
            position: pos(&[3, 25], &[1, 2], "b"),
            throws: "2",
            moves: &["3-5", "25-27"],
            after: vec![pos(&[5, 25], &[1, 2], "w"), pos(&[3, 15], &[1, 2], "w")],
        },
        Scenario {
            id: "R-S8",
            rules: "regency",
            position: pos(&[23, 28], &[1], "b"),
            throws: "2",
            moves: &["23-25", "28-off"],
            after: vec![pos(&[25, 28], &[1], "w"), pos(&[23], &[1], "w")],
        },
        Scenario {
            id: "R-S9",
            rules: "regency",
            position: pos(&[19, 28], &[1], "b"),
            throws: "2",
            moves: &["19-21"],
            after: vec![pos(&[21, 28], &[1], "w")],
        },
        // ------------------------------------------------------------ botermans.md
        Scenario {
            id: "B-S1",
            // After the forced 10→11 Black throws again; a 1 swaps with lone White pieces
            // (B-6) and gives another throw (B-4).
            rules: "botermans",
            position: "start".to_string(),
            throws: "1",
            moves: &["2-3", "4-5", "6-7", "8-9", "11-12"],
            after: vec![
                pos(&[3, 4, 6, 8, 11], &[1, 2, 5, 7, 9], "b"),
                pos(&[2, 5, 6, 8, 11], &[1, 3, 4, 7, 9], "b"),
                pos(&[2, 4, 7, 8, 11], &[1, 3, 5, 6, 9], "b"),
                pos(&[2, 4, 6, 9, 11], &[1, 3, 5, 7, 8], "b"),
                pos(&[2, 4, 6, 8, 12], &[1, 3, 5, 7, 9], "b"),
            ],
        },
        Scenario {
            id: "B-S2",
            rules: "botermans",
            position: pos(&[15], &[18], "b"),
            throws: "3",
            moves: &["15-18"],
            after: vec![pos(&[18], &[15], "w")],
        },
        Scenario {
            id: "B-S3",
            rules: "botermans",
            position: pos(&[15], &[17, 18], "b"),
            throws: "3",
            moves: &["15-12"],
            after: vec![pos(&[12], &[17, 18], "w")],
        },
        Scenario {
            id: "B-S4",
            rules: "botermans",
            position: pos(&[25], &[1, 2], "b"),
            throws: "2",
            moves: &["25-27"],
            after: vec![pos(&[3], &[1, 2], "w")],
        },
        Scenario {
            id: "B-S5",
            rules: "botermans",
            position: pos(&[16, 17], &[18, 19], "b"),
            throws: "1",
            moves: &["16-15"],
            after: vec![pos(&[15, 17], &[18, 19], "b")],
        },
        Scenario {
            id: "B-S6",
            rules: "botermans",
            position: pos(&[22, 28], &[1], "b"),
            throws: "2",
            moves: &["22-24", "28-off"],
            after: vec![pos(&[24, 28], &[1], "w"), pos(&[22], &[1], "w")],
        },
        Scenario {
            id: "B-S7",
            // 29 + 3 passes 30 by 2 and bounces back to 60 - 29 - 3 = 28.
            rules: "botermans",
            position: pos(&[22, 29], &[1], "b"),
            throws: "3",
            moves: &["22-25", "29-28"],
            after: vec![pos(&[25, 29], &[1], "w"), pos(&[22, 28], &[1], "w")],
        },
        Scenario {
            id: "B-S8",
            rules: "botermans",
            position: pos(&[19, 28], &[1], "b"),
            throws: "2",
            moves: &["19-21"],
            after: vec![pos(&[21, 28], &[1], "w")],
        },
        // ------------------------------------------------------------ cemea.md
        Scenario {
            id: "C-S1",
            // The start: Black throws first; with a 2 only the front piece can move.
            rules: "cemea",
            position: "start".to_string(),
            throws: "2",
            moves: &["14-16"],
            after: vec![pos(
                &[2, 4, 6, 8, 10, 12, 16],
                &[1, 3, 5, 7, 9, 11, 13],
                "w",
            )],
        },
        Scenario {
            id: "C-S2",
            rules: "cemea",
            position: pos(&[12], &[14, 15], "b"),
            throws: "4",
            moves: &["12-16"],
            after: vec![pos(&[16], &[14, 15], "b")],
        },
        Scenario {
            id: "C-S3",
            rules: "cemea",
            position: pos(&[12], &[14, 15, 16], "b"),
            throws: "6",
            moves: &["12-6"],
            after: vec![pos(&[6], &[14, 15, 16], "b")],
        },
        Scenario {
            id: "C-S4",
            rules: "cemea",
            position: pos(&[24], &[1], "b"),
            throws: "3",
            moves: &["24-27"],
            after: vec![pos(&[15], &[1], "w")],
        },
        Scenario {
            id: "C-S5",
            rules: "cemea",
            position: pos(&[24], &[15], "b"),
            throws: "3",
            moves: &["24-27"],
            after: vec![pos(&[27], &[15], "w")],
        },
        Scenario {
            id: "C-S6",
            rules: "cemea",
            position: pos(&[26], &[1], "b"),
            throws: "1",
            moves: &["26-28"],
            after: vec![pos(&[28], &[1], "b")],
        },
        Scenario {
            id: "C-S7",
            rules: "cemea",
            position: pos(&[28], &[1], "b"),
            throws: "3",
            moves: &["28-off"],
            after: vec![pos(&[], &[1], "w")],
        },
        Scenario {
            id: "C-S7",
            rules: "cemea",
            position: pos(&[28], &[1], "b"),
            throws: "2",
            moves: &["28-30"],
            after: vec![pos(&[30], &[1], "w")],
        },
        Scenario {
            id: "C-S8",
            // No forward or backward move lands anywhere allowed, so the last resort of I-1
            // (3): 2→4 onto the own piece, which goes back to square 1.
            rules: "cemea",
            position: pos(&[2, 4], &[5, 6, 7], "b"),
            throws: "2",
            moves: &["2-4"],
            after: vec![pos(&[1, 4], &[5, 6, 7], "w")],
        },
        // ------------------------------------------------------------ kendall.md
        Scenario {
            id: "K-S1",
            // After the opening 14→15 Black throws afresh (I-5); a 2 ends the throwing.
            rules: "kendall",
            position: "start".to_string(),
            throws: "2",
            moves: &["12-14/2", "15-17/2"],
            after: vec![
                pos(&[2, 4, 6, 8, 10, 14, 15], &[1, 3, 5, 7, 9, 11, 13], "w"),
                pos(&[2, 4, 6, 8, 10, 12, 17], &[1, 3, 5, 7, 9, 11, 13], "w"),
            ],
        },
        Scenario {
            id: "K-S2",
            // Stored throws 4 and 2: the 4 passes the three pieces (K-8); the 2 has no
            // forward move (15 is protected) so it goes backward (K-5, I-1).
            rules: "kendall",
            position: pos(&[13], &[14, 15, 16], "b"),
            throws: "4,2",
            moves: &["13-17/4", "13-11/2"],
            after: vec![
                pos(&[17], &[14, 15, 16], "b throws=2"),
                pos(&[11], &[14, 15, 16], "b throws=4"),
            ],
        },
        Scenario {
            id: "K-S3",
            rules: "kendall(throw_timing=immediate)",
            position: pos(&[13], &[14, 15, 16], "b"),
            throws: "2",
            moves: &["13-11/2"],
            after: vec![pos(&[11], &[14, 15, 16], "w")],
        },
        Scenario {
            id: "K-S4",
            rules: "kendall(throw_timing=immediate)",
            position: pos(&[24], &[1], "b"),
            throws: "2",
            moves: &["24-26/2"],
            after: vec![pos(&[26], &[1], "w")],
        },
        Scenario {
            id: "K-S4",
            // The gate of 26 (K-9) forbids 24→27, so the 3 goes backward.
            rules: "kendall(throw_timing=immediate)",
            position: pos(&[24], &[1], "b"),
            throws: "3",
            moves: &["24-21/3"],
            after: vec![pos(&[21], &[1], "w")],
        },
        Scenario {
            id: "K-S5",
            // 5 bears off (K-10), which may be declined (K-16); 5 and 4 throw again.
            rules: "kendall(throw_timing=immediate)",
            position: pos(&[26], &[1], "b"),
            throws: "5",
            moves: &["26-off/5", "pass/5"],
            after: vec![pos(&[], &[1], "b"), pos(&[26], &[1], "b")],
        },
        Scenario {
            id: "K-S5",
            rules: "kendall(throw_timing=immediate)",
            position: pos(&[26], &[1], "b"),
            throws: "4",
            moves: &["26-30/4"],
            after: vec![pos(&[30], &[1], "b")],
        },
        Scenario {
            id: "K-S5",
            rules: "kendall(throw_timing=immediate)",
            position: pos(&[26], &[1], "b"),
            throws: "3",
            moves: &["26-29/3"],
            after: vec![pos(&[29], &[1], "w")],
        },
        Scenario {
            id: "K-S5",
            rules: "kendall(throw_timing=immediate)",
            position: pos(&[26], &[1], "b"),
            throws: "2",
            moves: &["26-28/2"],
            after: vec![pos(&[28], &[1], "w")],
        },
        Scenario {
            id: "K-S5",
            // Entering the water by one's own move ends the turn (K-13), even after a 1.
            rules: "kendall(throw_timing=immediate)",
            position: pos(&[26], &[1], "b"),
            throws: "1",
            moves: &["26-27/1"],
            after: vec![pos(&[27], &[1], "w")],
        },
        Scenario {
            id: "K-S6",
            rules: "kendall(throw_timing=immediate)",
            position: pos(&[28], &[1], "b"),
            throws: "2",
            moves: &["pass"],
            after: vec![pos(&[28], &[1], "w")],
        },
        Scenario {
            id: "K-S7",
            rules: "kendall(throw_timing=immediate)",
            position: pos(&[26], &[29], "b"),
            throws: "3",
            moves: &["26-29/3"],
            after: vec![pos(&[29], &[27], "w")],
        },
        Scenario {
            id: "K-S8",
            rules: "kendall(throw_timing=immediate)",
            position: pos(&[16, 17], &[15, 18, 19], "b"),
            throws: "1",
            moves: &["16-15/1"],
            after: vec![pos(&[15, 17], &[16, 18, 19], "b")],
        },
        // ------------------------------------------------------------ bell.md
        Scenario {
            id: "Be-S1",
            // The start: every Black piece but the front one would land on its own piece.
            rules: "bell",
            position: "start".to_string(),
            throws: "2",
            moves: &["20-22"],
            after: vec![pos(
                &[2, 4, 6, 8, 10, 12, 14, 16, 18, 22],
                &[1, 3, 5, 7, 9, 11, 13, 15, 17, 19],
                "w",
            )],
        },
        Scenario {
            id: "Be-S2",
            rules: "bell",
            position: pos(&[12], &[14, 15], "b"),
            throws: "2",
            moves: &["12-14"],
            after: vec![pos(&[14], &[15], "w captured_w=1")],
        },
        Scenario {
            id: "Be-S3",
            rules: "bell",
            position: pos(&[24], &[26], "b"),
            throws: "2",
            moves: &["pass"],
            after: vec![pos(&[24], &[26], "w")],
        },
        Scenario {
            id: "Be-S4",
            rules: "bell",
            position: pos(&[10, 27], &[1], "b"),
            throws: "1",
            moves: &["27-28"],
            after: vec![pos(&[10, 28], &[1], "w")],
        },
        Scenario {
            id: "Be-S5",
            rules: "bell",
            position: pos(&[28], &[1], "b"),
            throws: "3",
            moves: &["28-off"],
            after: vec![pos(&[], &[1], "w")],
        },
        Scenario {
            id: "Be-S5",
            rules: "bell",
            position: pos(&[28], &[1], "b"),
            throws: "4",
            moves: &["pass"],
            after: vec![pos(&[28], &[1], "w")],
        },
        // ------------------------------------------------------------ jequier.md
        Scenario {
            id: "J-S1",
            // After the forced 10→11 Black throws again. With a 1 every unmoved piece waits
            // behind an occupied square (J-5): only the piece on 11 moves.
            rules: "jequier",
            position: "start".to_string(),
            throws: "1",
            moves: &["11-12"],
            after: vec![pos(&[2, 4, 6, 8, 12], &[1, 3, 5, 7, 9], "b")],
        },
        Scenario {
            id: "J-S2",
            // The lowest empty square is chosen before 9 leaves it (J-7): the attacked piece
            // goes to 10, and it no longer counts as unmoved (I-1).
            rules: "jequier",
            position: pos(&[2, 4, 6, 8, 11], &[1, 3, 5, 7, 9], "w"),
            throws: "2",
            moves: &["9-11"],
            after: vec![pos(
                &[2, 4, 6, 8, 10],
                &[1, 3, 5, 7, 11],
                "b unmoved=1,2,3,4,5,6,7,8",
            )],
        },
        Scenario {
            id: "J-S3",
            rules: "jequier",
            position: pos(&[12], &[1, 2, 14], "b"),
            throws: "2",
            moves: &["12-14"],
            after: vec![pos(&[14], &[1, 2, 3], "w unmoved=1")],
        },
        Scenario {
            id: "J-S4",
            rules: "jequier",
            position: pos(&[24, 29], &[1], "b"),
            throws: "6",
            moves: &["24-30", "29-off"],
            after: vec![pos(&[29, 30], &[1], "b"), pos(&[24], &[1], "b")],
        },
        Scenario {
            id: "J-S5",
            rules: "jequier",
            position: pos(&[19, 29], &[1], "b"),
            throws: "2",
            moves: &["19-21"],
            after: vec![pos(&[21, 29], &[1], "w")],
        },
        // ------------------------------------------------------------ piccione.md
        Scenario {
            id: "P-S1",
            rules: "piccione",
            position: "start".to_string(),
            throws: "2",
            moves: &["pass"],
            after: vec![pos(&[], &[], "w hand=5,5")],
        },
        Scenario {
            id: "P-S2",
            // The 1 enters a piece and gives another throw, which must move it (P-3).
            rules: "piccione",
            position: "start".to_string(),
            throws: "1",
            moves: &["enter"],
            after: vec![pos(&[1], &[], "b hand=4,5 entered_must_move=true")],
        },
        Scenario {
            id: "P-S2",
            rules: "piccione",
            position: pos(&[1], &[], "b hand=4,5 entered_must_move=true"),
            throws: "3",
            moves: &["1-4"],
            after: vec![pos(&[4], &[], "w hand=4,5")],
        },
        Scenario {
            id: "P-S3",
            // Every forward split of the 4 between the two pieces, each position once.
            rules: "piccione",
            position: pos(&[3, 8], &[30], "b"),
            throws: "4",
            moves: &["3-7", "8-12", "3-5,8-10", "3-4,8-11", "3-6,8-9"],
            after: vec![
                pos(&[7, 8], &[30], "w"),
                pos(&[3, 12], &[30], "w"),
                pos(&[5, 10], &[30], "w"),
                pos(&[4, 11], &[30], "w"),
                pos(&[6, 9], &[30], "w"),
            ],
        },
        Scenario {
            id: "P-S4",
            // 27 sends the piece back to hand (P-10); split as 1+1 it lands on 26 first, which
            // earns another throw (P-9), so that is a second, different choice.
            rules: "piccione",
            position: pos(&[25], &[30], "b"),
            throws: "2",
            moves: &["25-27", "25-26,26-27"],
            after: vec![pos(&[], &[30], "w hand=1,0"), pos(&[], &[30], "b hand=1,0")],
        },
        Scenario {
            id: "P-S5",
            rules: "piccione",
            position: pos(&[13], &[30], "b"),
            throws: "2",
            moves: &["13-15"],
            after: vec![pos(&[15], &[30], "b")],
        },
        // The position may also carry its pending throw instead of --throw.
        Scenario {
            id: "R-S5",
            rules: "regency",
            position: pos(&[12], &[14, 15], "b throw=4"),
            throws: "",
            moves: &["12-16"],
            after: vec![pos(&[16], &[14, 15], "b")],
        },
    ]
}

fn run(scenario: &Scenario) -> Vec<(String, String)> {
    let mut args = vec![
        "moves",
        "--rules",
        scenario.rules,
        "--position",
        &scenario.position,
    ];
    if !scenario.throws.is_empty() {
        args.extend(["--throw", scenario.throws]);
    }
    let result = senet(&args);
    assert_eq!(
        result.status,
        Some(0),
        "{} ({}): {result:#?}",
        scenario.id,
        scenario.rules
    );
    parse_moves(&result.stdout)
}

#[test]
fn every_scenario_through_senet_moves() {
    for scenario in scenarios() {
        let listed = run(&scenario);
        let label = format!(
            "{} ({}, {} --throw {})",
            scenario.id, scenario.rules, scenario.position, scenario.throws
        );
        let after: BTreeSet<&str> = listed.iter().map(|(_, a)| a.as_str()).collect();
        let expected: BTreeSet<&str> = scenario.after.iter().map(String::as_str).collect();
        assert_eq!(after, expected, "{label}: after-positions");
        if !scenario.moves.is_empty() {
            let moves: BTreeSet<&str> = listed.iter().map(|(m, _)| m.as_str()).collect();
            let expected: BTreeSet<&str> = scenario.moves.iter().copied().collect();
            assert_eq!(moves, expected, "{label}: moves");
        }
    }
}

/// `docs/rules/<id>.md` of a ruleset, read from the workspace this crate belongs to.
fn rules_doc(id: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../docs/rules")
        .join(format!("{id}.md"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The scenario ids of a rules page: the first cell of its table rows, e.g. `R-S4`.
fn scenario_ids(doc: &str) -> BTreeSet<String> {
    doc.lines()
        .filter_map(|line| line.strip_prefix('|'))
        .filter_map(|row| row.split('|').next())
        .map(str::trim)
        .filter(|cell| {
            cell.split_once("-S").is_some_and(|(prefix, number)| {
                !prefix.is_empty()
                    && prefix.chars().all(|c| c.is_ascii_alphabetic())
                    && !number.is_empty()
                    && number.chars().all(|c| c.is_ascii_digit())
            })
        })
        .map(str::to_string)
        .collect()
}

#[test]
fn every_registered_ruleset_has_its_scenarios_in_the_table() {
    let table = scenarios();
    for info in RULESETS {
        let ours: BTreeSet<String> = table
            .iter()
            .filter(|s| s.rules == info.id || s.rules.starts_with(&format!("{}(", info.id)))
            .map(|s| s.id.to_string())
            .collect();
        let wanted = scenario_ids(&rules_doc(info.id));
        assert!(
            !wanted.is_empty(),
            "docs/rules/{}.md: no scenario table",
            info.id
        );
        let missing: Vec<&String> = wanted.difference(&ours).collect();
        assert!(
            missing.is_empty(),
            "{}: scenarios missing: {missing:?}",
            info.id
        );
        let unknown: Vec<&String> = ours.difference(&wanted).collect();
        assert!(
            unknown.is_empty(),
            "{}: not in docs/rules/{}.md: {unknown:?}",
            info.id,
            info.id
        );
    }
}

#[test]
fn scenario_ids_are_read_from_table_rows() {
    let doc = "| # | position |\n|---|---|\n| R-S1 | start |\n| Be-S5 | x |\n| I-2 | y |\n";
    let ids: Vec<String> = scenario_ids(doc).into_iter().collect();
    assert_eq!(ids, ["Be-S5", "R-S1"]);
}
