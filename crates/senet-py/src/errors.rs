//! The exceptions: `SenetError(ValueError)` and one subclass per kind of refusal.
//!
//! They are named in the module `senet` (`senet.RulesetError`…), which re-exports them, so
//! that instances pickle (across processes, e.g. out of a `multiprocessing` pool).

use pyo3::create_exception;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

create_exception!(
    senet,
    SenetError,
    PyValueError,
    "Bad input refused by the senet engine; the message is the engine's."
);
create_exception!(
    senet,
    RulesetError,
    SenetError,
    "An unknown ruleset, option or option value."
);
create_exception!(
    senet,
    PositionError,
    SenetError,
    "A position that does not parse or is not a position of the ruleset."
);
create_exception!(
    senet,
    MoveError,
    SenetError,
    "A throw or move that is not legal now, or an action in a finished game."
);
create_exception!(
    senet,
    RecordError,
    SenetError,
    "A game record that does not parse or does not replay."
);
create_exception!(
    senet,
    PlayerError,
    SenetError,
    "An unknown player, a budget out of range, or a player asked about another game."
);
create_exception!(
    senet,
    TablesError,
    SenetError,
    "Endgame tables that cannot be solved or read for this ruleset."
);

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("SenetError", py.get_type::<SenetError>())?;
    m.add("RulesetError", py.get_type::<RulesetError>())?;
    m.add("PositionError", py.get_type::<PositionError>())?;
    m.add("MoveError", py.get_type::<MoveError>())?;
    m.add("RecordError", py.get_type::<RecordError>())?;
    m.add("PlayerError", py.get_type::<PlayerError>())?;
    m.add("TablesError", py.get_type::<TablesError>())?;
    Ok(())
}
