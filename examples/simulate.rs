//! Plays seeded random games and summarises them.
//!
//! ```text
//! cargo run --release --example simulate                      # 100,000 games of Regency
//! cargo run --release --example simulate -- 20000 --rules "regency(house_of_water=true)" --seed 7
//! cargo run --release --example simulate -- 20000 --engine scalar  # the same games, one by one
//! ```
//!
//! Game `i` draws every throw and move from its own ChaCha8 stream `i` of the seed, so the
//! summary is the same whatever the number of threads. The games run on the batch engine
//! (`senet::batch`), many in lock-step where the ruleset has a kernel for it, which then
//! computes the ChaCha8 words of its lanes together (`BatchRules::play_seeded_batch`).

use std::time::Instant;

use clap::Parser;
use indicatif::{ProgressBar, ProgressStyle};
use rayon::prelude::*;
use senet::batch::{BatchRun, Instructions, play_one_by_one};
use senet::registry::{AnyRuleset, DEFAULT_RULESET, Registered, RulesetVisitor};
use senet::rng;
use senet::stats::SimulationSummary;
use senet::{DEFAULT_TURN_CAP, Playout, Side};

#[derive(Parser, Debug)]
#[command(about = "Play seeded random games of Senet and summarise them")]
struct Args {
    /// Number of games.
    #[arg(default_value_t = 100_000)]
    games: u64,
    /// The ruleset, as `id` or `id(option=value,…)`.
    #[arg(long, default_value = DEFAULT_RULESET)]
    rules: String,
    /// Seed of the ChaCha8 generator; game i uses stream i.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Worker threads (0: one per core).
    #[arg(long, default_value_t = 0)]
    threads: usize,
    /// Stop a game after this many turns and report it as capped.
    #[arg(long, default_value_t = DEFAULT_TURN_CAP)]
    turn_cap: u32,
    /// Which engine plays the games (the same games either way).
    #[arg(long, value_enum, default_value_t = Engine::Batch)]
    engine: Engine,
}

/// The engines that can play the games.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
enum Engine {
    /// Many games in lock-step, with the vector instructions the CPU has.
    Batch,
    /// The batch engine restricted to the target's baseline instructions.
    BatchBaseline,
    /// The batch engine with a `ChaCha8Rng` of each game's own rather than the words of all
    /// its lanes computed together.
    BatchStreams,
    /// One game after the other with `random_playout`.
    Scalar,
}

struct Simulate<'a> {
    args: &'a Args,
    progress: &'a ProgressBar,
}

impl RulesetVisitor for Simulate<'_> {
    type Output = SimulationSummary;

    fn visit<R: Registered>(self, rules: &R) -> SimulationSummary {
        // Games per task: enough to keep the batch's lanes full, small enough to spread the
        // games over the threads.
        const CHUNK: u64 = 4096;
        let Simulate { args, progress } = self;
        (0..args.games.div_ceil(CHUNK))
            .into_par_iter()
            .map(|chunk| {
                let games = chunk * CHUNK..((chunk + 1) * CHUNK).min(args.games);
                let mut summary = SimulationSummary::default();
                let streams = |index| rng::seeded(args.seed, index);
                let add = |_, playout: Playout| {
                    summary.add(&playout.end, playout.decisions, playout.turns)
                };
                let run = BatchRun::new(games.clone()).with_turn_cap(args.turn_cap);
                let seed = rng::seed_bytes(args.seed);
                match args.engine {
                    Engine::Scalar => play_one_by_one(rules, &run, streams, add),
                    Engine::Batch => rules.play_seeded_batch(&run, seed, add),
                    Engine::BatchBaseline => {
                        let run = run.with_instructions(Instructions::Baseline);
                        rules.play_seeded_batch(&run, seed, add);
                    }
                    Engine::BatchStreams => rules.play_random_batch(&run, streams, add),
                }
                progress.inc(games.end - games.start);
                summary
            })
            .sum::<SimulationSummary>()
    }
}

fn percent(x: f64) -> String {
    format!("{:.2}%", 100.0 * x)
}

fn main() {
    let args = Args::parse();
    let rules = match AnyRuleset::parse(&args.rules) {
        Ok(rules) => rules,
        Err(e) => {
            eprintln!("simulate: {e}");
            std::process::exit(2);
        }
    };
    if args.threads > 0
        && let Err(e) = rayon::ThreadPoolBuilder::new()
            .num_threads(args.threads)
            .build_global()
    {
        eprintln!("simulate: cannot set up {} threads: {e}", args.threads);
        std::process::exit(2);
    }
    let progress = if args.games >= 200_000 {
        ProgressBar::new(args.games)
    } else {
        ProgressBar::hidden()
    };
    progress.set_style(
        ProgressStyle::with_template("{bar:40} {pos}/{len} games, {per_sec}, eta {eta}")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );

    let started = Instant::now();
    let summary = rules.visit(Simulate {
        args: &args,
        progress: &progress,
    });
    let elapsed = started.elapsed().as_secs_f64();
    progress.finish_and_clear();

    println!("ruleset: {rules}");
    println!(
        "games: {} (seed {}, game i on ChaCha8 stream i), {} threads",
        summary.games(),
        args.seed,
        rayon::current_num_threads()
    );
    for (side, label) in [(Side::Black, "Black (moves first)"), (Side::White, "White")] {
        let (rate, (low, high)) = summary.win_rate(side);
        println!(
            "{label:<20} wins {:>6}  {}  95% CI [{}, {}]",
            summary.wins(side),
            percent(rate),
            percent(low),
            percent(high)
        );
    }
    println!(
        "draws: {}, stopped by the turn cap ({}): {}",
        summary.draws(),
        args.turn_cap,
        summary.capped()
    );
    let describe = |name: &str, d: &senet::stats::Distribution| {
        println!(
            "length in {name}: mean {:.1}, median {}, 90th percentile {}, max {}",
            d.mean().unwrap_or(0.0),
            d.median().unwrap_or(0),
            d.quantile(0.9).unwrap_or(0),
            d.max().unwrap_or(0)
        );
    };
    describe("moves (decisions, passes included)", &summary.decisions);
    describe("turns", &summary.turns);
    let decisions = summary.decisions.mean().unwrap_or(0.0) * summary.games() as f64;
    println!(
        "time: {elapsed:.2} s, {:.0} games/s, {:.1} million decisions/s",
        summary.games() as f64 / elapsed,
        decisions / elapsed / 1e6
    );
}
