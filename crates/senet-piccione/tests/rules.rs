//! One test (at least) per rule, interpretation and scenario of `docs/rules/piccione.md`.
//! Each test fails if its rule is broken.

use senet_core::Throw;
use senet_core::{
    Game, MOVE_LIST_CAPACITY, Move, Phase, PositionError, Ruleset, SeatRule, Side, SquareSet,
    Sticks,
};
use senet_piccione::{Piccione, PiccioneState};

senet_testkit::scenario_helpers!(Piccione);

/// A scenario position: `me` (Black, to move) and `opp` (White) on the listed squares,
/// `throw` pending (0: none), and `fields` added. Unless `fields` says otherwise, the
/// opponent's other pieces are in hand (so that the game is not over) and ours are off.
fn pos(me: &[u8], opp: &[u8], throw: u8, fields: &str) -> PiccioneState {
    let mut all = Vec::new();
    if throw != 0 {
        all.push(format!("throw={throw}"));
    }
    if !fields.contains("hand=") {
        all.push(format!("hand=0,{}", 5 - opp.len()));
    }
    if !fields.is_empty() {
        all.push(fields.to_string());
    }
    Piccione
        .parse_position(&scenario(me, opp, &all.join(" ")))
        .unwrap()
}

fn phase(state: &PiccioneState) -> Phase {
    Piccione.phase(state)
}

fn has(list: &[String], mv: &str) -> bool {
    list.iter().any(|m| m == mv)
}

// ---------------------------------------------------------------- setup and throws

#[test]
fn p_01_five_pieces_a_side_all_in_hand_and_the_first_player_starts() {
    let rules = Piccione;
    assert_eq!(rules.pieces_per_side(), 5);
    let state = assert_start(&rules, &[], &[]);
    for side in Side::BOTH {
        assert_eq!(state.board().in_hand(side), 5);
    }
    assert_eq!(rules.phase(&state), Phase::Throw(Side::Black));
    assert_eq!(
        rules.position_string(&state),
        format!("{} b hand=5,5", ".".repeat(30))
    );
}

#[test]
fn p_02_sticks_with_no_marked_side_counting_five_and_a_five_throws_again() {
    assert_eq!(Piccione.device(), Sticks::ZERO_IS_FIVE);
    assert_throws(&Piccione, &[(1, 4), (2, 6), (3, 4), (4, 1), (5, 1)], &[6]);
    // A 5 gives another throw; a 4 does not.
    let next = play(&pos(&[3], &[], 5, ""), "3-8");
    assert_eq!(phase(&next), Phase::Throw(Side::Black));
    assert_eq!(next.extra_throws(), 0);
    let next = play(&pos(&[3], &[], 4, ""), "3-7");
    assert_eq!(phase(&next), Phase::Throw(Side::White));
}

#[test]
fn p_03_a_one_enters_a_piece_and_the_extra_throw_must_move_it() {
    let state = pos(&[10], &[], 1, "hand=4,5");
    let next = play(&state, "enter");
    assert_eq!(black(&next), set(&[1, 10]));
    assert_eq!(next.board().in_hand(Side::Black), 3);
    assert_eq!(phase(&next), Phase::Throw(Side::Black));
    assert!(next.entered_must_move());
    // The extra throw (a 2) must move the piece on 1 at least one square.
    let mut next = next;
    Piccione.try_throw(&mut next, Throw::at(2)).unwrap();
    let list = moves(&next);
    assert_eq!(list, vec!["1-3", "1-2,10-11"]);
    assert!(!has(&list, "10-12"));
    let after = play(&next, "1-2,10-11");
    assert!(!after.entered_must_move());
    assert_eq!(phase(&after), Phase::Throw(Side::White));
    // Entering needs square 1 empty.
    assert_eq!(moves(&pos(&[5], &[1], 1, "hand=4,4")), vec!["5-6"]);
}

#[test]
fn p_04_a_throw_may_be_split_into_whole_steps_but_a_split_never_enters() {
    // Splits of 4 between two pieces, and one piece taking all of it.
    let list = moves(&pos(&[3, 8], &[], 4, ""));
    for mv in ["3-7", "8-12", "3-5,8-10", "3-4,8-11", "3-6,8-9"] {
        assert!(has(&list, mv), "{mv} missing from {list:?}");
    }
    // A 2 with pieces in hand and square 1 free: no entry in any move.
    let list = moves(&pos(&[5], &[], 2, "hand=4,5"));
    assert_eq!(list, vec!["5-7"]);
    assert!(list.iter().all(|m| !m.contains("enter")));
    // Four single steps by four pieces.
    let list = moves(&pos(&[3, 6, 9, 12], &[], 4, ""));
    assert!(has(&list, "3-4,6-7,9-10,12-13"), "{list:?}");
}

#[test]
fn p_05_no_two_pieces_share_a_square_and_pieces_pass_over_others() {
    // Passing over two opposing pieces.
    assert_eq!(moves(&pos(&[3], &[4, 5], 3, "")), vec!["3-6"]);
    // Never onto a piece: 3→6 is taken, so the piece goes as far as it can (I-1).
    assert_eq!(moves(&pos(&[3], &[6], 3, "")), vec!["3-5"]);
    // Nor onto its own side, and nothing is ever captured.
    let state = pos(&[3, 5], &[7], 2, "");
    let list = moves(&state);
    assert!(!has(&list, "3-5"), "{list:?}");
    for mv in &list {
        let next = play(&state, mv);
        assert_eq!(next.board().pieces_of(Side::White), set(&[7]));
    }
}

#[test]
fn p_06_i_2_backward_only_when_no_part_of_the_throw_can_go_forward() {
    // Nothing can go forward by any part of a 5: the throw goes backward.
    assert_eq!(
        moves(&pos(&[10], &[11, 12, 13, 14, 15], 5, "")),
        vec!["10-5"]
    );
    // A part can go forward (10→14): the whole throw is used forward, the rest lost.
    assert_eq!(moves(&pos(&[10], &[11, 12, 13, 15], 5, "")), vec!["10-14"]);
    // Another piece can go forward: no step of any move goes backward.
    let list = moves(&pos(&[10, 20], &[11, 12, 13, 14, 15], 2, ""));
    assert_eq!(list, vec!["20-22"]);
    // Backward splits are split in whole steps too, all backward.
    let list = moves(&pos(&[10, 20], &[11, 12, 13, 21, 22], 2, ""));
    assert!(has(&list, "10-9,20-19"), "{list:?}");
    assert!(has(&list, "10-8"), "{list:?}");
}

#[test]
fn p_07_an_entered_piece_that_cannot_move_goes_back_to_hand() {
    let state = pos(&[1], &[2, 3], 2, "hand=3,3 entered_must_move=true");
    assert_eq!(moves(&state), vec!["pass"]);
    let next = play(&state, "pass");
    assert_eq!(black(&next), SquareSet::EMPTY);
    assert_eq!(next.board().in_hand(Side::Black), 4);
    assert_eq!(phase(&next), Phase::Throw(Side::White));
    // Without the obligation, a piece on 1 that cannot move simply stays.
    let state = pos(&[1, 20], &[2, 3], 2, "hand=3,3");
    assert_eq!(moves(&state), vec!["20-22"]);
}

#[test]
fn p_08_with_no_move_at_all_the_turn_ends() {
    // Even extra throws still to come are lost.
    let state = pos(&[28], &[29, 30], 2, "extra_throws=1");
    assert_eq!(moves(&state), vec!["pass"]);
    let next = play(&state, "pass");
    assert_eq!(phase(&next), Phase::Throw(Side::White));
    assert_eq!(next.extra_throws(), 0);
    assert_eq!(black(&next), set(&[28]));
}

#[test]
fn p_09_landing_on_15_or_26_gives_an_extra_throw_after_the_throw() {
    let state = pos(&[14, 20], &[], 2, "");
    let list = moves(&state);
    // Stopping on 15 on the way is a different choice from stepping over it.
    assert!(has(&list, "14-15,15-16"), "{list:?}");
    assert!(has(&list, "14-16"), "{list:?}");
    assert_eq!(
        phase(&play(&state, "14-15,15-16")),
        Phase::Throw(Side::Black)
    );
    assert_eq!(phase(&play(&state, "14-16")), Phase::Throw(Side::White));
    // The piece on 15 steps on and the one behind takes its square: an extra throw that
    // 14→16 does not give.
    let state = pos(&[14, 15], &[], 2, "");
    let list = moves(&state);
    assert!(has(&list, "15-16,14-15"), "{list:?}");
    assert!(has(&list, "14-16"), "{list:?}");
    assert_eq!(
        phase(&play(&state, "15-16,14-15")),
        Phase::Throw(Side::Black)
    );
    // Backward onto 15 counts too.
    let state = pos(&[17], &[18, 19, 20, 21, 22], 2, "");
    assert_eq!(moves(&state), vec!["17-15"]);
    assert_eq!(phase(&play(&state, "17-15")), Phase::Throw(Side::Black));
    // Two landings, two extra throws: one is taken now, one is kept.
    let state = pos(&[13, 24], &[], 4, "");
    let next = play(&state, "13-15,24-26");
    assert_eq!(phase(&next), Phase::Throw(Side::Black));
    assert_eq!(next.extra_throws(), 1);
}

#[test]
fn p_10_a_piece_landing_on_27_goes_back_to_hand() {
    let state = pos(&[23, 10], &[], 4, "");
    let next = play(&state, "23-27");
    assert_eq!(black(&next), set(&[10]));
    assert_eq!(next.board().in_hand(Side::Black), 1);
    // Also in the middle of a split: the rest of the throw goes on.
    let state = pos(&[10, 25], &[], 3, "");
    let next = play(&state, "10-11,25-27");
    assert_eq!(black(&next), set(&[11]));
    assert_eq!(next.board().in_hand(Side::Black), 1);
    // A piece sent to hand takes no further step of the throw.
    let mut list = moves(&pos(&[25], &[], 3, ""));
    list.sort();
    assert_eq!(list, vec!["25-26,26-27", "25-26,26-28", "25-27", "25-28"]);
    // Nothing ever stands on 27.
    assert!(matches!(
        Piccione.parse_position(&scenario(&[27], &[], "hand=0,5")),
        Err(PositionError::ForbiddenSquare { .. })
    ));
}

#[test]
fn p_11_exits_are_exact() {
    assert_eq!(moves(&pos(&[29], &[], 1, "")), vec!["29-30"]);
    assert_eq!(moves(&pos(&[29], &[], 2, "")), vec!["29-off"]);
    assert_eq!(moves(&pos(&[28], &[], 3, "")), vec!["28-off"]);
    // A 3 from 29 cannot leave in one step; it leaves with a part (2) and loses the rest.
    assert_eq!(moves(&pos(&[29], &[], 3, "")), vec!["29-off"]);
    // Or another piece uses the rest.
    let list = moves(&pos(&[10, 29], &[], 3, ""));
    assert!(has(&list, "10-11,29-off"), "{list:?}");
    assert!(!has(&list, "29-off"), "{list:?}");
}

#[test]
fn p_11_no_backward_moves_from_28_to_30() {
    assert_eq!(moves(&pos(&[28], &[29, 30], 2, "")), vec!["pass"]);
    assert_eq!(moves(&pos(&[24], &[25, 26], 2, "")), vec!["24-22"]);
}

#[test]
fn p_11_bearing_off_is_optional_unless_nothing_else_goes_forward() {
    let list = moves(&pos(&[10, 29], &[], 2, ""));
    assert!(has(&list, "29-off"), "{list:?}");
    assert!(has(&list, "10-12"), "{list:?}");
    // The only forward use: compulsory.
    assert_eq!(moves(&pos(&[29], &[30], 2, "")), vec!["29-off"]);
}

#[test]
fn p_12_the_first_side_to_bear_off_all_its_pieces_wins() {
    let state = pos(&[30], &[5], 1, "hand=0,4");
    let next = play(&state, "30-off");
    let outcome = Piccione.outcome(&next).unwrap();
    assert_eq!(outcome.winner, Some(Side::Black));
    assert_eq!(outcome.points, senet_core::PerSide::new(0, 0));
    assert!(Piccione.legal_moves(&next).is_empty());
    // Nothing is pending after the end, even after a 5 or a landing on 26.
    let state = pos(&[26], &[5], 5, "hand=0,4");
    let next = play(&state, "26-off");
    assert_eq!(next.extra_throws(), 0);
    assert!(Piccione.outcome(&next).is_some());
    assert_eq!(Piccione.validate(&next), Ok(()));
}

// ---------------------------------------------------------------- interpretations

#[test]
fn i_1_a_move_is_a_sequence_of_steps_and_a_remainder_that_cannot_be_used_is_lost() {
    // The remainder must be used while it can: a lone piece goes the whole way.
    assert_eq!(moves(&pos(&[3], &[], 4, "")), vec!["3-7"]);
    // Stopping early is not a choice while a step is possible.
    let state = pos(&[3], &[], 4, "");
    let mut copy = state;
    assert!(
        Piccione
            .try_play(&mut copy, "3-5".parse().unwrap())
            .is_err()
    );
    assert_eq!(copy, state);
    // Blocked after 1 square: the rest is lost.
    assert_eq!(moves(&pos(&[3], &[5, 6, 7, 8], 4, "")), vec!["3-4"]);
}

#[test]
fn i_1_different_orders_and_splits_to_the_same_position_are_one_choice() {
    // 4→5 then 3→4 ends where 3→5 does: one move, written with the fewest steps.
    assert_eq!(moves(&pos(&[3, 4], &[], 2, "")), vec!["3-5", "4-6"]);
    let list = moves(&pos(&[3, 4], &[], 3, ""));
    assert!(has(&list, "3-6"), "{list:?}");
    assert!(!has(&list, "4-6,3-4"), "{list:?}");
    // Both orders of two independent steps: one move, lower origin first.
    let list = moves(&pos(&[3, 8], &[], 2, ""));
    assert_eq!(list, vec!["3-5", "8-10", "3-4,8-9"]);
    let mut copy = pos(&[3, 8], &[], 2, "");
    assert!(
        Piccione
            .try_play(&mut copy, "8-9,3-4".parse().unwrap())
            .is_err()
    );
}

#[test]
fn i_3_entering_with_a_one_is_optional() {
    let list = moves(&pos(&[5], &[], 1, "hand=4,5"));
    assert_eq!(list, vec!["enter", "5-6"]);
    let next = play(&pos(&[5], &[], 1, "hand=4,5"), "5-6");
    assert_eq!(next.board().in_hand(Side::Black), 4);
    assert_eq!(phase(&next), Phase::Throw(Side::White));
}

#[test]
fn i_4_the_even_set_black_is_simply_the_first_player() {
    assert_eq!(Piccione::SEAT_RULE, SeatRule::FirstPersonStarts);
    assert_eq!(
        Piccione.phase(&Piccione.initial_state()),
        Phase::Throw(Side::Black)
    );
}

// ---------------------------------------------------------------- scenarios

#[test]
fn p_s1_all_in_hand_a_two_ends_the_turn() {
    let state = pos(&[], &[], 2, "hand=5,5");
    assert_eq!(moves(&state), vec!["pass"]);
    assert_eq!(phase(&play(&state, "pass")), Phase::Throw(Side::White));
}

#[test]
fn p_s2_all_in_hand_a_one_enters_then_a_three_moves_1_to_4() {
    let mut game = Game::new(Piccione);
    game.throw(Throw::at(1)).unwrap();
    game.play("enter".parse().unwrap()).unwrap();
    game.throw(Throw::at(3)).unwrap();
    let list: Vec<String> = game.legal_moves().iter().map(Move::to_string).collect();
    assert_eq!(list, vec!["1-4"]);
    game.play("1-4".parse().unwrap()).unwrap();
    assert_eq!(game.state().board().pieces_of(Side::Black), set(&[4]));
    assert_eq!(game.phase(), Phase::Throw(Side::White));
}

#[test]
fn p_s3_any_forward_split_of_a_four() {
    let list = moves(&pos(&[3, 8], &[], 4, ""));
    let mut sorted = list.clone();
    sorted.sort();
    assert_eq!(
        sorted,
        vec!["3-4,8-11", "3-5,8-10", "3-6,8-9", "3-7", "8-12"]
    );
}

#[test]
fn p_s4_landing_on_27_returns_the_piece_to_hand() {
    let state = pos(&[25], &[], 2, "");
    let list = moves(&state);
    // Straight onto 27, or via 26 (which earns an extra throw): to hand either way.
    assert_eq!(list, vec!["25-27", "25-26,26-27"]);
    for mv in &list {
        let next = play(&state, mv);
        assert_eq!(black(&next), SquareSet::EMPTY);
        assert_eq!(next.board().in_hand(Side::Black), 1);
    }
}

#[test]
fn p_s5_landing_on_15_throws_again() {
    let state = pos(&[13], &[], 2, "");
    assert_eq!(moves(&state), vec!["13-15"]);
    let next = play(&state, "13-15");
    assert_eq!(black(&next), set(&[15]));
    assert_eq!(phase(&next), Phase::Throw(Side::Black));
}

// ---------------------------------------------------------------- capacity, notation, driver

#[test]
fn the_largest_known_move_list_fits_a_move_list() {
    // Found by the exhaustive search in tests/move_list_bound.rs (run with --ignored).
    let state = pos(&[1, 7, 14, 20, 25], &[], 5, "");
    let list = moves(&state);
    assert_eq!(list.len(), 195);
    assert!(list.len() <= MOVE_LIST_CAPACITY);
    // Every move is a different position.
    let mut after: Vec<String> = list
        .iter()
        .map(|mv| Piccione.position_string(&play(&state, mv)))
        .collect();
    after.sort();
    after.dedup();
    assert_eq!(after.len(), 195);
}

#[test]
fn position_fields_have_defaults_and_are_validated() {
    // Board and side alone: pieces not on the board are off.
    let state = Piccione.parse_position(&scenario(&[3], &[4], "")).unwrap();
    assert_eq!(state.board().off(Side::Black), 4);
    assert_eq!(state.pending_throw(), None);
    assert_eq!(state.extra_throws(), 0);
    assert!(!state.entered_must_move());
    let full = scenario(
        &[1, 3],
        &[4],
        "throw=2 hand=2,4 extra_throws=3 entered_must_move=true",
    );
    let state = Piccione.parse_position(&full).unwrap();
    assert_eq!(Piccione.position_string(&state), full);
    let bad = [
        scenario(&[3], &[4], "hand=5,0"),
        scenario(&[3], &[4], "hand=x"),
        scenario(&[3], &[4], "throw=6"),
        scenario(&[3], &[4], "entered_must_move=true"),
        scenario(&[3], &[4], "entered_must_move=maybe"),
        scenario(&[3], &[4], "extra_throws=256"),
        scenario(&[3], &[4], "colour=red"),
        scenario(&[], &[4], "extra_throws=1"),
    ];
    for text in bad {
        assert!(Piccione.parse_position(&text).is_err(), "{text}");
    }
}

#[test]
fn an_illegal_move_leaves_the_game_unchanged() {
    let mut game = assert_illegal_moves_refused(Piccione, 2, &["enter", "1-3", "hand-2"]);
    game.play(Move::PASS).unwrap();
    assert_eq!(game.phase(), Phase::Throw(Side::White));
}
