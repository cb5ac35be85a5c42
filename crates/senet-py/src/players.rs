//! `Player`, `Tables`, `Match`, `Summary` and `simulate`.

use std::sync::Mutex;

use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};
use senet::registry::AnyRuleset;
use senet::simulation::{
    Lineup, MAX_GAMES, MAX_THREADS, MatchSummary, SimulationReport, perfect_pieces,
};
use senet::{AnyPlayer, AnyTables};
use senet_ai::endgame::{SolveOptions, read_table_bytes};
use senet_ai::{PlayerSpec, ValueKind};

use crate::errors::{PlayerError, SenetError, TablesError};
use crate::game::{Game, Rng, Ruleset, rules_arg, rules_or_default};

/// The largest table file read: a gigabyte, as the command line reads.
const MAX_TABLE_BYTES: u64 = 1 << 30;

pub(crate) fn parse_spec(text: &str) -> PyResult<PlayerSpec> {
    text.trim()
        .parse()
        .map_err(|e: senet_ai::PlayerSpecError| PlayerError::new_err(e.to_string()))
}

pub(crate) fn read_tables(rules: &AnyRuleset, path: &str) -> PyResult<AnyTables> {
    let file = std::fs::File::open(path)
        .map_err(|e| TablesError::new_err(format!("cannot read {path}: {e}")))?;
    let bytes = read_table_bytes(file, MAX_TABLE_BYTES)
        .map_err(|e| TablesError::new_err(format!("{path}: {e}")))?;
    rules
        .read_endgame_file(&bytes)
        .map_err(|e| TablesError::new_err(format!("{path}: {e}")))
}

/// A `tables` argument: None, a path to a table file, or `Tables`.
pub(crate) fn tables_arg(
    rules: &AnyRuleset,
    tables: Option<&Bound<'_, PyAny>>,
) -> PyResult<Option<AnyTables>> {
    let Some(tables) = tables else {
        return Ok(None);
    };
    if let Ok(tables) = tables.cast::<Tables>() {
        return Ok(Some(tables.get().inner.clone()));
    }
    match tables.extract::<std::path::PathBuf>() {
        Ok(path) => read_tables(rules, &path.to_string_lossy()).map(Some),
        Err(_) => Err(PyTypeError::new_err(
            "tables must be a path to a table file or a senet.Tables",
        )),
    }
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
    fn solve(py: Python<'_>, rules: &Bound<'_, PyAny>, max_pieces: u8) -> PyResult<Tables> {
        let rules = rules_arg(rules)?;
        py.detach(|| rules.solve_endgame(max_pieces, &SolveOptions::default()))
            .map(|inner| Tables { inner })
            .map_err(|e| TablesError::new_err(e.to_string()))
    }

    /// Reads a table file written by `senet solve` for this configuration.
    #[staticmethod]
    fn read(
        py: Python<'_>,
        rules: &Bound<'_, PyAny>,
        path: std::path::PathBuf,
    ) -> PyResult<Tables> {
        let rules = rules_arg(rules)?;
        let path = path.to_string_lossy().into_owned();
        py.detach(|| read_tables(&rules, &path))
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
    #[pyo3(signature = (spec, rules = None, tables = None, seed = 0))]
    fn new(
        py: Python<'_>,
        spec: &str,
        rules: Option<&Bound<'_, PyAny>>,
        tables: Option<&Bound<'_, PyAny>>,
        seed: u64,
    ) -> PyResult<Player> {
        let rules = rules_or_default(rules)?;
        let spec = parse_spec(spec)?;
        let tables = tables_arg(&rules, tables)?;
        let player = py.detach(|| match &tables {
            Some(tables) => AnyPlayer::with_tables(&spec, &rules, tables),
            None => AnyPlayer::new(&spec, &rules),
        });
        Ok(Player {
            inner: Mutex::new(player.map_err(|e| PlayerError::new_err(e.to_string()))?),
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
        game: &Bound<'py, Game>,
        rng: Option<&Bound<'py, Rng>>,
    ) -> PyResult<Bound<'py, PyDict>> {
        let game = game.borrow().inner.clone();
        let analysis = {
            let mut given;
            let rng = match rng {
                Some(rng) => {
                    given = rng.borrow_mut();
                    &mut given.inner
                }
                None => &mut self.rng.inner,
            };
            let player = self.inner.get_mut().map_err(poisoned)?;
            py.detach(|| player.analyse(&game, rng))
        }
        .map_err(|e| PlayerError::new_err(e.to_string()))?;
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
        game: &Bound<'_, Game>,
        rng: Option<&Bound<'_, Rng>>,
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
    let names: Vec<String> = match players.extract::<String>() {
        Ok(text) => text.split(',').map(str::to_string).collect(),
        Err(_) => players.extract().map_err(|_| {
            PyTypeError::new_err("players must be two names, e.g. (\"greedy\", \"random\")")
        })?,
    };
    match names.as_slice() {
        [a, b] => Ok([parse_spec(a)?, parse_spec(b)?]),
        _ => Err(PlayerError::new_err(format!(
            "expected two players, not {}",
            names.len()
        ))),
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
) -> PyResult<Option<AnyTables>> {
    match (given, perfect_pieces(specs)) {
        (Some(tables), Some(pieces)) if pieces > tables.max_pieces() => {
            Err(TablesError::new_err(format!(
                "perfect:{pieces} needs tables of {pieces} pieces a side, these have {}",
                tables.max_pieces()
            )))
        }
        (Some(tables), _) => Ok(Some(tables)),
        (None, Some(pieces)) if pieces > rules.endgame_pieces_on_demand() => {
            Err(TablesError::new_err(format!(
                "perfect:{pieces} needs tables: solve them once with senet.Tables.solve or \
                 `senet solve` (more than {} pieces a side of {} take minutes or more)",
                rules.endgame_pieces_on_demand(),
                rules.spec()
            )))
        }
        (None, Some(pieces)) => py
            .detach(|| rules.solve_endgame(pieces, &SolveOptions::default()))
            .map(Some)
            .map_err(|e| TablesError::new_err(format!("perfect:{pieces}: {e}"))),
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
    #[pyo3(signature = (rules = None, players = None, seed = 0, turn_cap = senet::DEFAULT_TURN_CAP, tables = None))]
    fn new(
        py: Python<'_>,
        rules: Option<&Bound<'_, PyAny>>,
        players: Option<&Bound<'_, PyAny>>,
        seed: u64,
        turn_cap: u32,
        tables: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Match> {
        let rules = rules_or_default(rules)?;
        let specs = match players {
            Some(players) => players_arg(players)?,
            None => [PlayerSpec::Random; 2],
        };
        if turn_cap == 0 {
            return Err(SenetError::new_err("turn_cap must be at least 1"));
        }
        let tables = perfect_tables(py, &rules, &specs, tables_arg(&rules, tables)?)?;
        let lineup = py
            .detach(|| Lineup::new(&rules, specs, tables))
            .map_err(|e| PlayerError::new_err(e.to_string()))?;
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
    #[pyo3(signature = (start, stop, threads = 0))]
    fn play(&self, py: Python<'_>, start: u64, stop: u64, threads: usize) -> PyResult<Summary> {
        if stop < start {
            return Err(SenetError::new_err(format!(
                "the games {start}..{stop} are no range: stop comes before start"
            )));
        }
        if stop - start > MAX_GAMES {
            return Err(SenetError::new_err(format!(
                "{} games: at most {MAX_GAMES} in one call",
                stop - start
            )));
        }
        let threads = match threads {
            0 => std::thread::available_parallelism().map_or(1, usize::from),
            n if n > MAX_THREADS => {
                return Err(SenetError::new_err(format!(
                    "threads {n}: at most {MAX_THREADS}"
                )));
            }
            n => n,
        };
        let played = py.detach(|| {
            play_on_threads(&self.lineup, start..stop, self.seed, self.turn_cap, threads)
        });
        played
            .map(|inner| Summary { inner })
            .map_err(PlayerError::new_err)
    }

    /// The summary as `senet simulate --json` prints it, as a dict.
    fn report<'py>(&self, py: Python<'py>, summary: &Summary) -> PyResult<Bound<'py, PyAny>> {
        let report = SimulationReport::new(&self.lineup, self.seed, self.turn_cap, &summary.inner);
        let json =
            serde_json::to_string(&report).map_err(|e| SenetError::new_err(e.to_string()))?;
        py.import("json")?.call_method1("loads", (json,))
    }
}

/// Splits `games` into `threads` contiguous parts, plays each on its own thread and merges
/// the summaries (exactly: the order of the merge does not matter).
fn play_on_threads(
    lineup: &Lineup,
    games: std::ops::Range<u64>,
    seed: u64,
    turn_cap: u32,
    threads: usize,
) -> Result<MatchSummary, String> {
    let count = games.end - games.start;
    let threads = (threads as u64).clamp(1, count.max(1));
    let part = count.div_ceil(threads);
    std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads)
            .map(|t| {
                let first = games.start + (t * part).min(count);
                let last = games.start + ((t + 1) * part).min(count);
                scope.spawn(move || lineup.play(first..last, seed, turn_cap))
            })
            .collect();
        handles
            .into_iter()
            // A panic is a bug of the engine: reported as an error, never as a summary.
            .map(|handle| match handle.join() {
                Ok(part) => part.map_err(|e| e.to_string()),
                Err(_) => Err("a simulation thread failed".to_string()),
            })
            .sum()
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
    fn new(json: Option<&str>) -> PyResult<Summary> {
        match json {
            None => Ok(Summary::default()),
            Some(json) => serde_json::from_str(json)
                .map(|inner| Summary { inner })
                .map_err(|e| SenetError::new_err(format!("not a summary: {e}"))),
        }
    }

    /// Adds the games of `other`.
    fn merge(&mut self, other: &Summary) {
        self.inner.merge(&other.inner);
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
#[pyfunction]
#[pyo3(signature = (rules = None, games = 10_000, seed = 0, players = None, tables = None, turn_cap = senet::DEFAULT_TURN_CAP, threads = 0))]
#[allow(clippy::too_many_arguments)]
fn simulate<'py>(
    py: Python<'py>,
    rules: Option<&Bound<'py, PyAny>>,
    games: u64,
    seed: u64,
    players: Option<&Bound<'py, PyAny>>,
    tables: Option<&Bound<'py, PyAny>>,
    turn_cap: u32,
    threads: usize,
) -> PyResult<Bound<'py, PyAny>> {
    if games == 0 {
        return Err(SenetError::new_err("games must be at least 1"));
    }
    let run = Match::new(py, rules, players, seed, turn_cap, tables)?;
    let summary = run.play(py, 0, games, threads)?;
    run.report(py, &summary)
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Player>()?;
    m.add_class::<Tables>()?;
    m.add_class::<Match>()?;
    m.add_class::<Summary>()?;
    m.add_function(wrap_pyfunction!(simulate, m)?)?;
    Ok(())
}
