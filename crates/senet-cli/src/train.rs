//! `senet train`: a value network learned by self-play, written as a weights file for the
//! `learned` player.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Instant;

use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use rayon::prelude::*;
use senet::registry::{DEFAULT_RULESET, Registered, RulesetVisitor};
use senet::rng::seeded;
use senet::simulation::side_of_player_a;
use senet::{MoveList, Phase, Ruleset, Side, ThrowingDevice};
use senet_ai::endgame::SolveOptions;
use senet_ai::learned::{
    MAX_HIDDEN, MAX_TRAINING_GAMES, TrainOptions, Trainer, Weights, WeightsError, learned_player,
};
use senet_ai::{Player, PlayerSpec};

use crate::error::{CliError, parse_rules};
use crate::files;
use crate::limits::{MAX_THREADS, check_range, thread_pool};

/// Train a value network by self-play and write its weights for the `learned` player.
///
/// The network plays itself, each move chosen by its value of the position after it, and
/// learns by TD(λ) from every game; with --exact-pieces it learns the exact values of the
/// endgame tables where they reach (Regency and Kendall). Every --checkpoint games the
/// weights are written to --out, and a run whose --out already holds weights of the same
/// ruleset and settings goes on from them: a stopped training loses at most one interval.
/// The same --seed and --threads always give the same weights. On a terminal, a bar on
/// stderr shows the games and, after each checkpoint, the network's share of wins against
/// --opponent.
#[derive(Args, Debug)]
pub(crate) struct TrainArgs {
    /// The ruleset: `id` or `id(option=value,…)`.
    #[arg(long, default_value = DEFAULT_RULESET)]
    rules: String,
    /// The weights file to write (safetensors).
    #[arg(long)]
    out: PathBuf,
    /// Self-play games to train on in all (counting those of a checkpoint gone on from).
    #[arg(long, default_value_t = 20_000)]
    games: u64,
    /// Seed of the ChaCha8 streams: game i throws with stream i.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Games played at once, each on its own copy of the network (the weights depend on
    /// it: the same seed and threads give the same weights).
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// Hidden units of the network.
    #[arg(long, default_value_t = TrainOptions::default().hidden)]
    hidden: usize,
    /// The step size at the start; it falls as √(alpha-games / (alpha-games + games)).
    #[arg(long, default_value_t = TrainOptions::default().alpha)]
    alpha: f32,
    /// Games over which the step size falls (see --alpha).
    #[arg(long, default_value_t = TrainOptions::default().alpha_games)]
    alpha_games: f32,
    /// TD(λ)'s λ.
    #[arg(long, default_value_t = TrainOptions::default().lambda)]
    lambda: f32,
    /// Learn from the next position of the game as thrown, not from the value expected over
    /// every throw.
    #[arg(long)]
    sampled_targets: bool,
    /// Learn exact values from endgame tables of this many pieces a side, solved at the
    /// start (0: none; Regency and Kendall only).
    #[arg(long, default_value_t = 0)]
    exact_pieces: u8,
    /// Write the weights and measure the strength every this many games.
    #[arg(long, default_value_t = 2000)]
    checkpoint: u64,
    /// The player the strength is measured against.
    #[arg(long, default_value = "expectiminimax:1")]
    opponent: String,
    /// The depth of the learned player whose strength is measured (1: the network alone).
    #[arg(long, default_value_t = 1)]
    strength_depth: u32,
    /// Games of each strength measurement, half in each seat (0: none).
    #[arg(long, default_value_t = 200)]
    strength_games: u64,
}

/// The most games of one strength measurement.
const MAX_STRENGTH_GAMES: u64 = 100_000;
/// The deepest learned player measured while training.
const MAX_STRENGTH_DEPTH: u32 = 4;
/// The most pieces a side of the tables solved for exact labels.
const MAX_EXACT_PIECES: u8 = 3;

pub(crate) fn run(args: &TrainArgs, out: &mut dyn Write) -> Result<(), CliError> {
    let rules = parse_rules(&args.rules)?;
    check_range("--games", args.games, 1..=MAX_TRAINING_GAMES)?;
    check_range("--threads", args.threads, 1..=MAX_THREADS)?;
    check_range("--hidden", args.hidden, 1..=MAX_HIDDEN)?;
    check_range("--checkpoint", args.checkpoint, 1..=MAX_TRAINING_GAMES)?;
    if args.strength_games > MAX_STRENGTH_GAMES {
        return Err(CliError::input(format!(
            "--strength-games {}: at most {MAX_STRENGTH_GAMES}",
            args.strength_games
        )));
    }
    check_range(
        "--strength-depth",
        args.strength_depth,
        1..=MAX_STRENGTH_DEPTH,
    )?;
    if args.exact_pieces > MAX_EXACT_PIECES {
        return Err(CliError::input(format!(
            "--exact-pieces {}: at most {MAX_EXACT_PIECES} (larger tables take hours; see docs/players.md)",
            args.exact_pieces
        )));
    }
    let opponent: PlayerSpec = args
        .opponent
        .parse()
        .map_err(|e| CliError::input(format!("--opponent: {e}")))?;
    files::check_writable(&args.out)
        .map_err(|e| CliError::input(format!("--out: cannot write {}: {e}", args.out.display())))?;
    let pool = thread_pool(args.threads)?;
    rules.visit(Train {
        args,
        opponent,
        pool: &pool,
        out,
    })
}

struct Train<'a> {
    args: &'a TrainArgs,
    opponent: PlayerSpec,
    pool: &'a rayon::ThreadPool,
    out: &'a mut dyn Write,
}

impl Train<'_> {
    fn options(&self) -> TrainOptions {
        let a = self.args;
        TrainOptions {
            hidden: a.hidden,
            alpha: a.alpha,
            alpha_games: a.alpha_games,
            lambda: a.lambda,
            threads: a.threads,
            expectation: !a.sampled_targets,
        }
    }

    /// How the weights are made, for the file: everything but the number of games, which a
    /// checkpoint must match to be gone on from.
    fn training(&self) -> String {
        let a = self.args;
        format!(
            "TD(lambda) self-play on afterstates: hidden={} alpha={} alpha_games={} lambda={} targets={} seed={} threads={} exact_pieces={}",
            a.hidden,
            a.alpha,
            a.alpha_games,
            a.lambda,
            if a.sampled_targets {
                "sampled"
            } else {
                "expected"
            },
            a.seed,
            a.threads,
            a.exact_pieces
        )
    }

    /// The trainer: from the checkpoint in --out when it holds one of these settings.
    fn trainer<R: Registered>(&mut self, rules: &R) -> Result<Trainer<R>, CliError> {
        let args = self.args;
        let refused = |e: &dyn std::fmt::Display| {
            CliError::input(format!("--out {}: {e}", args.out.display()))
        };
        let trainer = match read_checkpoint(&args.out).map_err(|e| refused(&e))? {
            Some(weights) => {
                // Weights with all their games are only measured: any settings will do.
                if weights.info.games < args.games && weights.info.training != self.training() {
                    return Err(refused(&format_args!(
                        "holds weights trained with other settings ({}); choose another --out or the same settings",
                        weights.info.training
                    )));
                }
                writeln!(
                    self.out,
                    "going on from {} games in {}",
                    weights.info.games,
                    args.out.display()
                )?;
                Trainer::resume(rules.clone(), weights, self.options()).map_err(|e| refused(&e))?
            }
            None => Trainer::new(
                rules.clone(),
                self.options(),
                &mut seeded(args.seed, u64::MAX),
            )
            .map_err(|e| CliError::input(e.to_string()))?,
        };
        if args.exact_pieces == 0 {
            return Ok(trainer);
        }
        let endgames = rules.endgames().ok_or_else(|| {
            CliError::input(format!(
                "--exact-pieces: the endgame solver has no space for {}",
                rules.spec()
            ))
        })?;
        let started = Instant::now();
        let oracle = endgames
            .solve_oracle(args.exact_pieces, &SolveOptions::default())
            .map_err(|e| CliError::input(format!("--exact-pieces: {e}")))?;
        writeln!(
            self.out,
            "exact labels: {} (solved in {:.1} s)",
            oracle.describe(),
            started.elapsed().as_secs_f64()
        )?;
        Ok(trainer.with_exact_values(oracle))
    }

    /// The network's share of the wins as `learned:1` against the opponent.
    fn strength<R: Registered>(&self, rules: &R, weights: &Weights) -> Result<f64, CliError> {
        let games = self.args.strength_games;
        let seed = self.args.seed ^ 0x5757_5757;
        let opponent = self.opponent;
        let depth = self.args.strength_depth;
        let won: Result<f64, CliError> = self.pool.install(|| {
            (0..games)
                .into_par_iter()
                .map(|game| {
                    let mut learned = learned_player(rules, weights, depth)
                        .map_err(|e| CliError::input(e.to_string()))?;
                    let mut other = opponent
                        .build(rules, rules.endgames())
                        .map_err(|e| CliError::input(format!("--opponent: {e}")))?;
                    let learned_side = side_of_player_a(game);
                    let winner =
                        play_one(rules, &mut learned, &mut *other, learned_side, game, seed);
                    Ok(match winner {
                        Some(Some(side)) if side == learned_side => 1.0,
                        Some(Some(_)) => 0.0,
                        _ => 0.5,
                    })
                })
                .sum()
        });
        Ok(won? / games.max(1) as f64)
    }
}

/// The bar of a training run on stderr: games done of `total`, starting at `done`.
pub(crate) fn games_bar(total: u64, done: u64) -> ProgressBar {
    let bar = ProgressBar::new(total);
    bar.set_style(
        ProgressStyle::with_template(
            "{elapsed_precise} [{bar:30}] {pos}/{len} games, {per_sec}, {eta} left {msg}",
        )
        .expect("a valid template")
        .progress_chars("=> "),
    );
    bar.set_position(done.min(total));
    bar
}

/// The weights in `path` when it exists and holds some; `None` when it does not exist.
fn read_checkpoint(path: &Path) -> Result<Option<Weights>, WeightsError> {
    match std::fs::metadata(path) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(e.into()),
        Ok(_) => Weights::read(path).map(Some),
    }
}

/// The most actions of one strength game; a game cut there is a draw.
const STRENGTH_GAME_ACTIONS: u32 = 20_000;

/// One game of `learned` (playing `learned_side`) against `other`, throwing with stream
/// `game` of `seed`; the winner, `None` for a game cut at [`STRENGTH_GAME_ACTIONS`].
fn play_one<R: Ruleset>(
    rules: &R,
    learned: &mut dyn Player<R>,
    other: &mut dyn Player<R>,
    learned_side: Side,
    game: u64,
    seed: u64,
) -> Option<Option<Side>> {
    let mut rng = seeded(seed, game);
    let mut state = rules.initial_state();
    let mut moves = MoveList::new();
    for _ in 0..STRENGTH_GAME_ACTIONS {
        match rules.phase(&state) {
            Phase::Over(outcome) => return Some(outcome.winner),
            Phase::Throw(_) => rules.throw_unchecked(&mut state, rules.device().sample(&mut rng)),
            Phase::Move(side) => {
                rules.generate_moves(&state, &mut moves);
                let chosen = if side == learned_side {
                    learned.choose(rules, &state, &mut rng)
                } else {
                    other.choose(rules, &state, &mut rng)
                };
                let mv = chosen.unwrap_or(moves[0]);
                rules.play_unchecked(&mut state, mv);
            }
        }
    }
    None
}

impl RulesetVisitor for Train<'_> {
    type Output = Result<(), CliError>;

    fn visit<R: Registered>(mut self, rules: &R) -> Result<(), CliError> {
        let args = self.args;
        let mut trainer = self.trainer(rules)?;
        let started = Instant::now();
        let first = trainer.games();
        let bar = games_bar(args.games, first);
        // Checkpoints fall on multiples of the threads, so that going on from one plays the
        // same rounds as an uninterrupted run.
        let interval = args.checkpoint.div_ceil(args.threads as u64) * args.threads as u64;
        let mut unfinished = 0;
        if trainer.games() >= args.games && args.strength_games > 0 {
            // Nothing left to train: measure the weights as they are.
            let share = self.strength(rules, &trainer.weights(self.training()))?;
            writeln!(
                self.out,
                "{} games: learned:{} won {:.1}% of {} games against {}",
                trainer.games(),
                args.strength_depth,
                100.0 * share,
                args.strength_games,
                self.opponent
            )?;
        }
        while trainer.games() < args.games {
            let games = (args.games - trainer.games()).min(interval - trainer.games() % interval);
            let seed = args.seed;
            let stats = self
                .pool
                .install(|| trainer.train(games, |g| seeded(seed, g)))
                .map_err(|e| CliError::input(e.to_string()))?;
            unfinished += stats.unfinished;
            let cut = if stats.unfinished > 0 {
                format!(
                    " ({} of the last {games} cut at the action cap)",
                    stats.unfinished
                )
            } else {
                String::new()
            };
            let weights = trainer.weights(self.training());
            files::write_atomically(&args.out, &weights.to_bytes()).map_err(|e| {
                CliError::input(format!("--out: cannot write {}: {e}", args.out.display()))
            })?;
            bar.set_position(trainer.games());
            if args.strength_games > 0 {
                let share = self.strength(rules, &weights)?;
                let line = format!(
                    "{} games: learned:{} won {:.1}% of {} games against {}{cut}",
                    trainer.games(),
                    args.strength_depth,
                    100.0 * share,
                    args.strength_games,
                    self.opponent
                );
                bar.set_message(format!(
                    "(last: {:.1}% against {})",
                    100.0 * share,
                    self.opponent
                ));
                bar.suspend(|| writeln!(self.out, "{line}"))?;
            }
        }
        bar.finish_and_clear();
        writeln!(
            self.out,
            "trained {} games in {:.1} s ({} cut at the action cap); weights in {}",
            trainer.games() - first,
            started.elapsed().as_secs_f64(),
            unfinished,
            args.out.display()
        )?;
        Ok(())
    }
}
