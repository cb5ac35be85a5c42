//! Rooms: a game between two seats (people by link, or computer players) kept by the server
//! in SQLite ([`super::store`]), with its throws drawn from a committed seed
//! ([`crate::fair`]) and every change pushed to whoever watches (server-sent events). The
//! routes and their JSON are described in `docs/web.md` ("Rooms").

use std::collections::HashMap;
use std::convert::Infallible;
use std::net::{IpAddr, SocketAddr};
use std::path::PathBuf;
use std::sync::atomic::{AtomicI64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::extract::rejection::JsonRejection;
use axum::extract::{Path, Query, State};
use axum::http::{StatusCode, header};
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Extension, Json, Router};
use serde::{Deserialize, Serialize};
use subtle::ConstantTimeEq;
use tokio::sync::{OnceCell, broadcast};

use senet::registry::AnyRuleset;
use senet::rng::{ChaCha8Rng, SeedableRng};
use senet::{Action, AnyGame, Move, Phase, Side};
use senet_ai::PlayerSpec;
use senet_view::view::{GameView, narrated, replay_narrated, side_id, view};
use senet_view::web::{MAX_WEB_ACTIONS, check_web_budget};

use super::api::{ApiError, Shared, build_player, compute, lane_for};
use super::store::{RoomRow, Store, StoreError, now};
use crate::fair::{self, Seed};

/// The most event streams one room serves at once (players and watchers).
pub(crate) const MAX_ROOM_STREAMS: usize = 32;

/// The most rooms `GET /api/rooms` lists.
const MAX_LISTED: usize = 100;

/// How long a room nobody watches stays in memory after its last use (it is reloaded from
/// the database when asked for again).
const KEPT_IN_MEMORY_SECONDS: i64 = 600;

/// How often the server forgets idle rooms and deletes expired ones.
const JANITOR_PERIOD: Duration = Duration::from_secs(60);

/// How rooms are run: `senet serve`'s options.
#[derive(Clone, Debug)]
pub(crate) struct RoomsConfig {
    /// The database file; none: the default in the data folder.
    pub(crate) database: Option<PathBuf>,
    /// The most unfinished rooms.
    pub(crate) max_rooms: usize,
    /// The most rooms one client address opens an hour (0: no limit).
    pub(crate) per_hour: usize,
    /// How long a computer seat waits before it acts, so that people can follow.
    pub(crate) pace: Duration,
}

/// The rooms, opened on first use (or at start with `--database`): a plain `senet serve`
/// used for games in the page alone never creates a file.
pub(crate) struct RoomsHandle {
    config: RoomsConfig,
    shared: Shared,
    rooms: OnceCell<Arc<Rooms>>,
}

impl RoomsHandle {
    /// Rooms run with `config`, their computer seats in the lanes of `shared`.
    pub(super) fn new(config: RoomsConfig, shared: Shared) -> RoomsHandle {
        RoomsHandle {
            config,
            shared,
            rooms: OnceCell::new(),
        }
    }

    /// The rooms, their database opened (and migrated) now if it was not yet; the rooms
    /// whose computer seat is to act play on.
    pub(crate) async fn rooms(&self) -> Result<Arc<Rooms>, OpenError> {
        self.rooms
            .get_or_try_init(|| async {
                let path = match &self.config.database {
                    Some(path) => path.clone(),
                    None => super::store::default_path().ok_or(OpenError::NoFolder)?,
                };
                let store = tokio::task::spawn_blocking(move || Store::open(&path))
                    .await
                    .map_err(|_| OpenError::Failed)??;
                let rooms = Arc::new(Rooms {
                    store: Arc::new(store),
                    shared: self.shared.clone(),
                    config: self.config.clone(),
                    live: Mutex::new(HashMap::new()),
                    opened_by: Mutex::new(HashMap::new()),
                });
                rooms.expire().await;
                let open = rooms.db(|s| s.open_ids()).await.unwrap_or_default();
                for id in open {
                    // Loading a room sets its computer seat going again.
                    let _ = rooms.room(&id).await;
                }
                let janitor = Arc::downgrade(&rooms);
                tokio::spawn(async move {
                    loop {
                        tokio::time::sleep(JANITOR_PERIOD).await;
                        let Some(rooms) = janitor.upgrade() else {
                            break;
                        };
                        rooms.expire().await;
                        rooms.forget_idle();
                    }
                });
                Ok(rooms)
            })
            .await
            .cloned()
    }
}

/// Why the rooms could not be opened.
#[derive(Debug, thiserror::Error)]
pub(crate) enum OpenError {
    /// The database refused.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// No folder for the default file.
    #[error(
        "no data folder for the rooms' database (neither XDG_DATA_HOME nor HOME is set); \
         give one with --database PATH"
    )]
    NoFolder,
    /// The thread that opened the file failed.
    #[error("opening the rooms' database failed")]
    Failed,
}

impl From<OpenError> for ApiError {
    fn from(e: OpenError) -> ApiError {
        ApiError::new(
            StatusCode::SERVICE_UNAVAILABLE,
            format!("rooms are unavailable: {e}"),
        )
    }
}

impl From<StoreError> for ApiError {
    fn from(e: StoreError) -> ApiError {
        match e {
            StoreError::Conflict => ApiError::new(StatusCode::CONFLICT, e.to_string()),
            e => {
                // The operator's log: the reason, never a token.
                eprintln!("senet: {e}");
                ApiError::new(
                    StatusCode::SERVICE_UNAVAILABLE,
                    format!("the rooms' database failed: {e}"),
                )
            }
        }
    }
}

/// The address a request's connection came from, set by the server for the per-address cap.
#[derive(Clone, Copy)]
pub(crate) struct PeerAddr(pub(crate) SocketAddr);

/// Who plays a seat.
#[derive(Clone, Debug)]
enum Seat {
    /// A person, with the SHA-256 of the seat's token and the key that marks their event
    /// stream as theirs (for "connected").
    Person {
        token_hash: [u8; 32],
        presence: String,
    },
    /// A computer player, played by the server.
    Computer(PlayerSpec),
}

impl Seat {
    fn name(&self) -> String {
        match self {
            Seat::Person { .. } => "person".to_string(),
            Seat::Computer(spec) => spec.to_string(),
        }
    }
}

/// The index of a side in per-side arrays.
fn at(side: Side) -> usize {
    match side {
        Side::Black => 0,
        Side::White => 1,
    }
}

/// Both sides, Black first.
const SIDES: [Side; 2] = [Side::Black, Side::White];

/// The presence key of a token's hash: shown to the seat's page, which sends it with its
/// event stream (a URL, so not the token). It cannot act for the seat.
fn presence_key(token_hash: &[u8; 32]) -> String {
    fair::hex(&fair::sha256(token_hash)[..16])
}

/// A room in memory.
pub(crate) struct Room {
    id: String,
    seats: [Seat; 2],
    seed: Seed,
    commitment: String,
    state: tokio::sync::Mutex<RoomState>,
    events: broadcast::Sender<Arc<str>>,
    /// Event streams open.
    streams: AtomicUsize,
    /// Event streams open by each seat's person.
    present: [AtomicUsize; 2],
    /// Unix seconds of the last request about the room.
    used: AtomicI64,
}

/// What changes in a room.
struct RoomState {
    game: AnyGame,
    /// The throw stream, past the throws of the record.
    rng: ChaCha8Rng,
    /// The side whose request to take back its last move waits for an answer.
    undo: Option<Side>,
    /// Bumped by every change, so that a page drops an older state that arrives late.
    version: u64,
    /// Whether a task plays the computer seats.
    driving: bool,
}

/// One side's seat as the state shows it.
#[derive(Serialize)]
struct SeatView {
    /// `person` or the computer player's specification.
    player: String,
    /// Whether the seat's person has the room open (a computer seat always is).
    connected: bool,
}

/// The two seats.
#[derive(Serialize)]
struct Seats {
    black: SeatView,
    white: SeatView,
}

/// A room's state: the game's view (whole, or the last action alone), the seats, the
/// commitment and (once the game is over) the seed.
#[derive(Serialize)]
struct RoomView {
    room: String,
    /// Bumped by every change.
    version: u64,
    /// The actions in the record.
    actions: usize,
    /// The view of `/api/game` (`log_from` 0, with `ruleset`) or of an action's answer.
    view: GameView,
    seats: Seats,
    /// The SHA-256 of the throws' seed, in hexadecimal.
    commitment: String,
    /// The seed, once the game is over.
    seed: Option<String>,
    /// The side asking to take back its last move.
    undo: Option<&'static str>,
    /// Event streams open on the room.
    watchers: usize,
    /// The side of the token sent (`join`).
    #[serde(skip_serializing_if = "Option::is_none")]
    you: Option<&'static str>,
    /// The key to send with the event stream to show the seat connected (`join`).
    #[serde(skip_serializing_if = "Option::is_none")]
    presence: Option<String>,
}

/// How much of the game a state carries.
enum Delta {
    /// The whole log and the configuration.
    Whole,
    /// The log from action `from` on, given.
    From(usize, Vec<senet_view::view::LogEntry>),
}

impl Room {
    /// The room's state; `Whole` replays the record to narrate it all (on a blocking thread).
    async fn state_view(&self, st: &RoomState, delta: Delta) -> Result<RoomView, ApiError> {
        let game_view = match delta {
            Delta::Whole => {
                let record = st.game.record().to_string();
                tokio::task::spawn_blocking(move || {
                    replay_narrated(&record).map(|(game, log)| view(&game, 0, log, true))
                })
                .await
                .map_err(|_| internal())?
                .map_err(|e| internal_because(format!("the room's record: {e}")))?
            }
            Delta::From(from, log) => view(&st.game, from, log, false),
        };
        let seat = |side: Side| SeatView {
            player: self.seats[at(side)].name(),
            connected: match self.seats[at(side)] {
                Seat::Person { .. } => self.present[at(side)].load(Ordering::Relaxed) > 0,
                Seat::Computer(_) => true,
            },
        };
        Ok(RoomView {
            room: self.id.clone(),
            version: st.version,
            actions: st.game.history().len(),
            view: game_view,
            seats: Seats {
                black: seat(Side::Black),
                white: seat(Side::White),
            },
            commitment: self.commitment.clone(),
            seed: st.game.outcome().map(|_| fair::hex(&self.seed)),
            undo: st.undo.map(side_id),
            watchers: self.streams.load(Ordering::Relaxed),
            you: None,
            presence: None,
        })
    }

    /// Sends `state` to every stream; returns it as JSON.
    fn announce(&self, state: &RoomView) -> Result<Arc<str>, ApiError> {
        let json: Arc<str> = serde_json::to_string(state)
            .map_err(|e| internal_because(format!("the room's state as JSON: {e}")))?
            .into();
        // No stream open is no error.
        let _ = self.events.send(json.clone());
        Ok(json)
    }

    /// The side whose token this is, compared in constant time with both seats' hashes.
    fn seat_of(&self, token: &str) -> Option<Side> {
        let bytes = fair::from_hex::<16>(token)?;
        let hash = fair::sha256(&bytes);
        let mut found = None;
        for side in SIDES {
            if let Seat::Person { token_hash, .. } = &self.seats[at(side)]
                && bool::from(token_hash.ct_eq(&hash))
            {
                found = Some(side);
            }
        }
        found
    }

    /// The side of `token`, or the refusal.
    fn seat(&self, token: &str) -> Result<Side, ApiError> {
        self.seat_of(token).ok_or_else(|| {
            ApiError::new(
                StatusCode::FORBIDDEN,
                "this token opens no seat of this room (watchers may only watch)",
            )
        })
    }

    fn touch(&self) {
        self.used.store(now(), Ordering::Relaxed);
    }

    fn has_computer(&self) -> bool {
        self.seats.iter().any(|s| matches!(s, Seat::Computer(_)))
    }

    /// The computer player of the side to act, if it is one.
    fn computer_to_act(&self, game: &AnyGame) -> Option<PlayerSpec> {
        let side = game.phase().side()?;
        match &self.seats[at(side)] {
            Seat::Computer(spec) => Some(*spec),
            Seat::Person { .. } => None,
        }
    }
}

/// A failure of the server's own (500).
fn internal() -> ApiError {
    internal_because("the server failed on this request")
}

/// A failure of the server's own (500), with its reason.
fn internal_because(reason: impl std::fmt::Display) -> ApiError {
    ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, reason)
}

/// The answer for a room that is not kept (404).
fn not_found() -> ApiError {
    ApiError::new(
        StatusCode::NOT_FOUND,
        "no such room (finished rooms are kept 7 days, idle ones 30)",
    )
}

/// An action a seat asks for.
enum Wanted {
    Throw,
    Move(Move),
}

/// All rooms: the database and the rooms in memory.
pub(crate) struct Rooms {
    store: Arc<Store>,
    shared: Shared,
    config: RoomsConfig,
    live: Mutex<HashMap<String, Arc<Room>>>,
    /// When each client address opened its rooms of the last hour.
    opened_by: Mutex<HashMap<IpAddr, Vec<Instant>>>,
}

impl Rooms {
    /// Runs `work` on the database on a blocking thread.
    async fn db<T: Send + 'static>(
        &self,
        work: impl FnOnce(&Store) -> Result<T, StoreError> + Send + 'static,
    ) -> Result<T, ApiError> {
        let store = self.store.clone();
        tokio::task::spawn_blocking(move || work(&store))
            .await
            .map_err(|_| internal())?
            .map_err(ApiError::from)
    }

    /// Deletes the expired rooms and forgets them.
    async fn expire(&self) {
        if let Ok(gone) = self.db(|s| s.expire(now())).await
            && let Ok(mut live) = self.live.lock()
        {
            for id in gone {
                live.remove(&id);
            }
        }
        if let Ok(mut opened) = self.opened_by.lock() {
            let hour = Duration::from_secs(3600);
            opened.retain(|_, times| {
                times.retain(|t| t.elapsed() < hour);
                !times.is_empty()
            });
        }
    }

    /// Forgets the rooms nobody watches or plays that were not used lately.
    fn forget_idle(&self) {
        let cutoff = now() - KEPT_IN_MEMORY_SECONDS;
        if let Ok(mut live) = self.live.lock() {
            live.retain(|_, room| {
                room.streams.load(Ordering::Relaxed) > 0
                    || room.used.load(Ordering::Relaxed) > cutoff
                    || room.state.try_lock().map_or(true, |st| st.driving)
            });
        }
    }

    /// The room `id`, from memory or loaded from the database (its computer seat set going).
    async fn room(self: &Arc<Self>, id: &str) -> Result<Arc<Room>, ApiError> {
        if fair::from_hex::<8>(id).is_none() {
            return Err(not_found());
        }
        if let Some(room) = self.live.lock().ok().and_then(|l| l.get(id).cloned()) {
            room.touch();
            return Ok(room);
        }
        let wanted = id.to_string();
        let row = self
            .db(move |s| s.load(&wanted))
            .await?
            .ok_or_else(not_found)?;
        let room = tokio::task::spawn_blocking(move || built(row))
            .await
            .map_err(|_| internal())??;
        let room = {
            let mut live = self.live.lock().map_err(|_| internal())?;
            // Another request may have loaded it meanwhile: keep the first.
            live.entry(room.id.clone()).or_insert(room).clone()
        };
        room.touch();
        self.kick(&room).await;
        Ok(room)
    }

    /// Sets the computer seats of `room` playing if one is to act and none plays yet.
    async fn kick(self: &Arc<Self>, room: &Arc<Room>) {
        let mut st = room.state.lock().await;
        self.kick_locked(room, &mut st);
    }

    fn kick_locked(self: &Arc<Self>, room: &Arc<Room>, st: &mut RoomState) {
        if st.driving || room.computer_to_act(&st.game).is_none() {
            return;
        }
        st.driving = true;
        let rooms = self.clone();
        let room = room.clone();
        tokio::spawn(async move { rooms.drive(room).await });
    }

    /// Plays the computer seats of `room` while one is to act. A decision runs in its lane
    /// of computer work (a blocking thread), without the room's lock; a failed one is tried
    /// again a few times (the lanes may be full).
    async fn drive(self: Arc<Self>, room: Arc<Room>) {
        let mut failures = 0;
        loop {
            tokio::time::sleep(self.config.pace).await;
            let mut st = room.state.lock().await;
            let Some(spec) = room.computer_to_act(&st.game) else {
                st.driving = false;
                return;
            };
            let result = match st.game.phase() {
                Phase::Throw(_) => self.apply(&room, &mut st, Wanted::Throw).await.map(drop),
                _ => {
                    let game = st.game.clone();
                    let actions = game.history().len();
                    drop(st);
                    let chosen = self.choose(spec, game).await;
                    st = room.state.lock().await;
                    match chosen {
                        // Nobody else acts for a computer seat; undo is refused with one.
                        Ok(mv) if st.game.history().len() == actions => {
                            self.apply(&room, &mut st, Wanted::Move(mv)).await.map(drop)
                        }
                        Ok(_) => Ok(()),
                        Err(e) => Err(e),
                    }
                }
            };
            match result {
                Ok(()) => failures = 0,
                Err(e) => {
                    failures += 1;
                    eprintln!(
                        "senet: room {}: the computer seat failed ({}): {}",
                        room.id,
                        failures,
                        e.reason()
                    );
                    if failures >= 5 {
                        // Whoever asks for the room next sets it going again.
                        st.driving = false;
                        return;
                    }
                    drop(st);
                    tokio::time::sleep(Duration::from_secs(2)).await;
                }
            }
        }
    }

    /// The move `spec` chooses in `game`, decided in its lane of computer work.
    async fn choose(&self, spec: PlayerSpec, game: AnyGame) -> Result<Move, ApiError> {
        let seed = fair::fresh_seed().map_err(|e| internal_because(format!("seed: {e}")))?;
        let mut rng = ChaCha8Rng::from_seed(seed);
        let worker = self.shared.clone();
        let lane = lane_for(&self.shared, &spec, game.rules());
        compute(lane, move || {
            let mut player = build_player(&worker, &spec, game.rules())?;
            player.choose(&game, &mut rng).map_err(ApiError::bad)
        })
        .await
    }

    /// Applies what `wanted` asks to the room locked in `st`: a throw is the stream's next
    /// draw. The action is committed to the database before the room changes in memory and
    /// before anyone hears of it. Returns the new state as JSON.
    async fn apply(
        self: &Arc<Self>,
        room: &Arc<Room>,
        st: &mut RoomState,
        wanted: Wanted,
    ) -> Result<Arc<str>, ApiError> {
        let mut game = st.game.clone();
        let mut rng = st.rng.clone();
        let n = game.history().len();
        if n >= MAX_WEB_ACTIONS {
            return Err(ApiError::bad(format!(
                "this game has reached the server's limit of {MAX_WEB_ACTIONS} actions"
            )));
        }
        let action = match wanted {
            Wanted::Throw => Action::Throw(game.rules().sample_throw(&mut rng)),
            Wanted::Move(mv) => Action::Move(mv),
        };
        let entry = narrated(&mut game, action).map_err(ApiError::bad)?;
        let finished = game.outcome().is_some();
        let id = room.id.clone();
        let line = action.to_string();
        self.db(move |s| s.append(&id, n, &line, finished)).await?;
        st.game = game;
        st.rng = rng;
        st.undo = None;
        st.version += 1;
        let state = room.state_view(st, Delta::From(n, vec![entry])).await?;
        let json = room.announce(&state)?;
        self.kick_locked(room, st);
        Ok(json)
    }
}

/// A room rebuilt from its row: the record replayed, the stream drawn past its throws.
fn built(row: RoomRow) -> Result<Arc<Room>, ApiError> {
    let corrupt = |what: String| internal_because(format!("room {}: {what}", row.id));
    let rules = AnyRuleset::parse(&row.rules).map_err(|e| corrupt(e.to_string()))?;
    let mut seats = Vec::with_capacity(2);
    for (player, hash) in row.players.iter().zip(row.token_hashes) {
        seats.push(match (player.as_str(), hash) {
            ("person", Some(token_hash)) => Seat::Person {
                presence: presence_key(&token_hash),
                token_hash,
            },
            (spec, None) => Seat::Computer(spec.parse().map_err(|e| corrupt(format!("{e}")))?),
            _ => return Err(corrupt("a person's seat without its token".to_string())),
        });
    }
    let mut game = AnyGame::new(rules.clone());
    let mut rng = fair::throw_stream(&row.seed);
    for line in &row.actions {
        let action: Action = line.parse().map_err(|e| corrupt(format!("{line}: {e}")))?;
        if matches!(action, Action::Throw(_)) {
            rules.sample_throw(&mut rng);
        }
        game.apply(action)
            .map_err(|e| corrupt(format!("{line}: {e}")))?;
    }
    let undo = match row.undo_side.as_deref() {
        Some("black") => Some(Side::Black),
        Some("white") => Some(Side::White),
        _ => None,
    };
    let [black, white]: [Seat; 2] = seats
        .try_into()
        .map_err(|_| corrupt("two seats".to_string()))?;
    Ok(Arc::new(Room {
        id: row.id,
        seats: [black, white],
        seed: row.seed,
        commitment: fair::commitment(&row.seed),
        state: tokio::sync::Mutex::new(RoomState {
            game,
            rng,
            undo,
            version: 1,
            driving: false,
        }),
        events: broadcast::channel(64).0,
        streams: AtomicUsize::new(0),
        present: [AtomicUsize::new(0), AtomicUsize::new(0)],
        used: AtomicI64::new(now()),
    }))
}

/// The page's part for rooms, loaded by app.js.
const ROOMS_JS: &str = include_str!("../../assets/rooms.js");

/// The routes of the rooms, with the rooms opened on first use.
pub(crate) fn routes(handle: Arc<RoomsHandle>) -> Router {
    Router::new()
        .route(
            "/rooms.js",
            get(|| async {
                (
                    [(header::CONTENT_TYPE, "text/javascript; charset=utf-8")],
                    ROOMS_JS,
                )
                    .into_response()
            }),
        )
        .route("/api/rooms", post(create).get(list))
        .route("/api/rooms/{id}", get(state))
        .route("/api/rooms/{id}/join", post(join))
        .route("/api/rooms/{id}/act", post(act))
        .route("/api/rooms/{id}/undo", post(undo))
        .route("/api/rooms/{id}/events", get(events))
        .layer(axum::extract::DefaultBodyLimit::max(
            crate::limits::MAX_REQUEST_BYTES,
        ))
        .with_state(handle)
}

/// The state every room route gets.
type Handle = State<Arc<RoomsHandle>>;

/// A JSON answer already serialized.
fn json_answer(status: StatusCode, json: Arc<str>) -> Response {
    (
        status,
        [(header::CONTENT_TYPE, "application/json")],
        json.to_string(),
    )
        .into_response()
}

/// `POST /api/rooms`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CreateRequest {
    /// The ruleset specification.
    rules: String,
    /// `person` or a computer player's specification.
    black: String,
    white: String,
}

/// The seats' tokens (none for a computer seat).
#[derive(Serialize)]
struct SeatTokens {
    black: Option<String>,
    white: Option<String>,
}

/// The page's links to the seats and for watchers.
#[derive(Serialize)]
struct Links {
    black: Option<String>,
    white: Option<String>,
    watch: String,
}

/// The answer to `POST /api/rooms`.
#[derive(Serialize)]
struct Created {
    room: String,
    seats: SeatTokens,
    commitment: String,
    /// The page's addresses, relative to the server's: the seats' hold their token in the
    /// fragment, which browsers never send.
    links: Links,
}

/// A seat's player from the request: a person, or a computer player within the page's caps.
fn seat_player(text: &str, side: &str, rules: &AnyRuleset) -> Result<Option<PlayerSpec>, ApiError> {
    let text = text.trim();
    if text == "person" {
        return Ok(None);
    }
    let spec: PlayerSpec = text
        .parse()
        .map_err(|e| ApiError::bad(format!("{side}: give `person` or a computer player: {e}")))?;
    check_web_budget(&spec).map_err(|e| ApiError::bad(format!("{side}: {e}")))?;
    if let PlayerSpec::Perfect(pieces) = spec {
        let quick = rules.endgame_pieces_on_demand();
        if !rules.supports_endgame() || pieces > quick {
            return Err(ApiError::bad(format!(
                "{side}: player {spec}: the server solves tables of at most {quick} pieces a \
                 side of {}",
                rules.spec()
            )));
        }
    } else {
        senet::AnyPlayer::new(&spec, rules)
            .map_err(|e| ApiError::bad(format!("{side}: player: {e}")))?;
    }
    Ok(Some(spec))
}

/// Counts a room opened by `ip`, or refuses it beyond the hourly cap.
fn count_opening(rooms: &Rooms, ip: Option<IpAddr>) -> Result<(), ApiError> {
    let (Some(ip), cap) = (ip, rooms.config.per_hour) else {
        return Ok(());
    };
    if cap == 0 {
        return Ok(());
    }
    let mut opened = rooms.opened_by.lock().map_err(|_| internal())?;
    let times = opened.entry(ip.to_canonical()).or_default();
    times.retain(|t| t.elapsed() < Duration::from_secs(3600));
    if times.len() >= cap {
        return Err(ApiError::new(
            StatusCode::TOO_MANY_REQUESTS,
            format!(
                "this address has opened {cap} rooms in the last hour, the server's limit \
                 (--rooms-per-hour); try again later"
            ),
        ));
    }
    times.push(Instant::now());
    Ok(())
}

/// `POST /api/rooms`: a new room, within the caps.
async fn create(
    State(handle): Handle,
    peer: Option<Extension<PeerAddr>>,
    body: Result<Json<CreateRequest>, JsonRejection>,
) -> Result<Response, ApiError> {
    let Json(request) = body?;
    let rooms = handle.rooms().await?;
    let rules =
        AnyRuleset::parse(&request.rules).map_err(|e| ApiError::bad(format!("rules: {e}")))?;
    let (black, white) = {
        let rules = rules.clone();
        tokio::task::spawn_blocking(move || {
            Ok::<_, ApiError>((
                seat_player(&request.black, "black", &rules)?,
                seat_player(&request.white, "white", &rules)?,
            ))
        })
        .await
        .map_err(|_| internal())??
    };
    let max = rooms.config.max_rooms;
    if rooms.db(|s| s.count_open()).await? >= max {
        return Err(ApiError::new(
            StatusCode::SERVICE_UNAVAILABLE,
            format!(
                "the server has {max} open rooms, its limit (--max-rooms); try again when \
                 some have finished"
            ),
        ));
    }
    count_opening(&rooms, peer.map(|Extension(p)| p.0.ip()))?;
    let random = |what: &str| internal_because(format!("the system's random numbers ({what})"));
    let mut id = [0u8; 8];
    getrandom::fill(&mut id).map_err(|_| random("room"))?;
    let seed = fair::fresh_seed().map_err(|_| random("seed"))?;
    let mut tokens: [Option<String>; 2] = [None, None];
    let mut hashes: [Option<[u8; 32]>; 2] = [None, None];
    for (i, player) in [&black, &white].into_iter().enumerate() {
        if player.is_none() {
            let mut token = [0u8; 16];
            getrandom::fill(&mut token).map_err(|_| random("token"))?;
            tokens[i] = Some(fair::hex(&token));
            hashes[i] = Some(fair::sha256(&token));
        }
    }
    let name = |p: &Option<PlayerSpec>| p.as_ref().map_or("person".to_string(), |s| s.to_string());
    let row = RoomRow {
        id: fair::hex(&id),
        rules: rules.to_string(),
        players: [name(&black), name(&white)],
        token_hashes: hashes,
        seed,
        undo_side: None,
        created: now(),
        actions: Vec::new(),
    };
    let kept = row.clone();
    rooms.db(move |s| s.insert(&kept)).await?;
    let room = built(row)?;
    if let Ok(mut live) = rooms.live.lock() {
        live.insert(room.id.clone(), room.clone());
    }
    rooms.kick(&room).await;
    let link = |token: &Option<String>| {
        token
            .as_ref()
            .map(|t| format!("/#room={}&seat={t}", room.id))
    };
    let created = Created {
        room: room.id.clone(),
        links: Links {
            black: link(&tokens[0]),
            white: link(&tokens[1]),
            watch: format!("/#room={}", room.id),
        },
        seats: SeatTokens {
            black: tokens[0].take(),
            white: tokens[1].take(),
        },
        commitment: room.commitment.clone(),
    };
    Ok((StatusCode::CREATED, Json(created)).into_response())
}

/// The answer to `GET /api/rooms`.
#[derive(Serialize)]
struct RoomList {
    rooms: Vec<super::store::OpenRoom>,
}

/// `GET /api/rooms`: the unfinished rooms, for watchers.
async fn list(State(handle): Handle) -> Result<Json<RoomList>, ApiError> {
    let rooms = handle.rooms().await?;
    Ok(Json(RoomList {
        rooms: rooms.db(|s| s.list_open(MAX_LISTED)).await?,
    }))
}

/// `GET /api/rooms/{id}`: the room's whole state.
async fn state(State(handle): Handle, Path(id): Path<String>) -> Result<Response, ApiError> {
    let rooms = handle.rooms().await?;
    let room = rooms.room(&id).await?;
    let st = room.state.lock().await;
    let state = room.state_view(&st, Delta::Whole).await?;
    Ok(Json(state).into_response())
}

/// A seat's token.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct JoinRequest {
    token: String,
}

/// `POST /api/rooms/{id}/join`: the whole state for a seat, with its side and presence key.
async fn join(
    State(handle): Handle,
    Path(id): Path<String>,
    body: Result<Json<JoinRequest>, JsonRejection>,
) -> Result<Response, ApiError> {
    let Json(request) = body?;
    let rooms = handle.rooms().await?;
    let room = rooms.room(&id).await?;
    let side = room.seat(&request.token)?;
    let st = room.state.lock().await;
    let mut state = room.state_view(&st, Delta::Whole).await?;
    state.you = Some(side_id(side));
    if let Seat::Person { presence, .. } = &room.seats[at(side)] {
        state.presence = Some(presence.clone());
    }
    Ok(Json(state).into_response())
}

/// `POST /api/rooms/{id}/act`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ActRequest {
    token: String,
    /// `throw`, or a move in the move notation (`9-12`, `pass`).
    action: String,
    /// The number of actions the client has seen: an action sent twice is refused (409).
    expect: usize,
}

/// `POST /api/rooms/{id}/act`: a seat's throw or move.
async fn act(
    State(handle): Handle,
    Path(id): Path<String>,
    body: Result<Json<ActRequest>, JsonRejection>,
) -> Result<Response, ApiError> {
    let Json(request) = body?;
    let rooms = handle.rooms().await?;
    let room = rooms.room(&id).await?;
    let side = room.seat(&request.token)?;
    let mut st = room.state.lock().await;
    let actions = st.game.history().len();
    if request.expect != actions {
        return Err(ApiError::new(
            StatusCode::CONFLICT,
            format!(
                "the game has {actions} actions, not the {} you saw: reload it",
                request.expect
            ),
        ));
    }
    let phase = st.game.phase();
    match phase.side() {
        Some(due) if due != side => {
            return Err(ApiError::new(
                StatusCode::FORBIDDEN,
                format!(
                    "it is not {}'s turn: {}",
                    side_id(side),
                    senet_view::web::phase_words(phase)
                ),
            ));
        }
        None => {
            return Err(ApiError::bad(format!(
                "nothing to do: {}",
                senet_view::web::phase_words(phase)
            )));
        }
        Some(_) => {}
    }
    let text = request.action.trim();
    let wanted = match (phase, text) {
        (Phase::Throw(_), "throw") => Wanted::Throw,
        (Phase::Throw(s), _) => {
            return Err(ApiError::bad(format!(
                "{} is to throw: send the action \"throw\"",
                side_id(s)
            )));
        }
        (_, "throw") => {
            return Err(ApiError::bad(format!(
                "{} is to move, not to throw",
                side_id(side)
            )));
        }
        _ => Wanted::Move(
            text.parse::<Move>()
                .map_err(|e| ApiError::bad(format!("action: {e}")))?,
        ),
    };
    let json = rooms.apply(&room, &mut st, wanted).await?;
    Ok(json_answer(StatusCode::OK, json))
}

/// `POST /api/rooms/{id}/undo`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct UndoRequest {
    token: String,
    /// `request`, `accept` or `decline`.
    answer: String,
}

/// `POST /api/rooms/{id}/undo`: a request to take back a move, or its answer.
async fn undo(
    State(handle): Handle,
    Path(id): Path<String>,
    body: Result<Json<UndoRequest>, JsonRejection>,
) -> Result<Response, ApiError> {
    let Json(request) = body?;
    let rooms = handle.rooms().await?;
    let room = rooms.room(&id).await?;
    let side = room.seat(&request.token)?;
    if room.has_computer() {
        return Err(ApiError::bad(
            "undo is by agreement between two people; a computer seat takes no move back",
        ));
    }
    let mut st = room.state.lock().await;
    let id = room.id.clone();
    match request.answer.as_str() {
        "request" => {
            let n = st.game.history().len();
            let last_is_mine = st.game.outcome().is_none()
                && matches!(st.game.history().last(), Some(Action::Move(_)))
                && {
                    let mut before = st.game.clone();
                    before.undo();
                    before.phase().side() == Some(side)
                };
            if !last_is_mine {
                return Err(ApiError::bad(
                    "nothing to take back: undo takes back your last move before the next \
                     throw, while the game goes on",
                ));
            }
            let _ = n;
            let name = side_id(side);
            rooms.db(move |s| s.set_undo(&id, Some(name))).await?;
            st.undo = Some(side);
        }
        "accept" => {
            if st.undo != Some(side.opponent()) {
                return Err(ApiError::bad(
                    "no request of the other side to take a move back",
                ));
            }
            let n = st.game.history().len();
            // A request waits only while its move is the last action.
            let mut game = st.game.clone();
            game.undo();
            rooms.db(move |s| s.truncate(&id, n - 1)).await?;
            st.game = game;
            st.undo = None;
        }
        "decline" => {
            if st.undo.is_none() {
                return Err(ApiError::bad("no request to take a move back"));
            }
            rooms.db(move |s| s.set_undo(&id, None)).await?;
            st.undo = None;
        }
        other => {
            return Err(ApiError::bad(format!(
                "answer: give request, accept or decline, not {}",
                senet::shorten(other)
            )));
        }
    }
    st.version += 1;
    let state = room.state_view(&st, Delta::Whole).await?;
    let json = room.announce(&state)?;
    Ok(json_answer(StatusCode::OK, json))
}

/// `GET /api/rooms/{id}/events?presence=KEY`.
#[derive(Deserialize)]
struct EventsQuery {
    presence: Option<String>,
}

/// Counts an event stream while it is open, and shows its seat connected.
struct Listening {
    room: Arc<Room>,
    seat: Option<Side>,
}

impl Drop for Listening {
    fn drop(&mut self) {
        self.room.streams.fetch_sub(1, Ordering::Relaxed);
        if let Some(side) = self.seat {
            self.room.present[at(side)].fetch_sub(1, Ordering::Relaxed);
            if let Ok(runtime) = tokio::runtime::Handle::try_current() {
                let room = self.room.clone();
                runtime.spawn(async move { presence_changed(&room).await });
            }
        }
    }
}

/// Tells everyone that a seat came or went.
async fn presence_changed(room: &Room) {
    let mut st = room.state.lock().await;
    st.version += 1;
    let n = st.game.history().len();
    if let Ok(state) = room.state_view(&st, Delta::From(n, Vec::new())).await {
        let _ = room.announce(&state);
    }
}

/// `GET /api/rooms/{id}/events`: the room's changes as server-sent events.
async fn events(
    State(handle): Handle,
    Path(id): Path<String>,
    Query(query): Query<EventsQuery>,
) -> Result<Response, ApiError> {
    let rooms = handle.rooms().await?;
    let room = rooms.room(&id).await?;
    if room.streams.fetch_add(1, Ordering::Relaxed) >= MAX_ROOM_STREAMS {
        room.streams.fetch_sub(1, Ordering::Relaxed);
        return Err(ApiError::new(
            StatusCode::SERVICE_UNAVAILABLE,
            format!("this room has {MAX_ROOM_STREAMS} event streams open, the server's limit"),
        ));
    }
    let seat = query.presence.as_deref().and_then(|key| {
        SIDES.into_iter().find(|&side| match &room.seats[at(side)] {
            Seat::Person { presence, .. } => bool::from(presence.as_bytes().ct_eq(key.as_bytes())),
            Seat::Computer(_) => false,
        })
    });
    let listening = Listening {
        room: room.clone(),
        seat,
    };
    if let Some(side) = seat {
        room.present[at(side)].fetch_add(1, Ordering::Relaxed);
        presence_changed(&room).await;
    }
    // Subscribed before the first state is taken, so that nothing falls between them.
    let receiver = room.events.subscribe();
    let first = {
        let st = room.state.lock().await;
        let state = room.state_view(&st, Delta::Whole).await?;
        serde_json::to_string(&state).map_err(|_| internal())?
    };
    let stream = futures_util::stream::unfold(
        (Some(first), receiver, listening),
        |(first, mut receiver, listening)| async move {
            if let Some(first) = first {
                let event = Event::default().event("state").data(first);
                return Some((Ok::<_, Infallible>(event), (None, receiver, listening)));
            }
            let data = match receiver.recv().await {
                Ok(data) => data.to_string(),
                // Too slow a reader: the whole state instead of the ones missed.
                Err(broadcast::error::RecvError::Lagged(_)) => {
                    let st = listening.room.state.lock().await;
                    let state = listening.room.state_view(&st, Delta::Whole).await.ok()?;
                    serde_json::to_string(&state).ok()?
                }
                Err(broadcast::error::RecvError::Closed) => return None,
            };
            let event = Event::default().event("state").data(data);
            Some((Ok(event), (None, receiver, listening)))
        },
    );
    Ok(Sse::new(stream)
        .keep_alive(KeepAlive::new().interval(Duration::from_secs(15)))
        .into_response())
}
