//! The Senet of the CEMEA games research group ("Gruppo di ricerca sul gioco"), for the
//! `senet` engine.
//!
//! Seven pieces a side (five as an option), four throwing sticks (no marked side counts 6) or,
//! as an option, an ordinary die; extra throws on 1, 4 and 6; swaps on attack; **walls**: two
//! pieces of a side side by side cannot be attacked, three in a row cannot be passed either;
//! backward moves when nothing moves forward, and as a last resort a move onto one's own
//! piece, which goes back to the start. Square 26 jumps over 27 with a 1; a piece landing on
//! 27 goes back to 15, or, if 15 is taken, stays and **strands** its side until a 4 takes it
//! off; pieces leave from 28, 29 and 30 with exactly 3, 2 and 1. The rule ids (`C-1` …
//! `C-13`, `I-1` … `I-9`) are defined and explained in `docs/rules/cemea.md`.
//!
//! Black is the even set, which moves first; White is the odd set.
//!
//! ```
//! use senet_cemea::Cemea;
//! use senet_core::{Game, Phase, Side, Throw};
//!
//! let mut game = Game::new(Cemea::default());
//! // No forced opening move (C-3): Black throws first from the starting layout.
//! assert_eq!(game.phase(), Phase::Throw(Side::Black));
//! game.throw(Throw::at(2)).unwrap();
//! let moves: Vec<String> = game.legal_moves().iter().map(|m| m.to_string()).collect();
//! // Every other piece would land on its own neighbour.
//! assert_eq!(moves, ["14-16"]);
//! game.play("14-16".parse().unwrap()).unwrap();
//! assert_eq!(game.phase(), Phase::Throw(Side::White)); // a 2 ends the turn (C-4)
//! ```
//!
//! # Outcomes
//!
//! The winner of [`Outcome`] is the first side to bear off every piece (C-13). Its `points`
//! depend on the mode:
//!
//! - by default the game ends there, and `points` are the pieces each side has borne off
//!   (the winner's is the number of pieces a side);
//! - in the **ancient** mode the game goes on until both sides have finished; the winner is
//!   still the first to finish, so the finishing order is (winner, the other side), and
//!   `points` are the **turns each side took** to finish ([`CemeaState::turns_taken`]).
//!
//! ```
//! use senet_cemea::Cemea;
//! use senet_core::{Outcome, PerSide, Phase, Ruleset, Side, Throw};
//!
//! let rules = Cemea::default().with_ancient(true);
//! // Black's last piece on 30, White's on 28; Black has a 1 to play.
//! let text = format!("{}W.B b throw=1 black_turns=10 white_turns=10", ".".repeat(27));
//! let mut state = rules.parse_position(&text).unwrap();
//! rules.try_play(&mut state, "30-off".parse().unwrap()).unwrap();
//! // Black has finished in its 11th turn; White plays on alone and finishes in its 11th.
//! assert_eq!(state.turns_taken(Side::Black), 11);
//! assert_eq!(rules.phase(&state), Phase::Throw(Side::White));
//! rules.try_throw(&mut state, Throw::at(3)).unwrap();
//! rules.try_play(&mut state, "28-off".parse().unwrap()).unwrap();
//! assert_eq!(
//!     rules.outcome(&state),
//!     Some(Outcome { winner: Some(Side::Black), points: PerSide::both(11) })
//! );
//! ```

#![cfg_attr(not(feature = "std"), no_std)]
#![forbid(unsafe_code)]
#![deny(missing_docs)]

extern crate alloc;

use alloc::format;
use alloc::string::ToString;
use senet_core::kernel::{self, Landing};
use senet_core::{
    BitBoard, FieldInfo, Move, MoveList, Outcome, PerSide, Phase, Place, PositionError, Ruleset,
    SeatRule, Setup, Side, SpecError, SpecialSquares, Square, SquareSet, StandardDevice, Sticks,
    TurnState,
};

mod batch;

/// The revision of this ruleset's behaviour ([`Ruleset::RULES_REVISION`]). Raise it by one
/// whenever a seeded game can come out differently, and note why here:
///
/// - 1: the first release.
pub const RULES_REVISION: u32 = 1;

/// The refuges: pieces on them cannot be attacked, and they are the exits (C-12).
pub const REFUGES: SquareSet = SquareSet::range(28, 30);

/// The square a piece on 26 jumps to with a 1 (C-10).
const JUMP_FROM: u8 = 26;
/// The House of Misfortune (C-11).
const MISFORTUNE: u8 = 27;
/// The House of Rebirth, where a piece from 27 goes back to (C-11).
const REBIRTH: u8 = 15;
/// The step from 26 onto 27 that option `jump_optional` allows beside the jump (I-9).
const STEP_27: Move = Move::from_codes_unchecked(JUMP_FROM, MISFORTUNE);
/// The throw that takes a stranded piece off (C-11).
const STRANDED_EXIT: u8 = 4;
/// The most pieces a side has (C-1); the candidate array of move generation has this size.
const MAX_PIECES: usize = 7;

/// Whether a throw gives another throw after its move (C-4): 1, 4 and 6; 2, 3 (and the
/// die's 5) end the turn.
#[inline]
pub const fn gives_extra_throw(t: u8) -> bool {
    kernel::extra_throw_on_1_4_6(t)
}

senet_core::option_value! {
    /// How many pieces each side plays with (option `pieces`).
    pub enum Pieces {
        /// C-1: seven a side, on 1–14.
        #[default]
        Seven = "7",
        /// Five a side, on 1–10, as in the five-piece copy of the text.
        Five = "5",
    }
}

impl Pieces {
    /// The number of pieces a side.
    pub const fn count(self) -> u8 {
        match self {
            Pieces::Seven => 7,
            Pieces::Five => 5,
        }
    }
}

senet_core::ruleset_options! {
    /// The CEMEA ruleset with its options (defaults: seven pieces, sticks, the game ends with the
    /// first side to finish, and C-9's last-resort landing on one's own piece).
    ///
    /// ```
    /// use senet_cemea::{Cemea, Pieces};
    /// use senet_core::Ruleset;
    /// let rules = Cemea::default().with_pieces(Pieces::Five).with_die(true);
    /// assert_eq!(rules.spec().to_string(), "cemea(pieces=5,die=true)");
    /// assert_eq!(Cemea::from_spec(&"cemea(die=true,pieces=5)".parse().unwrap()), Ok(rules));
    /// assert_eq!(rules.pieces_per_side(), 5);
    /// ```
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
    pub struct Cemea {
        /// pieces a side: 7 on 1-14, or 5 on 1-10 as in the five-piece copy of the text
        pub pieces: Pieces = 7, rules "C-1", with_pieces;
        /// an ordinary die (1-6) replaces the sticks; a 5 ends the turn like a 2 or 3
        pub die: bool = false, rules "C-2, C-4", with_die;
        /// play on until both sides finish; the result is the finishing order and the turns each took
        pub ancient: bool = false, rules "C-13", with_ancient;
        /// as a last resort a move may land on an own piece, which goes back to square 1; off makes it illegal
        pub forced_own_landing: bool = true, rules "C-9, I-1", with_forced_own_landing;
        /// a backward move may attack (C-5, C-6); false: it may land only on an empty square
        pub backward_attack: bool = true, rules "C-5, C-6, I-6", with_backward_attack;
        /// a forced forward landing on an own piece comes before backward moves (needs forced_own_landing)
        pub own_landing_first: bool = false, rules "C-5, C-9, I-1, I-7", with_own_landing_first;
        /// a stranded side's unusable 1 or 6 still gives another throw; false: it passes the turn (C-5)
        pub stranded_keeps_extra_throw: bool = true, rules "C-5, C-11, I-3, I-8",
            with_stranded_keeps_extra_throw;
        /// the jump from 26 is a choice: with a 1 that piece may also step onto 27
        pub jump_optional: bool = false, rules "C-10, I-2, I-9", with_jump_optional;
    }
    check Cemea::check_own_landing;
}

/// Which way the moves of one priority level of I-1 go.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Direction {
    Forward,
    Backward,
}

impl Cemea {
    /// Putting own landings first needs own landings (I-7).
    fn check_own_landing(&self) -> Result<(), SpecError> {
        if self.own_landing_first && !self.forced_own_landing {
            return Err(SpecError::Conflict {
                first: "forced_own_landing",
                second: "own_landing_first",
                reason: "own_landing_first orders the landings that forced_own_landing=false forbids",
            });
        }
        Ok(())
    }

    #[inline]
    fn finished(&self, board: &BitBoard, side: Side) -> bool {
        board.off_count(side) >= self.pieces.count()
    }

    /// The squares from which `me` moves with throw `t`, and which way, following the
    /// priority of I-1: forward moves; else backward moves; else (option
    /// `forced_own_landing`) forward moves onto an own piece, else backward ones. Empty when
    /// the throw is lost. The side must not be stranded. The flag is the step 26→27 of
    /// option `jump_optional` (I-9), a forward move beside the origins' own moves.
    ///
    /// Everything is computed on bitsets: the squares a piece may land on, shifted by the
    /// throw, intersected with the side's pieces, minus the origins a wall of three blocks.
    #[inline]
    fn origins(&self, board: &BitBoard, me: Side, t: u8) -> (SquareSet, Direction, bool) {
        let own = board.pieces_of(me);
        let opp = board.pieces_of(me.opponent());
        let empty = board.empty_squares();
        // C-6/C-7/C-12, I-5: an attack needs a target outside any wall and off the refuges.
        let attackable = opp & !opp.with_neighbour() & !REFUGES;
        let landing = empty | attackable;
        // C-8: a wall of three cannot be passed, either way.
        let runs = opp.run_starts(3);
        let blocked_fwd = SquareSet::passing_forward(runs, t);
        let blocked_back = SquareSet::passing_backward(runs, t);
        // C-10 / I-2: from 26 a 1 means the jump to 28, never a step onto 27.
        let from_26_with_1 = SquareSet::from_bits_truncate(kernel::all_ones_if(t == 1))
            & SquareSet::of_number(JUMP_FROM);

        // (1) Forward: ordinary moves end on 1..=30 (past 30 drops out of the shift)…
        let mut forward = own & landing.backward(t) & !from_26_with_1;
        // …C-12: exits from 28, 29, 30 with exactly 3, 2, 1 (the virtual square 31)…
        forward |= own & SquareSet::of_number(Place::OFF_CODE.wrapping_sub(t)) & REFUGES;
        // …C-10 / I-2: 26 with a 1 jumps to 28, only when 28 is empty.
        if empty.has(28) {
            forward |= own & from_26_with_1;
        }
        forward &= !blocked_fwd;
        // I-9: option jump_optional also lets 26 step onto 27 with a 1.
        let step_27 = self.jump_optional && !(own & from_26_with_1).is_empty() && landing.has(27);
        if !forward.is_empty() || step_27 {
            return (forward, Direction::Forward, step_27);
        }
        // (2) C-5: backward by the throw, same landing rules, never below 1; I-6: without
        // backward attacks, only onto empty squares.
        let back_landing = if self.backward_attack { landing } else { empty };
        let backward = own & back_landing.forward(t) & !blocked_back;
        // (3) C-9 / I-1: onto an own piece, forward first. The jump from 26 never counts as
        // one (I-2: it is illegal whenever 28 holds any piece).
        let onto_own = own & own.backward(t) & !from_26_with_1 & !blocked_fwd;
        // I-7: option own_landing_first plays a forward own landing before backward moves.
        let own_landing = self.forced_own_landing;
        if own_landing && self.own_landing_first && !onto_own.is_empty() {
            return (onto_own, Direction::Forward, false);
        }
        if !backward.is_empty() || !own_landing {
            return (backward, Direction::Backward, false);
        }
        if !onto_own.is_empty() {
            return (onto_own, Direction::Forward, false);
        }
        (
            own & own.forward(t) & !blocked_back,
            Direction::Backward,
            false,
        )
    }

    /// The move of the piece on square code `from` with throw `t` in `direction`: forward to
    /// from + t (31 is off), one further for the jump 26→28; backward to from − t.
    #[inline]
    fn move_from(from: u8, t: u8, direction: Direction) -> Move {
        let to = match direction {
            Direction::Forward => from
                .wrapping_add(t)
                // `&` rather than `&&`: no branch on random data.
                .wrapping_add(u8::from(t == 1) & u8::from(from == JUMP_FROM)),
            Direction::Backward => from.wrapping_sub(t),
        };
        Move::from_codes_unchecked(from, to)
    }

    /// The only move of a stranded side: the piece on 27 leaves with a 4, any other throw is
    /// lost (C-11, I-3).
    #[inline]
    fn stranded_move(t: u8) -> Move {
        if t == STRANDED_EXIT {
            Move::bear_off(Square::at(MISFORTUNE))
        } else {
            Move::PASS
        }
    }

    /// Ends `me`'s turn: counts it (ancient mode) and hands the move to the other side, or
    /// back to `me` when the other side has finished (it no longer plays). After the last
    /// side finishes the move stays with it, so a finished game's side to move is the last
    /// to finish.
    #[inline]
    fn end_turn(&self, state: &mut CemeaState, me: Side) {
        if self.ancient {
            let turns = &mut state.turn.extra.turns[me];
            *turns = turns.saturating_add(1);
        }
        let other = me.opponent();
        state.turn.to_move = if self.finished(&state.board, other) {
            me
        } else {
            other
        };
    }

    /// The first side to finish, for a state where both sides have (ancient mode). The
    /// default of the position notation: the side not to move.
    fn default_first(&self, board: &BitBoard, to_move: Side) -> Option<Side> {
        match (
            self.finished(board, Side::Black),
            self.finished(board, Side::White),
        ) {
            (false, false) => None,
            (true, false) => Some(Side::Black),
            (false, true) => Some(Side::White),
            (true, true) => Some(to_move.opponent()),
        }
    }
}

/// A CEMEA position: the board, the side to act, the pending throw, and what the ancient mode
/// needs to report its result (which side finished first, and the turns each side took).
///
/// A side is **stranded** (C-11) exactly when one of its pieces stands on 27: a piece that
/// lands there with 15 free goes on at once, so the board says it all.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct CemeaState {
    turn: TurnState<CemeaFinish>,
}

/// What a [`CemeaState`] remembers beyond board, side and throw, for the ancient mode's
/// result; read it through [`CemeaState::first_finished`] and [`CemeaState::turns_taken`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct CemeaFinish {
    /// The first side to bear off every piece, once one has.
    first: Option<Side>,
    /// Turns each side has completed (ancient mode only; zero otherwise). A side's turn ends
    /// when the move passes or when it finishes.
    turns: PerSide<u16>,
}

senet_core::turn_state_deref!(CemeaState, CemeaFinish);

impl CemeaState {
    /// The side whose piece waits on 27, unable to move anything until it throws a 4 (C-11).
    pub fn stranded(&self) -> Option<Side> {
        Side::BOTH
            .into_iter()
            .find(|&side| self.board.pieces_of(side).has(MISFORTUNE))
    }

    /// The first side to bear off every piece, once one has.
    pub fn first_finished(&self) -> Option<Side> {
        self.extra.first
    }

    /// In the ancient mode, the turns `side` has completed so far; once it has finished, the
    /// number of turns it took (the turn in which it bore off its last piece included).
    /// Always 0 outside the ancient mode.
    pub fn turns_taken(&self, side: Side) -> u16 {
        self.extra.turns[side]
    }
}

const TURN_FIELDS: PerSide<&str> = PerSide::new("black_turns", "white_turns");

fn read_turns(setup: &Setup, name: &str) -> Result<u16, PositionError> {
    match setup.field(name) {
        None => Ok(0),
        Some(value) => value.parse().map_err(|_| PositionError::BadField {
            name: name.to_string(),
            value: value.to_string(),
            reason: format!("expected a number from 0 to {}", u16::MAX),
        }),
    }
}

const FIELD_INFO: &[FieldInfo] = &[
    FieldInfo::pending_throw(
        "1, 2, 3, 4, 6 (5 too with the die)",
        "the throw the side to act has made and must now use (C-2, C-4)",
    ),
    FieldInfo {
        name: "first",
        values: "b, w",
        default: "the side that has borne off every piece (in a finished ancient game, the side not to move)",
        doc: "the first side to finish (C-13; the ancient option)",
    },
    FieldInfo {
        name: "black_turns",
        values: "0 or more",
        default: "0",
        doc: "turns Black has completed (ancient option only)",
    },
    FieldInfo {
        name: "white_turns",
        values: "0 or more",
        default: "0",
        doc: "turns White has completed (ancient option only)",
    },
];

senet_core::lock_step_batch_rules! {
    /// CEMEA has a lock-step kernel (`senet_core::batch`) for the sticks without the ancient
    /// mode.
    Cemea => batch::Lanes::covering
}

impl Ruleset for Cemea {
    type State = CemeaState;
    type Device = StandardDevice;

    senet_core::ruleset_crate_items! {
        id: "cemea",
        name: "CEMEA (Gruppo di ricerca sul gioco)",
        seat_rule: SeatRule::FirstToThrowOne,
    }

    fn device(&self) -> StandardDevice {
        // C-2: four sticks, no marked side counting 6; option die: 1–6.
        if self.die {
            StandardDevice::SixSidedDie
        } else {
            StandardDevice::Sticks(Sticks::ZERO_IS_SIX)
        }
    }

    fn pieces_per_side(&self) -> u8 {
        self.pieces.count()
    }

    const STATE_FEATURES: &'static [&'static str] =
        &senet_core::kernel::pending_then::<2, 8>(["finished_first", "opponent_finished_first"]);

    fn state_features(&self, state: &Self::State, side: Side, out: &mut [f32]) {
        senet_core::kernel::pending_throw_features(state.pending_throw(), out);
        let first = state.first_finished();
        out[6] = f32::from(u8::from(first == Some(side)));
        out[7] = f32::from(u8::from(first == Some(side.opponent())));
    }

    fn initial_state(&self) -> CemeaState {
        // C-1: the odd set (White) on 1, 3, …, the even set (Black) on 2, 4, …; C-3: the
        // deciding 1 is not played, so the even set opens with a fresh throw.
        CemeaState {
            turn: TurnState::new(
                match self.pieces {
                    Pieces::Seven => const { BitBoard::alternating(Pieces::Seven.count()) },
                    Pieces::Five => const { BitBoard::alternating(Pieces::Five.count()) },
                },
                Side::Black,
                CemeaFinish {
                    first: None,
                    turns: PerSide::both(0),
                },
            ),
        }
    }

    senet_core::forward_turn_state!();

    #[inline]
    fn phase(&self, state: &CemeaState) -> Phase {
        let board = &state.board;
        let black_done = self.finished(board, Side::Black);
        let white_done = self.finished(board, Side::White);
        if self.ancient {
            if black_done && white_done {
                // The finishing order (first, then the other) and the turns each took.
                return Phase::Over(Outcome {
                    winner: state.extra.first.or(Some(state.to_move.opponent())),
                    points: state.extra.turns.map(i32::from),
                });
            }
        } else if black_done || white_done {
            // C-13: the first side to bear off all its pieces wins.
            return Phase::Over(Outcome {
                winner: Some(if black_done { Side::Black } else { Side::White }),
                points: board.off_counts().map(i32::from),
            });
        }
        state.turn.phase()
    }

    #[inline]
    fn generate_moves(&self, state: &CemeaState, moves: &mut MoveList) {
        let Some(t) = state.throw_to_use(matches!(self.phase(state), Phase::Over(_))) else {
            moves.clear();
            return;
        };
        let me = state.to_move;
        let own = state.board.pieces_of(me);
        if own.has(MISFORTUNE) {
            // C-11 / I-3: a stranded side moves nothing until a 4 takes the piece off.
            moves.clear();
            moves.push(Cemea::stranded_move(t));
            return;
        }
        let (origins, direction, step_27) = self.origins(&state.board, me, t);
        // Every origin has exactly one move; C-5 / I-1 (4): with none the throw is lost.
        kernel::assign_one_per_origin::<MAX_PIECES>(moves, origins, |from| {
            Cemea::move_from(from, t, direction)
        });
        if step_27 {
            if origins.is_empty() {
                moves.clear(); // the pass written for no origin
            }
            moves.push(STEP_27);
        }
    }

    fn is_legal(&self, state: &CemeaState, mv: Move) -> bool {
        let Some(t) = state.throw_to_use(matches!(self.phase(state), Phase::Over(_))) else {
            return false;
        };
        let me = state.to_move;
        if state.board.pieces_of(me).has(MISFORTUNE) {
            return mv == Cemea::stranded_move(t);
        }
        let (origins, direction, step_27) = self.origins(&state.board, me, t);
        if mv == STEP_27 {
            return step_27;
        }
        if step_27 && mv.is_pass() {
            return false;
        }
        kernel::is_one_per_origin(mv, origins, |from| Cemea::move_from(from, t, direction))
    }

    #[inline]
    fn play_unchecked(&self, state: &mut CemeaState, mv: Move) {
        let Some((me, t)) = state.turn.start_move() else {
            return;
        };
        let board = &mut state.turn.board;
        match kernel::single_step(mv) {
            None => {
                // C-5: a lost throw passes the turn, whatever its value; I-3: a stranded
                // side's 1, 4 and 6 still give another throw, unless the option of I-8 says
                // otherwise.
                let stranded = board.pieces_of(me).has(MISFORTUNE);
                if !(stranded && self.stranded_keeps_extra_throw && gives_extra_throw(t.get())) {
                    self.end_turn(state, me);
                }
                return;
            }
            // C-12 exits, and C-11's 4 that takes the stranded piece off.
            Some((from, Landing::Off)) => board.bear_off(me, from),
            Some((from, Landing::On(to))) => {
                // C-9: the own piece on the landing square goes to square 1, or the lowest
                // empty square (the square just left counts as empty). The mover takes its
                // place, so only the displaced piece changes squares.
                let lands = if board.pieces_of(me).contains(to) {
                    board.lowest_empty_after_leaving(from)
                } else {
                    to
                };
                // C-6: swap; the attacked piece goes to the square the attacker left.
                board.swap_or_move(me, from, lands);
                if to.get() == MISFORTUNE && board.empty_squares().has(REBIRTH) {
                    // C-11: on to the House of Rebirth if it is empty; else the piece stays
                    // and its side is stranded.
                    board.relocate(me, to, const { Square::at(REBIRTH) });
                }
            }
        }
        let done = self.finished(&state.board, me);
        if done && state.extra.first.is_none() {
            state.turn.extra.first = Some(me);
        }
        // C-4: 1, 4 and 6 give another throw, unless the side has just finished.
        if done || !gives_extra_throw(t.get()) {
            self.end_turn(state, me);
        }
    }

    fn validate(&self, state: &CemeaState) -> Result<(), PositionError> {
        let board = &state.board;
        let pieces = self.pieces.count();
        board.check_pieces(pieces)?;
        let done = PerSide::from_fn(|side| self.finished(board, side));
        let both_done = done == PerSide::both(true);
        if both_done && !self.ancient {
            return Err(PositionError::Inconsistent(
                "both sides have borne off every piece (only the ancient mode plays on)"
                    .to_string(),
            ));
        }
        let expected_first = match done.into_array() {
            [false, false] => None,
            [true, false] => Some(Side::Black),
            [false, true] => Some(Side::White),
            [true, true] => state.extra.first,
        };
        if state.extra.first != expected_first || (both_done && state.extra.first.is_none()) {
            return Err(PositionError::Inconsistent(format!(
                "the first side to finish is recorded as {:?}, but the board says {:?}",
                state.extra.first, expected_first
            )));
        }
        let over = matches!(self.phase(state), Phase::Over(_));
        if self.ancient && !over && done[state.to_move] {
            return Err(PositionError::Inconsistent(format!(
                "{} has borne off every piece and no longer plays",
                state.to_move
            )));
        }
        if !self.ancient
            && let Some((name, turns)) = TURN_FIELDS
                .iter()
                .map(|(side, &name)| (name, state.extra.turns[side]))
                .find(|&(_, turns)| turns != 0)
        {
            return Err(PositionError::BadField {
                name: name.to_string(),
                value: turns.to_string(),
                reason: "turns are counted only in the ancient mode".to_string(),
            });
        }
        let shows = if self.die {
            "the die shows 1 to 6 (option die)"
        } else {
            "the sticks show 1, 2, 3, 4 or 6 (C-2)"
        };
        state.turn.check_throw(&self.device(), over, shows)?;
        Ok(())
    }

    fn to_setup(&self, state: &CemeaState) -> Setup {
        let mut setup = state.turn.to_setup();
        if state.extra.first != self.default_first(&state.board, state.to_move)
            && let Some(first) = state.extra.first
        {
            setup.push_field("first", first.letter());
        }
        for (side, &name) in TURN_FIELDS.iter() {
            let turns = state.extra.turns[side];
            if turns != 0 {
                setup.push_field(name, turns);
            }
        }
        setup
    }

    fn read_setup(&self, setup: &Setup) -> Result<CemeaState, PositionError> {
        setup.check_fields(Self::FIELD_INFO)?;
        let pieces = self.pieces.count();
        let board = setup.board_with_rest_off(pieces)?;
        let default_first = self.default_first(&board, setup.to_move);
        let first = match setup.choice_field("first", &["b", "w"])? {
            None => default_first,
            Some(letter) => {
                let side = if letter == "b" {
                    Side::Black
                } else {
                    Side::White
                };
                if !self.finished(&board, side) {
                    return Err(PositionError::BadField {
                        name: "first".to_string(),
                        value: letter.to_string(),
                        reason: format!("{side} has not borne off every piece"),
                    });
                }
                Some(side)
            }
        };
        let turn = TurnState::read_setup(setup, board, 6)?;
        let turns = PerSide::new(
            read_turns(setup, TURN_FIELDS[Side::Black])?,
            read_turns(setup, TURN_FIELDS[Side::White])?,
        );
        self.validated(CemeaState {
            turn: turn.with_extra(CemeaFinish { first, turns }),
        })
    }

    fn special_squares(&self) -> &'static [SpecialSquares] {
        const {
            &[
                SpecialSquares::new(REFUGES, '*', "refuges, safe from attack (C-12)"),
                SpecialSquares::new(
                    SquareSet::of([MISFORTUNE]),
                    '~',
                    "sends a piece back to 15 (C-11)",
                ),
                SpecialSquares::new(
                    SquareSet::of([REBIRTH]),
                    '^',
                    "where 27 sends a piece (C-11)",
                ),
                SpecialSquares::new(
                    SquareSet::of([JUMP_FROM]),
                    '>',
                    "a 1 from here jumps to 28 (C-10)",
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
        assert!(core::mem::size_of::<CemeaState>() <= 20);
    }

    fn all_option_sets() -> Vec<Cemea> {
        senet_core::option_combinations::<Cemea>().unwrap()
    }

    #[test]
    fn every_option_combination_round_trips_through_its_spec() {
        for rules in all_option_sets() {
            assert_eq!(Cemea::from_spec(&rules.spec()), Ok(rules));
        }
        assert_eq!(Cemea::default().spec().to_string(), "cemea");
        assert_eq!(
            Cemea::default()
                .with_forced_own_landing(false)
                .spec()
                .to_string(),
            "cemea(forced_own_landing=false)"
        );
    }

    #[test]
    fn odd_throws_and_moves_never_panic() {
        for rules in all_option_sets() {
            senet_testkit::conformance::play_odd_throws(
                &rules,
                &[Move::from_codes_unchecked(2, 4)],
            );
        }
    }
}
