//! Value iteration over an [`EndgameSpace`].
//!
//! For a state `s` waiting for a throw, with `p(t)` the device's exact probability of the
//! throw `t`, the value `V(s)` (the chance that the side to act wins under perfect play)
//! satisfies the Bellman equation
//!
//! ```text
//! V(s) = Σ_t p(t) · W(s after the throw t)
//! W(x) = 1, ½ or 0                       when the game is over (win, draw, loss)
//!        V(x) or 1 − V(x)                when x waits for a throw (same side, other side)
//!        max or min over the moves m of W(x after m)   when x waits for a move
//!                                        (max when the side of s decides, min otherwise)
//! ```
//!
//! The position graph has cycles (swaps, passes, pieces sent back to the start), so [`solve`]
//! iterates: every value starts at ½ and is replaced by its right-hand side until the
//! values stand still to within [`SolveOptions::tolerance`]. Then it proves how far they
//! may be from the game's values, and narrows that to [`SolveOptions::target_bound`]
//! ([`EXACT_BOUND`](crate::EXACT_BOUND) by default): [`SolveStats::error_bound`].
//!
//! # What it guarantees
//!
//! - **A proven error bound.** Every value of a table is within [`SolveStats::error_bound`]
//!   of the game's value (endless play a draw), rounding included; the default solve works
//!   until that bound is at most [`EXACT_BOUND`](crate::EXACT_BOUND). Once a layer's values
//!   are found, its components are taken again in the same order and each value is
//!   *bracketed* between a lower and an upper bound (module `bracket`). A Gauss–Seidel sweep
//!   replaces each bound by the same bound of its right-hand side, computed from the bounds
//!   it reads (a lower bound reads the lower bounds of the values of the same side and one
//!   minus the upper bounds of the other side's, each earlier layer's value give or take
//!   its layer's bound) and moved outward by more than its rounding error (about 2e-15);
//!   where that margin alone keeps a bound from settling and the throws' probabilities are
//!   exact doubles, the bound is computed exactly instead (Shewchuk's expansions). A sweep
//!   in which no lower bound falls and no upper bound rises *proves* the bounds it leaves:
//!   each lower bound is then at most its right-hand side, strictly wherever it is above ½,
//!   and each upper bound at least its own, strictly wherever it is below ½. By Everett's
//!   argument for recursive games (1957) such lower bounds are at most the game's values:
//!   the side to act that plays the moves best for them makes them a bounded
//!   submartingale that rises by a fixed amount at each step from a position above ½, so
//!   play goes on for ever only among positions worth at most ½, what endless play is
//!   worth; the upper bounds likewise. This assumes no uniqueness of the solution of the
//!   equations: where a side may wait for ever at no cost (Kendall's water, K-14) they have
//!   many, and the bounds bracket the one where endless play is a draw. What it assumes is
//!   that the compiled equations are the game's (checked as they are compiled, below), that
//!   doubles round to nearest and `mul_add` is fused (IEEE 754, as Rust specifies), and
//!   that the throws' probabilities are those of the device. Proven bounds are tightened by
//!   more sweeps, each monotone too, until they are within the target or stop closing; the
//!   table keeps each bracket's middle (or the value found, where its bracket stayed wider
//!   than the solve's precision) and the bound is the widest half-bracket. Where lower and
//!   upper bounds do not meet (a cycle so slow that its brackets stop closing, or values
//!   that depend on how endless play is counted), the bound is as wide as they are apart:
//!   it stays honest and says so, up to the whole range 0..=1, from which the first sweep
//!   is always monotone. Each layer reads the earlier ones, so its bound is at least
//!   theirs; a layer before the last may add a sixteenth of what is left of the target,
//!   the last one the rest.
//! - **The same values on any number of threads.** Only the preparation of a layer runs on
//!   [`SolveOptions::threads`] threads, in fixed chunks put back in order; everything that
//!   computes a value is sequential (the lean method's waves depend only on the values
//!   before each wave). The values, and the [`SolveStats`], are the same bit for bit on any
//!   number of threads, with or without a [`progress`](SolveOptions::progress) callback.
//! - **Converged components.** A table is returned only when, in every strongly connected
//!   component of a layer that has a cycle (below), the last whole sweep changed no value by
//!   more than the tolerance. Otherwise the solve fails with [`EndgameError::NotConverged`] after
//!   [`SolveOptions::max_sweeps`] sweeps of one component.
//! - **A measured residual.** Once a layer is solved (later layers never change it), one
//!   more pass measures its Bellman residual `max |V(s) − right-hand side(s)|`, and
//!   [`SolveStats::residual`] records the largest over the layers (table files keep it).
//!   It bounds how far the equations are from holding, not how far a value is from the
//!   game's: in a slow cycle (below) that can be far more; the error bound above is that.
//! - **Exact where play cannot come back.** A state alone in its component, whose
//!   right-hand side does not read its own value, gets that right-hand side once, from
//!   final values: its value carries no iteration error, only rounding, and its bracket is
//!   proven by that one evaluation.
//! - **Endless play counts as a draw.** The values found are the limit of the iteration
//!   started from ½; policy steps leave the equations of play that never ends to the sweeps
//!   (below); the brackets are proven for that count (above).
//! - **A checked contract.** Play from a state that reaches a state waiting for a throw
//!   without an index is [`EndgameError::NotClosed`], one that reaches a later layer
//!   [`EndgameError::LayerOrder`], an index that does not give back a state with that index
//!   [`EndgameError::Inconsistent`]; a space larger than [`SolveOptions::max_states`] is
//!   refused with [`EndgameError::TooLarge`] before any memory is spent.
//!
//! `docs/players.md` gives the measured differences between tolerances and methods, the
//! bounds reached, and the solver's time and memory.
//!
//! # How it works
//!
//! The solver works layer by layer (see [`EndgameSpace::layers`]); earlier layers are final
//! when a layer starts. For each layer it:
//!
//! 1. sorts the states by decreasing *progress* (the sum of every piece's square, pieces off
//!    counting 31). Forward moves raise it, swaps and passes keep it, returns to the start
//!    lower it, so most successors of a state come before it in this order.
//! 2. *compiles* every state: runs the turn machine once through every throw and move and
//!    records the right-hand side as a short program of 32-bit words (successors, max/min
//!    nodes, terminal values). Successors in the layer are named by their place in the
//!    sorted order, so the values being iterated sit in memory in sweep order and a sweep
//!    reads them from a sliding window rather than from all over the table. A state the
//!    space leaves out on purpose ([`EndgameSpace::passes_through`]) is compiled in place
//!    as a chance node: its throws, weighted, each followed by the best play.
//! 3. splits the layer into the *strongly connected components* of its move graph (an
//!    edge from each state to every state of the layer that any throw and move of it can
//!    lead to, whatever the decisions), with Tarjan's algorithm, which gives them in an
//!    order where every component comes after those it leads to. Most components are a
//!    single state that cannot come back to itself.
//! 4. solves the components in that order, so that everything a component leads to outside
//!    itself is final when it starts: a lone state by one evaluation of its right-hand
//!    side; any other component by sweeping it in the sorted order again and again,
//!    replacing each value by its right-hand side in place (Gauss–Seidel: each new value is
//!    used at once), until no value changes by more than the tolerance in a sweep.
//!    Successors further on are then already up to date; what takes many sweeps is the
//!    cycles through positions further back (a piece sent from 27 to the start), whose
//!    influence travels one round per sweep, and the slow cycles below. Sweeping the
//!    components one by one rather than the whole layer spends the sweeps only where the
//!    cycles are (topological value iteration).
//! 5. brackets the components' values in the same order (see "What it guarantees"): a
//!    lone state by one evaluation of its bounds; a component with a cycle from a bracket
//!    around its values, four tolerances each way, swept until a sweep is monotone (and
//!    started again sixteen times wider after 16 that are not), then tightened. Where the
//!    space has slow cycles (Kendall), the first bracket is as narrow as the earlier
//!    layers' bound, and where that is not proven within 4 sweeps or stops short of the
//!    target, the component is solved again with its decisions frozen (a policy step on
//!    all of it, with one step of iterative refinement) and bracketed by how far each
//!    place's shortfall spreads: `w = c + |A|·w`, `A` the frozen equations' weights, `c`
//!    what each bound lacks with the component's values taken as exact (their residual,
//!    the width of the brackets they read, the rounding margin). Moves within a few
//!    rounding margins of the best are taken as leaving the component where one does: a
//!    side that may wait at no cost must be proven to go. Sweeps of such a bracket prove
//!    it where a wide one would stop closing, and where a side's upper bounds must even out
//!    over positions it may cycle through for ever, the exact bounds let them.
//! 6. measures the layer's Bellman residual in one more pass without writing.
//!
//! # Slow cycles
//!
//! Some positions converge far more slowly than the rest of their component. In Kendall's
//! rules a side holding 26 and 27 (a protected pair the other side cannot pass, K-7, K-9)
//! may wait in the water for a 4 (K-14, K-16) while the other side is shuffled back and
//! forth by forced moves (K-5); it waits for a rare good moment, and play leaves the cycle
//! so rarely in a round that the values of those positions creep towards their limit.
//! Where a space says it has such cycles ([`EndgameSpace::slow_cycles`], see
//! [`PolicySteps`]), the solver takes *policy steps* (below); otherwise it sweeps its *hot*
//! states on their own:
//!
//! - after 32 whole sweeps of a component, and every 16 after that, it notes the states
//!   whose value moved by more than 1% of the largest change of the sweep before; when
//!   they are at most an eighth of the component, it sweeps them alone (the rest held
//!   fixed) until they move by less than 1% of that change, within a budget of 32 sweeps'
//!   worth of the component;
//! - while doing so it follows each hot value from block to block of 64 sweeps and, where
//!   the differences shrink by a steady ratio `q` (the last two ratios agree to 1% of
//!   `1 − q`), moves it half of the way to the limit `d·q/(1 − q)` that geometric
//!   convergence points to (Aitken's extrapolation, damped so as not to overshoot).
//!
//! Either way, once a whole sweep changes nothing by more than the tolerance, the solver
//! goes on sweeping ("polishing") and settling the states that still move by more than a
//! thousandth of the tolerance (with policy steps: taking a step on them, below), and stops
//! when a sweep is within the tolerance and the states still moving settle at once (none
//! is still moving), or after 8 such sweeps: a slow cycle magnifies rounding errors as much
//! as it slows the sweeps (by `1/(1 − λ)` for a cycle left with probability `1 − λ` a
//! round), so values that stand still to the last bit are not to be had there.
//!
//! # Policy steps
//!
//! In a slow cycle the sweeps are slow because they follow the play round by round, but
//! once each position's best move is known the values solve a *linear* system, which can be
//! solved at once. A policy step, taken after the 8th whole sweep of a component, after
//! every 8th after that until a sweep is within the tolerance, and after every polishing
//! sweep:
//!
//! 1. takes the states whose value moved by more than a thousandth of the tolerance in the
//!    sweep just made (the others are held fixed). Even when they are few, a step beats
//!    sweeping them alone: in a slow cycle their sweeps stop on a small change long before
//!    the values are there;
//! 2. freezes each of their decisions at the move that is best for the current values
//!    (the first best, as the sweeps' max/min would take), which leaves each right-hand
//!    side a linear expression `x_i = c_i + Σ_j a_ij·x_j` in those states' values (`a_ij`
//!    the chance of reaching `j`, negative when the other side acts there);
//! 3. splits these equations into strongly connected components (Tarjan's algorithm) and
//!    solves them in an order where every component's successors are solved before it:
//!    up to 64 states by Gaussian elimination, larger ones by BiCGSTAB (stabilised
//!    biconjugate gradients) from the current values, to a relative residual of 1e-14;
//! 4. leaves a component as it is when play never leaves it under the frozen decisions
//!    (every row keeps its whole weight inside): its equations are singular, and the
//!    endless play they describe counts as a draw, which only the sweeps from ½ give.
//!
//! The frozen decisions are those of the current values, not of the solution, so the step
//! can overshoot where a decision changes; the sweeps that follow correct that, and the
//! stopping rule and the residual check are those of plain sweeps. While polishing, the
//! values are close to their limit and the decisions right, so a step lands on the limit
//! where sweeps would creep towards it. A step is not repeated at once with the decisions
//! that are best for its new values (Howard's policy iteration): that can reach another
//! solution of the equations than the one the sweeps from ½ reach, one in which play that a
//! side could keep going forever is not worth a draw.
//!
//! # Methods
//!
//! All of the above is [`SolveMethod::Compiled`], which keeps each layer's programs in
//! memory (about 100 bytes a position for Regency). Two methods keep little more than the
//! values; they stop on the same rule and measure the same residual:
//!
//! - [`SolveMethod::OnDisk`] compiles each layer in the same order, writes the programs to
//!   a scratch file and reads them back once a sweep; in memory, 8 bytes a position and 12
//!   a position of the layer being solved (its values in sweep order and their last
//!   changes; its sort keys while the values are written back).
//!   - Where the space has slow cycles (policy steps wanted, as for Kendall), the layer is
//!     split into its components as in memory: whole-layer sweeps with policy steps end
//!     within the tolerance at other solutions of the equations where a side may wait
//!     (Kendall with three pieces a side). One pass over the scratch file reads the graph
//!     (each place's successors in the layer, once each), which is held only while
//!     Tarjan's algorithm runs; the programs are then written to a second file in the
//!     order of the components, in as many passes over the first as it takes to gather
//!     two words a position of the layer at a time. The components are solved in that
//!     order as the file is read: one that fits among the programs that may be copied (a
//!     sixteenth of the layer) is copied to memory and solved there; a larger one is swept
//!     from its part of the file, the sweep that finds its slow states copying their
//!     programs to memory, and those states are swept on their own and given policy steps
//!     as in a compiled component.
//!   - Elsewhere (Regency), the layer is swept whole: a steady slow convergence is
//!     extrapolated now and then, and every 16th whole sweep from the 32nd copies the
//!     programs of the states that moved most (a threshold chosen from the changes of the
//!     sweep before so that about half a sixteenth of the layer at most passes it), and
//!     when they are at most a sixteenth of the layer they are swept on their own as hot
//!     states: a small slow component would otherwise set the pace of every whole sweep of
//!     the layer.
//! - [`SolveMethod::Lean`] recomputes each right-hand side from the turn machine whenever
//!   it is evaluated; a sweep evaluates fixed waves of positions from the values before
//!   each wave, on the threads. It takes no policy steps: it suits Regency, not Kendall's
//!   slow cycles.
//!
//! Every method brackets its values as step 5 says. On disk the components are read from
//! the file again in the same order, a component swept from the file copied to memory for
//! its brackets (its programs take less than the layer's graph did while the components
//! were found); a layer swept whole on disk, and the lean method's, is bracketed as one
//! component, its values turned into brackets in their own vector (16 bytes a position of
//! the layer). The lean method counts, for its rounding margin, as many
//! nested chance nodes as a turn may have, and computes no bound exactly. Kendall's stored
//! throws prove their bounds by sweeps of their own (module `kendall::stored`).
//!
//! A long solve can keep its progress in a [`Checkpoint`] ([`solve_resumable`]).
//!
//! # Threads
//!
//! Steps 1 and 2 run on [`SolveOptions::threads`] threads with `std::thread::scope`. The
//! work is cut into fixed chunks of states, each compiled on its own and put back in order,
//! so the programs do not depend on the number of threads; the components, the sweeps and
//! the policy steps are sequential.

// The code by concern: `options`, what a solve is asked and what it reports; `compile`
// (steps 1 and 2, its threads in `parallel`) and `program`, the compiled words and their
// evaluation; `components`, step 3; `sweep`, step 4 and its schedule; `hot`, slow states
// swept on their own; `policy` and `linear`, policy steps and their equations; `bracket`
// and `exact`, step 5; `lean` and `on_disk`, the two methods that keep little in memory;
// `checkpoint`, saved progress.
// Only Kendall's stored throws solve by their own sweeps, which it accelerates.
#[cfg(feature = "kendall")]
mod anderson;
mod bracket;
mod checkpoint;
mod compile;
mod components;
mod disk_components;
mod disk_layer;
mod driver;
mod equations;
mod exact;
mod hot;
mod in_memory;
mod lean;
mod linear;
mod on_disk;
mod options;
mod order;
mod packed;
mod parallel;
// Kendall's stored throws build their turn graph with it.
#[cfg(feature = "kendall")]
pub(crate) use parallel::in_chunks;
mod policy;
mod program;
mod sweep;

use super::{EndgameError, EndgameSpace, EndgameTable};
pub use checkpoint::Checkpoint;
// Kendall's stored throws keep their progress in the same checkpoint file.
#[cfg(feature = "kendall")]
pub(crate) use checkpoint::{InLayer, Keeper};
use disk_layer::OnDisk;
use driver::solve_layers;
use in_memory::Compiled;
use lean::Lean;
// Kendall's stored throws keep their progress in the same checkpoint file.
#[cfg(feature = "kendall")]
pub(crate) use anderson::Anderson;
#[cfg(feature = "kendall")]
pub(crate) use on_disk::Extrapolation;
pub use options::{
    PolicyStepReport, PolicySteps, SolveEvent, SolveMethod, SolveOptions, SolveStats,
};

/// Solves every position of `space` (see the [module documentation](self)).
///
/// ```
/// use senet::ai::endgame::{RegencyEndgame, SolveOptions, solve};
/// use senet::Regency;
/// let table = solve(RegencyEndgame::new(Regency::default(), 1).unwrap(), &SolveOptions::default())
///     .unwrap();
/// assert_eq!(table.stats().states, 756);
/// ```
pub fn solve<S: EndgameSpace>(
    space: S,
    options: &SolveOptions,
) -> Result<EndgameTable<S>, EndgameError> {
    solve_with(space, options, None)
}

/// Solves like [`solve`], saving its progress in `checkpoint` after every layer and, inside
/// a layer swept on disk ([`SolveMethod::OnDisk`]), every [`Checkpoint::every`]. A solve
/// that finds the file goes on from it, and ends with the same values, bit for bit, as one
/// that was never stopped. A checkpoint of another solve (another space, ruleset, rules
/// revision, method, tolerance or policy steps) or a damaged one is refused with
/// [`EndgameError::Checkpoint`]. With [`Checkpoint::stop_after`] the solve saves and stops
/// with [`EndgameError::Stopped`] once its time is up. The file is left in place when the
/// solve ends: remove it once the table is safely written.
///
/// ```
/// use senet::ai::endgame::{Checkpoint, EndgameError, RegencyEndgame, SolveOptions, solve, solve_resumable};
/// use senet::Regency;
/// use std::time::Duration;
///
/// let space = || RegencyEndgame::new(Regency::default(), 2).unwrap();
/// let path = std::env::temp_dir().join(format!("doc-{}.senet-checkpoint", std::process::id()));
/// let mut checkpoint = Checkpoint::new(&path);
/// checkpoint.stop_after = Some(Duration::ZERO); // stop after the first layer
/// let stopped = solve_resumable(space(), &SolveOptions::default(), &checkpoint);
/// assert!(matches!(stopped, Err(EndgameError::Stopped { layers: 1, .. })));
/// checkpoint.stop_after = None;
/// let resumed = solve_resumable(space(), &SolveOptions::default(), &checkpoint).unwrap();
/// let direct = solve(space(), &SolveOptions::default()).unwrap();
/// assert_eq!(resumed.values(), direct.values());
/// std::fs::remove_file(&path).unwrap();
/// ```
pub fn solve_resumable<S: EndgameSpace>(
    space: S,
    options: &SolveOptions,
    checkpoint: &Checkpoint,
) -> Result<EndgameTable<S>, EndgameError> {
    solve_with(space, options, Some(checkpoint))
}

fn solve_with<S: EndgameSpace>(
    space: S,
    options: &SolveOptions,
    checkpoint: Option<&Checkpoint>,
) -> Result<EndgameTable<S>, EndgameError> {
    if let Some(own) = space.solve_own(options, checkpoint) {
        let (values, stats) = own?;
        return Ok(EndgameTable::from_parts(space, values, stats));
    }
    match options.method {
        SolveMethod::Compiled => solve_layers(space, options, checkpoint, &Compiled),
        SolveMethod::OnDisk => solve_layers(space, options, checkpoint, &OnDisk),
        SolveMethod::Lean => solve_layers(space, options, checkpoint, &Lean),
    }
}
