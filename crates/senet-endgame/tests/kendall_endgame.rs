//! The endgames of Kendall's ruleset with immediate throws: the space covers every position
//! play reaches (the solver checks it), the values satisfy the Bellman equation recomputed
//! from the turn machine, agree with expectiminimax, and remember the piece that must move
//! (K-15); configurations the space does not support are typed errors.

mod common;

use std::sync::{Arc, OnceLock};

use common::TOLERANCE;
use rand_chacha::ChaCha8Rng;
use rand_core::SeedableRng;
use senet_ai::{Perfect, Player, PlayerSpec, ValueKind};
use senet_core::Throw;
use senet_core::{Phase, Ruleset, Side, ThrowingDevice};
use senet_endgame::{
    EndgameError, EndgameFiles, EndgameSpace, EndgameTable, Endgames, KendallEndgame, PolicySteps,
    SolveOptions, ValueEncoding, solve,
};
use senet_kendall::{Kendall, KendallState, PieceCount, ThrowTiming};

fn immediate() -> Kendall {
    Kendall::default().with_throw_timing(ThrowTiming::Immediate)
}

/// The tables of `rules` with up to `pieces` a side.
fn solved(rules: Kendall, pieces: u8) -> EndgameTable<KendallEndgame> {
    common::solved(KendallEndgame::new(rules, pieces).unwrap())
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
    senet_testkit::scenario::position(&immediate(), me, opp, fields)
}

common::endgame_suite! {
    table: two_pieces(),
    near_the_end: common::NearTheEnd { step: 5, lowest_square: 24, tolerance: 1e-7 },
    leaves_tolerance: 1e-7,
}

#[test]
fn solved_values_satisfy_the_bellman_equation_recomputed_from_the_turn_machine() {
    // The recomputation computes the positions passed through (K-15, the piece that must move
    // is the mover's) from their throws by the table.
    for table in [one_piece(), two_pieces()] {
        common::assert_solved_to_the_tolerance(table);
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
        common::assert_solved_to_the_tolerance(&solved(rules, 1));
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
fn mirrored_positions_with_a_piece_that_must_move_share_their_value() {
    // K-15: the obligation is mirrored with the board.
    common::assert_mirrors_share_their_value(
        two_pieces(),
        &format!(
            "{}W....B{} b must_move_w=15",
            ".".repeat(14),
            ".".repeat(10)
        ),
        &format!(
            "{}B....W{} w must_move_b=15",
            ".".repeat(14),
            ".".repeat(10)
        ),
    );
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
    rules.throw_unchecked(&mut state, Throw::at(2));
    assert_eq!(space.index(&state), None);
}

#[test]
fn tables_round_trip_through_the_file_format_and_refuse_other_options() {
    let table = one_piece();
    let bytes = table.to_bytes(ValueEncoding::U32);
    let space = KendallEndgame::new(immediate(), 1).unwrap();
    let back = EndgameTable::from_bytes(space, &bytes).unwrap();
    let worst = table.largest_difference(&back);
    assert!(worst <= 1.2e-10, "{worst:e}");
    let oracle = Endgames::read_oracle(&immediate(), &bytes).unwrap();
    assert_eq!(oracle.spec().to_string(), "kendall(throw_timing=immediate)");
    // Other options, or Regency: typed errors.
    let trap = immediate().with_trap(true);
    assert!(matches!(
        Endgames::read_oracle(&trap, &bytes),
        Err(EndgameError::Table(
            senet_endgame::table::TableError::RulesetMismatch { .. }
        ))
    ));
    assert!(Endgames::read_oracle(&senet_regency::Regency::default(), &bytes).is_err());
}

#[test]
fn tables_of_immediate_throws_are_no_use_to_stored_throws() {
    // Stored throws have their own space and solver (`tests/stored_throws.rs`).
    let stored = Kendall::default();
    assert!(EndgameFiles::supported(&stored));
    assert!(EndgameFiles::supported(&immediate()));
    let bytes = one_piece().to_bytes(ValueEncoding::U16);
    assert!(Endgames::read_oracle(&stored, &bytes).is_err());
    // Pieces out of range.
    assert!(matches!(
        Endgames::solve_oracle(&immediate(), 0, &SolveOptions::default()),
        Err(EndgameError::Pieces { requested: 0, .. })
    ));
}

#[test]
fn the_perfect_player_builds_for_kendall_with_immediate_throws() {
    let rules = immediate();
    let mut player = "perfect:1"
        .parse::<PlayerSpec>()
        .unwrap()
        .build(&rules, Some(&rules))
        .unwrap();
    assert_eq!(player.name(), "perfect:1");
    // Black 26 against White 20: a 5 bears off (K-10), or may be declined (K-16).
    let mut state = position(&[26], &[20], "");
    rules.throw_unchecked(&mut state, Throw::at(5));
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
    for state in states.iter().chain(&common::decisions(table, 100, 12)) {
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
        .build(&rules, Some(&rules))
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
