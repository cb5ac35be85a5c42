//! Fits the constants of the [`RaceEvaluator`] to exact endgame values.
//!
//! ```text
//! cargo run --release -p senet-endgame --example solve -- --pieces 3 --out regency-3.senet-endgame
//! cargo run --release -p senet-ai --example fit_evaluator -- regency-3.senet-endgame
//! ```
//!
//! Collects the positions of seeded random games that the table covers, scores them with
//! every combination of a grid of constants, and prints the combination with the smallest
//! mean squared error against the exact win probabilities, with the error of the defaults
//! for comparison.

use rand_chacha::ChaCha8Rng;
use rand_core::SeedableRng;
use senet_ai::endgame::{EndgameTable, RegencyEndgame};
use senet_ai::{Evaluator, RaceEvaluator};
use senet_core::{DEFAULT_TURN_CAP, Ruleset, Side};
use senet_regency::Regency;

const SAMPLES: usize = 40_000;

fn main() {
    let Some(path) = std::env::args().nth(1) else {
        eprintln!("usage: fit_evaluator <table file for regency>");
        std::process::exit(2);
    };
    let bytes = std::fs::read(&path).unwrap_or_else(|e| {
        eprintln!("fit_evaluator: {path}: {e}");
        std::process::exit(2);
    });
    let header = senet_ai::endgame::table::TableHeader::parse(&bytes).unwrap_or_else(|e| {
        eprintln!("fit_evaluator: {path}: {e}");
        std::process::exit(2);
    });
    let rules = Regency::default();
    let space = RegencyEndgame::new(rules, header.0.max_pieces).expect("pieces");
    let table = EndgameTable::from_bytes(space, &bytes).unwrap_or_else(|e| {
        eprintln!("fit_evaluator: {path}: {e}");
        std::process::exit(2);
    });
    // Positions as games meet them: every state waiting for a throw that the table covers,
    // from seeded random games.
    let mut rng = ChaCha8Rng::seed_from_u64(2026);
    let mut samples = Vec::with_capacity(SAMPLES);
    while samples.len() < SAMPLES {
        senet_testkit::conformance::walk_random_game(&rules, &mut rng, DEFAULT_TURN_CAP, |state| {
            if let Some(value) = table.value(state) {
                samples.push((*state, value));
            }
            samples.len() < SAMPLES
        });
    }
    let error = |evaluator: &RaceEvaluator| {
        let (mut squared, mut absolute) = (0.0, 0.0);
        for (state, exact) in &samples {
            let side = rules.phase(state).side().unwrap_or(Side::Black);
            let d = evaluator.evaluate(&rules, state, side) - exact;
            squared += d * d;
            absolute += d.abs();
        }
        (squared / SAMPLES as f64, absolute / SAMPLES as f64)
    };
    let mut best = (f64::MAX, 0.0, RaceEvaluator::default());
    for tempo in [0.0, 0.5, 1.0, 1.5, 2.0, 3.0] {
        for exposure in [0.0, 0.25, 0.5, 1.0, 2.0] {
            for step in 0..=196 {
                let width = 0.2 + 0.05 * f64::from(step);
                let evaluator = RaceEvaluator {
                    tempo,
                    exposure,
                    width,
                };
                let (mse, mae) = error(&evaluator);
                if mse < best.0 {
                    best = (mse, mae, evaluator);
                }
            }
        }
    }
    let (mse, mae) = error(&RaceEvaluator::default());
    let constant = samples.iter().map(|(_, v)| (v - 0.5).abs()).sum::<f64>() / SAMPLES as f64;
    let mut sorted: Vec<f64> = samples.iter().map(|(_, v)| *v).collect();
    sorted.sort_by(f64::total_cmp);
    let deciles: Vec<String> = (1..10)
        .map(|d| format!("{:.3}", sorted[d * SAMPLES / 10]))
        .collect();
    println!(
        "exact values: deciles {}; mean absolute distance from 1/2 {constant:.4}",
        deciles.join(" ")
    );
    println!(
        "{} positions sampled from {path} ({} pieces a side)",
        SAMPLES, header.0.max_pieces
    );
    println!(
        "best:     {:?}: mean squared error {:.5}, mean absolute error {:.4}",
        best.2, best.0, best.1
    );
    println!(
        "defaults: {:?}: mean squared error {mse:.5}, mean absolute error {mae:.4}",
        RaceEvaluator::default()
    );
}
