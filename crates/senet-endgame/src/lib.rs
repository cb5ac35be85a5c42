//! Exact solutions of Senet endgames.
//!
//! An *endgame* is a position in which each side has at most `k` pieces left on the board
//! (the others borne off). For small `k` every such position can be listed, and the
//! probability that the side to act wins under perfect play by both sides can be computed
//! exactly for all of them at once:
//!
//! - an [`EndgameSpace`] lists the positions of one ruleset that wait for a throw, each with
//!   an index (implemented for Regency by [`RegencyEndgame`], feature `regency`, and for
//!   Kendall with immediate throws by [`KendallEndgame`], feature `kendall`);
//! - [`solve`] runs value iteration over the turn machine until the values change by less
//!   than a stated tolerance (the position graph has cycles: swaps and returns to the start
//!   undo progress, so one backward pass is not enough), then proves how far they may be
//!   from the game's values and narrows that, by default to [`EXACT_BOUND`] (see what the
//!   [solver](solver#what-it-guarantees) guarantees);
//! - the result is an [`EndgameTable`], which answers [`PositionOracle`] queries, its
//!   proven [`error_bound`](PositionOracle::error_bound) among them, and stores itself in a
//!   compact, versioned binary file (see [`table`]).
//!
//! The `Perfect` player of `senet-ai` plays from such tables.
//!
//! ```
//! use senet::ai::endgame::{EndgameSpace, RegencyEndgame, SolveOptions, solve};
//! use senet::Ruleset;
//! use senet::Regency;
//!
//! let space = RegencyEndgame::new(Regency::default(), 1).unwrap();
//! let table = solve(space, &SolveOptions::default()).unwrap();
//! assert!(table.stats().residual <= 1e-9);
//! // Every value is within the proven bound of the game's, and that is at most 1e-10.
//! assert!(table.stats().error_bound <= senet::ai::endgame::EXACT_BOUND);
//! // Black on 29, White on 28, Black to throw: only a 1 bears Black's last piece off.
//! let rules = Regency::default();
//! let state = rules.parse_position(&format!("{}WB. b", ".".repeat(27))).unwrap();
//! let p = table.value(&state).unwrap();
//! assert!(p > 0.25 && p < 0.75);
//! ```
//!
//! This crate is `senet::ai::endgame` through the facade's `ai` feature, and
//! `senet_ai::endgame` in `senet-ai`; the examples use the facade's paths.

#![forbid(unsafe_code)]
#![deny(missing_docs)]

mod clock;
mod dispatch;
#[cfg(feature = "kendall")]
mod kendall;
#[cfg(any(feature = "regency", feature = "kendall"))]
mod ranking;
#[cfg(feature = "regency")]
mod regency;
pub mod solver;
pub mod table;

use core::ops::Range;
use std::collections::HashMap;

use senet_core::{MoveList, Phase, PositionError, Ruleset, RulesetSpec, Side, ThrowingDevice};
use thiserror::Error;

pub use dispatch::{EndgameFiles, EndgameRules, Endgames, endgames_or_unsupported};
#[cfg(feature = "kendall")]
pub use kendall::KendallEndgame;
#[cfg(feature = "regency")]
pub use regency::RegencyEndgame;
pub use solver::{
    Checkpoint, PolicyStepReport, PolicySteps, SolveEvent, SolveMethod, SolveOptions, SolveStats,
    solve, solve_resumable,
};
pub use table::{EndgameTable, ValueEncoding, read_table_bytes};

/// A value is called exact when its proven bound is at most this: a table whose
/// [`PositionOracle::error_bound`] is at most `EXACT_BOUND` holds every position's value to
/// within 1e-10 of the game's. The solver works towards it by default
/// ([`SolveOptions::target_bound`]).
pub const EXACT_BOUND: f64 = 1e-10;

/// The state type of the ruleset of the space `S`: what its positions are.
pub type SpaceState<S> = <<S as EndgameSpace>::Rules as Ruleset>::State;

/// The positions of a ruleset's endgames that wait for a throw, each with an index in
/// `0..state_count()`: what the [solver](solve) needs to know about a ruleset.
///
/// The contract:
/// - [`index`](EndgameSpace::index) accepts only states in [`Phase::Throw`], and gives
///   equal indices only to states in which the side to act has the same chance of winning
///   (a space may fold symmetric positions together, as Regency's folds the two colours);
/// - [`state`](EndgameSpace::state) gives, for every index, a state with that index;
/// - the space is closed under play: every state waiting for a throw that can be reached
///   from a state of the space (through throws and moves) has an index too;
/// - [`layers`](EndgameSpace::layers) cut `0..state_count()` into consecutive ranges such
///   that play from a state never reaches a later layer (typically: pieces borne off never
///   return, so fewer pieces on the board means an earlier layer). The solver finishes each
///   layer before the next. One layer with everything is always correct, only slower.
///
/// The solver checks the last two promises as it goes and reports a broken one as an
/// [`EndgameError`].
///
/// A space may also leave some states waiting for a throw out of the index on purpose, when
/// their value follows from one throw: [`passes_through`](EndgameSpace::passes_through)
/// names them, and the solver and the tables compute their value from their throws (each
/// outcome weighted by the device, followed by the best play) instead of storing it. Their
/// throws and the decisions after them must reach indexed states or finished games before
/// the next throw. Kendall's space uses this for the turn that starts with a piece that must
/// move (K-15), which would otherwise take as many positions again.
///
/// A ruleset whose throws are stored (Kendall's default) can implement this by indexing the
/// stored throws too; one whose throws are used at once (Regency, Kendall's
/// `throw_timing=immediate`) indexes the board, the side to act and whatever else a
/// position between two throws remembers.
pub trait EndgameSpace: Send + Sync + 'static {
    /// The ruleset.
    type Rules: Ruleset;

    /// Names the indexing scheme; stored in table files, so that a table is only read back by
    /// the scheme that wrote it. Change it whenever [`index`](EndgameSpace::index) changes.
    const LAYOUT: &'static str;

    /// The ruleset, with the options the positions are played under.
    fn rules(&self) -> &Self::Rules;

    /// The most pieces a side may have on the board in a position of the space.
    fn max_pieces(&self) -> u8;

    /// How many indices there are.
    fn state_count(&self) -> usize;

    /// Consecutive ranges covering `0..state_count()`, in solving order (see the trait's
    /// contract).
    fn layers(&self) -> Vec<Range<usize>> {
        core::iter::once(0..self.state_count()).collect()
    }

    /// The index of `state`, if it is a position of the space.
    fn index(&self, state: &SpaceState<Self>) -> Option<usize>;

    /// A state with the given index (`None` past the end).
    fn state(&self, index: usize) -> Option<SpaceState<Self>>;

    /// Whether `state`, waiting for a throw and not indexed, belongs to the space all the
    /// same, its value computed from its throws (see the trait's documentation). None do
    /// unless a space says so.
    fn passes_through(&self, state: &SpaceState<Self>) -> bool {
        let _ = state;
        false
    }

    /// The name of the indexing scheme of this space: [`LAYOUT`](EndgameSpace::LAYOUT),
    /// unless the space indexes differently under some options (Kendall's with stored
    /// throws).
    fn layout(&self) -> &'static str {
        Self::LAYOUT
    }

    /// A solver of the space's own, for a space whose turns [`solve`] cannot follow from one
    /// indexed position to the next: the values in index order and the figures, or `None`
    /// (the default) to be solved by [`solve`]. Kendall's stored throws use it: a turn
    /// collects any number of throws before its first move (see [`KendallEndgame`]).
    /// It is called before anything else of the solve, with the `checkpoint` of
    /// [`solve_resumable`] if any, so it checks the sizes itself and keeps the checkpoint or
    /// refuses it ([`EndgameError::Checkpoint`]).
    fn solve_own(
        &self,
        options: &SolveOptions,
        checkpoint: Option<&Checkpoint>,
    ) -> Option<Result<(Vec<f64>, SolveStats), EndgameError>> {
        let _ = (options, checkpoint);
        None
    }

    /// With [`solve_own`](EndgameSpace::solve_own): the largest Bellman residual of `values`
    /// in the space's own equation, which [`EndgameTable::bellman_residual`] reports.
    fn own_residual(&self, values: &[f64]) -> Option<Result<f64, EndgameError>> {
        let _ = values;
        None
    }

    /// Whether some positions converge so slowly under plain sweeps (a side that can wait
    /// in a cycle for a rare good moment) that the solver should take policy steps
    /// ([`PolicySteps::Auto`]). No unless a space says so.
    fn slow_cycles(&self) -> bool {
        false
    }
}

/// Something that knows the exact value of some positions: solved endgame tables.
///
/// Object-safe, so that generic code (players, the CLI) can hold the tables of whichever
/// ruleset it plays as `Arc<dyn PositionOracle<R>>`.
pub trait PositionOracle<R: Ruleset>: Send + Sync {
    /// The probability that the side to act wins `state` (a state in [`Phase::Throw`]) under
    /// perfect play, if the oracle covers it.
    fn throw_value(&self, state: &R::State) -> Option<f64>;

    /// The ruleset configuration the values hold for.
    fn spec(&self) -> RulesetSpec;

    /// The most pieces per side on the board in the positions covered.
    fn max_pieces(&self) -> u8;

    /// A one-line description, e.g. `regency endgames, up to 2 pieces a side, 143262
    /// positions, every value within 9.5e-11 of the exact one (proven)`.
    fn describe(&self) -> String;

    /// A proven bound on how far any value the oracle gives is from the game's value:
    /// `|throw_value(s) − V(s)| ≤ error_bound()` for every state `s` it covers, the rounding
    /// of a table file's encoding included. At most [`EXACT_BOUND`] for tables solved with
    /// the default options and kept in memory or in 8 bytes a value.
    fn error_bound(&self) -> f64;
}

/// Why an endgame could not be solved, stored or read.
#[derive(Debug, Error)]
pub enum EndgameError {
    /// No endgame space is implemented for this ruleset.
    #[error("no endgame tables for `{0}`: the solver has no space for this configuration")]
    Unsupported(String),
    /// The number of pieces per side is outside what the space supports.
    #[error("endgames with {requested} pieces a side are not supported (1..={max})")]
    Pieces {
        /// The number asked for.
        requested: u8,
        /// The largest supported number.
        max: u8,
    },
    /// An index did not give a state, or a state did not index back to its index: the
    /// space breaks its contract.
    #[error("the endgame space is inconsistent at index {index}: {reason}")]
    Inconsistent {
        /// The index concerned.
        index: usize,
        /// What went wrong.
        reason: String,
    },
    /// Play from a position of the space reached a state waiting for a throw that the space
    /// does not index.
    #[error("the endgame space is not closed: {position} is reached but has no index")]
    NotClosed {
        /// The position reached, in notation.
        position: String,
    },
    /// Play from a layer reached a later layer.
    #[error("layer order broken: index {from} reaches index {to} in a later layer")]
    LayerOrder {
        /// The index played from.
        from: usize,
        /// The index reached.
        to: usize,
    },
    /// The space has more positions than the solver is allowed to take on
    /// ([`SolveOptions::max_states`], and never more than its 29-bit indices hold).
    #[error("{states} positions are too many to solve (the limit is {limit})")]
    TooLarge {
        /// Positions in the space.
        states: usize,
        /// The limit.
        limit: usize,
    },
    /// The ruleset is supported, but not with these options.
    #[error("no endgame tables for `{spec}`: {reason}")]
    UnsupportedOptions {
        /// The configuration asked for.
        spec: String,
        /// Which option is not supported, and why.
        reason: String,
    },
    /// A turn went through more moves in a row than the solver follows.
    #[error("more than {0} moves in a row without a throw from {1}")]
    TooManyMoves(usize, String),
    /// Value iteration did not reach the tolerance within the allowed sweeps.
    #[error(
        "value iteration did not converge: after {sweeps} sweeps values still change by {change:e}"
    )]
    NotConverged {
        /// Sweeps done.
        sweeps: u32,
        /// The largest change in the last sweep.
        change: f64,
    },
    /// The scratch file of [`SolveMethod::OnDisk`] could not
    /// be written or read.
    #[error("the solver's scratch file {path}: {source}")]
    Scratch {
        /// The file.
        path: String,
        /// What failed.
        source: std::io::Error,
    },
    /// A solve with a [`Checkpoint`] ran out of the time it was given
    /// and saved its progress.
    #[error(
        "the solve stopped as asked, {layers} layers solved; its progress is saved in {path}: \
         run it again with that checkpoint to go on"
    )]
    Stopped {
        /// The checkpoint file.
        path: String,
        /// The layers solved so far.
        layers: usize,
    },
    /// A solve's checkpoint file could not be written or read, or is of another solve.
    #[error("the solve's checkpoint {path}: {reason}")]
    Checkpoint {
        /// The file.
        path: String,
        /// What is wrong.
        reason: String,
    },
    /// A position given to the table could not be read.
    #[error(transparent)]
    Position(#[from] PositionError),
    /// A table file could not be used.
    #[error(transparent)]
    Table(#[from] table::TableError),
    /// The tables were solved for another ruleset configuration than the one played.
    #[error("the tables are for `{table}`, the game is `{game}`")]
    RulesetMismatch {
        /// The configuration of the tables.
        table: String,
        /// The configuration of the game.
        game: String,
    },
}

/// The most moves in a row (without a throw in between) that exact evaluation follows.
/// Every ruleset spends a throw per move, so chains are short; the limit only guards
/// against a broken ruleset.
pub const MAX_MOVE_CHAIN: usize = 16;

/// The exact value for `side` of `state`, looking up states that wait for a throw in
/// `lookup` and expanding decisions (best move for whoever decides) in between. `None`
/// when a state reached is not covered.
///
/// `memo`, if given, keeps the values of the decisions expanded, for `side`: a turn that
/// spends many held throws (Kendall's stored throws) reaches the same position by many
/// orders of its moves, and without it the expansion grows exponentially (13 throws held
/// took 8.9 s). Without throws held it would only cost an allocation.
///
/// `depth` counts the moves already followed in a row: start at 0. Past
/// [`MAX_MOVE_CHAIN`] of them the value is `None`. The `Perfect` player of `senet-ai`
/// values each move of a decision with it.
pub fn exact_value<R: Ruleset>(
    rules: &R,
    state: &R::State,
    side: Side,
    lookup: &dyn Fn(&R::State) -> Option<f64>,
    mut memo: Option<&mut HashMap<R::State, f64>>,
    depth: usize,
) -> Option<f64> {
    match rules.phase(state) {
        Phase::Over(outcome) => Some(outcome.value_for(side)),
        Phase::Throw(to_act) => {
            let v = lookup(state)?;
            Some(if to_act == side { v } else { 1.0 - v })
        }
        Phase::Move(mover) => {
            if let Some(&known) = memo.as_ref().and_then(|memo| memo.get(state)) {
                return Some(known);
            }
            if depth >= MAX_MOVE_CHAIN {
                return None;
            }
            let mut moves = MoveList::new();
            rules.generate_moves(state, &mut moves);
            let maximise = mover == side;
            let mut best: Option<f64> = None;
            for &mv in moves.iter() {
                let mut next = *state;
                rules.play_unchecked(&mut next, mv);
                let v = exact_value(rules, &next, side, lookup, memo.as_deref_mut(), depth + 1)?;
                best = Some(match best {
                    None => v,
                    Some(b) if maximise => b.max(v),
                    Some(b) => b.min(v),
                });
            }
            if let (Some(value), Some(memo)) = (best, memo) {
                memo.insert(*state, value);
            }
            best
        }
    }
}

/// One step of the Bellman equation at a state waiting for a throw: the throw's outcomes
/// weighted by the device's exact table, each followed by the best play, with the states
/// that wait for the next throw looked up in `lookup`. The value is for the side to act.
pub(crate) fn bellman_value<R: Ruleset>(
    rules: &R,
    state: &R::State,
    lookup: &dyn Fn(&R::State) -> Option<f64>,
) -> Option<f64> {
    let Phase::Throw(side) = rules.phase(state) else {
        return None;
    };
    let device = rules.device();
    let denominator = f64::from(device.denominator());
    let mut total = 0.0;
    for outcome in device.outcomes() {
        let mut next = *state;
        rules.throw_unchecked(&mut next, outcome.value);
        total += f64::from(outcome.weight) * exact_value(rules, &next, side, lookup, None, 0)?;
    }
    Some(total / denominator)
}
