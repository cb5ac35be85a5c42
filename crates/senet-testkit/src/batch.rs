//! The check that a batch plays the scalar engine's games: every game of a [`BatchRun`] is
//! reported once, and each ends exactly as [`random_playout`] on the same ChaCha8 stream does.

use std::collections::BTreeMap;

use rand_chacha::ChaCha8Rng;
use rand_core::SeedableRng;
use senet_core::batch::{BatchRules, BatchRun, Instructions};
use senet_core::{DEFAULT_TURN_CAP, MoveList, random_playout};

/// The generator of game `index` of a run seeded with `seed`: ChaCha8 stream `index`.
pub fn stream(seed: u64, index: u64) -> ChaCha8Rng {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    rng.set_stream(index);
    rng
}

/// Plays `run` with `rules` in a batch, game `i` on stream `i` of `seed`, and checks every
/// game against [`random_playout`] on the same stream. Returns how many games finished and
/// how many the turn cap stopped.
pub fn assert_batch_plays_scalar_games<R: BatchRules>(
    rules: &R,
    run: &BatchRun,
    seed: u64,
) -> (u64, u64) {
    let mut batch = BTreeMap::new();
    rules.play_random_batch(
        run,
        |index| stream(seed, index),
        |index, playout| {
            let again = batch.insert(index, playout);
            assert!(
                again.is_none(),
                "{}: game {index} reported twice",
                rules.spec()
            );
        },
    );
    assert_eq!(
        batch.len() as u64,
        run.games.end - run.games.start,
        "{}",
        rules.spec()
    );
    let mut moves = MoveList::new();
    let mut ends = (0, 0);
    for (index, playout) in batch {
        let mut state = rules.initial_state();
        let mut rng = stream(seed, index);
        let scalar = random_playout(rules, &mut state, &mut rng, &mut moves, run.turn_cap);
        assert_eq!(playout, scalar, "{} game {index}", rules.spec());
        if playout.outcome().is_some() {
            ends.0 += 1;
        } else {
            ends.1 += 1;
        }
    }
    ends
}

/// Checks a configuration with a lock-step kernel on both instruction paths: 300 whole
/// games, or under Miri (which runs only the baseline path, about a million times slower)
/// three games stopped after 30 turns.
pub fn assert_kernel_plays_scalar_games<R: BatchRules>(rules: &R) {
    let (games, turn_cap) = if cfg!(miri) {
        (3, 30)
    } else {
        (300, DEFAULT_TURN_CAP)
    };
    for instructions in [Instructions::Baseline, Instructions::Detect] {
        let run = BatchRun::new(0..games)
            .with_turn_cap(turn_cap)
            .with_instructions(instructions);
        let (finished, capped) = assert_batch_plays_scalar_games(rules, &run, 5);
        assert_eq!(finished + capped, games);
    }
}
