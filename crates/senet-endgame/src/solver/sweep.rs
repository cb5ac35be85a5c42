//! Gauss–Seidel sweeps of a component, and when to settle hot states or take policy steps.

use crate::clock::Instant;

use super::super::EndgameError;
use super::equations::{Equations, Known, Step};
use super::hot::settle_hot;
use super::options::{SolveEvent, SolveOptions, SolveStats};

/// Whole sweeps of a component before the solver looks for states that converge slowly.
const HOT_START: u32 = 32;
/// How often (in whole sweeps) it looks again.
const HOT_EVERY: u32 = 16;
/// A state is *hot* when its value moved by more than this share of the previous sweep's
/// largest change.
pub(super) const HOT_SHARE: f64 = 0.01;
/// Hot states are swept on their own only when they are at most this share of the
/// component (1/8): otherwise the whole component is converging slowly, and whole sweeps
/// are as good.
const HOT_MOST_SHARE: usize = 8;
/// Hot states are swept until their values move by less than this share of the tolerance:
/// a slow cycle moves its values little per sweep, so a small change does not yet mean a
/// small error there.
const HOT_PRECISION: f64 = 1e-3;
/// The most whole sweeps spent polishing a component (see the
/// [solver's documentation](super#slow-cycles)).
const POLISH_MOST: u32 = 8;
/// The most work spent on hot states at a time, in whole sweeps of the component.
const HOT_BUDGET: usize = 32;

/// Whole sweeps of a component before the first policy step (the first sweeps change the
/// decisions a lot).
const POLICY_START: u32 = 8;
/// Whole sweeps between two policy steps.
const POLICY_EVERY: u32 = 8;

/// Components with at least this many states report their sweeps and policy steps
/// ([`SolveEvent::Sweep`], [`SolveEvent::PolicyStep`]); smaller ones are too many to.
pub(super) const REPORTED_STATES: usize = 1 << 16;

/// Solves the strongly connected components of one layer, each once those it leads to are.
pub(super) struct ComponentSolver<'a, F: Fn(SolveEvent), E: Equations> {
    pub(super) program: &'a E,
    pub(super) known: Known<'a>,
    pub(super) options: &'a SolveOptions,
    pub(super) steps_wanted: bool,
    pub(super) layer: usize,
    pub(super) report: &'a F,
    /// When the layer's sweeps started.
    pub(super) started: Instant,
    /// For policy steps: an entry per place of the layer, `u32::MAX` between steps (made
    /// at the first step).
    pub(super) slot: Vec<u32>,
    /// The places of the component found still moving, reused from sweep to sweep.
    pub(super) hot: Vec<u32>,
    pub(super) stats: &'a mut SolveStats,
}

impl<F: Fn(SolveEvent), E: Equations> ComponentSolver<'_, F, E> {
    /// Sweeps the component `places` (ascending) until it is within the tolerance (see the
    /// [solver's documentation](super)), the values it leads to outside it final. Returns its
    /// sweeps.
    pub(super) fn solve(&mut self, places: &[u32], local: &mut [f64]) -> Result<u32, EndgameError> {
        let (program, known) = (self.program, self.known);
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
            let look = !policy_step && (polishing || looks_for_hot(sweeps));
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
            let change = program.sweep(places, known, local, record);
            sweeps += 1;
            if program.failed() {
                // The caller takes the failure from the equations.
                return Ok(sweeps);
            }
            if policy_step && (change > options.tolerance || polishing) && !hot.is_empty() {
                self.policy_step(&hot, local, sweeps, reported);
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
                settle_hot(program, known, local, &hot, target, budget)
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

    /// Takes a policy step on the places `hot` after `sweeps` whole sweeps, and records it
    /// (and reports it for a component of `reported` size).
    fn policy_step(&mut self, hot: &[u32], local: &mut [f64], sweeps: u32, reported: bool) {
        let started = Instant::now();
        if self.slot.is_empty() {
            self.slot = vec![u32::MAX; local.len()];
        }
        let slot = &mut self.slot;
        let step = self
            .program
            .policy_step(self.known, local, Step { hot, slot });
        self.stats.policy_steps += 1;
        self.stats.largest_policy_component = self.stats.largest_policy_component.max(step.largest);
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
}

/// Whether a component's whole sweep after `sweeps` others looks for hot states.
pub(super) fn looks_for_hot(sweeps: u32) -> bool {
    sweeps >= HOT_START && sweeps.is_multiple_of(HOT_EVERY)
}

/// Sweeps the hot states of a whole layer on their own (see [`settle_hot`]) after a whole
/// sweep that changed values by up to `change`, to 1% of that change (but no finer than a
/// thousandth of `tolerance`), within a budget of 32 whole sweeps' worth of evaluations.
/// Returns the sweeps made.
pub(super) fn settle_layer_hot<E: Equations>(
    equations: &E,
    known: Known<'_>,
    local: &mut [f64],
    hot: &[u32],
    (change, tolerance): (f64, f64),
) -> u32 {
    let target = (tolerance * HOT_PRECISION).max(change * HOT_SHARE);
    let budget = local.len().saturating_mul(HOT_BUDGET);
    settle_hot(equations, known, local, hot, target, budget)
}
