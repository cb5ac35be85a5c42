//! Many random games at once: a batch engine that keeps a fixed number of games (lanes) in
//! flight, advances each by one decision per step, and starts the next game in a lane as soon
//! as its game ends, so that the lanes stay full.
//!
//! Game `i` of a run draws every throw and every choice from the generator `streams(i)` that
//! the caller supplies, in the same order as [`random_playout`], so a batch plays exactly the
//! games the scalar engine plays, move for move, whatever the number of lanes, the
//! instructions used or the order in which games finish. Results arrive in the order the
//! games end, each with its index.
//!
//! [`BatchRules::play_random_batch`] is the entry point, and [`BatchRules::play_seeded_batch`]
//! the faster one when every game is a stream of one ChaCha8 seed: it plays the same games,
//! and a lock-step kernel then computes the ChaCha8 words of all its lanes together
//! ([`ChaCha8Lanes`]) rather than calling a generator per lane. A ruleset with a lock-step
//! kernel keeps its lanes structure-of-arrays and advances them together with vector
//! instructions: one throw then one decision a step ([`LaneRules`], run by
//! [`play_lock_step`]), or, where turns do not go that way, the throws of the lanes that
//! throw and then one decision in every lane ([`LaneActions`], run by
//! [`play_action_lock_step`], each lane reading its words at its own position). Every other
//! configuration
//! plays its games one by one ([`play_one_by_one`]), so that every ruleset runs through the
//! same call.
//!
//! ```
//! use rand_chacha::ChaCha8Rng;
//! use rand_core::SeedableRng;
//! use senet_core::batch::{BatchRules, BatchRun};
//! # fn demo<R: BatchRules>(rules: R) {
//! let stream = |i: u64| {
//!     let mut rng = ChaCha8Rng::seed_from_u64(7);
//!     rng.set_stream(i);
//!     rng
//! };
//! let mut decisions = 0u64;
//! rules.play_random_batch(&BatchRun::new(0..1000), stream, |_index, playout| {
//!     decisions += u64::from(playout.decisions)
//! });
//! # }
//! ```

mod chacha;
mod lanes;
mod ring;
mod simd;

use core::ops::Range;

use rand_core::Rng;

use crate::moves::MoveList;
use crate::playout::{DEFAULT_TURN_CAP, Playout, random_playout};
use crate::ruleset::Ruleset;

pub use chacha::{BLOCK_WORDS, ChaCha8Lanes, ChaCha8Stream, chacha8_blocks};
pub use lanes::{
    LaneActions, LaneRules, SideLanes, hand_over, pick_square, play_action_lock_step,
    play_action_lock_step_seeded, play_lock_step, play_lock_step_seeded, sticks, unpaired,
};
pub use ring::WordsAhead;
pub use simd::{Instructions, LaneKernel, run_kernel};

/// Which games a batch plays and how.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct BatchRun {
    /// The indices of the games: game `i` draws from `streams(i)`.
    pub games: Range<u64>,
    /// A game still going when a side would start turn `turn_cap + 1` is stopped, as in
    /// [`random_playout`].
    pub turn_cap: u32,
    /// The instructions a lock-step kernel may use (they never change a game).
    pub instructions: Instructions,
}

impl BatchRun {
    /// The games `games` with the default turn cap and the best instructions the CPU has.
    pub fn new(games: Range<u64>) -> BatchRun {
        BatchRun {
            games,
            turn_cap: DEFAULT_TURN_CAP,
            instructions: Instructions::Detect,
        }
    }

    /// The same run with another turn cap.
    #[must_use]
    pub fn with_turn_cap(self, turn_cap: u32) -> BatchRun {
        BatchRun { turn_cap, ..self }
    }

    /// The same run restricted to `instructions`.
    #[must_use]
    pub fn with_instructions(self, instructions: Instructions) -> BatchRun {
        BatchRun {
            instructions,
            ..self
        }
    }
}

/// The batch engine of a ruleset: how it plays many random games at once. Every ruleset
/// implements it; the provided method plays the games one by one with the ruleset's move
/// generator ([`play_one_by_one`]), and a ruleset with a lock-step kernel for some of its
/// configurations overrides it ([`play_lock_step`]) and falls back to that for the rest.
///
/// A trait of its own, apart from [`Ruleset`], so that the turn machine does not depend on
/// the engine that drives it.
pub trait BatchRules: Ruleset {
    /// Plays the random games of `run`: game `i` draws from `streams(i)` exactly as
    /// [`random_playout`] does, and `report(i, playout)` gets its result when it ends (in the
    /// order games end).
    fn play_random_batch<G, F, S>(&self, run: &BatchRun, streams: F, report: S)
    where
        G: Rng,
        F: FnMut(u64) -> G,
        S: FnMut(u64, Playout),
    {
        play_one_by_one(self, run, streams, report);
    }

    /// Plays the random games of `run` on ChaCha8 seeded with the 32 bytes `seed`: game `i` is
    /// played exactly as [`random_playout`] on `ChaCha8Rng::from_seed(seed)` after
    /// `set_stream(i)` (of `rand_chacha` 0.10) plays it, and `report(i, playout)` gets its
    /// result when it ends (in the order games end). The 32 bytes of a `u64` seed are those
    /// of `ChaCha8Rng::seed_from_u64(seed).get_seed()` (or [`ChaCha8Stream::seed_from_u64`]).
    ///
    /// The same games as [`play_random_batch`](Self::play_random_batch) with those streams,
    /// but a lock-step kernel computes the ChaCha8 words of its lanes together, in vector
    /// instructions ([`ChaCha8Lanes`]). The provided method plays the games one by one on
    /// [`ChaCha8Stream`]s.
    ///
    /// [`ChaCha8Stream::seed_from_u64`]: rand_core::SeedableRng::seed_from_u64
    fn play_seeded_batch<S>(&self, run: &BatchRun, seed: [u8; 32], report: S)
    where
        S: FnMut(u64, Playout),
    {
        play_one_by_one(self, run, |i| ChaCha8Stream::new(&seed, i), report);
    }
}

/// Implements [`BatchRules`] for a ruleset with a lock-step kernel: `$lanes(&rules)` gives
/// the kernel's rules half for the configurations it covers and `None` for the rest, and
/// [`play_lock_step`] and [`play_lock_step_seeded`] play the games with it or one by one. Doc
/// comments before the type go on both methods.
///
/// A ruleset with a second kernel, whose lanes throw apart ([`LaneActions`]), names it after
/// `actions`: `Ruleset => paired::covering, actions single::covering`. The first kernel that
/// covers the configuration plays it.
#[macro_export]
macro_rules! lock_step_batch_rules {
    ($(#[$doc:meta])* $rules:ty => $lanes:path, actions $actions:path) => {
        impl $crate::batch::BatchRules for $rules {
            $(#[$doc])*
            fn play_random_batch<G, F, S>(
                &self,
                run: &$crate::batch::BatchRun,
                streams: F,
                report: S,
            ) where
                G: $crate::rand_core::Rng,
                F: FnMut(u64) -> G,
                S: FnMut(u64, $crate::Playout),
            {
                match $lanes(self) {
                    Some(lanes) => {
                        $crate::batch::play_lock_step(self, Some(lanes), run, streams, report);
                    }
                    None => $crate::batch::play_action_lock_step(
                        self,
                        $actions(self),
                        run,
                        streams,
                        report,
                    ),
                }
            }

            $(#[$doc])*
            fn play_seeded_batch<S>(
                &self,
                run: &$crate::batch::BatchRun,
                seed: [u8; 32],
                report: S,
            ) where
                S: FnMut(u64, $crate::Playout),
            {
                match $lanes(self) {
                    Some(lanes) => {
                        $crate::batch::play_lock_step_seeded(self, Some(lanes), run, seed, report);
                    }
                    None => $crate::batch::play_action_lock_step_seeded(
                        self,
                        $actions(self),
                        run,
                        seed,
                        report,
                    ),
                }
            }
        }
    };
    ($(#[$doc:meta])* $rules:ty => $lanes:path) => {
        impl $crate::batch::BatchRules for $rules {
            $(#[$doc])*
            fn play_random_batch<G, F, S>(
                &self,
                run: &$crate::batch::BatchRun,
                streams: F,
                report: S,
            ) where
                G: $crate::rand_core::Rng,
                F: FnMut(u64) -> G,
                S: FnMut(u64, $crate::Playout),
            {
                $crate::batch::play_lock_step(self, $lanes(self), run, streams, report);
            }

            $(#[$doc])*
            fn play_seeded_batch<S>(
                &self,
                run: &$crate::batch::BatchRun,
                seed: [u8; 32],
                report: S,
            ) where
                S: FnMut(u64, $crate::Playout),
            {
                $crate::batch::play_lock_step_seeded(self, $lanes(self), run, seed, report);
            }
        }
    };
}

/// Plays the games of `run` one after the other with [`random_playout`]
/// and `rules`' own move generator: game `i` draws from `streams(i)` and is reported to
/// `report(i, playout)`. This is the batch path of every ruleset without a lock-step kernel.
/// Nothing is allocated.
///
/// It does not interleave games: stepping eight games in turn, one decision each, was
/// measured 10–25% slower than whole games one by one on every ruleset (the branch history
/// of one game no longer predicts the next step), and so was stepping one or two.
pub fn play_one_by_one<R, G, F, S>(rules: &R, run: &BatchRun, mut streams: F, mut report: S)
where
    R: Ruleset,
    G: Rng,
    F: FnMut(u64) -> G,
    S: FnMut(u64, Playout),
{
    let mut moves = MoveList::new();
    for index in run.games.clone() {
        let mut state = rules.initial_state();
        let mut rng = streams(index);
        report(
            index,
            random_playout(rules, &mut state, &mut rng, &mut moves, run.turn_cap),
        );
    }
}
