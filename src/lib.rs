#![doc = include_str!("../README.md")]
#![forbid(unsafe_code)]
#![deny(missing_docs)]

pub mod action_codes;
#[cfg(feature = "ai")]
pub mod analysis;
mod any_game;
#[cfg(feature = "ai")]
mod any_player;
#[cfg(feature = "ai")]
mod any_tables;
pub mod registry;
#[cfg(feature = "ai")]
pub mod simulation;

// The registered rulesets, one line each: the feature that turns it on, the module this crate
// re-exports its crate as, and its crate and type (the type's name is also its `AnyRuleset`
// variant). The registry (`src/registry.rs`) is generated from this list.
registry::rulesets! {
    "regency" => regency = senet_regency::Regency [endgames],
    "botermans" => botermans = senet_botermans::Botermans,
    "cemea" => cemea = senet_cemea::Cemea,
    "kendall" => kendall = senet_kendall::Kendall [endgames],
    "bell" => bell = senet_bell::Bell,
    "jequier" => jequier = senet_jequier::Jequier,
    "piccione" => piccione = senet_piccione::Piccione,
}

pub mod metrics;
pub mod rating;
pub mod rng;
pub mod stats;

pub use any_game::AnyGame;
#[cfg(feature = "ai")]
pub use any_player::AnyPlayer;
#[cfg(feature = "ai")]
pub use any_tables::AnyTables;
pub use senet_core::*;

/// Computer players and the exact endgame solver (feature `ai`): the `senet-ai` crate.
#[cfg(feature = "ai")]
pub mod ai {
    pub use senet_ai::*;
}
