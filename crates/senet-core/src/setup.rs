//! The position notation: `<board> <side>[ <field>=<value>…]`, before a ruleset checks it.

use crate::prelude::*;
use core::fmt;
use core::str::FromStr;

use crate::board::BitBoard;
use crate::error::PositionError;
use crate::side::Side;
use crate::throw::Throw;

/// One field of a ruleset's position notation beyond board and side, as documented for users
/// (`senet rules`, `docs/notation.md`).
///
/// ```
/// use senet_core::FieldInfo;
/// let throw = FieldInfo {
///     name: "throw",
///     values: "1, 2, 3, 4, 6",
///     default: "none: the side to act throws next",
///     doc: "the throw waiting to be used",
/// };
/// assert_eq!(throw.name, "throw");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FieldInfo {
    /// The field's name in the notation, e.g. `throw`.
    pub name: &'static str,
    /// The values it accepts, in words, e.g. `1, 2, 3, 4, 6`.
    pub values: &'static str,
    /// What a position means when the field is left out.
    pub default: &'static str,
    /// What the field records, in one sentence.
    pub doc: &'static str,
}

impl FieldInfo {
    /// The `throw` field that [`TurnState::to_setup`](crate::TurnState::to_setup) writes:
    /// `values` lists the throws in words, `doc` says what the field records and under which
    /// rules.
    ///
    /// ```
    /// use senet_core::FieldInfo;
    /// let throw = FieldInfo::pending_throw("1 to 5", "the throw to use (X-2)");
    /// assert_eq!(throw.name, "throw");
    /// assert_eq!(throw.default, "no throw pending: the side to act throws next");
    /// ```
    pub const fn pending_throw(values: &'static str, doc: &'static str) -> FieldInfo {
        FieldInfo {
            name: "throw",
            values,
            default: "no throw pending: the side to act throws next",
            doc,
        }
    }
}

/// A position as written, not yet checked against a ruleset (compare a validated state of a
/// [`Ruleset`](crate::Ruleset)).
///
/// The notation is the 30-character board (square 1 first: `B` Black, `W` White, `.` empty),
/// the side to act (`b` or `w`), and optional `name=value` fields for what a ruleset needs
/// beyond the board. Every field has a documented default, so board and side alone always
/// make a position: pieces neither on the board nor in hand are off, no throw is pending, and
/// so on. [`Ruleset::read_setup`](crate::Ruleset::read_setup) turns a setup into a state and
/// says what is wrong; [`Ruleset::to_setup`](crate::Ruleset::to_setup) writes a state back,
/// leaving out fields at their defaults.
///
/// ```
/// use senet_core::{Setup, Side};
/// let text = format!("WBWBWBWBW.B{} b throw=3", ".".repeat(19));
/// let setup: Setup = text.parse().unwrap();
/// assert_eq!(setup.to_move, Side::Black);
/// assert_eq!(setup.board.on_board(Side::White), 5);
/// assert_eq!(setup.field("throw"), Some("3"));
/// assert_eq!(setup.to_string(), text);
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Setup {
    /// Who stands where. Only the squares are read; the ruleset derives the counters.
    pub board: BitBoard,
    /// The side to act.
    pub to_move: Side,
    /// Ruleset-specific fields, in the order written.
    pub fields: Vec<(String, String)>,
}

fn is_field_name(text: &str) -> bool {
    !text.is_empty()
        && text
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
}

impl Setup {
    /// A setup with no fields.
    pub fn new(board: BitBoard, to_move: Side) -> Setup {
        Setup {
            board,
            to_move,
            fields: Vec::new(),
        }
    }

    /// The value written for `name`, if any.
    pub fn field(&self, name: &str) -> Option<&str> {
        self.fields
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// Appends a field (for rulesets writing a state out).
    pub fn push_field(&mut self, name: &str, value: impl fmt::Display) {
        self.fields.push((name.to_string(), value.to_string()));
    }

    /// Fails on the first field whose name is not one of `known` (a ruleset passes its
    /// [`FIELD_INFO`](crate::Ruleset::FIELD_INFO)); the error lists the known names.
    pub fn check_fields(&self, known: &[FieldInfo]) -> Result<(), PositionError> {
        match self
            .fields
            .iter()
            .find(|(name, _)| !known.iter().any(|field| field.name == name))
        {
            Some((name, _)) => Err(PositionError::UnknownField {
                name: name.clone(),
                known: if known.is_empty() {
                    "none".to_string()
                } else {
                    known
                        .iter()
                        .map(|field| field.name)
                        .collect::<Vec<_>>()
                        .join(", ")
                },
            }),
            None => Ok(()),
        }
    }

    /// The board of the setup with its counters filled in for a ruleset where every piece
    /// starts on the board and none is ever in hand: each side's pieces that are not on the
    /// board are off (the notation's default). Fails when a side has more than `pieces`
    /// pieces on the board.
    ///
    /// ```
    /// use senet_core::{Setup, Side};
    /// let setup: Setup = format!("BW{} b", ".".repeat(28)).parse().unwrap();
    /// let board = setup.board_with_rest_off(5).unwrap();
    /// assert_eq!(board.off(Side::Black), 4);
    /// assert!(setup.board_with_rest_off(0).is_err());
    /// ```
    pub fn board_with_rest_off(&self, pieces: u8) -> Result<BitBoard, PositionError> {
        let mut board = BitBoard::from_pieces(
            self.board.pieces_of(Side::Black),
            self.board.pieces_of(Side::White),
        )?;
        for side in Side::BOTH {
            let on_board = board.on_board(side);
            if on_board > pieces {
                return Err(PositionError::PieceCount {
                    side,
                    found: on_board,
                    expected: pieces,
                });
            }
            board.set_off(side, pieces - on_board);
        }
        Ok(board)
    }

    /// Reads field `name` as a number in `min..=max`; `None` when the field is absent.
    pub fn number_field(&self, name: &str, min: u8, max: u8) -> Result<Option<u8>, PositionError> {
        let Some(value) = self.field(name) else {
            return Ok(None);
        };
        value
            .parse::<u8>()
            .ok()
            .filter(|v| (min..=max).contains(v))
            .map(Some)
            .ok_or_else(|| PositionError::BadField {
                name: name.to_string(),
                value: value.to_string(),
                reason: format!("expected a number from {min} to {max}"),
            })
    }

    /// Reads the field `throw`, the pending throw, as a number from 1 to `max`; `None` when
    /// the field is absent.
    pub fn throw_field(&self, max: u8) -> Result<Option<Throw>, PositionError> {
        Ok(self.number_field("throw", 1, max)?.and_then(Throw::new))
    }

    /// Reads field `name` as one of `choices`; `None` when the field is absent.
    pub fn choice_field<'c>(
        &self,
        name: &str,
        choices: &[&'c str],
    ) -> Result<Option<&'c str>, PositionError> {
        let Some(value) = self.field(name) else {
            return Ok(None);
        };
        choices
            .iter()
            .find(|c| **c == value)
            .copied()
            .map(Some)
            .ok_or_else(|| PositionError::BadField {
                name: name.to_string(),
                value: value.to_string(),
                reason: format!("expected one of: {}", choices.join(", ")),
            })
    }
}

impl fmt::Display for Setup {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.board, self.to_move.letter())?;
        for (name, value) in &self.fields {
            write!(f, " {name}={value}")?;
        }
        Ok(())
    }
}

impl FromStr for Setup {
    type Err = PositionError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let mut tokens = s.split_whitespace();
        let board_text = tokens.next().ok_or(PositionError::Incomplete)?;
        let board = BitBoard::from_squares_str(board_text)?;
        let side_text = tokens.next().ok_or(PositionError::Incomplete)?;
        let to_move = match side_text {
            "b" => Side::Black,
            "w" => Side::White,
            other => return Err(PositionError::BadSide(other.chars().take(16).collect())),
        };
        let mut fields: Vec<(String, String)> = Vec::new();
        for token in tokens {
            let (name, value) = token
                .split_once('=')
                // Bounded lengths keep hostile input out of error messages.
                .filter(|(n, v)| {
                    is_field_name(n) && n.len() <= 32 && !v.is_empty() && v.len() <= 64
                })
                .ok_or_else(|| PositionError::FieldSyntax(token.chars().take(32).collect()))?;
            if fields.iter().any(|(n, _)| n == name) {
                return Err(PositionError::DuplicateField(name.to_string()));
            }
            if fields.len() >= 16 {
                return Err(PositionError::FieldSyntax(token.chars().take(32).collect()));
            }
            fields.push((name.to_string(), value.to_string()));
        }
        Ok(Setup {
            board,
            to_move,
            fields,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn empty_board() -> String {
        ".".repeat(30)
    }

    #[test]
    fn round_trip_with_fields() {
        let text = format!("{} w throw=6 hand=2", empty_board());
        let setup: Setup = text.parse().unwrap();
        assert_eq!(setup.to_move, Side::White);
        assert_eq!(setup.number_field("throw", 1, 6), Ok(Some(6)));
        assert_eq!(setup.number_field("missing", 1, 6), Ok(None));
        assert!(setup.number_field("hand", 0, 1).is_err());
        assert_eq!(setup.to_string(), text);
    }

    #[test]
    fn errors_name_the_problem() {
        assert_eq!("".parse::<Setup>(), Err(PositionError::Incomplete));
        assert_eq!(
            empty_board().parse::<Setup>(),
            Err(PositionError::Incomplete)
        );
        assert!(matches!(
            format!("{} x", empty_board()).parse::<Setup>(),
            Err(PositionError::BadSide(_))
        ));
        assert!(matches!(
            format!("{} b throw", empty_board()).parse::<Setup>(),
            Err(PositionError::FieldSyntax(_))
        ));
        assert!(matches!(
            format!("{} b a=1 a=2", empty_board()).parse::<Setup>(),
            Err(PositionError::DuplicateField(_))
        ));
        // Found by fuzzing (tests/fuzz_parsers.rs): a field name of any length was accepted
        // and then quoted whole in the error that refused it.
        let long = format!("{} b {}=1", empty_board(), "x".repeat(5000));
        let err = long.parse::<Setup>().unwrap_err();
        assert!(matches!(err, PositionError::FieldSyntax(_)));
        assert!(err.to_string().len() < 100, "{err}");
        let setup: Setup = format!("{} b colour=red", empty_board()).parse().unwrap();
        let throw = FieldInfo {
            name: "throw",
            values: "1-6",
            default: "none",
            doc: "the pending throw",
        };
        assert_eq!(
            setup.check_fields(&[
                throw,
                FieldInfo {
                    name: "phase",
                    ..throw
                }
            ]),
            Err(PositionError::UnknownField {
                name: "colour".to_string(),
                known: "throw, phase".to_string(),
            })
        );
        assert_eq!(
            setup.check_fields(&[]).unwrap_err().to_string(),
            "field \"colour\" does not apply to this ruleset (known fields: none)"
        );
        assert!(setup.choice_field("colour", &["blue"]).is_err());
        assert_eq!(setup.choice_field("colour", &["red"]), Ok(Some("red")));
    }
}
