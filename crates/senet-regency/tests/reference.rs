//! A straightforward reference generator, written from `docs/rules/regency.md` with an
//! array of 30 squares and no bit tricks, must agree with the fast generator on more than
//! 100,000 (position, throw) pairs taken from random games under every option combination.

use senet_core::Throw;
use senet_core::{Move, Ruleset, Side};
use senet_regency::{ExitRule, Regency, RegencyState};
use senet_testkit::mailbox::MailboxBoard;
use senet_testkit::reference::{agree_after_each_throw, decision_inputs, square};

/// The legal moves, rule by rule: of the pending throw, or under `collect_throws` (I-6) of
/// every held throw, each naming its throw.
fn reference_moves(rules: &Regency, state: &RegencyState) -> Vec<Move> {
    if !rules.collect_throws() {
        let Some((_, _, _, t)) = decision_inputs(rules, state) else {
            return Vec::new();
        };
        let mut moves = moves_of_throw(rules, state, t);
        // R-5 / I-3: White's first move uses the piece on 9 when it can move.
        if state.to_move() == Side::White
            && !state.white_opened()
            && let Some(&from_nine) = moves.iter().find(|m| m.origin() == Some(square(9)))
        {
            moves = vec![from_nine];
        }
        if moves.is_empty() {
            moves.push(Move::PASS);
        }
        return moves;
    }
    if state.collecting() || rules.outcome(state).is_some() {
        return Vec::new();
    }
    let held: Vec<u8> = [1, 2, 3, 4, 6]
        .into_iter()
        .filter(|&t| state.held(Throw::at(t)) > 0)
        .collect();
    let mut moves: Vec<Move> = held
        .iter()
        .flat_map(|&t| {
            moves_of_throw(rules, state, i32::from(t))
                .into_iter()
                .map(move |m| m.with_throw(Throw::at(t)))
        })
        .collect();
    // I-6: R-5 binds when the piece on 9 can move with some held throw.
    if state.to_move() == Side::White
        && !state.white_opened()
        && moves.iter().any(|m| m.origin() == Some(square(9)))
    {
        moves.retain(|m| m.origin() == Some(square(9)));
    }
    if moves.is_empty() {
        moves.push(Move::PASS); // every held throw is lost
    }
    moves
}

/// The moves of one throw `t`, before.
fn moves_of_throw(rules: &Regency, state: &RegencyState, t: i32) -> Vec<Move> {
    let board = MailboxBoard::from(rules.board(state));
    let me = state.to_move();
    let opp = me.opponent();
    let at = |n: i32| board.at(n);
    // every piece of the side on the board stands on 21–30.
    let all_in_row_three = (1..=20).all(|n| at(n) != Some(me));
    let mut moves = Vec::new();
    for from in 1..=30 {
        if at(from) != Some(me) {
            continue;
        }
        let to = from + t;
        // Does this move take the piece off the board?
        let leaves = match rules.exit() {
            ExitRule::LandOnThirty => to == 30,
            ExitRule::From28To30 => to == 31 && from >= 28, // variation 3
            ExitRule::BeyondThirty => to == 31,             // the other reading of R-14
        };
        if leaves && !all_in_row_three {
            continue;
        }
        if !leaves && to > 30 {
            continue; // past the end
        }
        // three consecutive opposing pieces strictly between from and to.
        let last_passed = to.min(31) - 1;
        let blocked = (from + 1..=last_passed - 2)
            .any(|i| at(i) == Some(opp) && at(i + 1) == Some(opp) && at(i + 2) == Some(opp));
        if blocked {
            continue;
        }
        // Option house_of_happiness: 26 must be landed on exactly.
        if rules.house_of_happiness() && from <= 25 && to >= 27 {
            continue;
        }
        if !leaves {
            match at(to) {
                Some(side) if side == me => continue,
                Some(_) => {
                    // protected by a neighbour of its own side, or on a safe square.
                    let protected = at(to - 1) == Some(opp) || at(to + 1) == Some(opp);
                    let safe = [26, 28, 29, 30].contains(&to);
                    if protected || safe {
                        continue;
                    }
                }
                None => {}
            }
        }
        moves.push(if leaves {
            Move::bear_off(square(from))
        } else {
            Move::step(square(from), square(to))
        });
    }
    moves
}

#[test]
fn fast_generator_agrees_with_the_reference_on_100k_pairs() {
    let option_sets = senet_core::option_combinations::<Regency>().unwrap();
    let per_set = 110_000 / (option_sets.len() * 5) + 1;
    // Decisions of collect_throws (I-6) with moves of two held values or more.
    let mut several_held = 0usize;
    agree_after_each_throw(
        &option_sets,
        1000,
        per_set,
        reference_moves,
        |rules, _, _, reference| {
            let mut values: Vec<_> = reference.iter().filter_map(|m| m.throw()).collect();
            values.dedup();
            several_held += usize::from(rules.collect_throws() && values.len() >= 2);
        },
    );
    assert!(several_held >= 1000, "only {several_held}");
}
