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
//! values stand still to within [`SolveOptions::tolerance`].
//!
//! # What it guarantees
//!
//! - **The same values on any number of threads.** Only the preparation of a layer runs on
//!   [`SolveOptions::threads`] threads, in fixed chunks put back in order; everything that
//!   computes a value is sequential. The values, and the [`SolveStats`], are the same bit
//!   for bit on any number of threads, with or without a
//!   [`progress`](SolveOptions::progress) callback.
//! - **Converged components.** A table is returned only when, in every strongly connected
//!   component of a layer that has a cycle (below), the last whole sweep changed no value by
//!   more than the tolerance. Otherwise the solve fails with [`EndgameError::NotConverged`] after
//!   [`SolveOptions::max_sweeps`] sweeps of one component.
//! - **A measured residual.** Once a layer is solved (later layers never change it), one
//!   more pass measures its Bellman residual `max |V(s) − right-hand side(s)|`, and
//!   [`SolveStats::residual`] records the largest over the layers (table files keep it).
//!   After a sweep whose changes are all within the tolerance, the residual is within it
//!   too: each update makes its own equation hold exactly, and a right-hand side (weighted
//!   sums, maxima and minima of values) never moves by more than the values it reads do.
//! - **Exact where play cannot come back.** A state alone in its component, whose
//!   right-hand side does not read its own value, gets that right-hand side once, from
//!   final values: its value carries no iteration error, only rounding.
//! - **Endless play counts as a draw.** The values are the limit of the iteration started
//!   from ½; policy steps leave the equations of play that never ends to the sweeps
//!   (below).
//! - **A checked contract.** Play from a state that reaches a state waiting for a throw
//!   without an index is [`EndgameError::NotClosed`], one that reaches a later layer
//!   [`EndgameError::LayerOrder`], an index that does not give back a state with that index
//!   [`EndgameError::Inconsistent`]; a space larger than [`SolveOptions::max_states`] is
//!   refused with [`EndgameError::TooLarge`] before any memory is spent.
//!
//! The residual bounds how far the equations are from holding, not how far a value is
//! from its limit: in a slow cycle (below) a value can be further off than it moves in a
//! sweep. `docs/players.md` gives the measured differences between tolerances and
//! methods, and the solver's time and memory.
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
//! 5. measures the layer's Bellman residual in one more pass without writing.
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
// swept on their own; `policy` and `linear`, policy steps and their equations; `lean` and
// `on_disk`, the two methods that keep little in memory; `checkpoint`, saved progress.
// Only Kendall's stored throws solve by their own sweeps, which it accelerates.
#[cfg(feature = "kendall")]
mod anderson;
mod checkpoint;
mod compile;
mod components;
mod disk_components;
mod hot;
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

use core::ops::Range;
use std::sync::Mutex;
use std::time::Instant;

use senet_core::{Ruleset, ThrowingDevice};

use super::{EndgameError, EndgameSpace, EndgameTable};
pub use checkpoint::Checkpoint;
pub(crate) use checkpoint::{InLayer, Keeper, PendingLayer};
use compile::compile_layer;
use components::components;
use lean::LeanEquations;
use on_disk::read_programs;
use order::sweep_order;
use program::{reads_itself, right_hand_side, skip};
// Kendall's stored throws keep their progress in the same checkpoint file.
#[cfg(feature = "kendall")]
pub(crate) use anderson::Anderson;
#[cfg(feature = "kendall")]
pub(crate) use on_disk::Extrapolation;
pub use options::{
    PolicyStepReport, PolicySteps, SolveEvent, SolveMethod, SolveOptions, SolveStats,
};
use program::PAYLOAD;
use sweep::{ComponentSolver, Equations};

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
    let count = space.state_count();
    let limit = match options.method {
        // Compiled programs name successors in 29 bits.
        SolveMethod::Compiled | SolveMethod::OnDisk => options.max_states.min(PAYLOAD as usize + 1),
        SolveMethod::Lean => options.max_states,
    };
    if count > limit {
        return Err(EndgameError::TooLarge {
            states: count,
            limit,
        });
    }
    let layers = space.layers();
    check_layers(&layers, count)?;
    let device = space.rules().device();
    let denominator = f64::from(device.denominator());
    let probabilities: Vec<f64> = device
        .outcomes()
        .iter()
        .map(|o| f64::from(o.weight) / denominator)
        .collect();

    // On disk, the values grow a layer at a time (see `disk_layer`).
    let mut values = match options.method {
        SolveMethod::OnDisk => Vec::with_capacity(count),
        _ => vec![0.5; count],
    };
    let mut stats = SolveStats {
        states: count,
        layers: layers.len(),
        tolerance: options.tolerance,
        ..SolveStats::default()
    };
    let report = |event: SolveEvent| {
        if let Some(progress) = options.progress {
            progress(&event);
        }
    };
    let run = Run {
        options,
        probabilities: &probabilities,
        threads: options.thread_count().max(1),
        steps_wanted: match options.policy_steps {
            PolicySteps::Auto => space.slow_cycles(),
            PolicySteps::Always => true,
            PolicySteps::Never => false,
        },
        report: &report,
    };
    let mut keeper = checkpoint.map(|checkpoint| Keeper::new(checkpoint, &space, options));
    let (first_layer, mut in_layer) = match &keeper {
        Some(keeper) => {
            let starts: Vec<usize> = layers.iter().map(|l| l.start).chain([count]).collect();
            match keeper.load(&starts)? {
                Some(saved) => {
                    stats = saved.stats;
                    match options.method {
                        SolveMethod::OnDisk => values.extend_from_slice(&saved.values),
                        _ => values[..saved.values.len()].copy_from_slice(&saved.values),
                    }
                    (saved.layers, saved.in_layer)
                }
                None => (0, None),
            }
        }
        None => (0, None),
    };
    let layer_count = layers.len();
    for (layer_number, layer) in layers.into_iter().enumerate().skip(first_layer) {
        let end = layer.end;
        match options.method {
            SolveMethod::Compiled => {
                run.compiled_layer(&space, layer_number, layer, &mut values, &mut stats)?;
            }
            SolveMethod::Lean => {
                run.lean_layer(&space, layer_number, layer, &mut values, &mut stats)?;
            }
            SolveMethod::OnDisk => {
                let resume = in_layer.take();
                let layer_run = DiskLayer {
                    number: layer_number,
                    layer,
                    keeper: keeper.as_mut(),
                };
                run.disk_layer(&space, layer_run, resume, &mut values, &mut stats)?;
            }
        }
        if let Some(keeper) = keeper.as_mut() {
            keeper.save(&stats, layer_number + 1, &values[..end], None)?;
            if keeper.time_is_up() && layer_number + 1 < layer_count {
                return Err(keeper.stopped(layer_number + 1));
            }
        }
    }
    Ok(EndgameTable::from_parts(space, values, stats))
}

/// What every layer of a solve shares.
struct Run<'a, F: Fn(SolveEvent)> {
    options: &'a SolveOptions,
    probabilities: &'a [f64],
    threads: usize,
    steps_wanted: bool,
    report: &'a F,
}

impl<F: Fn(SolveEvent)> Run<'_, F> {
    /// Solves `layer` with compiled equations, component by component.
    fn compiled_layer<S: EndgameSpace>(
        &self,
        space: &S,
        layer_number: usize,
        layer: Range<usize>,
        values: &mut [f64],
        stats: &mut SolveStats,
    ) -> Result<(), EndgameError> {
        let (probabilities, report) = (self.probabilities, self.report);
        let compiling = Instant::now();
        let states = layer.len();
        let program = compile_layer(space, layer, self.threads)?;
        report(SolveEvent::Compiled {
            layer: layer_number,
            states,
            words: program.words(),
            seconds: compiling.elapsed().as_secs_f64(),
        });
        stats.program_words = stats.program_words.max(program.words());
        let splitting = Instant::now();
        let (mut members, bounds) = components(&program);
        let largest = bounds.windows(2).map(|b| b[1] - b[0]).max().unwrap_or(0);
        stats.components += bounds.len() - 1;
        stats.largest_component = stats.largest_component.max(largest);
        report(SolveEvent::Split {
            layer: layer_number,
            components: bounds.len() - 1,
            largest,
            seconds: splitting.elapsed().as_secs_f64(),
        });
        let mut local = vec![0.5; states];
        let mut solver = self.component_solver(&program, values, layer_number, stats);
        let mut evaluations = 0u64;
        let mut most_sweeps = 0;
        for bound in bounds.windows(2) {
            let places = &mut members[bound[0]..bound[1]];
            if let [place] = *places
                && !program.leads_to_itself(place as usize)
            {
                // Its successors in the layer are all solved: one evaluation is exact.
                let place = place as usize;
                local[place] = program.right_hand_side(place, probabilities, &local, values);
                evaluations += 1;
                continue;
            }
            // Most progress first, as the layer's order has it.
            places.sort_unstable();
            let sweeps = solver.solve(places, &mut local)?;
            evaluations += u64::from(sweeps) * places.len() as u64;
            most_sweeps = most_sweeps.max(sweeps);
        }
        let seconds = solver.started.elapsed().as_secs_f64();
        let residual = program.residual(probabilities, &local, values);
        let done = Done {
            layer: layer_number,
            states,
            evaluations,
            most_sweeps,
            residual,
            seconds,
        };
        self.finish_layer(done, stats);
        for (&index, &value) in program.order.iter().zip(&local) {
            values[index as usize] = value;
        }
        Ok(())
    }

    /// Solves `layer` with the lean method: swept whole, in place, the equations recomputed.
    fn lean_layer<S: EndgameSpace>(
        &self,
        space: &S,
        layer_number: usize,
        layer: Range<usize>,
        values: &mut [f64],
        stats: &mut SolveStats,
    ) -> Result<(), EndgameError> {
        let (probabilities, report) = (self.probabilities, self.report);
        let ordering = Instant::now();
        let states = layer.len();
        let order = sweep_order(space, layer.clone(), self.threads)?;
        report(SolveEvent::Compiled {
            layer: layer_number,
            states,
            words: 0,
            seconds: ordering.elapsed().as_secs_f64(),
        });
        stats.components += 1;
        stats.largest_component = stats.largest_component.max(states);
        let (solved, rest) = values.split_at_mut(layer.start);
        let local = &mut rest[..states];
        let equations = LeanEquations {
            space,
            layer,
            threads: self.threads,
            failure: Mutex::new(None),
        };
        // The first sweep returns its errors: every successor is checked there.
        equations.checked_sweep(&order, probabilities, local, solved, None)?;
        let run = Run {
            steps_wanted: false,
            ..*self
        };
        let mut solver = run.component_solver(&equations, solved, layer_number, stats);
        let sweeps = solver.solve(&order, local)? + 1;
        let seconds = solver.started.elapsed().as_secs_f64();
        drop(order);
        let residual = equations.residual(probabilities, local, solved);
        if let Some(error) = equations.take_failure() {
            return Err(error);
        }
        self.finish_layer(
            Done::whole(layer_number, states, sweeps, residual, seconds),
            stats,
        );
        Ok(())
    }

    /// Solves a layer from programs on disk: component by component where the space has
    /// slow cycles, otherwise swept whole, in place, until a sweep changes no value by more
    /// than the tolerance, from `resume` if a checkpoint held its progress.
    fn disk_layer<S: EndgameSpace>(
        &self,
        space: &S,
        DiskLayer {
            number: layer_number,
            layer,
            keeper,
        }: DiskLayer<'_, '_>,
        resume: Option<PendingLayer>,
        values: &mut Vec<f64>,
        stats: &mut SolveStats,
    ) -> Result<(), EndgameError> {
        let (probabilities, report) = (self.probabilities, self.report);
        let compiling = Instant::now();
        let states = layer.len();
        let scratch = on_disk::write_programs(
            space,
            layer.clone(),
            self.threads,
            &std::env::temp_dir(),
            &format!("layer-{layer_number}"),
        )?;
        report(SolveEvent::Compiled {
            layer: layer_number,
            states,
            words: scratch.words,
            seconds: compiling.elapsed().as_secs_f64(),
        });
        stats.program_words = stats.program_words.max(scratch.words);
        if self.steps_wanted {
            return self.disk_components(space, layer_number, layer, scratch, values, stats);
        }
        // Progress saved inside the layer was saved with the layer counted.
        stats.components += usize::from(resume.is_none());
        stats.largest_component = stats.largest_component.max(states);
        let started = Instant::now();
        let (sweeps, mut local) =
            self.disk_sweeps(&scratch, layer_number, keeper, resume, values, stats)?;
        let seconds = started.elapsed().as_secs_f64();
        let whole = scratch.whole();
        let residual = on_disk::sweep(
            &scratch,
            whole,
            probabilities,
            &mut local,
            values,
            None,
            None,
        )?;
        drop(scratch);
        on_disk::write_back(space, layer, self.threads, &local, values)?;
        self.finish_layer(
            Done::whole(layer_number, states, sweeps, residual, seconds),
            stats,
        );
        Ok(())
    }

    /// Whole sweeps of a layer on disk, extrapolated where they converge steadily, from
    /// `resume`, saved now and then by `keeper`. Returns the sweeps and the layer's values
    /// in sweep order.
    ///
    /// Now and then (as the compiled method does in a component) a whole sweep notes the
    /// states still moving and copies their programs to memory; when they are at most a
    /// sixteenth of the layer they are swept on their own until they settle. A layer holds
    /// several components, and the slowest of them, a small share of the layer, would
    /// otherwise set the pace of every whole sweep.
    fn disk_sweeps(
        &self,
        scratch: &on_disk::Scratch,
        layer_number: usize,
        mut keeper: Option<&mut Keeper<'_>>,
        resume: Option<PendingLayer>,
        values: &[f64],
        stats: &mut SolveStats,
    ) -> Result<(u32, Vec<f64>), EndgameError> {
        let (probabilities, report) = (self.probabilities, self.report);
        let states = scratch.states;
        // The layer's values in sweep order, as its programs name them; the earlier layers'
        // in `values`, which is written only once the layer is solved. Saved ones are read
        // now that the programs are on disk.
        let mut progress = match (resume, keeper.as_deref()) {
            (Some(pending), Some(keeper)) => keeper.layer_progress(pending)?,
            _ => InLayer {
                sweeps: 0,
                extrapolation: on_disk::Extrapolation::default(),
                local: vec![0.5; states],
                changes: vec![0.0; states],
            },
        };
        let mut equations =
            on_disk::DiskEquations::new(scratch, scratch.whole(), states / COPIED_SHARE);
        let mut hot = Vec::new();
        let started = Instant::now();
        loop {
            let look = sweep::looks_for_hot(progress.sweeps);
            let last_change = progress.extrapolation.last_change();
            let copied = equations
                .copied
                .get_mut()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            let noting = look.then(|| on_disk::NotingHot {
                threshold: on_disk::hot_threshold(
                    &progress.changes,
                    last_change * sweep::HOT_SHARE,
                    equations.most_copied,
                ),
                most: equations.most_copied,
                places: &mut hot,
                copied,
            });
            let change = on_disk::sweep(
                scratch,
                scratch.whole(),
                probabilities,
                &mut progress.local,
                values,
                Some(&mut progress.changes),
                noting,
            )?;
            progress.sweeps += 1;
            let sweeps = progress.sweeps;
            if change > self.options.tolerance
                && let Some(stretch) = progress.extrapolation.after_sweep(change)
            {
                on_disk::extrapolate(&mut progress.local, &progress.changes, stretch);
            }
            let settle = look
                && change > self.options.tolerance
                && !hot.is_empty()
                && hot.len() <= equations.most_copied;
            let settled = if settle {
                let settled = sweep::settle_layer_hot(
                    &equations,
                    probabilities,
                    &mut progress.local,
                    values,
                    &hot,
                    (change, self.options.tolerance),
                );
                stats.hot_states = stats.hot_states.max(hot.len());
                stats.hot_sweeps += settled;
                settled
            } else {
                0
            };
            if states >= sweep::REPORTED_STATES {
                report(SolveEvent::Sweep {
                    layer: layer_number,
                    states,
                    sweep: sweeps,
                    change,
                    hot: if look { hot.len() } else { 0 },
                    hot_sweeps: settled,
                    seconds: started.elapsed().as_secs_f64(),
                });
            }
            if change <= self.options.tolerance {
                break;
            }
            if sweeps >= self.options.max_sweeps {
                return Err(EndgameError::NotConverged { sweeps, change });
            }
            if let Some(keeper) = keeper.as_deref_mut().filter(|keeper| keeper.due()) {
                keeper.save(stats, layer_number, values, Some(&progress))?;
                if keeper.time_is_up() {
                    return Err(keeper.stopped(layer_number));
                }
            }
        }
        Ok((progress.sweeps, progress.local))
    }

    /// Solves a layer on disk component by component, as the compiled method does: the
    /// components found from the programs in `scratch`, which are then written again in
    /// the order the components are solved. A component larger than the programs that may
    /// be copied to memory (a sixteenth of the layer) is swept from the file, its slow
    /// states swept on their own and given policy steps from copies of their programs; the
    /// others are copied to memory as the file is read, and solved there.
    fn disk_components<S: EndgameSpace>(
        &self,
        space: &S,
        layer_number: usize,
        layer: Range<usize>,
        scratch: on_disk::Scratch,
        values: &mut Vec<f64>,
        stats: &mut SolveStats,
    ) -> Result<(), EndgameError> {
        let (probabilities, report) = (self.probabilities, self.report);
        let states = scratch.states;
        let splitting = Instant::now();
        let throws = probabilities.len();
        let most_copied = (states / COPIED_SHARE).max(1);
        let name = format!("layer-{layer_number}-components");
        let split = disk_components::split(scratch, throws, most_copied, &name)?;
        let disk_components::SplitLayer {
            sorted,
            runs,
            members,
            bounds,
        } = &split;
        let largest = bounds.windows(2).map(|b| b[1] - b[0]).max().unwrap_or(0);
        stats.components += bounds.len() - 1;
        stats.largest_component = stats.largest_component.max(largest);
        report(SolveEvent::Split {
            layer: layer_number,
            components: bounds.len() - 1,
            largest,
            seconds: splitting.elapsed().as_secs_f64(),
        });
        let started = Instant::now();
        let mut local = vec![0.5; states];
        let solved = values.as_slice();
        let mut slot = Vec::new();
        let mut evaluations = 0u64;
        let mut most_sweeps = 0;
        let mut swept = |places: &[u32], sweeps: u32| {
            evaluations += u64::from(sweeps) * places.len() as u64;
            most_sweeps = most_sweeps.max(sweeps);
        };
        let mut copied = on_disk::CopiedPrograms::default();
        for run in runs {
            let section = run.section(members);
            if run.on_disk {
                let equations = on_disk::DiskEquations::new(sorted, section, most_copied);
                let places = &members[run.places.clone()];
                let solve = (&equations, places, layer_number, &mut slot);
                let sweeps = self.solve_component(solve, &mut local, solved, stats);
                if let Some(error) = equations.take_failure() {
                    return Err(error);
                }
                swept(places, sweeps?);
                continue;
            }
            // Small components, each solved once its programs are read.
            let mut component = run.components.start;
            read_programs(sorted, section, |place, words, at| {
                let (start, end) = (bounds[component], bounds[component + 1]);
                let first = *at;
                for _ in 0..throws {
                    skip(words, at);
                }
                let program = &words[first..*at];
                if end - start == 1 && !reads_itself(program, place) {
                    // Its successors in the layer are all solved: one evaluation is exact.
                    let mut from = 0;
                    local[place] =
                        right_hand_side(program, &mut from, probabilities, &local, solved);
                    swept(&members[start..end], 1);
                    component += 1;
                    return Ok(());
                }
                copied.push(place, program);
                if place != members[end - 1] as usize {
                    return Ok(());
                }
                let places = &members[start..end];
                let solve = (&copied, places, layer_number, &mut slot);
                let sweeps = self.solve_component(solve, &mut local, solved, stats)?;
                swept(places, sweeps);
                copied.clear();
                component += 1;
                Ok(())
            })?;
        }
        let seconds = started.elapsed().as_secs_f64();
        let whole = on_disk::Section {
            offset: 0,
            states,
            places: Some(members),
        };
        let residual =
            on_disk::sweep(sorted, whole, probabilities, &mut local, solved, None, None)?;
        drop(split);
        on_disk::write_back(space, layer, self.threads, &local, values)?;
        let done = Done {
            layer: layer_number,
            states,
            evaluations,
            most_sweeps,
            residual,
            seconds,
        };
        self.finish_layer(done, stats);
        Ok(())
    }

    /// Solves the component `places` of `layer` with `equations`, keeping the policy steps'
    /// `slot` from one component to the next.
    fn solve_component<E: Equations>(
        &self,
        (equations, places, layer, slot): (&E, &[u32], usize, &mut Vec<u32>),
        local: &mut [f64],
        solved: &[f64],
        stats: &mut SolveStats,
    ) -> Result<u32, EndgameError> {
        let mut solver = self.component_solver(equations, solved, layer, stats);
        solver.slot = core::mem::take(slot);
        let sweeps = solver.solve(places, local);
        *slot = core::mem::take(&mut solver.slot);
        sweeps
    }

    fn component_solver<'a, E: Equations>(
        &'a self,
        program: &'a E,
        solved: &'a [f64],
        layer: usize,
        stats: &'a mut SolveStats,
    ) -> ComponentSolver<'a, F, E> {
        ComponentSolver {
            program,
            probabilities: self.probabilities,
            solved,
            options: self.options,
            steps_wanted: self.steps_wanted,
            layer,
            report: self.report,
            started: Instant::now(),
            slot: Vec::new(),
            hot: Vec::new(),
            stats,
        }
    }

    /// Records a solved layer's figures and reports it.
    fn finish_layer(&self, done: Done, stats: &mut SolveStats) {
        // In whole layers' worth of evaluations, rounded up.
        let layer_sweeps = done.evaluations.div_ceil(done.states.max(1) as u64);
        stats.sweeps = stats
            .sweeps
            .saturating_add(u32::try_from(layer_sweeps).unwrap_or(u32::MAX));
        stats.max_component_sweeps = stats.max_component_sweeps.max(done.most_sweeps);
        // Later layers never change this layer, so its residual is final now.
        stats.residual = stats.residual.max(done.residual);
        (self.report)(SolveEvent::Solved {
            layer: done.layer,
            evaluations: done.evaluations,
            most_sweeps: done.most_sweeps,
            residual: done.residual,
            seconds: done.seconds,
        });
    }
}

/// On disk, the most states whose programs are copied to memory for the sweeps of slow
/// states and the policy steps: a sixteenth of the layer.
const COPIED_SHARE: usize = 16;

/// A layer to solve on disk, and where its progress is saved.
struct DiskLayer<'k, 'c> {
    number: usize,
    layer: Range<usize>,
    keeper: Option<&'k mut Keeper<'c>>,
}

/// A solved layer's figures.
struct Done {
    layer: usize,
    states: usize,
    evaluations: u64,
    most_sweeps: u32,
    residual: f64,
    seconds: f64,
}

impl Done {
    /// The figures of a layer swept whole `sweeps` times.
    fn whole(layer: usize, states: usize, sweeps: u32, residual: f64, seconds: f64) -> Done {
        Done {
            layer,
            states,
            evaluations: u64::from(sweeps) * states as u64,
            most_sweeps: sweeps,
            residual,
            seconds,
        }
    }
}

fn check_layers(layers: &[Range<usize>], count: usize) -> Result<(), EndgameError> {
    let mut next = 0;
    for layer in layers {
        if layer.start != next || layer.end < layer.start {
            return Err(EndgameError::Inconsistent {
                index: layer.start,
                reason: format!("layer {layer:?} does not follow on from index {next}"),
            });
        }
        next = layer.end;
    }
    if next != count {
        return Err(EndgameError::Inconsistent {
            index: next,
            reason: format!("the layers end at {next}, not at the state count {count}"),
        });
    }
    Ok(())
}
#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn layers_must_tile_the_indices() {
        assert!(check_layers(&[0..3, 3..5], 5).is_ok());
        assert!(check_layers(&[0..3, 4..5], 5).is_err());
        assert!(check_layers(&[0..2, 2..3], 5).is_err());
    }
}
