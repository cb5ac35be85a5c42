//! Expectiminimax: search over moves and throws, with the throws weighted by the device's
//! exact outcome table.

use core::hash::{BuildHasherDefault, Hasher};
use std::collections::{HashMap, HashSet};

use rand_core::Rng;
use senet_core::{Move, MoveList, Phase, Ruleset, Side, ThrowOutcome, ThrowingDevice};

use crate::eval::{Evaluator, RaceEvaluator};
use crate::player::{
    Analysis, Decision, Player, PlayerError, ValueKind, first_best, outcome_value,
};

/// How much an [`Expectiminimax`] player searches. Never a clock: the same position always
/// gets the same search and the same move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Budget {
    /// Search this many decisions deep (at least 1, at most [`MAX_DEPTH`]). Every move
    /// counts, whoever makes it (a side that throws again after its move makes the next
    /// decision too); throws do not count. With
    /// [`with_whole_turns`](Expectiminimax::with_whole_turns) (the `learned` player), the
    /// moves one side makes with no throw between (Kendall's stored throws, spent one move
    /// at a time) count together as one decision. A search that would visit more than
    /// [`MAX_SEARCH_NODES`] nodes stops at the deepest depth that fits.
    Depth(u32),
    /// Search depth 1, 2, 3, … and keep the deepest search that finished before the nodes
    /// visited (over all depths) exceeded this number (at most [`MAX_SEARCH_NODES`]). Depth 1
    /// is always finished.
    Nodes(u64),
}

/// How chance nodes are pruned. All three give the same values (the tests check this);
/// they differ only in the work done.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Pruning {
    /// Plain expectiminimax: every child of every node is searched.
    None,
    /// Alpha-beta at decision nodes, and Ballard's Star1 at chance nodes: since every value
    /// lies in `[0, 1]`, the outcomes not yet searched bound a chance node's value, and the
    /// search of an outcome stops as soon as the node's value is known to fall outside the
    /// window its parent cares about. The default: it never searches more than plain
    /// expectiminimax, and cuts more the more the evaluation separates positions.
    #[default]
    Star1,
    /// Star1, preceded by Ballard's Star2 probing: each outcome's decision is first searched
    /// through its most promising move only, which bounds it from one side (from below for the
    /// side whose value is maximised, from above for the other), sometimes enough to cut the
    /// whole chance node before any full search. Without a transposition table the probed
    /// move is searched again afterwards; on Regency at depth 3 and more that costs more
    /// than the cuts save (see `docs/players.md`), so it is not the default.
    Star2,
}

/// Consecutive throws (with no move in between) searched before the position is evaluated
/// statically: stored-throw rulesets throw again and again before they move.
const MAX_THROW_CHAIN: u8 = 4;

/// [`MAX_THROW_CHAIN`] for a search by whole turns: each turn it follows is searched through
/// every position it can end in, so its throws are cut shorter to keep the time of a move
/// near that of a search by single moves (on Kendall a third throw in a row comes in one
/// turn in seven).
const MAX_THROW_CHAIN_WHOLE_TURNS: u8 = 2;

/// The most positions in the middle of one turn that a search by whole turns expands; the
/// positions beyond them are valued where they stand, as if the turn ended there. A turn of
/// random Kendall play holds 1.6 throws and stays far below it; a position set up with many
/// throws held would otherwise multiply its orders without end.
const MAX_TURN_POSITIONS: usize = 20_000;

/// The expectiminimax player.
///
/// It searches the game tree of the turn machine: at a decision the side to move picks the
/// move best for itself; at a throw every outcome of the device is followed, weighted by its
/// exact probability. Whoever acts next is read from the ruleset's phase, so extra throws
/// (the same side acting again), stored throws spent one move at a time, and multi-step
/// moves are all searched as the rules play them. At the depth limit, positions are scored
/// by the [`Evaluator`] (the [`RaceEvaluator`] unless another is given), an estimate of the
/// probability of winning; finished games score 1, ½ or 0.
///
/// Every root move is searched with the full window, so the [`Analysis`] gives each move its
/// exact depth-limited value; below the root, [`Pruning`] (Star1 by default) skips what
/// cannot change those values.
///
/// ```
/// use senet::rng::ChaCha8Rng;
/// use senet::rng::SeedableRng;
/// use senet::ai::{Budget, Expectiminimax, Player, ValueKind};
/// use senet::{Game, Ruleset, Throw};
/// use senet::Regency;
///
/// let mut game = Game::new(Regency::default());
/// game.throw(Throw::at(3)).unwrap();
/// let mut player = Expectiminimax::new(Budget::Depth(3));
/// let mut rng = ChaCha8Rng::seed_from_u64(0);
/// let analysis = player.analyse(game.rules(), game.state(), &mut rng).unwrap();
/// assert_eq!(analysis.kind(), ValueKind::EstimatedWinProbability);
/// assert!(analysis.moves().iter().all(|m| (0.0..=1.0).contains(&m.value)));
/// assert_eq!(player.last_search().depth, 3);
/// ```
#[derive(Clone, Debug)]
pub struct Expectiminimax<R: Ruleset, E = RaceEvaluator> {
    evaluator: E,
    budget: Budget,
    pruning: Pruning,
    scratch: Scratch<R>,
    last: SearchInfo,
    /// [`MAX_SEARCH_NODES`], lower in tests.
    node_cap: u64,
    /// The player's name before its budget: `expectiminimax`, or `learned` over a network.
    name: &'static str,
    /// Whether a turn's moves with no throw between count as one decision.
    whole_turns: bool,
}

/// What the last search did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SearchInfo {
    /// The depth whose values were returned.
    pub depth: u32,
    /// Nodes visited, over every depth searched.
    pub nodes: u64,
}

#[derive(Clone, Debug)]
struct Scratch<R: Ruleset> {
    moves: MoveList,
    /// A stack of child positions with their static values; each decision node pushes its
    /// children and pops them when it returns.
    children: Vec<(R::State, f64)>,
    /// A stack of (lower, upper) bounds of chance-node outcomes.
    bounds: Vec<(f64, f64)>,
    /// The positions in the middle of a turn still to expand, and those already seen, while
    /// a decision gathers the positions its turn can end in ([`Search::turn_ends`]).
    turn_stack: Vec<R::State>,
    turn_seen: HashSet<R::State, BuildHasherDefault<FxHasher>>,
    turn_ends: HashSet<R::State, BuildHasherDefault<FxHasher>>,
    /// The positions the root's turn can end in, searched: each with its value and the
    /// alpha it was searched under (a value at most that alpha is only an upper bound).
    /// Every first move of a turn of several moves leads to most of the same ends, so each
    /// is searched once per root search.
    root_ends: HashMap<R::State, (f64, f64), BuildHasherDefault<FxHasher>>,
}

impl<R: Ruleset> Default for Scratch<R> {
    fn default() -> Self {
        Scratch {
            moves: MoveList::new(),
            children: Vec::new(),
            bounds: Vec::new(),
            turn_stack: Vec::new(),
            turn_seen: HashSet::default(),
            turn_ends: HashSet::default(),
            root_ends: HashMap::default(),
        }
    }
}

/// A fast hash for positions (the multiply-rotate hash of rustc's `FxHasher`): the sets of
/// [`Scratch`] hold positions of one turn, never chosen by an adversary.
#[derive(Clone, Copy, Debug, Default)]
struct FxHasher(u64);

impl FxHasher {
    #[inline]
    fn add(&mut self, word: u64) {
        self.0 = (self.0.rotate_left(5) ^ word).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
}

impl Hasher for FxHasher {
    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut word = [0u8; 8];
            word[..chunk.len()].copy_from_slice(chunk);
            self.add(u64::from_le_bytes(word));
        }
    }

    #[inline]
    fn write_u8(&mut self, i: u8) {
        self.add(u64::from(i));
    }

    #[inline]
    fn write_u16(&mut self, i: u16) {
        self.add(u64::from(i));
    }

    #[inline]
    fn write_u32(&mut self, i: u32) {
        self.add(u64::from(i));
    }

    #[inline]
    fn write_u64(&mut self, i: u64) {
        self.add(i);
    }

    #[inline]
    fn write_usize(&mut self, i: usize) {
        self.add(i as u64);
    }

    #[inline]
    fn finish(&self) -> u64 {
        self.0
    }
}

impl<R: Ruleset> Expectiminimax<R, RaceEvaluator> {
    /// Expectiminimax with the default evaluation and Star1 pruning.
    pub fn new(budget: Budget) -> Self {
        Expectiminimax::with_evaluator(budget, RaceEvaluator::default())
    }
}

impl<R: Ruleset, E: Evaluator<R>> Expectiminimax<R, E> {
    /// Expectiminimax with another evaluation function.
    pub fn with_evaluator(budget: Budget, evaluator: E) -> Self {
        Expectiminimax {
            evaluator,
            budget,
            pruning: Pruning::default(),
            scratch: Scratch::default(),
            last: SearchInfo::default(),
            node_cap: MAX_SEARCH_NODES,
            name: "expectiminimax",
            whole_turns: false,
        }
    }

    /// The same player under another name (the part of [`Player::name`] before the budget),
    /// for a search that is known by its evaluation, such as `learned`.
    #[must_use]
    pub fn named(mut self, name: &'static str) -> Self {
        self.name = name;
        self
    }

    /// The same player searching by whole turns (or not, the default): the moves one side
    /// makes with no throw between count as one decision, whose choices are the distinct
    /// positions the turn can end in (every order of the moves is followed, each position in
    /// the middle of the turn once), so a leaf is never in the middle of a turn; and at most
    /// two throws in a row are followed before the position is evaluated. Only rulesets with
    /// such turns are searched differently: Kendall's stored throws, spent one move at a time.
    #[must_use]
    pub fn with_whole_turns(mut self, whole_turns: bool) -> Self {
        self.whole_turns = whole_turns;
        self
    }

    /// The same player with another pruning method.
    #[must_use]
    pub fn with_pruning(mut self, pruning: Pruning) -> Self {
        self.pruning = pruning;
        self
    }

    /// The budget.
    pub fn budget(&self) -> Budget {
        self.budget
    }

    /// What the last search did (an analysis with a single legal move searches nothing and
    /// leaves this as it was).
    pub fn last_search(&self) -> SearchInfo {
        self.last
    }

    /// The value for the side to move of each move in `moves` (legal in `state`) as `root`
    /// asks for it, or `None` when its node limit was reached first.
    fn search_root(
        &mut self,
        rules: &R,
        state: &R::State,
        moves: &[Move],
        root: RootSearch,
        nodes: &mut u64,
    ) -> Option<Vec<f64>> {
        let RootSearch {
            depth,
            node_limit,
            find,
        } = root;
        let me = rules.phase(state).side()?;
        let device = rules.device();
        let denominator = f64::from(device.denominator());
        let mut search = Search {
            rules,
            evaluator: &self.evaluator,
            me,
            pruning: self.pruning,
            outcomes: device.outcomes(),
            denominator,
            nodes: *nodes,
            node_limit,
            whole_turns: self.whole_turns,
            max_throws: if self.whole_turns {
                MAX_THROW_CHAIN_WHOLE_TURNS
            } else {
                MAX_THROW_CHAIN
            },
            root_depth: depth,
            scratch: &mut self.scratch,
        };
        search.scratch.root_ends.clear();
        let mut values = Vec::with_capacity(moves.len());
        let mut best = 0.0f64;
        for &mv in moves {
            let mut child = *state;
            rules.play_unchecked(&mut child, mv);
            // A move that leaves the side to move again with no throw between does not count
            // (Budget::Depth): the child's decision searches the rest of the turn.
            let same_turn =
                self.whole_turns && matches!(rules.phase(&child), Phase::Move(s) if s == me);
            let alpha = match find {
                Root::EveryValue => 0.0,
                Root::BestMove => best,
            };
            let v = search.value(&child, depth - u32::from(!same_turn), alpha, 1.0, 0);
            if search.nodes > search.node_limit {
                *nodes = search.nodes;
                return None;
            }
            best = best.max(v);
            values.push(v);
        }
        *nodes = search.nodes;
        Some(values)
    }
}

/// The deepest search: a depth budget above it is searched this deep, and iterative
/// deepening under a node budget stops here. The search recurses a few frames per level, so
/// this keeps it far inside the smallest thread stack (a test searches this deep on a
/// 256 KiB stack); the node cap below bounds the time.
pub const MAX_DEPTH: u32 = 64;

/// The most nodes one decision visits, whatever the budget: a node budget above it is
/// lowered to it, and a depth search that would visit more gives the values of the deepest
/// depth that finished within it (iterative deepening). See `docs/players.md` for the time
/// this takes.
pub const MAX_SEARCH_NODES: u64 = 50_000_000;

impl<R: Ruleset, E: Evaluator<R>> Player<R> for Expectiminimax<R, E> {
    fn name(&self) -> String {
        match self.budget {
            Budget::Depth(d) => format!("{}:{d}", self.name),
            Budget::Nodes(n) => format!("{}:nodes={n}", self.name),
        }
    }

    fn value(&mut self, at: Decision<'_, R>, _rng: &mut dyn Rng) -> Result<Analysis, PlayerError> {
        let Decision {
            rules,
            state,
            moves,
            ..
        } = at;
        let mut nodes = 0;
        let (depth, values) = match self.budget {
            Budget::Depth(d) => {
                let d = d.clamp(1, MAX_DEPTH);
                let root = RootSearch {
                    depth: d,
                    node_limit: self.node_cap,
                    find: Root::EveryValue,
                };
                match self.search_root(rules, state, moves, root, &mut nodes) {
                    Some(values) => (d, values),
                    None => {
                        // Start again within the cap: the failed search counts only as spent.
                        let mut again = 0;
                        let found =
                            self.deepening(rules, state, moves, d, self.node_cap, &mut again);
                        nodes += again;
                        found
                    }
                }
            }
            Budget::Nodes(limit) => self.deepening(
                rules,
                state,
                moves,
                MAX_DEPTH,
                limit.min(self.node_cap),
                &mut nodes,
            ),
        };
        self.last = SearchInfo { depth, nodes };
        Ok(Analysis::best_of(
            moves,
            &values,
            ValueKind::EstimatedWinProbability,
        ))
    }

    /// The move [`value`](Player::value) would choose, found with less work under a depth
    /// budget: each move is searched only as far as it takes to show that it is no better
    /// than the best before it (alpha-beta at the root). When that search needs more than
    /// the node cap, the analysis decides.
    fn choose_at(&mut self, at: Decision<'_, R>, rng: &mut dyn Rng) -> Result<Move, PlayerError> {
        let Budget::Depth(d) = self.budget else {
            return self.value(at, rng).map(|a| a.chosen());
        };
        let depth = d.clamp(1, MAX_DEPTH);
        let mut nodes = 0;
        let root = RootSearch {
            depth,
            node_limit: self.node_cap,
            find: Root::BestMove,
        };
        match self.search_root(at.rules, at.state, at.moves, root, &mut nodes) {
            Some(values) => {
                self.last = SearchInfo { depth, nodes };
                Ok(at.moves[first_best(&values)])
            }
            None => self.value(at, rng).map(|a| a.chosen()),
        }
    }
}

/// One search of the root's moves: how many decisions deep (at least 1), within how many
/// nodes, and what it must find.
#[derive(Clone, Copy)]
struct RootSearch {
    depth: u32,
    node_limit: u64,
    find: Root,
}

/// What a search of the root's moves must find.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Root {
    /// The value of every move.
    EveryValue,
    /// The best move only: a move no better than an earlier one may be valued by an upper
    /// bound.
    BestMove,
}

impl<R: Ruleset, E: Evaluator<R>> Expectiminimax<R, E> {
    /// Iterative deepening: searches depth 1, 2, … up to `max_depth` and keeps the deepest
    /// search that finished within `limit` nodes (over all depths; depth 1 always finishes).
    fn deepening(
        &mut self,
        rules: &R,
        state: &R::State,
        moves: &[senet_core::Move],
        max_depth: u32,
        limit: u64,
        nodes: &mut u64,
    ) -> (u32, Vec<f64>) {
        let mut best = (0, Vec::new());
        let mut previous_nodes = None;
        for d in 1..=max_depth {
            let before = *nodes;
            let cap = if d == 1 { u64::MAX } else { limit };
            let root = RootSearch {
                depth: d,
                node_limit: cap,
                find: Root::EveryValue,
            };
            match self.search_root(rules, state, moves, root, nodes) {
                Some(values) => best = (d, values),
                None => break,
            }
            // A search that visits no more nodes than the one before has reached the
            // end of every line: deeper searches would give the same values.
            let used = *nodes - before;
            if previous_nodes == Some(used) {
                break;
            }
            previous_nodes = Some(used);
        }
        best
    }
}

struct Search<'a, R: Ruleset, E> {
    rules: &'a R,
    evaluator: &'a E,
    /// The side whose winning chance every value is.
    me: Side,
    pruning: Pruning,
    outcomes: &'static [ThrowOutcome],
    denominator: f64,
    nodes: u64,
    node_limit: u64,
    /// [`Expectiminimax::with_whole_turns`].
    whole_turns: bool,
    /// Throws in a row followed before the position is evaluated.
    max_throws: u8,
    /// The depth of the root's decision: a decision this deep is the rest of the root's
    /// turn (only a search by whole turns keeps the depth within a turn).
    root_depth: u32,
    scratch: &'a mut Scratch<R>,
}

impl<R: Ruleset, E: Evaluator<R>> Search<'_, R, E> {
    /// The static value of a position: exact when the game is over.
    #[inline]
    fn leaf(&self, state: &R::State) -> f64 {
        match self.rules.phase(state) {
            Phase::Over(outcome) => outcome_value(&outcome, self.me),
            _ => self
                .evaluator
                .evaluate(self.rules, state, self.me)
                .clamp(0.0, 1.0),
        }
    }

    /// The value of `state` searched `depth` decisions deep, fail-soft: a result `≤ alpha`
    /// is an upper bound of the true value, `≥ beta` a lower bound, and exact in between.
    /// `throws` counts the throws since the last move.
    fn value(&mut self, state: &R::State, depth: u32, alpha: f64, beta: f64, throws: u8) -> f64 {
        self.nodes += 1;
        if self.nodes > self.node_limit {
            return 0.5;
        }
        match self.rules.phase(state) {
            Phase::Over(outcome) => outcome_value(&outcome, self.me),
            _ if depth == 0 => self.leaf(state),
            Phase::Throw(_) if throws >= self.max_throws => self.leaf(state),
            Phase::Throw(_) => self.chance(state, depth, alpha, beta, throws + 1),
            Phase::Move(side) => self.decision(state, side, depth, alpha, beta, false),
        }
    }

    /// A throw: the outcomes weighted by their probabilities.
    fn chance(&mut self, state: &R::State, depth: u32, alpha: f64, beta: f64, throws: u8) -> f64 {
        let rules = self.rules;
        let outcomes = self.outcomes;
        let denominator = self.denominator;
        let p = |o: &ThrowOutcome| f64::from(o.weight) / denominator;
        let after = |o: &ThrowOutcome| {
            let mut next = *state;
            rules.throw_unchecked(&mut next, o.value);
            next
        };
        if self.pruning == Pruning::None {
            return outcomes
                .iter()
                .map(|o| p(o) * self.value(&after(o), depth, 0.0, 1.0, throws))
                .sum();
        }
        let base = self.scratch.bounds.len();
        self.scratch
            .bounds
            .extend(core::iter::repeat_n((0.0, 1.0), outcomes.len()));
        let result = self.chance_pruned(state, depth, alpha, beta, throws, base);
        self.scratch.bounds.truncate(base);
        result
    }

    fn chance_pruned(
        &mut self,
        state: &R::State,
        depth: u32,
        alpha: f64,
        beta: f64,
        throws: u8,
        base: usize,
    ) -> f64 {
        let rules = self.rules;
        let outcomes = self.outcomes;
        let n = outcomes.len();
        let denominator = self.denominator;
        let p = |i: usize| f64::from(outcomes[i].weight) / denominator;
        let after = |i: usize| {
            let mut next = *state;
            rules.throw_unchecked(&mut next, outcomes[i].value);
            next
        };
        // Σ p·lower and Σ p·upper over every outcome, kept up to date as bounds tighten.
        let (mut lo_sum, mut hi_sum): (f64, f64) = (0.0, (0..n).map(p).sum());
        if self.pruning == Pruning::Star2 {
            for i in 0..n {
                let child = after(i);
                let Phase::Move(side) = rules.phase(&child) else {
                    continue;
                };
                let (lo, hi) = self.scratch.bounds[base + i];
                let (new_lo, new_hi) = if depth == 1 {
                    // Its moves lead straight to leaves: evaluating them all costs no more
                    // than a probe, and gives the exact value.
                    let exact = self.decision(&child, side, 1, 0.0, 1.0, false);
                    (exact, exact)
                } else {
                    let a = ((alpha - (hi_sum - p(i) * hi)) / p(i)).max(0.0);
                    let b = ((beta - (lo_sum - p(i) * lo)) / p(i)).min(1.0);
                    let probe = self.decision(&child, side, depth, a, b, true);
                    if side == self.me && probe > a {
                        // The best move is at least as good as the first one.
                        (lo.max(probe).min(hi), hi)
                    } else if side != self.me && probe < b {
                        (lo, hi.min(probe).max(lo))
                    } else {
                        (lo, hi)
                    }
                };
                lo_sum += p(i) * (new_lo - lo);
                hi_sum += p(i) * (new_hi - hi);
                self.scratch.bounds[base + i] = (new_lo, new_hi);
                if lo_sum >= beta {
                    return lo_sum;
                }
                if hi_sum <= alpha {
                    return hi_sum;
                }
            }
        }
        for i in 0..n {
            let (lo, hi) = self.scratch.bounds[base + i];
            if lo >= hi {
                continue;
            }
            let others_lo = lo_sum - p(i) * lo;
            let others_hi = hi_sum - p(i) * hi;
            // The child values that would put this node outside (alpha, beta).
            let a = (alpha - others_hi) / p(i);
            let b = (beta - others_lo) / p(i);
            let (wa, wb) = (a.max(lo), b.min(hi));
            let v = self.value(&after(i), depth, wa, wb, throws);
            if v >= wb && b <= hi {
                // Fails high: this node is worth at least beta.
                return (others_lo + p(i) * v).max(beta);
            }
            if v <= wa && a >= lo {
                // Fails low: this node is worth at most alpha.
                return (others_hi + p(i) * v).min(alpha);
            }
            let exact = if v >= wb {
                hi
            } else if v <= wa {
                lo
            } else {
                v
            };
            lo_sum = others_lo + p(i) * exact;
            hi_sum = others_hi + p(i) * exact;
            self.scratch.bounds[base + i] = (exact, exact);
        }
        lo_sum
    }

    /// Replaces the children of a decision by `side` (`scratch.children[base..]`, some of
    /// them positions where `side` decides again with no throw between) with every distinct
    /// position the turn can end in: after a move that passes the turn, makes a throw due,
    /// or ends the game. Every order of the turn's moves is followed, each position in the
    /// middle of the turn once, up to [`MAX_TURN_POSITIONS`] of them.
    // Kept out of `decision`, whose frame every level of the search repeats.
    #[inline(never)]
    fn turn_ends(&mut self, side: Side, base: usize) {
        let rules = self.rules;
        let Scratch {
            moves,
            children,
            turn_stack: stack,
            turn_seen: seen,
            turn_ends: ends,
            ..
        } = &mut *self.scratch;
        stack.clear();
        seen.clear();
        ends.clear();
        let mut place = |next: R::State, stack: &mut Vec<R::State>| {
            let mid_turn = matches!(rules.phase(&next), Phase::Move(s) if s == side);
            if mid_turn && seen.len() < MAX_TURN_POSITIONS {
                if seen.insert(next) {
                    stack.push(next);
                }
            } else {
                ends.insert(next);
            }
        };
        for (next, _) in children.drain(base..) {
            place(next, stack);
        }
        while let Some(state) = stack.pop() {
            self.nodes += 1;
            // The decision's own moves are already played into its children.
            rules.generate_moves(&state, moves);
            for &mv in moves.iter() {
                let mut next = state;
                rules.play_unchecked(&mut next, mv);
                place(next, stack);
            }
        }
        children.extend(ends.drain().map(|end| (end, 0.0)));
    }

    /// A decision by `side`: the best child for it (alpha-beta, fail-soft). With
    /// `first_only`, only the most promising move is searched (a Star2 probe).
    fn decision(
        &mut self,
        state: &R::State,
        side: Side,
        depth: u32,
        mut alpha: f64,
        mut beta: f64,
        first_only: bool,
    ) -> f64 {
        let rules = self.rules;
        let maximise = side == self.me;
        rules.generate_moves(state, &mut self.scratch.moves);
        let base = self.scratch.children.len();
        let whole_turns = self.whole_turns;
        let mut same_turn = false;
        for i in 0..self.scratch.moves.len() {
            let mut next = *state;
            rules.play_unchecked(&mut next, self.scratch.moves[i]);
            same_turn |= whole_turns && matches!(rules.phase(&next), Phase::Move(s) if s == side);
            self.scratch.children.push((next, 0.0));
        }
        if same_turn {
            // The side decides again: its choice is among the positions the turn ends in.
            self.turn_ends(side, base);
        }
        if depth == 1 {
            // The children are leaves: their static values are their values, and the first
            // one outside the window settles the node (fail-soft).
            let end = if first_only {
                (base + 1).min(self.scratch.children.len())
            } else {
                self.scratch.children.len()
            };
            let mut best = if maximise {
                f64::NEG_INFINITY
            } else {
                f64::INFINITY
            };
            let exhaustive = self.pruning == Pruning::None;
            for i in base..end {
                self.nodes += 1;
                let v = self.leaf(&self.scratch.children[i].0);
                let settled = if maximise {
                    best = best.max(v);
                    best >= beta
                } else {
                    best = best.min(v);
                    best <= alpha
                };
                if settled && !exhaustive {
                    break;
                }
            }
            self.scratch.children.truncate(base);
            return best;
        }
        for i in base..self.scratch.children.len() {
            let key = self.leaf(&self.scratch.children[i].0);
            self.scratch.children[i].1 = key;
        }
        let children = &mut self.scratch.children[base..];
        // Most promising first, by static value.
        if maximise {
            children.sort_unstable_by(|x, y| y.1.total_cmp(&x.1));
        } else {
            children.sort_unstable_by(|x, y| x.1.total_cmp(&y.1));
        }
        let count = if first_only { 1 } else { children.len() };
        let mut best = if maximise {
            f64::NEG_INFINITY
        } else {
            f64::INFINITY
        };
        let exhaustive = self.pruning == Pruning::None;
        let root_turn = self.whole_turns && depth == self.root_depth;
        for i in 0..count {
            let child = self.scratch.children[base + i].0;
            let window = if exhaustive {
                (0.0, 1.0)
            } else {
                (alpha, beta)
            };
            // An exact value, or an upper bound that still fails low (looked up only in the
            // root's turn: deeper, the table holds nothing).
            let known = match root_turn
                .then(|| self.scratch.root_ends.get(&child))
                .flatten()
            {
                Some(&(v, under)) if v > under || window.0 >= under => Some(v),
                _ => None,
            };
            let v = match known {
                Some(v) => v,
                None => {
                    let v = self.value(&child, depth - 1, window.0, window.1, 0);
                    if root_turn {
                        self.scratch.root_ends.insert(child, (v, window.0));
                    }
                    v
                }
            };
            if maximise {
                best = best.max(v);
                alpha = alpha.max(v);
            } else {
                best = best.min(v);
                beta = beta.min(v);
            }
            if (alpha >= beta && !exhaustive) || self.nodes > self.node_limit {
                break;
            }
        }
        self.scratch.children.truncate(base);
        best
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand_chacha::ChaCha8Rng;
    use rand_core::SeedableRng;
    use senet_core::Game;
    use senet_core::Throw;

    /// The best static value of a position the turn of `side` can end in from `state`, by
    /// every order of its moves (no pruning, no merging).
    #[cfg(feature = "kendall")]
    fn best_turn_end<R: Ruleset>(rules: &R, state: &R::State, side: Side, me: Side) -> f64 {
        if !matches!(rules.phase(state), Phase::Move(s) if s == side) {
            let search = RaceEvaluator::default();
            return match rules.phase(state) {
                Phase::Over(outcome) => outcome_value(&outcome, me),
                _ => search.evaluate(rules, state, me).clamp(0.0, 1.0),
            };
        }
        let mut moves = MoveList::new();
        rules.generate_moves(state, &mut moves);
        let values = moves.iter().map(|&mv| {
            let mut next = *state;
            rules.play_unchecked(&mut next, mv);
            best_turn_end(rules, &next, side, me)
        });
        if side == me {
            values.fold(f64::NEG_INFINITY, f64::max)
        } else {
            values.fold(f64::INFINITY, f64::min)
        }
    }

    /// On Kendall with stored throws, a search by whole turns values each move at depth 1
    /// by the best position the rest of the turn can end in, and its pruning and merging of
    /// the turn's orders change no value at depth 2; without stored throws (Regency) it
    /// searches exactly as the search by moves.
    #[cfg(all(feature = "kendall", feature = "regency"))]
    #[test]
    fn whole_turns_search_every_end_of_a_stored_turn() {
        let mut rng = ChaCha8Rng::seed_from_u64(0);
        let mut game = Game::new(senet_kendall::Kendall::default());
        for value in [4, 1, 5, 2] {
            game.throw(Throw::at(value)).unwrap();
        }
        let (rules, state) = (game.rules(), game.state());
        let me = rules.phase(state).side().unwrap();
        let mut moves = MoveList::new();
        rules.generate_moves(state, &mut moves);
        assert!(moves.len() > 4, "{}", rules.position_string(state));
        let mut player = Expectiminimax::new(Budget::Depth(1)).with_whole_turns(true);
        let analysis = player.analyse(rules, state, &mut rng).unwrap();
        for value in analysis.moves() {
            let mut next = *state;
            rules.play_unchecked(&mut next, value.mv);
            let expected = best_turn_end(rules, &next, me, me);
            assert!((value.value - expected).abs() < 1e-12, "{}", value.mv);
        }
        let mut reference = None;
        for pruning in [Pruning::None, Pruning::Star1, Pruning::Star2] {
            let mut player = Expectiminimax::new(Budget::Depth(2))
                .with_whole_turns(true)
                .with_pruning(pruning);
            let values: Vec<f64> = player
                .analyse(rules, state, &mut rng)
                .unwrap()
                .moves()
                .iter()
                .map(|m| m.value)
                .collect();
            let reference = reference.get_or_insert_with(|| values.clone());
            for (a, b) in reference.iter().zip(&values) {
                assert!((a - b).abs() < 1e-12, "{pruning:?}: {a} vs {b}");
            }
        }

        let mut game = Game::new(senet_regency::Regency::default());
        game.throw(Throw::at(3)).unwrap();
        let by_moves = Expectiminimax::new(Budget::Depth(3))
            .analyse(game.rules(), game.state(), &mut rng)
            .unwrap();
        let mut player = Expectiminimax::new(Budget::Depth(3)).with_whole_turns(true);
        let by_turns = player
            .analyse(game.rules(), game.state(), &mut rng)
            .unwrap();
        assert_eq!(by_moves, by_turns);
    }

    /// On Kendall with stored throws, choosing by whole turns (each end of the root's turn
    /// searched once, moves cut at the root) picks the move the analysis picks, with fewer
    /// nodes.
    #[cfg(feature = "kendall")]
    #[test]
    fn choosing_by_whole_turns_picks_the_analysis_choice() {
        use senet_core::DEFAULT_TURN_CAP;
        let rules = senet_kendall::Kendall::default();
        let mut rng = ChaCha8Rng::seed_from_u64(4);
        let states = senet_testkit::conformance::sample_states(
            &rules,
            &mut rng,
            60,
            DEFAULT_TURN_CAP,
            |p| matches!(p, Phase::Move(_)),
        );
        for pruning in [Pruning::None, Pruning::Star1, Pruning::Star2] {
            let mut player = Expectiminimax::new(Budget::Depth(2))
                .with_whole_turns(true)
                .with_pruning(pruning);
            let mut nodes = [0u64; 2];
            for state in &states {
                let analysis = player.analyse(&rules, state, &mut rng).unwrap();
                nodes[0] += player.last_search().nodes;
                let chosen = player.choose(&rules, state, &mut rng).unwrap();
                nodes[1] += player.last_search().nodes;
                let position = rules.position_string(state);
                assert_eq!(chosen, analysis.chosen(), "{pruning:?}: {position}");
            }
            assert!(nodes[1] <= nodes[0], "{pruning:?}: {nodes:?}");
        }
    }

    /// A turn holding many throws is expanded up to the cap of positions in the middle of a
    /// turn, not through every order of its moves.
    #[cfg(feature = "kendall")]
    #[test]
    fn whole_turns_expand_a_long_turn_up_to_the_cap() {
        let mut rng = ChaCha8Rng::seed_from_u64(0);
        let mut game = Game::new(senet_kendall::Kendall::default());
        // Sixteen 1s and a 2: far more orders of moves than the cap of positions.
        for _ in 0..16 {
            game.throw(Throw::at(1)).unwrap();
        }
        game.throw(Throw::at(2)).unwrap();
        let (rules, state) = (game.rules(), game.state());
        let mut moves = MoveList::new();
        rules.generate_moves(state, &mut moves);
        let mut player = Expectiminimax::new(Budget::Depth(1)).with_whole_turns(true);
        let analysis = player.analyse(rules, state, &mut rng).unwrap();
        assert_eq!(analysis.moves().len(), moves.len());
        let nodes = player.last_search().nodes;
        let cap = (moves.len() * (MAX_TURN_POSITIONS + 1)) as u64;
        assert!(nodes <= cap, "{nodes} nodes for {} root moves", moves.len());
        assert!(
            nodes > MAX_TURN_POSITIONS as u64,
            "only {nodes} nodes: the cap was not met"
        );
    }

    /// The deepest search fits in a small thread stack, and a depth beyond the cap or a node
    /// budget beyond the cap stops at the caps.
    #[test]
    fn the_deepest_search_fits_a_small_stack() {
        let worker = std::thread::Builder::new()
            .stack_size(256 << 10)
            .spawn(|| {
                let mut game = Game::new(senet_regency::Regency::default());
                game.throw(Throw::at(3)).unwrap();
                let mut rng = ChaCha8Rng::seed_from_u64(0);
                let mut player = Expectiminimax::new(Budget::Depth(u32::MAX));
                player.node_cap = 20_000;
                player
                    .analyse(game.rules(), game.state(), &mut rng)
                    .unwrap();
                let deep = player.last_search();
                assert!(deep.depth >= 2 && deep.depth < MAX_DEPTH, "{deep:?}");
                assert!(deep.nodes <= 3 * 20_000, "{deep:?}");
                let mut player = Expectiminimax::new(Budget::Nodes(u64::MAX));
                player.node_cap = 20_000;
                player
                    .analyse(game.rules(), game.state(), &mut rng)
                    .unwrap();
                assert_eq!(player.last_search().depth, deep.depth);
                // A whole line to the cap: one move searched MAX_DEPTH deep from the root.
                let mut search = Search {
                    rules: game.rules(),
                    evaluator: &RaceEvaluator::default(),
                    me: senet_core::Side::Black,
                    pruning: Pruning::Star1,
                    outcomes: game.rules().device().outcomes(),
                    denominator: f64::from(game.rules().device().denominator()),
                    nodes: 0,
                    node_limit: 2_000,
                    whole_turns: false,
                    max_throws: MAX_THROW_CHAIN,
                    root_depth: MAX_DEPTH,
                    scratch: &mut Scratch::default(),
                };
                search.value(game.state(), MAX_DEPTH, 0.0, 1.0, 0);
                assert!(search.nodes > 2_000);
            })
            .unwrap();
        worker.join().unwrap();
    }
}
