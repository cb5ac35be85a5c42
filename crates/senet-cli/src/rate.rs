//! `senet rate`: every pair of computer players plays seeded games, and a Bradley–Terry fit
//! of all the results ([`senet::rating`]) puts the players on one Elo scale.

use std::io::Write;
use std::time::Instant;

use clap::Args;
use senet::rating::{Rating, RatingError, Results, fit};
use senet::registry::DEFAULT_RULESET;
use senet_ai::PlayerSpec;
use serde::Serialize;

use crate::RunTime;
use crate::error::{CliError, parse_rules};
use crate::players::{PLAYER_NAMES, PlayerKind, Roster};
use crate::simulate::{MatchOptions, game_pool, play};

/// Rate computer players: every pair plays seeded games, and a Bradley–Terry fit of all the
/// results gives each player an Elo rating with a 95% interval, the first player rated 0.
///
/// Each pair plays --games games, each player moving first in half of them. Game i of the
/// p-th pair (in the order a-b, a-c, …, b-c, …) uses ChaCha8 stream p·2^32 + i of --seed, so
/// the ratings do not depend on --threads. A draw counts half a win to each player; games
/// stopped at --turn-cap are left out. A difference of 400 Elo means odds of 10 to 1.
#[derive(Args, Debug)]
pub(crate) struct RateArgs {
    /// The ruleset: `id` or `id(option=value,…)`.
    #[arg(long, default_value = DEFAULT_RULESET)]
    rules: String,
    /// The computer players, comma-separated (two or more; the first is rated 0): random,
    /// greedy, expectiminimax[:DEPTH | :nodes=N], mcts[:PLAYOUTS], perfect[:PIECES], learned[:DEPTH].
    #[arg(
        long,
        default_value = "random,greedy,expectiminimax:1,expectiminimax:2"
    )]
    players: String,
    /// Games per pair of players.
    #[arg(long, default_value_t = 200)]
    games: u64,
    #[command(flatten)]
    common: MatchOptions,
}

/// The most players `--players` takes: every pair plays, so the games grow as its square.
const MOST_PLAYERS: usize = 16;

/// The games of one pair.
#[derive(Serialize)]
struct Pair {
    a: String,
    b: String,
    a_wins: u64,
    b_wins: u64,
    draws: u64,
    stopped: u64,
}

/// One player's line.
#[derive(Serialize)]
struct Rated {
    name: String,
    elo: f64,
    ci95: [f64; 2],
    /// Points (a win 1, a draw ½) over the games it finished.
    score: f64,
    games: u64,
}

#[derive(Serialize)]
struct Report {
    rules: String,
    games_per_pair: u64,
    seed: u64,
    turn_cap: u32,
    players: Vec<Rated>,
    pairs: Vec<Pair>,
}

fn parse_players(text: &str) -> Result<Vec<PlayerSpec>, CliError> {
    let specs = text
        .split(',')
        .map(|part| match PlayerKind::parse(part)? {
            PlayerKind::Computer(spec) => Ok(spec),
            PlayerKind::Human => Err(CliError::input(format!(
                "--players: rate needs computer players; computer players: {}",
                PLAYER_NAMES.trim_start_matches("human, ")
            ))),
        })
        .collect::<Result<Vec<_>, _>>()?;
    if !(2..=MOST_PLAYERS).contains(&specs.len()) {
        return Err(CliError::input(format!(
            "--players {}: expected 2 to {MOST_PLAYERS} players separated by commas, e.g. \
             random,greedy,expectiminimax:2",
            senet::quote(text)
        )));
    }
    Ok(specs)
}

pub(crate) fn run(args: &RateArgs, out: &mut dyn Write) -> Result<(), CliError> {
    let rules = parse_rules(&args.rules)?;
    let specs = parse_players(&args.players)?;
    let pairs: Vec<(usize, usize)> = (0..specs.len())
        .flat_map(|a| (a + 1..specs.len()).map(move |b| (a, b)))
        .collect();
    let (pool, progress) = game_pool(
        args.common.turn_cap,
        args.games,
        args.common.threads,
        args.games.saturating_mul(pairs.len() as u64),
    )?;
    let started = Instant::now();
    let played = pool.install(|| {
        let roster = Roster::new(&rules, &specs, args.common.tables.as_deref(), &mut |note| {
            progress.suspend(|| eprintln!("senet rate: {note}"));
        })?;
        let mut played = Vec::with_capacity(pairs.len());
        for (p, &(a, b)) in pairs.iter().enumerate() {
            let lineup = roster.lineup([a, b])?;
            let first_stream = (p as u64) << 32;
            let summary = play(
                &lineup,
                args.games,
                args.common.seed,
                first_stream,
                args.common.turn_cap,
                &progress,
            )?;
            played.push(Pair {
                a: roster.name(a),
                b: roster.name(b),
                a_wins: summary.player_wins[0],
                b_wins: summary.player_wins[1],
                draws: summary.by_side.draws(),
                stopped: summary.by_side.capped(),
            });
        }
        let names: Vec<String> = (0..specs.len()).map(|i| roster.name(i)).collect();
        Ok::<_, CliError>((names, played))
    });
    progress.finish_and_clear();
    let (names, played) = played?;
    let mut results = Results::new(names.len());
    for (&(a, b), pair) in pairs.iter().zip(&played) {
        results
            .add(a, b, pair.a_wins, pair.b_wins, pair.draws)
            .map_err(|e| CliError::input(format!("the ratings: {e}")))?;
    }
    let ratings = fit(&results, 0).map_err(|e| match e {
        RatingError::Disconnected { .. } => CliError::input(format!(
            "the ratings: {e}: its games were all stopped at the turn cap of {}",
            args.common.turn_cap
        )),
        other => CliError::input(format!("the ratings: {other}")),
    })?;
    let mut players = Vec::with_capacity(names.len());
    for (i, name) in names.into_iter().enumerate() {
        let rating = ratings
            .get(i)
            .map_err(|e| CliError::input(format!("the ratings: {e}")))?;
        let games: f64 = (0..results.players())
            .filter(|&j| j != i)
            .map(|j| results.games(i, j).unwrap_or(0.0))
            .sum();
        let score: f64 = (0..results.players())
            .filter(|&j| j != i)
            .map(|j| results.score(i, j).unwrap_or(0.0))
            .sum();
        players.push(rated(name, rating, score, games));
    }
    let report = Report {
        rules: rules.to_string(),
        games_per_pair: args.games,
        seed: args.common.seed,
        turn_cap: args.common.turn_cap,
        players,
        pairs: played,
    };
    if args.common.json {
        let json = serde_json::to_string(&report)
            .map_err(|e| CliError::input(format!("cannot encode the ratings as JSON: {e}")))?;
        writeln!(out, "{json}")?;
    } else {
        let time = crate::RunTime::since(started, pool.current_num_threads());
        print_text(out, &report, time)?;
    }
    Ok(())
}

fn rated(name: String, rating: Rating, score: f64, games: f64) -> Rated {
    Rated {
        name,
        elo: rating.elo,
        ci95: [rating.low, rating.high],
        score,
        games: games.round() as u64,
    }
}

fn print_text(out: &mut dyn Write, report: &Report, time: RunTime) -> std::io::Result<()> {
    writeln!(out, "ruleset: {}", report.rules)?;
    writeln!(
        out,
        "{} games per pair (seed {}; each player moves first in half of them), in {time}",
        report.games_per_pair, report.seed,
    )?;
    let width = report
        .players
        .iter()
        .map(|p| p.name.len())
        .max()
        .unwrap_or(0)
        .max("player".len());
    writeln!(out)?;
    writeln!(
        out,
        "{:<width$}  {:>6}  {:>16}  score",
        "player", "Elo", "95% interval"
    )?;
    for p in &report.players {
        let interval = if p.ci95[0] == p.ci95[1] {
            "(anchor)".to_string()
        } else {
            format!("{:.0} to {:.0}", p.ci95[0], p.ci95[1])
        };
        let share = if p.games == 0 {
            0.0
        } else {
            p.score / p.games as f64
        };
        writeln!(
            out,
            "{:<width$}  {:>+6.0}  {interval:>16}  {:.1}% of {}",
            p.name,
            p.elo,
            100.0 * share,
            crate::count(p.games, "game")
        )?;
    }
    writeln!(out)?;
    writeln!(
        out,
        "Bradley-Terry fit of all {} (a draw counts half; games stopped at the turn cap of {} \
         are left out);\na difference of 400 Elo means odds of 10 to 1.",
        crate::count(
            report
                .pairs
                .iter()
                .map(|p| p.a_wins + p.b_wins + p.draws)
                .sum::<u64>(),
            "game"
        ),
        report.turn_cap
    )?;
    let stopped: u64 = report.pairs.iter().map(|p| p.stopped).sum();
    if stopped > 0 {
        writeln!(out, "stopped at the turn cap: {stopped}")?;
    }
    Ok(())
}
