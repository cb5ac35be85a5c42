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
use senet::registry::{DEFAULT_RULESET, RulesetVisitor};
use senet::rng::{self, ChaCha8Rng};
use senet::stats::{Distribution, SimulationSummary, wilson_interval};
use senet::{
    DEFAULT_TURN_CAP, MoveList, Phase, Playout, PlayoutEnd, Ruleset, Side, ThrowingDevice,
    TurnCounter, random_playout,
};
use serde::Serialize;

use crate::error::{CliError, parse_rules};
use crate::limits::{check_games, check_threads};
use crate::players::{PLAYER_NAMES, Player, PlayerKind, Roster};
use senet_ai::PlayerSpec;

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
/// perfect[:PIECES] (docs/players.md). A perfect player solves its endgame tables first (up
/// to 2 pieces a side, seconds) or reads them from --tables (made by `senet solve`).
#[derive(Args, Debug)]
pub(crate) struct SimulateArgs {
    /// The ruleset: `id` or `id(option=value,…)`.
    #[arg(long, default_value = DEFAULT_RULESET)]
    rules: String,
    /// Number of games.
    #[arg(long, default_value_t = 10_000)]
    games: u64,
    /// Seed of the ChaCha8 generator.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Worker threads (0: one per core).
    #[arg(long, default_value_t = 0)]
    threads: usize,
    /// The two computer players, a,b: random, greedy, expectiminimax[:DEPTH | :nodes=N],
    /// mcts[:PLAYOUTS], perfect[:PIECES].
    #[arg(long, default_value = "random,random")]
    players: String,
    /// Endgame tables for a perfect player (a file written by `senet solve` for the same
    /// ruleset and options).
    #[arg(long)]
    tables: Option<PathBuf>,
    /// Stop a game after this many turns and count it as stopped, not won.
    #[arg(long, default_value_t = DEFAULT_TURN_CAP)]
    turn_cap: u32,
    /// Print the summary as one JSON object.
    #[arg(long)]
    json: bool,
}

/// What the games came to: the library's summary by side, plus wins by player.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Summary {
    pub(crate) by_side: SimulationSummary,
    /// Wins of player a and of player b.
    pub(crate) player_wins: [u64; 2],
}

impl Summary {
    fn merge(mut self, other: Summary) -> Summary {
        self.by_side.merge(&other.by_side);
        self.player_wins[0] += other.player_wins[0];
        self.player_wins[1] += other.player_wins[1];
        self
    }
}

/// Plays one game from the initial position: throws from the device and choices from the
/// players, all drawn from `rng`. `seats[side.index()]` is the player of that side.
fn play_game<R: Ruleset>(
    rules: &R,
    players: &mut [Box<dyn Player<R>>; 2],
    seats: [usize; 2],
    rng: &mut ChaCha8Rng,
    moves: &mut MoveList,
    turn_cap: u32,
) -> Playout {
    let device = rules.device();
    let mut state = rules.initial_state();
    let mut turns = TurnCounter::default();
    let mut decisions = 0;
    loop {
        let phase = rules.phase(&state);
        if let Some(side) = phase.side()
            && turns.observe(side)
            && turns.turns() > turn_cap
        {
            return Playout {
                end: PlayoutEnd::TurnCap,
                turns: turn_cap,
                decisions,
            };
        }
        match phase {
            Phase::Over(outcome) => {
                return Playout {
                    end: PlayoutEnd::Finished(outcome),
                    turns: turns.turns(),
                    decisions,
                };
            }
            Phase::Throw(_) => rules.throw_unchecked(&mut state, device.sample(rng)),
            Phase::Move(side) => {
                rules.generate_moves(&state, moves);
                let player = &mut players[seats[side.index()]];
                let mv = player.choose(rules, &state, moves, rng);
                rules.play_unchecked(&mut state, mv);
                decisions += 1;
            }
        }
    }
}

/// Which player (0 = a, 1 = b) sits on each side in game `index`, indexed by side.
fn seats(index: u64) -> [usize; 2] {
    if index.is_multiple_of(2) {
        [0, 1]
    } else {
        [1, 0]
    }
}

/// The parallel game loop. It stays generic over the ruleset (a visitor) rather than
/// playing `AnyGame`s: random players take the allocation-free `random_playout`, and every
/// decision of the others runs on the typed state without a dispatch per call.
pub(crate) struct Simulate<'a> {
    pub(crate) games: u64,
    pub(crate) seed: u64,
    /// Game `i` is on stream `first_stream + i` of the seed.
    pub(crate) first_stream: u64,
    pub(crate) turn_cap: u32,
    /// Players a and b: their indices in the roster.
    pub(crate) players: [usize; 2],
    pub(crate) roster: &'a Roster,
    pub(crate) progress: &'a ProgressBar,
}

/// What a simulation came to: the summary and the players' names as they played.
pub(crate) type Simulated = Result<(Summary, [String; 2]), CliError>;

impl RulesetVisitor for Simulate<'_> {
    type Output = Simulated;

    fn visit<R: Ruleset>(self, rules: &R) -> Simulated {
        const PROGRESS_STEP: u64 = 256;
        let Simulate {
            games,
            seed,
            first_stream,
            turn_cap,
            players: [a, b],
            roster,
            progress,
        } = self;
        let names = [roster.name(a), roster.name(b)];
        let new_players = || -> Result<[Box<dyn Player<R>>; 2], CliError> {
            Ok([roster.player(rules, a)?, roster.player(rules, b)?])
        };
        // Two random players play exactly the games of the library's allocation-free
        // `random_playout` (a test checks it), which runs faster than the general loop.
        let both_random = [roster.spec(a), roster.spec(b)] == [PlayerSpec::Random; 2];
        let summary = (0..games)
            .into_par_iter()
            .try_fold(
                || (Summary::default(), MoveList::new(), None),
                |(mut summary, mut moves, players), index| {
                    // The players of this worker, made at its first game.
                    let mut players = match players {
                        Some(players) => players,
                        None => new_players()?,
                    };
                    let mut rng = rng::seeded(seed, first_stream + index);
                    let seats = seats(index);
                    let game = if both_random {
                        let mut state = rules.initial_state();
                        random_playout(rules, &mut state, &mut rng, &mut moves, turn_cap)
                    } else {
                        play_game(rules, &mut players, seats, &mut rng, &mut moves, turn_cap)
                    };
                    summary.by_side.add(&game.end, game.decisions, game.turns);
                    if let PlayoutEnd::Finished(outcome) = game.end
                        && let Some(winner) = outcome.winner
                    {
                        summary.player_wins[seats[winner.index()]] += 1;
                    }
                    if index % PROGRESS_STEP == 0 {
                        progress.inc(PROGRESS_STEP.min(games - index));
                    }
                    Ok::<_, CliError>((summary, moves, Some(players)))
                },
            )
            .map(|worker| worker.map(|(summary, _, _)| summary))
            .try_reduce(Summary::default, |a, b| Ok::<_, CliError>(a.merge(b)))?;
        Ok((summary, names))
    }
}

#[derive(Serialize)]
struct Rate {
    wins: u64,
    rate: f64,
    ci95: [f64; 2],
}

fn rate(wins: u64, games: u64) -> Rate {
    let (low, high) = wilson_interval(wins, games);
    Rate {
        wins,
        rate: if games == 0 {
            0.0
        } else {
            wins as f64 / games as f64
        },
        ci95: [low, high],
    }
}

#[derive(Serialize)]
struct Lengths {
    mean: Option<f64>,
    median: Option<u32>,
    p10: Option<u32>,
    p90: Option<u32>,
    max: Option<u32>,
    /// Counts of games per bucket of `histogram_width` values, the first bucket starting at 0.
    histogram_width: u32,
    histogram: Vec<u64>,
}

/// A bucket width that splits `0..=max` into at most about 20 buckets of a round size.
fn bucket_width(max: u32) -> u32 {
    let raw = max / 20 + 1;
    [1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000]
        .into_iter()
        .find(|&w| w >= raw)
        .unwrap_or(raw.next_multiple_of(1000))
}

fn lengths(d: &Distribution) -> Lengths {
    let width = bucket_width(d.max().unwrap_or(0));
    Lengths {
        mean: d.mean(),
        median: d.median(),
        p10: d.quantile(0.1),
        p90: d.quantile(0.9),
        max: d.max(),
        histogram_width: width,
        histogram: d.histogram(width).into_iter().map(|(_, c)| c).collect(),
    }
}

#[derive(Serialize)]
struct FirstMover {
    /// Black's share of the games that had a winner.
    black_share_of_decided: f64,
    ci95: [f64; 2],
    /// `black_share_of_decided - 0.5`.
    advantage: f64,
}

#[derive(Serialize)]
struct PlayerResult {
    name: String,
    wins: u64,
    rate: f64,
    ci95: [f64; 2],
}

#[derive(Serialize)]
struct Report {
    rules: String,
    games: u64,
    seed: u64,
    turn_cap: u32,
    players: [PlayerResult; 2],
    black: Rate,
    white: Rate,
    draws: u64,
    stopped_at_turn_cap: u64,
    first_mover: FirstMover,
    turns: Lengths,
    decisions: Lengths,
}

fn report(rules: String, args: &SimulateArgs, names: &[String; 2], s: &Summary) -> Report {
    let games = s.by_side.games();
    let black = s.by_side.wins(Side::Black);
    let white = s.by_side.wins(Side::White);
    let decided = black + white;
    let (low, high) = wilson_interval(black, decided);
    let share = if decided == 0 {
        0.5
    } else {
        black as f64 / decided as f64
    };
    let player = |i: usize| {
        let r = rate(s.player_wins[i], games);
        PlayerResult {
            name: names[i].clone(),
            wins: r.wins,
            rate: r.rate,
            ci95: r.ci95,
        }
    };
    Report {
        rules,
        games,
        seed: args.seed,
        turn_cap: args.turn_cap,
        players: [player(0), player(1)],
        black: rate(black, games),
        white: rate(white, games),
        draws: s.by_side.draws(),
        stopped_at_turn_cap: s.by_side.capped(),
        first_mover: FirstMover {
            black_share_of_decided: share,
            ci95: [low, high],
            advantage: share - 0.5,
        },
        turns: lengths(&s.by_side.turns),
        decisions: lengths(&s.by_side.decisions),
    }
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
    report: &Report,
    threads: usize,
    seconds: f64,
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
        "time: {seconds:.2} s on {threads} thread{}, {:.0} games/s",
        if threads == 1 { "" } else { "s" },
        report.games as f64 / seconds.max(1e-9)
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
    check_threads(threads)?;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| CliError::input(format!("--threads {threads}: {e}")))?;
    let progress = ProgressBar::new(total);
    progress.set_style(
        ProgressStyle::with_template("{bar:40} {pos}/{len} games, {per_sec}, eta {eta}")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    Ok((pool, progress))
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
    let (pool, progress) = game_pool(args.turn_cap, args.games, args.threads, args.games)?;
    let started = Instant::now();
    let simulated = pool.install(|| {
        let roster = Roster::new(&rules, &specs, args.tables.as_deref(), &mut |note| {
            progress.suspend(|| eprintln!("senet simulate: {note}"));
        })?;
        rules.visit(Simulate {
            games: args.games,
            seed: args.seed,
            first_stream: 0,
            turn_cap: args.turn_cap,
            players: [0, 1],
            roster: &roster,
            progress: &progress,
        })
    });
    progress.finish_and_clear();
    let (summary, names) = simulated?;
    let seconds = started.elapsed().as_secs_f64();
    let report = report(rules.to_string(), args, &names, &summary);
    if args.json {
        let json = serde_json::to_string(&report)
            .map_err(|e| CliError::input(format!("cannot encode the summary as JSON: {e}")))?;
        writeln!(out, "{json}")?;
    } else {
        print_text(out, &report, pool.current_num_threads(), seconds)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use senet::AnyGame;
    use senet::registry::{AnyRuleset, RULESETS};

    /// The summary of `games` seeded random games played one by one through `AnyGame`.
    fn direct(rules: &AnyRuleset, games: u64) -> SimulationSummary {
        let mut summary = SimulationSummary::default();
        for index in 0..games {
            let mut game = AnyGame::new(rules.clone());
            let end = game.play_random(&mut rng::seeded(9, index), DEFAULT_TURN_CAP);
            summary.add(&end, game.decisions(), game.turns());
        }
        summary
    }

    #[test]
    fn random_players_reproduce_random_playouts_on_any_number_of_threads() {
        for info in RULESETS {
            let rules = AnyRuleset::parse(info.id).unwrap();
            let expected = direct(&rules, 300);
            for threads in [1, 3] {
                let pool = rayon::ThreadPoolBuilder::new()
                    .num_threads(threads)
                    .build()
                    .unwrap();
                let progress = ProgressBar::hidden();
                let specs = [PlayerSpec::Random; 2];
                let roster = Roster::new(&rules, &specs, None, &mut |_| {}).unwrap();
                let (summary, names) = pool
                    .install(|| {
                        rules.visit(Simulate {
                            games: 300,
                            seed: 9,
                            first_stream: 0,
                            turn_cap: DEFAULT_TURN_CAP,
                            players: [0, 1],
                            roster: &roster,
                            progress: &progress,
                        })
                    })
                    .unwrap();
                assert_eq!(names, ["random", "random"]);
                assert_eq!(
                    summary.by_side, expected,
                    "{} on {threads} threads",
                    info.id
                );
                let decided = expected.wins(Side::Black) + expected.wins(Side::White);
                assert_eq!(summary.player_wins.iter().sum::<u64>(), decided);
            }
        }
    }

    /// The general loop with two random players plays the very games of `random_playout`,
    /// which is what lets `simulate` take the fast path for them. A visitor, as it checks the
    /// typed loop itself.
    struct GeneralLoop<'a> {
        roster: &'a Roster,
    }
    impl RulesetVisitor for GeneralLoop<'_> {
        type Output = ();
        fn visit<R: Ruleset>(self, rules: &R) {
            let roster = self.roster;
            let mut players = [0, 1].map(|i| roster.player(rules, i).unwrap());
            let mut moves = MoveList::new();
            for index in 0..200 {
                let mut rng = rng::seeded(4, index);
                let general =
                    play_game(rules, &mut players, seats(index), &mut rng, &mut moves, 500);
                let mut rng = rng::seeded(4, index);
                let mut state = rules.initial_state();
                let fast = random_playout(rules, &mut state, &mut rng, &mut moves, 500);
                assert_eq!(general, fast, "{} game {index}", R::ID);
            }
        }
    }

    #[test]
    fn the_general_loop_with_random_players_is_random_playout() {
        for info in RULESETS {
            let rules = AnyRuleset::parse(info.id).unwrap();
            let specs = [PlayerSpec::Random; 2];
            let roster = Roster::new(&rules, &specs, None, &mut |_| {}).unwrap();
            rules.visit(GeneralLoop { roster: &roster });
        }
    }

    #[test]
    fn seats_alternate() {
        assert_eq!(seats(0), [0, 1]);
        assert_eq!(seats(1), [1, 0]);
        assert_eq!(seats(10), [0, 1]);
    }

    #[test]
    fn bucket_widths_are_round_and_cover_the_range() {
        assert_eq!(bucket_width(0), 1);
        assert_eq!(bucket_width(19), 1);
        assert_eq!(bucket_width(20), 2);
        assert_eq!(bucket_width(150), 10);
        assert_eq!(bucket_width(1_000_000), 51_000);
        for max in [0, 7, 99, 433, 10_000] {
            assert!(bucket_width(max) * 21 > max, "{max}");
        }
    }
}
