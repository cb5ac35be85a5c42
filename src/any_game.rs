//! A game of any registered ruleset behind one type, for code that plays whichever ruleset
//! was named at run time: front ends, servers, bindings.
//!
//! [`AnyGame`] holds the typed [`Game`] of the ruleset it was made with and forwards every
//! call to it, so a seeded game, its record and its errors are exactly those of the typed
//! game. Each call costs one `match` on the ruleset; code that runs millions of decisions
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

use senet_core::rand_core::Rng;
use senet_core::{
    Action, BitBoard, Game, GameRecord, Move, MoveList, Outcome, Phase, PlayError, PlayoutEnd,
    PositionError, RecordError, Ruleset, Setup, Side, SpecialSquares, Throw, ThrowOutcome,
    ThrowingDevice,
};

use crate::registry::{AnyRuleset, GameOf, from_rules, rules_of_game, with_game};

/// A game of any registered ruleset: the typed [`Game`] of that ruleset behind one type.
///
/// Every method behaves as the [`Game`] method of the same name; input is checked and a
/// refused throw or move leaves the game unchanged.
#[derive(Clone, PartialEq, Eq)]
pub struct AnyGame(pub(crate) GameOf);

impl fmt::Debug for AnyGame {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        with_game!(self.0, ref g => g.fmt(f))
    }
}

impl AnyGame {
    /// A new game of `rules` from its initial position.
    pub fn new(rules: AnyRuleset) -> AnyGame {
        let game: Result<GameOf, core::convert::Infallible> =
            from_rules!(GameOf, rules, r => Ok(Game::new(r)));
        let Ok(game) = game;
        AnyGame(game)
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
        let game: Result<GameOf, PositionError> =
            from_rules!(GameOf, rules, r => Game::from_position(r, position));
        game.map(AnyGame)
    }

    /// Loads a record: finds its ruleset among those registered and replays it (see
    /// [`Game::from_record`]).
    pub fn from_record(record: &GameRecord) -> Result<AnyGame, RecordError> {
        let rules = AnyRuleset::from_spec(&record.rules)?;
        let game: Result<GameOf, RecordError> =
            from_rules!(GameOf, rules, _ => Game::from_record(record));
        game.map(AnyGame)
    }

    /// Loads a record in the text form; every error names the line at fault (see
    /// [`Game::from_record_text`]).
    pub fn from_record_text(text: &str) -> Result<AnyGame, RecordError> {
        let (record, lines) = GameRecord::parse_with_lines(text)?;
        AnyGame::from_record(&record).map_err(|e| lines.locate(e))
    }

    /// The ruleset with its options.
    pub fn rules(&self) -> AnyRuleset {
        rules_of_game!(self.0)
    }

    /// What comes next.
    pub fn phase(&self) -> Phase {
        with_game!(self.0, ref g => g.phase())
    }

    /// The outcome, once the game is over.
    pub fn outcome(&self) -> Option<Outcome> {
        with_game!(self.0, ref g => g.outcome())
    }

    /// The legal moves now (empty unless a move is due).
    pub fn legal_moves(&self) -> MoveList {
        with_game!(self.0, ref g => g.legal_moves())
    }

    /// Records a throw of `value` (see [`Game::throw`]).
    pub fn throw(&mut self, value: Throw) -> Result<(), PlayError> {
        with_game!(self.0, ref mut g => g.throw(value))
    }

    /// Throws the ruleset's device using `rng` and records the value; draws from `rng`
    /// exactly as [`Game::throw_random`] does, so a seeded game comes out the same.
    pub fn throw_random<G: Rng + ?Sized>(&mut self, rng: &mut G) -> Result<Throw, PlayError> {
        with_game!(self.0, ref mut g => g.throw_random(rng))
    }

    /// Plays `mv` (see [`Game::play`]).
    pub fn play(&mut self, mv: Move) -> Result<(), PlayError> {
        with_game!(self.0, ref mut g => g.play(mv))
    }

    /// Applies a throw or a move with the same checks.
    pub fn apply(&mut self, action: Action) -> Result<(), PlayError> {
        with_game!(self.0, ref mut g => g.apply(action))
    }

    /// Takes back the last action and returns it (`None` at the start).
    pub fn undo(&mut self) -> Option<Action> {
        with_game!(self.0, ref mut g => g.undo())
    }

    /// The position `mv` would lead to, in the position notation, without playing it.
    ///
    /// ```
    /// use senet::{AnyGame, Throw};
    /// let mut game = AnyGame::new("regency".parse().unwrap());
    /// game.throw(Throw::at(3)).unwrap();
    /// let before = game.clone();
    /// for &mv in game.legal_moves().iter() {
    ///     let after = game.position_after(mv).unwrap();
    ///     let mut played = game.clone();
    ///     played.play(mv).unwrap();
    ///     assert_eq!(after, played.position());
    /// }
    /// assert_eq!(game, before);
    /// ```
    pub fn position_after(&self, mv: Move) -> Result<String, PlayError> {
        with_game!(self.0, ref g => {
            let mut state = *g.state();
            g.rules().try_play(&mut state, mv)?;
            Ok(g.rules().position_string(&state))
        })
    }

    /// Every action so far.
    pub fn history(&self) -> &[Action] {
        with_game!(self.0, ref g => g.history())
    }

    /// Turns started so far (a turn is a run of actions by one side).
    pub fn turns(&self) -> u32 {
        with_game!(self.0, ref g => g.turns())
    }

    /// Moves and passes made so far.
    pub fn decisions(&self) -> u32 {
        with_game!(self.0, ref g => g.decisions())
    }

    /// The seed noted for this game, if any.
    pub fn seed(&self) -> Option<u64> {
        with_game!(self.0, ref g => g.seed())
    }

    /// Notes the seed of the RNG that drives this game, for its record.
    pub fn set_seed(&mut self, seed: Option<u64>) {
        with_game!(self.0, ref mut g => g.set_seed(seed))
    }

    /// The current position in the position notation.
    pub fn position(&self) -> String {
        with_game!(self.0, ref g => g.position())
    }

    /// The current position as a [`Setup`]: board, side to act and the ruleset's fields
    /// (those at their defaults left out), without going through the text.
    ///
    /// ```
    /// use senet::{AnyGame, Throw};
    /// let mut game = AnyGame::new("regency".parse().unwrap());
    /// game.throw(Throw::at(2)).unwrap();
    /// assert_eq!(game.setup().field("throw"), Some("2"));
    /// assert_eq!(game.setup().to_string(), game.position());
    /// ```
    pub fn setup(&self) -> Setup {
        with_game!(self.0, ref g => g.rules().to_setup(g.state()))
    }

    /// The position the game started from, in the position notation.
    pub fn start_position(&self) -> String {
        with_game!(self.0, ref g => g.rules().position_string(g.start()))
    }

    /// The current board.
    pub fn board(&self) -> &BitBoard {
        with_game!(self.0, ref g => g.board())
    }

    /// The current board as its three rows, with the ruleset's special squares marked.
    ///
    /// ```
    /// use senet::AnyGame;
    /// use senet::registry::AnyRuleset;
    /// let game = AnyGame::new(AnyRuleset::parse("regency(house_of_water=true)").unwrap());
    /// let diagram = game.diagram();
    /// let lines: Vec<&str> = diagram.lines().collect();
    /// assert_eq!(lines[0], "| W | B | W | B | W | B | W | B | W |10 |");
    /// assert_eq!(lines[1], "|20 |19 |18 |17 |16 |15^|14 |13 |12 | B |");
    /// assert_eq!(lines[2], "|21 |22 |23 |24 |25 |26*|27~|28*|29*|30*|");
    /// assert_eq!(lines[3], "* safe from attack (R-10): 26 28 29 30");
    /// assert_eq!(lines[5], "^ the House of Rebirth (house_of_water): 15");
    /// assert_eq!(lines[6], "Black: 5 on board, 0 off, 0 in hand");
    /// ```
    pub fn diagram(&self) -> String {
        with_game!(self.0, ref g => g.diagram())
    }

    /// The squares with a rule of their own under this configuration (see
    /// [`Ruleset::special_squares`]).
    pub fn special_squares(&self) -> &'static [SpecialSquares] {
        with_game!(self.0, ref g => g.rules().special_squares())
    }

    /// Pieces of `side` that a capture removed from the game (Bell's rules; 0 elsewhere).
    pub fn captured(&self, side: Side) -> u8 {
        with_game!(self.0, ref g => g.rules().captured(g.state(), side))
    }

    /// Pieces per side.
    pub fn pieces_per_side(&self) -> u8 {
        with_game!(self.0, ref g => g.rules().pieces_per_side())
    }

    /// The throwing device's exact outcome table: each value with its integer weight.
    ///
    /// ```
    /// use senet::AnyGame;
    /// let game = AnyGame::new("regency".parse().unwrap());
    /// let weights: Vec<u32> = game.throw_outcomes().iter().map(|o| o.weight).collect();
    /// assert_eq!(weights, [4, 6, 4, 1, 1]);
    /// ```
    pub fn throw_outcomes(&self) -> &'static [ThrowOutcome] {
        with_game!(self.0, ref g => g.rules().device().outcomes())
    }

    /// The record of this game.
    pub fn record(&self) -> GameRecord {
        with_game!(self.0, ref g => g.record())
    }

    /// The record of this game in the text form (see `docs/notation.md`).
    pub fn record_text(&self) -> String {
        self.record().to_string()
    }

    /// Plays on with random throws and uniformly random legal moves drawn from `rng`, as
    /// [`Game::play_random`] does, until the game ends or a side would start turn
    /// `max_turns + 1`.
    pub fn play_random<G: Rng + ?Sized>(&mut self, rng: &mut G, max_turns: u32) -> PlayoutEnd {
        with_game!(self.0, ref mut g => g.play_random(rng, max_turns))
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
