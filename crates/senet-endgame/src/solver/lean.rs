//! The lean method: the equations recomputed from the turn machine, nothing stored but the
//! values and a sweep order.

use crate::clock::Instant;
use core::ops::Range;
use std::sync::Mutex;

use senet_core::{MoveList, Phase, Ruleset, Side, ThrowingDevice};

use super::super::SpaceState;
use super::super::{EndgameError, EndgameSpace, MAX_MOVE_CHAIN};
use super::bracket::Places;
use super::driver::{LayerJob, LayerMethod, Run, Tally};
use super::equations::{
    Computed, Equations, Known, Reading, Record, Step, bracket_update, update, update_pair,
};
use super::options::{PolicyStepReport, SolveEvent};
use super::order::state_at;
use super::order::sweep_order;
use super::parallel::in_chunks;
use super::program::CHUNK;

/// Places evaluated together from the values before them, spread over the threads: large
/// enough that starting the threads costs nothing next to the work, small enough that a
/// sweep stays close to Gauss–Seidel (a value computed in one wave is read by the next).
const WAVE: usize = 1 << 12;
/// Places a thread takes at least, so that short sweeps of hot states stay on one thread.
const LEAST_PER_THREAD: usize = 1 << 9;

/// The equations of one layer, recomputed at each evaluation. A place is an index less the
/// layer's start, so the layer's values are swept in place in the table's own vector.
pub(super) struct LeanEquations<'a, S> {
    pub(super) space: &'a S,
    pub(super) layer: Range<usize>,
    pub(super) threads: usize,
    /// The first error met by an evaluation inside the sweeps, which cannot return it.
    /// The first sweep is checked ([`LeanEquations::checked_sweep`]) and the turn machine
    /// is deterministic, so none is expected; the solve reports one if it happens.
    pub(super) failure: Mutex<Option<EndgameError>>,
}

impl<S: EndgameSpace> LeanEquations<'_, S> {
    /// The right-hand side of `place`, or why it cannot be computed: from the values
    /// `local` of the layer, or (with `V = [f64; 2]`) its bounds from their bounds.
    fn evaluate<V: Estimate>(
        &self,
        place: usize,
        known: Known<'_>,
        inherited: f64,
        local: &[V],
    ) -> Result<V, EndgameError> {
        let index = self.layer.start + place;
        let state = state_at(self.space, index)?;
        let rules = self.space.rules();
        let Phase::Throw(side) = rules.phase(&state) else {
            return Err(EndgameError::Inconsistent {
                index,
                reason: "the state does not wait for a throw".to_string(),
            });
        };
        let sides = Sides {
            side,
            from: index,
            local,
            solved: known.solved,
            inherited,
            probabilities: known.probabilities,
        };
        self.chance(&state, &sides, 0)
    }

    /// The throws of `state`, weighted, each followed by the best play.
    fn chance<V: Estimate>(
        &self,
        state: &SpaceState<S>,
        at: &Sides<'_, V>,
        depth: usize,
    ) -> Result<V, EndgameError> {
        let rules = self.space.rules();
        let mut total = V::ZERO;
        for (outcome, &p) in rules.device().outcomes().iter().zip(at.probabilities) {
            let mut next = *state;
            rules.throw_unchecked(&mut next, outcome.value);
            total = total.plus(p, self.value(&next, at, depth)?);
        }
        Ok(total)
    }

    /// The value of `state` for the side of the evaluated state, as its compiled program
    /// would give it (the same order of moves and throws).
    fn value<V: Estimate>(
        &self,
        state: &SpaceState<S>,
        at: &Sides<'_, V>,
        depth: usize,
    ) -> Result<V, EndgameError> {
        let rules = self.space.rules();
        let too_deep = || EndgameError::TooManyMoves(MAX_MOVE_CHAIN, rules.position_string(state));
        match rules.phase(state) {
            Phase::Over(outcome) => Ok(V::exact(outcome.value_for(at.side))),
            Phase::Throw(to_act) => {
                let value = match self.space.index(state) {
                    Some(index) if index >= self.layer.end => {
                        return Err(EndgameError::LayerOrder {
                            from: at.from,
                            to: index,
                        });
                    }
                    Some(index) if index >= self.layer.start => at.local[index - self.layer.start],
                    Some(index) => V::within(at.solved[index], at.inherited),
                    None if self.space.passes_through(state) => {
                        if depth >= MAX_MOVE_CHAIN {
                            return Err(too_deep());
                        }
                        // Already for the evaluated state's side.
                        return self.chance(state, at, depth + 1);
                    }
                    None => {
                        return Err(EndgameError::NotClosed {
                            position: rules.position_string(state),
                        });
                    }
                };
                Ok(if to_act == at.side {
                    value
                } else {
                    value.flipped()
                })
            }
            Phase::Move(mover) => {
                if depth >= MAX_MOVE_CHAIN {
                    return Err(too_deep());
                }
                let mut moves = MoveList::new();
                rules.generate_moves(state, &mut moves);
                let maximise = mover == at.side;
                let mut best: Option<V> = None;
                for &mv in moves.iter() {
                    let mut next = *state;
                    rules.play_unchecked(&mut next, mv);
                    let v = self.value(&next, at, depth + 1)?;
                    best = Some(match best {
                        None => v,
                        Some(b) => b.better(v, maximise),
                    });
                }
                best.ok_or_else(|| EndgameError::Inconsistent {
                    index: at.from,
                    reason: format!(
                        "no legal move, not even a pass, in {}",
                        rules.position_string(state)
                    ),
                })
            }
        }
    }

    /// The right-hand sides of `wave` into `fresh`, from the values (or with
    /// `V = [f64; 2]`, the bounds, the earlier layers' values within `inherited`) as they
    /// are (the threads take consecutive parts; each depends on the values before the wave
    /// only, so not on the number of threads). The first error in the wave's order, if any.
    fn evaluate_wave<V: Estimate + Send + Sync>(
        &self,
        wave: &[u32],
        (known, inherited): (Known<'_>, f64),
        local: &[V],
        fresh: &mut [V],
    ) -> Result<(), EndgameError> {
        let part_of = |places: &[u32], out: &mut [V]| -> Result<(), EndgameError> {
            for (value, &place) in out.iter_mut().zip(places) {
                *value = self.evaluate(place as usize, known, inherited, local)?;
            }
            Ok(())
        };
        let threads = self
            .threads
            .min(wave.len().div_ceil(LEAST_PER_THREAD))
            .max(1);
        if threads == 1 {
            return part_of(wave, fresh);
        }
        let part = wave.len().div_ceil(threads);
        std::thread::scope(|scope| {
            let handles: Vec<_> = wave
                .chunks(part)
                .zip(fresh.chunks_mut(part))
                .map(|(places, out)| scope.spawn(move || part_of(places, out)))
                .collect();
            let mut result = Ok(());
            for handle in handles {
                // A panic in the work is a bug; pass it on rather than hide it.
                let done = handle
                    .join()
                    .unwrap_or_else(|p| std::panic::resume_unwind(p));
                if result.is_ok() {
                    result = done;
                }
            }
            result
        })
    }

    /// A sweep over `places` in waves: each wave's values computed from those before it,
    /// then written. Returns the largest change, or the first error in the sweep's order.
    pub(super) fn checked_sweep(
        &self,
        places: &[u32],
        known: Known<'_>,
        local: &mut [f64],
        mut record: Record<'_>,
    ) -> Result<f64, EndgameError> {
        let mut fresh = vec![0.0; places.len().min(WAVE)];
        let mut largest: f64 = 0.0;
        for wave in places.chunks(WAVE) {
            let fresh = &mut fresh[..wave.len()];
            self.evaluate_wave(wave, (known, 0.0), local, fresh)?;
            for (&place, &total) in wave.iter().zip(fresh.iter()) {
                largest = largest.max(update(local, place as usize, total, &mut record));
            }
        }
        Ok(largest)
    }

    /// A sweep of the bounds `pairs` over `places` in waves (see
    /// [`Equations::bracket_sweep`]): returns whether it was monotone, or the first error.
    fn checked_bracket_sweep(
        &self,
        places: &[u32],
        known: Known<'_>,
        reading: Reading,
        pairs: &mut [[f64; 2]],
    ) -> Result<bool, EndgameError> {
        let mut fresh = vec![[0.0; 2]; places.len().min(WAVE)];
        let mut monotone = true;
        for wave in places.chunks(WAVE) {
            let fresh = &mut fresh[..wave.len()];
            self.evaluate_wave(wave, (known, reading.inherited), pairs, fresh)?;
            for (&place, &bounds) in wave.iter().zip(fresh.iter()) {
                let place = place as usize;
                // The turn machine is not evaluated exactly, nor are its nested weighted sums
                // counted: as many as a turn may nest are.
                let computed = Computed {
                    bounds,
                    levels: MAX_MOVE_CHAIN as u32 + 1,
                };
                let new = bracket_update(pairs[place], computed, reading, |_| None);
                monotone &= update_pair(pairs, place, new);
            }
        }
        Ok(monotone)
    }

    /// Keeps the first error met where none can be returned.
    fn fail(&self, error: EndgameError) {
        if let Ok(mut failure) = self.failure.lock()
            && failure.is_none()
        {
            *failure = Some(error);
        }
    }

    /// The error met in the sweeps, if any.
    pub(super) fn take_failure(&self) -> Option<EndgameError> {
        self.failure.lock().ok().and_then(|mut f| f.take())
    }
}

/// What an evaluation reads and whose value it computes.
struct Sides<'a, V> {
    /// The side to throw in the evaluated state.
    side: Side,
    /// Its index, for errors.
    from: usize,
    local: &'a [V],
    solved: &'a [f64],
    /// How far each of `solved` may be from the game's value (for bounds).
    inherited: f64,
    probabilities: &'a [f64],
}

/// A value (`f64`) or its lower and upper bounds (`[f64; 2]`), as a right-hand side
/// combines them: the arithmetic of the compiled programs' evaluation, and of its bounds
/// ([`bracket_right_hand_side`](super::program::bracket_right_hand_side)).
trait Estimate: Copy {
    const ZERO: Self;
    /// A finished game's value.
    fn exact(value: f64) -> Self;
    /// An earlier layer's value, within `inherited` of the game's.
    fn within(value: f64, inherited: f64) -> Self;
    /// The same for the other side.
    fn flipped(self) -> Self;
    /// The better of `self` and `other`, for the side that maximises or the other.
    fn better(self, other: Self, maximise: bool) -> Self;
    /// `self + p · other`.
    fn plus(self, p: f64, other: Self) -> Self;
}

impl Estimate for f64 {
    const ZERO: f64 = 0.0;

    fn exact(value: f64) -> f64 {
        value
    }

    fn within(value: f64, _: f64) -> f64 {
        value
    }

    fn flipped(self) -> f64 {
        1.0 - self
    }

    fn better(self, other: f64, maximise: bool) -> f64 {
        if maximise {
            self.max(other)
        } else {
            self.min(other)
        }
    }

    fn plus(self, p: f64, other: f64) -> f64 {
        self + p * other
    }
}

impl Estimate for [f64; 2] {
    const ZERO: [f64; 2] = [0.0, 0.0];

    fn exact(value: f64) -> [f64; 2] {
        [value, value]
    }

    fn within(value: f64, inherited: f64) -> [f64; 2] {
        // The game's values are within 0..=1.
        [(value - inherited).max(0.0), (value + inherited).min(1.0)]
    }

    fn flipped(self) -> [f64; 2] {
        [1.0 - self[1], 1.0 - self[0]]
    }

    fn better(self, other: [f64; 2], maximise: bool) -> [f64; 2] {
        [
            self[0].better(other[0], maximise),
            self[1].better(other[1], maximise),
        ]
    }

    fn plus(self, p: f64, other: [f64; 2]) -> [f64; 2] {
        [self[0] + p * other[0], self[1] + p * other[1]]
    }
}

impl<S: EndgameSpace> Equations for LeanEquations<'_, S> {
    fn failed(&self) -> bool {
        self.failure
            .lock()
            .map_or(true, |failure| failure.is_some())
    }

    fn right_hand_side(&self, place: usize, known: Known<'_>, local: &[f64]) -> f64 {
        self.evaluate(place, known, 0.0, local).unwrap_or_else(|e| {
            self.fail(e);
            local[place]
        })
    }

    fn bracket_right_hand_side(
        &self,
        place: usize,
        known: Known<'_>,
        inherited: f64,
        pairs: &[[f64; 2]],
    ) -> Computed {
        let bounds = self
            .evaluate(place, known, inherited, pairs)
            .unwrap_or_else(|e| {
                self.fail(e);
                [0.0, 1.0]
            });
        Computed {
            bounds,
            levels: MAX_MOVE_CHAIN as u32 + 1,
        }
    }

    fn policy_step(&self, _: Known<'_>, _: &mut [f64], _: Step<'_>) -> PolicyStepReport {
        // The lean method takes none (it asks for none): a step needs the equations held.
        PolicyStepReport::default()
    }

    fn bracket_sweep(
        &self,
        places: &[u32],
        known: Known<'_>,
        reading: Reading,
        pairs: &mut [[f64; 2]],
    ) -> bool {
        self.checked_bracket_sweep(places, known, reading, pairs)
            .unwrap_or_else(|e| {
                self.fail(e);
                false
            })
    }

    fn sweep(
        &self,
        places: &[u32],
        known: Known<'_>,
        local: &mut [f64],
        record: Record<'_>,
    ) -> f64 {
        self.checked_sweep(places, known, local, record)
            .unwrap_or_else(|e| {
                self.fail(e);
                0.0
            })
    }

    fn residual(&self, known: Known<'_>, local: &[f64]) -> f64 {
        let starts: Vec<usize> = (0..local.len()).step_by(CHUNK).collect();
        let largest = in_chunks(&starts, self.threads, |start| {
            let mut largest: f64 = 0.0;
            for place in start..(start + CHUNK).min(local.len()) {
                let total = self.evaluate(place, known, 0.0, local)?;
                largest = largest.max((total - local[place]).abs());
            }
            Ok(largest)
        });
        match largest {
            Ok(each) => each.into_iter().fold(0.0, f64::max),
            Err(e) => {
                self.fail(e);
                f64::INFINITY
            }
        }
    }
}

/// [`SolveMethod::Lean`](super::SolveMethod::Lean): each layer swept whole, in place, the
/// equations recomputed.
pub(super) struct Lean;

impl LayerMethod for Lean {
    const COMPILES: bool = false;

    fn solve_layer<S: EndgameSpace, F: Fn(SolveEvent)>(
        &self,
        job: LayerJob<'_, '_>,
        run: &Run<'_, S, F>,
    ) -> Result<(), EndgameError> {
        let LayerJob {
            number,
            layer,
            values,
            stats,
            ..
        } = job;
        let ordering = Instant::now();
        let states = layer.len();
        let space = run.space;
        let order = sweep_order(space, layer.clone(), run.threads)?;
        run.prepared(number, states, 0, ordering, stats);
        run.whole(states, stats);
        let (solved, rest) = values.split_at_mut(layer.start);
        let local = &mut rest[..states];
        let equations = LeanEquations {
            space,
            layer,
            threads: run.threads,
            failure: Mutex::new(None),
        };
        let known = run.known(solved);
        // The first sweep returns its errors: every successor is checked there.
        equations.checked_sweep(&order, known, local, None)?;
        let unstepped = Run {
            steps_wanted: false,
            ..*run
        };
        let mut solver = unstepped.component_solver(&equations, solved, number, stats);
        let sweeps = solver.solve(&order, local)? + 1;
        let started = solver.started;
        // The layer's values bracketed as one component, in the sweep order.
        let inherited = stats.error_bound;
        let mut pairs: Vec<[f64; 2]> = local.iter().map(|&v| [v, v]).collect();
        let bracketed = run
            .bracketing(&equations, solved, (inherited, number))
            .component(Places::Listed(&order), &mut pairs, None);
        drop(order);
        let bound = run.settle_layer((inherited, number), local, &pairs);
        drop(pairs);
        let seconds = started.elapsed().as_secs_f64();
        let residual = equations.residual(known, local);
        if let Some(error) = equations.take_failure() {
            return Err(error);
        }
        let mut tally = Tally::whole(states, sweeps);
        tally.bracketed(states, bracketed);
        let done = tally.done((number, states), residual, bound.max(inherited), seconds);
        run.finish_layer(done, stats);
        Ok(())
    }
}
