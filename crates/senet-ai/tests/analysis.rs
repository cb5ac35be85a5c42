//! Game analysis: inside the endgame tables a perfect player loses nothing and every value is
//! the tables'; with exact values each side's result minus its starting chance is its luck
//! minus its loss (net of the opponent's); the labels follow the documented thresholds; bad
//! games and evaluators without winning chances are refused.

use std::sync::Arc;

use rand_chacha::ChaCha8Rng;
use rand_core::{Rng, SeedableRng};
use senet::ai::analysis::{
    Analyser, AnalysisError, GameAnalysis, Label, MAX_ANALYSED_ACTIONS, Step,
};
use senet::ai::endgame::{EXACT_BOUND, Endgames, PositionOracle, SolveOptions};
use senet::ai::{Perfect, Player, PlayerSpec};
use senet::{Action, Game, Move, Phase, Regency, Ruleset, Side, Throw};

fn stream(seed: u64, i: u64) -> ChaCha8Rng {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    rng.set_stream(i);
    rng
}

/// Regency's endgames with up to two pieces a side, solved once.
fn tables() -> Arc<dyn PositionOracle<Regency>> {
    static TABLES: std::sync::OnceLock<Arc<dyn PositionOracle<Regency>>> =
        std::sync::OnceLock::new();
    Arc::clone(TABLES.get_or_init(|| {
        Regency::default()
            .solve_oracle(2, &SolveOptions::default())
            .unwrap()
    }))
}

/// Black on 22 and 28, White on 24, Black to throw: inside the two-piece tables.
fn endgame_start(rules: &Regency) -> <Regency as Ruleset>::State {
    rules
        .parse_position(&format!("{}B.W...B.. b", ".".repeat(21)))
        .unwrap()
}

/// A game from `start` to its end, each move chosen by `choose`.
fn play(
    rules: &Regency,
    start: <Regency as Ruleset>::State,
    seed: u64,
    mut choose: impl FnMut(&Game<Regency>, &mut ChaCha8Rng) -> Move,
) -> Game<Regency> {
    let mut game = Game::from_state(*rules, start).unwrap();
    let mut rng = stream(seed, 0);
    while game.history().len() < 2000 {
        match game.phase() {
            Phase::Throw(_) => {
                game.throw_random(&mut rng).unwrap();
            }
            Phase::Move(_) => {
                let mv = choose(&game, &mut rng);
                game.play(mv).unwrap();
            }
            Phase::Over(_) => break,
        }
    }
    assert!(game.outcome().is_some(), "the endgame finished");
    game
}

fn analyse(game: &Game<Regency>, spec: &str) -> GameAnalysis {
    let spec: PlayerSpec = spec.parse().unwrap();
    let mut analyser = Analyser::new(game.rules(), &spec, Some(tables())).unwrap();
    analyser
        .analyse(game.start(), game.history(), &mut stream(0, 0))
        .unwrap()
}

#[test]
fn inside_the_tables_perfect_play_costs_nothing_and_every_value_is_exact() {
    let rules = Regency::default();
    assert!(tables().error_bound() <= EXACT_BOUND);
    for seed in 0..8 {
        let mut perfect = Perfect::with_default_fallback(&rules, tables()).unwrap();
        let game = play(&rules, endgame_start(&rules), seed, |game, rng| {
            perfect.choose(game.rules(), game.state(), rng).unwrap()
        });
        let analysis = analyse(&game, "perfect:2");
        assert!(analysis.finished);
        assert!(analysis.points.iter().all(|p| p.exact), "seed {seed}");
        for m in analysis.moves() {
            assert!(m.exact, "seed {seed}, action {}", m.action);
            assert_eq!(m.loss, 0.0, "seed {seed}, action {}", m.action);
            assert_eq!(m.label, None);
        }
        // The value before each throw is the tables' value of the position.
        let mut state = *game.start();
        for (i, &action) in game.history().iter().enumerate() {
            if let (Action::Throw(_), Phase::Throw(side)) = (action, rules.phase(&state)) {
                let Step::Throw(t) = &analysis.steps[i] else {
                    panic!("action {i} is a throw")
                };
                assert_eq!(t.side, side);
                assert_eq!(Some(t.expected), tables().throw_value(&state));
            }
            match action {
                Action::Throw(v) => rules.throw_unchecked(&mut state, v),
                Action::Move(m) => rules.play_unchecked(&mut state, m),
            }
        }
        for side in [Side::Black, Side::White] {
            assert_eq!(analysis.sides[side].total_loss, 0.0);
            assert_eq!(analysis.sides[side].error_rate, 0.0);
        }
    }
}

#[test]
fn with_exact_values_the_result_is_the_start_plus_luck_minus_loss() {
    let rules = Regency::default();
    let mut losses = 0.0;
    for seed in 0..12 {
        // Random moves, so that both sides lose winning chance.
        let game = play(&rules, endgame_start(&rules), 100 + seed, |game, rng| {
            let moves = game.legal_moves();
            moves[rng.next_u32() as usize % moves.len()]
        });
        let analysis = analyse(&game, "perfect:2");
        assert!(analysis.points.iter().all(|p| p.exact));
        let [black, white] = [Side::Black, Side::White].map(|s| &analysis.sides[s]);
        for (me, them) in [(black, white), (white, black)] {
            let explained = me.luck - them.luck - me.total_loss + them.total_loss;
            let difference = (me.result - me.start) - explained;
            assert!(
                difference.abs() < 1e-12,
                "seed {seed}: result {} − start {} = {} but luck and loss give {explained}",
                me.result,
                me.start,
                me.result - me.start
            );
            // The luck-adjusted result is the start moved by the losses alone.
            let adjusted = me.start - me.total_loss + them.total_loss;
            assert!((me.luck_adjusted - adjusted).abs() < 1e-12, "seed {seed}");
        }
        losses += black.total_loss + white.total_loss;
        // Every point's luck and loss are what its values say.
        for step in &analysis.steps {
            match step {
                Step::Throw(t) => assert_eq!(t.luck, t.value - t.expected),
                Step::Move(m) => {
                    assert!(m.loss >= 0.0);
                    assert_eq!(m.loss, m.best_value - m.played_value);
                    assert_eq!(m.moves[0].value, m.best_value);
                }
            }
        }
    }
    assert!(losses > 0.1, "random moves cost winning chance: {losses}");
}

#[test]
fn labels_follow_the_thresholds_and_forced_moves_are_not_charged() {
    let rules = Regency::default();
    let game = play(&rules, endgame_start(&rules), 7, |game, _| {
        game.legal_moves()[0]
    });
    let analysis = analyse(&game, "perfect:2");
    let mut seen = 0;
    for m in analysis.moves() {
        if m.forced {
            assert_eq!((m.loss, m.label, m.moves.len()), (0.0, None, 1));
        } else {
            seen += 1;
            assert_eq!(m.label, Label::of_loss(m.loss));
        }
    }
    let counted: u32 = [Side::Black, Side::White]
        .iter()
        .map(|&s| analysis.sides[s].decisions + analysis.sides[s].forced)
        .sum();
    assert_eq!(counted as usize, analysis.moves().len());
    assert!(seen > 0);
    assert_eq!(Label::of_loss(0.0199), None);
    assert_eq!(Label::of_loss(0.04), Some(Label::Mistake));
    assert_eq!(Label::of_loss(0.08), Some(Label::Blunder));
}

#[test]
fn a_whole_game_is_analysed_by_the_default_evaluator_the_same_way_twice() {
    let rules = Regency::default();
    let mut game = Game::new(rules);
    game.play_random(&mut stream(3, 0), 10_000);
    let spec: PlayerSpec = "learned:1".parse().unwrap();
    let run = || {
        Analyser::new(&rules, &spec, Some(tables()))
            .unwrap()
            .analyse(game.start(), game.history(), &mut stream(0, 0))
            .unwrap()
    };
    let analysis = run();
    assert_eq!(analysis, run());
    assert_eq!(analysis.points.len(), game.history().len() + 1);
    assert!(analysis.finished);
    assert!(
        analysis
            .points
            .iter()
            .all(|p| (0.0..=1.0).contains(&p.black))
    );
    // The tables take over near the end of the game, and not at its start.
    assert!(!analysis.points[0].exact);
    assert!(analysis.points.last().unwrap().exact);
    assert!(analysis.summary().contains("Black: "));
}

#[test]
fn evaluators_without_winning_chances_and_bad_games_are_refused() {
    let rules = Regency::default();
    for spec in ["random", "greedy"] {
        let spec: PlayerSpec = spec.parse().unwrap();
        let error = Analyser::new(&rules, &spec, None).err().unwrap();
        assert!(matches!(error, AnalysisError::NoWinningChances(_)));
        assert!(error.to_string().contains("learned"), "{error}");
    }
    let perfect: PlayerSpec = "perfect:2".parse().unwrap();
    assert!(matches!(
        Analyser::new(&rules, &perfect, None).err().unwrap(),
        AnalysisError::NoTables(_)
    ));
    let other = Regency::default().with_collect_throws(true);
    assert!(matches!(
        Analyser::new(&other, &perfect, Some(tables()))
            .err()
            .unwrap(),
        AnalysisError::TablesMismatch { .. }
    ));
    let spec: PlayerSpec = "expectiminimax:1".parse().unwrap();
    let mut analyser = Analyser::new(&rules, &spec, None).unwrap();
    let start = rules.initial_state();
    let mut rng = stream(0, 0);
    // A move where a throw is due, and a throw the sticks cannot give.
    let bad_move = [Action::Move("9-12".parse().unwrap())];
    let error = analyser.analyse(&start, &bad_move, &mut rng).unwrap_err();
    assert!(
        matches!(error, AnalysisError::Illegal { index: 0, .. }),
        "{error}"
    );
    let bad_throw = [Action::Throw(Throw::at(9))];
    assert!(analyser.analyse(&start, &bad_throw, &mut rng).is_err());
    let too_long = vec![Action::Throw(Throw::at(1)); MAX_ANALYSED_ACTIONS + 1];
    assert!(matches!(
        analyser.analyse(&start, &too_long, &mut rng).unwrap_err(),
        AnalysisError::TooLong(_)
    ));
}
