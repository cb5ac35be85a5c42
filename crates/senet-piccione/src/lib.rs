//! Peter Piccione's rules for *King Tut's Game* (1977), for the `senet` engine.
//!
//! Five pieces a side that start **in hand** and enter on square 1 with a throw of 1, four
//! throwing sticks (no marked side counts 5), throws that may be **split** into whole steps
//! among several pieces, no captures, backward moves when nothing can go forward, extra throws
//! on a 5, after entering and on landing on 15 or 26, the square 27 that sends a piece back to
//! hand, and exact exits. The rule ids (`P-1` … `P-12`, `I-1` … `I-4`) are defined and
//! explained in `docs/rules/piccione.md`.
//!
//! Black is the side that moves first, White the other.
//!
//! A split throw is one [`Move`] of up to five steps, written `3-5,8-10`; entering is the step
//! `enter`. Different orders or splits that lead to the same position (with the same extra
//! throws pending) are offered once, as the way with the fewest steps.
//!
//! ```
//! use senet_piccione::Piccione;
//! use senet_core::{Game, Phase, Side, Throw};
//!
//! let mut game = Game::new(Piccione);
//! game.throw(Throw::at(1)).unwrap();
//! let moves: Vec<String> = game.legal_moves().iter().map(|m| m.to_string()).collect();
//! assert_eq!(moves, ["enter"]);
//! game.play("enter".parse().unwrap()).unwrap();
//! // Entering gives another throw, which must move the entered piece (P-3).
//! assert_eq!(game.phase(), Phase::Throw(Side::Black));
//! game.throw(Throw::at(3)).unwrap();
//! let moves: Vec<String> = game.legal_moves().iter().map(|m| m.to_string()).collect();
//! assert_eq!(moves, ["1-4"]);
//! ```

#![cfg_attr(not(feature = "std"), no_std)]
#![forbid(unsafe_code)]
#![deny(missing_docs)]

extern crate alloc;

mod batch;
mod outcomes;

use alloc::format;
use alloc::string::ToString;
use outcomes::{ENTER, Outcomes, PASS};
use senet_core::rand_core::Rng;
use senet_core::{
    BitBoard, FieldInfo, MAX_STEPS, MOVE_LIST_CAPACITY, Move, MoveList, OptionInfo, Outcome,
    PerSide, Phase, Place, PositionError, Ruleset, RulesetSpec, SeatRule, Setup, Side, SpecError,
    SpecialSquares, Square, SquareSet, Sticks, ThrowingDevice, TurnState, play_random_from_list,
};

/// The revision of this ruleset's behaviour ([`Ruleset::RULES_REVISION`]). Raise it by one
/// whenever a seeded game can come out differently, and note why here:
///
/// - 1: the first release.
pub const RULES_REVISION: u32 = 1;

/// Pieces per side (P-1).
pub const PIECES: u8 = 5;

/// The squares whose landing gives an extra throw (P-9).
pub const EXTRA_THROW_SQUARES: SquareSet = SquareSet::of([15, 26]);

/// The square that sends a piece landing on it back to hand (P-10).
pub const RETURN_SQUARE: Square = Square::at(27);

/// The squares from which a piece never moves backward (P-11).
const NO_BACKWARD: u32 = 1 << 28 | 1 << 29 | 1 << 30;
/// Bits of the 30 squares.
const BOARD_BITS: u32 = SquareSet::ALL.bits();
const SQ15: u8 = 15;
const SQ26: u8 = 26;
const SQ27: u8 = 27;
/// Positions kept in the linear table of a search; longer lists use a hash table with twice
/// as many slots as a move list holds.
const SHORT_LIST: usize = 64;
const LARGE_TABLE: usize = 2 * MOVE_LIST_CAPACITY;
/// The choices [`Piccione`]'s `play_random_move` lists first; random games rarely meet more.
const RANDOM_CHOICES: usize = 64;

/// The Piccione ruleset. It has no options.
///
/// ```
/// use senet_piccione::Piccione;
/// use senet_core::Ruleset;
/// assert_eq!(Piccione.spec().to_string(), "piccione");
/// assert!(Piccione::OPTIONS.is_empty());
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Piccione;

/// A Piccione position: the board (with pieces in hand), the side to act, the pending throw,
/// the extra throws earned and not yet taken, and whether the current throw must move the
/// piece that has just entered (P-3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PiccioneState {
    turn: TurnState<PiccioneExtra>,
}

/// What a [`PiccioneState`] remembers beyond board, side and throw; read it through
/// [`PiccioneState::extra_throws`] and [`PiccioneState::entered_must_move`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PiccioneExtra {
    /// Extra throws the side to act will take once the current throw is used up (P-2, P-3,
    /// P-9).
    extra_throws: u8,
    /// P-3: the throw after an entry must move the piece on square 1.
    entered_must_move: bool,
}

senet_core::turn_state_deref!(PiccioneState, PiccioneExtra);

impl PiccioneState {
    /// Extra throws earned by the side to act and not yet taken.
    pub fn extra_throws(&self) -> u8 {
        self.extra.extra_throws
    }

    /// Whether the current (or next) throw must move the piece that has just entered on
    /// square 1 (P-3).
    pub fn entered_must_move(&self) -> bool {
        self.extra.entered_must_move
    }
}

/// What a partial move has done so far to the side that moves (the opponent never changes:
/// there are no captures), packed in one word: the side's squares (bits 0..32), its pieces
/// in hand (bits 32..40) and off (bits 40..48), landings on 15 or 26 so far (bits 48..56,
/// P-9), and whether a step has left square 1 (bit 56, the entered piece under P-3).
#[derive(Clone, Copy)]
struct Node(u64);

impl Node {
    const HAND: u64 = 1 << 32;
    const OFF: u64 = 1 << 40;
    const EXTRA: u64 = 1 << 48;
    const MOVED_FROM_ONE: u64 = 1 << 56;

    fn new(mine: u32, hand: u8, off: u8) -> Node {
        Node(u64::from(mine) + u64::from(hand) * Node::HAND + u64::from(off) * Node::OFF)
    }

    /// The side's squares.
    #[inline]
    fn mine(self) -> u32 {
        self.0 as u32
    }

    /// The side's pieces in hand.
    #[inline]
    fn hand(self) -> u8 {
        (self.0 >> 32) as u8
    }

    /// The side's pieces off.
    #[inline]
    fn off(self) -> u8 {
        (self.0 >> 40) as u8
    }

    /// The landings on 15 or 26 so far (P-9).
    #[inline]
    fn landings(self) -> u8 {
        (self.0 >> 48) as u8
    }

    /// Whether a step has left square 1.
    #[inline]
    fn moved_from_one(self) -> bool {
        self.0 & Node::MOVED_FROM_ONE != 0
    }

    /// What a piece arriving at each place code adds to a node: its square, or a piece off
    /// (P-11), or a piece back in hand from 27 (P-10); and a landing on 15 or 26 (P-9).
    const ARRIVALS: [u64; 32] = {
        let mut arrivals = [0; 32];
        let mut to = 1;
        while to < 32 {
            arrivals[to] = match to as u8 {
                Place::OFF_CODE => Node::OFF,
                SQ27 => Node::HAND,
                SQ15 | SQ26 => (1 << to) + Node::EXTRA,
                _ => 1 << to,
            };
            to += 1;
        }
        arrivals
    };

    /// The node after the piece on `from` steps to the place code `to`, without branches.
    #[inline]
    fn step(self, from: u8, to: u8) -> Node {
        let arrival = Node::ARRIVALS[usize::from(to & 31)];
        let left_one = u64::from(from == 1) * Node::MOVED_FROM_ONE;
        Node(((self.0 & !(1 << from)) + arrival) | left_one)
    }

    /// Identifies the position a complete move leads to: two moves with the same key are the
    /// same choice.
    #[inline]
    fn key(self) -> u64 {
        self.0 & (Node::MOVED_FROM_ONE - 1)
    }
}

/// Where the piece that stepped from `from` to the place code `to` stands now: `to`, or 0 in
/// hand or off.
#[inline]
fn landed(to: u8) -> u8 {
    if to != Place::OFF_CODE && to != SQ27 {
        to
    } else {
        0
    }
}

/// Whether some single step of length 1..=`r` exists for a piece of `mine`, in the given
/// direction (P-5, P-11; 27 is always empty, and a step onto it is legal).
#[inline]
fn any_step(mine: u32, empty: u32, r: u8, forward: bool) -> bool {
    let mut reach = 0;
    if forward {
        for k in 1..=r {
            reach |= mine & (empty >> k);
        }
        // P-11: an exact exit from s needs 31 − s, so s ≥ 31 − r.
        reach |= mine & !((1u32 << (31 - r.min(30))) - 1) & BOARD_BITS;
    } else {
        let movable = mine & !NO_BACKWARD;
        for k in 1..=r {
            reach |= movable & ((empty << k) & BOARD_BITS);
        }
    }
    reach != 0
}

/// The positions already offered during one generation, each with the index of its move in
/// the list.
trait Offered {
    /// An empty table.
    fn new() -> Self;

    /// The index of the move already listed for `key`, or `None` after recording `index`
    /// (the next index of the list) for it. Fails (`Err`) when the table is full.
    fn find_or_insert(&mut self, key: u64, index: usize) -> Result<Option<usize>, ()>;
}

/// A few keys in list order, searched linearly: cheap to set up, for the short lists of
/// most positions.
struct FewOffered<const N: usize> {
    keys: [u64; N],
    len: usize,
}

impl<const N: usize> Offered for FewOffered<N> {
    fn new() -> Self {
        FewOffered {
            keys: [0; N],
            len: 0,
        }
    }

    #[inline]
    fn find_or_insert(&mut self, key: u64, index: usize) -> Result<Option<usize>, ()> {
        if let Some(i) = self.keys[..self.len].iter().position(|&k| k == key) {
            return Ok(Some(i));
        }
        if self.len == N || index != self.len {
            return Err(());
        }
        self.keys[self.len] = key;
        self.len += 1;
        Ok(None)
    }
}

/// An open-addressing hash table of `N` slots (a power of two), each holding a position key
/// and the index of its move, for the long lists of large throws.
struct ManyOffered<const N: usize> {
    slots: [u64; N],
    len: usize,
}

impl<const N: usize> ManyOffered<N> {
    /// Position keys use bits 0..56; the slot keeps the move index + 1 above them, so that a
    /// used slot is never 0.
    const KEY_BITS: u64 = (1 << 56) - 1;
}

impl<const N: usize> Offered for ManyOffered<N> {
    fn new() -> Self {
        const { assert!(N.is_power_of_two()) };
        ManyOffered {
            slots: [0; N],
            len: 0,
        }
    }

    #[inline]
    fn find_or_insert(&mut self, key: u64, index: usize) -> Result<Option<usize>, ()> {
        let mut slot = (key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 40) as usize & (N - 1);
        loop {
            let held = self.slots[slot];
            if held == 0 {
                // The index + 1 must fit the top byte (lists of valid positions stay far
                // below 255 moves).
                if self.len * 4 >= N * 3 || index >= 255 {
                    return Err(());
                }
                self.slots[slot] = key | ((index as u64 + 1) << 56);
                self.len += 1;
                return Ok(None);
            }
            if held & Self::KEY_BITS == key {
                return Ok(Some((held >> 56) as usize - 1));
            }
            slot = (slot + 1) & (N - 1);
        }
    }
}

/// The ways to use a forward 2 from a position, listed directly instead of searched: the
/// most common split. `visit` receives each way as its first step and, if there is one, its
/// second step (place codes). Every position a 2 can lead to is visited once, by its way with
/// the fewest steps and then the smallest origins (the reference test checks this against an
/// exhaustive search):
///
/// - one step of 2;
/// - two steps of 1 by the same piece, only when it stops on 15 or 26 on the way (otherwise
///   the step of 2 does the same, without the extra throw);
/// - two steps of 1 by different pieces, lower origin first, neither landing where the other
///   was;
/// - the piece on 15 or 26 stepping on and the piece behind it taking its square (otherwise
///   the same as the back piece stepping 2, but with an extra throw);
/// - one step of 1 after which no piece can step 1: the rest of the throw is lost (I-1);
/// - nothing at all when no piece can step 1 or 2 (`visit` is not called).
///
/// Only ways whose first step is a step of 1 from a piece of `first_one`, or a step of 2 from
/// a piece of `first_two`, are visited (the search uses this to continue a partial move).
#[inline]
fn for_each_two(
    mine: u32,
    empty: u32,
    first_one: u32,
    first_two: u32,
    mut visit: impl FnMut([u8; 2], Option<[u8; 2]>),
) {
    const SPECIAL: u32 = EXTRA_THROW_SQUARES.bits();
    // Pieces that can step 1 (30 leaves by it) and 2 (29 leaves by it); 27 is always empty.
    let one = mine & (empty >> 1 | 1 << 30);
    let two = mine & (empty >> 2 | 1 << 29);
    let mut bits = two & first_two;
    while bits != 0 {
        let from = bits.trailing_zeros() as u8;
        bits &= bits - 1;
        visit([from, from + 2], None);
    }
    let first = one & first_one;
    let mut bits = first & SPECIAL >> 1 & empty >> 2;
    while bits != 0 {
        let from = bits.trailing_zeros() as u8;
        bits &= bits - 1;
        visit([from, from + 1], Some([from + 1, from + 2]));
    }
    let mut bits = first & SPECIAL & mine << 1;
    while bits != 0 {
        let from = bits.trailing_zeros() as u8;
        bits &= bits - 1;
        visit([from, from + 1], Some([from - 1, from]));
    }
    let mut firsts = first;
    while firsts != 0 {
        let first = firsts.trailing_zeros() as u8;
        firsts &= firsts - 1;
        let mut seconds = one & u32::MAX.checked_shl(u32::from(first) + 2).unwrap_or(0);
        while seconds != 0 {
            let second = seconds.trailing_zeros() as u8;
            seconds &= seconds - 1;
            visit([first, first + 1], Some([second, second + 1]));
        }
        let to = first + 1;
        let stays = u32::from(to != Place::OFF_CODE && to != SQ27) << to & BOARD_BITS;
        let after = (mine & !(1 << first)) | stays;
        let free = (empty | 1 << first) & !stays;
        if after & (free >> 1 | 1 << 30) == 0 {
            visit([first, first + 1], None);
        }
    }
}

/// What a search keeps of a partial move: the [`Move`] itself for a move list, or nothing
/// (`()`) when only the positions it leads to are wanted.
trait Way: Copy {
    /// The way before any step.
    const START: Self;

    /// This way with one more step (place codes).
    fn then(self, from: u8, to: u8) -> Self;
}

impl Way for Move {
    const START: Move = Move::PASS;

    #[inline]
    fn then(self, from: u8, to: u8) -> Move {
        // At most MAX_STEPS steps: every step uses at least 1 of a throw of at most 5.
        self.then_codes_unchecked(from, to)
    }
}

impl Way for () {
    const START: () = ();

    #[inline]
    fn then(self, _from: u8, _to: u8) {}
}

/// Where a search offers each complete move: the position it leads to and its way.
trait Sink {
    /// What the search keeps of each partial move.
    type Way: Way;

    /// Takes the complete move that leads to `node` by `way`, unless an equivalent one was
    /// offered before.
    fn offer(&mut self, node: Node, way: Self::Way);
}

/// A move list, with the table `T` of positions offered; a list that outgrows its table
/// reports `overflow`.
struct ListedMoves<'a, T: Offered> {
    moves: &'a mut MoveList,
    offered: T,
    overflow: bool,
}

impl<T: Offered> Sink for ListedMoves<'_, T> {
    type Way = Move;

    /// Lists the move, unless an equivalent one is already listed; a way with fewer steps
    /// replaces the one listed.
    #[inline]
    fn offer(&mut self, node: Node, mv: Move) {
        let listed = self.moves.len();
        match self.offered.find_or_insert(node.key(), listed) {
            // A list can only fill up in a position no game reaches (see the move list
            // bound test); stop there rather than panic.
            Ok(None) => self.overflow |= self.moves.try_push(mv).is_err(),
            Ok(Some(i)) => {
                if mv.step_count() < self.moves[i].step_count() {
                    self.moves[i] = mv;
                }
            }
            Err(()) => self.overflow = true,
        }
    }
}

/// The depth-first enumeration of split throws, offering every complete move to `sink`.
struct Search<'a, K: Sink> {
    opp: u32,
    /// P-3: only moves that move the piece on square 1 count.
    must_move_one: bool,
    sink: &'a mut K,
}

impl<K: Sink> Search<'_, K> {
    /// Extends the partial move `mv` (which led to `node`) with every step of length
    /// 1..=`r`. `prev_from` is where the last step started and `prev_at` where its piece
    /// stands now (0 for none, in hand or off).
    ///
    /// Two prunings keep the search small without losing a position, because the way with
    /// the fewest steps and, among those, the smallest origins first is never pruned:
    /// - the same piece stepping twice in a row is only explored when it stopped on 15 or 26
    ///   in between (otherwise one longer step does the same);
    /// - two steps of different pieces that do not interact (the second does not land where
    ///   the first left) are only explored with the lower origin first.
    fn extend<const FORWARD: bool>(
        &mut self,
        node: Node,
        mv: K::Way,
        r: u8,
        prev_from: u8,
        prev_at: u8,
    ) {
        self.continue_with::<FORWARD>(node, mv, r, prev_from, prev_at);
    }

    /// [`extend`](Self::extend) from the step just made: what is left of the throw, `r`,
    /// used up (the move is complete), or a forward 1 or 2 listed directly, or searched.
    #[inline(always)]
    fn continue_with<const FORWARD: bool>(
        &mut self,
        node: Node,
        mv: K::Way,
        r: u8,
        prev_from: u8,
        prev_at: u8,
    ) {
        match r {
            0 => self.emit(node, mv),
            1 if FORWARD => self.last_one(node, mv, prev_from, prev_at),
            2 if FORWARD => self.last_two(node, mv, prev_from, prev_at),
            _ => self.extend_any::<FORWARD>(node, mv, r, prev_from, prev_at),
        }
    }

    /// The pieces worth trying after the step from `prev_from` that left its piece on
    /// `prev_at`, beside those below the previous origin: any piece above that origin, and
    /// the piece that has just stepped if it stopped on 15 or 26.
    #[inline(always)]
    fn after(movable: u32, prev_from: u8, prev_at: u8) -> u32 {
        let chain = u32::from(prev_at == SQ15 || prev_at == SQ26) << prev_at;
        let just_moved = 1u32 << prev_at;
        let above = !((2u32 << prev_from) - 1);
        (movable & !just_moved & above) | (movable & chain)
    }

    /// The last two squares of a forward throw, listed directly (see `for_each_two`), with
    /// the same prunings as [`extend_any`](Self::extend_any) between the last step and the
    /// next.
    #[inline]
    fn last_two(&mut self, node: Node, mv: K::Way, prev_from: u8, prev_at: u8) {
        let empty = !(node.mine() | self.opp) & BOARD_BITS;
        let movable = node.mine();
        if !any_step(movable, empty, 2, true) {
            self.emit(node, mv); // I-1: the last two squares are lost
            return;
        }
        let base = Self::after(movable, prev_from, prev_at);
        let others = movable & !(1u32 << prev_at) & !1;
        let behind = |k: u8| {
            1u32.checked_shl(u32::from(prev_from.wrapping_sub(k)))
                .unwrap_or(0)
        };
        let first_one = base | (others & behind(1));
        let first_two = base | (others & behind(2));
        for_each_two(
            node.mine(),
            empty,
            first_one,
            first_two,
            |[a, b], second| {
                let mut next = node.step(a, b);
                let mut longer = mv.then(a, b);
                if let Some([c, d]) = second {
                    next = next.step(c, d);
                    longer = longer.then(c, d);
                }
                self.emit(next, longer);
            },
        );
    }

    /// The last square of a forward throw, the most common case, without the general loop.
    #[inline]
    fn last_one(&mut self, node: Node, mv: K::Way, prev_from: u8, prev_at: u8) {
        let empty = !(node.mine() | self.opp) & BOARD_BITS;
        let movable = node.mine();
        let one = movable & (empty >> 1 | 1 << 30);
        if one == 0 {
            self.emit(node, mv); // I-1: the last square is lost
            return;
        }
        let behind = (1u32 << prev_from >> 1) & !1 & !(1u32 << prev_at);
        let mut allowed = one & (Self::after(movable, prev_from, prev_at) | behind);
        while allowed != 0 {
            let from = allowed.trailing_zeros() as u8;
            allowed &= allowed - 1;
            let next = node.step(from, from + 1);
            self.emit(next, mv.then(from, from + 1));
        }
    }

    /// [`extend`](Self::extend) by the general loop: every piece worth trying, every length.
    fn extend_any<const FORWARD: bool>(
        &mut self,
        node: Node,
        mv: K::Way,
        r: u8,
        prev_from: u8,
        prev_at: u8,
    ) {
        let empty = !(node.mine() | self.opp) & BOARD_BITS;
        let movable = if FORWARD {
            node.mine()
        } else {
            node.mine() & !NO_BACKWARD // P-11
        };
        if !any_step(movable, empty, r, FORWARD) {
            // I-1: what is left of the throw cannot be used: it is lost.
            self.emit(node, mv);
            return;
        }
        let mut below = if FORWARD && prev_from != 0 {
            SquareSet::range(prev_from.saturating_sub(r), prev_from - 1).bits()
        } else {
            0
        };
        below &= movable & !(1u32 << prev_at);
        let mut rest = Self::after(movable, prev_from, prev_at) | below;
        // Step lengths 1..=r as the bits 1..=r.
        let lengths = (1u32 << (r + 1)) - 2;
        while rest != 0 {
            let from = rest.trailing_zeros() as u8;
            rest &= rest - 1;
            // The lengths k for which the step lands on an empty square (P-5) or, forward,
            // leaves by the exact count (P-11).
            let mut open = if FORWARD {
                let exit = u32::from(from + r >= Place::OFF_CODE) << (Place::OFF_CODE - from);
                ((empty >> from) | exit) & lengths
            } else {
                let mut open = 0;
                for k in 1..from.min(r + 1) {
                    open |= (empty >> (from - k) & 1) << k;
                }
                open
            };
            if below >> from & 1 != 0 {
                open &= 1 << (prev_from - from);
            }
            while open != 0 {
                let k = open.trailing_zeros() as u8;
                open &= open - 1;
                let to = if FORWARD { from + k } else { from - k };
                let next = node.step(from, to);
                let longer = mv.then(from, to);
                self.continue_with::<FORWARD>(next, longer, r - k, from, landed(to));
            }
        }
    }

    /// Offers the complete move `mv` to the sink, if it moves the entered piece where P-3
    /// requires it.
    #[inline]
    fn emit(&mut self, node: Node, mv: K::Way) {
        if self.must_move_one && !node.moved_from_one() {
            return; // P-3: the entered piece has not moved
        }
        self.sink.offer(node, mv);
    }
}

/// Runs the search of the throw `t` from `root`, offering every complete move to `sink`.
fn search<K: Sink>(root: Node, opp: u32, forward: bool, must_move_one: bool, t: u8, sink: &mut K) {
    let mut search = Search {
        opp,
        must_move_one,
        sink,
    };
    if forward {
        search.extend::<true>(root, K::Way::START, t, 0, 0);
    } else {
        search.extend::<false>(root, K::Way::START, t, 0, 0);
    }
}

/// Lists the moves of the search of the throw `t` with the table `T`; false if the list
/// outgrew the table.
fn list_moves<T: Offered>(
    root: Node,
    opp: u32,
    forward: bool,
    must_move_one: bool,
    t: u8,
    moves: &mut MoveList,
) -> bool {
    let mut listed = ListedMoves {
        moves,
        offered: T::new(),
        overflow: false,
    };
    search(root, opp, forward, must_move_one, t, &mut listed);
    !listed.overflow
}

/// Where the choices of a decision go, in the order of the move list: a [`MoveList`], or the
/// positions they lead to (the batch kernel's lists).
trait Choices {
    /// What a search keeps of each partial move.
    type Way: Way;

    /// The pass (P-7, P-8).
    fn pass(&mut self);

    /// Entering a piece onto square 1 (P-3).
    fn enter(&mut self);

    /// A move that leads to `node`, a position no other choice leads to.
    fn distinct(&mut self, node: Node, way: Self::Way);

    /// The split moves of the throw `t` from `root`, found by [`search`].
    fn split(&mut self, root: Node, opp: u32, forward: bool, must_move_one: bool, t: u8);

    /// Whether no choice has been listed.
    fn is_empty(&self) -> bool;
}

impl Choices for MoveList {
    type Way = Move;

    #[inline]
    fn pass(&mut self) {
        self.push(Move::PASS);
    }

    #[inline]
    fn enter(&mut self) {
        self.push(Move::enter(Square::FIRST));
    }

    #[inline]
    fn distinct(&mut self, _node: Node, mv: Move) {
        // Full only in a position no game reaches: never panic.
        let _ = self.try_push(mv);
    }

    fn split(&mut self, root: Node, opp: u32, forward: bool, must_move_one: bool, t: u8) {
        // Most lists are short: a small table that is cheap to clear; a search that outgrows
        // it is run again with a hash table twice the size of a full move list.
        if !list_moves::<FewOffered<SHORT_LIST>>(root, opp, forward, must_move_one, t, self) {
            self.clear();
            list_moves::<ManyOffered<LARGE_TABLE>>(root, opp, forward, must_move_one, t, self);
        }
    }

    #[inline]
    fn is_empty(&self) -> bool {
        self.as_slice().is_empty()
    }
}

/// Lists into the empty `out` the choices of the side to act, whose pieces are `mine` (with
/// its pieces in hand and off in `root`), against `opp`, with the throw `t` (1 to 5) and, if
/// `must_move_one`, the piece just entered to move (P-3).
#[inline]
fn list_choices<C: Choices>(
    mine: u32,
    opp: u32,
    root: Node,
    t: u8,
    must_move_one: bool,
    out: &mut C,
) {
    let empty = !(mine | opp) & BOARD_BITS;
    // Whether to search forward (or backward) split throws from the board.
    let forward = if must_move_one {
        // P-3 / P-7: the entered piece must move at least one square; a piece on 1 moves
        // forward onto one of 2..=1+t.
        if mine & 1 << 1 == 0 || empty & SquareSet::range(2, 1 + t).bits() == 0 {
            out.pass();
            return;
        }
        true
    } else {
        // P-3, I-3: a whole throw of 1 may enter a piece onto an empty square 1.
        let can_enter = t == 1 && root.hand() > 0 && empty & 1 << 1 != 0;
        if can_enter {
            out.enter();
        }
        if any_step(mine, empty, t, true) {
            true
        } else if can_enter {
            return; // entering is the only forward use
        } else if any_step(mine, empty, t, false) {
            false // P-6, I-2: no forward use of any part of the throw exists
        } else {
            out.pass(); // P-8
            return;
        }
    };
    if t == 1 {
        // A throw of 1 cannot be split: one step per movable piece, all different.
        let mut origins = if forward {
            mine & (empty >> 1 | 1 << 30)
        } else {
            mine & !NO_BACKWARD & (empty << 1)
        };
        if must_move_one {
            origins &= 1 << 1; // P-3: the entered piece moves
        }
        while origins != 0 {
            let from = origins.trailing_zeros() as u8;
            origins &= origins - 1;
            let to = if !forward { from - 1 } else { from + 1 };
            out.distinct(root.step(from, to), C::Way::START.then(from, to));
        }
        return;
    }
    if t == 2 && forward && !must_move_one {
        // Every position once already: no table needed.
        for_each_two(mine, empty, u32::MAX, u32::MAX, |[a, b], second| {
            let mut node = root.step(a, b);
            let mut way = C::Way::START.then(a, b);
            if let Some([c, d]) = second {
                node = node.step(c, d);
                way = way.then(c, d);
            }
            out.distinct(node, way);
        });
        return;
    }
    out.split(root, opp, forward, must_move_one, t);
    if out.is_empty() {
        out.pass();
    }
}

impl Piccione {
    #[inline]
    fn finished(board: &BitBoard) -> Option<Side> {
        board.side_with_all_off(PIECES)
    }
}

const FIELD_INFO: &[FieldInfo] = &[
    FieldInfo::pending_throw(
        "1, 2, 3, 4, 5",
        "the throw the side to act has made and must now use (P-2)",
    ),
    FieldInfo {
        name: "hand",
        values: "B,W: pieces in hand of Black and of White, e.g. 3,5",
        default: "0,0",
        doc: "pieces not yet entered (P-1, P-3, P-10)",
    },
    FieldInfo {
        name: "extra_throws",
        values: "0 to 255",
        default: "0",
        doc: "extra throws the side to act has earned and not yet taken (P-2, P-3, P-9)",
    },
    FieldInfo {
        name: "entered_must_move",
        values: "true, false",
        default: "false",
        doc: "the current or next throw must move the piece just entered on square 1 (P-3)",
    },
];

senet_core::lock_step_batch_rules! {
    /// Piccione has a lock-step kernel (`senet_core::batch`); it has no options.
    Piccione => batch::Lanes::covering
}

impl Ruleset for Piccione {
    type State = PiccioneState;
    type Device = Sticks;

    const ID: &'static str = "piccione";
    const NAME: &'static str = "Piccione (King Tut's Game, 1977)";
    const RULES_REVISION: u32 = RULES_REVISION;
    const RULES_TEXT: &'static str = include_str!("../RULES.md");
    const OPTIONS: &'static [OptionInfo] = &[];
    const FIELD_INFO: &'static [FieldInfo] = FIELD_INFO;
    // I-4: the even set (Black) is simply the player who starts.
    const SEAT_RULE: SeatRule = SeatRule::FirstPersonStarts;

    fn from_spec(spec: &RulesetSpec) -> Result<Self, SpecError> {
        spec.values(Self::ID, Self::OPTIONS)?;
        Ok(Piccione)
    }

    fn spec(&self) -> RulesetSpec {
        RulesetSpec::new(Self::ID)
    }

    fn device(&self) -> Sticks {
        // P-2: four sticks, no marked side counts 5.
        Sticks::ZERO_IS_FIVE
    }

    fn pieces_per_side(&self) -> u8 {
        PIECES
    }

    const STATE_FEATURES: &'static [&'static str] =
        &senet_core::kernel::pending_then::<2, 8>(["extra_throws", "entered_must_move"]);

    fn state_features(&self, state: &Self::State, side: Side, out: &mut [f32]) {
        senet_core::kernel::pending_throw_features(state.pending_throw(), out);
        let _ = side;
        out[6] = f32::from(state.extra_throws().min(3)) / 3.0;
        out[7] = f32::from(u8::from(state.entered_must_move()));
    }

    fn initial_state(&self) -> PiccioneState {
        // P-1: every piece in hand; the first player (Black) throws first.
        PiccioneState {
            turn: TurnState::new(
                BitBoard::EMPTY.with_in_hand(PerSide::both(PIECES)),
                Side::Black,
                PiccioneExtra {
                    extra_throws: 0,
                    entered_must_move: false,
                },
            ),
        }
    }

    senet_core::forward_turn_state!();

    #[inline]
    fn phase(&self, state: &PiccioneState) -> Phase {
        if let Some(winner) = Piccione::finished(&state.board) {
            // P-12: the first side to bear off every piece wins; there is no score.
            Phase::Over(Outcome {
                winner: Some(winner),
                points: PerSide::both(0),
            })
        } else {
            state.turn.phase()
        }
    }

    fn generate_moves(&self, state: &PiccioneState, moves: &mut MoveList) {
        moves.clear();
        // A throw the sticks cannot show is clamped so that no step sequence outgrows a move.
        let t = match state.throw {
            Some(t) if Piccione::finished(&state.board).is_none() => t.get().min(MAX_STEPS as u8),
            _ => return,
        };
        let board = &state.board;
        let me = state.to_move;
        list_choices(
            board.pieces_of(me).bits(),
            board.pieces_of(me.opponent()).bits(),
            Node::new(
                board.pieces_of(me).bits(),
                board.hand_count(me),
                board.off_count(me),
            ),
            t,
            state.turn.extra.entered_must_move,
            moves,
        );
    }

    fn play_unchecked(&self, state: &mut PiccioneState, mv: Move) {
        let Some((me, t)) = state.turn.start_move() else {
            return;
        };
        let board = &mut state.turn.board;
        if mv.is_pass() {
            if state.turn.extra.entered_must_move && board.pieces_of(me).has(1) {
                // P-7: the entered piece could not move: back to hand.
                board.take(me, Square::FIRST);
                board.set_in_hand(me, board.hand_count(me).saturating_add(1));
            }
            // P-8: the turn ends, with any extra throws still to come.
            state.turn.extra.entered_must_move = false;
            state.turn.extra.extra_throws = 0;
            state.turn.to_move = me.opponent();
            return;
        }
        let mut earned: u8 = u8::from(t == 5); // P-2
        let mut entered = false;
        for i in 0..mv.step_count() {
            let [from, to] = mv.step_codes(i);
            match Square::checked(from) {
                None => {
                    // P-3: from hand onto square 1, which earns another throw.
                    board.set_in_hand(me, board.hand_count(me).saturating_sub(1));
                    put_piece(board, me, Square::FIRST);
                    entered = true;
                    earned = earned.saturating_add(1);
                    continue;
                }
                Some(from) => board.take(me, from),
            }
            match Square::checked(to) {
                None => board.set_off(me, board.off_count(me).saturating_add(1)), // P-11
                Some(sq) if sq == RETURN_SQUARE => {
                    board.set_in_hand(me, board.hand_count(me).saturating_add(1)); // P-10
                }
                Some(sq) => {
                    put_piece(board, me, sq);
                    if to == SQ15 || to == SQ26 {
                        earned = earned.saturating_add(1); // P-9
                    }
                }
            }
        }
        finish_move(state, me, earned, entered);
    }

    /// The move [`play_random_from_list`] would play, chosen among the positions the choices
    /// lead to as the batch kernel chooses: no move is built and no table of positions kept.
    fn play_random_move<G: Rng + ?Sized>(
        &self,
        state: &mut PiccioneState,
        rng: &mut G,
        moves: &mut MoveList,
    ) {
        let t = match state.throw {
            Some(t) if Piccione::finished(&state.board).is_none() => t.get().min(MAX_STEPS as u8),
            _ => return play_random_from_list(self, state, rng, moves),
        };
        let board = &state.board;
        let me = state.to_move;
        let mine = board.pieces_of(me).bits();
        let opp = board.pieces_of(me.opponent());
        let root = Node::new(mine, board.hand_count(me), board.off_count(me));
        let must_move_one = state.turn.extra.entered_must_move;
        // Most decisions have a few choices: a short list is cheap to set up, and the rare
        // decision that outgrows it is searched again with room for any.
        let mut few = Outcomes::<RANDOM_CHOICES>::EMPTY;
        list_choices(mine, opp.bits(), root, t, must_move_one, &mut few);
        let key = if few.full {
            let mut all = Outcomes::<MOVE_LIST_CAPACITY>::EMPTY;
            list_choices(mine, opp.bits(), root, t, must_move_one, &mut all);
            all.pick(rng)
        } else {
            few.pick(rng)
        };
        match key {
            PASS => self.play_unchecked(state, Move::PASS),
            ENTER => self.play_unchecked(state, Move::enter(Square::FIRST)),
            _ => {
                // What play_unchecked does with a move of steps that leads to `node`: no
                // entry among them, so no piece must move next (P-3).
                let node = Node(key);
                state.turn.throw = None;
                let board = &mut state.turn.board;
                board.replace_pieces(me, SquareSet::from_bits_truncate(node.mine()), opp);
                board.set_in_hand(me, node.hand());
                board.set_off(me, node.off());
                let earned = node.landings().saturating_add(u8::from(t == 5)); // P-9, P-2
                finish_move(state, me, earned, false);
            }
        }
    }

    fn validate(&self, state: &PiccioneState) -> Result<(), PositionError> {
        let board = &state.board;
        if let Some(sq) = (board.pieces_of(Side::Black) & board.pieces_of(Side::White)).first() {
            return Err(PositionError::Overlap(sq));
        }
        for side in Side::BOTH {
            if board.total(side) != PIECES {
                return Err(PositionError::PieceCount {
                    side,
                    found: board.total(side),
                    expected: PIECES,
                });
            }
            if board.pieces_of(side).contains(RETURN_SQUARE) {
                return Err(PositionError::ForbiddenSquare {
                    side,
                    square: RETURN_SQUARE,
                    reason: "sends a piece back to hand as it arrives (P-10)",
                });
            }
        }
        let finished = Piccione::finished(board).is_some();
        board.check_one_finished(PIECES)?;
        if let Some(t) = state.throw
            && !self.device().can_show(t)
        {
            return Err(PositionError::BadField {
                name: "throw".to_string(),
                value: t.to_string(),
                reason: "the sticks show 1 to 5 (P-2)".to_string(),
            });
        }
        if finished
            && (state.throw.is_some()
                || state.turn.extra.extra_throws != 0
                || state.turn.extra.entered_must_move)
        {
            return Err(PositionError::Inconsistent(
                "a throw, an extra throw or an entry is pending after the game ended".to_string(),
            ));
        }
        if state.turn.extra.entered_must_move && !board.pieces_of(state.to_move).has(1) {
            return Err(PositionError::BadField {
                name: "entered_must_move".to_string(),
                value: "true".to_string(),
                reason: format!(
                    "the entered piece must stand on square 1, and no {} piece does",
                    state.to_move
                ),
            });
        }
        Ok(())
    }

    fn to_setup(&self, state: &PiccioneState) -> Setup {
        let mut setup = state.turn.to_setup();
        let hand = state.board.hand_counts();
        if hand != PerSide::both(0) {
            let [black, white] = hand.into_array();
            setup.push_field("hand", format!("{black},{white}"));
        }
        if state.turn.extra.extra_throws != 0 {
            setup.push_field("extra_throws", state.turn.extra.extra_throws);
        }
        if state.turn.extra.entered_must_move {
            setup.push_field("entered_must_move", "true");
        }
        setup
    }

    fn read_setup(&self, setup: &Setup) -> Result<PiccioneState, PositionError> {
        setup.check_fields(Self::FIELD_INFO)?;
        let hand = match setup.field("hand") {
            Some(value) => parse_hand(value)?,
            None => PerSide::both(0),
        };
        let mut board = BitBoard::new(
            setup.board.pieces_of(Side::Black),
            setup.board.pieces_of(Side::White),
            PerSide::both(0),
            hand,
        )?;
        for side in Side::BOTH {
            board.set_rest_off(side, PIECES, hand[side])?;
        }
        let turn = TurnState::read_setup(setup, board, 5)?;
        let extra = PiccioneExtra {
            extra_throws: setup.number_field("extra_throws", 0, u8::MAX)?.unwrap_or(0),
            entered_must_move: setup.choice_field("entered_must_move", &["true", "false"])?
                == Some("true"),
        };
        self.validated(PiccioneState {
            turn: turn.with_extra(extra),
        })
    }

    fn special_squares(&self) -> &'static [SpecialSquares] {
        const {
            &[
                SpecialSquares::new(EXTRA_THROW_SQUARES, '+', "earns one more throw (P-9)"),
                SpecialSquares::new(
                    SquareSet::single(RETURN_SQUARE),
                    '~',
                    "returns a piece to hand (P-10)",
                ),
            ]
        }
    }
}

/// Ends a move of `me` (the throw already taken) that earned `earned` extra throws and
/// entered a piece if `entered`: the next throw is `me`'s while extra throws remain, else the
/// turn passes; a finished game keeps none (P-2, P-3, P-9, P-12).
fn finish_move(state: &mut PiccioneState, me: Side, earned: u8, entered: bool) {
    let extra = &mut state.turn.extra;
    extra.entered_must_move = entered;
    extra.extra_throws = extra.extra_throws.saturating_add(earned);
    if Piccione::finished(&state.turn.board).is_some() {
        extra.extra_throws = 0;
        extra.entered_must_move = false;
    } else if extra.extra_throws > 0 {
        extra.extra_throws -= 1;
    } else {
        state.turn.to_move = me.opponent();
    }
}

/// Puts a piece of `side` on `sq` without the debug check of [`BitBoard::put`], so that
/// `play_unchecked` cannot panic even on a move that was not generated.
#[inline]
fn put_piece(board: &mut BitBoard, side: Side, sq: Square) {
    board.relocate(side, sq, sq);
}

/// Reads the `hand` field: Black's and White's pieces in hand, as `3,2`.
fn parse_hand(value: &str) -> Result<PerSide<u8>, PositionError> {
    let bad = || PositionError::BadField {
        name: "hand".to_string(),
        value: value.to_string(),
        reason: format!("expected Black's and White's pieces in hand, 0 to {PIECES} each, as 3,2"),
    };
    let (black, white) = value.split_once(',').ok_or_else(bad)?;
    let count = |text: &str| text.parse::<u8>().ok().filter(|&n| n <= PIECES);
    Ok(PerSide::new(
        count(black).ok_or_else(bad)?,
        count(white).ok_or_else(bad)?,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn state_is_small() {
        assert!(core::mem::size_of::<PiccioneState>() <= 16);
    }

    #[test]
    fn spec_has_no_options() {
        let spec: RulesetSpec = "piccione".parse().unwrap();
        assert_eq!(Piccione::from_spec(&spec), Ok(Piccione));
        let spec: RulesetSpec = "piccione(split=false)".parse().unwrap();
        assert!(matches!(
            Piccione::from_spec(&spec),
            Err(SpecError::UnknownOption { .. })
        ));
    }

    #[test]
    fn hand_field_reads_two_counts() {
        assert_eq!(parse_hand("3,2"), Ok(PerSide::new(3, 2)));
        for bad in ["3", "6,0", "a,1", "1,2,3", ""] {
            assert!(parse_hand(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn any_step_sees_exits_and_the_backward_ban() {
        let bits = |squares: &[u8]| SquareSet::from_squares(squares.iter().copied()).unwrap();
        let empty_but = |squares: &[u8]| !bits(squares).bits() & BOARD_BITS;
        // 29 exits with 2, not with 1 (it would land on 30, occupied here).
        let mine = bits(&[29, 30]).bits();
        assert!(!any_step(mine & !(1 << 30), empty_but(&[29, 30]), 1, true));
        assert!(any_step(mine & !(1 << 30), empty_but(&[29, 30]), 2, true));
        // 28-30 never move backward.
        assert!(!any_step(bits(&[28]).bits(), empty_but(&[28]), 3, false));
        assert!(any_step(bits(&[26]).bits(), empty_but(&[26]), 3, false));
    }
}
