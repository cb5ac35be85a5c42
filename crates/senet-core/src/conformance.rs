//! Checks that any [`Ruleset`] implementation must pass, shared by the test suites of every
//! ruleset crate (and available to anyone writing a ruleset of their own).
//!
//! Each check returns `Err` with a message naming the state and the broken promise, so a
//! property test can report it.

use rand_core::Rng;

use crate::board::Board;
use crate::moves::{Move, MoveList};
use crate::ruleset::{Phase, Ruleset};
use crate::side::Side;
use crate::throw::{ThrowingDevice, uniform_below};

/// Checks the invariants every reachable state keeps: it validates, each side's pieces on the
/// board, off and in hand add up to the ruleset's number, and the state survives a round trip
/// through the position notation.
pub fn check_state<R: Ruleset>(rules: &R, state: &R::State) -> Result<(), String> {
    let position = rules.position_string(state);
    rules
        .validate(state)
        .map_err(|e| format!("{position}: does not validate: {e}"))?;
    let board = rules.board(state);
    for side in Side::BOTH {
        if board.total(side) != rules.pieces_per_side() {
            return Err(format!(
                "{position}: {side} has {} pieces, expected {}",
                board.total(side),
                rules.pieces_per_side()
            ));
        }
    }
    let back = rules
        .parse_position(&position)
        .map_err(|e| format!("{position}: does not parse back: {e}"))?;
    if back != *state {
        return Err(format!("{position}: parses back to {back:?}, not {state:?}"));
    }
    Ok(())
}

/// Checks a decision point (a state in [`Phase::Move`]): the move list is not empty, has no
/// duplicates, offers a pass only as the sole choice unless the ruleset allows declining
/// (`pass_may_accompany`), every move is accepted by `try_play` and leads to a state that
/// passes [`check_state`], and a move that is not in the list is refused without changing
/// the state.
pub fn check_decision<R: Ruleset>(
    rules: &R,
    state: &R::State,
    pass_may_accompany: bool,
) -> Result<(), String> {
    let position = rules.position_string(state);
    let Phase::Move(_) = rules.phase(state) else {
        return Err(format!("{position}: not a decision point"));
    };
    let mut moves = MoveList::new();
    rules.generate_moves(state, &mut moves);
    if moves.is_empty() {
        return Err(format!("{position}: no legal move, not even a pass"));
    }
    for (i, mv) in moves.iter().enumerate() {
        if moves[..i].contains(mv) {
            return Err(format!("{position}: {mv} is generated twice"));
        }
        if mv.is_pass() && mv.throw().is_none() && moves.len() > 1 && !pass_may_accompany {
            return Err(format!("{position}: pass offered beside other moves {moves:?}"));
        }
        let mut next = *state;
        rules
            .try_play(&mut next, *mv)
            .map_err(|e| format!("{position}: generated move {mv} refused: {e}"))?;
        check_state(rules, &next).map_err(|e| format!("{position} then {mv}: {e}"))?;
    }
    // A sample of moves that are not in the list must be refused, leaving the state as it was.
    for candidate in probe_moves() {
        if moves.contains(&candidate) {
            continue;
        }
        let mut copy = *state;
        if rules.try_play(&mut copy, candidate).is_ok() {
            return Err(format!("{position}: {candidate} accepted but not generated"));
        }
        if copy != *state {
            return Err(format!("{position}: refusing {candidate} changed the state"));
        }
    }
    Ok(())
}

/// A spread of single-step moves (and passes) for probing legality checks.
fn probe_moves() -> impl Iterator<Item = Move> {
    use crate::square::{Place, Square};
    let squares = (1..=30u8).filter_map(|n| Square::new(n).ok());
    let steps = squares.flat_map(|from| {
        [1i8, 2, 3, 4, 5, 6, -1, -3]
            .into_iter()
            .filter_map(move |d| from.offset(d).map(|to| Move::step(from, to)))
            .chain(core::iter::once(Move::bear_off(from)))
    });
    let enter = Square::new(1).map(|one| Move::from_step(crate::moves::Step {
        from: Place::Hand,
        to: Place::Board(one),
    }));
    steps.chain(enter).chain([Move::PASS])
}

/// Plays random games and collects up to `count` decision points (states in
/// [`Phase::Move`]) along the way, in order; games that end (or reach `max_turns`) are
/// followed by new ones.
pub fn sample_decisions<R: Ruleset, G: Rng + ?Sized>(
    rules: &R,
    rng: &mut G,
    count: usize,
    max_turns: u32,
) -> Vec<R::State> {
    let device = rules.device();
    let mut out = Vec::with_capacity(count);
    let mut moves = MoveList::new();
    while out.len() < count {
        let mut state = rules.initial_state();
        let mut counter = crate::playout::TurnCounter::default();
        while out.len() < count {
            let phase = rules.phase(&state);
            match phase.side() {
                Some(side) => {
                    if counter.observe(side) && counter.turns() > max_turns {
                        break;
                    }
                }
                None => break,
            }
            match phase {
                Phase::Throw(_) => rules.throw_unchecked(&mut state, device.sample(rng)),
                Phase::Move(_) => {
                    out.push(state);
                    rules.generate_moves(&state, &mut moves);
                    let pick = uniform_below(rng, moves.len() as u32) as usize;
                    rules.play_unchecked(&mut state, moves[pick]);
                }
                Phase::Over(_) => break,
            }
        }
    }
    out
}

/// The states that differ from a decision point only in the pending throw: one per value of
/// the device, each with the throw applied to `before_throw` (a state in [`Phase::Throw`]).
pub fn with_each_throw<R: Ruleset>(rules: &R, before_throw: &R::State) -> Vec<(u8, R::State)> {
    let device = rules.device();
    device
        .outcomes()
        .iter()
        .map(|o| {
            let mut state = *before_throw;
            rules.throw_unchecked(&mut state, o.value);
            (o.value, state)
        })
        .collect()
}

/// Compares the fast generator with a reference on one state: both must give the same set of
/// moves (order ignored).
pub fn compare_generators<R: Ruleset>(
    rules: &R,
    state: &R::State,
    reference: &[Move],
) -> Result<(), String> {
    let fast = rules.legal_moves(state);
    let mut a: Vec<String> = fast.iter().map(ToString::to_string).collect();
    let mut b: Vec<String> = reference.iter().map(ToString::to_string).collect();
    a.sort();
    b.sort();
    if a == b {
        Ok(())
    } else {
        Err(format!(
            "{}: fast generator {a:?}, reference {b:?}",
            rules.position_string(state)
        ))
    }
}
