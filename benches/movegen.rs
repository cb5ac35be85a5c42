//! Legal-move generation over fixed corpora of positions from seeded random games.
//!
//! Each bench first checks the number of moves it generates over its corpus against the
//! recorded count, so a change of behaviour cannot pass for a change of speed. Criterion
//! reports the time for the whole corpus; the throughput line gives (position, throw) pairs
//! per second. `docs/benchmarks.md` records the figures.

mod common;

use std::hint::black_box;

#[cfg(feature = "kendall")]
use common::decision_corpus;
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

/// Decision points per corpus for rulesets timed on decision points as random games meet them
/// (Kendall: a turn of stored throws is a run of throws and then of moves, so most
/// (position, throw) pairs are not decisions). The throughput line gives decision points per
/// second.
#[cfg(feature = "kendall")]
const DECISIONS: usize = 10_000;

#[cfg(feature = "kendall")]
fn bench_decisions<R: Ruleset>(c: &mut Criterion, name: &str, rules: R, expected_moves: usize) {
    let corpus = decision_corpus(&rules, DECISIONS);
    let moves = count_moves(&rules, &corpus);
    assert_eq!(
        moves, expected_moves,
        "{name}: the corpus of {DECISIONS} decision points now generates {moves} moves"
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
    #[cfg(feature = "botermans")]
    bench_movegen(c, "botermans", senet::Botermans::default(), 27_500);
    #[cfg(feature = "cemea")]
    bench_movegen(c, "cemea", senet::Cemea::default(), 27_002);
    #[cfg(feature = "kendall")]
    {
        bench_decisions(c, "kendall", senet::Kendall::default(), 37_481);
        let immediate =
            senet::Kendall::default().with_throw_timing(senet::kendall::ThrowTiming::Immediate);
        bench_decisions(c, "kendall(throw_timing=immediate)", immediate, 27_051);
    }
    #[cfg(feature = "bell")]
    bench_movegen(c, "bell", senet::Bell::default(), 23_853);
    #[cfg(feature = "jequier")]
    bench_movegen(c, "jequier", senet::Jequier::default(), 25_670);
    #[cfg(feature = "piccione")]
    bench_movegen(c, "piccione", senet::Piccione, 40_283);
}

criterion_group!(benches, movegen);
criterion_main!(benches);
