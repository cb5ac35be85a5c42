//! Python bindings of the senet engine: the extension module `senet._senet`, which the
//! Python package `senet` (python/senet) wraps and documents.
//!
//! Everything goes through the facade's type-erased API ([`senet::AnyGame`],
//! [`senet::AnyPlayer`], [`senet::AnyTables`], [`senet::registry::AnyRuleset`]), its
//! seeded simulation ([`senet::simulation`]) and its game analysis ([`senet::analysis`]). Bad input raises a subclass of
//! `senet.SenetError` (a `ValueError`) carrying the engine's message and leaves the game
//! unchanged; long calls release the interpreter lock.
#![forbid(unsafe_code)]
#![deny(missing_docs)]

mod analysis;
mod args;
mod env;
mod errors;
mod game;
mod obs;
mod players;

use pyo3::prelude::*;

/// The extension module.
#[pymodule]
fn _senet(m: &Bound<'_, PyModule>) -> PyResult<()> {
    errors::register(m)?;
    game::register(m)?;
    players::register(m)?;
    env::register(m)?;
    analysis::register(m)?;
    m.add("MOVE_LIST_CAPACITY", senet::MOVE_LIST_CAPACITY)?;
    m.add("MAX_STEPS", senet::MAX_STEPS)?;
    m.add("MAX_ENVS", env::MAX_ENVS)?;
    m.add("MAX_MASK_VALUES", env::MAX_MASK_VALUES)?;
    Ok(())
}
