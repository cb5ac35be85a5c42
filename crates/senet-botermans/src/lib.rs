//! The Senet of Botermans et al., *The Book of Games*, for the `senet` engine.
//!
//! Five pieces a side, four throwing sticks (no marked side counts 6), extra throws on 1, 4
//! and 6, swaps on attack, pieces protected by a neighbour of their own side, safe squares
//! 26, 28, 29 and 30, and three traits of its own: a side that cannot move any piece forward
//! must move one **backward**; a throw larger than needed to reach 30 **bounces** back from
//! 30; and square 27 sends a piece to the start. The loser pays a penalty per piece left on
//! the board. The rule ids (`B-1` … `B-14`, `I-1` … `I-7`) are defined and explained in
//! `docs/rules/botermans.md`.
//!
//! Black is the even set, the source's **jackals**, which move first; White is the odd set,
//! the **lions**.
//!
//! ```
//! use senet_botermans::Botermans;
//! use senet_core::{Game, Phase, Side, Throw};
//!
//! let mut game = Game::new(Botermans::default());
//! // The forced opening move 10→11 (B-3) has been made; Black throws again.
//! assert_eq!(game.phase(), Phase::Throw(Side::Black));
//! game.throw(Throw::at(2)).unwrap();
//! let moves: Vec<String> = game.legal_moves().iter().map(|m| m.to_string()).collect();
//! assert_eq!(moves, ["8-10", "11-13"]); // 2, 4 and 6 would land on their own pieces (B-5)
//! game.play("8-10".parse().unwrap()).unwrap();
//! assert_eq!(game.phase(), Phase::Throw(Side::White)); // a 2 ends the turn (B-4)
//! ```
//!
//! # Scores
//!
//! [`Outcome::points`] holds the loser's penalty (B-14) as a **negative** number on the
//! loser's side and 0 on the winner's: 1 point per piece left on 21–30, 2 on 11–20, 3 on
//! 1–10. Adding `points` over a series of games gives each side's running total.

#![cfg_attr(not(feature = "std"), no_std)]
#![forbid(unsafe_code)]
#![deny(missing_docs)]

use senet_core::kernel::{self, Landing};
use senet_core::{
    BitBoard, FieldInfo, Move, MoveList, Outcome, PerSide, Phase, Place, PositionError, Ruleset,
    SeatRule, Setup, Side, SpecialSquares, Square, SquareSet, Sticks, TurnState,
};

mod batch;

/// The revision of this ruleset's behaviour ([`Ruleset::RULES_REVISION`]). Raise it by one
/// whenever a seeded game can come out differently, and note why here:
///
/// - 1: the first release.
pub const RULES_REVISION: u32 = 1;

/// Pieces per side (B-1).
pub const PIECES: u8 = 5;

/// The squares where a piece cannot be attacked (B-8).
pub const SAFE_SQUARES: SquareSet = SquareSet::of([26, 28, 29, 30]);

/// The start (B-1): odd set (White) on 1,3,5,7,9, even set (Black) on 2,4,6,8,10, after the
/// deciding 1 has moved the even set's piece on 10 to 11 (B-3).
const START: BitBoard =
    BitBoard::alternating(PIECES).with_step(Side::Black, Square::at(10), Square::at(11));

/// The square that sends a piece back to the start (B-10).
const RETURN_SQUARE: Square = Square::at(27);
/// The end of the track: reaching it exactly bears a piece off (B-12).
const LAST: u8 = 30;
const THIRTY: SquareSet = SquareSet::range(LAST, LAST);

/// Where a forward move of `t` from square code `from` ends: the square, off when it
/// reaches 30 exactly, or the bounce square 60 − from − t beyond that (B-12).
#[inline]
const fn forward_target(from: u8, t: u8) -> u8 {
    let dest = from.wrapping_add(t);
    if dest < LAST {
        dest
    } else if dest == LAST {
        Place::OFF_CODE
    } else {
        (2 * LAST).wrapping_sub(dest)
    }
}

senet_core::ruleset_options! {
    /// The Botermans ruleset with its options (defaults: the rules as `docs/rules/botermans.md` states them).
    ///
    /// ```
    /// use senet_botermans::Botermans;
    /// use senet_core::Ruleset;
    /// let rules = Botermans::default().with_blockade_of_three(true);
    /// assert_eq!(rules.spec().to_string(), "botermans(blockade_of_three=true)");
    /// let same = Botermans::from_spec(&"botermans(blockade_of_three=true)".parse().unwrap());
    /// assert_eq!(same, Ok(rules));
    /// ```
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
    pub struct Botermans {
        /// no piece may pass three consecutive opposing pieces (as Regency's R-11)
        ///
        /// In either direction; the text is silent (I-5).
        pub blockade_of_three: bool = false, rules "B-5, I-5", with_blockade_of_three;
        /// a backward move may attack (B-9); false: it may land only on an empty square
        ///
        /// The text describes the swap for the square a piece advances to (I-6).
        pub backward_attack: bool = true, rules "B-6, B-9, I-6", with_backward_attack;
        /// a piece may reach 30 exactly before its side is home and wait there, safe (B-8)
        ///
        /// It leaves with any throw once its side is home (I-7).
        pub wait_on_30: bool = false, rules "B-8, B-11, B-12, I-3, I-7", with_wait_on_30;
    }
}

impl Botermans {
    /// The squares from which `me` can move with throw `t`, and whether those moves go
    /// forward (B-9 / I-1: backward moves only when no piece can move forward).
    ///
    /// Everything is computed on bitsets: the squares a piece may land on, shifted by the
    /// throw (or reflected in 30 for bounces), intersected with the side's pieces, minus the
    /// origins the blockade option forbids.
    #[inline]
    fn origins(&self, board: &BitBoard, me: Side, t: u8) -> (SquareSet, bool) {
        let own = board.pieces_of(me);
        let opp = board.pieces_of(me.opponent());
        // B-5: never onto an own piece; B-6/B-7/B-8: an attack needs a target without a
        // neighbour of its own side, off the safe squares. 27 is always empty, so a landing
        // there is allowed and B-10 applies afterwards.
        let attackable = opp & !opp.with_neighbour() & !SAFE_SQUARES;
        let landing = board.empty_squares() | attackable;
        let runs = if self.blockade_of_three {
            opp.run_starts(3)
        } else {
            SquareSet::EMPTY
        };
        // Ordinary forward moves end on 1..=29 (landings past 30 drop out of the shift).
        let mut forward = own & (landing & !THIRTY).backward(t);
        // B-11, B-13, I-3: reaching or passing 30 needs every piece of the side on 21–30.
        if Botermans::home(own) {
            // B-12: exactly 30 bears the piece off; I-7: a piece waiting there leaves with
            // any throw.
            forward |=
                own & (SquareSet::of_number(LAST.wrapping_sub(t)) | (THIRTY & self.waiting_room()));
            // B-12: from s with s + t > 30 the piece lands on 60 − s − t. Reversing the bits
            // of the landing set puts square k on bit 31 − k, so shifting it left by 29 − t
            // puts square 60 − t − s on bit s. The origin itself is an own square, never in
            // `landing`, so a bounce back onto its own start is excluded (I-2).
            let reflected = landing
                .bits()
                .reverse_bits()
                .checked_shl(u32::from(29u8.wrapping_sub(t)))
                .unwrap_or(0);
            forward |= own
                & SquareSet::range((LAST + 1).wrapping_sub(t), LAST - 1)
                & SquareSet::from_bits_truncate(reflected);
        } else {
            // I-7: exactly onto an empty 30, to wait there.
            forward |= own & (board.empty_squares() & self.waiting_room()).backward(t);
        }
        // Option blockade_of_three. A bounce's way back (from 30 down to at least 24) can
        // never pass three opposing pieces in a row, since 27 and 30 never hold a piece.
        forward &= !SquareSet::passing_forward(runs, t);
        if !forward.is_empty() {
            return (forward, true);
        }
        // B-9: backward by the throw, same landing rules, never below square 1 (the shift
        // drops such moves). I-6: without backward attacks, only onto empty squares.
        let back_landing = if self.backward_attack {
            landing
        } else {
            board.empty_squares()
        };
        let backward = own & back_landing.forward(t) & !SquareSet::passing_backward(runs, t);
        (backward, false)
    }

    /// Whether every piece of the side still on the board stands on 21–30 (B-11).
    #[inline]
    fn home(own: SquareSet) -> bool {
        (own & !SquareSet::ROW3).is_empty()
    }

    /// Square 30 when a piece may stand there (option `wait_on_30`), else nothing.
    #[inline]
    fn waiting_room(&self) -> SquareSet {
        if self.wait_on_30 {
            THIRTY
        } else {
            SquareSet::EMPTY
        }
    }

    /// The move of the piece on square code `from` with throw `t`, forward or backward;
    /// `stop_on_30` when a forward move reaching 30 exactly stays there (I-7).
    #[inline]
    fn move_from(from: u8, t: u8, forward: bool, stop_on_30: bool) -> Move {
        let to = if forward {
            if from == LAST {
                // I-7: the waiting piece leaves.
                Place::OFF_CODE
            } else if stop_on_30 && from.wrapping_add(t) == LAST {
                LAST
            } else {
                forward_target(from, t)
            }
        } else {
            from.wrapping_sub(t)
        };
        Move::from_codes_unchecked(from, to)
    }

    /// Whether a forward move of `me` reaching 30 exactly stops there instead of bearing off.
    #[inline]
    fn stops_on_30(&self, board: &BitBoard, me: Side) -> bool {
        self.wait_on_30 && !Botermans::home(board.pieces_of(me))
    }

    #[inline]
    fn finished(board: &BitBoard) -> Option<Side> {
        board.side_with_all_off(PIECES)
    }

    /// The pending throw, while the game goes on.
    #[inline]
    fn throw_to_use(state: &BotermansState) -> Option<u8> {
        state.throw_to_use(Botermans::finished(&state.board).is_some())
    }

    /// B-14: the penalty of `loser`, per piece still on the board: 1 on 21–30, 2 on 11–20,
    /// 3 on 1–10 (a positive number; [`Outcome::points`] holds it negated).
    pub fn penalty(board: &BitBoard, loser: Side) -> i32 {
        board.pieces_of(loser).rows_to_go()
    }
}

/// A Botermans position: the board, the side to act and the pending throw. Nothing else is
/// remembered: whether a side may bear off (B-11) follows from the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct BotermansState {
    turn: TurnState,
}

senet_core::turn_state_deref!(BotermansState, ());

const FIELD_INFO: &[FieldInfo] = &[FieldInfo::pending_throw(
    "1, 2, 3, 4, 6",
    "the throw the side to act has made and must now use (B-2, B-4)",
)];

senet_core::lock_step_batch_rules! {
    /// Botermans has a lock-step kernel (`senet_core::batch`) for every configuration.
    Botermans => batch::Lanes::covering
}

impl Ruleset for Botermans {
    type State = BotermansState;
    type Device = Sticks;

    senet_core::ruleset_crate_items! {
        id: "botermans",
        name: "Botermans (The Book of Games)",
        seat_rule: SeatRule::FirstToThrowOne,
    }

    fn device(&self) -> Sticks {
        // B-2: four sticks, no marked side counts 6.
        Sticks::ZERO_IS_SIX
    }

    fn pieces_per_side(&self) -> u8 {
        PIECES
    }

    const STATE_FEATURES: &'static [&'static str] = &senet_core::kernel::PENDING_THROW_FEATURES;

    fn state_features(&self, state: &Self::State, side: Side, out: &mut [f32]) {
        senet_core::kernel::pending_throw_features(state.pending_throw(), out);
        let _ = side;
    }

    fn initial_state(&self) -> BotermansState {
        // B-3: after the deciding 1 the even set throws again.
        BotermansState {
            turn: TurnState::new(START, Side::Black, ()),
        }
    }

    senet_core::forward_turn_state!();

    #[inline]
    fn phase(&self, state: &BotermansState) -> Phase {
        if let Some(winner) = Botermans::finished(&state.board) {
            // B-14: the first side to bear off every piece wins; the loser's penalty is
            // recorded as a negative score.
            let loser = winner.opponent();
            Phase::Over(Outcome {
                winner: Some(winner),
                points: PerSide::only(loser, -Botermans::penalty(&state.board, loser)),
            })
        } else {
            state.turn.phase()
        }
    }

    #[inline]
    fn generate_moves(&self, state: &BotermansState, moves: &mut MoveList) {
        let Some(t) = Botermans::throw_to_use(state) else {
            moves.clear();
            return;
        };
        let (origins, forward) = self.origins(&state.board, state.to_move, t);
        let stop = self.stops_on_30(&state.board, state.to_move);
        // Every origin has exactly one move (forward or backward by the throw); B-9: with no
        // move either way the throw is lost and the only choice is a pass.
        kernel::assign_one_per_origin::<{ PIECES as usize }>(moves, origins, |from| {
            Botermans::move_from(from, t, forward, stop)
        });
    }

    fn is_legal(&self, state: &BotermansState, mv: Move) -> bool {
        let Some(t) = Botermans::throw_to_use(state) else {
            return false;
        };
        let (origins, forward) = self.origins(&state.board, state.to_move, t);
        let stop = self.stops_on_30(&state.board, state.to_move);
        kernel::is_one_per_origin(mv, origins, |from| {
            Botermans::move_from(from, t, forward, stop)
        })
    }

    #[inline]
    fn play_unchecked(&self, state: &mut BotermansState, mv: Move) {
        let Some((me, t)) = state.turn.start_move() else {
            return;
        };
        let board = &mut state.turn.board;
        match kernel::single_step(mv) {
            None => {
                // B-9: a lost throw ends the turn, whatever its value.
                state.turn.to_move = me.opponent();
                return;
            }
            // B-12: the piece reached 30 exactly and leaves.
            Some((from, Landing::Off)) => board.bear_off(me, from),
            Some((from, Landing::On(to))) => {
                // Forward, backward or bounced: the landing is the same (B-9, B-12). B-10: on
                // to the lowest-numbered empty square (27 is never occupied, so never
                // attacked). B-6: swap; the attacked piece goes to the mover's square.
                let to = if to == RETURN_SQUARE {
                    board.lowest_empty_after_leaving(from)
                } else {
                    to
                };
                board.swap_or_move(me, from, to);
            }
        }
        // B-4: 1, 4 and 6 give another throw; 2 and 3 end the turn.
        if !kernel::extra_throw_on_1_4_6(t.get()) {
            state.turn.to_move = me.opponent();
        }
    }

    fn validate(&self, state: &BotermansState) -> Result<(), PositionError> {
        let board = &state.board;
        board.check_pieces(PIECES)?;
        board.check_vacant(RETURN_SQUARE, "sends every piece on at once (B-10)")?;
        if !self.wait_on_30 {
            // I-7: with the option a piece may wait there.
            board.check_vacant(Square::LAST, "bears a piece off as it arrives (B-12)")?;
        }
        board.check_one_finished(PIECES)?;
        state.turn.check_throw(
            &self.device(),
            Botermans::finished(board).is_some(),
            "the sticks show 1, 2, 3, 4 or 6 (B-2)",
        )?;
        Ok(())
    }

    fn to_setup(&self, state: &BotermansState) -> Setup {
        state.turn.to_setup()
    }

    fn read_setup(&self, setup: &Setup) -> Result<BotermansState, PositionError> {
        setup.check_fields(Self::FIELD_INFO)?;
        let board = setup.board_with_rest_off(PIECES)?;
        self.validated(BotermansState {
            turn: TurnState::read_setup(setup, board, 6)?,
        })
    }

    fn special_squares(&self) -> &'static [SpecialSquares] {
        const {
            &[
                SpecialSquares::new(SAFE_SQUARES, '*', "safe from attack (B-8)"),
                SpecialSquares::new(
                    SquareSet::single(RETURN_SQUARE),
                    '~',
                    "moves a piece on to the lowest empty square (B-10)",
                ),
            ]
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn state_is_small() {
        assert!(core::mem::size_of::<BotermansState>() <= 16);
    }

    #[test]
    fn every_option_combination_round_trips_through_its_spec() {
        for rules in senet_core::option_combinations::<Botermans>().unwrap() {
            assert_eq!(Botermans::from_spec(&rules.spec()), Ok(rules));
        }
    }

    #[test]
    fn forward_targets_bear_off_at_30_and_bounce_beyond() {
        assert_eq!(forward_target(20, 6), 26);
        assert_eq!(forward_target(26, 4), Place::OFF_CODE);
        assert_eq!(forward_target(29, 3), 28);
        assert_eq!(forward_target(25, 6), 29);
        assert_eq!(forward_target(29, 4), 27);
    }

    #[test]
    fn odd_throws_and_moves_never_panic() {
        senet_testkit::conformance::play_odd_throws(&Botermans::default(), &[]);
    }
}
