#![doc = include_str!("../README.md")]
#![forbid(unsafe_code)]
#![deny(missing_docs)]
// A build without any ruleset feature has an empty registry: every match on a ruleset or a
// game is then empty, and what follows it unreachable.
#![cfg_attr(
    not(any(
        feature = "regency",
        feature = "botermans",
        feature = "cemea",
        feature = "kendall",
        feature = "bell",
        feature = "jequier",
        feature = "piccione"
    )),
    allow(dead_code, unreachable_code, unused_imports, unused_variables)
)]

mod any_game;
#[cfg(feature = "ai")]
mod any_player;
pub mod metrics;
pub mod registry;
pub mod stats;

pub use any_game::AnyGame;
#[cfg(feature = "ai")]
pub use any_player::{AnyPlayer, AnyTables};
pub use senet_core::*;

/// The Regency Chess "simple" ruleset (feature `regency`).
#[cfg(feature = "regency")]
pub mod regency {
    pub use senet_regency::*;
}

#[cfg(feature = "regency")]
pub use senet_regency::Regency;

/// The Botermans ruleset from *The Book of Games* (feature `botermans`).
#[cfg(feature = "botermans")]
pub mod botermans {
    pub use senet_botermans::*;
}

#[cfg(feature = "botermans")]
pub use senet_botermans::Botermans;

/// The CEMEA games research group ruleset (feature `cemea`).
#[cfg(feature = "cemea")]
pub mod cemea {
    pub use senet_cemea::*;
}

#[cfg(feature = "cemea")]
pub use senet_cemea::Cemea;
/// Timothy Kendall's reconstruction (feature `kendall`).
#[cfg(feature = "kendall")]
pub mod kendall {
    pub use senet_kendall::*;
}

#[cfg(feature = "kendall")]
pub use senet_kendall::Kendall;

/// R. C. Bell's suggested rules (feature `bell`).
#[cfg(feature = "bell")]
pub mod bell {
    pub use senet_bell::*;
}

#[cfg(feature = "bell")]
pub use senet_bell::Bell;
/// Gustave Jéquier's reconstruction (feature `jequier`).
#[cfg(feature = "jequier")]
pub mod jequier {
    pub use senet_jequier::*;
}

#[cfg(feature = "jequier")]
pub use senet_jequier::Jequier;

/// Peter Piccione's *King Tut's Game* rules (feature `piccione`).
#[cfg(feature = "piccione")]
pub mod piccione {
    pub use senet_piccione::*;
}

#[cfg(feature = "piccione")]
pub use senet_piccione::Piccione;
/// Computer players and the exact endgame solver (feature `ai`): the `senet-ai` crate.
#[cfg(feature = "ai")]
pub mod ai {
    pub use senet_ai::*;
}
