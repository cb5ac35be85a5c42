//! A straightforward reference generator, written from `docs/rules/cemea.md` with an array
//! of 30 squares and no bit tricks, must agree with the fast generator on more than 100,000
//! (position, throw) pairs taken from random games under every option combination.

use senet_cemea::{Cemea, CemeaState};
use senet_core::{Move, Square};
use senet_testkit::reference::{agree_after_each_throw, decision_inputs, square};

/// What landing on a square would be.
enum Landing {
    /// Empty, or an opposing piece that may be attacked.
    Allowed,
    /// One's own piece (C-9).
    OntoOwn,
    /// A wall or a refuge.
    Refused,
}

/// The legal moves, rule by rule.
fn reference_moves(rules: &Cemea, state: &CemeaState) -> Vec<Move> {
    let Some((board, me, opp, t)) = decision_inputs(rules, state) else {
        return Vec::new();
    };
    let at = |n: i32| board.at(n);
    // C-11 / I-3: a side with a piece on 27 is stranded; only a 4 does anything.
    if at(27) == Some(me) {
        return vec![if t == 4 {
            Move::bear_off(square(27))
        } else {
            Move::PASS
        }];
    }
    // C-8: three opposing pieces in a row strictly between `a` and `b` cannot be passed.
    let passes_wall = |a: i32, b: i32| {
        let (low, high) = (a.min(b) + 1, a.max(b) - 1);
        (low..=high - 2).any(|n| (n..n + 3).all(|k| at(k) == Some(opp)))
    };
    let landing = |to: i32| match at(to) {
        None => Landing::Allowed,
        Some(side) if side == me => Landing::OntoOwn,
        Some(_) => {
            let in_wall = at(to - 1) == Some(opp) || at(to + 1) == Some(opp); // C-7, C-8
            let refuge = (28..=30).contains(&to); // C-12, I-5
            if in_wall || refuge {
                Landing::Refused
            } else {
                Landing::Allowed
            }
        }
    };
    let mut forward = Vec::new();
    let mut backward = Vec::new();
    let mut forward_onto_own = Vec::new();
    let mut backward_onto_own = Vec::new();
    for from in 1..=30 {
        if at(from) != Some(me) {
            continue;
        }
        // Forward.
        if from == 26 && t == 1 {
            // C-10 / I-2: the jump to 28, only onto an empty 28.
            if at(28).is_none() {
                forward.push(Move::step(square(26), square(28)));
            }
            // I-9: with jump_optional the step onto 27 is a forward move too.
            if rules.jump_optional() && matches!(landing(27), Landing::Allowed) {
                forward.push(Move::step(square(26), square(27)));
            }
        } else if from + t == 31 && from >= 28 {
            // C-12: exits from 28, 29, 30 with 3, 2, 1 (I-4: no precondition).
            if !passes_wall(from, 31) {
                forward.push(Move::bear_off(square(from)));
            }
        } else if from + t <= 30 && !passes_wall(from, from + t) {
            let mv = Move::step(square(from), square(from + t));
            match landing(from + t) {
                Landing::Allowed => forward.push(mv),
                Landing::OntoOwn => forward_onto_own.push(mv),
                Landing::Refused => {}
            }
        }
        // Backward (C-5), never below 1; I-6: an attack only with backward_attack.
        if from - t >= 1 && !passes_wall(from - t, from) {
            let mv = Move::step(square(from), square(from - t));
            match landing(from - t) {
                Landing::Allowed if rules.backward_attack() || at(from - t).is_none() => {
                    backward.push(mv)
                }
                Landing::Allowed | Landing::Refused => {}
                Landing::OntoOwn => backward_onto_own.push(mv),
            }
        }
    }
    // I-1: the first non-empty level; C-9 only with its option, and I-7 puts the forward
    // own landings before the backward moves.
    let mut levels = vec![forward];
    if rules.forced_own_landing() && rules.own_landing_first() {
        levels.push(forward_onto_own);
        levels.push(backward);
        levels.push(backward_onto_own);
    } else {
        levels.push(backward);
        if rules.forced_own_landing() {
            levels.push(forward_onto_own);
            levels.push(backward_onto_own);
        }
    }
    levels
        .into_iter()
        .find(|level| !level.is_empty())
        .unwrap_or_else(|| vec![Move::PASS])
}

#[test]
fn fast_generator_agrees_with_the_reference_on_100k_pairs() {
    let option_sets = senet_core::option_combinations::<Cemea>().unwrap();
    // Sticks have 5 values, the die 6: over 100,000 pairs in all, shared by the option sets.
    let per_set = 22_000 / option_sets.len() + 1;
    let mut seen = [0usize; 5]; // stranded, own landings, backward, jumps, exits
    agree_after_each_throw(
        &option_sets,
        3000,
        per_set,
        reference_moves,
        |_, t, decision, reference| {
            let me = decision.to_move();
            seen[0] += usize::from(decision.stranded() == Some(me));
            for mv in reference {
                let Some(step) = mv.step_at(0) else { continue };
                let from = step.from.square().map_or(0, Square::get);
                match step.to.square() {
                    None => seen[4] += 1,
                    Some(to) => {
                        let to = to.get();
                        seen[1] += usize::from(decision.board().pieces_of(me).has(to));
                        seen[2] += usize::from(to < from);
                        seen[3] += usize::from(from == 26 && t == 1);
                    }
                }
            }
        },
    );
    // The corpus exercises the rules that set CEMEA apart.
    assert!(seen.iter().all(|&n| n >= 100), "{seen:?}");
}
