//! The routes: the page's assets and the JSON API.

use std::hash::{BuildHasher, RandomState};
use std::net::{IpAddr, SocketAddr};
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::body::Body;
use axum::extract::rejection::JsonRejection;
use axum::extract::{DefaultBodyLimit, Request, State};
use axum::http::{StatusCode, header};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::Serialize;
use tokio::sync::Semaphore;

use senet::registry::AnyRuleset;
use senet::rng::{ChaCha8Rng, SeedableRng};
use senet::{Action, AnyGame, AnyPlayer, AnyTables, Phase};
use senet_ai::endgame::{EndgameError, SolveOptions};
use senet_ai::{Budget, PlayerSpec};

use crate::limits::{
    MAX_COMPUTER_QUEUE, MAX_COMPUTING, MAX_REQUEST_BYTES, MAX_WEB_ACTIONS, WEB_COMPUTE_SECONDS,
};
use senet::Throw;
use senet_view::view::{GameView, HintView, hint};

use super::rooms::{RoomsConfig, RoomsHandle};
use senet_view::web::{self, Catalogue, GameRequest, after, catalogue, phase_words};

/// A refused request: its status and a one-line reason, sent as `{"error": reason}`.
#[derive(Debug)]
pub(crate) struct ApiError(StatusCode, String);

impl ApiError {
    pub(super) fn bad(reason: impl std::fmt::Display) -> ApiError {
        ApiError::new(StatusCode::BAD_REQUEST, reason)
    }

    /// A refusal with `status`, its reason kept to one line.
    pub(super) fn new(status: StatusCode, reason: impl std::fmt::Display) -> ApiError {
        ApiError(status, reason.to_string().replace(['\n', '\r'], " "))
    }

    /// The reason given.
    pub(super) fn reason(&self) -> &str {
        &self.1
    }
}

#[derive(Serialize)]
struct ErrorBody {
    error: String,
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        (self.0, Json(ErrorBody { error: self.1 })).into_response()
    }
}

/// The refusal of a request larger than [`MAX_REQUEST_BYTES`].
fn too_large() -> ApiError {
    ApiError(
        StatusCode::PAYLOAD_TOO_LARGE,
        format!(
            "the request is larger than the server's limit of {MAX_REQUEST_BYTES} bytes \
             (room for a record of {MAX_WEB_ACTIONS} actions)"
        ),
    )
}

/// serde_json's message without its position (the request is one line of JSON).
fn without_position(text: &str) -> &str {
    text.rfind(" at line ").map_or(text, |at| &text[..at])
}

impl From<JsonRejection> for ApiError {
    /// axum's texts ("Failed to deserialize the JSON body into the target type: …") in the
    /// API's words, naming the field at fault.
    fn from(rejection: JsonRejection) -> ApiError {
        let status = rejection.status();
        let text = rejection.body_text().replace(['\n', '\r'], " ");
        let detail = text.split_once(": ").map_or("", |(_, rest)| rest);
        let reason = match rejection {
            JsonRejection::JsonDataError(_) => match without_position(detail).split_once(": ") {
                // serde_path_to_error's path, `.` for the body itself.
                Some((_, error)) if error.starts_with("unknown field") => {
                    format!("the request has an {error}")
                }
                Some((field, error)) if field != "." => format!("field `{field}`: {error}"),
                Some((_, error)) => format!("the request: {error}"),
                None => format!("the request: {}", without_position(detail)),
            },
            JsonRejection::JsonSyntaxError(_) => match without_position(detail).split_once(": ") {
                Some((path, error)) if path != "." && !path.contains(' ') => {
                    format!("the request is not valid JSON (at `{path}`): {error}")
                }
                Some((_, error)) => format!("the request is not valid JSON: {error}"),
                None => format!(
                    "the request is not valid JSON: {}",
                    without_position(detail)
                ),
            },
            JsonRejection::MissingJsonContentType(_) => {
                "send the request as JSON, with the header Content-Type: application/json"
                    .to_string()
            }
            _ if status == StatusCode::PAYLOAD_TOO_LARGE => return too_large(),
            _ => "the request's body could not be read".to_string(),
        };
        ApiError(status, reason)
    }
}

/// Who may use the server besides its own address, and how long a body may take to arrive.
pub(crate) struct Access {
    /// Host names given with `--allow-host`, in lower case, without ports.
    pub(crate) names: Vec<String>,
    /// The longest wait for a request's body once its headers are in.
    pub(crate) body_timeout: Duration,
}

/// The local address a request's connection came to, set by the server for the Host check.
#[derive(Clone, Copy)]
pub(crate) struct LocalAddr(pub(crate) SocketAddr);

/// One queue of computer work: a bound on the decisions running and on the requests held.
#[derive(Clone)]
pub(super) struct Lane {
    computing: Arc<Semaphore>,
    /// Computer requests waiting or running.
    in_line: Arc<AtomicUsize>,
}

impl Lane {
    fn new() -> Lane {
        Lane {
            computing: Arc::new(Semaphore::new(MAX_COMPUTING)),
            in_line: Arc::new(AtomicUsize::new(0)),
        }
    }
}

/// What the server shares between requests: the two lanes of computer work (cheap decisions
/// never wait behind searches) and the endgame tables solved so far.
#[derive(Clone)]
pub(super) struct Shared {
    cheap: Lane,
    costly: Lane,
    tables: Arc<TableCache>,
}

/// The most solved tables the server keeps: each configuration solved on demand has its own,
/// and there are hundreds of configurations, so an unbounded cache could be grown at will.
const MAX_CACHED_TABLES: usize = 8;

/// Endgame tables solved for perfect players and analyses, one per ruleset configuration and
/// size, the least recently used forgotten first.
#[derive(Default)]
struct TableCache {
    /// Most recently used last.
    solved: Mutex<Vec<((String, u8), AnyTables)>>,
}

impl TableCache {
    /// Whether the tables of `rules` with `pieces` pieces a side are kept.
    fn has(&self, rules: &AnyRuleset, pieces: u8) -> bool {
        let key = (rules.to_string(), pieces);
        self.solved
            .lock()
            .is_ok_and(|solved| solved.iter().any(|(k, _)| *k == key))
    }

    /// The tables of `rules` with up to `pieces` pieces a side, solved now unless kept.
    fn get(&self, rules: &AnyRuleset, pieces: u8) -> Result<AnyTables, EndgameError> {
        let key = (rules.to_string(), pieces);
        if let Ok(mut solved) = self.solved.lock()
            && let Some(at) = solved.iter().position(|(k, _)| *k == key)
        {
            let entry = solved.remove(at);
            let tables = entry.1.clone();
            solved.push(entry);
            return Ok(tables);
        }
        // Solved without the lock, so that other configurations are served meanwhile; two
        // requests for the same new configuration may both solve it.
        let tables = rules.solve_endgame(pieces, &SolveOptions::default())?;
        if let Ok(mut solved) = self.solved.lock()
            && !solved.iter().any(|(k, _)| *k == key)
        {
            if solved.len() >= MAX_CACHED_TABLES {
                solved.remove(0);
            }
            solved.push((key, tables.clone()));
        }
        Ok(tables)
    }
}

/// The router of `senet serve`: the routes behind the Host check and the body's size and time
/// limits.
pub(crate) fn router(access: Access, rooms: RoomsConfig) -> (Router, Arc<RoomsHandle>) {
    let shared = Shared {
        cheap: Lane::new(),
        costly: Lane::new(),
        tables: Arc::new(TableCache::default()),
    };
    let access = Arc::new(access);
    let rooms = Arc::new(RoomsHandle::new(rooms, shared.clone()));
    let router = Router::new()
        .route("/", get(|| asset("text/html; charset=utf-8", INDEX)))
        .route(
            "/app.js",
            get(|| asset("text/javascript; charset=utf-8", APP)),
        )
        .route(
            "/style.css",
            get(|| asset("text/css; charset=utf-8", STYLE)),
        )
        .route("/favicon.svg", get(|| asset("image/svg+xml", FAVICON)))
        .route("/api/rulesets", get(list_rulesets))
        .route("/api/game", post(game))
        .route("/api/throw", post(throw))
        .route("/api/move", post(play_move))
        .route("/api/computer", post(computer))
        .route("/api/hint", post(hint_moves))
        .route("/api/analyse", post(analyse_game))
        .fallback(|| async {
            ApiError(
                StatusCode::NOT_FOUND,
                "no such page or endpoint".to_string(),
            )
        })
        .method_not_allowed_fallback(|| async {
            ApiError(
                StatusCode::METHOD_NOT_ALLOWED,
                "method not allowed: pages and reads are GET, actions POST (docs/web.md lists each endpoint)".to_string(),
            )
        })
        .layer(DefaultBodyLimit::max(MAX_REQUEST_BYTES))
        .with_state(shared)
        .merge(super::rooms::routes(rooms.clone()))
        .layer(middleware::from_fn_with_state(access.clone(), read_body))
        .layer(middleware::from_fn_with_state(access, check_host));
    (router, rooms)
}

/// Whether `host` (a `Host` header) names this server for a connection that came to `local`:
/// its address, `localhost` when that is a loopback address, or a name of `names`, with the
/// port the connection came to (or none on port 80). A page of another site whose name was
/// made to resolve to this machine (DNS rebinding) sends its own name, and is refused.
fn host_allowed(host: &str, local: SocketAddr, names: &[String]) -> bool {
    let host = host.trim().to_ascii_lowercase();
    let (name, port) = match host.rfind(':') {
        Some(at) if !host[at..].contains(']') => (&host[..at], Some(&host[at + 1..])),
        _ => (host.as_str(), None),
    };
    let port_fits = match port {
        Some(port) => port.parse::<u16>() == Ok(local.port()),
        None => local.port() == 80,
    };
    let name = name.strip_suffix('.').unwrap_or(name);
    let here = local.ip().to_canonical();
    let address = name
        .trim_start_matches('[')
        .trim_end_matches(']')
        .parse::<IpAddr>()
        .ok()
        .map(|ip| ip.to_canonical());
    let name_fits = address == Some(here)
        || (here.is_loopback()
            && (name == "localhost" || address.is_some_and(|a| a.is_loopback())))
        || names.iter().any(|n| n == name);
    port_fits && name_fits
}

/// Refuses (421) a request whose `Host` does not name this server: see [`host_allowed`].
async fn check_host(State(access): State<Arc<Access>>, request: Request, next: Next) -> Response {
    let host = request
        .headers()
        .get(header::HOST)
        .and_then(|h| h.to_str().ok());
    let local = request.extensions().get::<LocalAddr>().map(|l| l.0);
    let Some(host) = host else {
        return ApiError::bad("the request has no Host header").into_response();
    };
    match local {
        Some(local) if host_allowed(host, local, &access.names) => next.run(request).await,
        _ => {
            let answers = match local {
                Some(local) if local.ip().to_canonical().is_loopback() => {
                    format!("{local} and localhost:{}", local.port())
                }
                Some(local) => local.to_string(),
                None => "its address".to_string(),
            };
            ApiError(
                StatusCode::MISDIRECTED_REQUEST,
                format!(
                    "this server answers to {answers} and to names given with --allow-host, \
                     not to the host {} (a page of another site may be trying to use it)",
                    senet::shorten(host)
                ),
            )
            .into_response()
        }
    }
}

/// Reads the whole body before the routes see it: refuses at once (413) a body declared
/// larger than [`MAX_REQUEST_BYTES`], and (408) one that has not arrived within the body
/// timeout, so that no slow client holds the server's attention for long.
async fn read_body(State(access): State<Arc<Access>>, request: Request, next: Next) -> Response {
    let (parts, body) = request.into_parts();
    let declared = parts
        .headers
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<u64>().ok());
    // The connection is closed after these refusals: the rest of the body is not read.
    let closing = |refusal: ApiError| ([(header::CONNECTION, "close")], refusal).into_response();
    if declared.is_some_and(|length| length > MAX_REQUEST_BYTES as u64) {
        return closing(too_large());
    }
    let limited = http_body_util::Limited::new(body, MAX_REQUEST_BYTES);
    let read = http_body_util::BodyExt::collect(limited);
    let bytes = match tokio::time::timeout(access.body_timeout, read).await {
        Ok(Ok(collected)) => collected.to_bytes(),
        Ok(Err(e)) if e.is::<http_body_util::LengthLimitError>() => {
            return closing(too_large());
        }
        Ok(Err(_)) => return closing(ApiError::bad("the request's body broke off")),
        Err(_) => {
            return closing(ApiError(
                StatusCode::REQUEST_TIMEOUT,
                format!(
                    "the request's body did not arrive within {} s",
                    access.body_timeout.as_secs_f64()
                ),
            ));
        }
    };
    next.run(Request::from_parts(parts, Body::from(bytes)))
        .await
}

const INDEX: &str = include_str!("../../assets/index.html");
const APP: &str = include_str!("../../assets/app.js");
const STYLE: &str = include_str!("../../assets/style.css");
const FAVICON: &str = include_str!("../../assets/favicon.svg");

async fn asset(content_type: &'static str, body: &'static str) -> Response {
    ([(header::CONTENT_TYPE, content_type)], body).into_response()
}

async fn list_rulesets() -> Json<Catalogue> {
    Json(catalogue())
}

impl From<String> for ApiError {
    /// A refusal of the shared request code (`senet_view::web`), as a 400.
    fn from(reason: String) -> ApiError {
        ApiError::bad(reason)
    }
}

/// A fresh seed for the server's throws and players.
fn fresh_seed() -> u64 {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    RandomState::new().hash_one(COUNTER.fetch_add(1, Ordering::Relaxed))
}

type Reply<T> = Result<Json<T>, ApiError>;

/// A game loaded from its record (each action narrated as it replays) or started: the whole
/// view, with the constants of its configuration.
async fn game(body: Result<Json<GameRequest>, JsonRejection>) -> Reply<GameView> {
    let Json(request) = body?;
    off_workers(move || Ok(Json(request.loaded()?))).await
}

/// The request's game, replayed off the async workers, and the request.
async fn replayed(request: GameRequest) -> Result<(AnyGame, GameRequest), ApiError> {
    off_workers(move || Ok((request.game()?, request))).await
}

/// Runs `work`, which replays a record, on a blocking thread: a record at the cap takes a
/// tenth of a second or more, which would hold up one of the two async workers.
async fn off_workers<T: Send + 'static>(
    work: impl FnOnce() -> Result<T, ApiError> + Send + 'static,
) -> Result<T, ApiError> {
    tokio::task::spawn_blocking(work).await.unwrap_or_else(|_| {
        Err(ApiError(
            StatusCode::INTERNAL_SERVER_ERROR,
            "the server failed on this request".to_string(),
        ))
    })
}

async fn throw(body: Result<Json<GameRequest>, JsonRejection>) -> Reply<GameView> {
    let Json(request) = body?;
    off_workers(move || {
        let game = request.game()?;
        let value = request.throw_value(&game, server_throw)?;
        Ok(Json(after(game, Action::Throw(value))?))
    })
    .await
}

/// A throw of the game's device, drawn afresh by the server.
fn server_throw(game: &AnyGame) -> Throw {
    let mut rng = ChaCha8Rng::seed_from_u64(fresh_seed());
    game.rules().sample_throw(&mut rng)
}

async fn play_move(body: Result<Json<GameRequest>, JsonRejection>) -> Reply<GameView> {
    let Json(request) = body?;
    off_workers(move || {
        let game = request.game()?;
        let mv = request.mv()?;
        Ok(Json(after(game, Action::Move(mv))?))
    })
    .await
}

/// Counts a computer request from its arrival to its answer.
struct InLine(Arc<AtomicUsize>);

impl Drop for InLine {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::Relaxed);
    }
}

/// Whether one decision of `spec` for games of `rules` is cheap: a move chosen without a
/// search, a search one move deep, or a look-up in tables already solved. Cheap requests have
/// a lane of their own, so that they never wait behind searches and analyses.
fn is_cheap(shared: &Shared, spec: &PlayerSpec, rules: &AnyRuleset) -> bool {
    match *spec {
        PlayerSpec::Random | PlayerSpec::Greedy => true,
        PlayerSpec::Expectiminimax(Budget::Depth(d)) | PlayerSpec::Learned(d) => d <= 1,
        PlayerSpec::Perfect(pieces) => shared.tables.has(rules, pieces),
        PlayerSpec::Expectiminimax(Budget::Nodes(_)) | PlayerSpec::Mcts(_) => false,
    }
}

/// The lane of the decisions of `spec` (see [`is_cheap`]).
pub(super) fn lane_for<'a>(shared: &'a Shared, spec: &PlayerSpec, rules: &AnyRuleset) -> &'a Lane {
    if is_cheap(shared, spec, rules) {
        &shared.cheap
    } else {
        &shared.costly
    }
}

/// Runs `work` on a blocking thread in `lane`, at most [`MAX_COMPUTING`] at once: later
/// requests wait in a queue of at most [`MAX_COMPUTER_QUEUE`], and a request that finds the
/// queue full, or is not answered within [`WEB_COMPUTE_SECONDS`] of its arrival, gets a 503.
pub(super) async fn compute<T: Send + 'static>(
    lane: &Lane,
    work: impl FnOnce() -> Result<T, ApiError> + Send + 'static,
) -> Result<T, ApiError> {
    let unavailable = |reason: String| ApiError(StatusCode::SERVICE_UNAVAILABLE, reason);
    let _in_line = InLine(lane.in_line.clone());
    if lane.in_line.fetch_add(1, Ordering::Relaxed) >= MAX_COMPUTER_QUEUE {
        return Err(unavailable(format!(
            "the server is busy: {MAX_COMPUTER_QUEUE} computer moves are waiting; try again"
        )));
    }
    let computing = lane.computing.clone();
    let run = async move {
        let permit = computing.acquire_owned().await.ok();
        tokio::task::spawn_blocking(move || {
            let result = work();
            drop(permit);
            result
        })
        .await
    };
    let limit = std::time::Duration::from_secs(WEB_COMPUTE_SECONDS);
    match tokio::time::timeout(limit, run).await {
        Ok(Ok(result)) => result,
        Ok(Err(_)) => Err(ApiError(
            StatusCode::INTERNAL_SERVER_ERROR,
            "the computer player failed".to_string(),
        )),
        Err(_) => Err(unavailable(format!(
            "the computer did not answer within {WEB_COMPUTE_SECONDS} s; choose a weaker player"
        ))),
    }
}

/// The player `spec` for games of `rules`; a perfect player's tables are solved once per
/// configuration and kept.
pub(super) fn build_player(
    shared: &Shared,
    spec: &PlayerSpec,
    rules: &AnyRuleset,
) -> Result<AnyPlayer, ApiError> {
    web::player(spec, rules, |rules, pieces| {
        shared.tables.get(rules, pieces)
    })
    .map_err(ApiError::bad)
}

async fn computer(
    State(shared): State<Shared>,
    body: Result<Json<GameRequest>, JsonRejection>,
) -> Reply<GameView> {
    let Json(request) = body?;
    let (game, request) = replayed(request).await?;
    let spec = request.player()?;
    match game.phase() {
        Phase::Throw(_) => {
            let value = server_throw(&game);
            Ok(Json(after(game, Action::Throw(value))?))
        }
        Phase::Move(_) => {
            let mut rng = ChaCha8Rng::seed_from_u64(fresh_seed());
            let worker = shared.clone();
            let lane = lane_for(&shared, &spec, game.rules());
            let view = compute(lane, move || {
                let mut player = build_player(&worker, &spec, game.rules())?;
                let mv = player.choose(&game, &mut rng).map_err(ApiError::bad)?;
                Ok(after(game, Action::Move(mv))?)
            })
            .await?;
            Ok(Json(view))
        }
        Phase::Over(_) => Err(ApiError::bad(format!(
            "the computer has nothing to do: {}",
            phase_words(game.phase())
        ))),
    }
}

async fn hint_moves(
    State(shared): State<Shared>,
    body: Result<Json<GameRequest>, JsonRejection>,
) -> Reply<HintView> {
    let Json(request) = body?;
    let (game, request) = replayed(request).await?;
    let spec = request.player()?;
    let Phase::Move(side) = game.phase() else {
        return Err(ApiError::bad(format!(
            "hints are for moves: {}",
            phase_words(game.phase())
        )));
    };
    let mut rng = ChaCha8Rng::seed_from_u64(fresh_seed());
    let worker = shared.clone();
    let lane = lane_for(&shared, &spec, game.rules());
    let hints = compute(lane, move || {
        let mut player = build_player(&worker, &spec, game.rules())?;
        let analysis = player.analyse(&game, &mut rng).map_err(ApiError::bad)?;
        Ok(hint(player.name(), side, &analysis))
    })
    .await?;
    Ok(Json(hints))
}

/// A game analysed (`senet::analysis`) with the endgame tables solved on demand, kept
/// between requests: the library's JSON and its summary.
async fn analyse_game(
    State(shared): State<Shared>,
    body: Result<Json<GameRequest>, JsonRejection>,
) -> Result<Json<serde_json::Value>, ApiError> {
    let Json(request) = body?;
    let (game, request) = replayed(request).await?;
    let evaluator = request.analysis_evaluator(&game)?;
    let worker = shared.clone();
    // A whole game's worth of decisions: never cheap.
    let answer = compute(&shared.costly, move || {
        // The tables `Tables::OnDemand` would solve come from the cache.
        let analysis = web::analysis(&game, evaluator, |rules, pieces| {
            worker.tables.get(rules, pieces)
        })
        .map_err(ApiError::bad)?;
        let mut answer = serde_json::to_value(&analysis).map_err(|e| {
            ApiError(
                StatusCode::INTERNAL_SERVER_ERROR,
                format!("the analysis as JSON: {e}"),
            )
        })?;
        answer["summary"] = analysis.summary().into();
        Ok(answer)
    })
    .await?;
    Ok(Json(answer))
}

#[cfg(test)]
mod tests {
    use super::{Lane, Shared, TableCache, host_allowed, is_cheap};
    use senet::registry::AnyRuleset;
    use std::net::SocketAddr;
    use std::sync::Arc;

    #[test]
    fn decisions_without_a_search_take_the_cheap_lane() {
        let shared = Shared {
            cheap: Lane::new(),
            costly: Lane::new(),
            tables: Arc::new(TableCache::default()),
        };
        let rules = AnyRuleset::parse("regency").unwrap();
        let cheap = |spec: &str| is_cheap(&shared, &spec.parse().unwrap(), &rules);
        for spec in ["random", "greedy", "expectiminimax:1", "learned:1"] {
            assert!(cheap(spec), "{spec}");
        }
        for spec in [
            "expectiminimax:2",
            "expectiminimax:nodes=1000",
            "mcts:300",
            "learned:2",
            "perfect:2",
        ] {
            assert!(!cheap(spec), "{spec}");
        }
        // Once its tables are kept, a perfect player only looks values up.
        shared.tables.get(&rules, 1).unwrap();
        assert!(cheap("perfect:1"));
        assert!(!cheap("perfect:2"));
    }

    #[test]
    fn the_host_check_accepts_the_address_localhost_on_loopback_and_the_names_given() {
        let names = ["senet.example".to_string()];
        let loopback: SocketAddr = "127.0.0.1:8421".parse().unwrap();
        let network: SocketAddr = "192.168.1.5:8421".parse().unwrap();
        let v6: SocketAddr = "[fe80::1]:80".parse().unwrap();
        for (host, local, allowed) in [
            ("localhost:8421", loopback, true),
            ("localhost.:8421", loopback, true),
            ("127.0.0.1:8421", loopback, true),
            ("[::1]:8421", loopback, true),
            ("senet.example:8421", loopback, true),
            ("evil.example:8421", loopback, false),
            ("localhost:8422", loopback, false),
            ("localhost", loopback, false),
            ("localhost:", loopback, false),
            ("192.168.1.5:8421", network, true),
            ("senet.example:8421", network, true),
            ("localhost:8421", network, false),
            ("127.0.0.1:8421", network, false),
            ("192.168.1.6:8421", network, false),
            ("[fe80::1]", v6, true),
            ("[fe80::1]:80", v6, true),
            ("[fe80::2]", v6, false),
        ] {
            assert_eq!(
                host_allowed(host, local, &names),
                allowed,
                "{host} at {local}"
            );
        }
    }
}
