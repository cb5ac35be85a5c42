//! The perfect player: exact play from solved endgame tables.

use std::collections::HashMap;
use std::sync::Arc;

use rand_core::Rng;
use senet_core::{MoveList, Ruleset};

use crate::endgame::{EndgameError, PositionOracle, exact_value};
use crate::eval::{OracleEvaluator, RaceEvaluator};
use crate::expectiminimax::{Budget, Expectiminimax};
use crate::player::{Analysis, Decision, Player, PlayerError, ValueKind, side_to_move};

/// The depth of the default fallback search.
pub const FALLBACK_DEPTH: u32 = 2;

/// Plays perfectly wherever solved tables cover the position, and hands over to a fallback
/// player elsewhere.
///
/// A decision is *covered* when, for every legal move, play from the move reaches only
/// finished games and positions the tables know before the next throw (decisions in
/// between, such as a stored throw still to spend, are expanded exactly). Then each move's
/// value is the exact probability of winning after it, and the best is chosen (ties: the
/// first generated). Otherwise the fallback decides; by default
/// ([`with_default_fallback`](Perfect::with_default_fallback)) that is expectiminimax at
/// depth 2 whose evaluation reads the tables wherever they cover a leaf and uses the
/// [`RaceEvaluator`] elsewhere.
///
/// ```
/// use senet::rng::ChaCha8Rng;
/// use senet::rng::SeedableRng;
/// use senet::ai::endgame::{Endgames, SolveOptions};
/// use senet::ai::{Perfect, Player, ValueKind};
/// use senet::Ruleset;
/// use senet::Regency;
///
/// let rules = Regency::default();
/// let tables = rules.solve_oracle(2, &SolveOptions::default()).unwrap();
/// let mut player = Perfect::with_default_fallback(&rules, tables).unwrap();
/// // Black {22, 28}, White {24}, Black has thrown a 2: bear off from 28, or swap with 24.
/// let state = rules.parse_position(&format!("{}B.W...B.. b throw=2", ".".repeat(21))).unwrap();
/// let analysis = player.analyse(&rules, &state, &mut ChaCha8Rng::seed_from_u64(0)).unwrap();
/// assert_eq!(analysis.kind(), ValueKind::ExactWinProbability);
/// let values: Vec<String> =
///     analysis.moves().iter().map(|m| format!("{} {:.4}", m.mv, m.value)).collect();
/// // Bearing off is what the greedy player does; the exact values prefer the swap, which
/// // puts White's last piece behind both of Black's.
/// assert_eq!(values, ["22-24 0.5599", "28-off 0.4365"]);
/// assert_eq!(analysis.chosen().to_string(), "22-24");
/// ```
pub struct Perfect<R: Ruleset> {
    oracle: Arc<dyn PositionOracle<R>>,
    fallback: Box<dyn Player<R>>,
    moves: MoveList,
}

impl<R: Ruleset> Perfect<R> {
    /// Perfect play from `oracle`, `fallback` where it does not reach. Fails when the tables
    /// were solved for another ruleset configuration than `rules`.
    pub fn new(
        rules: &R,
        oracle: Arc<dyn PositionOracle<R>>,
        fallback: Box<dyn Player<R>>,
    ) -> Result<Self, EndgameError> {
        let (table, game) = (oracle.spec(), rules.spec());
        if table != game {
            return Err(EndgameError::RulesetMismatch {
                table: table.to_string(),
                game: game.to_string(),
            });
        }
        Ok(Perfect {
            oracle,
            fallback,
            moves: MoveList::new(),
        })
    }

    /// Perfect play from `oracle`, and elsewhere expectiminimax at depth
    /// [`FALLBACK_DEPTH`] with the tables as evaluation where they reach.
    pub fn with_default_fallback(
        rules: &R,
        oracle: Arc<dyn PositionOracle<R>>,
    ) -> Result<Self, EndgameError> {
        let evaluator = OracleEvaluator::new(Arc::clone(&oracle), RaceEvaluator::default());
        let fallback = Expectiminimax::with_evaluator(Budget::Depth(FALLBACK_DEPTH), evaluator);
        Perfect::new(rules, oracle, Box::new(fallback))
    }

    /// The tables.
    pub fn oracle(&self) -> &Arc<dyn PositionOracle<R>> {
        &self.oracle
    }

    /// The exact value of every legal move of `state` for the side to move, when the tables
    /// cover them all.
    pub fn exact_values(&mut self, rules: &R, state: &R::State) -> Option<Vec<f64>> {
        let side = side_to_move(rules, state).ok()?;
        rules.generate_moves(state, &mut self.moves);
        let oracle = &self.oracle;
        let lookup = |s: &R::State| oracle.throw_value(s);
        // The moves' continuations share positions (the same throws spent in other orders).
        let mut memo = HashMap::new();
        self.moves
            .iter()
            .map(|&mv| {
                let mut next = *state;
                rules.play_unchecked(&mut next, mv);
                exact_value(rules, &next, side, &lookup, Some(&mut memo), 0)
            })
            .collect()
    }
}

impl<R: Ruleset> Player<R> for Perfect<R> {
    fn name(&self) -> String {
        format!("perfect:{}", self.oracle.max_pieces())
    }

    fn value(&mut self, at: Decision<'_, R>, rng: &mut dyn Rng) -> Result<Analysis, PlayerError> {
        match self.exact_values(at.rules, at.state) {
            Some(values) => Ok(Analysis::best_of(
                at.moves,
                &values,
                ValueKind::ExactWinProbability,
            )),
            None => self.fallback.value(at, rng),
        }
    }
}

impl<R: Ruleset> core::fmt::Debug for Perfect<R> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Perfect")
            .field("tables", &self.oracle.describe())
            .field("fallback", &self.fallback.name())
            .finish()
    }
}
