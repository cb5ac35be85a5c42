//! A game of any registered ruleset behind one type, for code that plays whichever ruleset
//! was named at run time: front ends, servers, bindings.
//!
//! [`AnyGame`] holds the ruleset it was made with and the game as a [`DynGame`], which
//! forwards every call to the typed [`Game`](senet_core::Game) of that ruleset: a seeded game,
//! its record and its errors are exactly those of the typed game. It reads as a
//! [`DynGame`] (`game.phase()`, `game.play(mv)`, …); code that runs millions of decisions
//! (simulations, playouts, metrics) stays generic and is reached through
//! [`RulesetVisitor`](crate::registry::RulesetVisitor) instead.
//!
//! ```
//! use rand_chacha::ChaCha8Rng;
//! use rand_core::SeedableRng;
//! use senet::registry::AnyRuleset;
//! use senet::{AnyGame, Phase};
//!
//! let mut game = AnyGame::new(AnyRuleset::parse("kendall").unwrap());
//! assert!(matches!(game.phase(), Phase::Throw(_)));
//! let mut rng = ChaCha8Rng::seed_from_u64(7);
//! // Kendall's throws are stored: a side throws until it has to move.
//! while let Phase::Throw(_) = game.phase() {
//!     game.throw_random(&mut rng).unwrap();
//! }
//! let first = game.legal_moves()[0];
//! game.play(first).unwrap();
//! assert_eq!(game.undo(), Some(senet::Action::Move(first)));
//!
//! // A record names its ruleset, so loading one needs no type either.
//! let text = game.record_text();
//! assert_eq!(AnyGame::from_record_text(&text).unwrap(), game);
//! ```

use core::fmt;
use core::ops::{Deref, DerefMut};

use senet_core::rand_core::Rng;
use senet_core::{
    DynGame, Game, GameRecord, PlayError, PlayoutEnd, PositionError, RecordError, Throw,
};

use crate::AnyRuleset;
use crate::registry::Registered;

/// A game of any registered ruleset: its ruleset, and the game as a [`DynGame`], which every
/// method of the typed [`Game`] is reached through.
///
/// Input is checked and a refused throw or move leaves the game unchanged.
#[derive(Clone)]
pub struct AnyGame {
    rules: AnyRuleset,
    game: Box<dyn DynGame>,
}

impl fmt::Debug for AnyGame {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.game.fmt(f)
    }
}

impl PartialEq for AnyGame {
    fn eq(&self, other: &AnyGame) -> bool {
        self.rules == other.rules && *self.game == *other.game
    }
}

impl Eq for AnyGame {}

impl Deref for AnyGame {
    type Target = dyn DynGame;

    fn deref(&self) -> &(dyn DynGame + 'static) {
        &*self.game
    }
}

impl DerefMut for AnyGame {
    fn deref_mut(&mut self) -> &mut (dyn DynGame + 'static) {
        &mut *self.game
    }
}

impl<R: Registered> From<Game<R>> for AnyGame
where
    AnyRuleset: From<R>,
{
    fn from(game: Game<R>) -> AnyGame {
        AnyGame {
            rules: AnyRuleset::from(game.rules().clone()),
            game: Box::new(game),
        }
    }
}

impl AnyGame {
    /// A new game of `rules` from its initial position.
    pub fn new(rules: AnyRuleset) -> AnyGame {
        let game = rules.new_game();
        AnyGame { rules, game }
    }

    /// A game of `rules` starting from a position in the position notation.
    ///
    /// ```
    /// use senet::AnyGame;
    /// let rules = "regency".parse().unwrap();
    /// let start = format!("{}WB. b", ".".repeat(27));
    /// let game = AnyGame::from_position(rules, &start).unwrap();
    /// assert_eq!(game.position(), start);
    /// assert!(AnyGame::from_position("regency".parse().unwrap(), "nonsense").is_err());
    /// ```
    pub fn from_position(rules: AnyRuleset, position: &str) -> Result<AnyGame, PositionError> {
        let game = rules.game_from_position(position)?;
        Ok(AnyGame { rules, game })
    }

    /// Loads a record: finds its ruleset among those registered and replays it (see
    /// [`Game::from_record`]).
    pub fn from_record(record: &GameRecord) -> Result<AnyGame, RecordError> {
        let rules = AnyRuleset::from_spec(&record.rules)?;
        let game = rules.game_from_record(record)?;
        Ok(AnyGame { rules, game })
    }

    /// Loads a record in the text form; every error names the line at fault (see
    /// [`Game::from_record_text`]).
    pub fn from_record_text(text: &str) -> Result<AnyGame, RecordError> {
        let (record, lines) = GameRecord::parse_with_lines(text)?;
        AnyGame::from_record(&record).map_err(|e| lines.locate(e))
    }

    /// The ruleset with its options.
    pub fn rules(&self) -> &AnyRuleset {
        &self.rules
    }

    /// Throws the ruleset's device using `rng` and records the throw; draws from `rng`
    /// exactly as [`Game::throw_random`] does, so a seeded game comes out the same.
    pub fn throw_random<G: Rng + ?Sized>(&mut self, mut rng: &mut G) -> Result<Throw, PlayError> {
        self.game.throw_with(&mut rng)
    }

    /// Plays on with random throws and uniformly random legal moves drawn from `rng`, as
    /// [`Game::play_random`] does, until the game ends or a side would start turn
    /// `max_turns + 1`.
    pub fn play_random<G: Rng + ?Sized>(&mut self, mut rng: &mut G, max_turns: u32) -> PlayoutEnd {
        self.game.play_random_with(&mut rng, max_turns)
    }

    /// The record of this game in the text form (see `docs/notation.md`).
    pub fn record_text(&self) -> String {
        self.record().to_string()
    }
}

#[cfg(feature = "serde")]
impl serde::Serialize for AnyGame {
    /// As its record, like [`Game`].
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.record().serialize(serializer)
    }
}

#[cfg(feature = "serde")]
impl<'de> serde::Deserialize<'de> for AnyGame {
    /// Deserialises a [`GameRecord`] and replays it with the ruleset it names.
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let record = GameRecord::deserialize(deserializer)?;
        AnyGame::from_record(&record).map_err(serde::de::Error::custom)
    }
}
