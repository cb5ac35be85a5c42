//! The [`Player`] trait and the [`Analysis`] a player gives of its choice.

use rand_core::Rng;
use senet_core::{Move, MoveList, Outcome, Phase, PositionError, Ruleset, Side};
use thiserror::Error;

/// What the values of an [`Analysis`] mean, so that a game can present them honestly.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ValueKind {
    /// The exact probability that the side to move wins after the move (perfect play from
    /// solved tables).
    ExactWinProbability,
    /// An estimate of the probability that the side to move wins after the move (search with
    /// an evaluation function, or the win rate of playouts).
    EstimatedWinProbability,
    /// A heuristic score in the player's own units: only the order of the values means
    /// anything.
    Heuristic,
    /// The player does not prefer any move: every value is the probability of picking it.
    Uniform,
    /// There was one legal move, returned without analysis; its value is 1.
    Forced,
}

/// One legal move with the value a player gave it (higher is better for the side to move).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MoveValue {
    /// The move.
    pub mv: Move,
    /// Its value; see [`ValueKind`] for the scale.
    pub value: f64,
}

/// A player's view of a decision: every legal move with its value, and the move chosen.
///
/// ```
/// use senet::ai::{Analysis, MoveValue, ValueKind};
/// use senet::Move;
/// let a: Move = "9-12".parse().unwrap();
/// let b: Move = "7-10".parse().unwrap();
/// let analysis = Analysis::new(
///     vec![MoveValue { mv: a, value: 0.4 }, MoveValue { mv: b, value: 0.7 }],
///     1,
///     ValueKind::EstimatedWinProbability,
/// );
/// assert_eq!(analysis.chosen(), b);
/// assert_eq!(analysis.value_of(a), Some(0.4));
/// assert_eq!(analysis.ranked()[0].mv, b);
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct Analysis {
    moves: Vec<MoveValue>,
    chosen: usize,
    kind: ValueKind,
}

impl Analysis {
    /// An analysis of `moves` (in generation order) choosing `moves[chosen]`. An index past
    /// the end chooses the first move; an empty list stands for a pass.
    pub fn new(mut moves: Vec<MoveValue>, chosen: usize, kind: ValueKind) -> Analysis {
        if moves.is_empty() {
            moves.push(MoveValue {
                mv: Move::PASS,
                value: 1.0,
            });
        }
        let chosen = if chosen < moves.len() { chosen } else { 0 };
        Analysis {
            moves,
            chosen,
            kind,
        }
    }

    /// An analysis of `moves` with `values`, choosing the first move of highest value (so
    /// that ties go to the move generated first and the choice is deterministic).
    pub fn best_of(moves: &[Move], values: &[f64], kind: ValueKind) -> Analysis {
        let chosen = first_best(values);
        let moves = moves
            .iter()
            .zip(values)
            .map(|(&mv, &value)| MoveValue { mv, value })
            .collect();
        Analysis::new(moves, chosen, kind)
    }

    /// The analysis of a decision with one legal move.
    pub fn forced(mv: Move) -> Analysis {
        Analysis::new(vec![MoveValue { mv, value: 1.0 }], 0, ValueKind::Forced)
    }

    /// The move chosen.
    pub fn chosen(&self) -> Move {
        self.moves[self.chosen].mv
    }

    /// The position of the chosen move in [`moves`](Analysis::moves).
    pub fn chosen_index(&self) -> usize {
        self.chosen
    }

    /// Every legal move with its value, in generation order.
    pub fn moves(&self) -> &[MoveValue] {
        &self.moves
    }

    /// What the values mean.
    pub fn kind(&self) -> ValueKind {
        self.kind
    }

    /// The value given to `mv`, if it is one of the legal moves.
    pub fn value_of(&self, mv: Move) -> Option<f64> {
        self.moves.iter().find(|m| m.mv == mv).map(|m| m.value)
    }

    /// The moves from best to worst (ties keep generation order): hints for a player, or a
    /// ranking to pick a weaker move from on purpose.
    pub fn ranked(&self) -> Vec<MoveValue> {
        let mut ranked = self.moves.clone();
        ranked.sort_by(|a, b| b.value.total_cmp(&a.value));
        ranked
    }
}

/// The index of the first largest value (0 for an empty slice). NaN never wins.
pub(crate) fn first_best(values: &[f64]) -> usize {
    let mut best = 0;
    for (i, &v) in values.iter().enumerate() {
        if v > values[best] || values[best].is_nan() {
            best = i;
        }
    }
    best
}

/// Why a player could not choose a move.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum PlayerError {
    /// Players choose moves; the state is waiting for a throw or the game is over.
    #[error("there is no move to choose: the game is in phase {0:?}")]
    NotADecision(Phase),
    /// A player made for one ruleset configuration was asked about a game of another (a
    /// player chosen at run time, such as the facade's `AnyPlayer`).
    #[error("the player was made for `{player}`, the game is played under `{game}`")]
    OtherRules {
        /// The configuration the player was made for.
        player: String,
        /// The configuration of the game.
        game: String,
    },
    /// The position of a game handed over as notation (a [`DynPlayer`](crate::DynPlayer)'s
    /// game) does not read under the player's rules.
    #[error("the position does not read under the player's rules: {0}")]
    Position(PositionError),
}

/// A decision for a [`Player`] to value: the side to move and its legal moves, more than one.
#[derive(Debug)]
pub struct Decision<'a, R: Ruleset> {
    /// The rules of the game.
    pub rules: &'a R,
    /// The state, in [`Phase::Move`] of `mover`.
    pub state: &'a R::State,
    /// The side to move.
    pub mover: Side,
    /// The legal moves of `state` in generation order; at least two.
    pub moves: &'a [Move],
}

/// A computer player: chooses a move for the side to move and explains the choice.
///
/// A player implements [`value`](Player::value), which sees only real choices: the provided
/// [`analyse`](Player::analyse) checks the phase, generates the legal moves, and answers a
/// single legal move itself (as [`Analysis::forced`], without drawing from the RNG).
///
/// Players are generic over the [`Ruleset`], so one implementation plays every
/// reconstruction: they see only the turn machine (phases, generated moves, the throwing
/// device's exact outcome table) and the board. Randomness comes from the caller's `rng`;
/// players that do not need it ignore it, so they choose the same move for the same state
/// every time.
///
/// ```
/// use senet::rng::ChaCha8Rng;
/// use senet::rng::SeedableRng;
/// use senet::ai::{Greedy, Player};
/// use senet::{Game, Ruleset, Throw};
/// use senet::Regency;
///
/// let mut game = Game::new(Regency::default());
/// game.throw(Throw::at(3)).unwrap();
/// let mut rng = ChaCha8Rng::seed_from_u64(1);
/// let mut player = Greedy::new();
/// let analysis = player.analyse(game.rules(), game.state(), &mut rng).unwrap();
/// assert_eq!(analysis.moves().len(), game.legal_moves().len());
/// game.play(analysis.chosen()).unwrap();
/// ```
pub trait Player<R: Ruleset>: Send {
    /// A short name, in the form [`PlayerSpec`](crate::PlayerSpec) parses where there is one
    /// (`greedy`, `expectiminimax:3`, …).
    fn name(&self) -> String;

    /// Values every move of a decision with more than one legal move and chooses one.
    fn value(&mut self, at: Decision<'_, R>, rng: &mut dyn Rng) -> Result<Analysis, PlayerError>;

    /// The move chosen at a decision with more than one legal move: the choice of
    /// [`value`](Player::value), which a player may find with less work than valuing every
    /// move (expectiminimax prunes at the root).
    fn choose_at(&mut self, at: Decision<'_, R>, rng: &mut dyn Rng) -> Result<Move, PlayerError> {
        self.value(at, rng).map(|analysis| analysis.chosen())
    }

    /// Values every legal move of `state` (which must be in [`Phase::Move`]) and chooses one.
    fn analyse(
        &mut self,
        rules: &R,
        state: &R::State,
        rng: &mut dyn Rng,
    ) -> Result<Analysis, PlayerError> {
        at_decision(rules, state, Analysis::forced, |at| self.value(at, rng))
    }

    /// The move chosen for `state`: the one [`analyse`](Player::analyse) chooses (see
    /// [`choose_at`](Player::choose_at)).
    fn choose(
        &mut self,
        rules: &R,
        state: &R::State,
        rng: &mut dyn Rng,
    ) -> Result<Move, PlayerError> {
        at_decision(rules, state, |only| only, |at| self.choose_at(at, rng))
    }
}

/// `decide` at the decision of `state`, or `forced` with its only legal move; refused
/// outside a decision.
fn at_decision<R: Ruleset, T>(
    rules: &R,
    state: &R::State,
    forced: impl FnOnce(Move) -> T,
    decide: impl FnOnce(Decision<'_, R>) -> Result<T, PlayerError>,
) -> Result<T, PlayerError> {
    let mover = side_to_move(rules, state)?;
    let mut moves = MoveList::new();
    rules.generate_moves(state, &mut moves);
    match moves[..] {
        [only] => Ok(forced(only)),
        _ => decide(Decision {
            rules,
            state,
            mover,
            moves: &moves,
        }),
    }
}

/// The side to move in `state`, or the error a player returns outside a decision.
pub(crate) fn side_to_move<R: Ruleset>(rules: &R, state: &R::State) -> Result<Side, PlayerError> {
    match rules.phase(state) {
        Phase::Move(side) => Ok(side),
        other => Err(PlayerError::NotADecision(other)),
    }
}

/// What a finished game is worth to `side`: 1 for a win, 0 for a loss, ½ for a draw
/// ([`Outcome::value_for`]).
#[inline]
pub fn outcome_value(outcome: &Outcome, side: Side) -> f64 {
    outcome.value_for(side)
}

#[cfg(test)]
mod tests {
    use super::*;
    use senet_core::PerSide;

    #[test]
    fn first_best_prefers_the_earliest_of_equal_values() {
        assert_eq!(first_best(&[0.2, 0.7, 0.7, 0.1]), 1);
        assert_eq!(first_best(&[f64::NAN, 0.1]), 1);
        assert_eq!(first_best(&[]), 0);
    }

    #[test]
    fn an_empty_analysis_stands_for_a_pass() {
        let analysis = Analysis::new(Vec::new(), 3, ValueKind::Forced);
        assert_eq!(analysis.chosen(), Move::PASS);
        assert_eq!(analysis.chosen_index(), 0);
    }

    #[test]
    fn outcomes_are_worth_one_zero_or_half() {
        let win = Outcome {
            winner: Some(Side::Black),
            points: PerSide::new(1, 0),
        };
        assert_eq!(outcome_value(&win, Side::Black), 1.0);
        assert_eq!(outcome_value(&win, Side::White), 0.0);
        let draw = Outcome {
            winner: None,
            points: PerSide::both(0),
        };
        assert_eq!(outcome_value(&draw, Side::White), 0.5);
    }
}
