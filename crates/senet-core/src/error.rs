//! Typed errors: every bad input the library can receive maps to one of these.

use crate::prelude::*;
use thiserror::Error;

use crate::moves::Move;
use crate::side::Side;
use crate::square::Square;
use crate::text::{quote, shorten};
use crate::throw::Throw;

/// A position that cannot occur under the ruleset, or position text that cannot be read.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum PositionError {
    /// Both sides claim the same square.
    #[error("square {0} is occupied by both sides")]
    Overlap(Square),
    /// The board part of the notation must have one character per square.
    #[error("the board must have 30 characters (one per square), found {0}")]
    BoardLength(usize),
    /// A board character other than `B`, `W` or `.`.
    #[error("square {square}: {found:?} is not a piece (use B, W or .)")]
    BoardChar {
        /// Where the character stands.
        square: Square,
        /// The character found.
        found: char,
    },
    /// A side has more or fewer pieces than the ruleset gives it.
    #[error(
        "{side} has {found} pieces on the board, in hand and off; the ruleset gives {expected}"
    )]
    PieceCount {
        /// The side.
        side: Side,
        /// Pieces counted.
        found: u8,
        /// Pieces the ruleset gives each side.
        expected: u8,
    },
    /// A piece stands where the ruleset never leaves one.
    #[error("{side} has a piece on square {square}, which {reason}")]
    ForbiddenSquare {
        /// Whose piece.
        side: Side,
        /// Where it stands.
        square: Square,
        /// Why no piece can stand there.
        reason: &'static str,
    },
    /// The side to move is not `b` or `w`.
    #[error("{} is not a side (use b or w)", quote(.0))]
    BadSide(String),
    /// The notation ended early.
    #[error("a position needs a board and a side to move, e.g. \"{}\" b", ".".repeat(30))]
    Incomplete,
    /// A field the ruleset does not know.
    #[error("field {} does not apply to this ruleset (known fields: {known})", quote(.name))]
    UnknownField {
        /// The field name given.
        name: String,
        /// The fields the ruleset knows, joined with ", " (`none` when it has none).
        known: String,
    },
    /// A field given twice.
    #[error("field {} is given twice", quote(.0))]
    DuplicateField(String),
    /// A field without `=`.
    #[error("{} is not a field (use name=value)", quote(.0))]
    FieldSyntax(String),
    /// A field value that cannot be read or cannot hold.
    #[error("field {}={}: {reason}", shorten(.name), quote(.value))]
    BadField {
        /// The field name.
        name: String,
        /// The value given.
        value: String,
        /// What is wrong with it.
        reason: String,
    },
    /// The parts of the position contradict each other.
    #[error("inconsistent position: {0}")]
    Inconsistent(String),
}

/// Why a throw or a move was refused. The game or state is left unchanged.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum PlayError {
    /// The game has ended.
    #[error("the game is over")]
    GameOver,
    /// A move was given while the side to act must throw.
    #[error("{0} must throw before moving")]
    ThrowExpected(Side),
    /// A throw was given while the side to act must move.
    #[error("{0} must move before throwing again")]
    MoveExpected(Side),
    /// The throwing device cannot show this value.
    #[error("the throwing device cannot show {0}")]
    ImpossibleThrow(Throw),
    /// The move is not among the legal moves.
    #[error("{mv} is not a legal move for {side} now")]
    IllegalMove {
        /// The refused move.
        mv: Move,
        /// The side to move.
        side: Side,
    },
}

/// A ruleset specification (`id` or `id(option=value,…)`) that cannot be used.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum SpecError {
    /// The text is not of the form `id(option=value,…)`.
    #[error("cannot read ruleset {}: {reason}", quote(.text))]
    Syntax {
        /// The text given.
        text: String,
        /// What is wrong.
        reason: &'static str,
    },
    /// No ruleset has this id.
    #[error("unknown ruleset {} (known: {known})", quote(.id))]
    UnknownRuleset {
        /// The id given.
        id: String,
        /// The ids available.
        known: String,
    },
    /// The ruleset has no such option.
    #[error("ruleset {ruleset} has no option {} (options: {known})", quote(.option))]
    UnknownOption {
        /// The ruleset id.
        ruleset: &'static str,
        /// The option given.
        option: String,
        /// The options the ruleset has.
        known: String,
    },
    /// The option is given twice.
    #[error("option {} is given twice", quote(.0))]
    DuplicateOption(String),
    /// A value outside the option's range.
    #[error("option {}={} is not allowed (use one of: {allowed})", shorten(.option), quote(.value))]
    BadValue {
        /// The option.
        option: String,
        /// The value given.
        value: String,
        /// The values allowed.
        allowed: String,
    },
    /// Options that cannot be combined.
    #[error("options {first} and {second} cannot both be set: {reason}")]
    Conflict {
        /// One option.
        first: &'static str,
        /// The other option.
        second: &'static str,
        /// Why.
        reason: &'static str,
    },
}

/// A game record that cannot be loaded.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum RecordError {
    /// The record's ruleset specification is unusable.
    #[error(transparent)]
    Spec(#[from] SpecError),
    /// The record's start position is unusable.
    #[error("start position: {0}")]
    Start(#[from] PositionError),
    /// The record does not replay: its `index`-th action (0-based) was refused.
    #[error("action {} ({action}) does not replay: {source}", index + 1)]
    Replay {
        /// 0-based index of the first bad action.
        index: usize,
        /// The action as written.
        action: String,
        /// Why it was refused.
        source: PlayError,
    },
    /// The record was written under another revision of the ruleset's behaviour
    /// ([`Ruleset::RULES_REVISION`](crate::Ruleset::RULES_REVISION)), so its actions may not
    /// describe the same game any more.
    #[error(
        "the record was written under revision {recorded} of the {id} rules, and this build \
         plays revision {current}: its actions may not replay the recorded game (to load it \
         anyway, remove its revision)"
    )]
    Revision {
        /// The ruleset id.
        id: &'static str,
        /// The revision the record names.
        recorded: u32,
        /// The revision of the ruleset in this build.
        current: u32,
    },
    /// A malformed line of a text record.
    #[error("line {line}: {reason}")]
    Syntax {
        /// 1-based line number.
        line: usize,
        /// What is wrong.
        reason: String,
    },
    /// A well-formed line of a text record that was refused: its ruleset, its start position,
    /// or an action that does not replay (see [`RecordLines::locate`](crate::RecordLines::locate)).
    #[error("line {line}: {source}")]
    AtLine {
        /// 1-based line number.
        line: usize,
        /// Why the line was refused.
        source: Box<RecordError>,
    },
}
