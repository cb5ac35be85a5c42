//! The text form of a game record: a header naming the ruleset, then one action per line.
//!
//! ```text
//! # comments run from '#' to the end of the line; blank lines are ignored
//! rules regency(house_of_water=true)
//! revision 1
//! seed 42
//! start WBWBWBWBW.B................... b white_opened=false
//! throw 3
//! move 11-14
//! throw 2
//! move pass
//! ```
//!
//! The header lines `rules` (required), `revision`, `seed` and `start` (optional) come before
//! the first action, each at most once. `revision` is the ruleset's
//! [`RULES_REVISION`](crate::Ruleset::RULES_REVISION) when the record was written; loading
//! refuses a record of another revision. Every later line is an action: `throw <value>` or
//! `move <move>`. Reading the text checks only its form; loading it with a ruleset
//! ([`Game::from_record_text`]) replays every action and names the line of the first one that
//! does not replay.

use crate::prelude::*;
use core::fmt;
use core::str::FromStr;

use crate::error::RecordError;
use crate::game::{Action, Game, GameRecord};
use crate::ruleset::Ruleset;
use crate::setup::Setup;
use crate::spec::RulesetSpec;
use crate::text::quote;

/// Where each part of a text record was written (1-based line numbers), so that an error
/// found while loading the record can name its line.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RecordLines {
    /// The `rules` line.
    pub rules: usize,
    /// The `revision` line, if any.
    pub revision: Option<usize>,
    /// The `seed` line, if any.
    pub seed: Option<usize>,
    /// The `start` line, if any.
    pub start: Option<usize>,
    /// The line of each action, in order.
    pub actions: Vec<usize>,
}

impl RecordLines {
    /// Attaches the line number to an error from loading the record these lines came from
    /// (see [`Game::from_record`]): a ruleset error to the `rules` line, a start position
    /// error to the `start` line, a replay error to the line of the refused action. Errors
    /// that already name a line, or that no line matches, are returned unchanged.
    pub fn locate(&self, error: RecordError) -> RecordError {
        let line = match &error {
            RecordError::Spec(_) => Some(self.rules),
            RecordError::Revision { .. } => self.revision,
            RecordError::Start(_) => self.start,
            RecordError::Replay { index, .. } => self.actions.get(*index).copied(),
            RecordError::Syntax { .. } | RecordError::AtLine { .. } => None,
        };
        match line {
            Some(line) => RecordError::AtLine {
                line,
                source: Box::new(error),
            },
            None => error,
        }
    }
}

fn syntax(line: usize, reason: impl Into<String>) -> RecordError {
    RecordError::Syntax {
        line,
        reason: reason.into(),
    }
}

/// The header value `text` of `name` on line `line`, a whole number from 0 to `largest`.
fn whole_number<T: core::str::FromStr>(
    line: usize,
    name: &str,
    text: &str,
    largest: &str,
) -> Result<T, RecordError> {
    text.parse().map_err(|_| {
        syntax(
            line,
            format!(
                "{name} {} is not a whole number from 0 to {largest}",
                quote(text)
            ),
        )
    })
}

fn at_line(line: usize, error: RecordError) -> RecordError {
    RecordError::AtLine {
        line,
        source: Box::new(error),
    }
}

/// The longest line accepted (a position with every field is far shorter).
const MAX_LINE: usize = 1024;

impl GameRecord {
    /// Reads the text form, also returning the line of each part (see [`RecordLines`]).
    ///
    /// Only the form is checked here: the ruleset's id and options, the start position and
    /// the actions are checked when the record is loaded.
    ///
    /// ```
    /// use senet_core::GameRecord;
    /// let text = "rules regency\n# Black's first throw\nthrow 3\nmove 11-14\n";
    /// let (record, lines) = GameRecord::parse_with_lines(text).unwrap();
    /// assert_eq!(record.actions.len(), 2);
    /// assert_eq!(lines.actions, vec![3, 4]);
    /// let err = GameRecord::parse_with_lines("rules regency\nthrow three\n").unwrap_err();
    /// assert_eq!(err.to_string(), "line 2: \"three\" is not a throw value");
    /// ```
    pub fn parse_with_lines(text: &str) -> Result<(GameRecord, RecordLines), RecordError> {
        let mut rules: Option<RulesetSpec> = None;
        let mut revision = None;
        let mut seed = None;
        let mut start = None;
        let mut actions = Vec::new();
        let mut lines = RecordLines::default();
        for (index, raw) in text.lines().enumerate() {
            let number = index + 1;
            let content = raw.split_once('#').map_or(raw, |(before, _)| before).trim();
            if content.is_empty() {
                continue;
            }
            if content.len() > MAX_LINE {
                return Err(syntax(
                    number,
                    format!("a line of {} characters is too long", content.len()),
                ));
            }
            let (keyword, rest) = content
                .split_once(char::is_whitespace)
                .map_or((content, ""), |(k, r)| (k, r.trim()));
            let header = matches!(keyword, "rules" | "revision" | "seed" | "start");
            if header && !actions.is_empty() {
                return Err(syntax(
                    number,
                    format!("`{keyword}` belongs in the header, before the first action"),
                ));
            }
            if header && rest.is_empty() {
                return Err(syntax(number, format!("`{keyword}` needs a value")));
            }
            match keyword {
                "rules" => {
                    if rules.is_some() {
                        return Err(syntax(number, "the ruleset is named twice"));
                    }
                    let spec = rest
                        .parse::<RulesetSpec>()
                        .map_err(|e| at_line(number, RecordError::Spec(e)))?;
                    rules = Some(spec);
                    lines.rules = number;
                }
                "revision" => {
                    if revision.is_some() {
                        return Err(syntax(number, "the revision is given twice"));
                    }
                    revision = Some(whole_number(number, "revision", rest, "2^32 - 1")?);
                    lines.revision = Some(number);
                }
                "seed" => {
                    if seed.is_some() {
                        return Err(syntax(number, "the seed is given twice"));
                    }
                    seed = Some(whole_number(number, "seed", rest, "2^64 - 1")?);
                    lines.seed = Some(number);
                }
                "start" => {
                    if start.is_some() {
                        return Err(syntax(number, "the start position is given twice"));
                    }
                    rest.parse::<Setup>()
                        .map_err(|e| at_line(number, RecordError::Start(e)))?;
                    start = Some(rest.to_string());
                    lines.start = Some(number);
                }
                "throw" | "move" => {
                    if rules.is_none() {
                        return Err(syntax(
                            number,
                            "the record must name its ruleset (`rules <id>`) before the first action",
                        ));
                    }
                    let action = content
                        .parse::<Action>()
                        .map_err(|reason| syntax(number, reason))?;
                    actions.push(action);
                    lines.actions.push(number);
                }
                other => {
                    return Err(syntax(
                        number,
                        format!(
                            "{} is not a record line (use rules, revision, seed, start, throw or move)",
                            quote(other)
                        ),
                    ));
                }
            }
        }
        let rules = rules.ok_or_else(|| {
            syntax(
                1,
                "the record does not name its ruleset (a line `rules <id>`)",
            )
        })?;
        Ok((
            GameRecord {
                rules,
                revision,
                seed,
                start,
                actions,
            },
            lines,
        ))
    }
}

impl fmt::Display for GameRecord {
    /// The text form: `rules`, then `revision`, `seed` and `start` when present, then one
    /// action per line.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "rules {}", self.rules)?;
        if let Some(revision) = self.revision {
            writeln!(f, "revision {revision}")?;
        }
        if let Some(seed) = self.seed {
            writeln!(f, "seed {seed}")?;
        }
        if let Some(start) = &self.start {
            writeln!(f, "start {start}")?;
        }
        for action in &self.actions {
            writeln!(f, "{action}")?;
        }
        Ok(())
    }
}

impl FromStr for GameRecord {
    type Err = RecordError;

    /// Reads the text form (see [`GameRecord::parse_with_lines`]).
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        GameRecord::parse_with_lines(s).map(|(record, _)| record)
    }
}

impl<R: Ruleset> Game<R> {
    /// Loads a record in the text form: reads it, configures the ruleset, sets up the start
    /// and replays every action. Every error names the line at fault.
    pub fn from_record_text(text: &str) -> Result<Game<R>, RecordError> {
        let (record, lines) = GameRecord::parse_with_lines(text)?;
        Game::from_record(&record).map_err(|e| lines.locate(e))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Throw;
    use crate::error::{PlayError, PositionError, SpecError};
    use crate::moves::Move;

    fn record() -> GameRecord {
        GameRecord {
            rules: "regency(house_of_water=true)".parse().unwrap(),
            revision: Some(1),
            seed: Some(42),
            start: Some(format!(
                "WBWBWBWBW.B{} b white_opened=false",
                ".".repeat(19)
            )),
            actions: vec![
                Action::Throw(Throw::at(3)),
                Action::Move("11-14".parse().unwrap()),
                Action::Throw(Throw::at(2)),
                Action::Move(Move::PASS),
            ],
        }
    }

    #[test]
    fn text_round_trips() {
        let record = record();
        let text = record.to_string();
        assert!(
            text.starts_with("rules regency(house_of_water=true)\nrevision 1\nseed 42\nstart ")
        );
        assert_eq!(text.parse::<GameRecord>().unwrap(), record);
        let bare = GameRecord {
            rules: RulesetSpec::new("regency"),
            revision: None,
            seed: None,
            start: None,
            actions: Vec::new(),
        };
        assert_eq!(bare.to_string(), "rules regency\n");
        assert_eq!(bare.to_string().parse::<GameRecord>().unwrap(), bare);
    }

    #[test]
    fn comments_blank_lines_and_spacing_are_ignored() {
        let text = "# a game\n\n  rules   regency  # the ruleset\nseed 7\n\nthrow 3 # Black\n  move 11-14\n";
        let (record, lines) = GameRecord::parse_with_lines(text).unwrap();
        assert_eq!(record.seed, Some(7));
        assert_eq!(record.actions.len(), 2);
        assert_eq!(
            lines,
            RecordLines {
                rules: 3,
                revision: None,
                seed: Some(4),
                start: None,
                actions: vec![6, 7],
            }
        );
    }

    fn error_line(text: &str) -> usize {
        match text.parse::<GameRecord>() {
            Err(RecordError::Syntax { line, .. } | RecordError::AtLine { line, .. }) => line,
            other => panic!("{text:?}: expected a located error, got {other:?}"),
        }
    }

    #[test]
    fn malformed_lines_are_named() {
        assert_eq!(error_line(""), 1);
        assert_eq!(error_line("throw 3\n"), 1);
        assert_eq!(error_line("rules regency\nrules regency\n"), 2);
        assert_eq!(error_line("rules Regency!\n"), 1);
        assert_eq!(error_line("rules regency\nseed -1\n"), 2);
        assert_eq!(error_line("rules regency\nrevision x\n"), 2);
        // Found by fuzzing (tests/fuzz_parsers.rs): long bad values were quoted whole.
        for text in [
            format!("rules regency\nseed {}\n", "9".repeat(1000)),
            format!("rules regency\nrevision {}\n", "\"".repeat(1000)),
            format!("rules regency\nthrow {}\n", "x".repeat(1000)),
        ] {
            let err = text.parse::<GameRecord>().unwrap_err().to_string();
            assert!(err.len() < 150, "{err}");
        }
        assert_eq!(error_line("rules regency\nrevision 1\nrevision 1\n"), 3);
        assert_eq!(error_line("rules regency\nthrow 3\nrevision 1\n"), 3);
        assert_eq!(error_line("rules regency\nseed 1\nseed 2\n"), 3);
        assert_eq!(error_line("rules regency\nstart\n"), 2);
        assert_eq!(error_line("rules regency\nstart xyz b\n"), 2);
        assert_eq!(error_line("rules regency\nthrow 3\nseed 1\n"), 3);
        assert_eq!(error_line("rules regency\nthrow 3\nmove 9-\n"), 3);
        assert_eq!(error_line("rules regency\n\njump 3\n"), 3);
        assert_eq!(
            error_line(&format!("rules regency\nmove {}\n", "1".repeat(2000))),
            2
        );
    }

    #[test]
    fn locate_attaches_the_line_of_the_part_at_fault() {
        let lines = RecordLines {
            rules: 1,
            revision: Some(4),
            seed: None,
            start: Some(2),
            actions: vec![3, 5],
        };
        let replay = RecordError::Replay {
            index: 1,
            action: "move 9-12".to_string(),
            source: PlayError::GameOver,
        };
        let located = lines.locate(replay);
        assert!(matches!(located, RecordError::AtLine { line: 5, .. }));
        assert_eq!(
            located.to_string(),
            "line 5: action 2 (move 9-12) does not replay: the game is over"
        );
        let spec = RecordError::Spec(SpecError::DuplicateOption("x".to_string()));
        assert!(matches!(
            lines.locate(spec),
            RecordError::AtLine { line: 1, .. }
        ));
        let start = RecordError::Start(PositionError::Incomplete);
        assert!(matches!(
            lines.locate(start),
            RecordError::AtLine { line: 2, .. }
        ));
        let revision = RecordError::Revision {
            id: "regency",
            recorded: 2,
            current: 1,
        };
        assert!(matches!(
            lines.locate(revision),
            RecordError::AtLine { line: 4, .. }
        ));
        let already = syntax(4, "bad");
        assert_eq!(lines.locate(already.clone()), already);
    }
}
