//! `senet moves`: the rules oracle. In this position, with this throw, what may the side to
//! move do, and where does each choice lead?

use std::io::Write;

use clap::Args;
use senet::registry::DEFAULT_RULESET;
use senet::{Phase, PlayError};
use serde::Serialize;

use crate::error::{CliError, device_values, parse_rules, start_game};
use crate::limits::MAX_THROWS;
use senet::Throw;

/// List the legal moves of a position, with the position after each.
///
/// Prints one JSON object per line:
/// {"move": "...", "after": "<position after the move and all its consequences>"}.
///
/// The position must be waiting for a throw, and --throw gives it; or it must already record
/// its pending throw (e.g. Regency's `throw=3` field), and then --throw is left out. Giving
/// --throw for a position that already has a pending throw is an error: the command does not
/// guess whether the new throw replaces the old one or comes in addition. Where a ruleset
/// collects several throws before moving (Kendall's stored throws), give them all in order:
/// --throw 4,5,2. When nothing else is legal the only move listed is `pass`.
#[derive(Args, Debug)]
pub(crate) struct MovesArgs {
    /// The ruleset: `id` or `id(option=value,…)`.
    #[arg(long, default_value = DEFAULT_RULESET)]
    rules: String,
    /// The position: `<30-square board> <side>[ field=value…]`, or `start` for the
    /// ruleset's initial position.
    #[arg(long, default_value = "start")]
    position: String,
    /// The throw made in the position (several, comma-separated, for a ruleset that
    /// collects throws before moving).
    #[arg(long)]
    throw: Option<String>,
}

#[derive(Serialize)]
struct MoveLine {
    #[serde(rename = "move")]
    mv: String,
    after: String,
}

/// Reads `--throw`: one or more values separated by commas.
fn parse_throws(text: &str) -> Result<Vec<u8>, CliError> {
    let values: Result<Vec<u8>, _> = text.split(',').map(|t| t.trim().parse::<u8>()).collect();
    match values {
        Ok(values) if values.len() > MAX_THROWS => Err(CliError::input(format!(
            "--throw: {} throws given, at most {MAX_THROWS} are read (a turn has a few)",
            values.len()
        ))),
        Ok(values) if !values.is_empty() => Ok(values),
        _ => Err(CliError::input(format!(
            "--throw {}: expected a throw value such as 3, or several separated by commas",
            senet::quote(text)
        ))),
    }
}

pub(crate) fn run(args: &MovesArgs, out: &mut dyn Write) -> Result<(), CliError> {
    let rules = parse_rules(&args.rules)?;
    let mut game = start_game(&rules, &args.position, "--position")?;
    let throws = args.throw.as_deref().map(parse_throws).transpose()?;
    let position = game.position();
    if let Some(throws) = &throws {
        let impossible = |value| {
            CliError::input(format!(
                "--throw: {} cannot throw {value} (its throws are {})",
                rules.id(),
                device_values(&rules)
            ))
        };
        for (i, &value) in throws.iter().enumerate() {
            let throw = Throw::new(value).ok_or_else(|| impossible(value))?;
            game.throw(throw).map_err(|e| match e {
                PlayError::ImpossibleThrow(v) => impossible(v.get()),
                PlayError::MoveExpected(side) if i == 0 => CliError::input(format!(
                    "--throw: the position already has a pending throw ({side} must move \
                     now); leave out --throw, or take the throw out of the position"
                )),
                PlayError::MoveExpected(side) => CliError::input(format!(
                    "--throw: after the throws {:?}, {side} must move before throwing again",
                    &throws[..i]
                )),
                PlayError::GameOver => {
                    CliError::input(format!("--position: the game is over in {position}"))
                }
                other => CliError::input(format!("--throw: {other}")),
            })?;
        }
    }
    match game.phase() {
        Phase::Move(_) => {}
        Phase::Throw(side) if throws.is_none() => {
            return Err(CliError::input(format!(
                "{side} must throw first: give --throw N ({} throws {})",
                rules.id(),
                device_values(&rules)
            )));
        }
        Phase::Throw(side) => {
            return Err(CliError::input(format!(
                "--throw: after the throws {:?}, {side} throws again before moving; \
                 give every throw of the turn, separated by commas",
                throws.unwrap_or_default()
            )));
        }
        Phase::Over(_) => {
            return Err(CliError::input(format!(
                "--position: the game is over in {position}"
            )));
        }
    }
    for &mv in game.legal_moves().iter() {
        let after = game
            .position_after(mv)
            .map_err(|e| CliError::input(format!("the ruleset refused its own move {mv}: {e}")))?;
        let line = MoveLine {
            mv: mv.to_string(),
            after,
        };
        let json = serde_json::to_string(&line)
            .map_err(|e| CliError::input(format!("cannot encode a move as JSON: {e}")))?;
        writeln!(out, "{json}")?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn throws_are_one_or_more_numbers() {
        assert_eq!(parse_throws("3").unwrap(), vec![3]);
        assert_eq!(parse_throws("4, 5,2").unwrap(), vec![4, 5, 2]);
        for bad in ["", "x", "3,", "300", "-1", "3;4"] {
            assert!(parse_throws(bad).is_err(), "{bad:?}");
        }
    }
}
