//! `senet fit-endgame`: a second network for the learned player, fitted to the exact values
//! of endgame tables, written beside the main network in one weights file.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

use clap::Args;
use senet::registry::{DEFAULT_RULESET, Registered, RulesetVisitor};
use senet::rng::seeded;
use senet_ai::endgame::{PositionOracle, SolveOptions, read_table_bytes};
use senet_ai::learned::{
    EndgameFitOptions, EndgameFitter, MAX_HIDDEN, MAX_TRAINING_GAMES, ValueNet, Weights, committed,
};

use crate::error::{CliError, parse_rules};
use crate::files;
use crate::limits::{MAX_TABLE_BYTES, check_range};
use crate::train::games_bar;

/// Fit the learned player's endgame network to the exact values of endgame tables.
///
/// The network values the positions with at most as many pieces a side as the tables hold;
/// the main network (from --weights, or the one that comes with senet) keeps the rest. It
/// learns, in uniformly random games, every position the tables cover where a side is to
/// throw and every covered position one move of any throw away. The file written to --out
/// holds both networks; every --checkpoint games it is written again, and a run whose --out
/// holds an endgame network of the same settings goes on from it. The same --seed gives the
/// same weights.
#[derive(Args, Debug)]
pub(crate) struct FitEndgameArgs {
    /// The ruleset: `id` or `id(option=value,…)` (Regency and Kendall have endgame tables).
    #[arg(long, default_value = DEFAULT_RULESET)]
    rules: String,
    /// The weights whose main network the endgame network joins (default: the weights that
    /// come with senet for the ruleset).
    #[arg(long)]
    weights: Option<PathBuf>,
    /// Endgame tables to learn from, as `senet solve` writes them.
    #[arg(long, conflicts_with = "pieces")]
    tables: Option<PathBuf>,
    /// Instead of --tables: solve the tables of this many pieces a side at the start.
    #[arg(long)]
    pieces: Option<u8>,
    /// The weights file to write (safetensors).
    #[arg(long)]
    out: PathBuf,
    /// Random games to learn from in all (counting those of a checkpoint gone on from).
    #[arg(long, default_value_t = 20_000)]
    games: u64,
    /// Seed of the ChaCha8 streams: game i plays with stream i.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Hidden units of the endgame network (default: the main network's, starting from its
    /// weights; another number starts from small random weights).
    #[arg(long)]
    hidden: Option<usize>,
    /// The step size at the start; it falls as √(alpha-games / (alpha-games + games)).
    #[arg(long, default_value_t = EndgameFitOptions::default().alpha)]
    alpha: f32,
    /// Games over which the step size falls (see --alpha).
    #[arg(long, default_value_t = EndgameFitOptions::default().alpha_games)]
    alpha_games: f32,
    /// Write the weights every this many games.
    #[arg(long, default_value_t = 5000)]
    checkpoint: u64,
}

/// The most pieces a side of tables solved at the start.
const MAX_SOLVED_PIECES: u8 = 3;

pub(crate) fn run(args: &FitEndgameArgs, out: &mut dyn Write) -> Result<(), CliError> {
    let rules = parse_rules(&args.rules)?;
    check_range("--games", args.games, 1..=MAX_TRAINING_GAMES)?;
    check_range("--checkpoint", args.checkpoint, 1..=MAX_TRAINING_GAMES)?;
    if let Some(hidden) = args.hidden {
        check_range("--hidden", hidden, 1..=MAX_HIDDEN)?;
    }
    match (args.pieces, &args.tables) {
        (None, None) => {
            return Err(CliError::input(
                "give the tables to learn from: --tables FILE or --pieces K".to_string(),
            ));
        }
        (Some(k), _) if k == 0 || k > MAX_SOLVED_PIECES => {
            return Err(CliError::input(format!(
                "--pieces {k}: from 1 to {MAX_SOLVED_PIECES} (larger tables take hours: solve them once with `senet solve` and give --tables FILE)"
            )));
        }
        _ => {}
    }
    if !(args.alpha > 0.0 && args.alpha <= 1.0) {
        return Err(CliError::input(format!(
            "--alpha {}: above 0 and at most 1",
            args.alpha
        )));
    }
    if !(args.alpha_games >= 1.0 && args.alpha_games.is_finite()) {
        return Err(CliError::input(format!(
            "--alpha-games {}: a finite number of games ≥ 1",
            args.alpha_games
        )));
    }
    files::check_writable(&args.out)
        .map_err(|e| CliError::input(format!("--out: cannot write {}: {e}", args.out.display())))?;
    rules.visit(Fit { args, out })
}

struct Fit<'a> {
    args: &'a FitEndgameArgs,
    out: &'a mut dyn Write,
}

impl Fit<'_> {
    /// How the endgame network is made, for the file: everything but the number of games,
    /// which a checkpoint must match to be gone on from.
    fn training(&self, oracle: &dyn std::fmt::Display, hidden: usize) -> String {
        let a = self.args;
        format!(
            "exact values of {oracle} in uniformly random games: hidden={hidden} alpha={} alpha_games={} seed={}",
            a.alpha, a.alpha_games, a.seed
        )
    }

    /// The tables to learn from, and the seconds they took to read or solve.
    fn oracle<R: Registered>(
        &self,
        rules: &R,
    ) -> Result<(Arc<dyn PositionOracle<R>>, f64), CliError> {
        let endgames = rules.endgames().ok_or_else(|| {
            CliError::input(format!(
                "the endgame solver has no space for {}",
                rules.spec()
            ))
        })?;
        let started = Instant::now();
        let oracle = match (&self.args.tables, self.args.pieces) {
            (Some(path), _) => {
                let refused = |e: &dyn std::fmt::Display| {
                    CliError::input(format!("--tables {}: {e}", path.display()))
                };
                let file = std::fs::File::open(path).map_err(|e| refused(&e))?;
                let bytes = read_table_bytes(file, MAX_TABLE_BYTES).map_err(|e| refused(&e))?;
                endgames.read_oracle(&bytes).map_err(|e| refused(&e))?
            }
            (None, pieces) => {
                let pieces = pieces.ok_or_else(|| {
                    CliError::input("give the tables to learn from: --tables FILE or --pieces K")
                })?;
                endgames
                    .solve_oracle(pieces, &SolveOptions::default())
                    .map_err(|e| CliError::input(format!("--pieces: {e}")))?
            }
        };
        Ok((oracle, started.elapsed().as_secs_f64()))
    }
}

/// The weights in `path` when it exists and holds some; `None` when it does not exist.
fn read_existing(path: &Path) -> Result<Option<Weights>, CliError> {
    match std::fs::metadata(path) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        _ => Weights::read(path)
            .map(Some)
            .map_err(|e| CliError::input(format!("--out {}: {e}", path.display()))),
    }
}

impl RulesetVisitor for Fit<'_> {
    type Output = Result<(), CliError>;

    fn visit<R: Registered>(self, rules: &R) -> Result<(), CliError> {
        let args = self.args;
        let main = match &args.weights {
            Some(path) => Weights::read(path)
                .and_then(|w| w.check_rules(rules).map(|()| w))
                .map_err(|e| CliError::input(format!("--weights {}: {e}", path.display())))?,
            None => committed(rules).map_err(|e| CliError::input(e.to_string()))?,
        };
        // A file in the way is refused before any tables are solved or read.
        let existing = read_existing(&args.out)?;
        let (oracle, seconds) = self.oracle(rules)?;
        let hidden = args.hidden.unwrap_or(main.net.hidden());
        let start = if hidden == main.net.hidden() && args.hidden.is_none() {
            main.net.clone()
        } else {
            ValueNet::random(main.net.inputs(), hidden, &mut seeded(args.seed, u64::MAX))
                .map_err(|e| CliError::input(e.to_string()))?
        };
        let training = self.training(&oracle.describe(), hidden);
        let options = EndgameFitOptions {
            alpha: args.alpha,
            alpha_games: args.alpha_games,
        };
        let mut fitter = EndgameFitter::new(rules.clone(), Arc::clone(&oracle), start, options)
            .map_err(|e| CliError::input(e.to_string()))?;
        let mut going_on = None;
        if let Some(existing) = existing
            && let Some(endgame) = existing.endgame
        {
            if endgame.training != training || existing.net != main.net {
                return Err(CliError::input(format!(
                    "--out {} holds an endgame network fitted with other settings or beside another main network ({}); choose another --out or the same settings",
                    args.out.display(),
                    endgame.training
                )));
            }
            going_on = Some(endgame.games);
            fitter = fitter
                .resume(endgame)
                .map_err(|e| CliError::input(format!("--out {}: {e}", args.out.display())))?;
        }
        writeln!(
            self.out,
            "exact values: {} ({seconds:.1} s)",
            oracle.describe()
        )?;
        if let Some(games) = going_on {
            writeln!(
                self.out,
                "going on from {games} games in {}",
                args.out.display()
            )?;
        }
        let started = Instant::now();
        let first = fitter.games();
        let bar = games_bar(args.games, first);
        while fitter.games() < args.games {
            let games = (args.games - fitter.games())
                .min(args.checkpoint - fitter.games() % args.checkpoint);
            let seed = args.seed;
            let stats = fitter
                .fit(games, |g| seeded(seed, g))
                .map_err(|e| CliError::input(e.to_string()))?;
            let weights = Weights {
                endgame: Some(fitter.endgame(training.clone())),
                ..main.clone()
            };
            files::write_atomically(&args.out, &weights.to_bytes()).map_err(|e| {
                CliError::input(format!("--out: cannot write {}: {e}", args.out.display()))
            })?;
            bar.set_position(fitter.games());
            let line = format!(
                "{} games: mean error {:.5} over the {} positions of the last {games}",
                fitter.games(),
                stats.mean_error,
                stats.labels
            );
            bar.set_message(format!("(last mean error {:.5})", stats.mean_error));
            bar.suspend(|| writeln!(self.out, "{line}"))?;
        }
        bar.finish_and_clear();
        writeln!(
            self.out,
            "fitted {} games in {:.1} s; weights in {}",
            fitter.games() - first,
            started.elapsed().as_secs_f64(),
            args.out.display()
        )?;
        Ok(())
    }
}
