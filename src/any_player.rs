//! Computer players and endgame tables for a game of any registered ruleset (feature `ai`).
//!
//! ```
//! use rand_chacha::ChaCha8Rng;
//! use rand_core::SeedableRng;
//! use senet::registry::AnyRuleset;
//! use senet::{AnyGame, AnyPlayer, Phase};
//!
//! let rules = AnyRuleset::parse("piccione").unwrap();
//! let mut players = [
//!     AnyPlayer::parse("greedy", &rules).unwrap(),
//!     AnyPlayer::parse("expectiminimax:1", &rules).unwrap(),
//! ];
//! let mut rng = ChaCha8Rng::seed_from_u64(3);
//! let mut game = AnyGame::new(rules);
//! while let Some(side) = game.phase().side() {
//!     if let Phase::Throw(_) = game.phase() {
//!         game.throw_random(&mut rng).unwrap();
//!     } else {
//!         let analysis = players[side.index()].analyse(&game, &mut rng).unwrap();
//!         assert!(analysis.moves().iter().all(|m| game.legal_moves().contains(&m.mv)));
//!         game.play(analysis.chosen()).unwrap();
//!     }
//! }
//! assert!(game.outcome().is_some());
//! ```

use core::any::Any;
use core::fmt;
use std::sync::Arc;

use senet_ai::endgame::{
    Checkpoint, EndgameError, PositionOracle, SolveMethod, SolveOptions, SolveStats, ValueEncoding,
    pieces_solved_quickly, read_for, solve_file_for, solve_file_resumable_for, solve_for,
    solve_size_for, supports_endgame,
};
use senet_ai::{Analysis, PlayerError, PlayerSpec, PlayerSpecError};
use senet_core::rand_core::Rng;
use senet_core::{Move, Ruleset};

use crate::AnyGame;
use crate::simulation::MOST_PIECES_SOLVED_ON_DEMAND;
use crate::registry::{
    AnyRuleset, PlayerOf, from_rules, with_player, with_player_and_game, with_rules,
};

/// A computer player (see [`senet_ai::PlayerSpec`]) made for one ruleset configuration, for
/// games of that configuration.
pub struct AnyPlayer {
    rules: AnyRuleset,
    player: PlayerOf,
}

impl fmt::Debug for AnyPlayer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("AnyPlayer")
            .field("rules", &self.rules.to_string())
            .field("player", &self.name())
            .finish()
    }
}

impl AnyPlayer {
    /// The player `spec` names, for games of `rules`. A perfect player solves its tables
    /// first (see [`PlayerSpec::build`]) and fails for a ruleset without an endgame space.
    pub fn new(spec: &PlayerSpec, rules: &AnyRuleset) -> Result<AnyPlayer, PlayerSpecError> {
        let player: Result<PlayerOf, PlayerSpecError> =
            from_rules!(PlayerOf, *rules, ref r => spec.build(r));
        let player = player?;
        Ok(AnyPlayer {
            rules: rules.clone(),
            player,
        })
    }

    /// The player named by `text` (`greedy`, `expectiminimax:3`, `perfect:2`…), for games
    /// of `rules`.
    ///
    /// ```
    /// use senet::AnyPlayer;
    /// let rules = "bell".parse().unwrap();
    /// assert_eq!(AnyPlayer::parse("mcts:50", &rules).unwrap().name(), "mcts:50");
    /// assert!(AnyPlayer::parse("alphazero", &rules).is_err());
    /// // Bell's rules have no endgame space, so no perfect player.
    /// assert!(AnyPlayer::parse("perfect:1", &rules).is_err());
    /// ```
    pub fn parse(text: &str, rules: &AnyRuleset) -> Result<AnyPlayer, PlayerSpecError> {
        AnyPlayer::new(&text.parse()?, rules)
    }

    /// The player `spec` names, for games of `rules`; a perfect player plays from the table
    /// file `tables` (see [`AnyRuleset::solve_endgame_file`]), which must have been solved
    /// for the same configuration. Other players ignore the file.
    pub fn with_table_file(
        spec: &PlayerSpec,
        rules: &AnyRuleset,
        tables: &[u8],
    ) -> Result<AnyPlayer, PlayerSpecError> {
        let player: Result<PlayerOf, PlayerSpecError> = from_rules!(PlayerOf, *rules, ref r => match spec {
            PlayerSpec::Perfect(_) => read_for(r, tables)
                .map_err(PlayerSpecError::from)
                .and_then(|oracle| spec.build_with_tables(r, oracle)),
            _ => spec.build(r),
        });
        let player = player?;
        Ok(AnyPlayer {
            rules: rules.clone(),
            player,
        })
    }

    /// The player `spec` names, for games of `rules`; a perfect player plays from `tables`
    /// (whatever number of pieces they cover), shared with every other player made from
    /// them. Refused when the tables were solved for another configuration. Other players
    /// ignore the tables.
    ///
    /// ```
    /// use senet::AnyPlayer;
    /// use senet::registry::AnyRuleset;
    /// use senet_ai::endgame::SolveOptions;
    /// let rules = AnyRuleset::parse("regency").unwrap();
    /// let tables = rules.solve_endgame(1, &SolveOptions::default()).unwrap();
    /// let perfect = AnyPlayer::with_tables(&"perfect".parse().unwrap(), &rules, &tables);
    /// assert_eq!(perfect.unwrap().name(), "perfect:1");
    /// let other = AnyRuleset::parse("regency(house_of_water=true)").unwrap();
    /// assert!(AnyPlayer::with_tables(&"perfect".parse().unwrap(), &other, &tables).is_err());
    /// ```
    pub fn with_tables(
        spec: &PlayerSpec,
        rules: &AnyRuleset,
        tables: &AnyTables,
    ) -> Result<AnyPlayer, PlayerSpecError> {
        let player: Result<PlayerOf, PlayerSpecError> = from_rules!(PlayerOf, *rules, ref r => match (spec, tables.oracle()) {
            (PlayerSpec::Perfect(_), Some(oracle)) => spec.build_with_tables(r, oracle),
            (PlayerSpec::Perfect(_), None) => Err(PlayerSpecError::from(
                EndgameError::RulesetMismatch {
                    table: tables.rules.to_string(),
                    game: rules.to_string(),
                },
            )),
            _ => spec.build(r),
        });
        let player = player?;
        Ok(AnyPlayer {
            rules: rules.clone(),
            player,
        })
    }

    /// The player's name, as a [`PlayerSpec`] would print it.
    pub fn name(&self) -> String {
        with_player!(self.player, ref p => p.name())
    }

    /// The ruleset configuration the player was made for.
    pub fn rules(&self) -> &AnyRuleset {
        &self.rules
    }

    /// The player's value of each legal move of `game` and its choice among them (see
    /// [`senet_ai::Player::analyse`]). Refused when no move is due, or when `game` is played
    /// under another configuration than the player was made for.
    pub fn analyse(&mut self, game: &AnyGame, rng: &mut dyn Rng) -> Result<Analysis, PlayerError> {
        self.check_rules(game)?;
        with_player_and_game!(&mut self.player, &game.0, p, g => {
            p.analyse(g.rules(), g.state(), rng)
        }, Err(self.other_rules(game)))
    }

    /// The player's move in `game` (see [`senet_ai::Player::choose`]); refused as
    /// [`analyse`](AnyPlayer::analyse) is.
    pub fn choose(&mut self, game: &AnyGame, rng: &mut dyn Rng) -> Result<Move, PlayerError> {
        self.check_rules(game)?;
        with_player_and_game!(&mut self.player, &game.0, p, g => {
            p.choose(g.rules(), g.state(), rng)
        }, Err(self.other_rules(game)))
    }

    /// Refuses a game of another configuration than the player's.
    fn check_rules(&self, game: &AnyGame) -> Result<(), PlayerError> {
        if game.rules() == self.rules {
            Ok(())
        } else {
            Err(self.other_rules(game))
        }
    }

    fn other_rules(&self, game: &AnyGame) -> PlayerError {
        PlayerError::OtherRules {
            player: self.rules.to_string(),
            game: game.rules().to_string(),
        }
    }
}

/// Solved endgame tables of one ruleset configuration, read from a table file or solved in
/// memory, for any number of perfect players ([`AnyPlayer::with_tables`]) and for generic
/// code of that ruleset ([`AnyTables::oracle`]).
#[derive(Clone)]
pub struct AnyTables {
    rules: AnyRuleset,
    max_pieces: u8,
    description: String,
    /// An `Arc<dyn PositionOracle<R>>` of the ruleset of `rules`.
    oracle: Arc<dyn Any + Send + Sync>,
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
    fn new<R: Ruleset>(rules: AnyRuleset, oracle: Arc<dyn PositionOracle<R>>) -> AnyTables {
        AnyTables {
            rules,
            max_pieces: oracle.max_pieces(),
            description: oracle.describe(),
            oracle: Arc::new(oracle),
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
    pub fn oracle<R: Ruleset>(&self) -> Option<Arc<dyn PositionOracle<R>>> {
        self.oracle
            .downcast_ref::<Arc<dyn PositionOracle<R>>>()
            .cloned()
    }
}

impl AnyRuleset {
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
        with_rules!(*self, ref r => supports_endgame(r))
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
        let quick = with_rules!(*self, ref r => pieces_solved_quickly(r));
        quick.map_or(MOST_PIECES_SOLVED_ON_DEMAND, |k| k.min(MOST_PIECES_SOLVED_ON_DEMAND))
    }

    /// Solves the endgames with up to `max_pieces` pieces a side and returns the table file
    /// (for [`AnyPlayer::with_table_file`]) with the solver's statistics.
    pub fn solve_endgame_file(
        &self,
        max_pieces: u8,
        options: &SolveOptions,
        encoding: ValueEncoding,
    ) -> Result<(Vec<u8>, SolveStats), EndgameError> {
        with_rules!(*self, ref r => solve_file_for(r, max_pieces, options, encoding))
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
        with_rules!(*self, ref r => solve_file_resumable_for(r, max_pieces, options, encoding, checkpoint))
    }

    /// The positions and the estimated peak memory in bytes of solving the endgames with up
    /// to `max_pieces` pieces a side with `method` (see
    /// [`senet_ai::endgame::solve_size_for`]).
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
        with_rules!(*self, ref r => solve_size_for(r, max_pieces, method))
    }

    /// Solves the endgames with up to `max_pieces` pieces a side, in memory, at the solver's
    /// precision.
    pub fn solve_endgame(
        &self,
        max_pieces: u8,
        options: &SolveOptions,
    ) -> Result<AnyTables, EndgameError> {
        with_rules!(*self, ref r => solve_for(r, max_pieces, options)
            .map(|oracle| AnyTables::new(self.clone(), oracle)))
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
        with_rules!(*self, ref r => read_for(r, tables)
            .map(|oracle| AnyTables::new(self.clone(), oracle)))
    }
}

/// The examples of `docs/players.md`, compiled and run as doc tests.
#[cfg(all(doctest, feature = "regency"))]
#[doc = include_str!("../docs/players.md")]
pub struct PlayersDoc;
