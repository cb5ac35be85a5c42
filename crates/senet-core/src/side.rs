//! The two sides.

use core::fmt;
use core::ops::Not;

/// One of the two sets of pieces.
///
/// In every ruleset the set that starts on the even squares moves first; the library calls it
/// `Black` and the other set `White`, whatever the source calls them (jackals and lions,
/// cones and spools…). Each ruleset's documentation maps its source's names to these.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "lowercase"))]
pub enum Side {
    /// The set that starts on the even squares (or, in Piccione, simply the first player)
    /// and makes the first move.
    Black,
    /// The set that starts on the odd squares and moves second.
    White,
}

impl Side {
    /// Both sides, Black first.
    pub const BOTH: [Side; 2] = [Side::Black, Side::White];

    /// The other side.
    #[inline]
    pub const fn opponent(self) -> Side {
        match self {
            Side::Black => Side::White,
            Side::White => Side::Black,
        }
    }

    /// 0 for Black, 1 for White: an index for per-side arrays.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The one-letter code used by the position notation: `b` or `w`.
    pub const fn letter(self) -> char {
        match self {
            Side::Black => 'b',
            Side::White => 'w',
        }
    }

    /// Parses `b` / `w` (or the full names, any case).
    pub fn from_code(code: &str) -> Option<Side> {
        match code.to_ascii_lowercase().as_str() {
            "b" | "black" => Some(Side::Black),
            "w" | "white" => Some(Side::White),
            _ => None,
        }
    }
}

impl Not for Side {
    type Output = Side;
    #[inline]
    fn not(self) -> Side {
        self.opponent()
    }
}

impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Side::Black => "Black",
            Side::White => "White",
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn opponents_and_codes() {
        assert_eq!(!Side::Black, Side::White);
        assert_eq!(Side::White.opponent(), Side::Black);
        assert_eq!(Side::from_code("b"), Some(Side::Black));
        assert_eq!(Side::from_code("White"), Some(Side::White));
        assert_eq!(Side::from_code("x"), None);
        assert_eq!(Side::Black.index(), 0);
        assert_eq!(Side::White.letter(), 'w');
    }
}
