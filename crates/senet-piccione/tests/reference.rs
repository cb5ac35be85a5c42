//! A straightforward reference, written from `docs/rules/piccione.md` with an array of
//! squares: it tries every sequence of steps (no pruning), keeps the complete ones, groups
//! them by the position they lead to, and offers each position once, as its way with the
//! fewest steps (ties: the smallest origins and step lengths first). It must agree with the
//! fast ruleset on more than 100,000 (position, throw) pairs from random games: the same
//! moves, and the same position after each of them.

use std::collections::BTreeMap;

use senet_core::{Move, Place, Ruleset, Side, Square, Step};
use senet_piccione::{Piccione, PiccioneState};
use senet_testkit::mailbox::MailboxBoard;
use senet_testkit::reference::agree_after_each_throw;

/// A partial move of the side `me`: its squares, pieces in hand and off, landings on 15/26,
/// whether the piece on square 1 has moved, and the steps as (from, length) pairs.
#[derive(Clone, Debug)]
struct Partial {
    mine: [bool; 32],
    hand: u8,
    off: u8,
    extras: u8,
    moved_from_one: bool,
    steps: Vec<(u8, u8)>,
}

/// Every single step of length 1..=`r` in the given direction.
fn steps(p: &Partial, theirs: &[bool; 32], r: u8, forward: bool) -> Vec<(u8, u8)> {
    let free = |n: u8| !p.mine[usize::from(n)] && !theirs[usize::from(n)];
    let mut out = Vec::new();
    for from in 1..=30u8 {
        if !p.mine[usize::from(from)] {
            continue;
        }
        for k in 1..=r {
            if forward {
                let to = from + k;
                // P-5: never onto a piece; P-11: off by the exact count only.
                if to == 31 || (to <= 30 && free(to)) {
                    out.push((from, k));
                }
            } else if from <= 27 && k < from && free(from - k) {
                // P-11: pieces on 28–30 never move backward.
                out.push((from, k));
            }
        }
    }
    out
}

fn apply(p: &Partial, (from, k): (u8, u8), forward: bool) -> Partial {
    let mut next = p.clone();
    let to = if forward { from + k } else { from - k };
    next.mine[usize::from(from)] = false;
    next.moved_from_one |= from == 1;
    match to {
        31 => next.off += 1,
        27 => next.hand += 1, // P-10
        _ => {
            next.mine[usize::from(to)] = true;
            if to == 15 || to == 26 {
                next.extras += 1; // P-9
            }
        }
    }
    next.steps.push((from, k));
    next
}

type Key = (Vec<bool>, u8, u8, u8);

/// I-1: follows every sequence until the throw is used up or nothing more can be used.
fn enumerate(
    p: &Partial,
    theirs: &[bool; 32],
    r: u8,
    forward: bool,
    must_move_one: bool,
    found: &mut BTreeMap<Key, Vec<(u8, u8)>>,
) {
    let next_steps = if r == 0 {
        Vec::new()
    } else {
        steps(p, theirs, r, forward)
    };
    if next_steps.is_empty() {
        if must_move_one && !p.moved_from_one {
            return; // P-3
        }
        let key = (p.mine.to_vec(), p.hand, p.off, p.extras);
        let rank = |s: &Vec<(u8, u8)>| (s.len(), s.clone());
        let better = found.get(&key).is_none_or(|old| rank(&p.steps) < rank(old));
        if better {
            found.insert(key, p.steps.clone());
        }
        return;
    }
    for step in next_steps {
        enumerate(
            &apply(p, step, forward),
            theirs,
            r - step.1,
            forward,
            must_move_one,
            found,
        );
    }
}

fn place(n: u8) -> Place {
    match n {
        31 => Place::Off,
        n => Place::Board(Square::new(n).unwrap()),
    }
}

fn to_move(steps: &[(u8, u8)], forward: bool) -> Move {
    let steps: Vec<Step> = steps
        .iter()
        .map(|&(from, k)| Step {
            from: place(from),
            to: place(if forward { from + k } else { from - k }),
        })
        .collect();
    Move::from_steps(&steps).unwrap()
}

/// The legal moves, rule by rule.
fn reference_moves(state: &PiccioneState) -> Vec<Move> {
    let Some(t) = state.pending_throw().map(u8::from) else {
        return Vec::new();
    };
    let board = MailboxBoard::from(state.board());
    let me = state.to_move();
    let mut mine = [false; 32];
    let mut theirs = [false; 32];
    for n in 1..=30u8 {
        match board.at(i32::from(n)) {
            Some(side) if side == me => mine[usize::from(n)] = true,
            Some(_) => theirs[usize::from(n)] = true,
            None => {}
        }
    }
    let root = Partial {
        mine,
        hand: board.hand[me],
        off: board.off[me],
        extras: 0,
        moved_from_one: false,
        steps: Vec::new(),
    };
    let square_one_free = board.at(1).is_none();
    let mut moves = Vec::new();
    let forward;
    if state.entered_must_move() {
        // P-3: the entered piece on 1 must move at least one square; P-7 if it cannot.
        let can_move = (2..=1 + t).any(|n| board.at(i32::from(n)).is_none());
        if !can_move {
            return vec![Move::PASS];
        }
        forward = true;
    } else {
        // P-3, I-3: a throw of 1 may enter a piece (never part of a split).
        let can_enter = t == 1 && root.hand > 0 && square_one_free;
        if can_enter {
            moves.push(Move::enter(Square::FIRST));
        }
        if !steps(&root, &theirs, t, true).is_empty() {
            forward = true;
        } else if can_enter {
            return moves;
        } else if !steps(&root, &theirs, t, false).is_empty() {
            forward = false; // P-6, I-2
        } else {
            return vec![Move::PASS]; // P-8
        }
    }
    let mut found = BTreeMap::new();
    enumerate(
        &root,
        &theirs,
        t,
        forward,
        state.entered_must_move(),
        &mut found,
    );
    moves.extend(found.values().map(|s| to_move(s, forward)));
    moves
}

/// The board, side to act, extra throws and entry obligation after `mv`, rule by rule.
fn reference_after(state: &PiccioneState, mv: Move) -> (MailboxBoard, Side, u8, bool) {
    let mut board = MailboxBoard::from(state.board());
    let me = state.to_move();
    if mv.is_pass() {
        if state.entered_must_move() && board.at(1) == Some(me) {
            board.squares[0] = None; // P-7
            board.hand[me] += 1;
        }
        return (board, me.opponent(), 0, false); // P-8
    }
    let mut earned = u8::from(state.pending_throw() == senet_core::Throw::new(5)); // P-2
    let mut entered = false;
    for step in mv.steps() {
        match step.from {
            Place::Hand => {
                board.hand[me] -= 1;
                board.squares[0] = Some(me);
                earned += 1; // P-3
                entered = true;
                continue;
            }
            Place::Board(from) => board.squares[usize::from(from.get() - 1)] = None,
            Place::Off => unreachable!(),
        }
        match step.to {
            Place::Off => board.off[me] += 1,
            Place::Board(to) if to.get() == 27 => board.hand[me] += 1,
            Place::Board(to) => {
                board.squares[usize::from(to.get() - 1)] = Some(me);
                earned += u8::from(to.get() == 15 || to.get() == 26);
            }
            Place::Hand => unreachable!(),
        }
    }
    let extras = state.extra_throws() + earned;
    if board.off[me] == 5 {
        (board, me, 0, false)
    } else if extras > 0 {
        (board, me, extras - 1, entered)
    } else {
        (board, me.opponent(), 0, entered)
    }
}

#[test]
fn fast_ruleset_agrees_with_the_reference_on_100k_pairs() {
    let mut split = 0usize;
    let mut largest = 0usize;
    let reference = |_: &Piccione, decision: &PiccioneState| reference_moves(decision);
    let pairs = agree_after_each_throw(
        &[Piccione],
        3000,
        21_000,
        reference,
        |rules, _, decision, reference| {
            largest = largest.max(reference.len());
            for &mv in reference {
                split += usize::from(mv.step_count() > 1);
                let mut next = *decision;
                rules.play_unchecked(&mut next, mv);
                let fast = (
                    MailboxBoard::from(next.board()),
                    next.to_move(),
                    next.extra_throws(),
                    next.entered_must_move(),
                );
                assert_eq!(
                    fast,
                    reference_after(decision, mv),
                    "{} then {mv}",
                    rules.position_string(decision)
                );
            }
        },
    );
    assert!(split > 10_000, "only {split} split moves met");
    println!("{pairs} pairs, {split} split moves, at most {largest} moves in one position");
}
