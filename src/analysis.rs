//! Game analysis for any registered ruleset (feature `ai`): what each move cost and what
//! each throw gave, with exact values wherever the endgame tables reach.
//!
//! This is the front of [`senet::ai::analysis`](crate::ai::analysis) for an [`AnyGame`]: it
//! picks the evaluator (by default the strongest there is for the configuration, see
//! [`default_evaluator`]), solves or takes the endgame tables, and seeds the evaluators that
//! draw. `senet analyse`, the page's analysis view and Python's `senet.analyse` all call
//! [`analyse`]; the module documentation of `senet::ai::analysis` says what each number means.
//!
//! ```
//! use senet::analysis::{AnalysisOptions, Tables, analyse};
//! use senet::registry::AnyRuleset;
//! use senet::AnyGame;
//! use senet::rng::seeded;
//!
//! let mut game = AnyGame::new(AnyRuleset::parse("regency").unwrap());
//! game.play_random(&mut seeded(1, 0), 30);
//! let options = AnalysisOptions { tables: Tables::None, ..AnalysisOptions::default() };
//! let analysis = analyse(&game, &options).unwrap();
//! assert_eq!(analysis.evaluator, "learned:2");
//! assert_eq!(analysis.points.len(), game.history().len() + 1);
//! println!("{}", analysis.summary());
//! ```

use senet_ai::PlayerSpec;
use senet_ai::endgame::{EndgameError, SolveOptions};
use senet_core::PositionError;

pub use senet_ai::analysis::{
    AnalysisError, BLUNDER, GameAnalysis, INACCURACY, Label, MAX_ANALYSED_ACTIONS, MISTAKE,
    MoveReview, Point, SideReport, Step, ThrowReview, ValuedMove,
};

use crate::registry::{AnyRuleset, Registered, RulesetVisitor};
use crate::{AnyGame, AnyTables};

/// Which endgame tables the analysis reads.
#[derive(Clone, Debug, Default)]
pub enum Tables<'a> {
    /// None: every value is the evaluator's.
    None,
    /// Those solved in seconds when the analysis starts
    /// ([`AnyRuleset::endgame_pieces_on_demand`] pieces a side), where the configuration has
    /// endgames; none otherwise.
    #[default]
    OnDemand,
    /// These (solved for the game's configuration, e.g. read from a `senet solve` file).
    Given(&'a AnyTables),
}

/// How to analyse a game.
#[derive(Clone, Debug, Default)]
pub struct AnalysisOptions<'a> {
    /// The evaluator; `None` for [`default_evaluator`].
    pub evaluator: Option<PlayerSpec>,
    /// The endgame tables.
    pub tables: Tables<'a>,
    /// The seed of the evaluators that draw (MCTS): the same seed, the same analysis.
    pub seed: u64,
}

/// Why a game could not be analysed: the analysis refused it, or the tables could not be
/// solved.
#[derive(Debug, thiserror::Error)]
pub enum AnalyseError {
    /// The analysis refused the game or the evaluator.
    #[error(transparent)]
    Analysis(#[from] AnalysisError),
    /// The endgame tables could not be solved.
    #[error(transparent)]
    Tables(#[from] EndgameError),
    /// The game's start position did not read back in its ruleset.
    #[error("the game's start position: {0}")]
    Start(#[from] PositionError),
}

/// The strongest evaluator senet has for `rules`: `learned:2` where weights come with senet
/// for the configuration, `expectiminimax:2` elsewhere.
///
/// ```
/// use senet::analysis::default_evaluator;
/// use senet::registry::AnyRuleset;
/// let regency = AnyRuleset::parse("regency").unwrap();
/// assert_eq!(default_evaluator(&regency).to_string(), "learned:2");
/// let house = AnyRuleset::parse("regency(house_of_water=true)").unwrap();
/// assert_eq!(default_evaluator(&house).to_string(), "expectiminimax:2");
/// ```
pub fn default_evaluator(rules: &AnyRuleset) -> PlayerSpec {
    struct HasWeights;
    impl RulesetVisitor for HasWeights {
        type Output = bool;
        fn visit<R: Registered>(self, rules: &R) -> bool {
            senet_ai::learned::committed(rules).is_ok()
        }
    }
    if rules.visit(HasWeights) {
        PlayerSpec::Learned(senet_ai::learned::DEFAULT_LEARNED_DEPTH)
    } else {
        PlayerSpec::Expectiminimax(senet_ai::Budget::Depth(senet_ai::DEFAULT_DEPTH))
    }
}

/// Analyses `game` (finished or not) from its start.
pub fn analyse(
    game: &AnyGame,
    options: &AnalysisOptions<'_>,
) -> Result<GameAnalysis, AnalyseError> {
    let rules = game.rules();
    let solved;
    let tables = match options.tables {
        Tables::None => None,
        Tables::Given(tables) => Some(tables),
        Tables::OnDemand if rules.supports_endgame() => {
            solved =
                rules.solve_endgame(rules.endgame_pieces_on_demand(), &SolveOptions::default())?;
            Some(&solved)
        }
        Tables::OnDemand => None,
    };
    let evaluator = options
        .evaluator
        .unwrap_or_else(|| default_evaluator(rules));
    rules.visit(Analyse {
        game,
        evaluator,
        tables,
        seed: options.seed,
    })
}

/// The analysis, typed.
struct Analyse<'a> {
    game: &'a AnyGame,
    evaluator: PlayerSpec,
    tables: Option<&'a AnyTables>,
    seed: u64,
}

impl RulesetVisitor for Analyse<'_> {
    type Output = Result<GameAnalysis, AnalyseError>;

    fn visit<R: Registered>(self, rules: &R) -> Self::Output {
        let oracle = match self.tables {
            None => None,
            Some(tables) => {
                Some(
                    tables
                        .oracle::<R>()
                        .ok_or_else(|| AnalysisError::TablesMismatch {
                            tables: tables.rules().to_string(),
                            game: rules.spec().to_string(),
                        })?,
                )
            }
        };
        let mut analyser = senet_ai::analysis::Analyser::new(rules, &self.evaluator, oracle)?;
        let start = rules.parse_position(&self.game.start_position())?;
        let mut rng = crate::rng::seeded(self.seed, 0);
        Ok(analyser.analyse(&start, self.game.history(), &mut rng)?)
    }
}
