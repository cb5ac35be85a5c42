//! Building blocks of the rule tests: positions written as lists of squares, moves played
//! from their notation, and move lists as notation, each panicking with the position at fault
//! (a rule test has nothing to recover from).
//!
//! [`scenario_helpers!`](crate::scenario_helpers) binds them to one ruleset's default value,
//! under the short names every `tests/rules.rs` uses.

use rand_chacha::ChaCha8Rng;
use rand_core::SeedableRng;
use senet_core::{
    Game, Outcome, PlayError, Ruleset, SeatDraw, Side, SpecError, Square, SquareSet,
    ThrowingDevice, draw_seats,
};

use crate::conformance::check_state;
use senet_core::Throw;

/// The square `n` (1..=30).
///
/// # Panics
/// When `n` is not a square.
pub fn sq(n: u8) -> Square {
    Square::new(n).unwrap()
}

/// The set of the listed squares.
///
/// # Panics
/// When one of them is not a square.
pub fn set(squares: &[u8]) -> SquareSet {
    SquareSet::from_squares(squares.iter().copied()).unwrap()
}

/// The position notation of a specification scenario: the side to move (`me`, Black) and the
/// opponent (`opp`, White) on the listed squares, Black to act, followed by `fields`
/// (e.g. `"throw=2"`; may be empty). Squares outside 1..=30 are ignored.
///
/// ```
/// use senet_testkit::scenario::scenario;
/// let text = scenario(&[12], &[14, 15], "throw=2");
/// assert_eq!(text, format!("{}B.WW{} b throw=2", ".".repeat(11), ".".repeat(15)));
/// ```
pub fn scenario(me: &[u8], opp: &[u8], fields: &str) -> String {
    let mut board = ['.'; 30];
    for (squares, letter) in [(me, 'B'), (opp, 'W')] {
        for &n in squares {
            if (1..=30).contains(&n) {
                board[usize::from(n - 1)] = letter;
            }
        }
    }
    let mut text: String = board.iter().collect();
    text.push_str(" b");
    if !fields.is_empty() {
        text.push(' ');
        text.push_str(fields);
    }
    text
}

/// Asserts that `R` refuses the specification `spec` as a conflict of two options.
///
/// # Panics
/// When `spec` does not parse, or `R` accepts it or refuses it for another reason.
pub fn assert_spec_conflict<R: Ruleset>(spec: &str) {
    let parsed = spec.parse().unwrap_or_else(|e| panic!("{spec}: {e}"));
    let refused = R::from_spec(&parsed);
    assert!(
        matches!(refused, Err(SpecError::Conflict { .. })),
        "{spec}: {refused:?}"
    );
}

/// The position fields for a pending `throw` (0: none) followed by `fields`.
///
/// ```
/// use senet_testkit::scenario::throw_fields;
/// assert_eq!(throw_fields(3, "unmoved=none"), "throw=3 unmoved=none");
/// assert_eq!(throw_fields(0, "unmoved=none"), "unmoved=none");
/// assert_eq!(throw_fields(2, ""), "throw=2");
/// ```
pub fn throw_fields(throw: u8, fields: &str) -> String {
    let throw = (throw != 0).then(|| format!("throw={throw}"));
    let fields = (!fields.is_empty()).then_some(fields);
    let parts: Vec<&str> = throw.as_deref().into_iter().chain(fields).collect();
    parts.join(" ")
}

/// The state of a [`scenario`] under `rules`.
///
/// # Panics
/// When the position does not parse, naming it and the error.
pub fn position<R: Ruleset>(rules: &R, me: &[u8], opp: &[u8], fields: &str) -> R::State {
    let text = scenario(me, opp, fields);
    rules
        .parse_position(&text)
        .unwrap_or_else(|e| panic!("{text}: {e}"))
}

/// The legal moves of `state` in notation, in generation order.
pub fn move_strings<R: Ruleset>(rules: &R, state: &R::State) -> Vec<String> {
    rules
        .legal_moves(state)
        .iter()
        .map(ToString::to_string)
        .collect()
}

/// The state after the move `mv` (in notation), which must be legal; the result must pass
/// [`check_state`].
///
/// # Panics
/// When the move does not parse, is refused, or leads to a state that fails the check.
pub fn played<R: Ruleset>(rules: &R, state: &R::State, mv: &str) -> R::State {
    let parsed = mv.parse().unwrap_or_else(|e| panic!("{mv}: {e}"));
    checked_after(rules, state, mv, |next| rules.try_play(next, parsed))
}

/// The state after the throw `value`, which must be accepted; the result must pass
/// [`check_state`].
///
/// # Panics
/// When the throw is refused or leads to a state that fails the check.
pub fn thrown<R: Ruleset>(rules: &R, state: &R::State, value: u8) -> R::State {
    let what = format!("throw {value}");
    let value = Throw::new(value).expect("a throw counts at least one square");
    checked_after(rules, state, &what, |next| rules.try_throw(next, value))
}

/// The state after `act` (described by `what` in messages), which must succeed and lead to a
/// state that passes [`check_state`].
fn checked_after<R: Ruleset>(
    rules: &R,
    state: &R::State,
    what: &str,
    act: impl FnOnce(&mut R::State) -> Result<(), PlayError>,
) -> R::State {
    let position = rules.position_string(state);
    let mut next = *state;
    act(&mut next).unwrap_or_else(|e| panic!("{position}: {what}: {e}"));
    check_state(rules, &next).unwrap_or_else(|e| panic!("{position} then {what}: {e}"));
    next
}

/// The squares `side`'s pieces stand on in `state`.
pub fn pieces<R: Ruleset>(rules: &R, state: &R::State, side: Side) -> SquareSet {
    rules.board(state).pieces_of(side)
}

/// Defines the short helpers a rule test file opens with, bound to the default value of the
/// ruleset type given: `sq`, `set`, `scenario`, `move_strings`, `assert_throws` and
/// `assert_illegal_moves_refused` (from this module),
/// `moves_of(rules, state)` and `moves(state)` (notation), `play_with(rules, state, mv)` and
/// `play(state, mv)`, `throw_with(rules, state, value)`, `black(state)` and `white(state)`
/// (their squares), and `assert_squares(state, black, white)`.
///
/// With `, throw` after the type it also defines the scenario builders of rulesets whose
/// position notes a pending throw as `throw=N`: `pos_full(rules, me, opp, throw, fields)`,
/// `pos_with(rules, me, opp, throw)` and `pos(me, opp, throw)` (throw 0: none pending).
///
/// A test file uses some of them; the others are allowed to be dead code.
#[macro_export]
macro_rules! scenario_helpers {
    ($rules:ty, throw) => {
        $crate::scenario_helpers!($rules);

        #[allow(dead_code)]
        fn pos_full(
            rules: &$rules,
            me: &[u8],
            opp: &[u8],
            throw: u8,
            fields: &str,
        ) -> <$rules as $crate::senet_core::Ruleset>::State {
            $crate::scenario::position(
                rules,
                me,
                opp,
                &$crate::scenario::throw_fields(throw, fields),
            )
        }

        #[allow(dead_code)]
        fn pos_with(
            rules: &$rules,
            me: &[u8],
            opp: &[u8],
            throw: u8,
        ) -> <$rules as $crate::senet_core::Ruleset>::State {
            pos_full(rules, me, opp, throw, "")
        }

        #[allow(dead_code)]
        fn pos(me: &[u8], opp: &[u8], throw: u8) -> <$rules as $crate::senet_core::Ruleset>::State {
            pos_full(&<$rules>::default(), me, opp, throw, "")
        }
    };
    ($rules:ty) => {
        #[allow(unused_imports)]
        use $crate::scenario::{
            assert_illegal_moves_refused, assert_over, assert_round_trip, assert_spec_conflict,
            assert_start, assert_throws, move_strings, scenario, seat_draws, set, sq,
        };

        #[allow(dead_code)]
        fn moves_of(
            rules: &$rules,
            state: &<$rules as $crate::senet_core::Ruleset>::State,
        ) -> Vec<String> {
            $crate::scenario::move_strings(rules, state)
        }

        #[allow(dead_code)]
        fn moves(state: &<$rules as $crate::senet_core::Ruleset>::State) -> Vec<String> {
            moves_of(&<$rules>::default(), state)
        }

        #[allow(dead_code)]
        fn play_with(
            rules: &$rules,
            state: &<$rules as $crate::senet_core::Ruleset>::State,
            mv: &str,
        ) -> <$rules as $crate::senet_core::Ruleset>::State {
            $crate::scenario::played(rules, state, mv)
        }

        #[allow(dead_code)]
        fn play(
            state: &<$rules as $crate::senet_core::Ruleset>::State,
            mv: &str,
        ) -> <$rules as $crate::senet_core::Ruleset>::State {
            play_with(&<$rules>::default(), state, mv)
        }

        #[allow(dead_code)]
        fn throw_with(
            rules: &$rules,
            state: &<$rules as $crate::senet_core::Ruleset>::State,
            value: u8,
        ) -> <$rules as $crate::senet_core::Ruleset>::State {
            $crate::scenario::thrown(rules, state, value)
        }

        #[allow(dead_code)]
        fn assert_squares(
            state: &<$rules as $crate::senet_core::Ruleset>::State,
            black: &[u8],
            white: &[u8],
        ) {
            $crate::scenario::assert_squares(&<$rules>::default(), state, black, white)
        }

        #[allow(dead_code)]
        fn black(
            state: &<$rules as $crate::senet_core::Ruleset>::State,
        ) -> $crate::senet_core::SquareSet {
            $crate::scenario::pieces(&<$rules>::default(), state, $crate::senet_core::Side::Black)
        }

        #[allow(dead_code)]
        fn white(
            state: &<$rules as $crate::senet_core::Ruleset>::State,
        ) -> $crate::senet_core::SquareSet {
            $crate::scenario::pieces(&<$rules>::default(), state, $crate::senet_core::Side::White)
        }
    };
}

/// Starts a game under `rules` and throws `throw` for Black; then each of the `illegal` moves
/// (in notation) must be refused as an illegal move of Black, and a second throw refused
/// because a move is expected, each leaving the game exactly as it was. Returns the game,
/// still waiting for Black's move.
///
/// # Panics
/// When the throw is refused, a move does not parse, or a refusal is missing, of another
/// kind, or changes the game.
pub fn assert_illegal_moves_refused<R: Ruleset>(rules: R, throw: u8, illegal: &[&str]) -> Game<R> {
    let throw = Throw::new(throw).expect("a throw counts at least one square");
    let mut game = Game::new(rules);
    game.throw(throw).unwrap();
    let before = game.clone();
    for text in illegal {
        let mv = text.parse().unwrap_or_else(|e| panic!("{text}: {e}"));
        let refused = game.play(mv);
        assert!(
            matches!(
                refused,
                Err(PlayError::IllegalMove {
                    side: Side::Black,
                    ..
                })
            ),
            "{text}: {refused:?}"
        );
        assert_eq!(game, before, "{text}");
    }
    assert!(matches!(
        game.throw(throw),
        Err(PlayError::MoveExpected(Side::Black))
    ));
    assert_eq!(game, before);
    game
}

/// The device of `rules` has exactly the outcomes `table` (value and weight, in order), its
/// weights add up to its denominator, and each `impossible` value is refused by
/// [`Ruleset::try_throw`] as an impossible throw, leaving the initial state unchanged (0 is no
/// throw at all).
///
/// # Panics
/// When one of these fails.
pub fn assert_throws<R: Ruleset>(rules: &R, table: &[(u8, u32)], impossible: &[u8]) {
    let device = rules.device();
    let outcomes: Vec<(u8, u32)> = device
        .outcomes()
        .iter()
        .map(|o| (o.value.get(), o.weight))
        .collect();
    assert_eq!(outcomes, table);
    let total: u32 = table.iter().map(|&(_, weight)| weight).sum();
    assert_eq!(device.denominator(), total);
    let mut state = rules.initial_state();
    for &value in impossible {
        let Some(value) = Throw::new(value) else {
            continue;
        };
        assert_eq!(
            rules.try_throw(&mut state, value),
            Err(PlayError::ImpossibleThrow(value))
        );
    }
    assert!(state == rules.initial_state());
}

/// The initial state of `rules`: `pieces_per_side` pieces a side, Black (the even set) on
/// `black` and White on `white`, every other piece of a side neither borne off nor captured
/// (in hand, where the ruleset has a hand). Returns the state for further checks.
///
/// # Panics
/// When one of these fails.
pub fn assert_start<R: Ruleset>(rules: &R, black: &[u8], white: &[u8]) -> R::State {
    let state = rules.initial_state();
    let board = rules.board(&state);
    assert_eq!(board.pieces(Side::Black), set(black), "Black's squares");
    assert_eq!(board.pieces(Side::White), set(white), "White's squares");
    for side in Side::BOTH {
        assert_eq!(
            board.total(side),
            rules.pieces_per_side(),
            "{side:?} pieces"
        );
        assert_eq!(board.off(side), 0, "{side:?} pieces borne off");
        assert_eq!(rules.captured(&state, side), 0, "{side:?} pieces captured");
    }
    state
}

/// Black's pieces stand on `black` and White's on `white` in `state`, nowhere else.
///
/// # Panics
/// When they do not.
pub fn assert_squares<R: Ruleset>(rules: &R, state: &R::State, black: &[u8], white: &[u8]) {
    let position = rules.position_string(state);
    assert_eq!(
        pieces(rules, state, Side::Black),
        set(black),
        "Black in {position}"
    );
    assert_eq!(
        pieces(rules, state, Side::White),
        set(white),
        "White in {position}"
    );
}

/// `state` comes back unchanged from its position notation.
///
/// # Panics
/// When the notation does not parse or gives another state.
pub fn assert_round_trip<R: Ruleset>(rules: &R, state: &R::State) {
    let position = rules.position_string(state);
    let parsed = rules
        .parse_position(&position)
        .unwrap_or_else(|e| panic!("{position}: {e}"));
    assert!(parsed == *state, "{position} reads back as another state");
}

/// The game is over in `state`: it has an outcome, which is returned, no move is legal, and
/// a throw is refused as [`PlayError::GameOver`], leaving the state as it was.
///
/// # Panics
/// When one of these fails.
pub fn assert_over<R: Ruleset>(rules: &R, state: &R::State) -> Outcome {
    let outcome = rules.outcome(state).expect("the game is over");
    assert!(rules.legal_moves(state).is_empty(), "no move after the end");
    let mut copy = *state;
    assert_eq!(
        rules.try_throw(&mut copy, Throw::at(2)),
        Err(PlayError::GameOver)
    );
    assert!(copy == *state, "a refused throw changed the state");
    outcome
}

/// `count` draws for the seats under the ruleset's [`SeatRule`](senet_core::SeatRule), with
/// its device on a ChaCha8 generator seeded with `seed`.
pub fn seat_draws<R: Ruleset>(rules: &R, seed: u64, count: usize) -> Vec<SeatDraw> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    (0..count)
        .map(|_| draw_seats(rules.device(), R::SEAT_RULE, &mut rng))
        .collect()
}
