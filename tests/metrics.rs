//! The metric definitions of `senet::metrics` on hand-made game histories with known
//! answers, and on seeded random games of every registered ruleset: measuring a game while it
//! is played and replaying its history give the same figures, the winner always leads at the
//! end, and summaries do not depend on the number of threads.

use rand_chacha::ChaCha8Rng;
use rand_core::SeedableRng;
use rayon::prelude::*;
use senet::metrics::{
    GameMetrics, GameTracker, MetricsSummary, measure_game, measure_history, measure_random_games,
    pip_count, pip_counts, play_measured, uniform_move,
};
use senet::registry::{AnyRuleset, RULESETS, Registered, RulesetVisitor};
use senet::{
    Action, AnyGame, Bell, Game, MoveList, Outcome, PerSide, Piccione, PlayoutEnd, Regency,
    Ruleset, Side, random_playout,
};
use senet::{Coverage, option_specs};

/// A board of the position notation with Black and White on the given squares.
fn board(black: &[u8], white: &[u8]) -> String {
    (1..=30u8)
        .map(|sq| {
            if black.contains(&sq) {
                'B'
            } else if white.contains(&sq) {
                'W'
            } else {
                '.'
            }
        })
        .collect()
}

fn actions(text: &[&str]) -> Vec<Action> {
    text.iter().map(|a| a.parse().unwrap()).collect()
}

fn game_rng(index: u64) -> ChaCha8Rng {
    let mut rng = ChaCha8Rng::seed_from_u64(11);
    rng.set_stream(index);
    rng
}

// ------------------------------------------------------------------ pip counts

struct StartPips;
impl RulesetVisitor for StartPips {
    type Output = PerSide<u32>;
    fn visit<R: Registered>(self, rules: &R) -> PerSide<u32> {
        pip_counts(rules, &rules.initial_state())
    }
}

/// Pips of a start position from its notation alone: 31 − s for a piece on square s, 31 for
/// each piece not on the board (in hand; nothing is borne off at the start).
fn pips_from_notation(position: &str, pieces_per_side: u8) -> PerSide<u32> {
    let board = position.split(' ').next().unwrap();
    PerSide::from([b'B', b'W'].map(|letter| {
        let squares: Vec<u32> = (1..)
            .zip(board.bytes())
            .filter(|&(_, b)| b == letter)
            .map(|(s, _)| s)
            .collect();
        let off_board = u32::from(pieces_per_side) - squares.len() as u32;
        squares.iter().map(|s| 31 - s).sum::<u32>() + 31 * off_board
    }))
}

#[test]
fn pip_counts_of_every_initial_position() {
    // [Black, White], worked out by hand: 31 − s per piece on s, 31 per piece in hand.
    let by_hand = [
        // 2, 4, 6, 8, 11 (after the forced 10→11) against 1, 3, 5, 7, 9.
        ("regency", [124, 130]),
        ("botermans", [124, 130]),
        ("jequier", [124, 130]),
        // Seven pieces, no forced move: 2 … 14 against 1 … 13.
        ("cemea", [161, 168]),
        // Seven pieces after the forced 14→15.
        ("kendall", [160, 168]),
        // Ten pieces: 2 … 20 against 1 … 19.
        ("bell", [200, 210]),
        // Five pieces in hand each.
        ("piccione", [155, 155]),
    ];
    for (id, pips) in by_hand {
        assert_eq!(
            AnyRuleset::parse(id).unwrap().visit(StartPips),
            PerSide::from(pips),
            "{id}"
        );
    }
    // Every registered ruleset, against its start position's notation.
    for info in RULESETS {
        let rules = AnyRuleset::parse(info.id).unwrap();
        let start = AnyGame::new(rules.clone()).position();
        assert_eq!(
            rules.visit(StartPips),
            pips_from_notation(&start, rules.pieces_per_side()),
            "{}: {start}",
            info.id
        );
    }
    // Options that change the layout.
    for (spec, pips) in [
        ("kendall(pieces=5)", [124, 130]),
        ("cemea(pieces=5)", [125, 130]),
    ] {
        assert_eq!(
            AnyRuleset::parse(spec).unwrap().visit(StartPips),
            PerSide::from(pips),
            "{spec}"
        );
    }
}

#[test]
fn captured_pieces_count_as_far_from_home_as_a_piece_can_be() {
    let rules = Bell::default();
    // Black: one piece on 30 and one captured (8 off); White: one on 29 (9 off).
    let state = rules
        .parse_position(&format!("{} b captured_b=1", board(&[30], &[29])))
        .unwrap();
    assert_eq!(pip_count(&rules, &state, Side::Black), 1 + 31);
    assert_eq!(pip_count(&rules, &state, Side::White), 2);
}

#[test]
fn pieces_in_hand_count_31_and_pieces_off_nothing() {
    let rules = Piccione;
    // Black: 3 in hand, one on 28, one off; White: 5 in hand.
    let state = rules
        .parse_position(&format!("{} b hand=3,5", board(&[28], &[])))
        .unwrap();
    assert_eq!(pip_counts(&rules, &state), PerSide::new(3 * 31 + 3, 5 * 31));
}

// ------------------------------------------------------------- a hand-made game

/// A Regency endgame, worked out by hand (R-6 extra throws, R-7/I-4 a lost throw ends the
/// turn, R-10 swaps, R-13/R-14 bearing off on exactly 30). Pips after each turn, [B, W]:
///
/// | turn | side  | actions                                   | pips     | leader |
/// |------|-------|-------------------------------------------|----------|--------|
/// | start|       | B 21, 24; W 22, 29                        | 17, 11   | White  |
/// | 1    | Black | 6: 24-off (of 2 moves); 1: 21-22 swaps; 2: 22-24 | 7, 12 | Black |
/// | 2    | White | 3: 21-24 swaps                            | 10, 9    | White  |
/// | 3    | Black | 3: 21-24 swaps                            | 7, 12    | Black  |
/// | 4    | White | 1: 29-off (of 2 moves); 2: 21-23          | 7, 8     | Black  |
/// | 5    | Black | 4: 24-28; 4: pass                         | 3, 8     | Black  |
/// | 6    | White | 6: 23-29; 1: 29-off, White wins           | 3, 0     | White  |
fn comeback_game() -> (Regency, <Regency as Ruleset>::State, Vec<Action>) {
    let rules = Regency::default();
    let start = rules
        .parse_position(&format!("{} b", board(&[21, 24], &[22, 29])))
        .unwrap();
    let history = actions(&[
        "throw 6",
        "move 24-off",
        "throw 1",
        "move 21-22",
        "throw 2",
        "move 22-24", // 1
        "throw 3",
        "move 21-24", // 2
        "throw 3",
        "move 21-24", // 3
        "throw 1",
        "move 29-off",
        "throw 2",
        "move 21-23", // 4
        "throw 4",
        "move 24-28",
        "throw 4",
        "move pass", // 5
        "throw 6",
        "move 23-29",
        "throw 1",
        "move 29-off", // 6
    ]);
    (rules, start, history)
}

#[test]
fn a_hand_made_comeback_game_has_the_figures_worked_out_by_hand() {
    let (rules, start, history) = comeback_game();
    let game = measure_history(&rules, start, &history).unwrap();
    assert_eq!(game.winner(), Some(Side::White));
    assert_eq!(game.turns, 6);
    assert_eq!(game.turn_ends, 6);
    assert_eq!(game.decisions, 11);
    // A choice only at the first decision of turns 1 and 4.
    assert_eq!(game.decisions_with_choice, 2);
    // 2+1+1, 1, 1, 2+1, 1+1, 1+1.
    assert_eq!(game.legal_moves, 13);
    assert_eq!(game.passes, 1);
    // White, Black, White, Black, Black, Black, White.
    assert_eq!(game.lead_changes, 4);
    // White trailed after turns 1 (by 5), 3 (5), 4 (1) and 5 (5).
    assert_eq!((game.winner_behind, game.winner_deficit), (4, 16));
    // White took the lead for good only with the last turn.
    assert_eq!(game.decided_at, Some(6));
    assert_eq!(game.decided_at_permille(), Some(1000));

    let mut summary = MetricsSummary::default();
    summary.add(&game);
    assert_eq!(summary.decision_share(), Some(2.0 / 11.0));
    assert_eq!(summary.mean_legal_moves(), Some(13.0 / 11.0));
    assert_eq!(summary.lead_changes_per_100_turns(), Some(400.0 / 6.0));
    assert_eq!(summary.winner_behind_share(), Some(4.0 / 6.0));
    assert_eq!(summary.winner_mean_deficit(), Some(4.0));
    assert_eq!(summary.first_mover_wins().value(), Some(0.0));
}

/// A game of `turns` turns in which Black leads from the start and wins.
fn black_wins_in(turns: u32) -> GameMetrics {
    let mut tracker = GameTracker::new(PerSide::new(100, 110));
    for _ in 0..turns {
        tracker.turn_end(PerSide::new(50, 110));
    }
    let end = PlayoutEnd::Finished(Outcome {
        winner: Some(Side::Black),
        points: PerSide::new(1, 0),
    });
    tracker.finish(end, turns)
}

#[test]
fn length_percentiles_are_the_smallest_lengths_that_enough_games_do_not_exceed() {
    // Ten games; sorted: 2 3 4 5 6 7 8 9 10 12.
    let mut summary = MetricsSummary::default();
    for turns in [6, 4, 3, 8, 5, 12, 7, 2, 9, 10] {
        summary.add(&black_wins_in(turns));
    }
    let turns = &summary.games.turns;
    // The q-th percentile is the value of rank ceil(q·n): ranks 1, 5, 9 and 10 of 10.
    assert_eq!(turns.quantile(0.1), Some(2));
    assert_eq!(turns.median(), Some(6));
    assert_eq!(turns.quantile(0.9), Some(10));
    assert_eq!(turns.max(), Some(12));
    assert_eq!(turns.mean(), Some(6.6));
    // No decision was noted in these games: their lengths in decisions are all 0.
    assert_eq!(summary.games.decisions.quantile(0.9), Some(0));

    // Seven games, 1 … 7: ranks ceil(0.7) = 1, ceil(3.5) = 4 and ceil(6.3) = 7.
    let mut summary = MetricsSummary::default();
    for turns in (1..=7).rev() {
        summary.add(&black_wins_in(turns));
    }
    let turns = &summary.games.turns;
    assert_eq!(
        (turns.quantile(0.1), turns.median(), turns.quantile(0.9)),
        (Some(1), Some(4), Some(7))
    );
    // Buckets of 3 turns: 0–2 holds 1 and 2, 3–5 holds 3, 4, 5, 6–8 holds 6 and 7.
    assert_eq!(turns.histogram(3), vec![(0, 2), (3, 3), (6, 2)]);
}

#[test]
fn a_history_cut_short_counts_as_stopped_and_a_bad_one_names_its_action() {
    let (rules, start, history) = comeback_game();
    // Stopped after turn 3 (the throw of turn 4 starts it).
    let cut = measure_history(&rules, start, &history[..11]).unwrap();
    assert_eq!(cut.end, PlayoutEnd::TurnCap);
    assert_eq!((cut.turns, cut.turn_ends, cut.lead_changes), (4, 3, 3));
    assert_eq!(cut.decided_at, None);

    let mut bad = history.clone();
    bad[3] = "move 21-23".parse().unwrap();
    let error = measure_history(&rules, start, &bad)
        .unwrap_err()
        .to_string();
    assert!(error.contains("action 4 (move 21-23)"), "{error}");
    let error = measure_history(&rules, start, &history[1..])
        .unwrap_err()
        .to_string();
    assert!(error.contains("action 1"), "{error}");
    let mut too_long = history.clone();
    too_long.push("throw 1".parse().unwrap());
    assert!(measure_history(&rules, start, &too_long).is_err());
}

// --------------------------------------------------- every ruleset, random games

struct SameGames {
    turn_cap: u32,
}

impl RulesetVisitor for SameGames {
    /// Games that finished and games stopped by the cap.
    type Output = (u32, u32);
    fn visit<R: Registered>(self, rules: &R) -> (u32, u32) {
        let mut moves = MoveList::new();
        let (mut finished, mut capped) = (0, 0);
        for index in 0..60 {
            // While it is played.
            let measured = play_measured(
                rules,
                rules.initial_state(),
                &mut game_rng(index),
                &mut moves,
                self.turn_cap,
                |_, _, moves, rng| uniform_move(moves, rng),
            );
            // The library's random playout on the same stream plays the same game.
            let mut state = rules.initial_state();
            let playout = random_playout(
                rules,
                &mut state,
                &mut game_rng(index),
                &mut moves,
                self.turn_cap,
            );
            assert_eq!(
                (measured.end, measured.turns, measured.decisions),
                (playout.end, playout.turns, playout.decisions),
                "{} game {index}",
                rules.spec()
            );
            // Replaying the recorded game gives the same figures.
            let mut game = Game::new(rules.clone());
            game.play_random(&mut game_rng(index), self.turn_cap);
            let replayed = measure_game(&game).unwrap();
            assert_eq!(replayed, measured, "{} game {index}", rules.spec());
            check_invariants(rules, &game, &measured);
            if measured.finished() {
                finished += 1;
            } else {
                capped += 1;
            }
        }
        (finished, capped)
    }
}

fn check_invariants<R: Ruleset>(rules: &R, game: &Game<R>, m: &GameMetrics) {
    let spec = rules.spec();
    assert!(m.decisions_with_choice <= m.decisions && m.passes <= m.decisions);
    assert!(m.legal_moves >= u64::from(m.decisions));
    assert!(m.lead_changes <= m.turn_ends);
    if let PlayoutEnd::Finished(outcome) = m.end {
        assert_eq!(m.turn_ends, m.turns, "{spec}");
        let pips = pip_counts(rules, game.state());
        match outcome.winner {
            // The winner ends ahead on pips in every ruleset, except that both sides end
            // with nothing left in CEMEA's ancient mode (the winner finished first).
            Some(w) => {
                assert!(
                    pips[w] < pips[!w] || pips == PerSide::both(0),
                    "{spec}: {pips:?}"
                );
                let decided = m.decided_at.expect("the winner leads at the end");
                assert!(decided <= m.turn_ends);
                assert!(m.winner_behind <= m.turn_ends);
            }
            // Bell's draws end level.
            None => assert_eq!(pips[Side::Black], pips[Side::White], "{spec}"),
        }
    } else {
        assert_eq!(m.turn_ends + 1, m.turns, "{spec}");
    }
}

#[test]
fn measuring_while_playing_and_replaying_agree_on_every_ruleset_and_option() {
    let mut capped = 0;
    for info in RULESETS {
        // The defaults come first, then each other option value alone.
        let specs = option_specs(info.id, info.options, Coverage::EachAlone);
        let (finished, _) = AnyRuleset::from_spec(&specs[0])
            .unwrap()
            .visit(SameGames { turn_cap: 10_000 });
        assert!(finished > 0, "{}: no game finished", info.id);
        for spec in &specs[1..] {
            // A small cap also gives games stopped by it.
            capped += AnyRuleset::from_spec(spec)
                .unwrap()
                .visit(SameGames { turn_cap: 400 })
                .1;
        }
    }
    assert!(capped > 0, "no game was stopped by the cap");
}

// ------------------------------------------------------ thread-count independence

struct Summarise {
    games: u64,
}

impl RulesetVisitor for Summarise {
    type Output = MetricsSummary;
    fn visit<R: Registered>(self, rules: &R) -> MetricsSummary {
        // Ten games a rayon task: which thread plays which, and the order of the merges, change
        // with the thread count; the sum must not.
        (0..self.games.div_ceil(10))
            .into_par_iter()
            .map(|chunk| {
                let games = chunk * 10..self.games.min(chunk * 10 + 10);
                measure_random_games(rules, games, 2_000, game_rng)
            })
            .sum::<MetricsSummary>()
    }
}

#[test]
fn summaries_of_parallel_games_do_not_depend_on_the_number_of_threads() {
    for info in RULESETS {
        let rules = AnyRuleset::parse(info.id).unwrap();
        let summaries: Vec<MetricsSummary> = [1, 2, 5]
            .into_iter()
            .map(|threads| {
                let pool = rayon::ThreadPoolBuilder::new()
                    .num_threads(threads)
                    .build()
                    .unwrap();
                pool.install(|| rules.visit(Summarise { games: 200 }))
            })
            .collect();
        assert_eq!(summaries[0].games.games(), 200);
        assert_eq!(summaries[0], summaries[1], "{}", info.id);
        assert_eq!(summaries[0], summaries[2], "{}", info.id);
    }
}
