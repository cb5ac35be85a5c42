//! Board features every ruleset shares, for heuristics: how far each side still has to go,
//! what it has borne off, and which of its pieces stand exposed to attack.
//!
//! They read only the [`BitBoard`], the throwing device and the pieces a ruleset reports as
//! captured, so they mean the same thing in every reconstruction; they ignore the details that differ (safe squares, backward
//! attacks, the square 27), which is what makes them heuristics.

use senet_core::{BitBoard, Ruleset, Side, SquareSet, ThrowingDevice};

/// The place one past square 30 that a borne-off piece has reached.
const EXIT: u32 = 31;

/// The squares `side` still has to cover to bear every piece off: 31 − s for a piece on s,
/// 31 for a piece in hand, 0 for a piece off.
///
/// ```
/// use senet::ai::features::pips;
/// use senet::{BitBoard, PerSide, Side, SquareSet};
/// let board = BitBoard::new(
///     SquareSet::from_squares([28, 29]).unwrap(),
///     SquareSet::from_squares([1]).unwrap(),
///     PerSide::new(3, 4),
///     PerSide::both(0),
/// )
/// .unwrap();
/// assert_eq!(pips(&board, Side::Black), 3 + 2);
/// assert_eq!(pips(&board, Side::White), 30);
/// ```
#[inline]
pub fn pips(board: &BitBoard, side: Side) -> u32 {
    let pieces = board.pieces_of(side);
    // Σ (31 − s) = 31·n − Σ s, with Σ s read off the bits.
    let on_board = u32::from(pieces.len());
    let square_sum: u32 = pieces.iter().map(|sq| u32::from(sq.get())).sum();
    EXIT * on_board - square_sum + EXIT * u32::from(board.hand_count(side))
}

/// [`pips`] of `side` in a state, counting each piece taken out of the game by a capture
/// ([`Ruleset::captured`], Bell) as 31: a captured piece is as far from home as a piece can
/// be, and will never get there. The board alone cannot tell a captured piece from one
/// borne off.
#[inline]
pub fn state_pips<R: Ruleset>(rules: &R, state: &R::State, side: Side) -> u32 {
    pips(rules.board(state), side) + EXIT * u32::from(rules.captured(state, side))
}

/// The squares from which a piece of `attacker` could land on each square with one throw of
/// `device` (forward moves only).
#[inline]
pub fn reach<D: ThrowingDevice>(board: &BitBoard, attacker: Side, device: &D) -> SquareSet {
    let from = board.pieces_of(attacker);
    device
        .outcomes()
        .iter()
        .fold(SquareSet::EMPTY, |acc, o| acc | from.forward(o.value.get()))
}

/// The pieces of `side` that stand alone (no piece of their own side on a neighbouring
/// square) within one throw in front of an opposing piece: the pieces an attack could hit
/// next turn in a ruleset where pairs protect.
#[inline]
pub fn exposed<D: ThrowingDevice>(board: &BitBoard, side: Side, device: &D) -> SquareSet {
    let own = board.pieces_of(side);
    own & !own.with_neighbour() & reach(board, side.opponent(), device)
}

/// The mean number of squares a throw of `device` counts.
pub fn mean_throw<D: ThrowingDevice>(device: &D) -> f64 {
    let total: u32 = device
        .outcomes()
        .iter()
        .map(|o| o.weight * u32::from(o.value))
        .sum();
    f64::from(total) / f64::from(device.denominator().max(1))
}

#[cfg(test)]
mod tests {
    use super::*;
    use senet_core::Sticks;

    fn board(black: &[u8], white: &[u8]) -> BitBoard {
        let mut b = BitBoard::from_pieces(
            SquareSet::from_squares(black.iter().copied()).unwrap(),
            SquareSet::from_squares(white.iter().copied()).unwrap(),
        )
        .unwrap();
        b.set_off(Side::Black, 5 - black.len() as u8);
        b.set_off(Side::White, 5 - white.len() as u8);
        b
    }

    #[test]
    fn pips_count_squares_to_the_exit_and_pieces_in_hand() {
        let mut b = board(&[30, 1], &[]);
        assert_eq!(pips(&b, Side::Black), 1 + 30);
        b.set_in_hand(Side::White, 2);
        assert_eq!(pips(&b, Side::White), 62);
    }

    #[test]
    fn a_lone_piece_in_front_of_an_opponent_is_exposed_and_a_pair_is_not() {
        let device = Sticks::ZERO_IS_SIX;
        // White on 10 reaches 11, 12, 13, 14, 16.
        let b = board(&[12, 20], &[10]);
        assert_eq!(exposed(&b, Side::Black, &device).bits(), 1 << 12);
        let b = board(&[12, 13], &[10]);
        assert!(exposed(&b, Side::Black, &device).is_empty());
        // 15 is not reached by any throw from 10 (no 5 on these sticks).
        let b = board(&[15], &[10]);
        assert!(exposed(&b, Side::Black, &device).is_empty());
    }

    #[test]
    fn mean_throw_uses_the_exact_table() {
        // (1·4 + 2·6 + 3·4 + 4·1 + 6·1) / 16
        assert!((mean_throw(&Sticks::ZERO_IS_SIX) - 38.0 / 16.0).abs() < 1e-12);
    }
}
