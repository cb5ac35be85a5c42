//! The engine as JavaScript sees it (`wasm-bindgen --target web`): an `Engine` class with a
//! `call(path, body)` method and a `playouts` function. Every refusal is a JavaScript
//! exception whose message is one line.

// The glue code #[wasm_bindgen] generates is unsafe; this module holds nothing else.
#![allow(unsafe_code)]
// What JavaScript reaches is what #[wasm_bindgen] exports, whatever the Rust visibility.
#![allow(unreachable_pub)]

use wasm_bindgen::prelude::{JsError, wasm_bindgen};

/// The page's engine: answers the page's requests as `senet serve` would (see
/// [`crate::Engine`]).
#[wasm_bindgen]
pub struct Engine(crate::Engine);

#[wasm_bindgen]
impl Engine {
    /// An engine whose throws and players draw from ChaCha8 seeded with `seed`: 32 bytes,
    /// from `crypto.getRandomValues` in the page.
    #[wasm_bindgen(constructor)]
    pub fn new(seed: &[u8]) -> Result<Engine, JsError> {
        let seed: [u8; 32] = seed
            .try_into()
            .map_err(|_| JsError::new(&format!("the seed has {} bytes; give 32", seed.len())))?;
        Ok(Engine(crate::Engine::new(seed)))
    }

    /// The JSON answer to the request `body` (JSON text, empty for `/api/rulesets`) to
    /// `path`, such as `/api/game`.
    pub fn call(&mut self, path: &str, body: &str) -> Result<String, JsError> {
        self.0
            .call(path, body)
            .map_err(|e| JsError::new(&e.to_string()))
    }
}

/// Plays `games` random games of `rules` from ChaCha8 seeded with `seed` and returns the
/// actions played in all (see [`crate::playouts`]).
#[wasm_bindgen]
pub fn playouts(rules: &str, games: u32, seed: u32) -> Result<f64, JsError> {
    crate::playouts(rules, games, u64::from(seed))
        .map(|actions| actions as f64)
        .map_err(|e| JsError::new(&e.to_string()))
}
