//! `senet simulate`: many seeded games between computer players, in parallel, summarised.
//!
//! Game `i` draws every throw and every random choice (of random players and of MCTS) from
//! ChaCha8 stream `i` of the seed, every player is fresh or keeps nothing from one decision
//! to the next, and the per-thread summaries merge exactly, so the summary does not depend
//! on the number of threads or on how rayon splits the work.

use std::io::Write;
use std::path::PathBuf;
use std::time::Instant;

use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use rayon::prelude::*;
use senet::DEFAULT_TURN_CAP;
use senet::registry::DEFAULT_RULESET;
use senet::simulation::{Lengths, Lineup, MatchSummary, Rate, SimulationReport};

use crate::RunTime;
use crate::error::{CliError, parse_rules};
use crate::limits::{check_games, thread_pool};
use crate::players::{PLAYER_NAMES, PlayerKind, Roster};

/// Play seeded games between computer players in parallel and summarise them.
///
/// The summary gives the win rates with 95% intervals, the first mover's advantage, and the
/// length of the games (--json prints it as one JSON object).
///
/// Game i uses ChaCha8 stream i of --seed for every throw and every random choice, so the
/// results do not depend on --threads. Player a plays Black (the side that moves first) in
/// the even-numbered games and White in the odd-numbered ones, so that neither player gets
/// the first move more often.
///
/// Players: random, greedy, expectiminimax[:DEPTH | :nodes=N], mcts[:PLAYOUTS],
/// perfect[:PIECES], learned[:DEPTH] (docs/players.md). A perfect player solves its endgame tables first (up
/// to 2 pieces a side, seconds) or reads them from --tables (made by `senet solve`).
#[derive(Args, Debug)]
pub(crate) struct SimulateArgs {
    /// The ruleset: `id` or `id(option=value,…)`.
    #[arg(long, default_value = DEFAULT_RULESET)]
    rules: String,
    /// Number of games.
    #[arg(long, default_value_t = 10_000)]
    games: u64,
    /// The two computer players, a,b: random, greedy, expectiminimax[:DEPTH | :nodes=N],
    /// mcts[:PLAYOUTS], perfect[:PIECES], learned[:DEPTH].
    #[arg(long, default_value = "random,random")]
    players: String,
    #[command(flatten)]
    common: MatchOptions,
}

/// The options of the commands that play seeded matches (`simulate`, `rate`).
#[derive(Args, Debug)]
pub(crate) struct MatchOptions {
    /// Seed of the ChaCha8 generator.
    #[arg(long, default_value_t = 0)]
    pub(crate) seed: u64,
    /// Worker threads (0: one per core).
    #[arg(long, default_value_t = 0)]
    pub(crate) threads: usize,
    /// Endgame tables for a perfect player (a file written by `senet solve` for the same
    /// ruleset and options).
    #[arg(long)]
    pub(crate) tables: Option<PathBuf>,
    /// Stop a game after this many turns: `simulate` counts it as stopped, not won; `rate`
    /// leaves it out.
    #[arg(long, default_value_t = DEFAULT_TURN_CAP)]
    pub(crate) turn_cap: u32,
    /// Print the result as one JSON object.
    #[arg(long)]
    pub(crate) json: bool,
}

/// Games per batch: a batch makes its players afresh and is the unit of progress.
const BATCH: u64 = 256;

/// Games per batch of two random players, which the batch engine plays many at a time: the
/// last games of a batch leave lanes idle, which cost a tenth in batches of 256 (Regency on
/// one thread: 124,000 games a second, against 138,000–145,000 in batches of 4,096).
const RANDOM_BATCH: u64 = 4096;

/// Plays `games` games of `lineup` in parallel batches, game `i` on stream
/// `first_stream + i` of `seed`, and merges their summaries, which does not depend on how
/// rayon spreads the batches.
pub(crate) fn play(
    lineup: &Lineup,
    games: u64,
    seed: u64,
    first_stream: u64,
    turn_cap: u32,
    progress: &ProgressBar,
) -> Result<MatchSummary, CliError> {
    let size = if lineup.both_random() {
        RANDOM_BATCH
    } else {
        BATCH
    };
    (0..games.div_ceil(size))
        .into_par_iter()
        .map(|batch| {
            let range = batch * size..((batch + 1) * size).min(games);
            let len = range.end - range.start;
            let summary = lineup
                .play_from(range, seed, first_stream, turn_cap)
                .map_err(|e| CliError::input(format!("--players: {e}")))?;
            progress.inc(len);
            Ok(summary)
        })
        .sum()
}

fn percent(x: f64) -> String {
    format!("{:.2}%", 100.0 * x)
}

fn print_rate(out: &mut dyn Write, label: &str, r: &Rate) -> std::io::Result<()> {
    writeln!(
        out,
        "{label:<24} wins {:>9}  {:>7}  95% CI [{}, {}]",
        r.wins,
        percent(r.rate),
        percent(r.ci95[0]),
        percent(r.ci95[1])
    )
}

fn print_lengths(out: &mut dyn Write, name: &str, l: &Lengths) -> std::io::Result<()> {
    let show = |v: Option<u32>| v.map_or("-".to_string(), |v| v.to_string());
    writeln!(
        out,
        "{name}: mean {}, median {}, 10th-90th percentile {}, max {}",
        l.mean.map_or("-".to_string(), |m| format!("{m:.1}")),
        show(l.median),
        match (l.p10, l.p90) {
            (Some(low), Some(high)) => format!("{low}-{high}"),
            _ => "-".to_string(),
        },
        show(l.max)
    )?;
    let most = l.histogram.iter().copied().max().unwrap_or(0).max(1);
    for (i, &count) in l.histogram.iter().enumerate() {
        let first = i as u32 * l.histogram_width;
        let last = first + l.histogram_width - 1;
        let bar = "#".repeat(((count * 40).div_ceil(most)) as usize);
        writeln!(out, "  {first:>6}-{last:<6} {count:>9} {bar}")?;
    }
    Ok(())
}

fn print_text(
    out: &mut dyn Write,
    report: &SimulationReport,
    time: RunTime,
) -> std::io::Result<()> {
    writeln!(out, "ruleset: {}", report.rules)?;
    writeln!(
        out,
        "games: {} (seed {}; game i uses ChaCha8 stream i); player a = {}, player b = {} \
         (a plays Black in even-numbered games)",
        report.games, report.seed, report.players[0].name, report.players[1].name
    )?;
    print_rate(out, "Black (moves first)", &report.black)?;
    print_rate(out, "White", &report.white)?;
    for (label, p) in ["player a", "player b"].iter().zip(&report.players) {
        let r = Rate {
            wins: p.wins,
            rate: p.rate,
            ci95: p.ci95,
        };
        print_rate(out, &format!("{label} ({})", p.name), &r)?;
    }
    writeln!(
        out,
        "draws: {}; stopped at the turn cap of {}: {}",
        report.draws, report.turn_cap, report.stopped_at_turn_cap
    )?;
    let fm = &report.first_mover;
    writeln!(
        out,
        "first-mover advantage: Black won {} of the decided games (95% CI [{}, {}]), {:+.2} points from even",
        percent(fm.black_share_of_decided),
        percent(fm.ci95[0]),
        percent(fm.ci95[1]),
        100.0 * fm.advantage
    )?;
    print_lengths(out, "length in turns", &report.turns)?;
    print_lengths(out, "length in moves (passes included)", &report.decisions)?;
    writeln!(
        out,
        "time: {time}, {:.0} games/s",
        time.per_second(report.games)
    )
}

/// Checks the arguments shared by the commands that play many seeded games (`--turn-cap`,
/// `--games`, `--threads`), and makes their thread pool and a progress bar of `total` games.
pub(crate) fn game_pool(
    turn_cap: u32,
    games: u64,
    threads: usize,
    total: u64,
) -> Result<(rayon::ThreadPool, ProgressBar), CliError> {
    if turn_cap == 0 {
        return Err(CliError::input("--turn-cap must be at least 1"));
    }
    check_games("--games", games, 1)?;
    Ok((thread_pool(threads)?, games_progress(total)))
}

/// A progress bar of `total` games, with their rate and the time left.
pub(crate) fn games_progress(total: u64) -> ProgressBar {
    let progress = ProgressBar::new(total);
    progress.set_style(
        ProgressStyle::with_template("{bar:40} {pos}/{len} games, {per_sec}, eta {eta}")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    progress
}

pub(crate) fn run(args: &SimulateArgs, out: &mut dyn Write) -> Result<(), CliError> {
    let rules = parse_rules(&args.rules)?;
    let specs = PlayerKind::parse_pair(&args.players)?.map(|kind| match kind {
        PlayerKind::Computer(spec) => Ok(spec),
        PlayerKind::Human => Err(CliError::input(format!(
            "--players: simulate needs two computer players (a person plays with `senet \
             play`); computer players: {}",
            PLAYER_NAMES.trim_start_matches("human, ")
        ))),
    });
    let [a, b] = specs;
    let specs = [a?, b?];
    let (pool, progress) = game_pool(
        args.common.turn_cap,
        args.games,
        args.common.threads,
        args.games,
    )?;
    let started = Instant::now();
    let summary = pool.install(|| {
        let roster = Roster::new(&rules, &specs, args.common.tables.as_deref(), &mut |note| {
            progress.suspend(|| eprintln!("senet simulate: {note}"));
        })?;
        let lineup = roster.lineup([0, 1])?;
        let summary = play(
            &lineup,
            args.games,
            args.common.seed,
            0,
            args.common.turn_cap,
            &progress,
        )?;
        Ok::<_, CliError>(SimulationReport::new(
            &lineup,
            args.common.seed,
            args.common.turn_cap,
            &summary,
        ))
    });
    progress.finish_and_clear();
    let report = summary?;
    let time = crate::RunTime::since(started, pool.current_num_threads());
    if args.common.json {
        let json = serde_json::to_string(&report)
            .map_err(|e| CliError::input(format!("cannot encode the summary as JSON: {e}")))?;
        writeln!(out, "{json}")?;
    } else {
        print_text(out, &report, time)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use senet::registry::{AnyRuleset, RULESETS};
    use senet_ai::PlayerSpec;

    #[test]
    fn batches_on_any_number_of_threads_merge_to_one_run() {
        for info in RULESETS {
            let rules = AnyRuleset::parse(info.id).unwrap();
            let lineup =
                Lineup::new(&rules, [PlayerSpec::Greedy, PlayerSpec::Random], None).unwrap();
            let expected = lineup.play(0..600, 9, DEFAULT_TURN_CAP).unwrap();
            for threads in [1, 3] {
                let pool = thread_pool(threads).unwrap();
                let progress = ProgressBar::hidden();
                let summary = pool
                    .install(|| play(&lineup, 600, 9, 0, DEFAULT_TURN_CAP, &progress))
                    .unwrap();
                assert_eq!(summary, expected, "{} on {threads} threads", info.id);
            }
        }
    }
}
