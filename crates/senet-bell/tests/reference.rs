//! A straightforward reference generator, written from `docs/rules/bell.md` with an array of
//! 30 squares and no bit tricks, must agree with the fast generator on more than 100,000
//! (position, throw) pairs taken from random games under every option combination.

use senet_bell::{Bell, BellState, MarkedSquares};
use senet_core::Move;
use senet_testkit::reference::{agree_after_each_throw, decision_inputs, square};

/// The legal moves, rule by rule.
fn reference_moves(rules: &Bell, state: &BellState) -> Vec<Move> {
    let Some((board, me, _, t)) = decision_inputs(rules, state) else {
        return Vec::new();
    };
    let marked: &[i32] = match rules.marked_squares() {
        MarkedSquares::Bell => &[26, 27, 28, 29, 30],
        MarkedSquares::Ludii => &[15, 26, 27, 28, 29],
    };
    // (move, starts on a marked square, captures)
    let mut candidates: Vec<(Move, bool, bool)> = Vec::new();
    for from in 1..=30 {
        if board.at(from) != Some(me) {
            continue;
        }
        let to = from + t;
        let on_marked = marked.contains(&from);
        if to == 31 {
            // Be-8: exactly one past 30 leaves the board.
            candidates.push((Move::bear_off(square(from)), on_marked, false));
            continue;
        }
        if to > 31 {
            continue; // Be-8: past the exit
        }
        match board.at(to) {
            None => candidates.push((Move::step(square(from), square(to)), on_marked, false)),
            Some(side) if side == me => {} // Be-5: never on an own piece
            Some(_) => {
                // Be-5 / Be-6: capture unless the target is on a marked square.
                if !marked.contains(&to) {
                    candidates.push((Move::step(square(from), square(to)), on_marked, true));
                }
            }
        }
    }
    // Be-7: pieces on marked squares that can move go first.
    if candidates.iter().any(|c| c.1) {
        candidates.retain(|c| c.1);
    }
    // Option compulsory_capture, after Be-7.
    if rules.compulsory_capture() && candidates.iter().any(|c| c.2) {
        candidates.retain(|c| c.2);
    }
    let mut moves: Vec<Move> = candidates.into_iter().map(|c| c.0).collect();
    if moves.is_empty() {
        moves.push(Move::PASS); // Be-4
    }
    moves
}

#[test]
fn fast_generator_agrees_with_the_reference_on_100k_pairs() {
    let mut option_sets = Vec::new();
    for marked in [MarkedSquares::Bell, MarkedSquares::Ludii] {
        for capture in [false, true] {
            option_sets.push(
                Bell::default()
                    .with_marked_squares(marked)
                    .with_compulsory_capture(capture),
            );
        }
    }
    let mut with_capture_choice = 0usize;
    let pairs = agree_after_each_throw(
        &option_sets,
        2000,
        7_000,
        reference_moves,
        |_, _, _, reference| {
            with_capture_choice += usize::from(reference.len() > 1);
        },
    );
    assert!(with_capture_choice > pairs / 4, "too few real choices");
}
