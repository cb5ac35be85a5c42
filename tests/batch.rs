//! The batch engine (`senet::batch`) plays the very games of the scalar engine: game `i` of a
//! batch, on ChaCha8 stream `i`, ends exactly as `random_playout` on that stream does (same
//! end, outcome, turns and decisions), for every registered ruleset and option value, with the
//! vector instructions the CPU has and with the baseline ones, and whatever the turn cap.
//!
//! The long comparison (100,000 games of each default configuration and of Kendall with
//! immediate throws) is ignored in debug builds; CI runs it in release:
//! `cargo test --release --test batch -- --ignored`.

use std::collections::BTreeMap;

use senet::batch::{BatchRun, Instructions};
use senet::registry::{AnyRuleset, RULESETS, RulesetVisitor};
use senet::rng::{self, ChaCha8Rng};
use senet::{Coverage, MoveList, Playout, Ruleset, option_specs, random_playout};

const SEED: u64 = 31;

fn stream(index: u64) -> ChaCha8Rng {
    rng::seeded(SEED, index)
}

/// Plays `run` in a batch and on the scalar path, and checks every game; returns how many
/// games finished and how many the cap stopped.
struct SameGames {
    run: BatchRun,
}

impl RulesetVisitor for SameGames {
    type Output = (u64, u64);

    fn visit<R: Ruleset>(self, rules: &R) -> (u64, u64) {
        let mut batch = BTreeMap::new();
        rules.play_random_batch(&self.run, stream, |index, playout| {
            assert!(
                batch.insert(index, playout).is_none(),
                "{}: game {index} reported twice",
                rules.spec()
            );
        });
        assert_eq!(
            batch.len() as u64,
            self.run.games.end - self.run.games.start
        );
        let mut moves = MoveList::new();
        let mut ends = (0, 0);
        for (index, playout) in batch {
            let scalar: Playout = random_playout(
                rules,
                &mut rules.initial_state(),
                &mut stream(index),
                &mut moves,
                self.run.turn_cap,
            );
            assert_eq!(playout, scalar, "{} game {index}", rules.spec());
            if playout.outcome().is_some() {
                ends.0 += 1;
            } else {
                ends.1 += 1;
            }
        }
        ends
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

#[test]
fn every_regency_kernel_configuration_matches() {
    // The options the lock-step kernel covers, in every combination.
    for happiness in [false, true] {
        for water in [false, true] {
            for keep in [false, true] {
                let spec = format!(
                    "regency(house_of_happiness={happiness},house_of_water={water},\
                     lost_throw_keeps_extra_throw={keep})"
                );
                for instructions in [Instructions::Detect, Instructions::Baseline] {
                    let run = BatchRun::new(100..400).with_instructions(instructions);
                    same_games(&spec, run);
                }
            }
        }
    }
}

#[test]
fn small_and_empty_batches_report_every_game_once() {
    for games in [0..0, 5..6, 7..12, 0..17, 40..73] {
        for spec in ["regency", "kendall(throw_timing=immediate)", "bell"] {
            same_games(spec, BatchRun::new(games.clone()));
        }
    }
}

#[test]
#[ignore = "100,000 games a configuration: run in release"]
fn a_hundred_thousand_games_of_each_ruleset_match() {
    let mut specs: Vec<String> = RULESETS.iter().map(|info| info.id.to_string()).collect();
    specs.push("kendall(throw_timing=immediate)".to_string());
    for spec in specs {
        let (finished, capped) = same_games(&spec, BatchRun::new(0..100_000));
        assert_eq!(finished + capped, 100_000, "{spec}");
    }
}
