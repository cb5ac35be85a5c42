//! Kendall's position: the state with its stored throws, and the names of the fields its
//! notation adds to a [`Setup`](senet_core::Setup).

use alloc::string::ToString;
use core::ops::Deref;
use senet_core::{FieldInfo, PerSide, PositionError, Side, Square, Throw, TurnState};

use crate::STORED_VALUES;

/// The stored throws of the side to act: six bits per value (bits `6(v − 1)` up count the
/// throws of value `v`; a turn holds at most
/// [`MAX_STORED_THROWS`](crate::MAX_STORED_THROWS) < 64). One 32-bit word rather than five
/// bytes, so that every read and write is a single access: a CPU cannot forward a one-byte
/// write to a wider read of the same bytes and stalls until the write has reached the cache,
/// which a throw followed at once by move generation would hit each time.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub(crate) struct StoredThrows(u32);

/// Bits per value in [`StoredThrows`].
const LANE_BITS: u32 = 6;
/// One lane of [`StoredThrows`].
const LANE: u32 = (1 << LANE_BITS) - 1;

impl StoredThrows {
    pub(crate) const NONE: StoredThrows = StoredThrows(0);

    /// The lowest bit of the lane of `value` (1..=5; other values are never stored).
    #[inline]
    pub(crate) const fn unit(value: u8) -> u32 {
        match value {
            1..=5 => 1 << (LANE_BITS * (value as u32 - 1)),
            _ => 0,
        }
    }

    /// How many throws of `value` are stored (0 for values other than 1..=5).
    #[inline]
    pub(crate) const fn count(self, value: u8) -> u8 {
        match value {
            1..=5 => ((self.0 >> (LANE_BITS * (value as u32 - 1))) & LANE) as u8,
            _ => 0,
        }
    }

    /// Stores one more throw of `value`; the caller keeps the total within
    /// [`MAX_STORED_THROWS`](crate::MAX_STORED_THROWS), so no lane overflows.
    #[inline]
    pub(crate) fn add(&mut self, value: u8) {
        self.0 += StoredThrows::unit(value);
    }

    /// Exactly one throw of `value`, whatever else was stored of it before.
    #[inline]
    pub(crate) fn set_one(&mut self, value: u8) {
        let unit = StoredThrows::unit(value);
        self.0 = (self.0 & !(unit * LANE)) | unit;
    }

    /// Spends one throw of `value`, if one is stored.
    #[inline]
    pub(crate) fn spend(&mut self, value: u8) {
        if self.count(value) != 0 {
            self.0 -= StoredThrows::unit(value);
        }
    }

    #[inline]
    pub(crate) const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The number of stored throws.
    #[inline]
    pub(crate) const fn total(self) -> u32 {
        let mut total = 0;
        let mut rest = self.0;
        while rest != 0 {
            total += rest & LANE;
            rest >>= LANE_BITS;
        }
        total
    }

    /// The distinct stored values as bits 1..=5.
    #[inline]
    pub(crate) const fn present(self) -> u8 {
        // Bit 5 of each lane is set where the lane is non-zero (the low five bits plus 31
        // carry into it, and no lane reaches 64, so nothing carries between lanes). One
        // multiply then gathers bit 6i + 5 into bit 33 + i: the factor has bits 28 − 5j, and
        // the partial products 6i + 33 − 5j are all distinct, so nothing carries into 33..=37.
        const LOW5: u32 = 0b011111_011111_011111_011111_011111;
        const HIGH: u32 = 0b100000_100000_100000_100000_100000;
        const GATHER: u64 = 1 << 28 | 1 << 23 | 1 << 18 | 1 << 13 | 1 << 8;
        let nonzero = ((((self.0 & LOW5) + LOW5) | self.0) & HIGH) as u64;
        ((((nonzero * GATHER) >> 33) & 0x1F) as u8) << 1
    }
}

/// A Kendall position: the board and the side to act in a [`TurnState`], whose `extra` is
/// the [`KendallMemory`] (the stored throws, whether the side is still throwing, the piece
/// each side must move next, and whether White has thrown its starting 1). The pending throw
/// of the [`TurnState`] is never used: throws are stored.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct KendallState {
    pub(crate) turn: TurnState<KendallMemory>,
}

/// What a [`KendallState`] remembers beyond board and side; read it through the state's
/// methods ([`KendallState::stored`], [`KendallState::is_throwing`],
/// [`KendallState::must_move`], [`KendallState::white_started`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct KendallMemory {
    /// The stored throws (K-4).
    pub(crate) stored: StoredThrows,
    /// Whether the side to act throws next (its throwing is not over).
    pub(crate) throwing: bool,
    /// K-15: per side, the square of the piece that must move on its next decision (0: none).
    pub(crate) must_move: PerSide<u8>,
    /// Option `starting_throw`: whether White (the odd set) has thrown its 1. Black's deciding
    /// 1 of K-3 is its starting throw.
    pub(crate) white_started: bool,
}

/// The board, the side to act and the [`KendallMemory`], read-only: the ruleset changes them.
impl Deref for KendallState {
    type Target = TurnState<KendallMemory>;

    #[inline]
    fn deref(&self) -> &TurnState<KendallMemory> {
        &self.turn
    }
}

impl KendallState {
    /// How many stored throws of `value` the side to act holds (0 for values the sticks
    /// cannot show, K-2).
    pub fn stored(&self, value: Throw) -> u8 {
        self.extra.stored.count(value.get())
    }

    /// The stored throws in ascending order, e.g. `[1, 1, 4, 2]` sorted as `[1, 1, 2, 4]`.
    pub fn stored_throws(&self) -> impl Iterator<Item = Throw> + '_ {
        STORED_VALUES
            .into_iter()
            .flat_map(move |v| core::iter::repeat_n(v, usize::from(self.stored(v))))
    }

    /// The number of stored throws.
    pub fn stored_count(&self) -> u8 {
        self.extra.stored.total().min(255) as u8
    }

    /// Whether the side to act is still throwing.
    pub fn is_throwing(&self) -> bool {
        self.extra.throwing
    }

    /// K-15: the piece `side` must move on its next decision, if any.
    pub fn must_move(&self, side: Side) -> Option<Square> {
        Square::checked(self.extra.must_move[side])
    }

    /// Option `starting_throw`: whether White has thrown its starting 1 (always true when the
    /// option is off).
    pub fn white_started(&self) -> bool {
        self.extra.white_started
    }

    /// The distinct stored values as bits 1..=5.
    #[inline]
    pub(crate) fn present(&self) -> u8 {
        self.extra.stored.present()
    }
}

/// The position field holding `side`'s K-15 piece.
pub(crate) const fn must_move_field(side: Side) -> &'static str {
    match side {
        Side::Black => "must_move_b",
        Side::White => "must_move_w",
    }
}

pub(crate) fn bad_field(name: &str, value: impl ToString, reason: &str) -> PositionError {
    PositionError::BadField {
        name: name.to_string(),
        value: value.to_string(),
        reason: reason.to_string(),
    }
}

pub(crate) const FIELD_INFO: &[FieldInfo] = &[
    FieldInfo {
        name: "throws",
        values: "digits 1-5, ascending, e.g. 1145",
        default: "none",
        doc: "the stored throws of the side to act (K-4)",
    },
    FieldInfo {
        name: "phase",
        values: "throw, move",
        default: "move when throws are held, else throw",
        doc: "whether the side to act is still throwing (K-4)",
    },
    FieldInfo {
        name: "must_move_b",
        values: "a square",
        default: "none",
        doc: "K-15: the square of the piece Black must move on its next decision",
    },
    FieldInfo {
        name: "must_move_w",
        values: "a square",
        default: "none",
        doc: "K-15: the square of the piece White must move on its next decision",
    },
    FieldInfo {
        name: "white_started",
        values: "true, false",
        default: "true",
        doc: "option starting_throw: whether White has thrown its first 1",
    },
];
