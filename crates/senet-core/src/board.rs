//! What a position looks like: who stands where, and how many pieces are off or in hand.

use crate::prelude::*;
use core::fmt;

use crate::error::PositionError;
use crate::side::{PerSide, Side};
use crate::square::{Square, SquareSet};

/// Squares with a rule of their own, as a board diagram marks them: which squares, the sign
/// drawn beside them, and what they do in a few words (citing the rule).
/// [`Ruleset::special_squares`](crate::Ruleset::special_squares) lists a ruleset's.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SpecialSquares {
    /// The squares.
    pub squares: SquareSet,
    /// The sign drawn beside each of them.
    pub mark: char,
    /// What they do, e.g. `safe from attack (R-10)`.
    pub meaning: &'static str,
}

impl SpecialSquares {
    /// Squares `squares`, marked `mark`, that do `meaning`.
    pub const fn new(squares: SquareSet, mark: char, meaning: &'static str) -> SpecialSquares {
        SpecialSquares {
            squares,
            mark,
            meaning,
        }
    }
}

/// The compact board every ruleset uses: one [`SquareSet`] per side plus two counters per
/// side. It is `Copy` and 12 bytes, so positions are cheap to copy and to hash.
///
/// ```
/// use senet_core::{BitBoard, PerSide, Side, SquareSet};
/// let board = BitBoard::new(
///     SquareSet::from_squares([2, 4]).unwrap(),
///     SquareSet::from_squares([1, 3]).unwrap(),
///     PerSide::new(3, 3),
///     PerSide::both(0),
/// )
/// .unwrap();
/// assert_eq!(board.squares_string(), format!("WBWB{}", ".".repeat(26)));
/// assert_eq!(board.total(Side::Black), 5);
/// ```
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash, Debug)]
pub struct BitBoard {
    sides: PerSide<SquareSet>,
    off: PerSide<u8>,
    hand: PerSide<u8>,
}

impl BitBoard {
    /// An empty board with no pieces anywhere.
    pub const EMPTY: BitBoard = BitBoard {
        sides: PerSide::both(SquareSet::EMPTY),
        off: PerSide::both(0),
        hand: PerSide::both(0),
    };

    /// A board with these pieces on it and none off or in hand, for start positions: a square
    /// claimed by both sides panics, which in a `const` is a compile error.
    ///
    /// ```
    /// use senet_core::{BitBoard, Side, SquareSet};
    /// const START: BitBoard = BitBoard::with_pieces(SquareSet::of([2, 4]), SquareSet::of([1, 3]));
    /// assert_eq!(START.total(Side::White), 2);
    /// ```
    ///
    /// ```compile_fail
    /// use senet_core::{BitBoard, SquareSet};
    /// const START: BitBoard = BitBoard::with_pieces(SquareSet::of([2, 4]), SquareSet::of([1, 2]));
    /// ```
    pub const fn with_pieces(black: SquareSet, white: SquareSet) -> BitBoard {
        assert!(
            black.bits() & white.bits() == 0,
            "a square is claimed by both sides"
        );
        BitBoard {
            sides: PerSide::new(black, white),
            off: PerSide::both(0),
            hand: PerSide::both(0),
        }
    }

    /// The usual start, for `pieces` pieces a side (1 to 15): White (the odd set) on 1, 3, …,
    /// Black (the even set) on 2, 4, …. Another count panics, in a `const` a compile error.
    ///
    /// ```
    /// use senet_core::BitBoard;
    /// const START: BitBoard = BitBoard::alternating(5);
    /// assert_eq!(START.squares_string(), format!("WBWBWBWBWB{}", ".".repeat(20)));
    /// ```
    pub const fn alternating(pieces: u8) -> BitBoard {
        assert!(
            pieces >= 1 && pieces <= 15,
            "alternating starts have 1 to 15 pieces a side"
        );
        let span = SquareSet::range(1, 2 * pieces).bits();
        BitBoard::with_pieces(
            SquareSet::from_bits_truncate(span & SquareSet::EVEN.bits()),
            SquareSet::from_bits_truncate(span & SquareSet::ODD.bits()),
        )
    }

    /// This board after `side` moves its piece from `from` to the empty square `to`, for start
    /// positions with a forced opening move. Anything else panics, in a `const` a compile
    /// error.
    ///
    /// ```
    /// use senet_core::{BitBoard, Side, Square};
    /// const START: BitBoard =
    ///     BitBoard::alternating(5).with_step(Side::Black, Square::at(10), Square::at(11));
    /// assert_eq!(START.squares_string(), format!("WBWBWBWBW.B{}", ".".repeat(19)));
    /// ```
    #[must_use]
    pub const fn with_step(self, side: Side, from: Square, to: Square) -> BitBoard {
        let own = self.sides.get(side);
        let all = own.bits() | self.sides.get(side.opponent()).bits();
        assert!(
            own.contains(from),
            "no piece of the side on the square it moves from"
        );
        assert!(
            all & SquareSet::single(to).bits() == 0,
            "the square moved to is occupied"
        );
        let moved = own.bits() & !SquareSet::single(from).bits() | SquareSet::single(to).bits();
        BitBoard {
            sides: self.sides.with(side, SquareSet::from_bits_truncate(moved)),
            ..self
        }
    }

    /// This board with `hand` pieces in hand, for start positions.
    #[must_use]
    pub const fn with_in_hand(mut self, hand: PerSide<u8>) -> BitBoard {
        self.hand = hand;
        self
    }

    /// A board with the given squares and counters; fails if a square is claimed by both
    /// sides.
    pub fn new(
        black: SquareSet,
        white: SquareSet,
        off: PerSide<u8>,
        hand: PerSide<u8>,
    ) -> Result<BitBoard, PositionError> {
        if let Some(sq) = (black & white).first() {
            return Err(PositionError::Overlap(sq));
        }
        Ok(BitBoard {
            sides: PerSide::new(black, white),
            off,
            hand,
        })
    }

    /// A board with these pieces on it and none off or in hand; fails if a square is claimed
    /// by both sides.
    pub fn from_pieces(black: SquareSet, white: SquareSet) -> Result<BitBoard, PositionError> {
        BitBoard::new(black, white, PerSide::both(0), PerSide::both(0))
    }

    /// Parses the 30-character board string of the position notation (`B`, `W`, `.`),
    /// with no pieces off or in hand.
    pub fn from_squares_str(s: &str) -> Result<BitBoard, PositionError> {
        let count = s.chars().count();
        if count != 30 {
            return Err(PositionError::BoardLength(count));
        }
        let mut board = BitBoard::EMPTY;
        for (i, c) in s.chars().enumerate() {
            let sq = Square::from_valid(i as u8 + 1);
            match c {
                'B' => board.sides[Side::Black].insert(sq),
                'W' => board.sides[Side::White].insert(sq),
                '.' => {}
                other => {
                    return Err(PositionError::BoardChar {
                        square: sq,
                        found: other,
                    });
                }
            }
        }
        Ok(board)
    }

    /// The squares occupied by `side`.
    #[inline]
    pub const fn pieces_of(&self, side: Side) -> SquareSet {
        self.sides.get(side)
    }

    /// The squares occupied by either side.
    #[inline]
    pub fn all_pieces(&self) -> SquareSet {
        self.sides[Side::Black] | self.sides[Side::White]
    }

    /// The empty squares.
    #[inline]
    pub fn empty_squares(&self) -> SquareSet {
        !(self.sides[Side::Black] | self.sides[Side::White])
    }

    /// Pieces of `side` borne off.
    #[inline]
    pub const fn off_count(&self, side: Side) -> u8 {
        self.off.get(side)
    }

    /// Pieces borne off by each side.
    #[inline]
    pub const fn off_counts(&self) -> PerSide<u8> {
        self.off
    }

    /// The side that has borne off at least `pieces` pieces (Black if both have), in the
    /// rulesets where bearing off every piece wins.
    ///
    /// ```
    /// use senet_core::{BitBoard, PerSide, Side, SquareSet};
    /// let board = BitBoard::new(SquareSet::EMPTY, SquareSet::EMPTY, PerSide::new(2, 5), PerSide::both(0)).unwrap();
    /// assert_eq!(board.side_with_all_off(5), Some(Side::White));
    /// assert_eq!(board.side_with_all_off(7), None);
    /// ```
    #[inline]
    pub const fn side_with_all_off(&self, pieces: u8) -> Option<Side> {
        if self.off_count(Side::Black) >= pieces {
            Some(Side::Black)
        } else if self.off_count(Side::White) >= pieces {
            Some(Side::White)
        } else {
            None
        }
    }

    /// Checks the board of a ruleset in which every piece starts on the board and none is
    /// ever in hand: no square claimed by both sides, and `pieces` pieces a side on the board
    /// or off it.
    ///
    /// ```
    /// use senet_core::{BitBoard, PerSide, PositionError, SquareSet};
    /// let black = SquareSet::from_squares([2, 4]).unwrap();
    /// let board = BitBoard::new(black, SquareSet::EMPTY, PerSide::new(3, 5), PerSide::both(0)).unwrap();
    /// assert!(board.check_pieces(5).is_ok());
    /// assert!(matches!(board.check_pieces(7), Err(PositionError::PieceCount { .. })));
    /// ```
    pub fn check_pieces(&self, pieces: u8) -> Result<(), PositionError> {
        if let Some(sq) = (self.pieces_of(Side::Black) & self.pieces_of(Side::White)).first() {
            return Err(PositionError::Overlap(sq));
        }
        for side in Side::BOTH {
            if self.total(side) != pieces || self.in_hand(side) != 0 {
                return Err(PositionError::PieceCount {
                    side,
                    found: self.total(side),
                    expected: pieces,
                });
            }
        }
        Ok(())
    }

    /// Pieces of `side` in hand.
    #[inline]
    pub const fn hand_count(&self, side: Side) -> u8 {
        self.hand.get(side)
    }

    /// Pieces in hand of each side.
    #[inline]
    pub const fn hand_counts(&self) -> PerSide<u8> {
        self.hand
    }

    /// Puts a piece of `side` on `sq`. The square should be empty; this is not checked (on an
    /// occupied square both sides would claim it, which [`BitBoard::new`] and every
    /// ruleset's validation refuse).
    #[inline]
    pub fn put(&mut self, side: Side, sq: Square) {
        self.sides[side].insert(sq);
    }

    /// Removes `side`'s piece from `sq` (not checked).
    #[inline]
    pub fn take(&mut self, side: Side, sq: Square) {
        self.sides[side].remove(sq);
    }

    /// Moves `side`'s piece from `from` to the empty square `to` (not checked).
    #[inline]
    pub fn relocate(&mut self, side: Side, from: Square, to: Square) {
        let set = &mut self.sides[side];
        set.remove(from);
        set.insert(to);
    }

    /// Moves `side`'s piece from `from` to `to`; an opposing piece on `to` goes to `from` in
    /// its place (the swap that an attack makes in several reconstructions). Not checked,
    /// like [`BitBoard::relocate`].
    ///
    /// ```
    /// use senet_core::{BitBoard, Side, Square, SquareSet};
    /// let mut board = BitBoard::from_pieces(SquareSet::of([3]), SquareSet::of([5])).unwrap();
    /// board.swap_or_move(Side::Black, Square::at(3), Square::at(5));
    /// assert_eq!(board.pieces_of(Side::Black), SquareSet::of([5]));
    /// assert_eq!(board.pieces_of(Side::White), SquareSet::of([3]));
    /// board.swap_or_move(Side::Black, Square::at(5), Square::at(9));
    /// assert_eq!(board.pieces_of(Side::Black), SquareSet::of([9]));
    /// assert_eq!(board.pieces_of(Side::White), SquareSet::of([3]));
    /// ```
    #[inline]
    pub fn swap_or_move(&mut self, side: Side, from: Square, to: Square) {
        let opp = side.opponent();
        if self.sides[opp].contains(to) {
            self.relocate(opp, to, from);
        }
        self.relocate(side, from, to);
    }

    /// The lowest-numbered empty square once the piece on `vacated` has left it, where
    /// several reconstructions send a piece on (from their square 27, or off an own piece).
    /// There always is one: `vacated` itself counts as empty.
    ///
    /// ```
    /// use senet_core::{BitBoard, Side, Square, SquareSet};
    /// let board = BitBoard::from_pieces(SquareSet::of([1, 2, 4]), SquareSet::of([3])).unwrap();
    /// assert_eq!(board.lowest_empty_after_leaving(Square::at(4)).get(), 4);
    /// assert_eq!(board.lowest_empty_after_leaving(Square::at(2)).get(), 2);
    /// let board = BitBoard::from_pieces(SquareSet::of([1, 2, 7]), SquareSet::of([3])).unwrap();
    /// assert_eq!(board.lowest_empty_after_leaving(Square::at(7)).get(), 4);
    /// ```
    #[inline]
    pub fn lowest_empty_after_leaving(&self, vacated: Square) -> Square {
        let free = self.empty_squares() | SquareSet::single(vacated);
        // Not empty, and only squares: the lowest bit is a square.
        Square::from_valid(free.bits().trailing_zeros() as u8)
    }

    /// Refuses a board with a piece on `square`, a square where no piece ever stays in the
    /// ruleset (`reason` says why), for [`Ruleset::validate`](crate::Ruleset::validate).
    ///
    /// ```
    /// use senet_core::{BitBoard, PositionError, Square, SquareSet};
    /// let board = BitBoard::from_pieces(SquareSet::of([27]), SquareSet::EMPTY).unwrap();
    /// assert!(board.check_vacant(Square::at(26), "never").is_ok());
    /// assert!(matches!(
    ///     board.check_vacant(Square::at(27), "never"),
    ///     Err(PositionError::ForbiddenSquare { .. })
    /// ));
    /// ```
    pub fn check_vacant(&self, square: Square, reason: &'static str) -> Result<(), PositionError> {
        match self.side_at(square) {
            Some(side) => Err(PositionError::ForbiddenSquare {
                side,
                square,
                reason,
            }),
            None => Ok(()),
        }
    }

    /// Refuses a board on which both sides have borne off `pieces` pieces, in the rulesets
    /// where the game ends as the first side does, for
    /// [`Ruleset::validate`](crate::Ruleset::validate).
    pub fn check_one_finished(&self, pieces: u8) -> Result<(), PositionError> {
        if self.off_count(Side::Black) >= pieces && self.off_count(Side::White) >= pieces {
            return Err(PositionError::Inconsistent(
                "both sides have borne off every piece".to_string(),
            ));
        }
        Ok(())
    }

    /// Takes `side`'s piece on `from` off the board and counts it as borne off (the count
    /// saturates rather than overflows on a board that was never validated).
    ///
    /// ```
    /// use senet_core::{BitBoard, PerSide, Side, Square, SquareSet};
    /// let mut board = BitBoard::new(SquareSet::from_squares([30]).unwrap(), SquareSet::EMPTY, PerSide::new(4, 0), PerSide::both(0))
    ///     .unwrap();
    /// board.bear_off(Side::Black, Square::new(30).unwrap());
    /// assert!(board.pieces_of(Side::Black).is_empty());
    /// assert_eq!(board.off_count(Side::Black), 5);
    /// ```
    #[inline]
    pub fn bear_off(&mut self, side: Side, from: Square) {
        self.take(side, from);
        self.off[side] = self.off[side].saturating_add(1);
    }

    /// Counts as borne off every piece of `side`, out of `pieces`, that is neither on the
    /// board nor among the `elsewhere` pieces (in hand, captured): how the position notation
    /// reads pieces it does not show. Fails when more than `pieces` are accounted for.
    ///
    /// ```
    /// use senet_core::{BitBoard, PositionError, Side, SquareSet};
    /// let mut board = BitBoard::from_pieces(SquareSet::of([2, 4]), SquareSet::EMPTY).unwrap();
    /// board.set_rest_off(Side::Black, 5, 1).unwrap();
    /// assert_eq!(board.off(Side::Black), 2);
    /// assert!(matches!(
    ///     board.set_rest_off(Side::Black, 5, 4),
    ///     Err(PositionError::PieceCount { found: 6, .. })
    /// ));
    /// ```
    pub fn set_rest_off(
        &mut self,
        side: Side,
        pieces: u8,
        elsewhere: u8,
    ) -> Result<(), PositionError> {
        let placed = self.sides[side].len().saturating_add(elsewhere);
        if placed > pieces {
            return Err(PositionError::PieceCount {
                side,
                found: placed,
                expected: pieces,
            });
        }
        self.off[side] = pieces - placed;
        Ok(())
    }

    /// Sets the number of `side`'s pieces borne off.
    #[inline]
    pub fn set_off(&mut self, side: Side, n: u8) {
        self.off[side] = n;
    }

    /// Sets the number of `side`'s pieces in hand.
    #[inline]
    pub fn set_in_hand(&mut self, side: Side, n: u8) {
        self.hand[side] = n;
    }

    /// Replaces the squares of `side` and of its opponent at once (the counters stay), for
    /// play code that computes a move's result on raw bits. Returns false, and leaves the
    /// board as it was, when the two sets overlap. Unlike [`BitBoard::set_pieces`] it builds
    /// no error value, so the hot path carries no error to drop.
    ///
    /// ```
    /// use senet_core::{BitBoard, Side, SquareSet};
    /// let mut board = BitBoard::EMPTY;
    /// let (mine, theirs) = (SquareSet::from_squares([1, 3]).unwrap(), SquareSet::from_squares([2]).unwrap());
    /// assert!(board.replace_pieces(Side::White, mine, theirs));
    /// assert_eq!(board.pieces_of(Side::White), mine);
    /// assert_eq!(board.pieces_of(Side::Black), theirs);
    /// assert!(!board.replace_pieces(Side::White, mine, mine));
    /// assert_eq!(board.pieces_of(Side::Black), theirs);
    /// ```
    #[inline]
    pub fn replace_pieces(&mut self, side: Side, own: SquareSet, theirs: SquareSet) -> bool {
        let disjoint = (own & theirs).is_empty();
        if disjoint {
            self.sides[side] = own;
            self.sides[side.opponent()] = theirs;
        }
        disjoint
    }

    /// Replaces `side`'s squares; fails if that would overlap the other side.
    pub fn set_pieces(&mut self, side: Side, squares: SquareSet) -> Result<(), PositionError> {
        if let Some(sq) = (squares & self.sides[side.opponent()]).first() {
            return Err(PositionError::Overlap(sq));
        }
        self.sides[side] = squares;
        Ok(())
    }
}

/// Reading the board: who stands where, what is off or in hand, and the board as text.
impl BitBoard {
    /// The side whose piece stands on `sq`, if any.
    #[inline]
    pub fn side_at(&self, sq: Square) -> Option<Side> {
        if self.sides[Side::Black].contains(sq) {
            Some(Side::Black)
        } else if self.sides[Side::White].contains(sq) {
            Some(Side::White)
        } else {
            None
        }
    }

    /// The squares occupied by `side` (the same as [`BitBoard::pieces_of`]).
    #[inline]
    pub fn pieces(&self, side: Side) -> SquareSet {
        self.sides[side]
    }

    /// How many of `side`'s pieces have been borne off.
    #[inline]
    pub fn off(&self, side: Side) -> u8 {
        self.off[side]
    }

    /// How many of `side`'s pieces wait in hand, not yet entered.
    #[inline]
    pub fn in_hand(&self, side: Side) -> u8 {
        self.hand[side]
    }

    /// How many of `side`'s pieces stand on the board.
    pub fn on_board(&self, side: Side) -> u8 {
        self.pieces(side).len()
    }

    /// Every piece of `side`: on the board, off, or in hand (saturating at 255, so that a
    /// corrupt counter can neither panic nor wrap around to a plausible total).
    pub fn total(&self, side: Side) -> u8 {
        self.on_board(side)
            .saturating_add(self.off(side))
            .saturating_add(self.in_hand(side))
    }

    /// The squares occupied by either side.
    pub fn occupied(&self) -> SquareSet {
        self.pieces(Side::Black) | self.pieces(Side::White)
    }

    /// The board as the 30-character string of the position notation, square 1 first:
    /// `B` for Black, `W` for White, `.` for empty.
    pub fn squares_string(&self) -> String {
        Square::all()
            .map(|sq| match self.side_at(sq) {
                Some(Side::Black) => 'B',
                Some(Side::White) => 'W',
                None => '.',
            })
            .collect()
    }

    /// The board drawn as its three physical rows (the middle row runs right to left),
    /// with the pieces off and in hand underneath. [`Ruleset::diagram`](crate::Ruleset::diagram)
    /// draws it with the ruleset's special squares marked.
    pub fn diagram(&self) -> String {
        self.diagram_marked(&[])
    }

    /// [`diagram`](BitBoard::diagram) with each square of `special` marked by its sign, and a
    /// line per kind of square saying what the sign means.
    ///
    /// ```
    /// use senet_core::{BitBoard, SpecialSquares, SquareSet};
    /// let board = BitBoard::from_squares_str(&format!("B{}W", ".".repeat(28))).unwrap();
    /// let water = SpecialSquares::new(SquareSet::of([27]), '~', "water");
    /// let diagram = board.diagram_marked(&[water]);
    /// let rows: Vec<&str> = diagram.lines().collect();
    /// assert_eq!(rows[0], "| B | 2 | 3 | 4 | 5 | 6 | 7 | 8 | 9 |10 |");
    /// assert_eq!(rows[1], "|20 |19 |18 |17 |16 |15 |14 |13 |12 |11 |");
    /// assert_eq!(rows[2], "|21 |22 |23 |24 |25 |26 |27~|28 |29 | W |");
    /// assert_eq!(rows[3], "~ water: 27");
    /// ```
    pub fn diagram_marked(&self, special: &[SpecialSquares]) -> String {
        let mark = |sq: Square| {
            special
                .iter()
                .find(|s| s.squares.contains(sq))
                .map_or(' ', |s| s.mark)
        };
        let mut out = String::new();
        let rows: [[u8; 10]; 3] = [
            core::array::from_fn(|i| i as u8 + 1),
            core::array::from_fn(|i| 20 - i as u8),
            core::array::from_fn(|i| i as u8 + 21),
        ];
        for row in rows {
            out.push('|');
            for n in row {
                let sq = Square::from_valid(n);
                match self.side_at(sq) {
                    Some(Side::Black) => out.push_str(" B"),
                    Some(Side::White) => out.push_str(" W"),
                    None => out.push_str(&format!("{n:>2}")),
                }
                out.push(mark(sq));
                out.push('|');
            }
            out.push('\n');
        }
        for kind in special {
            let squares: Vec<String> = kind.squares.iter().map(|sq| sq.to_string()).collect();
            out.push_str(&format!(
                "{} {}: {}\n",
                kind.mark,
                kind.meaning,
                squares.join(" ")
            ));
        }
        for side in Side::BOTH {
            out.push_str(&format!(
                "{side}: {} on board, {} off, {} in hand\n",
                self.on_board(side),
                self.off(side),
                self.in_hand(side)
            ));
        }
        out
    }
}

impl fmt::Display for BitBoard {
    /// The 30-character board string of the position notation.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.squares_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bitboard_is_small_and_copy() {
        assert!(core::mem::size_of::<BitBoard>() <= 16);
        let a = BitBoard::EMPTY;
        let b = a;
        assert_eq!(a, b);
    }

    /// Found by fuzzing (tests/fuzz_api.rs): bearing off again and again with
    /// `play_unchecked` drives the off counter to 255, and `total` then overflowed (a panic
    /// in debug builds, and in release a wrapped total that validation could take for the
    /// right number of pieces).
    #[test]
    fn total_saturates_instead_of_overflowing() {
        let six = SquareSet::from_squares([1, 2, 3, 4, 5, 6]).unwrap();
        let board = BitBoard::new(
            six,
            SquareSet::EMPTY,
            PerSide::new(255, 0),
            PerSide::both(0),
        )
        .unwrap();
        assert_eq!(board.total(Side::Black), 255);
        let board = BitBoard::new(
            six,
            SquareSet::EMPTY,
            PerSide::new(200, 0),
            PerSide::new(100, 0),
        )
        .unwrap();
        assert_eq!(board.total(Side::Black), 255);
    }

    #[test]
    fn overlap_is_rejected() {
        let s = SquareSet::from_squares([5]).unwrap();
        assert!(matches!(
            BitBoard::new(s, s, PerSide::both(0), PerSide::both(0)),
            Err(PositionError::Overlap(sq)) if sq.get() == 5
        ));
        let mut board =
            BitBoard::new(s, SquareSet::EMPTY, PerSide::both(0), PerSide::both(0)).unwrap();
        assert!(board.set_pieces(Side::White, s).is_err());
    }

    #[test]
    fn squares_string_round_trips() {
        let text = format!("BW.B{}W", ".".repeat(25));
        let board = BitBoard::from_squares_str(&text).unwrap();
        assert_eq!(board.squares_string(), text);
        assert_eq!(board.on_board(Side::Black), 2);
        assert!(matches!(
            BitBoard::from_squares_str("BW"),
            Err(PositionError::BoardLength(2))
        ));
        assert!(matches!(
            BitBoard::from_squares_str(&format!("X{}", ".".repeat(29))),
            Err(PositionError::BoardChar { found: 'X', .. })
        ));
    }

    #[test]
    fn diagram_shows_three_rows_with_the_middle_reversed() {
        let board = BitBoard::from_squares_str(&format!("B{}W", ".".repeat(28))).unwrap();
        let diagram = board.diagram();
        let lines: Vec<&str> = diagram.lines().collect();
        assert!(lines[0].starts_with("| B | 2 |"));
        assert!(lines[1].starts_with("|20 |19 |"));
        assert!(lines[2].ends_with(" W |"));
    }
}
