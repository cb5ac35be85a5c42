//! Squares of the track, sets of squares, and the places a piece can be.

use core::fmt;
use core::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, Not};
use core::str::FromStr;

use thiserror::Error;

use crate::prelude::*;
use crate::text::quote;

/// Number of squares on the track.
pub const SQUARES: u8 = 30;

/// A square of the track, numbered 1..=30 in the order pieces travel.
///
/// The track runs along three rows of ten (1–10, 11–20 right to left, 21–30); squares n and
/// n + 1 are always neighbours on the track, including the turns 10–11 and 20–21.
///
/// ```
/// use senet_core::Square;
/// let sq = Square::new(27).unwrap();
/// assert_eq!(sq.get(), 27);
/// assert_eq!(sq.row(), 3);
/// assert!(Square::new(31).is_err());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Square(u8);

impl Square {
    /// Square 1, the start of the track.
    pub const FIRST: Square = Square(1);
    /// Square 30, the end of the track.
    pub const LAST: Square = Square(30);

    /// The square with number `n`, if `n` is in 1..=30.
    pub const fn new(n: u8) -> Result<Square, SquareError> {
        if n >= 1 && n <= SQUARES {
            Ok(Square(n))
        } else {
            Err(SquareError::OutOfRange(n))
        }
    }

    /// The square with number `n`, if `n` is in 1..=30.
    ///
    /// ```
    /// use senet_core::Square;
    /// assert_eq!(Square::checked(15).map(Square::get), Some(15));
    /// assert_eq!(Square::checked(31), None);
    /// ```
    pub const fn checked(n: u8) -> Option<Square> {
        if n >= 1 && n <= SQUARES {
            Some(Square(n))
        } else {
            None
        }
    }

    /// The square with number `n`, for constants: a number outside 1..=30 panics, which in a
    /// `const` is a compile error rather than a silent substitute.
    ///
    /// ```
    /// use senet_core::Square;
    /// const FIFTEEN: Square = Square::at(15);
    /// assert_eq!(FIFTEEN.get(), 15);
    /// ```
    ///
    /// ```compile_fail
    /// use senet_core::Square;
    /// const NOWHERE: Square = Square::at(31);
    /// ```
    pub const fn at(n: u8) -> Square {
        match Square::checked(n) {
            Some(sq) => sq,
            None => panic!("a square is numbered 1 to 30"),
        }
    }

    /// The square's number, 1..=30.
    #[inline]
    pub const fn get(self) -> u8 {
        self.0
    }

    /// The row the square lies in: 1 for 1–10, 2 for 11–20, 3 for 21–30.
    #[inline]
    pub const fn row(self) -> u8 {
        (self.0 - 1) / 10 + 1
    }

    /// The square `delta` squares further along the track (backwards when negative), if it
    /// is on the board.
    pub fn offset(self, delta: i8) -> Option<Square> {
        let n = i16::from(self.0) + i16::from(delta);
        u8::try_from(n).ok().and_then(|n| Square::new(n).ok())
    }

    /// All 30 squares in track order.
    pub fn all() -> impl DoubleEndedIterator<Item = Square> + ExactSizeIterator {
        (1..=SQUARES).map(Square)
    }

    /// Builds a square from a number already known to be in 1..=30 (crate-internal).
    #[inline]
    pub(crate) const fn from_valid(n: u8) -> Square {
        debug_assert!(n >= 1 && n <= SQUARES);
        Square(n)
    }
}

impl TryFrom<u8> for Square {
    type Error = SquareError;
    fn try_from(n: u8) -> Result<Self, Self::Error> {
        Square::new(n)
    }
}

impl From<Square> for u8 {
    fn from(sq: Square) -> u8 {
        sq.0
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

impl FromStr for Square {
    type Err = SquareError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let n: u8 = s
            .parse()
            .map_err(|_| SquareError::NotANumber(s.chars().take(16).collect()))?;
        Square::new(n)
    }
}

/// A set of squares, stored as the bits 1..=30 of a `u32` (bit n is square n).
///
/// Every operation keeps the bits 0 and 31 clear, so a set never names a square that does not
/// exist. Shifts move the whole set along the track: pieces that would leave 1..=30 drop out.
///
/// ```
/// use senet_core::{Square, SquareSet};
/// let set = SquareSet::from_squares([2, 4, 6]).unwrap();
/// assert_eq!(set.len(), 3);
/// assert!(set.contains(Square::new(4).unwrap()));
/// assert_eq!(set.forward(2), SquareSet::from_squares([4, 6, 8]).unwrap());
/// assert_eq!(set.iter().map(|s| s.get()).collect::<Vec<_>>(), vec![2, 4, 6]);
/// ```
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct SquareSet(u32);

impl SquareSet {
    /// Mask of the bits that stand for squares.
    const VALID: u32 = 0x7FFF_FFFE;

    /// The empty set.
    pub const EMPTY: SquareSet = SquareSet(0);
    /// Every square, 1..=30.
    pub const ALL: SquareSet = SquareSet(Self::VALID);
    /// The first row, squares 1–10.
    pub const ROW1: SquareSet = SquareSet::range(1, 10);
    /// The second row, squares 11–20.
    pub const ROW2: SquareSet = SquareSet::range(11, 20);
    /// The third row, squares 21–30.
    pub const ROW3: SquareSet = SquareSet::range(21, 30);
    /// The odd squares, 1, 3, …, 29.
    pub const ODD: SquareSet = SquareSet(0xAAAA_AAAA & Self::VALID);
    /// The even squares, 2, 4, …, 30.
    pub const EVEN: SquareSet = SquareSet(0x5555_5555 & Self::VALID);

    /// The squares numbered in `squares`, for constants: a number outside 1..=30 panics, which
    /// in a `const` is a compile error.
    ///
    /// ```
    /// use senet_core::SquareSet;
    /// const SAFE: SquareSet = SquareSet::of([26, 28, 29, 30]);
    /// assert_eq!(SAFE.len(), 4);
    /// ```
    ///
    /// ```compile_fail
    /// use senet_core::SquareSet;
    /// const SAFE: SquareSet = SquareSet::of([26, 28, 29, 31]);
    /// ```
    pub const fn of<const N: usize>(squares: [u8; N]) -> SquareSet {
        let mut bits = 0;
        let mut i = 0;
        while i < N {
            bits |= 1 << Square::at(squares[i]).0;
            i += 1;
        }
        SquareSet(bits)
    }

    /// The squares `first..=last`, clamped to the board; empty when `first > last`.
    pub const fn range(first: u8, last: u8) -> SquareSet {
        if first > last || first > SQUARES {
            return SquareSet::EMPTY;
        }
        let last = if last > SQUARES { SQUARES } else { last };
        let first = if first < 1 { 1 } else { first };
        let high = if last >= 31 {
            u32::MAX
        } else {
            (1u32 << (last + 1)) - 1
        };
        let low = (1u32 << first) - 1;
        SquareSet((high & !low) & Self::VALID)
    }

    /// The set with the raw bit pattern `bits`, if it names only squares 1..=30.
    pub const fn from_bits(bits: u32) -> Result<SquareSet, SquareError> {
        if bits & !Self::VALID == 0 {
            Ok(SquareSet(bits))
        } else {
            Err(SquareError::BadBits(bits))
        }
    }

    /// The set with the raw bit pattern `bits`, dropping bits that are not squares.
    #[inline]
    pub const fn from_bits_truncate(bits: u32) -> SquareSet {
        SquareSet(bits & Self::VALID)
    }

    /// The set of the given square numbers; fails on the first number outside 1..=30.
    pub fn from_squares<I: IntoIterator<Item = u8>>(squares: I) -> Result<SquareSet, SquareError> {
        let mut set = SquareSet::EMPTY;
        for n in squares {
            set.insert(Square::new(n)?);
        }
        Ok(set)
    }

    /// The single square `sq`.
    #[inline]
    pub const fn single(sq: Square) -> SquareSet {
        SquareSet(1 << sq.0)
    }

    /// The set holding square number `n` alone, empty when `n` is not a square (0, or
    /// [`Place::OFF_CODE`] and above): for rules computed on raw codes.
    ///
    /// ```
    /// use senet_core::{Place, SquareSet};
    /// assert_eq!(SquareSet::of_number(30), SquareSet::of([30]));
    /// assert!(SquareSet::of_number(0).is_empty());
    /// assert!(SquareSet::of_number(Place::OFF_CODE).is_empty());
    /// assert!(SquareSet::of_number(200).is_empty());
    /// ```
    #[inline]
    pub const fn of_number(n: u8) -> SquareSet {
        SquareSet::from_bits_truncate(match 1u32.checked_shl(n as u32) {
            Some(bit) => bit,
            None => 0,
        })
    }

    /// The raw bits (bit n is square n).
    #[inline]
    pub const fn bits(self) -> u32 {
        self.0
    }

    /// Whether `sq` is in the set.
    #[inline]
    pub const fn contains(self, sq: Square) -> bool {
        self.0 & (1 << sq.0) != 0
    }

    /// Whether square number `n` is in the set; false for numbers that are not squares.
    #[inline]
    pub const fn has(self, n: u8) -> bool {
        n < 32 && self.0 & (1 << n) & Self::VALID != 0
    }

    /// Adds `sq`.
    #[inline]
    pub fn insert(&mut self, sq: Square) {
        self.0 |= 1 << sq.0;
    }

    /// Removes `sq`.
    #[inline]
    pub fn remove(&mut self, sq: Square) {
        self.0 &= !(1 << sq.0);
    }

    /// Number of squares in the set.
    #[inline]
    pub const fn len(self) -> u8 {
        self.0.count_ones() as u8
    }

    /// The squares weighted by how far they are from the end: 3 for each in row 1 (1–10), 2 in
    /// row 2 (11–20), 1 in row 3 (21–30). Several reconstructions score a win this way from
    /// the loser's pieces left on the board.
    ///
    /// ```
    /// use senet_core::SquareSet;
    /// let squares = SquareSet::from_squares([3, 12, 25, 30]).unwrap();
    /// assert_eq!(squares.rows_to_go(), 3 + 2 + 1 + 1);
    /// ```
    #[inline]
    pub const fn rows_to_go(self) -> i32 {
        (3 * (self.0 & Self::ROW1.0).count_ones()
            + 2 * (self.0 & Self::ROW2.0).count_ones()
            + (self.0 & Self::ROW3.0).count_ones()) as i32
    }

    /// The origins whose forward move of `t` passes over a run of three pieces starting on a
    /// square of `run_starts` (see [`SquareSet::run_starts`]): from s the squares passed are
    /// s+1 … s+t−1, so a run starting at s+k blocks when 1 ≤ k ≤ t − 3. Exact for throws up
    /// to 6; the shifts are selected with masks, not branches, since throws are random.
    ///
    /// ```
    /// use senet_core::SquareSet;
    /// let run = SquareSet::from_squares([10, 11, 12]).unwrap().run_starts(3);
    /// assert_eq!(SquareSet::passing_forward(run, 5), SquareSet::from_squares([8, 9]).unwrap());
    /// assert!(SquareSet::passing_forward(run, 3).is_empty());
    /// ```
    #[inline]
    pub const fn passing_forward(run_starts: SquareSet, t: u8) -> SquareSet {
        let runs = run_starts.0;
        SquareSet::from_bits_truncate(
            (runs >> 1) & all_ones_if(t >= 4)
                | (runs >> 2) & all_ones_if(t >= 5)
                | (runs >> 3) & all_ones_if(t >= 6),
        )
    }

    /// The origins whose backward move of `t` passes over such a run (squares s−t+1 … s−1: a
    /// run starting at s−k blocks when 3 ≤ k ≤ t − 1). Exact for throws up to 6.
    ///
    /// ```
    /// use senet_core::SquareSet;
    /// let run = SquareSet::from_squares([10, 11, 12]).unwrap().run_starts(3);
    /// assert_eq!(SquareSet::passing_backward(run, 5), SquareSet::from_squares([13, 14]).unwrap());
    /// ```
    #[inline]
    pub const fn passing_backward(run_starts: SquareSet, t: u8) -> SquareSet {
        let runs = run_starts.0;
        SquareSet::from_bits_truncate(
            (runs << 3) & all_ones_if(t >= 4)
                | (runs << 4) & all_ones_if(t >= 5)
                | (runs << 5) & all_ones_if(t >= 6),
        )
    }

    /// Whether the set is empty.
    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The lowest-numbered square of the set.
    #[inline]
    pub const fn first(self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            Some(Square(self.0.trailing_zeros() as u8))
        }
    }

    /// The highest-numbered square of the set.
    #[inline]
    pub const fn last(self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            Some(Square(31 - self.0.leading_zeros() as u8))
        }
    }

    /// Every square moved `n` squares forward; squares pushed past 30 drop out.
    #[inline]
    pub const fn forward(self, n: u8) -> SquareSet {
        if n >= 32 {
            SquareSet::EMPTY
        } else {
            SquareSet((self.0 << n) & Self::VALID)
        }
    }

    /// Every square moved `n` squares backward; squares pushed below 1 drop out.
    #[inline]
    pub const fn backward(self, n: u8) -> SquareSet {
        if n >= 32 {
            SquareSet::EMPTY
        } else {
            SquareSet((self.0 >> n) & Self::VALID)
        }
    }

    /// The squares of the set that have a neighbour on the track also in the set
    /// (pieces standing in pairs or longer runs).
    #[inline]
    pub const fn with_neighbour(self) -> SquareSet {
        SquareSet(self.0 & ((self.0 << 1) | (self.0 >> 1)) & Self::VALID)
    }

    /// The squares n such that n, n + 1, …, n + k − 1 are all in the set (the starts of runs
    /// of at least `k` consecutive squares). Empty for `k` above 30: no run is that long.
    #[inline]
    pub const fn run_starts(self, k: u8) -> SquareSet {
        let mut acc = self.0;
        let mut i = 1;
        while i < k {
            // A shift by the width of the word or more would overflow; it leaves nothing.
            acc &= match self.0.checked_shr(i as u32) {
                Some(shifted) => shifted,
                None => 0,
            };
            i += 1;
        }
        SquareSet(acc & Self::VALID)
    }

    /// The squares in ascending order.
    #[inline]
    pub const fn iter(self) -> SquareIter {
        SquareIter(self.0)
    }
}

impl fmt::Debug for SquareSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set().entries(self.iter().map(Square::get)).finish()
    }
}

impl fmt::Display for SquareSet {
    /// Formats as `{2,4,11}`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("{")?;
        for (i, sq) in self.iter().enumerate() {
            if i > 0 {
                f.write_str(",")?;
            }
            write!(f, "{sq}")?;
        }
        f.write_str("}")
    }
}

impl BitAnd for SquareSet {
    type Output = SquareSet;
    #[inline]
    fn bitand(self, rhs: SquareSet) -> SquareSet {
        SquareSet(self.0 & rhs.0)
    }
}

impl BitAndAssign for SquareSet {
    #[inline]
    fn bitand_assign(&mut self, rhs: SquareSet) {
        self.0 &= rhs.0;
    }
}

impl BitOr for SquareSet {
    type Output = SquareSet;
    #[inline]
    fn bitor(self, rhs: SquareSet) -> SquareSet {
        SquareSet(self.0 | rhs.0)
    }
}

impl BitOrAssign for SquareSet {
    #[inline]
    fn bitor_assign(&mut self, rhs: SquareSet) {
        self.0 |= rhs.0;
    }
}

impl BitXor for SquareSet {
    type Output = SquareSet;
    #[inline]
    fn bitxor(self, rhs: SquareSet) -> SquareSet {
        SquareSet(self.0 ^ rhs.0)
    }
}

impl Not for SquareSet {
    type Output = SquareSet;
    /// The complement within 1..=30.
    #[inline]
    fn not(self) -> SquareSet {
        SquareSet(!self.0 & Self::VALID)
    }
}

impl FromIterator<Square> for SquareSet {
    fn from_iter<I: IntoIterator<Item = Square>>(iter: I) -> Self {
        let mut set = SquareSet::EMPTY;
        for sq in iter {
            set.insert(sq);
        }
        set
    }
}

impl IntoIterator for SquareSet {
    type Item = Square;
    type IntoIter = SquareIter;
    fn into_iter(self) -> SquareIter {
        self.iter()
    }
}

/// Iterator over the squares of a [`SquareSet`], lowest first.
#[derive(Clone, Debug)]
pub struct SquareIter(u32);

impl Iterator for SquareIter {
    type Item = Square;
    #[inline]
    fn next(&mut self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            let n = self.0.trailing_zeros() as u8;
            self.0 &= self.0 - 1;
            Some(Square(n))
        }
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl DoubleEndedIterator for SquareIter {
    #[inline]
    fn next_back(&mut self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            let n = 31 - self.0.leading_zeros() as u8;
            self.0 &= !(1 << n);
            Some(Square(n))
        }
    }
}

impl ExactSizeIterator for SquareIter {}

/// Where a piece can be: in hand (not yet entered), on a square, or borne off.
///
/// Steps of a [`Move`](crate::Move) go from one place to another. Following the shared
/// convention of the specifications, `Off` behaves like a virtual square 31.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Place {
    /// Not yet on the board (Piccione's pieces start here).
    Hand,
    /// On a square of the track.
    Board(Square),
    /// Borne off: the piece has left the board.
    Off,
}

impl Place {
    /// The code of [`Place::Hand`] (see [`Place::code`]).
    pub const HAND_CODE: u8 = 0;

    /// The code of [`Place::Off`], the virtual square 31 just past the end of the track:
    /// rulesets compute exits on raw codes, where a step from square `s` by `t` bears off
    /// when `s + t` reaches it.
    pub const OFF_CODE: u8 = SQUARES + 1;

    /// Code used for compact storage: 0 for hand, 1..=30 for squares, 31 for off.
    #[inline]
    pub const fn code(self) -> u8 {
        match self {
            Place::Hand => Place::HAND_CODE,
            Place::Board(sq) => sq.0,
            Place::Off => Place::OFF_CODE,
        }
    }

    /// Inverse of [`Place::code`].
    pub const fn from_code(code: u8) -> Option<Place> {
        match code {
            Place::HAND_CODE => Some(Place::Hand),
            1..=SQUARES => Some(Place::Board(Square(code))),
            Place::OFF_CODE => Some(Place::Off),
            _ => None,
        }
    }

    /// The square, when the place is on the board.
    #[inline]
    pub const fn square(self) -> Option<Square> {
        match self {
            Place::Board(sq) => Some(sq),
            _ => None,
        }
    }
}

impl From<Square> for Place {
    fn from(sq: Square) -> Place {
        Place::Board(sq)
    }
}

impl fmt::Display for Place {
    /// `hand`, a square number, or `off`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Place::Hand => f.write_str("hand"),
            Place::Board(sq) => write!(f, "{sq}"),
            Place::Off => f.write_str("off"),
        }
    }
}

/// An all-ones mask when `condition` holds, else zero: selects without branching on random
/// data (`set & all_ones_if(t >= 4)`). Public as [`kernel::all_ones_if`](crate::kernel::all_ones_if).
#[inline(always)]
pub const fn all_ones_if(condition: bool) -> u32 {
    0u32.wrapping_sub(condition as u32)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn square_bounds() {
        assert!(Square::new(0).is_err());
        assert!(Square::new(1).is_ok());
        assert!(Square::new(30).is_ok());
        assert!(Square::new(31).is_err());
        assert_eq!("12".parse::<Square>().unwrap().get(), 12);
        assert!("x".parse::<Square>().is_err());
        assert!("0".parse::<Square>().is_err());
    }

    #[test]
    fn rows_follow_the_track() {
        let rows: Vec<u8> = [1, 10, 11, 20, 21, 30]
            .iter()
            .map(|&n| Square::new(n).unwrap().row())
            .collect();
        assert_eq!(rows, vec![1, 1, 2, 2, 3, 3]);
    }

    #[test]
    fn offsets_stay_on_the_board() {
        let sq = Square::new(28).unwrap();
        assert_eq!(sq.offset(2).map(Square::get), Some(30));
        assert_eq!(sq.offset(3), None);
        assert_eq!(Square::FIRST.offset(-1), None);
    }

    #[test]
    fn set_shifts_drop_pieces_off_the_board() {
        let set = SquareSet::from_squares([1, 29, 30]).unwrap();
        assert_eq!(set.forward(1), SquareSet::from_squares([2, 30]).unwrap());
        assert_eq!(set.backward(1), SquareSet::from_squares([28, 29]).unwrap());
        assert_eq!(!SquareSet::EMPTY, SquareSet::ALL);
        assert_eq!(SquareSet::ALL.len(), 30);
        assert_eq!(SquareSet::ROW2.first().unwrap().get(), 11);
        assert_eq!(SquareSet::ROW3.last().unwrap().get(), 30);
        assert_eq!(SquareSet::range(5, 3), SquareSet::EMPTY);
        assert_eq!(SquareSet::range(28, 40).len(), 3);
    }

    #[test]
    fn runs_and_neighbours() {
        let set = SquareSet::from_squares([3, 4, 5, 9, 20, 21]).unwrap();
        assert_eq!(
            set.with_neighbour(),
            SquareSet::from_squares([3, 4, 5, 20, 21]).unwrap()
        );
        assert_eq!(set.run_starts(3), SquareSet::from_squares([3]).unwrap());
        assert_eq!(
            set.run_starts(2),
            SquareSet::from_squares([3, 4, 20]).unwrap()
        );
        assert_eq!(
            SquareSet::ALL.run_starts(30),
            SquareSet::from_squares([1]).unwrap()
        );
        for k in [31, 32, 33, 255] {
            assert!(SquareSet::ALL.run_starts(k).is_empty(), "k = {k}");
        }
    }

    #[test]
    fn bits_are_validated() {
        assert!(SquareSet::from_bits(1).is_err());
        assert!(SquareSet::from_bits(1 << 31).is_err());
        assert!(SquareSet::from_bits(1 << 30).is_ok());
        assert_eq!(SquareSet::from_bits_truncate(u32::MAX), SquareSet::ALL);
    }

    #[test]
    fn iteration_both_ways() {
        let set = SquareSet::from_squares([7, 2, 30]).unwrap();
        let up: Vec<u8> = set.iter().map(Square::get).collect();
        let down: Vec<u8> = set.iter().rev().map(Square::get).collect();
        assert_eq!(up, vec![2, 7, 30]);
        assert_eq!(down, vec![30, 7, 2]);
        assert_eq!(set.to_string(), "{2,7,30}");
    }

    #[test]
    fn place_codes_round_trip() {
        for code in 0..=31 {
            assert_eq!(Place::from_code(code).unwrap().code(), code);
        }
        assert_eq!(Place::from_code(32), None);
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
