//! Typed errors: every bad input the library can receive maps to one of these.

use crate::prelude::*;
use thiserror::Error;

use crate::moves::Move;
use crate::side::Side;
use crate::square::Square;
use crate::throw::Throw;

/// The most characters of user input an error message quotes (escapes included).
pub const QUOTE_LIMIT: usize = 32;

/// `text` quoted for an error message, cut to its first [`QUOTE_LIMIT`] characters (with
/// its length said) when it is longer: a message about a 100 KB argument stays one short
/// line. Every message of this workspace that quotes input goes through it.
///
/// ```
/// use senet_core::quote;
/// assert_eq!(quote("robot"), "\"robot\"");
/// let long = "x".repeat(100_000);
/// assert_eq!(quote(&long), format!("\"{}\"… (100000 characters)", "x".repeat(32)));
/// ```
pub fn quote(text: &str) -> String {
    let (prefix, whole) = escaped_prefix(text);
    if whole {
        format!("\"{prefix}\"")
    } else {
        format!("\"{prefix}\"… ({} characters)", text.chars().count())
    }
}

/// The escaped form of `text` up to [`QUOTE_LIMIT`] characters, and whether it is all there.
fn escaped_prefix(text: &str) -> (String, bool) {
    let mut prefix = String::new();
    for c in text.chars() {
        let escaped = c.escape_debug();
        if prefix.len() + escaped.len() > QUOTE_LIMIT {
            return (prefix, false);
        }
        prefix.extend(escaped);
    }
    (prefix, true)
}

/// `text` cut like [`quote`] but without the quotes and the length: for text a message shows
/// bare or between backticks.
///
/// ```
/// use senet_core::shorten;
/// assert_eq!(shorten("robot"), "robot");
/// assert_eq!(shorten(&"x".repeat(100)), format!("{}…", "x".repeat(32)));
/// ```
pub fn shorten(text: &str) -> String {
    match escaped_prefix(text) {
        (prefix, true) => prefix,
        (prefix, false) => format!("{prefix}…"),
    }
}

/// A number, text or bit pattern that does not name a square.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum SquareError {
    /// Squares are numbered 1..=30.
    #[error("square {0} is off the board (squares are 1..=30)")]
    OutOfRange(u8),
    /// The text is not a number.
    #[error("{} is not a square number", quote(.0))]
    NotANumber(String),
    /// Bits outside 1..=30 are set.
    #[error("bit pattern {0:#010x} names squares outside 1..=30")]
    BadBits(u32),
}

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

/// Text that is not a move.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum MoveParseError {
    /// Nothing to parse.
    #[error("empty move (use e.g. 9-12, 28-off, enter or pass)")]
    Empty,
    /// Unreasonably long input.
    #[error("a move of {0} characters is too long to be a move")]
    TooLong(usize),
    /// More steps than a throw can be split into.
    #[error("a move has at most 5 steps, found {0}")]
    TooManySteps(usize),
    /// A step endpoint that is not a square, `hand` or `off`.
    #[error("{} in {} is not a square (1..=30), hand or off", quote(.0), quote(.1))]
    BadPlace(String, String),
    /// A step that is not `from-to`.
    #[error("{} is not a step (use from-to, e.g. 9-12 or 28-off)", quote(.0))]
    BadStep(String),
    /// A throw suffix that is not 1..=6.
    #[error("throw {} after '/' must be a number from 1 to 6", quote(.0))]
    BadThrow(String),
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
