//! The check that a batch plays the scalar engine's games: every game of a [`BatchRun`] is
//! reported once, and each ends exactly as [`random_playout`] on the same ChaCha8 stream does,
//! whether the batch gets the streams ([`BatchRules::play_random_batch`]) or the seed
//! ([`BatchRules::play_seeded_batch`]).

use std::collections::BTreeMap;

use rand_chacha::ChaCha8Rng;
use rand_core::SeedableRng;
use senet_core::batch::{BatchRules, BatchRun, Instructions};
use senet_core::{DEFAULT_TURN_CAP, MoveList, Playout, random_playout};

/// The generator of game `index` of a run seeded with `seed`: ChaCha8 stream `index`.
pub fn stream(seed: u64, index: u64) -> ChaCha8Rng {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    rng.set_stream(index);
    rng
}

/// The 32 seed bytes of ChaCha8 seeded from the `u64` `seed`, for
/// [`BatchRules::play_seeded_batch`]: [`stream`]`(seed, i)` is `from_seed` of them on stream
/// `i`.
pub fn seed_bytes(seed: u64) -> [u8; 32] {
    ChaCha8Rng::seed_from_u64(seed).get_seed()
}

/// Plays `run` with `rules` in a batch twice, game `i` on stream `i` of `seed`: with the
/// caller's streams ([`BatchRules::play_random_batch`]) and with the 32 seed bytes
/// ([`BatchRules::play_seeded_batch`]), and checks every game of both against
/// [`random_playout`] on `ChaCha8Rng::from_seed(seed_bytes(seed))` after `set_stream(i)`.
/// Returns how many games finished and how many the turn cap stopped.
pub fn assert_batch_plays_scalar_games<R: BatchRules>(
    rules: &R,
    run: &BatchRun,
    seed: u64,
) -> (u64, u64) {
    let streams = collect(rules, run, "play_random_batch", |report| {
        rules.play_random_batch(run, |index| stream(seed, index), report);
    });
    let bytes = seed_bytes(seed);
    let seeded = collect(rules, run, "play_seeded_batch", |report| {
        rules.play_seeded_batch(run, bytes, report);
    });
    let mut moves = MoveList::new();
    let mut ends = (0, 0);
    for ((index, playout), (_, from_seed)) in streams.into_iter().zip(seeded) {
        let mut state = rules.initial_state();
        let mut rng = ChaCha8Rng::from_seed(bytes);
        rng.set_stream(index);
        let scalar = random_playout(rules, &mut state, &mut rng, &mut moves, run.turn_cap);
        assert_eq!(playout, scalar, "{} game {index}", rules.spec());
        assert_eq!(
            from_seed,
            scalar,
            "{} game {index} (play_seeded_batch)",
            rules.spec()
        );
        if playout.outcome().is_some() {
            ends.0 += 1;
        } else {
            ends.1 += 1;
        }
    }
    ends
}

/// The games `play` reports, by index, checking that it reports each game of `run` once.
fn collect<R: BatchRules>(
    rules: &R,
    run: &BatchRun,
    method: &str,
    play: impl FnOnce(&mut dyn FnMut(u64, Playout)),
) -> BTreeMap<u64, Playout> {
    let mut batch = BTreeMap::new();
    play(&mut |index, playout| {
        let again = batch.insert(index, playout);
        assert!(
            again.is_none(),
            "{}: {method} reported game {index} twice",
            rules.spec()
        );
    });
    let games: Vec<u64> = batch.keys().copied().collect();
    assert_eq!(
        games,
        run.games.clone().collect::<Vec<_>>(),
        "{}: the games {method} reported",
        rules.spec()
    );
    batch
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
