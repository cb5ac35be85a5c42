//! Players behind one object-safe trait, for games behind [`DynGame`]: what a front end that
//! learns the ruleset at run time holds.
//!
//! A [`Player<R>`] works on the typed state of its ruleset. [`TypedPlayer`] pairs one with its
//! ruleset configuration and implements [`DynPlayer`], which takes any `dyn DynGame`: it
//! refuses a game of another configuration, and otherwise reads the game's position (the
//! [`Setup`](senet_core::Setup), which round-trips every state) into its own state type. That
//! costs a few microseconds a decision, against the search the player runs; a loop that plays
//! millions of decisions calls the typed player directly.
//!
//! ```
//! use rand_chacha::ChaCha8Rng;
//! use rand_core::SeedableRng;
//! use senet_ai::{DynPlayer, Greedy, TypedPlayer};
//! use senet_core::{DynGame, DynRuleset, Phase};
//! # fn demo<R: senet_core::Ruleset + Default>() {
//! let mut player: Box<dyn DynPlayer> = Box::new(TypedPlayer::new(R::default(), Box::new(Greedy::default())));
//! let mut game: Box<dyn DynGame> = R::default().new_game();
//! let mut rng = ChaCha8Rng::seed_from_u64(1);
//! while let Some(side) = game.phase().side() {
//!     match game.phase() {
//!         Phase::Throw(_) => drop(game.throw_with(&mut rng)),
//!         _ => {
//!             let chosen = player.analyse(&*game, &mut rng).unwrap().chosen();
//!             game.play(chosen).unwrap();
//!         }
//!     }
//!     let _ = side;
//! }
//! # }
//! ```

use rand_core::Rng;
use senet_core::{DynGame, Move, Ruleset, RulesetSpec};

use crate::player::{Analysis, Player, PlayerError};

/// A player for games of one ruleset configuration, reached through one object-safe trait.
pub trait DynPlayer: Send {
    /// The player's name, in the form [`PlayerSpec`](crate::PlayerSpec) parses.
    fn name(&self) -> String;

    /// The ruleset configuration the player plays.
    fn rules(&self) -> RulesetSpec;

    /// Values every legal move of `game`, which must wait for a move of a game of
    /// [`rules`](DynPlayer::rules), and chooses one; randomness is drawn from `rng`.
    fn analyse(&mut self, game: &dyn DynGame, rng: &mut dyn Rng) -> Result<Analysis, PlayerError>;

    /// The move [`analyse`](DynPlayer::analyse) would choose; a player may find it with less
    /// work (see [`Player::choose`]).
    fn choose(&mut self, game: &dyn DynGame, rng: &mut dyn Rng) -> Result<Move, PlayerError> {
        self.analyse(game, rng).map(|analysis| analysis.chosen())
    }
}

/// A [`Player<R>`] with the configuration of `R` it plays: a [`DynPlayer`].
pub struct TypedPlayer<R: Ruleset> {
    rules: R,
    spec: RulesetSpec,
    player: Box<dyn Player<R>>,
}

impl<R: Ruleset> TypedPlayer<R> {
    /// `player`, for games of `rules`.
    pub fn new(rules: R, player: Box<dyn Player<R>>) -> TypedPlayer<R> {
        TypedPlayer {
            spec: rules.spec(),
            rules,
            player,
        }
    }
}

impl<R: Ruleset> DynPlayer for TypedPlayer<R> {
    fn name(&self) -> String {
        self.player.name()
    }

    fn rules(&self) -> RulesetSpec {
        self.spec.clone()
    }

    fn analyse(&mut self, game: &dyn DynGame, rng: &mut dyn Rng) -> Result<Analysis, PlayerError> {
        let state = self.state_of(game)?;
        self.player.analyse(&self.rules, &state, rng)
    }

    fn choose(&mut self, game: &dyn DynGame, rng: &mut dyn Rng) -> Result<Move, PlayerError> {
        let state = self.state_of(game)?;
        self.player.choose(&self.rules, &state, rng)
    }
}

impl<R: Ruleset> TypedPlayer<R> {
    /// The state of `game`, refused when it is played under another configuration.
    fn state_of(&self, game: &dyn DynGame) -> Result<R::State, PlayerError> {
        let played = game.spec();
        if played != self.spec {
            return Err(PlayerError::OtherRules {
                player: self.spec.to_string(),
                game: played.to_string(),
            });
        }
        self.rules
            .read_setup(&game.setup())
            .map_err(PlayerError::Position)
    }
}
