//! Every player: legal moves only, explanations that cover every legal move, determinism,
//! the pruning that changes nothing, names, and bad input.

use std::sync::{Arc, OnceLock};

use proptest::prelude::*;
use rand_chacha::ChaCha8Rng;
use rand_core::SeedableRng;
use senet_ai::endgame::{Endgames, PositionOracle, SolveOptions};
use senet_ai::{
    Budget, Expectiminimax, Greedy, Mcts, Perfect, Player, PlayerError, PlayerSpec,
    PlayerSpecError, Pruning, RandomPlayer, ValueKind,
};
use senet_core::{DEFAULT_TURN_CAP, Game, Move, Phase, Ruleset, option_combinations};
use senet_regency::{Regency, RegencyState};
use senet_testkit::conformance::sample_states;
use senet_testkit::scenario::scenario;

fn tables() -> Arc<dyn PositionOracle<Regency>> {
    static TABLES: OnceLock<Arc<dyn PositionOracle<Regency>>> = OnceLock::new();
    Arc::clone(TABLES.get_or_init(|| {
        Regency::default()
            .solve_oracle(2, &SolveOptions::default())
            .unwrap()
    }))
}

/// One of each player (small budgets, so that the tests stay quick).
fn every_player(
    rules: &Regency,
    oracle: Option<Arc<dyn PositionOracle<Regency>>>,
) -> Vec<Box<dyn Player<Regency>>> {
    let mut players: Vec<Box<dyn Player<Regency>>> = vec![
        Box::new(RandomPlayer::new()),
        Box::new(Greedy::new()),
        Box::new(Expectiminimax::new(Budget::Depth(1))),
        Box::new(Expectiminimax::new(Budget::Depth(2))),
        Box::new(Expectiminimax::new(Budget::Nodes(300))),
        Box::new(Mcts::new(40)),
    ];
    if let Some(oracle) = oracle {
        players.push(Box::new(
            Perfect::with_default_fallback(rules, oracle).unwrap(),
        ));
    }
    players
}

fn decision_points(rules: &Regency, count: usize, seed: u64) -> Vec<RegencyState> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    sample_states(rules, &mut rng, count, DEFAULT_TURN_CAP, |p| {
        matches!(p, Phase::Move(_))
    })
}

/// The analysis lists exactly the legal moves, and the chosen move is one of them.
fn check_player(
    player: &mut dyn Player<Regency>,
    rules: &Regency,
    state: &RegencyState,
    rng: &mut ChaCha8Rng,
) -> Result<(), String> {
    let position = rules.position_string(state);
    let analysis = player
        .analyse(rules, state, rng)
        .map_err(|e| format!("{}: {position}: {e}", player.name()))?;
    let legal = rules.legal_moves(state);
    let listed: Vec<Move> = analysis.moves().iter().map(|m| m.mv).collect();
    if listed.as_slice() != legal.as_slice() {
        return Err(format!(
            "{}: {position}: lists {listed:?}, legal {legal:?}",
            player.name()
        ));
    }
    let mut next = *state;
    rules.try_play(&mut next, analysis.chosen()).map_err(|e| {
        format!(
            "{}: {position}: chose {}: {e}",
            player.name(),
            analysis.chosen()
        )
    })?;
    if analysis.moves().iter().any(|m| !m.value.is_finite()) {
        return Err(format!(
            "{}: {position}: a value is not finite",
            player.name()
        ));
    }
    Ok(())
}

#[test]
fn no_player_returns_an_illegal_move_on_positions_from_random_games() {
    let rules = Regency::default();
    let mut players = every_player(&rules, Some(tables()));
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    for state in decision_points(&rules, 300, 42) {
        for player in &mut players {
            check_player(player.as_mut(), &rules, &state, &mut rng).unwrap();
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    #[test]
    fn no_player_returns_an_illegal_move_under_any_options(
        seed in any::<u64>(),
        rules in proptest::sample::select(option_combinations::<Regency>().unwrap()),
    ) {
        // The endgame tables index one throw at a time, so collected throws have none.
        let oracle = (!rules.collect_throws())
            .then(|| rules.solve_oracle(1, &SolveOptions::default()).unwrap());
        let mut players = every_player(&rules, oracle);
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        for state in decision_points(&rules, 12, seed) {
            for player in &mut players {
                let checked = check_player(player.as_mut(), &rules, &state, &mut rng);
                prop_assert!(checked.is_ok(), "{}", checked.unwrap_err());
            }
        }
    }
}

#[test]
fn whole_games_between_players_end_by_the_rules() {
    let rules = Regency::default();
    let mut rng = ChaCha8Rng::seed_from_u64(8);
    let mut black = Expectiminimax::new(Budget::Depth(2));
    let mut white = Mcts::new(30);
    let mut game = Game::new(rules);
    while let Some(side) = game.phase().side() {
        if let Phase::Throw(_) = game.phase() {
            game.throw_random(&mut rng).unwrap();
            continue;
        }
        let player: &mut dyn Player<Regency> = match side {
            senet_core::Side::Black => &mut black,
            senet_core::Side::White => &mut white,
        };
        let mv = player.choose(&rules, game.state(), &mut rng).unwrap();
        game.play(mv).unwrap();
        assert!(game.turns() < DEFAULT_TURN_CAP);
    }
    assert!(game.outcome().unwrap().winner.is_some());
}

#[test]
fn players_refuse_states_that_are_not_decisions() {
    let rules = Regency::default();
    let start = rules.initial_state(); // waiting for a throw
    let over = rules
        .parse_position(&format!("B{} w", ".".repeat(29)))
        .unwrap(); // White has borne everything off
    let mut rng = ChaCha8Rng::seed_from_u64(0);
    for mut player in every_player(&rules, Some(tables())) {
        for state in [start, over] {
            let expected = rules.phase(&state);
            assert_eq!(
                player.analyse(&rules, &state, &mut rng),
                Err(PlayerError::NotADecision(expected)),
                "{}",
                player.name()
            );
        }
    }
}

#[test]
fn a_single_legal_move_is_returned_as_forced() {
    let rules = Regency::default();
    // R-S4: the throw is lost, the only move is a pass.
    let state = rules
        .parse_position(&scenario(&[12], &[14, 15], "throw=2"))
        .unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(0);
    for mut player in every_player(&rules, Some(tables())) {
        let analysis = player.analyse(&rules, &state, &mut rng).unwrap();
        assert_eq!(analysis.chosen(), Move::PASS, "{}", player.name());
        assert_eq!(analysis.kind(), ValueKind::Forced, "{}", player.name());
    }
}

#[test]
fn searching_players_are_deterministic_and_mcts_follows_its_seed() {
    let rules = Regency::default();
    for state in decision_points(&rules, 40, 5) {
        for mut player in [
            Box::new(Greedy::new()) as Box<dyn Player<Regency>>,
            Box::new(Expectiminimax::new(Budget::Depth(3))),
        ] {
            // The RNG is ignored: different seeds, same analysis.
            let a = player.analyse(&rules, &state, &mut ChaCha8Rng::seed_from_u64(1));
            let b = player.analyse(&rules, &state, &mut ChaCha8Rng::seed_from_u64(2));
            assert_eq!(a, b, "{}", player.name());
        }
        let mut mcts = Mcts::new(50);
        let a = mcts.analyse(&rules, &state, &mut ChaCha8Rng::seed_from_u64(3));
        let b = mcts.analyse(&rules, &state, &mut ChaCha8Rng::seed_from_u64(3));
        assert_eq!(a, b);
    }
}

#[test]
fn star1_and_star2_pruning_change_no_value() {
    let rules = Regency::default();
    let mut rng = ChaCha8Rng::seed_from_u64(0);
    for depth in 1..=3 {
        let mut plain = Expectiminimax::new(Budget::Depth(depth)).with_pruning(Pruning::None);
        let mut star1 = Expectiminimax::new(Budget::Depth(depth)).with_pruning(Pruning::Star1);
        let mut star2 = Expectiminimax::new(Budget::Depth(depth)).with_pruning(Pruning::Star2);
        let mut nodes = [0u64; 3];
        for state in decision_points(&rules, 150, u64::from(depth)) {
            let reference = plain.analyse(&rules, &state, &mut rng).unwrap();
            nodes[0] += plain.last_search().nodes;
            for (i, pruned) in [&mut star1, &mut star2].into_iter().enumerate() {
                let analysis = pruned.analyse(&rules, &state, &mut rng).unwrap();
                nodes[i + 1] += pruned.last_search().nodes;
                for (a, b) in reference.moves().iter().zip(analysis.moves()) {
                    assert!(
                        (a.value - b.value).abs() < 1e-12,
                        "depth {depth}, {}: {} vs {}",
                        rules.position_string(&state),
                        a.value,
                        b.value
                    );
                }
                assert_eq!(reference.chosen(), analysis.chosen());
            }
        }
        if depth == 3 {
            // Star1 (the default) must pay for itself where there is something to prune.
            assert!(nodes[1] < nodes[0], "{nodes:?}");
        }
    }
}

#[test]
fn choosing_finds_the_analysis_choice_with_fewer_nodes() {
    let rules = Regency::default();
    let mut rng = ChaCha8Rng::seed_from_u64(0);
    for depth in 1..=3 {
        for pruning in [Pruning::None, Pruning::Star1, Pruning::Star2] {
            let mut player = Expectiminimax::new(Budget::Depth(depth)).with_pruning(pruning);
            let mut nodes = [0u64; 2];
            for state in decision_points(&rules, 120, 10 + u64::from(depth)) {
                let analysis = player.analyse(&rules, &state, &mut rng).unwrap();
                nodes[0] += player.last_search().nodes;
                let chosen = player.choose(&rules, &state, &mut rng).unwrap();
                nodes[1] += player.last_search().nodes;
                assert_eq!(
                    chosen,
                    analysis.chosen(),
                    "depth {depth}, {pruning:?}, {}",
                    rules.position_string(&state)
                );
            }
            assert!(
                nodes[1] <= nodes[0],
                "depth {depth}, {pruning:?}: {nodes:?}"
            );
            if depth == 3 && pruning != Pruning::None {
                assert!(nodes[1] < nodes[0], "{pruning:?}: {nodes:?}");
            }
        }
    }
}

#[test]
fn a_node_budget_buys_depth() {
    let rules = Regency::default();
    let mut rng = ChaCha8Rng::seed_from_u64(0);
    let state = decision_points(&rules, 200, 9)
        .into_iter()
        .find(|s| rules.legal_moves(s).len() >= 3)
        .unwrap();
    let mut small = Expectiminimax::new(Budget::Nodes(1));
    small.analyse(&rules, &state, &mut rng).unwrap();
    assert_eq!(small.last_search().depth, 1, "depth 1 is always finished");
    let mut large = Expectiminimax::new(Budget::Nodes(200_000));
    let analysis = large.analyse(&rules, &state, &mut rng).unwrap();
    let reached = large.last_search().depth;
    assert!(reached >= 3, "reached depth {reached}");
    // The values are those of a plain search to the depth reached.
    let mut fixed = Expectiminimax::new(Budget::Depth(reached));
    assert_eq!(fixed.analyse(&rules, &state, &mut rng).unwrap(), analysis);
}

#[test]
fn greedy_prefers_bearing_off_and_safety() {
    let rules = Regency::default();
    let mut rng = ChaCha8Rng::seed_from_u64(0);
    let mut greedy = Greedy::new();
    // Black {22, 28}, White {24}: a 2 either bears off from 28 (R-13 holds) or swaps with 24,
    // which would leave Black's piece on 24 alone in front of White's on 22.
    let state = rules
        .parse_position(&scenario(&[22, 28], &[24], "throw=2"))
        .unwrap();
    assert_eq!(
        greedy.choose(&rules, &state, &mut rng).unwrap().to_string(),
        "28-off"
    );
    // Black {5, 6, 20}, White {3}: with a 1, 6→7 leaves 5 alone in front of White, 20→21 keeps
    // the pair; both advance one square.
    let state = rules
        .parse_position(&scenario(&[5, 6, 20], &[3], "throw=1"))
        .unwrap();
    assert_eq!(
        greedy.choose(&rules, &state, &mut rng).unwrap().to_string(),
        "20-21"
    );
}

#[test]
fn mcts_finds_the_move_that_wins_at_once() {
    let rules = Regency::default();
    // Black {25, 28} against White {2}: a 2 bears 28 off, or sends 25 onto 27 and back to the
    // start.
    let state = rules
        .parse_position(&scenario(&[25, 28], &[2], "throw=2"))
        .unwrap();
    let mut mcts = Mcts::new(400);
    let analysis = mcts
        .analyse(&rules, &state, &mut ChaCha8Rng::seed_from_u64(6))
        .unwrap();
    assert_eq!(analysis.chosen().to_string(), "28-off");
    assert_eq!(analysis.kind(), ValueKind::EstimatedWinProbability);
}

#[test]
fn players_are_built_by_name() {
    let rules = Regency::default();
    for (text, name) in [
        ("random", "random"),
        ("greedy", "greedy"),
        ("expectiminimax", "expectiminimax:2"),
        ("expectiminimax:3", "expectiminimax:3"),
        ("expectiminimax:nodes=5000", "expectiminimax:nodes=5000"),
        ("mcts", "mcts:1000"),
        (" mcts:64 ", "mcts:64"),
        ("perfect:1", "perfect:1"),
    ] {
        let spec: PlayerSpec = text.parse().unwrap();
        assert_eq!(spec.to_string(), name);
        let player = spec.build(&rules, Some(&rules)).unwrap();
        assert_eq!(player.name(), name);
    }
    let with_tables = "perfect"
        .parse::<PlayerSpec>()
        .unwrap()
        .build_with_tables(&rules, tables())
        .unwrap();
    assert_eq!(with_tables.name(), "perfect:2");
}

#[test]
fn bad_player_names_are_typed_errors() {
    let parse = |text: &str| text.parse::<PlayerSpec>().unwrap_err();
    assert!(
        matches!(parse("alphazero"), PlayerSpecError::UnknownPlayer(name) if name == "alphazero")
    );
    assert!(matches!(parse(""), PlayerSpecError::UnknownPlayer(_)));
    assert!(matches!(parse("Greedy"), PlayerSpecError::UnknownPlayer(_)));
    for zero in [
        "expectiminimax:0",
        "expectiminimax:nodes=0",
        "mcts:0",
        "perfect:0",
    ] {
        assert!(
            matches!(parse(zero), PlayerSpecError::ZeroBudget { .. }),
            "{zero}"
        );
    }
    for bad in [
        "mcts:many",
        "mcts:-3",
        "expectiminimax:nodes=",
        "random:3",
        "greedy:fast",
        "perfect:x",
    ] {
        assert!(
            matches!(parse(bad), PlayerSpecError::BadParameter { .. }),
            "{bad}"
        );
    }
    // Too many pieces for the tables: a typed error when building, not a panic.
    assert!(matches!(
        "perfect:7"
            .parse::<PlayerSpec>()
            .unwrap()
            .build(&Regency::default(), Some(&Regency::default())),
        Err(PlayerSpecError::Endgame(_))
    ));
    let message = parse("minimax").to_string();
    assert!(
        message.contains("minimax") && message.contains("expectiminimax"),
        "{message}"
    );
}
