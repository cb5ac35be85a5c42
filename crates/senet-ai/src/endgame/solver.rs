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
//!    reads them from a sliding window rather than from all over the table.
//! 3. splits the layer into the *strongly connected components* of its move graph (an
//!    edge from each state to every state of the layer that any throw and move of it can
//!    lead to, whatever the decisions), with Tarjan's algorithm, which gives them in an
//!    order where every component comes after those it leads to. Most components are a
//!    single state that cannot come back to itself (Kendall's endgames with 3 pieces a
//!    side: 4.4 million components in the 8.5 million positions with 2 pieces against 3).
//! 4. solves the components in that order, so that everything a component leads to outside
//!    itself is final when it starts: a lone state by one evaluation of its right-hand
//!    side, which is then exact; any other component by sweeping it in the sorted order
//!    again and again, replacing each value by its right-hand side in place (Gauss–Seidel:
//!    each new value is used at once), until no value changes by more than the tolerance
//!    in a sweep. Successors further on are then already up to date; what takes many
//!    sweeps is the cycles through positions further back (a piece sent from 27 to the
//!    start), whose influence travels one round per sweep, and the slow cycles below,
//!    which policy steps cut short. Sweeping the components one by one rather than the
//!    whole layer spends those sweeps only where the cycles are (the idea of topological
//!    value iteration): Kendall's layer of 2 against 3 pieces took 84 sweeps of the whole
//!    layer before, and now the work of 18.
//! 5. measures the Bellman residual `max |V(s) − right-hand side(s)|` of the layer in one
//!    more pass without writing. After a sweep whose changes were all within the tolerance
//!    the residual is within it too: each update made its own equation hold exactly, and
//!    the right-hand side never magnifies the later changes of other values.
//!
//! # Slow cycles
//!
//! Some positions converge far more slowly than the rest of their component. In Kendall's
//! rules a side holding 26 and 27 (a protected pair the other side cannot pass, K-7, K-9)
//! may wait in the water for a 4 (K-14, K-16) while the other side is shuffled back and
//! forth by forced moves (K-5); it waits for a rare good moment, and the values of those
//! positions creep towards their limit by a few parts in ten thousand per sweep. Whole
//! sweeps would take tens of thousands of rounds. Where a space says it has such cycles
//! ([`EndgameSpace::slow_cycles`], see [`PolicySteps`]), the solver takes *policy steps*
//! (below); otherwise it sweeps its *hot* states on their own:
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
//! is still moving), or after 8 such sweeps: a slow cycle magnifies
//! rounding errors as much as it slows the sweeps (by `1/(1 − λ)` for a cycle left with
//! probability `1 − λ` a round), so values that stand still to the last bit are not to be
//! had there.
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
//!    sweeping them alone: in a slow cycle the hot states' sweeps stop on a small change
//!    long before the values are there (tried: values 5.9e-4 short in Kendall's endgames
//!    with 3 pieces a side);
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
//! where sweeps would creep towards it: for Kendall's endgames with 3 pieces a side, the
//! positions with up to 2 against 3 solved to tolerance 1e-9 and to 1e-12 agree to 4.4e-9.
//! A step is not repeated at once with the decisions that are best for its new values
//! (Howard's policy iteration): tried, before the components, on Kendall's endgames with 2
//! pieces a side, that reached another solution of the equations (1.6e-3 away in 900
//! positions where a side in the water could wait forever), not the one the sweeps from ½
//! reach. Measured on those endgames: policy steps to tolerance 1e-9 and to 1e-12 agree to
//! 2.3e-10 (4-byte tables), and with plain sweeps to 1e-12 to 3.7e-9, while plain sweeps to
//! 1e-9 are 3.6e-6 off: in a slow cycle the sweeps creep, and the error is theirs.
//!
//! The Bellman residual the solver records is not an error bound: in a slow cycle the
//! values can be off by much more than they change in a sweep (as the 3.6e-6 above shows
//! for plain sweeps to 1e-9), still within the precision of a 2-byte table file (7.6e-6).
//!
//! A state the space leaves out on purpose ([`EndgameSpace::passes_through`]) is compiled as
//! a chance node in place: its throws, weighted, each followed by the best play.
//!
//! Steps 1 and 2 run on [`SolveOptions::threads`] threads with `std::thread::scope`. The
//! work is cut into fixed chunks of states, each compiled on its own and put back in order,
//! so the programs do not depend on the number of threads; the components, the sweeps and
//! the policy steps are sequential. The values are therefore the same bit for bit on any
//! number of threads.

use core::ops::Range;
use std::time::Instant;

use senet_core::{Board, MoveList, Phase, Ruleset, Side, ThrowingDevice};

use super::{EndgameError, EndgameSpace, EndgameTable, MAX_MOVE_CHAIN};
use crate::player::outcome_value;

/// How precisely to solve.
#[derive(Clone, Copy, Debug)]
pub struct SolveOptions {
    /// Value iteration stops once no value changes by more than this in a sweep. The
    /// Bellman residual of the result is then at most this too.
    pub tolerance: f64,
    /// The most sweeps of one strongly connected component of a layer before giving up
    /// with [`EndgameError::NotConverged`].
    pub max_sweeps: u32,
    /// The most positions to take on; a larger space is refused with
    /// [`EndgameError::TooLarge`] before any memory is spent. The solver needs about 100
    /// bytes per position (Regency with 3 pieces a side: 9.8 million positions, 960 MB),
    /// more where the programs are longer (Kendall with 3 pieces a side: 49.1 million
    /// positions, 10.5 GB at the peak, most of it for the largest layer's programs).
    pub max_states: usize,
    /// Threads that prepare each layer (0: one per core, as
    /// `std::thread::available_parallelism` reports). The values do not depend on it.
    pub threads: usize,
    /// Called as the solve goes on (each layer compiled and split, each whole sweep of a
    /// large component, each layer done), for a program that wants to show progress or
    /// measure where the time goes.
    /// The values do not depend on it.
    pub progress: Option<fn(&SolveEvent)>,
    /// Whether to take *policy steps* between the sweeps (see the
    /// [module documentation](self#policy-steps)); without them the solver only sweeps.
    /// The stopping rule is the same either way.
    pub policy_steps: PolicySteps,
}

/// When the solver takes policy steps (see the [module documentation](self#policy-steps)).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum PolicySteps {
    /// Where the space has slow cycles ([`EndgameSpace::slow_cycles`]: Kendall's endgames).
    /// Elsewhere plain sweeps are faster: Regency's endgames with 3 pieces a side take 95
    /// layers' worth of sweeps instead of 152 with policy steps, but 80 s instead of 52 s and
    /// twice the memory.
    #[default]
    Auto,
    /// Always.
    Always,
    /// Never: plain sweeps only.
    Never,
}

/// What [`SolveOptions::progress`] is told.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum SolveEvent {
    /// A layer's right-hand sides are compiled and its sweeps are about to start.
    Compiled {
        /// The layer's place among the layers, from 0.
        layer: usize,
        /// Its positions.
        states: usize,
        /// 32-bit words of its compiled programs.
        words: usize,
        /// Seconds spent sorting and compiling it.
        seconds: f64,
    },
    /// A layer is split into the strongly connected components of its move graph (see
    /// the [module documentation](self)).
    Split {
        /// The layer's place among the layers, from 0.
        layer: usize,
        /// Its components.
        components: usize,
        /// The most positions in one of them.
        largest: usize,
        /// Seconds it took.
        seconds: f64,
    },
    /// A whole sweep of a component of at least 65,536 positions is done (and any work on
    /// its slow states after it). Smaller components are not reported: there are millions.
    Sweep {
        /// The layer's place among the layers, from 0.
        layer: usize,
        /// The component's positions.
        states: usize,
        /// Whole sweeps of this component so far.
        sweep: u32,
        /// The largest change of a value in this sweep.
        change: f64,
        /// States found converging slowly after this sweep (0 when none were looked for).
        hot: usize,
        /// Sweeps over those states alone after this sweep.
        hot_sweeps: u32,
        /// Seconds since the layer's sweeps started.
        seconds: f64,
    },
    /// A policy step in a component of at least 65,536 positions is done (see the
    /// [module documentation](self#policy-steps)).
    PolicyStep {
        /// The layer's place among the layers, from 0.
        layer: usize,
        /// Whole sweeps of the component before it.
        sweep: u32,
        /// States whose values it solved for (those still moving).
        states: usize,
        /// What it found and did.
        report: PolicyStepReport,
        /// Seconds it took.
        seconds: f64,
    },
    /// A layer is solved.
    Solved {
        /// The layer's place among the layers, from 0.
        layer: usize,
        /// Right-hand sides evaluated in its sweeps (the sweeps of slow states alone
        /// not counted).
        evaluations: u64,
        /// The most sweeps one of its components took.
        most_sweeps: u32,
        /// Its Bellman residual.
        residual: f64,
        /// Seconds spent sweeping it.
        seconds: f64,
    },
}

impl PartialEq for SolveOptions {
    fn eq(&self, other: &SolveOptions) -> bool {
        let same_progress = match (self.progress, other.progress) {
            (None, None) => true,
            (Some(a), Some(b)) => std::ptr::fn_addr_eq(a, b),
            _ => false,
        };
        self.tolerance == other.tolerance
            && self.max_sweeps == other.max_sweeps
            && self.max_states == other.max_states
            && self.threads == other.threads
            && self.policy_steps == other.policy_steps
            && same_progress
    }
}

impl SolveOptions {
    /// The number of threads [`threads`](SolveOptions::threads) stands for.
    pub fn thread_count(&self) -> usize {
        match self.threads {
            0 => std::thread::available_parallelism().map_or(1, usize::from),
            n => n,
        }
    }
}

impl Default for SolveOptions {
    /// Tolerance 1e-9, at most 100,000 sweeps per layer, at most 2^26 (67 million)
    /// positions, one thread per core.
    fn default() -> Self {
        SolveOptions {
            tolerance: 1e-9,
            max_sweeps: 100_000,
            max_states: 1 << 26,
            threads: 0,
            progress: None,
            policy_steps: PolicySteps::Auto,
        }
    }
}

/// What solving took and how precise the result is.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SolveStats {
    /// Positions solved.
    pub states: usize,
    /// Layers solved one after the other.
    pub layers: usize,
    /// The work of the sweeps in whole layers' worth: the right-hand sides evaluated in a
    /// layer divided by its positions (rounded up), summed over the layers. The sweeps of
    /// slow states alone ([`hot_sweeps`](Self::hot_sweeps)) come on top.
    pub sweeps: u32,
    /// The most sweeps one strongly connected component of a layer needed.
    pub max_component_sweeps: u32,
    /// The strongly connected components the layers split into, summed over the layers
    /// (see the [module documentation](self)).
    pub components: usize,
    /// The most positions in one of them.
    pub largest_component: usize,
    /// 32-bit words of compiled successor programs (the largest layer's).
    pub program_words: usize,
    /// The tolerance asked for.
    pub tolerance: f64,
    /// The largest Bellman residual `|V(s) − right-hand side(s)|` over all positions,
    /// measured after convergence.
    pub residual: f64,
    /// The most states of one layer swept on their own because they converged slowly (see
    /// the [module documentation](self#slow-cycles)).
    pub hot_states: usize,
    /// Sweeps over such states alone, summed over the layers.
    pub hot_sweeps: u32,
    /// Policy steps taken (see the [module documentation](self#policy-steps)), summed over
    /// the layers.
    pub policy_steps: u32,
    /// The most states of one strongly connected component a policy step solved exactly
    /// (of the equations with the decisions frozen, within a component of the layer).
    pub largest_policy_component: usize,
}

/// Whole sweeps of a component before the solver looks for states that converge slowly.
const HOT_START: u32 = 32;
/// How often (in whole sweeps) it looks again.
const HOT_EVERY: u32 = 16;
/// A state is *hot* when its value moved by more than this share of the previous sweep's
/// largest change.
const HOT_SHARE: f64 = 0.01;
/// Hot states are swept on their own only when they are at most this share of the
/// component (1/8): otherwise the whole component is converging slowly, and whole sweeps
/// are as good.
const HOT_MOST_SHARE: usize = 8;
/// Hot states are swept until their values move by less than this share of the tolerance:
/// a slow cycle moves its values little per sweep, so a small change does not yet mean a
/// small error there.
const HOT_PRECISION: f64 = 1e-3;
/// The most whole sweeps spent polishing a component (see the module documentation).
const POLISH_MOST: u32 = 8;
/// The most work spent on hot states at a time, in whole sweeps of the component.
const HOT_BUDGET: usize = 32;

const TAG_SHIFT: u32 = 29;
const PAYLOAD: u32 = (1 << TAG_SHIFT) - 1;
/// A successor in the layer being solved, by its place in the sweep order.
const LOCAL_SAME: u32 = 0;
const LOCAL_FLIP: u32 = 1 << TAG_SHIFT;
/// A successor in an earlier (solved) layer, by its index.
const FINAL_SAME: u32 = 2 << TAG_SHIFT;
const FINAL_FLIP: u32 = 3 << TAG_SHIFT;
/// A decision: the next `payload` expressions are its moves.
const MAXIMUM: u32 = 4 << TAG_SHIFT;
const MINIMUM: u32 = 5 << TAG_SHIFT;
/// A finished game: payload 0 loss, 1 draw, 2 win.
const TERMINAL: u32 = 6 << TAG_SHIFT;
/// A state compiled in place ([`EndgameSpace::passes_through`]): the next expressions are
/// its throws, one per outcome of the device, in the device's order.
const CHANCE: u32 = 7 << TAG_SHIFT;
const TERMINAL_VALUES: [f64; 3] = [0.0, 0.5, 1.0];

/// Solves every position of `space` (see the [module documentation](self)).
///
/// ```
/// use senet_ai::endgame::{RegencyEndgame, SolveOptions, solve};
/// use senet_regency::Regency;
/// let table = solve(RegencyEndgame::new(Regency::default(), 1).unwrap(), &SolveOptions::default())
///     .unwrap();
/// assert_eq!(table.stats().states, 756);
/// ```
pub fn solve<S: EndgameSpace>(
    space: S,
    options: &SolveOptions,
) -> Result<EndgameTable<S>, EndgameError> {
    let count = space.state_count();
    let limit = options.max_states.min(PAYLOAD as usize + 1);
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

    let mut values = vec![0.5; count];
    let mut stats = SolveStats {
        states: count,
        layers: layers.len(),
        tolerance: options.tolerance,
        ..SolveStats::default()
    };
    let threads = options.thread_count().max(1);
    let steps_wanted = match options.policy_steps {
        PolicySteps::Auto => space.slow_cycles(),
        PolicySteps::Always => true,
        PolicySteps::Never => false,
    };
    let report = |event: SolveEvent| {
        if let Some(progress) = options.progress {
            progress(&event);
        }
    };
    for (layer_number, layer) in layers.into_iter().enumerate() {
        let compiling = Instant::now();
        let states = layer.len();
        let program = compile_layer(&space, layer, threads)?;
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
        let mut solver = ComponentSolver {
            program: &program,
            probabilities: &probabilities,
            solved: &values,
            options,
            steps_wanted,
            layer: layer_number,
            report: &report,
            started: Instant::now(),
            slot: Vec::new(),
            hot: Vec::new(),
            stats: &mut stats,
        };
        let mut evaluations = 0u64;
        let mut most_sweeps = 0;
        for bound in bounds.windows(2) {
            let places = &mut members[bound[0]..bound[1]];
            if let [place] = *places
                && !program.leads_to_itself(place as usize)
            {
                // Its successors in the layer are all solved: one evaluation is exact.
                let place = place as usize;
                local[place] = program.right_hand_side(place, &probabilities, &local, &values);
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
        // In whole layers' worth of evaluations, rounded up.
        let layer_sweeps = evaluations.div_ceil(states.max(1) as u64);
        stats.sweeps = stats
            .sweeps
            .saturating_add(u32::try_from(layer_sweeps).unwrap_or(u32::MAX));
        stats.max_component_sweeps = stats.max_component_sweeps.max(most_sweeps);
        // Later layers never change this one, so its residual is final now.
        let residual = program.residual(&probabilities, &local, &values);
        stats.residual = stats.residual.max(residual);
        report(SolveEvent::Solved {
            layer: layer_number,
            evaluations,
            most_sweeps,
            residual,
            seconds,
        });
        for (&index, &value) in program.order.iter().zip(&local) {
            values[index as usize] = value;
        }
    }
    Ok(EndgameTable::from_parts(space, values, stats))
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

/// Components with at least this many states report their sweeps and policy steps
/// ([`SolveEvent::Sweep`], [`SolveEvent::PolicyStep`]); smaller ones are too many to.
const REPORTED_STATES: usize = 1 << 16;

/// Solves the strongly connected components of one layer, each once those it leads to are.
struct ComponentSolver<'a, F: Fn(SolveEvent)> {
    program: &'a LayerProgram,
    probabilities: &'a [f64],
    /// The values of the earlier layers.
    solved: &'a [f64],
    options: &'a SolveOptions,
    steps_wanted: bool,
    layer: usize,
    report: &'a F,
    /// When the layer's sweeps started.
    started: Instant,
    /// For policy steps: an entry per place of the layer, `u32::MAX` between steps (made
    /// at the first step).
    slot: Vec<u32>,
    /// The places of the component found still moving, reused from sweep to sweep.
    hot: Vec<u32>,
    stats: &'a mut SolveStats,
}

impl<F: Fn(SolveEvent)> ComponentSolver<'_, F> {
    /// Sweeps the component `places` (ascending) until it is within the tolerance (see the
    /// module documentation), the values it leads to outside it final. Returns its sweeps.
    fn solve(&mut self, places: &[u32], local: &mut [f64]) -> Result<u32, EndgameError> {
        let (program, probabilities, solved) = (self.program, self.probabilities, self.solved);
        let options = self.options;
        let reported = places.len() >= REPORTED_STATES;
        let mut sweeps = 0;
        let mut last_change = f64::INFINITY;
        let fine = options.tolerance * HOT_PRECISION;
        let mut polishing = false;
        let mut polished = 0;
        let mut hot = std::mem::take(&mut self.hot);
        loop {
            // Policy steps while the sweeps are not yet within the tolerance; plain sweeps
            // (and hot states) from then on, so that the stopping rule is the plain one.
            // Policy steps every few sweeps, and after every sweep while polishing: in a slow
            // cycle only a step gets the values to their limit, sweeps creep.
            let policy_step = self.steps_wanted
                && sweeps >= POLICY_START
                && (polishing || (sweeps - POLICY_START).is_multiple_of(POLICY_EVERY));
            let look =
                !policy_step && (polishing || (sweeps >= HOT_START && sweeps % HOT_EVERY == 0));
            let threshold = if polishing || policy_step {
                fine
            } else {
                last_change * HOT_SHARE
            };
            hot.clear();
            let most_hot = if policy_step {
                usize::MAX - 1
            } else {
                places.len() / if polishing { 2 } else { HOT_MOST_SHARE }
            };
            let record = (look || policy_step).then_some((threshold, most_hot, &mut hot));
            let change = program.sweep(places, probabilities, local, solved, record);
            sweeps += 1;
            if policy_step && (change > options.tolerance || polishing) && !hot.is_empty() {
                let started = Instant::now();
                if self.slot.is_empty() {
                    self.slot = vec![u32::MAX; local.len()];
                }
                let step = program.policy_step(probabilities, local, solved, &hot, &mut self.slot);
                self.stats.policy_steps += 1;
                self.stats.largest_policy_component =
                    self.stats.largest_policy_component.max(step.largest);
                if reported {
                    (self.report)(SolveEvent::PolicyStep {
                        layer: self.layer,
                        sweep: sweeps,
                        states: hot.len(),
                        report: step,
                        seconds: started.elapsed().as_secs_f64(),
                    });
                }
            }
            if sweeps >= options.max_sweeps && change > options.tolerance {
                return Err(EndgameError::NotConverged { sweeps, change });
            }
            if change <= options.tolerance && !polishing {
                // Converged to the tolerance, but in a slow cycle a small change need not be
                // a small error: one more sweep finds every state still moving at all.
                polishing = true;
                continue;
            }
            let settle = look && !hot.is_empty() && hot.len() <= most_hot;
            let settled = if settle {
                let target = if polishing {
                    fine
                } else {
                    fine.max(change * HOT_SHARE)
                };
                let budget = places
                    .len()
                    .saturating_mul(HOT_BUDGET * if polishing { 4 } else { 1 });
                program.settle(probabilities, local, solved, &hot, target, budget)
            } else {
                0
            };
            if settle {
                self.stats.hot_states = self.stats.hot_states.max(hot.len());
                self.stats.hot_sweeps += settled;
            }
            if reported {
                (self.report)(SolveEvent::Sweep {
                    layer: self.layer,
                    states: places.len(),
                    sweep: sweeps,
                    change,
                    hot: if look || settle { hot.len() } else { 0 },
                    hot_sweeps: settled,
                    seconds: self.started.elapsed().as_secs_f64(),
                });
            }
            if polishing {
                polished += 1;
            }
            // Slow cycles magnify rounding errors by as much as they slow the sweeps, so
            // the states still moving at all may never settle: polish only so long.
            let still = if policy_step {
                hot.is_empty()
            } else {
                settled <= 1
            };
            if polishing && change <= options.tolerance && (still || polished >= POLISH_MOST) {
                break;
            }
            if sweeps >= options.max_sweeps {
                // Within the tolerance, but the slow states never settled: stop all the same.
                break;
            }
            polishing = polishing && change <= options.tolerance;
            last_change = change;
        }
        self.hot = hot;
        Ok(sweeps)
    }
}

/// States per compiled chunk: small enough to spread over cores, large enough that the
/// per-chunk overhead does not matter. Every chunk but the last has exactly this many.
const CHUNK: usize = 1 << 14;

/// The compiled right-hand sides of one layer, in sweep order.
struct LayerProgram {
    /// The index of the state at each place of the sweep order.
    order: Vec<u32>,
    /// The compiled states in sweep order, [`CHUNK`] to a chunk (the last may be shorter).
    chunks: Vec<Vec<u32>>,
    /// Where each place's program starts in its chunk.
    offsets: Vec<u32>,
}

impl LayerProgram {
    /// A program from its chunks, finding where each place's program starts (`throws`
    /// expressions a state).
    #[cfg(test)]
    fn new(order: Vec<u32>, chunks: Vec<Vec<u32>>, throws: usize) -> LayerProgram {
        let offsets = chunks
            .iter()
            .enumerate()
            .flat_map(|(chunk, words)| {
                let places = (order.len() - chunk * CHUNK).min(CHUNK);
                program_offsets(words, places, throws)
            })
            .collect();
        LayerProgram {
            order,
            chunks,
            offsets,
        }
    }

    fn words(&self) -> usize {
        self.chunks.iter().map(Vec::len).sum()
    }

    /// The words of the program at `place` (and the rest of its chunk after it).
    #[inline]
    fn program(&self, place: usize) -> (&[u32], usize) {
        (&self.chunks[place / CHUNK], self.offsets[place] as usize)
    }

    /// The right-hand side of the state at `place` for the current values.
    #[inline]
    fn right_hand_side(
        &self,
        place: usize,
        probabilities: &[f64],
        local: &[f64],
        solved: &[f64],
    ) -> f64 {
        let (words, mut at) = self.program(place);
        right_hand_side(words, &mut at, probabilities, local, solved)
    }

    /// Where the program of `place` ends in its chunk.
    fn program_end(&self, place: usize) -> usize {
        let next = place + 1;
        if next.is_multiple_of(CHUNK) || next == self.offsets.len() {
            self.chunks[place / CHUNK].len()
        } else {
            self.offsets[next] as usize
        }
    }

    /// Whether the right-hand side of `place` reads its own value.
    fn leads_to_itself(&self, place: usize) -> bool {
        let (words, start) = self.program(place);
        words[start..self.program_end(place)]
            .iter()
            .any(|&word| word >> TAG_SHIFT <= 1 && (word & PAYLOAD) as usize == place)
    }

    /// One Gauss–Seidel sweep over `places` in their order: each value is replaced by its
    /// right-hand side as it is computed. Returns the largest change; with `record`, the
    /// places whose value changed by more than its threshold are appended to its list (one
    /// more than its limit at most).
    fn sweep(
        &self,
        places: &[u32],
        probabilities: &[f64],
        local: &mut [f64],
        solved: &[f64],
        mut record: Option<(f64, usize, &mut Vec<u32>)>,
    ) -> f64 {
        let mut largest: f64 = 0.0;
        for &place in places {
            let place = place as usize;
            let total = self.right_hand_side(place, probabilities, local, solved);
            let change = (total - local[place]).abs();
            largest = largest.max(change);
            if let Some((threshold, most, hot)) = &mut record
                && change > *threshold
                && hot.len() <= *most
            {
                hot.push(place as u32);
            }
            local[place] = total;
        }
        largest
    }

    /// The Bellman residual of the layer: the largest `|V(s) − right-hand side(s)|`.
    fn residual(&self, probabilities: &[f64], local: &[f64], solved: &[f64]) -> f64 {
        let mut largest: f64 = 0.0;
        for (place, &value) in local.iter().enumerate() {
            let total = self.right_hand_side(place, probabilities, local, solved);
            largest = largest.max((total - value).abs());
        }
        largest
    }

    /// Sweeps the places `hot` (ascending) on their own, the rest of the layer held fixed,
    /// until no value among them changes by more than `target` or `budget` evaluations are
    /// spent. Returns the sweeps made.
    fn settle(
        &self,
        probabilities: &[f64],
        local: &mut [f64],
        solved: &[f64],
        hot: &[u32],
        target: f64,
        budget: usize,
    ) -> u32 {
        let mut sweeps = 0;
        let mut spent = 0;
        let mut trend = Trend::new();
        while spent < budget {
            let largest = self.sweep(hot, probabilities, local, solved, None);
            sweeps += 1;
            spent += hot.len();
            if largest <= target {
                break;
            }
            if sweeps % TREND_BLOCK == 0 {
                trend.observe(hot, local);
            }
        }
        sweeps
    }
}

/// Whole sweeps of a component before the first policy step (the first sweeps change the
/// decisions a lot).
const POLICY_START: u32 = 8;
/// Whole sweeps between two policy steps.
const POLICY_EVERY: u32 = 8;
/// Components up to this many states are solved exactly (dense elimination); larger ones
/// are left to the sweeps.
const DENSE_MOST: usize = 64;
/// A component whose every row keeps at least `1 − ESCAPE` of its weight inside it is one
/// that play never leaves under the frozen decisions: its equations are singular.
const ESCAPE: f64 = 1e-12;

/// The linear equations `x_i = constant_i + Σ_j coefficient_ij · x_j` of a set of states
/// under frozen decisions, one row per state.
#[derive(Default)]
struct Rows {
    /// Where each row's terms start in `column`/`coefficient` (one more than the rows).
    start: Vec<usize>,
    column: Vec<u32>,
    coefficient: Vec<f64>,
    constant: Vec<f64>,
}

/// What a policy step found and did (see [`SolveEvent::PolicyStep`]).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct PolicyStepReport {
    /// Strongly connected components among the states it solved for.
    pub components: usize,
    /// The most states in one component.
    pub largest: usize,
    /// States left as they were (in a component that play never leaves, or too large to
    /// solve exactly).
    pub left: usize,
    /// Those of them in a component that play never leaves.
    pub singular: usize,
    /// The most states in one component left as it was.
    pub largest_left: usize,
    /// The most iterations of the iterative solver (BiCGSTAB) on one large component.
    pub krylov_iterations: usize,
    /// The largest residual it ended with, relative to the right-hand side.
    pub krylov_residual: f64,
    /// The largest Bellman residual of the states after the step.
    pub residual: f64,
}

impl LayerProgram {
    /// One policy step on the places `hot` (ascending): freezes every decision of their
    /// right-hand sides at the move that is best for the current values, and solves the
    /// linear equations that are left for their values, the rest of the layer held fixed.
    /// `slot` has an entry per place of the layer, all `u32::MAX`, and is left so.
    fn policy_step(
        &self,
        probabilities: &[f64],
        local: &mut [f64],
        solved: &[f64],
        hot: &[u32],
        slot: &mut [u32],
    ) -> PolicyStepReport {
        let mut report = PolicyStepReport::default();
        self.solve_frozen(probabilities, local, solved, hot, slot, &mut report);
        // Not repeated with the decisions that are best for the new values (Howard's policy
        // iteration): in Kendall's endgames that led to another solution of the equations,
        // in which an endless cycle kept values other than a draw's.
        report.residual = self.residual_at(probabilities, local, solved, hot);
        report
    }

    /// The largest `|V(s) − right-hand side(s)|` over the places of `starts`.
    fn residual_at(
        &self,
        probabilities: &[f64],
        local: &[f64],
        solved: &[f64],
        places: &[u32],
    ) -> f64 {
        let mut largest: f64 = 0.0;
        for &place in places {
            let place = place as usize;
            let total = self.right_hand_side(place, probabilities, local, solved);
            largest = largest.max((total - local[place]).abs());
        }
        largest
    }

    /// Freezes every decision of the right-hand sides of the places `hot` at the move that
    /// is best for the current values, and solves the linear equations that are left
    /// (`slot` as for [`policy_step`](Self::policy_step)).
    fn solve_frozen(
        &self,
        probabilities: &[f64],
        local: &mut [f64],
        solved: &[f64],
        hot: &[u32],
        slot: &mut [u32],
        report: &mut PolicyStepReport,
    ) {
        for (i, &place) in hot.iter().enumerate() {
            slot[place as usize] = i as u32;
        }
        let mut rows = Rows::default();
        rows.start.push(0);
        let mut terms: Vec<(u32, f64)> = Vec::new();
        for &place in hot {
            terms.clear();
            let mut constant = 0.0;
            let (words, mut at) = self.program(place as usize);
            let linear = Linear {
                words,
                probabilities,
                local,
                solved,
                slot,
            };
            for &p in probabilities {
                linear.expression(&mut at, p, &mut terms, &mut constant);
            }
            terms.sort_unstable_by_key(|&(column, _)| column);
            let mut last = u32::MAX;
            for &(column, coefficient) in &terms {
                if column == last {
                    *rows.coefficient.last_mut().expect("a term was pushed") += coefficient;
                } else {
                    rows.column.push(column);
                    rows.coefficient.push(coefficient);
                    last = column;
                }
            }
            rows.constant.push(constant);
            rows.start.push(rows.column.len());
        }
        // The slots go back to unused for the next step.
        for &place in hot {
            slot[place as usize] = u32::MAX;
        }
        let (members, bounds) = components(&rows);
        let mut x: Vec<f64> = hot.iter().map(|&place| local[place as usize]).collect();
        let mut position = vec![u32::MAX; hot.len()];
        report.components = bounds.len() - 1;
        report.left = 0;
        report.singular = 0;
        report.largest_left = 0;
        let mut matrix = Vec::new();
        let mut right = Vec::new();
        let mut sparse = Rows::default();
        for bound in bounds.windows(2) {
            let component = &members[bound[0]..bound[1]];
            let n = component.len();
            for (k, &i) in component.iter().enumerate() {
                position[i as usize] = k as u32;
            }
            // Right-hand sides with everything outside the component (solved already, or
            // held fixed) moved into the constants; I − A inside, as dense rows for a small
            // component, as sparse rows for a large one.
            let mut escapes = false;
            let dense = n <= DENSE_MOST;
            matrix.clear();
            if dense {
                matrix.resize(n * n, 0.0);
                for k in 0..n {
                    matrix[k * n + k] = 1.0;
                }
            } else {
                sparse.start.clear();
                sparse.start.push(0);
                sparse.column.clear();
                sparse.coefficient.clear();
            }
            right.clear();
            for (k, &i) in component.iter().enumerate() {
                let i = i as usize;
                let mut b = rows.constant[i];
                let mut inside = 0.0;
                for t in rows.start[i]..rows.start[i + 1] {
                    let j = rows.column[t] as usize;
                    let a = rows.coefficient[t];
                    let at = position[j];
                    if at == u32::MAX {
                        b += a * x[j];
                    } else {
                        inside += a.abs();
                        if dense {
                            matrix[k * n + at as usize] -= a;
                        } else {
                            sparse.column.push(at);
                            sparse.coefficient.push(a);
                        }
                    }
                }
                escapes |= inside < 1.0 - ESCAPE;
                right.push(b);
                if !dense {
                    sparse.start.push(sparse.column.len());
                }
            }
            let solution = if !escapes {
                None
            } else if dense {
                solve_dense(&mut matrix, &mut right, n)
            } else {
                let guess: Vec<f64> = component.iter().map(|&i| x[i as usize]).collect();
                let solved = solve_sparse(&sparse, &right, guess);
                report.krylov_iterations = report.krylov_iterations.max(solved.iterations);
                report.krylov_residual = report.krylov_residual.max(solved.residual);
                solved.x
            };
            match solution {
                Some(values) => {
                    report.largest = report.largest.max(n);
                    for (&i, v) in component.iter().zip(values) {
                        x[i as usize] = v.clamp(0.0, 1.0);
                    }
                }
                None => {
                    report.left += n;
                    report.largest_left = report.largest_left.max(n);
                    if !escapes {
                        report.singular += n;
                    }
                }
            }
            for &i in component {
                position[i as usize] = u32::MAX;
            }
        }
        for (&place, &value) in hot.iter().zip(&x) {
            local[place as usize] = value;
        }
    }
}

/// Reads a right-hand side as a linear expression in the values of the states being
/// solved for, the decisions frozen at the best move for the current values.
struct Linear<'a> {
    words: &'a [u32],
    probabilities: &'a [f64],
    local: &'a [f64],
    solved: &'a [f64],
    /// Each place's row among the states solved for, or `u32::MAX`.
    slot: &'a [u32],
}

impl Linear<'_> {
    /// Adds `scale` times the expression at `words[*at]` to `terms` and `constant`, moving
    /// `at` past it.
    fn expression(
        &self,
        at: &mut usize,
        scale: f64,
        terms: &mut Vec<(u32, f64)>,
        constant: &mut f64,
    ) {
        let word = self.words[*at];
        *at += 1;
        let payload = (word & PAYLOAD) as usize;
        match word >> TAG_SHIFT {
            0 => match self.slot[payload] {
                u32::MAX => *constant += scale * self.local[payload],
                row => terms.push((row, scale)),
            },
            1 => match self.slot[payload] {
                u32::MAX => *constant += scale * (1.0 - self.local[payload]),
                row => {
                    *constant += scale;
                    terms.push((row, -scale));
                }
            },
            2 => *constant += scale * self.solved[payload],
            3 => *constant += scale * (1.0 - self.solved[payload]),
            6 => *constant += scale * TERMINAL_VALUES[payload.min(2)],
            tag @ (4 | 5) => {
                // The first best move, as the sweeps' max/min would see it.
                let mut probe = *at;
                let mut best = 0;
                let mut best_value = evaluate(
                    self.words,
                    &mut probe,
                    self.probabilities,
                    self.local,
                    self.solved,
                );
                for k in 1..payload {
                    let v = evaluate(
                        self.words,
                        &mut probe,
                        self.probabilities,
                        self.local,
                        self.solved,
                    );
                    if (tag == 4 && v > best_value) || (tag == 5 && v < best_value) {
                        best = k;
                        best_value = v;
                    }
                }
                for k in 0..payload {
                    if k == best {
                        self.expression(at, scale, terms, constant);
                    } else {
                        skip(self.words, at);
                    }
                }
            }
            _ => {
                for &p in self.probabilities {
                    self.expression(at, scale * p, terms, constant);
                }
            }
        }
    }
}

/// A directed graph on the nodes `0..nodes()`, its edges read in place.
trait Graph {
    fn nodes(&self) -> usize;
    /// The slots that may hold the edges out of `node`.
    fn slots(&self, node: usize) -> Range<usize>;
    /// The node the edge in `slot` leads to, if the slot holds an edge.
    fn target(&self, node: usize, slot: usize) -> Option<usize>;
}

/// An edge `i → j` for each term of row `i`.
impl Graph for Rows {
    fn nodes(&self) -> usize {
        self.constant.len()
    }

    fn slots(&self, node: usize) -> Range<usize> {
        self.start[node]..self.start[node + 1]
    }

    #[inline]
    fn target(&self, _: usize, slot: usize) -> Option<usize> {
        Some(self.column[slot] as usize)
    }
}

/// An edge from each place to each place of the layer its right-hand side reads, whatever
/// the decisions: the words of the place's program that name a successor in the layer.
impl Graph for LayerProgram {
    fn nodes(&self) -> usize {
        self.order.len()
    }

    fn slots(&self, node: usize) -> Range<usize> {
        self.offsets[node] as usize..self.program_end(node)
    }

    #[inline]
    fn target(&self, node: usize, slot: usize) -> Option<usize> {
        let word = self.chunks[node / CHUNK][slot];
        (word >> TAG_SHIFT <= 1).then_some((word & PAYLOAD) as usize)
    }
}

/// The strongly connected components of `graph` (Tarjan's algorithm, without recursion).
/// Returns the nodes component by component and where each component starts (and the
/// end); every component comes after all those its nodes have edges to.
fn components<G: Graph>(graph: &G) -> (Vec<u32>, Vec<usize>) {
    const NONE: u32 = u32::MAX;
    let n = graph.nodes();
    let mut index = vec![NONE; n];
    let mut low = vec![0u32; n];
    let mut on_stack = vec![false; n];
    let mut stack: Vec<u32> = Vec::new();
    let mut members = Vec::with_capacity(n);
    let mut bounds = vec![0];
    // (node, its next slot, the end of its slots)
    let mut calls: Vec<(u32, usize, usize)> = Vec::new();
    let mut counter = 0u32;
    for root in 0..n {
        if index[root] != NONE {
            continue;
        }
        // The node to visit next, if any: the root first, then each new node reached.
        let mut entering = Some(root);
        loop {
            if let Some(w) = entering.take() {
                index[w] = counter;
                low[w] = counter;
                counter += 1;
                stack.push(w as u32);
                on_stack[w] = true;
                let slots = graph.slots(w);
                calls.push((w as u32, slots.start, slots.end));
            }
            let Some(&(v, next, end)) = calls.last() else {
                break;
            };
            let v = v as usize;
            if next < end {
                calls.last_mut().expect("not empty").1 = next + 1;
                let Some(w) = graph.target(v, next) else {
                    continue;
                };
                if index[w] == NONE {
                    entering = Some(w);
                } else if on_stack[w] {
                    low[v] = low[v].min(index[w]);
                }
            } else {
                calls.pop();
                if let Some(&(u, _, _)) = calls.last() {
                    low[u as usize] = low[u as usize].min(low[v]);
                }
                if low[v] == index[v] {
                    while let Some(w) = stack.pop() {
                        on_stack[w as usize] = false;
                        members.push(w);
                        if w as usize == v {
                            break;
                        }
                    }
                    bounds.push(members.len());
                }
            }
        }
    }
    (members, bounds)
}

/// The most iterations of [`solve_sparse`].
const KRYLOV_MOST: usize = 2000;
/// [`solve_sparse`] stops when the residual's 2-norm is this small against the right-hand
/// side's.
const KRYLOV_PRECISION: f64 = 1e-14;

/// `y = (I − A) · x` for the rows `a` (their constants unused).
fn multiply(a: &Rows, x: &[f64], y: &mut [f64]) {
    for (k, out) in y.iter_mut().enumerate() {
        let mut v = x[k];
        for t in a.start[k]..a.start[k + 1] {
            v -= a.coefficient[t] * x[a.column[t] as usize];
        }
        *out = v;
    }
}

/// What [`solve_sparse`] found.
struct Krylov {
    /// The solution, or `None` when it ended no better than the guess.
    x: Option<Vec<f64>>,
    iterations: usize,
    /// The residual's 2-norm relative to the right-hand side's.
    residual: f64,
}

/// Solves `(I − A) · x = b` for the rows `a` by BiCGSTAB (van der Vorst's stabilised
/// biconjugate gradients) from the guess `x`.
fn solve_sparse(a: &Rows, b: &[f64], mut x: Vec<f64>) -> Krylov {
    let n = b.len();
    let norm = |v: &[f64]| dot(v, v).sqrt();
    let mut r = vec![0.0; n];
    multiply(a, &x, &mut r);
    for (r, &b) in r.iter_mut().zip(b) {
        *r = b - *r;
    }
    let first = norm(&r);
    let scale = norm(b).max(f64::MIN_POSITIVE);
    let goal = KRYLOV_PRECISION * scale;
    if first <= goal {
        return Krylov {
            x: Some(x),
            iterations: 0,
            residual: first / scale,
        };
    }
    let shadow = r.clone();
    let (mut rho, mut alpha, mut omega) = (1.0, 1.0, 1.0);
    let mut v = vec![0.0; n];
    let mut p = vec![0.0; n];
    let mut s = vec![0.0; n];
    let mut t = vec![0.0; n];
    let mut best = (first, x.clone());
    let mut iterations = 0;
    for _ in 0..KRYLOV_MOST {
        iterations += 1;
        let rho_next = dot(&shadow, &r);
        if rho_next == 0.0 || omega == 0.0 {
            break;
        }
        let beta = (rho_next / rho) * (alpha / omega);
        for k in 0..n {
            p[k] = r[k] + beta * (p[k] - omega * v[k]);
        }
        multiply(a, &p, &mut v);
        let along = dot(&shadow, &v);
        if along == 0.0 {
            break;
        }
        alpha = rho_next / along;
        for k in 0..n {
            s[k] = r[k] - alpha * v[k];
        }
        multiply(a, &s, &mut t);
        let tt = dot(&t, &t);
        omega = if tt > 0.0 { dot(&t, &s) / tt } else { 0.0 };
        for k in 0..n {
            x[k] += alpha * p[k] + omega * s[k];
            r[k] = s[k] - omega * t[k];
        }
        rho = rho_next;
        let size = norm(&r);
        if !size.is_finite() {
            break;
        }
        if size < best.0 {
            best = (size, x.clone());
        }
        if size <= goal {
            break;
        }
    }
    let (size, x) = best;
    Krylov {
        x: (size < first && x.iter().all(|v| v.is_finite())).then_some(x),
        iterations,
        residual: size / scale,
    }
}

fn dot(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

/// Solves the `n × n` system `a · x = b` by Gaussian elimination with partial pivoting;
/// `None` if it is singular to working precision.
fn solve_dense(a: &mut [f64], b: &mut [f64], n: usize) -> Option<Vec<f64>> {
    for col in 0..n {
        let pivot = (col..n)
            .max_by(|&i, &j| a[i * n + col].abs().total_cmp(&a[j * n + col].abs()))
            .expect("col < n");
        if a[pivot * n + col].abs() < 1e-13 {
            return None;
        }
        if pivot != col {
            for k in 0..n {
                a.swap(pivot * n + k, col * n + k);
            }
            b.swap(pivot, col);
        }
        let diagonal = a[col * n + col];
        for row in col + 1..n {
            let factor = a[row * n + col] / diagonal;
            if factor != 0.0 {
                for k in col..n {
                    a[row * n + k] -= factor * a[col * n + k];
                }
                b[row] -= factor * b[col];
            }
        }
    }
    let mut x = vec![0.0; n];
    for row in (0..n).rev() {
        let mut v = b[row];
        for k in row + 1..n {
            v -= a[row * n + k] * x[k];
        }
        x[row] = v / a[row * n + row];
    }
    x.iter().all(|v| v.is_finite()).then_some(x)
}

/// Sweeps between two looks at how the hot values move.
const TREND_BLOCK: u32 = 64;
/// How far a value is moved towards the limit its trend points to (the rest is left to the
/// sweeps, so that an estimate a little off never carries a value past its limit).
const TREND_DAMPING: f64 = 0.5;

/// Follows the values of hot states from block to block of [`TREND_BLOCK`] sweeps and moves
/// each one ahead where it converges geometrically.
///
/// In a slow cycle the values approach their limit like `V∞ − c·λⁿ` with `λ` close to 1
/// (a side waiting, by passing, for a configuration that comes up once in thousands of
/// turns). When the differences between a value at successive block ends shrink by a steady
/// ratio `q`, the remaining distance is `d·q/(1 − q)` with `d` the last difference (Aitken's
/// extrapolation), and the value is moved by [`TREND_DAMPING`] of it. A value moved past its
/// limit might never come back (in a cycle where one side passes, any higher value is in
/// balance too), so a value moves only when its last two ratios agree to within 1% of
/// `1 − q`, and only part of the way.
struct Trend {
    /// The hot values at the last block ends, oldest first (at most four).
    seen: Vec<Vec<f64>>,
}

impl Trend {
    fn new() -> Trend {
        Trend { seen: Vec::new() }
    }

    /// Records the hot values at a block end, and moves those with a steady trend.
    fn observe(&mut self, places: &[u32], local: &mut [f64]) {
        self.seen
            .push(places.iter().map(|&place| local[place as usize]).collect());
        if self.seen.len() < 4 {
            return;
        }
        if self.seen.len() > 4 {
            self.seen.remove(0);
        }
        let mut moved = false;
        for (i, &place) in places.iter().enumerate() {
            let place = place as usize;
            let v = [
                self.seen[0][i],
                self.seen[1][i],
                self.seen[2][i],
                self.seen[3][i],
            ];
            let d = [v[1] - v[0], v[2] - v[1], v[3] - v[2]];
            let same_sign = d.iter().all(|x| *x > 0.0) || d.iter().all(|x| *x < 0.0);
            if !same_sign {
                continue;
            }
            let (q1, q2) = (d[1] / d[0], d[2] / d[1]);
            if !(0.0..1.0).contains(&q2) || (q2 - q1).abs() > 0.01 * (1.0 - q2) {
                continue;
            }
            let ahead = TREND_DAMPING * d[2] * q2 / (1.0 - q2);
            local[place] = (v[3] + ahead).clamp(0.0, 1.0);
            moved = true;
        }
        if moved {
            // The moved values start a new trend.
            self.seen.clear();
        }
    }
}

/// The right-hand side of the state whose program starts at `words[*at]`: its throws,
/// weighted. Moves `at` past it.
#[inline]
fn right_hand_side(
    words: &[u32],
    at: &mut usize,
    probabilities: &[f64],
    local: &[f64],
    solved: &[f64],
) -> f64 {
    let mut total = 0.0;
    for &p in probabilities {
        total += p * evaluate(words, at, probabilities, local, solved);
    }
    total
}

/// Where each of the first `places` programs of `words` starts (`throws` expressions a
/// program).
#[cfg(test)]
fn program_offsets(words: &[u32], places: usize, throws: usize) -> Vec<u32> {
    let mut at = 0;
    (0..places)
        .map(|_| {
            let start = at as u32;
            for _ in 0..throws {
                skip(words, &mut at);
            }
            start
        })
        .collect()
}

/// Moves `at` past the expression starting at `words[*at]` without evaluating it.
fn skip(words: &[u32], at: &mut usize) {
    let word = words[*at];
    *at += 1;
    if matches!(word >> TAG_SHIFT, 4 | 5 | 7) {
        for _ in 0..word & PAYLOAD {
            skip(words, at);
        }
    }
}

/// Evaluates the expression starting at `words[*at]`, moving `at` past it.
///
/// Leaves (successors and finished games) are read here, inline; decisions and chance nodes
/// go to [`evaluate_node`], which calls back for their children.
#[inline(always)]
fn evaluate(
    words: &[u32],
    at: &mut usize,
    probabilities: &[f64],
    local: &[f64],
    solved: &[f64],
) -> f64 {
    let word = words[*at];
    *at += 1;
    let payload = (word & PAYLOAD) as usize;
    let tag = word >> TAG_SHIFT;
    if tag <= 3 {
        // A successor: in this layer or an earlier one, for this side or the other. Chosen
        // by selects rather than a jump, which the kinds of successors, mixed at random,
        // would keep mispredicting.
        let values = if tag <= 1 { local } else { solved };
        let value = values[payload];
        return if tag & 1 == 0 { value } else { 1.0 - value };
    }
    match tag {
        6 => TERMINAL_VALUES[payload.min(2)],
        tag => evaluate_node(tag, payload, words, at, probabilities, local, solved),
    }
}

/// A decision (`tag` 4 or 5, `payload` moves) or a chance node (`tag` 7).
#[inline(never)]
fn evaluate_node(
    tag: u32,
    payload: usize,
    words: &[u32],
    at: &mut usize,
    probabilities: &[f64],
    local: &[f64],
    solved: &[f64],
) -> f64 {
    match tag {
        4 => {
            let mut best = evaluate(words, at, probabilities, local, solved);
            for _ in 1..payload {
                best = best.max(evaluate(words, at, probabilities, local, solved));
            }
            best
        }
        5 => {
            let mut best = evaluate(words, at, probabilities, local, solved);
            for _ in 1..payload {
                best = best.min(evaluate(words, at, probabilities, local, solved));
            }
            best
        }
        _ => {
            let mut total = 0.0;
            for &p in probabilities {
                total += p * evaluate(words, at, probabilities, local, solved);
            }
            total
        }
    }
}

/// How far play has got: the sum of every piece's square, pieces off counting 31. Forward
/// moves raise it; swaps keep it; returns to the start lower it.
fn progress<R: Ruleset>(rules: &R, state: &R::State) -> u32 {
    let board = rules.board(state);
    Side::BOTH
        .iter()
        .map(|&side| {
            let squares: u32 = board
                .pieces(side)
                .iter()
                .map(|sq| u32::from(sq.get()))
                .sum();
            squares + 31 * u32::from(board.off(side))
        })
        .sum()
}

fn compile_layer<S: EndgameSpace>(
    space: &S,
    layer: Range<usize>,
    threads: usize,
) -> Result<LayerProgram, EndgameError> {
    // Sweep order: most progress first, index order among equals.
    let starts: Vec<usize> = layer.clone().step_by(CHUNK).collect();
    let keyed_chunks = in_chunks(&starts, threads, |start| {
        (start..(start + CHUNK).min(layer.end))
            .map(|index| {
                let state = state_at(space, index)?;
                Ok((u32::MAX - progress(space.rules(), &state), index as u32))
            })
            .collect::<Result<Vec<(u32, u32)>, EndgameError>>()
    })?;
    let mut keyed: Vec<(u32, u32)> = keyed_chunks.into_iter().flatten().collect();
    keyed.sort_unstable();
    let mut place_of = vec![0u32; layer.len()];
    for (place, &(_, index)) in keyed.iter().enumerate() {
        place_of[index as usize - layer.start] = place as u32;
    }
    let order: Vec<u32> = keyed.into_iter().map(|(_, index)| index).collect();
    let context = Context {
        space,
        layer,
        place_of: &place_of,
        order: &order,
    };
    let firsts: Vec<usize> = (0..order.len()).step_by(CHUNK).collect();
    let compiled = in_chunks(&firsts, threads, |first| compile_chunk(&context, first))?;
    let mut offsets = Vec::with_capacity(order.len());
    let mut chunks = Vec::with_capacity(compiled.len());
    for (words, starts) in compiled {
        offsets.extend_from_slice(&starts);
        chunks.push(words);
    }
    Ok(LayerProgram {
        order,
        chunks,
        offsets,
    })
}

/// Runs `work` on every item of `items` on up to `threads` threads and returns the results in
/// the order of `items` (the first error, in that order, if any fails). Thread `t` takes the
/// items `t`, `t + threads`, …: the items are the fixed split of the work, and each result
/// depends on its item only, so the results are the same for any number of threads.
fn in_chunks<T, W>(items: &[usize], threads: usize, work: W) -> Result<Vec<T>, EndgameError>
where
    T: Send,
    W: Fn(usize) -> Result<T, EndgameError> + Sync,
{
    let threads = threads.clamp(1, items.len().max(1));
    if threads == 1 {
        return items.iter().map(|&item| work(item)).collect();
    }
    let mut results: Vec<(usize, Result<T, EndgameError>)> = std::thread::scope(|scope| {
        let work = &work;
        let handles: Vec<_> = (0..threads)
            .map(|t| {
                scope.spawn(move || {
                    (t..items.len())
                        .step_by(threads)
                        .map(|i| (i, work(items[i])))
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        handles
            .into_iter()
            // A panic in the work is a bug; pass it on rather than hide it.
            .flat_map(|h| h.join().unwrap_or_else(|p| std::panic::resume_unwind(p)))
            .collect()
    });
    results.sort_unstable_by_key(|&(i, _)| i);
    results.into_iter().map(|(_, result)| result).collect()
}

/// What compiling a state needs to know about its layer.
struct Context<'a, S> {
    space: &'a S,
    layer: Range<usize>,
    /// The place in the sweep order of each index of the layer (offset by the layer start).
    place_of: &'a [u32],
    /// The index at each place.
    order: &'a [u32],
}

/// A chunk's words, and where each of its states' programs starts among them.
type Compiled = (Vec<u32>, Vec<u32>);

/// Compiles the states at places `first..first + CHUNK`.
fn compile_chunk<S: EndgameSpace>(
    context: &Context<'_, S>,
    first: usize,
) -> Result<Compiled, EndgameError> {
    let space = context.space;
    let rules = space.rules();
    let device = rules.device();
    let places = first..(first + CHUNK).min(context.order.len());
    let mut words = Vec::with_capacity(places.len() * 12);
    let mut offsets = Vec::with_capacity(places.len());
    let mut compiler = Compiler {
        context,
        words: &mut words,
        moves: Vec::new(),
    };
    for &index in &context.order[places] {
        offsets.push(compiler.words.len() as u32);
        let index = index as usize;
        let state = state_at(space, index)?;
        if space.index(&state) != Some(index) {
            return Err(EndgameError::Inconsistent {
                index,
                reason: format!(
                    "the state {} indexes as {:?}",
                    rules.position_string(&state),
                    space.index(&state)
                ),
            });
        }
        let Phase::Throw(side) = rules.phase(&state) else {
            return Err(EndgameError::Inconsistent {
                index,
                reason: format!(
                    "the state {} does not wait for a throw",
                    rules.position_string(&state)
                ),
            });
        };
        for outcome in device.outcomes() {
            let mut next = state;
            rules.throw_unchecked(&mut next, outcome.value);
            compiler.expression(&next, side, index, 0)?;
        }
    }
    Ok((words, offsets))
}

fn state_at<S: EndgameSpace>(
    space: &S,
    index: usize,
) -> Result<<S::Rules as Ruleset>::State, EndgameError> {
    space
        .state(index)
        .ok_or_else(|| EndgameError::Inconsistent {
            index,
            reason: "no state for this index".to_string(),
        })
}

struct Compiler<'a, 'c, S: EndgameSpace> {
    context: &'a Context<'c, S>,
    words: &'a mut Vec<u32>,
    /// One move list per level of moves in a row, reused from state to state.
    moves: Vec<MoveList>,
}

impl<S: EndgameSpace> Compiler<'_, '_, S> {
    /// Appends the expression for the value of `state` to `side`.
    fn expression(
        &mut self,
        state: &<S::Rules as Ruleset>::State,
        side: Side,
        from: usize,
        depth: usize,
    ) -> Result<(), EndgameError> {
        let space = self.context.space;
        let rules = space.rules();
        match rules.phase(state) {
            Phase::Over(outcome) => {
                let value = outcome_value(&outcome, side);
                self.words.push(TERMINAL | (value * 2.0) as u32);
            }
            Phase::Throw(to_act) => {
                let Some(index) = space.index(state) else {
                    if !space.passes_through(state) {
                        return Err(EndgameError::NotClosed {
                            position: rules.position_string(state),
                        });
                    }
                    if depth >= MAX_MOVE_CHAIN {
                        return Err(EndgameError::TooManyMoves(
                            MAX_MOVE_CHAIN,
                            rules.position_string(state),
                        ));
                    }
                    // Compiled in place: a chance node over the device's outcomes.
                    self.words
                        .push(CHANCE | rules.device().outcomes().len() as u32);
                    for outcome in rules.device().outcomes() {
                        let mut next = *state;
                        rules.throw_unchecked(&mut next, outcome.value);
                        self.expression(&next, side, from, depth + 1)?;
                    }
                    return Ok(());
                };
                let layer = &self.context.layer;
                let flip = to_act != side;
                let word = if index >= layer.end {
                    return Err(EndgameError::LayerOrder { from, to: index });
                } else if index >= layer.start {
                    let place = self.context.place_of[index - layer.start];
                    (if flip { LOCAL_FLIP } else { LOCAL_SAME }) | place
                } else {
                    (if flip { FINAL_FLIP } else { FINAL_SAME }) | index as u32
                };
                self.words.push(word);
            }
            Phase::Move(mover) => {
                if depth >= MAX_MOVE_CHAIN {
                    return Err(EndgameError::TooManyMoves(
                        MAX_MOVE_CHAIN,
                        rules.position_string(state),
                    ));
                }
                while self.moves.len() <= depth {
                    self.moves.push(MoveList::new());
                }
                rules.generate_moves(state, &mut self.moves[depth]);
                let count = self.moves[depth].len();
                if count == 0 {
                    return Err(EndgameError::Inconsistent {
                        index: from,
                        reason: format!(
                            "no legal move, not even a pass, in {}",
                            rules.position_string(state)
                        ),
                    });
                }
                if count > 1 {
                    let tag = if mover == side { MAXIMUM } else { MINIMUM };
                    self.words.push(tag | count as u32);
                }
                for i in 0..count {
                    let mv = self.moves[depth][i];
                    let mut next = *state;
                    rules.play_unchecked(&mut next, mv);
                    self.expression(&next, side, from, depth + 1)?;
                }
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn expressions_evaluate_in_prefix_order() {
        // max(local 0, min(1 − solved 1, win)) and a draw.
        let words = [
            MAXIMUM | 2,
            LOCAL_SAME,
            MINIMUM | 2,
            FINAL_FLIP | 1,
            TERMINAL | 2,
            TERMINAL | 1,
        ];
        let local = [0.25];
        let solved = [0.9, 0.4];
        let p = [0.25, 0.75];
        let mut at = 0;
        assert_eq!(evaluate(&words, &mut at, &p, &local, &solved), 0.6);
        assert_eq!(at, 5);
        assert_eq!(evaluate(&words, &mut at, &p, &local, &solved), 0.5);
        let mut at = 0;
        assert_eq!(
            evaluate(&[LOCAL_FLIP, FINAL_SAME], &mut at, &p, &local, &solved),
            0.75
        );
        assert_eq!(
            evaluate(&[LOCAL_FLIP, FINAL_SAME], &mut at, &p, &local, &solved),
            0.9
        );
    }

    #[test]
    fn chance_nodes_weigh_their_outcomes() {
        // A state compiled in place: ¼ · win + ¾ · (1 − local 0), then a loss.
        let words = [CHANCE | 2, TERMINAL | 2, LOCAL_FLIP, TERMINAL];
        let mut at = 0;
        let value = evaluate(&words, &mut at, &[0.25, 0.75], &[0.6], &[]);
        assert!((value - (0.25 + 0.75 * 0.4)).abs() < 1e-15);
        assert_eq!(at, 3);
        assert_eq!(evaluate(&words, &mut at, &[0.25, 0.75], &[0.6], &[]), 0.0);
    }

    #[test]
    fn work_split_over_threads_comes_back_in_order() {
        let items: Vec<usize> = (0..37).collect();
        for threads in [1, 2, 3, 8, 100] {
            let out = in_chunks(&items, threads, |i| Ok(i * i)).unwrap();
            assert_eq!(out, items.iter().map(|i| i * i).collect::<Vec<_>>());
        }
        // The first failure in item order is the one reported, whatever the threads.
        for threads in [1, 2, 5] {
            let failed = in_chunks(&items, threads, |i| {
                if i % 10 == 7 {
                    Err(EndgameError::Inconsistent {
                        index: i,
                        reason: String::new(),
                    })
                } else {
                    Ok(i)
                }
            });
            assert!(matches!(
                failed,
                Err(EndgameError::Inconsistent { index: 7, .. })
            ));
        }
        assert!(in_chunks(&[], 4, Ok).unwrap().is_empty());
    }

    #[test]
    fn a_sweep_uses_new_values_at_once() {
        // Place 0 wins at once; place 1 passes the turn to place 0 (the other side).
        let program = LayerProgram::new(vec![7, 8], vec![vec![TERMINAL | 2, LOCAL_FLIP]], 1);
        let mut local = vec![0.5, 0.5];
        let mut hot = Vec::new();
        let change = program.sweep(&[0, 1], &[1.0], &mut local, &[], Some((0.1, 5, &mut hot)));
        assert_eq!(change, 0.5);
        assert_eq!(local, [1.0, 0.0]);
        assert_eq!(hot, [0, 1]);
        assert_eq!(program.residual(&[1.0], &local, &[]), 0.0);
    }

    #[test]
    fn skipping_an_expression_lands_where_evaluating_it_does() {
        let words = [
            MAXIMUM | 2,
            CHANCE | 2,
            LOCAL_SAME,
            TERMINAL,
            MINIMUM | 3,
            FINAL_FLIP,
            LOCAL_FLIP,
            TERMINAL | 1,
            TERMINAL | 2,
        ];
        let (mut a, mut b) = (0, 0);
        evaluate(&words, &mut a, &[0.5, 0.5], &[0.3], &[0.2]);
        skip(&words, &mut b);
        assert_eq!((a, b), (8, 8));
        skip(&words, &mut b);
        assert_eq!(b, 9);
    }

    #[test]
    fn settling_hot_states_sweeps_only_them() {
        // Place 0: ½ · win + ½ · itself (converges slowly towards 1); place 1: itself flipped
        // (untouched when not hot); place 2: a draw.
        let program = LayerProgram::new(
            vec![0, 1, 2],
            vec![vec![
                TERMINAL | 2,
                LOCAL_SAME,
                LOCAL_FLIP | 1,
                LOCAL_FLIP | 1,
                TERMINAL | 1,
                TERMINAL | 1,
            ]],
            2,
        );
        let mut local = vec![0.5, 0.25, 0.5];
        let sweeps = program.settle(&[0.5, 0.5], &mut local, &[], &[0, 2], 1e-12, 1000);
        assert!((local[0] - 1.0).abs() < 1e-11, "{local:?}");
        assert_eq!(local[1], 0.25);
        assert_eq!(local[2], 0.5);
        assert!(sweeps > 30 && sweeps < 50, "{sweeps}");
        // The budget stops it.
        let mut local = vec![0.5, 0.25, 0.5];
        assert_eq!(
            program.settle(&[0.5, 0.5], &mut local, &[], &[0], 0.0, 10),
            10
        );
    }

    /// The components of `graph`, in the order found, each as a sorted set.
    fn component_sets<G: Graph>(graph: &G) -> Vec<Vec<u32>> {
        let (members, bounds) = components(graph);
        bounds
            .windows(2)
            .map(|b| {
                let mut c = members[b[0]..b[1]].to_vec();
                c.sort_unstable();
                c
            })
            .collect()
    }

    #[test]
    fn components_come_after_those_they_lead_to() {
        // 0 ⇄ 1 → 2, and 3 on its own with a loop.
        let rows = Rows {
            start: vec![0, 1, 3, 3, 4],
            column: vec![1, 0, 2, 3],
            coefficient: vec![0.5; 4],
            constant: vec![0.0; 4],
        };
        assert_eq!(component_sets(&rows), [vec![2], vec![0, 1], vec![3]]);
    }

    #[test]
    fn a_layer_splits_into_the_components_of_its_moves() {
        // 0 → 1 (and a solved state), 1 → 0 inside a chance node, 2 → 1, 3 → itself.
        let program = LayerProgram::new(
            vec![10, 11, 12, 13],
            vec![vec![
                MAXIMUM | 2,
                LOCAL_SAME | 1,
                FINAL_SAME | 3,
                CHANCE | 1,
                LOCAL_FLIP,
                LOCAL_SAME | 1,
                LOCAL_FLIP | 3,
            ]],
            1,
        );
        assert_eq!(program.offsets, [0, 3, 5, 6]);
        assert_eq!(component_sets(&program), [vec![0, 1], vec![2], vec![3]]);
        let loops: Vec<bool> = (0..4).map(|p| program.leads_to_itself(p)).collect();
        assert_eq!(loops, [false, false, false, true]);
    }

    #[test]
    fn dense_elimination_solves_and_refuses_singular_systems() {
        let mut a = [0.0, 2.0, 1.0, 1.0];
        let mut b = [4.0, 3.0];
        assert_eq!(solve_dense(&mut a, &mut b, 2), Some(vec![1.0, 2.0]));
        let mut a = [1.0, 1.0, 1.0, 1.0];
        assert_eq!(solve_dense(&mut a, &mut [1.0, 2.0], 2), None);
    }

    #[test]
    fn a_policy_step_solves_a_slow_cycle_at_once_and_leaves_an_endless_one() {
        // Throws 1/1000 and 999/1000. Places 0 and 1 win on the rare throw, else go to each
        // other: their values creep towards 1 from ½ by 0.2% a sweep. Place 2 may wait
        // forever (a draw, its value stays ½) or lose at once.
        let p = [0.001, 0.999];
        let program = LayerProgram::new(
            vec![0, 1, 2],
            vec![vec![
                TERMINAL | 2,
                LOCAL_SAME | 1,
                TERMINAL | 2,
                LOCAL_SAME,
                MAXIMUM | 2,
                LOCAL_SAME | 2,
                TERMINAL,
                MAXIMUM | 2,
                TERMINAL,
                LOCAL_SAME | 2,
            ]],
            2,
        );
        let mut local = vec![0.5; 3];
        let mut slot = vec![u32::MAX; 3];
        let step = program.policy_step(&p, &mut local, &[], &[0, 1, 2], &mut slot);
        assert_eq!(slot, [u32::MAX; 3]);
        assert!((local[0] - 1.0).abs() < 1e-12, "{local:?}");
        assert!((local[1] - 1.0).abs() < 1e-12, "{local:?}");
        assert_eq!(local[2], 0.5);
        assert_eq!((step.components, step.largest, step.left), (2, 2, 1));
        assert_eq!(step.singular, 1);
        assert!(step.residual < 1e-12);
        // Plain sweeps from ½ are still far off after a thousand sweeps.
        let mut plain = vec![0.5; 3];
        for _ in 0..1000 {
            program.sweep(&[0, 1, 2], &p, &mut plain, &[], None);
        }
        assert!((plain[0] - 1.0).abs() > 0.01, "{plain:?}");
        assert_eq!(plain[2], 0.5);
    }

    #[test]
    fn layers_must_tile_the_indices() {
        assert!(check_layers(&[0..3, 3..5], 5).is_ok());
        assert!(check_layers(&[0..3, 4..5], 5).is_err());
        assert!(check_layers(&[0..2, 2..3], 5).is_err());
    }
}
