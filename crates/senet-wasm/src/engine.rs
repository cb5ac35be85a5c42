//! The engine behind the page's requests, in plain Rust: the paths and JSON of `senet serve`'s
//! API (`docs/web.md`), answered in the page itself.
//!
//! Randomness comes from the caller only: the [`Engine`] draws its throws and its players'
//! choices from a ChaCha8 generator seeded by the caller (in the page, with
//! `crypto.getRandomValues`), and analyses use the server's fixed seed, so they match.

#![forbid(unsafe_code)]

use senet::registry::AnyRuleset;
use senet::{Action, AnyGame, AnyPlayer, AnyTables, Phase};
use senet_ai::PlayerSpec;
use senet_ai::endgame::SolveOptions;
use senet_view::view::hint;
use senet_view::web::{self, GameRequest, after, catalogue, phase_words};

use rand_chacha::ChaCha8Rng;
use rand_core::SeedableRng;

/// A request the engine refuses, with its reason on one line (what `senet serve` would answer
/// as `{"error": reason}`).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EngineError {
    /// The request names no endpoint of the API.
    #[error("the engine in the page has no endpoint {0} (it answers the game's requests only)")]
    UnknownPath(String),
    /// The request was refused: a malformed body, an illegal action, a player beyond the caps.
    #[error("{0}")]
    Refused(String),
}

impl From<String> for EngineError {
    fn from(reason: String) -> EngineError {
        EngineError::Refused(reason.replace(['\n', '\r'], " "))
    }
}

/// The most solved endgame tables an engine keeps, as the server does.
const MAX_CACHED_TABLES: usize = 8;

/// The page's engine: the generator of its throws and players, and the endgame tables solved
/// so far (perfect players and analyses solve them once per configuration).
pub struct Engine {
    rng: ChaCha8Rng,
    /// Tables by configuration and pieces a side, most recently used last.
    tables: Vec<((String, u8), AnyTables)>,
}

impl std::fmt::Debug for Engine {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Engine")
            .field("tables", &self.tables.len())
            .finish_non_exhaustive()
    }
}

/// JSON text of a view (the views serialise without fail: strings, numbers and lists).
fn json<T: serde::Serialize>(value: &T) -> Result<String, EngineError> {
    serde_json::to_string(value)
        .map_err(|e| EngineError::Refused(format!("the answer as JSON: {e}")))
}

impl Engine {
    /// An engine whose throws and players draw from a ChaCha8 generator seeded with `seed`.
    pub fn new(seed: [u8; 32]) -> Engine {
        Engine {
            rng: ChaCha8Rng::from_seed(seed),
            tables: Vec::new(),
        }
    }

    /// Answers the request `body` (JSON; empty for `/api/rulesets`) to `path` (`/api/game`,
    /// `/api/throw`, `/api/move`, `/api/computer`, `/api/hint`, `/api/analyse` or
    /// `/api/rulesets`) with the JSON `senet serve` would send.
    pub fn call(&mut self, path: &str, body: &str) -> Result<String, EngineError> {
        if path == "/api/rulesets" {
            return json(&catalogue());
        }
        let request = GameRequest::from_json(body)?;
        match path {
            "/api/game" => json(&request.loaded()?),
            "/api/throw" => {
                let game = request.game()?;
                let rng = &mut self.rng;
                let value = request.throw_value(&game, |g| g.rules().sample_throw(rng))?;
                json(&after(game, Action::Throw(value))?)
            }
            "/api/move" => {
                let game = request.game()?;
                let mv = request.mv()?;
                json(&after(game, Action::Move(mv))?)
            }
            "/api/computer" => self.computer(&request),
            "/api/hint" => self.hint(&request),
            "/api/analyse" => self.analyse(&request),
            other => Err(EngineError::UnknownPath(senet::shorten(other).to_string())),
        }
    }

    fn computer(&mut self, request: &GameRequest) -> Result<String, EngineError> {
        let game = request.game()?;
        let spec = request.player()?;
        match game.phase() {
            Phase::Throw(_) => {
                let value = game.rules().sample_throw(&mut self.rng);
                json(&after(game, Action::Throw(value))?)
            }
            Phase::Move(_) => {
                let mut player = self.player(&spec, game.rules())?;
                let mv = player
                    .choose(&game, &mut self.rng)
                    .map_err(|e| e.to_string())?;
                json(&after(game, Action::Move(mv))?)
            }
            Phase::Over(_) => Err(EngineError::from(format!(
                "the computer has nothing to do: {}",
                phase_words(game.phase())
            ))),
        }
    }

    fn hint(&mut self, request: &GameRequest) -> Result<String, EngineError> {
        let game = request.game()?;
        let spec = request.player()?;
        let Phase::Move(side) = game.phase() else {
            return Err(EngineError::from(format!(
                "hints are for moves: {}",
                phase_words(game.phase())
            )));
        };
        let mut player = self.player(&spec, game.rules())?;
        let analysis = player
            .analyse(&game, &mut self.rng)
            .map_err(|e| e.to_string())?;
        json(&hint(player.name(), side, &analysis))
    }

    fn analyse(&mut self, request: &GameRequest) -> Result<String, EngineError> {
        let game = request.game()?;
        let evaluator = request.analysis_evaluator(&game)?;
        let analysis = web::analysis(&game, evaluator, |rules, pieces| self.tables(rules, pieces))?;
        let mut answer = serde_json::to_value(&analysis)
            .map_err(|e| EngineError::Refused(format!("the analysis as JSON: {e}")))?;
        answer["summary"] = analysis.summary().into();
        json(&answer)
    }

    /// The player `spec` for games of `rules`; a perfect player's tables are solved once per
    /// configuration and kept.
    fn player(&mut self, spec: &PlayerSpec, rules: &AnyRuleset) -> Result<AnyPlayer, EngineError> {
        Ok(web::player(spec, rules, |rules, pieces| {
            self.tables(rules, pieces)
        })?)
    }

    /// The tables of `rules` with up to `pieces` pieces a side, solved now unless kept.
    fn tables(&mut self, rules: &AnyRuleset, pieces: u8) -> Result<AnyTables, String> {
        let key = (rules.to_string(), pieces);
        if let Some(at) = self.tables.iter().position(|(k, _)| *k == key) {
            let entry = self.tables.remove(at);
            let tables = entry.1.clone();
            self.tables.push(entry);
            return Ok(tables);
        }
        let tables = rules
            .solve_endgame(pieces, &SolveOptions::default())
            .map_err(|e| e.to_string())?;
        if self.tables.len() >= MAX_CACHED_TABLES {
            self.tables.remove(0);
        }
        self.tables.push((key, tables.clone()));
        Ok(tables)
    }
}

/// The most turns a playout of [`playouts`] runs before it is cut off.
pub const PLAYOUT_TURNS: u32 = 10_000;

/// The most games one call of [`playouts`] plays.
pub const MAX_PLAYOUTS: u32 = 1_000_000;

/// Plays `games` games of `rules` (a ruleset specification) from the start with random throws
/// and uniformly random legal moves, from a ChaCha8 generator seeded with `seed`, and returns
/// the actions played in all: the measure of the engine's speed in the page against natively
/// (`docs/web.md`).
pub fn playouts(rules: &str, games: u32, seed: u64) -> Result<u64, EngineError> {
    let rules = AnyRuleset::parse(rules).map_err(|e| format!("rules: {e}"))?;
    if games > MAX_PLAYOUTS {
        return Err(EngineError::from(format!(
            "{games} playouts: at most {MAX_PLAYOUTS} a call"
        )));
    }
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let start = AnyGame::new(rules);
    let mut actions = 0;
    for _ in 0..games {
        let mut game = start.clone();
        game.play_random(&mut rng, PLAYOUT_TURNS);
        actions += game.history().len() as u64;
    }
    Ok(actions)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bad_requests_are_refused_with_one_line() {
        let mut engine = Engine::new([7; 32]);
        for (path, body) in [
            ("/api/game", "{"),
            ("/api/game", r#"{"rules": "chess"}"#),
            ("/api/game", r#"{"nonsense": 1}"#),
            ("/api/move", r#"{"rules": "regency", "move": "1-2"}"#),
            (
                "/api/computer",
                r#"{"rules": "regency", "player": "mcts:999999"}"#,
            ),
            ("/api/hint", r#"{"rules": "regency", "player": "greedy"}"#),
            ("/api/nothing", "{}"),
        ] {
            let error = engine.call(path, body).unwrap_err().to_string();
            assert!(
                !error.is_empty() && !error.contains('\n'),
                "{path} {body}: {error}"
            );
        }
        assert!(playouts("chess", 1, 0).is_err());
        assert!(playouts("regency", MAX_PLAYOUTS + 1, 0).is_err());
    }

    #[test]
    fn a_game_against_the_computer_ends() {
        let mut engine = Engine::new([1; 32]);
        let mut view: serde_json::Value =
            serde_json::from_str(&engine.call("/api/game", r#"{"rules":"kendall"}"#).unwrap())
                .unwrap();
        for _ in 0..5_000 {
            if view["phase"]["kind"] == "over" {
                return;
            }
            let body = serde_json::json!({"record": view["record"], "player": "greedy"});
            view = serde_json::from_str(&engine.call("/api/computer", &body.to_string()).unwrap())
                .unwrap();
        }
        panic!("the game did not end");
    }
}
