//! One test (at least) per rule, option, interpretation and scenario of
//! `docs/rules/cemea.md`. Each test fails if its rule is broken.
//!
//! Positions use the scenario notation (`senet_testkit::scenario_helpers!`): `me` is Black, to
//! move, `opp` White, every other piece is off. Where a scenario lists no opposing piece, the
//! tests put one out of the way: with none at all the opponent would already have won.

use senet_cemea::{Cemea, Pieces};
use senet_core::Throw;
use senet_core::{
    Move, Outcome, Phase, PositionError, Ruleset, SeatRule, Side, StandardDevice, Sticks,
    ThrowingDevice,
};

senet_testkit::scenario_helpers!(Cemea, throw);

// ---------------------------------------------------------------- setup and throws

#[test]
fn c_01_seven_pieces_a_side_odd_set_on_odd_squares() {
    let rules = Cemea::default();
    assert_eq!(rules.pieces_per_side(), 7);
    assert_start(&rules, &[2, 4, 6, 8, 10, 12, 14], &[1, 3, 5, 7, 9, 11, 13]);
}

#[test]
fn c_02_sticks_with_no_marked_side_counting_six() {
    let rules = Cemea::default();
    let device = rules.device();
    assert_eq!(device, StandardDevice::Sticks(Sticks::ZERO_IS_SIX));
    assert_throws(&rules, &[(1, 4), (2, 6), (3, 4), (4, 1), (6, 1)], &[5]);
}

#[test]
fn c_03_first_to_throw_a_one_takes_the_even_set_which_opens_with_a_fresh_throw() {
    assert_eq!(Cemea::SEAT_RULE, SeatRule::FirstToThrowOne);
    for draw in seat_draws(&Cemea::default(), 4, 100) {
        assert_eq!(draw.throws.iter().filter(|t| t.1 == 1).count(), 1);
        assert_eq!(draw.throws.last(), Some(&(draw.black_player, Throw::at(1))));
    }
    // The deciding 1 is not played: the layout is untouched and Black throws.
    let rules = Cemea::default();
    let state = rules.initial_state();
    assert_eq!(black(&state), set(&[2, 4, 6, 8, 10, 12, 14]));
    assert_eq!(rules.phase(&state), Phase::Throw(Side::Black));
    assert_eq!(state.pending_throw(), None);
}

#[test]
fn c_04_one_four_six_give_another_throw_two_three_end_the_turn() {
    let rules = Cemea::default();
    for (t, again) in [(1, true), (2, false), (3, false), (4, true), (6, true)] {
        let next = play(&pos(&[5], &[20], t), &format!("5-{}", 5 + t));
        let expected = if again { Side::Black } else { Side::White };
        assert_eq!(rules.phase(&next), Phase::Throw(expected), "throw {t}");
    }
}

#[test]
fn c_05_backward_when_nothing_moves_forward_else_the_throw_is_lost() {
    let rules = Cemea::default();
    assert_eq!(moves(&pos(&[12], &[14, 15], 2)), vec!["12-10"]);
    // A backward attack swaps too.
    let state = pos(&[12], &[10, 14, 15], 2);
    assert_eq!(moves(&state), vec!["12-10"]);
    let next = play(&state, "12-10");
    assert_squares(&next, &[10], &[12, 14, 15]);
    // Never below 1; nothing at all: the throw is lost and the turn passes, even a 1, 4, 6.
    for t in [1, 4, 6] {
        let state = pos(&[1], &[1 + t, 2 + t], t);
        assert_eq!(moves(&state), vec!["pass"], "throw {t}");
        assert_eq!(
            rules.phase(&play(&state, "pass")),
            Phase::Throw(Side::White)
        );
    }
    // Backward only when no piece moves forward.
    assert_eq!(moves(&pos(&[3, 12], &[14, 15], 2)), vec!["3-5"]);
}

// ---------------------------------------------------------------- interaction

#[test]
fn c_06_landing_on_an_opposing_piece_swaps_them() {
    let next = play(&pos(&[12], &[14], 2), "12-14");
    assert_squares(&next, &[14], &[12]);
}

#[test]
fn c_07_a_wall_of_two_cannot_be_attacked_but_may_be_passed() {
    assert_eq!(moves(&pos(&[12], &[14, 15], 2)), vec!["12-10"]);
    assert_eq!(moves(&pos(&[12], &[13, 14], 2)), vec!["12-10"]);
    assert_eq!(moves(&pos(&[12], &[14, 15], 4)), vec!["12-16"]);
    // Backward over a wall of two too (16 cannot advance onto the wall 19-20).
    assert_eq!(moves(&pos(&[16], &[13, 14, 19, 20], 4)), vec!["16-12"]);
}

#[test]
fn c_08_a_wall_of_three_can_be_neither_attacked_nor_passed() {
    // Attacked: 13 with 2 onto 15, the middle of 14-15-16; backward instead.
    assert_eq!(moves(&pos(&[13], &[14, 15, 16], 2)), vec!["13-11"]);
    // Passed forward: backward instead (C-S3).
    assert_eq!(moves(&pos(&[12], &[14, 15, 16], 6)), vec!["12-6"]);
    // Passed backward: 20 cannot advance onto the wall 24-25, nor go back over 17-18-19.
    assert_eq!(moves(&pos(&[20], &[17, 18, 19, 24, 25], 4)), vec!["pass"]);
    // Three not in a row may be passed.
    assert_eq!(moves(&pos(&[11], &[12, 14, 16], 6)), vec!["11-17"]);
    // A wall does not hinder its own side.
    let rules = Cemea::default();
    let text = scenario(&[1], &[14, 15, 16], "throw=4").replacen(" b", " w", 1);
    let state = rules.parse_position(&text).unwrap();
    assert_eq!(moves(&state), vec!["14-18", "15-19", "16-20"]);
}

#[test]
fn c_09_a_forced_landing_on_an_own_piece_sends_that_piece_back() {
    // C-S8: to square 1.
    let state = pos(&[2, 4], &[5, 6, 7], 2);
    assert_eq!(moves(&state), vec!["2-4"]);
    let next = play(&state, "2-4");
    assert_eq!(black(&next), set(&[1, 4]));
    // 1 occupied: the lowest empty square. (10 cannot pass the wall 11-12-13, and neither
    // piece can go back without landing on the other or leaving the board.)
    let state = pos(&[4, 10], &[1, 11, 12, 13], 6);
    assert_eq!(moves(&state), vec!["4-10"]);
    assert_eq!(black(&play(&state, "4-10")), set(&[2, 10]));
    // The square just left counts as empty.
    let state = pos(&[2, 4], &[1, 5, 6, 7], 2);
    assert_eq!(moves(&state), vec!["2-4"]);
    assert_eq!(black(&play(&state, "2-4")), set(&[2, 4]));
    // A last resort only: while an ordinary backward move exists (9 back to 3), 4 does not
    // land on 10.
    assert_eq!(moves(&pos(&[4, 9, 10], &[11, 12, 13], 6)), vec!["9-3"]);
}

// ---------------------------------------------------------------- special squares

#[test]
fn c_10_26_jumps_to_28_with_a_1() {
    let rules = Cemea::default();
    let state = pos(&[26], &[1], 1);
    assert_eq!(moves(&state), vec!["26-28"]);
    let next = play(&state, "26-28");
    assert_eq!(black(&next), set(&[28]));
    assert_eq!(rules.phase(&next), Phase::Throw(Side::Black));
    // 27 is never reached from 26 with a 1, not even by a stranded opponent's square.
    assert!(!moves(&pos(&[26], &[27], 1)).contains(&"26-27".to_string()));
}

#[test]
fn c_11_27_sends_to_15_or_strands_the_side() {
    let rules = Cemea::default();
    // To 15 (C-S4).
    let next = play(&pos(&[24], &[1], 3), "24-27");
    assert_eq!(black(&next), set(&[15]));
    assert_eq!(next.stranded(), None);
    // Backward onto 27 as well.
    let next = play(&pos(&[28], &[1, 29], 1), "28-27");
    assert_eq!(black(&next), set(&[15]));
    // 15 taken: the piece stays and Black is stranded (C-S5).
    let next = play(&pos(&[5, 24], &[15], 3), "24-27");
    assert_eq!(black(&next), set(&[5, 27]));
    assert_eq!(next.stranded(), Some(Side::Black));
    // Nothing moves until a 4, which takes the stranded piece off.
    for t in [1, 2, 3, 6] {
        assert_eq!(moves(&pos(&[5, 27], &[15], t)), vec!["pass"], "throw {t}");
    }
    let state = pos(&[5, 27], &[15], 4);
    assert_eq!(moves(&state), vec!["27-off"]);
    let next = play(&state, "27-off");
    assert_eq!(black(&next), set(&[5]));
    assert_eq!(next.board().off_count(Side::Black), 6);
    assert_eq!(next.stranded(), None);
    assert_eq!(rules.phase(&next), Phase::Throw(Side::Black));
    // It counts as borne off: the last piece leaving that way wins.
    let next = play(&pos(&[27], &[15], 4), "27-off");
    assert_eq!(rules.outcome(&next).unwrap().winner, Some(Side::Black));
}

#[test]
fn c_12_refuges_and_exits_from_28_29_30() {
    // Refuges cannot be attacked.
    for (from, target, t) in [(25, 28, 3), (26, 29, 3), (28, 30, 2)] {
        let state = pos(&[from], &[target], t);
        assert_eq!(
            moves(&state),
            vec![format!("{from}-{}", from - t)],
            "attack on {target}"
        );
    }
    // Exits with exactly 3, 2, 1.
    assert_eq!(moves(&pos(&[28], &[1], 3)), vec!["28-off"]);
    assert_eq!(moves(&pos(&[29], &[1], 2)), vec!["29-off"]);
    assert_eq!(moves(&pos(&[30], &[1], 1)), vec!["30-off"]);
    // No other move goes past 30: backward instead.
    assert_eq!(moves(&pos(&[28], &[1], 4)), vec!["28-24"]);
    assert_eq!(moves(&pos(&[29], &[1], 3)), vec!["29-26"]);
    assert_eq!(moves(&pos(&[30], &[1], 2)), vec!["30-28"]);
    assert_eq!(moves(&pos(&[25], &[1], 6)), vec!["25-19"]);
    assert_eq!(moves(&pos(&[26], &[1], 6)), vec!["26-20"]);
}

#[test]
fn c_13_first_to_finish_wins_points_are_pieces_borne_off() {
    let rules = Cemea::default();
    let next = play(&pos(&[30], &[3, 12, 25], 1), "30-off");
    assert_eq!(
        rules.outcome(&next),
        Some(Outcome {
            winner: Some(Side::Black),
            points: senet_core::PerSide::new(7, 4)
        })
    );
    assert_over(&rules, &next);
}

// ---------------------------------------------------------------- options

#[test]
fn option_pieces_5_puts_the_sets_on_1_to_10() {
    let rules = Cemea::default().with_pieces(Pieces::Five);
    let state = rules.initial_state();
    assert_eq!(rules.pieces_per_side(), 5);
    assert_eq!(white(&state), set(&[1, 3, 5, 7, 9]));
    assert_eq!(black(&state), set(&[2, 4, 6, 8, 10]));
    // Five borne off is a win; missing pieces count as off.
    let next = play_with(&rules, &pos_with(&rules, &[30], &[3], 1), "30-off");
    assert_eq!(
        rules.outcome(&next),
        Some(Outcome {
            winner: Some(Side::Black),
            points: senet_core::PerSide::new(5, 4)
        })
    );
    // Six pieces do not fit.
    assert!(matches!(
        rules.parse_position(&scenario(&[2, 4, 6, 8, 10, 12], &[1], "")),
        Err(PositionError::PieceCount { found: 6, .. })
    ));
}

#[test]
fn option_die_throws_1_to_6_and_a_5_ends_the_turn() {
    let rules = Cemea::default().with_die(true);
    assert_eq!(rules.device(), StandardDevice::SixSidedDie);
    for v in 1..=6 {
        assert_eq!(rules.device().probability(Throw::at(v)), Some((1, 6)));
    }
    let state = pos_with(&rules, &[25], &[1], 5);
    assert_eq!(moves_of(&rules, &state), vec!["25-30"]);
    let next = play_with(&rules, &state, "25-30");
    assert_eq!(rules.phase(&next), Phase::Throw(Side::White));
    // A 5 is no exit (C-12 needs 3, 2, 1 from 28, 29, 30), and 1, 4, 6 still give a throw.
    let state = pos_with(&rules, &[26], &[1], 5);
    assert_eq!(moves_of(&rules, &state), vec!["26-21"]);
    for (t, again) in [
        (1, true),
        (2, false),
        (3, false),
        (4, true),
        (5, false),
        (6, true),
    ] {
        let next = play_with(
            &rules,
            &pos_with(&rules, &[5], &[20], t),
            &format!("5-{}", 5 + t),
        );
        let expected = if again { Side::Black } else { Side::White };
        assert_eq!(rules.phase(&next), Phase::Throw(expected), "throw {t}");
    }
    // Without the option a 5 cannot be read from a position either.
    assert!(
        Cemea::default()
            .parse_position(&scenario(&[25], &[1], "throw=5"))
            .is_err()
    );
}

#[test]
fn option_ancient_plays_on_until_both_finish() {
    let rules = Cemea::default().with_ancient(true);
    // Black's 11th turn (both have completed 10).
    let state = pos_full(&rules, &[30], &[28], 1, "black_turns=10 white_turns=10");
    // Black's last piece leaves: the game goes on, White alone.
    let next = play_with(&rules, &state, "30-off");
    assert_eq!(next.first_finished(), Some(Side::Black));
    assert_eq!(next.turns_taken(Side::Black), 11);
    assert_eq!(rules.phase(&next), Phase::Throw(Side::White));
    // White's 2 ends its turn, and its next turn follows at once.
    let next = throw_with(&rules, &next, 2);
    let next = play_with(&rules, &next, "28-30");
    assert_eq!(next.turns_taken(Side::White), 11);
    assert_eq!(rules.phase(&next), Phase::Throw(Side::White));
    let next = throw_with(&rules, &next, 1);
    let next = play_with(&rules, &next, "30-off");
    // The result: Black finished first; the points are the turns each took.
    assert_eq!(
        rules.outcome(&next),
        Some(Outcome {
            winner: Some(Side::Black),
            points: senet_core::PerSide::new(11, 12)
        })
    );
    // Without the option the first side to finish ends the game.
    let plain = Cemea::default();
    let next = play_with(&plain, &pos_with(&plain, &[30], &[28], 1), "30-off");
    assert_eq!(
        plain.outcome(&next),
        Some(Outcome {
            winner: Some(Side::Black),
            points: senet_core::PerSide::new(7, 6)
        })
    );
}

#[test]
fn option_forced_own_landing_off_makes_own_landings_illegal() {
    let rules = Cemea::default().with_forced_own_landing(false);
    let state = pos_with(&rules, &[2, 4], &[5, 6, 7], 2);
    assert_eq!(moves_of(&rules, &state), vec!["pass"]);
    assert_eq!(
        rules.phase(&play_with(&rules, &state, "pass")),
        Phase::Throw(Side::White)
    );
}

// ---------------------------------------------------------------- interpretations

#[test]
fn i_1_priority_forward_backward_own_landing_pass() {
    // (1) a forward move beats a backward one.
    assert_eq!(moves(&pos(&[3, 12], &[14, 15], 2)), vec!["3-5"]);
    // (2) a backward move beats an own landing (4 onto 10).
    assert_eq!(moves(&pos(&[4, 9, 10], &[11, 12, 13], 6)), vec!["9-3"]);
    // (3) an own landing forward (4 onto 10); its mirror 10 back onto 4 is not offered.
    let state = pos(&[4, 10], &[1, 11, 12, 13], 6);
    assert_eq!(moves(&state), vec!["4-10"]);
    // (4) nothing at all: pass.
    assert_eq!(moves(&pos(&[1], &[3, 4], 2)), vec!["pass"]);
}

#[test]
fn i_2_the_jump_is_illegal_when_28_holds_any_piece() {
    // An opposing piece (refuge): the piece on 26 goes back instead.
    assert_eq!(moves(&pos(&[26], &[28], 1)), vec!["26-25"]);
    // An own piece: 28 moves on instead, and 26 does not land on it.
    assert_eq!(moves(&pos(&[26, 28], &[1], 1)), vec!["28-29"]);
    // Nor is it a choice of 27: the only forward move of 26 with a 1 is the jump.
    assert_eq!(moves(&pos(&[26], &[1], 1)), vec!["26-28"]);
}

#[test]
fn i_3_a_stranded_side_throws_keeps_extra_throws_and_stays_on_27() {
    let rules = Cemea::default();
    for (t, again) in [(1, true), (2, false), (3, false), (6, true)] {
        let next = play(&pos(&[5, 27], &[15], t), "pass");
        let expected = if again { Side::Black } else { Side::White };
        assert_eq!(rules.phase(&next), Phase::Throw(expected), "throw {t}");
    }
    // With the die, a 5 is lost and ends the turn.
    let die = Cemea::default().with_die(true);
    let next = play_with(&die, &pos_with(&die, &[5, 27], &[15], 5), "pass");
    assert_eq!(die.phase(&next), Phase::Throw(Side::White));
    // 15 empty again: the piece stays stranded all the same.
    let state = pos(&[5, 27], &[16], 1);
    assert_eq!(state.stranded(), Some(Side::Black));
    assert_eq!(moves(&state), vec!["pass"]);
}

#[test]
fn i_4_no_bear_off_precondition_and_free_moves_inside_28_to_30() {
    assert_eq!(moves(&pos(&[3, 28], &[20], 3)), vec!["3-6", "28-off"]);
    assert_eq!(moves(&pos(&[28], &[1], 1)), vec!["28-29"]);
    assert_eq!(moves(&pos(&[28], &[1], 2)), vec!["28-30"]);
    assert_eq!(moves(&pos(&[29], &[1], 1)), vec!["29-30"]);
    // Targets held by an opposing piece are refuges.
    assert_eq!(moves(&pos(&[28], &[29], 1)), vec!["28-27"]);
}

#[test]
fn i_5_26_is_not_safe() {
    let state = pos(&[24], &[26], 2);
    assert_eq!(moves(&state), vec!["24-26"]);
    assert_eq!(white(&play(&state, "24-26")), set(&[24]));
}

#[test]
fn i_6_backward_moves_attack_unless_the_option_forbids_it() {
    // 12 cannot pass the wall of three; going back by 2 attacks the lone 10.
    let state = pos(&[12], &[10, 14, 15, 16], 2);
    assert_eq!(moves(&state), vec!["12-10"]);
    let swapped = play(&state, "12-10");
    assert_squares(&swapped, &[10], &[12, 14, 15, 16]);
    // Option backward_attack=false: the attacked piece would retreat to the attacker's
    // square, which only a forward attack allows; the throw is lost.
    let rules = Cemea::default().with_backward_attack(false);
    let state = pos_with(&rules, &[12], &[10, 14, 15, 16], 2);
    assert_eq!(moves_of(&rules, &state), vec!["pass"]);
    // Backward onto an empty square is still a move, and forward attacks are unchanged.
    let state = pos_with(&rules, &[12], &[8, 14, 15, 16], 2);
    assert_eq!(moves_of(&rules, &state), vec!["12-10"]);
    let state = pos_with(&rules, &[12], &[14], 2);
    assert_eq!(moves_of(&rules, &state), vec!["12-14"]);
}

#[test]
fn i_7_an_own_landing_may_come_before_backward_moves() {
    // By default a backward move (9 back to 3) beats the forced landing of 4 on 10.
    assert_eq!(moves(&pos(&[4, 9, 10], &[11, 12, 13], 6)), vec!["9-3"]);
    // Option own_landing_first: the forced forward landing comes first, and sends the piece
    // on 10 to square 1.
    let rules = Cemea::default().with_own_landing_first(true);
    let state = pos_with(&rules, &[4, 9, 10], &[11, 12, 13], 6);
    assert_eq!(moves_of(&rules, &state), vec!["4-10"]);
    assert_eq!(black(&play_with(&rules, &state, "4-10")), set(&[1, 9, 10]));
    // Without a forward own landing, backward moves follow; ordinary forward moves beat
    // everything.
    let state = pos_with(&rules, &[9], &[11, 12, 13], 6);
    assert_eq!(moves_of(&rules, &state), vec!["9-3"]);
    let state = pos_with(&rules, &[3, 9], &[20], 6);
    assert_eq!(moves_of(&rules, &state), vec!["9-15"]);
    // The option orders own landings, so it needs them.
    assert_spec_conflict::<Cemea>("cemea(forced_own_landing=false,own_landing_first=true)");
}

#[test]
fn i_8_a_stranded_sides_lost_throw_may_pass_the_turn() {
    let rules = Cemea::default().with_stranded_keeps_extra_throw(false);
    // Every lost throw passes the turn, as C-5 says, the 1 and the 6 included.
    for t in [1, 2, 3, 6] {
        let state = pos_with(&rules, &[5, 27], &[15], t);
        let next = play_with(&rules, &state, "pass");
        assert_eq!(rules.phase(&next), Phase::Throw(Side::White), "throw {t}");
    }
    // The 4 still bears the stranded piece off and gives another throw (C-4).
    let state = pos_with(&rules, &[5, 27], &[15], 4);
    let next = play_with(&rules, &state, "27-off");
    assert_eq!(rules.phase(&next), Phase::Throw(Side::Black));
    // By default the stranded side throws again after its 1 (I-3).
    let next = play(&pos(&[5, 27], &[15], 1), "pass");
    assert_eq!(Cemea::default().phase(&next), Phase::Throw(Side::Black));
}

#[test]
fn i_9_the_jump_from_26_may_be_optional() {
    let rules = Cemea::default().with_jump_optional(true);
    // With the option the piece on 26 may jump to 28 or step onto 27 (and go on to 15).
    let state = pos_with(&rules, &[26], &[1], 1);
    assert_eq!(moves_of(&rules, &state), vec!["26-28", "26-27"]);
    assert_eq!(black(&play_with(&rules, &state, "26-27")), set(&[15]));
    // With 28 taken the step alone remains, a forward move, so 26 does not go back.
    let state = pos_with(&rules, &[26], &[28], 1);
    assert_eq!(moves_of(&rules, &state), vec!["26-27"]);
    let mut refused = state;
    assert!(rules.try_play(&mut refused, Move::PASS).is_err());
    assert!(
        rules
            .try_play(&mut refused, "26-25".parse().unwrap())
            .is_err()
    );
    // Onto a lone stranded piece the step attacks it: the two swap, and with 15 taken the
    // attacker is stranded in its turn.
    let state = pos_with(&rules, &[26], &[15, 27], 1);
    let next = play_with(&rules, &state, "26-27");
    assert_squares(&next, &[27], &[15, 26]);
    // Without the option the step is refused.
    let mut plain = pos(&[26], &[1], 1);
    assert!(
        Cemea::default()
            .try_play(&mut plain, "26-27".parse().unwrap())
            .is_err()
    );
}

// ---------------------------------------------------------------- scenarios

#[test]
fn c_s1_start() {
    let rules = Cemea::default();
    let state = rules.initial_state();
    assert_eq!(white(&state), set(&[1, 3, 5, 7, 9, 11, 13]));
    assert_eq!(black(&state), set(&[2, 4, 6, 8, 10, 12, 14]));
    assert_eq!(rules.phase(&state), Phase::Throw(Side::Black));
}

#[test]
fn c_s2_a_wall_of_two_may_be_passed() {
    assert_eq!(moves(&pos(&[12], &[14, 15], 4)), vec!["12-16"]);
}

#[test]
fn c_s3_a_wall_of_three_may_not_so_backward() {
    assert_eq!(moves(&pos(&[12], &[14, 15, 16], 6)), vec!["12-6"]);
}

#[test]
fn c_s4_27_to_15() {
    let state = pos(&[24], &[1], 3);
    assert_eq!(moves(&state), vec!["24-27"]);
    assert_eq!(black(&play(&state, "24-27")), set(&[15]));
}

#[test]
fn c_s5_27_with_15_taken_strands_until_a_4() {
    let next = play(&pos(&[24], &[15], 3), "24-27");
    assert_eq!(black(&next), set(&[27]));
    assert_eq!(next.stranded(), Some(Side::Black));
    assert_eq!(moves(&pos(&[27], &[15], 2)), vec!["pass"]);
    assert_eq!(moves(&pos(&[27], &[15], 4)), vec!["27-off"]);
}

#[test]
fn c_s6_26_jumps_to_28() {
    assert_eq!(moves(&pos(&[26], &[1], 1)), vec!["26-28"]);
}

#[test]
fn c_s7_28_leaves_with_3_and_goes_to_30_with_2() {
    assert_eq!(moves(&pos(&[28], &[1], 3)), vec!["28-off"]);
    assert_eq!(moves(&pos(&[28], &[1], 2)), vec!["28-30"]);
}

#[test]
fn c_s8_the_last_resort_own_landing() {
    let state = pos(&[2, 4], &[5, 6, 7], 2);
    assert_eq!(moves(&state), vec!["2-4"]);
    assert_eq!(black(&play(&state, "2-4")), set(&[1, 4]));
}

// ---------------------------------------------------------------- choices the spec leaves open

#[test]
fn a_stranded_piece_can_be_attacked_which_frees_its_side() {
    // White stranded on 27 (15 taken by its own piece, no neighbour on 26 or 28).
    let state = pos(&[24], &[15, 27], 3);
    assert_eq!(state.stranded(), Some(Side::White));
    assert_eq!(moves(&state), vec!["24-27"]);
    let next = play(&state, "24-27");
    // Swap: White goes to 24; Black lands on 27, and 15 is taken, so Black is stranded now.
    assert_eq!(white(&next), set(&[15, 24]));
    assert_eq!(black(&next), set(&[27]));
    assert_eq!(next.stranded(), Some(Side::Black));
    // With a neighbour of its side on 26 it is part of a wall and cannot be attacked.
    assert_eq!(moves(&pos(&[24], &[15, 26, 27], 3)), vec!["24-21"]);
}

// ---------------------------------------------------------------- notation and driver

#[test]
fn positions_read_their_fields_and_refuse_impossible_states() {
    let rules = Cemea::default();
    // Board and side alone: no throw pending, missing pieces off, no one stranded.
    let text = scenario(&[12], &[14], "");
    let state = rules.parse_position(&text).unwrap();
    assert_eq!(state.pending_throw(), None);
    assert_eq!(state.board().off_count(Side::Black), 6);
    assert_eq!(rules.position_string(&state), text);
    let ancient = Cemea::default().with_ancient(true);
    // Ancient mode: both finished; the first to finish defaults to the side not to move.
    let over = ancient.parse_position(&scenario(&[], &[], "")).unwrap();
    assert_eq!(ancient.outcome(&over).unwrap().winner, Some(Side::White));
    let text = scenario(&[], &[], "first=b black_turns=40 white_turns=41");
    let over = ancient.parse_position(&text).unwrap();
    assert_eq!(
        ancient.outcome(&over),
        Some(Outcome {
            winner: Some(Side::Black),
            points: senet_core::PerSide::new(40, 41)
        })
    );
    assert_eq!(ancient.position_string(&over), text);
    for (rules, text, what) in [
        (
            rules,
            scenario(&[12], &[14], "throw=5"),
            "a 5 without the die",
        ),
        (
            rules,
            scenario(&[12], &[14], "colour=red"),
            "an unknown field",
        ),
        (rules, scenario(&[], &[], ""), "both finished, not ancient"),
        (
            rules,
            scenario(&[12], &[14], "black_turns=3"),
            "turns, not ancient",
        ),
        (
            rules,
            scenario(&[], &[3], "throw=2"),
            "a throw after the end",
        ),
        (
            ancient,
            scenario(&[12], &[14], "first=b"),
            "first, not finished",
        ),
        (
            ancient,
            scenario(&[], &[14], ""),
            "the finished side to move",
        ),
        (
            ancient,
            scenario(&[12], &[14], "white_turns=x"),
            "a bad count",
        ),
        (
            ancient,
            scenario(&[], &[], "throw=1"),
            "a throw after the end",
        ),
    ] {
        assert!(rules.parse_position(&text).is_err(), "{what}: {text}");
    }
}

#[test]
fn an_illegal_move_leaves_the_game_unchanged() {
    let mut game = assert_illegal_moves_refused(Cemea::default(), 2, &["2-4"]);
    let before = game.clone();
    assert_eq!(
        game.play(Move::PASS).unwrap_err().to_string(),
        "pass is not a legal move for Black now"
    );
    assert_eq!(game, before);
}
