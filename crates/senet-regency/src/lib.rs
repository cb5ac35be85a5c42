//! The "simple" Senet of the Regency Chess rules sheet, for the `senet` engine.
//!
//! Five pieces a side, four throwing sticks (no marked side counts 6), extra throws on 1, 4
//! and 6, swaps on attack, pairs that protect, blockades of three, the square 27 that sends a
//! piece back to the start, and no backward moves: a throw that cannot be used is lost. The
//! rule ids (`R-1` … `R-15`, `I-1` … `I-6`) are defined and explained in `docs/rules/regency.md`.
//!
//! Black is the even set (the sheet's first player), White the odd set.
//!
//! ```
//! use senet_regency::Regency;
//! use senet_core::{Game, Phase, Side, Throw};
//!
//! let mut game = Game::new(Regency::default());
//! // The forced opening move 10→11 (R-4) has been made; Black throws again.
//! assert_eq!(game.phase(), Phase::Throw(Side::Black));
//! game.throw(Throw::at(2)).unwrap();
//! let moves: Vec<String> = game.legal_moves().iter().map(|m| m.to_string()).collect();
//! assert_eq!(moves, ["8-10", "11-13"]); // 2, 4 and 6 would land on their own pieces (R-9)
//! game.play("8-10".parse().unwrap()).unwrap();
//! assert_eq!(game.phase(), Phase::Throw(Side::White)); // a 2 ends the turn (R-6)
//! ```

#![cfg_attr(not(feature = "std"), no_std)]
#![forbid(unsafe_code)]
#![deny(missing_docs)]

extern crate alloc;

mod batch;

use alloc::string::ToString;
use senet_core::Throw;
use senet_core::{
    BitBoard, FieldInfo, Move, MoveList, Outcome, PerSide, Phase, PositionError, Ruleset, SeatRule,
    Setup, Side, SpecError, SpecialSquares, Square, SquareSet, Sticks, TurnState, kernel,
};
use senet_core::{Place, kernel::Landing};

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
const SQ27: Square = Square::at(27);
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
        /// throw until a 2 or 3, then spend the held throws in any order (as Kendall's K-4)
        pub collect_throws: bool = false, rules "R-6, R-7, I-4, I-6", with_collect_throws;
    }
    check Regency::check_options;
}

/// The most throws of one value a side holds under `collect_throws` (I-6): 31 ones, 15 fours,
/// 15 sixes; a further throw of that value is not held. Reaching a limit needs 32 ones or 16
/// fours (or sixes) before the turn's 2 or 3: probability (4/14)^32 ≈ 4·10^-18 and
/// (1/11)^16 ≈ 2·10^-17 per turn.
const HELD_LIMITS: [(u8, u16); 3] = [(1, 31), (4, 15), (6, 15)];

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

    /// Both exit options replace R-14: they cannot be combined. Nor can the two readings of a
    /// lost extra throw: with `collect_throws` every throw is made before any is spent (I-6).
    fn check_options(&self) -> Result<(), SpecError> {
        if self.exits_from_28_29_30 && self.exit_beyond_30 {
            return Err(SpecError::Conflict {
                first: "exits_from_28_29_30",
                second: "exit_beyond_30",
                reason: "both replace R-14",
            });
        }
        if self.lost_throw_keeps_extra_throw && self.collect_throws {
            return Err(SpecError::Conflict {
                first: "lost_throw_keeps_extra_throw",
                second: "collect_throws",
                reason: "with collected throws no throw is lost before the throwing ends",
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
            let exit_from = Place::OFF_CODE - t;
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

    /// I-6: under `collect_throws`, whether R-5 binds: White has not opened and its piece on 9
    /// can move with some held throw.
    fn nine_must_move(&self, state: &RegencyState) -> bool {
        state.to_move == Side::White
            && !state.white_opened()
            && THROW_VALUES.iter().any(|&v| {
                state.held(v) != 0 && self.movable(&state.board, Side::White, v.get()).has(9)
            })
    }

    /// I-6: the moves of the held throws, each naming its throw; a plain pass when none
    /// moves anything (every held throw is lost).
    fn generate_collected(&self, state: &RegencyState, moves: &mut MoveList) {
        moves.clear();
        if state.collecting() || Regency::finished(&state.board).is_some() {
            return;
        }
        let only_nine = self.nine_must_move(state);
        for t in THROW_VALUES {
            if state.held(t) == 0 {
                continue;
            }
            let mut origins = self.movable(&state.board, state.to_move, t.get());
            if only_nine {
                origins &= SquareSet::range(9, 9);
            }
            kernel::extend_in_place::<{ PIECES as usize }>(moves, |slots| {
                let mut count = 0;
                for (slot, from) in slots.iter_mut().zip(origins.iter()) {
                    *slot = self.move_from(from, t.get()).with_throw(t);
                    count += 1;
                }
                count
            });
        }
        if moves.is_empty() {
            moves.push(Move::PASS);
        }
    }

    /// I-6: whether `mv` is one of [`generate_collected`](Self::generate_collected)'s moves.
    fn is_legal_collected(&self, state: &RegencyState, mv: Move) -> bool {
        if state.collecting() || Regency::finished(&state.board).is_some() {
            return false;
        }
        if mv.is_pass() {
            // Only the plain pass: no held throw is given up on its own.
            let mut moves = MoveList::new();
            self.generate_collected(state, &mut moves);
            return mv == Move::PASS && moves.as_slice() == [Move::PASS];
        }
        let (Some(t), Some(from)) = (mv.throw(), mv.origin()) else {
            return false;
        };
        if state.held(t) == 0 || mv.step_count() != 1 {
            return false;
        }
        let mut origins = self.movable(&state.board, state.to_move, t.get());
        if self.nine_must_move(state) {
            origins &= SquareSet::range(9, 9);
        }
        origins.contains(from) && self.move_from(from, t.get()).with_throw(t) == mv
    }

    /// I-6: spends the held throw `mv` names (or, with a pass, every held throw); the turn
    /// passes once nothing is held or the side has finished.
    fn play_collected(&self, state: &mut RegencyState, mv: Move) {
        let me = state.to_move;
        if state.collecting() || Regency::finished(&state.board).is_some() {
            return; // no move is due
        }
        // Every generated move but the pass spends a held throw on a step from a square; any
        // other move plays as the pass.
        let step = mv.throw().filter(|&t| state.held(t) != 0);
        if let Some((t, (from, landing))) = step.zip(kernel::single_step(mv)) {
            state.turn.extra.spend(t.get());
            self.apply(&mut state.turn.board, me, from, landing);
            if me == Side::White {
                state.turn.extra.set_opened();
            }
            if state.extra.holds_any() && Regency::finished(&state.board).is_none() {
                return;
            }
        }
        state.turn.extra.end_turn();
        state.turn.to_move = me.opponent();
    }

    /// Plays the step of `me` from `from` to `landing` with every consequence: bearing off, a
    /// swap (R-10), 27 (R-12 or house_of_water).
    #[inline]
    fn apply(&self, board: &mut BitBoard, me: Side, from: Square, landing: Landing) {
        match landing {
            // Bearing off (R-14 or an exit option).
            Landing::Off => board.bear_off(me, from),
            // R-14: a piece reaching 30 is removed at once.
            Landing::On(to) if to == Square::LAST && self.exit() == ExitRule::LandOnThirty => {
                board.bear_off(me, from);
            }
            Landing::On(to) => {
                // R-12 (or house_of_water): the piece does not stay on 27, which is never
                // occupied, so never attacked. R-10: swap; the attacked piece goes to the
                // mover's square.
                let to = if to == SQ27 {
                    let water = self.house_of_water
                        && (board.empty_squares() | SquareSet::single(from)).contains(SQ15);
                    if water {
                        SQ15
                    } else {
                        board.lowest_empty_after_leaving(from)
                    }
                } else {
                    to
                };
                board.swap_or_move(me, from, to);
            }
        }
    }

    /// Reads the fields `throws` and `phase` of `collect_throws` (I-6) into `memory`.
    fn read_held(
        &self,
        setup: &Setup,
        mut memory: RegencyMemory,
    ) -> Result<RegencyMemory, PositionError> {
        let digits = setup.field("throws");
        let phase = setup.choice_field("phase", &["throw", "move"])?;
        if !self.collect_throws {
            if let Some((name, value)) = digits
                .map(|d| ("throws", d))
                .or(phase.map(|p| ("phase", p)))
            {
                return Err(PositionError::BadField {
                    name: name.to_string(),
                    value: value.to_string(),
                    reason: "only with the option collect_throws (I-6)".to_string(),
                });
            }
            return Ok(memory);
        }
        let bad = |value: &str, reason: &str| PositionError::BadField {
            name: "throws".to_string(),
            value: value.to_string(),
            reason: reason.to_string(),
        };
        let digits = digits.unwrap_or("");
        let mut last = None;
        for c in digits.chars() {
            let value = match c {
                '1' | '2' | '3' | '4' | '6' => c as u8 - b'0',
                _ => return Err(bad(digits, "expected throw values 1, 2, 3, 4 or 6 (R-2)")),
            };
            match RegencyMemory::lane(value) {
                Some((_, limit)) if memory.count(value) >= limit as u8 => {
                    return Err(bad(
                        digits,
                        "at most 31 ones, 15 fours and 15 sixes are held (I-6)",
                    ));
                }
                Some(_) => memory.add(value),
                None if last.is_some() => {
                    return Err(bad(digits, "a 2 or 3 ends the throwing: one at most (I-6)"));
                }
                None => last = Some(value),
            }
        }
        let throwing = kernel::read_throwing(setup, !digits.is_empty())?;
        match (last, throwing) {
            (Some(_), true) => Err(PositionError::BadField {
                name: "phase".to_string(),
                value: "throw".to_string(),
                reason: "a 2 or 3 ends the throwing (I-6)".to_string(),
            }),
            (Some(value), false) => {
                memory.add(value);
                Ok(memory)
            }
            (None, true) => Ok(memory),
            (None, false) => {
                memory.set_last(RegencyMemory::LAST_SPENT);
                Ok(memory)
            }
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

    /// The move of the piece on square code `from` with throw `t`, for branch-free generation
    /// (see [`move_from`](Self::move_from)).
    #[inline]
    fn move_of(&self, t: u8) -> impl Fn(u8) -> Move {
        let exit_at = if self.exit() == ExitRule::LandOnThirty {
            SQ30
        } else {
            Place::OFF_CODE
        };
        move |from| {
            let dest = from.wrapping_add(t);
            let to = if dest >= exit_at {
                Place::OFF_CODE
            } else {
                dest
            };
            Move::from_codes_unchecked(from, to)
        }
    }

    fn gives_extra_throw(t: Throw) -> bool {
        // R-6: 1, 4 and 6 give another throw; 2 and 3 end the turn.
        kernel::extra_throw_on_1_4_6(t.get())
    }

    /// The pending throw, while the game goes on (without `collect_throws`).
    #[inline]
    fn throw_to_use(state: &RegencyState) -> Option<u8> {
        state.throw_to_use(Regency::finished(&state.board).is_some())
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

/// The throw values of the sticks (R-2), in the order moves are generated under
/// `collect_throws`.
const THROW_VALUES: [Throw; 5] = [
    Throw::at(1),
    Throw::at(2),
    Throw::at(3),
    Throw::at(4),
    Throw::at(6),
];

/// What a [`RegencyState`] remembers beyond board, side and pending throw: whether White has
/// opened (R-5) and, under option `collect_throws` (I-6), the throws the side to act holds.
/// Read it through [`RegencyState::white_opened`], [`RegencyState::held`] and
/// [`RegencyState::collecting`].
///
/// Sixteen bits, so that the state stays 16 bytes: bit 0 White has opened; bits 1–2 the turn's
/// last throw (0: not thrown yet, the side is still throwing; 1: a 2 held; 2: a 3 held; 3:
/// spent); bits 3–7 the ones held, 8–11 the fours, 12–15 the sixes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct RegencyMemory(u16);

impl RegencyMemory {
    const OPENED: u16 = 1;
    const LAST_SHIFT: u32 = 1;
    const LAST_MASK: u16 = 0b11 << Self::LAST_SHIFT;
    const LAST_SPENT: u16 = 3;

    const fn new(opened: bool) -> RegencyMemory {
        RegencyMemory(opened as u16)
    }

    const fn opened(self) -> bool {
        self.0 & Self::OPENED != 0
    }

    fn set_opened(&mut self) {
        self.0 |= Self::OPENED;
    }

    const fn last(self) -> u16 {
        (self.0 & Self::LAST_MASK) >> Self::LAST_SHIFT
    }

    fn set_last(&mut self, last: u16) {
        self.0 = (self.0 & !Self::LAST_MASK) | (last << Self::LAST_SHIFT);
    }

    /// The shift and limit of the lane of a value that gives another throw.
    const fn lane(value: u8) -> Option<(u32, u16)> {
        match value {
            1 => Some((3, HELD_LIMITS[0].1)),
            4 => Some((8, HELD_LIMITS[1].1)),
            6 => Some((12, HELD_LIMITS[2].1)),
            _ => None,
        }
    }

    /// How many throws of `value` are held.
    const fn count(self, value: u8) -> u8 {
        match (value, Self::lane(value)) {
            (_, Some((shift, limit))) => ((self.0 >> shift) & limit) as u8,
            (2, None) => (self.last() == 1) as u8,
            (3, None) => (self.last() == 2) as u8,
            _ => 0,
        }
    }

    /// Holds one more throw of `value`; a 2 or 3 ends the throwing. Values the sticks cannot
    /// show, and throws past a lane's limit, are ignored.
    fn add(&mut self, value: u8) {
        match (value, Self::lane(value)) {
            (_, Some((shift, limit))) if self.count(value) < limit as u8 => {
                self.0 += 1 << shift;
            }
            (2, None) => self.set_last(1),
            (3, None) => self.set_last(2),
            _ => {}
        }
    }

    /// Spends one held throw of `value`, if there is one.
    fn spend(&mut self, value: u8) {
        if self.count(value) == 0 {
            return;
        }
        match Self::lane(value) {
            Some((shift, _)) => self.0 -= 1 << shift,
            None => self.set_last(Self::LAST_SPENT),
        }
    }

    /// Whether any throw is held.
    const fn holds_any(self) -> bool {
        self.0 >> 3 != 0 || matches!(self.last(), 1 | 2)
    }

    /// Forgets the held throws: the next side starts throwing.
    fn end_turn(&mut self) {
        self.0 &= Self::OPENED;
    }
}

/// A Regency position: the board, the side to act, the pending throw, whether White (the odd
/// set) has made its first move yet (R-5), and under `collect_throws` the held throws (I-6).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct RegencyState {
    turn: TurnState<RegencyMemory>,
}

senet_core::turn_state_deref!(RegencyState, RegencyMemory);

impl RegencyState {
    /// Whether White has made its first move (after which R-5 no longer applies).
    pub fn white_opened(&self) -> bool {
        self.turn.extra.opened()
    }

    /// Under `collect_throws` (I-6), how many throws of `value` the side to act holds; always
    /// 0 otherwise.
    pub fn held(&self, value: Throw) -> u8 {
        self.turn.extra.count(value.get())
    }

    /// Under `collect_throws` (I-6), whether the side to act is still throwing (it has not
    /// thrown its 2 or 3). Meaningless without the option.
    pub fn collecting(&self) -> bool {
        self.turn.extra.last() == 0
    }

    /// The held throws in ascending order (empty without `collect_throws`).
    pub fn held_throws(&self) -> impl Iterator<Item = Throw> + '_ {
        THROW_VALUES
            .into_iter()
            .flat_map(move |v| core::iter::repeat_n(v, usize::from(self.held(v))))
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
    FieldInfo {
        name: "throws",
        values: "digits 1, 2, 3, 4, 6, ascending, e.g. 1146",
        default: "none",
        doc: "option collect_throws: the throws the side to act holds (I-6)",
    },
    FieldInfo {
        name: "phase",
        values: "throw, move",
        default: "move when throws are held, else throw",
        doc: "option collect_throws: whether the side to act is still throwing (I-6)",
    },
];

senet_core::lock_step_batch_rules! {
    /// Regency has a lock-step kernel (`senet_core::batch`) for every configuration but
    /// `collect_throws` and the exit options.
    Regency => batch::Lanes::covering
}

impl Ruleset for Regency {
    type State = RegencyState;
    type Device = Sticks;

    senet_core::ruleset_crate_items! {
        id: "regency",
        name: "Regency (\"simple\" Senet)",
        seat_rule: SeatRule::OnlyOneThrowsOne,
    }

    fn device(&self) -> Sticks {
        // R-2: four sticks, no marked side counts 6.
        Sticks::ZERO_IS_SIX
    }

    fn pieces_per_side(&self) -> u8 {
        PIECES
    }

    const STATE_FEATURES: &'static [&'static str] = &senet_core::kernel::pending_then::<5, 11>([
        "white_opened",
        "collecting",
        "held_1",
        "held_4",
        "held_6",
    ]);

    fn state_features(&self, state: &Self::State, side: Side, out: &mut [f32]) {
        senet_core::kernel::pending_throw_features(state.pending_throw(), out);
        let _ = side;
        out[6] = f32::from(u8::from(state.white_opened()));
        out[7] = f32::from(u8::from(self.collect_throws() && state.collecting()));
        for (k, value) in [1, 4, 6].into_iter().enumerate() {
            out[8 + k] = f32::from(state.held(Throw::at(value)).min(4)) / 4.0;
        }
    }

    fn initial_state(&self) -> RegencyState {
        // R-4: after the forced first move the even set throws again.
        RegencyState {
            turn: TurnState::new(START, Side::Black, RegencyMemory::new(false)),
        }
    }

    #[inline]
    fn board<'s>(&self, state: &'s RegencyState) -> &'s BitBoard {
        &state.turn.board
    }

    #[inline]
    fn throw_unchecked(&self, state: &mut RegencyState, value: Throw) {
        if self.collect_throws {
            // I-6: held until the 2 or 3 that ends the throwing.
            if state.collecting() {
                state.turn.extra.add(value.get());
            }
        } else {
            state.turn.throw_unchecked(value);
        }
    }

    #[inline]
    fn phase(&self, state: &RegencyState) -> Phase {
        if let Some(winner) = Regency::finished(&state.board) {
            // R-15: the first side to bear off every piece wins.
            Phase::Over(Outcome {
                winner: Some(winner),
                points: PerSide::only(winner, Regency::score(&state.board, winner)),
            })
        } else if self.collect_throws {
            // I-6: throwing until a 2 or 3, then spending the held throws.
            if state.collecting() {
                Phase::Throw(state.to_move)
            } else {
                Phase::Move(state.to_move)
            }
        } else {
            state.turn.phase()
        }
    }

    #[inline]
    fn generate_moves(&self, state: &RegencyState, moves: &mut MoveList) {
        if self.collect_throws {
            self.generate_collected(state, moves);
            return;
        }
        let Some(t) = Regency::throw_to_use(state) else {
            moves.clear();
            return;
        };
        // A piece has at most one move for a throw (see `kernel::assign_one_per_origin` for
        // why the candidates are filled without branching on how many there are). R-7: with
        // no legal move the throw is lost: the only choice is a pass.
        kernel::assign_one_per_origin::<{ PIECES as usize }>(
            moves,
            self.legal_origins(state, t),
            self.move_of(t),
        );
    }

    fn is_legal(&self, state: &RegencyState, mv: Move) -> bool {
        if self.collect_throws {
            return self.is_legal_collected(state, mv);
        }
        let Some(t) = Regency::throw_to_use(state) else {
            return false;
        };
        kernel::is_one_per_origin(mv, self.legal_origins(state, t), self.move_of(t))
    }

    #[inline]
    fn play_unchecked(&self, state: &mut RegencyState, mv: Move) {
        if self.collect_throws {
            self.play_collected(state, mv);
            return;
        }
        let Some((me, t)) = state.turn.start_move() else {
            return; // no move is due
        };
        let Some((from, landing)) = kernel::single_step(mv) else {
            // R-7 / I-4: an unusable throw ends the whole turn, unless the option keeps the
            // extra throw of a 1, 4 or 6.
            if !(self.lost_throw_keeps_extra_throw && Regency::gives_extra_throw(t)) {
                state.turn.to_move = me.opponent();
            }
            return;
        };
        self.apply(&mut state.turn.board, me, from, landing);
        if me == Side::White {
            state.turn.extra.set_opened();
        }
        if !Regency::gives_extra_throw(t) {
            state.turn.to_move = me.opponent();
        }
    }

    fn validate(&self, state: &RegencyState) -> Result<(), PositionError> {
        let board = &state.board;
        board.check_pieces(PIECES)?;
        board.check_vacant(SQ27, "a piece never stays on (R-12)")?;
        if self.exit() == ExitRule::LandOnThirty {
            board.check_vacant(Square::LAST, "bears a piece off as it arrives (R-14)")?;
        }
        board.check_one_finished(PIECES)?;
        let over = Regency::finished(board).is_some();
        state.turn.check_throw(
            &self.device(),
            over,
            "the sticks show 1, 2, 3, 4 or 6 (R-2)",
        )?;
        let memory = state.extra;
        if !self.collect_throws && memory.0 & !RegencyMemory::OPENED != 0 {
            return Err(PositionError::Inconsistent(
                "throws are held only under collect_throws (I-6)".to_string(),
            ));
        }
        if self.collect_throws {
            if let Some(t) = state.throw {
                return Err(PositionError::BadField {
                    name: "throw".to_string(),
                    value: t.to_string(),
                    reason: "with collect_throws the held throws are written throws=… (I-6)"
                        .to_string(),
                });
            }
            if over && memory.holds_any() {
                return Err(PositionError::Inconsistent(
                    "throws are held after the game has ended".to_string(),
                ));
            }
            if !state.collecting() && !memory.holds_any() && !over {
                return Err(PositionError::Inconsistent(
                    "the throwing is over but no throw is held, so the turn has passed (I-6)"
                        .to_string(),
                ));
            }
        }
        Ok(())
    }

    fn to_setup(&self, state: &RegencyState) -> Setup {
        let mut setup = state.turn.to_setup();
        if !state.white_opened() {
            setup.push_field("white_opened", "false");
        }
        kernel::push_held_throws(&mut setup, state.held_throws(), state.collecting());
        setup
    }

    fn read_setup(&self, setup: &Setup) -> Result<RegencyState, PositionError> {
        setup.check_fields(Self::FIELD_INFO)?;
        let board = setup.board_with_rest_off(PIECES)?;
        let turn = TurnState::read_setup(setup, board, 6)?;
        let white_opened = setup.choice_field("white_opened", &["true", "false"])? != Some("false");
        let memory = self.read_held(setup, RegencyMemory::new(white_opened))?;
        self.validated(RegencyState {
            turn: turn.with_extra(memory),
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
                "sends a piece to 15 when 15 is empty (House of Water, R-12)",
            ),
            SpecialSquares::new(
                SquareSet::of([15]),
                '^',
                "the House of Rebirth, where 27 sends a piece (House of Water, R-12)",
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
        // Two free options of two values and one of three (the exits never both), times the
        // three allowed pairs of lost_throw_keeps_extra_throw and collect_throws.
        assert_eq!(all.len(), 36);
        for rules in all {
            assert_eq!(Regency::from_spec(&rules.spec()), Ok(rules));
        }
    }

    /// Found by fuzzing (tests/fuzz_api.rs): with house_of_happiness, a stored throw above
    /// 27 underflowed `27 - t` and panicked in move generation.
    #[test]
    fn odd_throws_never_panic_under_any_option() {
        for rules in senet_core::option_combinations::<Regency>().unwrap() {
            for t in (1..=255u8).filter_map(Throw::new) {
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
