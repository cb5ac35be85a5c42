//! `analyse`: a whole game reviewed by `senet::analysis`, as the dict `senet analyse --json`
//! prints, with the summary text.

use std::path::PathBuf;

use pyo3::prelude::*;
use pyo3::types::{PyDict, PyString};
use senet::AnyGame;
use senet::analysis::{AnalyseError, AnalysisError, AnalysisOptions, Tables as TablesChoice};

use crate::args::{Arg, describe, str_arg};
use crate::errors::{PlayerError, RecordError, SenetError, TablesError};
use crate::game::{Game, one_line};
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
        let refuse = || {
            TablesError::new_err(format!(
                "tables: expected \"auto\", None, a path to a `senet solve` file or a senet.Tables, not {}",
                describe(&obj.to_owned())
            ))
        };
        if obj.is_instance_of::<pyo3::types::PyBytes>() {
            return Err(refuse());
        }
        match obj.extract::<PathBuf>() {
            Ok(path) if !path.as_os_str().is_empty() => Ok(TablesArg::File(path)),
            _ => Err(refuse()),
        }
    }
}

/// Which tables the analysis uses, decided before its thread starts.
#[derive(Clone, Copy)]
enum Choice {
    Given,
    OnDemand,
    None,
}

/// The game to analyse: a `senet.Game`, or a record in the text or the JSON form (told
/// apart as `senet analyse` does: JSON opens with `{`).
fn game_arg(py: Python<'_>, value: &Bound<'_, PyAny>) -> PyResult<AnyGame> {
    if let Ok(game) = value.cast::<Game>() {
        return Ok(game.borrow().inner.clone());
    }
    let Ok(text) = value.extract::<String>() else {
        return Err(RecordError::new_err(format!(
            "game_or_record: expected a senet.Game or a record (its text or JSON form), not {}",
            describe(value)
        )));
    };
    let parsed = py.detach(|| {
        if text.trim_start().starts_with('{') {
            serde_json::from_str::<AnyGame>(&text)
                .map_err(|e| senet::shorten_quoted(&e.to_string()))
        } else {
            AnyGame::from_record_text(&text).map_err(|e| e.to_string())
        }
    });
    parsed.map_err(|e| RecordError::new_err(one_line("game_or_record", &e)))
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
    signature = (game_or_record, player = None, tables = Arg::Default, seed = Arg::Default),
    text_signature = "(game_or_record, player=None, tables=\"auto\", seed=0)"
)]
fn analyse<'py>(
    py: Python<'py>,
    game_or_record: &Bound<'py, PyAny>,
    player: Option<&Bound<'py, PyAny>>,
    tables: Arg<'py>,
    seed: Arg<'py>,
) -> PyResult<Bound<'py, PyAny>> {
    let game = game_arg(py, game_or_record)?;
    let evaluator = match player {
        Some(player) if !player.is_none() => {
            let text = str_arg(player, "player")
                .map_err(|e| PlayerError::new_err(e.value(py).to_string()))?;
            Some(parse_spec(&text, "player")?)
        }
        _ => None,
    };
    let tables = match tables {
        Arg::Default => TablesArg::Auto,
        Arg::Given(value) => value.extract::<TablesArg>()?,
    };
    let seed = seed.u64("seed", 0)?;
    let given = match &tables {
        TablesArg::Given(tables) => tables_arg(game.rules(), Some(tables.bind(py).as_any()))?,
        TablesArg::File(path) => {
            let path = path.to_string_lossy();
            Some(py.detach(|| read_tables(game.rules(), &path, "tables"))?)
        }
        TablesArg::Auto | TablesArg::Off => None,
    };
    let choice = match (&tables, &given) {
        (_, Some(_)) => Choice::Given,
        (TablesArg::Auto, None) => Choice::OnDemand,
        (_, None) => Choice::None,
    };
    // On a thread of its own, so that Ctrl-C returns at once (`KeyboardInterrupt`); an
    // interrupted analysis runs on to its end in the background, its result dropped.
    let (sender, receiver) = std::sync::mpsc::channel();
    std::thread::Builder::new()
        .name("senet-analyse".to_string())
        .spawn(move || {
            let options = AnalysisOptions {
                evaluator,
                tables: match (choice, &given) {
                    (Choice::Given, Some(given)) => TablesChoice::Given(given),
                    (Choice::OnDemand, _) => TablesChoice::OnDemand,
                    _ => TablesChoice::None,
                },
                seed,
            };
            let _ = sender.send(senet::analysis::analyse(&game, &options));
        })
        .map_err(|e| SenetError::new_err(format!("cannot start the analysis: {e}")))?;
    let mut receiver = receiver;
    let analysis = loop {
        let (back, got) = py.detach(move || {
            let got = receiver.recv_timeout(std::time::Duration::from_millis(50));
            (receiver, got)
        });
        receiver = back;
        match got {
            Ok(result) => break result.map_err(analyse_error)?,
            Err(std::sync::mpsc::RecvTimeoutError::Timeout) => py.check_signals()?,
            Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => {
                return Err(SenetError::new_err("the analysis failed"));
            }
        }
    };
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
