//! Endgame tables for whichever ruleset generic code is playing.
//!
//! A ruleset with an endgame space implements [`EndgameRules`], which builds the space from
//! the ruleset value; code that knows its ruleset uses that trait directly
//! ([`EndgameRules::solve_endgames`], [`EndgameRules::read_endgames`]).
//!
//! Code written once for every [`Ruleset`] (the players' builder, the facade's registry)
//! cannot name a ruleset's space. It holds an `Option<&dyn Endgames<R>>` instead: the
//! object-safe view of [`EndgameRules`] that every ruleset with a space has, and that the
//! registry hands out for the rulesets it knows to have one.

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
    /// at its peak: 16 (Regency with 4 pieces a side took 14.5, its brackets take about
    /// 13.4), unless the configuration needs more.
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

/// The endgame operations of a ruleset with a space that do not name its states: whether it
/// has one, what a solve would take, and the table file of a solve. Object-safe and free of
/// the ruleset's type, so that a front end holding any ruleset can reach them; every
/// [`EndgameRules`] ruleset is one, and [`Endgames`] adds the typed oracles.
///
/// ```
/// use senet::ai::endgame::{EndgameFiles, SolveMethod, SolveOptions, ValueEncoding};
/// let rules = senet::Regency::default();
/// let files: &dyn EndgameFiles = &rules;
/// assert!(files.supported());
/// let (bytes, stats) = files
///     .solve_file(1, &SolveOptions::default(), ValueEncoding::U16, None)
///     .unwrap();
/// assert_eq!(stats.states, 756);
/// assert!(!bytes.is_empty());
/// let (positions, bytes) = files.solve_size(3, SolveMethod::Compiled).unwrap();
/// assert_eq!(positions, 9_807_462);
/// assert!(bytes > 960_000_000 && bytes < 1_100_000_000);
/// let (_, on_disk) = files.solve_size(3, SolveMethod::OnDisk).unwrap();
/// assert!(on_disk < bytes / 4);
/// ```
pub trait EndgameFiles {
    /// Whether this configuration has a space (Kendall's options without one say no).
    fn supported(&self) -> bool;

    /// The most pieces a side whose endgames solve in seconds
    /// ([`EndgameRules::pieces_solved_quickly`]).
    fn pieces_solved_quickly(&self) -> u8;

    /// What solving the endgames with up to `max_pieces` pieces a side with `method` would
    /// take, found without solving: the number of positions and an estimate of the peak
    /// memory in bytes (from the peaks measured), for a program that must refuse a solve that
    /// cannot fit before it starts.
    fn solve_size(&self, max_pieces: u8, method: SolveMethod)
    -> Result<(usize, u64), EndgameError>;

    /// Solves the endgames with up to `max_pieces` pieces a side and returns the table file
    /// (see [`table`](super::table)) with the solver's statistics; with a `checkpoint`, keeps
    /// the solve's progress there and goes on from it (see [`solve_resumable`]).
    fn solve_file(
        &self,
        max_pieces: u8,
        options: &SolveOptions,
        encoding: ValueEncoding,
        checkpoint: Option<&Checkpoint>,
    ) -> Result<(Vec<u8>, SolveStats), EndgameError>;
}

/// The endgame operations of a ruleset with a space, object-safe so that code generic over
/// any [`Ruleset`] can hold them as `&dyn Endgames<R>`: [`EndgameFiles`] and the solved
/// tables as oracles for players. Every [`EndgameRules`] ruleset is one.
///
/// ```
/// use senet::ai::endgame::{Endgames, PositionOracle, SolveOptions, ValueEncoding};
/// use senet::Regency;
/// let rules = Regency::default();
/// let endgames: &dyn Endgames<Regency> = &rules;
/// let oracle = endgames.solve_oracle(1, &SolveOptions::default()).unwrap();
/// assert_eq!(oracle.max_pieces(), 1);
/// let (bytes, _) = endgames
///     .solve_file(1, &SolveOptions::default(), ValueEncoding::U16, None)
///     .unwrap();
/// assert_eq!(endgames.read_oracle(&bytes).unwrap().max_pieces(), 1);
/// ```
pub trait Endgames<R: Ruleset>: EndgameFiles {
    /// Solves the endgames with up to `max_pieces` pieces a side, as an oracle for players.
    fn solve_oracle(
        &self,
        max_pieces: u8,
        options: &SolveOptions,
    ) -> Result<Arc<dyn PositionOracle<R>>, EndgameError>;

    /// Reads a table file written by [`EndgameTable::to_bytes`]; the file must have been
    /// solved for the same ruleset with the same options.
    fn read_oracle(&self, bytes: &[u8]) -> Result<Arc<dyn PositionOracle<R>>, EndgameError>;
}

/// What a solve takes whatever its size (threads, tables of the space); Regency with 2
/// pieces a side peaks at 18 MB for 143,262 positions.
const BASE_BYTES: u64 = 16 << 20;
/// Bytes a position the on-disk and lean methods take at their peak where they keep only
/// the values (Regency with 4 pieces a side: 14.5, `docs/players.md`), and what they take
/// whatever the size (the programs' chunks in flight, the read-ahead). On disk the layer
/// swept whole is bracketed in its own vector, 16 bytes a position of it where its values
/// and their last changes took 12: with the largest layer two thirds of the space (Regency
/// with 4 pieces a side), 8 + 16 · 2/3 = 13.4 bytes a position, under the 14.5 of writing
/// it back.
const LEAN_PEAK_BYTES_PER_POSITION: u64 = 16;
/// The lean method's brackets take 16 bytes a position of the layer beside the values of
/// the whole space in place (8) and the sweep order (4): 8 + 20 · 2/3, about 22 for
/// Regency with 4 pieces a side.
const LEAN_BRACKETS_PEAK_BYTES_PER_POSITION: u64 = 22;
const LEAN_BASE_BYTES: u64 = 64 << 20;

impl<E: EndgameRules> EndgameFiles for E {
    fn supported(&self) -> bool {
        self.has_endgame_space()
    }

    fn pieces_solved_quickly(&self) -> u8 {
        EndgameRules::pieces_solved_quickly(self)
    }

    fn solve_size(
        &self,
        max_pieces: u8,
        method: SolveMethod,
    ) -> Result<(usize, u64), EndgameError> {
        let positions = self.endgame_space(max_pieces)?.state_count();
        let (per_position, base) = match method {
            SolveMethod::Compiled => (self.peak_bytes_per_position(), BASE_BYTES),
            SolveMethod::OnDisk => (self.on_disk_peak_bytes_per_position(), LEAN_BASE_BYTES),
            SolveMethod::Lean => (LEAN_BRACKETS_PEAK_BYTES_PER_POSITION, LEAN_BASE_BYTES),
        };
        let peak = (positions as u64)
            .saturating_mul(per_position)
            .saturating_add(base);
        Ok((positions, peak))
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
                solve_resumable(self.endgame_space(max_pieces)?, options, checkpoint)?
            }
            None => self.solve_endgames(max_pieces, options)?,
        };
        Ok((table.to_bytes(encoding), *table.stats()))
    }
}

impl<E: EndgameRules> Endgames<E> for E {
    fn solve_oracle(
        &self,
        max_pieces: u8,
        options: &SolveOptions,
    ) -> Result<Arc<dyn PositionOracle<E>>, EndgameError> {
        Ok(Arc::new(self.solve_endgames(max_pieces, options)?))
    }

    fn read_oracle(&self, bytes: &[u8]) -> Result<Arc<dyn PositionOracle<E>>, EndgameError> {
        Ok(Arc::new(self.read_endgames(bytes)?))
    }
}

/// The endgame operations of `rules` when it has them (`endgames`), or the error that says
/// it has none: what generic code that was handed an `Option<&dyn Endgames<R>>` calls.
///
/// ```
/// use senet::ai::endgame::{EndgameError, Endgames, endgames_or_unsupported};
/// let bell = senet::Bell::default();
/// let none: Option<&dyn Endgames<senet::Bell>> = None;
/// assert!(matches!(endgames_or_unsupported(&bell, none), Err(EndgameError::Unsupported(_))));
/// ```
pub fn endgames_or_unsupported<'a, R: Ruleset>(
    rules: &R,
    endgames: Option<&'a dyn Endgames<R>>,
) -> Result<&'a dyn Endgames<R>, EndgameError> {
    endgames.ok_or_else(|| EndgameError::Unsupported(rules.spec().to_string()))
}
