//! The game driver: a ruleset, its state and the history of throws and moves.

use crate::prelude::*;
use core::fmt;
use core::str::FromStr;

use rand_core::Rng;

use crate::board::BitBoard;
use crate::error::{PlayError, PositionError, RecordError};
use crate::moves::{Move, MoveList};
use crate::playout::{PlayoutEnd, TurnCounter};
use crate::ruleset::{Outcome, Phase, Ruleset};
use crate::spec::RulesetSpec;
use crate::text::quote;
use crate::throw::{Throw, ThrowingDevice, uniform_below};

/// One step of a game: a throw (chance) or a move (a decision).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "lowercase"))]
pub enum Action {
    /// The side to act threw this value.
    Throw(Throw),
    /// The side to act made this move.
    Move(Move),
}

impl fmt::Display for Action {
    /// `throw 3` or `move 9-12`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Action::Throw(v) => write!(f, "throw {v}"),
            Action::Move(m) => write!(f, "move {m}"),
        }
    }
}

impl FromStr for Action {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let (kind, rest) = s
            .trim()
            .split_once(char::is_whitespace)
            .ok_or_else(|| format!("{} is not an action (use `throw N` or `move M`)", quote(s)))?;
        match kind {
            "throw" => rest
                .trim()
                .parse::<u8>()
                .ok()
                .and_then(Throw::new)
                .map(Action::Throw)
                .ok_or(())
                .map_err(|_| format!("{} is not a throw value", quote(rest.trim()))),
            "move" => rest
                .trim()
                .parse::<Move>()
                .map(Action::Move)
                .map_err(|e| e.to_string()),
            other => Err(format!(
                "{} is not an action (use `throw N` or `move M`)",
                quote(other)
            )),
        }
    }
}

/// Everything needed to replay a game: the ruleset with its options, the starting position
/// when it is not the usual one, the seed that produced it (for reference), and every action.
///
/// Loading a record ([`Game::from_record`]) replays it and refuses it at the first action that
/// does not replay, so a loaded record is always a valid game.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct GameRecord {
    /// The ruleset and its options.
    pub rules: RulesetSpec,
    /// The ruleset's [`RULES_REVISION`](Ruleset::RULES_REVISION) when the record was written.
    /// Loading refuses a record of another revision; `None` (a record written by hand, or
    /// before revisions were recorded) skips the check.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub revision: Option<u32>,
    /// The seed of the RNG that produced the game, if any (informative only: replaying uses
    /// the recorded actions).
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub seed: Option<u64>,
    /// The starting position in the position notation; `None` means the ruleset's initial
    /// position.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub start: Option<String>,
    /// Every throw and move, in order.
    pub actions: Vec<Action>,
}

/// A game in progress: a ruleset, the current state, and the history that led to it.
///
/// Every method that takes input checks it: a refused throw or move returns a typed
/// [`PlayError`] and leaves the game exactly as it was.
///
/// ```
/// use senet_core::{Game, Phase, PlayError, Ruleset};
/// # fn demo<R: Ruleset + Default>() {
/// let mut game = Game::new(R::default());
/// let before = game.clone();
/// // A move before the first throw is refused, and nothing changes.
/// assert!(matches!(game.play("9-12".parse().unwrap()), Err(PlayError::ThrowExpected(_))));
/// assert_eq!(game, before);
/// # }
/// ```
#[derive(Clone)]
pub struct Game<R: Ruleset> {
    rules: R,
    start: R::State,
    state: R::State,
    history: Vec<Action>,
    seed: Option<u64>,
    turns: TurnCounter,
    decisions: u32,
}

impl<R: Ruleset> PartialEq for Game<R> {
    fn eq(&self, other: &Self) -> bool {
        self.rules.spec() == other.rules.spec()
            && self.start == other.start
            && self.state == other.state
            && self.history == other.history
            && self.seed == other.seed
    }
}

impl<R: Ruleset> Eq for Game<R> {}

impl<R: Ruleset> fmt::Debug for Game<R> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Game")
            .field("rules", &self.rules.spec().to_string())
            .field("position", &self.rules.position_string(&self.state))
            .field("actions", &self.history.len())
            .finish()
    }
}

impl<R: Ruleset> Game<R> {
    /// A new game from the ruleset's initial position.
    pub fn new(rules: R) -> Game<R> {
        let start = rules.initial_state();
        Game::starting_unchecked(rules, start)
    }

    /// A game starting from `state`, which is validated first.
    pub fn from_state(rules: R, state: R::State) -> Result<Game<R>, PositionError> {
        rules.validate(&state)?;
        Ok(Game::starting_unchecked(rules, state))
    }

    /// A game starting from a position in the position notation.
    pub fn from_position(rules: R, position: &str) -> Result<Game<R>, PositionError> {
        let state = rules.parse_position(position)?;
        Ok(Game::starting_unchecked(rules, state))
    }

    fn starting_unchecked(rules: R, state: R::State) -> Game<R> {
        Game {
            rules,
            start: state,
            state,
            history: Vec::new(),
            seed: None,
            turns: TurnCounter::default(),
            decisions: 0,
        }
    }

    /// The ruleset.
    pub fn rules(&self) -> &R {
        &self.rules
    }

    /// The current state.
    pub fn state(&self) -> &R::State {
        &self.state
    }

    /// The state the game started from.
    pub fn start(&self) -> &R::State {
        &self.start
    }

    /// The current board.
    pub fn board(&self) -> &BitBoard {
        self.rules.board(&self.state)
    }

    /// The current board as its three rows, with the ruleset's special squares marked
    /// ([`Ruleset::diagram`]).
    pub fn diagram(&self) -> String {
        self.rules.diagram(&self.state)
    }

    /// What comes next.
    pub fn phase(&self) -> Phase {
        self.rules.phase(&self.state)
    }

    /// The outcome, once the game is over.
    pub fn outcome(&self) -> Option<Outcome> {
        self.rules.outcome(&self.state)
    }

    /// Every action so far.
    pub fn history(&self) -> &[Action] {
        &self.history
    }

    /// Turns started so far (a turn is a run of actions by one side).
    pub fn turns(&self) -> u32 {
        self.turns.turns()
    }

    /// Moves and passes made so far.
    pub fn decisions(&self) -> u32 {
        self.decisions
    }

    /// The seed noted for this game, if any.
    pub fn seed(&self) -> Option<u64> {
        self.seed
    }

    /// Notes the seed of the RNG that drives this game, for its record.
    pub fn set_seed(&mut self, seed: Option<u64>) {
        self.seed = seed;
    }

    /// The legal moves now (empty unless a move is due).
    pub fn legal_moves(&self) -> MoveList {
        self.rules.legal_moves(&self.state)
    }

    /// The current position in the position notation.
    pub fn position(&self) -> String {
        self.rules.position_string(&self.state)
    }

    fn note_actor(&mut self) {
        if let Some(side) = self.phase().side() {
            self.turns.observe(side);
        }
    }

    /// Records a throw of `value`. Refused, with the game unchanged, when a move is due, the
    /// game is over, or the device cannot show the value.
    pub fn throw(&mut self, value: Throw) -> Result<(), PlayError> {
        let mut next = self.state;
        self.rules.try_throw(&mut next, value)?;
        self.note_actor();
        self.state = next;
        self.history.push(Action::Throw(value));
        Ok(())
    }

    /// Throws the ruleset's device using `rng` and records the value.
    pub fn throw_random<G: Rng + ?Sized>(&mut self, rng: &mut G) -> Result<Throw, PlayError> {
        let value = self.rules.device().sample(rng);
        self.throw(value)?;
        Ok(value)
    }

    /// Plays `mv`. Refused, with the game unchanged, unless a move is due and `mv` is legal.
    pub fn play(&mut self, mv: Move) -> Result<(), PlayError> {
        let mut next = self.state;
        self.rules.try_play(&mut next, mv)?;
        self.note_actor();
        self.state = next;
        self.history.push(Action::Move(mv));
        self.decisions += 1;
        Ok(())
    }

    /// Applies an action (a throw or a move) with the same checks.
    pub fn apply(&mut self, action: Action) -> Result<(), PlayError> {
        match action {
            Action::Throw(v) => self.throw(v),
            Action::Move(m) => self.play(m),
        }
    }

    /// Plays `mv`, lets `look` see the game after it, then takes the move back in constant
    /// time: how a learner or a search sees each move's result. ([`undo`](Game::undo)
    /// replays the whole history, as a state does not remember the one before it.) A refused
    /// move leaves the game unchanged and `look` is not called.
    ///
    /// ```
    /// use senet_core::{Game, Ruleset, Throw};
    /// # fn demo<R: Ruleset + Default>() {
    /// let mut game = Game::new(R::default());
    /// game.throw(Throw::new(2).unwrap()).unwrap();
    /// let before = game.clone();
    /// for &mv in game.legal_moves().iter() {
    ///     let after = game.peek_after(mv, |g| g.position()).unwrap();
    ///     let mut played = before.clone();
    ///     played.play(mv).unwrap();
    ///     assert_eq!(after, played.position());
    /// }
    /// assert_eq!(game, before);
    /// # }
    /// ```
    pub fn peek_after<T>(
        &mut self,
        mv: Move,
        look: impl FnOnce(&Self) -> T,
    ) -> Result<T, PlayError> {
        let (state, turns, decisions) = (self.state, self.turns, self.decisions);
        self.play(mv)?;
        let seen = look(self);
        self.history.pop();
        self.state = state;
        self.turns = turns;
        self.decisions = decisions;
        Ok(seen)
    }

    /// Takes back the last action and returns it (`None` at the start).
    pub fn undo(&mut self) -> Option<Action> {
        let last = self.history.pop()?;
        let actions = core::mem::take(&mut self.history);
        self.state = self.start;
        self.turns = TurnCounter::default();
        self.decisions = 0;
        for action in actions {
            // Every action in the history was accepted before from the same states.
            let replayed = self.apply(action);
            debug_assert!(replayed.is_ok());
        }
        Some(last)
    }

    /// Plays on with random throws and uniformly random legal moves drawn from `rng` until
    /// the game ends or a side would start turn `max_turns + 1`; every action is recorded.
    pub fn play_random<G: Rng + ?Sized>(&mut self, rng: &mut G, max_turns: u32) -> PlayoutEnd {
        let device = self.rules.device();
        let mut moves = MoveList::new();
        loop {
            let phase = self.phase();
            match phase {
                Phase::Over(outcome) => return PlayoutEnd::Finished(outcome),
                Phase::Throw(side) | Phase::Move(side) => {
                    let mut counter = self.turns;
                    if counter.observe(side) && counter.turns() > max_turns {
                        return PlayoutEnd::TurnCap;
                    }
                }
            }
            let result = if let Phase::Throw(_) = phase {
                self.throw(device.sample(rng))
            } else {
                self.rules.generate_moves(&self.state, &mut moves);
                let pick = uniform_below(rng, moves.len() as u32) as usize;
                self.play(moves.get(pick).copied().unwrap_or_default())
            };
            if result.is_err() {
                // Only a ruleset that breaks its own contract gets here; stop rather than
                // loop forever.
                return PlayoutEnd::TurnCap;
            }
        }
    }

    /// The record of this game.
    pub fn record(&self) -> GameRecord {
        GameRecord {
            rules: self.rules.spec(),
            revision: Some(R::RULES_REVISION),
            seed: self.seed,
            start: (self.start != self.rules.initial_state())
                .then(|| self.rules.position_string(&self.start)),
            actions: self.history.clone(),
        }
    }

    /// Loads a record: configures the ruleset, checks the record's revision (see
    /// [`Ruleset::RULES_REVISION`]), sets up the start, and replays every action, refusing
    /// the record at the first action that does not replay.
    pub fn from_record(record: &GameRecord) -> Result<Game<R>, RecordError> {
        let rules = R::from_spec(&record.rules)?;
        if let Some(recorded) = record.revision
            && recorded != R::RULES_REVISION
        {
            return Err(RecordError::Revision {
                id: R::ID,
                recorded,
                current: R::RULES_REVISION,
            });
        }
        let mut game = match &record.start {
            Some(text) => Game::from_position(rules, text)?,
            None => Game::new(rules),
        };
        game.seed = record.seed;
        for (index, &action) in record.actions.iter().enumerate() {
            game.apply(action).map_err(|source| RecordError::Replay {
                index,
                action: action.to_string(),
                source,
            })?;
        }
        Ok(game)
    }
}

#[cfg(feature = "serde")]
impl<R: Ruleset> serde::Serialize for Game<R> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.record().serialize(serializer)
    }
}

#[cfg(feature = "serde")]
impl<'de, R: Ruleset> serde::Deserialize<'de> for Game<R> {
    /// Deserialises a [`GameRecord`] and replays it: a record that does not replay is an
    /// error, never a game in an impossible state.
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let record = GameRecord::deserialize(deserializer)?;
        Game::from_record(&record).map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn actions_print_and_parse() {
        for text in ["throw 3", "move 9-12", "move pass", "move 28-off"] {
            let action: Action = text.parse().unwrap();
            assert_eq!(action.to_string(), text);
        }
        for bad in ["", "throw", "throw x", "move", "move 9-", "jump 3"] {
            assert!(bad.parse::<Action>().is_err(), "{bad:?}");
        }
        // Found by fuzzing (tests/fuzz_parsers.rs): the whole bad value used to be quoted.
        for bad in [
            format!("throw {}", "\"".repeat(2000)),
            format!("{} 3", "j".repeat(2000)),
            "x".repeat(2000),
        ] {
            let err = bad.parse::<Action>().unwrap_err();
            assert!(err.len() < 120, "{err}");
        }
    }
}
