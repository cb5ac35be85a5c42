//! The turn state most rulesets share: a board, the side to act and its pending throw.

use crate::board::BitBoard;
use crate::error::PositionError;
use crate::kernel::check_pending_throw;
use crate::ruleset::Phase;
use crate::setup::Setup;
use crate::side::Side;
use crate::throw::{Throw, ThrowingDevice};

/// What a ruleset with one throw at a time remembers between decisions: the board, the side
/// to act, the throw it has made and not yet used, and `extra`, whatever else the ruleset
/// needs (`()` when nothing).
///
/// A ruleset's state wraps it, so that the state stays one `Copy` value: `extra` is a field
/// of this struct rather than a neighbour of it so that it can fill the padding after the
/// 12-byte board, and a state with two bytes of its own is still 16 bytes. The wrapper keeps
/// its `TurnState` in a private field and implements `Deref<Target = TurnState<X>>`, so that
/// users read `board()`, `to_move()` and `pending_throw()` while only the ruleset changes
/// them; [`Ruleset::board`](crate::Ruleset::board) and
/// [`Ruleset::throw_unchecked`](crate::Ruleset::throw_unchecked) hand over to the field.
/// [`turn_state_deref!`](crate::turn_state_deref) and
/// [`forward_turn_state!`](crate::forward_turn_state) write those lines (macros, since a
/// `Deref` for a type of another crate cannot be one generic impl here).
///
/// ```
/// use senet_core::{BitBoard, Phase, Side, Throw, TurnState};
/// let mut turn = TurnState::new(BitBoard::alternating(5), Side::Black, ());
/// assert_eq!(turn.phase(), Phase::Throw(Side::Black));
/// turn.throw_unchecked(Throw::at(4));
/// assert_eq!(turn.pending_throw(), Throw::new(4));
/// assert_eq!(turn.phase(), Phase::Move(Side::Black));
/// assert_eq!(turn.take_throw(), Throw::new(4));
/// assert_eq!(turn.phase(), Phase::Throw(Side::Black));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TurnState<X = ()> {
    /// The board.
    pub board: BitBoard,
    /// The side to act.
    pub to_move: Side,
    /// The throw waiting to be used; `None` when the side to act must throw.
    pub throw: Option<Throw>,
    /// What the ruleset remembers beyond board, side and throw.
    pub extra: X,
}

impl<X> TurnState<X> {
    /// `to_move` to throw on `board`.
    pub const fn new(board: BitBoard, to_move: Side, extra: X) -> TurnState<X> {
        TurnState {
            board,
            to_move,
            throw: None,
            extra,
        }
    }

    /// The board.
    #[inline]
    pub const fn board(&self) -> &BitBoard {
        &self.board
    }

    /// The side to act.
    #[inline]
    pub const fn to_move(&self) -> Side {
        self.to_move
    }

    /// The throw waiting to be used, if the side to act has thrown.
    #[inline]
    pub const fn pending_throw(&self) -> Option<Throw> {
        self.throw
    }

    /// What comes next in a game that is not over: a move with a throw pending, else a
    /// throw.
    #[inline]
    pub const fn phase(&self) -> Phase {
        match self.throw {
            Some(_) => Phase::Move(self.to_move),
            None => Phase::Throw(self.to_move),
        }
    }

    /// Records a throw of `value` ([`Ruleset::throw_unchecked`](crate::Ruleset::throw_unchecked));
    /// 0 leaves none pending.
    #[inline]
    pub fn throw_unchecked(&mut self, value: Throw) {
        self.throw = Some(value);
    }

    /// The value of the pending throw while the game goes on (`over` false): the throw move
    /// generation spends. `None` when no move is due.
    ///
    /// ```
    /// use senet_core::{BitBoard, Side, Throw, TurnState};
    /// let mut turn = TurnState::new(BitBoard::alternating(5), Side::Black, ());
    /// assert_eq!(turn.throw_to_use(false), None);
    /// turn.throw_unchecked(Throw::at(3));
    /// assert_eq!(turn.throw_to_use(false), Some(3));
    /// assert_eq!(turn.throw_to_use(true), None);
    /// ```
    #[inline]
    pub const fn throw_to_use(&self, over: bool) -> Option<u8> {
        match self.throw {
            Some(t) if !over => Some(t.get()),
            _ => None,
        }
    }

    /// Uses up the pending throw, `None` when there was none.
    #[inline]
    pub fn take_throw(&mut self) -> Option<Throw> {
        self.throw.take()
    }

    /// How [`Ruleset::play_unchecked`](crate::Ruleset::play_unchecked) starts: uses up the
    /// pending throw and returns the side that moves with it, or `None` (the state unchanged)
    /// when no throw is pending and so no move is due.
    ///
    /// ```
    /// use senet_core::{BitBoard, Side, Throw, TurnState};
    /// let mut turn = TurnState::new(BitBoard::alternating(5), Side::White, ());
    /// assert_eq!(turn.start_move(), None);
    /// turn.throw_unchecked(Throw::at(3));
    /// assert_eq!(turn.start_move(), Some((Side::White, Throw::at(3))));
    /// assert_eq!(turn.pending_throw(), None);
    /// ```
    #[inline]
    pub fn start_move(&mut self) -> Option<(Side, Throw)> {
        let t = self.throw.take()?;
        Some((self.to_move, t))
    }

    /// Checks the pending throw for [`Ruleset::validate`](crate::Ruleset::validate) (see
    /// [`check_pending_throw`]).
    pub fn check_throw(
        &self,
        device: &impl ThrowingDevice,
        game_over: bool,
        shows: &str,
    ) -> Result<(), PositionError> {
        check_pending_throw(device, self.throw, game_over, shows)
    }

    /// The position notation of board, side and pending throw; the ruleset appends its own
    /// fields.
    pub fn to_setup(&self) -> Setup {
        let mut setup = Setup::new(self.board, self.to_move);
        if let Some(t) = self.throw {
            setup.push_field("throw", t);
        }
        setup
    }

    /// This state with `extra` in place of its own.
    #[inline]
    pub fn with_extra<Y>(self, extra: Y) -> TurnState<Y> {
        TurnState {
            board: self.board,
            to_move: self.to_move,
            throw: self.throw,
            extra,
        }
    }
}

impl TurnState {
    /// The side and the pending throw (1 to `max_throw`) of `setup` on `board`, which the
    /// ruleset has read from it; the ruleset adds its own fields with
    /// [`with_extra`](TurnState::with_extra).
    pub fn read_setup(
        setup: &Setup,
        board: BitBoard,
        max_throw: u8,
    ) -> Result<TurnState, PositionError> {
        Ok(TurnState {
            board,
            to_move: setup.to_move,
            throw: setup.throw_field(max_throw)?,
            extra: (),
        })
    }
}

/// Implements `Deref<Target = TurnState<$extra>>` for the ruleset state `$state`, which
/// keeps its [`TurnState`] in a private field `turn`: users read the board, the side to act
/// and the pending throw, and only the ruleset changes them.
#[macro_export]
macro_rules! turn_state_deref {
    ($state:ty, $extra:ty) => {
        /// The board, the side to act, the pending throw and the rest, read-only: the ruleset
        /// changes them.
        impl core::ops::Deref for $state {
            type Target = $crate::TurnState<$extra>;

            #[inline]
            fn deref(&self) -> &$crate::TurnState<$extra> {
                &self.turn
            }
        }
    };
}

/// Implements [`Ruleset::board`](crate::Ruleset::board) and
/// [`Ruleset::throw_unchecked`](crate::Ruleset::throw_unchecked) for a ruleset whose state
/// keeps its [`TurnState`] in a field `turn` and takes every throw as it comes. Call it
/// inside `impl Ruleset`.
#[macro_export]
macro_rules! forward_turn_state {
    () => {
        #[inline]
        fn board<'s>(&self, state: &'s Self::State) -> &'s $crate::BitBoard {
            &state.turn.board
        }

        #[inline]
        fn throw_unchecked(&self, state: &mut Self::State, value: $crate::Throw) {
            state.turn.throw_unchecked(value);
        }
    };
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn two_bytes_of_extra_fit_in_the_padding() {
        assert_eq!(core::mem::size_of::<TurnState>(), 16);
        assert_eq!(core::mem::size_of::<TurnState<bool>>(), 16);
        assert_eq!(core::mem::size_of::<TurnState<(u8, bool)>>(), 16);
    }

    #[test]
    fn the_throw_field_round_trips() {
        let mut turn = TurnState::new(BitBoard::alternating(5), Side::White, ());
        turn.throw_unchecked(Throw::at(6));
        let setup = turn.to_setup();
        assert_eq!(setup.field("throw"), Some("6"));
        assert_eq!(TurnState::read_setup(&setup, turn.board, 6), Ok(turn));
        assert!(TurnState::read_setup(&setup, turn.board, 5).is_err());
    }
}
