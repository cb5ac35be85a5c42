//! A straightforward reference, written from `docs/rules/jequier.md` with an array of 30
//! squares and no bit tricks, must agree with the fast ruleset on more than 100,000
//! (position, throw) pairs taken from random games under every option combination: the same
//! legal moves, and the same position after each of them.

use senet_core::{Move, Place, Ruleset, Side};
use senet_jequier::{BackwardPriority, Jequier, JequierState, SafeSquares, StartRule};
use senet_testkit::mailbox::MailboxBoard;
use senet_testkit::reference::{agree_after_each_throw, decision_inputs, square};

/// The legal moves, rule by rule.
fn reference_moves(rules: &Jequier, state: &JequierState) -> Vec<Move> {
    let Some((board, me, opp, t)) = decision_inputs(rules, state) else {
        return Vec::new();
    };
    let at = |n: i32| board.at(n);
    let safe: [i32; 4] = match rules.safe_squares() {
        SafeSquares::Standard => [26, 28, 29, 30], // J-8
        SafeSquares::Ludii => [15, 26, 28, 29],
    };
    // J-5: a piece that waits may not move while the square ahead of it is occupied.
    let waits = |from: i32| {
        let restricted = match rules.start_rule() {
            StartRule::UnmovedPieces => state.unmoved(me).contains(square(from)),
            StartRule::FirstRow => from <= 10,
        };
        restricted && at(from + 1).is_some()
    };
    // J-6: three consecutive opposing pieces among the squares lo..=hi.
    let blockade = |lo: i32, hi: i32| (lo..=hi - 2).any(|i| (i..i + 3).all(|j| at(j) == Some(opp)));
    // J-11: every piece of the side on the board stands on 21–30.
    let all_in_row_three = (1..=20).all(|n| at(n) != Some(me));
    let forward = |from: i32| -> Option<Move> {
        if waits(from) {
            return None;
        }
        let to = from + t;
        if to > 30 {
            // J-11: any move past 30 bears off, once all pieces are in row 3.
            if !all_in_row_three || blockade(from + 1, 30) {
                return None;
            }
            return Some(Move::bear_off(square(from)));
        }
        if blockade(from + 1, to - 1) {
            return None;
        }
        match at(to) {
            Some(side) if side == me => None,
            Some(_) => {
                // J-8: protected by a neighbour of its own side, or on a safe square.
                let protected = at(to - 1) == Some(opp) || at(to + 1) == Some(opp);
                (!protected && !safe.contains(&to)).then(|| Move::step(square(from), square(to)))
            }
            None => Some(Move::step(square(from), square(to))),
        }
    };
    let backward = |from: i32| -> Option<Move> {
        let to = from - t;
        // J-9: backward only onto an empty square; J-5 and J-6 hold here too.
        if waits(from) || to < 1 || at(to).is_some() || blockade(to + 1, from - 1) {
            return None;
        }
        Some(Move::step(square(from), square(to)))
    };
    let mine: Vec<i32> = (1..=30).filter(|&n| at(n) == Some(me)).collect();
    let mut moves: Vec<Move> = Vec::new();
    match rules.backward_priority() {
        BackwardPriority::PerPlayer => {
            // I-2: backward only when no piece can go forward.
            moves.extend(mine.iter().filter_map(|&from| forward(from)));
            if moves.is_empty() {
                moves.extend(mine.iter().filter_map(|&from| backward(from)));
            }
        }
        BackwardPriority::PerPiece => {
            moves.extend(
                mine.iter()
                    .filter_map(|&from| forward(from).or_else(|| backward(from))),
            );
        }
    }
    if moves.is_empty() {
        moves.push(Move::PASS); // J-9: the throw is lost
    }
    moves
}

/// The board and unmoved pieces after `mv`, rule by rule.
fn reference_after(state: &JequierState, mv: Move) -> (MailboxBoard, Vec<u8>) {
    let mut board = MailboxBoard::from(state.board());
    let me = state.to_move();
    let mut unmoved: Vec<u8> = Side::BOTH
        .iter()
        .flat_map(|&side| state.unmoved(side).iter().map(|s| s.get()))
        .collect();
    unmoved.sort_unstable();
    let Some(step) = mv.step_at(0) else {
        return (board, unmoved);
    };
    let from = step.from.square().unwrap().get();
    let lowest_empty = |board: &MailboxBoard| {
        (1..=30u8)
            .find(|&n| board.at(i32::from(n)).is_none())
            .unwrap()
    };
    match step.to {
        Place::Off => {
            board.squares[usize::from(from - 1)] = None;
            board.off[me] += 1;
        }
        Place::Board(to) => {
            let to = to.get();
            if board.at(i32::from(to)).is_some() {
                // J-7: chosen before the mover leaves its square; I-1.
                let refuge = lowest_empty(&board);
                board.squares[usize::from(refuge - 1)] = board.squares[usize::from(to - 1)];
                unmoved.retain(|&s| s != to);
            }
            board.squares[usize::from(from - 1)] = None;
            // J-10: from 27 on to the lowest empty square.
            let landing = if to == 27 { lowest_empty(&board) } else { to };
            board.squares[usize::from(landing - 1)] = Some(me);
        }
        Place::Hand => unreachable!("no move of Jéquier goes to hand"),
    }
    unmoved.retain(|&s| s != from);
    (board, unmoved)
}

#[test]
fn fast_ruleset_agrees_with_the_reference_on_100k_pairs() {
    let option_sets = senet_core::option_combinations::<Jequier>().unwrap();
    let per_set = 110_000 / (option_sets.len() * 5) + 1;
    let mut backward_seen = 0usize;
    agree_after_each_throw(
        &option_sets,
        2000,
        per_set,
        reference_moves,
        |rules, _, decision, reference| {
            for &mv in reference {
                let mut next = *decision;
                rules.play_unchecked(&mut next, mv);
                let (board, unmoved) = reference_after(decision, mv);
                let fast_unmoved: Vec<u8> = Side::BOTH
                    .iter()
                    .flat_map(|&side| next.unmoved(side).iter().map(|s| s.get()))
                    .collect::<std::collections::BTreeSet<u8>>()
                    .into_iter()
                    .collect();
                assert_eq!(
                    (MailboxBoard::from(next.board()), fast_unmoved),
                    (board, unmoved),
                    "{} then {mv}",
                    rules.position_string(decision)
                );
                let backward = mv
                    .step_at(0)
                    .and_then(|s| Some(s.to.square()? < s.from.square()?))
                    .unwrap_or(false);
                backward_seen += usize::from(backward);
            }
        },
    );
    assert!(
        backward_seen > 1000,
        "only {backward_seen} backward moves met"
    );
}
