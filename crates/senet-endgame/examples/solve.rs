//! Solves the endgames of a ruleset and writes the table file.
//!
//! ```text
//! cargo run --release -p senet-endgame --example solve -- --pieces 2
//! cargo run --release -p senet-endgame --example solve -- --pieces 3 \
//!     --rules "regency(house_of_water=true)" --out regency-water-3.senet-endgame
//! cargo run --release -p senet-endgame --example solve -- --pieces 2 \
//!     --rules "kendall(throw_timing=immediate)"
//! ```

use std::io::Write;
use std::time::{Duration, Instant};

use clap::Parser;
use senet_core::{Ruleset, RulesetSpec};
use senet_endgame::table::bound_text;
use senet_endgame::{
    Checkpoint, EndgameSpace, EndgameTable, KendallEndgame, PolicyStepReport, PolicySteps,
    RegencyEndgame, SolveEvent, SolveMethod, SolveOptions, ValueEncoding, solve, solve_resumable,
};
use senet_kendall::Kendall;
use senet_regency::Regency;

#[derive(Parser, Debug)]
#[command(about = "Solve Senet endgames exactly and write the table")]
struct Args {
    /// The most pieces a side has on the board.
    #[arg(long, default_value_t = 2)]
    pieces: u8,
    /// The ruleset: Regency (any options) or Kendall with immediate throws (any other
    /// options).
    #[arg(long, default_value = "regency")]
    rules: String,
    /// Stop when no value changes by more than this in a sweep (default: the solver's).
    #[arg(long, default_value_t = SolveOptions::default().tolerance)]
    tolerance: f64,
    /// The proven error bound to work towards (default: the solver's, `EXACT_BOUND`).
    #[arg(long, default_value_t = SolveOptions::default().target_bound)]
    target_bound: f64,
    /// Where to write the table (nothing is written without it).
    #[arg(long)]
    out: Option<std::path::PathBuf>,
    /// Store 4 bytes per value instead of 2.
    #[arg(long, conflicts_with = "full")]
    wide: bool,
    /// Store 8 bytes per value: the values as solved, without rounding.
    #[arg(long)]
    full: bool,
    /// Threads preparing each layer (0: one per core); the values do not depend on it.
    #[arg(long, default_value_t = 0)]
    threads: usize,
    /// Print each layer's figures (and every sweep with `--verbose --verbose`) to stderr.
    #[arg(long, short, action = clap::ArgAction::Count)]
    verbose: u8,
    /// Policy steps between the sweeps: auto (where the space has slow cycles), always,
    /// never.
    #[arg(long, default_value = "auto")]
    policy_steps: String,
    /// How the equations are held: compiled (in memory), on-disk (compiled into a scratch
    /// file, 8 bytes a position in memory), lean (recomputed; slow). The last two have no
    /// limit on the positions.
    #[arg(long, default_value = "compiled")]
    method: String,
    /// Also solve with the compiled method and print the largest difference between the
    /// two tables' values.
    #[arg(long)]
    against_compiled: bool,
    /// Print the positions of each layer and stop, without solving.
    #[arg(long)]
    sizes: bool,
    /// Keep the solve's progress in this file (after every layer, and every
    /// `--checkpoint-minutes` inside a layer solved on disk) and go on from it when it
    /// exists; removed once the table is written with `--out`.
    #[arg(long)]
    checkpoint: Option<std::path::PathBuf>,
    /// Minutes between two saves of the progress inside a layer.
    #[arg(long, default_value_t = 10.0)]
    checkpoint_minutes: f64,
    /// Save the progress and stop after this many minutes (needs `--checkpoint`).
    #[arg(long)]
    stop_after_minutes: Option<f64>,
}

fn minutes(value: f64, flag: &str) -> Result<Duration, String> {
    Duration::try_from_secs_f64(value * 60.0)
        .map_err(|_| format!("--{flag} {value}: a number of minutes, at least 0"))
}

static VERBOSITY: std::sync::atomic::AtomicU8 = std::sync::atomic::AtomicU8::new(0);

fn show(event: &SolveEvent) {
    let verbosity = VERBOSITY.load(std::sync::atomic::Ordering::Relaxed);
    match *event {
        SolveEvent::Compiled {
            layer,
            states,
            words,
            seconds,
        } => eprintln!(
            "layer {layer}: {states} positions, {words} words, compiled in {seconds:.2} s"
        ),
        SolveEvent::Split {
            layer,
            components,
            largest,
            seconds,
        } => eprintln!(
            "layer {layer}: {components} strongly connected components (largest {largest}) \
             found in {seconds:.2} s"
        ),
        SolveEvent::Sweep {
            layer,
            states,
            sweep,
            change,
            hot,
            hot_sweeps,
            seconds,
        } => {
            if verbosity >= 2 || hot_sweeps > 0 || sweep.is_power_of_two() {
                eprintln!(
                    "layer {layer}, component of {states}, sweep {sweep}: change {change:.3e}, \
                     hot {hot}, hot sweeps {hot_sweeps}, {seconds:.2} s"
                );
            }
        }
        SolveEvent::PolicyStep {
            layer,
            sweep,
            states,
            report:
                PolicyStepReport {
                    components,
                    largest,
                    left,
                    singular,
                    largest_left,
                    krylov_iterations,
                    krylov_residual,
                    residual,
                },
            seconds,
        } => eprintln!(
            "layer {layer} sweep {sweep}: policy step on {states} states, {components} \
             components (largest {largest}), {left} left ({singular} singular, largest \
             {largest_left}), BiCGSTAB {krylov_iterations} iterations to {krylov_residual:.1e}, \
             residual {residual:.1e} after, {seconds:.2} s"
        ),
        SolveEvent::Solved {
            layer,
            evaluations,
            most_sweeps,
            residual,
            error_bound,
            seconds,
        } => eprintln!(
            "layer {layer}: solved with {evaluations} evaluations (at most {most_sweeps} sweeps \
             of a component), residual {residual:.2e}, proven bound {error_bound:.2e}, \
             {seconds:.2} s"
        ),
    }
}

fn main() {
    let args = Args::parse();
    VERBOSITY.store(args.verbose, std::sync::atomic::Ordering::Relaxed);
    if let Err(e) = run(&args) {
        eprintln!("solve: {e}");
        std::process::exit(2);
    }
}

fn run(args: &Args) -> Result<(), Box<dyn std::error::Error>> {
    let spec: RulesetSpec = args.rules.parse()?;
    match spec.id() {
        "kendall" => solve_space(
            KendallEndgame::new(Kendall::from_spec(&spec)?, args.pieces)?,
            args,
        ),
        _ => solve_space(
            RegencyEndgame::new(Regency::from_spec(&spec)?, args.pieces)?,
            args,
        ),
    }
}

fn solve_space<S: EndgameSpace + Clone>(
    space: S,
    args: &Args,
) -> Result<(), Box<dyn std::error::Error>> {
    let spec = space.rules().spec();
    if args.sizes {
        return show_sizes(&space, args);
    }
    let options = solve_options(args)?;
    let reference = if args.against_compiled {
        Some(solve(space.clone(), &SolveOptions::default())?)
    } else {
        None
    };
    let started = Instant::now();
    let table = solve_with_args(space, &options, args)?;
    let elapsed = started.elapsed().as_secs_f64();
    let stats = table.stats();
    // The table first, so that a closed stdout (`| head`) cannot cost it; then the report,
    // written rather than printed: a closed stdout is an error to report, not a panic.
    let written = match &args.out {
        Some(path) => Some((path, write_table(&table, path, args)?)),
        None => None,
    };
    let mut out = std::io::stdout().lock();
    writeln!(
        out,
        "{spec} endgames, k = {}: {} positions, {} layers, {} components (largest {}), \
         {} layer sweeps' worth of work (at most {} sweeps of a component), {} policy steps \
         (components up to {} states), {} sweeps of slow states (at most {} states), \
         largest program {} words, residual {:.2e} (tolerance {:.0e}), {} layers' worth of \
         bracketing, every value within {} of the exact one (proven), {:.2} s on {} threads",
        args.pieces,
        stats.states,
        stats.layers,
        stats.components,
        stats.largest_component,
        stats.sweeps,
        stats.max_component_sweeps,
        stats.policy_steps,
        stats.largest_policy_component,
        stats.hot_sweeps,
        stats.hot_states,
        stats.program_words,
        stats.residual,
        stats.tolerance,
        stats.bracket_sweeps,
        bound_text(stats.error_bound),
        elapsed,
        options.thread_count(),
    )?;
    if stats.truncation > 0.0 {
        writeln!(
            out,
            "the longest turns, left out, move a value by about {:.2e} (counted in the bound)",
            stats.truncation
        )?;
    }
    if let Some(reference) = reference {
        writeln!(
            out,
            "largest difference from the compiled method: {:.2e}",
            table.largest_difference(&reference)
        )?;
    }
    if let Some((path, size)) = written {
        writeln!(out, "wrote {} ({size} bytes)", path.display())?;
    }
    Ok(())
}

/// Prints the size of every layer of `space`.
fn show_sizes<S: EndgameSpace>(space: &S, args: &Args) -> Result<(), Box<dyn std::error::Error>> {
    let spec = space.rules().spec();
    let mut out = std::io::stdout().lock();
    for (layer, range) in space.layers().into_iter().enumerate() {
        writeln!(
            out,
            "{spec}, k = {}: layer {layer}, {} positions, {} up to its end",
            args.pieces,
            range.len(),
            range.end
        )?;
    }
    Ok(())
}

/// The solve options the flags ask for.
fn solve_options(args: &Args) -> Result<SolveOptions, Box<dyn std::error::Error>> {
    let method = match args.method.as_str() {
        "compiled" => SolveMethod::Compiled,
        "on-disk" => SolveMethod::OnDisk,
        "lean" => SolveMethod::Lean,
        other => return Err(format!("unknown --method {other}: compiled, on-disk, lean").into()),
    };
    let policy_steps = match args.policy_steps.as_str() {
        "auto" => PolicySteps::Auto,
        "always" => PolicySteps::Always,
        "never" => PolicySteps::Never,
        other => {
            return Err(format!("unknown --policy-steps {other}: auto, always, never").into());
        }
    };
    Ok(SolveOptions {
        tolerance: args.tolerance,
        target_bound: args.target_bound,
        threads: args.threads,
        progress: (args.verbose > 0).then_some(show as fn(&SolveEvent)),
        policy_steps,
        method,
        max_states: if method == SolveMethod::Compiled {
            SolveOptions::default().max_states
        } else {
            usize::MAX
        },
        ..SolveOptions::default()
    })
}

/// Solves `space`, keeping the progress in the checkpoint the flags name, if any.
fn solve_with_args<S: EndgameSpace>(
    space: S,
    options: &SolveOptions,
    args: &Args,
) -> Result<EndgameTable<S>, Box<dyn std::error::Error>> {
    Ok(match &args.checkpoint {
        Some(path) => {
            let checkpoint = Checkpoint {
                path: path.clone(),
                every: minutes(args.checkpoint_minutes, "checkpoint-minutes")?,
                stop_after: args
                    .stop_after_minutes
                    .map(|m| minutes(m, "stop-after-minutes"))
                    .transpose()?,
            };
            solve_resumable(space, options, &checkpoint)?
        }
        None if args.stop_after_minutes.is_some() => {
            return Err("--stop-after-minutes needs --checkpoint to save the progress in".into());
        }
        None => solve(space, options)?,
    })
}

/// Writes `table` to `path` in the encoding the flags ask for, and removes the checkpoint
/// (the table holds everything it did). Returns the bytes written.
fn write_table<S: EndgameSpace>(
    table: &EndgameTable<S>,
    path: &std::path::Path,
    args: &Args,
) -> Result<usize, Box<dyn std::error::Error>> {
    let encoding = if args.full {
        ValueEncoding::F64
    } else if args.wide {
        ValueEncoding::U32
    } else {
        ValueEncoding::U16
    };
    let bytes = table.to_bytes(encoding);
    // A temporary file renamed into place: an interrupted run leaves any old table whole.
    let folder = path.parent().filter(|p| !p.as_os_str().is_empty());
    let mut file = tempfile::NamedTempFile::new_in(folder.unwrap_or(".".as_ref()))?;
    file.write_all(&bytes)?;
    file.as_file().sync_all()?;
    file.persist(path)?;
    if let Some(checkpoint) = &args.checkpoint {
        std::fs::remove_file(checkpoint)?;
    }
    Ok(bytes.len())
}
