//! How the rulesets compare as games, in seconds: seeded random games of every registered
//! ruleset with its default options, measured with `senet::metrics`, and a small skill trace
//! (the greedy player against the random one, greedy on each side).
//!
//! ```text
//! cargo run --release --example compare                      # 2,000 games per ruleset
//! cargo run --release --example compare -- --games 20000 --seed 7
//! ```
//!
//! Game `i` draws every throw and random choice from ChaCha8 stream `i` of the seed, and the
//! summaries hold integer counts that merge exactly, so the output is the same whatever the
//! number of threads. `senet compare` (in `crates/senet-cli`) is the full version: every
//! combination of options, a deeper ladder of players, and the report with plots of
//! `docs/ruleset-comparison.md`.

use clap::Parser;
use rayon::prelude::*;
use senet::metrics::{
    MatchupSummary, MetricsSummary, Proportion, measure_random_games, play_measured, uniform_move,
};
use senet::registry::{AnyRuleset, RULESETS, Registered, RulesetVisitor};
use senet::rng;
use senet::stats::Distribution;
use senet::{DEFAULT_TURN_CAP, MoveList, Side};
use senet_ai::{Greedy, Player};

#[derive(Parser, Debug)]
#[command(about = "Compare the Senet rulesets on seeded games")]
struct Args {
    /// Random games per ruleset.
    #[arg(long, default_value_t = 2_000)]
    games: u64,
    /// Games of greedy against random per ruleset and seat (0: none).
    #[arg(long, default_value_t = 200)]
    skill_games: u64,
    /// Seed of the ChaCha8 generator; game i uses stream i.
    #[arg(long, default_value_t = 2026)]
    seed: u64,
    /// Stop a game after this many turns and report it as stopped.
    #[arg(long, default_value_t = DEFAULT_TURN_CAP)]
    turn_cap: u32,
}

/// The random games and the skill trace of one ruleset.
struct Measure<'a>(&'a Args);

impl RulesetVisitor for Measure<'_> {
    type Output = (MetricsSummary, MatchupSummary);

    fn visit<R: Registered>(self, rules: &R) -> Self::Output {
        let Args {
            games,
            skill_games,
            seed,
            turn_cap,
        } = *self.0;
        // A hundred games a rayon task; the summaries then merge exactly, in any order.
        let random = (0..games.div_ceil(100))
            .into_par_iter()
            .map(|chunk| {
                let indices = chunk * 100..games.min(chunk * 100 + 100);
                measure_random_games(rules, indices, turn_cap, |i| rng::seeded(seed, i))
            })
            .sum::<MetricsSummary>();
        // Greedy is Black in the even games, White in the odd ones.
        let skill = (0..2 * skill_games)
            .into_par_iter()
            .fold(
                || (MatchupSummary::default(), MoveList::new(), Greedy::new()),
                |(mut summary, mut moves, mut greedy), index| {
                    let greedy_side = senet::simulation::side_of_player_a(index);
                    let game = play_measured(
                        rules,
                        rules.initial_state(),
                        &mut rng::seeded(seed, index),
                        &mut moves,
                        turn_cap,
                        |side, state, moves, rng| {
                            if side == greedy_side {
                                // Greedy only fails outside a decision, which this is not.
                                greedy.choose(rules, state, rng).unwrap_or(moves[0])
                            } else {
                                uniform_move(moves, rng)
                            }
                        },
                    );
                    summary.add(greedy_side, &game.end);
                    (summary, moves, greedy)
                },
            )
            .map(|(summary, _, _)| summary)
            .sum::<MatchupSummary>();
        (random, skill)
    }
}

fn percent(x: Option<f64>) -> String {
    x.map_or_else(|| "–".to_string(), |x| format!("{:.1}%", 100.0 * x))
}

/// `52.8% [52.1, 53.5]`: a share with its 95% interval.
fn with_interval(p: Proportion) -> String {
    let (low, high) = p.interval();
    format!(
        "{} [{:.1}, {:.1}]",
        percent(p.value()),
        100.0 * low,
        100.0 * high
    )
}

/// `535 (201–1416)`: the median and the 10th and 90th percentiles.
fn spread(d: &Distribution) -> String {
    match (d.median(), d.quantile(0.1), d.quantile(0.9)) {
        (Some(m), Some(low), Some(high)) => format!("{m} ({low}–{high})"),
        _ => "–".to_string(),
    }
}

fn main() {
    let args = Args::parse();
    println!(
        "{} random games per ruleset and {} games of greedy against random per seat, seed {}, \
         turn cap {}\n",
        args.games, args.skill_games, args.seed, args.turn_cap
    );
    println!(
        "{:<10} {:<20} {:>5} {:>6} {:<18} {:>9} {:>6} {:>7} {:>6} {:>7} {:>8}  {:<20} {:<20}",
        "ruleset",
        "Black wins (decided)",
        "draws",
        "capped",
        "turns: median",
        "choice",
        "legal",
        "passes",
        "leads",
        "behind",
        "decided",
        "greedy as Black",
        "greedy as White"
    );
    for info in RULESETS {
        let Ok(rules) = AnyRuleset::parse(info.id) else {
            continue;
        };
        let (random, skill) = rules.visit(Measure(&args));
        println!(
            "{:<10} {:<20} {:>5} {:>6} {:<18} {:>9} {:>6.2} {:>7} {:>6.1} {:>7} {:>8}  {:<20} {:<20}",
            info.id,
            with_interval(random.first_mover_wins()),
            random.games.draws(),
            random.games.capped(),
            spread(&random.games.turns),
            percent(random.decision_share()),
            random.mean_legal_moves().unwrap_or(0.0),
            percent(random.pass_share()),
            random.lead_changes.mean().unwrap_or(0.0),
            percent(random.winner_behind_share()),
            percent(random.decided_at_mean()),
            with_interval(skill.a_wins(Some(Side::Black))),
            with_interval(skill.a_wins(Some(Side::White))),
        );
    }
    println!(
        "\nBlack moves first. choice: decisions with more than one legal move; legal: legal \
         moves per decision;\npasses: share of decisions passed; leads: lead changes per game \
         (pip count); behind: share of turn ends\nat which the eventual winner trailed on pips; \
         decided: when the winner took the lead for good, as a\nshare of the game. Definitions: \
         the documentation of senet::metrics."
    );
}
