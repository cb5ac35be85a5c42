//! The parts of the report that strong play adds, which `report::markdown` writes in their
//! places: the configurations the ladder's `learned` players were left out of, the strongest
//! player against itself (how it was made, its section and the seat it favours), the
//! strongest player against the next, and the definition of `learned`.

use std::fmt::{self, Write as _};

use senet::Side;
use senet::metrics::Proportion;
use senet::registry::AnyRuleset;
use senet_ai::PlayerSpec;

use super::report::{favoured, favoured_slot, list, or_dash, spread};
use super::{Comparison, SelfPlayResult, percent, with_interval};

/// `learned:2`, or `learned:1` and `learned:2`: the ladder's learned players.
fn learned_players(c: &Comparison) -> Option<String> {
    let names: Vec<String> = c
        .ladder
        .iter()
        .filter(|p| matches!(p, PlayerSpec::Learned(_)))
        .map(|p| format!("`{p}`"))
        .collect();
    match names.split_last() {
        None => None,
        Some((last, [])) => Some(last.clone()),
        Some((last, rest)) => Some(format!("{} and {last}", rest.join(", "))),
    }
}

/// The sentence that ends the skill trace's bullet of "How it was made": where the learned
/// players were left out, if anywhere.
pub(super) fn left_out(out: &mut String, c: &Comparison) -> fmt::Result {
    let (Some(players), false) = (learned_players(c), c.without_weights.is_empty()) else {
        return Ok(());
    };
    write!(
        out,
        " {players} {} left out of the trace on the configurations no weights come with \
         senet for: {}.",
        if players.contains(" and ") {
            "are"
        } else {
            "is"
        },
        c.without_weights
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join(", ")
    )
}

/// The bullet of "How it was made" on the strongest player against itself, if it played.
pub(super) fn how_it_was_made(out: &mut String, c: &Comparison) -> fmt::Result {
    let Some(first) = c.self_play.first() else {
        return Ok(());
    };
    writeln!(
        out,
        "- **Strong against strong**: on each configuration of the trace where the \
         strongest player of the ladder is `{}`, it plays itself {} games, with an \
         instance of its own on each side. Game *k* draws every throw and random choice \
         from ChaCha8 stream 2<sup>63</sup> + *k* of the seed, a range no other game here \
         uses, so these are not the games of a pair.",
        first.player,
        first.summary.games(None)
    )
}

/// Black's share of the decided games of random play on the configuration of `s`.
fn random_play(c: &Comparison, s: &SelfPlayResult) -> Option<Proportion> {
    c.random
        .iter()
        .find(|r| r.rules == s.rules)
        .map(|r| r.summary.first_mover_wins())
}

/// The section "Strong against strong", if the strongest player played itself: its table
/// next to random play's figures, for the seat's edge with the players' skill taken out.
pub(super) fn section(out: &mut String, c: &Comparison) -> fmt::Result {
    let Some(first) = c.self_play.first() else {
        return Ok(());
    };
    writeln!(out, "## Strong against strong")?;
    writeln!(out)?;
    writeln!(
        out,
        "`{}`, the strongest player of the ladder, against itself: Black's (the first \
         mover's) share of the decided games, next to the same share under random play \
         (from the tables of random play). With the same player on both sides, a share \
         away from one half is the seat's edge under strong play; where random play gives \
         another figure, the difference comes from the weak players, not from the rules.",
        first.player
    )?;
    writeln!(out)?;
    writeln!(
        out,
        "| configuration | player | games | Black (first mover) wins, share of decided \
         games | draws | stopped by the cap | turns: median (10th–90th pct.) | random \
         play: Black wins, share of decided games |"
    )?;
    writeln!(out, "|---|---|---|---|---|---|---|---|")?;
    for s in &c.self_play {
        writeln!(
            out,
            "| {} | {} | {} | {} | {} | {} | {} | {} |",
            s.rules,
            s.player,
            s.summary.games(None),
            with_interval(s.black_wins()),
            s.summary.draws(None),
            s.summary.capped(None),
            spread(&s.turns),
            or_dash(random_play(c, s), with_interval),
        )?;
    }
    writeln!(out)
}

/// The verdict of a share of Black's wins.
fn verdict(side: Option<Side>) -> &'static str {
    match side {
        Some(Side::Black) => "Black clearly ahead",
        Some(Side::White) => "White clearly ahead",
        None => "no clear difference",
    }
}

/// Whether two shares clearly differ: their intervals are disjoint.
fn disjoint(a: Proportion, b: Proportion) -> bool {
    let ((a_low, a_high), (b_low, b_high)) = (a.interval(), b.interval());
    a.value().is_some() && b.value().is_some() && (a_high < b_low || b_high < a_low)
}

/// The last lines of the findings: the strongest player against the next on each
/// configuration of the trace, and the seat under strong play.
pub(super) fn findings(out: &mut String, c: &Comparison) -> fmt::Result {
    let rank = |p: &PlayerSpec| c.ladder.iter().position(|q| q == p);
    let mut configs: Vec<&AnyRuleset> = Vec::new();
    for s in &c.skill {
        if !configs.contains(&&s.rules) {
            configs.push(&s.rules);
        }
    }
    let top_pairs: Vec<String> = configs
        .iter()
        .filter_map(|rules| {
            let s = c
                .skill
                .iter()
                .filter(|s| s.rules == **rules)
                .max_by_key(|s| (rank(&s.stronger), rank(&s.weaker)))?;
            Some(format!(
                "{rules}: {} over {} {}",
                s.stronger,
                s.weaker,
                with_interval(s.summary.a_wins(None))
            ))
        })
        .collect();
    if !top_pairs.is_empty() {
        writeln!(
            out,
            "- **The strongest against the next.** On each configuration of the skill \
             trace, the share of the games the strongest player wins against the next \
             strongest, over both seats: {}.",
            list(&top_pairs)
        )?;
    }
    let Some(first) = c.self_play.first() else {
        return Ok(());
    };
    let mut by_side: [Vec<String>; 3] = Default::default();
    let mut changed = Vec::new();
    let mut moved = Vec::new();
    for s in &c.self_play {
        let strong = s.black_wins();
        by_side[favoured_slot(strong)].push(format!("{} {}", s.rules, with_interval(strong)));
        let Some(random) = random_play(c, s) else {
            continue;
        };
        if favoured(random) != favoured(strong) {
            changed.push(format!(
                "{} (random play: {}; strong play: {})",
                s.rules,
                verdict(favoured(random)),
                verdict(favoured(strong)),
            ));
        }
        if disjoint(random, strong) {
            moved.push(format!(
                "{} {} under strong play, {} under random play",
                s.rules,
                or_dash(strong.value(), percent),
                or_dash(random.value(), percent)
            ));
        }
    }
    writeln!(
        out,
        "- **The seat under strong play** (`{}` against itself). Black clearly wins more of \
         the decided games in: {}. White clearly wins more in: {}. No clear difference in: \
         {}. The verdict differs from random play's in: {}. Black's share clearly differs \
         from random play's (disjoint intervals) in: {}.",
        first.player,
        list(&by_side[0]),
        list(&by_side[1]),
        list(&by_side[2]),
        list(&changed),
        list(&moved)
    )
}

/// The learned player's definition, in the players' bullet before the ladder is named, if
/// the ladder has one.
pub(super) fn definition(out: &mut String, c: &Comparison) -> fmt::Result {
    if learned_players(c).is_none() {
        return Ok(());
    }
    let committed: Vec<String> = senet_ai::learned::committed_rulesets()
        .map(|spec| format!("`{spec}`"))
        .collect();
    write!(
        out,
        " `learned:D` searches like `expectiminimax:D` but scores positions with a value \
         network trained by self-play (`senet train`); weights come with senet for {}, and \
         the skill trace leaves it out of other configurations.",
        if committed.is_empty() {
            "no configuration".to_string()
        } else {
            committed.join(", ")
        }
    )
}
