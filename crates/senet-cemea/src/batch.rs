//! The lock-step kernel of CEMEA's random games (see `senet_core::batch`): sixteen games
//! stored structure-of-arrays, each side's pieces a 32-bit square set, advanced together one
//! throw and one decision per step with the bit arithmetic of the scalar generator
//! (`Cemea::origins`), written lane by lane so that the compiler turns each loop into vector
//! instructions.
//!
//! It covers the sticks with the game ending at the first side to finish (C-13), with every
//! other option: each step is then one throw and one decision (a lost throw, and a stranded
//! side's throw other than a 4, are a pass). It leaves to the one-by-one path the die (a
//! throw of `uniform_below(6)` may take more than one word, where the kernel reads one) and
//! the ancient mode (the game goes on after the first side finishes, with a side playing
//! alone and turns to count for the score). Game `i` draws from `streams(i)` word for word as
//! the scalar playout does: the throw takes one word (the top four bits are the sticks), and
//! the choice one `uniform_below` draw among the legal moves, a pass counting as the only
//! move.

use senet_core::batch::{LaneRules, SideLanes, pick_square, sticks, unpaired};
use senet_core::kernel::all_ones_if as mask;
use senet_core::{Outcome, SquareSet};

use crate::{Cemea, MAX_PIECES, REFUGES};

/// Games in flight: two 256-bit vectors of 32-bit lanes.
const LANES: usize = 16;

const VALID: u32 = SquareSet::ALL.bits();
const REFUGE: u32 = REFUGES.bits();
const BIT15: u32 = 1 << 15;
const BIT26: u32 = 1 << 26;
const BIT27: u32 = 1 << 27;
const BIT28: u32 = 1 << 28;
/// The virtual square 31 that exits from 28, 29 and 30 reach (C-12).
const BIT_OFF: u32 = 1 << 31;

/// What CEMEA's lanes remember beside the boards: the step's throw and what the generator
/// found.
pub(crate) struct Lanes {
    rules: Cemea,
    throw: [u32; LANES],
    /// The squares that can move (C-5, C-9, I-1).
    origins: [u32; LANES],
    /// All ones when `origins` move forward.
    forward: [u32; LANES],
    /// How many squares `origins` holds: the choice after them is the step 26→27 (I-9).
    count: [u32; LANES],
    /// All ones when the step 26→27 of option `jump_optional` is a choice (I-9).
    step_27: [u32; LANES],
    /// All ones when the side's piece on 27 strands it (C-11).
    stranded: [u32; LANES],
}

impl Lanes {
    /// The lanes of `rules`, if it has a kernel: the sticks, without the ancient mode.
    pub(crate) fn covering(rules: &Cemea) -> Option<Lanes> {
        let covered = !rules.die && !rules.ancient;
        covered.then_some(Lanes {
            rules: *rules,
            throw: [0; LANES],
            origins: [0; LANES],
            forward: [0; LANES],
            count: [0; LANES],
            step_27: [0; LANES],
            stranded: [0; LANES],
        })
    }
}

impl LaneRules<LANES> for Lanes {
    fn restart(&mut self, _l: usize) {
        // Nothing beyond the board: a stranded side is one with a piece on 27.
    }

    /// Reads the sticks (C-2) and computes the squares that can move and which way, in the
    /// priority of I-1 (C-5 to C-12, the options), as `Cemea::origins` does.
    #[inline(always)]
    fn generate(
        &mut self,
        board: &SideLanes<LANES>,
        words: &[u32; LANES],
        choices: &mut [u32; LANES],
    ) {
        let back_attack = self.rules.backward_attack;
        let own_landing = self.rules.forced_own_landing;
        let own_first = own_landing & self.rules.own_landing_first;
        let jump_optional = self.rules.jump_optional;
        for l in 0..LANES {
            let t = sticks(words[l], 6);
            self.throw[l] = t;

            let own = board.own[l];
            let opp = board.opp[l];
            let empty = board.empty(l);
            let attackable = unpaired(opp) & !REFUGE;
            let landing = empty | attackable;
            // C-8: a wall of three cannot be passed, either way.
            let runs = opp & opp >> 1 & opp >> 2;
            let blocked_fwd = (runs >> 1 & mask(t >= 4))
                | (runs >> 2 & mask(t >= 5))
                | (runs >> 3 & mask(t >= 6));
            let blocked_back = (runs << 3 & mask(t >= 4))
                | (runs << 4 & mask(t >= 5))
                | (runs << 5 & mask(t >= 6));
            // C-10 / I-2: from 26 a 1 is the jump to 28 (when 28 is empty), never a step.
            let jumper = own & BIT26 & mask(t == 1);

            // (1) Forward moves, C-12's exits from 28–30 with exactly 3, 2, 1, and the jump.
            let forward = (own & landing >> t & !jumper
                | own & BIT_OFF >> t & REFUGE
                | jumper & mask(empty & BIT28 != 0))
                & !blocked_fwd;
            // I-9: option jump_optional lets the piece on 26 also step onto 27.
            let step_27 = jump_optional & (jumper != 0) & (landing & BIT27 != 0);
            // (2) C-5, I-6: backward, never below 1.
            let back_landing = if back_attack { landing } else { empty };
            let backward = own & (back_landing << t & VALID) & !blocked_back;
            // (3) C-9 / I-1: onto an own piece, forward first; the jump never counts.
            let onto_own_fwd = own & own >> t & !jumper & !blocked_fwd;
            let onto_own_back = own & own << t & !blocked_back;

            // I-1's priority, I-7's own landing first: the first level with a move.
            let goes_forward = (forward != 0) | step_27;
            let own_ahead = own_first & (onto_own_fwd != 0);
            let goes_back = (backward != 0) | !own_landing;
            let ahead = onto_own_fwd != 0;
            let origins = if goes_forward {
                forward
            } else if own_ahead {
                onto_own_fwd
            } else if goes_back {
                backward
            } else if ahead {
                onto_own_fwd
            } else {
                onto_own_back
            };
            let forward_way = goes_forward | own_ahead | (!goes_back & ahead);

            // C-11 / I-3: a stranded side has a single choice, the 4 that frees it or a pass.
            let stranded = own & BIT27 != 0;
            let count = origins.count_ones();
            self.origins[l] = origins & mask(!stranded);
            self.forward[l] = mask(forward_way);
            self.count[l] = count;
            self.step_27[l] = mask(step_27 & !stranded);
            self.stranded[l] = mask(stranded);
            let moves = (count + u32::from(step_27)).max(1);
            choices[l] = if stranded { 1 } else { moves };
        }
    }

    /// The chosen move: off from 28–30 (C-12) or from 27 with a 4 (C-11), else onto the
    /// landing square, swapping with an attacked piece (C-6) or sending an own piece there to
    /// the lowest empty square (C-9), and from 27 on to an empty 15 (C-11); then the turn
    /// passes unless the throw gives another (C-4, C-5, I-3, I-8).
    #[inline(always)]
    fn play(
        &mut self,
        board: &mut SideLanes<LANES>,
        picks: &[u32; LANES],
        won: &mut [bool; LANES],
    ) {
        let pieces = u32::from(self.rules.pieces.count());
        let stranded_keeps = self.rules.stranded_keeps_extra_throw;
        for l in 0..LANES {
            let t = self.throw[l];
            let pick = picks[l];
            let own = board.own[l];
            let opp = board.opp[l];
            // `pick` one past the origins is the step 26→27 (listed last), which the
            // iteration past the last piece leaves out of `pick_square`.
            let step = (self.step_27[l] != 0) & (pick == self.count[l]);
            let piece = pick_square::<{ MAX_PIECES as u32 }>(self.origins[l], pick);
            // C-11: a stranded side's 4 takes its piece on 27 off.
            let freed = (self.stranded[l] != 0) & (t == 4);
            let from = piece | BIT26 & mask(step) | BIT27 & mask(freed);
            let forward = self.forward[l] != 0;
            let jump = (t == 1) & (from == BIT26) & !step;
            let ahead = from << t << u32::from(jump);
            let to = if step {
                BIT27
            } else if forward {
                ahead
            } else {
                from >> t
            };
            let leaves = freed | (to == BIT_OFF);
            let to = to & mask(!leaves);
            // C-9: the own piece on the landing square goes to the lowest empty square (the
            // one just left included); the mover takes its place.
            let free = board.empty(l) | from;
            let lowest = free & free.wrapping_neg();
            let onto_own = own & to != 0;
            // C-11: from 27 on to 15 if it is empty (nothing else moves onto 15 in this move).
            let reborn = (to == BIT27) & (board.empty(l) & BIT15 != 0);
            let stands = if reborn { BIT15 } else { to };
            let lands = if onto_own { lowest } else { stands };
            // C-6: the attacked piece goes to the square the attacker left.
            let hit = opp & to;
            let opp = opp ^ hit | from & mask(hit != 0);
            let own = own & !from | lands;
            let moved = from != 0;
            let extra = (t == 1) | (t == 4) | (t == 6);
            // C-5: a lost throw ends the turn; I-3, I-8: a stranded side's may not.
            let kept = (self.stranded[l] != 0) & stranded_keeps;
            let again = extra & (moved | kept);
            (won[l], _) = board.settle(l, (own, opp), leaves, pieces, again);
        }
    }

    /// C-13: the side to move bore off its last piece; the points are the pieces each side
    /// bore off.
    fn outcome(&self, board: &SideLanes<LANES>, l: usize) -> Outcome {
        let (winner, off) = board.side_and_off(l);
        Outcome {
            winner: Some(winner),
            points: off.map(i32::from),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use senet_core::Ruleset;
    use senet_testkit::batch::assert_kernel_plays_scalar_games;

    #[test]
    fn the_kernel_plays_the_scalar_games() {
        // Every option combination; under Miri, far slower, the default one.
        let all = senet_core::option_combinations::<Cemea>().unwrap();
        let configurations = if cfg!(miri) {
            vec![Cemea::default()]
        } else {
            all
        };
        for rules in configurations {
            let covered = !rules.die && !rules.ancient;
            assert_eq!(
                Lanes::covering(&rules).is_some(),
                covered,
                "{}",
                rules.spec()
            );
            if covered {
                assert_kernel_plays_scalar_games(&rules);
            }
        }
    }
}
