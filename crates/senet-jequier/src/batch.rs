//! The lock-step kernel of Jéquier's random games (see `senet_core::batch`): sixteen games
//! stored structure-of-arrays, each side's pieces a 32-bit square set, advanced together one
//! throw and one decision per step with the bit arithmetic of the scalar generator
//! (`Jequier::origins`), written lane by lane so that the compiler turns each loop into
//! vector instructions.
//!
//! It covers every configuration (each `safe_squares`, `start_rule` and `backward_priority`
//! value); none falls back to one game at a time. The game opens after the even set's forced
//! 10→11 with Black to throw, so the kernel's first step is a throw as in every later one.
//! Game `i` draws from `streams(i)` word for word as the scalar playout does: the throw takes
//! one word (the top four bits are the sticks), and the choice one `uniform_below` draw among
//! the legal moves, lowest origin first, a pass counting as the only move.

use senet_core::batch::{LaneRules, SideLanes, pick_square, sticks, unpaired};
use senet_core::kernel::all_ones_if as mask;
use senet_core::{Outcome, PerSide, Ruleset, SquareSet};

use crate::{BackwardPriority, Jequier, PIECES, SQ27, StartRule};

/// Games in flight: two 256-bit vectors of 32-bit lanes.
const LANES: usize = 16;

const VALID: u32 = SquareSet::ALL.bits();
const ROW1: u32 = SquareSet::ROW1.bits();
const ROW3: u32 = SquareSet::ROW3.bits();
const BIT27: u32 = 1 << SQ27.get();
/// Bit `t` set for the throws that give another throw (J-4): 1, 4 and 6. Shifted by the
/// throw in each lane, not indexed, so that it stays a vector operation.
const AGAIN: u32 = 1 << 1 | 1 << 4 | 1 << 6;

/// What Jéquier's lanes remember beside the boards: the squares whose pieces have never moved
/// (I-1; both sides' in one set, as the state keeps them, since their starting squares do not
/// overlap, so nothing changes places when the turn passes); then the step's throw and what
/// the generator found.
pub(crate) struct Lanes {
    rules: Jequier,
    /// The unmoved squares of the initial state.
    start_unmoved: u32,
    unmoved: [u32; LANES],
    throw: [u32; LANES],
    /// The squares that can move, forward or backward.
    origins: [u32; LANES],
    /// Those of `origins` that move backward (J-9).
    backward: [u32; LANES],
}

impl Lanes {
    /// The lanes of `rules`: every configuration has a kernel.
    pub(crate) fn covering(rules: &Jequier) -> Option<Lanes> {
        let start_unmoved = rules.initial_state().extra.bits();
        Some(Lanes {
            rules: *rules,
            start_unmoved,
            unmoved: [start_unmoved; LANES],
            throw: [0; LANES],
            origins: [0; LANES],
            backward: [0; LANES],
        })
    }
}

impl LaneRules<LANES> for Lanes {
    fn restart(&mut self, l: usize) {
        // J-3: every piece but the one moved from 10 to 11 starts unmoved.
        self.unmoved[l] = self.start_unmoved;
    }

    /// Reads the sticks (J-2) and computes the squares that can move forward (J-5 to J-8,
    /// J-11) and, when the backward priority allows, backward (J-9), as `Jequier::origins`
    /// does.
    #[inline(always)]
    fn generate(
        &mut self,
        board: &SideLanes<LANES>,
        words: &[u32; LANES],
        choices: &mut [u32; LANES],
    ) {
        let safe = self.rules.safe_squares.squares().bits();
        let first_row = self.rules.start_rule == StartRule::FirstRow;
        let per_piece = self.rules.backward_priority == BackwardPriority::PerPiece;
        for l in 0..LANES {
            let t = sticks(words[l], 6);
            self.throw[l] = t;

            let own = board.own[l];
            let opp = board.opp[l];
            let empty = board.empty(l);
            // J-5: a waiting piece stays while the square ahead of it is occupied.
            let waiting = if first_row { ROW1 } else { self.unmoved[l] };
            let movable = own & !(waiting & (own | opp) >> 1);
            // J-8: a lone opposing piece off the safe squares.
            let attackable = unpaired(opp) & !safe;
            // J-6: the origins whose move of t passes a run of three opposing pieces, as
            // `SquareSet::passing_forward` and `passing_backward`; the sticks never show 5, so
            // a throw of at least 5 is a 6.
            let runs = opp & opp >> 1 & opp >> 2;
            let (four, six) = (mask(t >= 4), mask(t == 6));
            let blocked_forward = (runs >> 1 & four) | ((runs >> 2 | runs >> 3) & six);
            let blocked_backward = (runs << 3 & four) | ((runs << 4 | runs << 5) & six);
            // J-11: with every piece on 21–30, any throw past 30 bears off: the squares from
            // 31 − t up (31 itself is no piece's).
            let bearing_off = own & !ROW3 == 0;
            let leaving = mask(bearing_off) << (31 - t);
            let forward = movable & ((empty | attackable) >> t | leaving) & !blocked_forward;
            // J-9: backward only onto an empty square.
            let backward = movable & empty << t & !blocked_backward;
            // I-2 (per player): only when nothing goes forward; per piece: where that piece
            // does not.
            let allowed = if per_piece {
                !forward
            } else {
                mask(forward == 0)
            };
            let backward = backward & allowed;
            let origins = forward | backward;
            self.origins[l] = origins;
            self.backward[l] = backward;
            // J-9: a pass is the one choice when nothing moves.
            choices[l] = origins.count_ones().max(1);
        }
    }

    /// The piece on the `pick`-th lowest origin moves by the throw, forward or backward: it
    /// sends a lone opposing piece it lands on to the lowest empty square (J-7), goes on from
    /// 27 to the lowest empty square (J-10) or leaves past 30 (J-11); then the turn passes
    /// unless the throw was a 1, 4 or 6 (J-4).
    #[inline(always)]
    fn play(
        &mut self,
        board: &mut SideLanes<LANES>,
        picks: &[u32; LANES],
        won: &mut [bool; LANES],
    ) {
        for l in 0..LANES {
            let t = self.throw[l];
            let from = pick_square::<{ PIECES as u32 - 1 }>(self.origins[l], picks[l]);
            let back = self.backward[l] & from != 0;
            // A forward move past 30 lands on no square (the shift may even drop the bit):
            // that piece leaves. Backward moves always land on one.
            let to = (if back { from >> t } else { from << t }) & VALID;
            let leaves = (from != 0) & (to == 0);
            let own = board.own[l];
            let opp = board.opp[l];
            // J-7: the refuge is picked while the mover still stands on its square. Ten
            // pieces on thirty squares always leave one empty.
            let empty = !(own | opp) & VALID;
            let refuge = empty & empty.wrapping_neg();
            let hit = opp & to;
            let opp = opp ^ hit | refuge & mask(hit != 0);
            // I-1: the mover and the victim no longer count as unmoved.
            self.unmoved[l] &= !(from | to);
            // J-10: from 27 on to the lowest empty square, once the mover has left its own.
            let own = own & !from;
            let free = !(own | opp) & VALID;
            let onward = free & free.wrapping_neg();
            let stands = if to == BIT27 { onward } else { to };
            let own = own | stands;
            let again = AGAIN >> t & 1 != 0;
            (won[l], _) = board.settle(l, (own, opp), leaves, u32::from(PIECES), again);
        }
    }

    /// J-12: the side to move bore off its last piece and scores for the opposing pieces left.
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
    use crate::SafeSquares;
    use senet_core::batch::{BatchRun, Instructions};
    use senet_testkit::batch::{assert_batch_plays_scalar_games, assert_kernel_plays_scalar_games};

    /// The configurations with the backward priority `priority`: all four, or under Miri
    /// (about a million times slower, and there to check the shared skeleton's memory use,
    /// which no option changes) the first one.
    fn configurations(priority: BackwardPriority) -> impl Iterator<Item = Jequier> {
        let safe = [SafeSquares::Standard, SafeSquares::Ludii];
        let start = [StartRule::UnmovedPieces, StartRule::FirstRow];
        let all = safe.into_iter().flat_map(move |safe| {
            start.into_iter().map(move |start| {
                Jequier::default()
                    .with_safe_squares(safe)
                    .with_start_rule(start)
                    .with_backward_priority(priority)
            })
        });
        all.take(if cfg!(miri) { 1 } else { 4 })
    }

    #[test]
    fn the_kernel_plays_the_scalar_games() {
        for rules in configurations(BackwardPriority::PerPlayer) {
            assert!(Lanes::covering(&rules).is_some());
            assert_kernel_plays_scalar_games(&rules);
        }
    }

    /// Random games under `per_piece` walk back and forth for tens of thousands of turns
    /// (docs/rules/jequier.md), so 300 whole games would take most of a minute unoptimised:
    /// fewer games under a lower cap, on both instruction paths, still cross every rule.
    #[test]
    fn the_kernel_plays_the_scalar_games_backward_per_piece() {
        let (games, turn_cap) = if cfg!(miri) { (3, 30) } else { (48, 2_000) };
        for rules in configurations(BackwardPriority::PerPiece) {
            assert!(Lanes::covering(&rules).is_some());
            for instructions in [Instructions::Baseline, Instructions::Detect] {
                let run = BatchRun::new(0..games)
                    .with_turn_cap(turn_cap)
                    .with_instructions(instructions);
                let (finished, capped) = assert_batch_plays_scalar_games(&rules, &run, 5);
                assert_eq!(finished + capped, games);
            }
        }
    }
}
