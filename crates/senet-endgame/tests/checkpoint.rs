//! Checkpoints: a solve stopped and resumed, however often, ends with the values of one
//! that ran through, bit for bit; a checkpoint of another solve or a damaged one is refused.

use std::path::PathBuf;
use std::time::Duration;

use senet_endgame::{
    Checkpoint, EndgameError, EndgameSpace, KendallEndgame, RegencyEndgame, SolveMethod,
    SolveOptions, solve, solve_resumable,
};
use senet_kendall::{Kendall, ThrowTiming};
use senet_regency::Regency;

/// A checkpoint file of this test process, removed when dropped.
struct Scratch(PathBuf);

impl Scratch {
    fn new(name: &str) -> Scratch {
        Scratch(std::env::temp_dir().join(format!(
            "senet-test-{}-{name}.senet-checkpoint",
            std::process::id()
        )))
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

fn on_disk() -> SolveOptions {
    SolveOptions {
        method: SolveMethod::OnDisk,
        ..SolveOptions::default()
    }
}

/// Solves `space` stopping at every chance (after every layer, and after every sweep on
/// disk), resuming each time; returns the stops.
fn stop_at_every_chance<S: EndgameSpace + Clone>(space: &S, options: &SolveOptions, name: &str) {
    let file = Scratch::new(name);
    let mut checkpoint = Checkpoint::new(&file.0);
    checkpoint.stop_after = Some(Duration::ZERO);
    let mut stops = 0;
    let resumed = loop {
        match solve_resumable(space.clone(), options, &checkpoint) {
            Ok(table) => break table,
            Err(EndgameError::Stopped { .. }) => stops += 1,
            Err(e) => panic!("{e}"),
        }
    };
    let direct = solve(space.clone(), options).unwrap();
    assert!(stops >= space.layers().len() - 1, "{stops} stops");
    assert_eq!(resumed.values(), direct.values(), "{name}");
    assert_eq!(resumed.stats(), direct.stats(), "{name}");
}

#[test]
fn on_disk_a_solve_stopped_after_every_sweep_ends_as_one_run_through() {
    let regency = RegencyEndgame::new(Regency::default(), 1).unwrap();
    stop_at_every_chance(&regency, &on_disk(), "regency-1");
    let kendall = Kendall::default().with_throw_timing(ThrowTiming::Immediate);
    let kendall = KendallEndgame::new(kendall, 1).unwrap();
    stop_at_every_chance(&kendall, &on_disk(), "kendall-1");
}

#[test]
fn on_disk_a_solve_stopped_between_settling_slow_states_ends_as_one_run_through() {
    // With two pieces a side, whole sweeps of Regency's layers on disk now and then settle
    // the states still moving on their own, from copies of their programs.
    let regency = RegencyEndgame::new(Regency::default(), 2).unwrap();
    let direct = solve(regency.clone(), &on_disk()).unwrap();
    assert!(direct.stats().hot_sweeps > 0, "{:?}", direct.stats());
    stop_at_every_chance(&regency, &on_disk(), "regency-2-on-disk");
}

#[test]
fn compiled_a_solve_stopped_after_every_layer_ends_as_one_run_through() {
    let space = RegencyEndgame::new(Regency::default(), 2).unwrap();
    stop_at_every_chance(&space, &SolveOptions::default(), "regency-2");
}

#[test]
fn a_checkpoint_of_another_solve_or_a_damaged_one_is_refused() {
    let space = || RegencyEndgame::new(Regency::default(), 1).unwrap();
    let file = Scratch::new("refused");
    let mut checkpoint = Checkpoint::new(&file.0);
    checkpoint.stop_after = Some(Duration::ZERO);
    let stopped = solve_resumable(space(), &on_disk(), &checkpoint);
    assert!(matches!(
        stopped,
        Err(EndgameError::Stopped { layers: 0, .. })
    ));
    let saved = std::fs::read(&file.0).unwrap();

    let looser = SolveOptions {
        tolerance: 1e-6,
        ..on_disk()
    };
    let refused =
        |options: &SolveOptions, why: &str| match solve_resumable(space(), options, &checkpoint) {
            Err(EndgameError::Checkpoint { reason, .. }) => {
                assert!(reason.contains(why), "{reason}");
            }
            other => panic!("{:?}", other.map(|t| *t.stats())),
        };
    refused(&looser, "another solve");
    refused(&SolveOptions::default(), "another solve");

    let mut damaged = saved.clone();
    let middle = damaged.len() / 2;
    damaged[middle] ^= 1;
    std::fs::write(&file.0, &damaged).unwrap();
    refused(&on_disk(), "damaged");

    std::fs::write(&file.0, &saved[..saved.len() - 9]).unwrap();
    refused(&on_disk(), "damaged");

    std::fs::write(&file.0, b"not a checkpoint").unwrap();
    refused(&on_disk(), "not a solve checkpoint");

    // The saved progress itself resumes.
    std::fs::write(&file.0, &saved).unwrap();
    checkpoint.stop_after = None;
    let resumed = solve_resumable(space(), &on_disk(), &checkpoint).unwrap();
    assert_eq!(
        resumed.values(),
        solve(space(), &on_disk()).unwrap().values()
    );
}
