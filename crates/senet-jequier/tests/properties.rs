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
use rand_core::SeedableRng;
use senet_core::{MoveList, PlayoutEnd, Ruleset, Side, random_playout};
use senet_jequier::{BackwardPriority, Jequier, SafeSquares, StartRule};
use senet_testkit::conformance::walk_random_game;
use senet_testkit::properties::{Suite, TurnLimit, every_configuration};

/// Turns after which random games under `per_piece` are no longer checked move by move.
const PER_PIECE_CHECKED_TURNS: u32 = 1_000;

/// Games under `per_piece` are checked over their first turns only.
fn limit(rules: &Jequier) -> TurnLimit {
    match rules.backward_priority() {
        BackwardPriority::PerPlayer => TurnLimit::ENDS,
        BackwardPriority::PerPiece => TurnLimit {
            max_turns: PER_PIECE_CHECKED_TURNS,
            must_end: false,
        },
    }
}

senet_testkit::ruleset_properties!(
    Jequier,
    Suite {
        limit,
        ..Suite::default()
    }
);

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn unmoved_pieces_never_come_back(rules in every_configuration::<Jequier>(), seed in any::<u64>()) {
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
