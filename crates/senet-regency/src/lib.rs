//! The "simple" Senet of the Regency Chess rules sheet, for the `senet` engine.
//!
//! Five pieces a side, four throwing sticks (no marked side counts 6), extra throws on 1, 4
//! and 6, swaps on attack, pairs that protect, blockades of three, the square 27 that sends a
//! piece back to the start, and no backward moves: a throw that cannot be used is lost. The
//! rule ids (`R-1` … `R-15`, `I-1` … `I-5`) are defined and explained in `docs/rules/regency.md`.
//!
//! Black is the even set (the sheet's first player), White the odd set.
//!
//! ```
//! use senet_regency::Regency;
//! use senet_core::{Game, Phase, Side};
//!
//! let mut game = Game::new(Regency::default());
//! // The forced opening move 10→11 (R-4) has been made; Black throws again.
//! assert_eq!(game.phase(), Phase::Throw(Side::Black));
//! game.throw(2).unwrap();
//! let moves: Vec<String> = game.legal_moves().iter().map(|m| m.to_string()).collect();
//! assert_eq!(moves, ["8-10", "11-13"]); // 2, 4 and 6 would land on their own pieces (R-9)
//! game.play("8-10".parse().unwrap()).unwrap();
//! assert_eq!(game.phase(), Phase::Throw(Side::White)); // a 2 ends the turn (R-6)
//! ```

#![cfg_attr(not(feature = "std"), no_std)]
#![forbid(unsafe_code)]
#![deny(missing_docs)]

extern crate alloc;

use alloc::string::ToString;
use senet_core::{
    BitBoard, FieldInfo, Move, MoveList, Outcome, PerSide, Phase, PositionError, Ruleset, SeatRule,
    Setup, Side, SpecError, SpecialSquares, Square, SquareSet, Sticks, TurnState, kernel,
};

/// The revision of this ruleset's behaviour ([`Ruleset::RULES_REVISION`]). Raise it by one
/// whenever a seeded game can come out differently, and note why here:
///
/// - 1: the first release.
pub const RULES_REVISION: u32 = 1;

/// Pieces per side (R-1).
pub const PIECES: u8 = 5;

/// The squares where a piece cannot be attacked (R-10 b).
pub const SAFE_SQUARES: SquareSet = SquareSet::of([26, 28, 29, 30]);

/// The start (R-1): odd set (White) on 1,3,5,7,9, even set (Black) on 2,4,6,8,10, after the
/// even set's forced first move 10→11 with the deciding 1 (R-4).
const START: BitBoard =
    BitBoard::alternating(PIECES).with_step(Side::Black, Square::at(10), Square::at(11));

const SQ15: Square = Square::at(15);
const SQ27: u8 = 27;
const SQ30: u8 = 30;

/// How pieces leave the board: R-14 or one of the two other readings.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum ExitRule {
    /// R-14 (I-2): a move ending exactly on 30 bears the piece off at once; moves past 30 are
    /// illegal.
    #[default]
    LandOnThirty,
    /// Option `exits_from_28_29_30` (the sheet's variation 3): a piece leaves from 28 with
    /// exactly 3, from 29 with 2, from 30 with 1; 30 is an ordinary safe square.
    From28To30,
    /// Option `exit_beyond_30` (the other reading of R-14): 30 is an ordinary safe square and a
    /// piece leaves from any square s with exactly 31 − s.
    BeyondThirty,
}

senet_core::ruleset_options! {
    /// The Regency ruleset with its options (all off by default).
    ///
    /// ```
    /// use senet_regency::{ExitRule, Regency};
    /// use senet_core::Ruleset;
    /// let rules = Regency::default().with_house_of_water(true);
    /// assert_eq!(rules.spec().to_string(), "regency(house_of_water=true)");
    /// let same: Regency = Regency::from_spec(&"regency(house_of_water=true)".parse().unwrap()).unwrap();
    /// assert_eq!(same, rules);
    /// assert_eq!(Regency::default().with_exit(ExitRule::From28To30).spec().to_string(),
    ///            "regency(exits_from_28_29_30=true)");
    /// ```
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
    pub struct Regency {
        /// square 26 must be landed on exactly: no move from 25 or below to 27 or beyond
        pub house_of_happiness: bool = false, rules "variation 1", with_house_of_happiness;
        /// a piece landing on 27 goes to 15 (the House of Rebirth) if it is empty
        pub house_of_water: bool = false, rules "R-12, variation 2", with_house_of_water;
        /// pieces leave from 28 with 3, 29 with 2, 30 with 1; 30 becomes an ordinary safe square
        exits_from_28_29_30: bool = false, rules "R-14, variation 3", with_exits_from_28_29_30;
        /// 30 is an ordinary safe square; a piece leaves from square s with exactly 31 - s
        exit_beyond_30: bool = false, rules "R-14, I-2", with_exit_beyond_30;
        /// an unusable 1, 4 or 6 still gives another throw
        pub lost_throw_keeps_extra_throw: bool = false, rules "R-7, I-4",
            with_lost_throw_keeps_extra_throw;
    }
    check Regency::check_exit;
}

impl Regency {
    /// How pieces leave the board (R-14 or an option replacing it): sets the two exit options.
    #[must_use]
    pub const fn with_exit(self, exit: ExitRule) -> Regency {
        self.with_exits_from_28_29_30(matches!(exit, ExitRule::From28To30))
            .with_exit_beyond_30(matches!(exit, ExitRule::BeyondThirty))
    }

    /// The exit rule.
    #[inline]
    pub const fn exit(&self) -> ExitRule {
        if self.exits_from_28_29_30() {
            ExitRule::From28To30
        } else if self.exit_beyond_30() {
            ExitRule::BeyondThirty
        } else {
            ExitRule::LandOnThirty
        }
    }

    /// Both exit options replace R-14: they cannot be combined.
    fn check_exit(&self) -> Result<(), SpecError> {
        if self.exits_from_28_29_30 && self.exit_beyond_30 {
            return Err(SpecError::Conflict {
                first: "exits_from_28_29_30",
                second: "exit_beyond_30",
                reason: "both replace R-14",
            });
        }
        Ok(())
    }

    /// The squares from which the side `me` can legally move with throw `t`, before R-5.
    ///
    /// Everything is computed on bitsets: the squares a piece may land on, shifted back by
    /// the throw, intersected with the side's pieces, minus the origins that R-11 or an
    /// option forbids.
    #[inline]
    fn movable(&self, board: &BitBoard, me: Side, t: u8) -> SquareSet {
        let own = board.pieces_of(me);
        let opp = board.pieces_of(me.opponent());
        // R-13: bearing off only while every piece still on the board is in row 3.
        let bearing_off = (own & !SquareSet::ROW3).is_empty();
        // R-9: never onto an own piece; R-10: an attack needs an unprotected target off the
        // safe squares.
        let attackable = opp & !opp.with_neighbour() & !SAFE_SQUARES;
        let mut landing = board.empty_squares() | attackable;
        if self.exit() == ExitRule::LandOnThirty && !bearing_off {
            // R-14: landing on 30 bears off, so it needs R-13.
            landing &= !SquareSet::range(SQ30, SQ30);
        }
        // R-8: exactly t squares forward; landings past 30 drop out of the shift (R-14).
        let mut origins = own & landing.backward(t);
        if bearing_off && self.exit() != ExitRule::LandOnThirty && t <= 6 {
            // The exit options: leave with exactly 31 − s.
            let exit_from = 31 - t;
            if self.exit() == ExitRule::BeyondThirty || exit_from >= 28 {
                origins |= own & SquareSet::range(exit_from, exit_from);
            }
        }
        // R-11: no passing over three consecutive opposing pieces.
        origins &= !SquareSet::passing_forward(opp.run_starts(3), t);
        if self.house_of_happiness && t >= 2 {
            // Variation 1: no move from a square ≤ 25 to a square ≥ 27 (nor off).
            // Saturating: `throw_unchecked` may have stored any value, and must not panic.
            origins &= !SquareSet::range(27u8.saturating_sub(t), 25);
        }
        origins
    }

    /// The legal origins after R-5 / I-3: White's first move must use its piece on 9 when
    /// that piece can move.
    #[inline]
    fn legal_origins(&self, state: &RegencyState, t: u8) -> SquareSet {
        let origins = self.movable(&state.board, state.to_move, t);
        if state.to_move == Side::White && !state.white_opened() && origins.has(9) {
            SquareSet::range(9, 9)
        } else {
            origins
        }
    }

    /// The move that takes the piece on `from` forward by `t` (a bear-off where it leaves).
    #[inline]
    fn move_from(&self, from: Square, t: u8) -> Move {
        let dest = from.get() + t;
        if dest > SQ30 || (dest == SQ30 && self.exit() == ExitRule::LandOnThirty) {
            Move::bear_off(from)
        } else {
            Move::from_codes_unchecked(from.get(), dest)
        }
    }

    fn gives_extra_throw(t: u8) -> bool {
        // R-6: 1, 4 and 6 give another throw; 2 and 3 end the turn.
        matches!(t, 1 | 4 | 6)
    }

    #[inline]
    fn finished(board: &BitBoard) -> Option<Side> {
        board.side_with_all_off(PIECES)
    }

    /// R-15: the winner scores, per opposing piece still on the board, 3 in row 1, 2 in row 2,
    /// 1 in row 3 (I-5).
    pub fn score(board: &BitBoard, winner: Side) -> i32 {
        board.pieces_of(winner.opponent()).rows_to_go()
    }
}

/// A Regency position: the board, the side to act, the pending throw, and whether White (the
/// odd set) has made its first move yet (R-5).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct RegencyState {
    /// Its `extra` says whether White has opened.
    turn: TurnState<bool>,
}

senet_core::deref_to_turn_state!(RegencyState, bool);

impl RegencyState {
    /// Whether White has made its first move (after which R-5 no longer applies).
    pub fn white_opened(&self) -> bool {
        self.turn.extra
    }
}

const FIELD_INFO: &[FieldInfo] = &[
    FieldInfo::pending_throw(
        "1, 2, 3, 4, 6",
        "the throw the side to act has made and must now use (R-2, R-6)",
    ),
    FieldInfo {
        name: "white_opened",
        values: "true, false",
        default: "true",
        doc: "whether White (the odd set) has made its first move; while false, R-5 applies",
    },
];

impl Ruleset for Regency {
    type State = RegencyState;
    type Device = Sticks;

    const ID: &'static str = "regency";
    const NAME: &'static str = "Regency (\"simple\" Senet)";
    const RULES_REVISION: u32 = RULES_REVISION;
    const FIELD_INFO: &'static [FieldInfo] = FIELD_INFO;
    const SEAT_RULE: SeatRule = SeatRule::OnlyOneThrowsOne;

    senet_core::forward_ruleset_options!();

    fn device(&self) -> Sticks {
        // R-2: four sticks, no marked side counts 6.
        Sticks::ZERO_IS_SIX
    }

    fn pieces_per_side(&self) -> u8 {
        PIECES
    }

    fn initial_state(&self) -> RegencyState {
        // R-4: after the forced first move the even set throws again.
        RegencyState {
            turn: TurnState::new(START, Side::Black, false),
        }
    }

    senet_core::forward_to_turn_state!(turn);

    #[inline]
    fn phase(&self, state: &RegencyState) -> Phase {
        if let Some(winner) = Regency::finished(&state.board) {
            // R-15: the first side to bear off every piece wins.
            Phase::Over(Outcome {
                winner: Some(winner),
                points: PerSide::only(winner, Regency::score(&state.board, winner)),
            })
        } else {
            state.turn.phase()
        }
    }

    #[inline]
    fn generate_moves(&self, state: &RegencyState, moves: &mut MoveList) {
        let t = match state.throw {
            Some(t) if Regency::finished(&state.board).is_none() => t.get(),
            _ => {
                moves.clear();
                return;
            }
        };
        let origins = self.legal_origins(state, t);
        // A piece has at most one move for a throw (see `kernel::assign_one_per_origin` for
        // why the candidates are filled without branching on how many there are).
        let exit_at = if self.exit() == ExitRule::LandOnThirty {
            SQ30
        } else {
            31
        };
        // R-7: with no legal move the throw is lost: the only choice is a pass.
        kernel::assign_one_per_origin::<{ PIECES as usize }>(moves, origins, |from| {
            let dest = from.wrapping_add(t);
            let to = if dest >= exit_at { 31 } else { dest };
            Move::from_codes_unchecked(from, to)
        });
    }

    fn is_legal(&self, state: &RegencyState, mv: Move) -> bool {
        let t = match state.throw {
            Some(t) if Regency::finished(&state.board).is_none() && mv.throw().is_none() => t.get(),
            _ => return false,
        };
        let origins = self.legal_origins(state, t);
        if mv.is_pass() {
            return origins.is_empty();
        }
        match mv.origin() {
            Some(from) if mv.step_count() == 1 && origins.contains(from) => {
                self.move_from(from, t) == mv
            }
            _ => false,
        }
    }

    #[inline]
    fn play_unchecked(&self, state: &mut RegencyState, mv: Move) {
        let me = state.to_move;
        let Some(t) = state.turn.take_throw() else {
            return;
        };
        if mv.is_pass() {
            // R-7 / I-4: an unusable throw ends the whole turn, unless the option keeps the
            // extra throw of a 1, 4 or 6.
            if !(self.lost_throw_keeps_extra_throw && Regency::gives_extra_throw(t)) {
                state.turn.to_move = me.opponent();
            }
            return;
        }
        let [from, to] = mv.step_codes(0);
        let (Ok(from), board) = (Square::new(from), &mut state.turn.board) else {
            return;
        };
        match Square::new(to) {
            Err(_) => {
                // Bearing off (R-14 or an exit option).
                board.bear_off(me, from);
            }
            Ok(to) if to.get() == SQ30 && self.exit() == ExitRule::LandOnThirty => {
                // R-14: a piece reaching 30 is removed at once.
                board.bear_off(me, from);
            }
            Ok(to) => {
                let opp = me.opponent();
                if board.pieces_of(opp).contains(to) {
                    // R-10: swap; the attacked piece goes to the mover's square.
                    board.take(opp, to);
                    board.take(me, from);
                    board.put(opp, from);
                } else {
                    board.take(me, from);
                }
                if to.get() == SQ27 {
                    // R-12 (or house_of_water): the piece does not stay on 27.
                    let empty = board.empty_squares();
                    let dest = if self.house_of_water && empty.contains(SQ15) {
                        SQ15
                    } else {
                        empty.first().unwrap_or(Square::FIRST)
                    };
                    board.put(me, dest);
                } else {
                    board.put(me, to);
                }
            }
        }
        if me == Side::White {
            state.turn.extra = true;
        }
        if !Regency::gives_extra_throw(t) {
            state.turn.to_move = me.opponent();
        }
    }

    fn validate(&self, state: &RegencyState) -> Result<(), PositionError> {
        let board = &state.board;
        board.check_pieces(PIECES)?;
        for side in Side::BOTH {
            if let Some(sq) = board.pieces_of(side).iter().find(|sq| sq.get() == SQ27) {
                return Err(PositionError::ForbiddenSquare {
                    side,
                    square: sq,
                    reason: "a piece never stays on (R-12)",
                });
            }
            if self.exit() == ExitRule::LandOnThirty
                && let Some(sq) = board.pieces_of(side).iter().find(|sq| sq.get() == SQ30)
            {
                return Err(PositionError::ForbiddenSquare {
                    side,
                    square: sq,
                    reason: "bears a piece off as it arrives (R-14)",
                });
            }
        }
        if board.off_count(Side::Black) >= PIECES && board.off_count(Side::White) >= PIECES {
            return Err(PositionError::Inconsistent(
                "both sides have borne off every piece".to_string(),
            ));
        }
        state.turn.check_throw(
            &self.device(),
            Regency::finished(board).is_some(),
            "the sticks show 1, 2, 3, 4 or 6 (R-2)",
        )?;
        Ok(())
    }

    fn to_setup(&self, state: &RegencyState) -> Setup {
        let mut setup = state.turn.to_setup();
        if !state.white_opened() {
            setup.push_field("white_opened", "false");
        }
        setup
    }

    fn read_setup(&self, setup: &Setup) -> Result<RegencyState, PositionError> {
        setup.check_fields(Self::FIELD_INFO)?;
        let board = setup.board_with_rest_off(PIECES)?;
        let turn = TurnState::read_setup(setup, board, 6)?;
        let white_opened = setup.choice_field("white_opened", &["true", "false"])? != Some("false");
        self.validated(RegencyState {
            turn: turn.with_extra(white_opened),
        })
    }

    fn special_squares(&self) -> &'static [SpecialSquares] {
        const SAFE: SpecialSquares =
            SpecialSquares::new(SAFE_SQUARES, '*', "safe from attack (R-10)");
        const PLAIN: &[SpecialSquares] = &[
            SAFE,
            SpecialSquares::new(
                SquareSet::of([27]),
                '~',
                "moves a piece on to the first empty square from 1 (R-12)",
            ),
        ];
        const WATER: &[SpecialSquares] = &[
            SAFE,
            SpecialSquares::new(
                SquareSet::of([27]),
                '~',
                "sends a piece to 15 when it is empty (R-12, house_of_water)",
            ),
            SpecialSquares::new(
                SquareSet::of([15]),
                '^',
                "the House of Rebirth (house_of_water)",
            ),
        ];
        if self.house_of_water { WATER } else { PLAIN }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn state_is_small() {
        assert!(core::mem::size_of::<RegencyState>() <= 16);
    }

    #[test]
    fn every_option_combination_round_trips_through_its_spec() {
        let all = senet_core::option_combinations::<Regency>().unwrap();
        // Two options of two values and one of three (the exits), the two exits never both.
        assert_eq!(all.len(), 24);
        for rules in all {
            assert_eq!(Regency::from_spec(&rules.spec()), Ok(rules));
        }
    }

    /// Found by fuzzing (tests/fuzz_api.rs): with house_of_happiness, a stored throw above
    /// 27 underflowed `27 - t` and panicked in move generation.
    #[test]
    fn odd_throws_never_panic_under_any_option() {
        for rules in senet_core::option_combinations::<Regency>().unwrap() {
            for t in 0..=255u8 {
                let mut state = rules.initial_state();
                rules.throw_unchecked(&mut state, t);
                let moves = rules.legal_moves(&state);
                for mv in &moves {
                    assert!(rules.is_legal(&state, *mv));
                    let mut next = state;
                    rules.play_unchecked(&mut next, *mv);
                }
                let mut next = state;
                rules.play_unchecked(&mut next, Move::from_codes_unchecked(40, 200));
            }
        }
    }

    #[test]
    fn conflicting_exit_options_are_refused() {
        let spec = "regency(exits_from_28_29_30=true,exit_beyond_30=true)"
            .parse()
            .unwrap();
        assert!(matches!(
            Regency::from_spec(&spec),
            Err(SpecError::Conflict { .. })
        ));
    }
}
