//! Move generation, random playouts and batches of random games never touch the heap, for
//! every registered ruleset.
//! A counting global allocator (from `allocation-counter`) watches this test's thread.

use std::hint::black_box;

use rand_chacha::ChaCha8Rng;
use rand_core::SeedableRng;
use senet::batch::BatchRun;
use senet::registry::{AnyRuleset, RULESETS, Registered, RulesetVisitor};
use senet::{Coverage, option_specs};
use senet::{DEFAULT_TURN_CAP, MoveList, Phase, random_playout};
use senet_testkit::conformance::sample_states;

struct CountAllocations;

impl RulesetVisitor for CountAllocations {
    type Output = (u64, u64, u64, u64);

    fn visit<R: Registered>(self, rules: &R) -> (u64, u64, u64, u64) {
        let mut rng = ChaCha8Rng::seed_from_u64(5);
        let corpus = sample_states(rules, &mut rng, 2_000, DEFAULT_TURN_CAP, |p| {
            matches!(p, Phase::Move(_))
        });
        let mut list = MoveList::new();
        let generation = allocation_counter::measure(|| {
            for state in &corpus {
                rules.generate_moves(black_box(state), &mut list);
                black_box(list.len());
            }
        });
        let mut games = Vec::new();
        for i in 0..20 {
            let mut rng = ChaCha8Rng::seed_from_u64(5);
            rng.set_stream(i);
            games.push((rng, rules.initial_state()));
        }
        let playouts = allocation_counter::measure(|| {
            for (rng, state) in &mut games {
                let playout = random_playout(rules, state, rng, &mut list, DEFAULT_TURN_CAP);
                black_box(playout);
            }
        });
        let stream = |i| {
            let mut rng = ChaCha8Rng::seed_from_u64(5);
            rng.set_stream(i);
            rng
        };
        let batch = allocation_counter::measure(|| {
            let run = BatchRun::new(0..40);
            rules.play_random_batch(&run, stream, |_, playout| {
                black_box(playout);
            });
        });
        let seed = ChaCha8Rng::seed_from_u64(5).get_seed();
        let seeded = allocation_counter::measure(|| {
            let run = BatchRun::new(0..40);
            rules.play_seeded_batch(&run, seed, |_, playout| {
                black_box(playout);
            });
        });
        (
            generation.count_total,
            playouts.count_total,
            batch.count_total,
            seeded.count_total,
        )
    }
}

#[test]
fn the_counter_sees_allocations() {
    let info = allocation_counter::measure(|| {
        black_box(vec![1u8; 64]);
    });
    assert!(info.count_total > 0, "the counting allocator is not active");
}

#[test]
fn move_generation_and_playouts_do_not_allocate() {
    for info in RULESETS {
        // Each option value alone covers the lock-step kernels (Kendall's immediate throws).
        for spec in option_specs(info.id, info.options, Coverage::EachAlone) {
            let rules = AnyRuleset::from_spec(&spec).unwrap();
            let (generation, playouts, batch, seeded) = rules.visit(CountAllocations);
            assert_eq!(generation, 0, "{spec}: move generation allocated");
            assert_eq!(playouts, 0, "{spec}: random playouts allocated");
            assert_eq!(batch, 0, "{spec}: a batch of random games allocated");
            assert_eq!(
                seeded, 0,
                "{spec}: a seeded batch of random games allocated"
            );
        }
    }
}

/// Evaluates a corpus of positions with the committed network of `rules`' configuration.
struct CountLearnedAllocations;

impl RulesetVisitor for CountLearnedAllocations {
    type Output = u64;

    fn visit<R: Registered>(self, rules: &R) -> u64 {
        use senet::ai::Evaluator;
        let weights = senet::ai::learned::committed(rules).expect("committed weights");
        let evaluator = senet::ai::learned::LearnedEvaluator::new(rules, &weights).unwrap();
        let mut rng = ChaCha8Rng::seed_from_u64(6);
        let corpus = sample_states(rules, &mut rng, 500, DEFAULT_TURN_CAP, |_| true);
        allocation_counter::measure(|| {
            for state in &corpus {
                for side in [senet::Side::Black, senet::Side::White] {
                    black_box(evaluator.evaluate(rules, black_box(state), side));
                }
            }
        })
        .count_total
    }
}

#[test]
fn the_learned_evaluation_does_not_allocate() {
    for spec in senet::ai::learned::committed_rulesets() {
        let rules = AnyRuleset::parse(spec).unwrap();
        assert_eq!(
            rules.visit(CountLearnedAllocations),
            0,
            "{spec}: evaluation allocated"
        );
    }
}
