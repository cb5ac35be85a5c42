//! The shared core of the `senet` engine: the vocabulary (squares, sides, moves, errors), the
//! board and the two traits a reconstruction of Senet is built from, and the turn machine
//! that drives them.
//!
//! - [`BitBoard`]: who stands where, what is off or in hand, in 12 `Copy` bytes.
//! - [`ThrowingDevice`]: sticks or dice, as an exact outcome table ([`Sticks`],
//!   [`FourSidedDie`], [`SixSidedDie`]) sampled from a caller-supplied RNG.
//! - [`Ruleset`]: the initial position, the phase (throw, move, over), allocation-free move
//!   generation into a [`MoveList`], applying moves, validation, and the position notation.
//! - [`Game`]: a ruleset with its state and history; checked `throw`/`play` that leave the
//!   game unchanged on error; records that replay.
//!
//! Ruleset crates (`senet-regency`, …) implement [`Ruleset`], with the move-list fill
//! helpers and validation plumbing of [`kernel`]; most users depend on the
//! `senet` facade, which re-exports this crate and every ruleset.
//!
//! ```
//! use senet_core::{Move, Side, Square, SquareSet, Sticks, Throw, ThrowingDevice};
//! let set = SquareSet::from_squares([2, 4, 6, 8, 11]).unwrap();
//! assert_eq!(set.len(), 5);
//! assert_eq!(Sticks::ZERO_IS_SIX.probability(Throw::at(6)), Some((1, 16)));
//! let mv = Move::step(Square::new(9).unwrap(), Square::new(12).unwrap());
//! assert_eq!(mv.to_string(), "9-12");
//! assert_eq!(!Side::Black, Side::White);
//! ```

#![cfg_attr(not(feature = "std"), no_std)]
#![deny(unsafe_code)]
#![deny(missing_docs)]

// Records, specifications, positions as text and the errors that quote them need `alloc`;
// nothing needs `std` (the default feature only passes `std` on to the dependencies).
extern crate alloc;

/// The `alloc` items the std prelude would bring, for modules of a `no_std` build.
mod prelude {
    pub(crate) use alloc::boxed::Box;
    pub(crate) use alloc::format;
    pub(crate) use alloc::string::{String, ToString};
    pub(crate) use alloc::vec;
    pub(crate) use alloc::vec::Vec;
}

pub mod batch;
mod board;
mod dynamic;
mod error;
mod game;
pub mod kernel;
mod moves;
mod opening;
#[doc(hidden)]
pub mod options;
pub mod perft;
mod playout;
mod record;
mod ruleset;
mod setup;
mod side;
mod spec;
mod square;
mod text;
mod throw;
mod turn;

pub use board::{BitBoard, SpecialSquares};
pub use dynamic::{DynGame, DynRuleset};
pub use error::{PlayError, PositionError, RecordError, SpecError};
pub use game::{Action, Game, GameRecord};
pub use moves::{MAX_STEPS, MOVE_LIST_CAPACITY, Move, MoveList, MoveParseError, Step};
pub use opening::{SeatDraw, SeatRule, draw_seats};
pub use options::{Coverage, option_combinations, option_specs};
pub use playout::{
    DEFAULT_TURN_CAP, MAX_ACTIONS_PER_TURN, Playout, PlayoutEnd, TurnCounter, random_playout,
};
pub use record::RecordLines;
pub use ruleset::{Outcome, Phase, Ruleset, play_random_from_list};
pub use setup::{FieldInfo, Setup};
pub use side::{PerSide, Side};
pub use spec::{BOOL_OFF, BOOL_ON, OptionInfo, OptionValue, OptionValues, RulesetSpec};
pub use square::{Place, SQUARES, Square, SquareError, SquareIter, SquareSet};
pub use text::{QUOTE_LIMIT, quote, shorten, shorten_quoted};
pub use throw::{
    FOUR_SIDED_DIE, FourSidedDie, SIX_SIDED_DIE, STICKS_ZERO_IS_FIVE, STICKS_ZERO_IS_SIX,
    SixSidedDie, StandardDevice, Sticks, Throw, ThrowOutcome, ThrowingDevice, ZeroThrow,
    uniform_below,
};
pub use turn::TurnState;

/// Re-exported so that users name the RNG trait from the same version the library uses.
pub use rand_core;
