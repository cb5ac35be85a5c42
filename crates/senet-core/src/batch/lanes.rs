//! The bookkeeping every lock-step kernel shares: which game each lane plays and where its
//! random words come from (a generator of each game's own, or ChaCha8 computed across lanes),
//! the turn and decision counts of [`random_playout`](crate::random_playout), the random words
//! of the step, and the hand-over when a game ends.

use rand_core::Rng;

use super::simd::widens;
use super::{
    BatchRun, ChaCha8Lanes, ChaCha8Stream, Instructions, LaneKernel, play_one_by_one, run_kernel,
};
use crate::board::BitBoard;
use crate::playout::{MAX_ACTIONS_PER_TURN, Playout, PlayoutEnd};
use crate::ruleset::{Outcome, Phase, Ruleset};
use crate::side::{PerSide, Side};
use crate::square::SquareSet;
use crate::throw::{uniform_below, uniform_below_from};

/// `ended` of a lane whose game goes on, was won in this step, or was stopped by the cap.
const PLAYING: u32 = 0;
const WON: u32 = 1;
const CAPPED: u32 = 2;

/// The rules half of a lock-step kernel of `L` lanes, for a ruleset whose pieces all start
/// on the board and that makes, in each step and for each lane, one throw and then one
/// decision (a single pending throw and a move phase after every throw; for other turns see
/// [`LaneActions`]): the steps of the
/// rules on the lanes' boards, which [`play_lock_step`] keeps structure-of-arrays and seen
/// from the side to act ([`SideLanes`]), and on whatever else the rules remember in lanes of
/// the kernel's own. [`play_lock_step`] keeps the rest: the boards and who acts, which game
/// each lane plays and its generator, the turn and decision counts, the random words, the
/// hand-over when a game ends. `senet_testkit::batch` checks a kernel's games against the
/// scalar engine's.
///
/// Implementations mark every method `#[inline(always)]` so that the copy of the kernel
/// compiled with wider vectors gets their code ([`LaneKernel`]). Their lane loops keep to `&`
/// and `|` on conditions and never assign a field a select of its own old value: in vector
/// code a short-circuit or a kept old value becomes a masked load or store, which is slow on
/// some CPUs (on the AMD EPYC of `docs/benchmarks.md` they held a kernel to a third of its
/// speed).
pub trait LaneRules<const L: usize> {
    /// Puts the kernel's own lanes of lane `l` at the start of a game (its board already
    /// is: the ruleset's initial state).
    fn restart(&mut self, l: usize);

    /// Reads each lane's throw from the top bits of its random `word`, finds its moves on
    /// `board`, and writes how many choices it has into `choices` (a pass counts as one).
    fn generate(&mut self, board: &SideLanes<L>, words: &[u32; L], choices: &mut [u32; L]);

    /// Plays choice `picks[l]` of each lane (in the order the ruleset's generator lists the
    /// moves) and ends the move with [`SideLanes::settle`], which passes the turn as the
    /// rules say; sets `won[l]` when the move ended lane `l`'s game.
    fn play(&mut self, board: &mut SideLanes<L>, picks: &[u32; L], won: &mut [bool; L]);

    /// How the game of lane `l`, which the last [`play`](Self::play) won, ended on `board`.
    fn outcome(&self, board: &SideLanes<L>, l: usize) -> Outcome;
}

/// The rules half of a lock-step kernel whose steps are single actions: in each step each
/// lane either throws or makes one decision, as its game's phase says. It is for the rulesets
/// whose turns do not go one throw then one decision: throws that are stored and spent later,
/// or lost without a move. Otherwise as [`LaneRules`] (pieces on the board at the start, a
/// game that opens with a throw, `#[inline(always)]` methods, lane loops in `&` and `|`), and
/// [`play_action_lock_step`] keeps the rest.
///
/// A lane that throws draws one random word and one that decides one [`uniform_below`]
/// draw, which starts with one word too: so every lane takes a word in every step, and the
/// lanes stay in step.
pub trait LaneActions<const L: usize> {
    /// Puts the kernel's own lanes of lane `l` at the start of a game (its board already
    /// is: the ruleset's initial state, in which the side to act throws).
    fn restart(&mut self, l: usize);

    /// Writes into `choices` 0 for each lane whose side throws now, and for each lane whose
    /// side decides, how many choices it has (a pass counts as one), finding its moves on
    /// `board`.
    fn prepare(&mut self, board: &SideLanes<L>, choices: &mut [u32; L]);

    /// Throws in the lanes that throw, reading the throw from the top bits of `words[l]`, and
    /// plays choice `picks[l]` in the lanes that decide (in the order the ruleset's generator
    /// lists the moves); a turn that passes is ended with [`SideLanes::settle`]. Sets `won[l]`
    /// when the move ended lane `l`'s game.
    fn act(
        &mut self,
        board: &mut SideLanes<L>,
        words: &[u32; L],
        picks: &[u32; L],
        won: &mut [bool; L],
    );

    /// How the game of lane `l`, which the last [`act`](Self::act) won, ended on `board`.
    fn outcome(&self, board: &SideLanes<L>, l: usize) -> Outcome;
}

/// The value of four throwing sticks read from the top four bits of a random `word`, as
/// [`Sticks`](crate::Sticks) samples them: the number of marked sides up, or
/// `none_marked` (5 or 6) when none is.
///
/// ```
/// use senet_core::batch::sticks;
/// assert_eq!(sticks(0b1011 << 28, 6), 3);
/// assert_eq!(sticks(0x0FFF_FFFF, 6), 6);
/// assert_eq!(sticks(0x0FFF_FFFF, 5), 5);
/// ```
#[inline(always)]
pub fn sticks(word: u32, none_marked: u32) -> u32 {
    let up = word >> 28;
    // Bit by bit: a popcount instruction is not in the baseline target.
    let marked = (up & 1) + (up >> 1 & 1) + (up >> 2 & 1) + (up >> 3);
    if marked == 0 { none_marked } else { marked }
}

/// The `pick`-th lowest square of `set` (counting from 0) as a one-bit set, for a lane
/// that plays the move of its `pick`-th origin; 0 when `set` has no more than `pick`
/// squares. `N` is the most squares skipped: the loop runs `N` times whatever `pick` is, so
/// that it vectorises.
///
/// ```
/// use senet_core::batch::pick_square;
/// let set = 1 << 3 | 1 << 9 | 1 << 20;
/// assert_eq!(pick_square::<4>(set, 0), 1 << 3);
/// assert_eq!(pick_square::<4>(set, 2), 1 << 20);
/// assert_eq!(pick_square::<4>(set, 3), 0);
/// ```
#[inline(always)]
pub fn pick_square<const N: u32>(set: u32, pick: u32) -> u32 {
    let mut rest = set;
    for skip in 0..N {
        rest &= if skip < pick {
            rest.wrapping_sub(1)
        } else {
            !0
        };
    }
    rest & rest.wrapping_neg()
}

/// The pieces of `side` (bit `n` is square `n`) without a neighbour on the track of their
/// own side: those that a pair does not protect.
#[inline(always)]
pub fn unpaired(side: u32) -> u32 {
    side & !(side << 1 | side >> 1)
}

/// What a lane hands over when the turn passes: a value of the side to act and the
/// other side's become each other's, so that lanes always hold the view of the side to
/// act. Returns `(mine, theirs)` as the side acting next sees them.
#[inline(always)]
pub fn hand_over(pass_on: bool, mine: u32, theirs: u32) -> (u32, u32) {
    if pass_on {
        (theirs, mine)
    } else {
        (mine, theirs)
    }
}

/// Where the lanes of a lock-step kernel get their random words: game `g` draws exactly the
/// words of its generator, whichever lane plays it.
trait LaneWords<const L: usize> {
    /// The next word of every lane (a throw).
    fn next_words(&mut self, words: &mut [u32; L]);

    /// One [`uniform_below`] draw among `choices[l]` for each lane.
    fn uniform_below(&mut self, choices: &[u32; L], picks: &mut [u32; L]);

    /// One action of each lane: a [`uniform_below`] draw among `choices[l]`, or, for a lane
    /// that throws (`choices[l]` 0), one word. `words[l]` is the first word the lane drew.
    fn draw_actions(&mut self, choices: &[u32; L], words: &mut [u32; L], picks: &mut [u32; L]);

    /// Whether a lane can start a game now; otherwise it waits, idle, until it can.
    fn can_start(&self) -> bool;

    /// Puts lane `l` at the first word of game `game`'s generator.
    fn start(&mut self, l: usize, game: u64);
}

/// A generator of each lane's own, from the caller's `streams(game)`.
struct Streams<G, F, const L: usize> {
    rng: [G; L],
    streams: F,
}

impl<G: Rng, F: FnMut(u64) -> G, const L: usize> LaneWords<L> for Streams<G, F, L> {
    #[inline(always)]
    fn next_words(&mut self, words: &mut [u32; L]) {
        for (word, rng) in words.iter_mut().zip(&mut self.rng) {
            *word = rng.next_u32();
        }
    }

    #[inline(always)]
    fn uniform_below(&mut self, choices: &[u32; L], picks: &mut [u32; L]) {
        let lanes = picks.iter_mut().zip(&mut self.rng).zip(choices);
        for ((pick, rng), &choices) in lanes {
            *pick = uniform_below(rng, choices);
        }
    }

    #[inline(always)]
    fn draw_actions(&mut self, choices: &[u32; L], words: &mut [u32; L], picks: &mut [u32; L]) {
        let lanes = words.iter_mut().zip(picks.iter_mut());
        for (((word, pick), rng), &choices) in lanes.zip(&mut self.rng).zip(choices) {
            *word = rng.next_u32();
            *pick = uniform_below_from(*word, rng, choices.max(1));
        }
    }

    #[inline(always)]
    fn can_start(&self) -> bool {
        true
    }

    fn start(&mut self, l: usize, game: u64) {
        self.rng[l] = (self.streams)(game);
    }
}

/// ChaCha8 streams of one seed computed across lanes ([`ChaCha8Lanes`]): game `g` draws stream
/// `g`. A game starts at a block boundary, so that the lanes stay in step.
struct Seeded<const L: usize> {
    lanes: ChaCha8Lanes<L>,
    seed: [u8; 32],
}

impl<const L: usize> LaneWords<L> for Seeded<L> {
    #[inline(always)]
    fn next_words(&mut self, words: &mut [u32; L]) {
        self.lanes.next_words(words);
    }

    #[inline(always)]
    fn uniform_below(&mut self, choices: &[u32; L], picks: &mut [u32; L]) {
        self.lanes.uniform_below(choices, picks);
    }

    #[inline(always)]
    fn draw_actions(&mut self, choices: &[u32; L], words: &mut [u32; L], picks: &mut [u32; L]) {
        self.lanes.throws_or_picks(choices, words, picks);
    }

    #[inline(always)]
    fn can_start(&self) -> bool {
        self.lanes.starts_in_step()
    }

    fn start(&mut self, l: usize, game: u64) {
        self.lanes.start(l, &self.seed, game);
    }
}

/// How the steps of a kernel go: one throw then one decision in every lane ([`Paired`], for
/// [`LaneRules`]), or one action, a throw or a decision, in every lane ([`Single`], for
/// [`LaneActions`]).
trait Steps<const L: usize>: Sized {
    /// Whether the kernel pays only in vectors wider than the baseline's: on a CPU without
    /// them the games are played one by one, unless the run asks for the baseline.
    const ONLY_WIDE: bool;

    /// Puts the kernel's own lanes of lane `l` at the start of a game.
    fn restart(&mut self, l: usize);

    /// How the game of lane `l`, won in the last step, ended.
    fn outcome(&self, board: &SideLanes<L>, l: usize) -> Outcome;

    /// Advances every lane by one step.
    fn step<W, S>(lock: &mut LockStep<Self, W, S, L>)
    where
        W: LaneWords<L>,
        S: FnMut(u64, Playout);
}

/// The steps of a [`LaneRules`] kernel: a throw, then a decision.
struct Paired<K>(K);

impl<K: LaneRules<L>, const L: usize> Steps<L> for Paired<K> {
    const ONLY_WIDE: bool = false;

    fn restart(&mut self, l: usize) {
        self.0.restart(l);
    }

    fn outcome(&self, board: &SideLanes<L>, l: usize) -> Outcome {
        self.0.outcome(board, l)
    }

    #[inline(always)]
    fn step<W, S>(lock: &mut LockStep<Self, W, S, L>)
    where
        W: LaneWords<L>,
        S: FnMut(u64, Playout),
    {
        lock.draw_throws();
        lock.count_actions();
        lock.rules
            .0
            .generate(&lock.board, &lock.word, &mut lock.choices);
        lock.draw_choices();
        lock.rules
            .0
            .play(&mut lock.board, &lock.pick, &mut lock.won);
        lock.count_decisions();
    }
}

/// The steps of a [`LaneActions`] kernel: a throw or a decision.
struct Single<K>(K);

impl<K: LaneActions<L>, const L: usize> Steps<L> for Single<K> {
    /// A step does a decision's work in every lane, about half of which only throw: compiled
    /// for the baseline (SSE2, which has no shift by a variable amount), Kendall's kernel took
    /// 1.7 times the scalar engine's instructions for the same games (`docs/benchmarks.md`).
    const ONLY_WIDE: bool = true;

    fn restart(&mut self, l: usize) {
        self.0.restart(l);
    }

    fn outcome(&self, board: &SideLanes<L>, l: usize) -> Outcome {
        self.0.outcome(board, l)
    }

    #[inline(always)]
    fn step<W, S>(lock: &mut LockStep<Self, W, S, L>)
    where
        W: LaneWords<L>,
        S: FnMut(u64, Playout),
    {
        lock.count_action();
        lock.rules.0.prepare(&lock.board, &mut lock.choices);
        lock.words
            .draw_actions(&lock.choices, &mut lock.word, &mut lock.pick);
        lock.rules
            .0
            .act(&mut lock.board, &lock.word, &lock.pick, &mut lock.won);
        lock.count_actions_decided();
    }
}

/// A lock-step kernel: the rules half `K` and the bookkeeping every kernel shares (the boards
/// and who acts, which game each lane plays and where its random words come from, the turn
/// and decision counts, the random words of the step, and the hand-over when a game ends).
struct LockStep<K, W, S, const L: usize> {
    rules: K,
    board: SideLanes<L>,
    /// The board and side to act at the start of a game.
    start: (BitBoard, Side),
    word: [u32; L],
    choices: [u32; L],
    pick: [u32; L],
    won: [bool; L],
    ended: [u32; L],
    turn_cap: u32,
    words: W,
    report: S,
    next: u64,
    end: u64,
    index: [u64; L],
    live: [bool; L],
    /// Lanes whose next game waits for [`LaneWords::can_start`].
    waiting: [bool; L],
    any_waiting: bool,
    last: [u32; L],
    run: [u32; L],
    turns: [u32; L],
    decisions: [u32; L],
}

/// `last` of a lane whose game has not acted yet (sides are 0 and 1).
const NOBODY: u32 = 2;

impl<K, W, S, const L: usize> LockStep<K, W, S, L>
where
    K: Steps<L>,
    W: LaneWords<L>,
    S: FnMut(u64, Playout),
{
    /// The lanes of `run` with their first games ([`first_games`]), each at the start (a lane
    /// with no game left plays a copy of the last one and reports nothing); `words` is at the
    /// first word of each lane's game.
    fn new(mut rules: K, begin: (BitBoard, Side), run: &BatchRun, words: W, report: S) -> Self {
        let mut board = SideLanes::EMPTY;
        for l in 0..L {
            board.set(l, &begin.0, begin.1);
            rules.restart(l);
        }
        let (start, end) = (run.games.start, run.games.end);
        let index = first_games(run);
        LockStep {
            rules,
            board,
            start: begin,
            word: [0; L],
            choices: [1; L],
            pick: [0; L],
            won: [false; L],
            ended: [PLAYING; L],
            turn_cap: run.turn_cap,
            words,
            report,
            next: start.saturating_add(L as u64).min(end),
            end,
            index,
            live: core::array::from_fn(|l| start.saturating_add(l as u64) < end),
            waiting: [false; L],
            any_waiting: false,
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
        self.words.next_words(&mut self.word);
    }

    /// Counts the throw's and the decision's actions of the side to act in each lane as
    /// [`TurnCounter`](crate::TurnCounter) does, and marks capped the games the turn cap
    /// stops before either.
    #[inline(always)]
    fn count_actions(&mut self) {
        let cap = self.turn_cap;
        for l in 0..L {
            let side = self.board.side[l];
            // The throw starts a turn when the other side acted last, or the run is full.
            let fresh = (self.last[l] != side) | (self.run[l] >= MAX_ACTIONS_PER_TURN);
            let turns = self.turns[l] + u32::from(fresh);
            let run = if fresh { 1 } else { self.run[l] + 1 };
            // The decision belongs to the same turn unless the run is full.
            let full = run >= MAX_ACTIONS_PER_TURN;
            self.run[l] = if full { 1 } else { run + 1 };
            let turns = turns + u32::from(full);
            self.turns[l] = turns;
            self.last[l] = side;
            // A turn that starts past the cap stops the game before it. The count only
            // grows when a turn starts, and a game is retired at its first turn past the
            // cap, so being past it means a turn has just started.
            self.ended[l] = CAPPED * u32::from(turns > cap);
        }
    }

    /// Counts the one action of the side to act in each lane (a throw or a decision) as
    /// [`TurnCounter`](crate::TurnCounter) does, and marks capped the games the turn cap
    /// stops before it.
    #[inline(always)]
    fn count_action(&mut self) {
        let cap = self.turn_cap;
        for l in 0..L {
            let side = self.board.side[l];
            let fresh = (self.last[l] != side) | (self.run[l] >= MAX_ACTIONS_PER_TURN);
            let turns = self.turns[l] + u32::from(fresh);
            self.run[l] = if fresh { 1 } else { self.run[l] + 1 };
            self.turns[l] = turns;
            self.last[l] = side;
            // As in `count_actions`: past the cap only when a turn has just started.
            self.ended[l] = CAPPED * u32::from(turns > cap);
        }
    }

    /// Counts the decision of each lane that made one (its `choices` not 0), unless the cap
    /// stopped its game first, and marks its game won when the decision won it.
    #[inline(always)]
    fn count_actions_decided(&mut self) {
        for l in 0..L {
            let capped = self.ended[l] == CAPPED;
            let decided = self.choices[l] != 0;
            self.decisions[l] += u32::from(decided & !capped);
            self.ended[l] |= WON * u32::from(!capped & self.won[l]);
        }
    }

    /// Draws each lane's choice: one [`uniform_below`] draw among its `choices`.
    #[inline(always)]
    fn draw_choices(&mut self) {
        self.words.uniform_below(&self.choices, &mut self.pick);
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
            // A lane without a game of its own, which plays on unseen, ends nothing.
            if self.ended[l] != PLAYING && self.live[l] && !self.waiting[l] {
                let outcome = (self.ended[l] == WON).then(|| self.rules.outcome(&self.board, l));
                self.retire(l, outcome);
            }
        }
    }

    /// Reports the game of lane `l`, which ended with `outcome` (`None` when the cap stopped
    /// it), and puts the next game in the lane: at once when the words can start it, else
    /// the lane waits at the start position (playing moves nobody sees) until they can.
    /// Only for a lane playing a game of its own (`live` and not `waiting`).
    fn retire(&mut self, l: usize, outcome: Option<Outcome>) {
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
        self.next += 1;
        self.reset(l);
        if self.words.can_start() {
            self.words.start(l, self.index[l]);
        } else {
            self.waiting[l] = true;
            self.any_waiting = true;
        }
    }

    /// Puts lane `l` at the start of a game.
    fn reset(&mut self, l: usize) {
        self.last[l] = NOBODY;
        self.run[l] = 0;
        self.turns[l] = 0;
        self.decisions[l] = 0;
        self.board.set(l, &self.start.0, self.start.1);
        self.rules.restart(l);
    }

    /// Starts the games of the waiting lanes, from the start position again.
    fn start_waiting(&mut self) {
        for l in 0..L {
            if self.waiting[l] {
                self.waiting[l] = false;
                self.reset(l);
                self.words.start(l, self.index[l]);
            }
        }
        self.any_waiting = false;
    }
}

impl<K, W, S, const L: usize> LaneKernel for LockStep<K, W, S, L>
where
    K: Steps<L>,
    W: LaneWords<L>,
    S: FnMut(u64, Playout),
{
    #[inline(always)]
    fn run(&mut self) {
        while self.live.contains(&true) {
            if self.any_waiting && self.words.can_start() {
                self.start_waiting();
            }
            K::step(self);
            if self.any_ended() {
                self.retire_ended();
            }
        }
    }
}

/// The first game of each lane: lane `l` plays game `start + l`, or a copy of the last game
/// when there are fewer games than lanes.
fn first_games<const L: usize>(run: &BatchRun) -> [u64; L] {
    let (start, end) = (run.games.start, run.games.end);
    core::array::from_fn(|l| start.saturating_add(l as u64).min(end.saturating_sub(1)))
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
    play_streams(rules, lanes.map(Paired), run, streams, report);
}

/// Plays the games of `run` as [`play_lock_step`] does, game `i` on stream `i` of ChaCha8
/// seeded with the 32 bytes `seed` (the words of `ChaCha8Rng::from_seed(seed)` after
/// `set_stream(i)`), computed across lanes ([`ChaCha8Lanes`]): the body of a ruleset's
/// [`BatchRules::play_seeded_batch`](super::BatchRules::play_seeded_batch). Without a kernel
/// it plays the games one by one on [`ChaCha8Stream`]s.
pub fn play_lock_step_seeded<R, K, S, const L: usize>(
    rules: &R,
    lanes: Option<K>,
    run: &BatchRun,
    seed: [u8; 32],
    report: S,
) where
    R: Ruleset,
    K: LaneRules<L>,
    S: FnMut(u64, Playout),
{
    play_seeded(rules, lanes.map(Paired), run, seed, report);
}

/// [`play_lock_step`] for a kernel whose steps are single actions ([`LaneActions`]). Such a
/// kernel does a decision's work in every lane at every step, and pays only in vectors wider
/// than the target's baseline: without them (AVX2 on x86-64, asked at run time) the games are
/// played one by one, unless `run` asks for the baseline ([`Instructions::Baseline`]).
pub fn play_action_lock_step<R, K, G, F, S, const L: usize>(
    rules: &R,
    lanes: Option<K>,
    run: &BatchRun,
    streams: F,
    report: S,
) where
    R: Ruleset,
    K: LaneActions<L>,
    G: Rng,
    F: FnMut(u64) -> G,
    S: FnMut(u64, Playout),
{
    play_streams(rules, lanes.map(Single), run, streams, report);
}

/// [`play_lock_step_seeded`] for a kernel whose steps are single actions ([`LaneActions`]),
/// with the same choice of path as [`play_action_lock_step`].
pub fn play_action_lock_step_seeded<R, K, S, const L: usize>(
    rules: &R,
    lanes: Option<K>,
    run: &BatchRun,
    seed: [u8; 32],
    report: S,
) where
    R: Ruleset,
    K: LaneActions<L>,
    S: FnMut(u64, Playout),
{
    play_seeded(rules, lanes.map(Single), run, seed, report);
}

/// The games of `run` with the kernel `lanes`, each lane on its game's own generator.
fn play_streams<R, K, G, F, S, const L: usize>(
    rules: &R,
    lanes: Option<K>,
    run: &BatchRun,
    mut streams: F,
    report: S,
) where
    R: Ruleset,
    K: Steps<L>,
    G: Rng,
    F: FnMut(u64) -> G,
    S: FnMut(u64, Playout),
{
    match (
        lanes.filter(|_| pays(K::ONLY_WIDE, run)),
        kernel_start(rules),
    ) {
        (Some(lanes), Some(begin)) => {
            let rng = first_games::<L>(run).map(&mut streams);
            let words = Streams { rng, streams };
            let mut kernel = LockStep::new(lanes, begin, run, words, report);
            run_kernel(&mut kernel, run.instructions);
        }
        _ => play_one_by_one(rules, run, streams, report),
    }
}

/// The games of `run` with the kernel `lanes`, on ChaCha8 lanes of `seed`.
fn play_seeded<R, K, S, const L: usize>(
    rules: &R,
    lanes: Option<K>,
    run: &BatchRun,
    seed: [u8; 32],
    report: S,
) where
    R: Ruleset,
    K: Steps<L>,
    S: FnMut(u64, Playout),
{
    match (
        lanes.filter(|_| pays(K::ONLY_WIDE, run)),
        kernel_start(rules),
    ) {
        (Some(lanes), Some(begin)) => {
            let mut words = Seeded {
                lanes: ChaCha8Lanes::new(),
                seed,
            };
            for (l, game) in first_games::<L>(run).into_iter().enumerate() {
                words.start(l, game);
            }
            let mut kernel = LockStep::new(lanes, begin, run, words, report);
            run_kernel(&mut kernel, run.instructions);
        }
        _ => play_one_by_one(rules, run, |i| ChaCha8Stream::new(&seed, i), report),
    }
}

/// Whether a kernel runs `run`: one that pays only in wide vectors needs them, or a run that
/// asks for the baseline (tests).
fn pays(only_wide: bool, run: &BatchRun) -> bool {
    !only_wide || run.instructions == Instructions::Baseline || widens(run.instructions)
}

/// The board and side to act at the start of a game, if a kernel can play it: a kernel throws
/// first in every step, so a game must open with a throw.
fn kernel_start<R: Ruleset>(rules: &R) -> Option<(BitBoard, Side)> {
    let start = rules.initial_state();
    match rules.phase(&start) {
        Phase::Throw(side) => Some((*rules.board(&start), side)),
        _ => None,
    }
}

/// Each lane's board seen from the side to act, for [`LaneRules`]: that side's pieces and
/// the other side's (bit `n` is square `n`), the pieces each has borne off, and the side
/// itself (0 for Black, 1 for White). [`play_lock_step`] keeps it and restarts its lanes;
/// a kernel reads it and ends each move with [`settle`](SideLanes::settle).
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

    /// The empty squares of lane `l` (bit `n` is square `n`).
    #[inline(always)]
    pub fn empty(&self, l: usize) -> u32 {
        !(self.own[l] | self.opp[l]) & SquareSet::ALL.bits()
    }

    /// Ends the move of lane `l`, after which the side to act has `own` (and one more piece
    /// off when `leaves`) and the other side `opp`. The move won the game when the side has
    /// now borne off `pieces`; otherwise the other side acts next unless `again` (an extra
    /// throw). Returns whether it won and whether the turn passed (lanes of the kernel's own
    /// kept per side then change places too, with [`hand_over`]).
    #[inline(always)]
    pub fn settle(
        &mut self,
        l: usize,
        (own, opp): (u32, u32),
        leaves: bool,
        pieces: u32,
        again: bool,
    ) -> (bool, bool) {
        let own_off = self.own_off[l] + u32::from(leaves);
        let won = own_off >= pieces;
        let pass_on = !again & !won;
        (self.own[l], self.opp[l]) = hand_over(pass_on, own, opp);
        (self.own_off[l], self.opp_off[l]) = hand_over(pass_on, own_off, self.opp_off[l]);
        self.side[l] ^= u32::from(pass_on);
        (won, pass_on)
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
