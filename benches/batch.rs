//! The batch engine against the scalar one, on one thread: the same 1,024 seeded random games
//! of every registered ruleset (and of Kendall with immediate throws) played by
//! `random_playout` one after the other (`scalar`), by `BatchRules::play_random_batch` with the
//! vector instructions the CPU has (`batch`), by `BatchRules::play_seeded_batch`, which
//! computes the ChaCha8 words of its lanes together, with them (`batch-seeded`), and by
//! `play_random_batch` restricted to the target's baseline instructions (`batch-baseline`).
//! The throughput line gives decisions per second; their ratios are the speed-ups of
//! `docs/benchmarks.md`.
//!
//! Every timed run asserts the decisions it made against the same games played through the
//! checked, recorded path of `AnyGame`, so no path can skip work or play other games.

mod common;

use common::{CORPUS_SEED, Configuration, configurations, decisions_of_recorded_games, play_games};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use senet::batch::{BatchRun, Instructions};
use senet::registry::{Registered, RulesetVisitor};
use senet::{MoveList, Playout, rng};

/// Games per timed run: enough that the lanes stay full but for the last few games.
const GAMES: u64 = 1024;

/// The decisions of `GAMES` games played by the batch engine, with a generator of each game's
/// own (`play_random_batch`) or from the seed (`play_seeded_batch`, `seeded`).
fn play_batch<R: Registered>(rules: &R, instructions: Instructions, seeded: bool) -> u64 {
    let mut decisions = 0;
    let run = BatchRun::new(0..GAMES).with_instructions(instructions);
    let add = |_, playout: Playout| decisions += u64::from(playout.decisions);
    if seeded {
        rules.play_seeded_batch(&run, rng::seed_bytes(CORPUS_SEED), add);
    } else {
        let streams = |index| rng::seeded(CORPUS_SEED, index);
        rules.play_random_batch(&run, streams, add);
    }
    decisions
}

/// Times the four paths on one configuration.
struct BenchBatch<'c>(&'c mut Criterion, Configuration);

impl RulesetVisitor for BenchBatch<'_> {
    type Output = ();

    fn visit<R: Registered>(self, rules: &R) {
        let BenchBatch(criterion, Configuration { name, rules: any }) = self;
        let expected = decisions_of_recorded_games(&any, GAMES);
        let mut scratch = MoveList::new();
        let mut group = criterion.benchmark_group(format!("batch/{name}"));
        group.throughput(Throughput::Elements(expected));
        group.sample_size(20);
        group.bench_function("scalar", |b| {
            b.iter(|| {
                let decisions = play_games(rules, GAMES, &mut scratch);
                assert_eq!(decisions, expected, "{name}: scalar");
                decisions
            })
        });
        for (label, instructions, seeded) in [
            ("batch", Instructions::Detect, false),
            ("batch-seeded", Instructions::Detect, true),
            ("batch-baseline", Instructions::Baseline, false),
        ] {
            group.bench_function(label, |b| {
                b.iter(|| {
                    let decisions = play_batch(rules, instructions, seeded);
                    assert_eq!(decisions, expected, "{name}: {label}");
                    decisions
                })
            });
        }
        group.finish();
    }
}

fn batches(c: &mut Criterion) {
    for configuration in configurations() {
        configuration
            .rules
            .clone()
            .visit(BenchBatch(c, configuration));
    }
}

criterion_group!(benches, batches);
criterion_main!(benches);
