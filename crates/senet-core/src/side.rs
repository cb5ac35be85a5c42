//! The two sides.

use core::fmt;
use core::ops::{Index, IndexMut, Not};

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

/// One value per side, indexed by [`Side`]: pieces off, points, counters…
///
/// A plain pair, `Copy` when `T` is; with the `serde` feature it serialises as the array
/// `[black, white]`.
///
/// ```
/// use senet_core::{PerSide, Side};
/// let mut off = PerSide::new(2u8, 0);
/// off[Side::White] += 1;
/// assert_eq!(off, PerSide::new(2, 1));
/// assert_eq!(off.map(u32::from)[Side::Black], 2);
/// assert_eq!(off.iter().collect::<Vec<_>>(), [(Side::Black, &2), (Side::White, &1)]);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(transparent))]
pub struct PerSide<T>([T; 2]);

impl<T> PerSide<T> {
    /// Black's value and White's.
    #[inline]
    pub const fn new(black: T, white: T) -> PerSide<T> {
        PerSide([black, white])
    }

    /// The value of each side, computed from the side.
    pub fn from_fn(mut f: impl FnMut(Side) -> T) -> PerSide<T> {
        PerSide::new(f(Side::Black), f(Side::White))
    }

    /// Each value transformed by `f`.
    pub fn map<U>(self, f: impl FnMut(T) -> U) -> PerSide<U> {
        PerSide(self.0.map(f))
    }

    /// Each side with its value, Black first.
    pub fn iter(&self) -> impl Iterator<Item = (Side, &T)> {
        Side::BOTH.into_iter().zip(&self.0)
    }

    /// The values as the array `[black, white]`.
    #[inline]
    pub fn into_array(self) -> [T; 2] {
        self.0
    }
}

impl<T: Default> PerSide<T> {
    /// `value` for `side` and the default (zero) for the other: a winner's score, a
    /// loser's penalty.
    pub fn only(side: Side, value: T) -> PerSide<T> {
        let mut values = PerSide::default();
        values[side] = value;
        values
    }
}

impl<T: Copy> PerSide<T> {
    /// The same value for both sides.
    #[inline]
    pub const fn both(value: T) -> PerSide<T> {
        PerSide([value; 2])
    }

    /// These values with `side`'s replaced by `value` (the `const` form of assigning).
    #[must_use]
    pub const fn with(mut self, side: Side, value: T) -> PerSide<T> {
        self.0[side.index()] = value;
        self
    }

    /// The value of `side` (the `const` form of indexing).
    #[inline]
    pub const fn get(&self, side: Side) -> T {
        self.0[side.index()]
    }
}

impl<T> Index<Side> for PerSide<T> {
    type Output = T;
    #[inline]
    fn index(&self, side: Side) -> &T {
        &self.0[side.index()]
    }
}

impl<T> IndexMut<Side> for PerSide<T> {
    #[inline]
    fn index_mut(&mut self, side: Side) -> &mut T {
        &mut self.0[side.index()]
    }
}

impl<T> From<[T; 2]> for PerSide<T> {
    fn from(values: [T; 2]) -> PerSide<T> {
        PerSide(values)
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

    #[test]
    fn per_side_values_are_indexed_by_side() {
        let mut points = PerSide::only(Side::White, 3);
        points[Side::Black] -= 1;
        assert_eq!(points.into_array(), [-1, 3]);
        assert_eq!(points.map(|p| p * 2), PerSide::new(-2, 6));
        assert_eq!(PerSide::from_fn(Side::letter), PerSide::new('b', 'w'));
    }

    /// Outcomes and other records serialised `[T; 2]` before `PerSide` existed.
    #[cfg(feature = "serde")]
    #[test]
    fn per_side_serialises_as_a_pair() {
        let points = PerSide::new(5, -2);
        let json = serde_json::to_string(&points).unwrap();
        assert_eq!(json, "[5,-2]");
        assert_eq!(serde_json::from_str::<PerSide<i32>>(&json).unwrap(), points);
    }
}
