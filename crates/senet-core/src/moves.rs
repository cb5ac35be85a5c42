//! Moves, their text notation, and the fixed-capacity list that move generation fills.

use crate::prelude::*;
use core::fmt;
use core::ops::{Deref, DerefMut};
use core::str::FromStr;

use thiserror::Error;

use crate::square::{Place, Square};
use crate::text::quote;
use crate::throw::Throw;

/// The most steps one move can have: a throw of 5 split into five single steps (Piccione).
pub const MAX_STEPS: usize = 5;

/// One piece going from one place to another, as part of a [`Move`].
///
/// The step names where the mover leaves and where it lands by its own count; consequences
/// that the ruleset applies afterwards (a swapped opponent, a piece sent from 27 to another
/// square) are not part of the step.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Step {
    /// Where the piece starts.
    pub from: Place,
    /// Where the piece lands (before any consequence of the landing).
    pub to: Place,
}

impl fmt::Display for Step {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.from, self.to) {
            (Place::Hand, Place::Board(sq)) if sq == Square::FIRST => f.write_str("enter"),
            (from, to) => write!(f, "{from}-{to}"),
        }
    }
}

/// A decision of the player to move: a pass, or one to five steps.
///
/// Most moves are a single step: `9-12`, `28-off` (bear off), `enter` (a piece from hand onto
/// square 1). Piccione's split throws are several steps applied in order: `3-5,8-10`.
/// Where a player holds several throws at once (Kendall's stored throws) the move also names
/// the throw it spends: `9-12/3`, or `pass/4` to give up a throw of 4. A plain `pass` gives
/// up the whole throw (or turn) when nothing else is legal.
///
/// Moves are 12-byte `Copy` values; equality is exact (same steps in the same order, same
/// throw).
///
/// ```
/// use senet_core::{Move, Square};
/// let mv: Move = "9-12".parse().unwrap();
/// assert_eq!(mv, Move::step(Square::new(9).unwrap(), Square::new(12).unwrap()));
/// assert_eq!(mv.to_string(), "9-12");
/// assert_eq!("28-off".parse::<Move>().unwrap().to_string(), "28-off");
/// assert_eq!("3-5,8-10".parse::<Move>().unwrap().step_count(), 2);
/// assert!(Move::PASS.is_pass());
/// assert!("9-".parse::<Move>().is_err());
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Move {
    /// The throw this move spends, or `None` when it is implied by the single pending throw.
    throw: Option<Throw>,
    /// Number of steps in use; 0 is a pass.
    len: u8,
    /// `[from, to]` place codes (see [`Place::code`]); unused entries stay zero so that
    /// derived equality and hashing are exact.
    steps: [[u8; 2]; MAX_STEPS],
}

impl Default for Move {
    fn default() -> Self {
        Move::PASS
    }
}

impl Move {
    /// Give up the throw (or what is left of the turn): the move when nothing else is legal.
    pub const PASS: Move = Move {
        throw: None,
        len: 0,
        steps: [[0; 2]; MAX_STEPS],
    };

    /// A piece moving from one square to another.
    #[inline]
    pub const fn step(from: Square, to: Square) -> Move {
        Move::single(from.get(), to.get())
    }

    /// A piece leaving the board from `from`.
    #[inline]
    pub const fn bear_off(from: Square) -> Move {
        Move::single(from.get(), Place::Off.code())
    }

    /// A piece entering from hand onto `to`.
    #[inline]
    pub const fn enter(to: Square) -> Move {
        Move::single(Place::Hand.code(), to.get())
    }

    /// A single step given by raw place codes (see [`Place::code`]), for branch-free
    /// generators. Codes outside 0..=31 make a meaningless move whose steps read as `None`
    /// (never undefined behaviour); use the checked constructors elsewhere.
    #[inline]
    pub const fn from_codes_unchecked(from: u8, to: u8) -> Move {
        Move::single(from, to)
    }

    /// This move with one more step, given by raw place codes (see [`Place::code`]), for
    /// generators that build split throws step by step. A move that already has
    /// [`MAX_STEPS`] steps is returned unchanged; codes outside 0..=31 make a meaningless
    /// step that reads as `None` (never undefined behaviour).
    ///
    /// ```
    /// use senet_core::Move;
    /// let mv = Move::from_codes_unchecked(3, 5).then_codes_unchecked(8, 10);
    /// assert_eq!(mv.to_string(), "3-5,8-10");
    /// ```
    #[inline]
    #[must_use]
    pub const fn then_codes_unchecked(mut self, from: u8, to: u8) -> Move {
        let len = self.len as usize;
        if len < MAX_STEPS {
            self.steps[len] = [from, to];
            self.len += 1;
        }
        self
    }

    /// A single step between two places.
    #[inline]
    pub const fn from_step(step: Step) -> Move {
        Move::single(step.from.code(), step.to.code())
    }

    #[inline]
    const fn single(from: u8, to: u8) -> Move {
        let mut steps = [[0; 2]; MAX_STEPS];
        steps[0] = [from, to];
        Move {
            throw: None,
            len: 1,
            steps,
        }
    }

    /// A move made of the given steps, applied in order. Fails on an empty list (use
    /// [`Move::PASS`]) or on more than [`MAX_STEPS`] steps.
    pub fn from_steps(steps: &[Step]) -> Result<Move, MoveParseError> {
        if steps.is_empty() {
            return Err(MoveParseError::Empty);
        }
        if steps.len() > MAX_STEPS {
            return Err(MoveParseError::TooManySteps(steps.len()));
        }
        let mut mv = Move::PASS;
        for (slot, step) in mv.steps.iter_mut().zip(steps) {
            *slot = [step.from.code(), step.to.code()];
        }
        mv.len = steps.len() as u8;
        Ok(mv)
    }

    /// This move, marked as spending the throw `value` (for rulesets in which a player holds
    /// several throws at once).
    #[inline]
    #[must_use]
    pub const fn with_throw(mut self, value: Throw) -> Move {
        self.throw = Some(value);
        self
    }

    /// Appends a step; fails when the move already has [`MAX_STEPS`] steps.
    pub fn push_step(&mut self, step: Step) -> Result<(), MoveParseError> {
        let len = usize::from(self.len);
        if len >= MAX_STEPS {
            return Err(MoveParseError::TooManySteps(len + 1));
        }
        self.steps[len] = [step.from.code(), step.to.code()];
        self.len += 1;
        Ok(())
    }

    /// Whether this is a pass (no piece moves).
    #[inline]
    pub const fn is_pass(self) -> bool {
        self.len == 0
    }

    /// The throw this move spends, when the move names one.
    #[inline]
    pub const fn throw(self) -> Option<Throw> {
        self.throw
    }

    /// Number of steps (0 for a pass).
    #[inline]
    pub const fn step_count(self) -> usize {
        self.len as usize
    }

    /// The `i`-th step, if there is one.
    #[inline]
    pub fn step_at(self, i: usize) -> Option<Step> {
        if i < usize::from(self.len) {
            let [from, to] = self.steps[i];
            Some(Step {
                from: Place::from_code(from)?,
                to: Place::from_code(to)?,
            })
        } else {
            None
        }
    }

    /// The steps in the order they are applied.
    pub fn steps(self) -> impl Iterator<Item = Step> {
        (0..usize::from(self.len)).filter_map(move |i| self.step_at(i))
    }

    /// The raw `[from, to]` place codes of the `i`-th step (see [`Place::code`]), for fast
    /// ruleset code; `[0, 0]` past the last step.
    #[inline]
    pub const fn step_codes(self, i: usize) -> [u8; 2] {
        if i < MAX_STEPS { self.steps[i] } else { [0, 0] }
    }

    /// The square a single-step move starts from, if it starts on the board.
    #[inline]
    pub fn origin(self) -> Option<Square> {
        self.step_at(0).and_then(|s| s.from.square())
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_pass() {
            f.write_str("pass")?;
        } else {
            for (i, step) in self.steps().enumerate() {
                if i > 0 {
                    f.write_str(",")?;
                }
                write!(f, "{step}")?;
            }
        }
        if let Some(t) = self.throw {
            write!(f, "/{t}")?;
        }
        Ok(())
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Move({self})")
    }
}

fn parse_place(text: &str, whole: &str) -> Result<Place, MoveParseError> {
    match text {
        "off" => Ok(Place::Off),
        "hand" => Ok(Place::Hand),
        _ => {
            let n: u8 = text
                .parse()
                .map_err(|_| MoveParseError::BadPlace(text.to_string(), whole.to_string()))?;
            Square::new(n)
                .map(Place::Board)
                .map_err(|_| MoveParseError::BadPlace(text.to_string(), whole.to_string()))
        }
    }
}

impl FromStr for Move {
    type Err = MoveParseError;

    /// Parses `pass`, `enter`, `9-12`, `28-off`, `hand-1`, `3-5,8-10`, each optionally followed
    /// by `/v` naming the throw spent.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let whole = s.trim();
        if whole.is_empty() {
            return Err(MoveParseError::Empty);
        }
        if whole.len() > 64 {
            return Err(MoveParseError::TooLong(whole.len()));
        }
        let (body, throw) = match whole.split_once('/') {
            Some((body, t)) => {
                let v = t
                    .parse::<u8>()
                    .ok()
                    .filter(|v| (1..=6).contains(v))
                    .and_then(Throw::new)
                    .ok_or_else(|| MoveParseError::BadThrow(t.to_string()))?;
                (body, Some(v))
            }
            None => (whole, None),
        };
        let marked = |mv: Move| match throw {
            Some(t) => mv.with_throw(t),
            None => mv,
        };
        if body == "pass" {
            return Ok(marked(Move::PASS));
        }
        let mut mv = Move::PASS;
        for part in body.split(',') {
            let step = if part == "enter" {
                Step {
                    from: Place::Hand,
                    to: Place::Board(Square::FIRST),
                }
            } else {
                let (from, to) = part
                    .split_once('-')
                    .ok_or_else(|| MoveParseError::BadStep(part.to_string()))?;
                let from = parse_place(from, whole)?;
                let to = parse_place(to, whole)?;
                if from == Place::Off || to == Place::Hand || from == to {
                    return Err(MoveParseError::BadStep(part.to_string()));
                }
                Step { from, to }
            };
            mv.push_step(step)?;
        }
        Ok(marked(mv))
    }
}

#[cfg(feature = "serde")]
impl serde::Serialize for Move {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

#[cfg(feature = "serde")]
impl<'de> serde::Deserialize<'de> for Move {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = <alloc::borrow::Cow<'de, str>>::deserialize(deserializer)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

/// How many moves a [`MoveList`] holds: above the most any ruleset can generate for one
/// decision (Piccione's split throws come closest).
pub const MOVE_LIST_CAPACITY: usize = 256;

/// The most slots one [`kernel::extend_in_place`](crate::kernel::extend_in_place) call may ask for: the list keeps that many
/// spare slots past its capacity, so the window always exists and the generator never needs a
/// second path for a nearly full list.
pub(crate) const WINDOW_SLACK: usize = 16;

/// A fixed-capacity list of moves, filled by move generation without touching the heap.
///
/// Reuse one list across calls (generation clears it first) to avoid even the cost of
/// initialising it.
///
/// ```
/// use senet_core::{Move, MoveList};
/// let mut list = MoveList::new();
/// list.push(Move::PASS);
/// assert_eq!(list.len(), 1);
/// assert!(list.contains(&Move::PASS));
/// list.clear();
/// assert!(list.is_empty());
/// ```
#[derive(Clone)]
pub struct MoveList {
    pub(crate) len: usize,
    /// The moves, then [`WINDOW_SLACK`] spare slots that
    /// [`kernel::extend_in_place`](crate::kernel::extend_in_place) may write past the capacity
    /// (never counted in `len`).
    pub(crate) moves: [Move; MOVE_LIST_CAPACITY + WINDOW_SLACK],
}

impl MoveList {
    /// An empty list.
    pub fn new() -> MoveList {
        MoveList {
            len: 0,
            moves: [Move::PASS; MOVE_LIST_CAPACITY + WINDOW_SLACK],
        }
    }

    /// Removes every move.
    #[inline]
    pub fn clear(&mut self) {
        self.len = 0;
    }

    /// Appends a move.
    ///
    /// # Panics
    /// When the list is full. Rulesets never generate more than [`MOVE_LIST_CAPACITY`]
    /// moves; use [`MoveList::try_push`] when filling a list from other sources.
    #[inline]
    pub fn push(&mut self, mv: Move) {
        self.moves[..MOVE_LIST_CAPACITY][self.len] = mv;
        self.len += 1;
    }

    /// Appends a move, or hands it back when the list is full.
    #[inline]
    pub fn try_push(&mut self, mv: Move) -> Result<(), Move> {
        if self.len < MOVE_LIST_CAPACITY {
            self.push(mv);
            Ok(())
        } else {
            Err(mv)
        }
    }

    /// Keeps only the moves for which `keep` returns true, in order.
    pub fn retain(&mut self, mut keep: impl FnMut(&Move) -> bool) {
        let mut kept = 0;
        for i in 0..self.len {
            let mv = self.moves[i];
            if keep(&mv) {
                self.moves[kept] = mv;
                kept += 1;
            }
        }
        self.len = kept;
    }

    /// The moves as a slice.
    #[inline]
    pub fn as_slice(&self) -> &[Move] {
        &self.moves[..self.len]
    }

    /// The moves as a mutable slice, for generators that replace a move already listed (a
    /// shorter way to the same position, say) or reorder the list.
    ///
    /// ```
    /// use senet_core::{Move, MoveList, Square};
    /// let mut list = MoveList::new();
    /// list.push(Move::PASS);
    /// list.as_mut_slice()[0] = Move::bear_off(Square::LAST);
    /// assert_eq!(list[0].to_string(), "30-off");
    /// ```
    #[inline]
    pub fn as_mut_slice(&mut self) -> &mut [Move] {
        &mut self.moves[..self.len]
    }
}

impl Default for MoveList {
    fn default() -> Self {
        MoveList::new()
    }
}

impl Deref for MoveList {
    type Target = [Move];
    #[inline]
    fn deref(&self) -> &[Move] {
        self.as_slice()
    }
}

impl DerefMut for MoveList {
    #[inline]
    fn deref_mut(&mut self) -> &mut [Move] {
        self.as_mut_slice()
    }
}

impl PartialEq for MoveList {
    fn eq(&self, other: &Self) -> bool {
        self.as_slice() == other.as_slice()
    }
}

impl Eq for MoveList {}

impl fmt::Debug for MoveList {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.as_slice()).finish()
    }
}

impl<'a> IntoIterator for &'a MoveList {
    type Item = &'a Move;
    type IntoIter = core::slice::Iter<'a, Move>;
    fn into_iter(self) -> Self::IntoIter {
        self.as_slice().iter()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(n: u8) -> Square {
        Square::new(n).unwrap()
    }

    #[test]
    fn move_is_small() {
        assert_eq!(core::mem::size_of::<Move>(), 12);
    }

    #[test]
    fn notation_round_trips() {
        for text in [
            "pass",
            "pass/4",
            "9-12",
            "28-off",
            "enter",
            "enter/1",
            "3-5,8-10",
            "12-9",
            "hand-3",
            "1-2,2-3,3-4,4-5,5-6",
            "26-off/5",
        ] {
            let mv: Move = text.parse().unwrap();
            assert_eq!(mv.to_string(), text, "{text}");
        }
        assert_eq!("hand-1".parse::<Move>().unwrap().to_string(), "enter");
    }

    #[test]
    fn constructors_match_notation() {
        assert_eq!(Move::step(sq(9), sq(12)).to_string(), "9-12");
        assert_eq!(Move::bear_off(sq(28)).to_string(), "28-off");
        assert_eq!(Move::enter(sq(1)).to_string(), "enter");
        assert_eq!(
            Move::step(sq(9), sq(12)).with_throw(Throw::at(3)).throw(),
            Throw::new(3)
        );
        assert_eq!(Move::step(sq(9), sq(12)).origin(), Some(sq(9)));
        assert_eq!(Move::PASS.origin(), None);
    }

    #[test]
    fn bad_notation_is_a_typed_error() {
        for text in [
            "",
            "9",
            "9-",
            "-9",
            "0-3",
            "31-2",
            "9-12/7",
            "9-12/x",
            "off-3",
            "3-hand",
            "3-3",
            "1-2,2-3,3-4,4-5,5-6,6-7",
            "pas",
            "9-12,",
            "é-2",
        ] {
            assert!(text.parse::<Move>().is_err(), "{text:?} should not parse");
        }
        assert!(matches!(
            "x".repeat(100).parse::<Move>(),
            Err(MoveParseError::TooLong(100))
        ));
    }

    #[test]
    fn step_access() {
        let mv: Move = "3-5,8-off".parse().unwrap();
        let steps: Vec<Step> = mv.steps().collect();
        assert_eq!(steps.len(), 2);
        assert_eq!(steps[1].to, Place::Off);
        assert_eq!(mv.step_at(2), None);
        assert_eq!(mv.step_codes(1), [8, 31]);
        assert!(Move::from_steps(&[]).is_err());
        assert!(Move::from_steps(&[steps[0]; 6]).is_err());
        assert_eq!(Move::from_steps(&steps).unwrap(), mv);
    }

    #[test]
    fn list_push_retain_and_capacity() {
        let mut list = MoveList::new();
        for n in 1..=5 {
            list.push(Move::step(sq(n), sq(n + 1)));
        }
        list.retain(|m| m.origin().unwrap().get() % 2 == 1);
        assert_eq!(list.len(), 3);
        assert_eq!(Move::from_codes_unchecked(9, 31), Move::bear_off(sq(9)));
        assert_eq!(Move::from_codes_unchecked(40, 2).step_at(0), None);
        let mut full = MoveList::new();
        for _ in 0..MOVE_LIST_CAPACITY {
            assert!(full.try_push(Move::PASS).is_ok());
        }
        assert_eq!(full.try_push(Move::PASS), Err(Move::PASS));
    }
}

/// Text that is not a move.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum MoveParseError {
    /// Nothing to parse.
    #[error("empty move (use e.g. 9-12, 28-off, enter or pass)")]
    Empty,
    /// Unreasonably long input.
    #[error("a move of {0} characters is too long to be a move")]
    TooLong(usize),
    /// More steps than a throw can be split into.
    #[error("a move has at most 5 steps, found {0}")]
    TooManySteps(usize),
    /// A step endpoint that is not a square, `hand` or `off`.
    #[error("{} in {} is not a square (1..=30), hand or off", quote(.0), quote(.1))]
    BadPlace(String, String),
    /// A step that is not `from-to`.
    #[error("{} is not a step (use from-to, e.g. 9-12 or 28-off)", quote(.0))]
    BadStep(String),
    /// A throw suffix that is not 1..=6.
    #[error("throw {} after '/' must be a number from 1 to 6", quote(.0))]
    BadThrow(String),
}
