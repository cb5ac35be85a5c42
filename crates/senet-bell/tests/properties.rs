//! Properties over positions reached by random play, under random option combinations:
//! pieces on the board, borne off and captured always add up to ten, no square holds two
//! pieces, every generated move applies cleanly, a pass is offered only when nothing else is
//! legal, an illegal move leaves the state unchanged, and every game ends with the board empty.

use proptest::prelude::*;
use senet_bell::Bell;
use senet_core::Side;
use senet_testkit::properties::Suite;

senet_testkit::ruleset_properties!(
    Bell,
    Suite::<Bell> {
        // The game ends with the board empty; Be-9: the score is the pieces borne off, captures
        // account for the rest.
        finished: |_, game, outcome| {
            let board = game.board();
            prop_assert!(board.occupied().is_empty());
            for side in Side::BOTH {
                prop_assert_eq!(outcome.points_of(side), i32::from(board.off(side)));
                prop_assert_eq!(board.off(side) + game.state().captured(side), 10);
            }
            Ok(())
        },
        ..Suite::default()
    }
);
