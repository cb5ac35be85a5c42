//! Rulesets and games behind object-safe traits, for code that learns which ruleset it plays
//! only at run time: front ends, servers, bindings, record tools.
//!
//! [`Ruleset`] and [`Game`] are generic, which is what move generation and playouts need: every
//! call is static and a state is a small `Copy` value. A front end that lets its user pick the
//! ruleset wants one type instead. [`DynRuleset`] and [`DynGame`] are that type, implemented
//! for every ruleset and every game (house rules included), in the way `rand_core` makes its
//! generator trait object-safe: a `dyn DynGame` forwards each call to the typed
//! [`Game`], so seeded games, records and errors are exactly the typed game's.
//!
//! Positions cross the boundary as the position notation (a [`Setup`] or its text), never as a
//! state type. Each call costs one indirect call, against a decision that costs far more; a
//! loop that plays millions of decisions stays generic.
//!
//! ```
//! use senet_core::{DynGame, DynRuleset, Phase, Throw};
//! # fn demo<R: senet_core::Ruleset + Default>() {
//! let rules: Box<dyn DynRuleset> = Box::new(R::default());
//! let mut game: Box<dyn DynGame> = rules.new_game();
//! if let Phase::Throw(_) = game.phase() {
//!     game.throw(Throw::at(1)).ok();
//! }
//! let copy = game.clone();
//! assert_eq!(copy.record(), game.record());
//! # }
//! ```

use crate::prelude::*;
use core::fmt;

use rand_core::Rng;

use crate::board::{BitBoard, SpecialSquares};
use crate::error::{PlayError, PositionError, RecordError, SpecError};
use crate::game::{Action, Game, GameRecord};
use crate::moves::{Move, MoveList};
use crate::opening::SeatRule;
use crate::playout::PlayoutEnd;
use crate::ruleset::{Outcome, Phase, Ruleset};
use crate::setup::{FieldInfo, Setup};
use crate::side::Side;
use crate::spec::{OptionInfo, RulesetSpec};
use crate::throw::{Throw, ThrowOutcome, ThrowingDevice};

/// A configured ruleset of any type: what a front end asks of a ruleset before and outside a
/// game. Every [`Ruleset`] implements it.
pub trait DynRuleset: fmt::Debug + Send + Sync {
    /// The canonical specification of this configuration ([`Ruleset::spec`]).
    fn spec(&self) -> RulesetSpec;
    /// The ruleset's id ([`Ruleset::ID`]).
    fn id(&self) -> &'static str;
    /// The ruleset's name ([`Ruleset::NAME`]).
    fn name(&self) -> &'static str;
    /// The revision of its behaviour ([`Ruleset::RULES_REVISION`]).
    fn rules_revision(&self) -> u32;
    /// The options it accepts ([`Ruleset::OPTIONS`]).
    fn options(&self) -> &'static [OptionInfo];
    /// The position fields beyond board and side ([`Ruleset::FIELD_INFO`]).
    fn field_info(&self) -> &'static [FieldInfo];
    /// The rules in prose ([`Ruleset::RULES_TEXT`]).
    fn rules_text(&self) -> &'static str;
    /// How the players decide who plays Black ([`Ruleset::SEAT_RULE`]).
    fn seat_rule(&self) -> SeatRule;
    /// Pieces per side.
    fn pieces_per_side(&self) -> u8;
    /// The throwing device's exact outcome table: each value with its integer weight.
    fn throw_outcomes(&self) -> &'static [ThrowOutcome];
    /// Throws the device once with `rng` (as [`Game::throw_random`] draws it).
    fn sample_throw(&self, rng: &mut dyn Rng) -> Throw;
    /// The squares with a rule of their own under this configuration.
    fn special_squares(&self) -> &'static [SpecialSquares];
    /// A new game from the initial position.
    fn new_game(&self) -> Box<dyn DynGame>;
    /// A game starting from a position in the position notation.
    fn game_from_position(&self, position: &str) -> Result<Box<dyn DynGame>, PositionError>;
    /// Replays a record of this ruleset ([`Game::from_record`]); the record's own ruleset
    /// specification configures the game, and must name this ruleset.
    fn game_from_record(&self, record: &GameRecord) -> Result<Box<dyn DynGame>, RecordError>;
}

impl<R: Ruleset> DynRuleset for R {
    fn spec(&self) -> RulesetSpec {
        Ruleset::spec(self)
    }
    fn id(&self) -> &'static str {
        R::ID
    }
    fn name(&self) -> &'static str {
        R::NAME
    }
    fn rules_revision(&self) -> u32 {
        R::RULES_REVISION
    }
    fn options(&self) -> &'static [OptionInfo] {
        R::OPTIONS
    }
    fn field_info(&self) -> &'static [FieldInfo] {
        R::FIELD_INFO
    }
    fn rules_text(&self) -> &'static str {
        R::RULES_TEXT
    }
    fn seat_rule(&self) -> SeatRule {
        R::SEAT_RULE
    }
    fn pieces_per_side(&self) -> u8 {
        Ruleset::pieces_per_side(self)
    }
    fn throw_outcomes(&self) -> &'static [ThrowOutcome] {
        self.device().outcomes()
    }
    fn sample_throw(&self, rng: &mut dyn Rng) -> Throw {
        self.device().sample(rng)
    }
    fn special_squares(&self) -> &'static [SpecialSquares] {
        Ruleset::special_squares(self)
    }
    fn new_game(&self) -> Box<dyn DynGame> {
        Box::new(Game::new(self.clone()))
    }
    fn game_from_position(&self, position: &str) -> Result<Box<dyn DynGame>, PositionError> {
        Ok(Box::new(Game::from_position(self.clone(), position)?))
    }
    fn game_from_record(&self, record: &GameRecord) -> Result<Box<dyn DynGame>, RecordError> {
        if record.rules.id() != R::ID {
            return Err(RecordError::Spec(SpecError::UnknownRuleset {
                id: record.rules.id().to_string(),
                known: R::ID.to_string(),
            }));
        }
        Ok(Box::new(Game::<R>::from_record(record)?))
    }
}

/// A game of any ruleset: the typed [`Game`] behind one object-safe trait. Every method
/// behaves as the [`Game`] method of the same name; input is checked and a refused throw or
/// move leaves the game unchanged.
pub trait DynGame: fmt::Debug + Send + Sync {
    /// The ruleset's specification.
    fn spec(&self) -> RulesetSpec;
    /// What comes next.
    fn phase(&self) -> Phase;
    /// The outcome, once the game is over.
    fn outcome(&self) -> Option<Outcome>;
    /// The legal moves now (empty unless a move is due).
    fn legal_moves(&self) -> MoveList;
    /// Writes the legal moves now into `moves` (replacing what it held): [`legal_moves`]
    /// without moving a whole list, for loops that decide many times.
    ///
    /// [`legal_moves`]: DynGame::legal_moves
    fn generate_moves(&self, moves: &mut MoveList);
    /// Records a throw ([`Game::throw`]).
    fn throw(&mut self, value: Throw) -> Result<(), PlayError>;
    /// Throws the ruleset's device with `rng` and records the throw; draws from `rng`
    /// exactly as [`Game::throw_random`] does.
    fn throw_with(&mut self, rng: &mut dyn Rng) -> Result<Throw, PlayError>;
    /// Plays `mv` ([`Game::play`]).
    fn play(&mut self, mv: Move) -> Result<(), PlayError>;
    /// Applies a throw or a move with the same checks.
    fn apply(&mut self, action: Action) -> Result<(), PlayError>;
    /// Takes back the last action and returns it (`None` at the start).
    fn undo(&mut self) -> Option<Action>;
    /// Plays `mv`, lets `look` see the game after it and takes the move back in constant
    /// time ([`Game::peek_after`]).
    fn peek_after(&mut self, mv: Move, look: &mut dyn FnMut(&dyn DynGame))
    -> Result<(), PlayError>;
    /// The position `mv` would lead to, in the position notation, without playing it.
    fn position_after(&self, mv: Move) -> Result<String, PlayError>;
    /// Every action so far.
    fn history(&self) -> &[Action];
    /// Turns started so far.
    fn turns(&self) -> u32;
    /// Moves and passes made so far.
    fn decisions(&self) -> u32;
    /// The seed noted for this game, if any.
    fn seed(&self) -> Option<u64>;
    /// Notes the seed of the RNG that drives this game, for its record.
    fn set_seed(&mut self, seed: Option<u64>);
    /// The current position in the position notation.
    fn position(&self) -> String;
    /// The current position as a [`Setup`]: board, side to act and the ruleset's fields.
    fn setup(&self) -> Setup;
    /// The position the game started from, in the position notation.
    fn start_position(&self) -> String;
    /// The current board.
    fn board(&self) -> &BitBoard;
    /// The current board as its three rows, with the special squares marked.
    fn diagram(&self) -> String;
    /// The squares with a rule of their own under this configuration.
    fn special_squares(&self) -> &'static [SpecialSquares];
    /// Pieces of `side` that a capture removed from the game (0 where none can be).
    fn captured(&self, side: Side) -> u8;
    /// Pieces per side.
    fn pieces_per_side(&self) -> u8;
    /// The throwing device's exact outcome table.
    fn throw_outcomes(&self) -> &'static [ThrowOutcome];
    /// The record of this game.
    fn record(&self) -> GameRecord;
    /// Plays on with random throws and uniformly random legal moves drawn from `rng`, as
    /// [`Game::play_random`] does.
    fn play_random_with(&mut self, rng: &mut dyn Rng, max_turns: u32) -> PlayoutEnd;
    /// A copy of this game.
    fn clone_game(&self) -> Box<dyn DynGame>;
    /// Whether `other` is the same game: same ruleset configuration, start, seed and actions.
    fn same_game(&self, other: &dyn DynGame) -> bool;
}

impl<R: Ruleset> DynGame for Game<R> {
    fn spec(&self) -> RulesetSpec {
        self.rules().spec()
    }
    fn phase(&self) -> Phase {
        Game::phase(self)
    }
    fn outcome(&self) -> Option<Outcome> {
        Game::outcome(self)
    }
    fn legal_moves(&self) -> MoveList {
        Game::legal_moves(self)
    }
    fn generate_moves(&self, moves: &mut MoveList) {
        self.rules().generate_moves(self.state(), moves);
    }
    fn throw(&mut self, value: Throw) -> Result<(), PlayError> {
        Game::throw(self, value)
    }
    fn throw_with(&mut self, rng: &mut dyn Rng) -> Result<Throw, PlayError> {
        self.throw_random(rng)
    }
    fn play(&mut self, mv: Move) -> Result<(), PlayError> {
        Game::play(self, mv)
    }
    fn apply(&mut self, action: Action) -> Result<(), PlayError> {
        Game::apply(self, action)
    }
    fn undo(&mut self) -> Option<Action> {
        Game::undo(self)
    }
    fn peek_after(
        &mut self,
        mv: Move,
        look: &mut dyn FnMut(&dyn DynGame),
    ) -> Result<(), PlayError> {
        Game::peek_after(self, mv, |game| look(game))
    }
    fn position_after(&self, mv: Move) -> Result<String, PlayError> {
        let mut state = *self.state();
        self.rules().try_play(&mut state, mv)?;
        Ok(self.rules().position_string(&state))
    }
    fn history(&self) -> &[Action] {
        Game::history(self)
    }
    fn turns(&self) -> u32 {
        Game::turns(self)
    }
    fn decisions(&self) -> u32 {
        Game::decisions(self)
    }
    fn seed(&self) -> Option<u64> {
        Game::seed(self)
    }
    fn set_seed(&mut self, seed: Option<u64>) {
        Game::set_seed(self, seed);
    }
    fn position(&self) -> String {
        Game::position(self)
    }
    fn setup(&self) -> Setup {
        self.rules().to_setup(self.state())
    }
    fn start_position(&self) -> String {
        self.rules().position_string(self.start())
    }
    fn board(&self) -> &BitBoard {
        Game::board(self)
    }
    fn diagram(&self) -> String {
        Game::diagram(self)
    }
    fn special_squares(&self) -> &'static [SpecialSquares] {
        self.rules().special_squares()
    }
    fn captured(&self, side: Side) -> u8 {
        self.rules().captured(self.state(), side)
    }
    fn pieces_per_side(&self) -> u8 {
        self.rules().pieces_per_side()
    }
    fn throw_outcomes(&self) -> &'static [ThrowOutcome] {
        self.rules().device().outcomes()
    }
    fn record(&self) -> GameRecord {
        Game::record(self)
    }
    fn play_random_with(&mut self, rng: &mut dyn Rng, max_turns: u32) -> PlayoutEnd {
        self.play_random(rng, max_turns)
    }
    fn clone_game(&self) -> Box<dyn DynGame> {
        Box::new(self.clone())
    }
    fn same_game(&self, other: &dyn DynGame) -> bool {
        self.record() == other.record()
    }
}

impl Clone for Box<dyn DynGame> {
    fn clone(&self) -> Self {
        self.clone_game()
    }
}

impl PartialEq for dyn DynGame {
    fn eq(&self, other: &dyn DynGame) -> bool {
        self.same_game(other)
    }
}

impl Eq for dyn DynGame {}
