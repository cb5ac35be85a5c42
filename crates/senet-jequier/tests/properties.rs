//! Properties over positions reached by random play, under random option combinations:
//! piece counts are conserved, no square holds two pieces, every generated move applies
//! cleanly, a pass is offered only when nothing else is legal, an illegal move leaves the
//! state unchanged, unmoved pieces only ever disappear, and every game ends.
//!
//! With `backward_priority=per_piece`, uniformly random play moves pieces backward so often
//! (a piece waiting in row 3 for the others goes back, often onto 27 and from there to the
//! start) that random games last tens of thousands of turns: those games are checked over
//! their first turns, and their termination separately with a much larger turn cap.

use proptest::prelude::*;
use rand_chacha::ChaCha8Rng;
use rand_core::{Rng, SeedableRng};
use senet_core::{Game, Move, MoveList, Phase, PlayoutEnd, Ruleset, Side, random_playout};
use senet_jequier::{BackwardPriority, Jequier, SafeSquares, StartRule};
use senet_testkit::conformance::{
    arbitrary_action, check_decision, check_random_game, check_refused_actions, check_state,
    walk_random_game,
};

fn rules_strategy() -> impl Strategy<Value = Jequier> {
    (any::<bool>(), any::<bool>(), any::<bool>()).prop_map(|(safe, start, back)| {
        Jequier::default()
            .with_safe_squares(if safe {
                SafeSquares::Ludii
            } else {
                SafeSquares::Standard
            })
            .with_start_rule(if start {
                StartRule::FirstRow
            } else {
                StartRule::UnmovedPieces
            })
            .with_backward_priority(if back {
                BackwardPriority::PerPiece
            } else {
                BackwardPriority::PerPlayer
            })
    })
}

/// Turns after which random games under `per_piece` are no longer checked move by move.
const PER_PIECE_CHECKED_TURNS: u32 = 1_000;

/// Checks every state and decision point of one random game's first `max_turns` turns.
fn check_random_prefix(
    rules: &Jequier,
    rng: &mut ChaCha8Rng,
    max_turns: u32,
) -> Result<(), String> {
    let mut failure = None;
    walk_random_game(rules, rng, max_turns, |state| {
        let result = match rules.phase(state) {
            Phase::Move(_) => check_decision(rules, state, false),
            _ => check_state(rules, state),
        };
        failure = result.err();
        failure.is_none()
    });
    failure.map_or(Ok(()), Err)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn every_reachable_decision_point_keeps_the_invariants(
        rules in rules_strategy(),
        seed in any::<u64>(),
    ) {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let checked = match rules.backward_priority() {
            BackwardPriority::PerPlayer => check_random_game(&rules, &mut rng, 10_000, false).map(|_| ()),
            BackwardPriority::PerPiece => check_random_prefix(&rules, &mut rng, PER_PIECE_CHECKED_TURNS),
        };
        prop_assert!(checked.is_ok(), "{}: {}", rules.spec(), checked.unwrap_err());
    }

    #[test]
    fn unmoved_pieces_never_come_back(rules in rules_strategy(), seed in any::<u64>()) {
        // I-1: a piece leaves the unmoved set when it moves or is attacked, and nothing
        // enters it during a game.
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut previous = [rules.initial_state().unmoved(Side::Black),
                            rules.initial_state().unmoved(Side::White)];
        let mut grew = None;
        walk_random_game(&rules, &mut rng, 10_000, |state| {
            for side in Side::BOTH {
                let now = state.unmoved(side);
                if !(now & !previous[side.index()]).is_empty() {
                    grew = Some(rules.position_string(state));
                }
                previous[side.index()] = now;
            }
            grew.is_none()
        });
        prop_assert!(grew.is_none(), "{:?}", grew);
    }

    #[test]
    fn random_games_end_and_replay_from_their_records(
        rules in rules_strategy(),
        seed in any::<u64>(),
    ) {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut game = Game::new(rules);
        game.set_seed(Some(seed));
        let cap = match rules.backward_priority() {
            BackwardPriority::PerPlayer => 10_000,
            BackwardPriority::PerPiece => PER_PIECE_CHECKED_TURNS,
        };
        let end = game.play_random(&mut rng, cap);
        if rules.backward_priority() == BackwardPriority::PerPlayer {
            prop_assert!(matches!(end, PlayoutEnd::Finished(_)));
        }
        let replayed = Game::<Jequier>::from_record(&game.record()).unwrap();
        prop_assert_eq!(replayed.state(), game.state());
        // The fast playout with the same seed makes the same game.
        let mut state = rules.initial_state();
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let playout = random_playout(&rules, &mut state, &mut rng, &mut MoveList::new(), cap);
        prop_assert_eq!(&state, game.state());
        prop_assert_eq!(playout.decisions, game.decisions());
        prop_assert_eq!(playout.turns, game.turns());
    }

    #[test]
    fn unchecked_calls_never_panic_on_bad_input(
        rules in rules_strategy(),
        seed in any::<u64>(),
        junk in prop::collection::vec((0u8..=40, prop::collection::vec((0u8..=40, 0u8..=40), 0..6)), 1..40),
    ) {
        // The unchecked fast path promises an unspecified state, never a panic (overflow
        // checks are on in tests), whatever throw or move it is fed.
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut state = rules.initial_state();
        let mut list = MoveList::new();
        for (throw, steps) in junk {
            rules.throw_unchecked(&mut state, throw);
            rules.generate_moves(&state, &mut list);
            let mut mv = Move::PASS;
            for (from, to) in steps {
                mv = mv.then_codes_unchecked(from, to);
            }
            rules.play_unchecked(&mut state, mv);
            let _ = rules.validate(&state);
            let _ = rules.position_string(&state);
            let _ = rng.next_u32();
        }
    }

    #[test]
    fn an_illegal_action_leaves_the_game_unchanged(
        rules in rules_strategy(),
        seed in any::<u64>(),
        actions in prop::collection::vec((any::<bool>(), 0u8..8, 0u8..32, 0u8..32), 1..200),
    ) {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut game = Game::new(rules);
        let actions = actions.into_iter().filter_map(|(is_throw, value, from, to)| {
            let text = match (from, to) {
                (0, _) => "pass".to_string(),
                (_, 31) => format!("{from}-off"),
                _ => format!("{from}-{to}"),
            };
            arbitrary_action(is_throw, value, &text)
        });
        let checked = check_refused_actions(&mut game, &mut rng, actions);
        prop_assert!(checked.is_ok(), "{}", checked.unwrap_err());
    }
}

proptest! {
    // Each of these games lasts tens of thousands of turns.
    #![proptest_config(ProptestConfig::with_cases(8))]

    #[test]
    fn per_piece_random_games_end_too(
        first_row in any::<bool>(),
        ludii_safe in any::<bool>(),
        seed in any::<u64>(),
    ) {
        let rules = Jequier::default()
            .with_backward_priority(BackwardPriority::PerPiece)
            .with_start_rule(if first_row { StartRule::FirstRow } else { StartRule::UnmovedPieces })
            .with_safe_squares(if ludii_safe { SafeSquares::Ludii } else { SafeSquares::Standard });
        let mut state = rules.initial_state();
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let playout = random_playout(&rules, &mut state, &mut rng, &mut MoveList::new(), 20_000_000);
        prop_assert!(matches!(playout.end, PlayoutEnd::Finished(_)), "{}", rules.spec());
    }
}
