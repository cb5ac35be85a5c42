//! The lean method: the equations recomputed from the turn machine, nothing stored but the
//! values and a sweep order.

use core::ops::Range;
use std::sync::Mutex;
use std::time::Instant;

use senet_core::{MoveList, Phase, Ruleset, Side, ThrowingDevice};

use super::super::SpaceState;
use super::super::{EndgameError, EndgameSpace, MAX_MOVE_CHAIN};
use super::driver::{LayerJob, LayerMethod, Run, Tally};
use super::equations::{Equations, Known, Record, Step, update};
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
    /// The right-hand side of `place`, or why it cannot be computed.
    fn evaluate(&self, place: usize, known: Known<'_>, local: &[f64]) -> Result<f64, EndgameError> {
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
            probabilities: known.probabilities,
        };
        self.chance(&state, &sides, 0)
    }

    /// The throws of `state`, weighted, each followed by the best play.
    fn chance(
        &self,
        state: &SpaceState<S>,
        at: &Sides<'_>,
        depth: usize,
    ) -> Result<f64, EndgameError> {
        let rules = self.space.rules();
        let mut total = 0.0;
        for (outcome, &p) in rules.device().outcomes().iter().zip(at.probabilities) {
            let mut next = *state;
            rules.throw_unchecked(&mut next, outcome.value);
            total += p * self.value(&next, at, depth)?;
        }
        Ok(total)
    }

    /// The value of `state` for the side of the evaluated state, as its compiled program
    /// would give it (the same order of moves and throws).
    fn value(
        &self,
        state: &SpaceState<S>,
        at: &Sides<'_>,
        depth: usize,
    ) -> Result<f64, EndgameError> {
        let rules = self.space.rules();
        let too_deep = || EndgameError::TooManyMoves(MAX_MOVE_CHAIN, rules.position_string(state));
        match rules.phase(state) {
            Phase::Over(outcome) => Ok(outcome.value_for(at.side)),
            Phase::Throw(to_act) => {
                let value = match self.space.index(state) {
                    Some(index) if index >= self.layer.end => {
                        return Err(EndgameError::LayerOrder {
                            from: at.from,
                            to: index,
                        });
                    }
                    Some(index) if index >= self.layer.start => at.local[index - self.layer.start],
                    Some(index) => at.solved[index],
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
                    1.0 - value
                })
            }
            Phase::Move(mover) => {
                if depth >= MAX_MOVE_CHAIN {
                    return Err(too_deep());
                }
                let mut moves = MoveList::new();
                rules.generate_moves(state, &mut moves);
                let maximise = mover == at.side;
                let mut best: Option<f64> = None;
                for &mv in moves.iter() {
                    let mut next = *state;
                    rules.play_unchecked(&mut next, mv);
                    let v = self.value(&next, at, depth + 1)?;
                    best = Some(match best {
                        None => v,
                        Some(b) if maximise => b.max(v),
                        Some(b) => b.min(v),
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

    /// The right-hand sides of `wave` into `fresh`, from the values as they are (the
    /// threads take consecutive parts; each value depends on the values before the wave
    /// only, so not on the number of threads). The first error in the wave's order, if any.
    fn evaluate_wave(
        &self,
        wave: &[u32],
        known: Known<'_>,
        local: &[f64],
        fresh: &mut [f64],
    ) -> Result<(), EndgameError> {
        let part_of = |places: &[u32], out: &mut [f64]| -> Result<(), EndgameError> {
            for (value, &place) in out.iter_mut().zip(places) {
                *value = self.evaluate(place as usize, known, local)?;
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
            self.evaluate_wave(wave, known, local, fresh)?;
            for (&place, &total) in wave.iter().zip(fresh.iter()) {
                largest = largest.max(update(local, place as usize, total, &mut record));
            }
        }
        Ok(largest)
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
struct Sides<'a> {
    /// The side to throw in the evaluated state.
    side: Side,
    /// Its index, for errors.
    from: usize,
    local: &'a [f64],
    solved: &'a [f64],
    probabilities: &'a [f64],
}

impl<S: EndgameSpace> Equations for LeanEquations<'_, S> {
    fn failed(&self) -> bool {
        self.failure
            .lock()
            .map_or(true, |failure| failure.is_some())
    }

    fn right_hand_side(&self, place: usize, known: Known<'_>, local: &[f64]) -> f64 {
        self.evaluate(place, known, local).unwrap_or_else(|e| {
            self.fail(e);
            local[place]
        })
    }

    fn policy_step(&self, _: Known<'_>, _: &mut [f64], _: Step<'_>) -> PolicyStepReport {
        // The lean method takes none (it asks for none): a step needs the equations held.
        PolicyStepReport::default()
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
                let total = self.evaluate(place, known, local)?;
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
        let seconds = solver.started.elapsed().as_secs_f64();
        drop(order);
        let residual = equations.residual(known, local);
        if let Some(error) = equations.take_failure() {
            return Err(error);
        }
        run.finish_layer(
            Tally::whole(states, sweeps).done(number, states, residual, seconds),
            stats,
        );
        Ok(())
    }
}
