//! Properties over positions reached by random play: piece counts are conserved (on the
//! board, in hand and off), no square holds two pieces, every generated move applies cleanly
//! and leads to a different position, a pass is offered only when nothing else is legal, an
//! illegal move leaves the state unchanged, and every game ends. Piccione has no options, so
//! every case plays the one ruleset.

use proptest::prelude::*;
use rand_chacha::ChaCha8Rng;
use rand_core::SeedableRng;
use senet_core::{MAX_STEPS, Phase, Ruleset};
use senet_piccione::Piccione;
use senet_testkit::conformance::walk_random_game;

senet_testkit::ruleset_properties!(Piccione);

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

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
}
