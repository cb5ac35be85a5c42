//! `Rng`, `Ruleset`, `Game` and `rulesets()`.

use numpy::{PyArray1, PyArrayMethods};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};
use senet::registry::{AnyRuleset, RULESETS, RulesetInfo};
use senet::rng::{ChaCha8Rng, Rng as _};
use senet::{Action, AnyGame, MOVE_LIST_CAPACITY, Move, Outcome, Phase, Side};

use crate::args::{Arg, describe, opt_int_arg, str_arg, u64_arg};
use crate::errors::{MoveError, PositionError, RecordError, RulesetError, SenetError};
use crate::obs::{Layout, write_mask};
use pyo3::types::PyBool;
use senet::Throw;
use senet::action_codes::{ActionCodes, CodeList, Next};

/// A seeded ChaCha8 generator: stream `stream` of `seed`, the generator of game `stream` of
/// a simulation seeded with `seed`.
#[pyclass(module = "senet._senet")]
#[derive(Clone)]
pub(crate) struct Rng {
    pub(crate) inner: ChaCha8Rng,
}

#[pymethods]
impl Rng {
    #[new]
    #[pyo3(signature = (seed, stream = Arg::Default), text_signature = "(seed, stream=0)")]
    fn new(seed: &Bound<'_, PyAny>, stream: Arg<'_>) -> PyResult<Rng> {
        Ok(Rng {
            inner: senet::rng::seeded(u64_arg(seed, "seed")?, stream.u64("stream", 0)?),
        })
    }

    /// The next 64 random bits.
    fn next_u64(&mut self) -> u64 {
        self.inner.next_u64()
    }

    /// A copy that continues the same sequence independently.
    fn copy(&self) -> Rng {
        self.clone()
    }

    fn __repr__(&self) -> String {
        format!(
            "Rng(stream={}, word_pos={})",
            self.inner.get_stream(),
            self.inner.get_word_pos()
        )
    }
}

/// `error` as a one-line message naming the argument `name`.
pub(crate) fn one_line(name: &str, error: &dyn std::fmt::Display) -> String {
    format!("{name}: {}", error.to_string().replace('\n', " "))
}

/// An `Rng` argument named `name`.
pub(crate) fn rng_arg<'py>(value: &Bound<'py, PyAny>, name: &str) -> PyResult<Bound<'py, Rng>> {
    value.cast::<Rng>().cloned().map_err(|_| {
        SenetError::new_err(format!(
            "{name}: expected a senet.Rng, not {}",
            describe(value)
        ))
    })
}

pub(crate) fn side_name(side: Side) -> &'static str {
    match side {
        Side::Black => "black",
        Side::White => "white",
    }
}

pub(crate) fn parse_rules(spec: &str, name: &str) -> PyResult<AnyRuleset> {
    AnyRuleset::parse(spec)
        .map_err(|e| RulesetError::new_err(format!("{name}: {}", e.to_string().replace('\n', " "))))
}

/// A ruleset argument: a specification string or a `Ruleset`.
pub(crate) fn rules_arg(value: &Bound<'_, PyAny>) -> PyResult<AnyRuleset> {
    if let Ok(rules) = value.cast::<Ruleset>() {
        return Ok(rules.borrow().inner.clone());
    }
    match value.cast::<pyo3::types::PyString>() {
        Ok(spec) => parse_rules(&spec.to_cow()?, "rules"),
        Err(_) => Err(RulesetError::new_err(format!(
            "rules: expected a specification such as \"kendall(trap=true)\" or a senet.Ruleset, not {}",
            describe(value)
        ))),
    }
}

/// An optional ruleset argument: the default ruleset (Regency) when it is left out.
pub(crate) fn rules_or_default(value: Option<&Bound<'_, PyAny>>) -> PyResult<AnyRuleset> {
    match value {
        Some(rules) => rules_arg(rules),
        None => parse_rules(senet::registry::DEFAULT_RULESET, "rules"),
    }
}

fn info_dict<'py>(py: Python<'py>, info: &RulesetInfo) -> PyResult<Bound<'py, PyDict>> {
    let dict = PyDict::new(py);
    dict.set_item("id", info.id)?;
    dict.set_item("name", info.name)?;
    dict.set_item("rules_revision", info.rules_revision)?;
    let options = PyList::empty(py);
    for option in info.options {
        let o = PyDict::new(py);
        o.set_item("name", option.name)?;
        o.set_item("values", option.values.to_vec())?;
        o.set_item("default", option.default_value())?;
        o.set_item("rules", option.rules)?;
        o.set_item("doc", option.doc)?;
        options.append(o)?;
    }
    dict.set_item("options", options)?;
    let fields = PyList::empty(py);
    for field in info.field_info {
        let f = PyDict::new(py);
        f.set_item("name", field.name)?;
        f.set_item("values", field.values)?;
        f.set_item("default", field.default)?;
        f.set_item("doc", field.doc)?;
        fields.append(f)?;
    }
    dict.set_item("fields", fields)?;
    Ok(dict)
}

/// Every ruleset of this build: id, name, rules revision, options and position fields.
#[pyfunction]
fn rulesets(py: Python<'_>) -> PyResult<Vec<Bound<'_, PyDict>>> {
    RULESETS.iter().map(|info| info_dict(py, info)).collect()
}

/// A ruleset with its options, such as `Ruleset("kendall(trap=true)")`.
#[pyclass(module = "senet._senet", frozen, eq)]
#[derive(Clone, PartialEq)]
pub(crate) struct Ruleset {
    pub(crate) inner: AnyRuleset,
}

#[pymethods]
impl Ruleset {
    #[new]
    fn new(spec: &Bound<'_, PyAny>) -> PyResult<Ruleset> {
        let spec = str_arg(spec, "spec")
            .map_err(|e| RulesetError::new_err(e.value(spec.py()).to_string()))?;
        Ok(Ruleset {
            inner: parse_rules(&spec, "spec")?,
        })
    }

    /// The ruleset's id.
    #[getter]
    fn id(&self) -> &'static str {
        self.inner.id()
    }

    /// The canonical specification (options at their defaults left out).
    #[getter]
    fn spec(&self) -> String {
        self.inner.to_string()
    }

    /// Pieces per side.
    #[getter]
    fn pieces_per_side(&self) -> u8 {
        self.inner.pieces_per_side()
    }

    /// The rules in plain prose (Markdown) with their rule ids: the text `senet rules <id>`
    /// prints and the web board shows.
    #[getter]
    fn rules_text(&self) -> &'static str {
        self.inner.rules_text()
    }

    /// The throwing device's exact distribution: `(value, weight)` pairs; the probability
    /// of a value is its weight over the sum of the weights.
    fn throw_outcomes(&self) -> Vec<(u8, u32)> {
        self.inner
            .throw_outcomes()
            .iter()
            .map(|o| (o.value.get(), o.weight))
            .collect()
    }

    /// The registry entry: id, name, rules revision, options, position fields.
    fn info<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        match self.inner.info() {
            Some(info) => info_dict(py, info),
            None => Err(SenetError::new_err("the ruleset is not registered")),
        }
    }

    /// Whether perfect endgame tables can be solved for this configuration.
    fn supports_endgame(&self) -> bool {
        self.inner.supports_endgame()
    }

    /// Values in an observation of this ruleset (see `Game.observation`).
    #[getter]
    fn observation_size(&self) -> usize {
        Layout::new(&self.inner).size()
    }

    /// Where each position field starts in an observation: `(name, offset)` pairs. The
    /// value at `offset` is 1 when the field differs from its default; its value follows.
    fn observation_fields(&self) -> Vec<(&'static str, usize)> {
        Layout::new(&self.inner).field_offsets().collect()
    }

    /// The number of fixed action codes of this configuration (docs/action-codes.md): the
    /// size of the environments' `Discrete` action space with `action_encoding="fixed"`.
    #[getter]
    fn action_count(&self) -> u32 {
        ActionCodes::new(&self.inner).count()
    }

    /// The fixed action codes of a move (its notation): one code, or one per step of a
    /// split move.
    fn encode_move(&self, mv: &Bound<'_, PyAny>) -> PyResult<Vec<u32>> {
        let mv = str_arg(mv, "mv").map_err(|e| MoveError::new_err(e.value(mv.py()).to_string()))?;
        let mv = mv
            .parse::<Move>()
            .map_err(|e| MoveError::new_err(format!("mv: {e}")))?;
        ActionCodes::new(&self.inner)
            .encode(mv)
            .map(|list| list.to_vec())
            .map_err(|e| MoveError::new_err(format!("mv: {e}")))
    }

    /// The move (its notation) of a fixed action code, or of the codes of a split move.
    fn decode_action(&self, codes: &Bound<'_, PyAny>) -> PyResult<String> {
        let list: Vec<u32> = if let Ok(seq) = codes.cast::<PyList>() {
            if seq.len() > senet::MAX_STEPS {
                return Err(MoveError::new_err(format!(
                    "codes: at most {} codes make a move, not {}",
                    senet::MAX_STEPS,
                    seq.len()
                )));
            }
            seq.iter()
                .map(|c| code_arg(&c, "codes"))
                .collect::<PyResult<_>>()?
        } else {
            vec![code_arg(codes, "codes")?]
        };
        ActionCodes::new(&self.inner)
            .decode(&list)
            .map(|mv| mv.to_string())
            .map_err(|e| MoveError::new_err(format!("codes: {e}")))
    }

    fn __str__(&self) -> String {
        self.spec()
    }

    fn __repr__(&self) -> String {
        format!("Ruleset({:?})", self.spec())
    }

    fn __reduce__(&self, py: Python<'_>) -> PyResult<(Py<PyAny>, (String,))> {
        Ok((py.get_type::<Ruleset>().into_any().unbind(), (self.spec(),)))
    }
}

/// `("throw" | "move" | "over", side or None)`.
pub(crate) fn phase_pair(phase: Phase) -> (&'static str, Option<&'static str>) {
    match phase {
        Phase::Throw(side) => ("throw", Some(side_name(side))),
        Phase::Move(side) => ("move", Some(side_name(side))),
        Phase::Over(_) => ("over", None),
    }
}

fn outcome_dict<'py>(py: Python<'py>, outcome: &Outcome) -> PyResult<Bound<'py, PyDict>> {
    let dict = PyDict::new(py);
    dict.set_item("winner", outcome.winner.map(side_name))?;
    dict.set_item(
        "points",
        (
            outcome.points_of(Side::Black),
            outcome.points_of(Side::White),
        ),
    )?;
    Ok(dict)
}

/// A move argument: its notation (`"9-12"`) or its index in `legal_moves()`.
pub(crate) fn move_arg(game: &AnyGame, value: &Bound<'_, PyAny>) -> PyResult<Move> {
    if value.is_instance_of::<PyBool>() {
        return Err(MoveError::new_err(
            "mv: a move is its notation (\"9-12\") or an integer index, not a bool",
        ));
    }
    if value.is_instance_of::<pyo3::types::PyFloat>() {
        return Err(MoveError::new_err(format!(
            "mv: a move index must be an integer, not the float {value}"
        )));
    }
    if let Ok(index) = value.extract::<i64>() {
        let moves = game.legal_moves();
        return usize::try_from(index)
            .ok()
            .and_then(|i| moves.get(i).copied())
            .ok_or_else(|| {
                MoveError::new_err(format!(
                    "mv: move index {index} is not legal: there are {} legal moves now",
                    moves.len()
                ))
            });
    }
    if value.is_instance_of::<pyo3::types::PyInt>() {
        return Err(MoveError::new_err(format!(
            "mv: move index {} is not legal: there are {} legal moves now",
            describe(value),
            game.legal_moves().len()
        )));
    }
    let Ok(text) = value.cast::<pyo3::types::PyString>() else {
        return Err(MoveError::new_err(format!(
            "mv: a move is its notation (\"9-12\") or an integer index, not {}",
            describe(value)
        )));
    };
    text.to_cow()?
        .parse::<Move>()
        .map_err(|e| MoveError::new_err(format!("mv: {e}")))
}

/// A game of any ruleset: `Game("kendall(trap=true)")`, or from a position.
///
/// Throws are an input like moves: give their value, or an `Rng` to throw the ruleset's
/// device. A refused throw or move raises `MoveError` and leaves the game unchanged.
#[pyclass(module = "senet._senet")]
#[derive(Clone)]
pub(crate) struct Game {
    pub(crate) inner: AnyGame,
    layout: Layout,
    codes: ActionCodes,
    /// The codes of a split move chosen so far with `play_code` (cleared by every other
    /// action).
    partial: CodeList,
}

impl Game {
    pub(crate) fn wrap(inner: AnyGame) -> Game {
        let layout = Layout::new(inner.rules());
        let codes = ActionCodes::new(inner.rules());
        Game {
            inner,
            layout,
            codes,
            partial: CodeList::new(),
        }
    }
}

/// What `Game.afterstates` returns: the moves, one observation row each, their results.
type Afterstates<'py> = (Vec<String>, Bound<'py, PyAny>, Bound<'py, PyArray1<f32>>);

/// An action code argument named `name`: a non-negative integer (a bool or a float is
/// refused).
pub(crate) fn code_arg(value: &Bound<'_, PyAny>, name: &str) -> PyResult<u32> {
    if value.is_instance_of::<PyBool>() {
        return Err(MoveError::new_err(format!(
            "{name}: an action code is an integer, not a bool"
        )));
    }
    let code: i64 = value.extract().map_err(|_| {
        MoveError::new_err(format!(
            "{name}: an action code is an integer, not {}",
            value.repr().map(|r| r.to_string()).unwrap_or_default()
        ))
    })?;
    u32::try_from(code)
        .map_err(|_| MoveError::new_err(format!("{name}: action code {code} is out of range")))
}

#[pymethods]
impl Game {
    #[new]
    #[pyo3(signature = (rules = None, position = None))]
    fn new(
        rules: Option<&Bound<'_, PyAny>>,
        position: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Game> {
        let rules = rules_or_default(rules)?;
        let position = match position {
            Some(p) if !p.is_none() => Some(
                str_arg(p, "position")
                    .map_err(|e| PositionError::new_err(e.value(p.py()).to_string()))?,
            ),
            _ => None,
        };
        let game = match position {
            Some(position) => AnyGame::from_position(rules, &position)
                .map_err(|e| PositionError::new_err(one_line("position", &e)))?,
            None => AnyGame::new(rules),
        };
        Ok(Game::wrap(game))
    }

    /// Loads a record in the text form (`rules …`, `throw N`, `move M` lines).
    #[staticmethod]
    fn from_record(text: &Bound<'_, PyAny>) -> PyResult<Game> {
        let text = str_arg(text, "text")
            .map_err(|e| RecordError::new_err(e.value(text.py()).to_string()))?;
        Game::from_record_text(&text)
    }

    /// Loads a record in JSON (as `record_json` writes it).
    #[staticmethod]
    fn from_json(text: &Bound<'_, PyAny>) -> PyResult<Game> {
        let text = str_arg(text, "text")
            .map_err(|e| RecordError::new_err(e.value(text.py()).to_string()))?;
        serde_json::from_str::<AnyGame>(&text)
            .map(Game::wrap)
            .map_err(|e| {
                RecordError::new_err(one_line("text", &senet::shorten_quoted(&e.to_string())))
            })
    }

    /// The ruleset.
    #[getter]
    fn rules(&self) -> Ruleset {
        Ruleset {
            inner: self.inner.rules().clone(),
        }
    }

    /// `"throw"`, `"move"` or `"over"`.
    #[getter]
    fn phase(&self) -> &'static str {
        phase_pair(self.inner.phase()).0
    }

    /// The side to act, `"black"` or `"white"`; `None` once the game is over.
    #[getter]
    fn side(&self) -> Option<&'static str> {
        phase_pair(self.inner.phase()).1
    }

    /// `{"winner": "black" | "white" | None, "points": (black, white)}` once over, else None.
    #[getter]
    fn outcome<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyDict>>> {
        self.inner
            .outcome()
            .map(|o| outcome_dict(py, &o))
            .transpose()
    }

    /// The legal moves in generation order (empty unless a move is due); an action of the
    /// environments is an index into this list.
    fn legal_moves(&self) -> Vec<String> {
        self.inner
            .legal_moves()
            .iter()
            .map(ToString::to_string)
            .collect()
    }

    /// Throws: `value` if given, else the ruleset's device with `rng`. Returns the value.
    #[pyo3(signature = (value = None, rng = None))]
    fn throw(
        &mut self,
        value: Option<&Bound<'_, PyAny>>,
        rng: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<u8> {
        let value = opt_int_arg::<u8>(value, "value", 0, 255)?;
        let rng = rng
            .filter(|r| !r.is_none())
            .map(|r| rng_arg(r, "rng"))
            .transpose()?;
        let result = match (value, rng) {
            (Some(value), None) => {
                let throw = Throw::new(value)
                    .ok_or_else(|| MoveError::new_err(format!("value: {}", senet::ZeroThrow)))?;
                self.inner
                    .throw(throw)
                    .map(|()| throw)
                    .map_err(|e| MoveError::new_err(one_line("value", &e)))
            }
            (None, Some(rng)) => self
                .inner
                .throw_random(&mut rng.borrow_mut().inner)
                .map_err(|e| MoveError::new_err(one_line("rng", &e))),
            (Some(_), Some(_)) => {
                return Err(MoveError::new_err(
                    "value: give either a value or an rng, not both",
                ));
            }
            (None, None) => {
                return Err(MoveError::new_err("value: give either a value or an rng"));
            }
        };
        self.partial = CodeList::new();
        result.map(Throw::get)
    }

    /// Plays a move given by its notation (`"9-12"`, `"pass"`) or its index in
    /// `legal_moves()`.
    #[pyo3(name = "play")]
    fn play_move(&mut self, mv: &Bound<'_, PyAny>) -> PyResult<()> {
        let mv = move_arg(&self.inner, mv)?;
        self.inner
            .play(mv)
            .map_err(|e| MoveError::new_err(one_line("mv", &e)))?;
        self.partial = CodeList::new();
        Ok(())
    }

    /// Takes back the last action; returns it (`"throw 3"`, `"move 9-12"`), or None at the
    /// start.
    fn undo(&mut self) -> Option<String> {
        self.partial = CodeList::new();
        self.inner.undo().map(|a| a.to_string())
    }

    /// Plays on with device throws and uniformly random legal moves drawn from `rng` until
    /// the game ends or a side would start turn `max_turns + 1`; True when it ended.
    #[pyo3(signature = (rng, max_turns = Arg::Default), text_signature = "(rng, max_turns=10000)")]
    fn play_random(
        &mut self,
        py: Python<'_>,
        rng: &Bound<'_, PyAny>,
        max_turns: Arg<'_>,
    ) -> PyResult<bool> {
        let max_turns = max_turns.int(
            "max_turns",
            0,
            i128::from(u32::MAX),
            senet::DEFAULT_TURN_CAP,
        )?;
        let rng = rng_arg(rng, "rng")?;
        self.partial = CodeList::new();
        let mut rng = rng.borrow_mut();
        let game = &mut self.inner;
        let rng = &mut rng.inner;
        let end = py.detach(|| game.play_random(rng, max_turns));
        Ok(matches!(end, senet::PlayoutEnd::Finished(_)))
    }

    /// The current position in the position notation.
    #[getter]
    fn position(&self) -> String {
        self.inner.position()
    }

    /// The position the game started from.
    #[getter]
    fn start_position(&self) -> String {
        self.inner.start_position()
    }

    /// Every action so far: `"throw 3"`, `"move 9-12"`.
    #[getter]
    fn history(&self) -> Vec<String> {
        self.inner.history().iter().map(Action::to_string).collect()
    }

    /// Turns started so far.
    #[getter]
    fn turns(&self) -> u32 {
        self.inner.turns()
    }

    /// Moves and passes made so far.
    #[getter]
    fn decisions(&self) -> u32 {
        self.inner.decisions()
    }

    /// The seed noted in the record, if any.
    #[getter]
    fn get_seed(&self) -> Option<u64> {
        self.inner.seed()
    }

    #[setter]
    fn set_seed(&mut self, seed: Option<&Bound<'_, PyAny>>) -> PyResult<()> {
        let seed = match seed {
            None => {
                return Err(SenetError::new_err(
                    "seed: cannot be deleted; set it to None",
                ));
            }
            Some(seed) => opt_int_arg::<u64>(Some(seed), "seed", 0, i128::from(u64::MAX))?,
        };
        self.inner.set_seed(seed);
        Ok(())
    }

    /// The record in the text form (see docs/notation.md).
    fn record(&self) -> String {
        self.inner.record_text()
    }

    /// The record as JSON.
    fn record_json(&self) -> PyResult<String> {
        serde_json::to_string(&self.inner).map_err(|e| SenetError::new_err(e.to_string()))
    }

    /// The device's exact distribution: `(value, weight)` pairs.
    fn throw_outcomes(&self) -> Vec<(u8, u32)> {
        self.rules().throw_outcomes()
    }

    /// The observation of the environments (`float32`, `rules.observation_size` values):
    /// Black's and White's piece planes over squares 1..=30, pieces off, in hand and
    /// captured per side, the side to act, then the ruleset's position fields.
    fn observation<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<f32>> {
        let mut out = vec![0.0; self.layout.size()];
        self.layout.write(&*self.inner, &mut out);
        PyArray1::from_vec(py, out)
    }

    /// Every legal move with the position it leaves, for learning values of afterstates (as
    /// TD-Gammon did): `(moves, observations, results)`, where row `i` of `observations`
    /// (`float32`, shape `(len(moves), rules.observation_size)`) is `observation()` after
    /// `moves[i]`, and `results[i]` (`float32`) is 1.0 if that move wins the game for Black,
    /// 0.0 if White has won, 0.5 if it ends without a winner and NaN if the game goes on.
    /// Whole moves only (a split move's codes chosen so far are ignored); the game is left as
    /// it was. Empty unless a move is due.
    fn afterstates<'py>(&mut self, py: Python<'py>) -> PyResult<Afterstates<'py>> {
        let legal = self.inner.legal_moves();
        let size = self.layout.size();
        let mut observations = vec![0.0; legal.len() * size];
        let mut results = Vec::with_capacity(legal.len());
        let layout = &self.layout;
        for (mv, out) in legal.iter().zip(observations.chunks_exact_mut(size)) {
            self.inner
                .peek_after(*mv, &mut |after| {
                    layout.write(after, out);
                    results.push(match after.outcome() {
                        None => f32::NAN,
                        Some(Outcome {
                            winner: Some(Side::Black),
                            ..
                        }) => 1.0,
                        Some(Outcome {
                            winner: Some(Side::White),
                            ..
                        }) => 0.0,
                        Some(_) => 0.5,
                    });
                })
                .map_err(|e| MoveError::new_err(e.to_string()))?;
        }
        let observations = PyArray1::from_vec(py, observations)
            .reshape([legal.len(), size])?
            .into_any();
        Ok((
            legal.iter().map(ToString::to_string).collect(),
            observations,
            PyArray1::from_vec(py, results),
        ))
    }

    /// The action mask (`int8`, `MOVE_LIST_CAPACITY` values): 1 at each index of
    /// `legal_moves()`.
    fn action_mask<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<i8>> {
        let array = PyArray1::zeros(py, MOVE_LIST_CAPACITY, false);
        if let Ok(mut view) = array.try_readwrite()
            && let Ok(slice) = view.as_slice_mut()
        {
            write_mask(self.inner.legal_moves().len(), slice);
        }
        array
    }

    /// The fixed action codes (docs/action-codes.md) that may be played now with
    /// `play_code`: the first codes of the legal moves, or, in the middle of a split move,
    /// the codes that may follow `partial_codes()`. Empty unless a move is due.
    fn legal_action_codes(&self) -> PyResult<Vec<u32>> {
        let mut mask = vec![false; self.codes.count() as usize];
        self.fill_code_mask(&mut mask)?;
        Ok((0..self.codes.count())
            .filter(|&c| mask[c as usize])
            .collect())
    }

    /// The fixed-code action mask (`int8`, `rules.action_count` values): 1 at each code
    /// of `legal_action_codes()`.
    fn action_masks<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray1<i8>>> {
        let mut mask = vec![0i8; self.codes.count() as usize];
        self.fill_code_mask(&mut mask)?;
        Ok(PyArray1::from_vec(py, mask))
    }

    /// The codes of a split move chosen so far with `play_code` (empty otherwise).
    fn partial_codes(&self) -> Vec<u32> {
        self.partial.to_vec()
    }

    /// Plays a fixed action code. A code that completes a legal move plays it and returns
    /// its notation; the step of a split move that goes on returns None and waits for the
    /// next code. An illegal code raises `MoveError` and changes nothing.
    fn play_code(&mut self, code: &Bound<'_, PyAny>) -> PyResult<Option<String>> {
        let code = code_arg(code, "code")?;
        if code >= self.codes.count() {
            return Err(MoveError::new_err(format!(
                "code: action code {code} is out of range: this configuration has codes 0..{}",
                self.codes.count()
            )));
        }
        if !matches!(self.inner.phase(), Phase::Move(_)) {
            return Err(MoveError::new_err(format!(
                "code: no move is due ({})",
                self.inner.phase()
            )));
        }
        let legal = self.inner.legal_moves();
        let mut codes = self.partial;
        codes.push(code);
        match self.codes.advance(&legal, &codes) {
            Ok(Next::Move(mv)) => {
                self.inner
                    .play(mv)
                    .map_err(|e| MoveError::new_err(e.to_string()))?;
                self.partial = CodeList::new();
                Ok(Some(mv.to_string()))
            }
            Ok(Next::More) => {
                self.partial = codes;
                Ok(None)
            }
            Err(e) => Err(MoveError::new_err(format!("code: {e}"))),
        }
    }

    /// A copy that continues independently.
    fn copy(&self) -> Game {
        self.clone()
    }

    fn __copy__(&self) -> Game {
        self.clone()
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> Game {
        self.clone()
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other
            .cast::<Game>()
            .is_ok_and(|other| other.borrow().inner == self.inner)
    }

    #[allow(clippy::type_complexity)]
    fn __reduce__(&self, py: Python<'_>) -> PyResult<(Py<PyAny>, (String, Vec<u32>))> {
        let load = py.get_type::<Game>().getattr("_restore")?.unbind();
        Ok((load, (self.record(), self.partial.to_vec())))
    }

    /// A game from its record and the codes of a split move chosen so far (pickling).
    #[staticmethod]
    fn _restore(py: Python<'_>, record: &str, partial: Vec<u32>) -> PyResult<Game> {
        let mut game = Game::from_record_text(record)?;
        for code in partial {
            game.play_code(&code.into_pyobject(py)?.into_any())?;
        }
        Ok(game)
    }

    fn __repr__(&self) -> String {
        format!(
            "Game({:?}, position={:?})",
            self.inner.rules().to_string(),
            self.inner.position()
        )
    }
}

impl Game {
    /// A game from a record in the text form.
    pub(crate) fn from_record_text(text: &str) -> PyResult<Game> {
        AnyGame::from_record_text(text)
            .map(Game::wrap)
            .map_err(|e| RecordError::new_err(one_line("text", &e)))
    }

    fn fill_code_mask<T: Copy + From<bool> + PartialEq>(&self, mask: &mut [T]) -> PyResult<()> {
        if !matches!(self.inner.phase(), Phase::Move(_)) {
            mask.fill(T::from(false));
            return Ok(());
        }
        let legal = self.inner.legal_moves();
        self.codes
            .legal_next(&legal, &self.partial, mask)
            .map(|_| ())
            .map_err(|e| SenetError::new_err(e.to_string()))
    }
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Rng>()?;
    m.add_class::<Ruleset>()?;
    m.add_class::<Game>()?;
    m.add_function(wrap_pyfunction!(rulesets, m)?)?;
    Ok(())
}
