//! `Player`, `Tables`, `Match`, `Summary` and `simulate`.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Condvar, Mutex, PoisonError};
use std::time::{Duration, Instant};

use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};
use senet::registry::AnyRuleset;
use senet::simulation::{
    Lineup, MAX_GAMES, MAX_THREADS, MatchSummary, SimulationReport, perfect_pieces,
};
use senet::{AnyPlayer, AnyTables};
use senet_ai::endgame::{SolveOptions, read_table_bytes};
use senet_ai::{PlayerSpec, ValueKind};

use crate::args::{Arg, describe, int_arg, str_arg};
use crate::errors::{PlayerError, SenetError, TablesError};
use crate::game::{Game, Rng, Ruleset, one_line, rng_arg, rules_arg, rules_or_default};

/// The largest table file read: a gigabyte, as the command line reads.
const MAX_TABLE_BYTES: u64 = 1 << 30;

/// A player specification named `name` (`spec`, `players`, `opponent`, `player`).
pub(crate) fn parse_spec(text: &str, name: &str) -> PyResult<PlayerSpec> {
    text.trim()
        .parse()
        .map_err(|e: senet_ai::PlayerSpecError| PlayerError::new_err(one_line(name, &e)))
}

/// A player specification argument: a string.
fn spec_arg(value: &Bound<'_, PyAny>, name: &str) -> PyResult<PlayerSpec> {
    let text =
        str_arg(value, name).map_err(|e| PlayerError::new_err(e.value(value.py()).to_string()))?;
    parse_spec(&text, name)
}

/// Reads the table file at `path` for `rules`; errors name the argument `name`.
pub(crate) fn read_tables(rules: &AnyRuleset, path: &str, name: &str) -> PyResult<AnyTables> {
    let shown = senet::shorten(path);
    let file = std::fs::File::open(path)
        .map_err(|e| TablesError::new_err(one_line(name, &format!("cannot read {shown}: {e}"))))?;
    let bytes = read_table_bytes(file, MAX_TABLE_BYTES)
        .map_err(|e| TablesError::new_err(one_line(name, &format!("{shown}: {e}"))))?;
    rules
        .read_endgame_file(&bytes)
        .map_err(|e| TablesError::new_err(one_line(name, &format!("{shown}: {e}"))))
}

/// A path argument: a `str` or an `os.PathLike` (not bytes).
pub(crate) fn path_arg(value: &Bound<'_, PyAny>, name: &str) -> PyResult<std::path::PathBuf> {
    let refuse = || {
        TablesError::new_err(format!(
            "{name}: expected a path to a table file or a senet.Tables, not {}",
            describe(value)
        ))
    };
    if value.is_instance_of::<pyo3::types::PyBytes>() {
        return Err(refuse());
    }
    let path: std::path::PathBuf = value.extract().map_err(|_| refuse())?;
    if path.as_os_str().is_empty() {
        return Err(TablesError::new_err(format!("{name}: the path is empty")));
    }
    Ok(path)
}

/// A `tables` argument: None, a path to a table file, or `Tables`.
pub(crate) fn tables_arg(
    rules: &AnyRuleset,
    tables: Option<&Bound<'_, PyAny>>,
) -> PyResult<Option<AnyTables>> {
    let Some(tables) = tables else {
        return Ok(None);
    };
    if tables.is_none() {
        return Ok(None);
    }
    if let Ok(tables) = tables.cast::<Tables>() {
        return Ok(Some(tables.get().inner.clone()));
    }
    let path = path_arg(tables, "tables")?;
    let path = path.to_string_lossy();
    tables
        .py()
        .detach(|| read_tables(rules, &path, "tables"))
        .map(Some)
}

/// Solved endgame tables of one ruleset configuration, for perfect players.
#[pyclass(module = "senet._senet", frozen)]
pub(crate) struct Tables {
    inner: AnyTables,
}

#[pymethods]
impl Tables {
    /// Solves the endgames with up to `max_pieces` pieces a side (seconds for 2, far more
    /// beyond), releasing the interpreter lock.
    #[staticmethod]
    fn solve(
        py: Python<'_>,
        rules: &Bound<'_, PyAny>,
        max_pieces: &Bound<'_, PyAny>,
    ) -> PyResult<Tables> {
        let rules = rules_arg(rules)?;
        let max_pieces: u8 = int_arg(max_pieces, "max_pieces", 0, 255)?;
        py.detach(|| rules.solve_endgame(max_pieces, &SolveOptions::default()))
            .map(|inner| Tables { inner })
            .map_err(|e| TablesError::new_err(one_line("max_pieces", &e)))
    }

    /// Reads a table file written by `senet solve` for this configuration.
    #[staticmethod]
    fn read(py: Python<'_>, rules: &Bound<'_, PyAny>, path: &Bound<'_, PyAny>) -> PyResult<Tables> {
        let rules = rules_arg(rules)?;
        let path = path_arg(path, "path")?.to_string_lossy().into_owned();
        py.detach(|| read_tables(&rules, &path, "path"))
            .map(|inner| Tables { inner })
    }

    /// The ruleset configuration solved.
    #[getter]
    fn rules(&self) -> Ruleset {
        Ruleset {
            inner: self.inner.rules().clone(),
        }
    }

    /// The most pieces a side covered.
    #[getter]
    fn max_pieces(&self) -> u8 {
        self.inner.max_pieces()
    }

    /// What the tables hold, in one line.
    fn describe(&self) -> String {
        self.inner.describe().to_string()
    }

    fn __repr__(&self) -> String {
        format!("<Tables {}>", self.inner.describe())
    }
}

fn kind_name(kind: ValueKind) -> (&'static str, &'static str) {
    match kind {
        ValueKind::ExactWinProbability => (
            "exact_win_probability",
            "the exact probability that the side to move wins after the move (perfect play)",
        ),
        ValueKind::EstimatedWinProbability => (
            "estimated_win_probability",
            "an estimate of the probability that the side to move wins after the move",
        ),
        ValueKind::Heuristic => (
            "heuristic",
            "a score in the player's own units: only the order of the values means anything",
        ),
        ValueKind::Uniform => (
            "uniform",
            "no preference: each value is the probability of picking the move",
        ),
        ValueKind::Forced => ("forced", "the only legal move, not analysed"),
    }
}

/// A computer player for games of one ruleset configuration (by default Regency):
/// `Player("expectiminimax:3", "kendall")`. Players: random, greedy, expectiminimax[:DEPTH | :nodes=N], mcts[:PLAYOUTS],
/// perfect[:PIECES], learned[:DEPTH] (a network trained by self-play, for the configurations
/// with committed weights; docs/players.md).
#[pyclass(module = "senet._senet")]
pub(crate) struct Player {
    inner: Mutex<AnyPlayer>,
    /// The generator of the player's own random choices when none is given.
    rng: Rng,
}

#[pymethods]
impl Player {
    /// A perfect player plays from `tables` (a `Tables` or a table file) or solves its own.
    #[new]
    #[pyo3(
        signature = (spec, rules = None, tables = None, seed = Arg::Default),
        text_signature = "(spec, rules=None, tables=None, seed=0)"
    )]
    fn new(
        py: Python<'_>,
        spec: &Bound<'_, PyAny>,
        rules: Option<&Bound<'_, PyAny>>,
        tables: Option<&Bound<'_, PyAny>>,
        seed: Arg<'_>,
    ) -> PyResult<Player> {
        let spec = spec_arg(spec, "spec")?;
        let rules = rules_or_default(rules)?;
        let seed = seed.u64("seed", 0)?;
        let tables = tables_arg(&rules, tables)?;
        let player = py.detach(|| match &tables {
            Some(tables) => AnyPlayer::with_tables(&spec, &rules, tables),
            None => AnyPlayer::new(&spec, &rules),
        });
        Ok(Player {
            inner: Mutex::new(player.map_err(|e| PlayerError::new_err(one_line("spec", &e)))?),
            rng: Rng {
                inner: senet::rng::seeded(seed, 0),
            },
        })
    }

    /// The player's name.
    #[getter]
    fn name(&self) -> PyResult<String> {
        Ok(self.lock()?.name())
    }

    /// Every legal move of `game` with the player's value of it, and its choice:
    /// `{"moves": [(move, value), …], "chosen": move, "kind": …, "meaning": …}`. Random
    /// choices are drawn from `rng`, else from the player's own generator.
    #[pyo3(signature = (game, rng = None))]
    fn analyse<'py>(
        &mut self,
        py: Python<'py>,
        game: &Bound<'py, PyAny>,
        rng: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyDict>> {
        let game = game
            .cast::<Game>()
            .map_err(|_| {
                SenetError::new_err(format!(
                    "game: expected a senet.Game, not {}",
                    describe(game)
                ))
            })?
            .borrow()
            .inner
            .clone();
        let rng = rng
            .filter(|r| !r.is_none())
            .map(|r| rng_arg(r, "rng"))
            .transpose()?;
        let analysis = {
            let mut given;
            let rng = match &rng {
                Some(rng) => {
                    given = rng.borrow_mut();
                    &mut given.inner
                }
                None => &mut self.rng.inner,
            };
            let player = self.inner.get_mut().map_err(poisoned)?;
            py.detach(|| player.analyse(&game, rng))
        }
        .map_err(|e| PlayerError::new_err(one_line("game", &e)))?;
        let dict = PyDict::new(py);
        let moves = PyList::empty(py);
        for m in analysis.moves() {
            moves.append((m.mv.to_string(), m.value))?;
        }
        dict.set_item("moves", moves)?;
        dict.set_item("chosen", analysis.chosen().to_string())?;
        let (kind, meaning) = kind_name(analysis.kind());
        dict.set_item("kind", kind)?;
        dict.set_item("meaning", meaning)?;
        Ok(dict)
    }

    /// The player's move in `game`, in the move notation.
    #[pyo3(signature = (game, rng = None))]
    fn choose(
        &mut self,
        py: Python<'_>,
        game: &Bound<'_, PyAny>,
        rng: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<String> {
        let analysis = self.analyse(py, game, rng)?;
        analysis
            .get_item("chosen")?
            .ok_or_else(|| SenetError::new_err("no move chosen"))?
            .extract()
    }

    fn __repr__(&self) -> PyResult<String> {
        Ok(format!("Player({:?})", self.lock()?.name()))
    }
}

impl Player {
    fn lock(&self) -> PyResult<std::sync::MutexGuard<'_, AnyPlayer>> {
        self.inner.lock().map_err(poisoned)
    }
}

fn poisoned<T>(_: T) -> PyErr {
    SenetError::new_err("the player failed in another thread")
}

/// Players a and b of a seeded run: the two names, or one string `"a,b"`.
fn players_arg(players: &Bound<'_, PyAny>) -> PyResult<[PlayerSpec; 2]> {
    let refuse = || {
        PlayerError::new_err(format!(
            "players: expected two names, e.g. (\"greedy\", \"random\"), not {}",
            describe(players)
        ))
    };
    let names: Vec<String> = if let Ok(text) = players.cast::<pyo3::types::PyString>() {
        text.to_cow()?.split(',').map(str::to_string).collect()
    } else if players.is_instance_of::<pyo3::types::PyList>()
        || players.is_instance_of::<pyo3::types::PyTuple>()
    {
        players.extract().map_err(|_| refuse())?
    } else {
        return Err(refuse());
    };
    match names.as_slice() {
        [a, b] => Ok([parse_spec(a, "players")?, parse_spec(b, "players")?]),
        _ => Err(refuse()),
    }
}

/// The tables the perfect players among `specs` play from: `given`, which must cover as
/// many pieces as they ask for, or solved now (at most
/// `AnyRuleset::endgame_pieces_on_demand` pieces a side), as `senet simulate` does.
pub(crate) fn perfect_tables(
    py: Python<'_>,
    rules: &AnyRuleset,
    specs: &[PlayerSpec],
    given: Option<AnyTables>,
    who: &str,
) -> PyResult<Option<AnyTables>> {
    match (given, perfect_pieces(specs)) {
        (Some(tables), Some(pieces)) if pieces > tables.max_pieces() => {
            Err(TablesError::new_err(format!(
                "tables: perfect:{pieces} needs tables of {pieces} pieces a side, these have {}",
                tables.max_pieces()
            )))
        }
        (Some(tables), _) => Ok(Some(tables)),
        (None, Some(pieces)) if pieces > rules.endgame_pieces_on_demand() => {
            Err(TablesError::new_err(format!(
                "{who}: perfect:{pieces} needs tables: solve them once with senet.Tables.solve or \
                 `senet solve` (more than {} pieces a side of {} take minutes or more)",
                rules.endgame_pieces_on_demand(),
                rules.spec()
            )))
        }
        (None, Some(pieces)) => py
            .detach(|| rules.solve_endgame(pieces, &SolveOptions::default()))
            .map(Some)
            .map_err(|e| TablesError::new_err(one_line(who, &format!("perfect:{pieces}: {e}")))),
        (None, None) => Ok(None),
    }
}

/// A seeded match between two computer players, as `senet simulate` plays it: game `i`
/// draws from ChaCha8 stream `i` of `seed` and player a plays Black in the even-numbered
/// games, so `play` of any range of game indices gives a `Summary` that merges exactly
/// with those of the other ranges.
#[pyclass(module = "senet._senet", frozen)]
pub(crate) struct Match {
    lineup: Lineup,
    seed: u64,
    turn_cap: u32,
}

#[pymethods]
impl Match {
    /// A perfect player without `tables` solves its own (at most 2 pieces a side).
    #[new]
    #[pyo3(
        signature = (rules = None, players = None, seed = Arg::Default, turn_cap = Arg::Default, tables = None),
        text_signature = "(rules=None, players=None, seed=0, turn_cap=10000, tables=None)"
    )]
    fn new(
        py: Python<'_>,
        rules: Option<&Bound<'_, PyAny>>,
        players: Option<&Bound<'_, PyAny>>,
        seed: Arg<'_>,
        turn_cap: Arg<'_>,
        tables: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Match> {
        let rules = rules_or_default(rules)?;
        let specs = match players {
            Some(players) if !players.is_none() => players_arg(players)?,
            _ => [PlayerSpec::Random; 2],
        };
        let seed = seed.u64("seed", 0)?;
        let turn_cap = turn_cap_arg(&turn_cap)?;
        let tables = perfect_tables(py, &rules, &specs, tables_arg(&rules, tables)?, "players")?;
        let lineup = py
            .detach(|| Lineup::new(&rules, specs, tables))
            .map_err(|e| PlayerError::new_err(one_line("players", &e)))?;
        Ok(Match {
            lineup,
            seed,
            turn_cap,
        })
    }

    /// The players' names as they play.
    #[getter]
    fn players(&self) -> (String, String) {
        let [a, b] = self.lineup.names();
        (a, b)
    }

    /// The ruleset.
    #[getter]
    fn rules(&self) -> Ruleset {
        Ruleset {
            inner: self.lineup.rules().clone(),
        }
    }

    /// The seed.
    #[getter]
    fn seed(&self) -> u64 {
        self.seed
    }

    /// The turn cap.
    #[getter]
    fn turn_cap(&self) -> u32 {
        self.turn_cap
    }

    /// Plays games `start..stop` on `threads` threads (0: one per core) without the
    /// interpreter lock and summarises them.
    #[pyo3(signature = (start, stop, threads = Arg::Default), text_signature = "(start, stop, threads=0)")]
    fn play(
        &self,
        py: Python<'_>,
        start: &Bound<'_, PyAny>,
        stop: &Bound<'_, PyAny>,
        threads: Arg<'_>,
    ) -> PyResult<Summary> {
        let start = crate::args::u64_arg(start, "start")?;
        let stop = crate::args::u64_arg(stop, "stop")?;
        let threads = threads_arg(&threads)?;
        if stop < start {
            return Err(SenetError::new_err(format!(
                "stop: the games {start}..{stop} are no range: stop comes before start"
            )));
        }
        if stop - start > MAX_GAMES {
            return Err(SenetError::new_err(format!(
                "stop: {} games from start: at most {MAX_GAMES} in one call",
                stop - start
            )));
        }
        self.play_games(py, start..stop, threads)
    }

    /// The summary as `senet simulate --json` prints it, as a dict.
    fn report<'py>(
        &self,
        py: Python<'py>,
        summary: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let summary = summary_arg(summary, "summary")?;
        let report = SimulationReport::new(&self.lineup, self.seed, self.turn_cap, &summary.inner);
        let json =
            serde_json::to_string(&report).map_err(|e| SenetError::new_err(e.to_string()))?;
        py.import("json")?.call_method1("loads", (json,))
    }
}

impl Match {
    /// Plays `games` on `threads` threads (0: one per core) without the interpreter lock,
    /// checking for signals (Ctrl-C) every 50 ms: an interrupt stops every thread after the
    /// batch of games it is playing (a batch takes about 20 to 100 ms) and raises
    /// `KeyboardInterrupt`.
    fn play_games(
        &self,
        py: Python<'_>,
        games: std::ops::Range<u64>,
        threads: usize,
    ) -> PyResult<Summary> {
        let threads = match threads {
            0 => std::thread::available_parallelism().map_or(1, usize::from),
            n => n,
        };
        let count = games.end - games.start;
        let threads = (threads as u64).clamp(1, count.max(1));
        let part = count.div_ceil(threads);
        let stop = AtomicBool::new(false);
        let done = (Mutex::new(0u64), Condvar::new());
        let (lineup, seed, turn_cap) = (&self.lineup, self.seed, self.turn_cap);
        std::thread::scope(|scope| {
            let handles: Vec<_> = (0..threads)
                .map(|t| {
                    let first = games.start + (t * part).min(count);
                    let last = games.start + ((t + 1) * part).min(count);
                    let (stop, done) = (&stop, &done);
                    scope.spawn(move || {
                        let _done = Finished(done);
                        play_in_batches(lineup, first..last, seed, turn_cap, stop)
                    })
                })
                .collect();
            let mut interrupt = None;
            loop {
                let all_done = py.detach(|| {
                    let (count, finished) = &done;
                    let guard = count.lock().unwrap_or_else(PoisonError::into_inner);
                    let (guard, _) = finished
                        .wait_timeout_while(guard, Duration::from_millis(50), |n| *n < threads)
                        .unwrap_or_else(PoisonError::into_inner);
                    *guard >= threads
                });
                if all_done {
                    break;
                }
                if let Err(e) = py.check_signals() {
                    stop.store(true, Ordering::Relaxed);
                    interrupt = Some(e);
                    break;
                }
            }
            let parts: Vec<_> = py.detach(|| {
                handles
                    .into_iter()
                    // A panic is a bug of the engine: reported as an error, never as a
                    // summary.
                    .map(|handle| match handle.join() {
                        Ok(part) => part,
                        Err(_) => Err("a simulation thread failed".to_string()),
                    })
                    .collect()
            });
            if let Some(interrupt) = interrupt {
                return Err(interrupt);
            }
            parts
                .into_iter()
                .sum::<Result<MatchSummary, String>>()
                .map(|inner| Summary { inner })
                .map_err(|e| PlayerError::new_err(one_line("players", &e)))
        })
    }
}

/// Counts a simulation thread as finished when dropped (also if it panicked).
struct Finished<'a>(&'a (Mutex<u64>, Condvar));

impl Drop for Finished<'_> {
    fn drop(&mut self) {
        let (count, finished) = self.0;
        *count.lock().unwrap_or_else(PoisonError::into_inner) += 1;
        finished.notify_all();
    }
}

/// Plays `games` in batches, merging their summaries (exactly: a range's summary is the
/// merge of its parts'), until done or `stop` is set. A batch grows while it takes under
/// 20 ms and shrinks when it takes over 100 ms, so that a stop is seen promptly whatever
/// the players cost.
fn play_in_batches(
    lineup: &Lineup,
    games: std::ops::Range<u64>,
    seed: u64,
    turn_cap: u32,
    stop: &AtomicBool,
) -> Result<MatchSummary, String> {
    let mut total = MatchSummary::default();
    let mut next = games.start;
    let mut batch: u64 = 8;
    while next < games.end && !stop.load(Ordering::Relaxed) {
        let end = next.saturating_add(batch).min(games.end);
        let started = Instant::now();
        let part = lineup
            .play(next..end, seed, turn_cap)
            .map_err(|e| e.to_string())?;
        total.merge(&part);
        let took = started.elapsed();
        if took < Duration::from_millis(20) {
            batch = (batch * 2).min(1 << 16);
        } else if took > Duration::from_millis(100) {
            batch = (batch / 2).max(1);
        }
        next = end;
    }
    Ok(total)
}

/// A turn cap argument: 1 to 2**32 - 1, by default `senet::DEFAULT_TURN_CAP`.
pub(crate) fn turn_cap_arg(value: &Arg<'_>) -> PyResult<u32> {
    value.int("turn_cap", 1, i128::from(u32::MAX), senet::DEFAULT_TURN_CAP)
}

/// A thread count: 0 (one per core) to `MAX_THREADS`.
fn threads_arg(value: &Arg<'_>) -> PyResult<usize> {
    value.int("threads", 0, MAX_THREADS as i128, 0)
}

/// A `Summary` argument named `name`.
fn summary_arg(value: &Bound<'_, PyAny>, name: &str) -> PyResult<Summary> {
    value
        .cast::<Summary>()
        .map(|s| s.borrow().clone())
        .map_err(|_| {
            SenetError::new_err(format!(
                "{name}: expected a senet.Summary, not {}",
                describe(value)
            ))
        })
}

/// What a batch of games came to; summaries of disjoint batches of one `Match` merge
/// exactly. Pickles (as JSON) so that it travels between processes.
#[pyclass(module = "senet._senet")]
#[derive(Clone, Default)]
pub(crate) struct Summary {
    inner: MatchSummary,
}

#[pymethods]
impl Summary {
    #[new]
    #[pyo3(signature = (json = None))]
    fn new(json: Option<&Bound<'_, PyAny>>) -> PyResult<Summary> {
        match json {
            Some(json) if !json.is_none() => {
                let json = str_arg(json, "json")?;
                serde_json::from_str(&json)
                    .map(|inner| Summary { inner })
                    .map_err(|e| {
                        SenetError::new_err(format!(
                            "json: not a summary: {}",
                            senet::shorten_quoted(&e.to_string())
                        ))
                    })
            }
            _ => Ok(Summary::default()),
        }
    }

    /// Adds the games of `other`.
    fn merge(&mut self, other: &Bound<'_, PyAny>) -> PyResult<()> {
        let other = summary_arg(other, "other")?;
        self.inner.merge(&other.inner);
        Ok(())
    }

    /// Games summarised.
    #[getter]
    fn games(&self) -> u64 {
        self.inner.by_side.games()
    }

    /// Wins of player a and player b.
    #[getter]
    fn player_wins(&self) -> (u64, u64) {
        (self.inner.player_wins[0], self.inner.player_wins[1])
    }

    /// The summary as JSON (what `Summary(json)` reads).
    fn to_json(&self) -> PyResult<String> {
        serde_json::to_string(&self.inner).map_err(|e| SenetError::new_err(e.to_string()))
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other
            .cast::<Summary>()
            .is_ok_and(|other| other.borrow().inner == self.inner)
    }

    fn __reduce__(&self, py: Python<'_>) -> PyResult<(Py<PyAny>, (String,))> {
        Ok((
            py.get_type::<Summary>().into_any().unbind(),
            (self.to_json()?,),
        ))
    }

    fn __repr__(&self) -> String {
        format!("<Summary of {} games>", self.games())
    }
}

/// Plays `games` seeded games between two computer players and returns the summary that
/// `senet simulate --json` prints for the same arguments.
/// Ctrl-C stops it within about a tenth of a second (`KeyboardInterrupt`).
#[pyfunction]
#[pyo3(
    signature = (rules = None, games = Arg::Default, seed = Arg::Default, players = None, tables = None, turn_cap = Arg::Default, threads = Arg::Default),
    text_signature = "(rules=None, games=10000, seed=0, players=None, tables=None, turn_cap=10000, threads=0)"
)]
#[allow(clippy::too_many_arguments)]
fn simulate<'py>(
    py: Python<'py>,
    rules: Option<&Bound<'py, PyAny>>,
    games: Arg<'py>,
    seed: Arg<'py>,
    players: Option<&Bound<'py, PyAny>>,
    tables: Option<&Bound<'py, PyAny>>,
    turn_cap: Arg<'py>,
    threads: Arg<'py>,
) -> PyResult<Bound<'py, PyAny>> {
    let games: u64 = games.int("games", 1, i128::from(MAX_GAMES), 10_000)?;
    let threads = threads_arg(&threads)?;
    let run = Match::new(py, rules, players, seed, turn_cap, tables)?;
    let summary = run.play_games(py, 0..games, threads)?;
    let summary = Bound::new(py, summary)?;
    run.report(py, summary.as_any())
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Player>()?;
    m.add_class::<Tables>()?;
    m.add_class::<Match>()?;
    m.add_class::<Summary>()?;
    m.add_function(wrap_pyfunction!(simulate, m)?)?;
    Ok(())
}
