//! Endgame tables of any registered ruleset (feature `ai`): solving, reading and sizing them
//! for the configuration an [`AnyRuleset`] names, and the solved tables as [`AnyTables`].
//!
//! Front ends reach the solver through one object of [`EndgameOf`], made once by a visit to
//! the concrete ruleset; after that no call matches on the ruleset.

use core::fmt;
use std::sync::Arc;

use senet_ai::endgame::{
    Checkpoint, EndgameError, EndgameFiles, PositionOracle, SolveMethod, SolveOptions, SolveStats,
    ValueEncoding, endgames_or_unsupported,
};

use crate::AnyRuleset;
use crate::registry::{AnyOracle, Registered, RulesetVisitor};
use crate::simulation::MOST_PIECES_SOLVED_ON_DEMAND;

/// The endgame operations of one ruleset configuration, its type erased: the file
/// operations of every ruleset with a space, and its tables wrapped as [`AnyTables`]. Each
/// fails with [`EndgameError::Unsupported`] where the ruleset has no space.
trait EndgameOf {
    fn files(&self) -> Result<&dyn EndgameFiles, EndgameError>;
    fn tables(&self, rules: &AnyRuleset, solved: Solved<'_>) -> Result<AnyTables, EndgameError>;
}

/// Where the tables of [`EndgameOf::tables`] come from.
enum Solved<'a> {
    /// Solved in memory with up to this many pieces a side.
    InMemory(u8, &'a SolveOptions),
    /// Read from a table file.
    File(&'a [u8]),
}

impl<R: Registered> EndgameOf for R {
    fn files(&self) -> Result<&dyn EndgameFiles, EndgameError> {
        Ok(endgames_or_unsupported(self, self.endgames())?)
    }

    fn tables(&self, rules: &AnyRuleset, solved: Solved<'_>) -> Result<AnyTables, EndgameError> {
        let endgames = endgames_or_unsupported(self, self.endgames())?;
        let oracle = match solved {
            Solved::InMemory(max_pieces, options) => endgames.solve_oracle(max_pieces, options)?,
            Solved::File(bytes) => endgames.read_oracle(bytes)?,
        };
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
    error_bound: f64,
    oracle: AnyOracle,
}

impl fmt::Debug for AnyTables {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("AnyTables")
            .field("rules", &self.rules.to_string())
            .field("max_pieces", &self.max_pieces)
            .field("error_bound", &self.error_bound)
            .finish()
    }
}

impl AnyTables {
    fn new<R: Registered>(rules: AnyRuleset, oracle: Arc<dyn PositionOracle<R>>) -> AnyTables {
        AnyTables {
            rules,
            max_pieces: oracle.max_pieces(),
            description: oracle.describe(),
            error_bound: oracle.error_bound(),
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

    /// What the tables hold, in one line, their proven error bound included (see
    /// [`PositionOracle::describe`]).
    pub fn describe(&self) -> &str {
        &self.description
    }

    /// A proven bound on how far any value of the tables is from the game's value, the
    /// rounding of a table file's encoding included (see [`PositionOracle::error_bound`]).
    /// Tables solved in memory with the default options, or read from a file of 8 bytes a
    /// value, are exact: within [`EXACT_BOUND`](senet_ai::endgame::EXACT_BOUND).
    ///
    /// ```
    /// use senet::registry::AnyRuleset;
    /// use senet_ai::endgame::{EXACT_BOUND, SolveOptions, ValueEncoding};
    /// let rules = AnyRuleset::parse("regency").unwrap();
    /// let options = SolveOptions::default();
    /// let solved = rules.solve_endgame(1, &options).unwrap();
    /// assert!(solved.error_bound() > 0.0 && solved.error_bound() <= EXACT_BOUND);
    /// assert!(solved.describe().contains("(proven)"));
    /// // Two bytes a value round by up to 7.6e-6, which the file's bound counts.
    /// let (file, _) = rules.solve_endgame_file(1, &options, ValueEncoding::U16).unwrap();
    /// let read = rules.read_endgame_file(&file).unwrap();
    /// assert!(read.error_bound() > 7.6e-6 && read.error_bound() < 7.7e-6);
    /// let (full, _) = rules.solve_endgame_file(1, &options, ValueEncoding::F64).unwrap();
    /// assert_eq!(rules.read_endgame_file(&full).unwrap().error_bound(), solved.error_bound());
    /// ```
    pub fn error_bound(&self) -> f64 {
        self.error_bound
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
        self.endgame().files().is_ok_and(|e| e.supported())
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
        let endgame = self.endgame();
        let quick = (endgame.files().ok())
            .filter(|e| e.supported())
            .map(|e| e.pieces_solved_quickly());
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
        (self.endgame().files()?).solve_file(max_pieces, options, encoding, None)
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
        (self.endgame().files()?).solve_file(max_pieces, options, encoding, Some(checkpoint))
    }

    /// The positions and the estimated peak memory in bytes of solving the endgames with up
    /// to `max_pieces` pieces a side with `method` (see
    /// [`EndgameFiles::solve_size`]).
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
        self.endgame().files()?.solve_size(max_pieces, method)
    }

    /// Solves the endgames with up to `max_pieces` pieces a side, in memory, at the solver's
    /// precision.
    pub fn solve_endgame(
        &self,
        max_pieces: u8,
        options: &SolveOptions,
    ) -> Result<AnyTables, EndgameError> {
        (self.endgame()).tables(self, Solved::InMemory(max_pieces, options))
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
        self.endgame().tables(self, Solved::File(tables))
    }
}
