//! What the page shows of a Senet game, shared by `senet serve` (`crates/senet-cli`) and the
//! engine in the page (`crates/senet-wasm`), so that both answer the page's requests with
//! the same JSON:
//!
//! - [`view`]: a game (replayed from its record) seen whole, the computer's hints and the
//!   catalogue of rulesets;
//! - [`narrate`]: what each action did, in words (also the log of `senet play`);
//! - [`web`]: the requests of the page's JSON API, their caps and the answers that need no
//!   search.

#![forbid(unsafe_code)]
#![deny(missing_docs)]

pub mod narrate;
pub mod view;
pub mod web;
