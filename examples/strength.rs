//! The strength table of `docs/players.md`: every player against every other, and every
//! player's loss of winning chance against perfect play in endgames, for each ruleset given
//! (Regency and Kendall with immediate throws by default).
//!
//! ```text
//! cargo run --release --example strength
//! ```
//!
//! - **Matches.** For each pair of players, `--games` games with each of them moving first
//!   (so both seat orders are played equally often). Game `i` of pair `p` of the `r`-th
//!   ruleset draws every throw (and every random choice of the players) from ChaCha8 stream
//!   `r·2^48 + p·2^32 + i` of `--seed`, so the figures do not depend on the number of
//!   threads. The table gives the row player's share of the wins with its 95% Wilson
//!   interval.
//! - **Endgame loss.** `--positions` decision points with a choice of moves, taken from the
//!   positions of seeded random games that the endgame tables cover (each with a random
//!   throw). For each, the exact winning chance after the player's move is compared with the
//!   best move's: the mean loss, with a 95% interval, and how often the player's move was
//!   best.
//!
//! `--worst N` prints, after the loss table, each player's `N` decision points where it lost
//! most: the position in the position notation (throw included), every move with its exact
//! value, and which move it chose.
//!
//! `--weights FILE` measures a network of `senet train` in place of the committed one: every
//! `learned` player of the run searches over it (one `--rules`, the ruleset it was trained
//! for).
//!
//! The perfect player's tables (`--pieces`, one number per ruleset) are read from
//! `--tables-dir` when a file for the ruleset, its options, rules revision and number of
//! pieces is there, and otherwise solved and written there.

use std::sync::Arc;
use std::time::Instant;

use std::path::{Path, PathBuf};

use clap::Parser;
use rayon::prelude::*;
use senet::registry::{AnyRuleset, Registered, RulesetVisitor};
use senet::rng::{self, ChaCha8Rng};
use senet::stats::wilson_interval;
use senet::{Phase, Ruleset, Side, ThrowingDevice, TurnCounter};
use senet_ai::endgame::{PositionOracle, SolveOptions, ValueEncoding, endgames_or_unsupported};
use senet_ai::learned::{Weights, learned_player};
use senet_ai::{Perfect, Player, PlayerSpec};

type Failure = Box<dyn std::error::Error>;

#[derive(Parser, Debug)]
#[command(about = "Play the computer players against each other and against perfect endgames")]
struct Args {
    /// The players, comma-separated.
    #[arg(
        long,
        default_value = "random,greedy,expectiminimax:1,expectiminimax:2,expectiminimax:3,mcts:300,perfect"
    )]
    players: String,
    /// Games per pair and seat order.
    #[arg(long, default_value_t = 2000)]
    games: u64,
    /// Endgame decision points for the loss table.
    #[arg(long, default_value_t = 10_000)]
    positions: usize,
    /// The rulesets, one `--rules` each.
    #[arg(long, default_values_t = ["regency".to_string(), "kendall(throw_timing=immediate)".to_string()])]
    rules: Vec<String>,
    /// Pieces per side of the perfect player's tables, one per ruleset.
    #[arg(long, value_delimiter = ',', default_values_t = [3u8, 2])]
    pieces: Vec<u8>,
    /// Where the tables are read from, or written to after solving.
    #[arg(long, default_value = "target/endgame-tables")]
    tables_dir: PathBuf,
    /// Seed of every ChaCha8 stream.
    #[arg(long, default_value_t = 2026)]
    seed: u64,
    /// A weights file the `learned` players use instead of the committed network (one
    /// ruleset only: the file must have been trained for it).
    #[arg(long)]
    weights: Option<PathBuf>,
    /// Games stop after this many turns and count as draws.
    #[arg(long, default_value_t = 10_000)]
    turn_cap: u32,
    /// Print each player's costliest endgame decisions, this many of them.
    #[arg(long, default_value_t = 0)]
    worst: usize,
}

/// The RNG of game `game` of pair `pair` of the `ruleset`-th ruleset.
fn game_rng(seed: u64, ruleset: u64, pair: u64, game: u64) -> ChaCha8Rng {
    rng::seeded(seed, (ruleset << 48) | (pair << 32) | game)
}

fn main() {
    let args = Args::parse();
    if let Err(e) = run(&args) {
        eprintln!("strength: {e}");
        std::process::exit(2);
    }
}

fn run(args: &Args) -> Result<(), Failure> {
    if args.pieces.len() != args.rules.len() {
        return Err(format!(
            "{} rulesets but {} numbers of pieces (--pieces takes one per ruleset)",
            args.rules.len(),
            args.pieces.len()
        )
        .into());
    }
    if args.weights.is_some() && args.rules.len() != 1 {
        return Err("--weights needs exactly one --rules".into());
    }
    let weights = match &args.weights {
        Some(path) => {
            Some(Weights::read(path).map_err(|e| format!("--weights {}: {e}", path.display()))?)
        }
        None => None,
    };
    let specs: Vec<PlayerSpec> = args
        .players
        .split(',')
        .map(str::parse)
        .collect::<Result<_, _>>()?;
    let started = Instant::now();
    println!(
        "{} games per pair and seat order, {} endgame positions, seed {}, {} threads\n",
        args.games,
        args.positions,
        args.seed,
        rayon::current_num_threads()
    );
    for (index, (text, &pieces)) in args.rules.iter().zip(&args.pieces).enumerate() {
        let rules = AnyRuleset::parse(text)?;
        rules.visit(Strength {
            args,
            specs: &specs,
            weights: weights.as_ref(),
            pieces,
            index: index as u64,
        })?;
    }
    println!(
        "The whole run took {:.0} s.",
        started.elapsed().as_secs_f64()
    );
    Ok(())
}

/// The tables of one ruleset and the players' results on it.
struct Strength<'a> {
    args: &'a Args,
    specs: &'a [PlayerSpec],
    weights: Option<&'a Weights>,
    pieces: u8,
    index: u64,
}

impl RulesetVisitor for Strength<'_> {
    type Output = Result<(), Failure>;

    fn visit<R: Registered>(self, rules: &R) -> Result<(), Failure> {
        let Strength {
            args,
            specs,
            weights,
            pieces,
            index,
        } = self;
        if let Some(weights) = weights {
            weights.check_rules(rules)?;
        }
        let started = Instant::now();
        let oracle = tables(rules, pieces, &args.tables_dir)?;
        let solved_in = started.elapsed().as_secs_f64();
        println!("## {}\n", rules.spec());
        println!(
            "Tables: {} (ready in {solved_in:.0} s).\n",
            oracle.describe()
        );
        let names: Vec<String> = specs
            .iter()
            .map(|&spec| build_player(rules, spec, &oracle, weights).map(|p| p.name()))
            .collect::<Result<_, _>>()?;
        let lineup = Lineup {
            rules,
            specs,
            names,
            oracle,
            weights,
        };
        matches(&lineup, args, index);
        endgame_losses(&lineup, args, index)?;
        println!(
            "{} took {:.0} s.\n",
            rules.spec(),
            started.elapsed().as_secs_f64()
        );
        Ok(())
    }
}

/// The players of one ruleset, each with the perfect player's tables.
struct Lineup<'a, R: Ruleset> {
    rules: &'a R,
    specs: &'a [PlayerSpec],
    /// The players' names, in the order of `specs`.
    names: Vec<String>,
    oracle: Arc<dyn PositionOracle<R>>,
    /// The network of the `learned` players, if not the committed one.
    weights: Option<&'a Weights>,
}

/// The player `spec`, with the perfect player's tables and, for `learned`, `weights` in
/// place of the committed network when given.
fn build_player<R: Ruleset>(
    rules: &R,
    spec: PlayerSpec,
    oracle: &Arc<dyn PositionOracle<R>>,
    weights: Option<&Weights>,
) -> Result<Box<dyn Player<R>>, Failure> {
    Ok(match (spec, weights) {
        (PlayerSpec::Learned(depth), Some(weights)) => {
            Box::new(learned_player(rules, weights, depth)?)
        }
        _ => spec.build_with_tables(rules, Arc::clone(oracle))?,
    })
}

impl<R: Ruleset> Lineup<'_, R> {
    /// A fresh instance of player `k` (each was built once before the runs started).
    fn player(&self, k: usize) -> Box<dyn Player<R>> {
        build_player(self.rules, self.specs[k], &self.oracle, self.weights)
            .expect("built once already")
    }
}

/// The match table of the `ruleset`-th ruleset: every pair of players, both seat orders.
fn matches<R: Ruleset>(lineup: &Lineup<'_, R>, args: &Args, ruleset: u64) {
    let (rules, names) = (lineup.rules, &lineup.names);
    // wins[i][j]: games player i won against player j; games[i][j]: games they played.
    let n = names.len();
    let mut wins = vec![vec![0.0f64; n]; n];
    let mut played = vec![vec![0u64; n]; n];
    let mut first_wins = 0.0;
    let mut total = 0;
    let mut capped = 0;
    let started = Instant::now();
    let mut pair = 0u64;
    for i in 0..n {
        for j in i + 1..n {
            let results: Vec<(bool, Option<Side>)> = (0..2 * args.games)
                .into_par_iter()
                .map(|game| {
                    // Even games: player i moves first (Black); odd games: player j does.
                    let i_black = game % 2 == 0;
                    let mut rng = game_rng(args.seed, ruleset, pair, game);
                    let (mut black, mut white) = if i_black {
                        (lineup.player(i), lineup.player(j))
                    } else {
                        (lineup.player(j), lineup.player(i))
                    };
                    let winner = play(
                        rules,
                        [black.as_mut(), white.as_mut()],
                        &mut rng,
                        args.turn_cap,
                    );
                    (i_black, winner)
                })
                .collect();
            for (i_black, winner) in results {
                total += 1;
                let i_side = if i_black { Side::Black } else { Side::White };
                let score = match winner {
                    Some(w) if w == i_side => 1.0,
                    Some(_) => 0.0,
                    None => {
                        capped += 1;
                        0.5
                    }
                };
                wins[i][j] += score;
                wins[j][i] += 1.0 - score;
                first_wins += match winner {
                    Some(Side::Black) => 1.0,
                    Some(Side::White) => 0.0,
                    None => 0.5,
                };
            }
            played[i][j] += 2 * args.games;
            played[j][i] += 2 * args.games;
            pair += 1;
            eprintln!(
                "{} vs {}: done ({:.0} s)",
                names[i],
                names[j],
                started.elapsed().as_secs_f64()
            );
        }
    }

    println!("### {}: matches\n", rules.spec());
    println!(
        "Share of the games won by the row player, with its 95% interval, over {} games per pair ({} with each player moving first).\n",
        2 * args.games,
        args.games
    );
    let mut header = String::from("| | ");
    header.push_str(&names.join(" | "));
    header.push_str(" | overall |");
    println!("{header}");
    println!("|---{}|---|", "|---".repeat(n));
    for i in 0..n {
        let mut row = format!("| **{}** |", names[i]);
        let (mut won, mut games) = (0.0, 0u64);
        for j in 0..n {
            if i == j {
                row.push_str(" — |");
                continue;
            }
            row.push_str(&format!(" {} |", rate(wins[i][j], played[i][j])));
            won += wins[i][j];
            games += played[i][j];
        }
        row.push_str(&format!(" {} |", rate(won, games)));
        println!("{row}");
    }
    println!(
        "\nThe side moving first won {} of all {total} games; {capped} games reached the turn cap of {} and count as half a win each.",
        rate(first_wins, total),
        args.turn_cap
    );
    println!("Matches took {:.0} s.\n", started.elapsed().as_secs_f64());
}

/// The tables of `pieces` pieces a side for `rules`: read from `dir` when a file for this
/// configuration, rules revision and number of pieces is there, else solved and written.
fn tables<R: Registered>(
    rules: &R,
    pieces: u8,
    dir: &Path,
) -> Result<Arc<dyn PositionOracle<R>>, Failure> {
    let endgames = endgames_or_unsupported(rules, rules.endgames())?;
    let name: String = format!("{}-k{pieces}", rules.spec())
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' {
                c
            } else {
                '_'
            }
        })
        .collect();
    let path = dir.join(format!("{name}.senet-endgame"));
    if let Ok(bytes) = std::fs::read(&path) {
        match endgames.read_oracle(&bytes) {
            Ok(oracle) if oracle.max_pieces() == pieces => return Ok(oracle),
            Ok(_) => eprintln!("{}: other pieces; solving again", path.display()),
            Err(e) => eprintln!("{}: {e}; solving again", path.display()),
        }
    }
    let (bytes, _) =
        endgames.solve_file(pieces, &SolveOptions::default(), ValueEncoding::U32, None)?;
    std::fs::create_dir_all(dir)?;
    // A temporary file renamed into place: an interrupted run leaves no half-written table.
    let mut file = tempfile::NamedTempFile::new_in(dir)?;
    std::io::Write::write_all(&mut file, &bytes)?;
    file.as_file().sync_all()?;
    file.persist(&path)?;
    eprintln!("wrote {}", path.display());
    Ok(endgames.read_oracle(&bytes)?)
}

/// Plays one game; the winner, or `None` when the turn cap stops it.
fn play<R: Ruleset>(
    rules: &R,
    players: [&mut dyn Player<R>; 2],
    rng: &mut ChaCha8Rng,
    turn_cap: u32,
) -> Option<Side> {
    let device = rules.device();
    let mut state = rules.initial_state();
    let mut turns = TurnCounter::default();
    loop {
        let phase = rules.phase(&state);
        if let Some(side) = phase.side()
            && turns.observe(side)
            && turns.turns() > turn_cap
        {
            return None;
        }
        match phase {
            Phase::Over(outcome) => return outcome.winner,
            Phase::Throw(_) => rules.throw_unchecked(&mut state, device.sample(rng)),
            Phase::Move(side) => {
                let mv = players[side.index()]
                    .choose(rules, &state, rng)
                    .expect("a decision point");
                rules
                    .try_play(&mut state, mv)
                    .expect("players choose legal moves");
            }
        }
    }
}

/// The loss table of the `ruleset`-th ruleset: each player's choices on endgame decision
/// points, scored exactly.
fn endgame_losses<R: Ruleset>(
    lineup: &Lineup<'_, R>,
    args: &Args,
    ruleset: u64,
) -> Result<(), Failure> {
    let (rules, oracle) = (lineup.rules, &lineup.oracle);
    // Covered positions as random games meet them, each with a random throw.
    let mut rng = rng::seeded(args.seed, 0);
    let mut positions = Vec::with_capacity(args.positions);
    let device = rules.device();
    // Few positions with a choice of moves have one piece a side: give up rather than
    // walk forever.
    let most_games = 1000 + 100 * args.positions;
    let mut games = 0;
    while positions.len() < args.positions {
        games += 1;
        if games > most_games {
            return Err(format!(
                "only {} decision points with a choice found in {most_games} random games; \
                 use larger tables (--pieces) or fewer --positions",
                positions.len()
            )
            .into());
        }
        let mut found = Vec::new();
        senet_testkit::conformance::walk_random_game(rules, &mut rng, args.turn_cap, |state| {
            if oracle.throw_value(state).is_some() {
                found.push(*state);
            }
            true
        });
        for mut state in found {
            rules.throw_unchecked(&mut state, device.sample(&mut rng));
            if rules.legal_moves(&state).len() > 1 && positions.len() < args.positions {
                positions.push(state);
            }
        }
    }
    let mut judge = Perfect::with_default_fallback(rules, Arc::clone(oracle))?;
    let exact: Vec<Vec<f64>> = positions
        .iter()
        .map(|s| judge.exact_values(rules, s).expect("covered by the tables"))
        .collect();

    println!("### {}: endgame loss against perfect play\n", rules.spec());
    println!(
        "{} decision points with a choice of moves, from seeded random games, with at most {} pieces a side on the board. Loss: the exact winning chance of the best move minus that of the move chosen (mean, with a 95% interval).\n",
        positions.len(),
        oracle.max_pieces()
    );
    // The exact values are the tables' (averaged over throws where a move ends a turn), each
    // within the tables' proven bound of the game's: a loss is a difference of two of them.
    let bound = oracle.error_bound();
    println!(
        "Tables: {}. Each loss, and so each mean, is within twice that bound ({:.2e}) of the exact one.\n",
        oracle.describe(),
        2.0 * bound
    );
    println!("| player | mean loss | 95% interval | best move chosen |");
    println!("|---|---|---|---|");
    let mut worst = String::new();
    for (p, name) in lineup.names.iter().enumerate() {
        // Each decision's loss and the index of the move chosen.
        let losses: Vec<(f64, usize)> = positions
            .par_iter()
            .zip(&exact)
            .enumerate()
            .map(|(k, (state, values))| {
                let mut player = lineup.player(p);
                let mut rng = game_rng(args.seed ^ 0x5eed, ruleset, p as u64, k as u64);
                let mv = player
                    .choose(rules, state, &mut rng)
                    .expect("a decision point");
                let moves = rules.legal_moves(state);
                let chosen = moves.iter().position(|m| *m == mv).expect("a legal move");
                let best = values.iter().copied().fold(f64::NEG_INFINITY, f64::max);
                let loss = best - values[chosen];
                (loss, chosen)
            })
            .collect();
        let count = losses.len() as f64;
        let mean = losses.iter().map(|l| l.0).sum::<f64>() / count;
        let variance = losses.iter().map(|l| (l.0 - mean).powi(2)).sum::<f64>() / (count - 1.0);
        let half = 1.959_964 * (variance / count).sqrt();
        let best = losses.iter().filter(|l| l.0 <= 1e-9).count();
        println!(
            "| {} | {:.4} | [{:.4}, {:.4}] | {:.1}% |",
            name,
            mean,
            (mean - half).max(0.0),
            mean + half,
            100.0 * best as f64 / count
        );
        if args.worst > 0 {
            worst += &costliest(rules, name, &positions, &exact, &losses, args.worst);
        }
    }
    print!("{worst}");
    Ok(())
}

/// The `count` decisions where `name` lost most, costliest first: each position in the
/// position notation, then every move with its exact value, the one chosen starred.
fn costliest<R: Ruleset>(
    rules: &R,
    name: &str,
    positions: &[R::State],
    exact: &[Vec<f64>],
    losses: &[(f64, usize)],
    count: usize,
) -> String {
    let count = count.min(losses.len());
    let mut order: Vec<usize> = (0..losses.len()).collect();
    order.sort_by(|&a, &b| losses[b].0.total_cmp(&losses[a].0).then(a.cmp(&b)));
    let total: f64 = losses.iter().map(|l| l.0).sum();
    let mut out = format!("\n{name}: the {count} costliest decisions\n\n");
    let mut so_far = 0.0;
    for &k in order.iter().take(count) {
        let (loss, chosen) = losses[k];
        so_far += loss;
        let moves = rules.legal_moves(&positions[k]);
        let values: Vec<String> = moves
            .iter()
            .zip(&exact[k])
            .enumerate()
            .map(|(i, (mv, value))| {
                let star = if i == chosen { "*" } else { "" };
                format!("{mv}{star} {value:.4}")
            })
            .collect();
        out += &format!(
            "- loss {loss:.4} ({:.1}% of all the loss, with those above): `{}`: {}\n",
            100.0 * so_far / total.max(f64::MIN_POSITIVE),
            rules.position_string(&positions[k]),
            values.join(", ")
        );
    }
    out
}

/// `won` of `games` as a percentage with its 95% Wilson interval.
fn rate(won: f64, games: u64) -> String {
    if games == 0 {
        return "—".to_string();
    }
    // Half wins (capped games) round down for the interval.
    let (low, high) = wilson_interval(won.floor() as u64, games);
    format!(
        "{:.1}% [{:.1}, {:.1}]",
        100.0 * won / games as f64,
        100.0 * low,
        100.0 * high
    )
}
