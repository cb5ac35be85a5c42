//! One test (at least) per rule, option, interpretation and scenario of
//! `docs/rules/botermans.md`. Each test fails if its rule is broken.
//!
//! Positions use the scenario notation (`senet_testkit::scenario_helpers!`): `me` is Black, to
//! move, `opp` White, every other piece is off. Where a scenario lists no opposing piece, the
//! tests put one out of the way: with none at all the opponent would already have won.

use senet_botermans::Botermans;
use senet_core::Throw;
use senet_core::{Move, Phase, PositionError, Ruleset, SeatRule, Side, Sticks};

senet_testkit::scenario_helpers!(Botermans, throw);

// ---------------------------------------------------------------- setup and throws

#[test]
fn b_01_five_pieces_a_side_odd_set_on_odd_squares() {
    let rules = Botermans::default();
    assert_eq!(rules.pieces_per_side(), 5);
    // The even set started on 2,4,6,8,10; its piece on 10 has made the forced move (B-3).
    assert_start(&rules, &[2, 4, 6, 8, 11], &[1, 3, 5, 7, 9]);
}

#[test]
fn b_02_sticks_with_no_marked_side_counting_six() {
    let rules = Botermans::default();
    let device = rules.device();
    assert_eq!(device, Sticks::ZERO_IS_SIX);
    assert_throws(&rules, &[(1, 4), (2, 6), (3, 4), (4, 1), (6, 1)], &[5]);
}

// ---------------------------------------------------------------- opening and turn

#[test]
fn b_03_first_to_throw_a_one_takes_the_even_set_and_moves_10_to_11() {
    assert_eq!(Botermans::SEAT_RULE, SeatRule::FirstToThrowOne);
    for draw in seat_draws(&Botermans::default(), 3, 100) {
        // Only the last throw is a 1, by the person who takes the even set.
        let ones: Vec<_> = draw.throws.iter().filter(|t| t.1 == 1).collect();
        assert_eq!(ones.len(), 1);
        assert_eq!(draw.throws.last(), Some(&(draw.black_player, Throw::at(1))));
    }
    // The deciding 1 has moved the piece on 10 to 11, and the even set throws again.
    let rules = Botermans::default();
    let state = rules.initial_state();
    assert!(black(&state).contains(sq(11)));
    assert!(!black(&state).contains(sq(10)));
    assert_eq!(rules.phase(&state), Phase::Throw(Side::Black));
}

#[test]
fn b_04_one_four_six_give_another_throw_two_three_end_the_turn() {
    let rules = Botermans::default();
    for (t, again) in [(1, true), (2, false), (3, false), (4, true), (6, true)] {
        let state = pos(&[5], &[20], t);
        let next = play(&state, &format!("5-{}", 5 + t));
        let expected = if again { Side::Black } else { Side::White };
        assert_eq!(rules.phase(&next), Phase::Throw(expected), "throw {t}");
    }
    // The same holds for a backward move: 15 cannot advance by 1 (16 holds a protected
    // pair), so it goes back, and the 1 still gives another throw.
    let state = pos(&[15], &[16, 17], 1);
    assert_eq!(moves(&state), vec!["15-14"]);
    assert_eq!(
        rules.phase(&play(&state, "15-14")),
        Phase::Throw(Side::Black)
    );
}

// ---------------------------------------------------------------- movement

#[test]
fn b_05_never_two_pieces_on_one_square_pieces_may_be_passed() {
    // 10 may not land on its own piece on 12.
    let state = pos(&[10, 11, 12], &[13], 2);
    assert_eq!(moves(&state), vec!["11-13", "12-14"]);
    // 10 passes its own 11 and the opposing 12.
    let state = pos(&[10, 11], &[12], 3);
    assert_eq!(moves(&state), vec!["10-13", "11-14"]);
}

#[test]
fn b_06_landing_on_an_opposing_piece_swaps_them() {
    let next = play(&pos(&[12], &[14], 2), "12-14");
    assert_squares(&next, &[14], &[12]);
}

#[test]
fn b_07_a_piece_with_a_neighbour_of_its_side_cannot_be_attacked() {
    // The neighbour may be behind or ahead; with nothing else forward, the move goes back.
    assert_eq!(moves(&pos(&[12], &[14, 15], 2)), vec!["12-10"]);
    assert_eq!(moves(&pos(&[12], &[13, 14], 2)), vec!["12-10"]);
    // A neighbour of the attacker's side does not protect.
    assert_eq!(moves(&pos(&[12, 15], &[14], 2)), vec!["12-14", "15-17"]);
}

#[test]
fn b_08_squares_26_28_29_30_are_safe() {
    for (from, target, t) in [(24, 26, 2), (25, 28, 3), (26, 29, 3)] {
        let state = pos(&[from], &[target], t);
        assert!(
            !moves(&state).contains(&format!("{from}-{target}")),
            "attack on {target}: {:?}",
            moves(&state)
        );
    }
    // 25 is not safe: the same attack works there.
    assert_eq!(moves(&pos(&[22], &[25], 3)), vec!["22-25"]);
    // 30 is safe too, but no piece ever stands there (reaching it bears off, B-12).
    let rules = Botermans::default();
    let text = scenario(&[20], &[30], "throw=2");
    assert!(matches!(
        rules.parse_position(&text),
        Err(PositionError::ForbiddenSquare { square, .. }) if square.get() == 30
    ));
}

#[test]
fn b_09_backward_when_nothing_moves_forward_else_the_throw_is_lost() {
    let rules = Botermans::default();
    // No forward move (protected pair): backward by the throw.
    assert_eq!(moves(&pos(&[15], &[17, 18], 3)), vec!["15-12"]);
    // Backward moves obey the same landing rules: not onto a protected piece (12, beside
    // 13), nor onto an own piece (15 back onto 12).
    assert_eq!(moves(&pos(&[15], &[12, 13, 17, 18], 3)), vec!["pass"]);
    assert_eq!(moves(&pos(&[12, 15], &[17, 18], 3)), vec!["12-9"]);
    // A backward attack swaps: the attacked piece goes forward to the mover's square.
    let state = pos(&[15], &[12, 17, 18], 3);
    assert_eq!(moves(&state), vec!["15-12"]);
    let next = play(&state, "15-12");
    assert_squares(&next, &[12], &[15, 17, 18]);
    // Never below square 1.
    assert_eq!(moves(&pos(&[2], &[5, 6], 3)), vec!["pass"]);
    // A lost throw ends the turn, even a 1, 4 or 6.
    for t in [1, 4, 6] {
        let state = pos(&[1], &[1 + t, 2 + t], t);
        assert_eq!(moves(&state), vec!["pass"], "throw {t}");
        assert_eq!(
            rules.phase(&play(&state, "pass")),
            Phase::Throw(Side::White)
        );
    }
    // A pass is refused while a move exists.
    let mut state = pos(&[15], &[17, 18], 3);
    let before = state;
    assert!(rules.try_play(&mut state, Move::PASS).is_err());
    assert_eq!(state, before);
}

#[test]
fn b_10_27_sends_the_piece_to_the_lowest_empty_square() {
    let next = play(&pos(&[23], &[1, 2, 4], 4), "23-27");
    assert_eq!(black(&next), set(&[3]));
    let next = play(&pos(&[5, 25], &[1, 2, 3, 4], 2), "25-27");
    assert_eq!(black(&next), set(&[5, 6]));
    // A piece going back onto 27 (28 with 1, when 29 is safe and taken) is sent on the
    // same way.
    let state = pos(&[28], &[1, 29], 1);
    assert_eq!(moves(&state), vec!["28-27"]);
    assert_eq!(black(&play(&state, "28-27")), set(&[2]));
    // Nothing ever stands on 27.
    let rules = Botermans::default();
    assert!(matches!(
        rules.parse_position(&scenario(&[27], &[1], "")),
        Err(PositionError::ForbiddenSquare { square, .. }) if square.get() == 27
    ));
}

// ---------------------------------------------------------------- bearing off and end

#[test]
fn b_11_bearing_off_only_with_every_piece_on_21_to_30() {
    assert_eq!(moves(&pos(&[19, 28], &[1], 2)), vec!["19-21"]);
    assert_eq!(moves(&pos(&[21, 28], &[1], 2)), vec!["21-23", "28-off"]);
    // Opposing pieces elsewhere do not matter.
    assert_eq!(
        moves(&pos(&[21, 28], &[1, 5, 12], 2)),
        vec!["21-23", "28-off"]
    );
}

#[test]
fn b_12_exactly_30_bears_off_and_a_larger_throw_bounces() {
    let rules = Botermans::default();
    let state = pos(&[26], &[5], 4);
    assert_eq!(moves(&state), vec!["26-off"]);
    let next = play(&state, "26-off");
    assert_eq!(next.board().off_count(Side::Black), 5);
    // The bounce: 60 − from − throw.
    assert_eq!(moves(&pos(&[29], &[5], 3)), vec!["29-28"]);
    assert_eq!(moves(&pos(&[25], &[5], 6)), vec!["25-29"]);
    assert_eq!(moves(&pos(&[28], &[5], 6)), vec!["28-26"]);
    // The bounced landing is an ordinary landing. Not onto an own piece: 28 with 3 would
    // bounce onto 29 and 29 onto 28.
    assert_eq!(moves(&pos(&[22, 28, 29], &[5], 3)), vec!["22-25"]);
    // Not onto a safe square (26, 28, 29) held by the opponent: backward instead.
    assert_eq!(moves(&pos(&[28], &[26], 6)), vec!["28-22"]);
    assert_eq!(moves(&pos(&[26], &[28], 6)), vec!["26-20"]);
    assert_eq!(moves(&pos(&[25], &[29], 6)), vec!["25-19"]);
    // An unprotected opposing piece elsewhere is swapped.
    let state = pos(&[29], &[25], 6);
    assert_eq!(moves(&state), vec!["29-25"]);
    let next = play(&state, "29-25");
    assert_squares(&next, &[25], &[29]);
    // A protected one cannot be attacked.
    assert_eq!(moves(&pos(&[29], &[24, 25], 6)), vec!["29-23"]);
    // A bounce onto 27 goes on to the lowest empty square (B-10).
    let state = pos(&[29], &[1], 4);
    assert_eq!(moves(&state), vec!["29-27"]);
    let next = play(&state, "29-27");
    assert_eq!(black(&next), set(&[2]));
    assert_eq!(rules.phase(&next), Phase::Throw(Side::Black));
}

#[test]
fn b_13_a_side_sent_back_bears_off_no_more_until_it_is_home_again() {
    let rules = Botermans::default();
    // Black is bearing off (21 and 28 home). White, to move, swaps its 19 with Black's 21.
    let text = scenario(&[21, 28], &[19], "throw=2").replacen(" b", " w", 1);
    let state = rules.parse_position(&text).unwrap();
    let mut next = play(&state, "19-21");
    assert_eq!(black(&next), set(&[19, 28]));
    // Black may no longer bear off 28 with a 2.
    rules.try_throw(&mut next, Throw::at(2)).unwrap();
    assert_eq!(rules.phase(&next), Phase::Move(Side::Black));
    assert_eq!(moves(&next), vec!["19-21"]);
    // The same after B-10: a piece sent from 27 to the start stops the bearing off, and a
    // bounce (which passes 30) is refused as well.
    let state = pos(&[24, 29], &[1], 3);
    let next = play(&state, "24-27");
    assert_eq!(black(&next), set(&[2, 29]));
    assert_eq!(moves(&pos(&[2, 29], &[1], 3)), vec!["2-5"]);
    // Home again, the bounce is back.
    assert_eq!(moves(&pos(&[21, 29], &[1], 3)), vec!["21-24", "29-28"]);
}

#[test]
fn b_14_first_to_finish_wins_the_loser_pays_three_two_one_per_piece() {
    let rules = Botermans::default();
    let state = pos(&[29], &[3, 12, 25, 28], 1);
    let next = play(&state, "29-off");
    let outcome = rules.outcome(&next).unwrap();
    assert_eq!(outcome.winner, Some(Side::Black));
    // The penalty is the loser's, negative: 3 (row 1) + 2 (row 2) + 1 + 1 (row 3).
    assert_eq!(
        outcome.points,
        senet_core::PerSide::new(0, -(3 + 2 + 1 + 1))
    );
    assert_eq!(Botermans::penalty(next.board(), Side::White), 7);
    assert_over(&rules, &next);
    // White winning: its penalty slot is 0, Black's negative.
    let text = scenario(&[1, 2], &[26], "throw=4").replacen(" b", " w", 1);
    let state = rules.parse_position(&text).unwrap();
    let next = play(&state, "26-off");
    assert_eq!(
        rules.outcome(&next).unwrap(),
        senet_core::Outcome {
            winner: Some(Side::White),
            points: senet_core::PerSide::new(-6, 0)
        }
    );
}

// ---------------------------------------------------------------- option

#[test]
fn option_blockade_of_three_forbids_passing_three_opposing_pieces() {
    let rules = Botermans::default().with_blockade_of_three(true);
    // Forward: 13 with 4 would pass 14, 15, 16; nothing else goes forward, so backward.
    let state = pos_with(&rules, &[13], &[14, 15, 16], 4);
    assert_eq!(moves_of(&rules, &state), vec!["13-9"]);
    // Backward too: 20 cannot advance onto the protected 24, and going back by 4 would
    // pass 19, 18, 17.
    let state = pos_with(&rules, &[20], &[17, 18, 19, 24, 25], 4);
    assert_eq!(moves_of(&rules, &state), vec!["pass"]);
    let state = pos(&[20], &[17, 18, 19, 24, 25], 4);
    assert_eq!(moves(&state), vec!["20-16"], "without the option");
    // Two in a row, or three not consecutive, may be passed.
    let state = pos_with(&rules, &[13], &[14, 15], 4);
    assert_eq!(moves_of(&rules, &state), vec!["13-17"]);
    let state = pos_with(&rules, &[11], &[12, 14, 16], 6);
    assert_eq!(moves_of(&rules, &state), vec!["11-17"]);
    // The owner's own pieces are not hindered.
    let state = pos_with(&rules, &[13, 14, 15, 16], &[1], 4);
    assert_eq!(
        moves_of(&rules, &state),
        vec!["13-17", "14-18", "15-19", "16-20"]
    );
}

// ---------------------------------------------------------------- interpretations

#[test]
fn i_1_backward_only_when_no_piece_of_the_side_can_advance() {
    // 15 cannot advance (17 protected) but 5 can: only the forward move is legal.
    assert_eq!(moves(&pos(&[5, 15], &[17, 18], 2)), vec!["5-7"]);
    // Once no piece can advance, every backward move is offered.
    assert_eq!(
        moves(&pos(&[5, 15], &[7, 8, 17, 18], 2)),
        vec!["5-3", "15-13"]
    );
}

#[test]
fn i_2_a_bounce_ending_where_it_started_is_not_a_move() {
    // 28 with 4 and 29 with 2 would bounce back onto their own squares.
    assert_eq!(moves(&pos(&[28], &[1], 4)), vec!["28-24"]);
    assert_eq!(moves(&pos(&[29], &[1], 2)), vec!["29-27"]);
    // A piece on 28 with 4 beside one that can move: only the other moves.
    assert_eq!(moves(&pos(&[22, 28], &[1], 4)), vec!["22-26"]);
}

#[test]
fn i_3_reaching_or_passing_30_is_illegal_until_all_are_home() {
    // 28 with 2 (reaching) and 29 with 3 (passing): not while 12 is out of row 3. 12 cannot
    // advance by 2 (14 protected), so every piece goes back.
    assert_eq!(moves(&pos(&[12, 28], &[14, 15], 2)), vec!["12-10", "28-26"]);
    assert_eq!(moves(&pos(&[12, 29], &[15, 16], 3)), vec!["12-9", "29-26"]);
    // A piece never stands on 30, so it can never be stuck there.
    let rules = Botermans::default();
    assert!(rules.parse_position(&scenario(&[30], &[1], "")).is_err());
}

#[test]
fn i_4_a_move_into_27_is_legal_and_compulsory_when_alone() {
    let rules = Botermans::default();
    let state = pos(&[25], &[1, 2], 2);
    assert_eq!(moves(&state), vec!["25-27"]);
    let mut copy = state;
    assert!(rules.try_play(&mut copy, Move::PASS).is_err());
    assert!(rules.try_play(&mut copy, "25-23".parse().unwrap()).is_err());
    assert_eq!(copy, state);
}

#[test]
fn i_5_no_blockade_by_default() {
    assert_eq!(moves(&pos(&[13], &[14, 15, 16], 4)), vec!["13-17"]);
    assert_eq!(moves(&pos(&[11], &[12, 13, 14, 15, 16], 6)), vec!["11-17"]);
}

#[test]
fn i_6_backward_moves_attack_unless_the_option_forbids_it() {
    // 15 cannot advance onto the protected pair 17-18; going back by 2 attacks 13.
    let state = pos(&[15], &[13, 17, 18], 2);
    assert_eq!(moves(&state), vec!["15-13"]);
    let swapped = play(&state, "15-13");
    assert_squares(&swapped, &[13], &[15, 17, 18]);
    // Option backward_attack=false: the backward move needs an empty square, so the throw
    // is lost; another piece going back onto an empty square still may.
    let rules = Botermans::default().with_backward_attack(false);
    let state = pos_with(&rules, &[15], &[13, 17, 18], 2);
    assert_eq!(moves_of(&rules, &state), vec!["pass"]);
    let state = pos_with(&rules, &[8, 15], &[10, 11, 13, 17, 18], 2);
    assert_eq!(moves_of(&rules, &state), vec!["8-6"]);
    assert_eq!(rules.spec().to_string(), "botermans(backward_attack=false)");
}

#[test]
fn i_7_a_piece_may_wait_on_30_with_the_option() {
    // By default 28 with a 2 may not reach 30 while 12 is out (I-3).
    assert_eq!(moves(&pos(&[12, 28], &[1], 2)), vec!["12-14"]);
    let rules = Botermans::default().with_wait_on_30(true);
    // With the option 28 may go to 30 and stay there.
    let state = pos_with(&rules, &[12, 28], &[1], 2);
    assert_eq!(moves_of(&rules, &state), vec!["12-14", "28-30"]);
    let waiting = play_with(&rules, &state, "28-30");
    assert_eq!(black(&waiting), set(&[12, 30]));
    // 30 is safe (B-8): the waiting piece cannot be attacked, and it blocks its own side.
    let state = pos_with(&rules, &[12, 26], &[30], 4);
    assert_eq!(moves_of(&rules, &state), vec!["12-16"]);
    let state = pos_with(&rules, &[12, 28, 30], &[1], 2);
    assert_eq!(moves_of(&rules, &state), vec!["12-14"]);
    // Passing 30 still needs the side home: 29 with a 3 may not bounce.
    let state = pos_with(&rules, &[12, 29], &[13, 14], 3);
    assert_eq!(moves_of(&rules, &state), vec!["12-15"]);
    // Once the side is home, the waiting piece leaves with any throw, and 28 with a 2 bears
    // off as usual.
    for t in [1, 2, 3, 4, 6] {
        let state = pos_with(&rules, &[30], &[1], t);
        assert_eq!(moves_of(&rules, &state), vec!["30-off"], "throw {t}");
    }
    let state = pos_with(&rules, &[28, 30], &[1], 2);
    assert_eq!(moves_of(&rules, &state), vec!["28-off", "30-off"]);
    // Without the option a piece on 30 is no position at all.
    assert!(
        Botermans::default()
            .parse_position(&scenario(&[30], &[1], ""))
            .is_err()
    );
    assert!(rules.parse_position(&scenario(&[30], &[1], "")).is_ok());
}

// ---------------------------------------------------------------- scenarios

#[test]
fn b_s1_start_after_the_forced_opening_move() {
    let rules = Botermans::default();
    let state = rules.initial_state();
    assert_squares(&state, &[2, 4, 6, 8, 11], &[1, 3, 5, 7, 9]);
    assert_eq!(rules.phase(&state), Phase::Throw(Side::Black));
}

#[test]
fn b_s2_a_swap_and_the_turn_passes() {
    let rules = Botermans::default();
    let state = pos(&[15], &[18], 3);
    assert_eq!(moves(&state), vec!["15-18"]);
    let next = play(&state, "15-18");
    assert_squares(&next, &[18], &[15]);
    assert_eq!(rules.phase(&next), Phase::Throw(Side::White));
}

#[test]
fn b_s3_no_forward_move_so_backward() {
    assert_eq!(moves(&pos(&[15], &[17, 18], 3)), vec!["15-12"]);
}

#[test]
fn b_s4_27_sends_to_the_lowest_empty_square() {
    let state = pos(&[25], &[1, 2], 2);
    assert_eq!(black(&play(&state, "25-27")), set(&[3]));
}

#[test]
fn b_s5_only_backward_16_to_15() {
    assert_eq!(moves(&pos(&[16, 17], &[18, 19], 1)), vec!["16-15"]);
}

#[test]
fn b_s6_28_bears_off_with_2_beside_22_to_24() {
    assert_eq!(moves(&pos(&[22, 28], &[1], 2)), vec!["22-24", "28-off"]);
}

#[test]
fn b_s7_29_bounces_to_28_beside_22_to_25() {
    let state = pos(&[22, 29], &[1], 3);
    assert_eq!(moves(&state), vec!["22-25", "29-28"]);
    assert_eq!(black(&play(&state, "29-28")), set(&[22, 28]));
}

#[test]
fn b_s8_no_bearing_off_while_19_is_out() {
    assert_eq!(moves(&pos(&[19, 28], &[1], 2)), vec!["19-21"]);
}

// ---------------------------------------------------------------- notation and driver

#[test]
fn positions_read_their_fields_and_refuse_impossible_states() {
    let rules = Botermans::default();
    // Board and side alone: no throw pending, missing pieces are off.
    let state = rules.parse_position(&scenario(&[12], &[14], "")).unwrap();
    assert_eq!(state.pending_throw(), None);
    assert_eq!(state.board().off_count(Side::Black), 4);
    assert_eq!(rules.position_string(&state), scenario(&[12], &[14], ""));
    let with_throw = scenario(&[12], &[14], "throw=6");
    assert_eq!(
        rules.position_string(&rules.parse_position(&with_throw).unwrap()),
        with_throw
    );
    for (text, what) in [
        (scenario(&[12], &[14], "throw=5"), "a 5"),
        (scenario(&[12], &[14], "colour=red"), "an unknown field"),
        (scenario(&[1, 2, 3, 4, 5, 6], &[14], ""), "six pieces"),
        (scenario(&[], &[], ""), "both sides finished"),
        (scenario(&[], &[3], "throw=2"), "a throw after the end"),
    ] {
        assert!(rules.parse_position(&text).is_err(), "{what}: {text}");
    }
}

#[test]
fn an_illegal_move_leaves_the_game_unchanged() {
    assert_illegal_moves_refused(Botermans::default(), 3, &["9-12"]);
}
