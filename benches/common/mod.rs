//! Corpora shared by the benches: fixed, seeded, and the same on every machine.

// Each bench binary includes this module and uses only part of it.
#![allow(dead_code)]

use rand_chacha::ChaCha8Rng;
use rand_core::SeedableRng;
use senet::registry::{AnyRuleset, RULESETS};
use senet::{AnyGame, DEFAULT_TURN_CAP, MoveList, Phase, Ruleset, random_playout};
use senet_testkit::conformance::{sample_states, with_each_throw};

/// The seed of every corpus.
pub(crate) const CORPUS_SEED: u64 = 20_261_130;

/// Configurations benched besides each registered ruleset's defaults: the endgame rules of
/// Kendall, which the players of `senet-ai` solve.
const EXTRA_CONFIGURATIONS: &[&str] = &["kendall(throw_timing=immediate)"];

/// A configuration a bench times: the bench's name and the ruleset.
pub(crate) struct Configuration {
    pub(crate) name: String,
    pub(crate) rules: AnyRuleset,
}

/// What the benches time: every registered ruleset with its default options, then the extra
/// configurations whose ruleset this build has.
pub(crate) fn configurations() -> Vec<Configuration> {
    RULESETS
        .iter()
        .map(|info| info.id)
        .chain(EXTRA_CONFIGURATIONS.iter().copied())
        .filter_map(|spec| {
            let rules = AnyRuleset::parse(spec).ok()?;
            Some(Configuration {
                name: spec.to_string(),
                rules,
            })
        })
        .collect()
}

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

/// The ChaCha8 generator of game `index`: stream `index` of `CORPUS_SEED`.
fn game_rng(index: u64) -> ChaCha8Rng {
    let mut rng = ChaCha8Rng::seed_from_u64(CORPUS_SEED);
    rng.set_stream(index);
    rng
}

/// Plays `games` random games, game i on ChaCha8 stream i of `CORPUS_SEED`; returns the total
/// number of decisions.
pub(crate) fn play_games<R: Ruleset>(rules: &R, games: u64, scratch: &mut MoveList) -> u64 {
    let mut decisions = 0;
    for i in 0..games {
        let mut rng = game_rng(i);
        let mut state = rules.initial_state();
        let playout = random_playout(rules, &mut state, &mut rng, scratch, DEFAULT_TURN_CAP);
        decisions += u64::from(playout.decisions);
    }
    decisions
}

/// The decisions of the same games as [`play_games`], played through the checked, recorded
/// path of [`AnyGame::play_random`]: the count a playout bench asserts its timed loop makes.
pub(crate) fn decisions_of_recorded_games(rules: &AnyRuleset, games: u64) -> u64 {
    (0..games)
        .map(|i| {
            let mut game = AnyGame::new(rules.clone());
            game.play_random(&mut game_rng(i), DEFAULT_TURN_CAP);
            u64::from(game.decisions())
        })
        .sum()
}
