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

use senet_core::batch::{BatchRun, LaneBook, LaneKernel, PLAYING, WON};
use senet_core::rand_core::Rng;
use senet_core::{Outcome, PerSide, Playout, Ruleset, Side, SquareSet};

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

/// All ones when `condition` holds, else zero.
#[inline(always)]
fn mask(condition: bool) -> u32 {
    u32::from(condition).wrapping_neg()
}

/// Whether `rules` has a kernel here.
pub(crate) fn covers(rules: &Regency) -> bool {
    !rules.collect_throws && rules.exit() == ExitRule::LandOnThirty
}

/// The lanes: the side to move's pieces and the other side's, the pieces each has borne off,
/// the side to move and whether White has opened, then the step's throw and the squares
/// that can move.
pub(crate) struct Lanes<G, F, S> {
    rules: Regency,
    book: LaneBook<G, F, S, LANES>,
    own: [u32; LANES],
    opp: [u32; LANES],
    own_off: [u32; LANES],
    opp_off: [u32; LANES],
    side: [u32; LANES],
    opened: [u32; LANES],
    throw: [u32; LANES],
    origins: [u32; LANES],
}

impl<G, F, S> Lanes<G, F, S>
where
    G: Rng,
    F: FnMut(u64) -> G,
    S: FnMut(u64, Playout),
{
    /// The lanes of `run`, each at the start of its first game.
    pub(crate) fn new(rules: Regency, run: &BatchRun, streams: F, report: S) -> Self {
        let mut lanes = Lanes {
            rules,
            book: LaneBook::new(run, streams, report),
            own: [0; LANES],
            opp: [0; LANES],
            own_off: [0; LANES],
            opp_off: [0; LANES],
            side: [0; LANES],
            opened: [0; LANES],
            throw: [0; LANES],
            origins: [0; LANES],
        };
        for lane in 0..LANES {
            lanes.restart(lane);
        }
        lanes
    }

    /// Puts lane `l` at the start of a game.
    fn restart(&mut self, l: usize) {
        let start = self.rules.initial_state();
        let me = start.to_move;
        self.own[l] = start.board.pieces_of(me).bits();
        self.opp[l] = start.board.pieces_of(me.opponent()).bits();
        self.own_off[l] = u32::from(start.board.off_count(me));
        self.opp_off[l] = u32::from(start.board.off_count(me.opponent()));
        self.side[l] = me as u32;
        self.opened[l] = u32::from(start.white_opened());
    }

    /// Reads the sticks and computes the squares that can move (R-8 to, the
    /// options) and the number of choices.
    #[inline(always)]
    fn generate(&mut self) {
        let happiness = self.rules.house_of_happiness;
        for l in 0..LANES {
            let sticks = self.book.word[l] >> 28;
            let marked = (sticks & 1) + (sticks >> 1 & 1) + (sticks >> 2 & 1) + (sticks >> 3);
            let t = if marked == 0 { 6 } else { marked };
            self.throw[l] = t;

            let own = self.own[l];
            let opp = self.opp[l];
            let bearing_off = own & !ROW3 == 0;
            let protected = opp & (opp << 1 | opp >> 1);
            let attackable = opp & !protected & !SAFE;
            let mut landing = (!(own | opp) & VALID) | attackable;
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
                (self.side[l] == WHITE) & (self.opened[l] == 0) & (origins & BIT9 != 0);
            let origins = if nine_first { BIT9 } else { origins };
            self.origins[l] = origins;
            // A pass is the one choice when nothing moves.
            self.book.choices[l] = origins.count_ones().max(1);
        }
    }

    /// Plays the chosen moves: the piece on the `pick`-th lowest origin moves by the throw,
    /// swapping with an attacked piece, leaving on 30, leaving 27; then
    /// the turn passes unless the throw gives another.
    #[inline(always)]
    fn play(&mut self) {
        let water = self.rules.house_of_water;
        let keep_lost = self.rules.lost_throw_keeps_extra_throw;
        for l in 0..LANES {
            let t = self.throw[l];
            let pick = self.book.pick[l];
            let mut rest = self.origins[l];
            for skip in 0..PIECES as u32 - 1 {
                rest &= if skip < pick {
                    rest.wrapping_sub(1)
                } else {
                    !0
                };
            }
            let from = rest & rest.wrapping_neg();
            let to = from << t;
            let own = self.own[l];
            let opp = self.opp[l];
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
            let own_off = self.own_off[l] + u32::from(leaves);
            let moved = from != 0;
            let extra_value = (t == 1) | (t == 4) | (t == 6);
            let again = extra_value & (moved | keep_lost);
            let won = own_off >= u32::from(PIECES);
            self.opened[l] |= u32::from(moved & (self.side[l] == WHITE));
            self.book.count_decision(l, won);
            let pass_on = !again & !won;
            let opp_off = self.opp_off[l];
            self.own[l] = if pass_on { opp } else { own };
            self.opp[l] = if pass_on { own } else { opp };
            self.own_off[l] = if pass_on { opp_off } else { own_off };
            self.opp_off[l] = if pass_on { own_off } else { opp_off };
            self.side[l] ^= u32::from(pass_on);
        }
    }

    /// Reports the games that ended in this step and starts the next ones in their lanes.
    fn retire_ended(&mut self) {
        for l in 0..LANES {
            let outcome = (self.book.ended[l] == WON).then(|| {
                // the side to move bore off its last piece and scores.
                let winner = if self.side[l] == WHITE {
                    Side::White
                } else {
                    Side::Black
                };
                let points = SquareSet::from_bits_truncate(self.opp[l]).rows_to_go();
                Outcome {
                    winner: Some(winner),
                    points: PerSide::only(winner, points),
                }
            });
            if self.book.ended[l] != PLAYING && self.book.retire(l, outcome) {
                self.restart(l);
            }
        }
    }
}

impl<G, F, S> LaneKernel for Lanes<G, F, S>
where
    G: Rng,
    F: FnMut(u64) -> G,
    S: FnMut(u64, Playout),
{
    #[inline(always)]
    fn run(&mut self) {
        while self.book.any_live() {
            self.book.draw_throws();
            self.book.count_actions(&self.side);
            self.generate();
            self.book.draw_choices();
            self.play();
            if self.book.any_ended() {
                self.retire_ended();
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use senet_core::batch::Instructions;
    use senet_testkit::batch::assert_batch_plays_scalar_games;

    /// Under Miri, which runs the baseline path (it takes no vector instructions) a million
    /// times slower, a few games stopped early; otherwise whole games.
    const GAMES: u64 = if cfg!(miri) { 3 } else { 300 };
    const TURN_CAP: u32 = if cfg!(miri) {
        30
    } else {
        senet_core::DEFAULT_TURN_CAP
    };

    #[test]
    fn the_kernel_plays_the_scalar_games() {
        let rules = Regency::default();
        assert!(covers(&rules));
        for instructions in [Instructions::Baseline, Instructions::Detect] {
            let run = BatchRun::new(0..GAMES)
                .with_turn_cap(TURN_CAP)
                .with_instructions(instructions);
            let (finished, capped) = assert_batch_plays_scalar_games(&rules, &run, 5);
            assert_eq!(finished + capped, GAMES);
        }
    }
}
