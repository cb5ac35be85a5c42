//! Helpers shared by the reliability tests (fuzzing, golden playthroughs, determinism,
//! termination, exhaustive legality): which configurations of which rulesets to cover, and
//! how many cases to run.
//!
//! Everything here reads `senet::registry::RULESETS`, so a newly registered ruleset and each
//! of its option values are covered without touching the tests.

// Each test file uses a different part of this module.
#![allow(dead_code)]

use senet::registry::{AnyRuleset, RULESETS};
use senet::{Coverage, option_specs};

/// The configurations every reliability test covers: each registered ruleset with its
/// defaults, then with each non-default value of each option on its own (in the order of
/// `RulesetInfo::options`).
pub(crate) fn configurations() -> Vec<AnyRuleset> {
    let mut out = Vec::new();
    for info in RULESETS {
        for spec in option_specs(info.id, info.options, Coverage::EachAlone) {
            let rules = AnyRuleset::from_spec(&spec)
                .unwrap_or_else(|e| panic!("{spec}: a single option value must configure: {e}"));
            out.push(rules);
        }
    }
    out
}

/// Configurations whose random games rarely end: with `backward_priority=per_piece` a
/// Jéquier piece that cannot advance may walk back even when another could advance, and
/// random play does so for tens of thousands of turns (see docs/rules/jequier.md). Their
/// games are still checked, but stopping at the turn cap is expected, not a failure.
pub(crate) const RANDOM_GAMES_MAY_NOT_END: &[&str] = &["jequier(backward_priority=per_piece)"];

/// Whether random games of `rules` are expected to end well within the turn cap.
pub(crate) fn random_games_end(rules: &AnyRuleset) -> bool {
    !RANDOM_GAMES_MAY_NOT_END.contains(&rules.to_string().as_str())
}

/// The number of cases of a property test: `PROPTEST_CASES` when it is set (the standard
/// proptest variable), else `default`.
pub(crate) fn cases(default: u32) -> u32 {
    std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.trim().parse().ok())
        .unwrap_or(default)
}

/// A proptest configuration with `cases` cases that writes no regression files (failures are
/// reported with their minimal input and turned into explicit regression tests).
pub(crate) fn proptest_config(cases: u32) -> proptest::test_runner::Config {
    proptest::test_runner::Config {
        cases,
        failure_persistence: None,
        // Many inputs are rejected on purpose (e.g. mutations that happen to stay valid are
        // still tested, so this only matters for filters); keep the default otherwise.
        ..proptest::test_runner::Config::default()
    }
}

/// Runs `test` on `cases` inputs drawn from `strategy`, panicking with the minimal failing
/// input (after shrinking) and `what` when a case fails.
pub(crate) fn run_property<S: proptest::strategy::Strategy>(
    what: &str,
    cases: u32,
    strategy: S,
    test: impl Fn(S::Value) -> Result<(), proptest::test_runner::TestCaseError>,
) where
    S::Value: std::fmt::Debug,
{
    let mut runner = proptest::test_runner::TestRunner::new(proptest_config(cases));
    match runner.run(&strategy, test) {
        Ok(()) => {}
        Err(proptest::test_runner::TestError::Fail(reason, input)) => {
            panic!("{what}: {reason}\nminimal failing input: {input:#?}")
        }
        Err(error) => panic!("{what}: {error}"),
    }
}
