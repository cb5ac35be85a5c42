//! A straightforward reference generator, written from `docs/rules/botermans.md` with an
//! array of 30 squares and no bit tricks, must agree with the fast generator on more than
//! 100,000 (position, throw) pairs taken from random games under every option combination.

use senet_botermans::{Botermans, BotermansState};
use senet_core::Move;
use senet_testkit::reference::{agree_after_each_throw, decision_inputs, square};

/// Where a move ends, before any consequence of the landing.
#[derive(Clone, Copy, PartialEq, Eq)]
enum End {
    Square(i32),
    Off,
}

/// The legal moves, rule by rule.
fn reference_moves(rules: &Botermans, state: &BotermansState) -> Vec<Move> {
    let Some((board, me, opp, t)) = decision_inputs(rules, state) else {
        return Vec::new();
    };
    let at = |n: i32| board.at(n);
    // B-11: every piece of the side still on the board stands on 21–30.
    let all_home = (1..=20).all(|n| at(n) != Some(me));
    // B-5 .. B-8: may a piece that has left `from` end its move on `to`?
    let can_land = |from: i32, to: i32| {
        if to == from {
            return false; // I-2 (the only way to get here is a bounce)
        }
        match at(to) {
            None => true,
            Some(side) if side == me => false, // B-5
            Some(_) => {
                let protected = at(to - 1) == Some(opp) || at(to + 1) == Some(opp); // B-7
                let safe = [26, 28, 29, 30].contains(&to); // B-8
                !protected && !safe
            }
        }
    };
    // Option blockade_of_three: do the squares passed hold three consecutive opposing pieces?
    let blocked = |passed: &[i32]| {
        rules.blockade_of_three()
            && (1..=28).any(|n| (n..n + 3).all(|k| passed.contains(&k) && at(k) == Some(opp)))
    };
    let step = |from: i32, end: End| match end {
        End::Square(to) => Move::step(square(from), square(to)),
        End::Off => Move::bear_off(square(from)),
    };

    let mut forward = Vec::new();
    let mut backward = Vec::new();
    for from in 1..=30 {
        if at(from) != Some(me) {
            continue;
        }
        // Forward by the throw.
        let dest = from + t;
        // I-7 (option wait_on_30): 30 reached exactly before the side is home is a square.
        let waits = rules.wait_on_30() && !all_home;
        let (end, passed): (End, Vec<i32>) = if dest < 30 || (dest == 30 && waits) {
            (End::Square(dest), (from + 1..dest).collect())
        } else if dest == 30 {
            // B-12: exactly 30 bears off.
            (End::Off, (from + 1..30).collect())
        } else {
            // B-12: to 30 and back by the surplus.
            let to = 60 - dest;
            let mut passed: Vec<i32> = (from + 1..=30).collect();
            passed.extend(to + 1..30);
            (End::Square(to), passed)
        };
        // I-3 / B-13: reaching or passing 30 needs B-11.
        let needs_home = dest > 30 || (dest == 30 && !waits);
        let legal = from != 30
            && (!needs_home || all_home)
            && !blocked(&passed)
            && match end {
                End::Off => true,
                End::Square(to) => can_land(from, to),
            };
        if legal {
            forward.push(step(from, end));
        }
        // I-7: a piece waiting on 30 leaves with any throw once its side is home.
        if from == 30 && all_home {
            forward.push(step(from, End::Off));
        }
        // Backward by the throw (B-9), never below 1.
        let to = from - t;
        let passed: Vec<i32> = (to + 1..from).collect();
        // I-6: without backward attacks, a backward move needs an empty square.
        let may_attack = rules.backward_attack() || at(to).is_none();
        if to >= 1 && can_land(from, to) && may_attack && !blocked(&passed) {
            backward.push(step(from, End::Square(to)));
        }
    }
    // I-1: backward moves only when the side has no forward move at all.
    let mut moves = if forward.is_empty() {
        backward
    } else {
        forward
    };
    if moves.is_empty() {
        moves.push(Move::PASS); // B-9: the throw is lost
    }
    moves
}

#[test]
fn fast_generator_agrees_with_the_reference_on_100k_pairs() {
    let option_sets = senet_core::option_combinations::<Botermans>().unwrap();
    let per_set = 110_000 / (option_sets.len() * 5) + 1;
    let mut backward = 0usize;
    let mut bounces = 0usize;
    agree_after_each_throw(
        &option_sets,
        2000,
        per_set,
        reference_moves,
        |_, t, _, reference| {
            for mv in reference {
                if let Some([from, to]) = mv
                    .step_at(0)
                    .and_then(|s| Some([s.from.square()?.get(), s.to.square()?.get()]))
                {
                    backward += usize::from(to < from && from + t.get() <= 30);
                    bounces += usize::from(from + t.get() > 30);
                }
            }
        },
    );
    // The corpus exercises the rules that set Botermans apart.
    assert!(backward > 1000 && bounces > 1000, "{backward} {bounces}");
}
