//! A straightforward reference generator, written from `docs/rules/bell.md` with an array of
//! 30 squares and no bit tricks, must agree with the fast generator on more than 100,000
//! (position, throw) pairs taken from random games under every option combination.

use rand_chacha::ChaCha8Rng;
use rand_core::SeedableRng;
use senet_bell::{Bell, BellState, MarkedSquares};
use senet_core::{MailboxBoard, Move, Phase, Ruleset, Square};
use senet_testkit::conformance::{compare_generators, sample_states, with_each_throw};

fn square(n: i32) -> Square {
    Square::new(n as u8).unwrap()
}

/// The legal moves, rule by rule.
fn reference_moves(rules: &Bell, state: &BellState) -> Vec<Move> {
    let Some(t) = state.pending_throw() else {
        return Vec::new();
    };
    let t = i32::from(t);
    let board = MailboxBoard::from(state.board());
    let me = state.to_move();
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
    let mut pairs = 0usize;
    let mut with_capture_choice = 0usize;
    for (i, marked) in [MarkedSquares::Bell, MarkedSquares::Ludii]
        .into_iter()
        .enumerate()
    {
        for capture in [false, true] {
            let rules = Bell::default()
                .with_marked_squares(marked)
                .with_compulsory_capture(capture);
            let mut rng = ChaCha8Rng::seed_from_u64(2000 + i as u64 * 2 + u64::from(capture));
            let before_throws = sample_states(&rules, &mut rng, 7_000, 10_000, |p| {
                matches!(p, Phase::Throw(_))
            });
            for state in &before_throws {
                for (_, decision) in with_each_throw(&rules, state) {
                    let reference = reference_moves(&rules, &decision);
                    if let Err(e) = compare_generators(&rules, &decision, &reference) {
                        panic!("{}: {e}", rules.spec());
                    }
                    if reference.len() > 1 {
                        with_capture_choice += 1;
                    }
                    pairs += 1;
                }
            }
        }
    }
    assert!(pairs >= 100_000, "only {pairs} pairs compared");
    assert!(with_capture_choice > pairs / 4, "too few real choices");
}
