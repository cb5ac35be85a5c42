//! Test helpers shared by the senet crates; not published.
//!
//! - [`batch`]: the check that a batch engine plays the scalar games.
//! - [`conformance`]: the checks every [`Ruleset`](senet_core::Ruleset) implementation must
//!   pass (state invariants, decision points, refused actions), and random walks to find
//!   states to check.
//! - [`external`]: the programs from outside the Rust toolchain that some tests drive
//!   (a browser), found on `PATH` or skipped with one line unless CI requires them.
//! - [`mailbox`]: [`MailboxBoard`](mailbox::MailboxBoard), the plain array board the
//!   reference generators work on.
//! - [`scenario`]: the helpers rule tests open with: positions from lists of squares, moves
//!   played from notation, move lists as notation ([`scenario_helpers!`]).
//! - [`properties`]: the property suite every ruleset passes ([`ruleset_properties!`]).
//! - [`reference`](mod@reference): the loop that compares each ruleset's move generator with its reference
//!   generator on at least [`reference::MIN_PAIRS`] decision points.
//!
//! Ruleset crates, the facade, `senet-ai` and the benches take it as a dev-dependency, so the
//! published crates keep only the game API.

#![forbid(unsafe_code)]
#![deny(missing_docs)]

pub mod batch;
pub mod conformance;
pub mod external;
pub mod mailbox;
pub mod properties;
pub mod reference;
pub mod scenario;

/// Re-exported for the macros, which name its types.
pub use senet_core;

/// Re-exported for the macros, which run `proptest!`.
pub use proptest;
