#![doc = include_str!("../README.md")]
#![forbid(unsafe_code)]
#![deny(missing_docs)]

pub mod registry;
pub mod stats;

pub use senet_core::*;

/// The Regency Chess "simple" ruleset (feature `regency`).
#[cfg(feature = "regency")]
pub mod regency {
    pub use senet_regency::*;
}

#[cfg(feature = "regency")]
pub use senet_regency::Regency;

/// Computer players and the exact endgame solver (feature `ai`): the `senet-ai` crate.
#[cfg(feature = "ai")]
pub mod ai {
    pub use senet_ai::*;
}
