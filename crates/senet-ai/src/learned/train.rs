//! Training a [`ValueNet`] by self-play: TD(λ) on afterstates, with exact values where
//! endgame tables reach.

use std::sync::Arc;

use rand_core::Rng;
use senet_core::{MoveList, Phase, Ruleset, Side, ThrowingDevice};
use thiserror::Error;

use super::encoding::{Input, input_count};
use super::network::{MAX_HIDDEN, ShapeError, ValueNet};
use super::weights::{Weights, WeightsInfo};
use crate::endgame::PositionOracle;

/// The most actions (throws and moves) of one self-play game: an untrained network can
/// send pieces back and forth for ever (swaps, the square 27). A game cut there counts as
/// lost by both sides: valued as a draw, the positions of an endless game look like a
/// refuge to the side behind, and self-play drifts into more and more of them.
pub const MAX_GAME_ACTIONS: u32 = 4000;
/// The most self-play games one call may ask for.
pub const MAX_TRAINING_GAMES: u64 = 100_000_000;
/// The most games played at once (each on its own copy of the network).
pub const MAX_TRAINING_THREADS: usize = 256;

/// How a network is trained. [`Default`] gives the settings the committed weights were
/// trained with.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TrainOptions {
    /// Hidden units of a new network.
    pub hidden: usize,
    /// The step size at the start.
    pub alpha: f32,
    /// The step size after `g` games is `alpha · √(alpha_games / (alpha_games + g))`: large
    /// steps while the network knows nothing, small ones to settle.
    pub alpha_games: f32,
    /// TD(λ)'s λ: how far back along the game each value difference is passed. With
    /// `expectation` the default is 0: each afterstate learns from the expected value of the
    /// next alone (on Regency, λ = 0.7 was no stronger and let endless games come back).
    pub lambda: f32,
    /// Games played at once, each on its own copy of the network, their changes added in
    /// game order: the same seed and number of threads always give the same weights.
    pub threads: usize,
    /// Whether each afterstate learns from the value of the next one expected over every
    /// throw with its exact probability (the network choosing the move), rather than from the
    /// next one of the game alone: the luck of the throw no longer blurs the target.
    pub expectation: bool,
}

impl Default for TrainOptions {
    fn default() -> Self {
        TrainOptions {
            hidden: 40,
            alpha: 0.05,
            alpha_games: 5000.0,
            lambda: 0.0,
            threads: 1,
            expectation: true,
        }
    }
}

/// Why training cannot start.
#[derive(Debug, Error)]
pub enum TrainError {
    /// The network shape is out of range.
    #[error(transparent)]
    Shape(#[from] ShapeError),
    /// A setting out of its range.
    #[error("{0}")]
    Options(String),
    /// The network to continue from was trained for other rules.
    #[error(transparent)]
    Weights(#[from] super::WeightsError),
    /// The step size was too large: the weights overflowed.
    #[error(
        "the weights stopped being finite numbers after {0} games: use a smaller step size (--alpha)"
    )]
    Diverged(u64),
}

/// What a stretch of training did.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct TrainStats {
    /// Games played.
    pub games: u64,
    /// Actions (throws and moves) over all games.
    pub actions: u64,
    /// Games cut at [`MAX_GAME_ACTIONS`].
    pub unfinished: u64,
    /// Afterstates whose value came from the endgame tables.
    pub exact_labels: u64,
}

impl TrainStats {
    fn add(&mut self, other: &TrainStats) {
        self.games += other.games;
        self.actions += other.actions;
        self.unfinished += other.unfinished;
        self.exact_labels += other.exact_labels;
    }
}

/// Self-play training of a value network for one ruleset.
///
/// Each game is played by the network against itself, every move chosen greedily by the
/// network's value of the position after it. After every move (and at the start) the
/// position is an *afterstate*, valued from both sides' points of view; TD(λ) moves each
/// afterstate's value toward the next one's, and the last toward the result (1, ½ or 0).
/// Where endgame tables cover an afterstate, its exact value replaces the network's, both as
/// the target of the afterstate before and as a label the network is pulled toward.
///
/// ```
/// use senet::ai::learned::{TrainOptions, Trainer};
/// use senet::rng::seeded;
/// let rules = senet::Regency::default();
/// let mut trainer = Trainer::new(rules, TrainOptions::default(), &mut seeded(1, u64::MAX))?;
/// let stats = trainer.train(20, |game| seeded(1, game))?;
/// assert_eq!((stats.games, trainer.games()), (20, 20));
/// # Ok::<(), senet::ai::learned::TrainError>(())
/// ```
pub struct Trainer<R: Ruleset> {
    rules: R,
    net: ValueNet,
    options: TrainOptions,
    games: u64,
    oracle: Option<Arc<dyn PositionOracle<R>>>,
}

fn check_options(options: &TrainOptions) -> Result<(), TrainError> {
    let bad = |what: &str| Err(TrainError::Options(what.to_string()));
    if !(options.alpha > 0.0 && options.alpha <= 1.0) {
        return bad("the step size (alpha) must be above 0 and at most 1");
    }
    if !(options.alpha_games >= 1.0 && options.alpha_games.is_finite()) {
        return bad("the step-size decay (alpha_games) must be a finite number of games ≥ 1");
    }
    if !(0.0..=1.0).contains(&options.lambda) {
        return bad("lambda must lie between 0 and 1");
    }
    if !(1..=MAX_TRAINING_THREADS).contains(&options.threads) {
        return Err(TrainError::Options(format!(
            "threads must be between 1 and {MAX_TRAINING_THREADS}"
        )));
    }
    if !(1..=MAX_HIDDEN).contains(&options.hidden) {
        return Err(TrainError::Options(format!(
            "hidden units must be between 1 and {MAX_HIDDEN}"
        )));
    }
    Ok(())
}

impl<R: Ruleset> Trainer<R> {
    /// A trainer with a new network, its weights drawn from `init`.
    pub fn new(rules: R, options: TrainOptions, init: &mut impl Rng) -> Result<Self, TrainError> {
        check_options(&options)?;
        let net = ValueNet::random(input_count::<R>(), options.hidden, init)?;
        Ok(Trainer {
            rules,
            net,
            options,
            games: 0,
            oracle: None,
        })
    }

    /// A trainer that goes on from `weights` (a checkpoint), which must have been trained
    /// for `rules`; its game count continues from the file's.
    pub fn resume(rules: R, weights: Weights, options: TrainOptions) -> Result<Self, TrainError> {
        check_options(&options)?;
        weights.check_rules(&rules)?;
        Ok(Trainer {
            rules,
            games: weights.info.games,
            net: weights.net,
            options,
            oracle: None,
        })
    }

    /// Uses exact values from `oracle` wherever it covers an afterstate.
    pub fn with_exact_values(mut self, oracle: Arc<dyn PositionOracle<R>>) -> Self {
        self.oracle = Some(oracle);
        self
    }

    /// The network as trained so far.
    pub fn net(&self) -> &ValueNet {
        &self.net
    }

    /// Self-play games trained on so far.
    pub fn games(&self) -> u64 {
        self.games
    }

    /// The ruleset.
    pub fn rules(&self) -> &R {
        &self.rules
    }

    /// The network with its metadata, ready to write; `training` describes how it was made.
    pub fn weights(&self, training: String) -> Weights {
        Weights {
            net: self.net.clone(),
            info: WeightsInfo::for_rules(&self.rules, self.games, training),
            endgame: None,
        }
    }

    /// The step size of game `game`.
    fn alpha(&self, game: u64) -> f32 {
        let o = &self.options;
        o.alpha * (o.alpha_games / (o.alpha_games + game as f32)).sqrt()
    }

    /// Plays and learns from the next `games` self-play games; game `g` (counted over the
    /// trainer's life) throws with `rng_of(g)`.
    pub fn train<G: Rng, F: Fn(u64) -> G + Sync>(
        &mut self,
        games: u64,
        rng_of: F,
    ) -> Result<TrainStats, TrainError> {
        if games > MAX_TRAINING_GAMES {
            return Err(TrainError::Options(format!(
                "at most {MAX_TRAINING_GAMES} games at a time"
            )));
        }
        let mut stats = TrainStats::default();
        let end = self.games + games;
        while self.games < end {
            let round = (end - self.games).min(self.options.threads as u64);
            let first = self.games;
            if round == 1 {
                let alpha = self.alpha(first);
                let mut rng = rng_of(first);
                let game = self_play(self, alpha, &mut rng);
                let net = &mut self.net;
                *net = game.0;
                stats.add(&game.1);
            } else {
                let this = &*self;
                let played: Vec<(ValueNet, TrainStats)> = std::thread::scope(|scope| {
                    let handles: Vec<_> = (first..first + round)
                        .map(|g| {
                            let rng_of = &rng_of;
                            scope.spawn(move || self_play(this, this.alpha(g), &mut rng_of(g)))
                        })
                        .collect();
                    handles
                        .into_iter()
                        .map(|h| h.join().expect("a self-play game does not panic"))
                        .collect()
                });
                let base = self.net.clone();
                for (net, game_stats) in &played {
                    self.net.add_change(net, &base);
                    stats.add(game_stats);
                }
            }
            self.games += round;
            if !self.net.is_finite() {
                return Err(TrainError::Diverged(self.games));
            }
        }
        Ok(stats)
    }
}

/// An afterstate of a self-play game, encoded from both sides' points of view, with its
/// exact value for each side where the tables cover it, and the expected value for each side
/// of the afterstate that follows it.
struct Afterstate {
    views: [Input; 2],
    exact: Option<[f32; 2]>,
    expected: Option<[f32; 2]>,
}

/// Per side, the value the network expects the next afterstate to have: over every throw
/// with its exact probability, the side to act playing the move it values most. `None` for
/// a finished game.
fn expected_next<R: Ruleset>(
    rules: &R,
    net: &ValueNet,
    state: &R::State,
    input: &mut Input,
    moves: &mut MoveList,
) -> Option<[f32; 2]> {
    // The value for `side` of `state` once its throw is known: the best move's for the side
    // to move, the network's where nothing is to be chosen.
    let mut settled = |state: &R::State, side: Side, input: &mut Input| match rules.phase(state) {
        Phase::Over(outcome) => outcome.value_for(side) as f32,
        Phase::Move(mover) => {
            rules.generate_moves(state, moves);
            let best = super::best_afterstate(rules, net, state, mover, moves, input).1;
            if mover == side { best } else { 1.0 - best }
        }
        Phase::Throw(_) => {
            input.encode(rules, state, side);
            net.value(input)
        }
    };
    let value = match rules.phase(state) {
        Phase::Over(_) => return None,
        Phase::Move(side) => (side, settled(state, side, input)),
        Phase::Throw(side) => {
            let device = rules.device();
            let total = device.denominator() as f32;
            let mut sum = 0.0;
            for outcome in device.outcomes() {
                let mut after = *state;
                rules.throw_unchecked(&mut after, outcome.value);
                sum += outcome.weight as f32 * settled(&after, side, input);
            }
            (side, sum / total)
        }
    };
    Some(match value {
        (Side::Black, v) => [v, 1.0 - v],
        (Side::White, v) => [1.0 - v, v],
    })
}

/// One self-play game on a copy of the trainer's network; returns the trained copy.
///
/// The updates are made when the game is over, from the λ-return of each afterstate (the
/// forward view of TD(λ), which gives the same updates as its eligibility traces applied
/// at the end of the game): each update then touches only the first-layer columns of the
/// inputs present, where a trace would touch every weight after every move.
fn self_play<R: Ruleset>(
    trainer: &Trainer<R>,
    alpha: f32,
    rng: &mut impl Rng,
) -> (ValueNet, TrainStats) {
    let rules = &trainer.rules;
    let mut net = trainer.net.clone();
    let mut stats = TrainStats {
        games: 1,
        ..TrainStats::default()
    };
    let mut input = Input::default();
    let mut moves = MoveList::new();
    let mut state = rules.initial_state();
    let device = rules.device();
    let mut game = Vec::new();
    let mut afterstate = true;
    let result = loop {
        if let Phase::Over(outcome) = rules.phase(&state) {
            break [Side::Black, Side::White].map(|side| outcome.value_for(side) as f32);
        }
        if stats.actions >= u64::from(MAX_GAME_ACTIONS) {
            stats.unfinished = 1;
            break [0.0; 2];
        }
        if afterstate {
            let exact = exact_value(trainer, &state);
            stats.exact_labels += u64::from(exact.is_some());
            let views = [Side::Black, Side::White].map(|side| {
                let mut view = Input::default();
                view.encode(rules, &state, side);
                view
            });
            let expected = match (exact, trainer.options.expectation) {
                (None, true) => expected_next(rules, &net, &state, &mut input, &mut moves),
                _ => None,
            };
            game.push(Afterstate {
                views,
                exact,
                expected,
            });
            afterstate = false;
        }
        stats.actions += 1;
        match rules.phase(&state) {
            Phase::Throw(_) => rules.throw_unchecked(&mut state, device.sample(rng)),
            Phase::Move(side) => {
                rules.generate_moves(&state, &mut moves);
                let mv = super::best_afterstate(rules, &net, &state, side, &moves, &mut input).0;
                rules.play_unchecked(&mut state, mv);
                afterstate = true;
            }
            Phase::Over(_) => {}
        }
    };
    let lambda = trainer.options.lambda;
    for side in 0..2 {
        // λ-returns from the end: G_t = (1 − λ)·V(t+1) + λ·G(t+1), the result after the last
        // afterstate; an exact value is its own return and cuts what lies beyond it.
        let values: Vec<f32> = game
            .iter()
            .map(|a| match a.exact {
                Some(exact) => exact[side],
                None => net.value(&a.views[side]),
            })
            .collect();
        let mut targets = vec![0.0f32; game.len()];
        // With `expectation`, the one-step part uses the value expected over every throw
        // rather than the one thrown (except at the end, where the result is known).
        let mut next = (result[side], result[side]);
        for (t, a) in game.iter().enumerate().rev() {
            let one_step = match a.expected {
                Some(expected) if t + 1 < game.len() => expected[side],
                _ => next.0,
            };
            let target = match a.exact {
                Some(exact) => exact[side],
                None => (1.0 - lambda) * one_step + lambda * next.1,
            };
            targets[t] = target;
            next = (values[t], target);
        }
        for (a, &target) in game.iter().zip(&targets) {
            net.learn(&a.views[side], target, alpha);
        }
    }
    (net, stats)
}

/// The exact value of `state` for the side to act, if it waits for a throw and the tables
/// cover it.
fn exact_value<R: Ruleset>(trainer: &Trainer<R>, state: &R::State) -> Option<[f32; 2]> {
    let oracle = trainer.oracle.as_ref()?;
    let Phase::Throw(to_act) = trainer.rules.phase(state) else {
        return None;
    };
    let value = oracle.throw_value(state)? as f32;
    Some(match to_act {
        Side::Black => [value, 1.0 - value],
        Side::White => [1.0 - value, value],
    })
}
