//! The solver's clock, for the times its statistics report: std's [`Instant`] everywhere but
//! on `wasm32-unknown-unknown` (a web page), where std has no clock and `Instant::now`
//! panics. There every time reads as zero, and a time limit is never reached.

#[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
pub(crate) use std::time::Instant;

#[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
pub(crate) use no_clock::Instant;

#[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
mod no_clock {
    use std::time::Duration;

    /// A moment, on a target without a clock: every span is zero.
    #[derive(Clone, Copy, Debug)]
    pub(crate) struct Instant;

    impl Instant {
        /// Now (no time at all).
        pub(crate) fn now() -> Instant {
            Instant
        }

        /// The time since this moment: zero.
        pub(crate) fn elapsed(&self) -> Duration {
            Duration::ZERO
        }
    }
}
