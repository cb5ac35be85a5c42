//! The greedy player: the best move by a one-move heuristic.

use rand_core::Rng;
use senet_core::{BitBoard, Ruleset, Side};

use crate::features::{exposed, pips};
use crate::player::{Analysis, Decision, Player, PlayerError, ValueKind};

/// Weights of the greedy heuristic, in squares of progress.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GreedyWeights {
    /// Per square the mover's pieces advance (negative when a piece is sent back).
    pub progress: f64,
    /// Per square the opponent's pieces are sent back (a capture or a swap).
    pub capture: f64,
    /// Per piece borne off by the move.
    pub bear_off: f64,
    /// Per piece of the mover left exposed after the move (alone, within one throw in front
    /// of an opposing piece).
    pub exposed: f64,
}

impl Default for GreedyWeights {
    fn default() -> Self {
        GreedyWeights {
            progress: 1.0,
            capture: 1.0,
            bear_off: 10.0,
            exposed: -4.0,
        }
    }
}

/// Looks one move ahead and scores each resulting position from board features alone:
///
/// ```text
/// score = progress · (squares the mover's pieces advanced)
///       + capture  · (squares the opponent's pieces were sent back)
///       + bear_off · (pieces borne off by the move)
///       + exposed  · (mover's pieces exposed afterwards)
/// ```
///
/// with the defaults 1, 1, 10 and −4 ([`GreedyWeights`]). Squares are counted as pips (see
/// [`crate::features::pips`]), so a piece sent from 27 back to the start counts as negative
/// progress and a swap counts for both sides; a piece captured for good (Bell) counts as sent
/// back 31 squares. The player never looks at throws to come; ties
/// go to the move generated first, so it is deterministic.
#[derive(Clone, Debug, Default)]
pub struct Greedy {
    weights: GreedyWeights,
}

impl Greedy {
    /// The greedy player with the default weights.
    pub fn new() -> Self {
        Greedy::default()
    }

    /// The greedy player with other weights.
    pub fn with_weights(weights: GreedyWeights) -> Self {
        Greedy { weights }
    }

    /// The heuristic score of going from `before` to `after` for `mover`.
    pub fn score<D: senet_core::ThrowingDevice>(
        &self,
        before: &BitBoard,
        after: &BitBoard,
        mover: Side,
        device: &D,
    ) -> f64 {
        let w = &self.weights;
        let other = mover.opponent();
        let progress = f64::from(pips(before, mover)) - f64::from(pips(after, mover));
        let capture = f64::from(pips(after, other)) - f64::from(pips(before, other));
        let borne_off = f64::from(after.off_count(mover)) - f64::from(before.off_count(mover));
        let left_exposed = f64::from(exposed(after, mover, device).len());
        w.progress * progress
            + w.capture * capture
            + w.bear_off * borne_off
            + w.exposed * left_exposed
    }
}

impl Greedy {
    /// The part of the score the boards cannot show: a piece taken out of the game by a
    /// capture (Bell) leaves the board as a piece borne off does, but it is sent back the
    /// whole way (31 pips, see [`crate::features::state_pips`]).
    fn captured_score<R: Ruleset>(
        &self,
        rules: &R,
        before: &R::State,
        after: &R::State,
        mover: Side,
    ) -> f64 {
        let newly_captured = |side: Side| {
            f64::from(rules.captured(after, side)) - f64::from(rules.captured(before, side))
        };
        let w = &self.weights;
        31.0 * (w.capture * newly_captured(mover.opponent()) - w.progress * newly_captured(mover))
    }
}

impl<R: Ruleset> Player<R> for Greedy {
    fn name(&self) -> String {
        "greedy".to_string()
    }

    fn value(&mut self, at: Decision<'_, R>, _rng: &mut dyn Rng) -> Result<Analysis, PlayerError> {
        let Decision {
            rules,
            state,
            mover,
            moves,
        } = at;
        let device = rules.device();
        let before = rules.board(state);
        let values: Vec<f64> = moves
            .iter()
            .map(|&mv| {
                let mut next = *state;
                rules.play_unchecked(&mut next, mv);
                self.score(before, rules.board(&next), mover, &device)
                    + self.captured_score(rules, state, &next, mover)
            })
            .collect();
        Ok(Analysis::best_of(moves, &values, ValueKind::Heuristic))
    }
}
