//! One test (at least) per rule, option, interpretation and scenario of
//! `docs/rules/regency.md`. Each test fails if its rule is broken.
//!
//! Positions use the scenario notation (`senet_testkit::scenario_helpers!`): `me` is Black, to
//! move, `opp` White, every other piece is off; White has already made its first
//! move, so R-5 does not apply. Where a scenario lists no opposing piece, the tests put one on
//! square 1, out of the way: with none at all the opponent would have won.

use senet_core::Throw;
use senet_core::{Move, Phase, Ruleset, SeatRule, Side, Sticks, ThrowingDevice};
use senet_regency::{ExitRule, Regency, RegencyState};

senet_testkit::scenario_helpers!(Regency, throw);

/// The state after the opening, with White to move, R-5 pending and `throw` pending.
fn white_first(throw: u8) -> RegencyState {
    let rules = Regency::default();
    let mut state = rules.initial_state();
    rules.try_throw(&mut state, Throw::at(2)).unwrap();
    state = play_with(&rules, &state, "8-10");
    rules.try_throw(&mut state, Throw::at(throw)).unwrap();
    assert_eq!(rules.phase(&state), Phase::Move(Side::White));
    state
}

// ---------------------------------------------------------------- setup and throws

#[test]
fn r_01_five_pieces_a_side_odd_set_on_odd_squares() {
    let rules = Regency::default();
    assert_eq!(rules.pieces_per_side(), 5);
    // The even set started on 2,4,6,8,10; its piece on 10 has made the forced move.
    assert_start(&rules, &[2, 4, 6, 8, 11], &[1, 3, 5, 7, 9]);
}

#[test]
fn r_02_sticks_with_no_marked_side_counting_six() {
    let rules = Regency::default();
    let device = rules.device();
    assert_eq!(device, Sticks::ZERO_IS_SIX);
    assert_eq!(device.denominator(), 16);
    assert_throws(&rules, &[(1, 4), (2, 6), (3, 4), (4, 1), (6, 1)], &[5]);
}

// ---------------------------------------------------------------- opening

#[test]
fn r_03_i_1_exactly_one_player_throwing_a_one_takes_the_even_set() {
    assert_eq!(Regency::SEAT_RULE, SeatRule::OnlyOneThrowsOne);
    for draw in seat_draws(&Regency::default(), 3, 100) {
        let last = &draw.throws[draw.throws.len() - 2..];
        assert!((last[0].1 == 1) != (last[1].1 == 1));
        let one = last.iter().find(|t| t.1 == 1).unwrap();
        assert_eq!(one.0, draw.black_player);
    }
}

#[test]
fn r_04_even_sets_forced_first_move_then_it_throws_again() {
    let rules = Regency::default();
    let state = rules.initial_state();
    assert!(state.board().pieces_of(Side::Black).contains(sq(11)));
    assert!(!state.board().pieces_of(Side::Black).contains(sq(10)));
    assert_eq!(rules.phase(&state), Phase::Throw(Side::Black));
}

#[test]
fn r_05_i_3_odd_sets_first_move_uses_its_piece_on_9() {
    // R-S2: with a 3 only 9→12, although 7→10 and others exist.
    assert_eq!(moves(&white_first(3)), vec!["9-12"]);
    // I-3: when the piece on 9 cannot move (9+1 = 10 holds a Black piece protected by 11),
    // any legal move may be made.
    let one = white_first(1);
    assert!(!moves(&one).contains(&"9-10".to_string()));
    assert!(moves(&one).len() > 1, "{:?}", moves(&one));
    // After White's first move there is no restriction.
    let rules = Regency::default();
    let mut state = play_with(&rules, &white_first(3), "9-12");
    assert!(state.white_opened());
    rules.try_throw(&mut state, Throw::at(3)).unwrap();
    let mut state = play_with(&rules, &state, "11-14");
    rules.try_throw(&mut state, Throw::at(3)).unwrap();
    assert!(moves(&state).len() > 1, "{:?}", moves(&state));
}

// ---------------------------------------------------------------- turn

#[test]
fn r_06_one_four_six_give_another_throw_two_three_end_the_turn() {
    let rules = Regency::default();
    for (t, same_side) in [(1, true), (2, false), (3, false), (4, true), (6, true)] {
        let state = pos(&[5], &[20], t);
        let next = play_with(&rules, &state, &format!("5-{}", 5 + t));
        let expected = if same_side { Side::Black } else { Side::White };
        assert_eq!(rules.phase(&next), Phase::Throw(expected), "throw {t}");
    }
}

#[test]
fn r_07_i_4_a_legal_move_must_be_made_an_unusable_throw_ends_the_turn() {
    let rules = Regency::default();
    // A move exists: no pass is offered, and a pass is refused.
    let state = pos(&[5], &[20], 2);
    assert_eq!(moves(&state), vec!["5-7"]);
    let mut copy = state;
    assert!(rules.try_play(&mut copy, Move::PASS).is_err());
    assert_eq!(copy, state);
    // No move: the only choice is pass, and the turn passes even after a 1, 4 or 6 (I-4).
    for t in [1, 4, 6] {
        let state = pos(&[12], &[12 + t, 13 + t], t);
        assert_eq!(moves(&state), vec!["pass"], "throw {t}");
        let next = play_with(&rules, &state, "pass");
        assert_eq!(rules.phase(&next), Phase::Throw(Side::White), "throw {t}");
    }
}

// ---------------------------------------------------------------- movement

#[test]
fn r_08_exactly_the_throw_forward_passing_pieces_of_either_side() {
    let state = pos(&[10, 11], &[12], 3);
    // 10 passes its own piece on 11 and the opposing one on 12; 11 passes 12.
    assert_eq!(moves(&state), vec!["10-13", "11-14"]);
    // No backward moves in Regency: with nothing forward, the only choice is to pass.
    let blocked = pos(&[12], &[14, 15], 2);
    assert_eq!(moves(&blocked), vec!["pass"]);
}

#[test]
fn r_09_never_onto_an_own_piece() {
    let state = pos(&[10, 12], &[25], 2);
    assert_eq!(moves(&state), vec!["12-14"]);
}

#[test]
fn r_10_attack_swaps_unless_protected_or_safe() {
    let rules = Regency::default();
    // A swap: the attacked piece goes to the square the mover left.
    let state = pos(&[12], &[14], 2);
    let next = play_with(&rules, &state, "12-14");
    assert_eq!(next.board().pieces_of(Side::Black), set(&[14]));
    assert_eq!(next.board().pieces_of(Side::White), set(&[12]));
    // (a) a piece with a neighbour of its own side cannot be attacked, on either side.
    assert_eq!(moves(&pos(&[12], &[14, 15], 2)), vec!["pass"]);
    assert_eq!(moves(&pos(&[12], &[13, 14], 2)), vec!["pass"]);
    // (b) safe squares 26, 28, 29 cannot be attacked even alone.
    for (from, target, t) in [(24, 26, 2), (26, 28, 2), (26, 29, 3)] {
        assert_eq!(
            moves(&pos(&[from], &[target], t)),
            vec!["pass"],
            "attack on {target}"
        );
    }
    // Square 25 is not safe: the same kind of attack works there.
    assert_eq!(moves(&pos(&[22], &[25], 3)), vec!["22-25"]);
    // 30 is safe too (visible where a piece can stand on it: the exit options).
    let rules = Regency::default().with_exit(ExitRule::BeyondThirty);
    let state = pos_with(&rules, &[26], &[30], 4);
    assert_eq!(moves_of(&rules, &state), vec!["pass"]);
}

#[test]
fn r_11_no_passing_three_opposing_pieces_in_a_row() {
    assert_eq!(moves(&pos(&[13], &[14, 15, 16], 4)), vec!["pass"]);
    assert_eq!(moves(&pos(&[11], &[14, 15, 16], 6)), vec!["pass"]);
    // Two in a row may be passed; three separated may be passed.
    assert_eq!(moves(&pos(&[13], &[14, 15], 4)), vec!["13-17"]);
    assert_eq!(moves(&pos(&[13], &[14, 16, 18], 6)), vec!["13-19"]);
    // The blockade does not hinder its owner's own pieces: White on 13 passes 14,15,16.
    let rules = Regency::default();
    let text = format!("{}WWWW{}B. w throw=4", ".".repeat(12), ".".repeat(12));
    let state = rules.parse_position(&text).unwrap();
    assert_eq!(moves(&state), vec!["13-17", "14-18", "15-19", "16-20"]);
}

#[test]
fn r_12_landing_on_27_sends_the_piece_to_the_lowest_empty_square() {
    let rules = Regency::default();
    let state = pos(&[23], &[1, 2, 4], 4);
    let next = play_with(&rules, &state, "23-27");
    assert_eq!(next.board().pieces_of(Side::Black), set(&[3]));
    let state = pos(&[5, 25], &[1, 2, 3, 4], 2);
    let next = play_with(&rules, &state, "25-27");
    assert_eq!(next.board().pieces_of(Side::Black), set(&[5, 6]));
    // Nothing ever stands on 27.
    assert!(
        rules
            .parse_position(&format!("{}B{} b", ".".repeat(26), "..."))
            .is_err()
    );
}

// ---------------------------------------------------------------- bearing off and end

#[test]
fn r_13_bearing_off_only_with_every_piece_in_row_three() {
    assert_eq!(moves(&pos(&[19, 28], &[1], 2)), vec!["19-21"]);
    assert_eq!(moves(&pos(&[21, 28], &[1], 2)), vec!["21-23", "28-off"]);
}

#[test]
fn r_14_i_2_pieces_leave_by_landing_exactly_on_30() {
    let rules = Regency::default();
    // Exactly on 30: borne off at once.
    let state = pos(&[26, 29], &[5], 4);
    assert_eq!(moves(&state), vec!["26-off"]);
    let next = play_with(&rules, &state, "26-off");
    assert_eq!(next.board().off_count(Side::Black), 4);
    assert!(
        next.board()
            .pieces_of(Side::Black)
            .iter()
            .all(|s| s.get() != 30)
    );
    // Past 30 is illegal: 29 with 2, 28 with 3.
    assert_eq!(moves(&pos(&[29], &[5], 2)), vec!["pass"]);
    assert_eq!(moves(&pos(&[28], &[5], 3)), vec!["pass"]);
    assert_eq!(moves(&pos(&[29], &[5], 1)), vec!["29-off"]);
}

#[test]
fn r_15_i_5_first_to_finish_wins_and_scores_three_two_one() {
    let rules = Regency::default();
    let state = pos(&[29], &[3, 12, 25], 1);
    let next = play_with(&rules, &state, "29-off");
    let outcome = rules.outcome(&next).unwrap();
    assert_eq!(outcome.winner, Some(Side::Black));
    assert_eq!(outcome.points, senet_core::PerSide::new(3 + 2 + 1, 0));
    assert_over(&rules, &next);
}

// ---------------------------------------------------------------- options

#[test]
fn option_house_of_happiness_26_must_be_landed_on_exactly() {
    let rules = Regency::default().with_house_of_happiness(true);
    // 24 with 3 would go from ≤25 to 27: forbidden; 23 with 3 lands on 26: allowed.
    let state = pos_with(&rules, &[23, 24], &[1], 3);
    assert_eq!(moves_of(&rules, &state), vec!["23-26"]);
    // Without the option both are legal.
    assert_eq!(moves(&pos(&[23, 24], &[1], 3)), vec!["23-26", "24-27"]);
    // From 26 onwards moves are free again.
    let state = pos_with(&rules, &[26], &[1], 4);
    assert_eq!(moves_of(&rules, &state), vec!["26-off"]);
}

#[test]
fn option_house_of_water_27_sends_to_15_if_empty() {
    let rules = Regency::default().with_house_of_water(true);
    let state = pos_with(&rules, &[3, 25], &[1, 2], 2);
    let next = play_with(&rules, &state, "25-27");
    assert_eq!(next.board().pieces_of(Side::Black), set(&[3, 15]));
    // 15 occupied: fall back to R-12.
    let state = pos_with(&rules, &[3, 25], &[1, 2, 15], 2);
    let next = play_with(&rules, &state, "25-27");
    assert_eq!(next.board().pieces_of(Side::Black), set(&[3, 4]));
}

#[test]
fn option_exits_from_28_29_30_replace_r_14() {
    let rules = Regency::default().with_exit(ExitRule::From28To30);
    let outcomes = |me: &[u8], t: u8| moves_of(&rules, &pos_with(&rules, me, &[5], t));
    assert_eq!(outcomes(&[28], 3), vec!["28-off"]);
    assert_eq!(outcomes(&[29], 2), vec!["29-off"]);
    assert_eq!(outcomes(&[30], 1), vec!["30-off"]);
    // 30 is an ordinary square now: reaching it keeps the piece on the board.
    assert_eq!(outcomes(&[26], 4), vec!["26-30"]);
    let next = play_with(&rules, &pos_with(&rules, &[26], &[5], 4), "26-30");
    assert!(next.board().pieces_of(Side::Black).contains(sq(30)));
    // Past the exit is illegal, and only 28–30 exit.
    assert_eq!(outcomes(&[28], 4), vec!["pass"]);
    assert_eq!(outcomes(&[25], 6), vec!["pass"]);
    // Still only while R-13 holds.
    assert_eq!(outcomes(&[19, 28], 3), vec!["19-22"]);
}

#[test]
fn option_exit_beyond_30_leaves_with_exactly_31_minus_s() {
    let rules = Regency::default().with_exit(ExitRule::BeyondThirty);
    let outcomes = |me: &[u8], t: u8| moves_of(&rules, &pos_with(&rules, me, &[5], t));
    assert_eq!(outcomes(&[25], 6), vec!["25-off"]);
    assert_eq!(outcomes(&[30], 1), vec!["30-off"]);
    assert_eq!(outcomes(&[26], 4), vec!["26-30"]);
    assert_eq!(outcomes(&[29], 3), vec!["pass"]);
    assert_eq!(outcomes(&[20, 25], 6), vec!["20-26"]);
}

#[test]
fn option_lost_throw_keeps_extra_throw() {
    let rules = Regency::default().with_lost_throw_keeps_extra_throw(true);
    for (t, again) in [(1, true), (4, true), (6, true), (2, false), (3, false)] {
        let state = pos_with(&rules, &[12], &[12 + t, 13 + t], t);
        assert_eq!(moves_of(&rules, &state), vec!["pass"]);
        let next = play_with(&rules, &state, "pass");
        let expected = if again { Side::Black } else { Side::White };
        assert_eq!(rules.phase(&next), Phase::Throw(expected), "throw {t}");
    }
}

#[test]
fn i_6_collect_throws_then_spend_them_in_any_order() {
    let rules = Regency::default().with_collect_throws(true);
    let mut state = rules.initial_state();
    // Black throws until a 2 or 3 comes: the 1 and the 4 are held, not played.
    for t in [1, 4] {
        rules.try_throw(&mut state, Throw::at(t)).unwrap();
        assert_eq!(rules.phase(&state), Phase::Throw(Side::Black));
    }
    assert_eq!(
        rules.position_string(&state),
        "WBWBWBWBW.B................... b white_opened=false throws=14 phase=throw"
    );
    rules.try_throw(&mut state, Throw::at(2)).unwrap();
    assert_eq!(rules.phase(&state), Phase::Move(Side::Black));
    assert_eq!(state.held_throws().collect::<Vec<_>>(), [1, 2, 4]);
    // Every held throw offers its moves, each naming its throw.
    assert_eq!(
        moves_of(&rules, &state),
        [
            "2-3/1", "4-5/1", "6-7/1", "8-9/1", "11-12/1", "8-10/2", "11-13/2", "6-10/4", "8-12/4",
            "11-15/4"
        ]
    );
    assert!(!rules.is_legal(&state, "11-12".parse().unwrap()));
    assert!(!rules.is_legal(&state, "11-14/3".parse().unwrap()));
    // Spent in the order the player likes; the side keeps the move until all are spent.
    let state = play_with(&rules, &state, "11-15/4");
    assert_eq!(rules.phase(&state), Phase::Move(Side::Black));
    assert_eq!(state.held_throws().collect::<Vec<_>>(), [1, 2]);
    let state = play_with(&rules, &state, "8-10/2");
    let state = play_with(&rules, &state, "15-16/1");
    assert_eq!(rules.phase(&state), Phase::Throw(Side::White));
    assert_eq!(state.held_throws().count(), 0);
    // R-5 still binds White's first move: only its piece on 9, with any held throw.
    let mut state = state;
    rules.try_throw(&mut state, Throw::at(1)).unwrap();
    rules.try_throw(&mut state, Throw::at(3)).unwrap();
    assert_eq!(moves_of(&rules, &state), ["9-10/1", "9-12/3"]);
    // Held throws that can move nothing are lost together: a plain pass ends the turn.
    let text = scenario(&[12], &[14, 15, 16], "throws=11 phase=move");
    let state = rules.parse_position(&text).unwrap();
    assert_eq!(moves_of(&rules, &state), ["12-13/1"]);
    let state = play_with(&rules, &state, "12-13/1");
    assert_eq!(moves_of(&rules, &state), ["pass"]);
    assert!(!rules.is_legal(&state, "pass/1".parse().unwrap()));
    assert_eq!(
        rules.phase(&play_with(&rules, &state, "pass")),
        Phase::Throw(Side::White)
    );
    // The notation round-trips, and refuses what cannot happen.
    for text in [
        scenario(&[12], &[20], "throws=1146"),
        scenario(&[12], &[20], "throws=4 phase=throw"),
        scenario(&[12], &[20], "throws=16"),
    ] {
        let state = rules.parse_position(&text).unwrap();
        assert_eq!(rules.position_string(&state), text);
    }
    for bad in [
        "throws=23",
        "throws=5",
        "throws=2 phase=throw",
        "phase=move",
        "throw=2",
    ] {
        assert!(
            rules.parse_position(&scenario(&[12], &[20], bad)).is_err(),
            "{bad}"
        );
    }
    assert!(
        Regency::default()
            .parse_position(&scenario(&[12], &[20], "throws=2"))
            .is_err()
    );
    // The option replaces the question of I-4: with it, no throw is lost mid-throwing.
    assert_spec_conflict::<Regency>(
        "regency(lost_throw_keeps_extra_throw=true,collect_throws=true)",
    );
}

// ---------------------------------------------------------------- scenarios

#[test]
fn r_s1_start_after_the_forced_opening_move() {
    let rules = Regency::default();
    let state = rules.initial_state();
    assert_eq!(state.board().pieces_of(Side::Black), set(&[2, 4, 6, 8, 11]));
    assert_eq!(state.board().pieces_of(Side::White), set(&[1, 3, 5, 7, 9]));
    assert_eq!(rules.phase(&state), Phase::Throw(Side::Black));
}

#[test]
fn r_s2_odd_first_move_with_3_is_only_9_to_12() {
    assert_eq!(moves(&white_first(3)), vec!["9-12"]);
}

#[test]
fn r_s3_odd_first_move_with_2_swaps_9_and_11() {
    let rules = Regency::default();
    // The position of R-S1 with White to move and a 2 thrown.
    let text = format!("WBWBWBWBW.B{} w throw=2 white_opened=false", ".".repeat(19));
    let state = rules.parse_position(&text).unwrap();
    assert_eq!(moves(&state), vec!["9-11"]);
    let next = play_with(&rules, &state, "9-11");
    assert_eq!(next.board().pieces_of(Side::White), set(&[1, 3, 5, 7, 11]));
    assert_eq!(next.board().pieces_of(Side::Black), set(&[2, 4, 6, 8, 9]));
}

#[test]
fn r_s4_protected_pair_the_throw_is_lost() {
    let rules = Regency::default();
    let state = pos(&[12], &[14, 15], 2);
    assert_eq!(moves(&state), vec!["pass"]);
    assert_eq!(
        rules.phase(&play_with(&rules, &state, "pass")),
        Phase::Throw(Side::White)
    );
}

#[test]
fn r_s5_a_pair_may_be_passed() {
    assert_eq!(moves(&pos(&[12], &[14, 15], 4)), vec!["12-16"]);
}

#[test]
fn r_s6_blockade_of_three() {
    assert_eq!(moves(&pos(&[13], &[14, 15, 16], 4)), vec!["pass"]);
}

#[test]
fn r_s7_square_27_returns_to_the_start_or_to_15() {
    let rules = Regency::default();
    let state = pos(&[3, 25], &[1, 2], 2);
    assert_eq!(moves(&state), vec!["3-5", "25-27"]);
    let next = play_with(&rules, &state, "25-27");
    assert_eq!(next.board().pieces_of(Side::Black), set(&[3, 4]));
    let water = Regency::default().with_house_of_water(true);
    let state = pos_with(&water, &[3, 25], &[1, 2], 2);
    let next = play_with(&water, &state, "25-27");
    assert_eq!(next.board().pieces_of(Side::Black), set(&[3, 15]));
}

#[test]
fn r_s8_landing_on_30_bears_off() {
    assert_eq!(moves(&pos(&[23, 28], &[1], 2)), vec!["23-25", "28-off"]);
}

#[test]
fn r_s9_no_bearing_off_while_a_piece_is_outside_row_three() {
    assert_eq!(moves(&pos(&[19, 28], &[1], 2)), vec!["19-21"]);
}

// ---------------------------------------------------------------- the driver

#[test]
fn an_illegal_move_leaves_the_game_unchanged() {
    assert_illegal_moves_refused(Regency::default(), 3, &["9-12"]);
}
