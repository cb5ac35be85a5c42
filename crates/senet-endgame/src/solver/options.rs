//! What a solve is asked to do, and what it reports.

use crate::EXACT_BOUND;
#[cfg(doc)]
use crate::{EndgameError, EndgameSpace};

/// How precisely to solve.
#[derive(Clone, Copy, Debug)]
pub struct SolveOptions {
    /// The sweeps of a component stop once a whole sweep changes no value by more than
    /// this. The Bellman residual after such a sweep is at most this too (see
    /// [what the solver guarantees](super#what-it-guarantees)). It says nothing about how
    /// far a value is from the game's: [`target_bound`](Self::target_bound) does.
    pub tolerance: f64,
    /// The proven error bound to work towards. Once a component's values are found, the
    /// solver brackets them between proven lower and upper bounds, and tightens the
    /// brackets until every value of the table is within this of the game's value, or
    /// until they stop closing (see [what the solver
    /// guarantees](super#what-it-guarantees)). [`SolveStats::error_bound`] is the bound
    /// reached, whatever this asks.
    pub target_bound: f64,
    /// The most sweeps of one strongly connected component of a layer before giving up
    /// with [`EndgameError::NotConverged`].
    pub max_sweeps: u32,
    /// The most positions to take on; a larger space is refused with
    /// [`EndgameError::TooLarge`] before any memory is spent. The memory a solve needs grows
    /// with the positions and with the length of their programs, the largest layer's most
    /// of all (`docs/players.md` gives measured figures).
    pub max_states: usize,
    /// Threads that prepare each layer, and with [`SolveMethod::Lean`] evaluate each sweep
    /// (0: one per core, as `std::thread::available_parallelism` reports). The values do
    /// not depend on it.
    pub threads: usize,
    /// Called as the solve goes on (each layer compiled and split, each whole sweep of a
    /// large component, each layer done), for a program that wants to show progress or
    /// measure where the time goes.
    /// The values do not depend on it.
    pub progress: Option<fn(&SolveEvent)>,
    /// Whether to take *policy steps* between the sweeps (see the
    /// [module documentation](super#policy-steps)); without them the solver only sweeps.
    /// The stopping rule is the same either way.
    pub policy_steps: PolicySteps,
    /// How the equations are held while the values are swept.
    pub method: SolveMethod,
}

/// How the solver holds the equations (see the [module documentation](super#methods)).
/// Both stop on the same rule; their values differ by less than the tolerance's effect on
/// either (`docs/players.md` gives the measured differences).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum SolveMethod {
    /// Each layer's right-hand sides compiled once into words, split into strongly
    /// connected components: fast, about 100 bytes a position for Regency (214 for Kendall).
    #[default]
    Compiled,
    /// Nothing but the values and a sweep order kept: each right-hand side recomputed from
    /// the turn machine whenever it is evaluated, each layer swept whole, without policy
    /// steps. At most 16 bytes a position; far slower.
    Lean,
    /// Each layer's right-hand sides compiled as for [`Compiled`](SolveMethod::Compiled),
    /// but written to a scratch file in the system's temporary folder (`TMPDIR`) and read
    /// back once a sweep, the layer swept whole in place; slow states get sweeps of their
    /// own from copies of their programs. Where the space has slow cycles (Kendall) each
    /// layer is split into its components, as in memory, and slow states get policy steps
    /// (see the [module documentation](super#methods)). 8 bytes a position and 12 a
    /// position of the largest layer in memory, about 42 bytes a position of the largest
    /// layer on disk (Regency, packed).
    OnDisk,
}

/// When the solver takes policy steps (see the [module documentation](super#policy-steps)).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum PolicySteps {
    /// Where the space has slow cycles ([`EndgameSpace::slow_cycles`]: Kendall's endgames).
    /// Elsewhere plain sweeps take less time and memory, though more sweeps
    /// (`docs/players.md` gives measured figures).
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
    /// the [module documentation](super)).
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
    /// its slow states after it). Smaller components are not reported: there can be millions.
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
    /// [module documentation](super#policy-steps)).
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
        /// How far its values, and the earlier layers', may be from the game's: the proven
        /// bound of the table so far (see [`SolveStats::error_bound`]).
        error_bound: f64,
        /// Seconds spent sweeping it and bracketing its values.
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
            && self.target_bound == other.target_bound
            && self.max_sweeps == other.max_sweeps
            && self.max_states == other.max_states
            && self.threads == other.threads
            && self.policy_steps == other.policy_steps
            && self.method == other.method
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

/// The default [`SolveOptions::tolerance`].
const DEFAULT_TOLERANCE: f64 = 1e-9;

impl Default for SolveOptions {
    /// Tolerance 1e-9, a proven bound of [`EXACT_BOUND`] to work towards, at most 100,000
    /// sweeps per component, at most 2^26 (67 million)
    /// positions, one thread per core, compiled equations.
    fn default() -> Self {
        SolveOptions {
            tolerance: DEFAULT_TOLERANCE,
            target_bound: EXACT_BOUND,
            max_sweeps: 100_000,
            max_states: 1 << 26,
            threads: 0,
            progress: None,
            policy_steps: PolicySteps::Auto,
            method: SolveMethod::Compiled,
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
    /// (see the [module documentation](super)).
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
    /// A proven bound on how far any value of the table is from the game's (endless play a
    /// draw): every value `v` of a position of value `V` has `|v − V| ≤ error_bound`,
    /// rounding included (see [what the solver guarantees](super#what-it-guarantees)).
    /// A table file adds its encoding's rounding ([`ValueEncoding`](crate::ValueEncoding)).
    pub error_bound: f64,
    /// The work of bracketing the values (see [`error_bound`](Self::error_bound)), in whole
    /// layers' worth of evaluations of both bounds, summed over the layers.
    pub bracket_sweeps: u32,
    /// The most states of one layer swept on their own because they converged slowly (see
    /// the [module documentation](super#slow-cycles)).
    pub hot_states: usize,
    /// Sweeps over such states alone, summed over the layers.
    pub hot_sweeps: u32,
    /// Policy steps taken (see the [module documentation](super#policy-steps)), summed over
    /// the layers.
    pub policy_steps: u32,
    /// The most states of one strongly connected component a policy step solved exactly
    /// (of the equations with the decisions frozen, within a component of the layer).
    pub largest_policy_component: usize,
    /// How far the values may be from the game's because the solver left its rarest turns
    /// out, as the solve measured it: half the largest difference between the lower and
    /// upper bounds of the values it ended with, which count those turns against and for
    /// the side to act (Kendall with stored throws, whose turns may collect up to 60
    /// throws); 0 elsewhere. An estimate: [`error_bound`](Self::error_bound) is the proof.
    pub truncation: f64,
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
