//! Perft with chance as an actor: how many sequences of actions lead from a position to each
//! depth, the regression oracle of a move generator.
//!
//! A sequence is a run of actions as the turn machine asks for them. At a
//! [`Phase::Throw`] every distinct value of the device's outcome table
//! ([`ThrowingDevice::outcomes`]) is one branch, whatever its weight; at a [`Phase::Move`]
//! every generated move is one, an explicit [`Move::PASS`](crate::Move::PASS) included.
//! Depth counts actions, throws and moves alike. A sequence whose last action ends the game
//! is counted at its depth (and among [`PerftCount::game_over`]) and extended no further.
//!
//! The counts depend on every rule and on nothing else: not on the order of the generated
//! moves, nor on the chance of a throw. The facade checks them in for every ruleset under
//! `tests/perft/` (see `docs/notation.md`, "Perft files").
//!
//! ```
//! use senet_core::Ruleset;
//! use senet_core::perft::Perft;
//!
//! fn print_perft<R: Ruleset>(rules: &R, depth: usize) {
//!     // One list of moves per depth, allocated here; the walk itself allocates nothing.
//!     let Ok(mut perft) = Perft::new(depth) else { return };
//!     for (d, count) in perft.run(rules, &rules.initial_state()).iter().enumerate() {
//!         println!("depth {} {} {}", d + 1, count.sequences, count.game_over);
//!     }
//! }
//! ```

use crate::moves::MoveList;
use crate::prelude::*;
use crate::ruleset::{Phase, Ruleset};
use crate::throw::ThrowingDevice;

/// The deepest walk [`Perft::new`] accepts: far beyond what finishes (the counts grow about
/// tenfold a depth), and the walk recurses once a depth, so the stack stays small.
pub const MAX_DEPTH: usize = 64;

/// A perft depth beyond [`MAX_DEPTH`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("perft depth {0} is above the cap of {MAX_DEPTH}")]
pub struct DepthError(pub usize);

/// What perft counts at one depth.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct PerftCount {
    /// Sequences of exactly this many actions from the position.
    pub sequences: u64,
    /// Those among them whose last action ended the game.
    pub game_over: u64,
}

/// A perft walker: one [`MoveList`] per depth and the counts, allocated once by
/// [`Perft::new`] and reused by every [`Perft::run`], which allocates nothing.
#[derive(Clone, Debug)]
pub struct Perft {
    lists: Vec<MoveList>,
    counts: Vec<PerftCount>,
}

impl Perft {
    /// A walker for depths 1 to `depth`, at most [`MAX_DEPTH`].
    pub fn new(depth: usize) -> Result<Perft, DepthError> {
        if depth > MAX_DEPTH {
            return Err(DepthError(depth));
        }
        Ok(Perft {
            lists: vec![MoveList::new(); depth],
            counts: vec![PerftCount::default(); depth],
        })
    }

    /// Counts the sequences from `state` to each depth; element `d - 1` of the result is
    /// depth `d`.
    pub fn run<R: Ruleset>(&mut self, rules: &R, state: &R::State) -> &[PerftCount] {
        self.counts.fill(PerftCount::default());
        walk(rules, state, &mut self.lists, &mut self.counts);
        &self.counts
    }
}

/// Counts the actions available in `state` at `counts[0]` and the sequences they start at
/// the deeper entries, using `lists[0]` for this depth's moves.
fn walk<R: Ruleset>(
    rules: &R,
    state: &R::State,
    lists: &mut [MoveList],
    counts: &mut [PerftCount],
) {
    let (Some((list, lists)), Some((count, counts))) =
        (lists.split_first_mut(), counts.split_first_mut())
    else {
        return;
    };
    let mut visit = |next: &R::State| {
        count.sequences += 1;
        if let Phase::Over(_) = rules.phase(next) {
            count.game_over += 1;
        } else {
            walk(rules, next, lists, counts);
        }
    };
    match rules.phase(state) {
        Phase::Over(_) => {}
        Phase::Throw(_) => {
            for outcome in rules.device().outcomes() {
                let mut next = *state;
                rules.throw_unchecked(&mut next, outcome.value);
                visit(&next);
            }
        }
        Phase::Move(_) => {
            rules.generate_moves(state, list);
            for &mv in list.iter() {
                let mut next = *state;
                rules.play_unchecked(&mut next, mv);
                visit(&next);
            }
        }
    }
}
