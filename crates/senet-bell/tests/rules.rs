//! One test (at least) per rule, option, interpretation, scenario and documented choice of
//! `docs/rules/bell.md`. Each test fails if its rule is broken.
//!
//! Positions use the scenario notation (`senet_testkit::scenario_helpers!`): `me` is Black, to
//! move, `opp` White, every other piece is off.

use rand_chacha::ChaCha8Rng;
use rand_core::SeedableRng;
use senet_bell::{Bell, MarkedSquares, PIECES};
use senet_core::Throw;
use senet_core::{
    FourSidedDie, Move, Phase, PositionError, Ruleset, SeatRule, Side, ThrowingDevice,
};
use senet_testkit::conformance::check_state;

senet_testkit::scenario_helpers!(Bell, throw);

// ---------------------------------------------------------------- setup and throws

#[test]
fn be_01_ten_pieces_a_side_odd_set_on_odd_squares_even_set_on_even_squares() {
    let rules = Bell::default();
    assert_eq!(rules.pieces_per_side(), 10);
    assert_eq!(PIECES, 10);
    let odd: Vec<u8> = (1..=19).step_by(2).collect();
    let even: Vec<u8> = (2..=20).step_by(2).collect();
    assert_start(&rules, &even, &odd);
}

#[test]
fn be_02_one_four_sided_die() {
    let rules = Bell::default();
    assert_eq!(rules.device().denominator(), 4);
    assert_throws(&rules, &[(1, 1), (2, 1), (3, 1), (4, 1)], &[0, 5, 6]);
    // Sampling follows the table: every face, roughly equally often.
    let mut rng = ChaCha8Rng::seed_from_u64(2);
    let mut seen = [0u32; 5];
    for _ in 0..4000 {
        seen[usize::from(FourSidedDie.sample(&mut rng))] += 1;
    }
    assert_eq!(seen[0], 0);
    assert!(
        seen[1..].iter().all(|&n| (850..1150).contains(&n)),
        "{seen:?}"
    );
}

#[test]
fn be_03_higher_throw_plays_the_even_set_and_moves_first() {
    assert_eq!(Bell::SEAT_RULE, SeatRule::HigherThrow);
    for draw in seat_draws(&Bell::default(), 3, 100) {
        let last = &draw.throws[draw.throws.len() - 2..];
        assert_ne!(last[0].1, last[1].1, "a tie is thrown again");
        let higher = if last[0].1 > last[1].1 { 0 } else { 1 };
        assert_eq!(draw.black_player, higher);
    }
    // The even set (Black) acts first, with no forced opening move.
    let rules = Bell::default();
    assert_eq!(
        rules.phase(&rules.initial_state()),
        Phase::Throw(Side::Black)
    );
}

// ---------------------------------------------------------------- turn and movement

#[test]
fn be_04_one_throw_one_forward_move_no_extra_throws_no_backward_moves() {
    let rules = Bell::default();
    for t in 1..=4u8 {
        let state = pos(&[5], &[21], t);
        assert_eq!(moves(&state), vec![format!("5-{}", 5 + t)], "throw {t}");
        let next = play_with(&rules, &state, &format!("5-{}", 5 + t));
        // Every throw value ends the turn.
        assert_eq!(rules.phase(&next), Phase::Throw(Side::White), "throw {t}");
    }
    // With no forward move there is no backward one: the turn passes.
    let state = pos(&[12], &[25], 2);
    let blocked = pos_full(&rules, &[12, 14], &[25], 2, "");
    assert_eq!(moves(&state), vec!["12-14"]);
    assert_eq!(moves(&blocked), vec!["14-16"]);
    let stuck = pos(&[28, 29], &[5], 4);
    assert_eq!(moves(&stuck), vec!["pass"]);
    let next = play_with(&rules, &stuck, "pass");
    assert_eq!(rules.phase(&next), Phase::Throw(Side::White));
    assert_eq!(next.board(), stuck.board());
    // A pass is refused while a move exists.
    let mut copy = state;
    assert!(rules.try_play(&mut copy, Move::PASS).is_err());
    assert_eq!(copy, state);
}

#[test]
fn be_05_captured_pieces_leave_the_game_and_score_for_nobody() {
    let rules = Bell::default();
    let state = pos(&[12], &[14, 20], 2);
    let next = play_with(&rules, &state, "12-14");
    assert_eq!(next.board().pieces_of(Side::Black), set(&[14]));
    assert_eq!(next.board().pieces_of(Side::White), set(&[20]));
    assert_eq!(next.captured(Side::White), 1);
    // Neither side scores for the capture.
    assert_eq!(
        next.board().off_count(Side::White),
        state.board().off_count(Side::White)
    );
    assert_eq!(
        next.board().off_count(Side::Black),
        state.board().off_count(Side::Black)
    );
    assert_eq!(rules.captured(&next, Side::White), 1);
    // The pieces still add up to ten: board + off + captured.
    assert_eq!(
        next.board().total(Side::White) + next.captured(Side::White),
        10
    );
    // No landing on an own piece; no pair protection; no blockade.
    assert_eq!(moves(&pos(&[12, 14], &[25], 2)), vec!["14-16"]);
    assert_eq!(moves(&pos(&[12], &[14, 15], 2)), vec!["12-14"]);
    assert_eq!(moves(&pos(&[12], &[13, 14, 15], 4)), vec!["12-16"]);
}

#[test]
fn be_06_a_piece_on_a_marked_square_cannot_be_captured() {
    for target in 26..=30u8 {
        let from = target - 2;
        let state = pos(&[from], &[target], 2);
        assert_eq!(moves(&state), vec!["pass"], "attack on {target}");
    }
    // An unmarked square offers no protection.
    assert_eq!(moves(&pos(&[23], &[25], 2)), vec!["23-25"]);
}

#[test]
fn be_07_pieces_on_marked_squares_that_can_move_go_first() {
    // Be-S4.
    assert_eq!(moves(&pos(&[10, 27], &[5], 1)), vec!["27-28"]);
    // Every marked piece that can move is offered, and nothing else.
    assert_eq!(moves(&pos(&[10, 26, 28], &[5], 1)), vec!["26-27", "28-29"]);
    // When no piece on a marked square can move, the others may.
    assert_eq!(moves(&pos(&[10, 29], &[5], 3)), vec!["10-13"]);
    assert_eq!(moves(&pos(&[10, 28, 29], &[5], 4)), vec!["10-14"]);
}

#[test]
fn be_08_exact_exits_score_one_point_each() {
    let rules = Bell::default();
    for (from, exact) in [(30u8, 1u8), (29, 2), (28, 3), (27, 4)] {
        for t in 1..=4u8 {
            let state = pos(&[from], &[5], t);
            let expected = if t == exact {
                vec![format!("{from}-off")]
            } else if from + t <= 30 {
                vec![format!("{from}-{}", from + t)]
            } else {
                vec!["pass".to_string()]
            };
            assert_eq!(moves(&state), expected, "{from} with {t}");
        }
    }
    // 26 cannot leave in one move (it would need a 5).
    assert_eq!(moves(&pos(&[26], &[5], 4)), vec!["26-30"]);
    let state = pos(&[28, 20], &[5], 3);
    let next = play_with(&rules, &state, "28-off");
    assert_eq!(next.board().off_count(Side::Black), 9);
    assert_eq!(
        next.board().off_count(Side::Black),
        state.board().off_count(Side::Black) + 1
    );
}

#[test]
fn be_09_the_game_ends_when_the_board_is_empty_and_the_higher_score_wins() {
    let rules = Bell::default();
    // White has lost three pieces to captures and borne off seven; Black bears off its last.
    let state = pos_full(&rules, &[30], &[], 1, "captured_w=3");
    let next = play_with(&rules, &state, "30-off");
    let outcome = rules.outcome(&next).unwrap();
    assert_eq!(outcome.winner, Some(Side::Black));
    assert_eq!(outcome.points, senet_core::PerSide::new(10, 7));
    // Equal scores are a draw.
    let state = pos_full(&rules, &[30], &[], 1, "captured_b=2 captured_w=2");
    let outcome = rules.outcome(&play_with(&rules, &state, "30-off")).unwrap();
    assert_eq!(outcome.winner, None);
    assert_eq!(outcome.points, senet_core::PerSide::new(8, 8));
    // White wins on a higher score even though Black moved last.
    let state = pos_full(&rules, &[30], &[], 1, "captured_b=5");
    let outcome = rules.outcome(&play_with(&rules, &state, "30-off")).unwrap();
    assert_eq!(outcome.winner, Some(Side::White));
    assert_eq!(outcome.points, senet_core::PerSide::new(5, 10));
    // The game is not over while either side has a piece on the board, even if one side has
    // already borne off or lost all the others.
    let state = pos(&[28], &[29], 3);
    let next = play_with(&rules, &state, "28-off");
    assert_eq!(rules.phase(&next), Phase::Throw(Side::White));
    let mut over = play_with(&rules, &state, "28-off");
    assert_eq!(rules.try_throw(&mut over, Throw::at(2)), Ok(()));
    let over = play_with(&rules, &over, "29-off");
    assert_over(&rules, &over);
}

// ---------------------------------------------------------------- interpretations

#[test]
fn i_1_square_27_has_no_penalty() {
    let rules = Bell::default();
    let state = pos(&[25], &[5], 2);
    let next = play_with(&rules, &state, "25-27");
    assert_eq!(next.board().pieces_of(Side::Black), set(&[27]));
    // It is one more marked square: protected, and it moves first under Be-7.
    assert_eq!(moves(&pos(&[23], &[27], 4)), vec!["pass"]);
    assert_eq!(moves(&pos(&[3, 27], &[5], 2)), vec!["27-29"]);
}

#[test]
fn i_2_exact_exits_apply_to_unmarked_pieces_too() {
    // With Ludii's set, 30 is not marked; a piece there still leaves only with a 1.
    let rules = Bell::default().with_marked_squares(MarkedSquares::Ludii);
    for t in 2..=4u8 {
        let state = pos_full(&rules, &[30], &[5], t, "");
        assert_eq!(move_strings(&rules, &state), vec!["pass"], "throw {t}");
    }
    let state = pos_full(&rules, &[30], &[5], 1, "");
    assert_eq!(move_strings(&rules, &state), vec!["30-off"]);
    // A piece on 25 with a 4 goes to 29, not off.
    assert_eq!(moves(&pos(&[25], &[5], 4)), vec!["25-29"]);
}

// ---------------------------------------------------------------- options

#[test]
fn option_marked_squares_ludii_marks_15_and_26_to_29() {
    let rules = Bell::default().with_marked_squares(MarkedSquares::Ludii);
    let outcomes =
        |me: &[u8], opp: &[u8], t: u8| move_strings(&rules, &pos_full(&rules, me, opp, t, ""));
    // 15 protects; 30 does not.
    assert_eq!(outcomes(&[13], &[15], 2), vec!["pass"]);
    assert_eq!(outcomes(&[28], &[30], 2), vec!["28-30"]);
    // Be-7 applies to 15.
    assert_eq!(outcomes(&[3, 15], &[25], 2), vec!["15-17"]);
    // The default marks 26-30 and not 15.
    assert_eq!(moves(&pos(&[13], &[15], 2)), vec!["13-15"]);
    assert_eq!(moves(&pos(&[28], &[30], 2)), vec!["pass"]);
    assert_eq!(moves(&pos(&[3, 15], &[25], 2)), vec!["3-5", "15-17"]);
    assert_eq!(
        Bell::from_spec(&"bell(marked_squares=ludii)".parse().unwrap()).unwrap(),
        rules
    );
}

#[test]
fn option_compulsory_capture_forces_a_capture_after_be_7() {
    let rules = Bell::default().with_compulsory_capture(true);
    let outcomes =
        |me: &[u8], opp: &[u8], t: u8| move_strings(&rules, &pos_full(&rules, me, opp, t, ""));
    assert_eq!(outcomes(&[3, 12], &[14], 2), vec!["12-14"]);
    assert_eq!(moves(&pos(&[3, 12], &[14], 2)), vec!["3-5", "12-14"]);
    // Several captures: any of them.
    assert_eq!(outcomes(&[3, 12], &[5, 14], 2), vec!["3-5", "12-14"]);
    // No capture available: ordinary moves.
    assert_eq!(outcomes(&[3, 12], &[20], 2), vec!["3-5", "12-14"]);
    // Be-7 comes first: a marked piece that can move must move even if another could capture.
    assert_eq!(outcomes(&[12, 26], &[14], 2), vec!["26-28"]);
    // Within Be-7's choice a capture is still compulsory (Ludii's set marks 15).
    let ludii = rules.with_marked_squares(MarkedSquares::Ludii);
    let state = pos_full(&ludii, &[12, 15, 26], &[18, 14], 2, "");
    assert_eq!(move_strings(&ludii, &state), vec!["15-17", "26-28"]);
    let state = pos_full(&ludii, &[12, 15, 26], &[17, 14], 2, "");
    assert_eq!(move_strings(&ludii, &state), vec!["15-17"]);
}

// ---------------------------------------------------------------- scenarios

#[test]
fn be_s1_start() {
    let state = Bell::default().initial_state();
    let odd: Vec<u8> = (1..=19).step_by(2).collect();
    let even: Vec<u8> = (2..=20).step_by(2).collect();
    assert_eq!(state.board().pieces_of(Side::White), set(&odd));
    assert_eq!(state.board().pieces_of(Side::Black), set(&even));
}

#[test]
fn be_s2_capture_removes_the_piece() {
    let rules = Bell::default();
    let state = pos(&[12], &[14, 15], 2);
    assert_eq!(moves(&state), vec!["12-14"]);
    let next = play_with(&rules, &state, "12-14");
    assert_eq!(next.board().pieces_of(Side::White), set(&[15]));
    assert_eq!(next.captured(Side::White), 1);
}

#[test]
fn be_s3_no_capture_on_a_marked_square() {
    assert_eq!(moves(&pos(&[24], &[26], 2)), vec!["pass"]);
}

#[test]
fn be_s4_marked_square_first() {
    assert_eq!(moves(&pos(&[10, 27], &[5], 1)), vec!["27-28"]);
}

#[test]
fn be_s5_exact_exit_from_28() {
    let rules = Bell::default();
    let state = pos(&[28], &[5], 3);
    assert_eq!(moves(&state), vec!["28-off"]);
    let next = play_with(&rules, &state, "28-off");
    assert_eq!(
        next.board().off_count(Side::Black),
        state.board().off_count(Side::Black) + 1
    );
    assert_eq!(moves(&pos(&[28], &[5], 4)), vec!["pass"]);
}

// ---------------------------------------------------------------- choices

#[test]
fn choice_a_side_without_pieces_on_the_board_no_longer_takes_turns() {
    let rules = Bell::default();
    // White's last piece is captured: Black keeps the turn.
    let state = pos(&[12, 20], &[14], 2);
    let next = play_with(&rules, &state, "12-14");
    assert!(next.board().pieces_of(Side::White).is_empty());
    assert_eq!(rules.phase(&next), Phase::Throw(Side::Black));
    // Black bears off its last piece: White plays on alone.
    let state = pos(&[30], &[20], 1);
    let next = play_with(&rules, &state, "30-off");
    assert_eq!(rules.phase(&next), Phase::Throw(Side::White));
    // A position with the side to act empty-handed while the other still plays is refused.
    let text = scenario(&[], &[20], "");
    assert!(matches!(
        rules.parse_position(&text),
        Err(PositionError::Inconsistent(_))
    ));
}

// ---------------------------------------------------------------- notation and validation

#[test]
fn position_fields_round_trip_and_have_defaults() {
    let rules = Bell::default();
    let text = scenario(&[12, 27], &[14], "throw=3 captured_b=2 captured_w=4");
    let state = rules.parse_position(&text).unwrap();
    assert_eq!(state.pending_throw(), senet_core::Throw::new(3));
    assert_eq!(state.captured(Side::Black), 2);
    assert_eq!(state.board().off_count(Side::Black), 6);
    assert_eq!(state.board().off_count(Side::White), 5);
    assert_eq!(rules.position_string(&state), text);
    check_state(&rules, &state).unwrap();
    // Board and side alone: nothing captured, the rest borne off, a throw is due.
    let state = rules.parse_position(&scenario(&[12], &[14], "")).unwrap();
    assert_eq!(state.captured(Side::White), 0);
    assert_eq!(state.board().off_count(Side::White), 9);
    assert_eq!(rules.phase(&state), Phase::Throw(Side::Black));
    // The initial position needs no field.
    let start = rules.initial_state();
    assert_round_trip(&rules, &start);
}

#[test]
fn impossible_positions_are_typed_errors() {
    let rules = Bell::default();
    let cases = [
        (scenario(&[12], &[14], "throw=5"), "throw"),
        (scenario(&[12], &[14], "captured_b=10"), "count"),
        (scenario(&[12], &[14], "captured_w=11"), "field"),
        (scenario(&[12], &[14], "water=1"), "unknown"),
        (scenario(&[], &[], "throw=2"), "over"),
    ];
    for (text, what) in cases {
        let err = rules.parse_position(&text).unwrap_err();
        let ok = match what {
            "throw" | "field" => matches!(err, PositionError::BadField { .. }),
            "count" => matches!(err, PositionError::PieceCount { .. }),
            "unknown" => matches!(err, PositionError::UnknownField { .. }),
            _ => matches!(err, PositionError::Inconsistent(_)),
        };
        assert!(ok, "{text}: {err:?}");
        assert!(!err.to_string().is_empty());
    }
    let eleven: String = "BW".repeat(11) + &".".repeat(8);
    assert!(matches!(
        rules.parse_position(&format!("{eleven} b")),
        Err(PositionError::PieceCount { found: 11, .. })
    ));
}

#[test]
fn an_illegal_move_leaves_the_game_unchanged() {
    let illegal = ["2-3", "1-4", "2-4", "pass", "2-5/3"];
    let mut game = assert_illegal_moves_refused(Bell::default(), 3, &illegal);
    game.play("2-5".parse().unwrap()).unwrap();
    assert_eq!(game.state().captured(Side::White), 1);
}
