//! Properties over positions reached by random play, under random option combinations:
//! piece counts are conserved, no square holds two pieces, every generated move applies
//! cleanly, a pass is offered only when nothing else is legal, an illegal move leaves the
//! state unchanged, and every game ends.

use proptest::prelude::*;
use senet_botermans::Botermans;
use senet_core::{Game, Outcome};
use senet_testkit::properties::Suite;

fn rules_strategy() -> impl Strategy<Value = Botermans> {
    proptest::sample::select(senet_core::option_combinations::<Botermans>().unwrap())
}

/// B-14: the winner's slot is 0, the loser's the negated penalty.
fn scores_are_the_penalty(
    _: &Botermans,
    game: &Game<Botermans>,
    outcome: &Outcome,
) -> Result<(), TestCaseError> {
    let winner = outcome.winner.unwrap();
    prop_assert_eq!(outcome.points_of(winner), 0);
    prop_assert_eq!(
        outcome.points_of(winner.opponent()),
        -Botermans::penalty(game.board(), winner.opponent())
    );
    prop_assert!(outcome.points_of(winner.opponent()) < 0);
    Ok(())
}

senet_testkit::ruleset_properties!(
    rules_strategy(),
    Suite {
        finished: scores_are_the_penalty,
        ..Suite::default()
    }
);
