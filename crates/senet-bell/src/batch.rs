//! The lock-step kernel of Bell's random games (see `senet_core::batch`): sixteen games stored
//! structure-of-arrays, each side's pieces a 32-bit square set, advanced together one throw and
//! one decision per step with the same bit arithmetic as `legal_origins`, written lane by lane
//! so that the compiler turns each loop into vector instructions.
//!
//! It covers every configuration (both `marked_squares` sets, with and without
//! `compulsory_capture`); none falls back to one game at a time. Game `i` draws from
//! `streams(i)` word for word as the scalar playout does: the throw takes one word (the die
//! reads its top two bits), and the choice one `uniform_below` draw among the legal moves,
//! lowest origin first, a pass counting as the only move.
//!
//! Bell's game does not end when one side has borne everything off but when the board is
//! empty (Be-9), and a side whose opponent has nothing left on the board keeps the turn. So the
//! kernel decides both itself: it hands [`SideLanes::settle`] a piece count no side reaches
//! (captured pieces leave the game, so "all borne off" says nothing here) and the extra throw
//! of a side left alone, and marks a game won when its board has emptied.

use senet_core::batch::{LaneRules, SideLanes, pick_square};
use senet_core::kernel::all_ones_if as mask;
use senet_core::{Outcome, SquareSet};

use crate::{Bell, PIECES};

/// Games in flight: two 256-bit vectors of 32-bit lanes.
const LANES: usize = 16;

const VALID: u32 = SquareSet::ALL.bits();
/// The virtual square 31 that an exact exit reaches (Be-8).
const BIT31: u32 = 1 << 31;
/// Borne-off pieces no side ever reaches: the game's end is Be-9's empty board instead.
const NEVER_ALL_OFF: u32 = u32::MAX;

/// What Bell's lanes remember beside the boards: the step's throw and the squares that can
/// move. Captured pieces are not counted: they change neither the moves nor the outcome.
pub(crate) struct Lanes {
    /// The marked squares of the options (Be-6).
    marked: u32,
    /// All ones under `compulsory_capture`: a mask rather than a flag, so that the lane loop
    /// selects with it instead of testing the option for every lane.
    compulsory: u32,
    throw: [u32; LANES],
    origins: [u32; LANES],
}

impl Lanes {
    /// The lanes of `rules`: every configuration has a kernel.
    pub(crate) fn covering(rules: &Bell) -> Option<Lanes> {
        Some(Lanes {
            marked: rules.marked_squares.squares().bits(),
            compulsory: mask(rules.compulsory_capture),
            throw: [0; LANES],
            origins: [0; LANES],
        })
    }
}

impl LaneRules<LANES> for Lanes {
    fn restart(&mut self, _l: usize) {
        // The board is all a game starts with: the throw and origins are rewritten each step.
    }

    /// Reads the die (Be-2) and computes the squares that can move (Be-4 to Be-8, the
    /// options), as `legal_origins` does.
    #[inline(always)]
    fn generate(
        &mut self,
        board: &SideLanes<LANES>,
        words: &[u32; LANES],
        choices: &mut [u32; LANES],
    ) {
        let marked = self.marked;
        let compulsory = self.compulsory;
        for l in 0..LANES {
            // As `FourSidedDie::sample`: the top two bits, plus one.
            let t = (words[l] >> 30) + 1;
            self.throw[l] = t;

            let own = board.own[l];
            let capturable = board.opp[l] & !marked;
            let landing = board.empty(l) | capturable;
            // Be-4, Be-8: exactly t forward, or exactly onto the virtual square 31.
            let exit = BIT31 >> t;
            let origins = own & (landing >> t | exit);
            // Be-7: the marked squares that can move go first.
            let from_marked = origins & marked;
            let origins = if from_marked != 0 {
                from_marked
            } else {
                origins
            };
            // Option: a capture, when one is left after Be-7, must be made.
            let captures = origins & capturable >> t & compulsory;
            let origins = if captures != 0 { captures } else { origins };
            self.origins[l] = origins;
            // Be-4: a pass is the one choice when nothing moves.
            choices[l] = origins.count_ones().max(1);
        }
    }

    /// The piece on the `pick`-th lowest origin moves by the throw, capturing what it lands on
    /// (Be-5) or leaving from the exact exit (Be-8); the turn passes unless the opponent has
    /// nothing left on the board, and the game ends with the board empty (Be-9).
    #[inline(always)]
    fn play(
        &mut self,
        board: &mut SideLanes<LANES>,
        picks: &[u32; LANES],
        won: &mut [bool; LANES],
    ) {
        for l in 0..LANES {
            let from = pick_square::<{ PIECES as u32 - 1 }>(self.origins[l], picks[l]);
            // A legal exit lands exactly on 31; no origin goes further.
            let to = from << self.throw[l];
            let leaves = to == BIT31;
            // Be-5: a captured piece leaves the game.
            let opp = board.opp[l] & !to;
            let own = board.own[l] & !from | to & VALID;
            // Be-4 and the crate's choice 2: the side whose opponent has nothing on the board
            // throws again (also when the board is empty, which leaves the winner's side).
            let alone = opp == 0;
            let over = alone & (own == 0);
            board.settle(l, (own, opp), leaves, NEVER_ALL_OFF, alone);
            won[l] = over;
        }
    }

    /// Be-9: the side with more pieces borne off wins, equal scores draw.
    fn outcome(&self, board: &SideLanes<LANES>, l: usize) -> Outcome {
        let (_, off) = board.side_and_off(l);
        Bell::outcome_of(off)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::MarkedSquares;
    use senet_testkit::batch::assert_kernel_plays_scalar_games;

    /// Every configuration, or under Miri (about a million times slower, and there to check
    /// the shared skeleton's memory use, which no option changes) the default one.
    #[test]
    fn the_kernel_plays_the_scalar_games() {
        let marked = [MarkedSquares::Bell, MarkedSquares::Ludii];
        let all = marked.into_iter().flat_map(|marked| {
            [false, true].map(|compulsory| {
                Bell::default()
                    .with_marked_squares(marked)
                    .with_compulsory_capture(compulsory)
            })
        });
        for rules in all.take(if cfg!(miri) { 1 } else { 4 }) {
            assert!(Lanes::covering(&rules).is_some());
            assert_kernel_plays_scalar_games(&rules);
        }
    }
}
