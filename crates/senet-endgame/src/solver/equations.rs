//! The equations of a layer as the sweeps see them, whatever holds them: compiled
//! programs in memory or on disk, or the turn machine itself (the lean method).

use super::exact::Expansion;
use super::options::PolicyStepReport;

/// What the right-hand sides of a layer read besides the layer's own values: the chance of
/// each throw, in the device's order, and the final values of the earlier layers.
#[derive(Clone, Copy)]
pub(super) struct Known<'a> {
    pub(super) probabilities: &'a [f64],
    pub(super) solved: &'a [f64],
}

/// What a sweep notes of the places that move: with `Some((threshold, most, places))`,
/// those whose value moved by more than `threshold` are appended to `places`, one more than
/// `most` at the most.
pub(super) type Record<'a> = Option<(f64, usize, &'a mut Vec<u32>)>;

/// The places a policy step solves for, ascending, and its scratch: an entry per place of
/// the layer, all `u32::MAX`, which it leaves so.
pub(super) struct Step<'a> {
    pub(super) hot: &'a [u32],
    pub(super) slot: &'a mut [u32],
}

/// The equations of a layer, one per place: what the sweeps need of them. The compiled
/// programs (`LayerProgram` in `program.rs`) are one form; the lean solver's, recomputed from the turn
/// machine at each evaluation, the other.
pub(super) trait Equations: Sync {
    /// The right-hand side of the state at `place` for the current values.
    fn right_hand_side(&self, place: usize, known: Known<'_>, local: &[f64]) -> f64;

    /// A policy step on the places `hot` (see the [module on policy steps](super::policy)); only asked of
    /// equations that take them.
    fn policy_step(&self, known: Known<'_>, local: &mut [f64], step: Step<'_>) -> PolicyStepReport;

    /// A lower and an upper bound of the right-hand side at `place`, from the bounds
    /// `pairs` of the layer's values and the earlier layers' values, each within
    /// `inherited` of the game's (see [`bracket`](super::bracket)), in floating point.
    fn bracket_right_hand_side(
        &self,
        place: usize,
        known: Known<'_>,
        inherited: f64,
        pairs: &[[f64; 2]],
    ) -> Computed;

    /// The same bound exactly, the lower one (`upper` false) or the upper one, where the
    /// equations can give it (see [`exact`](super::exact)); `None` where they cannot.
    fn exact_bound(
        &self,
        place: usize,
        known: Known<'_>,
        (inherited, upper): (f64, bool),
        pairs: &[[f64; 2]],
    ) -> Option<Expansion> {
        let _ = (place, known, inherited, upper, pairs);
        None
    }

    /// A Gauss–Seidel sweep of the bounds over `places` in their order: each pair replaced
    /// by the bounds of its right-hand side (see [`bracket_update`]). Returns whether the
    /// sweep was monotone: no lower bound fell and no upper bound rose.
    fn bracket_sweep(
        &self,
        places: &[u32],
        known: Known<'_>,
        reading: Reading,
        pairs: &mut [[f64; 2]],
    ) -> bool {
        let mut monotone = true;
        for &place in places {
            let place = place as usize;
            let new = self.bracket_update(place, known, reading, pairs);
            monotone &= update_pair(pairs, place, new);
        }
        monotone
    }

    /// [`bracket_sweep`](Self::bracket_sweep) over places `0..count` in order.
    fn bracket_sweep_all(
        &self,
        count: usize,
        known: Known<'_>,
        reading: Reading,
        pairs: &mut [[f64; 2]],
    ) -> bool {
        let mut monotone = true;
        for place in 0..count {
            let new = self.bracket_update(place, known, reading, pairs);
            monotone &= update_pair(pairs, place, new);
        }
        monotone
    }

    /// The new bounds of `place` from `pairs` (see [`bracket_update`]).
    fn bracket_update(
        &self,
        place: usize,
        known: Known<'_>,
        reading: Reading,
        pairs: &[[f64; 2]],
    ) -> [f64; 2] {
        let computed = self.bracket_right_hand_side(place, known, reading.inherited, pairs);
        bracket_update(pairs[place], computed, reading, |upper| {
            self.exact_bound(place, known, (reading.inherited, upper), pairs)
        })
    }

    /// A bracket for the component `places` (ascending, those it leads to bracketed) shaped
    /// by how far an error spreads in it: the component solved again in `local` with its
    /// decisions frozen (a policy step on all of it), its `pairs` the values so found a
    /// place's share of the spread apart each way (see [`bracket`](super::bracket)).
    /// `slot` is the scratch of the policy step (made on first use). Returns whether it
    /// could: not where the equations are not held in memory, nor where play under the
    /// frozen decisions never leaves part of the component.
    fn shaped_bracket(
        &self,
        known: Known<'_>,
        reading: Reading,
        places: &[u32],
        local_and_pairs: (&mut [f64], &mut [[f64; 2]]),
        slot: &mut Vec<u32>,
    ) -> bool {
        let _ = (known, reading, places, local_and_pairs, slot);
        false
    }

    /// Whether evaluating failed (a scratch file could not be read, say): the sweeps stop,
    /// and the caller asks the equations why.
    fn failed(&self) -> bool {
        false
    }

    /// One Gauss–Seidel sweep over `places` in their order: each value is replaced by its
    /// right-hand side as it is computed. Returns the largest change; with `record`, the
    /// places whose value changed by more than its threshold are appended to its list (one
    /// more than its limit at most).
    fn sweep(
        &self,
        places: &[u32],
        known: Known<'_>,
        local: &mut [f64],
        record: Record<'_>,
    ) -> f64 {
        sweep_places(places, local, record, |place, local| {
            self.right_hand_side(place, known, local)
        })
    }

    /// The Bellman residual of the layer: the largest `|V(s) − right-hand side(s)|`.
    fn residual(&self, known: Known<'_>, local: &[f64]) -> f64 {
        let mut largest: f64 = 0.0;
        for (place, &value) in local.iter().enumerate() {
            let total = self.right_hand_side(place, known, local);
            largest = largest.max((total - value).abs());
        }
        largest
    }
}

/// A Gauss–Seidel sweep over `places` in their order, `right_hand_side(place, values)`
/// giving each new value (see [`Equations::sweep`]).
pub(super) fn sweep_places(
    places: &[u32],
    local: &mut [f64],
    mut record: Record<'_>,
    mut right_hand_side: impl FnMut(usize, &[f64]) -> f64,
) -> f64 {
    let mut largest: f64 = 0.0;
    for &place in places {
        let place = place as usize;
        let total = right_hand_side(place, local);
        largest = largest.max(update(local, place, total, &mut record));
    }
    largest
}

/// What a sweep of brackets reads besides the layer's brackets (see
/// [`bracket`](super::bracket)).
#[derive(Clone, Copy, Debug)]
pub(super) struct Reading {
    /// How far each earlier layer's value may be from the game's.
    pub(super) inherited: f64,
    /// Whether a bound may be computed exactly where floating point does not settle it
    /// (the throws' probabilities are exact doubles).
    pub(super) exact: bool,
    /// The rounding margin of bounds computed through no weighted sum, and what each adds
    /// (see [`rounding_margin`]).
    margins: [f64; 2],
}

impl Reading {
    /// What a sweep reads, the earlier layers' values within `inherited`, the throws'
    /// `outcomes` the terms of each weighted sum.
    pub(super) fn new(inherited: f64, outcomes: usize, exact: bool) -> Reading {
        let base = rounding_margin(outcomes, inherited, 0);
        Reading {
            inherited,
            exact,
            margins: [base, rounding_margin(outcomes, inherited, 1) - base],
        }
    }

    /// More than the rounding error of bounds computed in floating point through `levels`
    /// nested weighted sums (see [`rounding_margin`]; rounded up, as that is linear in the
    /// levels but for rounding).
    #[inline]
    pub(super) fn margin(&self, levels: u32) -> f64 {
        (self.margins[0] + f64::from(levels) * self.margins[1]) * (1.0 + f64::EPSILON)
    }
}

/// Bounds of a right-hand side computed in floating point, and how many weighted sums
/// deep they were computed (which bounds their rounding, [`rounding_margin`]).
#[derive(Clone, Copy, Debug)]
pub(super) struct Computed {
    pub(super) bounds: [f64; 2],
    pub(super) levels: u32,
}

/// The new bounds of a place whose bounds are `old`, from the bounds of its right-hand
/// side `computed` in floating point, or where those would not be monotone and
/// `reading.exact`, from its bounds computed exactly (`exact(upper)`).
///
/// What the bounds must satisfy to be proven (see the solver's documentation): a lower
/// bound at most its right-hand side, strictly below it where it is above ½; an upper
/// bound at least its right-hand side, strictly above it where it is below ½. The bounds
/// computed, moved apart by more than their rounding ([`rounding_margin`]), are so,
/// strictly, everywhere (0 and 1 are at most and at least any right-hand side). From an
/// exact bound `f`, the lower bound is the largest double at most `f` where that is at most
/// ½, otherwise the largest below `f`; likewise the upper one. Where play may go on for
/// ever with the right-hand sides equal to the values, only those reach a monotone sweep.
pub(super) fn bracket_update(
    old: [f64; 2],
    computed: Computed,
    reading: Reading,
    mut exact: impl FnMut(bool) -> Option<Expansion>,
) -> [f64; 2] {
    let margin = reading.margin(computed.levels);
    let [mut lo, mut hi] = widen(computed.bounds, margin);
    // Exactly, a bound is at most the margin and the rounding better than computed: only
    // where that is what it lacks is it worth computing.
    let within = 2.0 * margin;
    if reading.exact
        && lo < old[0]
        && old[0] - lo <= within
        && let Some(f) = exact(false)
        && let Some(down) = f.round_down()
    {
        lo = if down > 0.5 && f.is(down) {
            down.next_down()
        } else {
            down
        }
        .max(0.0);
    }
    if reading.exact
        && hi > old[1]
        && hi - old[1] <= within
        && let Some(f) = exact(true)
        && let Some(up) = f.round_up()
    {
        hi = if up < 0.5 && f.is(up) {
            up.next_up()
        } else {
            up
        }
        .min(1.0);
    }
    [lo, hi]
}

/// Sets the bounds at `place` to `new`; returns whether that was monotone (the lower bound
/// did not fall, the upper bound did not rise).
#[inline]
pub(super) fn update_pair(pairs: &mut [[f64; 2]], place: usize, new: [f64; 2]) -> bool {
    let [lo, hi] = pairs[place];
    pairs[place] = new;
    new[0] >= lo && new[1] <= hi
}

/// Bounds of a right-hand side computed in floating point, moved apart by `margin` (more
/// than the rounding error of the computation, [`rounding_margin`]) and kept within the
/// values' range: bounds of the exact right-hand side, the lower one strictly below it
/// unless it is 0, the upper one strictly above it unless it is 1.
#[inline]
pub(super) fn widen([lo, hi]: [f64; 2], margin: f64) -> [f64; 2] {
    [(lo - margin).max(0.0), (hi + margin).min(1.0)]
}

/// More than the rounding error of bounds of a right-hand side computed in floating point
/// through `levels` nested weighted sums of `outcomes` terms, the earlier layers' values
/// within `inherited`.
///
/// Decisions (maxima, minima) round nothing. A weighted sum adds `outcomes` products of a
/// probability (itself rounded, relative error `u = 2⁻⁵³`) and a number of size at most
/// `1 + inherited`, which rounds it by at most `γ_n + u` (`γ_n = n·u / (1 − n·u)`) times
/// that size on top of its terms' errors; a leaf (`1 − v`, `v ± inherited`) rounds by at
/// most `2u` times it, and moving the result apart by the margin by `u`. So `L` levels round
/// by at most `(L·(γ_n + u) + 3u)·(1 + inherited)` up to terms of order `u²`, which the
/// factor `1 + 2⁻²⁰` (and a fourth `u`) covers.
pub(super) fn rounding_margin(outcomes: usize, inherited: f64, levels: u32) -> f64 {
    let unit = f64::EPSILON / 2.0;
    let n = outcomes as f64;
    let gamma = n * unit / (1.0 - n * unit);
    (f64::from(levels) * (gamma + unit) + 4.0 * unit)
        * (1.0 + inherited)
        * (1.0 + 1.0 / f64::from(1u32 << 20))
}

/// Sets the value at `place` to `total` and returns how far it moved; with `record`, notes
/// the place as hot when it moved by more than the threshold and the list holds at most its
/// limit.
#[inline]
pub(super) fn update(local: &mut [f64], place: usize, total: f64, record: &mut Record<'_>) -> f64 {
    let change = (total - local[place]).abs();
    if let Some((threshold, most, hot)) = record
        && change > *threshold
        && hot.len() <= *most
    {
        hot.push(place as u32);
    }
    local[place] = total;
    change
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::program::{LOCAL_FLIP, LayerProgram, TERMINAL};

    #[test]
    fn a_sweep_uses_new_values_at_once() {
        // Place 0 wins at once; place 1 passes the turn to place 0 (the other side).
        let program = LayerProgram::new(vec![7, 8], vec![vec![TERMINAL | 2, LOCAL_FLIP]], 1);
        let mut local = vec![0.5, 0.5];
        let mut hot = Vec::new();
        let known = Known {
            probabilities: &[1.0],
            solved: &[],
        };
        let change = program.sweep(&[0, 1], known, &mut local, Some((0.1, 5, &mut hot)));
        assert_eq!(change, 0.5);
        assert_eq!(local, [1.0, 0.0]);
        assert_eq!(hot, [0, 1]);
        assert_eq!(program.residual(known, &local), 0.0);
    }
}
