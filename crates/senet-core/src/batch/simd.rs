#![allow(unsafe_code)]
//! The one place of the workspace that uses `unsafe`: running a lock-step kernel with the
//! vector instructions the CPU turns out to have.
//!
//! A kernel is ordinary safe Rust over arrays of lanes, written so that the compiler can turn
//! its loops into vector instructions. Compiled for the baseline of the target (SSE2 on
//! x86-64), a vector holds four 32-bit lanes; compiled again inside a function that enables
//! AVX2, it holds eight and runs the same steps in about half the instructions
//! (`docs/benchmarks.md`). Which copy runs is decided at run time, so the binary needs no
//! `target-cpu` flag and runs on any CPU. Both copies compute the same integers: a game does
//! not depend on the instructions that played it, which the tests check lane by lane.
//!
//! Calling a function that enables a target feature is `unsafe` because running its
//! instructions on a CPU without the feature is undefined behaviour. The only such call is
//! below, right after the CPU has been asked.

/// Which instructions a lock-step kernel may use.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Instructions {
    /// The widest vectors the CPU has, asked at run time.
    #[default]
    Detect,
    /// Only the target's baseline (what the crate was compiled for): for tests that compare
    /// both paths, and for Miri.
    Baseline,
}

/// A lock-step kernel: a batch of games whose whole run is [`run`](LaneKernel::run).
///
/// Implementations mark `run` `#[inline(always)]`, and the functions it calls too, so that the
/// copy [`run_kernel`] compiles with wider vectors gets their code inlined and widened.
pub trait LaneKernel {
    /// Plays the batch to the end.
    fn run(&mut self);
}

/// Runs `kernel`, with the widest vector instructions the CPU has when `instructions` allows.
pub fn run_kernel<K: LaneKernel>(kernel: &mut K, instructions: Instructions) {
    #[cfg(all(feature = "std", target_arch = "x86_64", not(miri)))]
    if widens(instructions) {
        // SAFETY: `run_with_avx2` only enables AVX2, POPCNT and BMI1, and the CPU has just
        // reported that it has all three; nothing else about the call differs from calling
        // `kernel.run()`.
        unsafe { run_with_avx2(kernel) };
        return;
    }
    let _ = instructions;
    kernel.run();
}

/// Whether [`run_kernel`] runs the kernel with wider vectors than the baseline's.
#[cfg(all(feature = "std", target_arch = "x86_64", not(miri)))]
fn widens(instructions: Instructions) -> bool {
    instructions == Instructions::Detect
        && std::arch::is_x86_feature_detected!("avx2")
        && std::arch::is_x86_feature_detected!("popcnt")
        && std::arch::is_x86_feature_detected!("bmi1")
}

/// `kernel.run()` compiled with AVX2 enabled (the kernel's code is inlined here and widened),
/// and the scalar bit counts it does between vector steps as single instructions.
#[cfg(all(feature = "std", target_arch = "x86_64", not(miri)))]
#[target_feature(enable = "avx2,popcnt,bmi1")]
fn run_with_avx2<K: LaneKernel>(kernel: &mut K) {
    kernel.run();
}
