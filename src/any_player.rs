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

use core::fmt;

use senet_ai::endgame::EndgameError;
use senet_ai::{Analysis, DynPlayer, PlayerError, PlayerSpec, PlayerSpecError, TypedPlayer};
use senet_core::Move;
use senet_core::rand_core::Rng;

use crate::any_tables::AnyTables;
use crate::registry::{Registered, RulesetVisitor};
use crate::{AnyGame, AnyRuleset};

/// A computer player (see [`senet_ai::PlayerSpec`]) made for one ruleset configuration, for
/// games of that configuration: the typed player of that ruleset behind a [`DynPlayer`].
pub struct AnyPlayer {
    rules: AnyRuleset,
    player: Box<dyn DynPlayer>,
}

impl fmt::Debug for AnyPlayer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("AnyPlayer")
            .field("rules", &self.rules.to_string())
            .field("player", &self.name())
            .finish()
    }
}

/// Where a perfect player's tables come from.
#[derive(Clone, Copy)]
enum TableSource<'a> {
    /// Solved when the player is made.
    Solve,
    /// A table file.
    File(&'a [u8]),
    /// Tables solved or read before.
    Shared(&'a AnyTables),
}

/// Builds the typed player of a spec for the ruleset it is called with.
struct BuildPlayer<'a> {
    spec: &'a PlayerSpec,
    tables: TableSource<'a>,
}

impl RulesetVisitor for BuildPlayer<'_> {
    type Output = Result<Box<dyn DynPlayer>, PlayerSpecError>;

    fn visit<R: Registered>(self, rules: &R) -> Self::Output {
        let spec = self.spec;
        let player = match (spec, self.tables) {
            (PlayerSpec::Perfect(_), TableSource::File(bytes)) => {
                senet_ai::endgame::endgames_or_unsupported(rules, rules.endgames())
                    .and_then(|endgames| endgames.read_oracle(bytes))
                    .map_err(PlayerSpecError::from)
                    .and_then(|oracle| spec.build_with_tables(rules, oracle))
            }
            (PlayerSpec::Perfect(_), TableSource::Shared(tables)) => match tables.oracle::<R>() {
                Some(oracle) => spec.build_with_tables(rules, oracle),
                None => Err(PlayerSpecError::from(EndgameError::RulesetMismatch {
                    table: tables.rules().to_string(),
                    game: rules.spec().to_string(),
                })),
            },
            _ => spec.build(rules, rules.endgames()),
        }?;
        Ok(Box::new(TypedPlayer::new(rules.clone(), player)))
    }
}

impl AnyPlayer {
    fn build(
        spec: &PlayerSpec,
        rules: &AnyRuleset,
        tables: TableSource<'_>,
    ) -> Result<AnyPlayer, PlayerSpecError> {
        let player = rules.visit(BuildPlayer { spec, tables })?;
        Ok(AnyPlayer {
            rules: rules.clone(),
            player,
        })
    }

    /// The player `spec` names, for games of `rules`. A perfect player solves its tables
    /// first (see [`PlayerSpec::build`]) and fails for a ruleset without an endgame space.
    pub fn new(spec: &PlayerSpec, rules: &AnyRuleset) -> Result<AnyPlayer, PlayerSpecError> {
        AnyPlayer::build(spec, rules, TableSource::Solve)
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
        AnyPlayer::build(spec, rules, TableSource::File(tables))
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
        AnyPlayer::build(spec, rules, TableSource::Shared(tables))
    }

    /// The player's name, as a [`PlayerSpec`] would print it.
    pub fn name(&self) -> String {
        self.player.name()
    }

    /// The ruleset configuration the player was made for.
    pub fn rules(&self) -> &AnyRuleset {
        &self.rules
    }

    /// The player's value of each legal move of `game` and its choice among them (see
    /// [`senet_ai::Player::analyse`]). Refused when no move is due, or when `game` is played
    /// under another configuration than the player was made for.
    pub fn analyse(&mut self, game: &AnyGame, rng: &mut dyn Rng) -> Result<Analysis, PlayerError> {
        if *game.rules() != self.rules {
            return Err(PlayerError::OtherRules {
                player: self.rules.to_string(),
                game: game.rules().to_string(),
            });
        }
        self.player.analyse(&**game, rng)
    }

    /// The player's move in `game` (see [`senet_ai::Player::choose`]); refused as
    /// [`analyse`](AnyPlayer::analyse) is.
    pub fn choose(&mut self, game: &AnyGame, rng: &mut dyn Rng) -> Result<Move, PlayerError> {
        if *game.rules() != self.rules {
            return Err(PlayerError::OtherRules {
                player: self.rules.to_string(),
                game: game.rules().to_string(),
            });
        }
        self.player.choose(&**game, rng)
    }
}

/// The examples of `docs/players.md`, compiled and run as doc tests.
#[cfg(all(doctest, feature = "regency"))]
#[doc = include_str!("../docs/players.md")]
pub struct PlayersDoc;
