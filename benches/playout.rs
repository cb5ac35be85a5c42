//! Random playouts: whole games from the initial position with ChaCha8 throws and uniformly
//! random legal moves, on one thread. The throughput line gives decisions (moves and passes)
//! per second; each bench first checks the number of decisions of its batch of games.

mod common;

use common::play_games;
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use senet::{MoveList, Ruleset};

/// Games per timed batch.
const GAMES: u64 = 100;

fn bench_playouts<R: Ruleset>(c: &mut Criterion, name: &str, rules: R, expected_decisions: u64) {
    let mut scratch = MoveList::new();
    let decisions = play_games(&rules, GAMES, &mut scratch);
    assert_eq!(
        decisions, expected_decisions,
        "{name}: {GAMES} seeded games now make {decisions} decisions"
    );
    let mut group = c.benchmark_group("playout");
    group.throughput(Throughput::Elements(decisions));
    group.bench_function(name, |b| b.iter(|| play_games(&rules, GAMES, &mut scratch)));
    group.finish();
}

fn playouts(c: &mut Criterion) {
    bench_playouts(c, "regency", senet::Regency::default(), 110_751);
    #[cfg(feature = "botermans")]
    bench_playouts(c, "botermans", senet::Botermans::default(), 143_325);
    #[cfg(feature = "cemea")]
    bench_playouts(c, "cemea", senet::Cemea::default(), 21_562);
    #[cfg(feature = "kendall")]
    {
        bench_playouts(c, "kendall", senet::Kendall::default(), 25_998);
        let immediate =
            senet::Kendall::default().with_throw_timing(senet::kendall::ThrowTiming::Immediate);
        bench_playouts(c, "kendall(throw_timing=immediate)", immediate, 28_079);
    }
    #[cfg(feature = "bell")]
    bench_playouts(c, "bell", senet::Bell::default(), 8_353);
    #[cfg(feature = "jequier")]
    bench_playouts(c, "jequier", senet::Jequier::default(), 60_025);
    #[cfg(feature = "piccione")]
    bench_playouts(c, "piccione", senet::Piccione, 35_336);
}

criterion_group!(benches, playouts);
criterion_main!(benches);
