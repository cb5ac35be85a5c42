//! Properties over positions reached by random play, under random option combinations:
//! piece counts are conserved, no square holds two pieces, every generated move applies
//! cleanly, a pass is offered only when nothing else is legal, an illegal move leaves the
//! state unchanged, every game ends, and the ancient mode's result is consistent.

use proptest::prelude::*;
use rand_chacha::ChaCha8Rng;
use rand_core::SeedableRng;
use senet_cemea::{Cemea, Pieces};
use senet_core::{Action, Game, Phase, Ruleset, Side};
use senet_testkit::properties::Suite;

senet_testkit::ruleset_properties!(
    Cemea,
    Suite::<Cemea> {
        // The winner is the first to finish; in the ancient mode both finish and the points are the
        // turns each took, otherwise the winner scores all its pieces and the loser fewer.
        finished: |rules, game, outcome| {
            let pieces = i32::from(rules.pieces_per_side());
            let winner = outcome.winner.unwrap();
            prop_assert_eq!(Some(winner), game.state().first_finished());
            if rules.ancient() {
                for side in Side::BOTH {
                    prop_assert_eq!(i32::from(game.board().off_count(side)), pieces);
                    prop_assert_eq!(
                        outcome.points_of(side),
                        i32::from(game.state().turns_taken(side))
                    );
                }
                // Black starts, so the first to finish took no more turns than the other, and
                // strictly fewer when White finished first.
                let (w, l) = (
                    outcome.points_of(winner),
                    outcome.points_of(winner.opponent()),
                );
                prop_assert!(w <= l && (winner == Side::Black || w < l), "{w} {l}");
            } else {
                prop_assert_eq!(outcome.points_of(winner), pieces);
                prop_assert!(outcome.points_of(winner.opponent()) < pieces);
            }
            Ok(())
        },
        ..Suite::default()
    }
);

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn ancient_turn_counts_match_the_alternation_until_someone_finishes(
        five in any::<bool>(),
        die in any::<bool>(),
        seed in any::<u64>(),
    ) {
        // While both sides play, turns alternate: the turns completed by both sides add up
        // to the turns the game driver has seen started whenever the move changes hands.
        let rules = Cemea::default()
            .with_pieces(if five { Pieces::Five } else { Pieces::Seven })
            .with_die(die)
            .with_ancient(true);
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut game = Game::new(rules);
        let mut last_actor = None;
        while game.state().first_finished().is_none() {
            let Phase::Throw(side) = game.phase() else {
                let moves = game.legal_moves();
                let pick = rand_core::Rng::next_u32(&mut rng) as usize % moves.len();
                game.apply(Action::Move(moves[pick])).unwrap();
                continue;
            };
            if last_actor != Some(side) {
                let state = game.state();
                let done = u32::from(state.turns_taken(Side::Black))
                    + u32::from(state.turns_taken(Side::White));
                prop_assert_eq!(done, game.turns());
            }
            last_actor = Some(side);
            game.throw_random(&mut rng).unwrap();
        }
    }
}
