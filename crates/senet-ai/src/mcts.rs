//! Monte Carlo tree search with explicit chance nodes.

use rand_core::Rng;
use senet_core::{Move, MoveList, Phase, Ruleset, Side, ThrowingDevice};

use crate::eval::{Evaluator, RaceEvaluator};
use crate::player::{Analysis, Decision, MoveValue, Player, PlayerError, ValueKind, outcome_value};
use senet_core::Throw;

/// The exploration constant of UCB1 used by default.
pub const DEFAULT_EXPLORATION: f64 = 0.5;

/// The random moves a playout makes by default before its position is evaluated.
pub const DEFAULT_ROLLOUT_MOVES: u32 = 10;

/// The most playouts per decision: `Mcts::new` lowers a larger budget to it, and the
/// player names refuse one (see `docs/players.md` for the time a decision takes).
pub const MAX_PLAYOUTS: u32 = 1_000_000;

/// The most memory the search tree takes, in bytes. Once it is reached, playouts still
/// run but add no node: each goes on as a rollout from where the tree ends.
pub const MAX_TREE_BYTES: usize = 256 << 20;

/// Where a playout goes from a node through an edge.
enum Step<S> {
    /// To a node already in the tree.
    Known(u32),
    /// To a node just added.
    Added(u32),
    /// To a position the full tree does not keep.
    Unstored(S),
}

/// Monte Carlo tree search (UCT) with chance nodes.
///
/// Each playout walks down a tree of the turn machine from the position to decide:
///
/// - at a **decision**, a move not yet tried is tried first (in generation order); once all
///   have been tried, the move with the highest UCB1 score `w/n + c·√(ln N / n)` is taken,
///   where `w/n` is the share of the playouts through that move won by the side deciding;
/// - at a **throw**, the value is drawn from the device with the caller's RNG (so each
///   outcome is followed as often as the sticks would show it) and the tree keeps one child
///   per value;
/// - where the tree ends, the game goes on with uniformly random moves (and throws from the
///   device) for at most [`DEFAULT_ROLLOUT_MOVES`] moves; if it has not ended by then, the
///   position is scored by the [`Evaluator`] (the [`RaceEvaluator`] unless another is given)
///   as a probability of winning. Whole random games of Senet are long (about a thousand
///   moves in Regency) and say little, so cutting them short buys many more playouts for
///   the same time; [`with_rollout_moves`](Mcts::with_rollout_moves) changes the length,
///   `u32::MAX` plays every game out.
///
/// The defaults (rollouts of 10 moves, exploration constant ½) come from matches of
/// `mcts:300` against the greedy player on Regency, half the games with each side first:
/// with exploration ½, rollouts of 10 moves won 364 of 600 games and rollouts of 0 moves
/// (evaluate at once) 372 of 600; rollouts of 40 moves won 209 of 400 (exploration 0.3 and
/// 1) and took twice as long. Ten moves keep the playouts real at little cost.
///
/// The result (1, ½ or 0 for a finished game, the evaluation otherwise) is credited to every
/// decision on the path, for the side that made it. After
/// the budget of playouts the most visited move is chosen (ties: the higher win rate, then
/// generation order); each move's value is its win rate, ½ for a move never tried (when the
/// budget is smaller than the number of moves). All randomness comes from the caller's RNG,
/// so a seeded RNG gives the same move every time.
///
/// ```
/// use senet::rng::ChaCha8Rng;
/// use senet::rng::SeedableRng;
/// use senet::ai::{Mcts, Player};
/// use senet::{Game, Ruleset, Throw};
/// use senet::Regency;
///
/// let mut game = Game::new(Regency::default());
/// game.throw(Throw::at(3)).unwrap();
/// let mut player = Mcts::new(200);
/// let first = player.choose(game.rules(), game.state(), &mut ChaCha8Rng::seed_from_u64(9)).unwrap();
/// let again = player.choose(game.rules(), game.state(), &mut ChaCha8Rng::seed_from_u64(9)).unwrap();
/// assert_eq!(first, again);
/// ```
#[derive(Clone, Debug)]
pub struct Mcts<R: Ruleset, E = RaceEvaluator> {
    playouts: u32,
    exploration: f64,
    rollout_moves: u32,
    evaluator: E,
    nodes: Vec<Node<R::State>>,
    edges: Vec<Edge>,
    path: Vec<u32>,
    scratch: MoveList,
    /// [`MAX_TREE_BYTES`], lower in tests.
    max_tree_bytes: usize,
}

#[derive(Clone, Debug)]
struct Node<S> {
    state: S,
    /// The node's edges: `edges[first..first + count]`.
    first: u32,
    count: u32,
    visits: u32,
}

#[derive(Clone, Copy, Debug)]
struct Edge {
    /// The move (at a decision); unused at a throw.
    mv: Move,
    /// The throw (at a throw); `None` at a decision.
    throw: Option<Throw>,
    /// The node this edge leads to, once created.
    child: Option<u32>,
    visits: u32,
    /// The results of the playouts through this edge for the side acting at its node.
    wins: f64,
}

impl<R: Ruleset> Mcts<R, RaceEvaluator> {
    /// MCTS with `playouts` playouts per decision (at least 1, at most [`MAX_PLAYOUTS`]),
    /// the default exploration constant, rollouts and evaluation.
    pub fn new(playouts: u32) -> Self {
        Mcts::with_evaluator(playouts, RaceEvaluator::default())
    }
}

impl<R: Ruleset, E: Evaluator<R>> Mcts<R, E> {
    /// MCTS scoring unfinished rollouts with `evaluator`.
    pub fn with_evaluator(playouts: u32, evaluator: E) -> Self {
        Mcts {
            playouts: playouts.clamp(1, MAX_PLAYOUTS),
            exploration: DEFAULT_EXPLORATION,
            rollout_moves: DEFAULT_ROLLOUT_MOVES,
            evaluator,
            nodes: Vec::new(),
            edges: Vec::new(),
            path: Vec::new(),
            scratch: MoveList::new(),
            max_tree_bytes: MAX_TREE_BYTES,
        }
    }

    /// The same player with rollouts of at most `moves` random moves (0: evaluate where
    /// the tree ends; `u32::MAX`: play every game out).
    #[must_use]
    pub fn with_rollout_moves(mut self, moves: u32) -> Self {
        self.rollout_moves = moves;
        self
    }

    /// The same player with another UCB1 exploration constant.
    #[must_use]
    pub fn with_exploration(mut self, exploration: f64) -> Self {
        self.exploration = exploration;
        self
    }

    /// Playouts per decision.
    pub fn playouts(&self) -> u32 {
        self.playouts
    }

    /// Adds a node for `state` with one edge per move or throw value; returns its id.
    fn add_node(&mut self, rules: &R, state: R::State) -> u32 {
        let first = self.edges.len() as u32;
        match rules.phase(&state) {
            Phase::Move(_) => {
                rules.generate_moves(&state, &mut self.scratch);
                for &mv in self.scratch.iter() {
                    self.edges.push(Edge {
                        mv,
                        throw: None,
                        child: None,
                        visits: 0,
                        wins: 0.0,
                    });
                }
            }
            Phase::Throw(_) => {
                for o in rules.device().outcomes() {
                    self.edges.push(Edge {
                        mv: Move::PASS,
                        throw: Some(o.value),
                        child: None,
                        visits: 0,
                        wins: 0.0,
                    });
                }
            }
            Phase::Over(_) => {}
        }
        let id = self.nodes.len() as u32;
        self.nodes.push(Node {
            state,
            first,
            count: self.edges.len() as u32 - first,
            visits: 0,
        });
        id
    }

    /// The memory the tree takes.
    fn tree_bytes(&self) -> usize {
        self.nodes.len() * size_of::<Node<R::State>>() + self.edges.len() * size_of::<Edge>()
    }

    /// The child of `node` through edge `edge`, added on first use while the tree has room.
    fn child(&mut self, rules: &R, node: u32, edge: u32) -> Step<R::State> {
        if let Some(child) = self.edges[edge as usize].child {
            return Step::Known(child);
        }
        let mut state = self.nodes[node as usize].state;
        let e = self.edges[edge as usize];
        match e.throw {
            Some(throw) => rules.throw_unchecked(&mut state, throw),
            None => rules.play_unchecked(&mut state, e.mv),
        }
        if self.tree_bytes() >= self.max_tree_bytes {
            return Step::Unstored(state);
        }
        let child = self.add_node(rules, state);
        self.edges[edge as usize].child = Some(child);
        Step::Added(child)
    }

    /// The edge UCB1 picks at a decision node whose edges have all been tried.
    fn select(&self, node: &Node<R::State>) -> u32 {
        let log_n = f64::from(node.visits.max(1)).ln();
        let mut best = node.first;
        let mut best_score = f64::NEG_INFINITY;
        for e in node.first..node.first + node.count {
            let edge = &self.edges[e as usize];
            let n = f64::from(edge.visits.max(1));
            let score = edge.wins / n + self.exploration * (log_n / n).sqrt();
            if score > best_score {
                best_score = score;
                best = e;
            }
        }
        best
    }

    /// One playout from the root: down the tree, one new node, a random game, and the
    /// result credited along the path.
    fn playout(&mut self, rules: &R, rng: &mut dyn Rng) {
        self.path.clear();
        let device = rules.device();
        let mut node = 0u32;
        // The chance that Black wins, as far as this playout tells.
        let black_wins: f64 = loop {
            let state = self.nodes[node as usize].state;
            match rules.phase(&state) {
                Phase::Over(outcome) => break outcome_value(&outcome, Side::Black),
                Phase::Throw(_) => {
                    let value = device.sample(rng);
                    let n = &self.nodes[node as usize];
                    let Some(edge) = (n.first..n.first + n.count)
                        .find(|&e| self.edges[e as usize].throw == Some(value))
                    else {
                        // A device must show only values of its own table; count a broken
                        // one as a draw rather than panic.
                        break 0.5;
                    };
                    self.path.push(edge);
                    match self.child(rules, node, edge) {
                        Step::Known(child) | Step::Added(child) => node = child,
                        Step::Unstored(state) => break self.rollout(rules, state, rng),
                    }
                }
                Phase::Move(_) => {
                    let n = &self.nodes[node as usize];
                    let untried = (n.first..n.first + n.count)
                        .find(|&e| self.edges[e as usize].child.is_none());
                    let edge = untried.unwrap_or_else(|| self.select(n));
                    self.path.push(edge);
                    match self.child(rules, node, edge) {
                        Step::Known(child) => node = child,
                        Step::Added(child) => {
                            let start = self.nodes[child as usize].state;
                            break self.rollout(rules, start, rng);
                        }
                        Step::Unstored(state) => break self.rollout(rules, state, rng),
                    }
                }
            }
        };
        let mut at = 0u32;
        for &edge in &self.path {
            let credit = match rules.phase(&self.nodes[at as usize].state) {
                Phase::Move(Side::Black) => black_wins,
                Phase::Move(Side::White) => 1.0 - black_wins,
                _ => 0.0,
            };
            self.nodes[at as usize].visits += 1;
            let e = &mut self.edges[edge as usize];
            e.visits += 1;
            e.wins += credit;
            at = e.child.unwrap_or(at);
        }
    }

    /// Random moves from `state` until the game ends or the rollout length is reached;
    /// returns the chance that Black wins (exact at the end, estimated otherwise).
    fn rollout(&mut self, rules: &R, mut state: R::State, rng: &mut dyn Rng) -> f64 {
        let device = rules.device();
        let mut moves = 0u32;
        loop {
            match rules.phase(&state) {
                Phase::Over(outcome) => return outcome_value(&outcome, Side::Black),
                Phase::Throw(_) => rules.throw_unchecked(&mut state, device.sample(rng)),
                Phase::Move(_) => {
                    if moves >= self.rollout_moves {
                        return self
                            .evaluator
                            .evaluate(rules, &state, Side::Black)
                            .clamp(0.0, 1.0);
                    }
                    rules.play_random_move(&mut state, rng, &mut self.scratch);
                    moves += 1;
                }
            }
        }
    }
}

impl<R: Ruleset, E: Evaluator<R>> Player<R> for Mcts<R, E> {
    fn name(&self) -> String {
        format!("mcts:{}", self.playouts)
    }

    fn value(&mut self, at: Decision<'_, R>, rng: &mut dyn Rng) -> Result<Analysis, PlayerError> {
        let rules = at.rules;
        self.nodes.clear();
        self.edges.clear();
        let root = self.add_node(rules, *at.state);
        let (first, count) = (
            self.nodes[root as usize].first,
            self.nodes[root as usize].count,
        );
        for _ in 0..self.playouts {
            self.playout(rules, rng);
        }
        let root_edges = &self.edges[first as usize..(first + count) as usize];
        let moves: Vec<Move> = root_edges.iter().map(|e| e.mv).collect();
        let values: Vec<f64> = root_edges
            .iter()
            .map(|e| {
                if e.visits == 0 {
                    0.5
                } else {
                    e.wins / f64::from(e.visits)
                }
            })
            .collect();
        // Most visited; ties by win rate, then generation order.
        let mut chosen = 0;
        for (i, e) in root_edges.iter().enumerate() {
            let best = &root_edges[chosen];
            if e.visits > best.visits || (e.visits == best.visits && values[i] > values[chosen]) {
                chosen = i;
            }
        }
        let moves = moves
            .into_iter()
            .zip(values)
            .map(|(mv, value)| MoveValue { mv, value })
            .collect();
        let analysis = Analysis::new(moves, chosen, ValueKind::EstimatedWinProbability);
        Ok(analysis)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand_chacha::ChaCha8Rng;
    use rand_core::SeedableRng;
    use senet_core::Game;

    /// A full tree stops growing, and the playouts go on: the search still ends with a
    /// legal move, and with the same one for the same seed.
    #[test]
    fn a_full_tree_stops_growing() {
        let mut game = Game::new(senet_regency::Regency::default());
        game.throw(Throw::at(3)).unwrap();
        let mut player = Mcts::new(5_000);
        player.max_tree_bytes = 64 << 10;
        let choose = |player: &mut Mcts<_>| {
            let mut rng = ChaCha8Rng::seed_from_u64(4);
            player.choose(game.rules(), game.state(), &mut rng).unwrap()
        };
        let first = choose(&mut player);
        assert!(game.rules().legal_moves(game.state()).contains(&first));
        let most = player.max_tree_bytes
            + 256 * size_of::<Edge>()
            + size_of::<Node<<senet_regency::Regency as Ruleset>::State>>();
        assert!(player.tree_bytes() <= most, "{}", player.tree_bytes());
        assert!(player.nodes.len() < 5_000);
        assert_eq!(choose(&mut player), first);
        assert_eq!(
            Mcts::<senet_regency::Regency>::new(u32::MAX).playouts(),
            MAX_PLAYOUTS
        );
    }
}
