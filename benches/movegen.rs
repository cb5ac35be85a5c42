//! Legal-move generation over fixed corpora of positions from seeded random games.
//!
//! Each bench first checks the number of moves it generates over its corpus against the
//! recorded count, so a change of behaviour cannot pass for a change of speed. Criterion
//! reports the time for the whole corpus; the throughput line gives (position, throw) pairs
//! per second. `docs/benchmarks.md` records the figures.

mod common;

use std::hint::black_box;

use common::{count_moves, position_throw_corpus};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use senet::{MoveList, Ruleset};

/// Positions per corpus (each combined with every throw value).
const POSITIONS: usize = 2_000;

fn bench_movegen<R: Ruleset>(c: &mut Criterion, name: &str, rules: R, expected_moves: usize) {
    let corpus = position_throw_corpus(&rules, POSITIONS);
    let moves = count_moves(&rules, &corpus);
    assert_eq!(
        moves,
        expected_moves,
        "{name}: the corpus of {} pairs now generates {moves} moves",
        corpus.len()
    );
    let mut group = c.benchmark_group("movegen");
    group.throughput(Throughput::Elements(corpus.len() as u64));
    let mut list = MoveList::new();
    group.bench_function(name, |b| {
        b.iter(|| {
            let mut total = 0;
            for state in &corpus {
                rules.generate_moves(black_box(state), &mut list);
                total += list.len();
            }
            total
        })
    });
    group.finish();
}

fn movegen(c: &mut Criterion) {
    bench_movegen(c, "regency", senet::Regency::default(), 27_428);
    #[cfg(feature = "jequier")]
    bench_movegen(c, "jequier", senet::Jequier::default(), 25_670);
    #[cfg(feature = "piccione")]
    bench_movegen(c, "piccione", senet::Piccione, 40_283);
}

criterion_group!(benches, movegen);
criterion_main!(benches);
