//! The random player: a uniformly random legal move.

use rand_core::Rng;
use senet_core::{MoveList, Ruleset, uniform_below};

use crate::player::{Analysis, MoveValue, Player, PlayerError, ValueKind, side_to_move};

/// Picks a legal move uniformly at random with the caller's RNG (the baseline of the
/// strength table). Every move's value is the probability of picking it, 1/n.
#[derive(Clone, Debug, Default)]
pub struct RandomPlayer {
    moves: MoveList,
}

impl RandomPlayer {
    /// A random player.
    pub fn new() -> Self {
        RandomPlayer::default()
    }
}

impl<R: Ruleset> Player<R> for RandomPlayer {
    fn name(&self) -> String {
        "random".to_string()
    }

    fn analyse(
        &mut self,
        rules: &R,
        state: &R::State,
        rng: &mut dyn Rng,
    ) -> Result<Analysis, PlayerError> {
        side_to_move(rules, state)?;
        rules.generate_moves(state, &mut self.moves);
        let n = self.moves.len();
        if n == 1 {
            return Ok(Analysis::forced(self.moves[0]));
        }
        let pick = uniform_below(rng, n as u32) as usize;
        let share = 1.0 / n as f64;
        let moves = self
            .moves
            .iter()
            .map(|&mv| MoveValue { mv, value: share })
            .collect();
        Ok(Analysis::new(moves, pick, ValueKind::Uniform))
    }
}
