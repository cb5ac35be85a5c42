//! The generic encoding of a position as network inputs, the same for every ruleset.

use senet_core::{Phase, Ruleset, Side};

/// Squares of the board.
const SQUARES: usize = 30;
/// Inputs every ruleset has: each side's pieces on each square, then for each side the pieces
/// off, in hand and captured (as fractions of the pieces per side), whether the side the
/// position is seen from acts next, and whether it plays Black.
pub const BASE_INPUTS: usize = 2 * SQUARES + 6 + 2;
/// The most inputs a network may have: [`BASE_INPUTS`] and at most this many less
/// [`Ruleset::STATE_FEATURES`].
pub const MAX_INPUTS: usize = 128;
/// The most inputs different from zero: 30 squares, six counters, two flags and the state
/// features.
const MAX_ACTIVE: usize = SQUARES + 8 + (MAX_INPUTS - BASE_INPUTS);

/// The number of inputs of a network for ruleset `R`: [`BASE_INPUTS`] followed by the
/// ruleset's [`STATE_FEATURES`](Ruleset::STATE_FEATURES).
pub fn input_count<R: Ruleset>() -> usize {
    BASE_INPUTS + R::STATE_FEATURES.len()
}

/// A position as network inputs, kept sparse: only the inputs different from zero, so that
/// the first layer adds one column of weights per piece rather than multiplying a mostly empty
/// vector. Lives on the stack: encoding never allocates.
#[derive(Clone, Debug)]
pub struct Input {
    index: [u8; MAX_ACTIVE],
    value: [f32; MAX_ACTIVE],
    len: usize,
}

impl Default for Input {
    fn default() -> Self {
        Input {
            index: [0; MAX_ACTIVE],
            value: [0.0; MAX_ACTIVE],
            len: 0,
        }
    }
}

impl Input {
    /// The inputs different from zero, as (input number, value) pairs in increasing order.
    pub fn active(&self) -> impl Iterator<Item = (usize, f32)> + '_ {
        self.index[..self.len]
            .iter()
            .zip(&self.value[..self.len])
            .map(|(&i, &v)| (usize::from(i), v))
    }

    #[inline]
    fn push(&mut self, index: usize, value: f32) {
        if value != 0.0 {
            self.index[self.len] = index as u8;
            self.value[self.len] = value;
            self.len += 1;
        }
    }

    /// Encodes `state` as seen from `side` (the network's value is then `side`'s chance to
    /// win). `R::STATE_FEATURES` must have at most `MAX_INPUTS − BASE_INPUTS` entries, which
    /// [`Weights::check_rules`](super::Weights::check_rules) makes sure of before any network is used.
    pub fn encode<R: Ruleset>(&mut self, rules: &R, state: &R::State, side: Side) {
        self.len = 0;
        let board = rules.board(state);
        let pieces = f32::from(rules.pieces_per_side().max(1));
        for (k, who) in [side, side.opponent()].into_iter().enumerate() {
            for square in board.pieces_of(who).iter() {
                self.push(k * SQUARES + usize::from(square.get()) - 1, 1.0);
            }
        }
        for (k, who) in [side, side.opponent()].into_iter().enumerate() {
            let base = 2 * SQUARES + 3 * k;
            self.push(base, f32::from(board.off_count(who)) / pieces);
            self.push(base + 1, f32::from(board.hand_count(who)) / pieces);
            self.push(base + 2, f32::from(rules.captured(state, who)) / pieces);
        }
        let acts_next = matches!(rules.phase(state), Phase::Throw(s) | Phase::Move(s) if s == side);
        self.push(2 * SQUARES + 6, f32::from(u8::from(acts_next)));
        self.push(2 * SQUARES + 7, f32::from(u8::from(side == Side::Black)));
        let mut features = [0.0f32; MAX_INPUTS - BASE_INPUTS];
        let count = R::STATE_FEATURES.len().min(features.len());
        rules.state_features(state, side, &mut features[..count]);
        for (k, &value) in features[..count].iter().enumerate() {
            self.push(BASE_INPUTS + k, value);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[cfg(feature = "regency")]
    #[test]
    fn the_start_of_regency_has_ten_pieces_and_two_flags_for_black() {
        let rules = senet_regency::Regency::default();
        let mut input = Input::default();
        input.encode(&rules, &rules.initial_state(), Side::Black);
        let active: Vec<(usize, f32)> = input.active().collect();
        // Five pieces a side on the board; Black throws next and plays Black.
        assert_eq!(active.iter().filter(|(i, _)| *i < 2 * SQUARES).count(), 10);
        assert!(active.contains(&(2 * SQUARES + 6, 1.0)));
        assert!(active.contains(&(2 * SQUARES + 7, 1.0)));
        input.encode(&rules, &rules.initial_state(), Side::White);
        assert!(
            input
                .active()
                .all(|(i, _)| !(2 * SQUARES..BASE_INPUTS).contains(&i))
        );
    }
}
