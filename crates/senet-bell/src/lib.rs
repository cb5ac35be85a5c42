//! R. C. Bell's suggested rules for Senet, for the `senet` engine.
//!
//! Ten pieces a side, one four-sided die, one throw and one forward move per turn, captures
//! that take the attacked piece out of the game, marked squares that protect a piece and must
//! be left first, exact exits, and a game that ends when the board is empty: the side that bore
//! off more pieces wins (a draw is possible). The rule ids (`Be-1` … `Be-9`, `I-1`, `I-2`) are
//! defined in `docs/rules/bell.md`, which also explains the choices made where the text is
//! silent.
//!
//! Black is the even set (Bell's black pieces, which move first), White the odd set.
//!
//! Captured pieces are counted per side in the state ([`BellState::captured`], reported by
//! [`Ruleset::captured`]), so that the pieces on the board, borne off and captured always add
//! up to ten.
//!
//! ```
//! use senet_bell::Bell;
//! use senet_core::{Game, Phase, Side, Throw};
//!
//! let mut game = Game::new(Bell::default());
//! assert_eq!(game.phase(), Phase::Throw(Side::Black));
//! game.throw(Throw::at(1)).unwrap();
//! let moves: Vec<String> = game.legal_moves().iter().map(|m| m.to_string()).collect();
//! assert_eq!(moves, ["2-3", "4-5", "6-7", "8-9", "10-11", "12-13", "14-15", "16-17", "18-19", "20-21"]);
//! game.play("2-3".parse().unwrap()).unwrap(); // captures White's piece on 3 (Be-5)
//! assert_eq!(game.state().captured(Side::White), 1);
//! assert_eq!(game.phase(), Phase::Throw(Side::White)); // no extra throws (Be-4)
//! ```

#![cfg_attr(not(feature = "std"), no_std)]
#![forbid(unsafe_code)]
#![deny(missing_docs)]

extern crate alloc;

mod batch;

use alloc::format;
use senet_core::{
    BitBoard, FieldInfo, FourSidedDie, Move, MoveList, OptionValue, Outcome, PerSide, Phase, Place,
    PositionError, Ruleset, SeatRule, Setup, Side, SpecialSquares, SquareSet, TurnState, kernel,
};

/// The revision of this ruleset's behaviour ([`Ruleset::RULES_REVISION`]). Raise it by one
/// whenever a seeded game can come out differently, and note why here:
///
/// - 1: the first release.
pub const RULES_REVISION: u32 = 1;

/// Pieces per side (Be-1).
pub const PIECES: u8 = 10;

/// The start (Be-1): odd set (White) on 1, 3, …, 19, even set (Black) on 2, 4, …, 20.
const START: BitBoard = BitBoard::alternating(PIECES);

senet_core::option_value! {
    /// Which squares are marked (Be-6): a piece on one cannot be captured, and Be-7 makes a side
    /// leave them first.
    pub enum MarkedSquares {
        /// Bell's five decorated squares 26, 27, 28, 29 and 30 (the default; option value `bell`).
        #[default]
        Bell = "bell",
        /// The squares 15, 26, 27, 28 and 29 that Ludii's encoding tests (option value `ludii`).
        Ludii = "ludii",
    }
}

impl MarkedSquares {
    /// The marked squares as a set.
    ///
    /// ```
    /// use senet_bell::MarkedSquares;
    /// assert_eq!(MarkedSquares::Bell.squares().to_string(), "{26,27,28,29,30}");
    /// assert_eq!(MarkedSquares::Ludii.squares().to_string(), "{15,26,27,28,29}");
    /// ```
    pub const fn squares(self) -> SquareSet {
        match self {
            MarkedSquares::Bell => SquareSet::range(26, 30),
            MarkedSquares::Ludii => {
                SquareSet::from_bits_truncate(SquareSet::range(26, 29).bits() | 1 << 15)
            }
        }
    }

    /// The option value naming this set.
    pub fn name(self) -> &'static str {
        OptionValue::spelling(self)
    }
}

senet_core::ruleset_options! {
    /// Bell's ruleset with its options.
    ///
    /// ```
    /// use senet_bell::{Bell, MarkedSquares};
    /// use senet_core::Ruleset;
    /// let rules = Bell::default().with_marked_squares(MarkedSquares::Ludii).with_compulsory_capture(true);
    /// assert_eq!(rules.spec().to_string(), "bell(marked_squares=ludii,compulsory_capture=true)");
    /// assert_eq!(Bell::from_spec(&rules.spec()).unwrap(), rules);
    /// ```
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
    pub struct Bell {
        /// bell: the marked squares are 26-30; ludii: 15 and 26-29, the set Ludii's encoding tests
        pub marked_squares: MarkedSquares = bell, rules "Be-6, Be-7", with_marked_squares;
        /// when a capture is legal the move must be a capture (Be-7 still comes first)
        pub compulsory_capture: bool = false, rules "Be-5, Be-7", with_compulsory_capture;
    }
}

impl Bell {
    /// The squares from which `me` may move with throw `t`, every rule applied.
    #[inline]
    fn legal_origins(&self, board: &BitBoard, me: Side, t: u8) -> SquareSet {
        let own = board.pieces_of(me);
        let marked = self.marked_squares.squares();
        // Be-5 / Be-6: land on an empty square or capture an opposing piece that is not on a
        // marked square; never on an own piece.
        let capturable = board.pieces_of(me.opponent()) & !marked;
        let landing = board.empty_squares() | capturable;
        // Be-4: exactly t squares forward; Be-8: the one square that leaves with exactly t
        // (31 − t); landings past 31 are simply absent.
        let exit = SquareSet::from_bits_truncate(1u32 << (31 - u32::from(t.min(4))));
        let mut origins = own & (landing.backward(t) | exit);
        // Be-7: pieces on marked squares that can move go first. Throws are random, so select
        // with a mask rather than a branch.
        let from_marked = origins & marked;
        let keep = 0u32.wrapping_sub(u32::from(from_marked.is_empty()));
        origins = SquareSet::from_bits_truncate(from_marked.bits() | origins.bits() & keep);
        if self.compulsory_capture {
            // Option: a capture, when one is legal, must be made (Be-7 first).
            let captures = origins & capturable.backward(t);
            if !captures.is_empty() {
                origins = captures;
            }
        }
        origins
    }

    /// The pending throw while the game goes on; none for a value the die cannot show (only
    /// `throw_unchecked` given another value stores one).
    #[inline]
    fn throw_to_use(state: &BellState) -> Option<u8> {
        state
            .throw_to_use(Bell::over(&state.board))
            .filter(|&t| t <= 4)
    }

    /// The move of the piece on square code `from` with throw `t` (Be-4), off the board
    /// past 30 (Be-8).
    #[inline]
    fn move_of(t: u8) -> impl Fn(u8) -> Move {
        move |from| Move::from_codes_unchecked(from, from.wrapping_add(t))
    }

    /// Be-9: the game is over once neither side has a piece on the board.
    #[inline]
    fn over(board: &BitBoard) -> bool {
        board.all_pieces().is_empty()
    }

    /// Be-9: the side with more pieces borne off wins; equal scores are a draw. The points are
    /// the pieces each side bore off.
    pub fn result(board: &BitBoard) -> Outcome {
        Bell::outcome_of(board.off_counts())
    }

    /// Be-9 from the pieces each side bore off: shared with the batch kernel, whose lanes
    /// keep the counts but no [`BitBoard`].
    fn outcome_of(off: PerSide<u8>) -> Outcome {
        let black = off[Side::Black];
        let white = off[Side::White];
        Outcome {
            winner: match black.cmp(&white) {
                core::cmp::Ordering::Greater => Some(Side::Black),
                core::cmp::Ordering::Less => Some(Side::White),
                core::cmp::Ordering::Equal => None,
            },
            points: off.map(i32::from),
        }
    }
}

/// A Bell position: the board, the pieces each side has lost to captures, the side to act, and
/// the pending throw. The board's "off" counters are the pieces borne off, i.e. each side's
/// score.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct BellState {
    /// Its `extra` counts the pieces of each side captured (out of the game).
    turn: TurnState<PerSide<u8>>,
}

senet_core::turn_state_deref!(BellState, PerSide<u8>);

impl BellState {
    /// Pieces of `side` captured by the opponent: out of the game and scoring for nobody.
    pub fn captured(&self, side: Side) -> u8 {
        self.extra[side]
    }
}

/// The position field holding `side`'s captured pieces.
const fn captured_field(side: Side) -> &'static str {
    match side {
        Side::Black => "captured_b",
        Side::White => "captured_w",
    }
}

const FIELD_INFO: &[FieldInfo] = &[
    FieldInfo::pending_throw(
        "1, 2, 3, 4",
        "the throw the side to act has made and must now use (Be-2, Be-4)",
    ),
    FieldInfo {
        name: "captured_b",
        values: "0 to 10",
        default: "0",
        doc: "Black pieces lost to captures (Be-5)",
    },
    FieldInfo {
        name: "captured_w",
        values: "0 to 10",
        default: "0",
        doc: "White pieces lost to captures (Be-5)",
    },
];

senet_core::lock_step_batch_rules! {
    /// Bell has a lock-step kernel (`senet_core::batch`) for every configuration.
    Bell => batch::Lanes::covering
}

impl Ruleset for Bell {
    type State = BellState;
    type Device = FourSidedDie;

    senet_core::ruleset_crate_items! {
        id: "bell",
        name: "Bell (R. C. Bell's suggested rules)",
        seat_rule: SeatRule::HigherThrow,
    }

    fn device(&self) -> FourSidedDie {
        // Be-2: one four-sided die.
        FourSidedDie
    }

    fn pieces_per_side(&self) -> u8 {
        PIECES
    }

    const STATE_FEATURES: &'static [&'static str] = &senet_core::kernel::PENDING_THROW_FEATURES;

    fn state_features(&self, state: &Self::State, side: Side, out: &mut [f32]) {
        senet_core::kernel::pending_throw_features(state.pending_throw(), out);
        let _ = side;
    }

    fn captured(&self, state: &BellState, side: Side) -> u8 {
        state.captured(side)
    }

    fn initial_state(&self) -> BellState {
        // Be-3: the even set moves first; there is no forced opening move.
        BellState {
            turn: TurnState::new(START, Side::Black, PerSide::both(0)),
        }
    }

    senet_core::forward_turn_state!();

    #[inline]
    fn phase(&self, state: &BellState) -> Phase {
        if Bell::over(&state.board) {
            Phase::Over(Bell::result(&state.board))
        } else {
            state.turn.phase()
        }
    }

    #[inline]
    fn generate_moves(&self, state: &BellState, moves: &mut MoveList) {
        let Some(t) = Bell::throw_to_use(state) else {
            moves.clear();
            return;
        };
        // One move per legal origin, of at most ten pieces; Be-4: with none, the turn passes.
        kernel::assign_one_per_origin::<{ PIECES as usize }>(
            moves,
            self.legal_origins(&state.board, state.to_move, t),
            Bell::move_of(t),
        );
    }

    fn is_legal(&self, state: &BellState, mv: Move) -> bool {
        let Some(t) = Bell::throw_to_use(state) else {
            return false;
        };
        let origins = self.legal_origins(&state.board, state.to_move, t);
        kernel::is_one_per_origin(mv, origins, Bell::move_of(t))
    }

    #[inline]
    fn play_unchecked(&self, state: &mut BellState, mv: Move) {
        let me = state.to_move;
        let opp = me.opponent();
        state.turn.throw = None;
        if !mv.is_pass() {
            let [from, to] = mv.step_codes(0);
            let board = &mut state.turn.board;
            let mut own = board.pieces_of(me).bits();
            let mut theirs = board.pieces_of(opp).bits();
            own &= !(1u32 << (from & 31));
            if to >= Place::OFF_CODE {
                // Be-8: borne off, one point.
                board.set_off(me, board.off_count(me).saturating_add(1));
            } else {
                let target = 1u32 << to;
                if (theirs & target) != 0 {
                    // Be-5: the captured piece leaves the game.
                    theirs &= !target;
                    let lost = &mut state.turn.extra[opp];
                    *lost = lost.saturating_add(1);
                }
                own |= target;
            }
            board.replace_pieces(
                me,
                SquareSet::from_bits_truncate(own),
                SquareSet::from_bits_truncate(theirs),
            );
        }
        // Be-4: the turn passes after one throw. A side with no piece left on the board could
        // never move again, so its turns are skipped (its throws could only be passes).
        if !state.board.pieces_of(opp).is_empty() {
            state.turn.to_move = opp;
        }
    }

    fn validate(&self, state: &BellState) -> Result<(), PositionError> {
        let board = &state.board;
        if let Some(sq) = (board.pieces_of(Side::Black) & board.pieces_of(Side::White)).first() {
            return Err(PositionError::Overlap(sq));
        }
        for side in Side::BOTH {
            let found = u32::from(board.total(side)) + u32::from(state.captured(side));
            if found != u32::from(PIECES) || board.in_hand(side) != 0 {
                return Err(PositionError::PieceCount {
                    side,
                    found: found.min(255) as u8,
                    expected: PIECES,
                });
            }
        }
        let over = Bell::over(board);
        if !over && board.pieces_of(state.to_move).is_empty() {
            return Err(PositionError::Inconsistent(format!(
                "{} is to act with no piece on the board while {} still has pieces (such turns are skipped)",
                state.to_move,
                state.to_move.opponent()
            )));
        }
        state.turn.check_throw(
            &self.device(),
            over,
            "the four-sided die shows 1 to 4 (Be-2)",
        )?;
        Ok(())
    }

    fn to_setup(&self, state: &BellState) -> Setup {
        let mut setup = state.turn.to_setup();
        for side in Side::BOTH {
            if state.captured(side) != 0 {
                setup.push_field(captured_field(side), state.captured(side));
            }
        }
        setup
    }

    fn read_setup(&self, setup: &Setup) -> Result<BellState, PositionError> {
        setup.check_fields(Self::FIELD_INFO)?;
        let mut board = BitBoard::from_pieces(
            setup.board.pieces_of(Side::Black),
            setup.board.pieces_of(Side::White),
        )?;
        let mut captured = PerSide::both(0u8);
        for side in Side::BOTH {
            let lost = setup
                .number_field(captured_field(side), 0, PIECES)?
                .unwrap_or(0);
            captured[side] = lost;
            // Pieces neither on the board nor captured were borne off.
            board.set_rest_off(side, PIECES, lost)?;
        }
        self.validated(BellState {
            turn: TurnState::read_setup(setup, board, 4)?.with_extra(captured),
        })
    }

    fn special_squares(&self) -> &'static [SpecialSquares] {
        const MEANING: &str = "marked: protects its piece (Be-6)";
        match self.marked_squares {
            MarkedSquares::Bell => {
                const {
                    &[SpecialSquares::new(
                        MarkedSquares::Bell.squares(),
                        '*',
                        MEANING,
                    )]
                }
            }
            MarkedSquares::Ludii => {
                const {
                    &[SpecialSquares::new(
                        MarkedSquares::Ludii.squares(),
                        '*',
                        MEANING,
                    )]
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn state_is_small() {
        assert!(core::mem::size_of::<BellState>() <= 16);
    }

    #[test]
    fn every_option_combination_round_trips_through_its_spec() {
        let all = senet_core::option_combinations::<Bell>().unwrap();
        assert_eq!(all.len(), 4);
        for rules in all {
            assert_eq!(Bell::from_spec(&rules.spec()), Ok(rules));
        }
    }
}
