//! The JSON the page draws from: a game (replayed from its record) seen whole, and the
//! computer's hints.

use serde::Serialize;

use senet::registry::{AnyRuleset, RULESETS};
use senet::{Action, AnyGame, GameRecord, Move, Phase, Place, PlayError, RecordError, Side};
use senet_ai::{Analysis, ValueKind};

use crate::narrate::{game_over, narrate, outcome_words, show_value, value_meaning};
use senet::Throw;

/// A side as the API names it.
pub fn side_id(side: Side) -> &'static str {
    match side {
        Side::Black => "black",
        Side::White => "white",
    }
}

/// One value per side.
#[derive(Serialize)]
pub struct PerSide<T> {
    black: T,
    white: T,
}

impl<T> PerSide<T> {
    fn of(mut f: impl FnMut(Side) -> T) -> PerSide<T> {
        PerSide {
            black: f(Side::Black),
            white: f(Side::White),
        }
    }
}

/// One step of a move: `from` and `to` are a square number, `hand` or `off`.
#[derive(Serialize)]
pub struct StepView {
    from: String,
    to: String,
}

/// A square with a rule of its own.
#[derive(Serialize)]
pub struct SpecialSquareView {
    square: u8,
    /// The sign diagrams draw beside it.
    mark: String,
    /// What it does, citing the rule.
    text: &'static str,
}

/// Every special square of the configuration `rules`, in the order of the track.
fn special_squares(rules: &AnyRuleset) -> Vec<SpecialSquareView> {
    let mut squares: Vec<SpecialSquareView> = rules
        .special_squares()
        .iter()
        .flat_map(|kind| {
            kind.squares.iter().map(|sq| SpecialSquareView {
                square: sq.get(),
                mark: kind.mark.to_string(),
                text: kind.meaning,
            })
        })
        .collect();
    squares.sort_by_key(|s| s.square);
    squares
}

/// A legal move.
#[derive(Serialize)]
pub struct MoveView {
    /// The move notation, what `/api/move` takes.
    text: String,
    /// Empty for a pass.
    steps: Vec<StepView>,
    /// The throw the move spends, when the move names one (stored throws).
    throw: Option<u8>,
}

fn place(p: Place) -> String {
    match p {
        Place::Hand => "hand".to_string(),
        Place::Off => "off".to_string(),
        Place::Board(sq) => sq.get().to_string(),
    }
}

impl MoveView {
    fn of(mv: Move) -> MoveView {
        MoveView {
            text: mv.to_string(),
            steps: mv
                .steps()
                .map(|s| StepView {
                    from: place(s.from),
                    to: place(s.to),
                })
                .collect(),
            throw: mv.throw().map(|t| t.get()),
        }
    }
}

/// One line of the log: an action and what it did, in words.
#[derive(Serialize)]
pub struct LogEntry {
    /// The record line: `throw 3`, `move 9-12`.
    action: String,
    /// The side that acted.
    side: &'static str,
    /// The narration.
    text: String,
}

/// What is due now.
#[derive(Serialize)]
pub struct PhaseView {
    /// `throw`, `move` or `over`.
    kind: &'static str,
    /// The side to act (none once the game is over).
    side: Option<&'static str>,
}

/// One outcome of the throwing device.
#[derive(Serialize)]
pub struct ThrowView {
    value: u8,
    weight: u32,
}

/// The end of the game.
#[derive(Serialize)]
pub struct OutcomeView {
    winner: Option<&'static str>,
    /// The ruleset's own points (their meaning is the ruleset's: see `score`).
    points: PerSide<i32>,
    text: String,
    /// What decided the game, in plain words: "Black bore off all 5 pieces first".
    summary: String,
    /// The score in the ruleset's own terms, for the rulesets that score a game (none for
    /// those where the points only repeat who won).
    score: Option<String>,
}

/// What a ruleset configuration shows whatever the game: sent once, with the first view of a
/// game of it, not with every action.
#[derive(Serialize)]
pub struct RulesView {
    /// The ruleset's name.
    name: &'static str,
    pieces: u8,
    /// The device's values with their weights.
    throws: Vec<ThrowView>,
    special: Vec<SpecialSquareView>,
    /// The ruleset's rules in prose (Markdown).
    rules_text: &'static str,
}

/// The constants of the configuration `rules`.
pub fn rules_view(rules: &AnyRuleset) -> RulesView {
    RulesView {
        name: rules.name(),
        pieces: rules.pieces_per_side(),
        throws: rules
            .throw_outcomes()
            .iter()
            .map(|o| ThrowView {
                value: o.value.get(),
                weight: o.weight,
            })
            .collect(),
        special: special_squares(rules),
        rules_text: rules.rules_text(),
    }
}

/// A game as the page shows it.
#[derive(Serialize)]
pub struct GameView {
    /// The ruleset specification.
    rules: String,
    /// The configuration's constants: with a game loaded or started (`/api/game`), not with
    /// the answer to an action, whose configuration the page has already.
    #[serde(skip_serializing_if = "Option::is_none")]
    ruleset: Option<RulesView>,
    /// The record: its header lines then one line per action (the page splits it).
    record: String,
    /// The position notation; its first 30 characters are the squares, `B`, `W` or `.`.
    position: String,
    off: PerSide<u8>,
    in_hand: PerSide<u8>,
    captured: PerSide<u8>,
    phase: PhaseView,
    /// The last throw made, if the side to act is spending it (or has stored throws).
    last_throw: Option<Throw>,
    /// The throws the side to act holds now (stored or collected throws, or the one throw
    /// it is spending), in the order held.
    held: Vec<u8>,
    /// The legal moves (empty unless a move is due).
    moves: Vec<MoveView>,
    outcome: Option<OutcomeView>,
    /// The log from action `log_from` on: every action for a game loaded or started, the
    /// new ones for the answer to an action (the page has the earlier ones).
    log_from: usize,
    log: Vec<LogEntry>,
}

/// Applies `action` to `game` and narrates it.
pub fn narrated(game: &mut AnyGame, action: Action) -> Result<LogEntry, PlayError> {
    let before = game.clone();
    game.apply(action)?;
    Ok(LogEntry {
        action: action.to_string(),
        side: side_id(before.phase().side().unwrap_or(Side::Black)),
        text: narrate(&before, action, game),
    })
}

/// Loads a record in the text form and narrates every action as it replays, once; errors
/// name the line at fault, as [`AnyGame::from_record_text`]'s do.
pub fn replay_narrated(text: &str) -> Result<(AnyGame, Vec<LogEntry>), RecordError> {
    let (record, lines) = GameRecord::parse_with_lines(text)?;
    let start = GameRecord {
        actions: Vec::new(),
        ..record.clone()
    };
    let mut game = AnyGame::from_record(&start).map_err(|e| lines.locate(e))?;
    let mut log = Vec::with_capacity(record.actions.len());
    for (index, &action) in record.actions.iter().enumerate() {
        let entry = narrated(&mut game, action).map_err(|source| {
            lines.locate(RecordError::Replay {
                index,
                action: action.to_string(),
                source,
            })
        })?;
        log.push(entry);
    }
    Ok((game, log))
}

/// The view of `game`, whose log from action `log_from` on is `log`; with the constants of
/// its configuration when `with_rules`.
pub fn view(game: &AnyGame, log_from: usize, log: Vec<LogEntry>, with_rules: bool) -> GameView {
    let record = game.record();
    let rules = game.rules();
    let position = game.position();
    let board = game.board();
    let phase = match game.phase() {
        Phase::Throw(side) => PhaseView {
            kind: "throw",
            side: Some(side_id(side)),
        },
        Phase::Move(side) => PhaseView {
            kind: "move",
            side: Some(side_id(side)),
        },
        Phase::Over(_) => PhaseView {
            kind: "over",
            side: None,
        },
    };
    // Stored or collected throws are in the position's `throws=` field.
    let stored: Vec<u8> = position
        .split_whitespace()
        .find_map(|field| field.strip_prefix("throws="))
        .map(|digits| {
            digits
                .chars()
                .filter_map(|c| c.to_digit(10))
                .map(|d| d as u8)
                .collect()
        })
        .unwrap_or_default();
    let thrown = || {
        game.history().iter().rev().find_map(|a| match a {
            Action::Throw(v) => Some(*v),
            Action::Move(_) => None,
        })
    };
    let (last_throw, held) = match game.phase() {
        Phase::Move(_) => {
            let last = thrown();
            let held = if stored.is_empty() {
                last.map(|t| vec![t.get()]).unwrap_or_default()
            } else {
                stored
            };
            (last, held)
        }
        Phase::Throw(_) if !stored.is_empty() => (thrown(), stored),
        _ => (None, Vec::new()),
    };
    GameView {
        rules: rules.to_string(),
        ruleset: with_rules.then(|| rules_view(rules)),
        record: record.to_string(),
        position,
        off: PerSide::of(|s| board.off(s)),
        in_hand: PerSide::of(|s| board.in_hand(s)),
        captured: PerSide::of(|s| game.captured(s)),
        phase,
        last_throw,
        held,
        moves: game
            .legal_moves()
            .iter()
            .map(|&m| MoveView::of(m))
            .collect(),
        outcome: game.outcome().map(|o| {
            let (summary, score) = outcome_words(game, &o);
            OutcomeView {
                winner: o.winner.map(side_id),
                points: PerSide::of(|s| o.points_of(s)),
                text: game_over(game, &o),
                summary,
                score,
            }
        }),
        log_from,
        log,
    }
}

/// A move with the value a player gave it.
#[derive(Serialize)]
pub struct HintMove {
    #[serde(rename = "move")]
    mv: String,
    value: f64,
    /// The value in words (`62.5% to win`, `score 3.20`).
    shown: String,
}

/// A player's view of the decision: what its values mean and each move's.
#[derive(Serialize)]
pub struct HintView {
    player: String,
    /// `exact`, `estimate`, `heuristic`, `uniform` or `forced`.
    kind: &'static str,
    /// What the values mean, in one sentence.
    meaning: String,
    /// The move the player would choose.
    chosen: String,
    /// Best first.
    moves: Vec<HintMove>,
}

/// The hints of `analysis`, made by `player` for `side`.
pub fn hint(player: String, side: Side, analysis: &Analysis) -> HintView {
    let kind = match analysis.kind() {
        ValueKind::ExactWinProbability => "exact",
        ValueKind::EstimatedWinProbability => "estimate",
        ValueKind::Heuristic => "heuristic",
        ValueKind::Uniform => "uniform",
        ValueKind::Forced => "forced",
    };
    let meaning = value_meaning(analysis.kind(), side);
    let shown = |value: f64| show_value(analysis.kind(), value);
    HintView {
        player,
        kind,
        meaning,
        chosen: analysis.chosen().to_string(),
        moves: analysis
            .ranked()
            .iter()
            .map(|m| HintMove {
                mv: m.mv.to_string(),
                value: m.value,
                shown: shown(m.value),
            })
            .collect(),
    }
}

/// One option of a ruleset.
#[derive(Serialize)]
pub struct OptionView {
    name: &'static str,
    /// The allowed values, the default first.
    values: &'static [&'static str],
    rules: &'static str,
    doc: &'static str,
}

/// One registered ruleset.
#[derive(Serialize)]
pub struct RulesetView {
    id: &'static str,
    name: &'static str,
    options: Vec<OptionView>,
    /// Whether the perfect player the page offers (tables of 2 pieces a side, solved on
    /// demand) plays this ruleset at its defaults; Kendall's stored throws take minutes.
    perfect: bool,
    /// The configurations of this ruleset (specifications such as
    /// `kendall(throw_timing=immediate)`) the learned player has weights for.
    learned: Vec<&'static str>,
}

/// Every registered ruleset, for the page's choosers.
pub fn rulesets() -> Vec<RulesetView> {
    RULESETS
        .iter()
        .map(|info| RulesetView {
            id: info.id,
            name: info.name,
            options: info
                .options
                .iter()
                .map(|o| OptionView {
                    name: o.name,
                    values: o.values,
                    rules: o.rules,
                    doc: o.doc,
                })
                .collect(),
            perfect: AnyRuleset::parse(info.id)
                .is_ok_and(|r| r.supports_endgame() && r.endgame_pieces_on_demand() >= 2),
            learned: senet_ai::learned::committed_rulesets()
                .filter(|spec| AnyRuleset::parse(spec).is_ok_and(|r| r.id() == info.id))
                .collect(),
        })
        .collect()
}
