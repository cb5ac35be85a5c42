//! Gustave Jéquier's reconstruction of Senet (1930), for the `senet` engine.
//!
//! Five pieces a side, four throwing sticks (no marked side counts 6), extra throws on 1, 4
//! and 6 (even when the throw cannot be used), attacks that send the victim back to the lowest
//! empty square, protected pairs, blockades of three, unmoved pieces that wait for the square
//! ahead to clear, backward moves when nothing can go forward, and free bearing off once a side
//! has every piece in the third row. The rule ids (`J-1` … `J-12`, `I-1`, `I-2`) are defined
//! and explained in `docs/rules/jequier.md`.
//!
//! Black is the even set (the player who first throws a 1), White the odd set.
//!
//! ```
//! use senet_jequier::Jequier;
//! use senet_core::{Game, Phase, Side, Throw};
//!
//! let mut game = Game::new(Jequier::default());
//! // The even set has moved 10→11 with its deciding 1 and throws again (J-3).
//! assert_eq!(game.phase(), Phase::Throw(Side::Black));
//! game.throw(Throw::at(2)).unwrap();
//! // Its pieces on 2, 4, 6, 8 have never moved and the squares ahead of them are occupied
//! // (J-5), so only the piece on 11 can go.
//! let moves: Vec<String> = game.legal_moves().iter().map(|m| m.to_string()).collect();
//! assert_eq!(moves, ["11-13"]);
//! game.play("11-13".parse().unwrap()).unwrap();
//! assert_eq!(game.phase(), Phase::Throw(Side::White)); // a 2 ends the turn (J-4)
//! ```

#![cfg_attr(not(feature = "std"), no_std)]
#![forbid(unsafe_code)]
#![deny(missing_docs)]

extern crate alloc;

mod batch;

use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;
use senet_core::kernel::{self, Landing};
use senet_core::{
    BitBoard, FieldInfo, Move, MoveList, Outcome, PerSide, Phase, Place, PositionError, Ruleset,
    SeatRule, Setup, Side, SpecialSquares, Square, SquareSet, Sticks, TurnState,
};

/// The revision of this ruleset's behaviour ([`Ruleset::RULES_REVISION`]). Raise it by one
/// whenever a seeded game can come out differently, and note why here:
///
/// - 1: the first release.
pub const RULES_REVISION: u32 = 1;

/// Pieces per side (J-1).
pub const PIECES: u8 = 5;

/// The starting squares of the odd set, White (J-1).
pub const WHITE_START: SquareSet = SquareSet::of([1, 3, 5, 7, 9]);

/// The starting squares of the even set, Black (J-1).
pub const BLACK_START: SquareSet = SquareSet::of([2, 4, 6, 8, 10]);

/// The start: J-1's sets after the even set's piece on 10 has moved to 11 with the deciding 1
/// (J-3).
const START: BitBoard = BitBoard::with_pieces(BLACK_START, WHITE_START).with_step(
    Side::Black,
    Square::at(10),
    Square::at(11),
);

/// The square that sends a piece landing on it to the lowest empty square (J-10).
const SQ27: Square = Square::at(27);

/// The starting squares of `side` (J-1).
pub const fn start_squares(side: Side) -> SquareSet {
    match side {
        Side::Black => BLACK_START,
        Side::White => WHITE_START,
    }
}

senet_core::option_value! {
    /// Which squares protect the piece standing on them from attack (J-8, option `safe_squares`).
    pub enum SafeSquares {
        /// J-8: 26, 28, 29 and 30 (option value `26_28_29_30`).
        #[default]
        Standard = "26_28_29_30",
        /// Ludii's encoding: 15, 26, 28 and 29 (option value `15_26_28_29`). Ludii's text says
        /// "26, 28, 29 and 20"; 20 is read as a misprint for 30 by the specification, but the
        /// encoding itself uses 15.
        Ludii = "15_26_28_29",
    }
}

impl SafeSquares {
    /// The squares on which a piece cannot be attacked.
    pub const fn squares(self) -> SquareSet {
        match self {
            SafeSquares::Standard => {
                SquareSet::from_bits_truncate(1 << 26 | 1 << 28 | 1 << 29 | 1 << 30)
            }
            SafeSquares::Ludii => {
                SquareSet::from_bits_truncate(1 << 15 | 1 << 26 | 1 << 28 | 1 << 29)
            }
        }
    }
}

senet_core::option_value! {
    /// Which pieces must wait for the square ahead of them to clear (J-5, option `start_rule`).
    pub enum StartRule {
        /// J-5 and I-1: a piece that has never left its starting square may not move (forward or
        /// backward) while the square directly ahead of it is occupied (option value
        /// `unmoved_pieces`).
        #[default]
        UnmovedPieces = "unmoved_pieces",
        /// Ludii's encoding: every piece on 1–10, moved or not, may not move (forward or backward)
        /// while the square directly ahead of it is occupied (option value `first_row`).
        FirstRow = "first_row",
    }
}

senet_core::option_value! {
    /// When a piece may move backward (J-9, option `backward_priority`).
    pub enum BackwardPriority {
        /// I-2: only when no piece of the side can move forward by the throw (option value
        /// `per_player`).
        #[default]
        PerPlayer = "per_player",
        /// Ludii's encoding: a piece that cannot move forward may move backward even when another
        /// piece could move forward (option value `per_piece`).
        PerPiece = "per_piece",
    }
}

senet_core::ruleset_options! {
    /// The Jéquier ruleset with its options (J-8, J-5 and I-2 by default).
    ///
    /// ```
    /// use senet_jequier::{BackwardPriority, Jequier, SafeSquares};
    /// use senet_core::Ruleset;
    /// let rules = Jequier::default().with_safe_squares(SafeSquares::Ludii);
    /// assert_eq!(rules.spec().to_string(), "jequier(safe_squares=15_26_28_29)");
    /// let same = Jequier::from_spec(&"jequier(safe_squares=15_26_28_29)".parse().unwrap()).unwrap();
    /// assert_eq!(same, rules);
    /// let ludii = Jequier::from_spec(
    ///     &"jequier(backward_priority=per_piece)".parse().unwrap(),
    /// ).unwrap();
    /// assert_eq!(ludii.backward_priority(), BackwardPriority::PerPiece);
    /// ```
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
    pub struct Jequier {
        /// the squares where no piece can be attacked: J-8's 26,28,29,30 or Ludii's 15,26,28,29
        pub safe_squares: SafeSquares = 26_28_29_30, rules "J-8", with_safe_squares;
        /// which pieces wait for the square ahead to clear: those never moved (J-5) or, as Ludii, every piece on 1-10
        pub start_rule: StartRule = unmoved_pieces, rules "J-5, I-1", with_start_rule;
        /// backward moves only when no piece can go forward (I-2) or, as Ludii, for any piece that cannot go forward
        pub backward_priority: BackwardPriority = per_player, rules "J-9, I-2", with_backward_priority;
    }
}

impl Jequier {
    /// The squares from which the side to move can go forward and backward with throw `t`,
    /// as two disjoint sets (backward origins are only those the backward priority allows).
    ///
    /// Everything is computed on bitsets: the squares a piece may land on, shifted back by the
    /// throw, intersected with the side's movable pieces, minus the origins a blockade stops.
    #[inline]
    fn origins(&self, state: &JequierState, t: u8) -> (SquareSet, SquareSet) {
        let board = &state.board;
        let me = state.to_move;
        let own = board.pieces_of(me);
        let opp = board.pieces_of(me.opponent());
        let empty = board.empty_squares();
        // J-5: a waiting piece may not move at all while the square ahead of it is occupied.
        let waiting = match self.start_rule {
            StartRule::UnmovedPieces => state.extra,
            StartRule::FirstRow => SquareSet::ROW1,
        };
        let movable = own & !(waiting & (!empty).backward(1));
        // J-8: an attack needs an opposing piece with no own-side neighbour, off the safe
        // squares.
        let attackable = opp & !opp.with_neighbour() & !self.safe_squares.squares();
        // J-6: no passing three consecutive opposing pieces. Forward from s the squares passed
        // are s+1 … s+t−1 (… 30 when bearing off), so a run starting at s+k blocks when
        // 1 ≤ k ≤ t−3; backward they are s−t+1 … s−1, so a run starting at s−k blocks when
        // 3 ≤ k ≤ t−1. Throws are random, so the shifts are selected with masks, not branches.
        let runs = opp.run_starts(3);
        let blocked_forward = SquareSet::passing_forward(runs, t).bits();
        let blocked_backward = SquareSet::passing_backward(runs, t).bits();
        let when = kernel::all_ones_if;
        // J-11: with every piece on 21–30, any move past 30 bears off; a move ending on 30
        // stays there like any other landing.
        let bearing_off = when((own & !SquareSet::ROW3).is_empty());
        let leaving = SquareSet::range(31u8.saturating_sub(t), 30).bits() & bearing_off;
        let forward =
            movable.bits() & ((empty | attackable).backward(t).bits() | leaving) & !blocked_forward;
        // J-9: backward only onto an empty square.
        let backward = movable.bits() & empty.forward(t).bits() & !blocked_backward;
        let backward = match self.backward_priority {
            BackwardPriority::PerPlayer => backward & when(forward == 0),
            BackwardPriority::PerPiece => backward & !forward,
        };
        (
            SquareSet::from_bits_truncate(forward),
            SquareSet::from_bits_truncate(backward),
        )
    }

    /// The move taking the piece on `from` by `t` in the given direction.
    #[inline]
    fn move_from(from: u8, t: u8, backward: bool) -> Move {
        let to = if backward {
            from.wrapping_sub(t)
        } else {
            from.saturating_add(t).min(Place::OFF_CODE)
        };
        Move::from_codes_unchecked(from, to)
    }

    #[inline]
    fn finished(board: &BitBoard) -> Option<Side> {
        board.side_with_all_off(PIECES)
    }

    /// The pending throw, while the game goes on.
    #[inline]
    fn throw_to_use(state: &JequierState) -> Option<u8> {
        state.throw_to_use(Jequier::finished(&state.board).is_some())
    }

    /// The move of the piece on square code `from` with throw `t`: backward when it is one of
    /// the `backward` origins, else forward.
    #[inline]
    fn move_of(t: u8, backward: SquareSet) -> impl Fn(u8) -> Move {
        let back = backward.bits();
        move |from| Jequier::move_from(from, t, (back >> (from & 31)) & 1 != 0)
    }

    /// J-12: the winner scores, per opposing piece still on the board, 3 on 1–10, 2 on 11–20
    /// and 1 on 21–30.
    ///
    /// ```
    /// use senet_core::{BitBoard, PerSide, Side, SquareSet};
    /// use senet_jequier::Jequier;
    /// let white = SquareSet::from_squares([3, 12, 25]).unwrap();
    /// let board = BitBoard::new(SquareSet::EMPTY, white, PerSide::new(5, 2), PerSide::both(0)).unwrap();
    /// assert_eq!(Jequier::score(&board, Side::Black), 3 + 2 + 1);
    /// ```
    pub fn score(board: &BitBoard, winner: Side) -> i32 {
        board.pieces_of(winner.opponent()).rows_to_go()
    }

    /// The unmoved pieces a board implies when the position notation does not say: every
    /// piece standing on one of its own side's starting squares.
    pub fn default_unmoved(board: &BitBoard) -> SquareSet {
        board.pieces_of(Side::Black) & BLACK_START | board.pieces_of(Side::White) & WHITE_START
    }
}

/// A Jéquier position: the board, the side to act, the pending throw, and the squares whose
/// pieces have never moved (J-5, I-1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct JequierState {
    /// Its `extra` holds the squares of the pieces that have never left their starting
    /// square. The starting squares of the two sides are disjoint (odd and even), so one set
    /// serves both.
    turn: TurnState<SquareSet>,
}

senet_core::turn_state_deref!(JequierState, SquareSet);

impl JequierState {
    /// The squares of `side`'s pieces that have never moved (I-1).
    pub fn unmoved(&self, side: Side) -> SquareSet {
        self.extra & self.board.pieces_of(side)
    }
}

fn bad_unmoved(value: &str, reason: String) -> PositionError {
    PositionError::BadField {
        name: "unmoved".to_string(),
        value: value.to_string(),
        reason,
    }
}

/// Reads the `unmoved` field: `none` or square numbers separated by commas.
fn parse_unmoved(value: &str) -> Result<SquareSet, PositionError> {
    if value == "none" {
        return Ok(SquareSet::EMPTY);
    }
    let mut set = SquareSet::EMPTY;
    for part in value.split(',') {
        let sq: Square = part.parse().map_err(|_| {
            bad_unmoved(
                value,
                format!("{part:?} is not a square; use none or squares like 1,3,8"),
            )
        })?;
        if set.contains(sq) {
            return Err(bad_unmoved(value, format!("square {sq} is listed twice")));
        }
        set.insert(sq);
    }
    Ok(set)
}

fn write_unmoved(set: SquareSet) -> String {
    if set.is_empty() {
        return "none".to_string();
    }
    set.iter()
        .map(|sq| sq.to_string())
        .collect::<Vec<_>>()
        .join(",")
}

const FIELD_INFO: &[FieldInfo] = &[
    FieldInfo::pending_throw(
        "1, 2, 3, 4, 6",
        "the throw the side to act has made and must now use (J-2, J-4)",
    ),
    FieldInfo {
        name: "unmoved",
        values: "squares, e.g. 2,4,9, or none",
        default: "every piece standing on one of its own side's starting squares",
        doc: "the squares whose pieces have never moved (J-5, I-1)",
    },
];

senet_core::lock_step_batch_rules! {
    /// Jéquier has a lock-step kernel (`senet_core::batch`) for every configuration.
    Jequier => batch::Lanes::covering
}

impl Ruleset for Jequier {
    type State = JequierState;
    type Device = Sticks;

    senet_core::ruleset_crate_items! {
        id: "jequier",
        name: "Jéquier (1930)",
        seat_rule: SeatRule::FirstToThrowOne,
    }

    fn device(&self) -> Sticks {
        // J-2: four sticks, no marked side counts 6.
        Sticks::ZERO_IS_SIX
    }

    fn pieces_per_side(&self) -> u8 {
        PIECES
    }

    const STATE_FEATURES: &'static [&'static str] =
        &senet_core::kernel::pending_then::<2, 8>(["unmoved", "opponent_unmoved"]);

    fn state_features(&self, state: &Self::State, side: Side, out: &mut [f32]) {
        senet_core::kernel::pending_throw_features(state.pending_throw(), out);
        let pieces = f32::from(PIECES);
        out[6] = f32::from(state.unmoved(side).len()) / pieces;
        out[7] = f32::from(state.unmoved(side.opponent()).len()) / pieces;
    }

    fn initial_state(&self) -> JequierState {
        // J-3: after the deciding 1 the even set throws again.
        JequierState {
            turn: TurnState::new(START, Side::Black, Jequier::default_unmoved(&START)),
        }
    }

    senet_core::forward_turn_state!();

    #[inline]
    fn phase(&self, state: &JequierState) -> Phase {
        if let Some(winner) = Jequier::finished(&state.board) {
            // J-12: the first side to bear off every piece wins and scores.
            let score = Jequier::score(&state.board, winner);
            Phase::Over(Outcome {
                winner: Some(winner),
                points: PerSide::only(winner, score),
            })
        } else {
            state.turn.phase()
        }
    }

    #[inline]
    fn generate_moves(&self, state: &JequierState, moves: &mut MoveList) {
        let Some(t) = Jequier::throw_to_use(state) else {
            moves.clear();
            return;
        };
        let (forward, backward) = self.origins(state, t);
        // Each piece has at most one move (forward, or else backward); J-9: with no move at
        // all the throw is lost and the only choice is a pass.
        kernel::assign_one_per_origin::<{ PIECES as usize }>(
            moves,
            forward | backward,
            Jequier::move_of(t, backward),
        );
    }

    fn is_legal(&self, state: &JequierState, mv: Move) -> bool {
        let Some(t) = Jequier::throw_to_use(state) else {
            return false;
        };
        let (forward, backward) = self.origins(state, t);
        kernel::is_one_per_origin(mv, forward | backward, Jequier::move_of(t, backward))
    }

    #[inline]
    fn play_unchecked(&self, state: &mut JequierState, mv: Move) {
        let Some((me, t)) = state.turn.start_move() else {
            return;
        };
        if let Some((from, landing)) = kernel::single_step(mv) {
            apply_step(state, me, from, landing);
        }
        // J-4: 1, 4 and 6 give another throw, even when the throw could not be used.
        if !kernel::extra_throw_on_1_4_6(t.get()) {
            state.turn.to_move = me.opponent();
        }
    }

    fn validate(&self, state: &JequierState) -> Result<(), PositionError> {
        let board = &state.board;
        board.check_pieces(PIECES)?;
        board.check_vacant(
            SQ27,
            "sends a piece on to the lowest empty square as it arrives (J-10)",
        )?;
        board.check_one_finished(PIECES)?;
        for sq in state.extra {
            // Odd squares start White's pieces, even ones Black's (J-1).
            let side = if sq.get() % 2 == 1 {
                Side::White
            } else {
                Side::Black
            };
            if !start_squares(side).contains(sq) {
                return Err(bad_unmoved(
                    &write_unmoved(state.extra),
                    format!("square {sq} is not a starting square (1-10)"),
                ));
            }
            if !board.pieces_of(side).contains(sq) {
                return Err(bad_unmoved(
                    &write_unmoved(state.extra),
                    format!("square {sq} starts a {side} piece, and none stands there"),
                ));
            }
        }
        state.turn.check_throw(
            &self.device(),
            Jequier::finished(board).is_some(),
            "the sticks show 1, 2, 3, 4 or 6 (J-2)",
        )?;
        Ok(())
    }

    fn to_setup(&self, state: &JequierState) -> Setup {
        let mut setup = state.turn.to_setup();
        if state.extra != Jequier::default_unmoved(&state.board) {
            setup.push_field("unmoved", write_unmoved(state.extra));
        }
        setup
    }

    fn read_setup(&self, setup: &Setup) -> Result<JequierState, PositionError> {
        setup.check_fields(Self::FIELD_INFO)?;
        let board = setup.board_with_rest_off(PIECES)?;
        let unmoved = match setup.field("unmoved") {
            Some(value) => parse_unmoved(value)?,
            None => Jequier::default_unmoved(&board),
        };
        self.validated(JequierState {
            turn: TurnState::read_setup(setup, board, 6)?.with_extra(unmoved),
        })
    }

    fn special_squares(&self) -> &'static [SpecialSquares] {
        const {
            &[SpecialSquares::new(
                SquareSet::single(SQ27),
                '~',
                "moves a piece on to the lowest empty square (J-10)",
            )]
        }
    }
}

/// Plays the step of `me`'s piece from `from` to `landing` with every consequence (J-7,
/// J-10, J-11, I-1).
#[inline]
fn apply_step(state: &mut JequierState, me: Side, from: Square, landing: Landing) {
    let board = &mut state.turn.board;
    match landing {
        // Bearing off (J-11).
        Landing::Off => board.bear_off(me, from),
        Landing::On(to) => {
            let opp = me.opponent();
            if board.pieces_of(opp).contains(to) {
                // J-7: the victim goes to the lowest empty square, chosen while the mover
                // still stands on its own square. I-1: it no longer counts as unmoved.
                let refuge = match board.empty_squares().first() {
                    Some(refuge) => refuge,
                    // No empty square: 10 pieces on 30 squares (`validate`) always leave
                    // some, so only junk moves that filled the board get here, and the
                    // victim takes the mover's square, which keeps the board consistent.
                    None => from,
                };
                board.relocate(opp, to, refuge);
                state.turn.extra.remove(to);
            }
            let landing = if to == SQ27 {
                // J-10: on to the lowest empty square, once the mover has left its own.
                board.lowest_empty_after_leaving(from)
            } else {
                to
            };
            board.relocate(me, from, landing);
        }
    }
    state.turn.extra.remove(from);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn state_is_small() {
        assert!(core::mem::size_of::<JequierState>() <= 20);
    }

    #[test]
    fn every_option_combination_round_trips_through_its_spec() {
        let all = senet_core::option_combinations::<Jequier>().unwrap();
        assert_eq!(all.len(), 8);
        for rules in all {
            assert_eq!(Jequier::from_spec(&rules.spec()), Ok(rules));
        }
    }

    #[test]
    fn unmoved_field_round_trips() {
        assert_eq!(parse_unmoved("none"), Ok(SquareSet::EMPTY));
        let set = parse_unmoved("1,3,8").unwrap();
        assert_eq!(write_unmoved(set), "1,3,8");
        assert!(parse_unmoved("1,1").is_err());
        assert!(parse_unmoved("x").is_err());
        assert!(parse_unmoved("31").is_err());
    }
}
