//! One test (at least) per rule, option, interpretation, scenario and documented choice of
//! `docs/rules/kendall.md`. Each test fails if its rule is broken.
//!
//! Positions use the scenario notation: `me` is Black (to act), `opp` White, every other piece
//! is off. Where a scenario lists no opposing piece the tests put one on square 1, out of the
//! way: with none at all White would have won already.

use rand_chacha::ChaCha8Rng;
use rand_core::SeedableRng;
use senet_core::Throw;
use senet_core::{Move, Phase, PositionError, Ruleset, SeatRule, Side, Sticks};
use senet_kendall::{Kendall, KendallState, MAX_STORED_THROWS, PieceCount, ThrowTiming};
use senet_testkit::conformance::check_state;

senet_testkit::scenario_helpers!(Kendall);

/// Black to act on `me`, White on `opp`, with the position `fields` (e.g. `throws=24`).
fn pos_with(rules: &Kendall, me: &[u8], opp: &[u8], fields: &str) -> KendallState {
    senet_testkit::scenario::position(rules, me, opp, fields)
}

/// Black to act, holding the stored throws `throws` (digits; empty: Black throws next).
fn pos(me: &[u8], opp: &[u8], throws: &str) -> KendallState {
    let fields = if throws.is_empty() {
        String::new()
    } else {
        format!("throws={throws}")
    };
    pos_with(&Kendall::default(), me, opp, &fields)
}

fn stored(state: &KendallState) -> Vec<u8> {
    state.stored_throws().map(u8::from).collect()
}

// ---------------------------------------------------------------- setup, throws, opening

#[test]
fn k_01_seven_pieces_a_side_odd_set_on_odd_squares_even_set_on_even_squares() {
    let rules = Kendall::default();
    assert_eq!(rules.pieces_per_side(), 7);
    // The even set started on 2,4,…,14; its front piece made the opening move (K-3).
    assert_start(&rules, &[2, 4, 6, 8, 10, 12, 15], &[1, 3, 5, 7, 9, 11, 13]);
}

#[test]
fn k_02_sticks_with_no_marked_side_counting_five() {
    let rules = Kendall::default();
    let device = rules.device();
    assert_eq!(device, Sticks::ZERO_IS_FIVE);
    assert_throws(&rules, &[(1, 4), (2, 6), (3, 4), (4, 1), (5, 1)], &[0, 6]);
}

#[test]
fn k_03_first_to_throw_a_one_takes_the_even_set_and_moves_its_front_piece() {
    assert_eq!(Kendall::SEAT_RULE, SeatRule::FirstToThrowOne);
    for draw in seat_draws(&Kendall::default(), 3, 100) {
        assert_eq!(draw.throws.last(), Some(&(draw.black_player, Throw::at(1))));
        assert!(
            draw.throws[..draw.throws.len() - 1]
                .iter()
                .all(|t| t.1 != 1)
        );
    }
    let rules = Kendall::default();
    let state = rules.initial_state();
    assert!(state.board().pieces_of(Side::Black).has(15));
    assert!(!state.board().pieces_of(Side::Black).has(14));
    // That player then starts a turn.
    assert_eq!(rules.phase(&state), Phase::Throw(Side::Black));
}

// ---------------------------------------------------------------- the turn

#[test]
fn k_04_throw_until_a_two_or_three_one_four_five_give_another_throw() {
    let rules = Kendall::default();
    let start = rules.initial_state();
    for (value, again) in [(1, true), (2, false), (3, false), (4, true), (5, true)] {
        let next = throw_with(&rules, &start, value);
        let expected = if again {
            Phase::Throw(Side::Black)
        } else {
            Phase::Move(Side::Black)
        };
        assert_eq!(rules.phase(&next), expected, "throw {value}");
        assert_eq!(stored(&next), vec![value]);
    }
    // Every throw of the turn is collected before any move.
    let mut state = start;
    for value in [1, 4, 5, 1, 3] {
        assert_eq!(rules.phase(&state), Phase::Throw(Side::Black));
        state = throw_with(&rules, &state, value);
    }
    assert_eq!(rules.phase(&state), Phase::Move(Side::Black));
    assert_eq!(stored(&state), vec![1, 1, 3, 4, 5]);
}

#[test]
fn k_04_stored_throws_are_spent_one_at_a_time_in_any_order_each_naming_its_throw() {
    let rules = Kendall::default();
    let state = pos(&[10], &[1], "1245");
    assert_eq!(
        moves(&state),
        vec!["10-11/1", "10-12/2", "10-14/4", "10-15/5"]
    );
    // One piece may use several throws one after another; each move spends one throw.
    let after_four = play_with(&rules, &state, "10-14/4");
    assert_eq!(stored(&after_four), vec![1, 2, 5]);
    assert_eq!(moves(&after_four), vec!["14-15/1", "14-16/2", "14-19/5"]);
    let after_five = play_with(&rules, &after_four, "14-19/5");
    assert_eq!(stored(&after_five), vec![1, 2]);
    let after_one = play_with(&rules, &after_five, "19-20/1");
    assert_eq!(rules.phase(&after_one), Phase::Move(Side::Black));
    let done = play_with(&rules, &after_one, "20-22/2");
    assert_eq!(done.board().pieces_of(Side::Black), set(&[22]));
    // The turn ends when the last stored throw is spent.
    assert_eq!(rules.phase(&done), Phase::Throw(Side::White));
    assert_eq!(done.stored_count(), 0);
    // Any order: 5 then 4 reaches the same square as 4 then 5.
    let other = play_with(&rules, &play_with(&rules, &state, "10-15/5"), "15-19/4");
    assert_eq!(other.board(), after_five.board());
    assert_eq!(stored(&other), stored(&after_five));
    // A move naming a throw that is not stored is refused.
    let mut copy = state;
    assert!(
        rules
            .try_play(&mut copy, "10-13/3".parse().unwrap())
            .is_err()
    );
    assert!(rules.try_play(&mut copy, "10-14".parse().unwrap()).is_err());
    assert_eq!(copy, state);
}

#[test]
fn k_05_i_1_a_throw_with_no_forward_move_moves_backward_decided_per_throw() {
    // The 4 can go forward; the 2 cannot (15 is protected), so it must go backward.
    let state = pos(&[13], &[1, 14, 15, 16], "24");
    assert_eq!(moves(&state), vec!["13-11/2", "13-17/4"]);
    // After the 4 is spent, the 2 can go forward from 17: no backward move any more.
    let rules = Kendall::default();
    let next = play_with(&rules, &state, "13-17/4");
    assert_eq!(moves(&next), vec!["17-19/2"]);
    // Per player: another piece's forward move rules out every backward move for that throw.
    assert_eq!(moves(&pos(&[5, 13], &[1, 14, 15, 16], "2")), vec!["5-7/2"]);
    // A throw that can do neither is lost: the plain pass ends the turn.
    let stuck = pos(&[28], &[1], "2");
    assert_eq!(moves(&stuck), vec!["pass"]);
    let next = play_with(&rules, &stuck, "pass");
    assert_eq!(rules.phase(&next), Phase::Throw(Side::White));
    assert_eq!(next.board(), stuck.board());
}

// ---------------------------------------------------------------- movement

#[test]
fn k_06_landing_on_an_opposing_piece_swaps_forward_and_backward() {
    let rules = Kendall::default();
    let state = pos(&[12], &[14], "2");
    let next = play_with(&rules, &state, "12-14/2");
    assert_eq!(next.board().pieces_of(Side::Black), set(&[14]));
    assert_eq!(next.board().pieces_of(Side::White), set(&[12]));
    // Backward (K-S8 is the scenario): the attacked piece goes to the square the mover left.
    let state = pos(&[16, 17], &[15, 18, 19], "1");
    let next = play_with(&rules, &state, "16-15/1");
    assert_eq!(next.board().pieces_of(Side::Black), set(&[15, 17]));
    assert_eq!(next.board().pieces_of(Side::White), set(&[16, 18, 19]));
    // Never onto an own piece.
    assert_eq!(moves(&pos(&[10, 12], &[1], "2")), vec!["12-14/2"]);
}

#[test]
fn k_07_adjacent_pieces_of_one_side_cannot_be_attacked() {
    // Forward onto either piece of a pair: refused (the 2 then goes backward).
    assert_eq!(moves(&pos(&[13], &[15, 16], "2")), vec!["13-11/2"]);
    assert_eq!(moves(&pos(&[13], &[14, 15], "2")), vec!["13-11/2"]);
    // Backward onto a pair: refused too.
    assert_eq!(moves(&pos(&[28, 16], &[13, 14, 18, 19], "2")), vec!["pass"]);
    // A single piece can be attacked.
    assert_eq!(moves(&pos(&[13], &[15, 17], "2")), vec!["13-15/2"]);
}

#[test]
fn k_08_no_blockade_pieces_pass_any_number_of_pieces() {
    assert_eq!(moves(&pos(&[13], &[14, 15, 16], "4")), vec!["13-17/4"]);
    assert_eq!(moves(&pos(&[10], &[11, 12, 13, 14], "5")), vec!["10-15/5"]);
}

#[test]
fn k_09_square_26_must_be_reached_exactly() {
    for from in 22..=25u8 {
        for t in 1..=5u8 {
            let state = pos(&[from], &[1], &t.to_string());
            let list = moves(&state);
            if from + t <= 26 {
                assert_eq!(list, vec![format!("{from}-{}/{t}", from + t)]);
            } else {
                // Nothing beyond 26 nor off: the throw goes backward.
                assert_eq!(list, vec![format!("{from}-{}/{t}", from - t)]);
            }
        }
    }
}

#[test]
fn k_10_from_26_the_throw_moves_as_usual_and_five_bears_off() {
    let rules = Kendall::default();
    for (t, expected) in [
        (1, "26-27/1"),
        (2, "26-28/2"),
        (3, "26-29/3"),
        (4, "26-30/4"),
    ] {
        let state = pos(&[26], &[1], &t.to_string());
        assert_eq!(moves(&state), vec![expected]);
    }
    let state = pos(&[26, 5], &[1], "5");
    assert_eq!(moves(&state), vec!["5-10/5", "26-off/5", "pass/5"]);
    let next = play_with(&rules, &state, "26-off/5");
    assert_eq!(next.board().off_count(Side::Black), 6);
}

#[test]
fn k_11_pieces_on_28_to_30_leave_only_by_their_throws() {
    for t in 1..=5u8 {
        let exits = |from: u8| {
            let list = moves(&pos(&[from], &[1], &t.to_string()));
            list.first() == Some(&format!("{from}-off/{t}"))
        };
        assert!(exits(30), "30 leaves with {t}");
        assert_eq!(exits(29), t == 2, "29 with {t}");
        assert_eq!(exits(28), t == 3, "28 with {t}");
    }
    // No other move from 28–30, neither forward nor backward.
    assert_eq!(moves(&pos(&[28], &[1], "1")), vec!["pass"]);
    assert_eq!(moves(&pos(&[29], &[1], "5")), vec!["pass"]);
    assert_eq!(moves(&pos(&[28], &[1], "4")), vec!["pass"]);
}

#[test]
fn k_12_an_attack_from_26_sends_the_victim_into_the_water() {
    let rules = Kendall::default();
    for (t, target) in [(2u8, 28u8), (3, 29), (4, 30)] {
        let state = pos(&[26], &[1, target], &t.to_string());
        let mv = format!("26-{target}/{t}");
        assert_eq!(moves(&state), vec![mv.clone()]);
        let next = play_with(&rules, &state, &mv);
        assert_eq!(next.board().pieces_of(Side::Black), set(&[target]));
        assert_eq!(next.board().pieces_of(Side::White), set(&[1, 27]));
    }
    // Illegal when 27 is occupied (by either side)…
    let state = pos(&[26], &[1, 27, 29], "3");
    assert_eq!(moves(&state), vec!["26-23/3"]);
    // …or when K-7 protects the target.
    let state = pos(&[26], &[1, 29, 30], "3");
    assert_eq!(moves(&state), vec!["26-23/3"]);
}

// ---------------------------------------------------------------- the water

#[test]
fn k_13_entering_the_water_by_ones_own_move_ends_the_turn() {
    let rules = Kendall::default();
    let state = pos(&[26, 5], &[1], "124");
    let next = play_with(&rules, &state, "26-27/1");
    assert!(next.board().pieces_of(Side::Black).has(27));
    // The 2 and the 4 are lost.
    assert_eq!(next.stored_count(), 0);
    assert_eq!(rules.phase(&next), Phase::Throw(Side::White));
    // Only a 1 from 26 enters; nothing from 25 or below does (K-9).
    for from in 22..=25u8 {
        for t in 1..=5u8 {
            let state = pos(&[from], &[1], &t.to_string());
            assert!(
                !moves(&state).iter().any(|m| m.contains("-27")),
                "{from}/{t}"
            );
        }
    }
    // The victim of K-12 enters without ending the attacker's turn.
    let state = pos(&[26, 5], &[1, 29], "34");
    let next = play_with(&rules, &state, "26-29/3");
    assert!(next.board().pieces_of(Side::White).has(27));
    assert_eq!(rules.phase(&next), Phase::Move(Side::Black));
}

#[test]
fn k_14_the_piece_in_the_water_is_the_only_one_that_moves() {
    let rules = Kendall::default();
    let state = pos(&[27, 5], &[1], "24");
    assert_eq!(
        moves(&state),
        vec!["27-15/2", "pass/2", "27-off/4", "27-15/4", "pass/4"]
    );
    // Bearing off with the 4 keeps the turn: the 2 is then used as usual.
    let next = play_with(&rules, &state, "27-off/4");
    assert_eq!(moves(&next), vec!["5-7/2"]);
    // Back to 15 ends the turn; the 4 is lost.
    let next = play_with(&rules, &state, "27-15/2");
    assert_eq!(next.board().pieces_of(Side::Black), set(&[5, 15]));
    assert_eq!(rules.phase(&next), Phase::Throw(Side::White));
    assert_eq!(next.stored_count(), 0);
    // Leaving it there gives up that throw only.
    let next = play_with(&rules, &state, "pass/2");
    assert_eq!(stored(&next), vec![4]);
    assert_eq!(next.board(), state.board());
    // 15 occupied: no way back; with no 4 either, the throws are all lost.
    let blocked = pos(&[27, 5], &[1, 15], "24");
    assert_eq!(moves(&blocked), vec!["pass/2", "27-off/4", "pass/4"]);
    let blocked = pos(&[27, 5], &[1, 15], "21");
    assert_eq!(moves(&blocked), vec!["pass"]);
    // Only a 4 bears it off.
    let blocked = pos(&[27, 5], &[1, 15], "5");
    assert_eq!(moves(&blocked), vec!["pass"]);
    let blocked = pos(&[27, 5], &[1, 15], "45");
    assert_eq!(moves(&blocked), vec!["27-off/4", "pass/4", "pass/5"]);
}

#[test]
fn k_15_the_piece_back_on_15_must_move_next_if_it_can() {
    let rules = Kendall::default();
    // Sent back: the obligation is recorded for Black's next decision.
    let back = play_with(&rules, &pos(&[27, 20], &[1], "2"), "27-15/2");
    assert_eq!(back.must_move(Side::Black).map(|s| s.get()), Some(15));
    let back = throw_with(
        &rules,
        &play_with(&rules, &throw_with(&rules, &back, 2), "1-3/2"),
        2,
    );
    assert_eq!(moves(&back), vec!["15-17/2"]);
    // With several stored throws, the first one spent moves that piece; then the rest is free.
    let state = pos_with(&rules, &[15, 20], &[1], "throws=24 must_move_b=15");
    assert_eq!(moves(&state), vec!["15-17/2", "15-19/4"]);
    let next = play_with(&rules, &state, "15-19/4");
    assert_eq!(next.must_move(Side::Black), None);
    assert_eq!(moves(&next), vec!["19-21/2", "20-22/2"]);
    // When no stored throw can move it, the obligation lapses.
    let state = pos_with(&rules, &[15, 20], &[1, 16, 17], "throws=2 must_move_b=15");
    assert_eq!(moves(&state), vec!["20-22/2"]);
    let next = play_with(&rules, &state, "20-22/2");
    assert_eq!(next.must_move(Side::Black), None);
    // The obligation follows the piece when the opponent swaps it away.
    let text = format!(
        "{}W.B{} w throws=2 must_move_b=15",
        ".".repeat(12),
        ".".repeat(15)
    );
    let state = rules.parse_position(&text).unwrap();
    let next = play_with(&rules, &state, "13-15/2");
    assert_eq!(next.must_move(Side::Black).map(|s| s.get()), Some(13));
}

// ---------------------------------------------------------------- end

#[test]
fn k_16_bearing_off_may_be_declined() {
    let rules = Kendall::default();
    let state = pos(&[30, 10], &[1], "1");
    assert_eq!(moves(&state), vec!["10-11/1", "30-off/1", "pass/1"]);
    let next = play_with(&rules, &state, "pass/1");
    assert_eq!(next.board(), state.board());
    assert_eq!(rules.phase(&next), Phase::Throw(Side::White));
    // Declining one throw keeps the others.
    let state = pos(&[29, 10], &[1], "24");
    assert_eq!(
        moves(&state),
        vec!["10-12/2", "29-off/2", "pass/2", "10-14/4"]
    );
    assert_eq!(stored(&play_with(&rules, &state, "pass/2")), vec![4]);
    // No bear-off among the moves of a throw: no decline for it.
    assert_eq!(moves(&pos(&[10], &[1], "2")), vec!["10-12/2"]);
}

#[test]
fn k_17_the_first_side_to_bear_off_every_piece_wins() {
    let rules = Kendall::default();
    let state = pos(&[30], &[1, 5], "14");
    let next = play_with(&rules, &state, "30-off/1");
    let outcome = rules.outcome(&next).unwrap();
    assert_eq!(outcome.winner, Some(Side::Black));
    assert_eq!(outcome.points, senet_core::PerSide::new(7, 5));
    // The game ends mid-turn: the unused 4 is gone, nothing more can be played.
    assert_eq!(next.stored_count(), 0);
    assert_over(&rules, &next);
}

// ---------------------------------------------------------------- interpretations

#[test]
fn i_1_backward_only_when_no_piece_can_move_forward_with_that_throw() {
    // 13 cannot go forward with a 2; 5 can, so 13 may not go backward.
    assert_eq!(moves(&pos(&[5, 13], &[1, 14, 15, 16], "2")), vec!["5-7/2"]);
    // With no forward move at all, every backward move is offered.
    assert_eq!(
        moves(&pos(&[13, 24], &[1, 14, 15, 16], "3")),
        vec!["13-10/3", "24-21/3"]
    );
}

#[test]
fn i_2_no_backward_from_27_to_30_nor_below_1() {
    for from in 28..=30u8 {
        let state = pos(&[from], &[1], "4");
        let expected = if from == 30 {
            vec!["30-off/4", "pass/4"]
        } else {
            vec!["pass"]
        };
        assert_eq!(moves(&state), expected, "from {from}");
    }
    // 2 with a 3: forward onto a protected pair, backward below 1.
    assert_eq!(moves(&pos(&[2], &[4, 5], "3")), vec!["pass"]);
    // From 26 backward is allowed.
    assert_eq!(moves(&pos(&[26], &[1, 27], "1")), vec!["26-25/1"]);
}

#[test]
fn i_3_stored_throws_are_never_added_together() {
    let list = moves(&pos(&[20], &[1], "12"));
    assert_eq!(list, vec!["20-21/1", "20-22/2"]);
    assert!(!list.iter().any(|m| m.starts_with("20-23")));
}

#[test]
fn i_4_26_is_not_a_safe_square() {
    let rules = Kendall::default();
    let state = pos(&[24], &[1, 26], "2");
    assert_eq!(moves(&state), vec!["24-26/2"]);
    let next = play_with(&rules, &state, "24-26/2");
    assert_eq!(next.board().pieces_of(Side::White), set(&[1, 24]));
    // K-7 still protects it.
    assert_eq!(moves(&pos(&[24], &[1, 25, 26], "2")), vec!["24-22/2"]);
}

#[test]
fn i_5_the_opening_move_consumes_the_deciding_one() {
    let rules = Kendall::default();
    let state = rules.initial_state();
    assert_eq!(state.stored_count(), 0);
    assert_eq!(rules.phase(&state), Phase::Throw(Side::Black));
    let five = Kendall::default().with_pieces(PieceCount::Five);
    assert_eq!(five.initial_state().stored_count(), 0);
}

#[test]
fn i_6_a_bear_off_counts_as_a_forward_move() {
    // 12 has no forward 1 (13 is protected); 30 can bear off, so 12 may not go back to 11.
    assert_eq!(
        moves(&pos(&[12, 30], &[1, 13, 14], "1")),
        vec!["30-off/1", "pass/1"]
    );
    // With bearing off barred (home_row), the backward move is the only one.
    let rules = Kendall::default().with_home_row(true);
    let state = pos_with(&rules, &[5, 12, 30], &[1, 6, 7, 13, 14], "throws=1");
    assert_eq!(moves_of(&rules, &state), vec!["5-4/1", "12-11/1"]);
}

// ---------------------------------------------------------------- options

#[test]
fn option_pieces_five_sets_on_1_to_10_opening_10_to_11() {
    let rules = Kendall::default().with_pieces(PieceCount::Five);
    assert_eq!(rules.spec().to_string(), "kendall(pieces=5)");
    assert_eq!(rules.pieces_per_side(), 5);
    let state = rules.initial_state();
    assert_eq!(state.board().pieces_of(Side::White), set(&[1, 3, 5, 7, 9]));
    assert_eq!(state.board().pieces_of(Side::Black), set(&[2, 4, 6, 8, 11]));
    // Five pieces off win.
    let state = pos_with(&rules, &[30], &[1], "throws=2");
    let next = play_with(&rules, &state, "30-off/2");
    assert_eq!(
        rules.outcome(&next).unwrap().points,
        senet_core::PerSide::new(5, 4)
    );
}

#[test]
fn option_starting_throw_white_waits_for_a_one() {
    let rules = Kendall::default().with_starting_throw(true);
    let start = rules.initial_state();
    assert!(!start.white_started());
    // Black's deciding 1 (K-3) was its starting throw: it moves at once.
    let black = throw_with(&rules, &start, 2);
    assert_eq!(rules.phase(&black), Phase::Move(Side::Black));
    let white_turn = play_with(&rules, &black, "15-17/2");
    assert_eq!(rules.phase(&white_turn), Phase::Throw(Side::White));
    // White's throws before its 1 are lost; a 4 or 5 still gives another throw, a 2 or 3
    // ends the turn without a move.
    let after_four = throw_with(&rules, &white_turn, 4);
    assert_eq!(rules.phase(&after_four), Phase::Throw(Side::White));
    assert_eq!(after_four.stored_count(), 0);
    let after_three = throw_with(&rules, &after_four, 3);
    assert_eq!(rules.phase(&after_three), Phase::Throw(Side::Black));
    assert!(!after_three.white_started());
    // The 1 counts and may be used; later throws count as usual.
    let white_again = play_with(&rules, &throw_with(&rules, &after_three, 2), "17-19/2");
    let mut state = white_again;
    for value in [5, 1, 4, 2] {
        state = throw_with(&rules, &state, value);
    }
    assert!(state.white_started());
    assert_eq!(stored(&state), vec![1, 2, 4]);
    assert!(moves_of(&rules, &state).contains(&"13-14/1".to_string()));
    // Without the option White moves at once.
    let plain = Kendall::default();
    let state = throw_with(
        &plain,
        &play_with(
            &plain,
            &throw_with(&plain, &plain.initial_state(), 2),
            "15-17/2",
        ),
        3,
    );
    assert_eq!(plain.phase(&state), Phase::Move(Side::White));
}

#[test]
fn option_trap_a_move_past_26_falls_into_the_water() {
    let rules = Kendall::default().with_trap(true);
    let state = pos_with(&rules, &[23, 5], &[1], "throws=145");
    let list = moves_of(&rules, &state);
    assert!(list.contains(&"23-28/5".to_string()), "{list:?}");
    assert!(list.contains(&"23-27/4".to_string()), "{list:?}");
    // Falling in ends the turn (K-13): the other throws are lost.
    let next = play_with(&rules, &state, "23-28/5");
    assert_eq!(next.board().pieces_of(Side::Black), set(&[5, 27]));
    assert_eq!(rules.phase(&next), Phase::Throw(Side::White));
    // The piece in the water then follows K-14.
    let next = throw_with(
        &rules,
        &play_with(&rules, &throw_with(&rules, &next, 2), "1-3/2"),
        2,
    );
    assert_eq!(moves_of(&rules, &next), vec!["27-15/2", "pass/2"]);
    // A fall is a forward move (no backward move for that throw); with 27 occupied it is
    // illegal and the throw goes backward.
    let state = pos_with(&rules, &[24], &[1], "throws=4");
    assert_eq!(moves_of(&rules, &state), vec!["24-28/4"]);
    for (from, t) in [(25, 2), (25, 5), (22, 5)] {
        let state = pos_with(&rules, &[from], &[1, 28, 30], &format!("throws={t}"));
        let mv = format!("{from}-{}/{t}", from + t);
        assert_eq!(moves_of(&rules, &state), vec![mv.clone()]);
        // Whatever the square it counts to holds, the piece ends in the water.
        let next = play_with(&rules, &state, &mv);
        assert_eq!(next.board().pieces_of(Side::Black), set(&[27]));
        assert_eq!(next.board().pieces_of(Side::White), set(&[1, 28, 30]));
    }
    let state = pos_with(&rules, &[24], &[1, 27], "throws=4");
    assert_eq!(moves_of(&rules, &state), vec!["24-20/4"]);
    // Without the option the gate holds.
    assert_eq!(moves(&pos(&[24], &[1], "4")), vec!["24-20/4"]);
}

#[test]
fn option_home_row_no_bearing_off_while_a_piece_is_on_1_to_10() {
    let rules = Kendall::default().with_home_row(true);
    let state = pos_with(&rules, &[5, 30], &[1], "throws=1");
    assert_eq!(moves_of(&rules, &state), vec!["5-6/1"]);
    assert_eq!(
        moves(&pos(&[5, 30], &[1], "1")),
        vec!["5-6/1", "30-off/1", "pass/1"]
    );
    // From 26 with a 5 neither.
    let state = pos_with(&rules, &[5, 26], &[1], "throws=5");
    assert_eq!(moves_of(&rules, &state), vec!["5-10/5"]);
    // Nor from the water with a 4.
    let state = pos_with(&rules, &[5, 27], &[1], "throws=4");
    assert_eq!(moves_of(&rules, &state), vec!["27-15/4", "pass/4"]);
    // Square 10 is still in row 1.
    let state = pos_with(&rules, &[10, 30], &[1], "throws=2");
    assert_eq!(moves_of(&rules, &state), vec!["10-12/2"]);
    // Once row 1 is clear, bearing off is back.
    let state = pos_with(&rules, &[11, 30], &[1], "throws=1");
    assert_eq!(
        moves_of(&rules, &state),
        vec!["11-12/1", "30-off/1", "pass/1"]
    );
}

#[test]
fn option_throw_timing_immediate_uses_each_throw_at_once() {
    let rules = Kendall::default().with_throw_timing(ThrowTiming::Immediate);
    let start = rules.initial_state();
    let state = throw_with(&rules, &start, 4);
    assert_eq!(rules.phase(&state), Phase::Move(Side::Black));
    assert_eq!(stored(&state), vec![4]);
    // The same notation: the move names its throw.
    let next = play_with(&rules, &state, "15-19/4");
    // A 4 gives another throw, after its move.
    assert_eq!(rules.phase(&next), Phase::Throw(Side::Black));
    let next = play_with(&rules, &throw_with(&rules, &next, 2), "19-21/2");
    assert_eq!(rules.phase(&next), Phase::Throw(Side::White));
    // A 1, 4 or 5 that cannot be used still gives another throw; a 2 or 3 ends the turn.
    for (value, again) in [(1, true), (4, true), (5, true), (2, false), (3, false)] {
        let state = pos_with(&rules, &[28], &[1], &format!("throws={value}"));
        if value == 3 {
            continue; // 28 bears off with a 3
        }
        assert_eq!(moves_of(&rules, &state), vec!["pass"]);
        let next = play_with(&rules, &state, "pass");
        let expected = if again { Side::Black } else { Side::White };
        assert_eq!(rules.phase(&next), Phase::Throw(expected), "throw {value}");
    }
    // Entering the water ends the turn even after a 1.
    let state = pos_with(&rules, &[26, 5], &[1], "throws=1");
    let next = play_with(&rules, &state, "26-27/1");
    assert_eq!(rules.phase(&next), Phase::Throw(Side::White));
    // Declining still gives the extra throw of a 5.
    let state = pos_with(&rules, &[26, 5], &[1], "throws=5");
    let next = play_with(&rules, &state, "pass/5");
    assert_eq!(rules.phase(&next), Phase::Throw(Side::Black));
}

// ---------------------------------------------------------------- scenarios

#[test]
fn k_s1_start_after_the_opening_move() {
    let state = Kendall::default().initial_state();
    assert_eq!(
        state.board().pieces_of(Side::Black),
        set(&[2, 4, 6, 8, 10, 12, 15])
    );
    assert_eq!(
        state.board().pieces_of(Side::White),
        set(&[1, 3, 5, 7, 9, 11, 13])
    );
}

#[test]
fn k_s2_no_blockade() {
    assert_eq!(moves(&pos(&[13], &[14, 15, 16], "4")), vec!["13-17/4"]);
}

#[test]
fn k_s3_protected_target_then_backward() {
    assert_eq!(moves(&pos(&[13], &[14, 15, 16], "2")), vec!["13-11/2"]);
}

#[test]
fn k_s4_the_gate() {
    assert_eq!(moves(&pos(&[24], &[1], "2")), vec!["24-26/2"]);
    assert_eq!(moves(&pos(&[24], &[1], "3")), vec!["24-21/3"]);
}

#[test]
fn k_s5_exits_from_26() {
    assert_eq!(moves(&pos(&[26], &[1], "5")), vec!["26-off/5", "pass/5"]);
    assert_eq!(moves(&pos(&[26], &[1], "4")), vec!["26-30/4"]);
    assert_eq!(moves(&pos(&[26], &[1], "3")), vec!["26-29/3"]);
    assert_eq!(moves(&pos(&[26], &[1], "2")), vec!["26-28/2"]);
    assert_eq!(moves(&pos(&[26], &[1], "1")), vec!["26-27/1"]);
}

#[test]
fn k_s6_a_throw_that_cannot_be_used_is_lost() {
    let rules = Kendall::default();
    let state = pos(&[28], &[1], "2");
    assert_eq!(moves(&state), vec!["pass"]);
    let next = play_with(&rules, &state, "pass");
    assert_eq!(next.stored_count(), 0);
    assert_eq!(rules.phase(&next), Phase::Throw(Side::White));
}

#[test]
fn k_s7_attack_from_26() {
    let rules = Kendall::default();
    let next = play_with(&rules, &pos(&[26], &[29], "3"), "26-29/3");
    assert_eq!(next.board().pieces_of(Side::Black), set(&[29]));
    assert_eq!(next.board().pieces_of(Side::White), set(&[27]));
}

#[test]
fn k_s8_backward_swap() {
    let rules = Kendall::default();
    let state = pos(&[16, 17], &[15, 18, 19], "1");
    assert_eq!(moves(&state), vec!["16-15/1"]);
    let next = play_with(&rules, &state, "16-15/1");
    assert_eq!(next.board().pieces_of(Side::Black), set(&[15, 17]));
    assert_eq!(next.board().pieces_of(Side::White), set(&[16, 18, 19]));
}

// ---------------------------------------------------------------- choices

#[test]
fn choice_an_unusable_stored_throw_waits_while_another_can_move() {
    let rules = Kendall::default();
    // The 4 cannot move anything yet (the gate, the protected pairs on 18-19 and 29-30, own
    // pieces); it is not offered, and no plain pass is.
    let state = pos(&[22, 23, 26], &[18, 19, 29, 30], "34");
    assert_eq!(moves(&state), vec!["22-25/3"]);
    // Once 22 is free, the 4 moves (backward, as nothing can go forward).
    let next = play_with(&rules, &state, "22-25/3");
    assert_eq!(moves(&next), vec!["25-21/4", "26-22/4"]);
    // A throw that stays unusable is lost once nothing else can move: the plain pass.
    let state = pos(&[28, 29], &[1], "34");
    assert_eq!(moves(&state), vec!["28-off/3", "pass/3"]);
    let next = play_with(&rules, &state, "28-off/3");
    assert_eq!(moves(&next), vec!["pass"]);
    assert_eq!(
        rules.phase(&play_with(&rules, &next, "pass")),
        Phase::Throw(Side::White)
    );
}

#[test]
fn choice_a_plain_pass_only_when_nothing_else_is_possible() {
    let rules = Kendall::default();
    let mut rng = ChaCha8Rng::seed_from_u64(44);
    let mut checked = 0;
    for _ in 0..50 {
        senet_testkit::conformance::walk_random_game(&rules, &mut rng, 10_000, |state| {
            if let Phase::Move(_) = rules.phase(state) {
                let list = rules.legal_moves(state);
                let plain = list.contains(&Move::PASS);
                assert!(!plain || list.len() == 1, "{list:?}");
                checked += 1;
            }
            true
        });
    }
    assert!(checked > 5_000);
}

#[test]
fn choice_the_piece_in_the_water_cannot_be_attacked() {
    assert_eq!(moves(&pos(&[26], &[1, 27], "1")), vec!["26-25/1"]);
}

#[test]
fn choice_home_row_a_water_piece_with_no_way_out_does_not_freeze_its_side() {
    let rules = Kendall::default().with_home_row(true);
    // 15 holds Black's own piece and the 4 is barred: K-14 would freeze Black for good.
    let state = pos_with(&rules, &[5, 15, 27], &[1], "throws=2");
    assert_eq!(moves_of(&rules, &state), vec!["5-7/2", "15-17/2"]);
    // As soon as 15 is free again, K-14 applies.
    let next = play_with(&rules, &state, "15-17/2");
    let next = throw_with(
        &rules,
        &play_with(&rules, &throw_with(&rules, &next, 2), "1-3/2"),
        2,
    );
    assert_eq!(moves_of(&rules, &next), vec!["27-15/2", "pass/2"]);
    // Without home_row the 4 is always a way out, so K-14 holds.
    let state = pos(&[5, 15, 27], &[1], "2");
    assert_eq!(moves(&state), vec!["pass"]);
}

#[test]
fn choice_stored_throws_are_capped() {
    let rules = Kendall::default();
    let many = "1".repeat(usize::from(MAX_STORED_THROWS));
    let state = pos_with(&rules, &[10], &[1], &format!("throws={many} phase=throw"));
    let next = throw_with(&rules, &state, 1);
    assert_eq!(next.stored_count(), MAX_STORED_THROWS);
    let next = throw_with(&rules, &next, 2);
    assert_eq!(rules.phase(&next), Phase::Move(Side::Black));
    assert_eq!(next.stored_count(), MAX_STORED_THROWS);
    let too_many = format!("throws={many}1");
    assert!(matches!(
        rules.parse_position(&scenario(&[10], &[1], &too_many)),
        Err(PositionError::BadField { .. })
    ));
}

// ---------------------------------------------------------------- notation and validation

#[test]
fn position_fields_round_trip_and_have_defaults() {
    let rules = Kendall::default().with_starting_throw(true);
    let text = scenario(
        &[15, 20],
        &[1, 13],
        "throws=145 phase=throw must_move_b=15 must_move_w=13 white_started=false",
    );
    let state = rules.parse_position(&text).unwrap();
    assert_eq!(stored(&state), vec![1, 4, 5]);
    assert!(state.is_throwing());
    assert_eq!(rules.phase(&state), Phase::Throw(Side::Black));
    assert_eq!(state.must_move(Side::White).map(|s| s.get()), Some(13));
    assert_eq!(rules.position_string(&state), text);
    check_state(&rules, &state).unwrap();
    // Throws given without a phase are being spent.
    let state = rules
        .parse_position(&scenario(&[15], &[1], "throws=41"))
        .unwrap();
    assert_eq!(rules.phase(&state), Phase::Move(Side::Black));
    assert_eq!(
        rules.position_string(&state),
        scenario(&[15], &[1], "throws=14")
    );
    // Board and side alone: no throws held, nothing owed, the side throws next.
    let state = Kendall::default()
        .parse_position(&scenario(&[15], &[1], ""))
        .unwrap();
    assert_eq!(state.stored_count(), 0);
    assert!(state.white_started());
    assert_eq!(Kendall::default().phase(&state), Phase::Throw(Side::Black));
    for rules in [
        Kendall::default(),
        Kendall::default().with_starting_throw(true),
    ] {
        let start = rules.initial_state();
        assert_round_trip(&rules, &start);
    }
}

#[test]
fn impossible_positions_are_typed_errors() {
    let rules = Kendall::default();
    let immediate = Kendall::default().with_throw_timing(ThrowTiming::Immediate);
    let bad_field = |r: &Kendall, fields: &str| {
        let err = r
            .parse_position(&scenario(&[15], &[1], fields))
            .unwrap_err();
        assert!(
            matches!(
                err,
                PositionError::BadField { .. } | PositionError::Inconsistent(_)
            ),
            "{fields}: {err:?}"
        );
        assert!(!err.to_string().is_empty());
    };
    bad_field(&rules, "throws=6");
    bad_field(&rules, "throws=x");
    bad_field(&rules, "throws=23");
    bad_field(&rules, "throws=2 phase=throw");
    bad_field(&rules, "phase=move");
    bad_field(&rules, "phase=later");
    bad_field(&rules, "must_move_b=16");
    bad_field(&rules, "must_move_b=28");
    bad_field(&rules, "must_move_w=15");
    bad_field(&rules, "white_started=false");
    bad_field(&immediate, "throws=14");
    bad_field(&immediate, "throws=4 phase=throw");
    let starting = rules.with_starting_throw(true);
    let err = starting
        .parse_position(&format!(
            "{} w throws=2 white_started=false",
            &scenario(&[15], &[1], "")[..30]
        ))
        .unwrap_err();
    assert!(matches!(err, PositionError::Inconsistent(_)), "{err:?}");
    assert!(matches!(
        rules.parse_position(&scenario(&[15], &[1], "water=1")),
        Err(PositionError::UnknownField { .. })
    ));
    assert!(matches!(
        rules.parse_position(&format!("{}{} b", "B".repeat(8), ".".repeat(22))),
        Err(PositionError::PieceCount { found: 8, .. })
    ));
    // A finished game holds no throws.
    let text = format!("{} b throws=2", ".".repeat(29) + "W");
    assert!(matches!(
        rules.parse_position(&text),
        Err(PositionError::Inconsistent(_))
    ));
}

#[test]
fn an_illegal_move_leaves_the_game_unchanged() {
    let illegal = ["15-18", "15-18/2", "14-17/3", "pass", "pass/3", "1-4/3"];
    let mut game = assert_illegal_moves_refused(Kendall::default(), 3, &illegal);
    game.play("15-18/3".parse().unwrap()).unwrap();
    assert_eq!(game.phase(), Phase::Throw(Side::White));
}
