//! The batch engine (`senet::batch`) plays the very games of the scalar engine: game `i` of a
//! batch, on ChaCha8 stream `i`, ends exactly as `random_playout` on that stream does (same
//! end, outcome, turns and decisions), for every registered ruleset and option value, with the
//! vector instructions the CPU has and with the baseline ones, and whatever the turn cap.
//!
//! The long comparison (100,000 games of each default configuration and of each value of each
//! option a lock-step kernel covers) is ignored in debug builds; CI runs it in release:
//! `cargo test --release --test batch -- --ignored`.

use senet::batch::{BatchRun, Instructions};
use senet::registry::{AnyRuleset, RULESETS, Registered, RulesetVisitor};
use senet::{Coverage, option_specs};
use senet_testkit::batch::assert_batch_plays_scalar_games;

const SEED: u64 = 31;

/// Checks the games of `run` with the visited ruleset.
struct SameGames {
    run: BatchRun,
}

impl RulesetVisitor for SameGames {
    type Output = (u64, u64);

    fn visit<R: Registered>(self, rules: &R) -> (u64, u64) {
        assert_batch_plays_scalar_games(rules, &self.run, SEED)
    }
}

fn same_games(spec: &str, run: BatchRun) -> (u64, u64) {
    AnyRuleset::parse(spec).unwrap().visit(SameGames { run })
}

#[test]
fn every_configuration_plays_the_scalar_games() {
    for info in RULESETS {
        for spec in option_specs(info.id, info.options, Coverage::EachAlone) {
            let Ok(rules) = AnyRuleset::from_spec(&spec) else {
                continue;
            };
            for instructions in [Instructions::Detect, Instructions::Baseline] {
                let run = BatchRun::new(3..43).with_instructions(instructions);
                let (finished, _) = rules.visit(SameGames { run });
                assert!(finished > 0, "{spec}: no game finished");
            }
        }
    }
}

#[test]
fn games_stopped_by_the_turn_cap_match_too() {
    for info in RULESETS {
        // Caps small enough to stop some games in the throw and some in the move phase.
        for cap in [1, 2, 30] {
            let run = BatchRun::new(0..40).with_turn_cap(cap);
            let (_, capped) = same_games(info.id, run);
            assert!(capped > 0, "{}: the cap {cap} stopped nothing", info.id);
        }
    }
}

/// The configurations of the lock-step kernels for one value of each of three flags: every
/// option a kernel covers takes one of two values, chosen by `a`, `b` or `c`.
fn kernel_configurations_with(a: bool, b: bool, c: bool) -> Vec<String> {
    let pieces = if a { 5 } else { 7 };
    let safe = if a { "15_26_28_29" } else { "26_28_29_30" };
    let start = if b { "first_row" } else { "unmoved_pieces" };
    let priority = if c { "per_piece" } else { "per_player" };
    let marked = if a { "ludii" } else { "bell" };
    // forced_own_landing=false with own_landing_first=true is refused: three pairs remain.
    let (own, first) = (a | b, a & b);
    vec![
        format!(
            "regency(house_of_happiness={a},house_of_water={b},lost_throw_keeps_extra_throw={c})"
        ),
        format!("kendall(throw_timing=immediate,pieces={pieces},trap={b},home_row={c})"),
        format!("kendall(pieces={pieces},trap={c},home_row={b},starting_throw={a})"),
        format!("kendall(throw_timing=immediate,starting_throw=true,trap={a},home_row={c})"),
        format!("jequier(safe_squares={safe},start_rule={start},backward_priority={priority})"),
        format!("botermans(blockade_of_three={a},backward_attack={b},wait_on_30={c})"),
        format!("cemea(pieces={pieces},backward_attack={b},jump_optional={c})"),
        format!(
            "cemea(forced_own_landing={own},own_landing_first={first},\
             stranded_keeps_extra_throw={c})"
        ),
        format!("bell(marked_squares={marked},compulsory_capture={b})"),
        "piccione".to_string(),
    ]
}

/// Every combination of the options a lock-step kernel covers, written as specifications.
fn kernel_configurations() -> Vec<String> {
    let mut specs = Vec::new();
    for a in [false, true] {
        for b in [false, true] {
            for c in [false, true] {
                specs.extend(kernel_configurations_with(a, b, c));
            }
        }
    }
    // Bell's configurations and Kendall's immediate throws with starting_throw depend on two
    // flags only, and Piccione (no options) on none: each comes more than once.
    specs.sort();
    specs.dedup();
    specs
}

/// Each value of each option a lock-step kernel covers, at least once: all flags off, then
/// all on.
fn kernel_option_values() -> Vec<String> {
    let mut specs = kernel_configurations_with(false, false, false);
    specs.extend(kernel_configurations_with(true, true, true));
    specs
}

#[test]
fn every_kernel_configuration_matches() {
    for spec in kernel_configurations() {
        for instructions in [Instructions::Detect, Instructions::Baseline] {
            let run = BatchRun::new(100..400)
                .with_instructions(instructions)
                .with_turn_cap(turn_cap_for(&spec));
            same_games(&spec, run);
        }
    }
}

#[test]
fn small_and_empty_batches_report_every_game_once() {
    for games in [0..0, 5..6, 7..12, 0..17, 40..73] {
        for spec in [
            "regency",
            "kendall(throw_timing=immediate)",
            "kendall",
            "bell",
            "jequier",
            "botermans",
            "cemea",
            "piccione",
        ] {
            same_games(spec, BatchRun::new(games.clone()));
        }
    }
}

/// The turn cap of the comparisons of whole games: Jéquier's `per_piece` backward priority
/// makes games that mostly run to the default cap of 10,000 turns (88–98% of them), which would
/// make that configuration take most of a run; games stopped earlier are compared all the same.
fn turn_cap_for(spec: &str) -> u32 {
    if spec.contains("per_piece") {
        1_000
    } else {
        senet::DEFAULT_TURN_CAP
    }
}

#[test]
#[ignore = "100,000 games a configuration: run in release"]
fn a_hundred_thousand_games_of_each_ruleset_match() {
    let defaults = RULESETS.iter().map(|info| info.id.to_string());
    for spec in defaults.chain(kernel_option_values()) {
        let run = BatchRun::new(0..100_000).with_turn_cap(turn_cap_for(&spec));
        let (finished, capped) = same_games(&spec, run);
        assert_eq!(finished + capped, 100_000, "{spec}");
    }
}
