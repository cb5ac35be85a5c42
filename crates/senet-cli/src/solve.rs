//! `senet solve`: exact endgame tables, written to a file for the perfect player.

use std::io::Write;
use std::path::PathBuf;
use std::sync::OnceLock;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use senet::registry::{AnyRuleset, DEFAULT_RULESET};
use senet_ai::endgame::table::bound_text;
use senet_ai::endgame::{
    Checkpoint, EndgameError, SolveEvent, SolveMethod, SolveOptions, SolveStats, ValueEncoding,
};

use crate::error::{CliError, parse_rules};
use crate::files;
use crate::limits::check_threads;

/// Solve the endgames of a ruleset exactly and write the table file.
///
/// Computes, for every position with at most --pieces pieces a side on the board, the
/// probability that the side to throw wins under perfect play, and writes the table file
/// that `senet play` and `senet simulate` read with --tables for the perfect player. It
/// proves how close every value is to the exact one, works until that is within 1e-10, and
/// says so (the file keeps the bound, its encoding's rounding added). The
/// file records the ruleset, its options and its rules revision; it is refused for any other.
/// Supported: regency and kendall, with any options. Kendall's stored throws (its default
/// rules) have a solver of their own, in memory (--method does not apply): 1 piece a side
/// takes seconds; 2 converge so slowly that they take some 8 hours, best run with
/// --checkpoint (docs/players.md).
/// Up to 2 pieces a side takes seconds; 3 takes minutes for Regency and far longer for
/// Kendall; 4 of Regency fits only --method on-disk, and its sweeps take hours
/// (docs/players.md): --checkpoint keeps the progress of a solve that is stopped. On a terminal, a bar on stderr shows the positions solved, layer
/// by layer, with an estimate of the time left.
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
    /// Stop the sweeps when no value changes by more than this in a sweep; the values are
    /// then bracketed and the brackets proven and tightened until every value is within
    /// 1e-10 of the exact one (or as close as they get: the output says how close).
    #[arg(long, default_value_t = SolveOptions::default().tolerance)]
    tolerance: f64,
    /// Store 4 bytes per value instead of 2 (each value rounded by up to 1.2e-10 rather
    /// than 7.6e-6; the file's proven bound counts it).
    #[arg(long, conflicts_with = "full")]
    wide: bool,
    /// Store 8 bytes per value: the values as solved, without rounding, so that the file
    /// keeps the solve's proven bound.
    #[arg(long)]
    full: bool,
    /// Threads preparing the solve (0: one per core); the values do not depend on it.
    #[arg(long, default_value_t = 0)]
    threads: usize,
    /// The most memory the solve may take, e.g. 12G (suffixes K, M, G, T: powers of 1024).
    /// A solve whose estimated peak is larger is refused before it starts. Default: the
    /// memory available now (MemAvailable of /proc/meminfo; no check where it cannot be read).
    #[arg(long, value_parser = parse_size)]
    max_memory: Option<u64>,
    /// How the solver holds its equations: `compiled` (in memory, fastest), `on-disk`
    /// (compiled into a scratch file in TMPDIR and read back each sweep: at most 16 bytes a
    /// position in memory for Regency, about 115 for Kendall while a layer's components are
    /// found; on disk, about 42 bytes a position of the largest layer for Regency, 128 for
    /// Kendall and twice that while its programs are written again in component order), `lean`
    /// (recomputed at each evaluation: no disk, far slower, and without the policy steps
    /// Kendall's slow cycles need: it is for Regency).
    #[arg(long, default_value = "compiled", value_parser = ["compiled", "on-disk", "lean"])]
    method: String,
    /// Keep the solve's progress in this file, after every layer and every 10 minutes
    /// inside a layer solved on disk, and go on from it when it exists: a solve that is
    /// stopped loses at most those minutes. Removed once the table is written.
    #[arg(long)]
    checkpoint: Option<PathBuf>,
}

/// Reads a size such as `512M` or `12G`.
fn parse_size(text: &str) -> Result<u64, String> {
    let text = text.trim();
    let (digits, shift) = match text.char_indices().last() {
        Some((at, 'K' | 'k')) => (&text[..at], 10),
        Some((at, 'M' | 'm')) => (&text[..at], 20),
        Some((at, 'G' | 'g')) => (&text[..at], 30),
        Some((at, 'T' | 't')) => (&text[..at], 40),
        _ => (text, 0),
    };
    digits
        .parse::<u64>()
        .ok()
        .and_then(|n| n.checked_mul(1 << shift))
        .ok_or_else(|| "expected a size in bytes such as 512M or 12G".to_string())
}

/// The memory available now, in bytes, where the system says (Linux: MemAvailable).
fn available_memory() -> Option<u64> {
    let meminfo = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = meminfo.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    kib.checked_mul(1024)
}

/// `bytes` for a person, in the units of --max-memory: "9.8 GiB", "116 MiB".
fn size(bytes: u64) -> String {
    let gib = bytes as f64 / f64::from(1u32 << 30);
    if gib >= 1.0 {
        format!("{gib:.1} GiB")
    } else {
        format!("{:.0} MiB", bytes as f64 / f64::from(1u32 << 20))
    }
}

fn cannot_write(args: &SolveArgs, e: &std::io::Error) -> CliError {
    CliError::input(format!("--out: cannot write {}: {e}", args.out.display()))
}

/// Solves the tables of `rules` as `args` asks, once the estimated peak memory is known to
/// fit.
fn solve(
    rules: &AnyRuleset,
    args: &SolveArgs,
    options: &SolveOptions,
    encoding: ValueEncoding,
) -> Result<(Vec<u8>, SolveStats), CliError> {
    let refused = |e: EndgameError| {
        let argument = match e {
            EndgameError::Pieces { .. } => "--pieces",
            EndgameError::Unsupported(_) | EndgameError::UnsupportedOptions { .. } => "--rules",
            EndgameError::Checkpoint { .. } => "--checkpoint",
            _ => "cannot solve",
        };
        CliError::input(format!("{argument}: {e}"))
    };
    let pieces = args.pieces;
    let (limit, source) = match (args.max_memory, available_memory()) {
        (Some(limit), _) => (Some(limit), "--max-memory"),
        (None, available) => (available, "the memory available now"),
    };
    let method = match args.method.as_str() {
        "on-disk" => SolveMethod::OnDisk,
        "lean" => SolveMethod::Lean,
        _ => SolveMethod::Compiled,
    };
    let (positions, peak) = rules.endgame_solve_size(pieces, method).map_err(refused)?;
    if let Some(limit) = limit
        && peak > limit
    {
        let (_, on_disk_peak) = rules
            .endgame_solve_size(pieces, SolveMethod::OnDisk)
            .map_err(refused)?;
        let lean = if method == SolveMethod::Compiled && on_disk_peak <= limit {
            format!(" (--method on-disk takes about {})", size(on_disk_peak))
        } else {
            String::new()
        };
        return Err(CliError::input(format!(
            "--pieces {pieces}: solving {} takes about {} at its peak ({positions} \
             positions), more than the {} of {source}; free memory or raise \
             --max-memory{lean}",
            rules.spec(),
            size(peak),
            size(limit)
        )));
    }
    let progress = PROGRESS.get_or_init(|| SolveProgress::new(ProgressBar::new(0)));
    progress.start(positions as u64);
    let options = SolveOptions {
        progress: Some(show_progress),
        method,
        // The memory check above is the limit of the lean methods.
        max_states: if method == SolveMethod::Compiled {
            options.max_states
        } else {
            usize::MAX
        },
        ..*options
    };
    let solved = match &args.checkpoint {
        Some(path) => {
            rules.solve_endgame_file_resumable(pieces, &options, encoding, &Checkpoint::new(path))
        }
        None => rules.solve_endgame_file(pieces, &options, encoding),
    };
    progress.bar.finish_and_clear();
    solved.map_err(refused)
}

/// The progress bar of a solve: the positions of each layer count once the layer is solved,
/// and the message says which sweep a large component is at (the layers of the most pieces
/// take most of the time).
struct SolveProgress {
    bar: ProgressBar,
    /// The positions of the layer being solved.
    layer_positions: AtomicU64,
}

impl SolveProgress {
    fn new(bar: ProgressBar) -> SolveProgress {
        SolveProgress {
            bar,
            layer_positions: AtomicU64::new(0),
        }
    }

    fn start(&self, positions: u64) {
        self.bar.reset();
        self.bar.set_length(positions);
        self.bar.set_style(
            ProgressStyle::with_template("{bar:40} {pos}/{len} positions, eta {eta} {msg}")
                .unwrap_or_else(|_| ProgressStyle::default_bar()),
        );
    }

    fn on(&self, event: &SolveEvent) {
        match *event {
            SolveEvent::Compiled { layer, states, .. } => {
                self.layer_positions.store(states as u64, Ordering::Relaxed);
                self.bar
                    .set_message(format!("layer {}: compiled", layer + 1));
            }
            SolveEvent::Sweep {
                layer,
                states,
                sweep,
                change,
                ..
            } => self.bar.set_message(format!(
                "layer {}: sweep {sweep} of a component of {states} positions, \
                 change {change:.1e}",
                layer + 1
            )),
            SolveEvent::Solved { layer, .. } => {
                self.bar
                    .inc(self.layer_positions.swap(0, Ordering::Relaxed));
                self.bar.set_message(format!("layer {} solved", layer + 1));
            }
            _ => {}
        }
    }
}

/// The solve under way: the solver reports to a plain function, so its bar lives in a
/// static (this program runs one solve at a time).
static PROGRESS: OnceLock<SolveProgress> = OnceLock::new();

fn show_progress(event: &SolveEvent) {
    if let Some(progress) = PROGRESS.get() {
        progress.on(event);
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
    check_threads(args.threads)?;
    let options = SolveOptions {
        tolerance: args.tolerance,
        threads: args.threads,
        ..SolveOptions::default()
    };
    let encoding = if args.full {
        ValueEncoding::F64
    } else if args.wide {
        ValueEncoding::U32
    } else {
        ValueEncoding::U16
    };
    // Check the path first, so that a long solve does not end in one that cannot be
    // written; the file itself is written only once the table is complete.
    files::check_writable(&args.out).map_err(|e| cannot_write(args, &e))?;
    if let Some(checkpoint) = &args.checkpoint {
        files::check_writable(checkpoint).map_err(|e| {
            CliError::input(format!(
                "--checkpoint: cannot write {}: {e}",
                checkpoint.display()
            ))
        })?;
    }
    let started = Instant::now();
    let (bytes, stats) = solve(&rules, args, &options, encoding)?;
    let time = crate::RunTime::since(started, options.thread_count());
    files::write_atomically(&args.out, &bytes).map_err(|e| cannot_write(args, &e))?;
    // The table holds everything the checkpoint did.
    if let Some(checkpoint) = &args.checkpoint
        && let Err(e) = std::fs::remove_file(checkpoint)
    {
        writeln!(
            out,
            "could not remove the checkpoint {}: {e}",
            checkpoint.display()
        )?;
    }
    writeln!(
        out,
        "{rules}: endgames with up to {} a side, {} positions solved in {time} \
         ({} layers' worth of sweeps and {} of bracketing, Bellman residual {:.1e}, \
         tolerance {:.0e})",
        crate::count(args.pieces, "piece"),
        stats.states,
        stats.sweeps,
        stats.bracket_sweeps,
        stats.residual,
        stats.tolerance,
    )?;
    let stored = stats.error_bound + encoding.rounding();
    writeln!(
        out,
        "every value within {} of the exact one (proven){}",
        bound_text(stats.error_bound),
        match encoding {
            ValueEncoding::F64 => String::new(),
            _ => format!(
                "; within {} as stored in {} bytes a value (--full keeps them all)",
                bound_text(stored),
                encoding.bytes()
            ),
        }
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_bar_counts_each_layer_once_it_is_solved() {
        let progress = SolveProgress::new(ProgressBar::hidden());
        progress.start(30);
        for (layer, states) in [(0, 10), (1, 20)] {
            progress.on(&SolveEvent::Compiled {
                layer,
                states,
                words: 0,
                seconds: 0.0,
            });
            assert_eq!(progress.bar.position(), if layer == 0 { 0 } else { 10 });
            progress.on(&SolveEvent::Solved {
                layer,
                evaluations: 0,
                most_sweeps: 1,
                residual: 0.0,
                error_bound: 0.0,
                seconds: 0.0,
            });
        }
        assert_eq!(progress.bar.position(), 30);
        assert_eq!(progress.bar.length(), Some(30));
    }
}
