//! Properties over positions reached by random play: piece counts are conserved (on the
//! board, in hand and off), no square holds two pieces, every generated move applies cleanly
//! and leads to a different position, a pass is offered only when nothing else is legal, an
//! illegal move leaves the state unchanged, and every game ends. Piccione has no options, so
//! every case plays the one ruleset.

use proptest::prelude::*;
use rand_chacha::ChaCha8Rng;
use rand_core::{Rng, SeedableRng};
use senet_core::{Game, MAX_STEPS, Move, MoveList, Phase, PlayoutEnd, Ruleset, random_playout};
use senet_piccione::Piccione;
use senet_testkit::conformance::{
    arbitrary_action, check_random_game, check_refused_actions, walk_random_game,
};

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn every_reachable_decision_point_keeps_the_invariants(seed in any::<u64>()) {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let checked = check_random_game(&Piccione, &mut rng, 10_000, false);
        prop_assert!(checked.is_ok(), "{}", checked.unwrap_err());
    }

    #[test]
    fn every_move_leads_to_its_own_position(seed in any::<u64>()) {
        // Different step orders or splits that end alike are one choice: no two moves of a
        // list lead to the same state (extra throws and the entry obligation included).
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut failure = None;
        walk_random_game(&Piccione, &mut rng, 10_000, |state| {
            if let Phase::Move(_) = Piccione.phase(state) {
                let list = Piccione.legal_moves(state);
                let mut after: Vec<_> = list
                    .iter()
                    .map(|&mv| {
                        let mut next = *state;
                        Piccione.play_unchecked(&mut next, mv);
                        next
                    })
                    .collect();
                let before = after.len();
                after.sort_by_key(|s| Piccione.position_string(s));
                after.dedup();
                if after.len() != before || list.iter().any(|m| m.step_count() > MAX_STEPS) {
                    failure = Some(Piccione.position_string(state));
                }
            }
            failure.is_none()
        });
        prop_assert!(failure.is_none(), "{:?}", failure);
    }

    #[test]
    fn random_games_end_and_replay_from_their_records(seed in any::<u64>()) {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut game = Game::new(Piccione);
        game.set_seed(Some(seed));
        let end = game.play_random(&mut rng, 10_000);
        prop_assert!(matches!(end, PlayoutEnd::Finished(_)));
        let replayed = Game::<Piccione>::from_record(&game.record()).unwrap();
        prop_assert_eq!(replayed.state(), game.state());
        // The fast playout with the same seed makes the same game.
        let mut state = Piccione.initial_state();
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let playout = random_playout(&Piccione, &mut state, &mut rng, &mut MoveList::new(), 10_000);
        prop_assert_eq!(&state, game.state());
        prop_assert_eq!(playout.decisions, game.decisions());
        prop_assert_eq!(playout.turns, game.turns());
    }

    #[test]
    fn unchecked_calls_never_panic_on_bad_input(
        seed in any::<u64>(),
        junk in prop::collection::vec((0u8..=40, prop::collection::vec((0u8..=40, 0u8..=40), 0..6)), 1..40),
    ) {
        // The unchecked fast path promises an unspecified state, never a panic (overflow
        // checks are on in tests), whatever throw or move it is fed.
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut state = Piccione.initial_state();
        let mut list = MoveList::new();
        for (throw, steps) in junk {
            Piccione.throw_unchecked(&mut state, throw);
            Piccione.generate_moves(&state, &mut list);
            let mut mv = Move::PASS;
            for (from, to) in steps {
                mv = mv.then_codes_unchecked(from, to);
            }
            Piccione.play_unchecked(&mut state, mv);
            let _ = Piccione.validate(&state);
            let _ = Piccione.position_string(&state);
            let _ = rng.next_u32();
        }
    }

    #[test]
    fn an_illegal_action_leaves_the_game_unchanged(
        seed in any::<u64>(),
        actions in prop::collection::vec(
            (any::<bool>(), 0u8..8, prop::collection::vec((0u8..32, 0u8..32), 0..4)),
            1..200,
        ),
    ) {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut game = Game::new(Piccione);
        let actions = actions.into_iter().filter_map(|(is_throw, value, steps)| {
            let text = if steps.is_empty() {
                "enter".to_string()
            } else {
                steps
                    .iter()
                    .map(|&(from, to)| match to {
                        31 => format!("{from}-off"),
                        _ => format!("{from}-{to}"),
                    })
                    .collect::<Vec<_>>()
                    .join(",")
            };
            arbitrary_action(is_throw, value, &text)
        });
        let checked = check_refused_actions(&mut game, &mut rng, actions);
        prop_assert!(checked.is_ok(), "{}", checked.unwrap_err());
    }
}
