//! The random player: a uniformly random legal move.

use rand_core::Rng;
use senet_core::{Ruleset, uniform_below};

use crate::player::{Analysis, Decision, MoveValue, Player, PlayerError, ValueKind};

/// Picks a legal move uniformly at random with the caller's RNG (the baseline of the
/// strength table). Every move's value is the probability of picking it, 1/n.
#[derive(Clone, Copy, Debug, Default)]
pub struct RandomPlayer;

impl RandomPlayer {
    /// A random player.
    pub fn new() -> Self {
        RandomPlayer
    }
}

impl<R: Ruleset> Player<R> for RandomPlayer {
    fn name(&self) -> String {
        "random".to_string()
    }

    fn value(&mut self, at: Decision<'_, R>, rng: &mut dyn Rng) -> Result<Analysis, PlayerError> {
        let n = at.moves.len();
        let pick = uniform_below(rng, n as u32) as usize;
        let share = 1.0 / n as f64;
        let moves = at
            .moves
            .iter()
            .map(|&mv| MoveValue { mv, value: share })
            .collect();
        Ok(Analysis::new(moves, pick, ValueKind::Uniform))
    }
}
