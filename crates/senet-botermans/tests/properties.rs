//! Properties over positions reached by random play, under random option combinations:
//! piece counts are conserved, no square holds two pieces, every generated move applies
//! cleanly, a pass is offered only when nothing else is legal, an illegal move leaves the
//! state unchanged, and every game ends.

use proptest::prelude::*;
use senet_botermans::Botermans;
use senet_testkit::properties::Suite;

senet_testkit::ruleset_properties!(
    Botermans,
    Suite::<Botermans> {
        // B-14: the winner's slot is 0, the loser's the negated penalty.
        finished: |_, game, outcome| {
            let winner = outcome.winner.unwrap();
            prop_assert_eq!(outcome.points_of(winner), 0);
            prop_assert_eq!(
                outcome.points_of(winner.opponent()),
                -Botermans::penalty(game.board(), winner.opponent())
            );
            prop_assert!(outcome.points_of(winner.opponent()) < 0);
            Ok(())
        },
        ..Suite::default()
    }
);
