//! The lean method against the compiled one: the same positions, values within a stated
//! bound, and the solver's guarantees (values independent of the threads, the residual
//! within the tolerance).

use senet_ai::endgame::{
    EndgameError, EndgameSpace, EndgameTable, KendallEndgame, RegencyEndgame, SolveMethod,
    SolveOptions, solve,
};
use senet_kendall::{Kendall, ThrowTiming};
use senet_regency::Regency;

/// How far the two methods' values may differ: both stop once a sweep changes nothing by
/// more than the tolerance (1e-9), which leaves each within a few tolerances of the limit
/// where play cycles (measured: docs/players.md, "The lean method").
const AGREEMENT: f64 = 1e-7;

fn options(method: SolveMethod, threads: usize) -> SolveOptions {
    SolveOptions {
        method,
        threads,
        ..SolveOptions::default()
    }
}

fn compare<S: EndgameSpace + Clone>(space: S, method: SolveMethod) {
    let compiled = solve(space.clone(), &SolveOptions::default()).unwrap();
    let other: EndgameTable<S> = solve(space, &options(method, 0)).unwrap();
    assert_eq!(other.stats().states, compiled.stats().states);
    assert!(other.stats().residual <= 1e-9, "{:?}", other.stats());
    let difference = other.largest_difference(&compiled);
    eprintln!(
        "{} positions: {method:?} against compiled, largest difference {difference:.2e}",
        compiled.stats().states
    );
    assert!(
        difference <= AGREEMENT,
        "{method:?} differs by {difference:e}"
    );
}

fn same_on_any_threads<S: EndgameSpace + Clone>(space: S, method: SolveMethod) {
    let one = solve(space.clone(), &options(method, 1)).unwrap();
    for threads in [2, 3] {
        let many = solve(space.clone(), &options(method, threads)).unwrap();
        assert!(
            one.values()
                .iter()
                .zip(many.values())
                .all(|(a, b)| a.to_bits() == b.to_bits())
        );
        assert_eq!(one.stats(), many.stats());
    }
}

fn kendall_immediate() -> Kendall {
    Kendall::default().with_throw_timing(ThrowTiming::Immediate)
}

#[test]
fn lean_and_on_disk_agree_with_the_compiled_solver_with_one_piece() {
    for method in [SolveMethod::Lean, SolveMethod::OnDisk] {
        compare(RegencyEndgame::new(Regency::default(), 1).unwrap(), method);
        compare(KendallEndgame::new(kendall_immediate(), 1).unwrap(), method);
    }
}

#[test]
fn lean_and_on_disk_values_do_not_depend_on_the_number_of_threads() {
    same_on_any_threads(
        RegencyEndgame::new(Regency::default(), 1).unwrap(),
        SolveMethod::Lean,
    );
    same_on_any_threads(
        RegencyEndgame::new(Regency::default(), 1).unwrap(),
        SolveMethod::OnDisk,
    );
    // On disk with policy steps (Kendall's slow cycles).
    same_on_any_threads(
        KendallEndgame::new(kendall_immediate(), 1).unwrap(),
        SolveMethod::OnDisk,
    );
}

/// Compiled programs name a successor in 29 bits, on disk as in memory: Kendall's four
/// pieces a side (2.27 billion positions) are refused before any memory is spent.
#[test]
fn on_disk_refuses_more_positions_than_its_programs_can_name() {
    let space = KendallEndgame::new(kendall_immediate(), 4).unwrap();
    let options = SolveOptions {
        max_states: usize::MAX,
        ..options(SolveMethod::OnDisk, 1)
    };
    assert!(matches!(
        solve(space, &options),
        Err(EndgameError::TooLarge {
            states: 2_271_127_168,
            limit: 536_870_912
        })
    ));
}

/// Every position up to three pieces a side of Regency. About 4 minutes in a release
/// build: `cargo test --release -p senet-ai --test lean -- --ignored regency` (CI runs it).
#[test]
#[ignore = "minutes in a release build; CI runs it"]
fn on_disk_agrees_with_the_compiled_solver_on_regency_up_to_three_pieces() {
    compare(
        RegencyEndgame::new(Regency::default(), 3).unwrap(),
        SolveMethod::OnDisk,
    );
}

/// Every position up to three pieces a side of Kendall with immediate throws: on disk, the
/// layers are split into components as in memory, and slow states get policy steps. About
/// 17 minutes and 10.4 GB (for the compiled solve) in a release build: `cargo test
/// --release -p senet-ai --test lean -- --ignored kendall` (CI runs it). Without the
/// components, whole-layer sweeps with policy steps ended within the tolerance of the
/// Bellman equation at values up to 1.65e-2 from these (docs/players.md).
#[test]
#[ignore = "minutes and 10 GB in a release build; CI runs it"]
fn on_disk_agrees_with_the_compiled_solver_on_kendall_up_to_three_pieces() {
    compare(
        KendallEndgame::new(kendall_immediate(), 3).unwrap(),
        SolveMethod::OnDisk,
    );
}
