//! Summaries of many games: win rates with confidence intervals, and length statistics.
//!
//! Pure arithmetic, no randomness: simulations (the `simulate` example, the `senet` command)
//! feed it finished games in any order, and two summaries of disjoint batches merge into the
//! summary of both, so results do not depend on how games were split across threads.
//!
//! ```
//! use senet::stats::{wilson_interval, SimulationSummary};
//! use senet::{Outcome, PerSide, PlayoutEnd, Side};
//!
//! let mut summary = SimulationSummary::default();
//! let black_wins = PlayoutEnd::Finished(Outcome { winner: Some(Side::Black), points: PerSide::new(3, 0) });
//! summary.add(&black_wins, 120, 60);
//! summary.add(&black_wins, 80, 40);
//! assert_eq!(summary.games(), 2);
//! assert_eq!(summary.wins(Side::Black), 2);
//! assert_eq!(summary.decisions.mean(), Some(100.0));
//! let (low, high) = wilson_interval(2, 2);
//! assert!(low > 0.3 && high == 1.0);
//! ```

use senet_core::{PerSide, PlayoutEnd, Side};

/// The 95% Wilson score interval for a proportion of `successes` out of `trials`;
/// `(0.0, 1.0)` when there are no trials.
pub fn wilson_interval(successes: u64, trials: u64) -> (f64, f64) {
    if trials == 0 {
        return (0.0, 1.0);
    }
    let z = 1.959_963_984_540_054_f64;
    let n = trials as f64;
    let p = successes as f64 / n;
    let denominator = 1.0 + z * z / n;
    let centre = (p + z * z / (2.0 * n)) / denominator;
    let half = z * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt() / denominator;
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

/// Counts of a non-negative integer quantity (game lengths), kept exactly so that means,
/// medians and percentiles are exact and merging is associative.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(from = "Vec<u64>", into = "Vec<u64>")
)]
pub struct Distribution {
    counts: Vec<u64>,
    total: u64,
    sum: u128,
}

impl Distribution {
    /// Adds one observation.
    pub fn add(&mut self, value: u32) {
        let index = value as usize;
        if self.counts.len() <= index {
            self.counts.resize(index + 1, 0);
        }
        self.counts[index] += 1;
        self.total += 1;
        self.sum += u128::from(value);
    }

    /// Adds every observation of `other`.
    pub fn merge(&mut self, other: &Distribution) {
        if self.counts.len() < other.counts.len() {
            self.counts.resize(other.counts.len(), 0);
        }
        for (mine, theirs) in self.counts.iter_mut().zip(&other.counts) {
            *mine += theirs;
        }
        self.total += other.total;
        self.sum += other.sum;
    }

    /// Number of observations.
    pub fn count(&self) -> u64 {
        self.total
    }

    /// The sum of the observations.
    pub fn sum(&self) -> u128 {
        self.sum
    }

    /// The mean, if there are observations.
    pub fn mean(&self) -> Option<f64> {
        (self.total > 0).then(|| self.sum as f64 / self.total as f64)
    }

    /// The smallest value v such that at least `q` of the observations are ≤ v
    /// (`q` in 0..=1; the median is `quantile(0.5)`).
    pub fn quantile(&self, q: f64) -> Option<u32> {
        if self.total == 0 {
            return None;
        }
        let rank = ((q.clamp(0.0, 1.0) * self.total as f64).ceil() as u64).max(1);
        let mut seen = 0;
        for (value, &count) in self.counts.iter().enumerate() {
            seen += count;
            if seen >= rank {
                return u32::try_from(value).ok();
            }
        }
        None
    }

    /// The median (see [`Distribution::quantile`]).
    pub fn median(&self) -> Option<u32> {
        self.quantile(0.5)
    }

    /// The largest observation.
    pub fn max(&self) -> Option<u32> {
        self.counts
            .iter()
            .rposition(|&c| c > 0)
            .and_then(|v| u32::try_from(v).ok())
    }

    /// Observations grouped into buckets of `width` values: `(first value, count)`.
    pub fn histogram(&self, width: u32) -> Vec<(u32, u64)> {
        let width = width.max(1) as usize;
        self.counts
            .chunks(width)
            .enumerate()
            .map(|(i, chunk)| ((i * width) as u32, chunk.iter().sum()))
            .collect()
    }
}

/// A distribution serialises as its counts: `counts[v]` observations of the value `v`.
impl From<Vec<u64>> for Distribution {
    fn from(counts: Vec<u64>) -> Distribution {
        let total = counts.iter().fold(0u64, |t, &c| t.saturating_add(c));
        let sum = counts.iter().enumerate().fold(0u128, |s, (v, &c)| {
            s.saturating_add(v as u128 * u128::from(c))
        });
        Distribution { counts, total, sum }
    }
}

impl From<Distribution> for Vec<u64> {
    fn from(d: Distribution) -> Vec<u64> {
        d.counts
    }
}

/// What a batch of simulated games came to.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct SimulationSummary {
    wins: PerSide<u64>,
    draws: u64,
    capped: u64,
    /// Decisions (moves and passes) per finished or capped game.
    pub decisions: Distribution,
    /// Turns per finished or capped game.
    pub turns: Distribution,
}

impl core::iter::Sum for SimulationSummary {
    /// Merges the parts: the summary of all their games, in any order.
    fn sum<I: Iterator<Item = SimulationSummary>>(parts: I) -> SimulationSummary {
        crate::stats::merge_all(parts, SimulationSummary::merge)
    }
}

/// Folds summaries that merge exactly into one: the summaries of disjoint sets of games add up
/// to the summary of all of them, in any order, so a parallel sum gives the same result on any
/// number of threads.
pub(crate) fn merge_all<T: Default>(parts: impl Iterator<Item = T>, merge: fn(&mut T, &T)) -> T {
    parts.fold(T::default(), |mut all, part| {
        merge(&mut all, &part);
        all
    })
}

impl SimulationSummary {
    /// Adds one game.
    pub fn add(&mut self, end: &PlayoutEnd, decisions: u32, turns: u32) {
        match end {
            PlayoutEnd::Finished(outcome) => match outcome.winner {
                Some(side) => self.wins[side] += 1,
                None => self.draws += 1,
            },
            PlayoutEnd::TurnCap => self.capped += 1,
        }
        self.decisions.add(decisions);
        self.turns.add(turns);
    }

    /// Adds every game of `other`.
    pub fn merge(&mut self, other: &SimulationSummary) {
        for side in Side::BOTH {
            self.wins[side] += other.wins[side];
        }
        self.draws += other.draws;
        self.capped += other.capped;
        self.decisions.merge(&other.decisions);
        self.turns.merge(&other.turns);
    }

    /// Games added.
    pub fn games(&self) -> u64 {
        self.wins[Side::Black] + self.wins[Side::White] + self.draws + self.capped
    }

    /// Games won by `side`.
    pub fn wins(&self, side: Side) -> u64 {
        self.wins[side]
    }

    /// Games drawn.
    pub fn draws(&self) -> u64 {
        self.draws
    }

    /// Games stopped by the turn cap.
    pub fn capped(&self) -> u64 {
        self.capped
    }

    /// `side`'s share of all games, with its 95% Wilson interval.
    pub fn win_rate(&self, side: Side) -> (f64, (f64, f64)) {
        let games = self.games();
        let wins = self.wins(side);
        let rate = if games == 0 {
            0.0
        } else {
            wins as f64 / games as f64
        };
        (rate, wilson_interval(wins, games))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use senet_core::Outcome;

    #[test]
    fn wilson_matches_known_values() {
        // 50 of 100: about 0.404 to 0.596.
        let (low, high) = wilson_interval(50, 100);
        assert!((low - 0.4038).abs() < 1e-3 && (high - 0.5962).abs() < 1e-3);
        assert_eq!(wilson_interval(0, 0), (0.0, 1.0));
        let (low, _) = wilson_interval(0, 10);
        assert_eq!(low, 0.0);
    }

    #[test]
    fn distribution_statistics_are_exact() {
        let mut d = Distribution::default();
        for v in [5, 1, 3, 3, 10] {
            d.add(v);
        }
        assert_eq!(d.count(), 5);
        assert_eq!(d.sum(), 22);
        assert_eq!(d.mean(), Some(4.4));
        assert_eq!(d.median(), Some(3));
        assert_eq!(d.quantile(0.0), Some(1));
        assert_eq!(d.quantile(1.0), Some(10));
        assert_eq!(d.max(), Some(10));
        assert_eq!(d.histogram(5), vec![(0, 3), (5, 1), (10, 1)]);
        assert_eq!(Distribution::default().median(), None);
    }

    #[test]
    fn merging_is_the_same_as_adding_everything_to_one() {
        let ends = [
            PlayoutEnd::Finished(Outcome {
                winner: Some(Side::Black),
                points: PerSide::new(1, 0),
            }),
            PlayoutEnd::Finished(Outcome {
                winner: Some(Side::White),
                points: PerSide::new(0, 2),
            }),
            PlayoutEnd::Finished(Outcome {
                winner: None,
                points: PerSide::both(5),
            }),
            PlayoutEnd::TurnCap,
        ];
        let mut all = SimulationSummary::default();
        let mut left = SimulationSummary::default();
        let mut right = SimulationSummary::default();
        for (i, end) in ends.iter().cycle().take(40).enumerate() {
            let (d, t) = (i as u32 * 7 % 50, i as u32 % 13);
            all.add(end, d, t);
            if i % 3 == 0 {
                left.add(end, d, t);
            } else {
                right.add(end, d, t);
            }
        }
        right.merge(&left);
        assert_eq!(right.games(), all.games());
        assert_eq!(right.wins(Side::White), all.wins(Side::White));
        assert_eq!(right.draws(), all.draws());
        assert_eq!(right.capped(), all.capped());
        assert_eq!(right.decisions.median(), all.decisions.median());
        assert_eq!(right.turns.mean(), all.turns.mean());
        assert_eq!(all.games(), 40);
        assert_eq!(all.capped(), 10);
    }
}
