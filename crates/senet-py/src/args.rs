//! Arguments read by hand, so that every bad one raises a `SenetError` (a `ValueError`)
//! whose message starts with the argument's name, rather than pyo3's `TypeError` or
//! `OverflowError`.

use pyo3::prelude::*;
use pyo3::types::{PyBool, PyInt, PyString};

use crate::errors::SenetError;

/// A short, one-line description of `value` for a message: its type and its repr, cut.
pub(crate) fn describe(value: &Bound<'_, PyAny>) -> String {
    let type_name = value
        .get_type()
        .name()
        .map(|n| n.to_string())
        .unwrap_or_else(|_| "object".to_string());
    let repr = value
        .repr()
        .map(|r| r.to_string())
        .unwrap_or_else(|_| "?".to_string());
    let repr: String = repr.chars().filter(|c| !c.is_control()).collect();
    let repr = if repr.chars().count() > 60 {
        format!("{}…", repr.chars().take(60).collect::<String>())
    } else {
        repr
    };
    format!("{type_name} {repr}")
}

/// An integer argument `name` from `lo` to `hi`: a Python or NumPy integer (anything with
/// `__index__`), not a bool, a float or a string.
pub(crate) fn int_arg<T: TryFrom<i128>>(
    value: &Bound<'_, PyAny>,
    name: &str,
    lo: i128,
    hi: i128,
) -> PyResult<T> {
    let refuse = || {
        SenetError::new_err(format!(
            "{name}: expected an integer from {lo} to {hi}, not {}",
            describe(value)
        ))
    };
    if value.is_instance_of::<PyBool>() || value.is_instance_of::<PyString>() {
        return Err(refuse());
    }
    let index = if value.is_instance_of::<PyInt>() {
        value.clone()
    } else {
        match value
            .py()
            .import("operator")?
            .call_method1("index", (value,))
        {
            Ok(index) => index,
            Err(_) => return Err(refuse()),
        }
    };
    if value.get_type().name().is_ok_and(|n| n == "bool_") {
        return Err(refuse());
    }
    let number: i128 = index.extract().map_err(|_| refuse())?;
    if number < lo || number > hi {
        return Err(refuse());
    }
    T::try_from(number).map_err(|_| refuse())
}

/// An optional integer argument: None stays None.
pub(crate) fn opt_int_arg<T: TryFrom<i128>>(
    value: Option<&Bound<'_, PyAny>>,
    name: &str,
    lo: i128,
    hi: i128,
) -> PyResult<Option<T>> {
    match value {
        Some(value) if !value.is_none() => int_arg(value, name, lo, hi).map(Some),
        _ => Ok(None),
    }
}

/// A 64-bit seed or counter: 0 to 2**64 - 1.
pub(crate) fn u64_arg(value: &Bound<'_, PyAny>, name: &str) -> PyResult<u64> {
    int_arg(value, name, 0, i128::from(u64::MAX))
}

/// A string argument `name`.
pub(crate) fn str_arg(value: &Bound<'_, PyAny>, name: &str) -> PyResult<String> {
    match value.cast::<PyString>() {
        Ok(text) => Ok(text.to_cow()?.into_owned()),
        Err(_) => Err(SenetError::new_err(format!(
            "{name}: expected a string, not {}",
            describe(value)
        ))),
    }
}

/// An argument with a default: `Default` when it is left out, else the value given (None
/// included, which an argument that is not optional refuses).
pub(crate) enum Arg<'py> {
    /// Left out.
    Default,
    /// Given.
    Given(Bound<'py, PyAny>),
}

impl<'a, 'py> FromPyObject<'a, 'py> for Arg<'py> {
    type Error = PyErr;

    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<Self> {
        Ok(Arg::Given(obj.to_owned()))
    }
}

impl Arg<'_> {
    /// An integer from `lo` to `hi`, `default` when left out.
    pub(crate) fn int<T: TryFrom<i128>>(
        &self,
        name: &str,
        lo: i128,
        hi: i128,
        default: T,
    ) -> PyResult<T> {
        match self {
            Arg::Default => Ok(default),
            Arg::Given(value) => int_arg(value, name, lo, hi),
        }
    }

    /// A 64-bit seed or counter, `default` when left out.
    pub(crate) fn u64(&self, name: &str, default: u64) -> PyResult<u64> {
        self.int(name, 0, i128::from(u64::MAX), default)
    }

    /// A string, `default` when left out.
    pub(crate) fn string(&self, name: &str, default: &str) -> PyResult<String> {
        match self {
            Arg::Default => Ok(default.to_string()),
            Arg::Given(value) => str_arg(value, name),
        }
    }
}
