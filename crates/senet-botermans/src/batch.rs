//! The lock-step kernel of Botermans' random games (see `senet_core::batch`): sixteen games
//! stored structure-of-arrays, each side's pieces a 32-bit square set, advanced together one
//! throw and one decision per step with the bit arithmetic of the scalar generator
//! (`Botermans::origins`), written lane by lane so that the compiler turns each loop into
//! vector instructions.
//!
//! It covers every configuration: every step of a game is one throw of the sticks and one
//! decision (a lost throw is a pass, B-9), and the game opens with Black's throw after the
//! forced opening move (B-3). Game `i` draws from `streams(i)` word for word as the scalar
//! playout does: the throw takes one word (the top four bits are the sticks), and the choice
//! one `uniform_below` draw among the legal moves, a pass counting as the only move.

use senet_core::batch::{LaneRules, SideLanes, pick_square, sticks, unpaired};
use senet_core::kernel::all_ones_if as mask;
use senet_core::{Outcome, PerSide, SquareSet};

use crate::{Botermans, PIECES, SAFE_SQUARES};

/// Games in flight: two 256-bit vectors of 32-bit lanes.
const LANES: usize = 16;

const VALID: u32 = SquareSet::ALL.bits();
const ROW3: u32 = SquareSet::ROW3.bits();
const SAFE: u32 = SAFE_SQUARES.bits();
const BIT27: u32 = 1 << 27;
const BIT30: u32 = 1 << 30;
/// Squares 1–29: 30 and beyond is where forward moves bear off or bounce (B-12).
const BELOW_30: u32 = BIT30 - 1;

/// The squares from which a forward move of `t` overshoots 30 and bounces back (B-12):
/// 31 − t to 29 (none with a 1).
#[inline(always)]
fn bounce_origins(t: u32) -> u32 {
    BELOW_30 & !((1 << (31 - t)) - 1)
}

/// What Botermans' lanes remember beside the boards: the step's throw, the squares that can
/// move, and whether they move forward.
pub(crate) struct Lanes {
    rules: Botermans,
    throw: [u32; LANES],
    origins: [u32; LANES],
    /// All ones when `origins` move forward (B-9: backward only when nothing goes forward).
    forward: [u32; LANES],
}

impl Lanes {
    /// The lanes of `rules`: every configuration has a kernel.
    pub(crate) fn covering(rules: &Botermans) -> Option<Lanes> {
        Some(Lanes {
            rules: *rules,
            throw: [0; LANES],
            origins: [0; LANES],
            forward: [0; LANES],
        })
    }
}

impl LaneRules<LANES> for Lanes {
    fn restart(&mut self, _l: usize) {
        // Nothing beyond the board: B-11 follows from where the pieces stand.
    }

    /// Reads the sticks (B-2) and computes the squares that can move and which way (B-5 to
    /// B-13, I-1 to I-7, the options), as `Botermans::origins` does.
    #[inline(always)]
    fn generate(
        &mut self,
        board: &SideLanes<LANES>,
        words: &[u32; LANES],
        choices: &mut [u32; LANES],
    ) {
        let blockade = self.rules.blockade_of_three;
        let back_attack = self.rules.backward_attack;
        let waiting_room = BIT30 & mask(self.rules.wait_on_30);
        for l in 0..LANES {
            let t = sticks(words[l], 6);
            self.throw[l] = t;

            let own = board.own[l];
            let opp = board.opp[l];
            let empty = board.empty(l);
            let attackable = unpaired(opp) & !SAFE;
            let landing = empty | attackable;
            let runs = opp & opp >> 1 & opp >> 2 & mask(blockade);
            // Ordinary forward moves end on 1–29.
            let plain = own & (landing & BELOW_30) >> t;
            // B-11, B-12, I-7 for a side at home: exactly 30 bears off, a piece waiting on 30
            // leaves with any throw, and an overshoot bounces to 60 − s − t. With the bits of
            // `landing` reversed, square k is on bit 31 − k, so a shift left by 29 − t puts
            // square 60 − t − s on bit s.
            let reflected = landing.reverse_bits() << (29 - t);
            let at_home = own & (BIT30 >> t | waiting_room | bounce_origins(t) & reflected);
            // I-7 for a side not at home: exactly onto an empty 30, to wait there.
            let away = own & (empty & waiting_room) >> t;
            let home = own & !ROW3 == 0;
            let passing = (runs >> 1 & mask(t >= 4))
                | (runs >> 2 & mask(t >= 5))
                | (runs >> 3 & mask(t >= 6));
            let forward = (plain | if home { at_home } else { away }) & !passing;
            // B-9, I-6: backward by the throw when nothing goes forward, never below 1.
            let back_landing = if back_attack { landing } else { empty };
            let passing_back = (runs << 3 & mask(t >= 4))
                | (runs << 4 & mask(t >= 5))
                | (runs << 5 & mask(t >= 6));
            let backward = own & (back_landing << t & VALID) & !passing_back;
            let goes_forward = forward != 0;
            let origins = if goes_forward { forward } else { backward };
            self.origins[l] = origins;
            self.forward[l] = mask(goes_forward);
            // A pass is the one choice when nothing moves (B-9).
            choices[l] = origins.count_ones().max(1);
        }
    }

    /// The piece on the `pick`-th lowest origin moves by the throw: off from 30 exactly or
    /// from a waiting 30 (B-12, I-7), bounced back from 30 (B-12), on from 27 to the lowest
    /// empty square (B-10), swapping with an attacked piece (B-6); then the turn passes unless
    /// the throw gives another (B-4, B-9).
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
            let own = board.own[l];
            let opp = board.opp[l];
            let forward = self.forward[l] != 0;
            let home = own & !ROW3 == 0;
            let ahead = from << t;
            // Only a side at home bears off on reaching 30 (else the piece waits there, I-7);
            // a piece on 30 moving forward is a waiting one leaving.
            let leaves = forward & ((from == BIT30) | ((ahead == BIT30) & home));
            // The same reflection as in `generate`, for the one piece that moves.
            let bounced = from.reverse_bits() << (29 - t);
            let bounces = forward & (from & bounce_origins(t) != 0);
            let to = if bounces {
                bounced
            } else if forward {
                ahead
            } else {
                from >> t
            };
            let to = to & mask(!leaves);
            // B-10: 27 sends the piece on to the lowest empty square, the one just left
            // included; 27 is never occupied, so nothing is attacked there.
            let free = board.empty(l) | from;
            let lowest = free & free.wrapping_neg();
            let lands = if to == BIT27 { lowest } else { to };
            // B-6: the attacked piece goes to the square the attacker left.
            let hit = opp & lands;
            let opp = opp ^ hit | from & mask(hit != 0);
            let own = own & !from | lands;
            let moved = from != 0;
            let again = moved & ((t == 1) | (t == 4) | (t == 6));
            (won[l], _) = board.settle(l, (own, opp), leaves, u32::from(PIECES), again);
        }
    }

    /// B-14: the side to move bore off its last piece; the loser pays a point per piece on
    /// 21–30, two on 11–20, three on 1–10.
    fn outcome(&self, board: &SideLanes<LANES>, l: usize) -> Outcome {
        let (winner, _) = board.side_and_off(l);
        let penalty = SquareSet::from_bits_truncate(board.opp[l]).rows_to_go();
        Outcome {
            winner: Some(winner),
            points: PerSide::only(winner.opponent(), -penalty),
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
        let all = senet_core::option_combinations::<Botermans>().unwrap();
        let configurations = if cfg!(miri) {
            vec![Botermans::default()]
        } else {
            all
        };
        for rules in configurations {
            assert!(Lanes::covering(&rules).is_some(), "{}", rules.spec());
            assert_kernel_plays_scalar_games(&rules);
        }
    }

    #[test]
    fn the_bounce_arithmetic_agrees_with_the_generator() {
        for t in [1u32, 2, 3, 4, 6] {
            let range = SquareSet::range(31 - t as u8, 29).bits();
            assert_eq!(bounce_origins(t), range, "bounce origins of {t}");
            for s in 1..=30u32 {
                if range & 1 << s != 0 {
                    let to = crate::forward_target(s as u8, t as u8);
                    assert_eq!((1u32 << s).reverse_bits() << (29 - t), 1 << to, "{s}+{t}");
                }
            }
        }
    }
}
