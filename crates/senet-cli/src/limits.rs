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

/// The largest request `senet serve` reads, in bytes (64 KiB: a record of several thousand
/// actions, longer than any game played on the page).
pub(crate) const MAX_REQUEST_BYTES: usize = 64 << 10;

/// The most computer decisions `senet serve` works on at once (one a core of a small machine).
pub(crate) const MAX_COMPUTING: usize = 2;

/// The most computer requests `senet serve` holds, running or waiting; more are refused (503)
/// so that a burst of requests cannot pile up work.
pub(crate) const MAX_COMPUTER_QUEUE: usize = 64;

/// The longest `senet serve` waits for one computer decision, in seconds.
pub(crate) const WEB_COMPUTE_SECONDS: u64 = 30;

/// The deepest expectiminimax search `senet serve` runs (depth 3 takes well under a second a
/// decision; see `docs/players.md`).
pub(crate) const MAX_WEB_DEPTH: u64 = 3;

/// The largest node budget of an expectiminimax search `senet serve` runs.
pub(crate) const MAX_WEB_NODES: u64 = 2_000_000;

/// The most MCTS playouts a decision `senet serve` runs.
pub(crate) const MAX_WEB_PLAYOUTS: u64 = 5_000;

/// The most pieces a side of the endgame tables `senet serve` solves for a perfect player.
pub(crate) const MAX_WEB_PERFECT_PIECES: u64 = 2;
