//! Ratings of players from the games they played against each other: a Bradley–Terry fit on
//! the Elo scale, with 95% intervals.
//!
//! The model gives player `i` a strength `θᵢ` and `i` the chance `1 / (1 + e^(θⱼ − θᵢ))` of
//! beating `j`; ratings are `θ` in Elo points (`400 / ln 10` per unit), so a difference of
//! 400 means odds of 10 to 1. The strengths are fitted by maximum likelihood (Newton's
//! method on a concave log-likelihood) relative to one player, the anchor, rated 0; the
//! intervals come from the inverse of the Fisher information, so they say how well each
//! player's distance from the anchor is known. A draw counts half a win to each side.
//!
//! A player that won (or lost) every one of its games would be rated infinitely far away;
//! as in BayesElo, [`PRIOR_DRAWS`] virtual drawn games between every pair that met keep the
//! fit finite; next to pairs that played hundreds of games its pull is small against the
//! width of the intervals.
//!
//! ```
//! use senet::rating::{Results, fit};
//!
//! // random (0), greedy (1) and a search (2), 1,000 games per pair, seats alternating.
//! let mut results = Results::new(3);
//! results.add(1, 0, 870, 130, 0).unwrap(); // greedy beat random 870 times in 1,000
//! results.add(2, 0, 960, 40, 0).unwrap();
//! results.add(2, 1, 700, 300, 0).unwrap();
//! let ratings = fit(&results, 0).unwrap();
//! let greedy = ratings.get(1).unwrap();
//! // 870 wins in 1,000 alone would be 330 Elo; the games against the search add to it.
//! assert!((320.0..380.0).contains(&greedy.elo), "{greedy:?}");
//! assert!(greedy.low < greedy.elo && greedy.elo < greedy.high);
//! // The search is stronger than greedy, and the interval of the difference says by how much.
//! let (difference, low, high) = ratings.difference(2, 1).unwrap();
//! assert!(low > 0.0 && low < difference && difference < high);
//! // A rating difference is a winning chance again.
//! assert!((ratings.expected_score(2, 1).unwrap() - 0.70).abs() < 0.03);
//! ```

use core::fmt;

/// Virtual drawn games added between each pair of players that met, so that a player who won
/// or lost every game still gets a finite rating.
pub const PRIOR_DRAWS: f64 = 1.0;

/// Elo points per unit of the Bradley–Terry strength.
const ELO_PER_UNIT: f64 = 400.0 / core::f64::consts::LN_10;

/// The normal quantile of a two-sided 95% interval.
const Z95: f64 = 1.959_963_984_540_054;

/// Why a fit, or a query of one, was refused.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum RatingError {
    /// A player index beyond the players of the results.
    #[error("no player {player}: there are {players} players (0 to {})", players.saturating_sub(1))]
    NoSuchPlayer {
        /// The index given.
        player: usize,
        /// How many players there are.
        players: usize,
    },
    /// Games of a player against itself.
    #[error("player {0} cannot play against itself")]
    SamePlayer(usize),
    /// A count of games that is not a finite number of at least zero.
    #[error("a count of games must be finite and at least 0, not {0}")]
    BadCount(f64),
    /// No chain of games links `player` to the anchor, so their distance is unknown.
    #[error("player {player} is not linked to the anchor {anchor} by any chain of games")]
    Disconnected {
        /// The player out of reach.
        player: usize,
        /// The anchor of the fit.
        anchor: usize,
    },
    /// Newton's method did not settle (it always does on connected results with the prior).
    #[error("the fit did not converge in {0} iterations")]
    NoConvergence(usize),
}

/// Games between players: how many each pair played and what each side scored.
#[derive(Clone, Debug, PartialEq)]
pub struct Results {
    players: usize,
    /// `score[i * players + j]`: the points `i` took from its games against `j` (a win 1, a
    /// draw ½).
    score: Vec<f64>,
}

impl Results {
    /// No games yet between `players` players.
    pub fn new(players: usize) -> Results {
        Results {
            players,
            score: vec![0.0; players * players],
        }
    }

    /// How many players there are.
    pub fn players(&self) -> usize {
        self.players
    }

    fn check(&self, player: usize) -> Result<(), RatingError> {
        if player < self.players {
            Ok(())
        } else {
            Err(RatingError::NoSuchPlayer {
                player,
                players: self.players,
            })
        }
    }

    /// Adds games between `a` and `b`: `a` won `a_wins`, `b` won `b_wins`, and `draws` were
    /// drawn. Games stopped without a result are best left out.
    pub fn add(
        &mut self,
        a: usize,
        b: usize,
        a_wins: u64,
        b_wins: u64,
        draws: u64,
    ) -> Result<(), RatingError> {
        self.add_scores(
            a,
            b,
            a_wins as f64 + draws as f64 / 2.0,
            b_wins as f64 + draws as f64 / 2.0,
        )
    }

    /// Adds games between `a` and `b` by the points each scored (a win 1, a draw ½); the
    /// games played are the sum.
    pub fn add_scores(
        &mut self,
        a: usize,
        b: usize,
        a_score: f64,
        b_score: f64,
    ) -> Result<(), RatingError> {
        self.check(a)?;
        self.check(b)?;
        if a == b {
            return Err(RatingError::SamePlayer(a));
        }
        for count in [a_score, b_score] {
            if !(count.is_finite() && count >= 0.0) {
                return Err(RatingError::BadCount(count));
            }
        }
        self.score[a * self.players + b] += a_score;
        self.score[b * self.players + a] += b_score;
        Ok(())
    }

    /// The points `a` scored against `b`.
    pub fn score(&self, a: usize, b: usize) -> Result<f64, RatingError> {
        self.check(a)?;
        self.check(b)?;
        Ok(self.score[a * self.players + b])
    }

    /// The games `a` and `b` played against each other.
    pub fn games(&self, a: usize, b: usize) -> Result<f64, RatingError> {
        Ok(self.score(a, b)? + self.score(b, a)?)
    }
}

/// One player's fitted rating: Elo points relative to the anchor, with a 95% interval.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rating {
    /// The rating, in Elo points above the anchor.
    pub elo: f64,
    /// The low end of the 95% interval.
    pub low: f64,
    /// The high end of the 95% interval.
    pub high: f64,
}

impl fmt::Display for Rating {
    /// `+312 (290 to 334)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:+.0} ({:.0} to {:.0})", self.elo, self.low, self.high)
    }
}

/// Fitted ratings of every player of some [`Results`], relative to an anchor.
#[derive(Clone, Debug, PartialEq)]
pub struct Ratings {
    anchor: usize,
    /// Strengths in Elo points, the anchor's 0.
    elo: Vec<f64>,
    /// Covariance of the strengths in Elo points squared, the anchor's row and column 0.
    covariance: Vec<f64>,
}

impl Ratings {
    /// How many players there are.
    pub fn players(&self) -> usize {
        self.elo.len()
    }

    /// The player rated 0.
    pub fn anchor(&self) -> usize {
        self.anchor
    }

    fn check(&self, player: usize) -> Result<(), RatingError> {
        if player < self.players() {
            Ok(())
        } else {
            Err(RatingError::NoSuchPlayer {
                player,
                players: self.players(),
            })
        }
    }

    /// The rating of `player`, with the 95% interval of its distance from the anchor.
    pub fn get(&self, player: usize) -> Result<Rating, RatingError> {
        self.difference(player, self.anchor)
            .map(|(elo, low, high)| Rating { elo, low, high })
    }

    /// How many Elo points `a` is above `b`, with the 95% interval of that difference.
    pub fn difference(&self, a: usize, b: usize) -> Result<(f64, f64, f64), RatingError> {
        self.check(a)?;
        self.check(b)?;
        let n = self.players();
        let variance = self.covariance[a * n + a] + self.covariance[b * n + b]
            - 2.0 * self.covariance[a * n + b];
        let half = Z95 * variance.max(0.0).sqrt();
        let d = self.elo[a] - self.elo[b];
        Ok((d, d - half, d + half))
    }

    /// The share of the points `a` is expected to take from games against `b`.
    pub fn expected_score(&self, a: usize, b: usize) -> Result<f64, RatingError> {
        let (d, _, _) = self.difference(a, b)?;
        Ok(logistic(d / ELO_PER_UNIT))
    }
}

fn logistic(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// Fits Bradley–Terry ratings to `results`, `anchor` rated 0.
///
/// Refused when a player index is out of range or some player is linked to the anchor by no
/// chain of games (a player who played nobody included).
pub fn fit(results: &Results, anchor: usize) -> Result<Ratings, RatingError> {
    const MAX_ITERATIONS: usize = 200;
    let n = results.players();
    results.check(anchor)?;
    // Points with the prior: each pair that met gets PRIOR_DRAWS virtual draws.
    let mut score = results.score.clone();
    let mut games = vec![0.0; n * n];
    for i in 0..n {
        for j in 0..n {
            let played = results.score[i * n + j] + results.score[j * n + i];
            if i != j && played > 0.0 {
                score[i * n + j] += PRIOR_DRAWS / 2.0;
                games[i * n + j] = played + PRIOR_DRAWS;
            }
        }
    }
    if let Some(player) = unreachable_from(anchor, n, &games) {
        return Err(RatingError::Disconnected { player, anchor });
    }
    // The free strengths: every player but the anchor.
    let free: Vec<usize> = (0..n).filter(|&i| i != anchor).collect();
    let mut theta = vec![0.0; n];
    let mut converged = false;
    for _ in 0..MAX_ITERATIONS {
        let (gradient, information) = derivatives(&theta, &games, &score, &free);
        let Some(step) = solve(&information, &gradient) else {
            return Err(RatingError::NoConvergence(MAX_ITERATIONS));
        };
        // Long steps are cut: the first steps from an even start may overshoot.
        let longest = step.iter().fold(0.0f64, |m, s| m.max(s.abs()));
        let scale = if longest > 2.0 { 2.0 / longest } else { 1.0 };
        for (k, &i) in free.iter().enumerate() {
            theta[i] += scale * step[k];
        }
        if longest < 1e-10 {
            converged = true;
            break;
        }
    }
    if !converged {
        return Err(RatingError::NoConvergence(MAX_ITERATIONS));
    }
    let (_, information) = derivatives(&theta, &games, &score, &free);
    let inverse = invert(&information).ok_or(RatingError::NoConvergence(MAX_ITERATIONS))?;
    let m = free.len();
    let mut covariance = vec![0.0; n * n];
    for (a, &i) in free.iter().enumerate() {
        for (b, &j) in free.iter().enumerate() {
            covariance[i * n + j] = inverse[a * m + b] * ELO_PER_UNIT * ELO_PER_UNIT;
        }
    }
    Ok(Ratings {
        anchor,
        elo: theta.iter().map(|t| t * ELO_PER_UNIT).collect(),
        covariance,
    })
}

/// The first player no chain of games links to `start`, if any.
fn unreachable_from(start: usize, n: usize, games: &[f64]) -> Option<usize> {
    let mut seen = vec![false; n];
    let mut stack = vec![start];
    seen[start] = true;
    while let Some(i) = stack.pop() {
        for j in 0..n {
            if !seen[j] && games[i * n + j] > 0.0 {
                seen[j] = true;
                stack.push(j);
            }
        }
    }
    seen.iter().position(|&s| !s)
}

/// The gradient of the log-likelihood and the Fisher information (its negated Hessian) with
/// respect to the free strengths.
fn derivatives(
    theta: &[f64],
    games: &[f64],
    score: &[f64],
    free: &[usize],
) -> (Vec<f64>, Vec<f64>) {
    let n = theta.len();
    let m = free.len();
    let mut gradient = vec![0.0; m];
    let mut information = vec![0.0; m * m];
    let index = |player: usize| free.iter().position(|&f| f == player);
    for (a, &i) in free.iter().enumerate() {
        for j in 0..n {
            let played = games[i * n + j];
            if j == i || played == 0.0 {
                continue;
            }
            let p = logistic(theta[i] - theta[j]);
            gradient[a] += score[i * n + j] - played * p;
            let w = played * p * (1.0 - p);
            information[a * m + a] += w;
            if let Some(b) = index(j) {
                information[a * m + b] -= w;
            }
        }
    }
    (gradient, information)
}

/// Solves `matrix · x = rhs` (Gaussian elimination with partial pivoting); `None` when the
/// matrix is singular.
fn solve(matrix: &[f64], rhs: &[f64]) -> Option<Vec<f64>> {
    let m = rhs.len();
    let mut a = matrix.to_vec();
    let mut x = rhs.to_vec();
    for col in 0..m {
        let pivot =
            (col..m).max_by(|&r, &s| a[r * m + col].abs().total_cmp(&a[s * m + col].abs()))?;
        if a[pivot * m + col].abs() < 1e-300 {
            return None;
        }
        for k in 0..m {
            a.swap(col * m + k, pivot * m + k);
        }
        x.swap(col, pivot);
        for row in 0..m {
            if row != col {
                let factor = a[row * m + col] / a[col * m + col];
                for k in col..m {
                    a[row * m + k] -= factor * a[col * m + k];
                }
                x[row] -= factor * x[col];
            }
        }
    }
    Some((0..m).map(|i| x[i] / a[i * m + i]).collect())
}

/// The inverse of a square matrix, column by column; `None` when it is singular.
fn invert(matrix: &[f64]) -> Option<Vec<f64>> {
    let m = (matrix.len() as f64).sqrt() as usize;
    let mut inverse = vec![0.0; m * m];
    for col in 0..m {
        let unit: Vec<f64> = (0..m).map(|i| if i == col { 1.0 } else { 0.0 }).collect();
        let x = solve(matrix, &unit)?;
        for row in 0..m {
            inverse[row * m + col] = x[row];
        }
    }
    Some(inverse)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::{self, Rng};

    /// Wins of `a` in `games` games against `b`, drawn with the model's chance for Elo
    /// ratings `ra` and `rb`.
    fn play(rng: &mut rng::ChaCha8Rng, ra: f64, rb: f64, games: u64) -> u64 {
        let p = logistic((ra - rb) / ELO_PER_UNIT);
        (0..games)
            .filter(|_| (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64 > 1.0 - p)
            .count() as u64
    }

    fn tournament(truth: &[f64], games: u64, seed: u64) -> Results {
        let mut rng = rng::seeded(seed, 0);
        let mut results = Results::new(truth.len());
        for a in 0..truth.len() {
            for b in a + 1..truth.len() {
                let wins = play(&mut rng, truth[a], truth[b], games);
                results.add(a, b, wins, games - wins, 0).unwrap();
            }
        }
        results
    }

    #[test]
    fn expected_results_give_back_the_true_ratings() {
        let truth = [0.0, 120.0, 300.0, 650.0];
        let games = 1_000_000.0;
        let mut results = Results::new(truth.len());
        for a in 0..truth.len() {
            for b in a + 1..truth.len() {
                let p = logistic((truth[a] - truth[b]) / ELO_PER_UNIT);
                results
                    .add_scores(a, b, games * p, games * (1.0 - p))
                    .unwrap();
            }
        }
        let ratings = fit(&results, 0).unwrap();
        for (i, &t) in truth.iter().enumerate() {
            let r = ratings.get(i).unwrap();
            assert!((r.elo - t).abs() < 0.1, "player {i}: {r:?}, truth {t}");
            assert!(r.high - r.low < 3.0, "{r:?}");
        }
        assert_eq!(
            ratings.get(0).unwrap(),
            Rating {
                elo: 0.0,
                low: 0.0,
                high: 0.0
            }
        );
    }

    #[test]
    fn the_anchor_only_shifts_the_ratings() {
        let results = tournament(&[0.0, 200.0, 350.0], 400, 1);
        let from0 = fit(&results, 0).unwrap();
        let from2 = fit(&results, 2).unwrap();
        for i in 0..3 {
            let shifted = from2.get(i).unwrap().elo - from2.get(0).unwrap().elo;
            assert!((from0.get(i).unwrap().elo - shifted).abs() < 1e-6);
            // The interval of a difference does not depend on the anchor either.
            let (_, lo0, hi0) = from0.difference(i, 1).unwrap();
            let (_, lo2, hi2) = from2.difference(i, 1).unwrap();
            assert!((hi0 - lo0 - (hi2 - lo2)).abs() < 1e-6);
        }
    }

    /// The 95% intervals of seeded synthetic tournaments hold the true rating about 95% of
    /// the time.
    #[test]
    fn intervals_cover_the_true_ratings_as_often_as_they_claim() {
        let truth = [0.0, 80.0, 250.0, 500.0];
        let tournaments = 400;
        let mut covered = 0;
        let mut checks = 0;
        for seed in 0..tournaments {
            let ratings = fit(&tournament(&truth, 200, seed), 0).unwrap();
            for (i, &t) in truth.iter().enumerate().skip(1) {
                let r = ratings.get(i).unwrap();
                checks += 1;
                if r.low <= t && t <= r.high {
                    covered += 1;
                }
            }
        }
        let share = covered as f64 / checks as f64;
        assert!(
            (0.92..=0.975).contains(&share),
            "covered {covered} of {checks}"
        );
    }

    #[test]
    fn an_unbeaten_player_gets_a_finite_rating_above_the_others() {
        let mut results = Results::new(3);
        results.add(0, 1, 30, 70, 0).unwrap();
        results.add(2, 0, 100, 0, 0).unwrap();
        results.add(2, 1, 100, 0, 0).unwrap();
        let ratings = fit(&results, 0).unwrap();
        let top = ratings.get(2).unwrap();
        assert!(
            top.elo.is_finite() && top.elo > ratings.get(1).unwrap().elo + 300.0,
            "{top:?}"
        );
        assert!(top.low > 0.0 && top.high.is_finite());
    }

    #[test]
    fn draws_count_half_to_each_side() {
        let mut results = Results::new(2);
        results.add(0, 1, 10, 10, 30).unwrap();
        assert_eq!(results.score(0, 1), Ok(25.0));
        assert_eq!(results.games(1, 0), Ok(50.0));
        let ratings = fit(&results, 0).unwrap();
        assert!(ratings.get(1).unwrap().elo.abs() < 1e-9);
        assert!((ratings.expected_score(0, 1).unwrap() - 0.5).abs() < 1e-12);
    }

    #[test]
    fn bad_input_is_refused() {
        let mut results = Results::new(3);
        assert_eq!(
            results.add(0, 3, 1, 1, 0),
            Err(RatingError::NoSuchPlayer {
                player: 3,
                players: 3
            })
        );
        assert_eq!(results.add(1, 1, 1, 1, 0), Err(RatingError::SamePlayer(1)));
        for bad in [f64::NAN, -1.0, f64::INFINITY] {
            assert!(matches!(
                results.add_scores(0, 1, bad, 1.0),
                Err(RatingError::BadCount(_))
            ));
        }
        assert_eq!(
            results,
            Results::new(3),
            "a refused addition changes nothing"
        );
        results.add(0, 1, 5, 5, 0).unwrap();
        assert_eq!(
            fit(&results, 0),
            Err(RatingError::Disconnected {
                player: 2,
                anchor: 0
            })
        );
        assert!(matches!(
            fit(&results, 7),
            Err(RatingError::NoSuchPlayer { .. })
        ));
        let ratings = fit(&Results::new(1), 0).unwrap();
        assert!(matches!(
            ratings.get(1),
            Err(RatingError::NoSuchPlayer { .. })
        ));
    }
}
