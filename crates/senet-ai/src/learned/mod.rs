//! A learned evaluation: a small neural network trained by self-play, and the `learned`
//! player that searches with it.
//!
//! The network ([`ValueNet`]) has one hidden layer, like TD-Gammon's, and reads a position
//! through an encoding every ruleset shares ([`Input`]): each side's pieces on each of the 30
//! squares, the pieces each side has borne off, holds in hand or has lost to captures, who
//! acts next and who plays Black, and then what the ruleset remembers beyond the board
//! ([`Ruleset::STATE_FEATURES`]: pending and held throws, rule memories). A house ruleset
//! therefore trains the same way as the built-in ones.
//!
//! [`Trainer`] learns the weights by self-play with TD(λ), using exact endgame values where
//! tables are given; [`EndgameFitter`] fits a second network, an [`EndgameNet`], to the exact
//! values of the positions the tables cover, and the evaluator uses it there; [`Weights`]
//! reads and writes both as safetensors files that record the ruleset, options and rules
//! revision they were trained for. Weights trained by the project
//! come with the crate for each registered ruleset at its default options and for Kendall
//! with immediate throws ([`committed`]).
//!
//! The player `learned:D` ([`learned_player`]) is [`Expectiminimax`] searching `D` decisions
//! deep with the network at the leaves: `learned:1` is the network alone, choosing the move
//! whose position after it the network values most.
//!
//! ```
//! use senet::ai::learned::{LearnedEvaluator, TrainOptions, Trainer, learned_player};
//! use senet::ai::{Evaluator, Player};
//! use senet::rng::seeded;
//! use senet::{Regency, Ruleset, Side};
//!
//! // A few self-play games (the committed weights took 100,000: `learned::committed`).
//! let rules = Regency::default();
//! let mut trainer = Trainer::new(rules.clone(), TrainOptions::default(), &mut seeded(7, u64::MAX))?;
//! trainer.train(50, |game| seeded(7, game))?;
//! let weights = trainer.weights("a doc example".to_string());
//!
//! let evaluator = LearnedEvaluator::new(&rules, &weights)?;
//! let value = evaluator.evaluate(&rules, &rules.initial_state(), Side::Black);
//! assert!((0.0..=1.0).contains(&value));
//! let player = learned_player(&rules, &weights, 2)?;
//! assert_eq!(player.name(), "learned:2");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod encoding;
mod endgame;
mod network;
mod train;
mod weights;

use std::sync::{Arc, OnceLock};

use senet_core::{Move, MoveList, Phase, Ruleset, Side};

pub use encoding::{BASE_INPUTS, Input, MAX_INPUTS, input_count};
pub use endgame::{EndgameFitOptions, EndgameFitter, EndgameNet, FitStats, MAX_ENDGAME_PIECES};
pub use network::{MAX_HIDDEN, ShapeError, ValueNet};
pub use train::{
    MAX_GAME_ACTIONS, MAX_TRAINING_GAMES, MAX_TRAINING_THREADS, TrainError, TrainOptions,
    TrainStats, Trainer,
};
pub use weights::{ENCODING_VERSION, MAX_WEIGHTS_FILE_BYTES, Weights, WeightsError, WeightsInfo};

use crate::eval::Evaluator;
use crate::expectiminimax::{Budget, Expectiminimax};

/// The search depth of `learned` without a number.
pub const DEFAULT_LEARNED_DEPTH: u32 = 2;

/// A [`ValueNet`] as an [`Evaluator`]: the network's estimate for positions in play (the
/// endgame network's where the weights have one that covers the position), the result for
/// finished games.
#[derive(Clone, Debug)]
pub struct LearnedEvaluator {
    net: Arc<ValueNet>,
    endgame: Option<Arc<EndgameNet>>,
}

impl LearnedEvaluator {
    /// The evaluator of `weights`, which must have been trained for `rules`.
    pub fn new<R: Ruleset>(rules: &R, weights: &Weights) -> Result<Self, WeightsError> {
        weights.check_rules(rules)?;
        Ok(LearnedEvaluator {
            net: Arc::new(weights.net.clone()),
            endgame: weights.endgame.clone().map(Arc::new),
        })
    }

    /// The same evaluator without its endgame network: the main network everywhere.
    pub fn without_endgame(mut self) -> Self {
        self.endgame = None;
        self
    }

    /// The main network.
    pub fn net(&self) -> &ValueNet {
        &self.net
    }

    /// The network that values `state`: the endgame network where it covers the board.
    #[inline]
    pub fn net_for<R: Ruleset>(&self, rules: &R, state: &R::State) -> &ValueNet {
        match &self.endgame {
            Some(endgame) if endgame.covers(rules.board(state)) => &endgame.net,
            _ => &self.net,
        }
    }
}

impl<R: Ruleset> Evaluator<R> for LearnedEvaluator {
    #[inline]
    fn evaluate(&self, rules: &R, state: &R::State, side: Side) -> f64 {
        if let Phase::Over(outcome) = rules.phase(state) {
            return outcome.value_for(side);
        }
        let mut input = Input::default();
        input.encode(rules, state, side);
        f64::from(self.net_for(rules, state).value(&input))
    }
}

/// The learned player: [`Expectiminimax`] searching `depth` decisions deep over `weights`
/// (1: the network alone), by whole turns
/// ([`with_whole_turns`](Expectiminimax::with_whole_turns): on Kendall with stored throws,
/// the moves of a turn count as one decision). Fails when the weights were trained for other
/// rules.
pub fn learned_player<R: Ruleset>(
    rules: &R,
    weights: &Weights,
    depth: u32,
) -> Result<Expectiminimax<R, LearnedEvaluator>, WeightsError> {
    let evaluator = LearnedEvaluator::new(rules, weights)?;
    Ok(
        Expectiminimax::with_evaluator(Budget::Depth(depth), evaluator)
            .with_whole_turns(true)
            .named("learned"),
    )
}

/// The move among `moves` whose afterstate `net` values most for `side` (a finished game
/// counts as its result), with that value; the first of equal values.
pub(crate) fn best_afterstate<R: Ruleset>(
    rules: &R,
    net: &ValueNet,
    state: &R::State,
    side: Side,
    moves: &MoveList,
    input: &mut Input,
) -> (Move, f32) {
    let mut best = (moves[0], f32::NEG_INFINITY);
    for &mv in moves.iter() {
        let mut after = *state;
        rules.play_unchecked(&mut after, mv);
        let value = match rules.phase(&after) {
            Phase::Over(outcome) => outcome.value_for(side) as f32,
            _ => {
                input.encode(rules, &after, side);
                net.value(input)
            }
        };
        if value > best.1 {
            best = (mv, value);
        }
    }
    best
}

/// The weights that come with the crate: ruleset specification and safetensors bytes
/// (`weights/README.md` says how each file was trained and how strong it plays).
const COMMITTED: &[(&str, &[u8])] = &[
    (
        "regency",
        include_bytes!("../../weights/regency.safetensors"),
    ),
    (
        "botermans",
        include_bytes!("../../weights/botermans.safetensors"),
    ),
    ("cemea", include_bytes!("../../weights/cemea.safetensors")),
    (
        "kendall",
        include_bytes!("../../weights/kendall.safetensors"),
    ),
    (
        "kendall(throw_timing=immediate)",
        include_bytes!("../../weights/kendall-immediate.safetensors"),
    ),
    ("bell", include_bytes!("../../weights/bell.safetensors")),
    (
        "jequier",
        include_bytes!("../../weights/jequier.safetensors"),
    ),
    (
        "piccione",
        include_bytes!("../../weights/piccione.safetensors"),
    ),
];

/// The weights trained by the project for `rules`' configuration, if it has any: every
/// registered ruleset at its default options, and Kendall with immediate throws. Read once
/// and kept.
pub fn committed<R: Ruleset>(rules: &R) -> Result<Weights, WeightsError> {
    static READ: OnceLock<Vec<Result<Weights, String>>> = OnceLock::new();
    let read = READ.get_or_init(|| {
        COMMITTED
            .iter()
            .map(|(_, bytes)| Weights::from_bytes(bytes).map_err(|e| e.to_string()))
            .collect()
    });
    let spec = rules.spec().to_string();
    let Some(index) = COMMITTED.iter().position(|(name, _)| *name == spec) else {
        return Err(WeightsError::NotCommitted(spec));
    };
    let weights = read[index]
        .as_ref()
        .map_err(|e| WeightsError::Format(e.clone()))?
        .clone();
    weights.check_rules(rules)?;
    Ok(weights)
}

/// The specifications of the rulesets with committed weights.
pub fn committed_rulesets() -> impl Iterator<Item = &'static str> {
    COMMITTED.iter().map(|(name, _)| *name)
}
