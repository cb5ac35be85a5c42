//! Perft from the start of every registered ruleset (with its default options), to the
//! deepest depth checked in for it under `tests/perft/<id>.txt`.
//!
//! Before timing, each bench checks the counts it computed at every depth against the file,
//! so a change of behaviour cannot pass for a change of speed. The throughput line gives
//! sequences (at all depths together) per second.

#[path = "../tests/perft/file.rs"]
mod file;

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use senet::perft::Perft;
use senet::registry::{AnyRuleset, RULESETS, Registered, RulesetVisitor};

struct BenchPerft<'c> {
    c: &'c mut Criterion,
}

impl RulesetVisitor for BenchPerft<'_> {
    type Output = ();

    fn visit<R: Registered>(self, rules: &R) {
        let path = file::path(R::ID);
        let text =
            std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let items = file::parse(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let expected = file::start_counts(&items, R::ID)
            .unwrap_or_else(|| panic!("{}: no start position for {}", path.display(), R::ID));
        let start = rules.initial_state();
        let mut perft = Perft::new(expected.len()).unwrap();
        assert_eq!(
            perft.run(rules, &start),
            expected,
            "{}: perft from the start now counts otherwise",
            R::ID
        );
        let sequences: u64 = expected.iter().map(|c| c.sequences).sum();
        let mut group = self.c.benchmark_group("perft");
        group.throughput(Throughput::Elements(sequences));
        group.bench_function(format!("{} depth {}", R::ID, expected.len()), |b| {
            b.iter(|| perft.run(rules, black_box(&start)).last().copied())
        });
        group.finish();
    }
}

fn perft(c: &mut Criterion) {
    for info in RULESETS {
        let rules = AnyRuleset::parse(info.id).expect("a registered id parses");
        rules.visit(BenchPerft { c });
    }
}

criterion_group!(benches, perft);
criterion_main!(benches);
