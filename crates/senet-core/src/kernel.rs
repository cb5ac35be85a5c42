//! The plumbing that ruleset implementations share and users of the game API never need:
//! filling a [`MoveList`] without branching, and checking a position's pending throw.
//!
//! Move generation is the hot path of every simulation and search, and its cost there is
//! mostly mispredicted branches and memory stalls, not arithmetic. The fill helpers exist for
//! that:
//!
//! - **Filling without branching.** A generator computes the set of pieces that can move and
//!   writes a candidate into every slot of a fixed window, whether or not a piece is behind
//!   it, then keeps as many as are real. A loop that stopped at the last movable piece would
//!   exit at a different count each call, and the mispredicted exit costs more than the
//!   spare writes. [`assign_one_per_origin`] does this for rulesets in which a piece has at
//!   most one move per throw.
//! - **Writing the moves where they stay.** Building the candidates in a local array and
//!   copying it into the list reads back bytes that were just written, before the stores have
//!   left the store buffer, and stalls on store forwarding: that was the hottest line of
//!   Kendall's generator (`docs/benchmarks.md`). [`extend_in_place`] lends the generator a
//!   window of slots at the end of the list itself (the list keeps spare slots past its
//!   capacity so that the window always exists); Kendall calls it once per stored throw
//!   value.
//!
//! [`assign`] is the copying form, for generators that build their candidates elsewhere.
//! [`is_one_per_origin`] is the matching legality test.
//!
//! Play code of the single-step rulesets reads a move with [`single_step`], which gives every
//! move a meaning (see its contract), so that no ruleset needs a fallback of its own for
//! moves its generator never makes. [`all_ones_if`] is the mask that selects without
//! branching. [`check_pending_throw`] is the shared part of
//! [`Ruleset::validate`](crate::Ruleset::validate) for rulesets that keep the pending throw
//! in their state.

use crate::error::PositionError;
use crate::moves::{MOVE_LIST_CAPACITY, Move, MoveList, WINDOW_SLACK};
use crate::prelude::*;
use crate::setup::Setup;
use crate::square::{Square, SquareSet};
use crate::throw::{Throw, ThrowingDevice};

pub use crate::square::all_ones_if;

/// Where the step of a single-step move lands, as [`single_step`] reads it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Landing {
    /// On a square of the track.
    On(Square),
    /// Off the board: the piece is borne off.
    Off,
}

/// The step of `mv` for the play code of a ruleset whose moves are single steps: the square
/// the piece leaves and where it lands, or `None` for a pass.
///
/// Every move of such a generator reads exactly. [`Ruleset::play_unchecked`] leaves the result
/// of any other move unspecified but must never panic, so this reading gives every move one
/// meaning and play code needs no fallback of its own: a move that leaves no square (a pass,
/// a step from hand, codes no generator writes) reads as a pass, and a step that lands on no
/// square ([`Place::OFF_CODE`](crate::Place::OFF_CODE), or codes beyond it) as bearing off.
/// Steps after the first are not read.
///
/// [`Ruleset::play_unchecked`]: crate::Ruleset::play_unchecked
///
/// ```
/// use senet_core::kernel::{Landing, single_step};
/// use senet_core::{Move, Square};
/// let (from, to) = (Square::at(26), Square::at(28));
/// assert_eq!(single_step(Move::step(from, to)), Some((from, Landing::On(to))));
/// assert_eq!(single_step(Move::bear_off(from)), Some((from, Landing::Off)));
/// assert_eq!(single_step(Move::PASS), None);
/// assert_eq!(single_step(Move::enter(Square::FIRST)), None);
/// ```
#[inline]
pub fn single_step(mv: Move) -> Option<(Square, Landing)> {
    let [from, to] = mv.step_codes(0);
    let from = Square::checked(from)?;
    let landing = match Square::checked(to) {
        Some(to) => Landing::On(to),
        None => Landing::Off,
    };
    Some((from, landing))
}

/// Whether a throw `t` gives another throw after its move, in the reconstructions whose
/// sticks reward 1, 4 and 6 and end the turn with 2 and 3 (Regency, Botermans, CEMEA and
/// Jéquier; CEMEA's die adds a 5 that ends the turn too).
///
/// ```
/// use senet_core::kernel::extra_throw_on_1_4_6;
/// let again: Vec<u8> = (1..=6).filter(|&t| extra_throw_on_1_4_6(t)).collect();
/// assert_eq!(again, [1, 4, 6]);
/// ```
#[inline]
pub const fn extra_throw_on_1_4_6(t: u8) -> bool {
    matches!(t, 1 | 4 | 6)
}

/// Whether `mv` is one of the moves [`assign_one_per_origin`] lists for `origins` and
/// `move_from`: the plain pass when `origins` is empty, else the move of one of them. For
/// [`Ruleset::is_legal`](crate::Ruleset::is_legal) without generating the list.
///
/// ```
/// use senet_core::{Move, SquareSet, kernel};
/// let step_of_3 = |from: u8| Move::from_codes_unchecked(from, from + 3);
/// let origins = SquareSet::of([4, 9]);
/// assert!(kernel::is_one_per_origin("9-12".parse().unwrap(), origins, step_of_3));
/// assert!(!kernel::is_one_per_origin("9-11".parse().unwrap(), origins, step_of_3));
/// assert!(!kernel::is_one_per_origin("5-8".parse().unwrap(), origins, step_of_3));
/// assert!(!kernel::is_one_per_origin(Move::PASS, origins, step_of_3));
/// assert!(kernel::is_one_per_origin(Move::PASS, SquareSet::EMPTY, step_of_3));
/// ```
pub fn is_one_per_origin(mv: Move, origins: SquareSet, move_from: impl Fn(u8) -> Move) -> bool {
    if mv.is_pass() {
        return mv == Move::PASS && origins.is_empty();
    }
    match mv.origin() {
        Some(from) if origins.contains(from) => move_from(from.get()) == mv,
        _ => false,
    }
}

/// Replaces the contents of `list` with the first `len` moves of `moves` (`len` is clamped
/// to `N`).
///
/// For branch-free generators: fill a fixed array with a candidate for every piece, count
/// the real ones, and copy the whole array at once.
#[inline]
pub fn assign<const N: usize>(list: &mut MoveList, moves: &[Move; N], len: usize) {
    const { assert!(N <= MOVE_LIST_CAPACITY) };
    list.moves[..N].copy_from_slice(moves);
    list.len = len.min(N);
}

/// Replaces the contents of `list` with one move per square of `origins`, lowest first, each
/// made by `move_from(square number)`, or with a lone pass when `origins` is empty.
///
/// For rulesets in which a piece has at most one move for a throw; `N` is the most pieces
/// a side can have. All `N` candidates are filled without branching on how many origins
/// there are (a mispredicted loop exit costs more than the spare calls), so `move_from` is
/// also called with 32 for the spare slots and must not panic there; those results are
/// dropped. Origins beyond the lowest `N` are ignored.
///
/// ```
/// use senet_core::{Move, MoveList, SquareSet, kernel};
/// let step_of_3 = |from: u8| Move::from_codes_unchecked(from, from.wrapping_add(3));
/// let mut list = MoveList::new();
/// let origins = SquareSet::from_squares([4, 9]).unwrap();
/// kernel::assign_one_per_origin::<5>(&mut list, origins, step_of_3);
/// let moves: Vec<String> = list.iter().map(|mv| mv.to_string()).collect();
/// assert_eq!(moves, ["4-7", "9-12"]);
/// kernel::assign_one_per_origin::<5>(&mut list, SquareSet::EMPTY, step_of_3);
/// assert_eq!(list.as_slice(), &[Move::PASS]);
/// ```
#[inline]
pub fn assign_one_per_origin<const N: usize>(
    list: &mut MoveList,
    origins: SquareSet,
    move_from: impl Fn(u8) -> Move,
) {
    const { assert!(N >= 1) };
    list.clear();
    extend_in_place::<N>(list, |slots| {
        // Counted slot by slot: cheaper than a popcount where the target lacks the
        // instruction (baseline x86-64).
        let mut rest = origins.bits();
        let mut count = 0;
        for slot in slots.iter_mut() {
            let from = rest.trailing_zeros() as u8;
            count += usize::from(rest != 0);
            rest &= rest.wrapping_sub(1);
            *slot = move_from(from);
        }
        if count == 0 {
            slots[0] = Move::PASS;
        }
        count.max(1)
    });
}

/// Appends to `list` the moves that `fill` writes in place: it gets `N` slots at the end of
/// the list, writes a candidate into each (or into as many as it likes), and returns how
/// many leading slots are real moves; the rest are dropped, as are real moves past
/// [`MOVE_LIST_CAPACITY`]. `N` is at most 16 (checked at compile time).
///
/// For branch-free generators: every slot can be written without branching on how many
/// moves there are, and the moves land in the list directly (building them in a local
/// array and copying it costs a stall, since the copy reads back bytes just written).
///
/// ```
/// use senet_core::{Move, MoveList, Throw, kernel};
/// let mut list = MoveList::new();
/// list.push(Move::PASS.with_throw(Throw::at(1)));
/// kernel::extend_in_place::<3>(&mut list, |slots| {
///     slots[0] = Move::PASS.with_throw(Throw::at(2));
///     slots[1] = Move::PASS.with_throw(Throw::at(3));
///     2
/// });
/// let moves: Vec<String> = list.iter().map(|mv| mv.to_string()).collect();
/// assert_eq!(moves, ["pass/1", "pass/2", "pass/3"]);
/// ```
#[inline]
pub fn extend_in_place<const N: usize>(
    list: &mut MoveList,
    fill: impl FnOnce(&mut [Move; N]) -> usize,
) {
    const { assert!(N <= WINDOW_SLACK) };
    let len = list.len.min(MOVE_LIST_CAPACITY);
    let (_, tail) = list.moves.split_at_mut(len);
    let Some((slots, _)) = tail.split_first_chunk_mut::<N>() else {
        return;
    };
    let count = fill(slots).min(N).min(MOVE_LIST_CAPACITY - len);
    list.len = len + count;
}

/// The throws a side holds as the position notation writes them (the field `throws`): one
/// digit per throw, in the order given.
///
/// ```
/// use senet_core::{Throw, kernel};
/// let held = [1, 1, 4].map(Throw::at);
/// assert_eq!(kernel::throw_digits(held.into_iter()), "114");
/// ```
pub fn throw_digits(throws: impl Iterator<Item = Throw>) -> String {
    throws.map(|t| char::from(b'0' + t.get())).collect()
}

/// The [`Ruleset::STATE_FEATURES`](crate::Ruleset::STATE_FEATURES) names of
/// [`pending_throw_features`], for a ruleset to begin its list with.
pub const PENDING_THROW_FEATURES: [&str; 6] = [
    "pending_1",
    "pending_2",
    "pending_3",
    "pending_4",
    "pending_5",
    "pending_6",
];

/// [`PENDING_THROW_FEATURES`] followed by a ruleset's own names: `M` must be `N + 6` (a
/// mismatch fails to compile where the constant is defined).
///
/// ```
/// use senet_core::kernel::pending_then;
/// const NAMES: [&str; 7] = pending_then(["extra"]);
/// assert_eq!(NAMES[0], "pending_1");
/// assert_eq!(NAMES[6], "extra");
/// ```
pub const fn pending_then<const N: usize, const M: usize>(
    own: [&'static str; N],
) -> [&'static str; M] {
    assert!(M == N + PENDING_THROW_FEATURES.len(), "M must be N + 6");
    let mut names = [""; M];
    let mut i = 0;
    while i < M {
        names[i] = if i < PENDING_THROW_FEATURES.len() {
            PENDING_THROW_FEATURES[i]
        } else {
            own[i - PENDING_THROW_FEATURES.len()]
        };
        i += 1;
    }
    names
}

/// Writes the pending throw as six inputs, one per value from 1 to 6, the one of the throw
/// set to 1 (none for no pending throw or another value).
///
/// ```
/// use senet_core::{Throw, kernel};
/// let mut out = [0.5; 6];
/// kernel::pending_throw_features(Some(Throw::at(4)), &mut out);
/// assert_eq!(out, [0.0, 0.0, 0.0, 1.0, 0.0, 0.0]);
/// ```
#[inline]
pub fn pending_throw_features(pending: Option<Throw>, out: &mut [f32]) {
    let out = &mut out[..PENDING_THROW_FEATURES.len()];
    out.fill(0.0);
    if let Some(slot) = pending.and_then(|t| out.get_mut(usize::from(t.get()).wrapping_sub(1))) {
        *slot = 1.0;
    }
}

/// Writes the throws held by the side to act, for a ruleset that collects a turn's throws
/// before spending them (Kendall's stored throws, Regency's `collect_throws`): nothing when
/// none is held; else the field `throws` and, while the side is still throwing,
/// `phase=throw` ([`read_throwing`] reads it back).
///
/// ```
/// use senet_core::{BitBoard, Setup, Side, Throw, kernel};
/// let mut setup = Setup::new(BitBoard::EMPTY, Side::Black);
/// kernel::push_held_throws(&mut setup, [1, 4].map(Throw::at).into_iter(), true);
/// assert_eq!(setup.field("throws"), Some("14"));
/// assert_eq!(kernel::read_throwing(&setup, true), Ok(true));
/// ```
pub fn push_held_throws(setup: &mut Setup, throws: impl Iterator<Item = Throw>, throwing: bool) {
    let digits = throw_digits(throws);
    if digits.is_empty() {
        return;
    }
    setup.push_field("throws", digits);
    if throwing {
        setup.push_field("phase", "throw");
    }
}

/// Whether the side to act is still throwing, read from the field `phase` (`throw` or
/// `move`) that [`push_held_throws`] writes; without it, the side throws exactly when it
/// holds no throw (`held` false).
pub fn read_throwing(setup: &Setup, held: bool) -> Result<bool, PositionError> {
    Ok(match setup.choice_field("phase", &["throw", "move"])? {
        Some(phase) => phase == "throw",
        None => !held,
    })
}

/// Checks the pending throw of a state for [`Ruleset::validate`](crate::Ruleset::validate):
/// a pending throw must be one the `device` can show (`shows` says which, for the message)
/// and must not wait in a game that is over.
///
/// ```
/// use senet_core::kernel::check_pending_throw;
/// use senet_core::{PositionError, Sticks, Throw};
/// let shows = "the sticks show 1, 2, 3, 4 or 6";
/// let sticks = Sticks::ZERO_IS_SIX;
/// assert!(check_pending_throw(&sticks, Throw::new(4), false, shows).is_ok());
/// assert!(check_pending_throw(&sticks, None, true, shows).is_ok());
/// assert!(matches!(
///     check_pending_throw(&sticks, Throw::new(5), false, shows),
///     Err(PositionError::BadField { .. })
/// ));
/// assert!(matches!(
///     check_pending_throw(&sticks, Throw::new(4), true, shows),
///     Err(PositionError::Inconsistent(_))
/// ));
/// ```
pub fn check_pending_throw(
    device: &impl ThrowingDevice,
    throw: Option<Throw>,
    game_over: bool,
    shows: &str,
) -> Result<(), PositionError> {
    let Some(throw) = throw else {
        return Ok(());
    };
    if !device.can_show(throw) {
        Err(PositionError::BadField {
            name: "throw".to_string(),
            value: throw.to_string(),
            reason: shows.to_string(),
        })
    } else if game_over {
        Err(PositionError::Inconsistent(
            "a throw is pending after the game ended".to_string(),
        ))
    } else {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::square::Square;

    fn sq(n: u8) -> Square {
        Square::new(n).unwrap()
    }

    #[test]
    fn assign_copies_the_real_ones() {
        let mut assigned = MoveList::new();
        let candidates = [
            Move::PASS,
            Move::step(sq(1), sq(2)),
            Move::step(sq(3), sq(4)),
        ];
        assign(&mut assigned, &candidates, 2);
        assert_eq!(assigned.as_slice(), &candidates[..2]);
        assign(&mut assigned, &candidates, 9);
        assert_eq!(assigned.len(), 3);
    }

    #[test]
    fn extend_in_place_appends_the_real_ones_and_never_overflows() {
        let candidates = [
            Move::step(sq(1), sq(2)),
            Move::step(sq(3), sq(4)),
            Move::PASS,
        ];
        let fill = |count: usize| {
            move |slots: &mut [Move; 3]| {
                *slots = candidates;
                count
            }
        };
        let mut list = MoveList::new();
        list.push(Move::PASS.with_throw(Throw::at(4)));
        extend_in_place(&mut list, fill(2));
        assert_eq!(
            list.as_slice(),
            &[
                Move::PASS.with_throw(Throw::at(4)),
                candidates[0],
                candidates[1]
            ]
        );
        // A count above the window is clamped to it.
        extend_in_place(&mut list, fill(9));
        assert_eq!(list.len(), 6);
        assert_eq!(list[5], candidates[2]);
        // Near the end of the list: what fits is kept, and the list stays full after that.
        let mut nearly = MoveList::new();
        for _ in 0..MOVE_LIST_CAPACITY - 1 {
            nearly.push(Move::PASS);
        }
        extend_in_place(&mut nearly, fill(3));
        assert_eq!(nearly.len(), MOVE_LIST_CAPACITY);
        assert_eq!(nearly[MOVE_LIST_CAPACITY - 1], candidates[0]);
        extend_in_place(&mut nearly, fill(3));
        assert_eq!(nearly.len(), MOVE_LIST_CAPACITY);
        assert!(nearly.try_push(Move::PASS).is_err());
    }
}
