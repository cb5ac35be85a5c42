//! Players by name: `random`, `greedy`, `expectiminimax:3`, `mcts:1000`, `perfect`.

use core::fmt;
use core::str::FromStr;
use std::sync::Arc;

use senet_core::Ruleset;
use thiserror::Error;

use crate::endgame::{
    EndgameError, Endgames, PositionOracle, SolveOptions, endgames_or_unsupported,
};
use crate::expectiminimax::{Budget, Expectiminimax, MAX_DEPTH, MAX_SEARCH_NODES};
use crate::greedy::Greedy;
use crate::learned::{DEFAULT_LEARNED_DEPTH, WeightsError, committed, learned_player};
use crate::mcts::{MAX_PLAYOUTS, Mcts};
use crate::perfect::Perfect;
use crate::player::Player;
use crate::random::RandomPlayer;

/// The search depth of `expectiminimax` without a number.
pub const DEFAULT_DEPTH: u32 = 2;
/// The playouts of `mcts` without a number.
pub const DEFAULT_PLAYOUTS: u32 = 1000;
/// The pieces per side of the tables `perfect` solves without a number.
pub const DEFAULT_PERFECT_PIECES: u8 = 2;

/// The players in the form the CLI and the strength table name them.
const KNOWN: &str = "random, greedy, expectiminimax[:DEPTH | :nodes=N], mcts[:PLAYOUTS], perfect[:PIECES], learned[:DEPTH]";

/// A player named in text.
///
/// | name | player |
/// |---|---|
/// | `random` | [`RandomPlayer`] |
/// | `greedy` | [`Greedy`] |
/// | `expectiminimax`, `expectiminimax:D` | [`Expectiminimax`] searching `D` decisions deep (default 2) |
/// | `expectiminimax:nodes=N` | [`Expectiminimax`] with a budget of `N` nodes |
/// | `mcts`, `mcts:N` | [`Mcts`] with `N` playouts per decision (default 1000) |
/// | `perfect`, `perfect:K` | [`Perfect`] from tables of up to `K` pieces a side (default 2) |
/// | `learned`, `learned:D` | [`learned_player`]: expectiminimax `D` decisions deep over the committed network (default 2; 1 is the network alone) |
///
/// A budget of zero, a budget above its cap ([`MAX_DEPTH`], [`MAX_SEARCH_NODES`],
/// [`MAX_PLAYOUTS`]) and unknown names are errors.
///
/// ```
/// use senet::ai::{PlayerSpec, PlayerSpecError, Budget};
/// let spec: PlayerSpec = "expectiminimax:3".parse().unwrap();
/// assert_eq!(spec, PlayerSpec::Expectiminimax(Budget::Depth(3)));
/// assert_eq!(spec.to_string(), "expectiminimax:3");
/// assert_eq!("mcts".parse::<PlayerSpec>().unwrap(), PlayerSpec::Mcts(1000));
/// assert!(matches!("mcts:0".parse::<PlayerSpec>(), Err(PlayerSpecError::ZeroBudget { .. })));
/// assert!(matches!("alphazero".parse::<PlayerSpec>(), Err(PlayerSpecError::UnknownPlayer(_))));
/// for too_large in ["expectiminimax:5000", "mcts:4294967295", "mcts:99999999999999999999999"] {
///     let error = too_large.parse::<PlayerSpec>().unwrap_err();
///     assert!(matches!(error, PlayerSpecError::TooLarge { .. }), "{error}");
/// }
/// assert_eq!(
///     "expectiminimax:65".parse::<PlayerSpec>().unwrap_err().to_string(),
///     "`expectiminimax` takes a depth of at most 64, not 65"
/// );
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PlayerSpec {
    /// `random`.
    Random,
    /// `greedy`.
    Greedy,
    /// `expectiminimax:D` or `expectiminimax:nodes=N`.
    Expectiminimax(Budget),
    /// `mcts:N`.
    Mcts(u32),
    /// `perfect:K`.
    Perfect(u8),
    /// `learned:D`.
    Learned(u32),
}

/// A player name that cannot be used.
#[derive(Debug, Error)]
pub enum PlayerSpecError {
    /// No player has this name.
    #[error("unknown player `{}` (known: {KNOWN})", senet_core::shorten(.0))]
    UnknownPlayer(String),
    /// A budget (depth, nodes, playouts, pieces) of zero.
    #[error("`{player}` needs a budget of at least 1, not 0")]
    ZeroBudget {
        /// The player named.
        player: &'static str,
    },
    /// A budget above its cap: the search would overflow the stack, run for hours or fill
    /// the memory.
    #[error("`{player}` takes {what} of at most {max}, not {}", senet_core::shorten(.given))]
    TooLarge {
        /// The player named.
        player: &'static str,
        /// What the budget counts.
        what: &'static str,
        /// The budget given, as written.
        given: String,
        /// The cap.
        max: u64,
    },
    /// A parameter that is not a number, or a parameter for a player that takes none.
    #[error("`{}`: {player} takes {expected}", senet_core::shorten(.text))]
    BadParameter {
        /// The player named.
        player: &'static str,
        /// The whole name as given.
        text: String,
        /// What the player takes.
        expected: &'static str,
    },
    /// The tables of a perfect player could not be made.
    #[error("perfect player: {0}")]
    Endgame(#[from] EndgameError),
    /// The learned player has no weights for the ruleset, or they do not fit it.
    #[error("learned player: {0}")]
    Weights(#[from] WeightsError),
}

/// A budget: a number from 1 to `max`, `what` naming it in the error.
fn number<T: FromStr + Into<u64> + TryFrom<u64>>(
    player: &'static str,
    text: &str,
    digits: &str,
    expected: &'static str,
    (what, max): (&'static str, T),
) -> Result<T, PlayerSpecError> {
    let bad = || PlayerSpecError::BadParameter {
        player,
        text: text.to_string(),
        expected,
    };
    // Read as u64 first, so that a number too large for the budget's type is named as too
    // large rather than as not a number.
    let n: u64 = match digits.parse() {
        Ok(n) => n,
        Err(_) if !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) => u64::MAX,
        Err(_) => return Err(bad()),
    };
    let max = max.into();
    if n == 0 {
        return Err(PlayerSpecError::ZeroBudget { player });
    }
    if n > max {
        return Err(PlayerSpecError::TooLarge {
            player,
            what,
            given: digits.to_string(),
            max,
        });
    }
    T::try_from(n).map_err(|_| bad())
}

impl FromStr for PlayerSpec {
    type Err = PlayerSpecError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let text = s.trim();
        let (name, parameter) = match text.split_once(':') {
            Some((name, parameter)) => (name, Some(parameter)),
            None => (text, None),
        };
        let no_parameter = |player: &'static str, spec: PlayerSpec| match parameter {
            None => Ok(spec),
            Some(_) => Err(PlayerSpecError::BadParameter {
                player,
                text: text.to_string(),
                expected: "no parameter",
            }),
        };
        match name {
            "random" => no_parameter("random", PlayerSpec::Random),
            "greedy" => no_parameter("greedy", PlayerSpec::Greedy),
            "expectiminimax" => {
                const EXPECTED: &str =
                    "a depth (expectiminimax:3) or a node budget (expectiminimax:nodes=20000)";
                let budget = match parameter {
                    None => Budget::Depth(DEFAULT_DEPTH),
                    Some(p) => match p.strip_prefix("nodes=") {
                        Some(n) => Budget::Nodes(number(
                            "expectiminimax",
                            text,
                            n,
                            EXPECTED,
                            ("a node budget", MAX_SEARCH_NODES),
                        )?),
                        None => Budget::Depth(number(
                            "expectiminimax",
                            text,
                            p,
                            EXPECTED,
                            ("a depth", MAX_DEPTH),
                        )?),
                    },
                };
                Ok(PlayerSpec::Expectiminimax(budget))
            }
            "mcts" => {
                let playouts = match parameter {
                    None => DEFAULT_PLAYOUTS,
                    Some(p) => number(
                        "mcts",
                        text,
                        p,
                        "a number of playouts (mcts:1000)",
                        ("a number of playouts", MAX_PLAYOUTS),
                    )?,
                };
                Ok(PlayerSpec::Mcts(playouts))
            }
            "perfect" => {
                let pieces = match parameter {
                    None => DEFAULT_PERFECT_PIECES,
                    Some(p) => number(
                        "perfect",
                        text,
                        p,
                        "a number of pieces per side (perfect:2)",
                        ("tables of a number of pieces a side", u8::MAX),
                    )?,
                };
                Ok(PlayerSpec::Perfect(pieces))
            }
            "learned" => {
                let depth = match parameter {
                    None => DEFAULT_LEARNED_DEPTH,
                    Some(p) => number(
                        "learned",
                        text,
                        p,
                        "a depth (learned:2)",
                        ("a depth", MAX_DEPTH),
                    )?,
                };
                Ok(PlayerSpec::Learned(depth))
            }
            _ => Err(PlayerSpecError::UnknownPlayer(text.to_string())),
        }
    }
}

impl fmt::Display for PlayerSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlayerSpec::Random => f.write_str("random"),
            PlayerSpec::Greedy => f.write_str("greedy"),
            PlayerSpec::Expectiminimax(Budget::Depth(d)) => write!(f, "expectiminimax:{d}"),
            PlayerSpec::Expectiminimax(Budget::Nodes(n)) => write!(f, "expectiminimax:nodes={n}"),
            PlayerSpec::Mcts(n) => write!(f, "mcts:{n}"),
            PlayerSpec::Perfect(k) => write!(f, "perfect:{k}"),
            PlayerSpec::Learned(d) => write!(f, "learned:{d}"),
        }
    }
}

impl PlayerSpec {
    /// Builds the player for `rules`. A perfect player solves its tables first through
    /// `endgames`, the ruleset's endgame operations (for 2 pieces a side under a second for
    /// Regency and about ten seconds for Kendall with immediate throws; minutes for 3 pieces
    /// of Regency); use [`build_with_tables`](PlayerSpec::build_with_tables) to reuse tables
    /// already solved or read from a file. Fails for a perfect player when `endgames` is
    /// `None` (the ruleset has no endgame space); other players ignore it.
    ///
    /// ```
    /// use senet::ai::PlayerSpec;
    /// use senet::ai::endgame::Endgames;
    /// let rules = senet::Regency::default();
    /// let perfect = "perfect:1".parse::<PlayerSpec>().unwrap();
    /// assert_eq!(perfect.build(&rules, Some(&rules)).unwrap().name(), "perfect:1");
    /// assert!(perfect.build(&rules, None).is_err());
    /// let bell = senet::Bell::default();
    /// let greedy = "greedy".parse::<PlayerSpec>().unwrap();
    /// assert_eq!(greedy.build(&bell, None).unwrap().name(), "greedy");
    /// ```
    pub fn build<R: Ruleset>(
        &self,
        rules: &R,
        endgames: Option<&dyn Endgames<R>>,
    ) -> Result<Box<dyn Player<R>>, PlayerSpecError> {
        match (self.without_tables(), *self) {
            (Some(player), _) => Ok(player),
            (None, PlayerSpec::Perfect(pieces)) => {
                let tables = endgames_or_unsupported(rules, endgames)?
                    .solve_oracle(pieces, &SolveOptions::default())?;
                Ok(Box::new(Perfect::with_default_fallback(rules, tables)?))
            }
            (None, PlayerSpec::Learned(depth)) => {
                Ok(Box::new(learned_player(rules, &committed(rules)?, depth)?))
            }
            (None, _) => Err(PlayerSpecError::UnknownPlayer(self.to_string())),
        }
    }

    /// Builds the player for `rules`, a perfect player playing from `tables` (whatever
    /// number of pieces they cover). Fails when the tables were solved for another ruleset
    /// configuration.
    pub fn build_with_tables<R: Ruleset>(
        &self,
        rules: &R,
        tables: Arc<dyn PositionOracle<R>>,
    ) -> Result<Box<dyn Player<R>>, PlayerSpecError> {
        match (self.without_tables(), *self) {
            (Some(player), _) => Ok(player),
            (None, PlayerSpec::Learned(_)) => self.build(rules, None),
            (None, _) => Ok(Box::new(Perfect::with_default_fallback(rules, tables)?)),
        }
    }

    /// Every player but the perfect and learned ones, which need tables or weights.
    fn without_tables<R: Ruleset>(&self) -> Option<Box<dyn Player<R>>> {
        Some(match *self {
            PlayerSpec::Random => Box::new(RandomPlayer::new()),
            PlayerSpec::Greedy => Box::new(Greedy::new()),
            PlayerSpec::Expectiminimax(budget) => Box::new(Expectiminimax::new(budget)),
            PlayerSpec::Mcts(playouts) => Box::new(Mcts::new(playouts)),
            PlayerSpec::Perfect(_) | PlayerSpec::Learned(_) => return None,
        })
    }
}
