//! Every scenario of the rule specifications, asked of `senet moves` (the rules oracle) and
//! checked against after-positions written out by hand from the specification.
//!
//! The scenarios of a ruleset are in `tests/scenarios/<id>.txt` at the workspace root, one
//! block a scenario, blocks apart by blank lines, `#` starting a comment line:
//!
//! ```text
//! scenario R-S2                                  the id in docs/rules/<id>.md
//! rules    regency                               the ruleset, with options if any
//! position WBWBWBWBW.B.................. w ...    `start` or the position notation
//! throw    3                                     optional: the `--throw` argument
//! moves    9-12                                  optional: the legal moves, all of them
//! after    WBWBWBWB..BW................. b       one line per legal move: what follows
//! ```
//!
//! In every position Black is the side to move ("me"), White the opponent. Where a scenario
//! gives the opponent no piece at all, a White piece stands on square 1, out of the way: with
//! none the opponent would already have won. The test fails while a registered ruleset has no
//! file, while a scenario of its `docs/rules/<id>.md` table has no block, or a block names a
//! scenario the table lacks.

mod common;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use common::{parse_moves, senet};
use senet::registry::RULESETS;

/// One scenario of a scenario file.
#[derive(Debug, Default)]
struct Scenario {
    /// Where the block starts, for messages: `tests/scenarios/regency.txt:12`.
    place: String,
    /// The specification's id, e.g. `R-S4`.
    id: String,
    /// The ruleset, with options where the scenario names one.
    rules: String,
    position: String,
    /// The `--throw` argument; empty when the position already holds its throw.
    throws: String,
    /// The legal moves in notation; empty to leave them unchecked (the after-positions
    /// are always checked).
    moves: Vec<String>,
    /// The position after each legal move, with all its consequences.
    after: Vec<String>,
}

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn read(relative: &str) -> String {
    let path = workspace().join(relative);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{relative}: {e}"))
}

/// The scenarios of `tests/scenarios/<id>.txt`.
fn scenarios(id: &str) -> Vec<Scenario> {
    let file = format!("tests/scenarios/{id}.txt");
    let text = read(&file);
    let mut scenarios: Vec<Scenario> = Vec::new();
    let mut current: Option<Scenario> = None;
    for (number, line) in text.lines().enumerate() {
        let place = format!("{file}:{}", number + 1);
        let line = line.trim_end();
        if line.is_empty() || line.starts_with('#') {
            scenarios.extend(current.take());
            continue;
        }
        let (key, value) = line.split_once(' ').unwrap_or((line, ""));
        let value = value.trim_start().to_string();
        let scenario = current.get_or_insert_with(|| Scenario {
            place: place.clone(),
            ..Scenario::default()
        });
        match key {
            "scenario" => scenario.id = value,
            "rules" => scenario.rules = value,
            "position" => scenario.position = value,
            "throw" => scenario.throws = value,
            "moves" => scenario.moves = value.split_whitespace().map(str::to_string).collect(),
            "after" => scenario.after.push(value),
            _ => panic!("{place}: unknown key {key:?}"),
        }
    }
    scenarios.extend(current);
    for s in &scenarios {
        assert!(
            !s.id.is_empty() && !s.rules.is_empty() && !s.position.is_empty(),
            "{}: a scenario needs `scenario`, `rules` and `position`",
            s.place
        );
        assert!(!s.after.is_empty(), "{}: no `after` line", s.place);
    }
    scenarios
}

fn run(scenario: &Scenario) -> Vec<(String, String)> {
    let mut args = vec![
        "moves",
        "--rules",
        &scenario.rules,
        "--position",
        &scenario.position,
    ];
    if !scenario.throws.is_empty() {
        args.extend(["--throw", &scenario.throws]);
    }
    let result = senet(&args);
    assert_eq!(
        result.status,
        Some(0),
        "{} {} ({}): {result:#?}",
        scenario.place,
        scenario.id,
        scenario.rules
    );
    parse_moves(&result.stdout)
}

#[test]
fn every_scenario_through_senet_moves() {
    for scenario in RULESETS.iter().flat_map(|info| scenarios(info.id)) {
        let listed = run(&scenario);
        let label = format!(
            "{} {} ({}, {} --throw {})",
            scenario.place, scenario.id, scenario.rules, scenario.position, scenario.throws
        );
        let after: BTreeSet<&str> = listed.iter().map(|(_, a)| a.as_str()).collect();
        let expected: BTreeSet<&str> = scenario.after.iter().map(String::as_str).collect();
        assert_eq!(after, expected, "{label}: after-positions");
        if !scenario.moves.is_empty() {
            let moves: BTreeSet<&str> = listed.iter().map(|(m, _)| m.as_str()).collect();
            let expected: BTreeSet<&str> = scenario.moves.iter().map(String::as_str).collect();
            assert_eq!(moves, expected, "{label}: moves");
        }
    }
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
    for info in RULESETS {
        let file = scenarios(info.id);
        for s in &file {
            assert!(
                s.rules == info.id || s.rules.starts_with(&format!("{}(", info.id)),
                "{}: {} is not the file's ruleset",
                s.place,
                s.rules
            );
        }
        let ours: BTreeSet<String> = file.into_iter().map(|s| s.id).collect();
        let wanted = scenario_ids(&read(&format!("docs/rules/{}.md", info.id)));
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
