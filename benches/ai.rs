//! Computer players (`senet-ai`); the endgame solver's benches are in `senet-endgame`.
//!
//! - `expectiminimax/<ruleset>/depth-<d>`: one decision by expectiminimax at depth d for each
//!   position of a fixed corpus of decision points from seeded random games (positions with
//!   a single legal move left out, since players return those without searching). The
//!   throughput line gives moves per second; the time per move is its inverse. The bench
//!   first checks the nodes searched over the corpus and the moves chosen.

mod common;

use std::hint::black_box;

use common::decision_corpus;
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use rand_chacha::ChaCha8Rng;
use rand_core::SeedableRng;
use senet::Ruleset;
use senet_ai::{Budget, Expectiminimax, Player};

/// Decision points per corpus (before dropping those with one legal move).
const POSITIONS: usize = 300;

/// Searches every position of `corpus`; returns the nodes visited and a checksum of the
/// moves chosen (the sum of their places in the move lists).
fn search_corpus<R: Ruleset>(
    player: &mut Expectiminimax<R>,
    rules: &R,
    corpus: &[R::State],
) -> (u64, usize) {
    let mut rng = ChaCha8Rng::seed_from_u64(0);
    let mut nodes = 0;
    let mut chosen = 0;
    for state in corpus {
        let analysis = player
            .analyse(rules, state, &mut rng)
            .expect("a decision point");
        nodes += player.last_search().nodes;
        chosen += analysis.chosen_index();
    }
    (nodes, chosen)
}

fn bench_expectiminimax<R: Ruleset>(
    c: &mut Criterion,
    name: &str,
    rules: R,
    expected: &[(u32, u64, usize)],
) {
    let corpus: Vec<R::State> = decision_corpus(&rules, POSITIONS)
        .into_iter()
        .filter(|s| rules.legal_moves(s).len() > 1)
        .collect();
    let mut group = c.benchmark_group("expectiminimax");
    group.throughput(Throughput::Elements(corpus.len() as u64));
    for &(depth, expected_nodes, expected_chosen) in expected {
        let mut player = Expectiminimax::new(Budget::Depth(depth));
        let (nodes, chosen) = search_corpus(&mut player, &rules, &corpus);
        assert_eq!(
            (nodes, chosen),
            (expected_nodes, expected_chosen),
            "{name} depth {depth}: {} positions now take {nodes} nodes and choose {chosen}",
            corpus.len()
        );
        group.bench_function(format!("{name}/depth-{depth}"), |b| {
            b.iter(|| search_corpus(&mut player, &rules, black_box(&corpus)))
        });
    }
    group.finish();
}

fn players(c: &mut Criterion) {
    bench_expectiminimax(
        c,
        "regency",
        senet::Regency::default(),
        &[(2, 18_364, 213), (3, 283_930, 241)],
    );
}

criterion_group!(benches, players);
criterion_main!(benches);
