//! The property tests every ruleset passes, as functions over any [`Ruleset`], and
//! [`ruleset_properties!`](crate::ruleset_properties) that runs them for one ruleset (under a
//! strategy of option combinations) in one line.
//!
//! The properties: every state reached by random play keeps the invariants and every decision
//! point checks out ([`conformance::check_random_game`]); random games end and replay from
//! their records, and the allocation-free playout makes the same game; a refused action leaves
//! the game unchanged; and the unchecked fast paths never panic, whatever they are fed.

use proptest::prelude::*;
use rand_chacha::ChaCha8Rng;
use rand_core::SeedableRng;
use senet_core::{
    Action, Game, Move, MoveList, Outcome, Phase, PlayoutEnd, Ruleset, random_playout,
};

use crate::conformance::{self, arbitrary_action, check_decision, check_refused_actions};
use senet_core::Throw;

/// How many turns the random games of the suite may last, and whether they must end by then.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TurnLimit {
    /// Turns after which a game is no longer played.
    pub max_turns: u32,
    /// Whether a game that has not ended by then fails the property.
    pub must_end: bool,
}

impl TurnLimit {
    /// Games end within 10,000 turns, as they do in every ruleset under random play unless
    /// an option makes them wander for longer.
    pub const ENDS: TurnLimit = TurnLimit {
        max_turns: 10_000,
        must_end: true,
    };
}

/// What a ruleset adds to the generic suite.
#[derive(Clone, Copy, Debug)]
pub struct Suite<R: Ruleset> {
    /// The turn limit of random games under the given options.
    pub limit: fn(&R) -> TurnLimit,
    /// Whether a plain pass may stand beside other moves (see
    /// [`conformance::check_decision`]).
    pub pass_may_accompany: bool,
    /// Ruleset-specific checks of a random game that ended with the given outcome.
    pub finished: fn(&R, &Game<R>, &Outcome) -> Result<(), TestCaseError>,
}

impl<R: Ruleset> Default for Suite<R> {
    fn default() -> Self {
        Suite {
            limit: |_| TurnLimit::ENDS,
            pass_may_accompany: false,
            finished: |_, _, _| Ok(()),
        }
    }
}

/// Plays one random game from `seed`, checking every state and every decision point over
/// the suite's turn limit (and, when games must end, that this one does).
pub fn decision_points_keep_the_invariants<R: Ruleset>(
    suite: &Suite<R>,
    rules: &R,
    seed: u64,
) -> Result<(), TestCaseError> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let limit = (suite.limit)(rules);
    let checked = if limit.must_end {
        conformance::check_random_game(rules, &mut rng, limit.max_turns, suite.pass_may_accompany)
            .map(drop)
    } else {
        let mut failure = None;
        conformance::walk_random_game(rules, &mut rng, limit.max_turns, |state| {
            let result = match rules.phase(state) {
                Phase::Move(_) => check_decision(rules, state, suite.pass_may_accompany),
                _ => conformance::check_state(rules, state),
            };
            failure = result.err();
            failure.is_none()
        });
        failure.map_or(Ok(()), Err)
    };
    checked.map_err(|e| TestCaseError::fail(format!("{}: {e}", rules.spec())))
}

/// Plays one random game from `seed` with a [`Game`] and checks that it ends (when the
/// suite's games must), that its record replays to the same state, that
/// [`random_playout`] with the same seed makes the same game, and the suite's `finished`
/// checks.
pub fn random_games_end_and_replay<R: Ruleset>(
    suite: &Suite<R>,
    rules: &R,
    seed: u64,
) -> Result<(), TestCaseError> {
    let limit = (suite.limit)(rules);
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut game = Game::new(rules.clone());
    game.set_seed(Some(seed));
    let end = game.play_random(&mut rng, limit.max_turns);
    match end {
        PlayoutEnd::Finished(outcome) => (suite.finished)(rules, &game, &outcome)?,
        _ if limit.must_end => {
            return Err(TestCaseError::fail(format!(
                "{}: the game hit the turn cap",
                rules.spec()
            )));
        }
        _ => {}
    }
    let replayed = Game::<R>::from_record(&game.record())
        .map_err(|e| TestCaseError::fail(format!("the record does not replay: {e}")))?;
    prop_assert_eq!(replayed.state(), game.state());
    let mut state = rules.initial_state();
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let playout = random_playout(
        rules,
        &mut state,
        &mut rng,
        &mut MoveList::new(),
        limit.max_turns,
    );
    prop_assert_eq!(&state, game.state());
    prop_assert_eq!(playout.decisions, game.decisions());
    prop_assert_eq!(playout.turns, game.turns());
    Ok(())
}

/// Arbitrary actions as test input: throw values 0..8, and moves of up to four steps between
/// place codes 0..32 (31 written `off`; no step at all written `pass` or `enter`), half of
/// them naming a throw 1..=6 they spend. Most do not parse or are illegal.
pub fn arbitrary_actions() -> impl Strategy<Value = Vec<Action>> {
    let one = (
        any::<bool>(),
        0u8..8,
        prop::collection::vec((0u8..32, 0u8..32), 0..4),
        prop::option::of(1u8..=6),
    );
    prop::collection::vec(one, 1..200).prop_map(|actions| {
        actions
            .into_iter()
            .filter_map(|(is_throw, value, steps, spends)| {
                let mut text = if steps.is_empty() {
                    if value % 2 == 0 { "pass" } else { "enter" }.to_string()
                } else {
                    let step = |&(from, to): &(u8, u8)| match to {
                        31 => format!("{from}-off"),
                        _ => format!("{from}-{to}"),
                    };
                    steps.iter().map(step).collect::<Vec<_>>().join(",")
                };
                if let Some(v) = spends {
                    text.push_str(&format!("/{v}"));
                }
                arbitrary_action(is_throw, value, &text)
            })
            .collect()
    })
}

/// Feeds `actions` to a new game under `rules` with
/// [`check_refused_actions`]: each refused one must leave the game unchanged.
pub fn refused_actions_leave_the_game_unchanged<R: Ruleset>(
    rules: &R,
    seed: u64,
    actions: Vec<Action>,
) -> Result<(), TestCaseError> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut game = Game::new(rules.clone());
    check_refused_actions(&mut game, &mut rng, actions).map_err(TestCaseError::fail)
}

/// Junk for the unchecked fast paths: a throw value, a move of up to five steps between place
/// codes 0..=40 (outside the places 0..=31), and the throw mark it names (0..=8).
pub type Junk = (u8, Vec<(u8, u8)>, u8);

/// A strategy of [`Junk`] sequences.
pub fn junk() -> impl Strategy<Value = Vec<Junk>> {
    let one = (
        any::<u8>(),
        prop::collection::vec((0u8..=40, 0u8..=40), 0..6),
        0u8..=8,
    );
    prop::collection::vec(one, 1..40)
}

/// The unchecked fast paths promise an unspecified state, never a panic (overflow checks are
/// on in tests): feeds `junk` to them from the `skip`-th state of a random game (each input
/// from that same state) and, accumulating, from the initial state.
pub fn unchecked_inputs_never_panic<R: Ruleset>(
    suite: &Suite<R>,
    rules: &R,
    seed: u64,
    skip: usize,
    junk: &[Junk],
) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut seen = 0;
    let max_turns = (suite.limit)(rules).max_turns;
    let (start, _) = conformance::walk_random_game(rules, &mut rng, max_turns, |_| {
        seen += 1;
        seen <= skip
    });
    let mut list = MoveList::new();
    let mut accumulated = rules.initial_state();
    for (value, steps, mark) in junk {
        let Some(value) = Throw::new(*value) else {
            continue;
        };
        let mut mv = steps.iter().fold(Move::PASS, |mv, &(from, to)| {
            mv.then_codes_unchecked(from, to)
        });
        if let Some(mark) = Throw::new(*mark) {
            mv = mv.with_throw(mark);
        }
        let mut state = start;
        rules.play_unchecked(&mut state, mv);
        rules.throw_unchecked(&mut state, value);
        rules.generate_moves(&state, &mut list);
        let _ = rules.phase(&state);
        let _ = rules.validate(&state);
        let _ = rules.position_string(&state);

        rules.throw_unchecked(&mut accumulated, value);
        rules.generate_moves(&accumulated, &mut list);
        rules.play_unchecked(&mut accumulated, mv);
        let _ = rules.phase(&accumulated);
        let _ = rules.validate(&accumulated);
        let _ = rules.position_string(&accumulated);
    }
}

/// Every configuration of `R`'s declared options, as a proptest strategy.
pub fn every_configuration<R: Ruleset>() -> impl Strategy<Value = R> {
    let all = senet_core::option_combinations::<R>().expect("the declared options combine");
    proptest::sample::select(all)
}

/// Runs the generic property suite (64 cases each) under every configuration of a ruleset's
/// options ([`every_configuration`]): `ruleset_properties!(Ruleset)` with the default
/// [`Suite`], or `ruleset_properties!(Ruleset, suite)` with one the ruleset adapts.
///
/// It defines the tests `every_reachable_decision_point_keeps_the_invariants`,
/// `random_games_end_and_replay_from_their_records`,
/// `an_illegal_action_leaves_the_game_unchanged` and `unchecked_inputs_never_panic`.
#[macro_export]
macro_rules! ruleset_properties {
    ($ruleset:ty) => {
        $crate::ruleset_properties!($ruleset, $crate::properties::Suite::default());
    };
    ($ruleset:ty, $suite:expr) => {
        $crate::proptest::proptest! {
            #![proptest_config($crate::proptest::prelude::ProptestConfig::with_cases(64))]

            #[test]
            fn every_reachable_decision_point_keeps_the_invariants(
                rules in $crate::properties::every_configuration::<$ruleset>(),
                seed in $crate::proptest::prelude::any::<u64>(),
            ) {
                $crate::properties::decision_points_keep_the_invariants(&$suite, &rules, seed)?;
            }

            #[test]
            fn random_games_end_and_replay_from_their_records(
                rules in $crate::properties::every_configuration::<$ruleset>(),
                seed in $crate::proptest::prelude::any::<u64>(),
            ) {
                $crate::properties::random_games_end_and_replay(&$suite, &rules, seed)?;
            }

            #[test]
            fn an_illegal_action_leaves_the_game_unchanged(
                rules in $crate::properties::every_configuration::<$ruleset>(),
                seed in $crate::proptest::prelude::any::<u64>(),
                actions in $crate::properties::arbitrary_actions(),
            ) {
                $crate::properties::refused_actions_leave_the_game_unchanged(&rules, seed, actions)?;
            }

            #[test]
            fn unchecked_inputs_never_panic(
                rules in $crate::properties::every_configuration::<$ruleset>(),
                seed in $crate::proptest::prelude::any::<u64>(),
                skip in 0usize..300,
                junk in $crate::properties::junk(),
            ) {
                $crate::properties::unchecked_inputs_never_panic(&$suite, &rules, seed, skip, &junk);
            }
        }
    };
}
