//! The lock-step kernel of Kendall's random games with stored throws, and with immediate
//! throws under `starting_throw` (see `senet_core::batch::LaneActions`): a turn throws until
//! a 2 or 3 and then spends the stored throws one move at a time, and `starting_throw` loses
//! throws without a move, so a step first lets the lanes whose side throws throw until they
//! have to decide, and then makes one decision in every lane.
//!
//! It covers every configuration the kernel of immediate throws (the parent module) does
//! not. A lane finds the moves of each of the five throw values at once, as the scalar
//! generator lists them for the values it holds (ascending values, each with its pieces from
//! the lowest square, then the declined bear-off), and plays the pick-th. Game `i` draws from
//! `streams(i)` word for word as the scalar playout does: one word for a throw, one
//! `uniform_below` draw for a decision.

use senet_core::batch::{
    LaneActions, SideLanes, WordsAhead, hand_over, pick_square, sticks, unpaired,
};
use senet_core::kernel::all_ones_if as mask;
use senet_core::{Outcome, Place, Side};

use super::{
    BIT_REBIRTH, BIT_WATER, LANES, LAST3, ROW1, TO_GATE, WATER_AND_LAST3, board_move, exits,
    exits_28_to_30, outcome, trap_origins, water_move,
};
use crate::{GATE, Kendall, MAX_PIECES, MAX_STORED_THROWS, ThrowTiming};

/// The throw values (K-2).
const VALUES: usize = 5;

/// The six bits of value `v` (1..=5) in a [`StoredThrows`](crate::state::StoredThrows) word.
#[inline(always)]
const fn unit(v: u32) -> u32 {
    1 << (6 * (v - 1))
}

/// How many throws a [`StoredThrows`](crate::state::StoredThrows) word holds: the sum of its
/// five six-bit counts (none of which reaches 64).
#[inline(always)]
const fn total(stored: u32) -> u32 {
    (stored & 63) + (stored >> 6 & 63) + (stored >> 12 & 63) + (stored >> 18 & 63) + (stored >> 24)
}

/// The six bits of every value that gives another throw (K-4: 1, 4 and 5).
const ANOTHER_THROW_VALUES: u32 = 63 * (unit(1) | unit(4) | unit(5));

/// What Kendall's lanes remember beside the boards when throws are stored: whether the side to
/// act is still throwing, the throws it holds, the piece each side must move next (K-15, seen
/// from the side to act), and whether White has thrown its starting 1; then what the last
/// [`prepare`](LaneActions::prepare) found for each throw value, and the intermediate results
/// of a step.
///
/// A step runs as several short loops over the lanes, each writing its results to lanes of
/// its own, rather than one long loop: one loop per throw value, with the value a constant,
/// and few values alive at a time, so that the vector registers hold them all (one long loop
/// kept spilling its values to the stack).
pub(crate) struct ActionLanes {
    rules: Kendall,
    /// All ones while the side to act throws.
    throwing: [u32; LANES],
    /// The throws the side to act holds, six bits a value as
    /// [`StoredThrows`](crate::state::StoredThrows) keeps them.
    stored: [u32; LANES],
    own_must: [u32; LANES],
    opp_must: [u32; LANES],
    /// Option `starting_throw`: 1 once White has thrown its 1.
    white_started: [u32; LANES],
    /// Squares an ordinary move may land on (`Reach::landable` of the scalar generator).
    landable: [u32; LANES],
    /// Bit `26 + v` when the piece on 26 may move with `v`, as `Reach::from_gate`.
    from_gate: [u32; LANES],
    /// All ones when option trap is on and 27 is empty.
    trap_now: [u32; LANES],
    /// Every piece that some value held can move (for K-15).
    reach: [u32; LANES],
    /// Per value `v` (index `v − 1`): all ones when a throw of `v` is held.
    held_value: [[u32; LANES]; VALUES],
    /// Per value: the pieces that may move with it (none when no throw of `v` is held),
    /// forward or backward.
    movable: [[u32; LANES]; VALUES],
    /// Per value: all ones when its moves go backward (K-5).
    backward: [[u32; LANES]; VALUES],
    /// Per value: how many moves it has, the declined bear-off or the water's ways included.
    count: [[u32; LANES]; VALUES],
    /// All moves of the values held.
    moves: [u32; LANES],
    /// All ones when the side's piece in the water is the only one that may move (K-14).
    in_water: [u32; LANES],
    /// All ones when the side may bear off (option `home_row`).
    bear_off: [u32; LANES],
    /// All ones when 15 is empty (a piece in the water may go back there).
    rebirth_empty: [u32; LANES],
    /// The step's decision: the value spent (0 for a plain pass), the piece that moves (none
    /// for a pass), whether it moves backward (all ones), and the pick within the value.
    value: [u32; LANES],
    from: [u32; LANES],
    back: [u32; LANES],
    local: [u32; LANES],
}

impl ActionLanes {
    /// The lanes of `rules`, if this kernel covers it: stored throws, or immediate throws
    /// with `starting_throw`.
    pub(crate) fn covering(rules: &Kendall) -> Option<ActionLanes> {
        let covered = rules.throw_timing == ThrowTiming::Stored || rules.starting_throw;
        let lanes = [0; LANES];
        let values = [lanes; VALUES];
        covered.then_some(ActionLanes {
            rules: *rules,
            throwing: lanes,
            stored: lanes,
            own_must: lanes,
            opp_must: lanes,
            white_started: lanes,
            landable: lanes,
            from_gate: lanes,
            trap_now: lanes,
            reach: lanes,
            held_value: values,
            movable: values,
            backward: values,
            count: values,
            moves: lanes,
            in_water: lanes,
            bear_off: lanes,
            rebirth_empty: lanes,
            value: lanes,
            from: lanes,
            back: lanes,
            local: lanes,
        })
    }

    /// The pieces that may move with a throw of `V` if one is held (K-5, K-6, K-8 to K-11,
    /// option trap; `Reach::forward`, else `Reach::backward`).
    #[inline(always)]
    fn reach_with<const V: u32>(&mut self, board: &SideLanes<LANES>) {
        let i = V as usize - 1;
        for l in 0..LANES {
            let own = board.own[l];
            let landable = self.landable[l];
            let held = mask(self.stored[l] >> (6 * i) & 63 != 0);
            let forward = own
                & (landable >> V
                    | trap_origins(V) & self.trap_now[l]
                    | (self.from_gate[l] >> (GATE as u32 + V) & 1) << GATE
                    | exits_28_to_30(V) & self.bear_off[l]);
            let back = mask(forward == 0);
            let set = (forward | own & TO_GATE & landable << V & back) & held;
            self.reach[l] |= set;
            self.held_value[i][l] = held;
            self.movable[i][l] = set;
            self.backward[i][l] = back;
        }
    }

    /// Whether lane `l`'s side is White before its first 1 (option `starting_throw`: its
    /// throws are lost until then).
    #[inline(always)]
    fn white_waits(&self, board: &SideLanes<LANES>, l: usize) -> bool {
        (board.side[l] == Side::White as u32) & (self.white_started[l] == 0)
    }

    /// Passes the turn in the lanes whose throws ended it without a move (`starting_throw`,
    /// or 60 throws held), one lane at a time: it is rare, and a select of the boards' own
    /// values across all lanes would become masked stores.
    #[cold]
    fn pass_after_throws(&mut self, board: &mut SideLanes<LANES>, ends: &[bool; LANES]) {
        let pieces = u32::from(self.rules.pieces.get());
        for l in (0..LANES).filter(|&l| ends[l]) {
            let (own, opp) = (board.own[l], board.opp[l]);
            board.settle(l, (own, opp), false, pieces, false);
            (self.own_must[l], self.opp_must[l]) = (self.opp_must[l], self.own_must[l]);
        }
    }

    /// The moves of a throw of `V` once K-15 has restricted the pieces to `only`: one per
    /// piece and the declined bear-off (K-16), or in the water (K-14) off with a 4, back to
    /// 15 and `pass/v`, where the water has a way out.
    #[inline(always)]
    fn count_with<const V: u32>(&mut self, only: &[u32; LANES], water_ways: &[u32; LANES]) {
        let i = V as usize - 1;
        for l in 0..LANES {
            let set = self.movable[i][l] & only[l];
            let declinable = set & exits(V) & !self.backward[i][l] != 0;
            let board_count = set.count_ones() + u32::from(declinable);
            let water_count =
                (self.bear_off[l] & u32::from(V == 4)) + (self.rebirth_empty[l] & 1) + 1;
            let count = board_count & !self.in_water[l]
                | water_count & water_ways[l] & self.held_value[i][l];
            self.movable[i][l] = set;
            self.count[i][l] = count;
            self.moves[l] += count;
        }
    }
}

impl LaneActions<LANES> for ActionLanes {
    fn restart(&mut self, l: usize) {
        // I-5: Black throws afresh; nothing is held and no piece has been in the water.
        self.throwing[l] = !0;
        self.stored[l] = 0;
        self.own_must[l] = 0;
        self.opp_must[l] = 0;
        self.white_started[l] = u32::from(!self.rules.starting_throw);
    }

    /// Finds the moves of every throw value held (K-5 to K-16, I-1, I-2, I-6, the options),
    /// as `generate_moves` lists them, and their number.
    #[inline(always)]
    fn prepare(&mut self, board: &SideLanes<LANES>, choices: &mut [u32; LANES]) {
        let home_row = self.rules.home_row;
        let trap = self.rules.trap;
        // What every value shares (`Reach::new` of the scalar generator).
        for l in 0..LANES {
            let own = board.own[l];
            let opp = board.opp[l];
            let bear_off = !home_row | (own & ROW1 == 0);
            let empty = board.empty(l);
            let water_empty = empty & BIT_WATER != 0;
            let rebirth_empty = empty & BIT_REBIRTH != 0;
            // K-6, K-7, K-9 to K-12.
            let attackable = unpaired(opp);
            let gate_targets = (empty & WATER_AND_LAST3) | (attackable & LAST3 & mask(water_empty));
            self.landable[l] = (empty | attackable) & TO_GATE;
            self.from_gate[l] = gate_targets | u32::from(bear_off) << Place::OFF_CODE;
            self.trap_now[l] = mask(trap & water_empty);
            self.bear_off[l] = mask(bear_off);
            self.rebirth_empty[l] = mask(rebirth_empty);
            // K-14: the piece in the water is the only one that may move while it has a way
            // out.
            self.in_water[l] = mask((own & BIT_WATER != 0) & (bear_off | rebirth_empty));
            self.reach[l] = 0;
            self.moves[l] = 0;
        }
        self.reach_with::<1>(board);
        self.reach_with::<2>(board);
        self.reach_with::<3>(board);
        self.reach_with::<4>(board);
        self.reach_with::<5>(board);
        // K-15: the piece back from the water moves next, with any throw that can move it.
        // In the water (K-14): a plain pass when neither going off with a 4 nor back to 15 is
        // possible with any throw held.
        let mut only = [0; LANES];
        let mut water_ways = [0; LANES];
        for l in 0..LANES {
            let must = self.own_must[l];
            only[l] = must | !mask(self.reach[l] & must != 0);
            let can_bear_off = self.bear_off[l] & self.held_value[3][l];
            water_ways[l] = self.in_water[l] & (self.rebirth_empty[l] | can_bear_off);
        }
        self.count_with::<1>(&only, &water_ways);
        self.count_with::<2>(&only, &water_ways);
        self.count_with::<3>(&only, &water_ways);
        self.count_with::<4>(&only, &water_ways);
        self.count_with::<5>(&only, &water_ways);
        for (l, choices) in choices.iter_mut().enumerate() {
            // K-5: with no move for any throw held, a plain pass loses them all.
            *choices = self.moves[l].max(1);
        }
    }

    #[inline(always)]
    fn throwing(&self, throws: &mut [bool; LANES]) {
        for (throws, &throwing) in throws.iter_mut().zip(&self.throwing) {
            *throws = throwing != 0;
        }
    }

    /// K-4 with stored throws, all at once: the side throws on until a 2 or a 3 and keeps
    /// every throw while fewer than 60 are held. Taken here where the words ahead hold the 2
    /// or 3, the 60 are not reached and option `starting_throw` does not hold White back;
    /// immediate throws go one at a time.
    #[inline(always)]
    fn throw_ahead(
        &mut self,
        board: &SideLanes<LANES>,
        ahead: &WordsAhead<LANES>,
        throws: &[bool; LANES],
        taken: &mut [u32; LANES],
    ) {
        if self.rules.throw_timing == ThrowTiming::Immediate {
            return;
        }
        let starting_throw = self.rules.starting_throw;
        for l in 0..LANES {
            // The marked sticks of each word ahead (K-2), bit-sliced: bit i of c0, c1 and c2
            // are the three bits of the number that word i shows.
            let [p0, p1, p2, p3] = [0, 1, 2, 3].map(|b| ahead.planes[b][l]);
            let (s01, k01) = (p0 ^ p1, p0 & p1);
            let (s23, k23) = (p2 ^ p3, p2 & p3);
            let c0 = s01 ^ s23;
            let k0 = s01 & s23;
            let c1 = k01 ^ k23 ^ k0;
            let c2 = k01 & k23 | (k01 ^ k23) & k0;
            let valid = u32::MAX >> (32 - ahead.available[l].clamp(1, 32));
            let last = c1 & !c2 & valid;
            // The throws up to and with the first 2 or 3.
            let n = (last | 1 << 31).trailing_zeros() + 1;
            let before = u32::MAX >> (32 - n) >> 1;
            let ones = c0 & !c1 & !c2;
            let fives = !(c0 | c1 | c2);
            let last_value = unit(2) << (6 * (c0 >> (n - 1) & 1));
            let added = (ones & before).count_ones() * unit(1)
                + (c2 & before).count_ones() * unit(4)
                + (fives & before).count_ones() * unit(5)
                + last_value;

            let stored = self.stored[l];
            let waits = starting_throw & self.white_waits(board, l);
            let fits = total(stored) + n <= u32::from(MAX_STORED_THROWS);
            let all_at_once = mask(throws[l] & (last != 0) & !waits & fits);
            taken[l] = n & all_at_once;
            // `throwing` stays set: the step leaves these lanes alone until they decide.
            self.stored[l] = stored + (added & all_at_once);
        }
    }

    /// Throws (K-2, K-4, option `starting_throw`): stored, a throw is kept while fewer than 60
    /// are held, and the side throws on until a 2 or 3; immediate, it is used at once. The
    /// turn passes when nothing is held once the throws are over.
    #[inline(always)]
    fn throw(
        &mut self,
        board: &mut SideLanes<LANES>,
        words: &[u32; LANES],
        throws: &[bool; LANES],
    ) {
        let starting_throw = self.rules.starting_throw;
        let immediate = self.rules.throw_timing == ThrowTiming::Immediate;
        let mut ends = [false; LANES];
        let mut any_ends = false;
        for l in 0..LANES {
            let throws = throws[l];
            let stored = self.stored[l];
            let thrown = sticks(words[l], 5);
            // Option starting_throw: White's throws before its first 1 are lost.
            let waits = starting_throw & self.white_waits(board, l);
            self.white_started[l] |= u32::from(throws & waits & (thrown == 1));
            let counts = !waits | (thrown == 1);
            let last_throw = (thrown == 2) | (thrown == 3);
            let kept = counts & (immediate | (total(stored) < u32::from(MAX_STORED_THROWS)));
            let throw_stored = if immediate { 0 } else { stored } + unit(thrown) * u32::from(kept);
            let throw_ends = if immediate {
                !counts & last_throw
            } else {
                last_throw & (throw_stored == 0)
            };
            let throws_on = if immediate { !counts } else { !last_throw };

            ends[l] = throws & throw_ends;
            any_ends |= ends[l];
            let new_stored = throw_stored & mask(!throw_ends);
            let keep = mask(!throws);
            self.stored[l] = new_stored & !keep | stored & keep;
            let still = mask(throws_on | throw_ends);
            self.throwing[l] = still & !keep | self.throwing[l] & keep;
        }
        if any_ends {
            self.pass_after_throws(board, &ends);
        }
    }

    /// Plays the chosen move (`apply_step` lane by lane) and passes the turn when its throws
    /// are spent or the move ends it (K-4, K-13, K-14).
    #[inline(always)]
    fn decide(
        &mut self,
        board: &mut SideLanes<LANES>,
        picks: &[u32; LANES],
        won: &mut [bool; LANES],
    ) {
        let pieces = u32::from(self.rules.pieces.get());
        let immediate = self.rules.throw_timing == ThrowTiming::Immediate;

        // The value whose moves hold the pick, the pick among them, and outside the water
        // the piece it moves (none for the declined bear-off or a plain pass).
        for (l, &pick) in picks.iter().enumerate() {
            let mut before = 0;
            let mut v = 0;
            let mut first = 0;
            let mut set = 0;
            let mut back = 0;
            for i in 0..VALUES {
                let count = self.count[i][l];
                let here = mask(pick.wrapping_sub(before) < count);
                v |= here & (i as u32 + 1);
                first |= here & before;
                set |= here & self.movable[i][l];
                back |= here & self.backward[i][l];
                before += count;
            }
            let local = pick - first;
            self.value[l] = v;
            self.local[l] = local;
            self.back[l] = back;
            self.from[l] = pick_square::<{ MAX_PIECES as u32 }>(set, local);
        }

        for (l, won) in won.iter_mut().enumerate() {
            let stored = self.stored[l];
            let own = board.own[l];
            let opp = board.opp[l];
            let v = self.value[l];
            let local = self.local[l];
            let from = self.from[l];
            // Nothing held can move: a plain pass.
            let plain = v == 0;
            let opp_must = self.opp_must[l];
            let moved = board_move(own, opp, opp_must, from, v, self.back[l] != 0);

            // In the water: off with a 4, back to 15 (which ends the turn and must move
            // next), or `pass/v`, in that order within the value.
            let water_off = (v == 4) & (self.bear_off[l] != 0);
            let off_now = water_off & (local == 0);
            let back_now = (self.rebirth_empty[l] != 0) & (local == u32::from(water_off)) & !plain;

            let in_water = self.in_water[l] != 0;
            let own = if in_water {
                water_move(own, off_now, back_now)
            } else {
                moved.own
            };
            let opp = if in_water { opp } else { moved.opp };
            let leaves = if in_water { off_now } else { moved.leaves };
            let ends_turn = if in_water { back_now } else { moved.ends_turn };
            let opp_must = if in_water { opp_must } else { moved.opp_must };
            // The mover's obligation is over whatever it does (K-15), unless it starts now.
            let own_must = BIT_REBIRTH & mask(in_water & back_now);

            // K-4: the turn goes on while throws are held and the move did not end it; with
            // immediate throws a 1, 4 or 5 gives another throw (a plain pass too).
            let spent = stored.wrapping_sub(if plain { 0 } else { unit(v) });
            let decides_on = !plain & !ends_turn & (spent != 0);
            let another = immediate
                & if plain {
                    stored & ANOTHER_THROW_VALUES != 0
                } else {
                    !ends_turn & ((v == 1) | (v == 4) | (v == 5))
                };
            let again = decides_on | another;
            let (won_now, pass_on) = board.settle(l, (own, opp), leaves, pieces, again);
            *won = won_now;
            self.stored[l] = spent & mask(decides_on);
            self.throwing[l] = mask(!decides_on);
            (self.own_must[l], self.opp_must[l]) = hand_over(pass_on, own_must, opp_must);
        }
    }

    fn outcome(&self, board: &SideLanes<LANES>, l: usize) -> Outcome {
        outcome(board, l)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::PieceCount;
    use crate::state::StoredThrows;
    use senet_testkit::batch::assert_kernel_plays_scalar_games;

    #[test]
    fn the_kernel_plays_the_scalar_games_with_stored_throws() {
        // tests/batch.rs checks every combination; under Miri (about a million times slower)
        // Kendall's own rules alone.
        let flags = [
            (false, false, false),
            (true, false, true),
            (false, true, true),
            (true, true, false),
        ];
        let (pieces, flags) = if cfg!(miri) {
            (&[PieceCount::Seven][..], &flags[..1])
        } else {
            (&[PieceCount::Seven, PieceCount::Five][..], &flags[..])
        };
        for &pieces in pieces {
            for &(trap, home_row, starting_throw) in flags {
                let rules = Kendall::default()
                    .with_pieces(pieces)
                    .with_trap(trap)
                    .with_home_row(home_row)
                    .with_starting_throw(starting_throw);
                assert!(ActionLanes::covering(&rules).is_some());
                assert_kernel_plays_scalar_games(&rules);
            }
        }
    }

    #[test]
    #[cfg_attr(
        miri,
        ignore = "the same kernel as with stored throws, which Miri runs"
    )]
    fn the_kernel_plays_immediate_throws_with_a_starting_throw() {
        let rules = Kendall::default()
            .with_throw_timing(ThrowTiming::Immediate)
            .with_starting_throw(true);
        assert!(super::super::Lanes::covering(&rules).is_none());
        assert!(ActionLanes::covering(&rules).is_some());
        assert_kernel_plays_scalar_games(&rules);
    }

    #[test]
    fn the_value_bits_are_those_of_the_stored_throws() {
        for v in 1..=5u8 {
            assert_eq!(unit(u32::from(v)), StoredThrows::unit(v), "value {v}");
            let gives = ANOTHER_THROW_VALUES & unit(u32::from(v)) != 0;
            assert_eq!(gives, Kendall::gives_another_throw(v), "value {v}");
        }
        // Up to the cap of stored throws, the lanes' count is the state's.
        let (mut stored, mut word) = (StoredThrows::NONE, 0);
        for n in 0..u32::from(MAX_STORED_THROWS) {
            let v = [5, 1, 4, 3, 1, 2, 5][n as usize % 7];
            stored.add(v);
            word += unit(u32::from(v));
            assert_eq!(total(word), stored.total(), "{n} throws");
            assert_eq!(total(word), n + 1);
        }
    }
}
