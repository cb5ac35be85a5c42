//! Random playouts: whole games from the initial position with ChaCha8 throws and uniformly
//! random legal moves, on one thread, for every registered ruleset. The throughput line gives
//! decisions (moves and passes) per second.
//!
//! Every timed batch asserts the number of decisions it made against the same games played
//! through the checked, recorded path of `AnyGame`, so the timed loop cannot skip work or
//! play other games; `tests/perft/` and the golden playthroughs pin what the games are.

mod common;

use common::{Configuration, configurations, decisions_of_recorded_games, play_games};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use senet::MoveList;
use senet::registry::{Registered, RulesetVisitor};

/// Games per timed batch.
const GAMES: u64 = 100;

/// Times the playouts of one configuration.
struct BenchPlayouts<'c>(&'c mut Criterion, Configuration);

impl RulesetVisitor for BenchPlayouts<'_> {
    type Output = ();

    fn visit<R: Registered>(self, rules: &R) {
        let BenchPlayouts(criterion, Configuration { name, rules: any }) = self;
        let expected = decisions_of_recorded_games(&any, GAMES);
        let mut scratch = MoveList::new();
        let mut group = criterion.benchmark_group("playout");
        group.throughput(Throughput::Elements(expected));
        group.bench_function(&name, |b| {
            b.iter(|| {
                let decisions = play_games(rules, GAMES, &mut scratch);
                assert_eq!(decisions, expected, "{name}: {GAMES} games");
                decisions
            })
        });
        group.finish();
    }
}

fn playouts(c: &mut Criterion) {
    for configuration in configurations() {
        configuration
            .rules
            .clone()
            .visit(BenchPlayouts(c, configuration));
    }
}

criterion_group!(benches, playouts);
criterion_main!(benches);
