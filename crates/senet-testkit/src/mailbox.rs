//! [`MailboxBoard`], the board the reference generators of `tests/reference.rs` work on.

use senet_core::{BitBoard, PerSide, Side, Square, SquareSet};

/// A board stored as an array of 30 squares: simple, obviously right, and slow. The
/// reference move generators, written straight from a ruleset's specification, use it, so
/// that they share no board code with the fast generators they check.
///
/// ```
/// use senet_core::{BitBoard, Side, Square};
/// use senet_testkit::mailbox::MailboxBoard;
/// let mut mailbox = MailboxBoard::default();
/// mailbox.squares[11] = Some(Side::Black); // square 12
/// let bits = BitBoard::from(&mailbox);
/// assert_eq!(bits.side_at(Square::new(12).unwrap()), Some(Side::Black));
/// assert_eq!(MailboxBoard::from(&bits), mailbox);
/// ```
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash, Debug)]
pub struct MailboxBoard {
    /// `squares[i]` is square `i + 1`.
    pub squares: [Option<Side>; 30],
    /// Pieces borne off.
    pub off: PerSide<u8>,
    /// Pieces in hand.
    pub hand: PerSide<u8>,
}

impl MailboxBoard {
    /// The occupant of square number `n` (1..=30); `None` for empty squares and for numbers
    /// off the board.
    pub fn at(&self, n: i32) -> Option<Side> {
        if (1..=30).contains(&n) {
            self.squares[(n - 1) as usize]
        } else {
            None
        }
    }

    /// The side whose piece stands on `sq`, if any.
    pub fn side_at(&self, sq: Square) -> Option<Side> {
        self.squares[usize::from(sq.get() - 1)]
    }

    /// The squares occupied by `side`.
    pub fn pieces(&self, side: Side) -> SquareSet {
        Square::all()
            .filter(|&sq| self.side_at(sq) == Some(side))
            .collect()
    }
}

impl From<&BitBoard> for MailboxBoard {
    fn from(board: &BitBoard) -> Self {
        MailboxBoard {
            squares: core::array::from_fn(|i| board.side_at(Square::new(i as u8 + 1).unwrap())),
            off: board.off_counts(),
            hand: board.hand_counts(),
        }
    }
}

impl From<&MailboxBoard> for BitBoard {
    fn from(board: &MailboxBoard) -> Self {
        // Every square holds one side at most, so the two sets never overlap.
        BitBoard::new(
            board.pieces(Side::Black),
            board.pieces(Side::White),
            board.off,
            board.hand,
        )
        .expect("a square of a mailbox holds one side")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mailbox_and_bitboard_agree() {
        let board = BitBoard::from_squares_str(&format!("BWBW{}WB", ".".repeat(24))).unwrap();
        let mailbox = MailboxBoard::from(&board);
        for sq in Square::all() {
            assert_eq!(mailbox.side_at(sq), board.side_at(sq));
        }
        assert_eq!(BitBoard::from(&mailbox), board);
        assert_eq!(mailbox.at(0), None);
        assert_eq!(mailbox.at(30), Some(Side::Black));
    }
}
