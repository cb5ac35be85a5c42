//! Properties over positions reached by random play, under random option combinations:
//! pieces on the board, borne off and captured always add up to ten, no square holds two
//! pieces, every generated move applies cleanly, a pass is offered only when nothing else is
//! legal, an illegal move leaves the state unchanged, and every game ends with the board empty.

use proptest::prelude::*;
use rand_chacha::ChaCha8Rng;
use rand_core::SeedableRng;
use senet_bell::{Bell, MarkedSquares};
use senet_core::{Board, Game, Move, MoveList, PlayoutEnd, Ruleset, Side, random_playout};
use senet_testkit::conformance::{arbitrary_action, check_random_game, check_refused_actions};

fn rules_strategy() -> impl Strategy<Value = Bell> {
    (any::<bool>(), any::<bool>()).prop_map(|(ludii, capture)| {
        Bell::default()
            .with_marked_squares(if ludii {
                MarkedSquares::Ludii
            } else {
                MarkedSquares::Bell
            })
            .with_compulsory_capture(capture)
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn every_reachable_decision_point_keeps_the_invariants(
        rules in rules_strategy(),
        seed in any::<u64>(),
    ) {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let checked = check_random_game(&rules, &mut rng, 10_000, false);
        prop_assert!(checked.is_ok(), "{}: {}", rules.spec(), checked.unwrap_err());
    }

    #[test]
    fn random_games_end_with_an_empty_board_and_replay_from_their_records(
        rules in rules_strategy(),
        seed in any::<u64>(),
    ) {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut game = Game::new(rules);
        game.set_seed(Some(seed));
        let end = game.play_random(&mut rng, 10_000);
        let PlayoutEnd::Finished(outcome) = end else {
            return Err(TestCaseError::fail("the game did not end"));
        };
        let board = game.board();
        prop_assert!(board.occupied().is_empty());
        // Be-9: the score is the pieces borne off; captures account for the rest.
        for side in Side::BOTH {
            prop_assert_eq!(outcome.points_of(side), i32::from(board.off(side)));
            prop_assert_eq!(board.off(side) + game.state().captured(side), 10);
        }
        let replayed = Game::<Bell>::from_record(&game.record()).unwrap();
        prop_assert_eq!(replayed.state(), game.state());
        // The fast playout with the same seed makes the same game.
        let mut state = rules.initial_state();
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let playout = random_playout(&rules, &mut state, &mut rng, &mut MoveList::new(), 10_000);
        prop_assert_eq!(&state, game.state());
        prop_assert_eq!(playout.decisions, game.decisions());
    }

    #[test]
    fn an_illegal_action_leaves_the_game_unchanged(
        seed in any::<u64>(),
        actions in prop::collection::vec((any::<bool>(), 0u8..8, 0u8..32, 0u8..32), 1..200),
    ) {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut game = Game::new(Bell::default());
        let actions = actions
            .into_iter()
            .filter_map(|(is_throw, value, from, to)| arbitrary_action(is_throw, value, &format!("{from}-{to}")));
        let checked = check_refused_actions(&mut game, &mut rng, actions);
        prop_assert!(checked.is_ok(), "{}", checked.unwrap_err());
    }

    /// The unchecked fast paths accept anything without panicking (the resulting state is
    /// unspecified): arbitrary place codes, throw marks and throw values.
    #[test]
    fn unchecked_inputs_never_panic(
        rules in rules_strategy(),
        seed in any::<u64>(),
        skip in 0usize..300,
        inputs in prop::collection::vec((0u8..=40, 0u8..=40, 0u8..=8, any::<u8>()), 1..40),
    ) {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut seen = 0;
        let (start, _) = senet_testkit::conformance::walk_random_game(&rules, &mut rng, 10_000, |_| {
            seen += 1;
            seen <= skip
        });
        for (from, to, mark, value) in inputs {
            let mut state = start;
            rules.play_unchecked(&mut state, Move::from_codes_unchecked(from, to).with_throw(mark));
            rules.throw_unchecked(&mut state, value);
            let mut list = MoveList::new();
            rules.generate_moves(&state, &mut list);
            let _ = rules.phase(&state);
            let _ = rules.position_string(&state);
        }
    }
}
