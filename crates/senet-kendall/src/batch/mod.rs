//! The lock-step kernel of Kendall's random games with immediate throws (see
//! `senet_core::batch`): sixteen games stored structure-of-arrays and advanced together, one
//! throw and one decision per step, with the bit arithmetic of the scalar generator
//! (`Reach`) written lane by lane so that the compiler turns each loop into
//! vector instructions. The per-value tables of the scalar generator become arithmetic here,
//! since a table lookup per lane would be a gather; a test checks that both agree.
//!
//! It covers `throw_timing=immediate` with every other option except `starting_throw` (whose
//! lost throws make steps without a decision); [`actions`] has the kernel of the rest, whose
//! lanes throw apart and then decide together. Game `i`
//! draws from `streams(i)` word for word as the scalar playout does: one word for the throw,
//! one `uniform_below` draw among the moves in the order the generator lists them.

use senet_core::batch::{LaneRules, SideLanes, hand_over, pick_square, sticks, unpaired};
use senet_core::kernel::all_ones_if as mask;
use senet_core::{Outcome, Place, SquareSet};

use crate::{GATE, Kendall, LAST_THREE, MAX_PIECES, REBIRTH, ThrowTiming, UP_TO_GATE, WATER};

pub(crate) mod actions;

/// Games in flight: two 256-bit vectors of 32-bit lanes.
const LANES: usize = 16;

const ROW1: u32 = SquareSet::ROW1.bits();
const TO_GATE: u32 = UP_TO_GATE.bits();
const LAST3: u32 = LAST_THREE.bits();
const BIT_GATE: u32 = 1 << GATE;
const BIT_WATER: u32 = 1 << WATER;
const BIT_REBIRTH: u32 = 1 << REBIRTH;
/// The squares below the gate, 1–25.
const BELOW_GATE: u32 = BIT_GATE - 2;
/// The squares 27–30.
const WATER_AND_LAST3: u32 = BIT_WATER | LAST3;

/// The squares from which a forward move of `v` would pass 26 (option trap): 27 − v to 25.
#[inline(always)]
fn trap_origins(v: u32) -> u32 {
    BELOW_GATE & !((1 << (GATE as u32 + 1 - v)) - 1)
}

/// The squares 28–30 from which `v` bears off (K-11): 30 always, 29 with 2, 28 with 3.
#[inline(always)]
fn exits_28_to_30(v: u32) -> u32 {
    1 << 30 | u32::from(v == 2) << 29 | u32::from(v == 3) << 28
}

/// Every square a forward move of `v` bears off from: K-11's, and 26 with a 5 (K-10).
#[inline(always)]
fn exits(v: u32) -> u32 {
    exits_28_to_30(v) | u32::from(v == 5) << GATE
}

/// What a move on the board does to one lane (`Kendall::apply_step` on raw bits).
struct BoardMove {
    /// The mover's pieces and the other side's after the move.
    own: u32,
    opp: u32,
    /// Where the other side's piece that must move next (K-15) stands after it.
    opp_must: u32,
    /// Whether a piece left the board.
    leaves: bool,
    /// Whether the move ended the turn by entering the water (K-13).
    ends_turn: bool,
}

/// The move of the mover's piece on `from` (a one-bit set; none for a pass) by `v`, forward or
/// `backward`, on a lane where the mover has `own` and the other side `opp`, whose K-15 piece
/// is `opp_must` (K-6, K-10 to K-13, option trap).
#[inline(always)]
fn board_move(own: u32, opp: u32, opp_must: u32, from: u32, v: u32, backward: bool) -> BoardMove {
    let leaves = !backward & ((from & LAST3 != 0) | ((from == BIT_GATE) & (v == 5)));
    let to = if backward { from >> v } else { from << v };
    // Option trap: a move from below the gate past it falls into the water (K-13).
    let falls = !backward & (from & BELOW_GATE != 0) & (to > BIT_GATE);
    let steps = (from != 0) & !leaves & !falls;
    // K-6: the attacked piece goes to the mover's square, or into the water when attacked
    // from 26 on 28–30 (K-12).
    let hit = steps & (opp & to != 0);
    let victim_to = if (from == BIT_GATE) & (to & LAST3 != 0) {
        BIT_WATER
    } else {
        from
    };
    let land = if falls { BIT_WATER } else { to & mask(steps) };
    BoardMove {
        own: own & !from | land,
        opp: if hit { opp & !to | victim_to } else { opp },
        // The other side's K-15 piece is followed when it is swapped away.
        opp_must: if hit & (opp_must == to) {
            from
        } else {
            opp_must
        },
        leaves,
        ends_turn: falls | (steps & (to == BIT_WATER)),
    }
}

/// The mover's pieces after its piece in the water goes off (`off_now`) or back to 15
/// (`back_now`), or stays (K-14).
#[inline(always)]
fn water_move(own: u32, off_now: bool, back_now: bool) -> u32 {
    own & !(BIT_WATER & mask(off_now | back_now)) | BIT_REBIRTH & mask(back_now)
}

/// How the game of lane `l` ended when its mover bore off its last piece: K-17, the points
/// being the pieces each side bore off.
fn outcome(board: &SideLanes<LANES>, l: usize) -> Outcome {
    let (winner, off) = board.side_and_off(l);
    Outcome {
        winner: Some(winner),
        points: off.map(i32::from),
    }
}

/// What Kendall's lanes remember beside the boards: the piece each side must move next
/// (K-15, as a bit; 0 for none), seen from the side to act; then the step's throw and what
/// the generator found.
pub(crate) struct Lanes {
    rules: Kendall,
    own_must: [u32; LANES],
    opp_must: [u32; LANES],
    throw: [u32; LANES],
    /// The pieces that may move (outside the water).
    movable: [u32; LANES],
    /// All ones when `movable` moves backward (K-5).
    backward: [u32; LANES],
    /// All ones when the side's piece in the water is the only one that may move (K-14).
    in_water: [u32; LANES],
    /// In the water: all ones when a 4 may bear the piece off, and when 15 is empty.
    water_off: [u32; LANES],
    water_back: [u32; LANES],
}

impl Lanes {
    /// The lanes of `rules`, if it has a kernel: immediate throws without `starting_throw`.
    pub(crate) fn covering(rules: &Kendall) -> Option<Lanes> {
        let covered = rules.throw_timing == ThrowTiming::Immediate && !rules.starting_throw;
        covered.then_some(Lanes {
            rules: *rules,
            own_must: [0; LANES],
            opp_must: [0; LANES],
            throw: [0; LANES],
            movable: [0; LANES],
            backward: [0; LANES],
            in_water: [0; LANES],
            water_off: [0; LANES],
            water_back: [0; LANES],
        })
    }
}

impl LaneRules<LANES> for Lanes {
    fn restart(&mut self, l: usize) {
        // K-15: no piece has come back from the water at the start.
        self.own_must[l] = 0;
        self.opp_must[l] = 0;
    }

    /// Reads the sticks (K-2) and finds the moves of the throw (K-5 to K-16, I-1, I-2, I-6,
    /// the options), as `generate_moves` lists them, and their number.
    #[inline(always)]
    fn generate(
        &mut self,
        board: &SideLanes<LANES>,
        words: &[u32; LANES],
        choices: &mut [u32; LANES],
    ) {
        let home_row = self.rules.home_row;
        let trap = self.rules.trap;
        for l in 0..LANES {
            let v = sticks(words[l], 5);
            self.throw[l] = v;

            let own = board.own[l];
            let opp = board.opp[l];
            let bear_off = !home_row | (own & ROW1 == 0);
            let empty = board.empty(l);
            let water_empty = empty & BIT_WATER != 0;
            let rebirth_empty = empty & BIT_REBIRTH != 0;

            // K-14: the piece in the water may bear off with a 4 or go back to 15, each
            // followed by `pass/v`; with neither, a plain pass.
            let in_water = (own & BIT_WATER != 0) & (bear_off | rebirth_empty);
            let water_off = bear_off & (v == 4);
            let water_choices = if water_off | rebirth_empty {
                u32::from(water_off) + u32::from(rebirth_empty) + 1
            } else {
                1
            };

            // K-6, K-7, K-9 to K-12, option trap: as `Reach::forward` and `Reach::backward`.
            let attackable = unpaired(opp);
            let landable = (empty | attackable) & TO_GATE;
            let gate_targets = (empty & WATER_AND_LAST3) | (attackable & LAST3 & mask(water_empty));
            let from_gate = gate_targets | u32::from(bear_off) << Place::OFF_CODE;
            let forward = own
                & (landable >> v
                    | trap_origins(v) & mask(trap & water_empty)
                    | (from_gate >> (GATE as u32 + v) & 1) << GATE
                    | exits_28_to_30(v) & mask(bear_off));
            let backward = forward == 0;
            let reachable = if backward {
                own & TO_GATE & landable << v
            } else {
                forward
            };
            // K-15: the piece back from the water moves next, if it can.
            let must = self.own_must[l];
            let movable = if reachable & must != 0 {
                must
            } else {
                reachable
            };
            // K-16: a bear-off may be declined (`pass/v`, listed after the moves).
            let declinable = !backward & (movable & exits(v) != 0);
            let moves = movable.count_ones() + u32::from(declinable);

            self.movable[l] = movable;
            self.backward[l] = mask(backward);
            self.in_water[l] = mask(in_water);
            self.water_off[l] = mask(water_off);
            self.water_back[l] = mask(rebirth_empty);
            choices[l] = if in_water {
                water_choices
            } else {
                moves.max(1)
            };
        }
    }

    /// Plays the chosen moves (`apply_step` lane by lane) and passes the turn unless the throw
    /// gives another (K-4 with immediate throws, K-13, K-14).
    #[inline(always)]
    fn play(
        &mut self,
        board: &mut SideLanes<LANES>,
        picks: &[u32; LANES],
        won: &mut [bool; LANES],
    ) {
        let pieces = u32::from(self.rules.pieces.get());
        for l in 0..LANES {
            let v = self.throw[l];
            let pick = picks[l];
            let own = board.own[l];
            let opp = board.opp[l];

            // Outside the water: the `pick`-th lowest movable piece (none when `pick` is
            // the declined bear-off or the plain pass).
            let from = pick_square::<{ MAX_PIECES as u32 }>(self.movable[l], pick);
            let opp_must = self.opp_must[l];
            let moved = board_move(own, opp, opp_must, from, v, self.backward[l] != 0);

            // In the water: off with a 4, back to 15 (which ends the turn and must move
            // next), or `pass/v`, in that order.
            let water_off = self.water_off[l] != 0;
            let off_now = water_off & (pick == 0);
            let back_now = (self.water_back[l] != 0) & (pick == u32::from(water_off));

            let in_water = self.in_water[l] != 0;
            let own = if in_water {
                water_move(own, off_now, back_now)
            } else {
                moved.own
            };
            let opp = if in_water { opp } else { moved.opp };
            let leaves = if in_water { off_now } else { moved.leaves };
            let ends_turn = if in_water { back_now } else { moved.ends_turn };
            self.opp_must[l] = if in_water { opp_must } else { moved.opp_must };
            // The mover's obligation is over whatever it does (K-15), unless it starts now.
            let own_must = BIT_REBIRTH & mask(in_water & back_now);

            let again = !ends_turn & ((v == 1) | (v == 4) | (v == 5));
            let (won_now, pass_on) = board.settle(l, (own, opp), leaves, pieces, again);
            won[l] = won_now;
            (self.own_must[l], self.opp_must[l]) = hand_over(pass_on, own_must, self.opp_must[l]);
        }
    }

    fn outcome(&self, board: &SideLanes<LANES>, l: usize) -> Outcome {
        outcome(board, l)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{EXITS, EXITS_28_TO_30, TRAP_ORIGINS};
    use senet_testkit::batch::assert_kernel_plays_scalar_games;

    #[test]
    fn the_kernel_plays_the_scalar_games() {
        let rules = Kendall::default().with_throw_timing(ThrowTiming::Immediate);
        assert!(Lanes::covering(&rules).is_some());
        assert_kernel_plays_scalar_games(&rules);
    }

    #[test]
    fn the_arithmetic_agrees_with_the_generator_tables() {
        for v in 1..=5u32 {
            let i = v as usize;
            assert_eq!(trap_origins(v), TRAP_ORIGINS[i], "trap origins of {v}");
            assert_eq!(
                exits_28_to_30(v),
                EXITS_28_TO_30[i],
                "exits of {v} from 28-30"
            );
            assert_eq!(exits(v), EXITS[i], "exits of {v}");
        }
    }
}
