//! One test (at least) per rule, option, interpretation and scenario of
//! `docs/rules/jequier.md`. Each test fails if its rule is broken.
//!
//! Positions use the scenario notation (`senet_testkit::scenario_helpers!`): `me` is Black, to
//! move, `opp` White, every other piece is off. Without an `unmoved` field, pieces standing on
//! their own starting squares count as unmoved.

use senet_core::Throw;
use senet_core::{Move, Phase, PositionError, Ruleset, SeatRule, Side, SquareSet, Sticks};
use senet_jequier::{BLACK_START, BackwardPriority, Jequier, SafeSquares, StartRule, WHITE_START};

senet_testkit::scenario_helpers!(Jequier, throw);

// ---------------------------------------------------------------- setup and throws

#[test]
fn j_01_five_pieces_a_side_odd_set_on_odd_squares_even_set_on_even() {
    let rules = Jequier::default();
    assert_eq!(rules.pieces_per_side(), 5);
    assert_eq!(WHITE_START, set(&[1, 3, 5, 7, 9]));
    assert_eq!(BLACK_START, set(&[2, 4, 6, 8, 10]));
    // The even set started on 2,4,6,8,10; its piece on 10 has made the opening move (J-3).
    assert_start(&rules, &[2, 4, 6, 8, 11], &[1, 3, 5, 7, 9]);
}

#[test]
fn j_02_sticks_with_no_marked_side_counting_six() {
    let rules = Jequier::default();
    assert_eq!(rules.device(), Sticks::ZERO_IS_SIX);
    assert_throws(&rules, &[(1, 4), (2, 6), (3, 4), (4, 1), (6, 1)], &[5]);
}

#[test]
fn j_03_first_to_throw_a_one_takes_the_even_set_moves_10_to_11_and_throws_again() {
    assert_eq!(Jequier::SEAT_RULE, SeatRule::FirstToThrowOne);
    for draw in seat_draws(&Jequier::default(), 3, 100) {
        assert_eq!(draw.throws.last(), Some(&(draw.black_player, Throw::at(1))));
        assert_eq!(draw.throws.iter().filter(|t| t.1 == 1).count(), 1);
    }
    let rules = Jequier::default();
    let state = rules.initial_state();
    assert!(black(&state).contains(sq(11)));
    assert!(!black(&state).contains(sq(10)));
    // The piece that went to 11 has moved; the other even pieces have not.
    assert_eq!(state.unmoved(Side::Black), set(&[2, 4, 6, 8]));
    assert_eq!(state.unmoved(Side::White), set(&[1, 3, 5, 7, 9]));
    assert_eq!(rules.phase(&state), Phase::Throw(Side::Black));
}

// ---------------------------------------------------------------- turn

#[test]
fn j_04_one_four_six_give_another_throw_two_three_end_the_turn() {
    for (t, again) in [(1, true), (2, false), (3, false), (4, true), (6, true)] {
        let state = pos(&[12], &[29], t);
        let next = play(&state, &format!("12-{}", 12 + t));
        let expected = if again { Side::Black } else { Side::White };
        assert_eq!(
            Jequier::default().phase(&next),
            Phase::Throw(expected),
            "throw {t}"
        );
    }
}

#[test]
fn j_04_an_unusable_throw_is_lost_but_a_lost_one_four_or_six_still_throws_again() {
    let rules = Jequier::default();
    for (t, again) in [(1, true), (2, false), (3, false), (4, true), (6, true)] {
        // The piece on 1 cannot go back, and the pair ahead of it is protected (J-8).
        let state = pos_full(&rules, &[1], &[1 + t, 2 + t], t, "unmoved=none");
        assert_eq!(moves(&state), vec!["pass"], "throw {t}");
        let next = play(&state, "pass");
        let expected = if again { Side::Black } else { Side::White };
        assert_eq!(rules.phase(&next), Phase::Throw(expected), "throw {t}");
        assert_eq!(next.board(), state.board());
    }
    // A pass is refused while a move exists.
    let state = pos(&[12], &[29], 2);
    let mut copy = state;
    assert!(rules.try_play(&mut copy, Move::PASS).is_err());
    assert_eq!(copy, state);
}

// ---------------------------------------------------------------- waiting pieces

#[test]
fn j_05_an_unmoved_piece_waits_while_the_square_ahead_is_occupied() {
    // Black's piece on 4 has never moved and White stands on 5: 4→6 is not allowed.
    let state = pos(&[4, 12], &[5], 2);
    assert_eq!(state.unmoved(Side::Black), set(&[4]));
    assert_eq!(moves(&state), vec!["12-14"]);
    // The same piece, once it has moved, is free.
    let moved = pos_full(&Jequier::default(), &[4, 12], &[5], 2, "unmoved=none");
    assert_eq!(moves(&moved), vec!["4-6", "12-14"]);
    // The square ahead occupied by its own side also holds it back.
    assert_eq!(moves(&pos(&[4, 5], &[20], 2)), vec!["5-7"]);
    // Only the square directly ahead counts: with 5 empty and 6 occupied, 4 may jump.
    assert_eq!(moves(&pos(&[4], &[6, 20], 3)), vec!["4-7"]);
}

#[test]
fn j_05_a_waiting_piece_cannot_go_backward_either() {
    // Nothing can go forward (6 is protected by 5 and 7); 4→2 backward would be legal for a
    // piece that has moved, but an unmoved piece with 5 occupied may not move at all.
    let state = pos(&[4], &[5, 6, 7], 2);
    assert_eq!(moves(&state), vec!["pass"]);
    let moved = pos_full(&Jequier::default(), &[4], &[5, 6, 7], 2, "unmoved=none");
    assert_eq!(moves(&moved), vec!["4-2"]);
}

#[test]
fn j_05_i_1_moving_a_piece_removes_it_from_the_unmoved_set() {
    let rules = Jequier::default();
    let state = pos(&[4, 12], &[20], 2);
    assert_eq!(state.unmoved(Side::Black), set(&[4]));
    let next = play(&state, "4-6");
    assert_eq!(next.unmoved(Side::Black), SquareSet::EMPTY);
    // Back on a starting square (by a later move) a piece does not wait any more.
    assert!(rules.position_string(&next).contains("unmoved=none"));
}

#[test]
fn i_1_an_attacked_piece_no_longer_counts_as_unmoved() {
    let rules = Jequier::default();
    // White's piece on 9 has never moved; Black attacks it from 7 with a 2. It is sent to
    // the lowest empty square, 1, which is one of White's starting squares.
    let state = pos(&[2, 7], &[9], 2);
    assert_eq!(state.unmoved(Side::White), set(&[9]));
    let mut next = play(&state, "7-9");
    assert_eq!(white(&next), set(&[1]));
    assert_eq!(next.unmoved(Side::White), SquareSet::EMPTY);
    assert_eq!(rules.validate(&next), Ok(()));
    assert_round_trip(&rules, &next);
    // So it does not wait for 2 (Black) to clear: with a 1 it attacks the lone piece on 2.
    rules.try_throw(&mut next, Throw::at(1)).unwrap();
    assert_eq!(rules.phase(&next), Phase::Move(Side::White));
    assert!(
        moves(&next).contains(&"1-2".to_string()),
        "{:?}",
        moves(&next)
    );
}

// ---------------------------------------------------------------- movement

#[test]
fn j_06_no_passing_three_consecutive_opposing_pieces() {
    // Forward: 13→17 passes 14,15,16; the only move is backward.
    assert_eq!(moves(&pos(&[13], &[14, 15, 16], 4)), vec!["13-9"]);
    // Two in a row may be passed, and three that are not consecutive.
    assert_eq!(moves(&pos(&[13], &[14, 15], 4)), vec!["13-17"]);
    assert_eq!(moves(&pos(&[13], &[14, 16, 18], 6)), vec!["13-19"]);
    // Landing just before the run is not passing it.
    assert_eq!(moves(&pos(&[12], &[14, 15, 16], 1)), vec!["12-13"]);
    // Backward moves do not pass a blockade either (21 is protected by 22).
    assert_eq!(moves(&pos(&[17], &[14, 15, 16, 21, 22], 4)), vec!["pass"]);
    assert_eq!(moves(&pos(&[17], &[14, 15, 21, 22], 4)), vec!["17-13"]);
    // Bearing off passes every square up to 30.
    assert_eq!(moves(&pos(&[25], &[28, 29, 30], 6)), vec!["25-19"]);
    assert_eq!(moves(&pos(&[25], &[28, 30], 6)), vec!["25-off"]);
    // A blockade does not hold back its own side.
    let rules = Jequier::default();
    let text = format!("{}WWWW{}B. w throw=4", ".".repeat(12), ".".repeat(12));
    let state = rules.parse_position(&text).unwrap();
    assert_eq!(moves(&state), vec!["13-17", "14-18", "15-19", "16-20"]);
}

#[test]
fn j_07_the_attacked_piece_goes_to_the_lowest_empty_square_chosen_before_the_mover_leaves() {
    // 1 and 2 are White's, 3 is the mover's own square, so the victim goes to 4, not to 3.
    let state = pos(&[3], &[1, 2, 5], 2);
    let next = play(&state, "3-5");
    assert_squares(&next, &[5], &[1, 2, 4]);
    // With 1 empty, the victim goes all the way back to 1.
    let next = play(&pos(&[12], &[14, 20], 2), "12-14");
    assert_eq!(white(&next), set(&[1, 20]));
}

#[test]
fn j_08_no_attack_on_a_protected_piece_nor_on_a_safe_square() {
    // A neighbour of its own side protects, on either side; the only move is backward.
    assert_eq!(moves(&pos(&[12], &[14, 15], 2)), vec!["12-10"]);
    assert_eq!(moves(&pos(&[12], &[13, 14], 2)), vec!["12-10"]);
    // A lone piece is attacked.
    assert_eq!(moves(&pos(&[12], &[14, 16], 2)), vec!["12-14"]);
    // Safe squares 26, 28, 29, 30, even alone.
    for (from, target, t) in [(24, 26, 2), (26, 28, 2), (26, 29, 3), (26, 30, 4)] {
        let m = moves(&pos(&[from], &[target], t));
        assert!(
            !m.contains(&format!("{from}-{target}")),
            "attack on {target}: {m:?}"
        );
    }
    // 25 is not safe.
    assert_eq!(moves(&pos(&[22], &[25], 3)), vec!["22-25"]);
}

#[test]
fn j_09_i_2_backward_only_when_no_piece_can_go_forward_and_only_to_an_empty_square() {
    // 12→14 and 20→22 meet protected pairs: both pieces go back.
    assert_eq!(
        moves(&pos(&[12, 20], &[14, 15, 22, 23], 2)),
        vec!["12-10", "20-18"]
    );
    // A lone opposing piece on 10 may not be attacked backward.
    assert_eq!(
        moves(&pos(&[12, 20], &[10, 14, 15, 22, 23], 2)),
        vec!["20-18"]
    );
    // I-2: as soon as one piece can go forward, no piece goes back.
    assert_eq!(moves(&pos(&[12, 20], &[14, 15], 2)), vec!["20-22"]);
    // Neither: the throw is lost.
    assert_eq!(moves(&pos(&[1], &[3, 4], 2)), vec!["pass"]);
}

#[test]
fn j_10_a_piece_landing_on_27_goes_to_the_lowest_empty_square() {
    let state = pos(&[23], &[1, 2, 4], 4);
    assert_eq!(moves(&state), vec!["23-27"]);
    let next = play(&state, "23-27");
    assert_eq!(black(&next), set(&[3]));
    // Backward onto 27 too.
    let state = pos(&[29, 19], &[21, 22, 1], 2);
    assert_eq!(moves(&state), vec!["19-17", "29-27"]);
    let next = play(&state, "29-27");
    assert_eq!(black(&next), set(&[2, 19]));
    // Nothing ever stands on 27.
    let text = format!("{}B{} b", ".".repeat(26), "...");
    assert!(matches!(
        Jequier::default().parse_position(&text),
        Err(PositionError::ForbiddenSquare { .. })
    ));
}

// ---------------------------------------------------------------- bearing off and end

#[test]
fn j_11_bearing_off_only_with_every_piece_on_21_to_30() {
    assert_eq!(moves(&pos(&[19, 29], &[1], 2)), vec!["19-21"]);
    assert_eq!(moves(&pos(&[21, 29], &[1], 2)), vec!["21-23", "29-off"]);
}

#[test]
fn j_11_any_move_past_30_bears_off_and_a_move_ending_on_30_stays() {
    for (from, t) in [
        (25, 6),
        (26, 6),
        (28, 3),
        (28, 4),
        (29, 2),
        (30, 1),
        (30, 6),
    ] {
        let state = pos(&[from], &[1], t);
        assert_eq!(
            moves(&state),
            vec![format!("{from}-off")],
            "{from} with {t}"
        );
    }
    let state = pos(&[21, 26], &[1], 4);
    assert_eq!(moves(&state), vec!["21-25", "26-30"]);
    let next = play(&state, "26-30");
    assert!(black(&next).contains(sq(30)));
    assert_eq!(next.board().off(Side::Black), 3);
    // A piece may stand on 30 in a position.
    assert!(
        Jequier::default()
            .parse_position(&scenario(&[30], &[1], ""))
            .is_ok()
    );
}

#[test]
fn j_12_first_to_bear_off_all_wins_and_scores_three_two_one() {
    let rules = Jequier::default();
    let state = pos(&[29], &[3, 12, 25], 2);
    let next = play(&state, "29-off");
    let outcome = rules.outcome(&next).unwrap();
    assert_eq!(outcome.winner, Some(Side::Black));
    assert_eq!(outcome.points, senet_core::PerSide::new(3 + 2 + 1, 0));
    assert_over(&rules, &next);
    // White winning scores for White.
    let text = format!("B{}W w throw=1", ".".repeat(28));
    let state = rules.parse_position(&text).unwrap();
    let next = play(&state, "30-off");
    assert_eq!(
        rules.outcome(&next).unwrap().points,
        senet_core::PerSide::new(0, 3)
    );
}

// ---------------------------------------------------------------- options

#[test]
fn option_safe_squares_ludii_uses_15_26_28_29() {
    let ludii = Jequier::default().with_safe_squares(SafeSquares::Ludii);
    assert_eq!(SafeSquares::Ludii.squares(), set(&[15, 26, 28, 29]));
    // 15 is safe with the option, not without.
    let state = pos_full(&ludii, &[13], &[15], 2, "");
    assert_eq!(moves_of(&ludii, &state), vec!["13-11"]);
    assert_eq!(moves(&pos(&[13], &[15], 2)), vec!["13-15"]);
    // 30 is safe without the option, not with it.
    let state = pos_full(&ludii, &[26], &[30], 4, "");
    assert_eq!(moves_of(&ludii, &state), vec!["26-30"]);
    assert_eq!(moves(&pos(&[26], &[30], 4)), vec!["26-22"]);
    // 26, 28, 29 stay safe.
    let state = pos_full(&ludii, &[24], &[26], 2, "");
    assert_eq!(moves_of(&ludii, &state), vec!["24-22"]);
}

#[test]
fn option_start_rule_first_row_holds_back_every_piece_on_1_to_10() {
    let first_row = Jequier::default().with_start_rule(StartRule::FirstRow);
    // A piece that has moved, on 4 with 5 occupied: free by J-5, held back with the option.
    let state = pos_full(&first_row, &[4, 12], &[5], 2, "unmoved=none");
    assert_eq!(moves_of(&first_row, &state), vec!["12-14"]);
    assert_eq!(
        moves(&pos_full(
            &Jequier::default(),
            &[4, 12],
            &[5],
            2,
            "unmoved=none"
        )),
        vec!["4-6", "12-14"]
    );
    // Backward moves too.
    let state = pos_full(&first_row, &[4], &[5, 6, 7], 2, "unmoved=none");
    assert_eq!(moves_of(&first_row, &state), vec!["pass"]);
    // 10 waits for 11; 11 (row 2) never waits.
    let state = pos_full(&first_row, &[10, 11], &[20], 2, "unmoved=none");
    assert_eq!(moves_of(&first_row, &state), vec!["11-13"]);
}

#[test]
fn option_backward_priority_per_piece_lets_a_stuck_piece_go_back() {
    let per_piece = Jequier::default().with_backward_priority(BackwardPriority::PerPiece);
    let state = pos_full(&per_piece, &[12, 20], &[14, 15], 2, "");
    assert_eq!(moves_of(&per_piece, &state), vec!["12-10", "20-22"]);
    // Still only to an empty square, and a piece that can go forward does not go back.
    let state = pos_full(&per_piece, &[12, 20], &[10, 14, 15], 2, "");
    assert_eq!(moves_of(&per_piece, &state), vec!["20-22"]);
}

// ---------------------------------------------------------------- scenarios

#[test]
fn j_s1_start_after_the_opening_move() {
    let rules = Jequier::default();
    let state = rules.initial_state();
    assert_squares(&state, &[2, 4, 6, 8, 11], &[1, 3, 5, 7, 9]);
    assert_eq!(rules.phase(&state), Phase::Throw(Side::Black));
    // The board and side alone give the same state (the default unmoved pieces).
    let text = format!("WBWBWBWBW.B{} b", ".".repeat(19));
    assert_eq!(rules.parse_position(&text).unwrap(), state);
    assert_eq!(rules.position_string(&state), text);
}

#[test]
fn j_s2_odd_to_move_with_2_only_9_to_11_and_the_victim_goes_to_10() {
    let rules = Jequier::default();
    let text = format!("WBWBWBWBW.B{} w throw=2", ".".repeat(19));
    let state = rules.parse_position(&text).unwrap();
    assert_eq!(moves(&state), vec!["9-11"]);
    let next = play(&state, "9-11");
    assert_eq!(white(&next), set(&[1, 3, 5, 7, 11]));
    assert_eq!(black(&next), set(&[2, 4, 6, 8, 10]));
    // The even piece back on 10 has moved: it does not wait for 11 to clear.
    assert_eq!(next.unmoved(Side::Black), set(&[2, 4, 6, 8]));
}

#[test]
fn j_s3_attack_sends_the_victim_to_the_lowest_empty_square() {
    let next = play(&pos(&[12], &[1, 2, 14], 2), "12-14");
    assert_squares(&next, &[14], &[1, 2, 3]);
}

#[test]
fn j_s4_any_move_past_30_bears_off_and_30_can_be_reached() {
    assert_eq!(moves(&pos(&[24, 29], &[1], 6)), vec!["24-30", "29-off"]);
}

#[test]
fn j_s5_no_bearing_off_with_a_piece_outside_row_three() {
    assert_eq!(moves(&pos(&[19, 29], &[1], 2)), vec!["19-21"]);
}

// ---------------------------------------------------------------- notation and driver

#[test]
fn unmoved_field_is_validated() {
    let rules = Jequier::default();
    let bad = [
        // No piece on 4.
        scenario(&[12], &[1], "unmoved=4"),
        // 3 starts a White piece, but Black stands there.
        scenario(&[3], &[1], "unmoved=3"),
        // 12 is not a starting square.
        scenario(&[12], &[1], "unmoved=12"),
        scenario(&[12], &[1], "unmoved=x"),
        scenario(&[12], &[1], "unmoved=2,2"),
    ];
    for text in bad {
        assert!(
            matches!(
                rules.parse_position(&text),
                Err(PositionError::BadField { .. })
            ),
            "{text}"
        );
    }
    let state = rules
        .parse_position(&scenario(&[2, 4], &[1], "unmoved=4"))
        .unwrap();
    assert_eq!(state.unmoved(Side::Black), set(&[4]));
    assert_eq!(state.unmoved(Side::White), SquareSet::EMPTY);
    assert!(rules.position_string(&state).ends_with("unmoved=4"));
}

#[test]
fn an_illegal_move_leaves_the_game_unchanged() {
    // 2→4 lands on Black's own piece; 8→10 is held back by J-5.
    assert_illegal_moves_refused(Jequier::default(), 2, &["2-4", "8-10", "11-12", "pass"]);
}
