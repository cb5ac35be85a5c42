//! `senet compare`: how the reconstructions compare as games, in a reproducible report.
//!
//! For every ruleset with every combination of its options, seeded games of random play give
//! the first mover's results, the length of the games, the decisions they hold and the
//! course of the lead (`senet::metrics`). For each ruleset's default options, a skill trace
//! pits stronger computer players against weaker ones (the `learned` player only where
//! weights come with senet for the configuration), and where the strongest of them is
//! `learned` it plays itself, so that the first mover's edge is seen under strong play. The
//! results go to `ruleset-comparison.md` and SVG plots in `--out`.
//!
//! Game `i` of a configuration draws every throw and every random choice from ChaCha8
//! stream `i` of the seed (the strongest player's games against itself from stream
//! [`SELF_PLAY_STREAMS`]` + i`), and every summary is made of integer counts that merge
//! exactly, so the report is the same, byte for byte, whatever the number of threads.

use std::fmt::Write as _;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

use clap::Args;
use indicatif::ProgressBar;
use rayon::prelude::*;
use senet::Side;
use senet::metrics::{
    MatchupSummary, MetricsSummary, Proportion, measure_random_games, play_measured,
};
use senet::registry::{AnyRuleset, RULESETS, Registered, RulesetInfo, RulesetVisitor};
use senet::rng;
use senet::stats::Distribution;
use senet::{Coverage, DEFAULT_TURN_CAP, MoveList, Ruleset, option_specs};
use senet_ai::endgame::{PositionOracle, SolveOptions, endgames_or_unsupported};
use senet_ai::{Player, PlayerSpec};

use crate::error::CliError;
use crate::limits::{check_games, check_threads, thread_pool};
use crate::simulate::games_progress;

mod plots;
mod report;
mod strong;

/// Compare the rulesets: seeded games of every ruleset and option combination, summarised in
/// a Markdown report with SVG plots.
///
/// Random play: --games games per configuration (every registered ruleset with every
/// combination of its options, or the configurations given with --rules). Skill trace: every
/// player of --ladder against every weaker one, --skill-games games with the stronger one as
/// Black and as many as White, on each ruleset's default options and on every configuration
/// whose random games mostly reached the turn cap (or on --skill-rules). A `learned` player
/// is left out on configurations senet has no weights for (the report names them). Strong
/// against strong: where the strongest player of the ladder is `learned`, it plays itself
/// twice --skill-games games.
///
/// Game i of a configuration draws every throw and random choice from ChaCha8 stream i of
/// --seed (game i of the strongest player against itself from stream 2^63 + i), so the report
/// does not depend on --threads. It is written to
/// <OUT>/ruleset-comparison.md, with the plots beside it.
#[derive(Args, Debug)]
pub(crate) struct CompareArgs {
    /// Random games per configuration (the default run, which makes
    /// docs/ruleset-comparison.md, takes minutes on two cores; raise it for narrower
    /// intervals).
    #[arg(long, default_value_t = DEFAULT_GAMES)]
    games: u64,
    /// Skill-trace games per pair of players and seat (0: no skill trace).
    #[arg(long, default_value_t = DEFAULT_SKILL_GAMES)]
    skill_games: u64,
    /// Seed of the ChaCha8 generator.
    #[arg(long, default_value_t = DEFAULT_SEED)]
    seed: u64,
    /// Worker threads (0: one per core). The results do not depend on it.
    #[arg(long, default_value_t = 0)]
    threads: usize,
    /// Stop a game after this many turns and report it as stopped, not won.
    #[arg(long, default_value_t = DEFAULT_TURN_CAP)]
    turn_cap: u32,
    /// A configuration to play at random, `id` or `id(option=value,…)` (repeat the option
    /// for several; default: every ruleset with every combination of its options).
    #[arg(long = "rules", value_name = "SPEC")]
    rules: Vec<String>,
    /// A configuration for the skill trace (repeat for several; default: every ruleset with
    /// its default options, and every configuration in which at least half of the random
    /// games were stopped by the cap).
    #[arg(long = "skill-rules", value_name = "SPEC")]
    skill_rules: Vec<String>,
    /// The players of the skill trace, weakest first, comma-separated; each plays every
    /// weaker one (`learned` only on configurations with weights).
    #[arg(long, default_value = DEFAULT_LADDER)]
    ladder: String,
    /// The directory the report and the plots are written to.
    #[arg(long, default_value = "docs")]
    out: PathBuf,
}

/// The defaults make the run that produces `docs/ruleset-comparison.md`: a few minutes on
/// two cores.
const DEFAULT_GAMES: u64 = 10_000;
const DEFAULT_SKILL_GAMES: u64 = 1_000;
const DEFAULT_SEED: u64 = 2026;
const DEFAULT_LADDER: &str = "random,greedy,expectiminimax:2,learned";

/// The first ChaCha8 stream of the strong-against-strong games: game `k` of the strongest
/// player against itself draws from stream `SELF_PLAY_STREAMS + k` of the seed, a range no
/// other game of the report uses (random play and the skill trace's pairs use streams below
/// [`MAX_GAMES`](senet::simulation::MAX_GAMES) × 2), so these games are not those of a pair.
const SELF_PLAY_STREAMS: u64 = 1 << 63;

/// The report's file name in `--out`.
pub(crate) const REPORT: &str = "ruleset-comparison.md";
/// Rulesets with more option combinations than this get their defaults and each option value
/// alone instead.
const MAX_COMBINATIONS: usize = 64;

/// A ruleset configuration and what its random games came to.
pub(crate) struct RandomResult {
    pub(crate) rules: AnyRuleset,
    pub(crate) summary: MetricsSummary,
}

impl RandomResult {
    pub(crate) fn id(&self) -> &'static str {
        self.rules.id()
    }

    pub(crate) fn is_default(&self) -> bool {
        self.rules.to_string() == self.id()
    }
}

/// One pair of the skill trace on one configuration.
pub(crate) struct SkillResult {
    pub(crate) rules: AnyRuleset,
    pub(crate) stronger: PlayerSpec,
    pub(crate) weaker: PlayerSpec,
    pub(crate) summary: MatchupSummary,
    /// Game lengths in turns.
    pub(crate) turns: Distribution,
}

/// The strongest player of the ladder against itself on one configuration: strong against
/// strong.
pub(crate) struct SelfPlayResult {
    pub(crate) rules: AnyRuleset,
    pub(crate) player: PlayerSpec,
    /// By the side of the instance that is Black in the even games.
    pub(crate) summary: MatchupSummary,
    /// Game lengths in turns.
    pub(crate) turns: Distribution,
}

impl SelfPlayResult {
    /// Black's (the first mover's) wins out of the games won by either side.
    pub(crate) fn black_wins(&self) -> Proportion {
        let s = &self.summary;
        // The instance that was Black won, or the one that was White lost.
        let black = s.a_wins(Some(Side::Black)).count + s.a_losses(Some(Side::White));
        Proportion::new(black, s.a_wins(None).count + s.a_losses(None))
    }
}

/// Everything the skill trace came to.
#[derive(Default)]
pub(crate) struct SkillTrace {
    /// Every pair of players on every configuration.
    pub(crate) pairs: Vec<SkillResult>,
    /// The strongest player against itself, where it is `learned`.
    pub(crate) self_play: Vec<SelfPlayResult>,
    /// The configurations on which the ladder's `learned` players were left out: senet has
    /// no weights for them.
    pub(crate) without_weights: Vec<AnyRuleset>,
}

/// Every configuration of `info` to compare: all combinations of its option values (the
/// defaults first), or, past [`MAX_COMBINATIONS`], the defaults and each value alone.
/// Combinations the ruleset refuses (two options that replace the same rule) are left out.
pub(crate) fn configurations(info: &RulesetInfo) -> Vec<AnyRuleset> {
    let combinations: usize = info.options.iter().map(|o| o.values.len().max(1)).product();
    let coverage = if combinations <= MAX_COMBINATIONS {
        Coverage::Every
    } else {
        Coverage::EachAlone
    };
    option_specs(info.id, info.options, coverage)
        .iter()
        // Every value comes from the ruleset's own list: only a conflict can be refused.
        .filter_map(|spec| AnyRuleset::from_spec(spec).ok())
        .collect()
}

/// Report progress every this many games (an atomic add per game would be wasted work); the
/// random games are measured in chunks of this size.
const PROGRESS_STEP: u64 = 256;

fn tick(progress: &ProgressBar, index: u64, games: u64) {
    if index.is_multiple_of(PROGRESS_STEP) {
        progress.inc(PROGRESS_STEP.min(games - index));
    }
}

/// Random play: both sides pick uniformly among the legal moves, as `random_playout` does.
/// A visitor, not `AnyGame`s: the parallel loop measures millions of decisions on the typed
/// state, where a dispatch per call would cost.
pub(crate) struct RandomGames<'a> {
    pub(crate) games: u64,
    pub(crate) seed: u64,
    pub(crate) turn_cap: u32,
    pub(crate) progress: &'a ProgressBar,
}

impl RulesetVisitor for RandomGames<'_> {
    type Output = MetricsSummary;

    fn visit<R: Registered>(self, rules: &R) -> MetricsSummary {
        let RandomGames {
            games,
            seed,
            turn_cap,
            progress,
        } = self;
        // A chunk of games a rayon task; the summaries merge exactly, in any order.
        (0..games.div_ceil(PROGRESS_STEP))
            .into_par_iter()
            .map(|chunk| {
                let first = chunk * PROGRESS_STEP;
                let indices = first..games.min(first + PROGRESS_STEP);
                let played = indices.end - first;
                let summary =
                    measure_random_games(rules, indices, turn_cap, |i| rng::seeded(seed, i));
                progress.inc(played);
                summary
            })
            .sum::<MetricsSummary>()
    }
}

/// The players of the ladder for one ruleset, with the endgame tables of perfect players
/// solved once.
struct Roster<R: Ruleset> {
    specs: Vec<PlayerSpec>,
    tables: Vec<Option<Arc<dyn PositionOracle<R>>>>,
}

impl<R: Registered> Roster<R> {
    fn new(rules: &R, specs: &[PlayerSpec]) -> Result<Roster<R>, String> {
        let mut tables = Vec::with_capacity(specs.len());
        for spec in specs {
            tables.push(match spec {
                PlayerSpec::Perfect(pieces) => Some(
                    endgames_or_unsupported(rules, rules.endgames())
                        .and_then(|e| e.solve_oracle(*pieces, &SolveOptions::default()))
                        .map_err(|e| format!("{spec} on {}: {e}", rules.spec()))?,
                ),
                _ => None,
            });
        }
        let roster = Roster {
            specs: specs.to_vec(),
            tables,
        };
        for i in 0..specs.len() {
            roster.player(rules, i)?;
        }
        Ok(roster)
    }

    fn player(&self, rules: &R, i: usize) -> Result<Box<dyn Player<R>>, String> {
        let spec = &self.specs[i];
        match &self.tables[i] {
            Some(tables) => spec.build_with_tables(rules, Arc::clone(tables)),
            None => spec.build(rules, rules.endgames()),
        }
        .map_err(|e| format!("{spec} on {}: {e}", rules.spec()))
    }
}

/// What one pair's games came to, or why they could not be played.
type PairOutcome = Result<(MatchupSummary, Distribution), String>;

/// Two players of a roster to play against each other, `a` as Black in the even games and as
/// White in the odd ones; `a` and `b` may be the same player, each side then has an instance of
/// its own. Game `k` draws every throw and random choice from ChaCha8 stream
/// `first_stream + k` of the seed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Pairing {
    a: usize,
    b: usize,
    first_stream: u64,
}

/// Whether senet comes with weights for `rules`, without which a `learned` player cannot be
/// built (`senet_ai::learned::committed` looks the configuration up by the same name).
fn has_weights(rules: &AnyRuleset) -> bool {
    let spec = rules.to_string();
    senet_ai::learned::committed_rulesets().any(|name| name == spec)
}

/// The games of the skill trace on one configuration: the players of `ladder` that can play
/// it (a `learned` one only with weights), every one against every weaker one with stream
/// `k` for game `k`, stronger players first; then, where the strongest is `learned`, that
/// player against itself from stream [`SELF_PLAY_STREAMS`].
fn skill_plan(ladder: &[PlayerSpec], rules: &AnyRuleset) -> (Vec<PlayerSpec>, Vec<Pairing>) {
    let weights = has_weights(rules);
    let ladder: Vec<PlayerSpec> = ladder
        .iter()
        .filter(|p| weights || !matches!(p, PlayerSpec::Learned(_)))
        .copied()
        .collect();
    let mut pairings = Vec::new();
    for a in (1..ladder.len()).rev() {
        for b in (0..a).rev() {
            pairings.push(Pairing {
                a,
                b,
                first_stream: 0,
            });
        }
    }
    // With a `learned` player kept, nothing was left out: the ladder has two players or more.
    if matches!(ladder.last(), Some(PlayerSpec::Learned(_))) {
        let a = ladder.len() - 1;
        pairings.push(Pairing {
            a,
            b: a,
            first_stream: SELF_PLAY_STREAMS,
        });
    }
    (ladder, pairings)
}

/// The skill trace's games on one configuration, the pairings of [`skill_plan`] in order. A
/// visitor, like [`RandomGames`], for its parallel loop of measured games on the typed state.
struct SkillGames<'a> {
    ladder: &'a [PlayerSpec],
    pairings: &'a [Pairing],
    games_per_seat: u64,
    seed: u64,
    turn_cap: u32,
    progress: &'a ProgressBar,
}

impl RulesetVisitor for SkillGames<'_> {
    /// What each pairing's games came to, in the order of the pairings.
    type Output = Result<Vec<(MatchupSummary, Distribution)>, String>;

    fn visit<R: Registered>(self, rules: &R) -> Self::Output {
        let roster = Roster::new(rules, self.ladder)?;
        self.pairings
            .iter()
            .map(|&pairing| self.play(rules, &roster, pairing))
            .collect()
    }
}

impl SkillGames<'_> {
    /// The `2 × games_per_seat` games of one pairing, as A's results by the side it played.
    fn play<R: Registered>(&self, rules: &R, roster: &Roster<R>, pairing: Pairing) -> PairOutcome {
        let Pairing { a, b, first_stream } = pairing;
        let games = 2 * self.games_per_seat;
        let init = || {
            let players = roster
                .player(rules, a)
                .and_then(|s| roster.player(rules, b).map(|w| [s, w]));
            (players, MatchupSummary::default(), Distribution::default())
        };
        (0..games)
            .into_par_iter()
            .fold(
                || (init(), MoveList::new()),
                |((players, mut summary, mut turns), mut moves), index| {
                    let mut players = players;
                    if let Ok([player_a, player_b]) = &mut players {
                        let a_side = senet::simulation::side_of_player_a(index);
                        let game = play_measured(
                            rules,
                            rules.initial_state(),
                            &mut rng::seeded(self.seed, first_stream + index),
                            &mut moves,
                            self.turn_cap,
                            |side, state, moves, rng| {
                                let player = if side == a_side {
                                    &mut *player_a
                                } else {
                                    &mut *player_b
                                };
                                // A player only fails outside a decision, which this is not.
                                player
                                    .choose(rules, state, rng)
                                    .unwrap_or_else(|_| moves[0])
                            },
                        );
                        summary.add(a_side, &game.end);
                        turns.add(game.turns);
                    }
                    tick(self.progress, index, games);
                    ((players, summary, turns), moves)
                },
            )
            .map(|((players, summary, turns), _)| players.map(|_| (summary, turns)))
            .reduce(
                || Ok((MatchupSummary::default(), Distribution::default())),
                |a, b| {
                    let (mut summary, mut turns) = a?;
                    let (other, other_turns) = b?;
                    summary.merge(&other);
                    turns.merge(&other_turns);
                    Ok((summary, turns))
                },
            )
    }
}

/// Everything the report is made of.
pub(crate) struct Comparison {
    pub(crate) games: u64,
    pub(crate) skill_games: u64,
    pub(crate) seed: u64,
    pub(crate) turn_cap: u32,
    pub(crate) ladder: Vec<PlayerSpec>,
    /// `--rules` as given (canonical), empty for every configuration.
    pub(crate) chosen_rules: Vec<String>,
    /// `--skill-rules` as given (canonical), empty for the defaults.
    pub(crate) chosen_skill_rules: Vec<String>,
    pub(crate) random: Vec<RandomResult>,
    pub(crate) skill: Vec<SkillResult>,
    /// Strong against strong: the strongest player against itself, where it is `learned`.
    pub(crate) self_play: Vec<SelfPlayResult>,
    /// The skill trace's configurations without the ladder's `learned` players (no weights).
    pub(crate) without_weights: Vec<AnyRuleset>,
}

impl Comparison {
    /// The command that reproduces this report (`--threads` and `--out` change nothing in it).
    pub(crate) fn command(&self) -> String {
        let mut command = format!(
            "senet compare --games {} --skill-games {} --seed {} --turn-cap {} --ladder {}",
            self.games,
            self.skill_games,
            self.seed,
            self.turn_cap,
            self.ladder
                .iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join(",")
        );
        for spec in &self.chosen_rules {
            let _ = write!(command, " --rules '{spec}'");
        }
        for spec in &self.chosen_skill_rules {
            let _ = write!(command, " --skill-rules '{spec}'");
        }
        command
    }

    /// Whether the report is that of `senet compare` with no arguments (`--threads` and
    /// `--out` aside).
    pub(crate) fn uses_defaults(&self) -> bool {
        let default_ladder = parse_ladder(DEFAULT_LADDER).unwrap_or_default();
        self.games == DEFAULT_GAMES
            && self.skill_games == DEFAULT_SKILL_GAMES
            && self.seed == DEFAULT_SEED
            && self.turn_cap == DEFAULT_TURN_CAP
            && self.ladder == default_ladder
            && self.chosen_rules.is_empty()
            && self.chosen_skill_rules.is_empty()
    }
}

/// Refuses, before any game is played, a perfect player on a ruleset it has no endgame
/// tables for, or whose tables take minutes or more to solve.
fn check_ladder(ladder: &[PlayerSpec], rules: &AnyRuleset) -> Result<(), CliError> {
    match ladder.iter().find(|p| matches!(p, PlayerSpec::Perfect(_))) {
        Some(perfect) if !rules.supports_endgame() => Err(CliError::input(format!(
            "--ladder: {perfect} needs endgame tables, which {} does not have (choose \
             other --skill-rules, or another player)",
            rules.spec()
        ))),
        Some(&PlayerSpec::Perfect(pieces)) if pieces > rules.endgame_pieces_on_demand() => {
            Err(CliError::input(format!(
                "--ladder: perfect:{pieces} needs endgame tables of {pieces} pieces a side of \
                 {}, which take minutes or more to solve (choose perfect:{} or other \
                 --skill-rules)",
                rules.spec(),
                rules.endgame_pieces_on_demand()
            )))
        }
        _ => Ok(()),
    }
}

/// Refuses, before any game is played, `learned` players in the ladder when senet has
/// weights for none of the skill trace's configurations known before the games (on some of
/// them, they are left out of the trace where the weights are missing, and the report says
/// so).
fn check_weights(ladder: &[PlayerSpec], configs: &[AnyRuleset]) -> Result<(), CliError> {
    let Some(learned) = ladder.iter().find(|p| matches!(p, PlayerSpec::Learned(_))) else {
        return Ok(());
    };
    if configs.is_empty() || configs.iter().any(has_weights) {
        return Ok(());
    }
    let committed: Vec<&str> = senet_ai::learned::committed_rulesets().collect();
    Err(CliError::input(format!(
        "--ladder: {learned} has no weights for {}; train them with `senet train --rules \
         <configuration> --out FILE`, or choose --skill-rules with weights ({})",
        configs
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join(", "),
        if committed.is_empty() {
            "none come with this build".to_string()
        } else {
            committed.join(", ")
        }
    )))
}

/// Parses a list of configurations given on the command line, in canonical form.
fn parse_configurations(texts: &[String], argument: &str) -> Result<Vec<AnyRuleset>, CliError> {
    let mut parsed: Vec<AnyRuleset> = Vec::new();
    for text in texts {
        let rules =
            AnyRuleset::parse(text).map_err(|e| CliError::input(format!("{argument}: {e}")))?;
        if parsed.contains(&rules) {
            return Err(CliError::input(format!(
                "{argument} {rules}: given twice (as {})",
                senet::quote(text)
            )));
        }
        parsed.push(rules);
    }
    Ok(parsed)
}

fn parse_ladder(text: &str) -> Result<Vec<PlayerSpec>, CliError> {
    let ladder: Vec<PlayerSpec> = text
        .split(',')
        .map(|name| {
            name.parse::<PlayerSpec>()
                .map_err(|e| CliError::input(format!("--ladder: {e}")))
        })
        .collect::<Result<_, _>>()?;
    if ladder.len() < 2 {
        return Err(CliError::input(format!(
            "--ladder {}: needs at least two players, weakest first, e.g. random,greedy",
            senet::quote(text)
        )));
    }
    for (i, spec) in ladder.iter().enumerate() {
        if ladder[..i].contains(spec) {
            return Err(CliError::input(format!("--ladder: {spec} is named twice")));
        }
    }
    Ok(ladder)
}

/// Random play of every configuration, on the current rayon pool.
pub(crate) fn run_random(
    configs: &[AnyRuleset],
    args: &CompareArgs,
    progress: &ProgressBar,
) -> Vec<RandomResult> {
    configs
        .iter()
        .map(|rules| RandomResult {
            rules: rules.clone(),
            summary: rules.visit(RandomGames {
                games: args.games,
                seed: args.seed,
                turn_cap: args.turn_cap,
                progress,
            }),
        })
        .collect()
}

/// The games the skill trace plays on `configs`: the progress bar's length.
fn skill_game_count(configs: &[AnyRuleset], args: &CompareArgs, ladder: &[PlayerSpec]) -> u64 {
    let pairings: usize = configs.iter().map(|r| skill_plan(ladder, r).1.len()).sum();
    pairings as u64 * 2 * args.skill_games
}

/// The skill trace on every configuration, and strong against strong, on the current rayon
/// pool.
pub(crate) fn run_skill(
    configs: &[AnyRuleset],
    args: &CompareArgs,
    ladder: &[PlayerSpec],
    progress: &ProgressBar,
) -> Result<SkillTrace, CliError> {
    let mut trace = SkillTrace::default();
    if args.skill_games == 0 {
        return Ok(trace);
    }
    for rules in configs {
        let (players, pairings) = skill_plan(ladder, rules);
        if players.len() < ladder.len() {
            trace.without_weights.push(rules.clone());
        }
        if pairings.is_empty() {
            continue;
        }
        let outcomes = rules
            .visit(SkillGames {
                ladder: &players,
                pairings: &pairings,
                games_per_seat: args.skill_games,
                seed: args.seed,
                turn_cap: args.turn_cap,
                progress,
            })
            .map_err(|e| CliError::input(format!("--ladder: {e}")))?;
        for (pairing, (summary, turns)) in pairings.iter().zip(outcomes) {
            if pairing.a == pairing.b {
                trace.self_play.push(SelfPlayResult {
                    rules: rules.clone(),
                    player: players[pairing.a],
                    summary,
                    turns,
                });
            } else {
                trace.pairs.push(SkillResult {
                    rules: rules.clone(),
                    stronger: players[pairing.a],
                    weaker: players[pairing.b],
                    summary,
                    turns,
                });
            }
        }
    }
    Ok(trace)
}

/// Each ruleset with its default options.
fn registry_defaults() -> Vec<AnyRuleset> {
    RULESETS
        .iter()
        .filter_map(|info| AnyRuleset::parse(info.id).ok())
        .collect()
}

/// The skill trace's configurations when `--skill-rules` is not given: each ruleset with
/// its default options, and every configuration in which at least half of the random games
/// were stopped by the cap (random play says little about those), in registry order.
pub(crate) fn default_skill_configs(random: &[RandomResult]) -> Vec<AnyRuleset> {
    let mut configs = registry_defaults();
    for r in random {
        let games = r.summary.games.games();
        if games > 0 && 2 * r.summary.games.capped() >= games && !configs.contains(&r.rules) {
            configs.push(r.rules.clone());
        }
    }
    let place = |rules: &AnyRuleset| RULESETS.iter().position(|info| info.id == rules.id());
    // A stable sort keeps each ruleset's defaults ahead of its other configurations.
    configs.sort_by_key(place);
    configs
}

pub(crate) fn run(args: &CompareArgs, out: &mut dyn Write) -> Result<(), CliError> {
    check_games("--games", args.games, 1)?;
    check_games("--skill-games", args.skill_games, 0)?;
    if args.turn_cap == 0 {
        return Err(CliError::input("--turn-cap must be at least 1"));
    }
    check_threads(args.threads)?;
    let ladder = parse_ladder(&args.ladder)?;
    let chosen = parse_configurations(&args.rules, "--rules")?;
    let chosen_skill = parse_configurations(&args.skill_rules, "--skill-rules")?;
    let random_configs: Vec<AnyRuleset> = if chosen.is_empty() {
        RULESETS.iter().flat_map(configurations).collect()
    } else {
        chosen.clone()
    };
    if args.skill_games > 0 {
        // Without --skill-rules the trace covers every ruleset's defaults (and more), so a
        // player that cannot play one of them is refused here, before any game.
        let checked = if chosen_skill.is_empty() {
            registry_defaults()
        } else {
            chosen_skill.clone()
        };
        for rules in &checked {
            check_ladder(&ladder, rules)?;
        }
        check_weights(&ladder, &checked)?;
    }
    let out_dir = prepare_out_dir(&args.out)?;
    let pool = thread_pool(args.threads)?;

    let progress = games_progress(random_configs.len() as u64 * args.games);
    let started = Instant::now();
    let (random, skill) = pool.install(|| -> Result<_, CliError> {
        let random = run_random(&random_configs, args, &progress);
        let skill_configs = if chosen_skill.is_empty() {
            default_skill_configs(&random)
        } else {
            chosen_skill.clone()
        };
        if args.skill_games > 0 {
            progress.inc_length(skill_game_count(&skill_configs, args, &ladder));
        }
        let skill = run_skill(&skill_configs, args, &ladder, &progress)?;
        Ok((random, skill))
    })?;
    let time = crate::RunTime::since(started, pool.current_num_threads());
    progress.finish_and_clear();
    let skill_total: u64 = skill.pairs.iter().map(|s| s.summary.games(None)).sum();
    let self_play_total: u64 = skill.self_play.iter().map(|s| s.summary.games(None)).sum();

    let comparison = Comparison {
        games: args.games,
        skill_games: args.skill_games,
        seed: args.seed,
        turn_cap: args.turn_cap,
        ladder,
        chosen_rules: chosen.iter().map(ToString::to_string).collect(),
        chosen_skill_rules: chosen_skill.iter().map(ToString::to_string).collect(),
        random,
        skill: skill.pairs,
        self_play: skill.self_play,
        without_weights: skill.without_weights,
    };
    let written = write_report(&comparison, &out_dir)?;
    writeln!(
        out,
        "{} configurations x {} random games, {} skill-trace games and {} strong-against-strong \
         games in {time}",
        comparison.random.len(),
        comparison.games,
        skill_total,
        self_play_total,
    )?;
    for path in written {
        writeln!(out, "wrote {}", path.display())?;
    }
    Ok(())
}

/// Creates `--out` if needed; refuses a path that is not a directory, before any game is
/// played.
fn prepare_out_dir(dir: &Path) -> Result<PathBuf, CliError> {
    if dir.exists() && !dir.is_dir() {
        return Err(CliError::input(format!(
            "--out {}: not a directory",
            dir.display()
        )));
    }
    std::fs::create_dir_all(dir)
        .map_err(|e| CliError::input(format!("--out {}: {e}", dir.display())))?;
    Ok(dir.to_path_buf())
}

/// Writes the report and its plots; returns the paths written.
fn write_report(comparison: &Comparison, dir: &Path) -> Result<Vec<PathBuf>, CliError> {
    let mut files: Vec<(String, String)> = plots::all(comparison)
        .map_err(|e| CliError::input(format!("cannot draw the plots: {e}")))?;
    let names: Vec<&str> = files.iter().map(|(name, _)| name.as_str()).collect();
    let report = report::markdown(comparison, &names);
    files.insert(0, (REPORT.to_string(), report));
    let mut written = Vec::new();
    for (name, contents) in files {
        let path = dir.join(&name);
        crate::files::write_atomically(&path, contents.as_bytes())
            .map_err(|e| CliError::input(format!("--out: cannot write {}: {e}", path.display())))?;
        written.push(path);
    }
    Ok(written)
}

/// Formats a share as a percentage with one decimal.
pub(crate) fn percent(x: f64) -> String {
    format!("{:.1}%", 100.0 * x)
}

/// A proportion with its interval, `53.4% [52.4, 54.4]`, or `–` without trials.
pub(crate) fn with_interval(p: Proportion) -> String {
    match p.value() {
        None => "–".to_string(),
        Some(v) => {
            let (low, high) = p.interval();
            format!("{} [{:.1}, {:.1}]", percent(v), 100.0 * low, 100.0 * high)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use senet::Side;

    #[test]
    fn every_option_combination_is_listed_once_with_the_defaults_first() {
        for info in RULESETS {
            let configs = configurations(info);
            assert_eq!(configs[0].to_string(), info.id);
            let mut names: Vec<String> = configs.iter().map(ToString::to_string).collect();
            let count = names.len();
            names.sort();
            names.dedup();
            assert_eq!(names.len(), count, "{}", info.id);
            let product: usize = info.options.iter().map(|o| o.values.len()).product();
            assert!(count <= product, "{}", info.id);
        }
        let count = |id: &str| configurations(senet::registry::info(id).unwrap()).len();
        assert_eq!(count("kendall"), 32);
        // 2^6 Regency combinations, less the 16 that set both exit options and the 12 others
        // that set both lost_throw_keeps_extra_throw and collect_throws.
        assert_eq!(count("regency"), 36);
        assert_eq!(count("piccione"), 1);
    }

    #[test]
    fn the_skill_trace_adds_configurations_that_random_play_rarely_finishes() {
        let result = |spec: &str, capped: u64| {
            let mut summary = MetricsSummary::default();
            for i in 0..10 {
                let end = if i < capped {
                    senet::PlayoutEnd::TurnCap
                } else {
                    senet::PlayoutEnd::Finished(senet::Outcome {
                        winner: Some(Side::Black),
                        points: senet::PerSide::both(0),
                    })
                };
                summary.games.add(&end, 1, 1);
            }
            RandomResult {
                rules: AnyRuleset::parse(spec).unwrap(),
                summary,
            }
        };
        let random = [
            result("jequier(backward_priority=per_piece)", 5),
            result("kendall(trap=true)", 4),
            result("regency", 10),
        ];
        let names: Vec<String> = default_skill_configs(&random)
            .iter()
            .map(ToString::to_string)
            .collect();
        let mut expected: Vec<String> = RULESETS.iter().map(|r| r.id.to_string()).collect();
        let after = expected.iter().position(|id| id == "jequier").unwrap();
        expected.insert(
            after + 1,
            "jequier(backward_priority=per_piece)".to_string(),
        );
        assert_eq!(names, expected);
    }

    #[test]
    fn the_report_says_when_it_is_that_of_the_default_run() {
        #[derive(clap::Parser)]
        struct Command {
            #[command(flatten)]
            args: CompareArgs,
        }
        let comparison = |args: &[&str]| {
            let args = <Command as clap::Parser>::try_parse_from(
                std::iter::once("compare").chain(args.iter().copied()),
            )
            .unwrap()
            .args;
            Comparison {
                games: args.games,
                skill_games: args.skill_games,
                seed: args.seed,
                turn_cap: args.turn_cap,
                ladder: parse_ladder(&args.ladder).unwrap(),
                chosen_rules: args.rules,
                chosen_skill_rules: args.skill_rules,
                random: Vec::new(),
                skill: Vec::new(),
                self_play: Vec::new(),
                without_weights: Vec::new(),
            }
        };
        assert!(comparison(&[]).uses_defaults());
        // Neither the threads nor the output directory change the report.
        assert!(comparison(&["--threads", "1", "--out", "elsewhere"]).uses_defaults());
        for changed in [
            &["--games", "10"][..],
            &["--skill-games", "10"],
            &["--seed", "1"],
            &["--turn-cap", "50"],
            &["--ladder", "random,greedy"],
            &["--ladder", "random,greedy,expectiminimax:2"],
            &["--ladder", "random,greedy,expectiminimax:2,learned:1"],
            &["--rules", "regency"],
            &["--skill-rules", "regency"],
        ] {
            assert!(!comparison(changed).uses_defaults(), "{changed:?}");
        }
    }

    #[test]
    fn ladders_need_two_distinct_known_players() {
        assert_eq!(parse_ladder("random,greedy").unwrap().len(), 2);
        for bad in [
            "random",
            "random,robot",
            "greedy,greedy",
            "random,mcts:0",
            "",
        ] {
            assert!(parse_ladder(bad).is_err(), "{bad:?}");
        }
    }

    /// The summaries of both kinds of games are the same on 1 and 3 threads.
    #[test]
    fn results_do_not_depend_on_the_number_of_threads() {
        let configs: Vec<AnyRuleset> = ["regency", "kendall(throw_timing=immediate)", "bell"]
            .iter()
            .map(|s| AnyRuleset::parse(s).unwrap())
            .collect();
        let ladder = parse_ladder("random,greedy").unwrap();
        let args = CompareArgs {
            games: 300,
            skill_games: 40,
            seed: 5,
            threads: 0,
            turn_cap: DEFAULT_TURN_CAP,
            rules: Vec::new(),
            skill_rules: Vec::new(),
            ladder: "random,greedy".to_string(),
            out: PathBuf::new(),
        };
        let runs: Vec<_> = [1, 3]
            .into_iter()
            .map(|threads| {
                let pool = thread_pool(threads).unwrap();
                let progress = ProgressBar::hidden();
                pool.install(|| {
                    let random = run_random(&configs, &args, &progress);
                    let skill = run_skill(&configs, &args, &ladder, &progress).unwrap();
                    (random, skill)
                })
            })
            .collect();
        for (a, b) in runs[0].0.iter().zip(&runs[1].0) {
            assert_eq!(a.summary, b.summary, "{}", a.rules);
            assert_eq!(a.summary.games.games(), 300);
        }
        assert_eq!(runs[0].1.pairs.len(), 3);
        assert!(runs[0].1.self_play.is_empty());
        for (a, b) in runs[0].1.pairs.iter().zip(&runs[1].1.pairs) {
            assert_eq!(a.summary, b.summary, "{}", a.rules);
            assert_eq!(a.turns, b.turns, "{}", a.rules);
            assert_eq!(a.summary.games(None), 80);
        }
    }

    #[test]
    fn the_learned_player_is_left_out_where_senet_has_no_weights_for_it() {
        let ladder = parse_ladder(DEFAULT_LADDER).unwrap();
        assert_eq!(ladder.last(), Some(&PlayerSpec::Learned(2)));
        let without = AnyRuleset::parse("jequier(backward_priority=per_piece)").unwrap();
        assert!(!has_weights(&without));
        let (players, pairings) = skill_plan(&ladder, &without);
        assert_eq!(players, ladder[..3]);
        // Every pair of the three others, stronger first, and no game against itself.
        let pairs: Vec<(usize, usize)> = pairings.iter().map(|p| (p.a, p.b)).collect();
        assert_eq!(pairs, [(2, 1), (2, 0), (1, 0)]);
        assert!(pairings.iter().all(|p| p.first_stream == 0));
        // A ladder that only the learned players would make up plays nothing there.
        let learned_only = parse_ladder("learned:1,learned").unwrap();
        assert!(skill_plan(&learned_only, &without).1.is_empty());
        // Refused only when no configuration has weights.
        assert!(check_weights(&ladder, std::slice::from_ref(&without)).is_err());
        let error = check_weights(&ladder, std::slice::from_ref(&without))
            .unwrap_err()
            .to_string();
        assert!(error.contains("senet train"), "{error}");
        assert!(!error.contains('\n'), "{error}");
        let no_learned = parse_ladder("random,greedy").unwrap();
        assert!(check_weights(&no_learned, std::slice::from_ref(&without)).is_ok());
    }

    /// Needs the weights that come with senet (`senet_ai::learned::committed_rulesets`).
    #[test]
    fn where_the_strongest_player_is_learned_it_also_plays_itself_on_streams_of_its_own() {
        let ladder = parse_ladder(DEFAULT_LADDER).unwrap();
        let with = AnyRuleset::parse("bell").unwrap();
        assert!(has_weights(&with), "no weights come with senet for bell");
        let (players, pairings) = skill_plan(&ladder, &with);
        assert_eq!(players, ladder);
        assert_eq!(pairings.len(), 6 + 1);
        assert_eq!(
            pairings.last(),
            Some(&Pairing {
                a: 3,
                b: 3,
                first_stream: SELF_PLAY_STREAMS
            })
        );
        let without = AnyRuleset::parse("bell(compulsory_capture=true)").unwrap();
        assert!(check_weights(&ladder, &[without, with]).is_ok());
        // With `learned` not the strongest, it plays no game against itself.
        let below = parse_ladder("random,learned,expectiminimax:2").unwrap();
        let pairings = skill_plan(&below, &AnyRuleset::parse("bell").unwrap()).1;
        assert!(pairings.iter().all(|p| p.a != p.b));
    }

    /// The pieces the learned player adds land in the report: the note on the configurations
    /// left out, the section, its findings and the definition.
    #[test]
    fn the_report_has_the_strong_against_strong_section_and_the_left_out_note() {
        let regency = AnyRuleset::parse("regency").unwrap();
        let jequier = AnyRuleset::parse("jequier(backward_priority=per_piece)").unwrap();
        let mut random = MetricsSummary::default();
        let won = |side| {
            senet::PlayoutEnd::Finished(senet::Outcome {
                winner: Some(side),
                points: senet::PerSide::both(0),
            })
        };
        for i in 0..100 {
            let side = if i < 70 { Side::Black } else { Side::White };
            random.games.add(&won(side), 10, 10);
        }
        let mut matchup = MatchupSummary::default();
        let mut turns = Distribution::default();
        for k in 0..40u64 {
            let a_side = senet::simulation::side_of_player_a(k);
            // A (the instance that is Black in even games) wins its even games and loses
            // its odd ones: Black wins every game.
            let winner = if k % 2 == 0 {
                a_side
            } else {
                a_side.opponent()
            };
            matchup.add(a_side, &won(winner));
            turns.add(100);
        }
        let learned = PlayerSpec::Learned(2);
        let skill = |stronger, weaker, rules: &AnyRuleset| SkillResult {
            rules: rules.clone(),
            stronger,
            weaker,
            summary: matchup,
            turns: turns.clone(),
        };
        let emm = PlayerSpec::Expectiminimax(senet_ai::Budget::Depth(2));
        let comparison = Comparison {
            games: 100,
            skill_games: 20,
            seed: 1,
            turn_cap: 500,
            ladder: parse_ladder(DEFAULT_LADDER).unwrap(),
            chosen_rules: Vec::new(),
            chosen_skill_rules: Vec::new(),
            random: vec![RandomResult {
                rules: regency.clone(),
                summary: random,
            }],
            skill: vec![
                skill(learned, emm, &regency),
                skill(learned, PlayerSpec::Random, &regency),
                skill(emm, PlayerSpec::Greedy, &regency),
                skill(emm, PlayerSpec::Greedy, &jequier),
                skill(PlayerSpec::Greedy, PlayerSpec::Random, &jequier),
            ],
            self_play: vec![SelfPlayResult {
                rules: regency.clone(),
                player: learned,
                summary: matchup,
                turns,
            }],
            without_weights: vec![jequier],
        };
        let report = report::markdown(&comparison, &[]);
        let at = |needle: &str| {
            report
                .find(needle)
                .unwrap_or_else(|| panic!("{needle:?} missing from\n{report}"))
        };
        assert_eq!(
            comparison.self_play[0].black_wins(),
            Proportion::new(40, 40)
        );
        let skill_bullet = at("- **Skill trace**:");
        let note = at(
            " `learned:2` is left out of the trace on the configurations no weights \
                        come with senet for: jequier(backward_priority=per_piece).\n",
        );
        let how = at("- **Strong against strong**: on each configuration");
        assert!(skill_bullet < note && note < how, "{report}");
        assert!(report.contains("stream 2<sup>63</sup> + *k*"));
        let section = at("## Strong against strong\n");
        let findings = at("## Findings\n");
        assert!(at("## Skill trace\n") < section && section < findings);
        at(
            "| regency | learned:2 | 40 | 100.0% [91.2, 100.0] | 0 | 0 | 100 (100–100) | 70.0% \
            [60.4, 78.1] |",
        );
        let next = at("- **The strongest against the next.**");
        let seat = at("- **The seat under strong play** (`learned:2` against itself).");
        let definitions = at("## Definitions");
        assert!(findings < next && next < seat && seat < definitions);
        at("regency: learned:2 over expectiminimax:2 ");
        at("jequier(backward_priority=per_piece): expectiminimax:2 over greedy ");
        at(
            "The verdict differs from random play's in: none. Black's share clearly differs \
            from random play's (disjoint intervals) in: regency 100.0% under strong play, \
            70.0% under random play.\n",
        );
        // The findings end before the next section, with its blank line.
        assert!(report[seat..].contains(".\n\n## "));
        let definition = at(" `learned:D` searches like `expectiminimax:D`");
        assert!(definition < at(" The ladder here:"));
        // Without learned players nothing is added.
        let plain = Comparison {
            ladder: parse_ladder("random,greedy").unwrap(),
            skill: Vec::new(),
            self_play: Vec::new(),
            without_weights: Vec::new(),
            random: Vec::new(),
            ..comparison
        };
        let markdown = report::markdown(&plain, &[]);
        for piece in [
            "left out of the trace",
            "Strong against strong",
            "The strongest against the next",
            "The seat under strong play",
            "`learned:D`",
        ] {
            assert!(!markdown.contains(piece), "{piece:?} in\n{markdown}");
        }
    }
}
