//! The bookkeeping every lock-step kernel shares: which game each lane plays and its
//! generator, the turn and decision counts of [`random_playout`](crate::random_playout), the
//! random words of the step, and the hand-over when a game ends.

use rand_core::Rng;

use crate::playout::{MAX_ACTIONS_PER_TURN, Playout, PlayoutEnd};
use crate::ruleset::Outcome;
use crate::throw::uniform_below;

use super::BatchRun;

/// [`LaneBook::ended`] of a lane whose game goes on.
pub const PLAYING: u32 = 0;
/// [`LaneBook::ended`] of a lane whose game was won in this step.
pub const WON: u32 = 1;
/// [`LaneBook::ended`] of a lane whose game the turn cap stopped in this step.
pub const CAPPED: u32 = 2;

/// The lanes' bookkeeping for a kernel of `L` lanes that makes, in each step and for each
/// lane, one throw and then one decision, the way a ruleset with a single pending throw and a
/// move phase after every throw plays: a kernel calls [`draw_throws`](Self::draw_throws),
/// [`count_actions`](Self::count_actions), computes the throw and the number of choices of
/// each lane into [`choices`](Self::choices), calls [`draw_choices`](Self::draw_choices),
/// plays [`pick`](Self::pick) calling [`count_decision`](Self::count_decision), and hands each
/// lane whose game [`ended`](Self::ended) to [`retire`](Self::retire).
///
/// The lane loops keep to `&` and `|` on conditions and never select a field's old value: in
/// vector code a short-circuit or a kept old value becomes a masked load or store, which is
/// slow on some CPUs (on the AMD EPYC of `docs/benchmarks.md` they held a kernel to a third
/// of its speed).
pub struct LaneBook<G, F, S, const L: usize> {
    /// This step's throw word of each lane.
    pub word: [u32; L],
    /// How many choices each lane has (a pass counts as one): set by the kernel.
    pub choices: [u32; L],
    /// The choice drawn for each lane, below `choices`.
    pub pick: [u32; L],
    /// [`PLAYING`], [`WON`] or [`CAPPED`].
    pub ended: [u32; L],
    turn_cap: u32,
    streams: F,
    report: S,
    next: u64,
    end: u64,
    index: [u64; L],
    live: [bool; L],
    rng: [G; L],
    last: [u32; L],
    run: [u32; L],
    turns: [u32; L],
    decisions: [u32; L],
}

/// `last` of a lane whose game has not acted yet (sides are 0 and 1).
const NOBODY: u32 = 2;

impl<G, F, S, const L: usize> LaneBook<G, F, S, L>
where
    G: Rng,
    F: FnMut(u64) -> G,
    S: FnMut(u64, Playout),
{
    /// The lanes of `run`, given its first games (a lane with no game left plays a copy of
    /// the last one and reports nothing). The kernel then puts every lane at the start.
    pub fn new(run: &BatchRun, mut streams: F, report: S) -> Self {
        let (start, end) = (run.games.start, run.games.end);
        let index: [u64; L] =
            core::array::from_fn(|l| start.saturating_add(l as u64).min(end.saturating_sub(1)));
        LaneBook {
            word: [0; L],
            choices: [1; L],
            pick: [0; L],
            ended: [PLAYING; L],
            turn_cap: run.turn_cap,
            rng: index.map(&mut streams),
            streams,
            report,
            next: start.saturating_add(L as u64).min(end),
            end,
            index,
            live: core::array::from_fn(|l| start.saturating_add(l as u64) < end),
            last: [NOBODY; L],
            run: [0; L],
            turns: [0; L],
            decisions: [0; L],
        }
    }

    /// Whether some lane still has a game.
    pub fn any_live(&self) -> bool {
        self.live.contains(&true)
    }

    /// Whether some lane's game ended in this step.
    #[inline(always)]
    pub fn any_ended(&self) -> bool {
        self.ended.iter().any(|&ended| ended != PLAYING)
    }

    /// Draws each lane's throw word. A lane whose game ends before it throws draws one too:
    /// that game draws nothing more, so the word is never seen.
    #[inline(always)]
    pub fn draw_throws(&mut self) {
        for (word, rng) in self.word.iter_mut().zip(&mut self.rng) {
            *word = rng.next_u32();
        }
    }

    /// Counts the throw's and the decision's actions of the side `side[l]` of each lane as
    /// [`TurnCounter`](crate::TurnCounter) does, and marks [`CAPPED`] the games the turn cap
    /// stops before either.
    #[inline(always)]
    // One index over every array of the lane, as in every lane loop: the form the compiler
    // vectorises.
    #[allow(clippy::needless_range_loop)]
    pub fn count_actions(&mut self, side: &[u32; L]) {
        let cap = self.turn_cap;
        for l in 0..L {
            // The throw starts a turn when the other side acted last, or the run is full.
            let fresh = (self.last[l] != side[l]) | (self.run[l] >= MAX_ACTIONS_PER_TURN);
            let turns = self.turns[l] + u32::from(fresh);
            let run = if fresh { 1 } else { self.run[l] + 1 };
            // The decision belongs to the same turn unless the run is full.
            let full = run >= MAX_ACTIONS_PER_TURN;
            self.run[l] = if full { 1 } else { run + 1 };
            self.turns[l] = turns + u32::from(full);
            self.last[l] = side[l];
            let capped = (fresh & (turns > cap)) | (full & (turns + 1 > cap));
            self.ended[l] = CAPPED * u32::from(capped);
        }
    }

    /// Draws each lane's choice: one [`uniform_below`] draw among its `choices`.
    #[inline(always)]
    pub fn draw_choices(&mut self) {
        let lanes = self.pick.iter_mut().zip(&mut self.rng).zip(&self.choices);
        for ((pick, rng), &choices) in lanes {
            *pick = uniform_below(rng, choices);
        }
    }

    /// Counts lane `l`'s decision, unless the cap stopped its game first, and marks its game
    /// [`WON`] when the decision `won` it.
    #[inline(always)]
    pub fn count_decision(&mut self, l: usize, won: bool) {
        let capped = self.ended[l] == CAPPED;
        self.decisions[l] += u32::from(!capped);
        self.ended[l] |= WON * u32::from(!capped & won);
    }

    /// Reports the game of lane `l`, which ended with `outcome` (`None` when the cap stopped
    /// it), and gives the lane the next game. Returns whether it got one: the kernel then puts
    /// the lane at the start. Lanes without a game are left alone.
    pub fn retire(&mut self, l: usize, outcome: Option<Outcome>) -> bool {
        if !self.live[l] {
            return false;
        }
        let playout = Playout {
            end: outcome.map_or(PlayoutEnd::TurnCap, PlayoutEnd::Finished),
            turns: if outcome.is_some() {
                self.turns[l]
            } else {
                self.turn_cap
            },
            decisions: self.decisions[l],
        };
        (self.report)(self.index[l], playout);
        self.ended[l] = PLAYING;
        if self.next >= self.end {
            self.live[l] = false;
            return false;
        }
        self.index[l] = self.next;
        self.rng[l] = (self.streams)(self.next);
        self.next += 1;
        self.last[l] = NOBODY;
        self.run[l] = 0;
        self.turns[l] = 0;
        self.decisions[l] = 0;
        true
    }
}
