//! A second network for the endgame, fitted to the exact values of endgame tables.
//!
//! Self-play teaches the main network the whole game at once, and it misjudges the last
//! phase in the same places however it is trained (`docs/players.md`); pulling it toward the
//! tables' values moved what it knew of the rest. Backgammon programs keep a network per
//! phase for this reason. [`EndgameNet`] covers the positions with at most
//! [`max_pieces`](EndgameNet::max_pieces) pieces a side on the board and is fitted by
//! [`EndgameFitter`] to the exact values of the positions that games pass through there; the
//! main network keeps everything else.

use rand_core::Rng;
use senet_core::{BitBoard, MoveList, Phase, Ruleset, Side, ThrowingDevice};

use super::encoding::Input;
use super::network::ValueNet;
use super::train::{MAX_GAME_ACTIONS, MAX_TRAINING_GAMES, TrainError};
use crate::endgame::PositionOracle;

/// The most pieces a side an endgame network may cover.
pub const MAX_ENDGAME_PIECES: u8 = 7;

/// A network for the positions with at most `max_pieces` pieces a side on the board.
#[derive(Clone, Debug, PartialEq)]
pub struct EndgameNet {
    /// The most pieces a side on the board in the positions it values.
    pub max_pieces: u8,
    /// Games whose positions it was fitted on.
    pub games: u64,
    /// How it was fitted, in words.
    pub training: String,
    /// The network; same inputs as the main one.
    pub net: ValueNet,
}

impl EndgameNet {
    /// Whether the network values positions with this board: at most
    /// [`max_pieces`](Self::max_pieces) pieces of each side on it.
    #[inline]
    pub fn covers(&self, board: &BitBoard) -> bool {
        covers(self.max_pieces, board)
    }
}

#[inline]
fn covers(max_pieces: u8, board: &BitBoard) -> bool {
    board.pieces_of(Side::Black).len() <= max_pieces
        && board.pieces_of(Side::White).len() <= max_pieces
}

/// How an endgame network is fitted.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EndgameFitOptions {
    /// The step size at the start.
    pub alpha: f32,
    /// The step size after `g` games is `alpha · √(alpha_games / (alpha_games + g))`.
    pub alpha_games: f32,
}

impl Default for EndgameFitOptions {
    fn default() -> Self {
        EndgameFitOptions {
            alpha: 0.02,
            alpha_games: 5000.0,
        }
    }
}

/// What a stretch of fitting did.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct FitStats {
    /// Games played.
    pub games: u64,
    /// Positions learned (each seen from both sides).
    pub labels: u64,
    /// The mean absolute error of the network on those positions just before each step.
    pub mean_error: f64,
}

/// Fits an [`EndgameNet`] to an oracle's exact values.
///
/// Each game is played with uniformly random moves, the positions of the endgame tables'
/// measurement and of a search's leaves alike: at each position the tables cover where a
/// side is to throw, the network learns that position and, for every throw, the position
/// after each legal move (where the tables cover it), each toward its exact value and from
/// both sides' points of view.
///
/// ```
/// use senet::ai::endgame::{Endgames, SolveOptions};
/// use senet::ai::learned::{EndgameFitOptions, EndgameFitter, ValueNet, input_count};
/// use senet::rng::seeded;
/// use senet::Regency;
///
/// // Tables of up to two pieces a side, solved in a moment.
/// let rules = Regency::default();
/// let oracle = Endgames::solve_oracle(&rules, 2, &SolveOptions::default())?;
/// let start = ValueNet::random(input_count::<Regency>(), 8, &mut seeded(1, u64::MAX))?;
/// let options = EndgameFitOptions::default();
/// let mut fitter = EndgameFitter::new(rules, oracle, start, options)?;
/// let stats = fitter.fit(50, |game| seeded(1, game))?;
/// assert_eq!(stats.games, 50);
/// assert!(stats.labels > 0);
/// let endgame = fitter.endgame("a doc example".to_string());
/// assert_eq!((endgame.max_pieces, endgame.games), (2, 50));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct EndgameFitter<R: Ruleset> {
    rules: R,
    oracle: std::sync::Arc<dyn PositionOracle<R>>,
    net: ValueNet,
    options: EndgameFitOptions,
    games: u64,
}

impl<R: Ruleset> EndgameFitter<R> {
    /// A fitter starting from `start` (a new network, or the main one to begin from what it
    /// knows), for the positions `oracle` covers.
    pub fn new(
        rules: R,
        oracle: std::sync::Arc<dyn PositionOracle<R>>,
        start: ValueNet,
        options: EndgameFitOptions,
    ) -> Result<Self, TrainError> {
        if !(options.alpha > 0.0 && options.alpha <= 1.0) {
            return Err(TrainError::Options(
                "the step size (alpha) must be above 0 and at most 1".into(),
            ));
        }
        if !(options.alpha_games >= 1.0 && options.alpha_games.is_finite()) {
            return Err(TrainError::Options(
                "the step-size decay (alpha_games) must be a finite number of games ≥ 1".into(),
            ));
        }
        if start.inputs() != super::input_count::<R>() {
            return Err(TrainError::Options(format!(
                "the network has {} inputs; {} needs {}",
                start.inputs(),
                rules.spec(),
                super::input_count::<R>()
            )));
        }
        Ok(EndgameFitter {
            rules,
            oracle,
            net: start,
            options,
            games: 0,
        })
    }

    /// Goes on from `endgame` (a checkpoint): its network and game count.
    pub fn resume(mut self, endgame: EndgameNet) -> Result<Self, TrainError> {
        if endgame.max_pieces != self.oracle.max_pieces() {
            return Err(TrainError::Options(format!(
                "the checkpoint covers {} pieces a side, the tables {}",
                endgame.max_pieces,
                self.oracle.max_pieces()
            )));
        }
        if endgame.net.inputs() != self.net.inputs() {
            return Err(TrainError::Options(
                "the checkpoint's network has other inputs".into(),
            ));
        }
        self.net = endgame.net;
        self.games = endgame.games;
        Ok(self)
    }

    /// Games fitted on so far.
    pub fn games(&self) -> u64 {
        self.games
    }

    /// The network as fitted so far; `training` describes how.
    pub fn endgame(&self, training: String) -> EndgameNet {
        EndgameNet {
            max_pieces: self.oracle.max_pieces(),
            games: self.games,
            training,
            net: self.net.clone(),
        }
    }

    /// Learns from the next `games` random games; game `g` (counted over the fitter's life)
    /// throws and moves with `rng_of(g)`.
    pub fn fit<G: Rng, F: Fn(u64) -> G>(
        &mut self,
        games: u64,
        rng_of: F,
    ) -> Result<FitStats, TrainError> {
        if games > MAX_TRAINING_GAMES {
            return Err(TrainError::Options(format!(
                "at most {MAX_TRAINING_GAMES} games at a time"
            )));
        }
        let mut stats = FitStats::default();
        let mut error = 0.0f64;
        let mut moves = MoveList::new();
        let mut input = Input::default();
        for _ in 0..games {
            let o = &self.options;
            let alpha = o.alpha * (o.alpha_games / (o.alpha_games + self.games as f32)).sqrt();
            let mut rng = rng_of(self.games);
            let mut state = self.rules.initial_state();
            let device = self.rules.device();
            for _ in 0..MAX_GAME_ACTIONS {
                match self.rules.phase(&state) {
                    Phase::Over(_) => break,
                    Phase::Throw(_) => {
                        if self.oracle.throw_value(&state).is_some() {
                            self.learn_around(
                                &state, alpha, &mut moves, &mut input, &mut stats, &mut error,
                            );
                        }
                        self.rules
                            .throw_unchecked(&mut state, device.sample(&mut rng));
                    }
                    Phase::Move(_) => {
                        self.rules
                            .play_random_move(&mut state, &mut rng, &mut moves);
                    }
                }
            }
            self.games += 1;
            stats.games += 1;
            if !self.net.is_finite() {
                return Err(TrainError::Diverged(self.games));
            }
        }
        stats.mean_error = if stats.labels > 0 {
            error / (2 * stats.labels) as f64
        } else {
            0.0
        };
        Ok(stats)
    }

    /// Learns `state` (covered, waiting for a throw) and every covered position one move of
    /// any throw away from it.
    fn learn_around(
        &mut self,
        state: &R::State,
        alpha: f32,
        moves: &mut MoveList,
        input: &mut Input,
        stats: &mut FitStats,
        error: &mut f64,
    ) {
        self.learn(state, alpha, input, stats, error);
        for outcome in self.rules.device().outcomes() {
            let mut thrown = *state;
            self.rules.throw_unchecked(&mut thrown, outcome.value);
            if !matches!(self.rules.phase(&thrown), Phase::Move(_)) {
                continue;
            }
            self.rules.generate_moves(&thrown, moves);
            for k in 0..moves.len() {
                let mut after = thrown;
                self.rules.play_unchecked(&mut after, moves[k]);
                self.learn(&after, alpha, input, stats, error);
            }
        }
    }

    /// One step toward the exact value of `state`, seen from each side, if the tables cover
    /// it.
    fn learn(
        &mut self,
        state: &R::State,
        alpha: f32,
        input: &mut Input,
        stats: &mut FitStats,
        error: &mut f64,
    ) {
        let Phase::Throw(to_act) = self.rules.phase(state) else {
            return;
        };
        let Some(value) = self.oracle.throw_value(state) else {
            return;
        };
        stats.labels += 1;
        for side in [Side::Black, Side::White] {
            let target = if side == to_act { value } else { 1.0 - value } as f32;
            input.encode(&self.rules, state, side);
            let before = self.net.learn(input, target, alpha);
            *error += f64::from((before - target).abs());
        }
    }
}

/// Whether `max_pieces` is a number of pieces an endgame network may cover.
pub(crate) fn check_pieces(max_pieces: u8) -> bool {
    (1..=MAX_ENDGAME_PIECES).contains(&max_pieces)
}
