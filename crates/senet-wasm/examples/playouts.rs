//! Random playouts a second natively, with the function the page times in WebAssembly
//! (`senet_wasm::playouts`; `crates/senet-cli/tests/serve_local.rs` prints the page's figure):
//!
//! ```text
//! cargo run --release -p senet-wasm --example playouts [RULES] [GAMES]
//! ```

use std::time::Instant;

fn main() {
    let mut args = std::env::args().skip(1);
    let rules = args.next().unwrap_or_else(|| "regency".to_string());
    let games = args
        .next()
        .map_or(20_000, |n| n.parse().expect("GAMES: a number"));
    let started = Instant::now();
    let actions = senet_wasm::playouts(&rules, games, 1).unwrap_or_else(|e| {
        eprintln!("playouts: {e}");
        std::process::exit(2);
    });
    let seconds = started.elapsed().as_secs_f64();
    println!(
        "{rules}: {games} random playouts ({actions} actions) in {seconds:.3} s: {:.0} a second",
        f64::from(games) / seconds
    );
}
