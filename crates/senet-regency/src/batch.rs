//! The lock-step kernel of Regency's random games (see `senet_core::batch`): sixteen games
//! stored structure-of-arrays, each side's pieces a 32-bit square set, advanced together one
//! throw and one decision per step with the same bit arithmetic as the scalar move
//! generator, written lane by lane so that the compiler turns each loop into vector
//! instructions.
//!
//! It covers every configuration except `collect_throws` and the two exit options, which keep
//! the interleaved path. Game `i` draws from `streams(i)` word for word as the scalar playout
//! does: the throw takes one word (the top four bits are the sticks), and the choice one
//! `uniform_below` draw among the legal moves, a pass counting as the only move.
//!
//! The lane loops combine conditions with `&` and `|` rather than `&&` and `||`, and update
//! fields with arithmetic rather than selects of their old value: a short-circuit or a kept
//! old value becomes a masked load or store in vector code, which is slow on some CPUs.

use senet_core::batch::{BatchRun, LaneKernel};
use senet_core::rand_core::Rng;
use senet_core::{
    MAX_ACTIONS_PER_TURN, Outcome, PerSide, Playout, PlayoutEnd, Ruleset, Side, SquareSet,
    uniform_below,
};

use crate::{PIECES, Regency, SAFE_SQUARES};

/// Games in flight: two 256-bit vectors of 32-bit lanes.
const LANES: usize = 16;

const VALID: u32 = SquareSet::ALL.bits();
const ROW3: u32 = SquareSet::ROW3.bits();
const SAFE: u32 = SAFE_SQUARES.bits();
const BIT9: u32 = 1 << 9;
const BIT15: u32 = 1 << 15;
const BIT27: u32 = 1 << 27;
const BIT30: u32 = 1 << 30;
/// `last` of a lane whose game has not acted yet.
const NOBODY: u32 = 2;
const WHITE: u32 = Side::White as u32;
/// `ended` of a lane whose game goes on, was won in this step, or was stopped by the cap.
const PLAYING: u32 = 0;
const WON: u32 = 1;
const CAPPED: u32 = 2;

/// All ones when `condition` holds, else zero.
#[inline(always)]
fn mask(condition: bool) -> u32 {
    u32::from(condition).wrapping_neg()
}

/// Whether `rules` has a kernel here.
pub(crate) fn covers(rules: &Regency) -> bool {
    !rules.collect_throws && rules.exit() == crate::ExitRule::LandOnThirty
}

/// The lanes: the side to move's pieces and the other side's, the pieces each has borne off,
/// the side to move, whether White has opened, and what the turn counter and the
/// decision count of `senet_core::random_playout` keep.
pub(crate) struct Lanes<G, F, S> {
    rules: Regency,
    turn_cap: u32,
    streams: F,
    report: S,
    next: u64,
    end: u64,
    index: [u64; LANES],
    live: [bool; LANES],
    rng: [G; LANES],
    own: [u32; LANES],
    opp: [u32; LANES],
    own_off: [u32; LANES],
    opp_off: [u32; LANES],
    side: [u32; LANES],
    opened: [u32; LANES],
    last: [u32; LANES],
    run: [u32; LANES],
    turns: [u32; LANES],
    decisions: [u32; LANES],
    word: [u32; LANES],
    throw: [u32; LANES],
    origins: [u32; LANES],
    choices: [u32; LANES],
    pick: [u32; LANES],
    ended: [u32; LANES],
}

impl<G, F, S> Lanes<G, F, S>
where
    G: Rng,
    F: FnMut(u64) -> G,
    S: FnMut(u64, Playout),
{
    /// The lanes of `run`, filled with its first games (a lane with no game left plays a
    /// copy of the last one and reports nothing).
    pub(crate) fn new(rules: Regency, run: &BatchRun, mut streams: F, report: S) -> Self {
        let end = run.games.end;
        let last = end.saturating_sub(1);
        let index: [u64; LANES] = core::array::from_fn(|l| (run.games.start + l as u64).min(last));
        let mut lanes = Lanes {
            rules,
            turn_cap: run.turn_cap,
            rng: index.map(&mut streams),
            streams,
            report,
            next: run.games.start.saturating_add(LANES as u64).min(end),
            end,
            index,
            live: core::array::from_fn(|l| run.games.start + (l as u64) < end),
            own: [0; LANES],
            opp: [0; LANES],
            own_off: [0; LANES],
            opp_off: [0; LANES],
            side: [0; LANES],
            opened: [0; LANES],
            last: [0; LANES],
            run: [0; LANES],
            turns: [0; LANES],
            decisions: [0; LANES],
            word: [0; LANES],
            throw: [0; LANES],
            origins: [0; LANES],
            choices: [0; LANES],
            pick: [0; LANES],
            ended: [0; LANES],
        };
        for lane in 0..LANES {
            lanes.restart(lane);
        }
        lanes
    }

    /// Puts lane `l` at the start of its game.
    fn restart(&mut self, l: usize) {
        let start = self.rules.initial_state();
        let me = start.to_move;
        self.own[l] = start.board.pieces_of(me).bits();
        self.opp[l] = start.board.pieces_of(me.opponent()).bits();
        self.own_off[l] = u32::from(start.board.off_count(me));
        self.opp_off[l] = u32::from(start.board.off_count(me.opponent()));
        self.side[l] = me as u32;
        self.opened[l] = u32::from(start.white_opened());
        self.last[l] = NOBODY;
        self.run[l] = 0;
        self.turns[l] = 0;
        self.decisions[l] = 0;
    }

    /// The throws: one word each (drawn even by a lane whose game ends before it throws:
    /// that game draws nothing more, so the word is never seen).
    #[inline(always)]
    fn draw_throws(&mut self) {
        for (word, rng) in self.word.iter_mut().zip(&mut self.rng) {
            *word = rng.next_u32();
        }
    }

    /// Counts the throw's and the decision's actions as `TurnCounter` does, reads the sticks
    /// and computes the squares that can move (R-8 to, the options).
    #[inline(always)]
    fn generate(&mut self) {
        let cap = self.turn_cap;
        let happiness = self.rules.house_of_happiness;
        for l in 0..LANES {
            // The throw starts a turn when the other side acted last, or the run is full.
            let side = self.side[l];
            let fresh = (self.last[l] != side) | (self.run[l] >= MAX_ACTIONS_PER_TURN);
            let turns = self.turns[l] + u32::from(fresh);
            let run = if fresh { 1 } else { self.run[l] + 1 };
            // The decision belongs to the same turn unless the run is full.
            let full = run >= MAX_ACTIONS_PER_TURN;
            self.run[l] = if full { 1 } else { run + 1 };
            self.turns[l] = turns + u32::from(full);
            self.last[l] = side;
            let capped = (fresh & (turns > cap)) | (full & (turns + 1 > cap));
            self.ended[l] = if capped { CAPPED } else { PLAYING };

            let sticks = self.word[l] >> 28;
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
            let nine_first = (side == WHITE) & (self.opened[l] == 0) & (origins & BIT9 != 0);
            let origins = if nine_first { BIT9 } else { origins };
            self.origins[l] = origins;
            // A pass is the one choice when nothing moves.
            self.choices[l] = origins.count_ones().max(1);
        }
    }

    /// The choices: one `uniform_below` draw among the moves (a pass is the one choice when
    /// nothing moves).
    #[inline(always)]
    fn draw_choices(&mut self) {
        for ((pick, rng), &choices) in self.pick.iter_mut().zip(&mut self.rng).zip(&self.choices) {
            *pick = uniform_below(rng, choices);
        }
    }

    /// Plays the chosen moves: the piece on the `pick`-th lowest origin moves by the throw,
    /// swapping with an attacked piece, leaving on 30, leaving 27; then
    /// the turn passes unless the throw gives another. Marks the lanes whose game
    /// ended.
    #[inline(always)]
    fn play(&mut self) {
        let water = self.rules.house_of_water;
        let keep_lost = self.rules.lost_throw_keeps_extra_throw;
        for l in 0..LANES {
            let t = self.throw[l];
            let pick = self.pick[l];
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
            // A game stopped by the cap before this decision does not make it.
            let capped = self.ended[l] == CAPPED;
            self.decisions[l] += u32::from(!capped);
            self.ended[l] |= WON * u32::from(!capped & won);
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
    /// Returns false once no lane has a game.
    fn turn_over_ended(&mut self) -> bool {
        for l in 0..LANES {
            if self.ended[l] == PLAYING || !self.live[l] {
                continue;
            }
            let playout = if self.ended[l] == WON {
                // Won: the side to move bore off its last piece.
                let winner = if self.side[l] == WHITE {
                    Side::White
                } else {
                    Side::Black
                };
                let points = SquareSet::from_bits_truncate(self.opp[l]).rows_to_go();
                Playout {
                    end: PlayoutEnd::Finished(Outcome {
                        winner: Some(winner),
                        points: PerSide::only(winner, points),
                    }),
                    turns: self.turns[l],
                    decisions: self.decisions[l],
                }
            } else {
                Playout {
                    end: PlayoutEnd::TurnCap,
                    turns: self.turn_cap,
                    decisions: self.decisions[l],
                }
            };
            (self.report)(self.index[l], playout);
            if self.next < self.end {
                self.index[l] = self.next;
                self.rng[l] = (self.streams)(self.next);
                self.next += 1;
                self.restart(l);
            } else {
                self.live[l] = false;
            }
        }
        self.live.iter().any(|&live| live)
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
        if !self.live.iter().any(|&live| live) {
            return;
        }
        loop {
            self.draw_throws();
            self.generate();
            self.draw_choices();
            self.play();
            if self.ended.iter().any(|&ended| ended != PLAYING) && !self.turn_over_ended() {
                return;
            }
        }
    }
}
