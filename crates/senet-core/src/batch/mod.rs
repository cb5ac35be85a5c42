//! Many random games at once: a batch engine that keeps a fixed number of games (lanes) in
//! flight, advances each by one decision per step, and starts the next game in a lane as soon
//! as its game ends, so that the lanes stay full.
//!
//! Game `i` of a run draws every throw and every choice from the generator `streams(i)` that
//! the caller supplies, in the same order as [`random_playout`](crate::random_playout), so a
//! batch plays exactly the games the scalar engine plays, move for move, whatever the number
//! of lanes, the instructions used or the order in which games finish. Results arrive in the
//! order the games end, each with its index.
//!
//! [`Ruleset::play_random_batch`](crate::Ruleset::play_random_batch) is the entry point. Every
//! ruleset runs through [`play_interleaved`], which steps the lanes one after the other with
//! the ruleset's own move generator; a ruleset may instead supply a lock-step kernel that keeps
//! its lanes structure-of-arrays and advances them together with vector instructions
//! ([`LaneKernel`], run by [`run_kernel`]).
//!
//! ```
//! use core::ops::Range;
//! use rand_chacha::ChaCha8Rng;
//! use rand_core::SeedableRng;
//! use senet_core::batch::BatchRun;
//! # use senet_core::{Ruleset, random_playout, MoveList};
//! # fn demo<R: Ruleset>(rules: R) {
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

mod simd;

use core::ops::Range;

use rand_core::Rng;

use crate::moves::MoveList;
use crate::playout::{DEFAULT_TURN_CAP, Playout, PlayoutProgress, PlayoutStep};
use crate::ruleset::Ruleset;

pub use simd::{Instructions, LaneKernel, run_kernel};

/// Which games a batch plays and how.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct BatchRun {
    /// The indices of the games: game `i` draws from `streams(i)`.
    pub games: Range<u64>,
    /// A game still going when a side would start turn `turn_cap + 1` is stopped, as in
    /// [`random_playout`](crate::random_playout).
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

/// Games in flight at once on the interleaved path: enough that a lane's state is out of the
/// way of the next lane's work, few enough that all of them stay in the first-level cache.
pub const INTERLEAVED_LANES: usize = 8;

/// One game of the interleaved path.
struct Lane<S, G> {
    index: u64,
    state: S,
    rng: G,
    progress: PlayoutProgress,
}

/// Plays the games of `run` with `rules`' own move generator, [`INTERLEAVED_LANES`] at a time,
/// each lane making one decision per step; game `i` draws from `streams(i)` and is reported
/// to `report(i, playout)` when it ends. This is the batch path of every ruleset, and gives
/// the very games of [`random_playout`](crate::random_playout). Nothing is allocated.
pub fn play_interleaved<R, G, F, S>(rules: &R, run: &BatchRun, mut streams: F, mut report: S)
where
    R: Ruleset,
    G: Rng,
    F: FnMut(u64) -> G,
    S: FnMut(u64, Playout),
{
    let mut next = run.games.start;
    let mut start = |index: u64| Lane {
        index,
        state: rules.initial_state(),
        rng: streams(index),
        progress: PlayoutProgress::default(),
    };
    let mut lanes: [Option<Lane<R::State, G>>; INTERLEAVED_LANES] = core::array::from_fn(|_| {
        let lane = (next < run.games.end).then(|| start(next));
        next += u64::from(lane.is_some());
        lane
    });
    let mut moves = MoveList::new();
    while lanes.iter().any(Option::is_some) {
        for slot in &mut lanes {
            let Some(lane) = slot else { continue };
            loop {
                let step = lane.progress.act(
                    rules,
                    &mut lane.state,
                    &mut lane.rng,
                    &mut moves,
                    run.turn_cap,
                );
                match step {
                    PlayoutStep::Threw => continue,
                    PlayoutStep::Decided => break,
                    PlayoutStep::Ended(playout) => {
                        report(lane.index, playout);
                        *slot = (next < run.games.end).then(|| start(next));
                        next += u64::from(slot.is_some());
                        break;
                    }
                }
            }
        }
    }
}
