//! The page's requests, checked and answered alike by `senet serve` (over HTTP) and by the
//! engine in the page (`crates/senet-wasm`): the caps on what one request may ask, the body
//! of a game request, the computer players offered, and the answers that need no search.
//!
//! Errors are one-line reasons, which the server sends as `{"error": reason}` with a 400 and
//! the page's engine throws as exceptions.

use std::str::FromStr;

use serde::{Deserialize, Serialize};

use senet::analysis::{AnalysisOptions, GameAnalysis, Tables, analyse, default_evaluator};
use senet::registry::AnyRuleset;
use senet::{Action, AnyGame, AnyPlayer, AnyTables, Move, Phase, Throw};
use senet_ai::{Budget, PlayerSpec};

use crate::view::{GameView, RulesetView, narrated, replay_narrated, rulesets, view};

/// The most actions a game record of the page holds (far beyond any game played, which ends
/// in a few thousand): a request that would make a longer record is refused, and the game
/// goes on with `senet play`.
pub const MAX_WEB_ACTIONS: usize = 20_000;

/// The deepest expectiminimax search the page's players run (depth 3 takes well under a
/// second a decision; see `docs/players.md`).
pub const MAX_WEB_DEPTH: u64 = 3;

/// The largest node budget of an expectiminimax search the page's players run.
pub const MAX_WEB_NODES: u64 = 2_000_000;

/// The most MCTS playouts a decision of the page's players runs.
pub const MAX_WEB_PLAYOUTS: u64 = 5_000;

/// The most pieces a side of the endgame tables solved for the page's perfect player.
pub const MAX_WEB_PERFECT_PIECES: u64 = 2;

/// The most actions of a game `/api/analyse` analyses: more than a request body holds. The
/// work grows with the actions; Kendall's games, the slowest to value, take about 3 ms an
/// action at depth 2 (release build, one core), so 24 s at most.
pub const MAX_WEB_ANALYSED_ACTIONS: usize = 8_000;

/// The most actions of a game analysed by a search 3 moves deep, which takes Kendall's games
/// about 8.5 ms an action.
pub const MAX_WEB_DEEP_ANALYSED_ACTIONS: usize = 3_000;

/// The most MCTS playouts an analysis may run, counted as playouts a decision times actions
/// (Kendall's games: about 27 µs each, so 14 s at most).
pub const MAX_WEB_ANALYSIS_PLAYOUTS: u64 = 500_000;

/// The most expectiminimax nodes an analysis may search, counted as the node budget of a
/// decision times actions (Kendall's games: about 0.8 µs each, so 16 s at most).
pub const MAX_WEB_ANALYSIS_NODES: u64 = 20_000_000;

/// The seed of the evaluators that draw: `senet analyse`'s default, so that the page and the
/// command analyse a game alike.
pub const ANALYSIS_SEED: u64 = 0;

/// The computer players the page offers, weakest first, with their descriptions; any other
/// name within the caps is accepted too.
pub const PLAYERS: &[(&str, &str)] = &[
    ("random", "random: any legal move"),
    ("greedy", "greedy: the best move one step ahead"),
    ("expectiminimax:1", "expectiminimax, 1 move deep"),
    ("expectiminimax:2", "expectiminimax, 2 moves deep"),
    ("expectiminimax:3", "expectiminimax, 3 moves deep"),
    ("mcts:300", "Monte Carlo tree search, 300 playouts"),
    ("mcts:2000", "Monte Carlo tree search, 2000 playouts"),
    (
        "perfect:2",
        "perfect endgames (exact tables up to 2 pieces a side)",
    ),
    (
        "learned:2",
        "learned: a network trained by self-play, 2 moves deep (the strongest)",
    ),
];

/// A computer player the page offers.
#[derive(Serialize)]
pub struct PlayerView {
    spec: &'static str,
    description: &'static str,
}

/// The answer to `/api/rulesets`: every ruleset and the players offered.
#[derive(Serialize)]
pub struct Catalogue {
    rulesets: Vec<RulesetView>,
    players: Vec<PlayerView>,
}

/// The rulesets and players the page chooses from (`/api/rulesets`).
pub fn catalogue() -> Catalogue {
    Catalogue {
        rulesets: rulesets(),
        players: PLAYERS
            .iter()
            .map(|&(spec, description)| PlayerView { spec, description })
            .collect(),
    }
}

/// The body of every game request: the game's record, or a ruleset to start a new game.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GameRequest {
    /// The record in its text form (`docs/notation.md`).
    pub record: Option<String>,
    /// A ruleset specification, for a new game from its initial position.
    pub rules: Option<String>,
    /// For `/api/throw`: the value thrown with real sticks (else a fresh throw is drawn).
    pub value: Option<Throw>,
    /// For `/api/move`: the move in the move notation.
    #[serde(rename = "move")]
    pub mv: Option<String>,
    /// For `/api/computer`, `/api/hint` and `/api/analyse`: the player (`greedy`,
    /// `expectiminimax:2`, …).
    pub player: Option<String>,
}

/// A reason on one line.
fn one_line(reason: impl std::fmt::Display) -> String {
    reason.to_string().replace(['\n', '\r'], " ")
}

/// Refuses a record of more than [`MAX_WEB_ACTIONS`] actions, which the page would not have
/// written.
pub fn check_length(game: &AnyGame) -> Result<(), String> {
    let actions = game.history().len();
    if actions > MAX_WEB_ACTIONS {
        return Err(format!(
            "the record has {actions} actions, more than the server's limit of \
             {MAX_WEB_ACTIONS}; play it on with `senet play --resume FILE`"
        ));
    }
    Ok(())
}

/// What the game waits for, in words.
pub fn phase_words(phase: Phase) -> String {
    match phase {
        Phase::Throw(side) => format!("{side} is to throw"),
        Phase::Move(side) => format!("{side} is to move"),
        Phase::Over(outcome) => format!("the game is over: {outcome}"),
    }
}

/// Reads the request field `name`, which must be there; `example` shows its form.
pub fn required<T: FromStr>(value: Option<&str>, name: &str, example: &str) -> Result<T, String>
where
    T::Err: std::fmt::Display,
{
    let text = value.ok_or_else(|| format!("give the `{name}`, e.g. \"{example}\""))?;
    text.parse().map_err(|e| one_line(format!("{name}: {e}")))
}

/// The player `spec` for games of `rules`, as the page offers it: a perfect player's tables
/// are of at most [`AnyRuleset::endgame_pieces_on_demand`] pieces a side, and come from
/// `tables(rules, pieces)` (the caller solves them, or keeps them solved).
pub fn player<E: std::fmt::Display>(
    spec: &PlayerSpec,
    rules: &AnyRuleset,
    tables: impl FnOnce(&AnyRuleset, u8) -> Result<AnyTables, E>,
) -> Result<AnyPlayer, String> {
    let PlayerSpec::Perfect(pieces) = *spec else {
        return AnyPlayer::new(spec, rules).map_err(|e| format!("player: {e}"));
    };
    let quick = rules.endgame_pieces_on_demand();
    if pieces > quick {
        return Err(format!(
            "player {spec}: the server solves tables of at most {quick} pieces a side of {}",
            rules.spec()
        ));
    }
    let tables = tables(rules, pieces).map_err(|e| format!("player {spec}: {e}"))?;
    AnyPlayer::with_tables(spec, rules, &tables).map_err(|e| format!("player: {e}"))
}

/// The page's analysis of `game` by `evaluator`: with the endgame tables `Tables::OnDemand`
/// would solve, which come from `tables(rules, pieces)` (the caller solves them, or keeps
/// them solved), and [`ANALYSIS_SEED`], so that it is the same wherever it is made.
pub fn analysis<E: std::fmt::Display>(
    game: &AnyGame,
    evaluator: PlayerSpec,
    tables: impl FnOnce(&AnyRuleset, u8) -> Result<AnyTables, E>,
) -> Result<GameAnalysis, String> {
    let rules = game.rules();
    let tables = if rules.supports_endgame() {
        let pieces = rules.endgame_pieces_on_demand();
        Some(tables(rules, pieces).map_err(|e| format!("endgame tables: {e}"))?)
    } else {
        None
    };
    let options = AnalysisOptions {
        evaluator: Some(evaluator),
        tables: tables.as_ref().map_or(Tables::None, Tables::Given),
        seed: ANALYSIS_SEED,
    };
    analyse(game, &options).map_err(|e| format!("analysis: {e}"))
}

/// Refuses players whose one decision could keep a core busy for long: the page's caps are
/// far below the command line's.
pub fn check_web_budget(spec: &PlayerSpec) -> Result<(), String> {
    let too_large = |what: &str, max: u64| {
        Err(format!(
            "player {spec}: the server allows {what} of at most {max}"
        ))
    };
    match *spec {
        PlayerSpec::Expectiminimax(Budget::Depth(d)) | PlayerSpec::Learned(d)
            if u64::from(d) > MAX_WEB_DEPTH =>
        {
            too_large("a depth", MAX_WEB_DEPTH)
        }
        PlayerSpec::Expectiminimax(Budget::Nodes(n)) if n > MAX_WEB_NODES => {
            too_large("a node budget", MAX_WEB_NODES)
        }
        PlayerSpec::Mcts(n) if u64::from(n) > MAX_WEB_PLAYOUTS => {
            too_large("a number of playouts", MAX_WEB_PLAYOUTS)
        }
        PlayerSpec::Perfect(k) if u64::from(k) > MAX_WEB_PERFECT_PIECES => {
            too_large("tables of pieces a side", MAX_WEB_PERFECT_PIECES)
        }
        _ => Ok(()),
    }
}

impl GameRequest {
    /// Reads a request from its JSON text (the engine in the page; the server has axum's
    /// extractor, with its own words for malformed bodies).
    pub fn from_json(text: &str) -> Result<GameRequest, String> {
        if text.trim().is_empty() {
            return Ok(GameRequest::default());
        }
        serde_json::from_str(text).map_err(|e| one_line(format!("the request: {e}")))
    }

    /// The game the request names, replayed and checked.
    pub fn game(&self) -> Result<AnyGame, String> {
        match (&self.record, &self.rules) {
            (Some(record), None) => {
                let game = AnyGame::from_record_text(record)
                    .map_err(|e| one_line(format!("record: {e}")))?;
                check_length(&game)?;
                Ok(game)
            }
            (None, Some(rules)) => AnyRuleset::parse(rules)
                .map(AnyGame::new)
                .map_err(|e| one_line(format!("rules: {e}"))),
            (Some(_), Some(_)) => Err("give either `record` or `rules`, not both".to_string()),
            (None, None) => Err("give the game's `record` or the `rules` of a new one".to_string()),
        }
    }

    /// The request's computer player, within the page's caps.
    pub fn player(&self) -> Result<PlayerSpec, String> {
        let spec: PlayerSpec = required(self.player.as_deref(), "player", "greedy")?;
        check_web_budget(&spec)?;
        Ok(spec)
    }

    /// The request's move (`/api/move`).
    pub fn mv(&self) -> Result<Move, String> {
        required(self.mv.as_deref(), "move", "9-12")
    }

    /// The answer to `/api/game`: the game loaded from its record (each action narrated as it
    /// replays) or started, seen whole with the constants of its configuration.
    pub fn loaded(&self) -> Result<GameView, String> {
        let (game, log) = match (&self.record, &self.rules) {
            (Some(record), None) => {
                let replayed =
                    replay_narrated(record).map_err(|e| one_line(format!("record: {e}")))?;
                check_length(&replayed.0)?;
                replayed
            }
            _ => (self.game()?, Vec::new()),
        };
        Ok(view(&game, 0, log, true))
    }

    /// The throw of `/api/throw` in `game`: the request's value, else `draw` (a fresh throw);
    /// refused when no throw is due.
    pub fn throw_value(
        &self,
        game: &AnyGame,
        draw: impl FnOnce(&AnyGame) -> Throw,
    ) -> Result<Throw, String> {
        if !matches!(game.phase(), Phase::Throw(_)) {
            return Err(format!("no throw is due: {}", phase_words(game.phase())));
        }
        Ok(self.value.unwrap_or_else(|| draw(game)))
    }

    /// The evaluator an analysis of `game` uses: the request's, or the strongest there is for
    /// the configuration, within the caps for one decision and for the whole game.
    pub fn analysis_evaluator(&self, game: &AnyGame) -> Result<PlayerSpec, String> {
        let spec = match self.player.as_deref() {
            Some(text) => text
                .parse::<PlayerSpec>()
                .map_err(|e| one_line(format!("player: {e}")))?,
            None => default_evaluator(game.rules()),
        };
        check_web_budget(&spec)?;
        let actions = game.history().len();
        let too_long = |most: usize, by: &str| {
            Err(format!(
                "the game has {actions} actions; the server analyses at most {most}{by} \
                 (`senet analyse` takes any game)"
            ))
        };
        let whole = |per_decision: u64, max: u64, what: &str| {
            let total = per_decision.saturating_mul(actions as u64);
            if total > max {
                Err(format!(
                    "player {spec}: {per_decision} {what} a decision over {actions} actions \
                     make {total}; the server analyses with at most {max}"
                ))
            } else {
                Ok(spec)
            }
        };
        if actions > MAX_WEB_ANALYSED_ACTIONS {
            return too_long(MAX_WEB_ANALYSED_ACTIONS, "");
        }
        match spec {
            PlayerSpec::Expectiminimax(Budget::Depth(d)) | PlayerSpec::Learned(d)
                if d > 2 && actions > MAX_WEB_DEEP_ANALYSED_ACTIONS =>
            {
                too_long(MAX_WEB_DEEP_ANALYSED_ACTIONS, &format!(" with {spec}"))
            }
            PlayerSpec::Mcts(n) => whole(u64::from(n), MAX_WEB_ANALYSIS_PLAYOUTS, "playouts"),
            PlayerSpec::Expectiminimax(Budget::Nodes(n)) => {
                whole(n, MAX_WEB_ANALYSIS_NODES, "nodes")
            }
            _ => Ok(spec),
        }
    }
}

/// `game` after `action`: the view with the narration of that action alone. A game at
/// [`MAX_WEB_ACTIONS`] goes no further, so that every record the page writes fits in a
/// request.
pub fn after(mut game: AnyGame, action: Action) -> Result<GameView, String> {
    let from = game.history().len();
    if from >= MAX_WEB_ACTIONS {
        return Err(format!(
            "this game has reached the server's limit of {MAX_WEB_ACTIONS} actions; save it \
             and play it on with `senet play --resume FILE`"
        ));
    }
    let entry = narrated(&mut game, action).map_err(one_line)?;
    Ok(view(&game, from, vec![entry], false))
}
