//! Endgame tables of any registered ruleset (feature `ai`): solving, reading and sizing them
//! for the configuration an [`AnyRuleset`] names, and the solved tables as [`AnyTables`].
//!
//! Front ends reach the solver through one object of [`EndgameOf`], made once by a visit to
//! the concrete ruleset; after that no call matches on the ruleset.

use core::fmt;
use std::sync::Arc;

use senet_ai::endgame::{
    Checkpoint, EndgameError, Endgames, PositionOracle, SolveMethod, SolveOptions, SolveStats,
    ValueEncoding, endgames_or_unsupported,
};

use crate::AnyRuleset;
use crate::registry::{AnyOracle, Registered, RulesetVisitor};
use crate::simulation::MOST_PIECES_SOLVED_ON_DEMAND;

/// The endgame operations of one ruleset configuration, its type erased: every registered
/// ruleset has them, failing with [`EndgameError::Unsupported`] where it has no space.
trait EndgameOf {
    fn supported(&self) -> bool;
    fn pieces_solved_quickly(&self) -> Option<u8>;
    fn size(&self, max_pieces: u8, method: SolveMethod) -> Result<(usize, u64), EndgameError>;
    fn solve_file(
        &self,
        max_pieces: u8,
        options: &SolveOptions,
        encoding: ValueEncoding,
        checkpoint: Option<&Checkpoint>,
    ) -> Result<(Vec<u8>, SolveStats), EndgameError>;
    fn solve(
        &self,
        rules: &AnyRuleset,
        max_pieces: u8,
        options: &SolveOptions,
    ) -> Result<AnyTables, EndgameError>;
    fn read(&self, rules: &AnyRuleset, bytes: &[u8]) -> Result<AnyTables, EndgameError>;
}

/// The ruleset's [`Endgames`], or the error that it has none.
fn endgames_of<R: Registered>(rules: &R) -> Result<&dyn Endgames<R>, EndgameError> {
    endgames_or_unsupported(rules, rules.endgames())
}

impl<R: Registered> EndgameOf for R {
    fn supported(&self) -> bool {
        self.endgames().is_some_and(|e| e.supported())
    }

    fn pieces_solved_quickly(&self) -> Option<u8> {
        self.endgames()
            .filter(|e| e.supported())
            .map(|e| e.pieces_solved_quickly())
    }

    fn size(&self, max_pieces: u8, method: SolveMethod) -> Result<(usize, u64), EndgameError> {
        endgames_of(self)?.solve_size(max_pieces, method)
    }

    fn solve_file(
        &self,
        max_pieces: u8,
        options: &SolveOptions,
        encoding: ValueEncoding,
        checkpoint: Option<&Checkpoint>,
    ) -> Result<(Vec<u8>, SolveStats), EndgameError> {
        endgames_of(self)?.solve_file(max_pieces, options, encoding, checkpoint)
    }

    fn solve(
        &self,
        rules: &AnyRuleset,
        max_pieces: u8,
        options: &SolveOptions,
    ) -> Result<AnyTables, EndgameError> {
        let oracle = endgames_of(self)?.solve_oracle(max_pieces, options)?;
        Ok(AnyTables::new(rules.clone(), oracle))
    }

    fn read(&self, rules: &AnyRuleset, bytes: &[u8]) -> Result<AnyTables, EndgameError> {
        let oracle = endgames_of(self)?.read_oracle(bytes)?;
        Ok(AnyTables::new(rules.clone(), oracle))
    }
}

/// The [`EndgameOf`] of the ruleset visited.
struct MakeEndgame;

impl RulesetVisitor for MakeEndgame {
    type Output = Box<dyn EndgameOf>;

    fn visit<R: Registered>(self, rules: &R) -> Box<dyn EndgameOf> {
        Box::new(rules.clone())
    }
}

/// Solved endgame tables of one ruleset configuration, read from a table file or solved in
/// memory, for any number of perfect players ([`AnyPlayer::with_tables`](crate::AnyPlayer::with_tables)) and for generic
/// code of that ruleset ([`AnyTables::oracle`]).
#[derive(Clone)]
pub struct AnyTables {
    rules: AnyRuleset,
    max_pieces: u8,
    description: String,
    oracle: AnyOracle,
}

impl fmt::Debug for AnyTables {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("AnyTables")
            .field("rules", &self.rules.to_string())
            .field("max_pieces", &self.max_pieces)
            .finish()
    }
}

impl AnyTables {
    fn new<R: Registered>(rules: AnyRuleset, oracle: Arc<dyn PositionOracle<R>>) -> AnyTables {
        AnyTables {
            rules,
            max_pieces: oracle.max_pieces(),
            description: oracle.describe(),
            oracle: R::any_oracle(oracle),
        }
    }

    /// The ruleset configuration the tables were solved for.
    pub fn rules(&self) -> &AnyRuleset {
        &self.rules
    }

    /// The most pieces a side the tables cover.
    pub fn max_pieces(&self) -> u8 {
        self.max_pieces
    }

    /// What the tables hold, in one line (see [`PositionOracle::describe`]).
    pub fn describe(&self) -> &str {
        &self.description
    }

    /// The tables as the typed oracle of `R`, for generic code reached through a
    /// [`RulesetVisitor`](crate::registry::RulesetVisitor); `None` when `R` is not their
    /// ruleset.
    ///
    /// ```
    /// use senet::registry::AnyRuleset;
    /// use senet_ai::endgame::SolveOptions;
    /// let tables = AnyRuleset::parse("regency").unwrap()
    ///     .solve_endgame(1, &SolveOptions::default())
    ///     .unwrap();
    /// assert_eq!(tables.oracle::<senet::Regency>().unwrap().max_pieces(), 1);
    /// assert!(tables.oracle::<senet::Kendall>().is_none());
    /// ```
    pub fn oracle<R: Registered>(&self) -> Option<Arc<dyn PositionOracle<R>>> {
        R::tables_in(&self.oracle)
    }
}

impl AnyRuleset {
    /// The endgame operations of this configuration.
    fn endgame(&self) -> Box<dyn EndgameOf> {
        self.visit(MakeEndgame)
    }

    /// Whether this build can solve endgames of this configuration.
    ///
    /// ```
    /// use senet::registry::AnyRuleset;
    /// assert!(AnyRuleset::parse("regency").unwrap().supports_endgame());
    /// assert!(AnyRuleset::parse("kendall(throw_timing=immediate)").unwrap().supports_endgame());
    /// assert!(AnyRuleset::parse("kendall").unwrap().supports_endgame());
    /// assert!(!AnyRuleset::parse("bell").unwrap().supports_endgame());
    /// ```
    pub fn supports_endgame(&self) -> bool {
        self.endgame().supported()
    }

    /// The most pieces a side whose endgames a front end solves when a run starts: those
    /// that take seconds ([`MOST_PIECES_SOLVED_ON_DEMAND`], 1 for Kendall with stored
    /// throws). Larger tables are solved once with `senet solve` and read from a file.
    ///
    /// ```
    /// use senet::registry::AnyRuleset;
    /// assert_eq!(AnyRuleset::parse("regency").unwrap().endgame_pieces_on_demand(), 2);
    /// assert_eq!(AnyRuleset::parse("kendall").unwrap().endgame_pieces_on_demand(), 1);
    /// ```
    ///
    /// [`MOST_PIECES_SOLVED_ON_DEMAND`]: crate::simulation::MOST_PIECES_SOLVED_ON_DEMAND
    pub fn endgame_pieces_on_demand(&self) -> u8 {
        let quick = self.endgame().pieces_solved_quickly();
        quick.map_or(MOST_PIECES_SOLVED_ON_DEMAND, |k| {
            k.min(MOST_PIECES_SOLVED_ON_DEMAND)
        })
    }

    /// Solves the endgames with up to `max_pieces` pieces a side and returns the table file
    /// (for [`AnyPlayer::with_table_file`](crate::AnyPlayer::with_table_file)) with the solver's statistics.
    pub fn solve_endgame_file(
        &self,
        max_pieces: u8,
        options: &SolveOptions,
        encoding: ValueEncoding,
    ) -> Result<(Vec<u8>, SolveStats), EndgameError> {
        self.endgame()
            .solve_file(max_pieces, options, encoding, None)
    }

    /// Like [`solve_endgame_file`](Self::solve_endgame_file), keeping the solve's progress in
    /// `checkpoint` and going on from it (see [`senet_ai::endgame::solve_resumable`]).
    pub fn solve_endgame_file_resumable(
        &self,
        max_pieces: u8,
        options: &SolveOptions,
        encoding: ValueEncoding,
        checkpoint: &Checkpoint,
    ) -> Result<(Vec<u8>, SolveStats), EndgameError> {
        self.endgame()
            .solve_file(max_pieces, options, encoding, Some(checkpoint))
    }

    /// The positions and the estimated peak memory in bytes of solving the endgames with up
    /// to `max_pieces` pieces a side with `method` (see
    /// [`Endgames::solve_size`]).
    ///
    /// ```
    /// use senet::ai::endgame::SolveMethod;
    /// use senet::registry::AnyRuleset;
    /// let regency = AnyRuleset::parse("regency").unwrap();
    /// let (positions, peak) = regency.endgame_solve_size(2, SolveMethod::Compiled).unwrap();
    /// assert!(positions > 0 && peak > positions as u64);
    /// let bell = AnyRuleset::parse("bell").unwrap();
    /// assert!(bell.endgame_solve_size(2, SolveMethod::Compiled).is_err());
    /// ```
    pub fn endgame_solve_size(
        &self,
        max_pieces: u8,
        method: SolveMethod,
    ) -> Result<(usize, u64), EndgameError> {
        self.endgame().size(max_pieces, method)
    }

    /// Solves the endgames with up to `max_pieces` pieces a side, in memory, at the solver's
    /// precision.
    pub fn solve_endgame(
        &self,
        max_pieces: u8,
        options: &SolveOptions,
    ) -> Result<AnyTables, EndgameError> {
        self.endgame().solve(self, max_pieces, options)
    }

    /// Reads a table file (written by [`AnyRuleset::solve_endgame_file`]), which must have
    /// been solved for this configuration.
    ///
    /// ```
    /// use senet::registry::AnyRuleset;
    /// use senet_ai::endgame::{SolveOptions, ValueEncoding};
    /// let rules = AnyRuleset::parse("regency").unwrap();
    /// let options = SolveOptions::default();
    /// let (file, _) = rules.solve_endgame_file(1, &options, ValueEncoding::U16).unwrap();
    /// assert_eq!(rules.read_endgame_file(&file).unwrap().max_pieces(), 1);
    /// let other = AnyRuleset::parse("regency(house_of_water=true)").unwrap();
    /// assert!(other.read_endgame_file(&file).is_err());
    /// ```
    pub fn read_endgame_file(&self, tables: &[u8]) -> Result<AnyTables, EndgameError> {
        self.endgame().read(self, tables)
    }
}
