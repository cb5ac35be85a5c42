//! The endgame tests every solved space passes, generic over the space, run for Regency
//! (`tests/endgame.rs`) and Kendall with immediate throws (`tests/kendall_endgame.rs`) by
//! [`endgame_suite!`]: values satisfy the Bellman equation, agree with expectiminimax
//! searched deep enough or with the table at its leaves, perfect play picks the best move,
//! and mirrored positions share their value.

use std::sync::Arc;

use rand_chacha::ChaCha8Rng;
use rand_core::SeedableRng;
use senet_ai::{
    Budget, Evaluator, Expectiminimax, OracleEvaluator, Perfect, Player, RaceEvaluator, ValueKind,
};
use senet_core::Throw;
use senet_core::{Phase, Ruleset, Side, ThrowingDevice, uniform_below};
use senet_endgame::{
    EXACT_BOUND, EndgameSpace, EndgameTable, PositionOracle, SolveOptions, SpaceState, solve,
};
use senet_testkit::conformance::with_each_throw;

/// The solver's default tolerance, which every table must meet.
pub(crate) const TOLERANCE: f64 = 1e-9;

/// The table of `space`, solved with the default options.
pub(crate) fn solved<S: EndgameSpace>(space: S) -> EndgameTable<S> {
    solve(space, &SolveOptions::default()).unwrap()
}

/// The table's values lie in 0..=1 and satisfy the Bellman equation to the tolerance, both as
/// the solver measured it and recomputed independently of the solver's compiled programs
/// (every throw and move replayed through the turn machine), and the solve proved them
/// exact ([`EXACT_BOUND`]), as a default solve works towards.
pub(crate) fn assert_solved_to_the_tolerance<S: EndgameSpace>(table: &EndgameTable<S>) {
    let spec = table.space().rules().spec();
    assert!(table.stats().residual <= TOLERANCE, "{spec}");
    let bound = table.stats().error_bound;
    assert!(
        bound > 0.0 && bound <= EXACT_BOUND,
        "{spec}: bound {bound:e}"
    );
    let residual = table.bellman_residual().unwrap();
    assert!(residual <= TOLERANCE, "{spec}: residual {residual:e}");
    assert!(table.values().iter().all(|v| (0.0..=1.0).contains(v)));
}

/// Decision points of the space: a random position waiting for a throw, then a throw drawn
/// from the device, kept when it leaves more than one move.
pub(crate) fn decisions<S: EndgameSpace>(
    table: &EndgameTable<S>,
    count: usize,
    seed: u64,
) -> Vec<SpaceState<S>> {
    let space = table.space();
    let rules = space.rules();
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut out = Vec::new();
    for _ in 0..count * 200 {
        if out.len() == count {
            break;
        }
        let index = uniform_below(&mut rng, space.state_count() as u32) as usize;
        let mut state = space.state(index).unwrap();
        rules.throw_unchecked(&mut state, rules.device().sample(&mut rng));
        if rules.legal_moves(&state).len() > 1 {
            out.push(state);
        }
    }
    assert_eq!(out.len(), count, "too few decisions with a choice");
    out
}

/// The positions `black` (Black to act) and `white` (its mirror image) both have a value, and
/// the same one.
pub(crate) fn assert_mirrors_share_their_value<S: EndgameSpace>(
    table: &EndgameTable<S>,
    black: &str,
    white: &str,
) {
    let rules = table.space().rules();
    let black = rules.parse_position(black).unwrap();
    let white = rules.parse_position(white).unwrap();
    assert_eq!(table.value(&black), table.value(&white));
    assert!(table.value(&black).is_some());
}

/// An evaluator that scores every unfinished position the same.
struct Constant(f64);

impl<R: Ruleset> Evaluator<R> for Constant {
    fn evaluate(&self, rules: &R, state: &R::State, side: Side) -> f64 {
        match rules.phase(state) {
            Phase::Over(o) => o.value_for(side),
            _ => self.0,
        }
    }
}

/// Where [`assert_search_brackets_the_exact_values`] looks: every `step`-th position of the
/// space with every piece on `lowest_square` or beyond (where games end soon), and how
/// closely the bounds must hold.
pub(crate) struct NearTheEnd {
    /// Take every `step`-th index of the space.
    pub(crate) step: usize,
    /// The lowest square a piece may stand on.
    pub(crate) lowest_square: u8,
    /// The slack allowed to the bracket.
    pub(crate) tolerance: f64,
}

/// Unfinished leaves scored 0 give a lower bound of the true value, scored 1 an upper bound:
/// the exact value lies between, and the bracket closes as the search deepens (its width is
/// at most the chance that the game is still going at the horizon).
pub(crate) fn assert_search_brackets_the_exact_values<S: EndgameSpace + Clone>(
    table: &EndgameTable<S>,
    near: &NearTheEnd,
) {
    let space = table.space();
    let rules = space.rules().clone();
    let positions: Vec<_> = (0..space.state_count())
        .step_by(near.step)
        .filter_map(|i| space.state(i))
        .filter(|s| {
            let squares = rules.board(s).all_pieces();
            squares.iter().all(|sq| sq.get() >= near.lowest_square)
        })
        .flat_map(|s| with_each_throw(&rules, &s))
        .map(|(_, s)| s)
        .filter(|s| rules.legal_moves(s).len() > 1)
        .take(12)
        .collect();
    assert_eq!(positions.len(), 12);
    let mut perfect = Perfect::with_default_fallback(&rules, Arc::new(table.clone())).unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(0);
    let mut mean_widths = Vec::new();
    for depth in [1, 3, 5] {
        let mut low = Expectiminimax::with_evaluator(Budget::Depth(depth), Constant(0.0));
        let mut high = Expectiminimax::with_evaluator(Budget::Depth(depth), Constant(1.0));
        let (mut total, mut count) = (0.0, 0.0);
        for state in &positions {
            let exact = perfect.exact_values(&rules, state).unwrap();
            let lo = low.analyse(&rules, state, &mut rng).unwrap();
            let hi = high.analyse(&rules, state, &mut rng).unwrap();
            for ((e, l), h) in exact.iter().zip(lo.moves()).zip(hi.moves()) {
                assert!(
                    l.value <= e + near.tolerance && e - near.tolerance <= h.value,
                    "{l:?} ≤ {e} ≤ {h:?}"
                );
                total += h.value - l.value;
                count += 1.0;
            }
        }
        mean_widths.push(total / count);
    }
    // Passes (throws that cannot be used) keep these games going, so the bracket closes
    // slowly, but it must close.
    let w = &mean_widths;
    assert!(w.windows(2).all(|p| p[1] < p[0] - 0.02), "{w:?}");
}

/// The table is a fixed point of the Bellman equation, so searching any depth with the table
/// at the leaves gives back the exact value of every move (extra throws included), within
/// `tolerance`.
pub(crate) fn assert_exact_leaves_reproduce_the_exact_values<S: EndgameSpace + Clone>(
    table: &EndgameTable<S>,
    tolerance: f64,
) {
    let rules = table.space().rules().clone();
    let oracle: Arc<dyn PositionOracle<S::Rules>> = Arc::new(table.clone());
    let mut perfect = Perfect::with_default_fallback(&rules, Arc::clone(&oracle)).unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(0);
    for depth in 1..=3 {
        let evaluator = OracleEvaluator::new(Arc::clone(&oracle), RaceEvaluator::default());
        let mut search = Expectiminimax::with_evaluator(Budget::Depth(depth), evaluator);
        for state in decisions(table, 60, depth.into()) {
            let exact = perfect.exact_values(&rules, &state).unwrap();
            let searched = search.analyse(&rules, &state, &mut rng).unwrap();
            for (e, s) in exact.iter().zip(searched.moves()) {
                assert!(
                    (e - s.value).abs() < tolerance,
                    "depth {depth} {}: {e} vs {}",
                    rules.position_string(&state),
                    s.value
                );
            }
        }
    }
}

/// Inside the table the perfect player reports exact values and picks a best move; outside
/// it (the opening) the fallback search decides.
pub(crate) fn assert_perfect_play_picks_the_best<S: EndgameSpace + Clone>(table: &EndgameTable<S>) {
    let rules = table.space().rules().clone();
    let mut perfect = Perfect::with_default_fallback(&rules, Arc::new(table.clone())).unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(0);
    for state in decisions(table, 50, 3) {
        let analysis = perfect.analyse(&rules, &state, &mut rng).unwrap();
        assert_eq!(analysis.kind(), ValueKind::ExactWinProbability);
        let best = analysis
            .moves()
            .iter()
            .map(|m| m.value)
            .fold(f64::NEG_INFINITY, f64::max);
        assert_eq!(analysis.moves()[analysis.chosen_index()].value, best);
    }
    let mut state = rules.initial_state();
    rules.throw_unchecked(&mut state, Throw::at(3));
    let analysis = perfect.analyse(&rules, &state, &mut rng).unwrap();
    assert_eq!(analysis.kind(), ValueKind::EstimatedWinProbability);
}

/// Defines the generic endgame tests for one ruleset: `table` is an expression giving the
/// shared solved table (up to two pieces a side), `near_the_end` the [`NearTheEnd`] of the
/// bracket test, `leaves_tolerance` the tolerance of the exact-leaves test.
macro_rules! endgame_suite {
    (table: $table:expr, near_the_end: $near:expr, leaves_tolerance: $leaves:expr $(,)?) => {
        #[test]
        fn mirrored_positions_share_their_value() {
            common::assert_mirrors_share_their_value(
                $table,
                &format!("{}B.W..B...W.. b", ".".repeat(18)),
                &format!("{}W.B..W...B.. w", ".".repeat(18)),
            );
        }

        #[test]
        fn expectiminimax_searched_deep_enough_agrees_with_the_solver() {
            common::assert_search_brackets_the_exact_values($table, &$near);
        }

        #[test]
        fn expectiminimax_on_exact_leaves_reproduces_the_exact_values() {
            common::assert_exact_leaves_reproduce_the_exact_values($table, $leaves);
        }

        #[test]
        fn perfect_play_uses_exact_values_and_picks_the_best() {
            common::assert_perfect_play_picks_the_best($table);
        }
    };
}
pub(crate) use endgame_suite;
