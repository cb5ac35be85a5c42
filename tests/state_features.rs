//! What every ruleset reports beyond its board for learned evaluators
//! (`Ruleset::STATE_FEATURES`): named once each, within the encoding's room, each a number
//! in [0, 1], and telling apart states that share a board but not their memory.

use std::collections::HashSet;

use rand_chacha::ChaCha8Rng;
use rand_core::SeedableRng;
use senet::ai::learned::{BASE_INPUTS, MAX_INPUTS};
use senet::registry::{AnyRuleset, RULESETS, Registered, RulesetVisitor};
use senet::{Coverage, DEFAULT_TURN_CAP, Ruleset, Side, option_specs};
use senet_testkit::conformance::sample_states;

/// Checks the features of sampled states; returns how many distinct feature vectors were
/// seen among states with the same board.
struct CheckFeatures;

impl RulesetVisitor for CheckFeatures {
    type Output = Result<usize, String>;

    fn visit<R: Registered>(self, rules: &R) -> Result<usize, String> {
        let names: HashSet<&str> = R::STATE_FEATURES.iter().copied().collect();
        if names.len() != R::STATE_FEATURES.len() {
            return Err("a feature is named twice".into());
        }
        if BASE_INPUTS + R::STATE_FEATURES.len() > MAX_INPUTS {
            return Err("more features than the encoding has room for".into());
        }
        let mut rng = ChaCha8Rng::seed_from_u64(11);
        let states = sample_states(rules, &mut rng, 3000, DEFAULT_TURN_CAP, |_| true);
        let mut distinct = HashSet::new();
        for state in &states {
            for side in [Side::Black, Side::White] {
                // Slots past the features must stay as they were.
                let mut out = vec![7.0f32; R::STATE_FEATURES.len() + 1];
                rules.state_features(state, side, &mut out[..R::STATE_FEATURES.len()]);
                if let Some(bad) = out[..R::STATE_FEATURES.len()]
                    .iter()
                    .position(|v| !(0.0..=1.0).contains(v))
                {
                    return Err(format!(
                        "{} = {} in {}",
                        R::STATE_FEATURES[bad],
                        out[bad],
                        rules.position_string(state)
                    ));
                }
                if out[R::STATE_FEATURES.len()] != 7.0 {
                    return Err("wrote past its features".into());
                }
                let bits: Vec<u32> = out.iter().map(|v| v.to_bits()).collect();
                distinct.insert(bits);
            }
        }
        Ok(distinct.len())
    }
}

#[test]
fn state_features_are_named_once_and_lie_in_the_unit_interval() {
    for info in RULESETS {
        for spec in option_specs(info.id, info.options, Coverage::EachAlone) {
            let rules = AnyRuleset::from_spec(&spec).unwrap();
            let distinct = rules
                .visit(CheckFeatures)
                .unwrap_or_else(|e| panic!("{spec}: {e}"));
            // Every built-in ruleset reports at least its pending throw, which varies.
            assert!(distinct > 1, "{spec}: the features never change");
        }
    }
}

#[test]
fn the_memory_the_board_does_not_show_reaches_the_features() {
    // Regency: White's opening restriction is lifted once White has moved.
    let rules = senet::Regency::default();
    let index = senet::Regency::STATE_FEATURES
        .iter()
        .position(|n| *n == "white_opened")
        .unwrap();
    let mut out = [0.0; 16];
    let mut state = rules.initial_state();
    rules.state_features(&state, Side::Black, &mut out);
    assert_eq!(out[index], 0.0);
    let mut rng = ChaCha8Rng::seed_from_u64(2);
    while !state.white_opened() {
        match rules.phase(&state) {
            senet::Phase::Throw(_) => {
                let throw = senet::ThrowingDevice::sample(&rules.device(), &mut rng);
                rules.throw_unchecked(&mut state, throw);
            }
            senet::Phase::Move(_) => {
                let first = rules.legal_moves(&state)[0];
                rules.play_unchecked(&mut state, first);
            }
            senet::Phase::Over(_) => unreachable!("White moves before the game ends"),
        }
    }
    rules.state_features(&state, Side::Black, &mut out);
    assert_eq!(out[index], 1.0);
    // Kendall: the stored throws (K-4).
    let kendall = senet::Kendall::default();
    let names = senet::Kendall::STATE_FEATURES;
    let mut state = kendall.initial_state();
    kendall.throw_unchecked(&mut state, senet::Throw::at(4));
    kendall.state_features(&state, Side::Black, &mut out);
    let stored_4 = names.iter().position(|n| *n == "stored_4").unwrap();
    let throwing = names.iter().position(|n| *n == "throwing").unwrap();
    assert_eq!(out[stored_4], 0.25, "{}", kendall.position_string(&state));
    assert_eq!(out[throwing], 1.0, "a 4 throws again");
}
