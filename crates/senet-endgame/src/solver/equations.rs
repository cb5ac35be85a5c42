//! The equations of a layer as the sweeps see them, whatever holds them: compiled
//! programs in memory or on disk, or the turn machine itself (the lean method).

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

    /// A policy step on the places `hot` (see [`frozen_step`](super::policy::frozen_step)); only asked of
    /// equations that take them.
    fn policy_step(&self, known: Known<'_>, local: &mut [f64], step: Step<'_>) -> PolicyStepReport;

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
