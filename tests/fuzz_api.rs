//! Fuzzing the public API of every registered ruleset (each configuration of
//! `common::configurations`): random sequences of throws (possible, impossible, at the wrong
//! time), moves (legal, near misses, arbitrary steps, after the end), undos and random
//! finishes, from the initial position and from positions of real random games.
//!
//! Properties:
//! - nothing panics;
//! - a refused action returns exactly the error its phase calls for (`GameOver`,
//!   `ThrowExpected`, `MoveExpected`, `ImpossibleThrow`, `IllegalMove`) and leaves the game
//!   and the state unchanged; an action is accepted exactly when it is legal;
//! - `Game` and the ruleset's own `try_throw`/`try_play` agree step by step;
//! - every state reached validates and round-trips through the position notation; `undo`
//!   gives back the previous state;
//! - the game's record round-trips through `Game::from_record`, the text form and JSON;
//! - the `unchecked` fast path never panics on any input, and whatever it produces is either
//!   refused by `validate` or a state that round-trips like a real one.
//!
//! The default run is short (CI); `cargo test --release --test fuzz_api -- --ignored` is
//! the long run, with `PROPTEST_CASES` cases per configuration (see docs/reliability.md).

mod common;

use proptest::prelude::*;
use proptest::test_runner::TestCaseError;
use rand_chacha::ChaCha8Rng;
use rand_core::SeedableRng;
use senet::Throw;
use senet::registry::{Registered, RulesetVisitor};
use senet::{
    Game, Move, MoveList, Phase, Place, PlayError, PlayoutEnd, Ruleset, Square, Step,
    ThrowingDevice,
};
use senet_testkit::conformance::{check_state, walk_random_game};

/// One input to the checked API.
#[derive(Clone, Debug)]
enum Input {
    /// A throw of any value (most of them small).
    Throw(Throw),
    /// A value the device can show, by index into its outcomes.
    DeviceThrow(usize),
    /// A legal move, by index into the legal moves (a throw if none).
    Legal(usize),
    /// A legal move bent out of shape: its landing shifted, a throw mark added, or a step
    /// appended.
    NearMiss(usize, i8, u8),
    /// A move of arbitrary steps between places (codes 0..=31), with an optional throw mark.
    Steps(Vec<(u8, u8)>, u8),
    /// A pass, with an optional throw mark.
    Pass(u8),
    /// Take back the last action.
    Undo,
    /// Play on at random (throws and moves from the case's RNG) for up to this many turns.
    Random(u8),
}

fn input() -> impl Strategy<Value = Input> {
    prop_oneof![
        3 => prop_oneof![1u8..8, 1u8..=255].prop_map(|v| Input::Throw(Throw::at(v))),
        4 => any::<usize>().prop_map(Input::DeviceThrow),
        6 => any::<usize>().prop_map(Input::Legal),
        3 => (any::<usize>(), -3i8..=3, 0u8..8).prop_map(|(i, d, t)| Input::NearMiss(i, d, t)),
        2 => (prop::collection::vec((0u8..32, 0u8..32), 1..4), 0u8..8)
            .prop_map(|(s, t)| Input::Steps(s, t)),
        1 => (0u8..8).prop_map(Input::Pass),
        1 => Just(Input::Undo),
        1 => any::<u8>().prop_map(Input::Random),
    ]
}

/// States to start from: the initial position and positions spread over a few seeded random
/// games, their last (finished) positions included.
fn start_states<R: Ruleset>(rules: &R, games: u64) -> Vec<R::State> {
    let mut out = vec![rules.initial_state()];
    for seed in 0..games {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut index = 0u32;
        let (last, _) = walk_random_game(rules, &mut rng, senet::DEFAULT_TURN_CAP, |state| {
            index += 1;
            if index.is_multiple_of(29) {
                out.push(*state);
            }
            true
        });
        out.push(last);
    }
    out
}

fn fail(message: String) -> TestCaseError {
    TestCaseError::fail(message)
}

/// The move `mv` with its first step's landing moved by `delta` squares, a throw mark, or
/// (for `delta == 0`) a second step.
fn bend(mv: Move, delta: i8, mark: u8) -> Move {
    let mut steps: Vec<Step> = mv.steps().collect();
    if let Some(first) = steps.first_mut()
        && let Place::Board(to) = first.to
        && let Some(moved) = to.offset(delta)
    {
        first.to = Place::Board(moved);
    }
    let bent = if delta == 0 && !steps.is_empty() {
        let mut extra = Move::from_steps(&steps).unwrap_or(mv);
        let from = Square::new(1).unwrap();
        let _ = extra.push_step(Step {
            from: Place::Board(from),
            to: Place::Off,
        });
        extra
    } else {
        Move::from_steps(&steps).unwrap_or(mv)
    };
    marked(bent, mark)
}

/// `mv` marked as spending the throw `mark`, or unmarked when `mark` is 0.
fn marked(mv: Move, mark: u8) -> Move {
    match Throw::new(mark) {
        Some(throw) => mv.with_throw(throw),
        None => mv,
    }
}

/// The steps of `(from, to)` place codes, those out of range left out.
fn steps_of(codes: &[(u8, u8)]) -> Vec<Step> {
    let step = |&(from, to): &(u8, u8)| {
        Some(Step {
            from: Place::from_code(from)?,
            to: Place::from_code(to)?,
        })
    };
    codes.iter().filter_map(step).collect()
}

/// A fuzzing run of one configuration: `cases` sequences of at most `max_inputs` inputs
/// through each API.
#[derive(Clone, Copy)]
struct Fuzz {
    cases: u32,
    max_inputs: usize,
}

impl RulesetVisitor for Fuzz {
    type Output = ();

    fn visit<R: Registered>(self, rules: &R) {
        self.checked_api(rules);
        self.unchecked_api(rules);
    }
}

impl Fuzz {
    /// The checked API: `Game` and the ruleset's `try_` methods side by side.
    fn checked_api<R: Registered>(self, rules: &R) {
        let starts = start_states(rules, 3);
        let what = format!("fuzz_api checked {}", rules.spec());
        let strategy = (
            0..starts.len(),
            any::<u64>(),
            prop::collection::vec(input(), 1..self.max_inputs),
        );
        common::run_property(&what, self.cases, strategy, |(start, seed, inputs)| {
            drive(rules, starts[start], seed, &inputs)
        });
    }
}

fn drive<R: Ruleset>(
    rules: &R,
    start: R::State,
    seed: u64,
    inputs: &[Input],
) -> Result<(), TestCaseError> {
    let device = rules.device();
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut game = Game::from_state(rules.clone(), start)
        .map_err(|e| fail(format!("a reachable start does not validate: {e}")))?;
    game.set_seed(Some(seed));
    let mut raw = start;
    // The state before each action in the history, for checking undo.
    let mut previous: Vec<R::State> = Vec::new();
    for input in inputs {
        let phase = game.phase();
        let legal = game.legal_moves();
        let before = game.clone();
        let raw_before = raw;
        let position = game.position();
        match input {
            Input::Undo => {
                let undone = game.undo();
                match (undone, previous.pop()) {
                    (None, None) => {}
                    (Some(_), Some(state)) => {
                        prop_assert_eq!(game.state(), &state, "undo in {}", position);
                        raw = state;
                    }
                    (u, p) => return Err(fail(format!("undo gave {u:?} with {p:?} before"))),
                }
                continue;
            }
            Input::Random(turns) => {
                let history = game.history().len();
                let end = game.play_random(&mut rng, game.turns() + u32::from(*turns));
                if let PlayoutEnd::Finished(outcome) = end {
                    prop_assert_eq!(game.outcome(), Some(outcome));
                }
                // Replay the new actions on the raw state, keeping the undo stack.
                for action in &game.history()[history..] {
                    previous.push(raw);
                    match action {
                        senet::Action::Throw(v) => rules.try_throw(&mut raw, *v),
                        senet::Action::Move(m) => rules.try_play(&mut raw, *m),
                    }
                    .map_err(|e| fail(format!("{action} accepted by Game, refused raw: {e}")))?;
                }
                prop_assert_eq!(&raw, game.state());
                continue;
            }
            _ => {}
        }
        let (result, raw_result, expected_ok) = match input {
            Input::Throw(_) | Input::DeviceThrow(_) => {
                let value = match input {
                    Input::Throw(v) => *v,
                    Input::DeviceThrow(i) => {
                        let outcomes = device.outcomes();
                        outcomes[i % outcomes.len()].value
                    }
                    _ => unreachable!(),
                };
                let expected = match phase {
                    Phase::Over(_) => Err(PlayError::GameOver),
                    Phase::Move(side) => Err(PlayError::MoveExpected(side)),
                    Phase::Throw(_) if !device.can_show(value) => {
                        Err(PlayError::ImpossibleThrow(value))
                    }
                    Phase::Throw(_) => Ok(()),
                };
                let result = game.throw(value);
                let raw_result = rules.try_throw(&mut raw, value);
                prop_assert_eq!(&result, &expected, "throw {} in {}", value, position);
                (result, raw_result, expected.is_ok())
            }
            _ => {
                let mv = move_of(input, &legal);
                let is_legal = rules.is_legal(game.state(), mv);
                prop_assert_eq!(
                    is_legal,
                    legal.contains(&mv),
                    "is_legal({}) disagrees with generation in {}",
                    mv,
                    position
                );
                let expected = match phase {
                    Phase::Over(_) => Err(PlayError::GameOver),
                    Phase::Throw(side) => Err(PlayError::ThrowExpected(side)),
                    Phase::Move(side) if !is_legal => Err(PlayError::IllegalMove { mv, side }),
                    Phase::Move(_) => Ok(()),
                };
                let result = game.play(mv);
                let raw_result = rules.try_play(&mut raw, mv);
                prop_assert_eq!(&result, &expected, "move {} in {}", mv, position);
                (result, raw_result, expected.is_ok())
            }
        };
        prop_assert_eq!(&result, &raw_result, "Game and try_ differ in {}", position);
        if expected_ok {
            previous.push(raw_before);
            prop_assert_eq!(game.history().len(), before.history().len() + 1);
            check_state(rules, game.state()).map_err(fail)?;
        } else {
            prop_assert_eq!(&game, &before, "a refused action changed the game");
            prop_assert_eq!(&raw, &raw_before, "a refused action changed the state");
        }
        prop_assert_eq!(&raw, game.state());
    }
    check_records(&game)
}

/// The move a move input names, in a position whose legal moves are `legal`.
fn move_of(input: &Input, legal: &[Move]) -> Move {
    match input {
        Input::Legal(i) if !legal.is_empty() => legal[i % legal.len()],
        Input::NearMiss(i, delta, mark) => {
            let base = if legal.is_empty() {
                Move::PASS
            } else {
                legal[i % legal.len()]
            };
            bend(base, *delta, *mark)
        }
        Input::Steps(codes, mark) => {
            let steps = steps_of(codes);
            marked(Move::from_steps(&steps).unwrap_or(Move::PASS), *mark)
        }
        Input::Pass(mark) => marked(Move::PASS, *mark),
        _ => Move::PASS,
    }
}

/// The game's record replays, in every form, to the same game.
fn check_records<R: Ruleset>(game: &Game<R>) -> Result<(), TestCaseError> {
    let record = game.record();
    let loaded = Game::<R>::from_record(&record).map_err(|e| fail(format!("record: {e}")))?;
    prop_assert_eq!(&loaded, game);
    let text = record.to_string();
    let loaded = Game::<R>::from_record_text(&text).map_err(|e| fail(format!("text: {e}")))?;
    prop_assert_eq!(&loaded, game);
    let json = serde_json::to_string(game).map_err(|e| fail(e.to_string()))?;
    let loaded: Game<R> = serde_json::from_str(&json).map_err(|e| fail(format!("json: {e}")))?;
    prop_assert_eq!(&loaded, game);
    Ok(())
}

/// One input to the unchecked fast path.
#[derive(Clone, Debug)]
enum Raw {
    /// `throw_unchecked` with any value.
    Throw(Throw),
    /// `play_unchecked` with a single step of any two codes (meaningless ones included).
    Codes(u8, u8),
    /// `play_unchecked` with a move of several steps between places.
    Steps(Vec<(u8, u8)>),
    /// `play_unchecked` with a generated move, by index (a device throw if none).
    Legal(usize),
    /// The same single step of codes, many times over.
    Repeat(u8, u8, u16),
}

fn raw_input() -> impl Strategy<Value = Raw> {
    prop_oneof![
        2 => (1u8..=255).prop_map(|v| Raw::Throw(Throw::at(v))),
        3 => (prop_oneof![0u8..33, any::<u8>()], prop_oneof![0u8..33, any::<u8>()])
            .prop_map(|(f, t)| Raw::Codes(f, t)),
        1 => prop::collection::vec((0u8..32, 0u8..32), 1..6).prop_map(Raw::Steps),
        3 => any::<usize>().prop_map(Raw::Legal),
        1 => (0u8..33, 0u8..33, 0u16..400).prop_map(|(f, t, n)| Raw::Repeat(f, t, n)),
    ]
}

impl Fuzz {
    /// The unchecked fast path with anything at all.
    fn unchecked_api<R: Registered>(self, rules: &R) {
        let starts = start_states(rules, 2);
        let what = format!("fuzz_api unchecked {}", rules.spec());
        let strategy = (
            0..starts.len(),
            prop::collection::vec(raw_input(), 1..self.max_inputs),
            prop::collection::vec((0u8..33, 0u8..33, 0u8..8), 0..8),
        );
        common::run_property(&what, self.cases, strategy, |(start, inputs, probes)| {
            let mut state = starts[start];
            let mut moves = MoveList::new();
            for input in &inputs {
                match *input {
                    Raw::Throw(v) => rules.throw_unchecked(&mut state, v),
                    Raw::Codes(f, t) => {
                        rules.play_unchecked(&mut state, Move::from_codes_unchecked(f, t));
                    }
                    Raw::Steps(ref codes) => {
                        let steps = steps_of(codes);
                        if let Ok(mv) = Move::from_steps(&steps) {
                            rules.play_unchecked(&mut state, mv);
                        }
                    }
                    Raw::Legal(i) => {
                        rules.generate_moves(&state, &mut moves);
                        if moves.is_empty() {
                            let outcomes = rules.device().outcomes();
                            rules.throw_unchecked(&mut state, outcomes[i % outcomes.len()].value);
                        } else {
                            rules.play_unchecked(&mut state, moves[i % moves.len()]);
                        }
                    }
                    Raw::Repeat(f, t, n) => {
                        for _ in 0..n {
                            rules.play_unchecked(&mut state, Move::from_codes_unchecked(f, t));
                        }
                    }
                }
                // Every read-only method copes with whatever came out.
                let phase = rules.phase(&state);
                rules.generate_moves(&state, &mut moves);
                prop_assert!(moves.len() <= senet::MOVE_LIST_CAPACITY);
                if matches!(phase, Phase::Move(_)) && rules.validate(&state).is_ok() {
                    prop_assert!(!moves.is_empty(), "a valid decision point without moves");
                }
                for &(f, t, mark) in &probes {
                    let probe = marked(Move::from_codes_unchecked(f, t), mark);
                    let _ = rules.is_legal(&state, probe);
                }
                let _ = rules.outcome(&state);
                let _ = rules.position_string(&state);
                let _ = rules.diagram(&state);
                if rules.validate(&state).is_ok() {
                    check_state(rules, &state).map_err(fail)?;
                }
            }
            Ok(())
        });
    }
}

fn run_all(cases: u32, max_inputs: usize) {
    for rules in common::configurations() {
        rules.visit(Fuzz { cases, max_inputs });
    }
}

#[test]
fn the_api_survives_random_action_sequences() {
    run_all(common::cases(24), 48);
}

/// The long run: `PROPTEST_CASES` (default 20,000) cases per configuration and API, each
/// up to 200 inputs long.
#[test]
#[ignore = "long run; see docs/reliability.md"]
fn long_the_api_survives_random_action_sequences() {
    run_all(common::cases(20_000), 200);
}
