//! The endgames of Kendall's ruleset with immediate throws: the space covers every position
//! play reaches (the solver checks it), the values satisfy the Bellman equation recomputed
//! from the turn machine, agree with expectiminimax, and remember the piece that must move
//! (K-15); configurations the space does not support are typed errors.

use std::sync::{Arc, OnceLock};

use rand_chacha::ChaCha8Rng;
use rand_core::SeedableRng;
use senet_ai::endgame::{
    EndgameError, EndgameSpace, EndgameTable, KendallEndgame, PolicySteps, PositionOracle,
    SolveOptions, ValueEncoding, read_for, solve, solve_for, supports_endgame,
};
use senet_ai::{
    Budget, Evaluator, Expectiminimax, OracleEvaluator, Perfect, Player, PlayerSpec,
    PlayerSpecError, RaceEvaluator, ValueKind,
};
use senet_core::{Phase, Ruleset, Side, ThrowingDevice, uniform_below};
use senet_kendall::{Kendall, KendallState, PieceCount, ThrowTiming};
use senet_testkit::conformance::with_each_throw;
use senet_testkit::scenario::scenario;

const TOLERANCE: f64 = 1e-9;

fn immediate() -> Kendall {
    Kendall::default().with_throw_timing(ThrowTiming::Immediate)
}

fn solved(rules: Kendall, pieces: u8) -> EndgameTable<KendallEndgame> {
    solve(
        KendallEndgame::new(rules, pieces).unwrap(),
        &SolveOptions::default(),
    )
    .unwrap()
}

/// The default endgames with one piece a side, solved once for all tests.
fn one_piece() -> &'static EndgameTable<KendallEndgame> {
    static TABLE: OnceLock<EndgameTable<KendallEndgame>> = OnceLock::new();
    TABLE.get_or_init(|| solved(immediate(), 1))
}

/// The default endgames with up to two pieces a side, solved once for all tests.
fn two_pieces() -> &'static EndgameTable<KendallEndgame> {
    static TABLE: OnceLock<EndgameTable<KendallEndgame>> = OnceLock::new();
    TABLE.get_or_init(|| solved(immediate(), 2))
}

/// Black to act on `me`, White on `opp` (every other piece off), with position `fields`.
fn position(me: &[u8], opp: &[u8], fields: &str) -> KendallState {
    immediate()
        .parse_position(&scenario(me, opp, fields))
        .unwrap()
}

/// Decision points of the space: a random position waiting for a throw, then a throw drawn
/// from the sticks, kept when it leaves more than one move.
fn decisions(table: &EndgameTable<KendallEndgame>, count: usize, seed: u64) -> Vec<KendallState> {
    let space = table.space();
    let rules = space.rules();
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut out = Vec::new();
    for _ in 0..count * 200 {
        if out.len() == count {
            break;
        }
        let index = uniform_below(&mut rng, space.state_count() as u32) as usize;
        let mut state = space.state(index).unwrap();
        rules.throw_unchecked(&mut state, rules.device().sample(&mut rng));
        if rules.legal_moves(&state).len() > 1 {
            out.push(state);
        }
    }
    assert_eq!(out.len(), count, "too few decisions with a choice");
    out
}

#[test]
fn solved_values_satisfy_the_bellman_equation_recomputed_from_the_turn_machine() {
    for table in [one_piece(), two_pieces()] {
        assert!(table.stats().residual <= TOLERANCE);
        // Independent of the solver's compiled programs: every throw and move replayed, the
        // positions passed through (K-15, the piece that must move is the mover's) computed
        // from their throws by the table.
        let residual = table.bellman_residual().unwrap();
        assert!(residual <= TOLERANCE, "residual {residual:e}");
        assert!(table.values().iter().all(|v| (0.0..=1.0).contains(v)));
    }
    assert_eq!(two_pieces().stats().states, 485_956);
}

#[test]
fn the_solved_values_do_not_depend_on_the_number_of_threads() {
    // Two pieces a side: many chunks of work, so the threads really share them. The shared
    // table was solved on one thread per core; 3 threads split the work differently unless
    // the machine has exactly 3 cores.
    let options = SolveOptions {
        threads: 3,
        ..SolveOptions::default()
    };
    let table = solve(KendallEndgame::new(immediate(), 2).unwrap(), &options).unwrap();
    assert_eq!(table.values(), two_pieces().values());
}

#[test]
fn policy_steps_agree_with_plain_sweeps_and_need_fewer() {
    // One piece a side already has slow cycles (a piece waiting for a 4 in the water).
    let plain = solve(
        KendallEndgame::new(immediate(), 1).unwrap(),
        &SolveOptions {
            policy_steps: PolicySteps::Never,
            ..SolveOptions::default()
        },
    )
    .unwrap();
    let stepped = one_piece();
    assert_eq!(plain.stats().policy_steps, 0);
    assert!(stepped.stats().policy_steps > 0);
    assert!(
        stepped.stats().sweeps * 2 < plain.stats().sweeps,
        "{} against {} sweeps",
        stepped.stats().sweeps,
        plain.stats().sweeps
    );
    let largest = plain.largest_difference(stepped);
    assert!(largest < 1e-8, "values differ by {largest:e}");
    assert!(stepped.bellman_residual().unwrap() <= TOLERANCE);
}

#[test]
fn policy_steps_get_slow_cycles_to_their_limit_within_the_tolerance() {
    // A side waiting in the water makes values creep by a tiny amount a sweep, so a small
    // change per sweep does not mean a small error. With the policy steps (the default) a
    // thousand times tighter tolerance moves no value by more than the tolerance; plain
    // sweeps to 1e-9 stop 3.6e-6 short.
    let tight = solve(
        KendallEndgame::new(immediate(), 2).unwrap(),
        &SolveOptions {
            tolerance: 1e-12,
            ..SolveOptions::default()
        },
    )
    .unwrap();
    let largest = tight.largest_difference(two_pieces());
    assert!(largest < TOLERANCE, "values move by {largest:e}");
}

#[test]
fn every_option_but_stored_throws_solves_to_the_tolerance() {
    let variants = [
        immediate().with_pieces(PieceCount::Five),
        immediate().with_starting_throw(true),
        immediate().with_trap(true),
        immediate().with_home_row(true),
        immediate()
            .with_trap(true)
            .with_home_row(true)
            .with_pieces(PieceCount::Five),
    ];
    for rules in variants {
        let table = solved(rules, 1);
        let residual = table.bellman_residual().unwrap();
        assert!(
            residual <= TOLERANCE,
            "{}: residual {residual:e}",
            rules.spec()
        );
    }
}

#[test]
fn k_11_lone_pieces_on_29_and_28_need_a_2_and_a_3() {
    // Black's last piece on 29 leaves only with a 2 (6/16), White's on 28 only with a 3
    // (4/16); neither moves otherwise (K-11, I-2). A 1, 4 or 5 gives another throw, a 2 or 3
    // ends the turn (K-4, immediate throws). So Black wins in its turn with probability
    // (6/16) / (1 − 6/16) = 3/5, White in its with 2/5:
    // V = 3/5 + 2/5 · (1 − W), W = 2/5 + 3/5 · (1 − V)  ⇒  V = 15/19.
    let value = one_piece().value(&position(&[29], &[28], "")).unwrap();
    assert!((value - 15.0 / 19.0).abs() < 1e-8, "{value}");
}

#[test]
fn mirrored_positions_share_their_value() {
    let table = two_pieces();
    let rules = table.space().rules();
    let black = rules
        .parse_position(&format!("{}B.W..B...W.. b", ".".repeat(18)))
        .unwrap();
    let white = rules
        .parse_position(&format!("{}W.B..W...B.. w", ".".repeat(18)))
        .unwrap();
    assert_eq!(table.value(&black), table.value(&white));
    assert!(table.value(&black).is_some());
    // The same with the piece that must move (K-15).
    let black = rules
        .parse_position(&format!(
            "{}W....B{} b must_move_w=15",
            ".".repeat(14),
            ".".repeat(10)
        ))
        .unwrap();
    let white = rules
        .parse_position(&format!(
            "{}B....W{} w must_move_b=15",
            ".".repeat(14),
            ".".repeat(10)
        ))
        .unwrap();
    assert_eq!(table.value(&black), table.value(&white));
    assert!(table.value(&black).is_some());
}

#[test]
fn k_15_the_piece_that_must_move_changes_the_value() {
    let table = two_pieces();
    // Black {15, 22}, White {24}. Black's piece on 15 came back from the water and must move
    // on Black's next throw: Black may not bring 22 up to the gate or hit White with it.
    let free = position(&[15, 22], &[24], "");
    let bound = position(&[15, 22], &[24], "must_move_b=15");
    let space = table.space();
    assert!(space.index(&bound).is_none() && space.passes_through(&bound));
    let (free, bound) = (table.value(&free).unwrap(), table.value(&bound).unwrap());
    assert!(free > bound + 1e-3, "{free} vs {bound}");
    // White's obligation, with Black to act (possible while Black throws again): stored.
    let theirs = position(&[22], &[15, 24], "must_move_w=15");
    let plain = position(&[22], &[15, 24], "");
    assert_ne!(space.index(&theirs), space.index(&plain));
    let (theirs, plain) = (table.value(&theirs).unwrap(), table.value(&plain).unwrap());
    assert!((theirs - plain).abs() > 1e-3, "{theirs} vs {plain}");
}

#[test]
fn positions_play_never_reaches_are_outside_the_space() {
    let table = two_pieces();
    let space = table.space();
    // Both sides bound by K-15 at once, or Black in the water while White's piece is bound
    // (White's piece just left the water): no sequence of moves gives these.
    for (me, opp, fields) in [
        (
            &[15u8, 20][..],
            &[10u8, 12][..],
            "must_move_b=15 must_move_w=10",
        ),
        (&[27, 20], &[15], "must_move_w=15"),
    ] {
        let state = position(me, opp, fields);
        assert_eq!(space.index(&state), None, "{me:?} {opp:?} {fields}");
        assert!(!space.passes_through(&state));
        assert_eq!(table.value(&state), None);
    }
    // Three pieces a side, a move due, or the game over: not positions of this table.
    let rules = space.rules();
    assert_eq!(table.value(&position(&[10, 12, 14], &[20], "")), None);
    let mut state = position(&[10, 12], &[20], "");
    rules.throw_unchecked(&mut state, 2);
    assert_eq!(space.index(&state), None);
}

/// An evaluator that scores every unfinished position the same.
struct Constant(f64);

impl<R: Ruleset> Evaluator<R> for Constant {
    fn evaluate(&self, rules: &R, state: &R::State, side: Side) -> f64 {
        match rules.phase(state) {
            Phase::Over(o) => senet_ai::outcome_value(&o, side),
            _ => self.0,
        }
    }
}

#[test]
fn expectiminimax_searched_deep_enough_agrees_with_the_solver() {
    // Unfinished leaves scored 0 give a lower bound of the true value, scored 1 an upper
    // bound: the exact value lies between, and the bracket closes as the search deepens.
    // Small cases: every piece at the gate or beyond, where games end soon.
    let table = two_pieces();
    let rules = *table.space().rules();
    let space = table.space();
    let positions: Vec<KendallState> = (0..space.state_count())
        .step_by(5)
        .filter_map(|i| space.state(i))
        .filter(|s| s.board().all_pieces().iter().all(|sq| sq.get() >= 24))
        .flat_map(|s| with_each_throw(&rules, &s))
        .map(|(_, s)| s)
        .filter(|s| rules.legal_moves(s).len() > 1)
        .take(12)
        .collect();
    assert_eq!(positions.len(), 12);
    let mut perfect = Perfect::with_default_fallback(&rules, Arc::new(table.clone())).unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(0);
    let mut mean_widths = Vec::new();
    for depth in [1, 3, 5] {
        let mut low = Expectiminimax::with_evaluator(Budget::Depth(depth), Constant(0.0));
        let mut high = Expectiminimax::with_evaluator(Budget::Depth(depth), Constant(1.0));
        let (mut total, mut count) = (0.0, 0.0);
        for state in &positions {
            let exact = perfect.exact_values(&rules, state).unwrap();
            let lo = low.analyse(&rules, state, &mut rng).unwrap();
            let hi = high.analyse(&rules, state, &mut rng).unwrap();
            for ((e, l), h) in exact.iter().zip(lo.moves()).zip(hi.moves()) {
                assert!(
                    l.value <= e + 1e-7 && e - 1e-7 <= h.value,
                    "{l:?} ≤ {e} ≤ {h:?}"
                );
                total += h.value - l.value;
                count += 1.0;
            }
        }
        mean_widths.push(total / count);
    }
    let w = &mean_widths;
    assert!(w.windows(2).all(|p| p[1] < p[0] - 0.02), "{w:?}");
}

#[test]
fn expectiminimax_on_exact_leaves_reproduces_the_exact_values() {
    // The table is a fixed point of the Bellman equation, so searching any depth with the
    // table at the leaves gives back the exact value of every move: extra throws after a 1, 4
    // or 5, turns ended by the water (K-13, K-14), and the positions passed through (K-15)
    // included.
    let table = two_pieces();
    let rules = *table.space().rules();
    let oracle: Arc<dyn PositionOracle<Kendall>> = Arc::new(table.clone());
    let mut perfect = Perfect::with_default_fallback(&rules, Arc::clone(&oracle)).unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(0);
    for depth in 1..=3 {
        let evaluator = OracleEvaluator::new(Arc::clone(&oracle), RaceEvaluator::default());
        let mut search = Expectiminimax::with_evaluator(Budget::Depth(depth), evaluator);
        for state in decisions(table, 60, depth.into()) {
            let exact = perfect.exact_values(&rules, &state).unwrap();
            let searched = search.analyse(&rules, &state, &mut rng).unwrap();
            for (e, s) in exact.iter().zip(searched.moves()) {
                assert!(
                    (e - s.value).abs() < 1e-7,
                    "depth {depth} {}: {e} vs {}",
                    rules.position_string(&state),
                    s.value
                );
            }
        }
    }
}

#[test]
fn perfect_play_uses_exact_values_and_picks_the_best() {
    let table = two_pieces();
    let rules = *table.space().rules();
    let mut perfect = Perfect::with_default_fallback(&rules, Arc::new(table.clone())).unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(0);
    for state in decisions(table, 50, 3) {
        let analysis = perfect.analyse(&rules, &state, &mut rng).unwrap();
        assert_eq!(analysis.kind(), ValueKind::ExactWinProbability);
        let best = analysis
            .moves()
            .iter()
            .map(|m| m.value)
            .fold(f64::NEG_INFINITY, f64::max);
        assert_eq!(analysis.moves()[analysis.chosen_index()].value, best);
    }
    // Outside the tables (the opening) the fallback search decides.
    let mut state = rules.initial_state();
    rules.throw_unchecked(&mut state, 3);
    let analysis = perfect.analyse(&rules, &state, &mut rng).unwrap();
    assert_eq!(analysis.kind(), ValueKind::EstimatedWinProbability);
}

#[test]
fn tables_round_trip_through_the_file_format_and_refuse_other_options() {
    let table = one_piece();
    let bytes = table.to_bytes(ValueEncoding::U32);
    let space = KendallEndgame::new(immediate(), 1).unwrap();
    let back = EndgameTable::from_bytes(space, &bytes).unwrap();
    let worst = table.largest_difference(&back);
    assert!(worst <= 1.2e-10, "{worst:e}");
    let oracle = read_for(&immediate(), &bytes).unwrap();
    assert_eq!(oracle.spec().to_string(), "kendall(throw_timing=immediate)");
    // Other options, or Regency: typed errors.
    let trap = immediate().with_trap(true);
    assert!(matches!(
        read_for(&trap, &bytes),
        Err(EndgameError::Table(
            senet_ai::endgame::table::TableError::RulesetMismatch { .. }
        ))
    ));
    assert!(read_for(&senet_regency::Regency::default(), &bytes).is_err());
}

#[test]
fn stored_throws_are_a_typed_error_everywhere() {
    let stored = Kendall::default();
    assert!(!supports_endgame(&stored));
    assert!(supports_endgame(&immediate()));
    assert!(matches!(
        KendallEndgame::new(stored, 1),
        Err(EndgameError::UnsupportedOptions { .. })
    ));
    let Err(error) = solve_for(&stored, 1, &SolveOptions::default()) else {
        panic!("stored throws were solved");
    };
    assert!(
        error.to_string().contains("throw_timing=immediate"),
        "{error}"
    );
    assert!(matches!(
        "perfect:1".parse::<PlayerSpec>().unwrap().build(&stored),
        Err(PlayerSpecError::Endgame(
            EndgameError::UnsupportedOptions { .. }
        ))
    ));
    // A table file of immediate throws is no use to stored throws either.
    let bytes = one_piece().to_bytes(ValueEncoding::U16);
    assert!(read_for(&stored, &bytes).is_err());
    // Pieces out of range.
    assert!(matches!(
        solve_for(&immediate(), 0, &SolveOptions::default()),
        Err(EndgameError::Pieces { requested: 0, .. })
    ));
}

#[test]
fn the_perfect_player_builds_for_kendall_with_immediate_throws() {
    let rules = immediate();
    let mut player = "perfect:1"
        .parse::<PlayerSpec>()
        .unwrap()
        .build(&rules)
        .unwrap();
    assert_eq!(player.name(), "perfect:1");
    // Black 26 against White 20: a 5 bears off (K-10), or may be declined (K-16).
    let mut state = position(&[26], &[20], "");
    rules.throw_unchecked(&mut state, 5);
    let analysis = player
        .analyse(&rules, &state, &mut ChaCha8Rng::seed_from_u64(1))
        .unwrap();
    assert_eq!(analysis.kind(), ValueKind::ExactWinProbability);
    assert_eq!(analysis.chosen().to_string(), "26-off/5");
    assert_eq!(analysis.moves()[analysis.chosen_index()].value, 1.0);
}

#[test]
fn the_perfect_player_never_chooses_an_illegal_move() {
    // Decision points from random games, inside the tables and outside them, then whole
    // games against greedy: the analysis lists exactly the legal moves, and the move chosen
    // is played by the checked path.
    let table = two_pieces();
    let rules = *table.space().rules();
    let mut perfect = Perfect::with_default_fallback(&rules, Arc::new(table.clone())).unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(11);
    let states = senet_testkit::conformance::sample_states(&rules, &mut rng, 300, 2000, |p| {
        matches!(p, Phase::Move(_))
    });
    let mut covered = 0;
    for state in states.iter().chain(&decisions(table, 100, 12)) {
        let legal = rules.legal_moves(state);
        let analysis = perfect.analyse(&rules, state, &mut rng).unwrap();
        assert_eq!(analysis.moves().len(), legal.len());
        assert!(analysis.moves().iter().all(|m| legal.contains(&m.mv)));
        covered += usize::from(analysis.kind() == ValueKind::ExactWinProbability);
        let mut next = *state;
        rules.try_play(&mut next, analysis.chosen()).unwrap();
    }
    assert!(covered >= 100, "{covered} decisions from the tables");
    let mut greedy = "greedy"
        .parse::<PlayerSpec>()
        .unwrap()
        .build(&rules)
        .unwrap();
    for game in 0..4 {
        let mut state = rules.initial_state();
        for _ in 0..20_000 {
            match rules.phase(&state) {
                Phase::Over(_) => break,
                Phase::Throw(_) => {
                    rules.throw_unchecked(&mut state, rules.device().sample(&mut rng));
                }
                Phase::Move(side) => {
                    let perfect_moves = (side == Side::Black) == (game % 2 == 0);
                    let mv = if perfect_moves {
                        perfect.choose(&rules, &state, &mut rng).unwrap()
                    } else {
                        greedy.choose(&rules, &state, &mut rng).unwrap()
                    };
                    rules.try_play(&mut state, mv).unwrap();
                }
            }
        }
    }
}
