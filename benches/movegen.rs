//! Legal-move generation over fixed corpora of positions from seeded random games, for every
//! registered ruleset. Criterion reports the time for the whole corpus; the throughput line
//! gives (position, throw) pairs or decision points per second. `docs/benchmarks.md` records
//! the figures.
//!
//! Every timed pass asserts the number of moves it generated against the count the checked
//! path gives for the same positions (each written in notation, read back into an `AnyGame`
//! and asked for its legal moves), so the timed loop cannot skip work; `tests/perft/` pins
//! what the moves are.

mod common;

use std::hint::black_box;

use common::{Configuration, configurations, decision_corpus, position_throw_corpus};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use senet::registry::{Registered, RulesetVisitor};
use senet::{AnyGame, MoveList};

/// Positions per corpus of (position, throw) pairs (each combined with every throw value).
const POSITIONS: usize = 2_000;

/// Decision points per corpus of the rulesets timed on decision points.
const DECISIONS: usize = 10_000;

/// Rulesets timed on decision points exactly as random games meet them rather than on
/// (position, throw) pairs: with Kendall's stored throws a turn is a run of throws and then
/// of moves, so most (position, throw) pairs are not decisions.
const TIMED_ON_DECISIONS: &[&str] = &["kendall"];

/// Times move generation over the corpus of one configuration.
struct BenchMovegen<'c>(&'c mut Criterion, Configuration);

impl RulesetVisitor for BenchMovegen<'_> {
    type Output = ();

    fn visit<R: Registered>(self, rules: &R) {
        let BenchMovegen(criterion, Configuration { name, rules: any }) = self;
        let corpus = if TIMED_ON_DECISIONS.contains(&R::ID) {
            decision_corpus(rules, DECISIONS)
        } else {
            position_throw_corpus(rules, POSITIONS)
        };
        let expected: usize = corpus
            .iter()
            .map(|state| {
                let position = rules.position_string(state);
                let game = AnyGame::from_position(any.clone(), &position)
                    .unwrap_or_else(|e| panic!("{name}: {position}: {e}"));
                game.legal_moves().len()
            })
            .sum();
        let mut group = criterion.benchmark_group("movegen");
        group.throughput(Throughput::Elements(corpus.len() as u64));
        let mut list = MoveList::new();
        group.bench_function(&name, |b| {
            b.iter(|| {
                let mut total = 0;
                for state in &corpus {
                    rules.generate_moves(black_box(state), &mut list);
                    total += list.len();
                }
                assert_eq!(total, expected, "{name}: {} positions", corpus.len());
                total
            })
        });
        group.finish();
    }
}

fn movegen(c: &mut Criterion) {
    for configuration in configurations() {
        configuration
            .rules
            .clone()
            .visit(BenchMovegen(c, configuration));
    }
}

criterion_group!(benches, movegen);
criterion_main!(benches);
