//! The bookkeeping every lock-step kernel shares: which game each lane plays and its
//! generator, the turn and decision counts of [`random_playout`](crate::random_playout), the
//! random words of the step, and the hand-over when a game ends.

use rand_core::Rng;

use super::{BatchRun, LaneKernel, play_one_by_one, run_kernel};
use crate::board::BitBoard;
use crate::playout::{MAX_ACTIONS_PER_TURN, Playout, PlayoutEnd};
use crate::ruleset::{Outcome, Ruleset};
use crate::side::{PerSide, Side};
use crate::throw::uniform_below;

/// `ended` of a lane whose game goes on, was won in this step, or was stopped by the cap.
const PLAYING: u32 = 0;
const WON: u32 = 1;
const CAPPED: u32 = 2;

/// The rules half of a lock-step kernel of `L` lanes, for a ruleset that makes, in each step
/// and for each lane, one throw and then one decision (a single pending throw and a move phase
/// after every throw): the lanes' positions, stored structure-of-arrays, and the steps of the
/// rules on them. [`play_lock_step`] runs it and keeps the rest: which game each lane plays
/// and its generator, the turn and decision counts, the random words, the hand-over when a
/// game ends. `senet_testkit::batch` checks a kernel's games against the scalar engine's.
///
/// Implementations mark every method `#[inline(always)]` so that the copy of the kernel
/// compiled with wider vectors gets their code ([`LaneKernel`]). Their lane loops keep to `&`
/// and `|` on conditions and never assign a field a select of its own old value: in vector
/// code a short-circuit or a kept old value becomes a masked load or store, which is slow on
/// some CPUs (on the AMD EPYC of `docs/benchmarks.md` they held a kernel to a third of its
/// speed).
pub trait LaneRules<const L: usize> {
    /// The side to act in each lane: 0 for Black, 1 for White.
    fn sides(&self) -> &[u32; L];

    /// Puts lane `l` at the start of a game.
    fn restart(&mut self, l: usize);

    /// Reads each lane's throw from the top bits of its random `word`, finds its moves, and
    /// writes how many choices it has into `choices` (a pass counts as one).
    fn generate(&mut self, words: &[u32; L], choices: &mut [u32; L]);

    /// Plays choice `picks[l]` of each lane (in the order the ruleset's generator lists the
    /// moves) and passes the turn as the rules say; sets `won[l]` when the move ended lane
    /// `l`'s game.
    fn play(&mut self, picks: &[u32; L], won: &mut [bool; L]);

    /// How the game of lane `l`, which the last [`play`](Self::play) won, ended.
    fn outcome(&self, l: usize) -> Outcome;
}

/// A lock-step kernel: the rules half `K` and the bookkeeping every kernel shares (which game
/// each lane plays and its generator, the turn and decision counts, the random words of the
/// step, and the hand-over when a game ends).
struct LockStep<K, G, F, S, const L: usize> {
    rules: K,
    word: [u32; L],
    choices: [u32; L],
    pick: [u32; L],
    won: [bool; L],
    ended: [u32; L],
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

impl<K, G, F, S, const L: usize> LockStep<K, G, F, S, L>
where
    K: LaneRules<L>,
    G: Rng,
    F: FnMut(u64) -> G,
    S: FnMut(u64, Playout),
{
    /// The lanes of `run` with their first games, each at the start (a lane with no game left
    /// plays a copy of the last one and reports nothing).
    fn new(mut rules: K, run: &BatchRun, mut streams: F, report: S) -> Self {
        for l in 0..L {
            rules.restart(l);
        }
        let (start, end) = (run.games.start, run.games.end);
        let index: [u64; L] =
            core::array::from_fn(|l| start.saturating_add(l as u64).min(end.saturating_sub(1)));
        LockStep {
            rules,
            word: [0; L],
            choices: [1; L],
            pick: [0; L],
            won: [false; L],
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

    /// Whether some lane's game ended in this step.
    #[inline(always)]
    fn any_ended(&self) -> bool {
        self.ended.iter().any(|&ended| ended != PLAYING)
    }

    /// Draws each lane's throw word. A lane whose game ends before it throws draws one too:
    /// that game draws nothing more, so the word is never seen.
    #[inline(always)]
    fn draw_throws(&mut self) {
        for (word, rng) in self.word.iter_mut().zip(&mut self.rng) {
            *word = rng.next_u32();
        }
    }

    /// Counts the throw's and the decision's actions of the side to act in each lane as
    /// [`TurnCounter`](crate::TurnCounter) does, and marks capped the games the turn cap
    /// stops before either.
    #[inline(always)]
    fn count_actions(&mut self) {
        let cap = self.turn_cap;
        for l in 0..L {
            let side = self.rules.sides()[l];
            // The throw starts a turn when the other side acted last, or the run is full.
            let fresh = (self.last[l] != side) | (self.run[l] >= MAX_ACTIONS_PER_TURN);
            let turns = self.turns[l] + u32::from(fresh);
            let run = if fresh { 1 } else { self.run[l] + 1 };
            // The decision belongs to the same turn unless the run is full.
            let full = run >= MAX_ACTIONS_PER_TURN;
            self.run[l] = if full { 1 } else { run + 1 };
            self.turns[l] = turns + u32::from(full);
            self.last[l] = side;
            let capped = (fresh & (turns > cap)) | (full & (turns + 1 > cap));
            self.ended[l] = CAPPED * u32::from(capped);
        }
    }

    /// Draws each lane's choice: one [`uniform_below`] draw among its `choices`.
    #[inline(always)]
    fn draw_choices(&mut self) {
        let lanes = self.pick.iter_mut().zip(&mut self.rng).zip(&self.choices);
        for ((pick, rng), &choices) in lanes {
            *pick = uniform_below(rng, choices);
        }
    }

    /// Counts each lane's decision, unless the cap stopped its game first, and marks its
    /// game won when the decision won it.
    #[inline(always)]
    fn count_decisions(&mut self) {
        for l in 0..L {
            let capped = self.ended[l] == CAPPED;
            self.decisions[l] += u32::from(!capped);
            self.ended[l] |= WON * u32::from(!capped & self.won[l]);
        }
    }

    /// Reports the games that ended in this step and gives their lanes the next games.
    fn retire_ended(&mut self) {
        for l in 0..L {
            if self.ended[l] != PLAYING {
                let outcome = (self.ended[l] == WON).then(|| self.rules.outcome(l));
                self.retire(l, outcome);
            }
        }
    }

    /// Reports the game of lane `l`, which ended with `outcome` (`None` when the cap stopped
    /// it), and puts the next game in the lane. Lanes without a game are left alone.
    fn retire(&mut self, l: usize, outcome: Option<Outcome>) {
        if !self.live[l] {
            return;
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
            return;
        }
        self.index[l] = self.next;
        self.rng[l] = (self.streams)(self.next);
        self.next += 1;
        self.last[l] = NOBODY;
        self.run[l] = 0;
        self.turns[l] = 0;
        self.decisions[l] = 0;
        self.rules.restart(l);
    }
}

impl<K, G, F, S, const L: usize> LaneKernel for LockStep<K, G, F, S, L>
where
    K: LaneRules<L>,
    G: Rng,
    F: FnMut(u64) -> G,
    S: FnMut(u64, Playout),
{
    #[inline(always)]
    fn run(&mut self) {
        while self.live.contains(&true) {
            self.draw_throws();
            self.count_actions();
            self.rules.generate(&self.word, &mut self.choices);
            self.draw_choices();
            self.rules.play(&self.pick, &mut self.won);
            self.count_decisions();
            if self.any_ended() {
                self.retire_ended();
            }
        }
    }
}

/// Plays the games of `run` with the lock-step kernel whose rules half is `lanes`, or one by
/// one ([`play_one_by_one`]) when the ruleset has none for this configuration (`None`): the
/// body of a ruleset's [`BatchRules::play_random_batch`](super::BatchRules::play_random_batch).
pub fn play_lock_step<R, K, G, F, S, const L: usize>(
    rules: &R,
    lanes: Option<K>,
    run: &BatchRun,
    streams: F,
    report: S,
) where
    R: Ruleset,
    K: LaneRules<L>,
    G: Rng,
    F: FnMut(u64) -> G,
    S: FnMut(u64, Playout),
{
    match lanes {
        Some(lanes) => {
            let mut kernel = LockStep::new(lanes, run, streams, report);
            run_kernel(&mut kernel, run.instructions);
        }
        None => play_one_by_one(rules, run, streams, report),
    }
}

/// Each lane's board seen from the side to act, for [`LaneRules`] implementations of
/// rulesets whose pieces all start on the board: that side's pieces and the other side's
/// (bit `n` is square `n`), the pieces each has borne off, and the side itself (0 for Black,
/// 1 for White).
pub struct SideLanes<const L: usize> {
    /// The pieces of the side to act.
    pub own: [u32; L],
    /// The pieces of the other side.
    pub opp: [u32; L],
    /// The pieces the side to act has borne off.
    pub own_off: [u32; L],
    /// The pieces the other side has borne off.
    pub opp_off: [u32; L],
    /// The side to act.
    pub side: [u32; L],
}

impl<const L: usize> SideLanes<L> {
    /// Lanes with empty boards.
    pub const EMPTY: SideLanes<L> = SideLanes {
        own: [0; L],
        opp: [0; L],
        own_off: [0; L],
        opp_off: [0; L],
        side: [0; L],
    };

    /// Sets lane `l` to `board` with `me` to act.
    pub fn set(&mut self, l: usize, board: &BitBoard, me: Side) {
        self.own[l] = board.pieces_of(me).bits();
        self.opp[l] = board.pieces_of(me.opponent()).bits();
        self.own_off[l] = u32::from(board.off_count(me));
        self.opp_off[l] = u32::from(board.off_count(me.opponent()));
        self.side[l] = me as u32;
    }

    /// Writes lane `l` after a move that left the side to act with `own` and `own_off` and
    /// the other side with `opp`; when `pass_on`, the other side acts next.
    #[inline(always)]
    pub fn settle(&mut self, l: usize, own: u32, opp: u32, own_off: u32, pass_on: bool) {
        let opp_off = self.opp_off[l];
        self.own[l] = if pass_on { opp } else { own };
        self.opp[l] = if pass_on { own } else { opp };
        self.own_off[l] = if pass_on { opp_off } else { own_off };
        self.opp_off[l] = if pass_on { own_off } else { opp_off };
        self.side[l] ^= u32::from(pass_on);
    }

    /// The side to act in lane `l`, and the pieces Black and White have borne off.
    pub fn side_and_off(&self, l: usize) -> (Side, PerSide<u8>) {
        let own = self.own_off[l].min(u32::from(u8::MAX)) as u8;
        let opp = self.opp_off[l].min(u32::from(u8::MAX)) as u8;
        if self.side[l] == Side::White as u32 {
            (Side::White, PerSide::new(opp, own))
        } else {
            (Side::Black, PerSide::new(own, opp))
        }
    }
}
