//! The lock-step kernel of Piccione's random games (see `senet_core::batch`): sixteen games
//! advanced together, one throw and one decision a step. The throws, the random words and the
//! bookkeeping are the shared skeleton's; each lane's choices come from the same depth-first
//! search of split throws as the move generator (in the same order), but kept as the
//! positions they lead to rather than as moves, which is all a random game needs.
//!
//! Game `i` draws from `streams(i)` word for word as the scalar playout does: the throw takes
//! one word (the top four bits are the sticks, P-2), and the choice one `uniform_below` draw
//! among the choices, a pass counting as the only one.

use senet_core::batch::{LaneRules, SideLanes, hand_over, sticks};
use senet_core::{MOVE_LIST_CAPACITY, Outcome, PerSide};

use super::outcomes::{ENTER, Outcomes, PASS};
use super::{Node, PIECES, Piccione, list_choices};

/// Games in flight.
const LANES: usize = 16;

/// What Piccione's lanes remember beside the boards: each side's pieces in hand, the extra
/// throws of the side to act and whether its entered piece must move (P-3), and the step's
/// throw and choices.
pub(crate) struct Lanes {
    own_hand: [u32; LANES],
    opp_hand: [u32; LANES],
    extra_throws: [u8; LANES],
    must_move_one: [bool; LANES],
    throw: [u8; LANES],
    choices: [Outcomes<MOVE_LIST_CAPACITY>; LANES],
}

impl Lanes {
    /// The lanes of the one configuration Piccione has.
    pub(crate) fn covering(_rules: &Piccione) -> Option<Lanes> {
        Some(Lanes {
            own_hand: [PIECES.into(); LANES],
            opp_hand: [PIECES.into(); LANES],
            extra_throws: [0; LANES],
            must_move_one: [false; LANES],
            throw: [0; LANES],
            choices: [const { Outcomes::<MOVE_LIST_CAPACITY>::EMPTY }; LANES],
        })
    }
}

impl LaneRules<LANES> for Lanes {
    fn restart(&mut self, l: usize) {
        // P-1: every piece in hand.
        self.own_hand[l] = PIECES.into();
        self.opp_hand[l] = PIECES.into();
        self.extra_throws[l] = 0;
        self.must_move_one[l] = false;
    }

    /// Reads the sticks (P-2) and lists each lane's choices as the move generator does.
    #[inline(always)]
    fn generate(
        &mut self,
        board: &SideLanes<LANES>,
        words: &[u32; LANES],
        choices: &mut [u32; LANES],
    ) {
        for l in 0..LANES {
            let t = sticks(words[l], 5) as u8;
            self.throw[l] = t;
            let own = board.own[l];
            let off = board.own_off[l] as u8;
            let list = &mut self.choices[l];
            list.len = 0;
            list.seen = 0;
            let root = Node::new(own, self.own_hand[l] as u8, off);
            list_choices(own, board.opp[l], root, t, self.must_move_one[l], list);
            choices[l] = list.len as u32;
        }
    }

    /// Plays each lane's chosen choice as `play_unchecked` plays its move: the pieces in hand
    /// and off, the extra throws earned (P-2, P-3, P-9), and the turn passing when none is
    /// left.
    #[inline(always)]
    fn play(
        &mut self,
        board: &mut SideLanes<LANES>,
        picks: &[u32; LANES],
        won: &mut [bool; LANES],
    ) {
        for l in 0..LANES {
            let list = &self.choices[l];
            let key = list.keys[(picks[l] as usize).min(list.len.saturating_sub(1))];
            let mut own = board.own[l];
            let mut hand = self.own_hand[l];
            let mut extra = self.extra_throws[l];
            let mut entered = false;
            let again = if key == PASS {
                if self.must_move_one[l] && own & 1 << 1 != 0 {
                    // P-7: the entered piece could not move: back to hand.
                    own &= !(1 << 1);
                    hand += 1;
                }
                extra = 0; // P-8: the turn ends
                false
            } else {
                if key == ENTER {
                    // P-3: onto square 1, with another throw.
                    hand -= 1;
                    own |= 1 << 1;
                    entered = true;
                    extra = extra.saturating_add(1);
                } else {
                    let node = Node(key);
                    own = node.mine();
                    hand = node.hand().into();
                    board.own_off[l] = u32::from(node.off());
                    extra = extra.saturating_add(node.landings()); // P-9
                }
                extra = extra.saturating_add(u8::from(self.throw[l] == 5)); // P-2
                let again = extra > 0;
                extra = extra.saturating_sub(1);
                again
            };
            let (has_won, pass_on) =
                board.settle(l, (own, board.opp[l]), false, PIECES.into(), again);
            won[l] = has_won;
            // A side that has won, or whose turn ends, has no throw to come.
            let keeps = !has_won & !pass_on;
            self.extra_throws[l] = if keeps { extra } else { 0 };
            self.must_move_one[l] = keeps & entered;
            (self.own_hand[l], self.opp_hand[l]) = hand_over(pass_on, hand, self.opp_hand[l]);
        }
    }

    /// P-12: the side to act bore off its last piece; there is no score.
    fn outcome(&self, board: &SideLanes<LANES>, l: usize) -> Outcome {
        let (winner, _) = board.side_and_off(l);
        Outcome {
            winner: Some(winner),
            points: PerSide::both(0),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use senet_testkit::batch::assert_kernel_plays_scalar_games;

    #[test]
    fn the_kernel_plays_the_scalar_games() {
        assert!(Lanes::covering(&Piccione).is_some());
        assert_kernel_plays_scalar_games(&Piccione);
    }
}
