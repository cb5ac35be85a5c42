//! Random playouts: whole games with random throws and uniformly random legal moves, on the
//! allocation-free fast path.

use rand_core::Rng;

use crate::moves::MoveList;
use crate::ruleset::{Outcome, Phase, Ruleset};
use crate::side::Side;
use crate::throw::ThrowingDevice;

/// The default limit on turns for random games. A game that reaches it is reported as
/// stopped by the cap, never as won or lost. It only guards against hangs: random Regency
/// games last about 700 turns on average, and the longest of 100,000 seeded games (seeds 0
/// to 99,999) took 7,439; no configuration of the registered rulesets reached the cap in
/// 1,300,000 such games (`docs/reliability.md`).
pub const DEFAULT_TURN_CAP: u32 = 10_000;

/// The most actions one turn counts: a longer run of actions by one side counts as a new
/// turn every this many actions. Ordinary turns are far shorter (the longest seen in random
/// games is about 20 actions), but a side can act on and on alone, as in CEMEA's ancient
/// mode once the other side has finished; without this bound such a run would be a single
/// turn, and a turn cap could not stop it.
pub const MAX_ACTIONS_PER_TURN: u32 = 64;

/// Counts turns: a turn is a maximal run of actions (throws and moves) by one side, and a
/// run longer than [`MAX_ACTIONS_PER_TURN`] counts as a new turn every that many actions, so
/// that a cap on turns always bounds the number of actions.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct TurnCounter {
    turns: u32,
    last: Option<Side>,
    /// Actions in the current turn.
    run: u32,
}

impl TurnCounter {
    /// Notes that `side` acts; returns true when this starts a new turn.
    #[inline]
    pub fn observe(&mut self, side: Side) -> bool {
        if self.last == Some(side) && self.run < MAX_ACTIONS_PER_TURN {
            self.run += 1;
            false
        } else {
            self.last = Some(side);
            self.turns = self.turns.saturating_add(1);
            self.run = 1;
            true
        }
    }

    /// Turns started so far.
    #[inline]
    pub const fn turns(&self) -> u32 {
        self.turns
    }
}

/// How a playout stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PlayoutEnd {
    /// The game ended by the rules.
    Finished(Outcome),
    /// The turn cap was reached first.
    TurnCap,
}

/// The result of a playout.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Playout {
    /// Why it stopped.
    pub end: PlayoutEnd,
    /// Turns played (a turn is a run of actions by one side).
    pub turns: u32,
    /// Decisions made: moves and passes, not throws.
    pub decisions: u32,
}

impl Playout {
    /// The outcome, if the game finished.
    pub const fn outcome(&self) -> Option<Outcome> {
        match self.end {
            PlayoutEnd::Finished(o) => Some(o),
            PlayoutEnd::TurnCap => None,
        }
    }
}

/// Plays `state` to the end with throws from the ruleset's device and uniformly random legal
/// moves, all drawn from `rng`. `moves` is scratch space (reuse it across playouts); nothing is
/// allocated. Stops once a side would start turn `max_turns + 1`.
///
/// ```
/// use senet_core::{MoveList, Ruleset, random_playout, DEFAULT_TURN_CAP};
/// # fn demo<R: Ruleset>(rules: R, rng: &mut impl rand_core::Rng) {
/// let mut state = rules.initial_state();
/// let mut scratch = MoveList::new();
/// let playout = random_playout(&rules, &mut state, rng, &mut scratch, DEFAULT_TURN_CAP);
/// println!("{:?} after {} decisions", playout.end, playout.decisions);
/// # }
/// ```
pub fn random_playout<R: Ruleset, G: Rng + ?Sized>(
    rules: &R,
    state: &mut R::State,
    rng: &mut G,
    moves: &mut MoveList,
    max_turns: u32,
) -> Playout {
    let device = rules.device();
    let mut counter = TurnCounter::default();
    let mut decisions = 0u32;
    loop {
        let phase = rules.phase(state);
        if let Some(side) = phase.side()
            && counter.observe(side)
            && counter.turns() > max_turns
        {
            return Playout {
                end: PlayoutEnd::TurnCap,
                turns: max_turns,
                decisions,
            };
        }
        match phase {
            Phase::Over(outcome) => {
                return Playout {
                    end: PlayoutEnd::Finished(outcome),
                    turns: counter.turns(),
                    decisions,
                };
            }
            Phase::Throw(_) => {
                let value = device.sample(rng);
                rules.throw_unchecked(state, value);
            }
            Phase::Move(_) => {
                rules.play_random_move(state, rng, moves);
                decisions += 1;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn turns_change_with_the_acting_side() {
        let mut counter = TurnCounter::default();
        assert!(counter.observe(Side::Black));
        assert!(!counter.observe(Side::Black));
        assert!(counter.observe(Side::White));
        assert!(counter.observe(Side::Black));
        assert_eq!(counter.turns(), 3);
    }

    /// Found by tests/termination.rs: in CEMEA's ancient mode the side that has not finished
    /// acts alone until it does, and all of that counted as one turn, so no turn cap could
    /// stop such a game. A long run now counts as a turn every MAX_ACTIONS_PER_TURN actions.
    #[test]
    fn a_side_acting_alone_still_uses_up_turns() {
        let mut counter = TurnCounter::default();
        let new_turns = (0..200).filter(|_| counter.observe(Side::White)).count();
        assert_eq!(new_turns, 4);
        assert_eq!(counter.turns(), 4);
        assert!(counter.observe(Side::Black));
        assert_eq!(counter.turns(), 5);
    }
}
