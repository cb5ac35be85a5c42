//! Proven bounds of a layer's values: each component's values bracketed between a lower and
//! an upper bound that a monotone sweep proves (see the [solver's
//! documentation](super#what-it-guarantees)), then tightened.

use super::equations::{Computed, Equations, Known, Reading, bracket_update};

/// Sweeps of a bracket before it starts again wider when none of them was monotone.
const ROUND: u32 = 16;
/// Sweeps of a shaped bracket before it is given up: where a side may wait for ever at no
/// cost its upper bounds first even out, which takes a few sweeps more.
const SHAPED_ROUND: u32 = 64;
/// Sweeps of the first, narrow bracket of a component before it starts again wider.
const NARROW_ROUND: u32 = 4;
/// The narrow bracket is at least this many rounding margins each way.
const NARROW_MARGINS: f64 = 64.0;
/// How much wider a bracket starts again.
const WIDER: f64 = 16.0;
/// A proven bracket stops closing when this many sweeps have not halved its width.
const STALL_SPAN: u32 = 8;

/// The places of a component: listed, or all of a layer (which a layer swept whole on disk
/// brackets without a list of them).
#[derive(Clone, Copy)]
pub(super) enum Places<'a> {
    Listed(&'a [u32]),
    All(usize),
}

impl Places<'_> {
    /// Each place, in sweep order.
    fn each(&self) -> impl Iterator<Item = usize> + '_ {
        let (listed, all) = match *self {
            Places::Listed(places) => (places, 0),
            Places::All(count) => (&[][..], count),
        };
        listed.iter().map(|&p| p as usize).chain(0..all)
    }
}

/// What bracketing a component reads, and how far it goes.
pub(super) struct Bracketing<'a, E> {
    pub(super) equations: &'a E,
    pub(super) known: Known<'a>,
    pub(super) reading: Reading,
    /// The half width a proven bracket is tightened to, if it gets there.
    pub(super) goal: f64,
    /// The half width of a component's first bracket around its values.
    pub(super) start: f64,
    /// The most sweeps of one component.
    pub(super) max_sweeps: u32,
    /// The scratch of the policy steps of shaped brackets (see
    /// [`Equations::shaped_bracket`]).
    pub(super) slot: Vec<u32>,
    /// Whether the space has slow cycles (where the solve takes policy steps, see
    /// [`PolicySteps`](super::PolicySteps)): brackets then start narrow and, where that is
    /// not proven or stops short of the goal, are shaped; elsewhere they start `start` each
    /// way and close by sweeps, which is cheaper.
    pub(super) slow_cycles: bool,
}

impl<E: Equations> Bracketing<'_, E> {
    /// Brackets the state at `place`, alone in its component and not reading its own value,
    /// once the components it leads to are bracketed: one evaluation of its bounds, proven
    /// as they are (nothing it reads moves again), in floating point.
    pub(super) fn lone(&self, place: usize, pairs: &mut [[f64; 2]]) {
        let computed = self.equations.bracket_right_hand_side(
            place,
            self.known,
            self.reading.inherited,
            pairs,
        );
        pairs[place] = lone_bounds(computed, self.reading);
    }

    /// Brackets the component `places` (in sweep order), once the components it leads to
    /// are bracketed, its pairs holding its values as found (lower and upper bound alike),
    /// and sweeps the bounds until a sweep is monotone, which proves them, and then until
    /// they close to `goal` or stop closing. Where the space has slow cycles it starts from
    /// a narrow bracket (the earlier layers' bound each way) for [`NARROW_ROUND`] sweeps,
    /// and where that is not proven or stops short of the goal, and the layer's values
    /// `local` are given (it may change them), from a bracket shaped by how errors spread
    /// in the component ([`Equations::shaped_bracket`]), kept if it is proven narrower.
    /// Elsewhere (or without `local`) it starts from a bracket `start` each way. While none
    /// is proven, it starts again from ever wider ones, [`ROUND`] sweeps each. Returns the
    /// sweeps made.
    pub(super) fn component(
        &mut self,
        places: Places<'_>,
        pairs: &mut [[f64; 2]],
        local: Option<&mut [f64]>,
    ) -> u32 {
        let mut sweeps = 0;
        let listed = match places {
            Places::Listed(listed) => Some(listed),
            Places::All(_) => None,
        };
        let shapeable = self.slow_cycles && local.is_some() && listed.is_some();
        let mut proven = None;
        if self.slow_cycles {
            // Narrow first: where a side may wait for ever at no cost, the upper bounds of
            // its values close no further than they start (see the solver's
            // documentation).
            let narrow =
                (2.0 * self.reading.inherited).max(NARROW_MARGINS * self.reading.margin(2));
            around_midpoints(places, pairs, narrow);
            proven = self.sweep_until_proven(places, pairs, &mut sweeps, NARROW_ROUND);
        }
        if proven.is_none() && !shapeable {
            around_midpoints(places, pairs, self.start);
            proven = self.sweep_until_proven(places, pairs, &mut sweeps, ROUND);
        }
        if let Some(local) = local
            && let Some(listed) = listed
            && shapeable
            && proven.is_none_or(|width| width > self.goal)
        {
            let kept: Vec<([f64; 2], f64)> = listed
                .iter()
                .map(|&p| (pairs[p as usize], local[p as usize]))
                .collect();
            let shaped = self.equations.shaped_bracket(
                self.known,
                self.reading,
                listed,
                (local, pairs),
                &mut self.slot,
            );
            let width = if shaped {
                self.sweep_until_proven(places, pairs, &mut sweeps, SHAPED_ROUND)
            } else {
                None
            };
            match (width, proven) {
                (Some(width), Some(before)) if width < before => proven = Some(width),
                (Some(width), None) => proven = Some(width),
                _ => {
                    // The bracket before, proven or to be started again wider, and the
                    // values it is around.
                    for (&p, &(pair, value)) in listed.iter().zip(&kept) {
                        pairs[p as usize] = pair;
                        local[p as usize] = value;
                    }
                }
            }
        }
        let mut half = self.start;
        while proven.is_none() {
            // From [0, 1] the first sweep is monotone, so this ends.
            half = if sweeps >= self.max_sweeps {
                1.0
            } else {
                (half * WIDER).min(1.0)
            };
            around_midpoints(places, pairs, half);
            proven = self.sweep_until_proven(places, pairs, &mut sweeps, ROUND);
        }
        sweeps
    }

    /// Sweeps the bracket of `places` until a sweep is monotone and then tightens it (see
    /// [`component`](Self::component)), counting the sweeps in `sweeps`. Returns the half
    /// width of the bracket proven (anything if the equations failed), or `None` after
    /// [`ROUND`] sweeps none of which was monotone.
    fn sweep_until_proven(
        &self,
        places: Places<'_>,
        pairs: &mut [[f64; 2]],
        sweeps: &mut u32,
        round_most: u32,
    ) -> Option<f64> {
        let mut round = 0;
        // The sweep and the width of the last look at how fast a proven bracket closes.
        let mut looked: Option<(u32, f64)> = None;
        loop {
            let monotone = match places {
                Places::Listed(listed) => {
                    self.equations
                        .bracket_sweep(listed, self.known, self.reading, pairs)
                }
                Places::All(count) => {
                    self.equations
                        .bracket_sweep_all(count, self.known, self.reading, pairs)
                }
            };
            *sweeps += 1;
            round += 1;
            if self.equations.failed() {
                // The caller takes the failure from the equations.
                return Some(f64::INFINITY);
            }
            if !monotone {
                // A proven bracket's sweeps are monotone (see the solver's documentation):
                // one that is not, or a bracket not proven in time, starts again.
                if looked.is_some() || round >= round_most || *sweeps >= self.max_sweeps {
                    return None;
                }
                continue;
            }
            let width = half_width(places, pairs);
            if width <= self.goal || *sweeps >= self.max_sweeps {
                return Some(width);
            }
            match looked {
                None => looked = Some((*sweeps, width)),
                Some((at, before)) if *sweeps >= at + STALL_SPAN => {
                    if width > before / 2.0 {
                        return Some(width);
                    }
                    looked = Some((*sweeps, width));
                }
                Some(_) => {}
            }
        }
    }
}

/// The bounds of a state alone in its component from those of its right-hand side
/// `computed` in floating point: moved apart by the margin, with nothing to compare them
/// with, so never computed exactly (which only pays to settle a sweep).
pub(super) fn lone_bounds(computed: Computed, reading: Reading) -> [f64; 2] {
    bracket_update(
        [f64::NEG_INFINITY, f64::INFINITY],
        computed,
        reading,
        |_| None,
    )
}

/// The value a table keeps for a position found to have the value `value` and bracketed by
/// `pair`, and how far it may be from the game's: the middle of the bracket where the
/// bracket is within `narrow` each way (it closed to the precision the solve asked for, and
/// its middle is closer to the game's value than the value found); otherwise the value
/// found, within the bracket.
pub(super) fn settle(value: f64, pair: [f64; 2], narrow: f64) -> (f64, f64) {
    if radius(pair) <= narrow {
        return (midpoint(pair), radius(pair));
    }
    let kept = value.clamp(pair[0], pair[1]);
    (kept, (kept - pair[0]).max(pair[1] - kept) + f64::EPSILON)
}

/// Brackets each pair of `places` `half` each way from its middle, within 0..=1.
fn around_midpoints(places: Places<'_>, pairs: &mut [[f64; 2]], half: f64) {
    for place in places.each() {
        let m = midpoint(pairs[place]);
        pairs[place] = [(m - half).max(0.0), (m + half).min(1.0)];
    }
}

/// The middle of a bracket: the value a table keeps.
#[inline]
pub(super) fn midpoint([lo, hi]: [f64; 2]) -> f64 {
    0.5 * (lo + hi)
}

/// How far the middle of a bracket may be from a number in it, rounding included: the
/// half width, rounded to nearest, plus four units in the last place of 1 (the middle is
/// rounded once, the half width twice).
#[inline]
pub(super) fn radius([lo, hi]: [f64; 2]) -> f64 {
    0.5 * (hi - lo) + 2.0 * f64::EPSILON
}

/// The largest [`radius`] of the pairs of `places`.
fn half_width(places: Places<'_>, pairs: &[[f64; 2]]) -> f64 {
    places
        .each()
        .map(|place| radius(pairs[place]))
        .fold(0.0, f64::max)
}

/// The pairs of values `values`, each value its own lower and upper bound, in the same
/// vector: the layer's values turned into brackets without another vector of them.
pub(super) fn into_pairs(mut values: Vec<f64>) -> Vec<f64> {
    let n = values.len();
    values.resize(2 * n, 0.0);
    // From the end, so that each value is read before its place is written.
    for i in (0..n).rev() {
        let v = values[i];
        values[2 * i] = v;
        values[2 * i + 1] = v;
    }
    values
}

/// The middles of the brackets `pairs` (see [`into_pairs`]) as values, in the same vector,
/// and the largest [`radius`].
pub(super) fn into_midpoints(mut pairs: Vec<f64>) -> (Vec<f64>, f64) {
    let n = pairs.len() / 2;
    let mut largest: f64 = 0.0;
    for i in 0..n {
        let pair = [pairs[2 * i], pairs[2 * i + 1]];
        largest = largest.max(radius(pair));
        pairs[i] = midpoint(pair);
    }
    pairs.truncate(n);
    pairs.shrink_to_fit();
    (pairs, largest)
}

/// The pairs of a vector made by [`into_pairs`].
pub(super) fn as_pairs(flat: &mut [f64]) -> &mut [[f64; 2]] {
    flat.as_chunks_mut::<2>().0
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::program::{LOCAL_FLIP, LOCAL_SAME, LayerProgram, TERMINAL};

    #[test]
    fn values_become_brackets_and_come_back_as_their_middles() {
        let mut flat = into_pairs(vec![0.25, 0.5, 1.0]);
        assert_eq!(flat, [0.25, 0.25, 0.5, 0.5, 1.0, 1.0]);
        as_pairs(&mut flat)[1] = [0.5, 0.75];
        let (values, largest) = into_midpoints(flat);
        assert_eq!(values, [0.25, 0.625, 1.0]);
        assert_eq!(largest, 0.125 + 2.0 * f64::EPSILON);
    }

    #[test]
    fn a_cycle_is_bracketed_around_its_limit() {
        // Throws 1/10 and 9/10. Each of two places wins on the rare throw and otherwise
        // hands the other side the other place: x = 0.1 + 0.9 (1 − x), x = 1/1.9. The sweeps
        // close 81% of the gap each.
        let p = [0.1, 0.9];
        let program = LayerProgram::new(
            vec![0, 1],
            vec![vec![TERMINAL | 2, LOCAL_FLIP | 1, TERMINAL | 2, LOCAL_FLIP]],
            2,
        );
        let (x0, x1) = (1.0 / 1.9, 1.0 / 1.9);
        let known = Known {
            probabilities: &p,
            solved: &[],
        };
        // The values found a little off, as a solve to a tolerance leaves them.
        let mut flat = into_pairs(vec![x0 + 3e-9, x1 - 2e-9]);
        let mut bracketing = Bracketing {
            equations: &program,
            known,
            reading: Reading::new(0.0, 2, false),
            goal: 1e-12,
            start: 1e-10,
            max_sweeps: 10_000,
            slot: Vec::new(),
            slow_cycles: false,
        };
        let pairs = as_pairs(&mut flat);
        let sweeps = bracketing.component(Places::Listed(&[0, 1]), pairs, None);
        for (pair, exact) in pairs.iter().zip([x0, x1]) {
            assert!(
                pair[0] < exact && exact < pair[1],
                "{pair:?} against {exact}"
            );
            assert!(radius(*pair) <= 1e-12, "{pair:?}");
        }
        // Started too narrow, it was started again wider before a sweep proved it.
        assert!(sweeps > ROUND, "{sweeps}");
        // A value that reads itself with its whole weight is a draw however long play goes
        // on: no bracket narrower than its start is proven around it, and none is claimed.
        let endless = LayerProgram::new(vec![0], vec![vec![LOCAL_SAME, LOCAL_SAME]], 2);
        let mut flat = into_pairs(vec![0.5]);
        let mut bracketing = Bracketing {
            equations: &endless,
            ..bracketing
        };
        let pairs = as_pairs(&mut flat);
        bracketing.component(Places::All(1), pairs, None);
        assert_eq!(pairs[0], [0.0, 1.0]);
    }
}
