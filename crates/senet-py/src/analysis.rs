//! `analyse`: a whole game reviewed by `senet::analysis`, as the dict `senet analyse --json`
//! prints, with the summary text.

use std::path::PathBuf;

use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyString};
use senet::AnyGame;
use senet::analysis::{AnalyseError, AnalysisError, AnalysisOptions, Tables as TablesChoice};

use crate::errors::{PlayerError, RecordError, SenetError, TablesError};
use crate::game::Game;
use crate::players::{Tables, parse_spec, read_tables, tables_arg};

/// The `tables` argument, sorted before the game's ruleset is known.
enum TablesArg {
    /// `"auto"`: the tables that solve in seconds, where the ruleset has endgames.
    Auto,
    /// `None`: every value is the evaluator's.
    Off,
    /// A `senet.Tables`, checked against the game's ruleset by the analysis.
    Given(Py<Tables>),
    /// A `senet solve` file, read for the game's ruleset.
    File(PathBuf),
}

impl<'a, 'py> FromPyObject<'a, 'py> for TablesArg {
    type Error = PyErr;

    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<Self> {
        if obj.is_none() {
            return Ok(TablesArg::Off);
        }
        if let Ok(tables) = obj.cast::<Tables>() {
            return Ok(TablesArg::Given(tables.to_owned().unbind()));
        }
        if let Ok(text) = obj.cast::<PyString>()
            && text.to_cow()? == "auto"
        {
            return Ok(TablesArg::Auto);
        }
        obj.extract::<PathBuf>().map(TablesArg::File).map_err(|_| {
            PyTypeError::new_err(
                "tables must be \"auto\", None, a path to a `senet solve` file or a senet.Tables",
            )
        })
    }
}

/// The `seed` argument: any int from 0 to 2**64 − 1; one out of range is a `SenetError`
/// (a `ValueError`) rather than pyo3's `OverflowError`.
struct Seed(u64);

impl<'a, 'py> FromPyObject<'a, 'py> for Seed {
    type Error = PyErr;

    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<Self> {
        if let Ok(seed) = obj.extract::<u64>() {
            return Ok(Seed(seed));
        }
        if obj.is_instance_of::<pyo3::types::PyInt>() {
            let text = obj.str()?;
            return Err(SenetError::new_err(format!(
                "seed: {} is not from 0 to 2**64 - 1",
                senet::shorten(&text.to_cow()?)
            )));
        }
        Err(PyTypeError::new_err("seed must be an int"))
    }
}

/// The game to analyse: a `senet.Game`, or a record in the text or the JSON form (told
/// apart as `senet analyse` does: JSON opens with `{`).
fn game_arg(py: Python<'_>, value: &Bound<'_, PyAny>) -> PyResult<AnyGame> {
    if let Ok(game) = value.cast::<Game>() {
        return Ok(game.borrow().inner.clone());
    }
    let Ok(text) = value.extract::<String>() else {
        return Err(PyTypeError::new_err(
            "game_or_record must be a senet.Game or a record (its text or JSON form)",
        ));
    };
    let parsed = py.detach(|| {
        if text.trim_start().starts_with('{') {
            serde_json::from_str::<AnyGame>(&text)
                .map_err(|e| senet::shorten_quoted(&e.to_string()))
        } else {
            AnyGame::from_record_text(&text).map_err(|e| e.to_string())
        }
    });
    parsed.map_err(|e| RecordError::new_err(format!("game_or_record: {e}")))
}

/// `error` with the argument it is about named first, keeping its exception class.
fn named(py: Python<'_>, argument: &str, error: PyErr) -> PyErr {
    let message = error.value(py).to_string();
    PyErr::from_type(error.get_type(py), format!("{argument}: {message}"))
}

/// A refused analysis as the exception of the argument at fault.
fn analyse_error(error: AnalyseError) -> PyErr {
    match error {
        AnalyseError::Tables(e) => TablesError::new_err(format!("tables: {e}")),
        AnalyseError::Start(e) => RecordError::new_err(format!("game_or_record: {e}")),
        AnalyseError::Analysis(e) => match e {
            AnalysisError::TablesMismatch { .. } => TablesError::new_err(format!("tables: {e}")),
            AnalysisError::TooLong(_) | AnalysisError::Illegal { .. } => {
                RecordError::new_err(format!("game_or_record: {e}"))
            }
            AnalysisError::NoWinningChances(_)
            | AnalysisError::NoTables(_)
            | AnalysisError::Weights(_)
            | AnalysisError::Spec(_)
            | AnalysisError::Player(_) => PlayerError::new_err(format!("player: {e}")),
        },
    }
}

/// Analyses a game from its start: each move's loss of winning chance against the best
/// move, each throw's luck, each side's figures and the winning chance at every point.
/// Returns exactly what `senet analyse --json` prints for the same record, options and seed,
/// plus `"summary"`, the short text account. Runs without the interpreter lock.
#[pyfunction]
#[pyo3(
    signature = (game_or_record, player = None, tables = TablesArg::Auto, seed = Seed(0)),
    text_signature = "(game_or_record, player=None, tables=\"auto\", seed=0)"
)]
fn analyse<'py>(
    py: Python<'py>,
    game_or_record: &Bound<'py, PyAny>,
    player: Option<&str>,
    tables: TablesArg,
    seed: Seed,
) -> PyResult<Bound<'py, PyAny>> {
    let game = game_arg(py, game_or_record)?;
    let evaluator = player
        .map(parse_spec)
        .transpose()
        .map_err(|e| named(py, "player", e))?;
    let given = match &tables {
        TablesArg::Given(tables) => tables_arg(game.rules(), Some(tables.bind(py).as_any()))?,
        TablesArg::File(path) => {
            let path = path.to_string_lossy();
            let read = py.detach(|| read_tables(game.rules(), &path));
            Some(read.map_err(|e| named(py, "tables", e))?)
        }
        TablesArg::Auto | TablesArg::Off => None,
    };
    let options = AnalysisOptions {
        evaluator,
        tables: match (&tables, &given) {
            (_, Some(given)) => TablesChoice::Given(given),
            (TablesArg::Auto, None) => TablesChoice::OnDemand,
            (_, None) => TablesChoice::None,
        },
        seed: seed.0,
    };
    let analysis = py
        .detach(|| senet::analysis::analyse(&game, &options))
        .map_err(analyse_error)?;
    // Through JSON, so that the dict is the command's output to the last bit of each float.
    let json = serde_json::to_string(&analysis).map_err(|e| SenetError::new_err(e.to_string()))?;
    let result = py.import("json")?.call_method1("loads", (json,))?;
    result
        .cast::<PyDict>()?
        .set_item("summary", analysis.summary())?;
    Ok(result)
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(analyse, m)?)?;
    Ok(())
}
