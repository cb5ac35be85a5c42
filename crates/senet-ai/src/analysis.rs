//! Game analysis: what each decision cost and what each throw gave.
//!
//! [`Analyser::analyse`] replays a game and values every point of it with one evaluator:
//!
//! - **a decision** (a state waiting for a move) is worth its best move's value to the side to
//!   move; the move played is charged the *loss* `best − played`, in winning chance. A decision
//!   with one legal move (a pass included) is *forced* and never charged.
//! - **a throw** is worth, before it is made, the value expected over every outcome with its
//!   exact probability; its *luck* is the value once it is known minus that expectation, for
//!   the side that threw. Where throws follow one another before a move (stored or collected
//!   throws), each intermediate state is itself worth the expectation over the throws still to
//!   come, so the lucks of a run of throws add up to the value where the throws are settled
//!   minus the value before the first.
//!
//! Values are winning chances (the side's probability of winning, a draw counting one half).
//! Where solved endgame tables cover a point, its value is read or expanded from them and
//! marked *exact* — when the tables' proven error bound is at most
//! [`EXACT_BOUND`]; elsewhere it is the evaluator's estimate.
//! With exact values everywhere the bookkeeping closes: each side's result minus its chance
//! at the start equals its own luck minus its opponent's, minus its own loss plus its
//! opponent's (tested on games played inside the tables).
//!
//! ```
//! use senet::ai::analysis::{Analyser, Label};
//! use senet::ai::PlayerSpec;
//! use senet::rng::{ChaCha8Rng, SeedableRng};
//! use senet::{Game, Regency};
//!
//! let rules = Regency::default();
//! let mut game = Game::new(rules.clone());
//! let mut rng = ChaCha8Rng::seed_from_u64(7);
//! game.play_random(&mut rng, 20);
//! let spec: PlayerSpec = "expectiminimax:1".parse().unwrap();
//! let mut analyser = Analyser::new(&rules, &spec, None).unwrap();
//! let analysis = analyser.analyse(game.start(), game.history(), &mut rng).unwrap();
//! // One point before the first action and one after each.
//! assert_eq!(analysis.points.len(), game.history().len() + 1);
//! for step in &analysis.moves() {
//!     assert!(step.loss >= 0.0);
//!     assert_eq!(step.label, if step.forced { None } else { Label::of_loss(step.loss) });
//! }
//! ```

use std::collections::HashMap;
use std::fmt::Write as _;
use std::sync::Arc;

use rand_core::Rng;
use senet_core::{Action, Move, MoveList, PerSide, Phase, Ruleset, Side, Throw, ThrowingDevice};
use thiserror::Error;

use crate::endgame::{EXACT_BOUND, PositionOracle, exact_value};
use crate::eval::{Evaluator, OracleEvaluator, RaceEvaluator};
use crate::expectiminimax::{Budget, Expectiminimax};
use crate::learned::{LearnedEvaluator, WeightsError, committed};
use crate::mcts::Mcts;
use crate::player::{Player, PlayerError, ValueKind};
use crate::spec::{PlayerSpec, PlayerSpecError};

/// A loss of at least this much winning chance (2 points) is an inaccuracy.
///
/// The three thresholds are GNU Backgammon's for a doubtful, bad and very bad move, 0.04,
/// 0.08 and 0.16 in equity, carried over to winning chance: a game with a single kind of win
/// has equity `2p − 1`, so each equity threshold is twice the chance threshold.
pub const INACCURACY: f64 = 0.02;
/// A loss of at least this much winning chance (4 points) is a mistake.
pub const MISTAKE: f64 = 0.04;
/// A loss of at least this much winning chance (8 points) is a blunder.
pub const BLUNDER: f64 = 0.08;

/// The most actions a game may have to be analysed: four times the longest self-play game
/// the learned player trains on, and far beyond any game people play.
pub const MAX_ANALYSED_ACTIONS: usize = 20_000;

/// Throws in a row (before a move) whose outcomes are all followed when a throw's
/// expected value is taken; past this the evaluator estimates the state instead. Kendall's
/// stored throws are the only runs; a run this long has a probability below 1%.
pub const MAX_THROW_RUN: u32 = 4;

/// How costly a move was, from its loss of winning chance.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "lowercase"))]
pub enum Label {
    /// A loss of at least [`INACCURACY`].
    Inaccuracy,
    /// A loss of at least [`MISTAKE`].
    Mistake,
    /// A loss of at least [`BLUNDER`].
    Blunder,
}

impl Label {
    /// Every label, from the least to the most costly.
    pub const ALL: [Label; 3] = [Label::Inaccuracy, Label::Mistake, Label::Blunder];

    /// The label of a loss, `None` below [`INACCURACY`].
    ///
    /// ```
    /// use senet::ai::analysis::Label;
    /// assert_eq!(Label::of_loss(0.019), None);
    /// assert_eq!(Label::of_loss(0.02), Some(Label::Inaccuracy));
    /// assert_eq!(Label::of_loss(0.05), Some(Label::Mistake));
    /// assert_eq!(Label::of_loss(0.5), Some(Label::Blunder));
    /// ```
    pub fn of_loss(loss: f64) -> Option<Label> {
        Label::ALL.into_iter().rev().find(|l| loss >= l.threshold())
    }

    /// The smallest loss with this label.
    pub fn threshold(self) -> f64 {
        match self {
            Label::Inaccuracy => INACCURACY,
            Label::Mistake => MISTAKE,
            Label::Blunder => BLUNDER,
        }
    }

    /// The word, `inaccuracy`, `mistake` or `blunder`.
    pub fn name(self) -> &'static str {
        match self {
            Label::Inaccuracy => "inaccuracy",
            Label::Mistake => "mistake",
            Label::Blunder => "blunder",
        }
    }

    /// The word for several, `inaccuracies`, `mistakes` or `blunders`.
    pub fn plural(self) -> &'static str {
        match self {
            Label::Inaccuracy => "inaccuracies",
            Label::Mistake => "mistakes",
            Label::Blunder => "blunders",
        }
    }

    /// The annotation chess players use: `?!`, `?`, `??`.
    pub fn mark(self) -> &'static str {
        match self {
            Label::Inaccuracy => "?!",
            Label::Mistake => "?",
            Label::Blunder => "??",
        }
    }
}

/// A move with its value: the winning chance of the side to move after it.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct ValuedMove {
    /// The move.
    #[cfg_attr(feature = "serde", serde(rename = "move"))]
    pub mv: Move,
    /// Its value for the side to move.
    pub value: f64,
}

/// One decision of the game.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct MoveReview {
    /// The index of the move among the game's actions (0 for the first action).
    pub action: usize,
    /// The side that moved.
    pub side: Side,
    /// The move played.
    pub played: Move,
    /// Its value: the side's winning chance after it.
    pub played_value: f64,
    /// The best move (the first of equal values, in generation order).
    pub best: Move,
    /// Its value.
    pub best_value: f64,
    /// `best_value − played_value`: never negative; 0 for a forced move.
    pub loss: f64,
    /// Whether the values come from the tables within [`EXACT_BOUND`].
    pub exact: bool,
    /// Whether the move was the only legal one (a pass included).
    pub forced: bool,
    /// The label of the loss; `None` for a forced move or a loss below [`INACCURACY`].
    pub label: Option<Label>,
    /// Every legal move with its value, best first (ties in generation order).
    pub moves: Vec<ValuedMove>,
}

/// One throw of the game.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct ThrowReview {
    /// The index of the throw among the game's actions.
    pub action: usize,
    /// The side that threw.
    pub side: Side,
    /// The throw.
    pub throw: Throw,
    /// The side's winning chance before the throw: expected over every outcome.
    pub expected: f64,
    /// The side's winning chance once the throw is known.
    pub value: f64,
    /// `value − expected`: what the throw gave the side (negative: what it took).
    pub luck: f64,
    /// Whether both values come from the tables within [`EXACT_BOUND`].
    pub exact: bool,
}

/// The winning chance at one point of the game.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Point {
    /// How many actions were played before this point (0: the start).
    pub actions: usize,
    /// The position, in the ruleset's notation.
    pub position: String,
    /// Black's winning chance (White's is one minus it).
    pub black: f64,
    /// Whether the value is exact (see [`MoveReview::exact`]).
    pub exact: bool,
}

/// What one side did over the game.
#[derive(Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct SideReport {
    /// Decisions with a choice of moves.
    pub decisions: u32,
    /// Forced moves and passes.
    pub forced: u32,
    /// The loss summed over the side's decisions.
    pub total_loss: f64,
    /// The mean loss per decision with a choice (0 without any).
    pub error_rate: f64,
    /// Moves labelled [`Label::Inaccuracy`].
    pub inaccuracies: u32,
    /// Moves labelled [`Label::Mistake`].
    pub mistakes: u32,
    /// Moves labelled [`Label::Blunder`].
    pub blunders: u32,
    /// The side's throws.
    pub throws: u32,
    /// The luck summed over the side's throws.
    pub luck: f64,
    /// The side's winning chance at the start.
    pub start: f64,
    /// The result (1 won, 0 lost, ½ drawn), or the winning chance at the last point of an
    /// unfinished game.
    pub result: f64,
    /// The result with the luck of both sides taken out: `result − (luck − opponent's
    /// luck)`, GNU Backgammon's luck-adjusted result.
    pub luck_adjusted: f64,
}

impl SideReport {
    /// The number of moves with `label`.
    pub fn count(&self, label: Label) -> u32 {
        match label {
            Label::Inaccuracy => self.inaccuracies,
            Label::Mistake => self.mistakes,
            Label::Blunder => self.blunders,
        }
    }
}

/// One action of the game, reviewed.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(tag = "kind", rename_all = "lowercase"))]
pub enum Step {
    /// A throw.
    Throw(ThrowReview),
    /// A move.
    Move(MoveReview),
}

/// A whole game, analysed.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct GameAnalysis {
    /// The ruleset configuration, in specification syntax.
    pub rules: String,
    /// The evaluator, as a player specification (`learned:2`, …).
    pub evaluator: String,
    /// The endgame tables used, in one line, if any.
    pub tables: Option<String>,
    /// Their proven error bound, if any: every value read from them is within it.
    pub tables_error_bound: Option<f64>,
    /// Whether the game is over.
    pub finished: bool,
    /// The winning chance before the first action and after each.
    pub points: Vec<Point>,
    /// Each action, reviewed.
    pub steps: Vec<Step>,
    /// Black's figures and White's.
    pub sides: PerSide<SideReport>,
}

impl GameAnalysis {
    /// The decisions, in game order.
    pub fn moves(&self) -> Vec<&MoveReview> {
        self.steps
            .iter()
            .filter_map(|s| match s {
                Step::Move(m) => Some(m),
                Step::Throw(_) => None,
            })
            .collect()
    }

    /// The throws, in game order.
    pub fn throws(&self) -> Vec<&ThrowReview> {
        self.steps
            .iter()
            .filter_map(|s| match s {
                Step::Throw(t) => Some(t),
                Step::Move(_) => None,
            })
            .collect()
    }

    /// A short account a player can read: who erred how often and by how much, who was
    /// lucky, the costliest moves.
    pub fn summary(&self) -> String {
        let mut out = String::new();
        let points = |x: f64| format!("{:.1}", 100.0 * x);
        for side in [Side::Black, Side::White] {
            let s = &self.sides[side];
            let _ = write!(
                out,
                "{side}: {} decisions with a choice ({} forced), mean loss {} points a decision",
                s.decisions,
                s.forced,
                points(s.error_rate)
            );
            let labels: Vec<String> = Label::ALL
                .iter()
                .rev()
                .filter(|&&l| s.count(l) > 0)
                .map(|&l| {
                    let n = s.count(l);
                    format!("{n} {}", if n == 1 { l.name() } else { l.plural() })
                })
                .collect();
            if labels.is_empty() {
                out.push_str(", no costly move");
            } else {
                let _ = write!(out, ", {}", labels.join(", "));
            }
            let _ = writeln!(
                out,
                "; luck {:+} points over {} throws; {} {}, luck-adjusted {}.",
                points(s.luck),
                s.throws,
                if self.finished {
                    "result"
                } else {
                    "chance now"
                },
                points(s.result),
                points(s.luck_adjusted)
            );
        }
        let (b, w) = (&self.sides[Side::Black], &self.sides[Side::White]);
        let skill = w.total_loss - b.total_loss;
        let luck = b.luck - w.luck;
        let verdict = if skill.abs() < INACCURACY && luck.abs() < INACCURACY {
            "Neither play nor throws made much difference.".to_string()
        } else {
            let better = if skill >= 0.0 {
                Side::Black
            } else {
                Side::White
            };
            let luckier = if luck >= 0.0 {
                Side::Black
            } else {
                Side::White
            };
            format!(
                "{better} played better by {} points of winning chance; {luckier} threw better \
                 by {} points.",
                points(skill.abs()),
                points(luck.abs())
            )
        };
        let _ = writeln!(out, "{verdict}");
        let mut costly: Vec<&MoveReview> = self
            .moves()
            .into_iter()
            .filter(|m| m.label.is_some())
            .collect();
        costly.sort_by(|a, b| b.loss.total_cmp(&a.loss).then(a.action.cmp(&b.action)));
        for m in costly.iter().take(3) {
            let _ = writeln!(
                out,
                "Action {}: {} played {}{} (loss {} points{}); best was {}.",
                m.action + 1,
                m.side,
                m.played,
                m.label.map_or("", Label::mark),
                points(m.loss),
                if m.exact { ", exact" } else { "" },
                m.best
            );
        }
        out
    }
}

/// Why a game could not be analysed.
#[derive(Debug, Error)]
pub enum AnalysisError {
    /// The player gives no winning chances to compare moves by.
    #[error(
        "`{0}` gives no winning chances to analyse with: use learned[:D], expectiminimax[:D], \
         mcts[:N] or perfect[:K]"
    )]
    NoWinningChances(PlayerSpec),
    /// A perfect evaluator needs tables of as many pieces a side as it is named for.
    #[error(
        "`{0}` needs endgame tables of that many pieces a side (solved once with `senet solve`)"
    )]
    NoTables(PlayerSpec),
    /// The tables were solved for another configuration.
    #[error("the endgame tables are for `{tables}`, the game is `{game}`")]
    TablesMismatch {
        /// The tables' configuration.
        tables: String,
        /// The game's.
        game: String,
    },
    /// The learned evaluator has no weights for the configuration.
    #[error(transparent)]
    Weights(#[from] WeightsError),
    /// The evaluator could not be built.
    #[error(transparent)]
    Spec(#[from] PlayerSpecError),
    /// The game is longer than [`MAX_ANALYSED_ACTIONS`].
    #[error("the game has {0} actions; at most {MAX_ANALYSED_ACTIONS} are analysed")]
    TooLong(usize),
    /// An action of the game is not legal where it is played.
    #[error("action {index} ({action}) is not legal in {position}")]
    Illegal {
        /// Its index (0 for the first).
        index: usize,
        /// The action.
        action: Action,
        /// The position it was played in.
        position: String,
    },
    /// The evaluator failed on a decision.
    #[error(transparent)]
    Player(#[from] PlayerError),
}

/// The values of one decision, for the side to move.
#[derive(Clone)]
struct Decided {
    moves: Vec<ValuedMove>,
    best: usize,
    exact: bool,
}

/// A winning chance for one side, and whether it is exact.
#[derive(Clone, Copy, Debug)]
struct Chance {
    value: f64,
    exact: bool,
}

impl Chance {
    fn exact(value: f64) -> Chance {
        Chance { value, exact: true }
    }

    /// The same chance seen by the other side.
    fn flipped(self) -> Chance {
        Chance {
            value: 1.0 - self.value,
            exact: self.exact,
        }
    }

    /// This chance, held by `holder`, seen by `side`.
    fn for_side(self, holder: Side, side: Side) -> Chance {
        if holder == side { self } else { self.flipped() }
    }
}

/// Values the points of games of one ruleset with one evaluator (and endgame tables, where
/// given): see the [module documentation](self).
pub struct Analyser<R: Ruleset> {
    rules: R,
    spec: PlayerSpec,
    player: Box<dyn Player<R>>,
    evaluation: Arc<dyn Evaluator<R>>,
    oracle: Option<Arc<dyn PositionOracle<R>>>,
    tables_exact: bool,
    decisions: HashMap<R::State, Decided>,
    throw_values: HashMap<(R::State, u32), Chance>,
    moves: MoveList,
}

impl<R: Ruleset> Analyser<R> {
    /// The analyser of `rules` valuing decisions as the player `spec` does, reading `oracle`
    /// wherever it covers a point. Searching players (expectiminimax, learned, perfect) score
    /// their leaves from the tables too. Fails for players without winning chances (random,
    /// greedy), for `perfect` without tables, and for tables of another configuration.
    pub fn new(
        rules: &R,
        spec: &PlayerSpec,
        oracle: Option<Arc<dyn PositionOracle<R>>>,
    ) -> Result<Analyser<R>, AnalysisError> {
        if let Some(oracle) = &oracle
            && oracle.spec() != rules.spec()
        {
            return Err(AnalysisError::TablesMismatch {
                tables: oracle.spec().to_string(),
                game: rules.spec().to_string(),
            });
        }
        let base: Arc<dyn Evaluator<R>> = match spec {
            PlayerSpec::Learned(_) => Arc::new(LearnedEvaluator::new(rules, &committed(rules)?)?),
            PlayerSpec::Random | PlayerSpec::Greedy => {
                return Err(AnalysisError::NoWinningChances(*spec));
            }
            _ => Arc::new(RaceEvaluator::default()),
        };
        let evaluation: Arc<dyn Evaluator<R>> = match &oracle {
            Some(oracle) => Arc::new(OracleEvaluator::new(Arc::clone(oracle), base)),
            None => base,
        };
        let leaves = Arc::clone(&evaluation);
        let player: Box<dyn Player<R>> = match *spec {
            PlayerSpec::Learned(depth) => Box::new(
                Expectiminimax::with_evaluator(Budget::Depth(depth), leaves)
                    .with_whole_turns(true)
                    .named("learned"),
            ),
            PlayerSpec::Expectiminimax(budget) => {
                Box::new(Expectiminimax::with_evaluator(budget, leaves))
            }
            PlayerSpec::Perfect(pieces)
                if oracle.as_ref().is_none_or(|o| o.max_pieces() < pieces) =>
            {
                return Err(AnalysisError::NoTables(*spec));
            }
            PlayerSpec::Perfect(_) => Box::new(Expectiminimax::with_evaluator(
                Budget::Depth(crate::perfect::FALLBACK_DEPTH),
                leaves,
            )),
            PlayerSpec::Mcts(playouts) => Box::new(Mcts::new(playouts)),
            PlayerSpec::Random | PlayerSpec::Greedy => unreachable!("refused above"),
        };
        let tables_exact = oracle
            .as_ref()
            .is_some_and(|o| o.error_bound() <= EXACT_BOUND);
        Ok(Analyser {
            rules: rules.clone(),
            spec: *spec,
            player,
            evaluation,
            oracle,
            tables_exact,
            decisions: HashMap::new(),
            throw_values: HashMap::new(),
            moves: MoveList::new(),
        })
    }

    /// Analyses the game that starts at `start` and goes on with `actions`; `rng` serves the
    /// evaluators that draw (MCTS), so the same seed gives the same analysis.
    pub fn analyse(
        &mut self,
        start: &R::State,
        actions: &[Action],
        rng: &mut dyn Rng,
    ) -> Result<GameAnalysis, AnalysisError> {
        if actions.len() > MAX_ANALYSED_ACTIONS {
            return Err(AnalysisError::TooLong(actions.len()));
        }
        let mut state = *start;
        let mut current = self.value(&state, rng)?;
        let mut points = vec![self.point(0, &state, current)];
        let mut steps = Vec::with_capacity(actions.len());
        let mut sides = PerSide::new(SideReport::default(), SideReport::default());
        for (index, &action) in actions.iter().enumerate() {
            let rules = self.rules.clone();
            let illegal = || AnalysisError::Illegal {
                index,
                action,
                position: rules.position_string(&state),
            };
            let step = match (self.rules.phase(&state), action) {
                (Phase::Throw(side), Action::Throw(throw))
                    if self.rules.device().probability(throw).is_some() =>
                {
                    // Read again rather than flipped from Black's view, which rounds.
                    let expected = self.throw_value(&state, side, 0, rng)?;
                    self.rules.throw_unchecked(&mut state, throw);
                    let after = self.value(&state, rng)?.for_side(Side::Black, side);
                    let report = &mut sides[side];
                    report.throws += 1;
                    report.luck += after.value - expected.value;
                    Step::Throw(ThrowReview {
                        action: index,
                        side,
                        throw,
                        expected: expected.value,
                        value: after.value,
                        luck: after.value - expected.value,
                        exact: expected.exact && after.exact,
                    })
                }
                (Phase::Move(side), Action::Move(mv)) => {
                    let decided = self.decide(&state, rng)?;
                    let Some(played) = decided.moves.iter().position(|m| m.mv == mv) else {
                        return Err(illegal());
                    };
                    let forced = decided.moves.len() == 1;
                    let best = decided.moves[decided.best];
                    let played = decided.moves[played];
                    let loss = if forced {
                        0.0
                    } else {
                        (best.value - played.value).max(0.0)
                    };
                    let label = if forced { None } else { Label::of_loss(loss) };
                    let report = &mut sides[side];
                    if forced {
                        report.forced += 1;
                    } else {
                        report.decisions += 1;
                        report.total_loss += loss;
                        match label {
                            Some(Label::Inaccuracy) => report.inaccuracies += 1,
                            Some(Label::Mistake) => report.mistakes += 1,
                            Some(Label::Blunder) => report.blunders += 1,
                            None => {}
                        }
                    }
                    let mut ranked = decided.moves.clone();
                    ranked.sort_by(|a, b| b.value.total_cmp(&a.value));
                    self.rules.play_unchecked(&mut state, mv);
                    Step::Move(MoveReview {
                        action: index,
                        side,
                        played: played.mv,
                        played_value: played.value,
                        best: best.mv,
                        best_value: best.value,
                        loss,
                        exact: decided.exact,
                        forced,
                        label,
                        moves: ranked,
                    })
                }
                _ => return Err(illegal()),
            };
            steps.push(step);
            current = self.value(&state, rng)?;
            points.push(self.point(index + 1, &state, current));
        }
        let finished = matches!(self.rules.phase(&state), Phase::Over(_));
        for side in [Side::Black, Side::White] {
            let opponent_luck = sides[side.opponent()].luck;
            let report = &mut sides[side];
            report.start = points[0].black;
            report.result = points[points.len() - 1].black;
            if side == Side::White {
                report.start = 1.0 - report.start;
                report.result = 1.0 - report.result;
            }
            report.error_rate = if report.decisions == 0 {
                0.0
            } else {
                report.total_loss / f64::from(report.decisions)
            };
            report.luck_adjusted = report.result - (report.luck - opponent_luck);
        }
        Ok(GameAnalysis {
            rules: self.rules.spec().to_string(),
            evaluator: self.spec.to_string(),
            tables: self.oracle.as_ref().map(|o| o.describe()),
            tables_error_bound: self.oracle.as_ref().map(|o| o.error_bound()),
            finished,
            points,
            steps,
            sides,
        })
    }

    fn point(&self, actions: usize, state: &R::State, black: Chance) -> Point {
        Point {
            actions,
            position: self.rules.position_string(state),
            black: black.value,
            exact: black.exact,
        }
    }

    /// Black's winning chance at `state`.
    fn value(&mut self, state: &R::State, rng: &mut dyn Rng) -> Result<Chance, AnalysisError> {
        Ok(match self.rules.phase(state) {
            Phase::Over(outcome) => Chance::exact(outcome.value_for(Side::Black)),
            Phase::Throw(side) => self
                .throw_value(state, side, 0, rng)?
                .for_side(side, Side::Black),
            Phase::Move(mover) => self.decision_chance(state, mover, Side::Black, rng)?,
        })
    }

    /// The chance of `side` at `state`, a decision of `mover`: its best move's value.
    fn decision_chance(
        &mut self,
        state: &R::State,
        mover: Side,
        side: Side,
        rng: &mut dyn Rng,
    ) -> Result<Chance, AnalysisError> {
        let decided = self.decide(state, rng)?;
        let best = Chance {
            value: decided.moves[decided.best].value,
            exact: decided.exact,
        };
        Ok(best.for_side(mover, side))
    }

    /// The winning chance of `side`, to throw at `state`, `run` throws into a run of them.
    fn throw_value(
        &mut self,
        state: &R::State,
        side: Side,
        run: u32,
        rng: &mut dyn Rng,
    ) -> Result<Chance, AnalysisError> {
        if let Some(known) = self.throw_values.get(&(*state, run)) {
            return Ok(*known);
        }
        if let Some(value) = self.oracle.as_ref().and_then(|o| o.throw_value(state)) {
            return Ok(Chance {
                value,
                exact: self.tables_exact,
            });
        }
        let device = self.rules.device();
        let mut total = 0.0;
        let mut exact = true;
        for outcome in device.outcomes() {
            let mut after = *state;
            self.rules.throw_unchecked(&mut after, outcome.value);
            let chance = self.settled(&after, side, run + 1, rng)?;
            total += f64::from(outcome.weight) * chance.value;
            exact &= chance.exact;
        }
        let chance = Chance {
            value: total / f64::from(device.denominator()),
            exact,
        };
        self.throw_values.insert((*state, run), chance);
        Ok(chance)
    }

    /// The winning chance of `side` at `state`, reached by a throw `run` throws into a run.
    fn settled(
        &mut self,
        state: &R::State,
        side: Side,
        run: u32,
        rng: &mut dyn Rng,
    ) -> Result<Chance, AnalysisError> {
        Ok(match self.rules.phase(state) {
            Phase::Over(outcome) => Chance::exact(outcome.value_for(side)),
            Phase::Move(mover) => self.decision_chance(state, mover, side, rng)?,
            Phase::Throw(thrower) if run < MAX_THROW_RUN => self
                .throw_value(state, thrower, run, rng)?
                .for_side(thrower, side),
            Phase::Throw(_) => self.estimate(state, side),
        })
    }

    /// The evaluator's static estimate (the tables' value where they cover `state`).
    fn estimate(&self, state: &R::State, side: Side) -> Chance {
        let exact = self.tables_exact
            && self
                .oracle
                .as_ref()
                .is_some_and(|o| o.throw_value(state).is_some());
        Chance {
            value: self.evaluation.evaluate(&self.rules, state, side),
            exact,
        }
    }

    /// The values of the decision at `state` for the side to move.
    fn decide(&mut self, state: &R::State, rng: &mut dyn Rng) -> Result<Decided, AnalysisError> {
        if let Some(known) = self.decisions.get(state) {
            return Ok(known.clone());
        }
        let Phase::Move(mover) = self.rules.phase(state) else {
            return Err(PlayerError::NotADecision(self.rules.phase(state)).into());
        };
        self.rules.generate_moves(state, &mut self.moves);
        let moves: Vec<Move> = self.moves.iter().copied().collect();
        let decided = if let Some(values) = self.exact_values(state, mover, &moves) {
            Decided {
                best: first_best(&values),
                moves: valued(&moves, &values),
                exact: self.tables_exact,
            }
        } else if let [only] = moves[..] {
            let mut after = *state;
            self.rules.play_unchecked(&mut after, only);
            let chance = match self.rules.phase(&after) {
                Phase::Move(next) => self.decision_chance(&after, next, mover, rng)?,
                _ => self.estimate(&after, mover),
            };
            Decided {
                moves: valued(&moves, &[chance.value]),
                best: 0,
                exact: chance.exact,
            }
        } else {
            let analysis = self.player.analyse(&self.rules, state, rng)?;
            match analysis.kind() {
                ValueKind::EstimatedWinProbability | ValueKind::ExactWinProbability => {}
                _ => {
                    return Err(AnalysisError::NoWinningChances(self.spec));
                }
            }
            let values: Vec<f64> = moves
                .iter()
                .map(|&mv| analysis.value_of(mv).unwrap_or(f64::NAN))
                .collect();
            Decided {
                best: first_best(&values),
                moves: valued(&moves, &values),
                exact: false,
            }
        };
        self.decisions.insert(*state, decided.clone());
        Ok(decided)
    }

    /// The exact value of every move for `mover`, when the tables cover them all.
    fn exact_values(&self, state: &R::State, mover: Side, moves: &[Move]) -> Option<Vec<f64>> {
        let oracle = self.oracle.as_ref()?;
        let lookup = |s: &R::State| oracle.throw_value(s);
        let mut memo = HashMap::new();
        moves
            .iter()
            .map(|&mv| {
                let mut next = *state;
                self.rules.play_unchecked(&mut next, mv);
                exact_value(&self.rules, &next, mover, &lookup, Some(&mut memo), 0)
            })
            .collect()
    }
}

/// `moves` paired with `values`.
fn valued(moves: &[Move], values: &[f64]) -> Vec<ValuedMove> {
    moves
        .iter()
        .zip(values)
        .map(|(&mv, &value)| ValuedMove { mv, value })
        .collect()
}

/// The index of the first largest value.
fn first_best(values: &[f64]) -> usize {
    crate::player::first_best(values)
}
