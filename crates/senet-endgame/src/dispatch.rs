//! Endgame tables for whichever ruleset generic code is playing.
//!
//! A ruleset with an endgame space implements [`EndgameRules`], which builds the space from
//! the ruleset value; code that knows its ruleset uses that trait directly
//! ([`EndgameRules::solve_endgames`], [`EndgameRules::read_endgames`]).
//!
//! Code written once for every [`Ruleset`] (the `PlayerSpec` builder of `senet-ai`,
//! the registry's `AnyRuleset` and `AnyPlayer`) cannot name a ruleset's space, so the
//! functions below look it up in [`endgame_rulesets!`]: the one list of the rulesets that have
//! a space. An entry whose type does not implement [`EndgameRules`] does not compile; a
//! ruleset missing from the list gives [`EndgameError::Unsupported`].

// In a build without any ruleset space, the lookup below has nothing to find.
#![cfg_attr(
    not(any(feature = "regency", feature = "kendall")),
    allow(unused_imports, unused_variables, dead_code)
)]

use core::any::Any;
use std::sync::Arc;

use senet_core::Ruleset;

use super::table::TableHeader;
use super::{
    Checkpoint, EndgameError, EndgameSpace, EndgameTable, PositionOracle, SolveMethod,
    SolveOptions, SolveStats, ValueEncoding, solve, solve_resumable,
};

/// A ruleset with an endgame space: builds the space of its endgames from the ruleset value.
///
/// ```
/// use senet::ai::endgame::{EndgameRules, PositionOracle, SolveOptions};
/// use senet::Regency;
/// let table = Regency::default().solve_endgames(1, &SolveOptions::default()).unwrap();
/// assert_eq!(table.max_pieces(), 1);
/// ```
pub trait EndgameRules: Ruleset {
    /// The space of its endgames.
    type Space: EndgameSpace<Rules = Self>;

    /// The configurations that have a space, for messages: `regency`, `kendall`.
    const ENDGAME_SPECS: &'static str;

    /// Bytes a solve takes per position at its peak, measured with 3 pieces a side
    /// (`docs/players.md`): Regency 960 MB for 9.8 million positions, the default; Kendall,
    /// whose programs are longer, 10.5 GB for 49.1 million.
    const PEAK_BYTES_PER_POSITION: u64 = 100;

    /// Whether this configuration has a space.
    fn has_endgame_space(&self) -> bool {
        true
    }

    /// Bytes a solve of this configuration takes per position at its peak:
    /// [`PEAK_BYTES_PER_POSITION`](EndgameRules::PEAK_BYTES_PER_POSITION) unless the
    /// configuration is solved another way.
    fn peak_bytes_per_position(&self) -> u64 {
        Self::PEAK_BYTES_PER_POSITION
    }

    /// Bytes a solve of this configuration with [`SolveMethod::OnDisk`] takes per position
    /// at its peak: 16 (Regency with 4 pieces a side took 14.5), unless the configuration
    /// needs more.
    fn on_disk_peak_bytes_per_position(&self) -> u64 {
        LEAN_PEAK_BYTES_PER_POSITION
    }

    /// The most pieces a side whose endgames solve in seconds, so that a front end may solve
    /// them when a run starts: 2, unless the configuration is slower.
    fn pieces_solved_quickly(&self) -> u8 {
        2
    }

    /// The space of positions with at most `max_pieces` pieces a side on the board; fails
    /// for options without a space and for a number of pieces out of range.
    fn endgame_space(&self, max_pieces: u8) -> Result<Self::Space, EndgameError>;

    /// Solves the endgames with up to `max_pieces` pieces a side.
    fn solve_endgames(
        &self,
        max_pieces: u8,
        options: &SolveOptions,
    ) -> Result<EndgameTable<Self::Space>, EndgameError> {
        solve(self.endgame_space(max_pieces)?, options)
    }

    /// Reads a table file written by [`EndgameTable::to_bytes`] for this configuration.
    fn read_endgames(&self, bytes: &[u8]) -> Result<EndgameTable<Self::Space>, EndgameError> {
        let (header, _) = TableHeader::parse(bytes)?;
        Ok(EndgameTable::from_bytes(
            self.endgame_space(header.max_pieces)?,
            bytes,
        )?)
    }
}

/// The endgame operations of one ruleset, with the space's type erased so that generic code
/// can hold them for its `R`.
trait ErasedEndgame<R: Ruleset> {
    fn supported(&self) -> bool;
    fn solve(
        &self,
        max_pieces: u8,
        options: &SolveOptions,
    ) -> Result<Arc<dyn PositionOracle<R>>, EndgameError>;
    fn solve_file(
        &self,
        max_pieces: u8,
        options: &SolveOptions,
        encoding: ValueEncoding,
        checkpoint: Option<&Checkpoint>,
    ) -> Result<(Vec<u8>, SolveStats), EndgameError>;
    fn read(&self, bytes: &[u8]) -> Result<Arc<dyn PositionOracle<R>>, EndgameError>;
    fn size(&self, max_pieces: u8, method: SolveMethod) -> Result<(usize, u64), EndgameError>;
    fn pieces_solved_quickly(&self) -> u8;
}

/// What a solve takes whatever its size (threads, tables of the space); Regency with 2
/// pieces a side peaks at 18 MB for 143,262 positions.
const BASE_BYTES: u64 = 16 << 20;
/// Bytes a position the on-disk and lean methods take at their peak where they keep only
/// the values (Regency with 4 pieces a side: 14.5, `docs/players.md`), and what they take
/// whatever the size (the programs' chunks in flight, the read-ahead).
const LEAN_PEAK_BYTES_PER_POSITION: u64 = 16;
const LEAN_BASE_BYTES: u64 = 64 << 20;

struct Typed<E>(E);

impl<E: EndgameRules> ErasedEndgame<E> for Typed<E> {
    fn supported(&self) -> bool {
        self.0.has_endgame_space()
    }

    fn solve(
        &self,
        max_pieces: u8,
        options: &SolveOptions,
    ) -> Result<Arc<dyn PositionOracle<E>>, EndgameError> {
        Ok(Arc::new(self.0.solve_endgames(max_pieces, options)?))
    }

    fn solve_file(
        &self,
        max_pieces: u8,
        options: &SolveOptions,
        encoding: ValueEncoding,
        checkpoint: Option<&Checkpoint>,
    ) -> Result<(Vec<u8>, SolveStats), EndgameError> {
        let table = match checkpoint {
            Some(checkpoint) => {
                solve_resumable(self.0.endgame_space(max_pieces)?, options, checkpoint)?
            }
            None => self.0.solve_endgames(max_pieces, options)?,
        };
        Ok((table.to_bytes(encoding), *table.stats()))
    }

    fn read(&self, bytes: &[u8]) -> Result<Arc<dyn PositionOracle<E>>, EndgameError> {
        Ok(Arc::new(self.0.read_endgames(bytes)?))
    }

    fn size(&self, max_pieces: u8, method: SolveMethod) -> Result<(usize, u64), EndgameError> {
        let positions = self.0.endgame_space(max_pieces)?.state_count();
        let (per_position, base) = match method {
            SolveMethod::Compiled => (self.0.peak_bytes_per_position(), BASE_BYTES),
            SolveMethod::OnDisk => (self.0.on_disk_peak_bytes_per_position(), LEAN_BASE_BYTES),
            SolveMethod::Lean => (LEAN_PEAK_BYTES_PER_POSITION, LEAN_BASE_BYTES),
        };
        let peak = (positions as u64)
            .saturating_mul(per_position)
            .saturating_add(base);
        Ok((positions, peak))
    }

    fn pieces_solved_quickly(&self) -> u8 {
        self.0.pieces_solved_quickly()
    }
}

/// The operations of `E` as those of `R`, when `R` is `E`. Without specialisation, generic
/// code learns that its `R` is a particular ruleset only by `Any`: this is the one place
/// that does it.
fn erased_as<R: Ruleset, E: EndgameRules>(rules: &R) -> Option<Box<dyn ErasedEndgame<R>>> {
    let rules = (rules as &dyn Any).downcast_ref::<E>()?;
    let erased: Box<dyn ErasedEndgame<E>> = Box::new(Typed(rules.clone()));
    let boxed: Box<dyn Any> = Box::new(erased);
    boxed
        .downcast::<Box<dyn ErasedEndgame<R>>>()
        .ok()
        .map(|b| *b)
}

/// Declares the rulesets that have an endgame space, each behind its feature.
macro_rules! endgame_rulesets {
    ($( $feature:literal => $ty:ty ),* $(,)?) => {
        /// The configurations this build has endgame spaces for.
        pub(crate) const SUPPORTED: &[&str] = &[
            $(
                #[cfg(feature = $feature)]
                <$ty as EndgameRules>::ENDGAME_SPECS,
            )*
        ];

        fn erased<R: Ruleset>(rules: &R) -> Option<Box<dyn ErasedEndgame<R>>> {
            $(
                #[cfg(feature = $feature)]
                if let Some(found) = erased_as::<R, $ty>(rules) {
                    return Some(found);
                }
            )*
            None
        }
    };
}

endgame_rulesets! {
    "regency" => senet_regency::Regency,
    "kendall" => senet_kendall::Kendall,
}

fn erased_or_unsupported<R: Ruleset>(rules: &R) -> Result<Box<dyn ErasedEndgame<R>>, EndgameError> {
    erased(rules).ok_or_else(|| EndgameError::Unsupported(rules.spec().to_string()))
}

/// Whether this build can solve endgames of `rules`, with its options.
pub fn supports_endgame<R: Ruleset>(rules: &R) -> bool {
    erased(rules).is_some_and(|e| e.supported())
}

/// The most pieces a side whose endgames of `rules` solve in seconds
/// ([`EndgameRules::pieces_solved_quickly`]), `None` when this build has no space for them.
///
/// ```
/// use senet::ai::endgame::pieces_solved_quickly;
/// use senet::kendall::{Kendall, ThrowTiming};
/// assert_eq!(pieces_solved_quickly(&senet::Regency::default()), Some(2));
/// assert_eq!(pieces_solved_quickly(&Kendall::default()), Some(1));
/// let immediate = Kendall::default().with_throw_timing(ThrowTiming::Immediate);
/// assert_eq!(pieces_solved_quickly(&immediate), Some(2));
/// ```
pub fn pieces_solved_quickly<R: Ruleset>(rules: &R) -> Option<u8> {
    erased(rules)
        .filter(|e| e.supported())
        .map(|e| e.pieces_solved_quickly())
}

/// Solves the endgames of `rules` with up to `max_pieces` pieces a side and returns the
/// table as an oracle for the players.
///
/// ```
/// use senet::ai::endgame::{SolveOptions, solve_for};
/// use senet::ai::endgame::PositionOracle;
/// use senet::Regency;
/// let oracle = solve_for(&Regency::default(), 1, &SolveOptions::default()).unwrap();
/// assert_eq!(oracle.max_pieces(), 1);
/// ```
pub fn solve_for<R: Ruleset>(
    rules: &R,
    max_pieces: u8,
    options: &SolveOptions,
) -> Result<Arc<dyn PositionOracle<R>>, EndgameError> {
    erased_or_unsupported(rules)?.solve(max_pieces, options)
}

/// Solves the endgames of `rules` with up to `max_pieces` pieces a side and returns the
/// table file (see [`table`](super::table)) with the solver's statistics: what a program
/// that saves tables for later needs, without naming the ruleset's space.
///
/// ```
/// use senet::ai::endgame::{SolveOptions, ValueEncoding, read_for, solve_file_for};
/// use senet::Regency;
/// let rules = Regency::default();
/// let (bytes, stats) = solve_file_for(&rules, 1, &SolveOptions::default(), ValueEncoding::U16)
///     .unwrap();
/// assert_eq!(stats.states, 756);
/// assert_eq!(read_for(&rules, &bytes).unwrap().max_pieces(), 1);
/// ```
pub fn solve_file_for<R: Ruleset>(
    rules: &R,
    max_pieces: u8,
    options: &SolveOptions,
    encoding: ValueEncoding,
) -> Result<(Vec<u8>, SolveStats), EndgameError> {
    erased_or_unsupported(rules)?.solve_file(max_pieces, options, encoding, None)
}

/// Like [`solve_file_for`], keeping the solve's progress in `checkpoint` and going on from
/// it (see [`solve_resumable`]).
pub fn solve_file_resumable_for<R: Ruleset>(
    rules: &R,
    max_pieces: u8,
    options: &SolveOptions,
    encoding: ValueEncoding,
    checkpoint: &Checkpoint,
) -> Result<(Vec<u8>, SolveStats), EndgameError> {
    erased_or_unsupported(rules)?.solve_file(max_pieces, options, encoding, Some(checkpoint))
}

/// What solving the endgames of `rules` with up to `max_pieces` pieces a side with `method`
/// would take, found without solving: the number of positions and an estimate of the peak
/// memory in bytes (from the peaks measured), for a program that must refuse a solve that
/// cannot fit before it starts.
///
/// ```
/// use senet::ai::endgame::{SolveMethod, solve_size_for};
/// use senet::Regency;
/// let (positions, bytes) = solve_size_for(&Regency::default(), 3, SolveMethod::Compiled).unwrap();
/// assert_eq!(positions, 9_807_462);
/// assert!(bytes > 960_000_000 && bytes < 1_100_000_000);
/// let (_, on_disk) = solve_size_for(&Regency::default(), 3, SolveMethod::OnDisk).unwrap();
/// assert!(on_disk < bytes / 4);
/// ```
pub fn solve_size_for<R: Ruleset>(
    rules: &R,
    max_pieces: u8,
    method: SolveMethod,
) -> Result<(usize, u64), EndgameError> {
    erased_or_unsupported(rules)?.size(max_pieces, method)
}

/// Reads a table file written by [`EndgameTable::to_bytes`] for `rules`; the file must have
/// been solved for the same ruleset with the same options.
pub fn read_for<R: Ruleset>(
    rules: &R,
    bytes: &[u8],
) -> Result<Arc<dyn PositionOracle<R>>, EndgameError> {
    erased_or_unsupported(rules)?.read(bytes)
}
