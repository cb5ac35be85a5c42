//! The driver of a solve: the checks, the layers in order, the checkpoints between them
//! and the figures, the same for every method; what a method does with one layer is its
//! [`LayerMethod`].

use core::ops::Range;
use std::time::Instant;

use senet_core::{Ruleset, ThrowingDevice};

use super::super::{EndgameError, EndgameSpace, EndgameTable};
use super::checkpoint::{Checkpoint, Keeper, PendingLayer};
use super::equations::{Equations, Known};
use super::options::{PolicySteps, SolveEvent, SolveOptions, SolveStats};
use super::program::PAYLOAD;
use super::sweep::ComponentSolver;

/// One way of solving a layer once the layers before it are solved.
pub(super) trait LayerMethod {
    /// Whether the method compiles programs, whose words name successors in 29 bits.
    const COMPILES: bool;
    /// Whether the values grow a layer at a time, as the layers are solved, rather than
    /// being there (at ½) from the start: the on-disk method keeps no room for the rest.
    const GROWS: bool;

    /// Solves `job`, its values written into `values` (which ends where the layer starts
    /// when the values grow), its figures into `stats` and reported through `run`.
    fn solve_layer<S: EndgameSpace, F: Fn(SolveEvent)>(
        &self,
        run: &Run<'_, F>,
        space: &S,
        job: LayerJob<'_, '_>,
        values: &mut Vec<f64>,
        stats: &mut SolveStats,
    ) -> Result<(), EndgameError>;
}

/// A layer to solve, and where its progress is saved.
pub(super) struct LayerJob<'k, 'c> {
    pub(super) number: usize,
    pub(super) layer: Range<usize>,
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
            keeper: keeper.as_mut(),
            resume: in_layer.take(),
        };
        method.solve_layer(&run, &space, job, &mut values, &mut stats)?;
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
pub(super) struct Run<'a, F: Fn(SolveEvent)> {
    pub(super) options: &'a SolveOptions,
    pub(super) probabilities: &'a [f64],
    pub(super) threads: usize,
    pub(super) steps_wanted: bool,
    pub(super) report: &'a F,
}

impl<F: Fn(SolveEvent)> Run<'_, F> {
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
    pub(super) fn whole(states: usize, stats: &mut SolveStats) {
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

    /// Records a solved layer's figures and reports it.
    pub(super) fn finish_layer(&self, done: Done, stats: &mut SolveStats) {
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

/// A solved layer's figures.
pub(super) struct Done {
    pub(super) layer: usize,
    pub(super) states: usize,
    pub(super) evaluations: u64,
    pub(super) most_sweeps: u32,
    pub(super) residual: f64,
    pub(super) seconds: f64,
}

impl Done {
    /// The figures of a layer swept whole `sweeps` times.
    pub(super) fn whole(
        layer: usize,
        states: usize,
        sweeps: u32,
        residual: f64,
        seconds: f64,
    ) -> Done {
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
