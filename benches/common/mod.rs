//! Corpora shared by the benches: fixed, seeded, and the same on every machine.

// Each bench binary includes this module and uses only part of it.
#![allow(dead_code)]

use rand_chacha::ChaCha8Rng;
use rand_core::SeedableRng;
use senet::{DEFAULT_TURN_CAP, MoveList, Phase, Ruleset, random_playout};
use senet_testkit::conformance::{sample_states, with_each_throw};

/// The seed of every corpus.
pub(crate) const CORPUS_SEED: u64 = 20_261_130;

/// Positions waiting for a throw, taken from seeded random games, each combined with every
/// value of the ruleset's device: the (position, throw) pairs move generation is timed on.
/// Pairs that do not lead to a decision (a throw that is stored, say) are left out.
pub(crate) fn position_throw_corpus<R: Ruleset>(rules: &R, positions: usize) -> Vec<R::State> {
    let mut rng = ChaCha8Rng::seed_from_u64(CORPUS_SEED);
    let before_throws = sample_states(rules, &mut rng, positions, DEFAULT_TURN_CAP, |p| {
        matches!(p, Phase::Throw(_))
    });
    before_throws
        .iter()
        .flat_map(|state| with_each_throw(rules, state))
        .map(|(_, state)| state)
        .filter(|state| matches!(rules.phase(state), Phase::Move(_)))
        .collect()
}

/// Decision points exactly as random games meet them.
pub(crate) fn decision_corpus<R: Ruleset>(rules: &R, count: usize) -> Vec<R::State> {
    let mut rng = ChaCha8Rng::seed_from_u64(CORPUS_SEED);
    sample_states(rules, &mut rng, count, DEFAULT_TURN_CAP, |p| {
        matches!(p, Phase::Move(_))
    })
}

/// Total number of moves generated over a corpus (the work a bench asserts before timing).
pub(crate) fn count_moves<R: Ruleset>(rules: &R, corpus: &[R::State]) -> usize {
    let mut list = MoveList::new();
    corpus
        .iter()
        .map(|state| {
            rules.generate_moves(state, &mut list);
            list.len()
        })
        .sum()
}

/// Plays `games` random games, game i on ChaCha8 stream i of `CORPUS_SEED`; returns the total
/// number of decisions.
pub(crate) fn play_games<R: Ruleset>(rules: &R, games: u64, scratch: &mut MoveList) -> u64 {
    let mut decisions = 0;
    for i in 0..games {
        let mut rng = ChaCha8Rng::seed_from_u64(CORPUS_SEED);
        rng.set_stream(i);
        let mut state = rules.initial_state();
        let playout = random_playout(rules, &mut state, &mut rng, scratch, DEFAULT_TURN_CAP);
        decisions += u64::from(playout.decisions);
    }
    decisions
}
