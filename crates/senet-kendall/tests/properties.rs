//! Properties over positions reached by random play, under random option combinations:
//! piece counts are conserved, no square holds two pieces, every generated move applies
//! cleanly, a plain pass is offered only when nothing else is legal, an illegal move leaves
//! the state unchanged, every game ends, and, over random orders of spending stored throws,
//! each move spends exactly the throw it names and independent moves commute.

use proptest::prelude::*;
use rand_chacha::ChaCha8Rng;
use rand_core::SeedableRng;
use senet_core::{Game, Move, Phase, PlayoutEnd, Ruleset, Throw};
use senet_kendall::{Kendall, KendallState, ThrowTiming};
use senet_testkit::conformance::{check_state, walk_random_game};

fn stored_rules_strategy() -> impl Strategy<Value = Kendall> {
    let stored = senet_core::option_combinations::<Kendall>().unwrap();
    proptest::sample::select(
        stored
            .into_iter()
            .filter(|r| r.throw_timing() == ThrowTiming::Stored)
            .collect::<Vec<_>>(),
    )
}

/// A spending decision point with at least two different stored throws, from a random game:
/// the `skip`-th such point (or the last one met before the game ended).
fn spending_point(rules: &Kendall, seed: u64, skip: usize) -> Option<KendallState> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut found = None;
    let mut seen = 0;
    walk_random_game(rules, &mut rng, 10_000, |state| {
        let several = (1..=5u8)
            .filter(|&v| state.stored(Throw::at(v)) > 0)
            .count()
            >= 2;
        if matches!(rules.phase(state), Phase::Move(_)) && several {
            found = Some(*state);
            seen += 1;
        }
        seen <= skip
    });
    found
}

/// The squares a single-step move touches.
fn squares_of(mv: Move) -> [u8; 2] {
    mv.step_codes(0)
}

#[test]
fn all_32_option_combinations_construct_and_play_to_the_end() {
    let all = senet_core::option_combinations::<Kendall>().unwrap();
    assert_eq!(all.len(), 32);
    for (index, rules) in (0u64..).zip(all) {
        let spec = rules.spec();
        assert_eq!(Kendall::from_spec(&spec), Ok(rules), "{spec}");
        assert_eq!(
            Kendall::from_spec(&spec.to_string().parse().unwrap()),
            Ok(rules)
        );
        for seed in 0..25u64 {
            let mut rng = ChaCha8Rng::seed_from_u64(seed * 32 + index);
            let mut game = Game::new(rules);
            let end = game.play_random(&mut rng, 10_000);
            let PlayoutEnd::Finished(outcome) = end else {
                panic!("{spec}, seed {seed}: no end within 10,000 turns");
            };
            let winner = outcome.winner.unwrap();
            assert_eq!(
                outcome.points_of(winner),
                i32::from(rules.pieces_per_side()),
                "{spec}"
            );
            let replayed = Game::<Kendall>::from_record(&game.record()).unwrap();
            assert_eq!(replayed.state(), game.state(), "{spec}");
        }
    }
}

senet_testkit::ruleset_properties!(Kendall);

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Whatever order the player spends its stored throws in, every move spends exactly the
    /// throw it names, only stored values are offered, and the turn ends exactly when the
    /// throws run out, a move ends it (K-13, K-14), a plain pass gives up the rest, or the game
    /// is won.
    #[test]
    fn any_order_of_spending_stored_throws_spends_exactly_the_named_throws(
        rules in stored_rules_strategy(),
        seed in any::<u64>(),
        skip in 0usize..40,
        choices in prop::collection::vec(any::<u16>(), 1..80),
    ) {
        let Some(mut state) = spending_point(&rules, seed, skip) else {
            return Ok(());
        };
        let me = state.to_move();
        let mut budget = usize::from(state.stored_count());
        for choice in choices {
            prop_assert!(matches!(rules.phase(&state), Phase::Move(side) if side == me));
            let moves = rules.legal_moves(&state);
            for mv in &moves {
                match mv.throw() {
                    Some(v) => prop_assert!(state.stored(v) > 0, "{mv} spends no stored throw"),
                    None => prop_assert!(moves.len() == 1, "plain pass beside {moves:?}"),
                }
            }
            let mv = moves[usize::from(choice) % moves.len()];
            let before = state;
            rules.play_unchecked(&mut state, mv);
            check_state(&rules, &state).map_err(TestCaseError::fail)?;
            let [from, to] = squares_of(mv);
            let turn_goes_on = matches!(rules.phase(&state), Phase::Move(side) if side == me);
            match mv.throw().map(u8::from) {
                None => prop_assert!(!turn_goes_on, "a plain pass ends the turn"),
                Some(v) => {
                    if turn_goes_on {
                        for w in 1..=5u8 {
                            let w = Throw::at(w);
                            let expected = before.stored(w) - u8::from(w.get() == v);
                            prop_assert_eq!(state.stored(w), expected, "after {}", mv);
                        }
                    } else {
                        let exhausted = before.stored_count() == 1;
                        // Into the water (K-13, or a fall under option trap, which names the
                        // square it counts to) or out of it to 15 (K-14).
                        let water = (from == 26 && to == 27)
                            || (from <= 25 && (27..=30).contains(&to))
                            || (from == 27 && to == 15);
                        let won = rules.outcome(&state).is_some();
                        prop_assert!(exhausted || water || won, "{mv} ended the turn early");
                        prop_assert_eq!(state.stored_count(), 0);
                    }
                }
            }
            // Each decision uses up at least one throw.
            prop_assert!(budget > 0);
            budget -= 1;
            if !turn_goes_on {
                break;
            }
        }
    }

    /// Two moves spending different stored throws on unrelated squares give the same position
    /// in either order (checked for every such pair of the decision point).
    #[test]
    fn independent_stored_throws_commute(
        rules in stored_rules_strategy(),
        seed in any::<u64>(),
        skip in 0usize..40,
    ) {
        let Some(state) = spending_point(&rules, seed, skip) else {
            return Ok(());
        };
        let plain = |m: &Move| {
            let [from, to] = squares_of(*m);
            m.step_count() == 1 && from <= 25 && to <= 26
        };
        let steps: Vec<Move> = rules.legal_moves(&state).iter().copied().filter(plain).collect();
        for (i, &a) in steps.iter().enumerate() {
            for &b in &steps[i + 1..] {
                let (sa, sb) = (squares_of(a), squares_of(b));
                if a.throw() == b.throw() || sa.iter().any(|s| sb.contains(s)) {
                    continue;
                }
                let mut ab = state;
                rules.play_unchecked(&mut ab, a);
                let mut ba = state;
                rules.play_unchecked(&mut ba, b);
                if !(rules.is_legal(&ab, b) && rules.is_legal(&ba, a)) {
                    continue;
                }
                rules.play_unchecked(&mut ab, b);
                rules.play_unchecked(&mut ba, a);
                prop_assert_eq!(ab, ba, "{} and {} from {}", a, b, rules.position_string(&state));
            }
        }
    }

}
