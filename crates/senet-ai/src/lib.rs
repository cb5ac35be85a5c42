//! Computer players for the `senet` engine, from a beginner to perfect play, and an exact
//! solver for Senet endgames.
//!
//! Every player implements [`Player`]: it chooses a move for the side to move and explains
//! the choice with a value for each legal move ([`Analysis`]), so a game can show hints or
//! play weaker on purpose. Players are generic over [`senet_core::Ruleset`]: they see only
//! the turn machine and the board, so they play every reconstruction, including those where
//! the same side acts again (extra throws), throws are stored and spent one move at a time,
//! or moves take several steps.
//!
//! | player | name | how it plays |
//! |---|---|---|
//! | [`RandomPlayer`] | `random` | a uniformly random legal move |
//! | [`Greedy`] | `greedy` | the best move by a one-move heuristic (progress, captures, bearing off, exposure) |
//! | [`Expectiminimax`] | `expectiminimax:3` | search over moves and throws weighted by the device's exact table, Star1/Star2 pruning, depth or node budget |
//! | [`Mcts`] | `mcts:1000` | Monte Carlo tree search with chance nodes, a playout budget, seeded by the caller |
//! | [`Perfect`] | `perfect:2` | exact play from solved endgame tables, expectiminimax elsewhere |
//! | [`learned_player`](learned::learned_player) | `learned:2` | expectiminimax over a network trained by self-play ([`learned`]) |
//!
//! [`PlayerSpec`] builds them by name. The [`endgame`] module holds the solver and its
//! tables. `docs/players.md` in the repository has a strength table.
//!
//! Through the `senet` facade with its `ai` feature (`senet = { version = "0.1", features =
//! ["ai"] }`) this crate is `senet::ai`, and the examples use those paths.
//!
//! ```
//! use senet::ai::PlayerSpec;
//! use senet::{Game, Phase, Regency};
//!
//! let rules = Regency::default();
//! let mut players = [
//!     "greedy".parse::<PlayerSpec>().unwrap().build(&rules, None).unwrap(),
//!     "expectiminimax:2".parse::<PlayerSpec>().unwrap().build(&rules, None).unwrap(),
//! ];
//! let mut rng = senet::rng::seeded(1, 0);
//! let mut game = Game::new(rules);
//! while let Some(side) = game.phase().side() {
//!     match game.phase() {
//!         Phase::Throw(_) => {
//!             game.throw_random(&mut rng).unwrap();
//!         }
//!         _ => {
//!             let mv = players[side.index()].choose(game.rules(), game.state(), &mut rng).unwrap();
//!             game.play(mv).unwrap();
//!         }
//!     }
//! }
//! assert!(game.outcome().is_some());
//! ```

#![forbid(unsafe_code)]
#![deny(missing_docs)]

pub mod analysis;
mod dynamic;
/// The exact endgame solver and its tables: the `senet-endgame` crate.
pub use senet_endgame as endgame;
mod eval;
mod expectiminimax;
pub mod features;
mod greedy;
pub mod learned;
mod mcts;
mod perfect;
mod player;
mod random;
mod spec;

pub use dynamic::{DynPlayer, TypedPlayer};
pub use eval::{Evaluator, OracleEvaluator, RaceEvaluator};
pub use expectiminimax::{
    Budget, Expectiminimax, MAX_DEPTH, MAX_SEARCH_NODES, Pruning, SearchInfo,
};
pub use greedy::{Greedy, GreedyWeights};
pub use mcts::{DEFAULT_EXPLORATION, DEFAULT_ROLLOUT_MOVES, MAX_PLAYOUTS, MAX_TREE_BYTES, Mcts};
pub use perfect::{FALLBACK_DEPTH, Perfect};
pub use player::{Analysis, Decision, MoveValue, Player, PlayerError, ValueKind, outcome_value};
pub use random::RandomPlayer;
pub use spec::{
    DEFAULT_DEPTH, DEFAULT_PERFECT_PIECES, DEFAULT_PLAYOUTS, PlayerSpec, PlayerSpecError,
};
