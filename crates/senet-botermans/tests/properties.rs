//! Properties over positions reached by random play, under random option combinations:
//! piece counts are conserved, no square holds two pieces, every generated move applies
//! cleanly, a pass is offered only when nothing else is legal, an illegal move leaves the
//! state unchanged, and every game ends.

use proptest::prelude::*;
use rand_chacha::ChaCha8Rng;
use rand_core::SeedableRng;
use senet_botermans::Botermans;
use senet_core::{Game, MoveList, PlayoutEnd, Ruleset, random_playout};
use senet_testkit::conformance::{arbitrary_action, check_random_game, check_refused_actions};

fn rules_strategy() -> impl Strategy<Value = Botermans> {
    any::<bool>().prop_map(|on| Botermans::default().with_blockade_of_three(on))
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
    fn random_games_end_and_replay_from_their_records(
        rules in rules_strategy(),
        seed in any::<u64>(),
    ) {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut game = Game::new(rules);
        game.set_seed(Some(seed));
        let end = game.play_random(&mut rng, 10_000);
        let PlayoutEnd::Finished(outcome) = end else {
            return Err(TestCaseError::fail("the game hit the turn cap"));
        };
        // B-14: the winner's slot is 0, the loser's the negated penalty.
        let winner = outcome.winner.unwrap();
        prop_assert_eq!(outcome.points_of(winner), 0);
        prop_assert_eq!(
            outcome.points_of(winner.opponent()),
            -Botermans::penalty(game.board(), winner.opponent())
        );
        prop_assert!(outcome.points_of(winner.opponent()) < 0);
        let replayed = Game::<Botermans>::from_record(&game.record()).unwrap();
        prop_assert_eq!(replayed.state(), game.state());
        // The fast playout with the same seed makes the same game.
        let mut state = rules.initial_state();
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let playout = random_playout(&rules, &mut state, &mut rng, &mut MoveList::new(), 10_000);
        prop_assert_eq!(&state, game.state());
        prop_assert_eq!(playout.decisions, game.decisions());
        prop_assert_eq!(playout.turns, game.turns());
    }

    #[test]
    fn an_illegal_action_leaves_the_game_unchanged(
        seed in any::<u64>(),
        actions in prop::collection::vec((any::<bool>(), 0u8..8, 0u8..32, 0u8..32), 1..200),
    ) {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut game = Game::new(Botermans::default());
        let actions = actions
            .into_iter()
            .filter_map(|(is_throw, value, from, to)| arbitrary_action(is_throw, value, &format!("{from}-{to}")));
        let checked = check_refused_actions(&mut game, &mut rng, actions);
        prop_assert!(checked.is_ok(), "{}", checked.unwrap_err());
    }
}
