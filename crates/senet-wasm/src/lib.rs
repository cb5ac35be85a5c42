//! Senet in a web page with nothing installed: the engine compiled to WebAssembly.
//!
//! The page of `senet serve` asks a server for everything through a JSON API
//! (`docs/web.md`). Built with `build-static.sh`, the same page asks this crate instead:
//! [`Engine::call`] takes the same paths and request bodies and answers with the same JSON
//! (the views are `senet-view`'s, shared with the server), so the page plays every ruleset
//! against the computer players that fit a browser, offline.
//!
//! The engine is plain Rust, used natively by the tests; the `bindings` module is the thin
//! layer that `wasm-bindgen` exports to JavaScript, where every error is an exception with a
//! one-line message.

#![deny(missing_docs)]
#![deny(unsafe_code)]

mod bindings;
pub mod engine;

pub use engine::{Engine, EngineError, playouts};
