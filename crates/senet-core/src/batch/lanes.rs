//! The bookkeeping every lock-step kernel shares: which game each lane plays and where its
//! random words come from (a generator of each game's own, or ChaCha8 computed across lanes),
//! the turn and decision counts of [`random_playout`](crate::random_playout), the random words
//! of the step, and the hand-over when a game ends.

use rand_core::Rng;

use super::ring::{BlockSource, ChaCha8Blocks, GeneratorBlocks, Ring};
use super::{
    BatchRun, ChaCha8Lanes, ChaCha8Stream, LaneKernel, WordsAhead, play_one_by_one, run_kernel,
};
use crate::board::BitBoard;
use crate::playout::{MAX_ACTIONS_PER_TURN, Playout, PlayoutEnd};
use crate::ruleset::{Outcome, Phase, Ruleset};
use crate::side::{PerSide, Side};
use crate::square::SquareSet;
use crate::throw::uniform_below;

/// `ended` of a lane whose game goes on, was won in this step, or was stopped by the cap.
const PLAYING: u32 = 0;
const WON: u32 = 1;
const CAPPED: u32 = 2;

/// The rules half of a lock-step kernel of `L` lanes, for a ruleset that makes, in each step
/// and for each lane, one throw and then one decision (a single pending throw and a move
/// phase after every throw; for other turns see [`LaneActions`]): the steps of the rules on
/// the lanes' boards, which [`play_lock_step`] keeps structure-of-arrays and seen from the
/// side to act ([`SideLanes`]: pieces on the squares and borne off), and on whatever else the
/// rules remember in lanes of the kernel's own (pieces in hand, extra throws). [`play_lock_step`] keeps the rest: the boards and who acts, which game
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

/// The rules half of a lock-step kernel for rulesets whose turns do not go one throw then one
/// decision: throws that are stored and spent later, or lost without a move. A step first
/// lets every lane whose side throws throw, one word a throw, until it has to decide (the
/// other lanes wait and draw nothing), then makes one decision in every lane, one
/// [`uniform_below`] draw each; so every lane decides in every step, whatever number of
/// throws came before. Otherwise as [`LaneRules`] (a game that opens with a throw,
/// `#[inline(always)]` methods, lane loops in `&` and `|`), and [`play_action_lock_step`]
/// keeps the rest.
pub trait LaneActions<const L: usize> {
    /// Puts the kernel's own lanes of lane `l` at the start of a game (its board already
    /// is: the ruleset's initial state, in which the side to act throws).
    fn restart(&mut self, l: usize);

    /// Sets `throws[l]` to whether the side to act in lane `l` throws now (rather than
    /// decides).
    fn throwing(&self, throws: &mut [bool; L]);

    /// Throws at once, in each lane with `throws[l]` that it can, all the throws the side
    /// makes before it decides, from the top bits of the words `ahead` (a throw reads the
    /// top bits of its word), and writes into `taken[l]` how many words it took; `taken`
    /// arrives all 0, and a lane left at 0 throws one throw at a time with
    /// [`throw`](Self::throw). Throws taken here never end the turn. The provided method
    /// takes none.
    fn throw_ahead(
        &mut self,
        board: &SideLanes<L>,
        ahead: &WordsAhead<L>,
        throws: &[bool; L],
        taken: &mut [u32; L],
    ) {
        let _ = (board, ahead, throws, taken);
    }

    /// Throws in each lane with `throws[l]`, reading the throw from the top bits of
    /// `words[l]`, and ends the turn with [`SideLanes::settle`] when the throw does; leaves
    /// the other lanes as they are.
    fn throw(&mut self, board: &mut SideLanes<L>, words: &[u32; L], throws: &[bool; L]);

    /// Finds the moves of every lane, whose side decides now, and writes into `choices` how
    /// many it has (a pass counts as one).
    fn prepare(&mut self, board: &SideLanes<L>, choices: &mut [u32; L]);

    /// Plays choice `picks[l]` in every lane (in the order the ruleset's generator lists the
    /// moves); a turn that passes is ended with [`SideLanes::settle`]. Sets `won[l]` when the
    /// move ended lane `l`'s game.
    fn decide(&mut self, board: &mut SideLanes<L>, picks: &[u32; L], won: &mut [bool; L]);

    /// How the game of lane `l`, which the last [`decide`](Self::decide) won, ended on
    /// `board`.
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
    /// One [`uniform_below`] draw among `choices[l]` for each lane.
    fn uniform_below(&mut self, choices: &[u32; L], picks: &mut [u32; L]);

    /// Whether a lane can start a game now; otherwise it waits, idle, until it can.
    fn can_start(&self) -> bool;

    /// Puts lane `l` at the first word of game `game`'s generator.
    fn start(&mut self, l: usize, game: u64);
}

/// Words drawn by every lane at once, for [`LaneRules`] kernels.
trait WordsInStep<const L: usize>: LaneWords<L> {
    /// The next word of every lane (a throw).
    fn next_words(&mut self, words: &mut [u32; L]);
}

/// Words drawn by some lanes and not others, for [`LaneActions`] kernels: each lane reads
/// its own [`Ring`].
trait WordsApart<const L: usize>: LaneWords<L> {
    /// The next word of each lane with `draws[l]`; the others draw nothing.
    fn next_words_where(&mut self, draws: &[bool; L], words: &mut [u32; L]);

    /// The words ahead of every lane, at least [`AHEAD`](super::ring::AHEAD) of them in each
    /// lane with `needs[l]`.
    fn ahead(&mut self, needs: &[bool; L]) -> WordsAhead<L>;

    /// Moves each lane past its next `taken[l]` words.
    fn advance(&mut self, taken: &[u32; L]);
}

/// A generator of each lane's own, from the caller's `streams(game)`.
struct Streams<G, F, const L: usize> {
    rng: [G; L],
    streams: F,
}

impl<G: Rng, F: FnMut(u64) -> G, const L: usize> LaneWords<L> for Streams<G, F, L> {
    #[inline(always)]
    fn uniform_below(&mut self, choices: &[u32; L], picks: &mut [u32; L]) {
        let lanes = picks.iter_mut().zip(&mut self.rng).zip(choices);
        for ((pick, rng), &choices) in lanes {
            *pick = uniform_below(rng, choices.max(1));
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

impl<G: Rng, F: FnMut(u64) -> G, const L: usize> WordsInStep<L> for Streams<G, F, L> {
    #[inline(always)]
    fn next_words(&mut self, words: &mut [u32; L]) {
        for (word, rng) in words.iter_mut().zip(&mut self.rng) {
            *word = rng.next_u32();
        }
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
    fn uniform_below(&mut self, choices: &[u32; L], picks: &mut [u32; L]) {
        self.lanes.uniform_below(choices, picks);
    }

    #[inline(always)]
    fn can_start(&self) -> bool {
        self.lanes.starts_in_step()
    }

    fn start(&mut self, l: usize, game: u64) {
        self.lanes.start(l, &self.seed, game);
    }
}

impl<const L: usize> WordsInStep<L> for Seeded<L> {
    #[inline(always)]
    fn next_words(&mut self, words: &mut [u32; L]) {
        self.lanes.next_words(words);
    }
}

/// Words read lane by lane from a [`Ring`] over the blocks `S`, each game's from the start
/// `F` gives its lane: the words of [`LaneActions`] kernels. A game starts at once.
struct Ringed<S, F, const L: usize> {
    ring: Ring<S, L>,
    start: F,
}

impl<S, F, const L: usize> LaneWords<L> for Ringed<S, F, L>
where
    S: BlockSource<L>,
    F: FnMut(&mut S, usize, u64),
{
    #[inline(always)]
    fn uniform_below(&mut self, choices: &[u32; L], picks: &mut [u32; L]) {
        self.ring.uniform_below(choices, picks);
    }

    #[inline(always)]
    fn can_start(&self) -> bool {
        true
    }

    fn start(&mut self, l: usize, game: u64) {
        (self.start)(&mut self.ring.source, l, game);
        self.ring.clear(l);
    }
}

impl<S, F, const L: usize> WordsApart<L> for Ringed<S, F, L>
where
    S: BlockSource<L>,
    F: FnMut(&mut S, usize, u64),
{
    #[inline(always)]
    fn next_words_where(&mut self, draws: &[bool; L], words: &mut [u32; L]) {
        self.ring.next_words_where(draws, words);
    }

    #[inline(always)]
    fn ahead(&mut self, needs: &[bool; L]) -> WordsAhead<L> {
        self.ring.fill_ahead(needs);
        self.ring.ahead()
    }

    #[inline(always)]
    fn advance(&mut self, taken: &[u32; L]) {
        self.ring.advance(taken);
    }
}

/// How the steps of a kernel go, drawing from the words `W`: one throw then one decision in
/// every lane ([`Paired`], for [`LaneRules`]), or the throws of the lanes that throw, then a
/// decision in every lane ([`Single`], for [`LaneActions`]).
trait Steps<W: LaneWords<L>, const L: usize>: Sized {
    /// Puts the kernel's own lanes of lane `l` at the start of a game.
    fn restart(&mut self, l: usize);

    /// How the game of lane `l`, won in the last step, ended.
    fn outcome(&self, board: &SideLanes<L>, l: usize) -> Outcome;

    /// Advances every lane by one step.
    fn step<S>(lock: &mut LockStep<Self, W, S, L>)
    where
        S: FnMut(u64, Playout);
}

/// The steps of a [`LaneRules`] kernel: a throw, then a decision.
struct Paired<K>(K);

impl<K: LaneRules<L>, W: WordsInStep<L>, const L: usize> Steps<W, L> for Paired<K> {
    fn restart(&mut self, l: usize) {
        self.0.restart(l);
    }

    fn outcome(&self, board: &SideLanes<L>, l: usize) -> Outcome {
        self.0.outcome(board, l)
    }

    #[inline(always)]
    fn step<S>(lock: &mut LockStep<Self, W, S, L>)
    where
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

/// The steps of a [`LaneActions`] kernel: the throws of the lanes that throw, then a decision
/// in every lane.
struct Single<K>(K);

impl<K> Single<K> {
    /// The throws of the lanes with `throws[l]`, one at a time until they have to decide or
    /// their games are capped: the lanes [`LaneActions::throw_ahead`] leaves.
    #[inline(always)]
    fn throw_one_at_a_time<W, S, const L: usize>(
        lock: &mut LockStep<Self, W, S, L>,
        throws: &mut [bool; L],
    ) where
        K: LaneActions<L>,
        W: WordsApart<L>,
        S: FnMut(u64, Playout),
        Self: Steps<W, L>,
    {
        loop {
            lock.count_actions_where(throws);
            lock.words.next_words_where(throws, &mut lock.word);
            lock.rules.0.throw(&mut lock.board, &lock.word, throws);
            let mut now = [false; L];
            lock.rules.0.throwing(&mut now);
            let mut any = false;
            for l in 0..L {
                throws[l] &= now[l] & (lock.ended[l] == PLAYING);
                any |= throws[l];
            }
            if !any {
                break;
            }
        }
    }
}

impl<K: LaneActions<L>, W: WordsApart<L>, const L: usize> Steps<W, L> for Single<K> {
    fn restart(&mut self, l: usize) {
        self.0.restart(l);
    }

    fn outcome(&self, board: &SideLanes<L>, l: usize) -> Outcome {
        self.0.outcome(board, l)
    }

    #[inline(always)]
    fn step<S>(lock: &mut LockStep<Self, W, S, L>)
    where
        S: FnMut(u64, Playout),
    {
        // Each lane whose side throws throws until it has to decide or the cap stops its
        // game; the others wait. Most of them take all their throws at once from the words
        // ahead, the others throw one at a time.
        let mut throws = [false; L];
        lock.rules.0.throwing(&mut throws);
        let mut any = false;
        for (throws, &ended) in throws.iter_mut().zip(&lock.ended) {
            *throws &= ended == PLAYING;
            any |= *throws;
        }
        let mut taken = [0; L];
        if any {
            let ahead = lock.words.ahead(&throws);
            lock.rules
                .0
                .throw_ahead(&lock.board, &ahead, &throws, &mut taken);
            lock.words.advance(&taken);
            let mut rest = false;
            for (throws, &taken) in throws.iter_mut().zip(&taken) {
                *throws &= taken == 0;
                rest |= *throws;
            }
            if rest {
                Self::throw_one_at_a_time(lock, &mut throws);
            }
        }
        // Then every lane decides, and the throws it took at once are counted with its
        // decision (in a lane whose game has ended, nothing of it is seen).
        lock.count_actions_and_decision(&taken);
        lock.rules.0.prepare(&lock.board, &mut lock.choices);
        lock.draw_choices();
        lock.rules
            .0
            .decide(&mut lock.board, &lock.pick, &mut lock.won);
        lock.count_decisions();
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
    K: Steps<W, L>,
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

    /// Counts one action of the side to act (a throw or a decision) in each lane with
    /// `acts[l]` as [`TurnCounter`](crate::TurnCounter) does, and marks capped the games the
    /// turn cap stops before it, clearing their `acts`.
    #[inline(always)]
    fn count_actions_where(&mut self, acts: &mut [bool; L]) {
        let cap = self.turn_cap;
        for (l, acts_of) in acts.iter_mut().enumerate() {
            let side = self.board.side[l];
            let acts = *acts_of;
            let fresh = (self.last[l] != side) | (self.run[l] >= MAX_ACTIONS_PER_TURN);
            let turns = self.turns[l] + u32::from(acts & fresh);
            let run = if fresh { 1 } else { self.run[l] + 1 };
            // Kept values by arithmetic: a select of a field's own old value would become a
            // masked store (see `LaneRules`).
            let update = 0u32.wrapping_sub(u32::from(acts));
            self.run[l] = self.run[l].wrapping_add(run.wrapping_sub(self.run[l]) & update);
            self.last[l] ^= (self.last[l] ^ side) & update;
            self.turns[l] = turns;
            // As in `count_actions`: past the cap only when a turn has just started.
            let capped = acts & (turns > cap);
            self.ended[l] |= CAPPED * u32::from(capped);
            *acts_of = acts & !capped;
        }
    }

    /// Counts `taken[l]` throws and then a decision of the side to act in each lane, as
    /// [`TurnCounter`](crate::TurnCounter) would one at a time, and marks capped the games
    /// whose turn count has passed the cap. Where in those actions a game was stopped does
    /// not matter: a capped game reports the cap and the decisions before the step.
    #[inline(always)]
    fn count_actions_and_decision(&mut self, taken: &[u32; L]) {
        let cap = self.turn_cap;
        for (l, &taken) in taken.iter().enumerate() {
            let side = self.board.side[l];
            let fresh = (self.last[l] != side) | (self.run[l] >= MAX_ACTIONS_PER_TURN);
            let first_run = if fresh { 1 } else { self.run[l] + 1 };
            // The run as if it never restarted: each time it passes a multiple of the
            // longest run, a new turn starts.
            let through = first_run + taken - 1;
            let turns = self.turns[l] + u32::from(fresh) + through / MAX_ACTIONS_PER_TURN;
            self.run[l] = through % MAX_ACTIONS_PER_TURN + 1;
            self.turns[l] = turns;
            self.last[l] = side;
            self.ended[l] |= CAPPED * u32::from(turns > cap);
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

impl<K, W, S, const L: usize> LockStep<K, W, S, L>
where
    K: Steps<W, L>,
    W: WordsInStep<L>,
    S: FnMut(u64, Playout),
{
    /// Draws each lane's throw word. A lane whose game ends before it throws draws one too:
    /// that game draws nothing more, so the word is never seen.
    #[inline(always)]
    fn draw_throws(&mut self) {
        self.words.next_words(&mut self.word);
    }
}

impl<K, W, S, const L: usize> LaneKernel for LockStep<K, W, S, L>
where
    K: Steps<W, L>,
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

/// [`play_lock_step`] for a kernel whose lanes throw apart ([`LaneActions`]).
pub fn play_action_lock_step<R, K, G, F, S, const L: usize>(
    rules: &R,
    lanes: Option<K>,
    run: &BatchRun,
    mut streams: F,
    report: S,
) where
    R: Ruleset,
    K: LaneActions<L>,
    G: Rng,
    F: FnMut(u64) -> G,
    S: FnMut(u64, Playout),
{
    match plan(rules, lanes.map(Single)) {
        Some((lanes, begin)) => {
            let words = Ringed {
                ring: Ring::new(GeneratorBlocks {
                    rng: first_games::<L>(run).map(&mut streams),
                }),
                start: move |source: &mut GeneratorBlocks<G, L>, l: usize, game: u64| {
                    source.rng[l] = streams(game);
                },
            };
            play_kernel(lanes, begin, run, words, report);
        }
        None => play_one_by_one(rules, run, streams, report),
    }
}

/// [`play_lock_step_seeded`] for a kernel whose lanes throw apart ([`LaneActions`]).
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
    match plan(rules, lanes.map(Single)) {
        Some((lanes, begin)) => {
            let words = Ringed {
                ring: Ring::new(ChaCha8Blocks::new()),
                start: move |source: &mut ChaCha8Blocks<L>, l: usize, game: u64| {
                    source.start(l, &seed, game);
                },
            };
            play_kernel(lanes, begin, run, words, report);
        }
        None => play_one_by_one(rules, run, |i| ChaCha8Stream::new(&seed, i), report),
    }
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
    K: Steps<Streams<G, F, L>, L>,
    G: Rng,
    F: FnMut(u64) -> G,
    S: FnMut(u64, Playout),
{
    match plan(rules, lanes) {
        Some((lanes, begin)) => {
            let rng = first_games::<L>(run).map(&mut streams);
            let words = Streams { rng, streams };
            play_kernel(lanes, begin, run, words, report);
        }
        None => play_one_by_one(rules, run, streams, report),
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
    K: Steps<Seeded<L>, L>,
    S: FnMut(u64, Playout),
{
    match plan(rules, lanes) {
        Some((lanes, begin)) => {
            let words = Seeded {
                lanes: ChaCha8Lanes::new(),
                seed,
            };
            play_kernel(lanes, begin, run, words, report);
        }
        None => play_one_by_one(rules, run, |i| ChaCha8Stream::new(&seed, i), report),
    }
}

/// The kernel and the start of its games, when there is a kernel and it can play the
/// ruleset's games ([`kernel_start`]).
fn plan<R: Ruleset, K>(rules: &R, lanes: Option<K>) -> Option<(K, (BitBoard, Side))> {
    Some((lanes?, kernel_start(rules)?))
}

/// Plays the games of `run` with the kernel `lanes` on `words`, each lane's first game
/// started on them.
fn play_kernel<K, W, S, const L: usize>(
    lanes: K,
    begin: (BitBoard, Side),
    run: &BatchRun,
    mut words: W,
    report: S,
) where
    K: Steps<W, L>,
    W: LaneWords<L>,
    S: FnMut(u64, Playout),
{
    for (l, game) in first_games::<L>(run).into_iter().enumerate() {
        words.start(l, game);
    }
    let mut kernel = LockStep::new(lanes, begin, run, words, report);
    run_kernel(&mut kernel, run.instructions);
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
        // Both counts are written in every lane, as a swap by masks: a select that keeps
        // `opp_off` where the turn stays becomes a masked store, slow on x86.
        let swap = (own_off ^ self.opp_off[l]) & 0u32.wrapping_sub(u32::from(pass_on));
        self.opp_off[l] ^= swap;
        self.own_off[l] = own_off ^ swap;
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
