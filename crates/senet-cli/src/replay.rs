//! `senet replay`: replays a game record and prints it position by position. Also the record
//! loading that `senet play --resume` shares.

use std::io::Write;
use std::path::{Path, PathBuf};

use clap::Args;
use senet::registry::AnyRuleset;
use senet::{Action, AnyGame, GameRecord, Phase, RecordError, RecordLines};

use crate::error::CliError;
use crate::fair;
use crate::files::read_capped;
use crate::limits::MAX_RECORD_BYTES;

/// Replay a game record and print it position by position.
///
/// The record is the text form (a `rules` line, optional `seed` and `start` lines, then one
/// `throw N` or `move M` per line; see docs/notation.md) or the JSON form of the library's
/// `GameRecord`. A record that does not replay is refused, naming the first bad line.
#[derive(Args, Debug)]
pub(crate) struct ReplayArgs {
    /// The record file; `-` reads standard input.
    record: PathBuf,
    /// Also draw the board as its three rows after every move.
    #[arg(long)]
    boards: bool,
    /// Check the throws of a room's game against the seed revealed at its end (64
    /// hexadecimal digits): every throw must be the next draw of the seed's ChaCha8 stream.
    #[arg(long, value_name = "HEX")]
    seed: Option<String>,
    /// The commitment shown when the room opened (the seed's SHA-256, 64 hexadecimal
    /// digits), checked against --seed; default: the record's `# commitment HEX` comment,
    /// else the seed's SHA-256 is printed to compare.
    #[arg(long, value_name = "HEX", requires = "seed")]
    commitment: Option<String>,
}

/// The comment line of a room's record that gives the commitment to its throws' seed:
/// `# commitment 3f…`.
pub(crate) const COMMITMENT_COMMENT: &str = "# commitment ";

/// The comment line of a saved game that says where the seeded stream stands, so that
/// `senet play --resume` goes on with the same throws: `# rng 1234`.
pub(crate) const RNG_COMMENT: &str = "# rng ";

/// A record read from a file, with the line of each part when it was the text form.
pub(crate) struct LoadedRecord {
    /// Where it came from, for messages.
    pub(crate) source: String,
    pub(crate) record: GameRecord,
    lines: Option<RecordLines>,
    /// Where the seeded stream of `senet play` stood when the record was saved (its
    /// `# rng N` comment), so that a resumed game goes on with the same throws.
    pub(crate) rng_position: Option<u128>,
    /// The commitment of a room's record (its `# commitment HEX` comment).
    commitment: Option<String>,
}

impl LoadedRecord {
    /// Reads a record file (`-`: standard input) in the text or the JSON form and checks
    /// that its ruleset is known and configured right. The actions are checked later, by [`LoadedRecord::replay`].
    pub(crate) fn read(path: &Path) -> Result<LoadedRecord, CliError> {
        let is_stdin = path.as_os_str() == "-";
        let source = if is_stdin {
            "standard input".to_string()
        } else {
            path.display().to_string()
        };
        let read = if is_stdin {
            read_capped(std::io::stdin().lock(), MAX_RECORD_BYTES)
        } else {
            std::fs::File::open(path).and_then(|f| read_capped(f, MAX_RECORD_BYTES))
        };
        let text = read
            .and_then(|bytes| {
                String::from_utf8(bytes)
                    .map_err(|_| std::io::Error::new(std::io::ErrorKind::InvalidData, "not UTF-8"))
            })
            .map_err(|e| CliError::input(format!("cannot read the record {source}: {e}")))?;
        LoadedRecord::parse(source, &text)
    }

    fn parse(source: String, text: &str) -> Result<LoadedRecord, CliError> {
        let fail = |e: &dyn std::fmt::Display| CliError::input(format!("{source}: {e}"));
        let (record, lines) = if text.trim_start().starts_with('{') {
            let record: GameRecord = serde_json::from_str(text)
                .map_err(|e| fail(&senet::shorten_quoted(&e.to_string())))?;
            (record, None)
        } else {
            let (record, lines) = GameRecord::parse_with_lines(text).map_err(|e| fail(&e))?;
            (record, Some(lines))
        };
        AnyRuleset::from_spec(&record.rules).map_err(|e| {
            let error = RecordError::Spec(e);
            match &lines {
                Some(lines) => fail(&lines.locate(error)),
                None => fail(&error),
            }
        })?;
        let rng_position = text.lines().find_map(|line| {
            line.trim()
                .strip_prefix(RNG_COMMENT)
                .and_then(|n| n.trim().parse().ok())
        });
        let commitment = text.lines().find_map(|line| {
            line.trim()
                .strip_prefix(COMMITMENT_COMMENT)
                .map(|c| c.trim().to_ascii_lowercase())
        });
        Ok(LoadedRecord {
            source,
            record,
            lines,
            rng_position,
            commitment,
        })
    }

    /// Replays the record with the ruleset it names.
    pub(crate) fn replay(&self) -> Result<AnyGame, CliError> {
        AnyGame::from_record(&self.record).map_err(|e| {
            let e = match &self.lines {
                Some(lines) => lines.locate(e),
                None => e,
            };
            CliError::input(format!("{}: {e}", self.source))
        })
    }
}

/// "Black throws 3", "White plays 9-12", "Black passes".
pub(crate) fn describe_action(phase: Phase, action: Action) -> String {
    let side = phase
        .side()
        .map_or_else(|| "nobody".to_string(), |s| s.to_string());
    match action {
        Action::Throw(v) => format!("{side} throws {v}"),
        Action::Move(m) if m.is_pass() && m.throw().is_none() => format!("{side} passes"),
        Action::Move(m) => format!("{side} plays {m}"),
    }
}

pub(crate) fn run(args: &ReplayArgs, out: &mut dyn Write) -> Result<(), CliError> {
    let loaded = LoadedRecord::read(&args.record)?;
    let boards = args.boards;
    // Check the whole record before printing any of it.
    let finished = loaded.replay()?;
    let record = &loaded.record;
    let mut game = AnyGame::from_position(finished.rules().clone(), &finished.start_position())
        .map_err(|e| CliError::input(format!("{}: start position: {e}", loaded.source)))?;
    writeln!(out, "rules {}", record.rules)?;
    if let Some(revision) = record.revision {
        writeln!(out, "revision {revision}")?;
    }
    if let Some(seed) = record.seed {
        writeln!(out, "seed {seed}")?;
    }
    writeln!(out, "start {}", game.position())?;
    if boards {
        write!(out, "{}", game.diagram())?;
    }
    let width = record
        .actions
        .iter()
        .map(|a| a.to_string().len())
        .max()
        .unwrap_or(0)
        + 12;
    for (i, &action) in record.actions.iter().enumerate() {
        let phase = game.phase();
        game.apply(action)
            .map_err(|e| CliError::input(format!("{}: action {}: {e}", loaded.source, i + 1)))?;
        let text = describe_action(phase, action);
        writeln!(out, "{:>5}  {text:<width$} {}", i + 1, game.position())?;
        if boards && matches!(action, Action::Move(_)) {
            write!(out, "{}", game.diagram())?;
        }
    }
    writeln!(
        out,
        "{} after {}, {}",
        match game.phase() {
            Phase::Over(outcome) => format!("result: {outcome}"),
            other => format!("not finished: {other}"),
        },
        crate::count(game.history().len() as u64, "action"),
        crate::count(game.turns(), "turn")
    )?;
    if let Some(seed) = &args.seed {
        check_seed(&loaded, &finished, seed, args.commitment.as_deref(), out)?;
    }
    Ok(())
}

/// `--seed`: checks that the record's throws are the seed's stream and that the seed is the
/// one committed to.
fn check_seed(
    loaded: &LoadedRecord,
    game: &AnyGame,
    seed: &str,
    commitment: Option<&str>,
    out: &mut dyn Write,
) -> Result<(), CliError> {
    let seed: fair::Seed = fair::from_hex(seed).ok_or_else(|| {
        CliError::input("--seed: give the 64 hexadecimal digits the room revealed")
    })?;
    let committed = fair::commitment(&seed);
    let expected = commitment
        .map(|c| c.trim().to_ascii_lowercase())
        .or_else(|| loaded.commitment.clone());
    match expected {
        Some(expected) if expected != committed => {
            return Err(CliError::input(format!(
                "the seed's SHA-256 is {committed}, not the commitment {}: this is not the \
                 seed committed to",
                senet::shorten(&expected)
            )));
        }
        Some(_) => writeln!(
            out,
            "commitment: the seed's SHA-256 is {committed}, as committed"
        )?,
        None => writeln!(
            out,
            "commitment: the seed's SHA-256 is {committed}; compare it with the one shown \
             when the room opened"
        )?,
    }
    let throws = fair::verify_throws(game, &seed)
        .map_err(|e| CliError::input(format!("{}: {e}", loaded.source)))?;
    writeln!(
        out,
        "throws: all {} of the record are the seed's stream, in order",
        throws
    )?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Result<LoadedRecord, CliError> {
        LoadedRecord::parse("test".to_string(), text)
    }

    #[test]
    fn the_ruleset_line_is_named_when_it_is_unknown() {
        let err = parse("# x\nrules chess\n").err().unwrap().to_string();
        assert!(err.starts_with("test: line 2: unknown ruleset"), "{err}");
        let err = parse(r#"{"rules": "chess", "actions": []}"#)
            .err()
            .unwrap()
            .to_string();
        assert!(err.starts_with("test: unknown ruleset"), "{err}");
    }

    #[test]
    fn json_and_text_records_load_alike() {
        let text = parse("rules regency\nthrow 3\nmove 11-14\n").ok().unwrap();
        let json = parse(r#"{"rules":"regency","actions":[{"throw":3},{"move":"11-14"}]}"#)
            .ok()
            .unwrap();
        assert_eq!(text.record, json.record);
    }
}
