//! Quoting user input in error messages: every message of the workspace that shows what it
//! was given goes through [`quote`] or [`shorten`], so a huge argument stays one short line.

use crate::prelude::*;

/// The most characters of user input an error message quotes (escapes included).
pub const QUOTE_LIMIT: usize = 32;

/// `text` quoted for an error message, cut to its first [`QUOTE_LIMIT`] characters (with
/// its length said) when it is longer: a message about a 100 KB argument stays one short
/// line. Every message of this workspace that quotes input goes through it.
///
/// ```
/// use senet_core::quote;
/// assert_eq!(quote("robot"), "\"robot\"");
/// let long = "x".repeat(100_000);
/// assert_eq!(quote(&long), format!("\"{}\"… (100000 characters)", "x".repeat(32)));
/// ```
pub fn quote(text: &str) -> String {
    let (prefix, whole) = escaped_prefix(text);
    if whole {
        format!("\"{prefix}\"")
    } else {
        format!("\"{prefix}\"… ({} characters)", text.chars().count())
    }
}

/// The escaped form of `text` up to [`QUOTE_LIMIT`] characters, and whether it is all there.
fn escaped_prefix(text: &str) -> (String, bool) {
    let mut prefix = String::new();
    for c in text.chars() {
        let escaped = c.escape_debug();
        if prefix.len() + escaped.len() > QUOTE_LIMIT {
            return (prefix, false);
        }
        prefix.extend(escaped);
    }
    (prefix, true)
}

/// `text` cut like [`quote`] but without the quotes and the length: for text a message shows
/// bare or between backticks.
///
/// ```
/// use senet_core::shorten;
/// assert_eq!(shorten("robot"), "robot");
/// assert_eq!(shorten(&"x".repeat(100)), format!("{}…", "x".repeat(32)));
/// ```
pub fn shorten(text: &str) -> String {
    match escaped_prefix(text) {
        (prefix, true) => prefix,
        (prefix, false) => format!("{prefix}…"),
    }
}

/// `message` with every part between backticks cut by [`shorten`]: for messages of other
/// libraries (a JSON parser's, say) that quote the input they were given in full.
///
/// ```
/// use senet_core::shorten_quoted;
/// let long = "y".repeat(100);
/// let message = format!("unknown field `{long}`, expected `name`");
/// assert_eq!(
///     shorten_quoted(&message),
///     format!("unknown field `{}…`, expected `name`", "y".repeat(32)),
/// );
/// ```
pub fn shorten_quoted(message: &str) -> String {
    let mut out = String::with_capacity(message.len().min(256));
    for (i, part) in message.split('`').enumerate() {
        if i > 0 {
            out.push('`');
        }
        if i % 2 == 1 {
            out.push_str(&shorten(part));
        } else {
            out.push_str(part);
        }
    }
    out
}
