//! The caps on what one command may be asked to do, checked when the arguments are read so
//! that no input makes the command abort, run out of memory or run for ever. Each error
//! names its cap; `docs/reliability.md` says how each was chosen.

use crate::error::CliError;

pub(crate) use senet::simulation::{MAX_GAMES, MAX_THREADS};

/// The largest game record read, in bytes (16 MiB: hundreds of thousands of actions, where
/// the longest games have a few thousand).
pub(crate) const MAX_RECORD_BYTES: u64 = 16 << 20;

/// The largest endgame tables file read, in bytes (1 GiB: the largest tables `senet solve`
/// writes, Kendall's with 3 pieces a side and 4 bytes a value, have 197 MB). A file whose
/// header promises more is refused before it is read.
pub(crate) const MAX_TABLE_BYTES: u64 = 1 << 30;

/// The most throws `--throw` gives.
pub(crate) const MAX_THROWS: usize = 32;

/// Checks a number of games given as `argument`: at least `least` (1, or 0 where none is
/// allowed), at most [`MAX_GAMES`].
pub(crate) fn check_games(argument: &str, games: u64, least: u64) -> Result<(), CliError> {
    if games < least {
        return Err(CliError::input(format!(
            "{argument} must be at least {least}"
        )));
    }
    if games > MAX_GAMES {
        return Err(CliError::input(format!(
            "{argument} {games}: at most {MAX_GAMES} games"
        )));
    }
    Ok(())
}

/// Checks that `argument`'s `value` lies in `range`, e.g. `--games 0: from 1 to 100000000`.
pub(crate) fn check_range<T>(
    argument: &str,
    value: T,
    range: std::ops::RangeInclusive<T>,
) -> Result<(), CliError>
where
    T: PartialOrd + std::fmt::Display,
{
    if range.contains(&value) {
        return Ok(());
    }
    Err(CliError::input(format!(
        "{argument} {value}: from {} to {}",
        range.start(),
        range.end()
    )))
}

/// Checks `--threads` (0: one per core).
pub(crate) fn check_threads(threads: usize) -> Result<(), CliError> {
    if threads > MAX_THREADS {
        return Err(CliError::input(format!(
            "--threads {threads}: at most {MAX_THREADS}"
        )));
    }
    Ok(())
}

/// Checks `--threads` and makes a pool of that many worker threads (0: one per core).
pub(crate) fn thread_pool(threads: usize) -> Result<rayon::ThreadPool, CliError> {
    check_threads(threads)?;
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| CliError::input(format!("--threads {threads}: {e}")))
}

/// The most actions a game record of `senet serve` holds (shared with the engine in the page).
pub(crate) use senet_view::web::MAX_WEB_ACTIONS;

/// The longest action line of a record as a JSON string, in bytes: `move `, [`senet::MAX_STEPS`]
/// steps of at most 8 characters (`hand-off`) with commas between them, `/` and a throw of up
/// to 3 digits, and the newline, escaped as `\n`.
pub(crate) const MAX_ACTION_LINE_BYTES: usize =
    "move ".len() + senet::MAX_STEPS * 9 - 1 + "/255".len() + "\\n".len();

/// Room in a request for everything but the actions: the JSON around the record, its header
/// (`rules`, `revision`, `seed`, `start`) and the other fields.
pub(crate) const REQUEST_OVERHEAD_BYTES: usize = 8 << 10;

/// The largest request `senet serve` reads, in bytes: any record of [`MAX_WEB_ACTIONS`]
/// actions the server writes fits (1,108,192 bytes). A request that declares a longer body is
/// refused before it is read.
pub(crate) const MAX_REQUEST_BYTES: usize =
    REQUEST_OVERHEAD_BYTES + MAX_WEB_ACTIONS * MAX_ACTION_LINE_BYTES;

/// The most computer decisions `senet serve` works on at once in each lane, cheap and
/// expensive (one a core of a small machine).
pub(crate) const MAX_COMPUTING: usize = 2;

/// The most computer requests `senet serve` holds in each lane, running or waiting; more are
/// refused (503) so that a burst of requests cannot pile up work.
pub(crate) const MAX_COMPUTER_QUEUE: usize = 64;

/// The most connections `senet serve` holds open; later ones wait in the system's queue until
/// one closes.
pub(crate) const MAX_CONNECTIONS: usize = 256;

/// The longest `senet serve` waits for a request's headers, in seconds, from the moment the
/// connection is ready for one: a connection idle this long after its last answer is closed
/// too.
pub(crate) const WEB_HEADER_SECONDS: u64 = 10;

/// The longest `senet serve` waits for a request's whole body, in seconds, once its headers
/// have arrived (408 beyond it).
pub(crate) const WEB_BODY_SECONDS: u64 = 30;

/// The longest `senet serve` waits for one computer decision, in seconds.
pub(crate) const WEB_COMPUTE_SECONDS: u64 = 30;

// The caps on the players of `senet serve` (`MAX_WEB_DEPTH`, `MAX_WEB_NODES`, …) are the
// page's, the same for the engine in the page: `senet_view::web`.
