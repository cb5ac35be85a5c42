//! Endgame tables for whichever ruleset generic code is playing.
//!
//! Code written once for every [`Ruleset`] (the CLI, the [`PlayerSpec`](crate::PlayerSpec)
//! builder) cannot name a ruleset's endgame space. These functions find it by the ruleset's
//! type: the rulesets with a space are listed in [`SUPPORTED`]; any other gives
//! [`EndgameError::Unsupported`]. A ruleset of your own with an [`EndgameSpace`] does not
//! need them: solve it with [`solve`](super::solve) and hand the table to the player.

// In a build without any ruleset space, the conversions below have nothing to convert.
#![cfg_attr(
    not(any(feature = "regency", feature = "kendall")),
    allow(unused_imports, unused_variables, dead_code)
)]

use core::any::Any;
use std::sync::Arc;

use senet_core::Ruleset;

use super::table::TableHeader;
use super::{
    EndgameError, EndgameSpace, EndgameTable, PositionOracle, SolveOptions, SolveStats,
    ValueEncoding, solve,
};

/// The ids of the rulesets this build has endgame spaces for.
pub(crate) const SUPPORTED: &[&str] = &[
    #[cfg(feature = "regency")]
    "regency",
    #[cfg(feature = "kendall")]
    "kendall(throw_timing=immediate)",
];

/// Whether this build can solve endgames of `rules`, with its options (Kendall's only with
/// immediate throws).
pub fn supports_endgame<R: Ruleset>(rules: &R) -> bool {
    #[cfg(feature = "regency")]
    if core::any::TypeId::of::<R>() == core::any::TypeId::of::<senet_regency::Regency>() {
        return true;
    }
    #[cfg(feature = "kendall")]
    if let Some(kendall) = (rules as &dyn Any).downcast_ref::<senet_kendall::Kendall>() {
        return kendall.throw_timing() == senet_kendall::ThrowTiming::Immediate;
    }
    false
}

/// Turns a table of one ruleset into an oracle for `R`, which is that same ruleset (the
/// caller has checked the type): `Arc<dyn PositionOracle<Regency>>` and
/// `Arc<dyn PositionOracle<R>>` are then the same type, and `Any` converts between them
/// without `unsafe`.
fn as_oracle_of<R: Ruleset, S: EndgameSpace>(
    table: EndgameTable<S>,
) -> Result<Arc<dyn PositionOracle<R>>, EndgameError> {
    let oracle: Arc<dyn PositionOracle<S::Rules>> = Arc::new(table);
    let boxed: Box<dyn Any> = Box::new(oracle);
    boxed
        .downcast::<Arc<dyn PositionOracle<R>>>()
        .map(|b| *b)
        .map_err(|_| EndgameError::Unsupported(R::ID.to_string()))
}

/// Solves the endgames of `rules` with up to `max_pieces` pieces a side and returns the
/// table as an oracle for the players.
///
/// ```
/// use senet_ai::endgame::{SolveOptions, solve_for};
/// use senet_ai::endgame::PositionOracle;
/// use senet_regency::Regency;
/// let oracle = solve_for(&Regency::default(), 1, &SolveOptions::default()).unwrap();
/// assert_eq!(oracle.max_pieces(), 1);
/// ```
pub fn solve_for<R: Ruleset>(
    rules: &R,
    max_pieces: u8,
    options: &SolveOptions,
) -> Result<Arc<dyn PositionOracle<R>>, EndgameError> {
    #[cfg(feature = "regency")]
    if let Some(regency) = (rules as &dyn Any).downcast_ref::<senet_regency::Regency>() {
        let space = super::RegencyEndgame::new(*regency, max_pieces)?;
        return as_oracle_of::<R, _>(solve(space, options)?);
    }
    #[cfg(feature = "kendall")]
    if let Some(kendall) = (rules as &dyn Any).downcast_ref::<senet_kendall::Kendall>() {
        let space = super::KendallEndgame::new(*kendall, max_pieces)?;
        return as_oracle_of::<R, _>(solve(space, options)?);
    }
    Err(EndgameError::Unsupported(rules.spec().to_string()))
}

/// Solves the endgames of `rules` with up to `max_pieces` pieces a side and returns the
/// table file (see [`table`](super::table)) with the solver's statistics: what a program
/// that saves tables for later needs, without naming the ruleset's space.
///
/// ```
/// use senet_ai::endgame::{SolveOptions, ValueEncoding, read_for, solve_file_for};
/// use senet_regency::Regency;
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
    #[cfg(feature = "regency")]
    if let Some(regency) = (rules as &dyn Any).downcast_ref::<senet_regency::Regency>() {
        let table = solve(super::RegencyEndgame::new(*regency, max_pieces)?, options)?;
        return Ok((table.to_bytes(encoding), *table.stats()));
    }
    #[cfg(feature = "kendall")]
    if let Some(kendall) = (rules as &dyn Any).downcast_ref::<senet_kendall::Kendall>() {
        let table = solve(super::KendallEndgame::new(*kendall, max_pieces)?, options)?;
        return Ok((table.to_bytes(encoding), *table.stats()));
    }
    Err(EndgameError::Unsupported(rules.spec().to_string()))
}

/// Reads a table file written by [`EndgameTable::to_bytes`] for `rules`; the file must have
/// been solved for the same ruleset with the same options.
pub fn read_for<R: Ruleset>(
    rules: &R,
    bytes: &[u8],
) -> Result<Arc<dyn PositionOracle<R>>, EndgameError> {
    let (header, _) = TableHeader::parse(bytes)?;
    #[cfg(feature = "regency")]
    if let Some(regency) = (rules as &dyn Any).downcast_ref::<senet_regency::Regency>() {
        let space = super::RegencyEndgame::new(*regency, header.max_pieces)?;
        return as_oracle_of::<R, _>(EndgameTable::from_bytes(space, bytes)?);
    }
    #[cfg(feature = "kendall")]
    if let Some(kendall) = (rules as &dyn Any).downcast_ref::<senet_kendall::Kendall>() {
        let space = super::KendallEndgame::new(*kendall, header.max_pieces)?;
        return as_oracle_of::<R, _>(EndgameTable::from_bytes(space, bytes)?);
    }
    Err(EndgameError::Unsupported(rules.spec().to_string()))
}
