//! `senet solve`: exact endgame tables, written to a file for the perfect player.

use std::io::Write;
use std::path::PathBuf;
use std::time::Instant;

use clap::Args;
use senet::Ruleset;
use senet::registry::{DEFAULT_RULESET, RulesetVisitor};
use senet_ai::endgame::{EndgameError, SolveOptions, SolveStats, ValueEncoding, solve_file_for};

use crate::error::{CliError, parse_rules};
use crate::files;

/// Solve the endgames of a ruleset exactly and write the table file.
///
/// Computes, for every position with at most --pieces pieces a side on the board, the
/// probability that the side to throw wins under perfect play, and writes the table file
/// that `senet play` and `senet simulate` read with --tables for the perfect player. The
/// file records the ruleset, its options and its rules revision; it is refused for any other.
/// Supported: regency (any options) and kendall(throw_timing=immediate) (any other options).
/// Up to 2 pieces a side takes seconds; 3 takes minutes for Regency and far longer for
/// Kendall (docs/players.md).
#[derive(Args, Debug)]
pub(crate) struct SolveArgs {
    /// The ruleset: `id` or `id(option=value,…)`.
    #[arg(long, default_value = DEFAULT_RULESET)]
    rules: String,
    /// The most pieces a side has on the board.
    #[arg(long, default_value_t = 2)]
    pieces: u8,
    /// The file to write.
    #[arg(long)]
    out: PathBuf,
    /// Stop when no value changes by more than this in a sweep.
    #[arg(long, default_value_t = 1e-9)]
    tolerance: f64,
    /// Store 4 bytes per value (the solver's precision) instead of 2.
    #[arg(long)]
    wide: bool,
    /// Threads preparing the solve (0: one per core); the values do not depend on it.
    #[arg(long, default_value_t = 0)]
    threads: usize,
}

fn cannot_write(args: &SolveArgs, e: &std::io::Error) -> CliError {
    CliError::input(format!("--out: cannot write {}: {e}", args.out.display()))
}

/// More threads than this is surely a typing mistake.
const MAX_THREADS: usize = 1024;

struct Solve<'a> {
    args: &'a SolveArgs,
    options: SolveOptions,
    encoding: ValueEncoding,
}

impl RulesetVisitor for Solve<'_> {
    type Output = Result<(Vec<u8>, SolveStats), CliError>;

    fn visit<R: Ruleset>(self, rules: &R) -> Self::Output {
        solve_file_for(rules, self.args.pieces, &self.options, self.encoding).map_err(|e| {
            let argument = match e {
                EndgameError::Pieces { .. } => "--pieces",
                EndgameError::Unsupported(_) | EndgameError::UnsupportedOptions { .. } => "--rules",
                _ => "cannot solve",
            };
            CliError::input(format!("{argument}: {e}"))
        })
    }
}

pub(crate) fn run(args: &SolveArgs, out: &mut dyn Write) -> Result<(), CliError> {
    let rules = parse_rules(&args.rules)?;
    if !(args.tolerance > 0.0 && args.tolerance < 1.0) {
        return Err(CliError::input(format!(
            "--tolerance {}: must be above 0 and below 1",
            args.tolerance
        )));
    }
    if args.threads > MAX_THREADS {
        return Err(CliError::input(format!(
            "--threads {}: at most {MAX_THREADS}",
            args.threads
        )));
    }
    let options = SolveOptions {
        tolerance: args.tolerance,
        threads: args.threads,
        ..SolveOptions::default()
    };
    let encoding = if args.wide {
        ValueEncoding::U32
    } else {
        ValueEncoding::U16
    };
    // Check the path first, so that a long solve does not end in one that cannot be
    // written; the file itself is written only once the table is complete.
    files::check_writable(&args.out).map_err(|e| cannot_write(args, &e))?;
    let started = Instant::now();
    let (bytes, stats) = rules.visit(Solve {
        args,
        options,
        encoding,
    })?;
    let seconds = started.elapsed().as_secs_f64();
    files::write_atomically(&args.out, &bytes).map_err(|e| cannot_write(args, &e))?;
    writeln!(
        out,
        "{rules}: endgames with up to {} pieces a side, {} positions solved in {seconds:.1} s \
         on {} threads ({} layers' worth of sweeps, Bellman residual {:.1e}, \
         tolerance {:.0e})",
        args.pieces,
        stats.states,
        options.thread_count(),
        stats.sweeps,
        stats.residual,
        stats.tolerance,
    )?;
    writeln!(
        out,
        "wrote {} ({} bytes); play from it with --tables {}",
        args.out.display(),
        bytes.len(),
        args.out.display()
    )?;
    Ok(())
}
