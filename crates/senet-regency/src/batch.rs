//! The lock-step kernel of Regency's random games (see `senet_core::batch`): sixteen games
//! stored structure-of-arrays, each side's pieces a 32-bit square set, advanced together one
//! throw and one decision per step with the same bit arithmetic as the scalar move
//! generator, written lane by lane so that the compiler turns each loop into vector
//! instructions.
//!
//! It covers every configuration except `collect_throws` and the two exit options, which play
//! one game at a time. Game `i` draws from `streams(i)` word for word as the scalar playout
//! does: the throw takes one word (the top four bits are the sticks), and the choice one
//! `uniform_below` draw among the legal moves, a pass counting as the only move.

use senet_core::batch::{LaneRules, SideLanes, pick_square, sticks, unpaired};
use senet_core::kernel::all_ones_if as mask;
use senet_core::{Outcome, PerSide, Side, SquareSet};

use crate::{ExitRule, PIECES, Regency, SAFE_SQUARES};

/// Games in flight: two 256-bit vectors of 32-bit lanes.
const LANES: usize = 16;

const VALID: u32 = SquareSet::ALL.bits();
const ROW3: u32 = SquareSet::ROW3.bits();
const SAFE: u32 = SAFE_SQUARES.bits();
const BIT9: u32 = 1 << 9;
const BIT15: u32 = 1 << 15;
const BIT27: u32 = 1 << 27;
const BIT30: u32 = 1 << 30;
const WHITE: u32 = Side::White as u32;

/// What Regency's lanes remember beside the boards: whether White has opened, then
/// the step's throw and the squares that can move.
pub(crate) struct Lanes {
    rules: Regency,
    opened: [u32; LANES],
    throw: [u32; LANES],
    origins: [u32; LANES],
}

impl Lanes {
    /// The lanes of `rules`, if it has a kernel: every configuration but `collect_throws` and
    /// the exit options.
    pub(crate) fn covering(rules: &Regency) -> Option<Lanes> {
        let covered = !rules.collect_throws && rules.exit() == ExitRule::LandOnThirty;
        covered.then_some(Lanes {
            rules: *rules,
            opened: [0; LANES],
            throw: [0; LANES],
            origins: [0; LANES],
        })
    }
}

impl LaneRules<LANES> for Lanes {
    fn restart(&mut self, l: usize) {
        // White has not opened at the start.
        self.opened[l] = 0;
    }

    /// Reads the sticks and computes the squares that can move (R-8 to, the
    /// options).
    #[inline(always)]
    fn generate(
        &mut self,
        board: &SideLanes<LANES>,
        words: &[u32; LANES],
        choices: &mut [u32; LANES],
    ) {
        let happiness = self.rules.house_of_happiness;
        for l in 0..LANES {
            let t = sticks(words[l], 6);
            self.throw[l] = t;

            let own = board.own[l];
            let opp = board.opp[l];
            let bearing_off = own & !ROW3 == 0;
            let attackable = unpaired(opp) & !SAFE;
            let mut landing = board.empty(l) | attackable;
            landing &= !(BIT30 & !mask(bearing_off));
            let mut origins = own & (landing >> t);
            let runs = opp & opp >> 1 & opp >> 2;
            let passing = (runs >> 1 & mask(t >= 4))
                | (runs >> 2 & mask(t >= 5))
                | (runs >> 3 & mask(t >= 6));
            origins &= !passing;
            if happiness {
                // Variation 1: nothing from 25 or below past 26 (bits 27 − t to 25).
                let beyond = ((1u32 << 26) - 1) & !((1u32 << (27 - t)) - 1);
                origins &= !(beyond & mask(t >= 2));
            }
            let nine_first =
                (board.side[l] == WHITE) & (self.opened[l] == 0) & (origins & BIT9 != 0);
            let origins = if nine_first { BIT9 } else { origins };
            self.origins[l] = origins;
            // A pass is the one choice when nothing moves.
            choices[l] = origins.count_ones().max(1);
        }
    }

    /// The piece on the `pick`-th lowest origin moves by the throw, swapping with an attacked
    /// piece, leaving on 30, leaving 27; then the turn passes unless the
    /// throw gives another.
    #[inline(always)]
    fn play(
        &mut self,
        board: &mut SideLanes<LANES>,
        picks: &[u32; LANES],
        won: &mut [bool; LANES],
    ) {
        let water = self.rules.house_of_water;
        let keep_lost = self.rules.lost_throw_keeps_extra_throw;
        for l in 0..LANES {
            let t = self.throw[l];
            let from = pick_square::<{ PIECES as u32 - 1 }>(self.origins[l], picks[l]);
            let to = from << t;
            let own = board.own[l];
            let opp = board.opp[l];
            let hit = opp & to;
            let opp = opp ^ hit | from & mask(hit != 0);
            let own = own & !from;
            let empty = !(own | opp) & VALID;
            let lowest = empty & empty.wrapping_neg();
            let rebirth = if water & (empty & BIT15 != 0) {
                BIT15
            } else {
                lowest
            };
            let leaves = to & BIT30 != 0;
            let stands = if to == BIT27 { rebirth } else { to };
            let own = own | stands & mask(!leaves);
            let moved = from != 0;
            let extra_value = (t == 1) | (t == 4) | (t == 6);
            let again = extra_value & (moved | keep_lost);
            let side = board.side[l];
            (won[l], _) = board.settle(l, (own, opp), leaves, u32::from(PIECES), again);
            self.opened[l] |= u32::from(moved & (side == WHITE));
        }
    }

    /// the side to move bore off its last piece and scores.
    fn outcome(&self, board: &SideLanes<LANES>, l: usize) -> Outcome {
        let (winner, _) = board.side_and_off(l);
        let points = SquareSet::from_bits_truncate(board.opp[l]).rows_to_go();
        Outcome {
            winner: Some(winner),
            points: PerSide::only(winner, points),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use senet_testkit::batch::assert_kernel_plays_scalar_games;

    #[test]
    fn the_kernel_plays_the_scalar_games() {
        let rules = Regency::default();
        assert!(Lanes::covering(&rules).is_some());
        assert_kernel_plays_scalar_games(&rules);
    }
}
