//! The endgame solver (`senet-endgame`).
//!
//! - `solver/<ruleset>-<k>`: solving every endgame with up to k pieces a side, checking the
//!   number of positions, of whole sweeps, of sweeps over slow states and of policy steps
//!   first (Regency, and Kendall with immediate throws).

use criterion::{Criterion, criterion_group, criterion_main};
use senet_endgame::{EndgameSpace, KendallEndgame, RegencyEndgame, SolveOptions, solve};
use senet_kendall::{Kendall, ThrowTiming};
use senet_regency::Regency;

/// Positions, sweeps (in whole layers' worth of work), sweeps over slow states and policy
/// steps a solve must take.
struct SolveCounts {
    states: usize,
    sweeps: u32,
    hot_sweeps: u32,
    policy_steps: u32,
}

fn bench_solver<S: EndgameSpace>(
    c: &mut Criterion,
    name: &str,
    space: impl Fn() -> S,
    expected: SolveCounts,
) {
    let solve_once = || solve(space(), &SolveOptions::default()).expect("the endgames solve");
    let table = solve_once();
    let stats = table.stats();
    assert_eq!(
        (
            stats.states,
            stats.sweeps,
            stats.hot_sweeps,
            stats.policy_steps
        ),
        (
            expected.states,
            expected.sweeps,
            expected.hot_sweeps,
            expected.policy_steps
        ),
        "{name} endgames: {} positions, {} sweeps, {} sweeps of slow states, {} policy steps",
        stats.states,
        stats.sweeps,
        stats.hot_sweeps,
        stats.policy_steps
    );
    let mut group = c.benchmark_group("solver");
    group.sample_size(10);
    group.bench_function(name, |b| b.iter(solve_once));
    group.finish();
}

fn solver(c: &mut Criterion) {
    let regency = Regency::default();
    bench_solver(
        c,
        "regency-2",
        || RegencyEndgame::new(regency, 2).expect("pieces in range"),
        SolveCounts {
            states: 143_262,
            sweeps: 76,
            hot_sweeps: 20,
            policy_steps: 0,
        },
    );
    let kendall = Kendall::default().with_throw_timing(ThrowTiming::Immediate);
    bench_solver(
        c,
        "kendall-immediate-2",
        || KendallEndgame::new(kendall, 2).expect("pieces in range"),
        SolveCounts {
            states: 485_956,
            sweeps: 28,
            hot_sweeps: 663,
            policy_steps: 14_500,
        },
    );
}

criterion_group!(benches, solver);
criterion_main!(benches);
