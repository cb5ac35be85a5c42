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
