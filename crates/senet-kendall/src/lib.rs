//! Timothy Kendall's reconstruction of Senet, for the `senet` engine.
//!
//! Seven pieces a side (or five), four throwing sticks (no marked side counts 5), **stored
//! throws** (a turn throws until a 2 or 3, then spends the throws one at a time in any order),
//! swaps that also work backward, no blockade, the gate of 26, special exits from 26 and 28–30,
//! attacks from 26 that send the victim into the water (27), and the water square itself. The
//! rule ids (`K-1` … `K-17`, `I-1` … `I-6`) are defined in `docs/rules/kendall.md`, which
//! also explains the choices made where the text is silent.
//!
//! Black is the even set (Kendall's cones, the set of whoever first throws a 1), White the odd
//! set (the spools).
//!
//! # Turns and notation
//!
//! Each throw is its own [`Phase::Throw`] step. With stored throws (the default) the side keeps
//! throwing until a 2 or 3; the state then holds the multiset of throws
//! ([`KendallState::stored`]) and every generated move names the throw it spends:
//! `9-12/3`. `pass/4` gives up one throw of 4 where the rules allow declining (K-14 leaving a
//! piece in the water, K-16 declining a bear-off); a plain `pass`, offered only when no stored
//! throw can move anything, gives up every throw left. With `throw_timing=immediate` each
//! throw is used at once, with the same notation.
//!
//! ```
//! use senet_kendall::Kendall;
//! use senet_core::{Game, Phase, Side, Throw};
//!
//! let mut game = Game::new(Kendall::default());
//! // The even set opened 14→15 with the deciding 1 (K-3) and throws afresh (I-5).
//! assert_eq!(game.phase(), Phase::Throw(Side::Black));
//! game.throw(Throw::at(4)).unwrap(); // 1, 4 and 5 give another throw (K-4)
//! assert_eq!(game.phase(), Phase::Throw(Side::Black));
//! game.throw(Throw::at(2)).unwrap(); // a 2 or 3 ends the throwing
//! assert_eq!(game.phase(), Phase::Move(Side::Black));
//! let moves: Vec<String> = game.legal_moves().iter().map(|m| m.to_string()).collect();
//! assert!(moves.contains(&"15-19/4".to_string()) && moves.contains(&"15-17/2".to_string()));
//! game.play("15-19/4".parse().unwrap()).unwrap();
//! // Only the 2 is left.
//! assert!(game.legal_moves().iter().all(|m| m.throw() == senet_core::Throw::new(2)));
//! ```

#![cfg_attr(not(feature = "std"), no_std)]
#![forbid(unsafe_code)]
#![deny(missing_docs)]

extern crate alloc;

use alloc::string::ToString;
use senet_core::kernel::{Landing, all_ones_if};
use senet_core::{
    BitBoard, Move, MoveList, OptionValue, Outcome, PerSide, Phase, Place, PositionError, Ruleset,
    SeatRule, Setup, Side, SpecialSquares, Square, SquareSet, Sticks, Throw, TurnState, kernel,
};

mod batch;
mod state;

use state::{FIELD_INFO, StoredThrows, bad_field, must_move_field};
pub use state::{KendallMemory, KendallState};

/// The revision of this ruleset's behaviour ([`Ruleset::RULES_REVISION`]). Raise it by one
/// whenever a seeded game can come out differently, and note why here:
///
/// - 1: the first release.
pub const RULES_REVISION: u32 = 1;

/// The most throws one turn can hold. A turn reaches it only after 60 throws in a row of 1, 4
/// or 5 (probability (3/8)^60, about 3·10^-26); throws beyond it are not stored.
pub const MAX_STORED_THROWS: u8 = 60;

/// The most pieces a side has (K-1).
const MAX_PIECES: usize = 7;
/// K-15: where a piece leaving the water goes.
const REBIRTH: u8 = 15;
/// K-9: the gate.
const GATE: u8 = 26;
/// K-13: the water.
const WATER: u8 = 27;

const fn bit(n: u8) -> u32 {
    1u32 << n
}

/// Squares an ordinary move (not from 26 or beyond) may end on: at most the gate (K-9).
const UP_TO_GATE: SquareSet = SquareSet::range(1, 26);
/// The squares 28–30 (K-11, K-12).
const LAST_THREE: SquareSet = SquareSet::range(28, 30);

/// Per throw value: the squares 28–30 from which that throw bears a piece off (K-11: 30 with
/// any throw, 29 with 2, 28 with 3).
const EXITS_28_TO_30: [u32; 6] = [
    0,
    bit(30),
    bit(30) | bit(29),
    bit(30) | bit(28),
    bit(30),
    bit(30),
];

/// Per throw value: every square a forward move with that throw bears off from (K-10's 26
/// with 5 and K-11).
const EXITS: [u32; 6] = [
    0,
    bit(30),
    bit(30) | bit(29),
    bit(30) | bit(28),
    bit(30),
    bit(30) | bit(26),
];

/// `MOVES[backward][v][from]`: the move of the piece on `from` with the stored throw `v`,
/// forward or backward, ready to copy into a move list (one load and one store rather than
/// building the move byte by byte). Forward (K-6, K-10, K-11, option trap): to `from + v`,
/// except that every move from 28–30 leaves the board (31), as does 26 with 5. Backward: to
/// `from - v`. Entries for squares no such move starts from, and the spare entry 32 that
/// branch-free generation reads past the last piece, are never counted.
const MOVES: [[[Move; 33]; 6]; 2] = {
    let mut table = [[[Move::PASS; 33]; 6]; 2];
    let mut v = 1;
    while v <= 5 {
        let mut from = 0;
        while from < 32 {
            let ahead = from + v;
            let forward_to = if from >= 28 || ahead > 31 {
                Place::OFF_CODE
            } else {
                ahead as u8
            };
            let backward_to = if from > v { (from - v) as u8 } else { 0 };
            let throw = Throw::at(v as u8);
            table[0][v][from] =
                Move::from_codes_unchecked(from as u8, forward_to).with_throw(throw);
            table[1][v][from] =
                Move::from_codes_unchecked(from as u8, backward_to).with_throw(throw);
            from += 1;
        }
        v += 1;
    }
    table
};

/// The values a throw can show (K-2), in ascending order.
const STORED_VALUES: [Throw; 5] = [
    Throw::at(1),
    Throw::at(2),
    Throw::at(3),
    Throw::at(4),
    Throw::at(5),
];

/// `PASS_SPENDING[v]`: the pass that gives up the stored throw `v` (`pass/v`: K-14, K-16),
/// for `v` in 1..=5.
const PASS_SPENDING: [Move; 6] = {
    let mut table = [Move::PASS; 6];
    let mut v = 1;
    while v <= 5 {
        table[v] = Move::PASS.with_throw(Throw::at(v as u8));
        v += 1;
    }
    table
};

senet_core::option_value! {
    /// How many pieces each side plays with (option `pieces`).
    pub enum PieceCount {
        /// K-1: seven pieces on 1–14, opening 14→15.
        #[default]
        Seven = "7",
        /// Five pieces on 1–10, opening 10→11 (Ludii's "Five Pieces").
        Five = "5",
    }
}

impl PieceCount {
    /// The number of pieces per side.
    pub const fn get(self) -> u8 {
        match self {
            PieceCount::Seven => 7,
            PieceCount::Five => 5,
        }
    }
}

senet_core::option_value! {
    /// When throws are used (option `throw_timing`).
    pub enum ThrowTiming {
        /// K-4: the turn's throws are collected first, then spent one at a time in any order.
        #[default]
        Stored = "stored",
        /// Each throw is used at once for one move before the next throw (Ludii's encoding).
        Immediate = "immediate",
    }
}

impl ThrowTiming {
    /// The option value naming this timing.
    pub fn name(self) -> &'static str {
        OptionValue::spelling(self)
    }
}

senet_core::ruleset_options! {
    /// Kendall's ruleset with its options (all at Kendall's rules by default).
    ///
    /// ```
    /// use senet_kendall::{Kendall, PieceCount, ThrowTiming};
    /// use senet_core::Ruleset;
    /// let rules = Kendall::default().with_pieces(PieceCount::Five).with_trap(true);
    /// assert_eq!(rules.spec().to_string(), "kendall(pieces=5,trap=true)");
    /// assert_eq!(Kendall::from_spec(&rules.spec()).unwrap(), rules);
    /// let immediate = Kendall::default().with_throw_timing(ThrowTiming::Immediate);
    /// assert_eq!(immediate.spec().to_string(), "kendall(throw_timing=immediate)");
    /// ```
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
    pub struct Kendall {
        /// pieces per side: 7 on 1-14 (opening 14-15) or 5 on 1-10 (opening 10-11)
        pub pieces: PieceCount = 7, rules "K-1, K-3", with_pieces;
        /// each side must throw a 1 before it moves; throws before it are lost
        pub starting_throw: bool = false, rules "K-3, K-4", with_starting_throw;
        /// a move from 25 or below that would pass 26 falls into 27 when 27 is empty
        pub trap: bool = false, rules "K-9, K-13", with_trap;
        /// no bearing off while the side has a piece on 1-10
        pub home_row: bool = false, rules "K-10, K-11, K-14, K-16", with_home_row;
        /// stored: throw until a 2 or 3, then spend the throws; immediate: use each throw at once
        pub throw_timing: ThrowTiming = stored, rules "K-4", with_throw_timing;
    }
}

impl Kendall {
    /// K-17: the side that has borne off every piece, if any.
    #[inline]
    fn winner(&self, board: &BitBoard) -> Option<Side> {
        board.side_with_all_off(self.pieces.get())
    }

    /// K-4: 1, 4 and 5 give another throw.
    #[inline]
    const fn gives_another_throw(value: u8) -> bool {
        matches!(value, 1 | 4 | 5)
    }

    /// The moves of a side whose piece is in the water (K-14): that piece is the only one that
    /// may move. Each stored throw may bear it off (a 4), send it back to 15 (if empty) or be
    /// given up (`pass/v`); when neither of the first two is possible for any throw, the only
    /// choice is a plain pass.
    fn water_moves(&self, state: &KendallState, bear_off: bool, moves: &mut MoveList) {
        let to_rebirth = state.board.empty_squares().has(REBIRTH);
        let can_bear_off = bear_off && state.turn.extra.stored.count(4) != 0;
        if !to_rebirth && !can_bear_off {
            moves.push(Move::PASS);
            return;
        }
        let present = state.present();
        for v in STORED_VALUES
            .into_iter()
            .filter(|v| present & (1 << v.get()) != 0)
        {
            if v == 4 && bear_off {
                moves.push(Move::from_codes_unchecked(WATER, Place::OFF_CODE).with_throw(v));
            }
            if to_rebirth {
                moves.push(Move::from_codes_unchecked(WATER, REBIRTH).with_throw(v));
            }
            moves.push(Move::PASS.with_throw(v));
        }
    }

    /// K-15: the squares whose pieces may move this decision: only the piece back from the
    /// water when some stored throw can move it, otherwise every square.
    fn must_move_only(state: &KendallState, reach: &Reach, present: u8) -> SquareSet {
        let chosen = state.turn.extra.must_move[state.to_move];
        if chosen == 0 {
            return SquareSet::ALL;
        }
        let mut rest = present;
        while rest != 0 {
            let v = rest.trailing_zeros() as u8;
            rest &= rest - 1;
            let forward = reach.forward(v);
            let set = if forward.is_empty() {
                reach.backward(v)
            } else {
                forward
            };
            if set.has(chosen) {
                return SquareSet::from_bits_truncate(bit(chosen));
            }
        }
        SquareSet::ALL
    }

    /// Applies the step of `me` from `from_sq` to `landing` with its consequences; returns
    /// whether it ends the turn (K-13, K-14).
    fn apply_step(
        &self,
        state: &mut KendallState,
        me: Side,
        from_sq: Square,
        landing: Landing,
    ) -> bool {
        let opp = me.opponent();
        let board = &mut state.turn.board;
        let to_sq = match landing {
            Landing::On(to) => to,
            Landing::Off => {
                // K-10, K-11, K-14: borne off.
                board.bear_off(me, from_sq);
                return false;
            }
        };
        let (from, to) = (from_sq.get(), to_sq.get());
        if from == WATER {
            // K-14 / K-15: back to 15, which ends the turn; that piece moves next.
            board.relocate(me, from_sq, to_sq);
            state.turn.extra.must_move[me] = to;
            return true;
        }
        if from < GATE && to > GATE {
            // Option trap: the move falls into the water instead (K-13 then ends the turn).
            board.relocate(me, from_sq, const { Square::at(WATER) });
            return true;
        }
        // The ordinary step, on raw bits: whether it attacks is random, so select rather than
        // branch. K-6: the attacked piece goes to the mover's square, or, attacked from 26 on
        // 28–30, into the water (K-12).
        let (from_bit, to_bit) = (bit(from), bit(to));
        let own = board.pieces_of(me).bits();
        let theirs = board.pieces_of(opp).bits();
        let hit = all_ones_if(theirs & to_bit != 0);
        let victim_to = if from == GATE && to >= 28 {
            bit(WATER)
        } else {
            from_bit
        };
        let theirs = (theirs & !to_bit) | (victim_to & hit);
        let own = (own & !from_bit) | to_bit;
        // A piece that must move (K-15) is followed when it is swapped away.
        let followed = &mut state.turn.extra.must_move[opp];
        let follow = (hit != 0) & (*followed == to);
        *followed = if follow { from } else { *followed };
        board.replace_pieces(
            me,
            SquareSet::from_bits_truncate(own),
            SquareSet::from_bits_truncate(theirs),
        );
        // K-13: entering the water by one's own move (a 1 from 26) ends the turn.
        to == WATER
    }

    /// Ends the turn of the side to act: remaining throws are lost, the opponent throws.
    #[inline]
    fn end_turn(state: &mut KendallState) {
        state.turn.extra.stored = StoredThrows::NONE;
        state.turn.to_move = state.to_move.opponent();
        state.turn.extra.throwing = true;
    }
}

/// The start with `pieces` a side: K-1's odd set (White) on 1, 3, … and even set (Black) on
/// 2, 4, …, after the even set's front piece has moved one square with the deciding 1 (K-3,
/// I-5). Evaluated in constants only, where a wrong square fails to compile.
const fn start(pieces: PieceCount) -> BitBoard {
    let front = 2 * pieces.get();
    BitBoard::alternating(pieces.get()).with_step(
        Side::Black,
        Square::at(front),
        Square::at(front + 1),
    )
}

/// Everything the bitset generator needs to know about one position, computed once per
/// decision point and shared by every stored throw value. Raw bits: bit n is square n.
struct Reach {
    own: u32,
    /// Squares an ordinary move may land on: empty, or an opposing piece that K-7 does not
    /// protect (K-6), up to the gate.
    landable: u32,
    /// Bit `26 + v` set when the piece on 26 may move with `v` (K-10, K-12, K-13), bit 31 for
    /// bearing off with 5.
    from_gate: u32,
    /// All ones when the side may bear off (option `home_row`), else zero.
    exits: u32,
    /// All ones when option `trap` is on and 27 is empty, else zero.
    trap: u32,
}

/// Per throw value: the squares from which a forward move would pass 26 (option trap).
const TRAP_ORIGINS: [u32; 6] = {
    let mut table = [0u32; 6];
    let mut v = 1;
    while v <= 5 {
        table[v] = SquareSet::range(GATE + 1 - v as u8, GATE - 1).bits();
        v += 1;
    }
    table
};

impl Reach {
    #[inline]
    fn new(rules: &Kendall, board: &BitBoard, me: Side, bear_off: bool) -> Reach {
        let own = board.pieces_of(me);
        let opp = board.pieces_of(me.opponent());
        let empty = board.empty_squares();
        // K-7: a piece with a neighbour of its own side cannot be attacked.
        let attackable = opp & !opp.with_neighbour();
        let landable = empty | attackable;
        let water_empty = empty.has(WATER);
        // K-12: an attack on 28–30 from 26 needs the water to be empty. K-13 / K-14: a piece
        // enters the water only when it is empty; the piece in it cannot be attacked (K-14
        // names the only ways it leaves).
        let gate_targets = (empty & SquareSet::range(WATER, 30)).bits()
            | (attackable & LAST_THREE).bits() & all_ones_if(water_empty);
        Reach {
            own: own.bits(),
            landable: (landable & UP_TO_GATE).bits(),
            from_gate: gate_targets | u32::from(bear_off) << Place::OFF_CODE,
            exits: all_ones_if(bear_off),
            trap: all_ones_if(rules.trap && water_empty),
        }
    }

    /// The pieces that can move forward by `v` (K-6, K-8, K-9, K-10, K-11, option trap).
    #[inline]
    fn forward(&self, v: u8) -> SquareSet {
        let v = usize::from(v).min(5);
        let origins = self.landable >> v
            | TRAP_ORIGINS[v] & self.trap
            | ((self.from_gate >> (usize::from(GATE) + v)) & 1) << GATE
            | EXITS_28_TO_30[v] & self.exits;
        SquareSet::from_bits_truncate(origins & self.own)
    }

    /// The pieces that can move backward by `v` (K-5, K-6, I-2: not from 27–30, not below 1).
    #[inline]
    fn backward(&self, v: u8) -> SquareSet {
        let landing_from = self.landable << u32::from(v).min(5);
        SquareSet::from_bits_truncate(self.own & UP_TO_GATE.bits() & landing_from)
    }
}

senet_core::lock_step_batch_rules! {
    /// Kendall has two lock-step kernels (`senet_core::batch`): one of a throw and a decision
    /// per step for immediate throws without `starting_throw`, and one whose lanes throw apart
    /// and then decide together for every other configuration.
    Kendall => batch::Lanes::covering, actions batch::actions::ActionLanes::covering
}

impl Ruleset for Kendall {
    type State = KendallState;
    type Device = Sticks;

    senet_core::ruleset_crate_items! {
        id: "kendall",
        name: "Kendall (Timothy Kendall's reconstruction)",
        seat_rule: SeatRule::FirstToThrowOne,
    }

    fn device(&self) -> Sticks {
        // K-2: four sticks, no marked side counts 5.
        Sticks::ZERO_IS_FIVE
    }

    fn pieces_per_side(&self) -> u8 {
        self.pieces.get()
    }

    const STATE_FEATURES: &'static [&'static str] = &senet_core::kernel::pending_then::<8, 14>([
        "throwing",
        "stored_1",
        "stored_2",
        "stored_3",
        "stored_4",
        "stored_5",
        "must_move",
        "opponent_must_move",
    ]);

    fn state_features(&self, state: &Self::State, side: Side, out: &mut [f32]) {
        senet_core::kernel::pending_throw_features(state.pending_throw(), out);
        out[6] = f32::from(u8::from(state.is_throwing()));
        for value in 1..=5u8 {
            out[6 + usize::from(value)] = f32::from(state.stored(Throw::at(value)).min(4)) / 4.0;
        }
        out[12] = f32::from(u8::from(state.must_move(side).is_some()));
        out[13] = f32::from(u8::from(state.must_move(side.opponent()).is_some()));
    }

    fn initial_state(&self) -> KendallState {
        // K-3 / I-5: after the deciding 1 Black throws afresh.
        KendallState {
            turn: TurnState::new(
                match self.pieces {
                    PieceCount::Seven => const { start(PieceCount::Seven) },
                    PieceCount::Five => const { start(PieceCount::Five) },
                },
                Side::Black,
                KendallMemory {
                    stored: StoredThrows::NONE,
                    throwing: true,
                    must_move: PerSide::both(0),
                    white_started: !self.starting_throw,
                },
            ),
        }
    }

    #[inline]
    fn board<'s>(&self, state: &'s KendallState) -> &'s BitBoard {
        &state.turn.board
    }

    #[inline]
    fn phase(&self, state: &KendallState) -> Phase {
        if let Some(winner) = self.winner(&state.board) {
            // K-17. Points: pieces borne off by each side.
            Phase::Over(Outcome {
                winner: Some(winner),
                points: state.board.off_counts().map(i32::from),
            })
        } else if state.turn.extra.throwing {
            Phase::Throw(state.to_move)
        } else {
            Phase::Move(state.to_move)
        }
    }

    #[inline]
    fn throw_unchecked(&self, state: &mut KendallState, throw: Throw) {
        let value = throw.get();
        if !(1..=5).contains(&value) || !state.turn.extra.throwing {
            return;
        }
        // Option starting_throw: White's throws before its first 1 are lost; the 1 counts.
        let counts = if self.starting_throw
            && state.to_move == Side::White
            && !state.turn.extra.white_started
        {
            state.turn.extra.white_started = value == 1;
            value == 1
        } else {
            true
        };
        let last_throw = !Kendall::gives_another_throw(value);
        match self.throw_timing {
            ThrowTiming::Stored => {
                // K-4: collect until a 2 or 3.
                if counts && state.stored_count() < MAX_STORED_THROWS {
                    state.turn.extra.stored.add(value);
                }
                // A 2 or 3 ends the throwing; the turn passes at once if nothing was stored.
                state.turn.extra.throwing = !last_throw;
                if last_throw & state.turn.extra.stored.is_empty() {
                    Kendall::end_turn(state);
                }
            }
            ThrowTiming::Immediate => {
                if counts {
                    state.turn.extra.stored.set_one(value);
                    state.turn.extra.throwing = false;
                } else if last_throw {
                    Kendall::end_turn(state);
                }
            }
        }
    }

    fn generate_moves(&self, state: &KendallState, moves: &mut MoveList) {
        moves.clear();
        if state.turn.extra.throwing || self.winner(&state.board).is_some() {
            return;
        }
        let me = state.to_move;
        let own = state.board.pieces_of(me);
        // Option home_row: no bearing off while a piece is on 1–10.
        let bear_off = !self.home_row || (own & SquareSet::ROW1).is_empty();
        // K-14 holds while the piece in the water has a way out: a 4 (when bearing off is
        // allowed) or an empty 15. Only home_row can take both away; the side then plays its
        // other pieces, since it could otherwise never move again (see the docs).
        if own.has(WATER) && (bear_off || state.board.empty_squares().has(REBIRTH)) {
            self.water_moves(state, bear_off, moves);
            return;
        }
        let reach = Reach::new(self, &state.board, me, bear_off);
        let present = state.present();
        let only = Kendall::must_move_only(state, &reach, present);
        let mut rest = present;
        while rest != 0 {
            let v = rest.trailing_zeros() as u8;
            rest &= rest - 1;
            // K-5 / I-1 / I-6: forward moves (bearing off included) when any exists for this
            // value, otherwise backward ones.
            let forward = reach.forward(v);
            let backward = forward.is_empty();
            let set = if backward { reach.backward(v) } else { forward } & only;
            let table = &MOVES[usize::from(backward)][usize::from(v)];
            // K-16: a bear-off may be declined, losing that throw.
            let bears_off = !backward & (set.bits() & EXITS[usize::from(v)] != 0);
            kernel::extend_in_place::<{ MAX_PIECES + 1 }>(moves, |slots| {
                // Slots are filled without branching on how many are real (past the last
                // piece the lowest bit reads 32, the spare entry, which is not counted):
                // four always, the rest only when more than four pieces can move.
                // The count is kept slot by slot: without a popcount instruction in the
                // baseline x86-64 target, counting the set afterwards costs more.
                let mut bits = set.bits();
                let mut count = 0;
                let (first, more) = slots.split_at_mut(4);
                for slot in first {
                    *slot = table[bits.trailing_zeros() as usize];
                    count += usize::from(bits != 0);
                    bits &= bits.wrapping_sub(1);
                }
                if bits != 0 {
                    for slot in more.iter_mut().take(MAX_PIECES - 4) {
                        *slot = table[bits.trailing_zeros() as usize];
                        count += usize::from(bits != 0);
                        bits &= bits.wrapping_sub(1);
                    }
                }
                slots[count] = PASS_SPENDING[usize::from(v)];
                count + usize::from(bears_off)
            });
        }
        if moves.is_empty() {
            // K-5: no stored throw can move anything; they are all lost.
            moves.push(Move::PASS);
        }
    }

    fn play_unchecked(&self, state: &mut KendallState, mv: Move) {
        let me = state.to_move;
        // K-15: this is the side's next decision; whatever it is, the obligation is over.
        state.turn.extra.must_move[me] = 0;
        let Some(value) = mv.throw().map(Throw::get) else {
            // A plain pass: no stored throw can move, so every one is lost (K-5). With
            // immediate throws the single throw still gives another throw if it is a 1, 4
            // or 5, as it would have while collecting throws.
            let again = self.throw_timing == ThrowTiming::Immediate
                && state.turn.extra.stored.count(1)
                    | state.turn.extra.stored.count(4)
                    | state.turn.extra.stored.count(5)
                    != 0;
            state.turn.extra.stored = StoredThrows::NONE;
            if again {
                state.turn.extra.throwing = true;
            } else {
                Kendall::end_turn(state);
            }
            return;
        };
        state.turn.extra.stored.spend(value);
        let ends_turn = match kernel::single_step(mv) {
            // `pass/v`: K-14 leaving the piece in the water, or K-16 declining a bear-off.
            None => false,
            Some((from, landing)) => self.apply_step(state, me, from, landing),
        };
        if self.winner(&state.board).is_some() {
            state.turn.extra.stored = StoredThrows::NONE;
            state.turn.extra.throwing = true;
        } else if ends_turn || state.turn.extra.stored.is_empty() {
            // K-4: with stored throws the turn is over. With immediate throws a 1, 4 or 5 gives
            // another throw, unless the move itself ended the turn (K-13, K-14). The throw is
            // random, so select the side rather than branch.
            let again = !ends_turn
                & (self.throw_timing == ThrowTiming::Immediate)
                & Kendall::gives_another_throw(value);
            state.turn.extra.stored = StoredThrows::NONE;
            state.turn.extra.throwing = true;
            state.turn.to_move = if again { me } else { me.opponent() };
        }
    }

    fn validate(&self, state: &KendallState) -> Result<(), PositionError> {
        let board = &state.board;
        let n = self.pieces.get();
        board.check_pieces(n)?;
        board.check_one_finished(n)?;
        let held = state.turn.extra.stored.total();
        let throws_text = || kernel::throw_digits(state.stored_throws());
        if held > u32::from(MAX_STORED_THROWS) {
            return Err(bad_field(
                "throws",
                throws_text(),
                "a turn holds at most 60 stored throws",
            ));
        }
        let enders = state.turn.extra.stored.count(2) + state.turn.extra.stored.count(3);
        match self.throw_timing {
            ThrowTiming::Stored if enders > 1 => {
                return Err(bad_field(
                    "throws",
                    throws_text(),
                    "a turn holds at most one 2 or 3: either ends the throwing (K-4)",
                ));
            }
            ThrowTiming::Stored if state.turn.extra.throwing && enders > 0 => {
                return Err(bad_field(
                    "throws",
                    throws_text(),
                    "a 2 or 3 ends the throwing (K-4), so the side cannot still be throwing",
                ));
            }
            ThrowTiming::Immediate if held > 1 || (state.turn.extra.throwing && held > 0) => {
                return Err(bad_field(
                    "throws",
                    throws_text(),
                    "with immediate throws each throw is used before the next one",
                ));
            }
            _ => {}
        }
        if !state.turn.extra.throwing && held == 0 {
            return Err(PositionError::Inconsistent(
                "a move is due but no throw is held".to_string(),
            ));
        }
        if self.winner(board).is_some() && held > 0 {
            return Err(PositionError::Inconsistent(
                "throws are held after the game ended".to_string(),
            ));
        }
        for side in Side::BOTH {
            let square = state.turn.extra.must_move[side];
            if square != 0 && (square > GATE || !board.pieces_of(side).has(square)) {
                return Err(bad_field(
                    must_move_field(side),
                    square,
                    "the piece that must move (K-15) is one of that side's pieces on 1-26",
                ));
            }
        }
        if !state.turn.extra.white_started {
            if !self.starting_throw {
                return Err(bad_field(
                    "white_started",
                    "false",
                    "only the starting_throw option makes a side wait for a 1",
                ));
            }
            if state.to_move == Side::White && held > 0 {
                return Err(PositionError::Inconsistent(
                    "White holds throws before throwing its starting 1".to_string(),
                ));
            }
        }
        Ok(())
    }

    fn to_setup(&self, state: &KendallState) -> Setup {
        // No pending throw to write: throws are stored.
        let mut setup = state.turn.to_setup();
        kernel::push_held_throws(&mut setup, state.stored_throws(), state.turn.extra.throwing);
        for side in Side::BOTH {
            if let Some(sq) = state.must_move(side) {
                setup.push_field(must_move_field(side), sq);
            }
        }
        if !state.turn.extra.white_started {
            setup.push_field("white_started", "false");
        }
        setup
    }

    fn read_setup(&self, setup: &Setup) -> Result<KendallState, PositionError> {
        setup.check_fields(Self::FIELD_INFO)?;
        let n = self.pieces.get();
        let board = setup.board_with_rest_off(n)?;
        let mut stored = StoredThrows::NONE;
        if let Some(digits) = setup.field("throws") {
            if digits.len() > usize::from(MAX_STORED_THROWS) {
                return Err(bad_field(
                    "throws",
                    digits,
                    "a turn holds at most 60 stored throws",
                ));
            }
            for c in digits.chars() {
                match c.to_digit(10) {
                    Some(v @ 1..=5) => stored.add(v as u8),
                    _ => {
                        return Err(bad_field(
                            "throws",
                            digits,
                            "expected throw values 1 to 5, one digit each (K-2)",
                        ));
                    }
                }
            }
        }
        let held = !stored.is_empty();
        let throwing = kernel::read_throwing(setup, held)?;
        let mut must_move = PerSide::both(0u8);
        for side in Side::BOTH {
            must_move[side] = setup
                .number_field(must_move_field(side), 1, 30)?
                .unwrap_or(0);
        }
        let white_started =
            setup.choice_field("white_started", &["true", "false"])? != Some("false");
        let memory = KendallMemory {
            stored,
            throwing,
            must_move,
            white_started,
        };
        self.validated(KendallState {
            turn: TurnState::new(board, setup.to_move, memory),
        })
    }

    fn special_squares(&self) -> &'static [SpecialSquares] {
        const {
            &[
                SpecialSquares::new(
                    SquareSet::of([GATE]),
                    '!',
                    "the gate, reached only exactly (K-9)",
                ),
                SpecialSquares::new(SquareSet::of([WATER]), '~', "the water (K-13, K-14)"),
                SpecialSquares::new(
                    SquareSet::of([REBIRTH]),
                    '^',
                    "where the water sends a piece back (K-14)",
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
        assert!(core::mem::size_of::<KendallState>() <= 24);
    }

    #[test]
    fn every_option_combination_round_trips_through_its_spec() {
        let all = senet_core::option_combinations::<Kendall>().unwrap();
        assert_eq!(all.len(), 32);
        for rules in all {
            assert_eq!(Kendall::from_spec(&rules.spec()), Ok(rules));
        }
    }

    #[test]
    fn stored_throws_count_total_and_mark_exactly_the_stored_values() {
        // Every lane from empty to the most a turn can hold, in every combination of levels.
        let levels = [0u8, 1, 2, 31, 32, MAX_STORED_THROWS];
        for code in 0..6u32.pow(5) {
            let mut stored = StoredThrows::NONE;
            let mut counts = [0u8; 5];
            for v in 1..=5u8 {
                let count = levels[(code / 6u32.pow(u32::from(v) - 1)) as usize % 6];
                counts[usize::from(v - 1)] = count;
                for _ in 0..count {
                    stored.add(v);
                }
            }
            let expected: u8 = (1..=5u8)
                .filter(|&v| counts[usize::from(v - 1)] != 0)
                .map(|v| 1 << v)
                .sum();
            assert_eq!(stored.present(), expected, "{counts:?}");
            for v in 1..=5u8 {
                assert_eq!(stored.count(v), counts[usize::from(v - 1)], "{counts:?}");
            }
            let total: u32 = counts.iter().map(|&c| u32::from(c)).sum();
            assert_eq!(stored.total(), total);
            // Spending and set_one touch their own lane only.
            let mut spent = stored;
            spent.spend(3);
            assert_eq!(spent.count(3), counts[2].saturating_sub(1));
            assert_eq!(spent.count(2), counts[1]);
            let mut one = stored;
            one.set_one(4);
            assert_eq!(one.count(4), 1);
            assert_eq!(one.count(5), counts[4]);
        }
    }

    #[test]
    fn move_table_follows_k_10_and_k_11() {
        let [forward, backward] = &MOVES;
        for v in 1..=5u8 {
            for from in 1..=30u8 {
                let ahead = forward[usize::from(v)][usize::from(from)];
                let expected = match from {
                    28..=30 => Place::OFF_CODE,
                    _ => (from + v).min(31),
                };
                assert_eq!(
                    ahead.step_codes(0),
                    [from, expected],
                    "{from} forward by {v}"
                );
                assert_eq!(ahead.throw(), Throw::new(v));
                if from > v && from <= 26 {
                    let behind = backward[usize::from(v)][usize::from(from)];
                    assert_eq!(behind.step_codes(0), [from, from - v], "{from} back by {v}");
                    assert_eq!(behind.throw(), Throw::new(v));
                }
            }
        }
    }

    #[test]
    fn exit_tables_agree() {
        for v in 1..=5usize {
            assert_eq!(EXITS[v] & !bit(26), EXITS_28_TO_30[v]);
        }
    }
}
