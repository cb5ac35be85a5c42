//! Checks that any [`Ruleset`] implementation must pass, shared by the test suites of every
//! ruleset crate (and available to anyone writing a ruleset of their own).
//!
//! Each check returns `Err` with a message naming the state and the broken promise, so a
//! property test can report it.

use rand_core::Rng;

use senet_core::Throw;
use senet_core::{
    Action, Game, Move, MoveList, Phase, Ruleset, Side, ThrowingDevice, TurnCounter,
    play_random_from_list,
};

/// Checks the invariants every reachable state keeps: it validates, each side's pieces on the
/// board, off, in hand and captured ([`Ruleset::captured`]) add up to the ruleset's number,
/// and the state survives a round trip through the position notation.
pub fn check_state<R: Ruleset>(rules: &R, state: &R::State) -> Result<(), String> {
    let position = rules.position_string(state);
    rules
        .validate(state)
        .map_err(|e| format!("{position}: does not validate: {e}"))?;
    let board = rules.board(state);
    for side in Side::BOTH {
        let counted = u32::from(board.total(side)) + u32::from(rules.captured(state, side));
        if counted != u32::from(rules.pieces_per_side()) {
            return Err(format!(
                "{position}: {side} has {counted} pieces, expected {}",
                rules.pieces_per_side()
            ));
        }
    }
    let back = rules
        .parse_position(&position)
        .map_err(|e| format!("{position}: does not parse back: {e}"))?;
    if back != *state {
        return Err(format!(
            "{position}: parses back to {back:?}, not {state:?}"
        ));
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
            return Err(format!(
                "{position}: pass offered beside other moves {moves:?}"
            ));
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
            return Err(format!(
                "{position}: {candidate} accepted but not generated"
            ));
        }
        if copy != *state {
            return Err(format!(
                "{position}: refusing {candidate} changed the state"
            ));
        }
    }
    Ok(())
}

/// A spread of single-step moves (and passes) for probing legality checks.
fn probe_moves() -> impl Iterator<Item = Move> {
    use senet_core::{Place, Square, Step};
    let squares = (1..=30u8).filter_map(|n| Square::new(n).ok());
    let steps = squares.flat_map(|from| {
        [1i8, 2, 3, 4, 5, 6, -1, -3]
            .into_iter()
            .filter_map(move |d| from.offset(d).map(|to| Move::step(from, to)))
            .chain(core::iter::once(Move::bear_off(from)))
    });
    let enter = Square::new(1).map(|one| {
        Move::from_step(Step {
            from: Place::Hand,
            to: Place::Board(one),
        })
    });
    steps.chain(enter).chain([Move::PASS])
}

/// Plays one random game from the initial position (throws from the device, uniformly random
/// legal moves, all drawn from `rng`), calling `visit` with every state before acting on it.
/// Stops when the game ends, when `visit` returns false, or when a side would start turn
/// `max_turns + 1`; returns the final state and whether the game ended by the rules.
pub fn walk_random_game<R: Ruleset, G: Rng + ?Sized>(
    rules: &R,
    rng: &mut G,
    max_turns: u32,
    mut visit: impl FnMut(&R::State) -> bool,
) -> (R::State, bool) {
    let device = rules.device();
    let mut moves = MoveList::new();
    let mut state = rules.initial_state();
    let mut counter = TurnCounter::default();
    loop {
        let phase = rules.phase(&state);
        if let Some(side) = phase.side()
            && counter.observe(side)
            && counter.turns() > max_turns
        {
            return (state, false);
        }
        if !visit(&state) {
            return (state, matches!(phase, Phase::Over(_)));
        }
        match phase {
            Phase::Over(_) => return (state, true),
            Phase::Throw(_) => rules.throw_unchecked(&mut state, device.sample(rng)),
            Phase::Move(_) => play_random_from_list(rules, &mut state, rng, &mut moves),
        }
    }
}

/// Collects up to `count` states from random games whose phase `keep` accepts (for example
/// every decision point, or every state waiting for a throw), playing as many games as needed.
pub fn sample_states<R: Ruleset, G: Rng + ?Sized>(
    rules: &R,
    rng: &mut G,
    count: usize,
    max_turns: u32,
    keep: impl Fn(Phase) -> bool,
) -> Vec<R::State> {
    let mut out = Vec::with_capacity(count);
    while out.len() < count {
        walk_random_game(rules, rng, max_turns, |state| {
            if keep(rules.phase(state)) {
                out.push(*state);
            }
            out.len() < count
        });
    }
    out
}

/// Plays one random game, checking every state with [`check_state`] and every decision point
/// with [`check_decision`]. Fails if a check fails or the game does not end within
/// `max_turns`; on success returns the number of decision points checked.
pub fn check_random_game<R: Ruleset, G: Rng + ?Sized>(
    rules: &R,
    rng: &mut G,
    max_turns: u32,
    pass_may_accompany: bool,
) -> Result<usize, String> {
    let mut checked = 0;
    let mut failure = None;
    let (last, ended) = walk_random_game(rules, rng, max_turns, |state| {
        let result = match rules.phase(state) {
            Phase::Move(_) => {
                checked += 1;
                check_decision(rules, state, pass_may_accompany)
            }
            _ => check_state(rules, state),
        };
        match result {
            Ok(()) => true,
            Err(e) => {
                failure = Some(e);
                false
            }
        }
    });
    if let Some(e) = failure {
        return Err(e);
    }
    if !ended {
        return Err(format!(
            "the game did not end within {max_turns} turns: {}",
            rules.position_string(&last)
        ));
    }
    Ok(checked)
}

/// An action for [`check_refused_actions`] from arbitrary test input: the throw `value` when
/// `is_throw` (`None` for 0, which is no throw), else the move `text` parses to (`None` when
/// it does not parse).
pub fn arbitrary_action(is_throw: bool, value: u8, text: &str) -> Option<Action> {
    if is_throw {
        Throw::new(value).map(Action::Throw)
    } else {
        text.parse().ok().map(Action::Move)
    }
}

/// Feeds `actions` to `game` (moves and throw values, typically arbitrary ones from a
/// property test) and checks that every action the game refuses leaves it exactly as it was
/// (the promise of [`Game::play`] and [`Game::throw`]). After each refusal the game makes
/// progress with a legal action (a throw drawn from `rng`, or the first legal move) so that
/// later actions meet other positions; it stops early when the game ends.
pub fn check_refused_actions<R: Ruleset, G: Rng + ?Sized>(
    game: &mut Game<R>,
    rng: &mut G,
    actions: impl IntoIterator<Item = Action>,
) -> Result<(), String> {
    for action in actions {
        let before = game.clone();
        let result = match action {
            Action::Throw(value) => game.throw(value),
            Action::Move(mv) => game.play(mv),
        };
        if result.is_err() {
            if *game != before {
                return Err(format!(
                    "the refused {action} changed the game: {before:?} became {game:?}"
                ));
            }
            let progress = match game.phase() {
                Phase::Throw(_) => game.throw_random(rng).map(|_| ()),
                Phase::Move(_) => {
                    let first = game.legal_moves().first().copied().unwrap_or_default();
                    game.play(first)
                }
                Phase::Over(_) => return Ok(()),
            };
            progress.map_err(|e| format!("a legal action was refused: {e}"))?;
        }
    }
    Ok(())
}

/// The states that differ from a decision point only in the pending throw: one per value of
/// the device, each with the throw applied to `before_throw` (a state in [`Phase::Throw`]).
pub fn with_each_throw<R: Ruleset>(rules: &R, before_throw: &R::State) -> Vec<(Throw, R::State)> {
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

/// Throws no device of the workspace makes (5 and 7, 29 to 31, 200, 255), each applied to the
/// initial state with [`Ruleset::throw_unchecked`], then every move generated for it, the
/// out-of-range step `40-200` and each of `extra` played with [`Ruleset::play_unchecked`]:
/// the unchecked paths leave the result unspecified but must not panic (overflow checks are
/// on in tests), which is what calling this checks.
pub fn play_odd_throws<R: Ruleset>(rules: &R, extra: &[Move]) {
    let junk = Move::from_codes_unchecked(40, 200);
    for t in [5, 7, 29, 30, 31, 200, 255] {
        let mut state = rules.initial_state();
        rules.throw_unchecked(&mut state, Throw::at(t));
        let moves = rules.legal_moves(&state);
        for mv in moves.iter().chain([&junk]).chain(extra) {
            let mut next = state;
            rules.play_unchecked(&mut next, *mv);
        }
    }
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
