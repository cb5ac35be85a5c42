//! Sweeps of the states that converge slowly, on their own.

use super::equations::{Equations, Known};

/// Sweeps the places `hot` (ascending) on their own, the rest of the layer held fixed,
/// until no value among them changes by more than `target` or `budget` evaluations are
/// spent. Returns the sweeps made.
pub(super) fn settle_hot<E: Equations>(
    program: &E,
    known: Known<'_>,
    local: &mut [f64],
    hot: &[u32],
    target: f64,
    budget: usize,
) -> u32 {
    let mut sweeps = 0;
    let mut spent = 0;
    let mut trend = Trend::new();
    while spent < budget {
        let largest = program.sweep(hot, known, local, None);
        sweeps += 1;
        spent += hot.len();
        if largest <= target {
            break;
        }
        if sweeps % TREND_BLOCK == 0 {
            trend.observe(hot, local);
        }
    }
    sweeps
}

/// Sweeps between two looks at how the hot values move.
const TREND_BLOCK: u32 = 64;
/// How far a value is moved towards the limit its trend points to (the rest is left to the
/// sweeps, so that an estimate a little off never carries a value past its limit).
const TREND_DAMPING: f64 = 0.5;

/// Follows the values of hot states from block to block of [`TREND_BLOCK`] sweeps and moves
/// each one ahead where it converges geometrically.
///
/// In a slow cycle the values approach their limit like `V∞ − c·λⁿ` with `λ` close to 1
/// (a side waiting, by passing, for a configuration that comes up once in thousands of
/// turns). When the differences between a value at successive block ends shrink by a steady
/// ratio `q`, the remaining distance is `d·q/(1 − q)` with `d` the last difference (Aitken's
/// extrapolation), and the value is moved by [`TREND_DAMPING`] of it. A value moved past its
/// limit might never come back (in a cycle where one side passes, any higher value is in
/// balance too), so a value moves only when its last two ratios agree to within 1% of
/// `1 − q`, and only part of the way.
struct Trend {
    /// The hot values at the last block ends, oldest first (at most four).
    seen: Vec<Vec<f64>>,
}

impl Trend {
    fn new() -> Trend {
        Trend { seen: Vec::new() }
    }

    /// Records the hot values at a block end, and moves those with a steady trend.
    fn observe(&mut self, places: &[u32], local: &mut [f64]) {
        self.seen
            .push(places.iter().map(|&place| local[place as usize]).collect());
        if self.seen.len() < 4 {
            return;
        }
        if self.seen.len() > 4 {
            self.seen.remove(0);
        }
        let mut moved = false;
        for (i, &place) in places.iter().enumerate() {
            let place = place as usize;
            let v = [
                self.seen[0][i],
                self.seen[1][i],
                self.seen[2][i],
                self.seen[3][i],
            ];
            let d = [v[1] - v[0], v[2] - v[1], v[3] - v[2]];
            let same_sign = d.iter().all(|x| *x > 0.0) || d.iter().all(|x| *x < 0.0);
            if !same_sign {
                continue;
            }
            let (q1, q2) = (d[1] / d[0], d[2] / d[1]);
            if !(0.0..1.0).contains(&q2) || (q2 - q1).abs() > 0.01 * (1.0 - q2) {
                continue;
            }
            let ahead = TREND_DAMPING * d[2] * q2 / (1.0 - q2);
            local[place] = (v[3] + ahead).clamp(0.0, 1.0);
            moved = true;
        }
        if moved {
            // The moved values start a new trend.
            self.seen.clear();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::program::{LOCAL_FLIP, LOCAL_SAME, LayerProgram, TERMINAL};

    #[test]
    fn settling_hot_states_sweeps_only_them() {
        // Place 0: ½ · win + ½ · itself (converges slowly towards 1); place 1: itself flipped
        // (untouched when not hot); place 2: a draw.
        let program = LayerProgram::new(
            vec![0, 1, 2],
            vec![vec![
                TERMINAL | 2,
                LOCAL_SAME,
                LOCAL_FLIP | 1,
                LOCAL_FLIP | 1,
                TERMINAL | 1,
                TERMINAL | 1,
            ]],
            2,
        );
        let known = Known {
            probabilities: &[0.5, 0.5],
            solved: &[],
        };
        let mut local = vec![0.5, 0.25, 0.5];
        let sweeps = settle_hot(&program, known, &mut local, &[0, 2], 1e-12, 1000);
        assert!((local[0] - 1.0).abs() < 1e-11, "{local:?}");
        assert_eq!(local[1], 0.25);
        assert_eq!(local[2], 0.5);
        assert!(sweeps > 30 && sweeps < 50, "{sweeps}");
        // The budget stops it.
        let mut local = vec![0.5, 0.25, 0.5];
        assert_eq!(settle_hot(&program, known, &mut local, &[0], 0.0, 10), 10);
    }
}
