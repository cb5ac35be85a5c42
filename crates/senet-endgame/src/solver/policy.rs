//! Policy steps: the decisions frozen, the linear equations left solved at once.

use super::components::components;
use super::equations::{Computed, Equations, Known, Reading, Step};
use super::exact::{Expansion, exact_bound};
use super::linear::{Rows, solve_dense, solve_sparse};
use super::options::PolicyStepReport;
use super::program::{
    LayerProgram, PAYLOAD, TAG_SHIFT, TERMINAL_VALUES, bracket_right_hand_side, evaluate,
    right_hand_side, skip,
};

/// Components up to this many states are solved exactly (dense elimination); larger ones
/// are left to the sweeps.
const DENSE_MOST: usize = 64;
/// A component whose every row keeps at least `1 − ESCAPE` of its weight inside it is one
/// that play never leaves under the frozen decisions: its equations are singular.
const ESCAPE: f64 = 1e-12;

/// Where the program of a place starts: in a layer's compiled chunks ([`LayerProgram`]), or
/// among the programs of some places copied aside (the on-disk method's hot states).
pub(super) trait Programs {
    /// The words holding the program of `place`, and where in them it starts.
    fn program(&self, place: usize) -> (&[u32], usize);
}

impl Programs for LayerProgram {
    #[inline]
    fn program(&self, place: usize) -> (&[u32], usize) {
        LayerProgram::program(self, place)
    }
}

/// The equations of programs held in memory: a compiled layer ([`LayerProgram`]), or the
/// programs of some places copied aside on disk.
impl<P: Programs + Sync> Equations for P {
    #[inline]
    fn right_hand_side(&self, place: usize, known: Known<'_>, local: &[f64]) -> f64 {
        let (words, mut at) = self.program(place);
        right_hand_side(words, &mut at, known, local)
    }

    #[inline]
    fn bracket_right_hand_side(
        &self,
        place: usize,
        known: Known<'_>,
        inherited: f64,
        pairs: &[[f64; 2]],
    ) -> Computed {
        let (words, mut at) = self.program(place);
        bracket_right_hand_side(words, &mut at, known, inherited, pairs)
    }

    fn exact_bound(
        &self,
        place: usize,
        known: Known<'_>,
        inherited_and_upper: (f64, bool),
        pairs: &[[f64; 2]],
    ) -> Option<Expansion> {
        let (words, mut at) = self.program(place);
        exact_bound(words, &mut at, known, inherited_and_upper, pairs)
    }

    /// Freezes every decision of the right-hand sides of the places `step.hot` at the move
    /// that is best for the current values, and solves the linear equations that are left
    /// for their values, the rest of the layer held fixed.
    fn policy_step(&self, known: Known<'_>, local: &mut [f64], step: Step<'_>) -> PolicyStepReport {
        let Step { hot, slot } = step;
        let rows = frozen_rows(self, known, (local, hot), slot, None);
        let mut report = solve_rows(&rows, hot, local);
        // Not repeated with the decisions that are best for the new values (Howard's policy
        // iteration): that can reach another solution of the equations, one in which an
        // endless cycle is not worth a draw.
        report.residual = residual_at(self, known, local, hot);
        report
    }

    /// Solves the component again with a policy step on all of its places, then brackets
    /// each value `w` each way, `w` the solution of `w = c + |A|·w`: `A` the frozen
    /// equations' weights within the component, `c` what the bracket of each place lacks
    /// when the component's own values are taken as exact (their residual, and the width
    /// of the brackets they read outside the component), a little more.
    fn shaped_bracket(
        &self,
        known: Known<'_>,
        reading: Reading,
        places: &[u32],
        (local, pairs): (&mut [f64], &mut [[f64; 2]]),
        slot: &mut Vec<u32>,
    ) -> bool {
        if slot.is_empty() {
            slot.resize(local.len(), u32::MAX);
        }
        // Where a move that leaves the component is as good as one that stays, to within
        // the values' rounding, the bracket's shape takes the one that leaves: one whose
        // waiting is worth no more than going needs play to leave to be proven.
        let tie = Some(TIE_MARGINS * reading.margin(2));
        let mut rows = frozen_rows(self, known, (local, places), slot, tie);
        solve_rows(&rows, places, local);
        // One step of iterative refinement: what the solver left of the equations, solved
        // for again, takes the values to rounding (the bracket is as wide as what its
        // centre lacks, magnified by how long play stays in the component).
        for (i, &place) in places.iter().enumerate() {
            let mut total = rows.constant[i];
            for t in rows.start[i]..rows.start[i + 1] {
                total += rows.coefficient[t] * local[places[rows.column[t] as usize] as usize];
            }
            rows.constant[i] = total - local[place as usize];
        }
        if let Some(correction) = solve_exactly(&rows, false) {
            for (&place, d) in places.iter().zip(correction) {
                let x = &mut local[place as usize];
                *x = (*x + d).clamp(0.0, 1.0);
            }
        }
        let mut rows = frozen_rows(self, known, (local, places), slot, tie);
        for &place in places {
            pairs[place as usize] = [local[place as usize]; 2];
        }
        for (i, &place) in places.iter().enumerate() {
            let x = local[place as usize];
            let computed =
                self.bracket_right_hand_side(place as usize, known, reading.inherited, pairs);
            let [lo, hi] = computed.bounds;
            let lacking = (x - lo).max(hi - x).max(0.0);
            rows.constant[i] = (lacking + 2.0 * reading.margin(computed.levels)) * SHAPE_SLACK;
        }
        for a in &mut rows.coefficient {
            *a = a.abs();
        }
        let Some(spread) = solve_exactly(&rows, true) else {
            return false;
        };
        for (&place, w) in places.iter().zip(spread) {
            let x = local[place as usize];
            pairs[place as usize] = [(x - w).max(0.0), (x + w).min(1.0)];
        }
        true
    }
}

/// How much more than it lacks a shaped bracket gives each place (see
/// [`Equations::shaped_bracket`]): the room that makes the sweep that proves it monotone
/// even where the linear solver is a little off.
const SHAPE_SLACK: f64 = 1.0 + 1.0 / 64.0;

/// Moves within this many rounding margins of the best are a tie for a shaped bracket's
/// decisions (see [`Equations::shaped_bracket`]).
const TIE_MARGINS: f64 = 16.0;

/// The solution of the equations `rows`, component by component; `None` where a component
/// is never left (its equations are singular) or is not solved. With `at_least_constant`,
/// each value is at least its constant (as the exact solution is when every weight is
/// nonnegative).
fn solve_exactly(rows: &Rows, at_least_constant: bool) -> Option<Vec<f64>> {
    let (members, bounds) = components(rows);
    let n = rows.constant.len();
    let mut x = vec![0.0; n];
    let mut position = vec![u32::MAX; n];
    let mut system = System::default();
    for bound in bounds.windows(2) {
        let component = &members[bound[0]..bound[1]];
        let size = component.len();
        for (k, &i) in component.iter().enumerate() {
            position[i as usize] = k as u32;
        }
        if !system.gather(rows, component, &position, &x) {
            return None;
        }
        let solution = if system.dense {
            solve_dense(&mut system.matrix, &mut system.right, size)?
        } else {
            let guess = system.right.clone();
            solve_sparse(&system.sparse, &system.right, guess).x?
        };
        for (&i, v) in component.iter().zip(solution) {
            let constant = rows.constant[i as usize];
            if !v.is_finite() {
                return None;
            }
            x[i as usize] = if at_least_constant {
                v.max(constant)
            } else {
                v
            };
            position[i as usize] = u32::MAX;
        }
    }
    Some(x)
}

/// The largest `|V(s) − right-hand side(s)|` over the places of `places`.
fn residual_at<P: Programs>(programs: &P, known: Known<'_>, local: &[f64], places: &[u32]) -> f64 {
    let mut largest: f64 = 0.0;
    for &place in places {
        let place = place as usize;
        let (words, mut at) = programs.program(place);
        let total = right_hand_side(words, &mut at, known, local);
        largest = largest.max((total - local[place]).abs());
    }
    largest
}

/// The right-hand sides of the places `hot` as linear equations in their values (a row
/// each, in their order), every decision frozen at the move that is best for the current
/// values.
fn frozen_rows<P: Programs>(
    programs: &P,
    Known {
        probabilities,
        solved,
    }: Known<'_>,
    (local, hot): (&[f64], &[u32]),
    slot: &mut [u32],
    exits_within: Option<f64>,
) -> Rows {
    for (i, &place) in hot.iter().enumerate() {
        slot[place as usize] = i as u32;
    }
    let mut rows = Rows::default();
    rows.start.push(0);
    let mut terms: Vec<(u32, f64)> = Vec::new();
    for &place in hot {
        terms.clear();
        let mut constant = 0.0;
        let (words, mut at) = programs.program(place as usize);
        let linear = Linear {
            words,
            probabilities,
            local,
            solved,
            slot,
            exits_within,
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
    rows
}

/// Solves the frozen equations `rows` of the places `hot` (a row each, in their order)
/// component by component, in an order where every component's successors come first, and
/// writes the values found into `local`. A component that play never leaves, or that the
/// sparse solver does not improve, is left as it is.
fn solve_rows(rows: &Rows, hot: &[u32], local: &mut [f64]) -> PolicyStepReport {
    let (members, bounds) = components(rows);
    let mut x: Vec<f64> = hot.iter().map(|&place| local[place as usize]).collect();
    let mut position = vec![u32::MAX; hot.len()];
    let mut report = PolicyStepReport {
        components: bounds.len() - 1,
        ..PolicyStepReport::default()
    };
    let mut system = System::default();
    for bound in bounds.windows(2) {
        let component = &members[bound[0]..bound[1]];
        let n = component.len();
        for (k, &i) in component.iter().enumerate() {
            position[i as usize] = k as u32;
        }
        let escapes = system.gather(rows, component, &position, &x);
        let solution = if !escapes {
            None
        } else if system.dense {
            solve_dense(&mut system.matrix, &mut system.right, n)
        } else {
            let guess: Vec<f64> = component.iter().map(|&i| x[i as usize]).collect();
            let solved = solve_sparse(&system.sparse, &system.right, guess);
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
    report
}

/// The equations of one component with everything outside it (solved already, or held
/// fixed) moved into the constants: `I − A` inside, as dense rows for a small component,
/// as sparse rows for a large one. Kept from component to component for its room.
#[derive(Default)]
struct System {
    dense: bool,
    matrix: Vec<f64>,
    right: Vec<f64>,
    sparse: Rows,
}

impl System {
    /// Gathers the equations of `component` (rows of `rows`), `position` giving each row's
    /// place in it (`u32::MAX` outside), `x` the values outside. Returns whether play can
    /// leave the component: when no row loses any weight outside, its equations are
    /// singular.
    fn gather(&mut self, rows: &Rows, component: &[u32], position: &[u32], x: &[f64]) -> bool {
        let n = component.len();
        let mut escapes = false;
        self.dense = n <= DENSE_MOST;
        self.matrix.clear();
        if self.dense {
            self.matrix.resize(n * n, 0.0);
            for k in 0..n {
                self.matrix[k * n + k] = 1.0;
            }
        } else {
            self.sparse.start.clear();
            self.sparse.start.push(0);
            self.sparse.column.clear();
            self.sparse.coefficient.clear();
        }
        self.right.clear();
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
                    if self.dense {
                        self.matrix[k * n + at as usize] -= a;
                    } else {
                        self.sparse.column.push(at);
                        self.sparse.coefficient.push(a);
                    }
                }
            }
            escapes |= inside < 1.0 - ESCAPE;
            self.right.push(b);
            if !self.dense {
                self.sparse.start.push(self.sparse.column.len());
            }
        }
        escapes
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
    /// With `Some(tie)`, a decision among moves within `tie` of the best takes one that
    /// leaves the states solved for, if any: a bracket's shape needs play to leave them.
    exits_within: Option<f64>,
}

impl Linear<'_> {
    /// Whether the words `from..to` name a state solved for.
    fn reads_solved_for(&self, from: usize, to: usize) -> bool {
        self.words[from..to]
            .iter()
            .any(|&word| word >> TAG_SHIFT <= 1 && self.slot[(word & PAYLOAD) as usize] != u32::MAX)
    }

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
                let start = probe;
                let mut best_value = evaluate(
                    self.words,
                    &mut probe,
                    self.probabilities,
                    self.local,
                    self.solved,
                );
                let mut best_stays =
                    self.exits_within.is_some() && self.reads_solved_for(start, probe);
                for k in 1..payload {
                    let start = probe;
                    let v = evaluate(
                        self.words,
                        &mut probe,
                        self.probabilities,
                        self.local,
                        self.solved,
                    );
                    let better = (tag == 4 && v > best_value) || (tag == 5 && v < best_value);
                    let take = match self.exits_within {
                        Some(tie) if (v - best_value).abs() <= tie => {
                            let stays = self.reads_solved_for(start, probe);
                            if stays == best_stays { better } else { !stays }
                        }
                        _ => better,
                    };
                    if take {
                        best = k;
                        best_value = v;
                        best_stays =
                            self.exits_within.is_some() && self.reads_solved_for(start, probe);
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::equations::Equations;
    use crate::solver::program::{LOCAL_SAME, MAXIMUM, TERMINAL};

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
        let known = Known {
            probabilities: &p,
            solved: &[],
        };
        let hot = [0, 1, 2];
        let step = program.policy_step(
            known,
            &mut local,
            Step {
                hot: &hot,
                slot: &mut slot,
            },
        );
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
            program.sweep(&[0, 1, 2], known, &mut plain, None);
        }
        assert!((plain[0] - 1.0).abs() > 0.01, "{plain:?}");
        assert_eq!(plain[2], 0.5);
    }
}
