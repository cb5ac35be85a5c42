//! The random number generator the project is built around: ChaCha8, seeded and split into
//! streams.
//!
//! Every seeded figure in this workspace (simulations, comparisons, the golden games) comes
//! from [`ChaCha8Rng`], with game *i* of a run on stream *i* of the run's seed. Taking the
//! generator from here rather than from a `rand_chacha` dependency of your own keeps it the
//! very version the crates are built with (another version brings a second `rand_core`, whose
//! traits the rulesets do not accept), and [`seeded`] picks a game's stream the way `senet simulate` and the examples do.
//!
//! ```
//! use senet::rng::{self, SeedableRng};
//! use senet::{Game, Regency};
//!
//! // Game 5 of a run seeded with 1: its throws and random choices.
//! let mut game = Game::new(Regency::default());
//! game.play_random(&mut rng::seeded(1, 5), senet::DEFAULT_TURN_CAP);
//! assert!(game.outcome().is_some());
//!
//! // The same seed and stream replay the same game.
//! let mut again = Game::new(Regency::default());
//! again.play_random(&mut rng::seeded(1, 5), senet::DEFAULT_TURN_CAP);
//! assert_eq!(again, game);
//!
//! // A plain seeded generator is stream 0.
//! assert_eq!(rng::ChaCha8Rng::seed_from_u64(1), rng::seeded(1, 0));
//! ```

pub use rand_chacha::ChaCha8Rng;
pub use rand_core::{Rng, SeedableRng};

/// The generator of game `stream` in a run seeded with `seed`: ChaCha8 seeded from the `u64`,
/// on stream `stream`. Streams do not overlap, so games drawn from different streams are
/// independent and a run gives the same games whatever the number of threads.
pub fn seeded(seed: u64, stream: u64) -> ChaCha8Rng {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    rng.set_stream(stream);
    rng
}

/// The 32 bytes ChaCha8 is seeded with for the `u64` `seed`: `seeded(seed, i)` is
/// `ChaCha8Rng::from_seed` of them on stream `i`, and the batch engine takes them to play
/// game `i` on stream `i` ([`BatchRules::play_seeded_batch`](crate::batch::BatchRules::play_seeded_batch)).
///
/// ```
/// use senet::rng::{self, SeedableRng};
/// let mut rng = rng::ChaCha8Rng::from_seed(rng::seed_bytes(1));
/// rng.set_stream(5);
/// assert_eq!(rng, rng::seeded(1, 5));
/// ```
pub fn seed_bytes(seed: u64) -> [u8; 32] {
    ChaCha8Rng::seed_from_u64(seed).get_seed()
}
