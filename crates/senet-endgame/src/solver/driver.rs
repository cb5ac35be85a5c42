//! The driver of a solve: the checks, the layers in order, the checkpoints between them
//! and the figures, the same for every method; what a method does with one layer is its
//! [`LayerMethod`].

use crate::clock::Instant;
use core::ops::Range;

use senet_core::{Ruleset, ThrowingDevice};

use super::super::{EndgameError, EndgameSpace, EndgameTable};
use super::bracket::{Bracketing, settle};
use super::checkpoint::{Checkpoint, Keeper, PendingLayer};
use super::equations::{Equations, Known, Reading};
use super::exact::exact_probabilities;
use super::options::{PolicySteps, SolveEvent, SolveOptions, SolveStats};
use super::program::PAYLOAD;
use super::sweep::ComponentSolver;

/// One way of solving a layer once the layers before it are solved.
pub(super) trait LayerMethod {
    /// Whether the method compiles programs, whose words name successors in 29 bits (all
    /// but the lean method do).
    const COMPILES: bool = true;
    /// Whether the values grow a layer at a time, as the layers are solved, rather than
    /// being there (at ½) from the start: the on-disk method keeps no room for the rest.
    const GROWS: bool = false;

    /// Solves the layer of `job`, one of `run`, its values and figures written into the
    /// job's and reported through `run`.
    fn solve_layer<S: EndgameSpace, F: Fn(SolveEvent)>(
        &self,
        job: LayerJob<'_, '_>,
        run: &Run<'_, S, F>,
    ) -> Result<(), EndgameError>;
}

/// A layer to solve, where its values and figures go, and where its progress is saved.
pub(super) struct LayerJob<'k, 'c> {
    pub(super) number: usize,
    pub(super) layer: Range<usize>,
    /// The values of the solve, those of the earlier layers final; the layer's are written
    /// at its indices (when the values grow, `values` ends where the layer starts).
    pub(super) values: &'k mut Vec<f64>,
    /// The figures of the solve, which the layer adds to.
    pub(super) stats: &'k mut SolveStats,
    pub(super) keeper: Option<&'k mut Keeper<'c>>,
    /// The progress saved inside this layer, if the solve goes on from a checkpoint.
    pub(super) resume: Option<PendingLayer>,
}

/// Solves `space` layer by layer with `method`, saving its progress in `checkpoint`.
pub(super) fn solve_layers<S: EndgameSpace, M: LayerMethod>(
    space: S,
    options: &SolveOptions,
    checkpoint: Option<&Checkpoint>,
    method: &M,
) -> Result<EndgameTable<S>, EndgameError> {
    let count = space.state_count();
    let limit = if M::COMPILES {
        options.max_states.min(PAYLOAD as usize + 1)
    } else {
        options.max_states
    };
    if count > limit {
        return Err(EndgameError::TooLarge {
            states: count,
            limit,
        });
    }
    let layers = space.layers();
    check_layers(&layers, count)?;
    let probabilities = throw_probabilities(&space);
    let mut values = if M::GROWS {
        Vec::with_capacity(count)
    } else {
        vec![0.5; count]
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
        space: &space,
        options,
        probabilities: &probabilities,
        threads: options.thread_count().max(1),
        steps_wanted: match options.policy_steps {
            PolicySteps::Auto => space.slow_cycles(),
            PolicySteps::Always => true,
            PolicySteps::Never => false,
        },
        report: &report,
        layers: layers.len(),
    };
    let mut keeper = checkpoint.map(|checkpoint| Keeper::new(checkpoint, &space, options));
    let (first_layer, mut in_layer) = match &keeper {
        Some(keeper) => {
            let starts: Vec<usize> = layers.iter().map(|l| l.start).chain([count]).collect();
            match keeper.load(&starts)? {
                Some(saved) => {
                    stats = saved.stats;
                    if M::GROWS {
                        values.extend_from_slice(&saved.values);
                    } else {
                        values[..saved.values.len()].copy_from_slice(&saved.values);
                    }
                    (saved.layers, saved.in_layer)
                }
                None => (0, None),
            }
        }
        None => (0, None),
    };
    let layer_count = layers.len();
    for (number, layer) in layers.into_iter().enumerate().skip(first_layer) {
        let end = layer.end;
        let job = LayerJob {
            number,
            layer,
            values: &mut values,
            stats: &mut stats,
            keeper: keeper.as_mut(),
            resume: in_layer.take(),
        };
        method.solve_layer(job, &run)?;
        if let Some(keeper) = keeper.as_mut() {
            keeper.save(&stats, number + 1, &values[..end], None)?;
            if keeper.time_is_up() && number + 1 < layer_count {
                return Err(keeper.stopped(number + 1));
            }
        }
    }
    Ok(EndgameTable::from_parts(space, values, stats))
}

/// The chance of each outcome of the space's throwing device, in the device's order.
fn throw_probabilities<S: EndgameSpace>(space: &S) -> Vec<f64> {
    let device = space.rules().device();
    let denominator = f64::from(device.denominator());
    device
        .outcomes()
        .iter()
        .map(|o| f64::from(o.weight) / denominator)
        .collect()
}

/// What every layer of a solve shares.
pub(super) struct Run<'a, S: EndgameSpace, F: Fn(SolveEvent)> {
    pub(super) space: &'a S,
    pub(super) options: &'a SolveOptions,
    pub(super) probabilities: &'a [f64],
    pub(super) threads: usize,
    pub(super) steps_wanted: bool,
    pub(super) report: &'a F,
    /// How many layers the space has.
    pub(super) layers: usize,
}

impl<S: EndgameSpace, F: Fn(SolveEvent)> Run<'_, S, F> {
    /// Records and reports a layer made ready to sweep (compiled, written to disk or put in
    /// order) since `started`, its programs `words` long.
    pub(super) fn prepared(
        &self,
        layer: usize,
        states: usize,
        words: usize,
        started: Instant,
        stats: &mut SolveStats,
    ) {
        (self.report)(SolveEvent::Compiled {
            layer,
            states,
            words,
            seconds: started.elapsed().as_secs_f64(),
        });
        stats.program_words = stats.program_words.max(words);
    }

    /// Records and reports a layer split into the components that `bounds` delimit, since
    /// `started`.
    pub(super) fn split(
        &self,
        layer: usize,
        bounds: &[usize],
        started: Instant,
        stats: &mut SolveStats,
    ) {
        let largest = bounds.windows(2).map(|b| b[1] - b[0]).max().unwrap_or(0);
        stats.components += bounds.len() - 1;
        stats.largest_component = stats.largest_component.max(largest);
        (self.report)(SolveEvent::Split {
            layer,
            components: bounds.len() - 1,
            largest,
            seconds: started.elapsed().as_secs_f64(),
        });
    }

    /// What the equations of a layer read besides its own values, `solved` those of the
    /// layers before it.
    pub(super) fn known<'s>(&'s self, solved: &'s [f64]) -> Known<'s> {
        Known {
            probabilities: self.probabilities,
            solved,
        }
    }

    /// Records a layer of `states` swept whole, as one component.
    pub(super) fn whole(&self, states: usize, stats: &mut SolveStats) {
        stats.components += 1;
        stats.largest_component = stats.largest_component.max(states);
    }

    /// Solves the component `places` of `layer` with `equations`, keeping the policy steps'
    /// `slot` from one component to the next.
    pub(super) fn solve_component<E: Equations>(
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

    pub(super) fn component_solver<'a, E: Equations>(
        &'a self,
        program: &'a E,
        solved: &'a [f64],
        layer: usize,
        stats: &'a mut SolveStats,
    ) -> ComponentSolver<'a, F, E> {
        ComponentSolver {
            program,
            known: self.known(solved),
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

    /// How to bracket the values of layer `layer` with `equations` (see [`Bracketing`]),
    /// `solved` those of the layers before it, each within `inherited` of the game's, to
    /// the goal [`bracket_widths`](Self::bracket_widths) sets.
    pub(super) fn bracketing<'e, E: Equations>(
        &'e self,
        equations: &'e E,
        solved: &'e [f64],
        (inherited, layer): (f64, usize),
    ) -> Bracketing<'e, E> {
        let (goal, start) = self.bracket_widths(inherited, layer);
        Bracketing {
            equations,
            known: self.known(solved),
            reading: self.reading(inherited),
            goal,
            start,
            max_sweeps: self.options.max_sweeps,
            slot: Vec::new(),
            slow_cycles: self.steps_wanted,
        }
    }

    /// What a layer's brackets read, the earlier layers' values within `inherited`.
    pub(super) fn reading(&self, inherited: f64) -> Reading {
        Reading::new(
            inherited,
            self.probabilities.len(),
            exact_probabilities(self.probabilities),
        )
    }

    /// The half width the brackets of layer `layer` are tightened to and the half width of
    /// a component's first bracket, the earlier layers' values within `inherited`. Every
    /// layer's values read the earlier layers', so each layer's bound is at least theirs:
    /// a layer before the last may add a sixteenth of what is left of
    /// [`SolveOptions::target_bound`] (the earlier layers are the smaller ones, and cheap to
    /// tighten), the last one all of it.
    pub(super) fn bracket_widths(&self, inherited: f64, layer: usize) -> (f64, f64) {
        let options = self.options;
        let left = (options.target_bound - inherited).max(0.0);
        let share = if layer + 1 >= self.layers {
            1.0
        } else {
            1.0 / 16.0
        };
        (inherited + share * left, options.tolerance * BRACKET_START)
    }

    /// The value a table keeps for each of the `local` values of layer `layer`, bracketed
    /// by `pairs` (see [`settle`]), written in its place; returns the largest distance from
    /// the game's.
    pub(super) fn settle_layer(
        &self,
        (inherited, layer): (f64, usize),
        local: &mut [f64],
        pairs: &[[f64; 2]],
    ) -> f64 {
        let (goal, start) = self.bracket_widths(inherited, layer);
        let mut bound: f64 = 0.0;
        for (value, &pair) in local.iter_mut().zip(pairs) {
            let (kept, radius) = settle(*value, pair, goal.max(start));
            *value = kept;
            bound = bound.max(radius);
        }
        bound
    }

    /// Records a solved layer's figures and reports it.
    pub(super) fn finish_layer(&self, done: Done, stats: &mut SolveStats) {
        // In whole layers' worth of evaluations, rounded up.
        let layer_sweeps = done.evaluations.div_ceil(done.states.max(1) as u64);
        stats.sweeps = stats
            .sweeps
            .saturating_add(u32::try_from(layer_sweeps).unwrap_or(u32::MAX));
        let bracket_sweeps = done.bracketed.div_ceil(done.states.max(1) as u64);
        stats.bracket_sweeps = stats
            .bracket_sweeps
            .saturating_add(u32::try_from(bracket_sweeps).unwrap_or(u32::MAX));
        // The earlier layers' bound is inside this one's: a layer reads their values.
        stats.error_bound = stats.error_bound.max(done.error_bound);
        stats.max_component_sweeps = stats.max_component_sweeps.max(done.most_sweeps);
        // Later layers never change this layer, so its residual is final now.
        stats.residual = stats.residual.max(done.residual);
        (self.report)(SolveEvent::Solved {
            layer: done.layer,
            evaluations: done.evaluations,
            most_sweeps: done.most_sweeps,
            residual: done.residual,
            error_bound: done.error_bound,
            seconds: done.seconds,
        });
    }
}

/// A component's first bracket is this many tolerances wide each way: a value is a few
/// tolerances from its limit when a sweep changes nothing by more than one.
const BRACKET_START: f64 = 4.0;

/// The work of a layer solved component by component, counted as its components are.
#[derive(Default)]
pub(super) struct Tally {
    evaluations: u64,
    most_sweeps: u32,
    /// Evaluations of both bounds in the brackets' sweeps.
    bracketed: u64,
}

impl Tally {
    /// The work of a layer swept whole `sweeps` times.
    pub(super) fn whole(states: usize, sweeps: u32) -> Tally {
        let mut tally = Tally::default();
        tally.swept(states, sweeps);
        tally
    }

    /// Counts a component of `states` states solved in `sweeps` sweeps.
    pub(super) fn swept(&mut self, states: usize, sweeps: u32) {
        self.evaluations += u64::from(sweeps) * states as u64;
        self.most_sweeps = self.most_sweeps.max(sweeps);
    }

    /// Counts a state whose value one evaluation gave exactly, not counted as a sweep.
    pub(super) fn evaluated_once(&mut self) {
        self.evaluations += 1;
    }

    /// Counts `sweeps` sweeps of the bounds of `states` states.
    pub(super) fn bracketed(&mut self, states: usize, sweeps: u32) {
        self.bracketed += u64::from(sweeps) * states as u64;
    }

    /// The figures of layer `layer` of `states` states, solved with this work in `seconds`
    /// to `residual`, every value within `error_bound` of the game's.
    pub(super) fn done(
        self,
        (layer, states): (usize, usize),
        residual: f64,
        error_bound: f64,
        seconds: f64,
    ) -> Done {
        Done {
            layer,
            states,
            evaluations: self.evaluations,
            most_sweeps: self.most_sweeps,
            bracketed: self.bracketed,
            residual,
            error_bound,
            seconds,
        }
    }
}

/// A solved layer's figures.
pub(super) struct Done {
    layer: usize,
    states: usize,
    evaluations: u64,
    most_sweeps: u32,
    bracketed: u64,
    residual: f64,
    error_bound: f64,
    seconds: f64,
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
