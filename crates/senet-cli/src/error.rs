//! How commands fail: a one-line message and exit status 2 for anything the user gave that
//! cannot be used; status 1 for output that cannot be written.

use std::fmt;
use std::io;
use std::process::ExitCode;

use senet::AnyGame;
use senet::registry::AnyRuleset;

/// Why a command stopped.
#[derive(Debug)]
pub(crate) enum CliError {
    /// Bad input: an argument, position, option, move or record that cannot be used.
    Input(String),
    /// Writing the output failed.
    Output(io::Error),
}

impl CliError {
    /// Bad input, described in one line.
    pub(crate) fn input(message: impl fmt::Display) -> CliError {
        // Keep the promise of one line even when a message quotes user text.
        let text = message.to_string().replace(['\n', '\r'], " ");
        CliError::Input(text)
    }

    /// Prints the message and gives the exit status.
    pub(crate) fn exit(self) -> ExitCode {
        match self {
            CliError::Input(message) => {
                eprintln!("senet: {message}");
                ExitCode::from(2)
            }
            // A reader that stopped reading (`senet moves … | head -1`) got what it wanted.
            CliError::Output(e) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
            CliError::Output(e) => {
                eprintln!("senet: cannot write the output: {e}");
                ExitCode::from(1)
            }
        }
    }
}

impl From<io::Error> for CliError {
    fn from(e: io::Error) -> Self {
        CliError::Output(e)
    }
}

impl fmt::Display for CliError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CliError::Input(message) => f.write_str(message),
            CliError::Output(e) => write!(f, "cannot write the output: {e}"),
        }
    }
}

/// Reads `--rules`.
pub(crate) fn parse_rules(text: &str) -> Result<AnyRuleset, CliError> {
    AnyRuleset::parse(text).map_err(|e| CliError::input(format!("--rules: {e}")))
}

/// A game of `rules` from a position (`start` is the ruleset's initial position), naming the
/// argument it came from in errors.
pub(crate) fn start_game(
    rules: &AnyRuleset,
    text: &str,
    argument: &str,
) -> Result<AnyGame, CliError> {
    if text.trim() == "start" {
        Ok(AnyGame::new(rules.clone()))
    } else {
        AnyGame::from_position(rules.clone(), text)
            .map_err(|e| CliError::input(format!("{argument}: {e}")))
    }
}

/// The values a ruleset's device shows, e.g. `1, 2, 3, 4, 6`.
pub(crate) fn device_values(rules: &AnyRuleset) -> String {
    rules
        .throw_outcomes()
        .iter()
        .map(|o| o.value.to_string())
        .collect::<Vec<_>>()
        .join(", ")
}
