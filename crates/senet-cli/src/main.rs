//! The `senet` command: the rules oracle (`moves`), terminal play (`play`), seeded parallel
//! simulation (`simulate`), ratings of computer players (`rate`), game records (`replay`),
//! the ruleset reference (`rules`), the comparison of the rulesets (`compare`), exact
//! endgame tables (`solve`) and the game in a web browser (`serve`), for every ruleset in
//! the registry.
//!
//! Every command reaches rulesets only through the registry, so a ruleset works in every
//! command as soon as it is registered: commands that handle one game at a time play a
//! [`senet::AnyGame`] with [`senet::AnyPlayer`]s; the parallel game loops of `simulate` and
//! `compare` are [`RulesetVisitor`](senet::registry::RulesetVisitor)s, generic over the
//! ruleset, so that their millions of decisions run on the typed state.

#![forbid(unsafe_code)]

mod analyse;
mod compare;
mod error;
mod fair;
mod files;
mod fit_endgame;
mod limits;
mod moves;
mod play;
mod players;
mod rate;
mod replay;
mod rules;
mod serve;
mod simulate;
mod solve;
mod train;

use std::io::{self, Write};
use std::process::ExitCode;

use clap::{Parser, Subcommand};

use crate::error::CliError;

/// Senet, the race game of ancient Egypt, in every documented reconstruction of its rules.
#[derive(Parser, Debug)]
#[command(name = "senet", version)]
#[command(
    after_help = "Rulesets are named as `id` or `id(option=value,…)`; `senet rules` \
                        lists them. Positions, moves and records are described in \
                        docs/notation.md."
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    Moves(moves::MovesArgs),
    Play(play::PlayArgs),
    Simulate(simulate::SimulateArgs),
    Rate(rate::RateArgs),
    Replay(replay::ReplayArgs),
    Rules(rules::RulesArgs),
    Compare(compare::CompareArgs),
    Solve(solve::SolveArgs),
    Serve(serve::ServeArgs),
    Train(train::TrainArgs),
    FitEndgame(fit_endgame::FitEndgameArgs),
    Analyse(analyse::AnalyseArgs),
}

fn run(cli: Cli, out: &mut dyn Write) -> Result<(), CliError> {
    match cli.command {
        Command::Moves(args) => moves::run(&args, out),
        Command::Play(args) => play::run(&args, out),
        Command::Simulate(args) => simulate::run(&args, out),
        Command::Rate(args) => rate::run(&args, out),
        Command::Replay(args) => replay::run(&args, out),
        Command::Rules(args) => rules::run(&args, out),
        Command::Compare(args) => compare::run(&args, out),
        Command::Solve(args) => solve::run(&args, out),
        Command::Serve(args) => serve::run(&args, out),
        Command::Train(args) => train::run(&args, out),
        Command::FitEndgame(args) => fit_endgame::run(&args, out),
        Command::Analyse(args) => analyse::run(&args, out),
    }
}

/// Clap's usage errors, in one line, with exit status 2; help and version as clap prints them.
fn clap_exit(error: clap::Error) -> ExitCode {
    use clap::error::ErrorKind;
    match error.kind() {
        ErrorKind::DisplayHelp | ErrorKind::DisplayVersion => {
            // Printing help can only fail on a closed stdout, where there is no one to tell.
            let _ = error.print();
            ExitCode::SUCCESS
        }
        ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand | ErrorKind::MissingSubcommand => {
            eprintln!(
                "senet: no command given; use one of moves, play, simulate, rate, replay, \
                 rules, compare, solve, serve, train, fit-endgame, analyse (see 'senet --help')"
            );
            ExitCode::from(2)
        }
        _ => {
            // Clap's message is its first paragraph (usage and tips follow); some messages
            // continue on indented lines, such as the names of missing arguments.
            let rendered = error.render().to_string();
            let paragraph = rendered.trim_start().split("\n\n").next().unwrap_or("");
            let joined = paragraph
                .lines()
                .map(str::trim)
                .filter(|l| !l.is_empty())
                .collect::<Vec<_>>()
                .join(" ");
            let message = joined.strip_prefix("error: ").unwrap_or(&joined);
            match suggestion(&error) {
                Some(similar) => {
                    eprintln!("senet: {message}; did you mean {similar}? (see 'senet --help')")
                }
                None => eprintln!("senet: {message} (see 'senet --help')"),
            }
            ExitCode::from(2)
        }
    }
}

/// The similar subcommand, argument or value clap found for a typo, quoted: clap prints it
/// as a tip paragraph of its own, which the one-line message would lose.
fn suggestion(error: &clap::Error) -> Option<String> {
    use clap::error::{ContextKind, ContextValue};
    let kinds = [
        ContextKind::SuggestedSubcommand,
        ContextKind::SuggestedArg,
        ContextKind::SuggestedValue,
    ];
    kinds.into_iter().find_map(|kind| match error.get(kind)? {
        ContextValue::String(s) => Some(format!("'{s}'")),
        ContextValue::Strings(v) if !v.is_empty() => Some(format!("'{}'", v.join("' or '"))),
        _ => None,
    })
}

/// `n` and the noun, plural unless `n` is 1: "1 option", "5 options".
pub(crate) fn count(n: impl Into<u64>, noun: &str) -> String {
    let n = n.into();
    format!("{n} {noun}{}", if n == 1 { "" } else { "s" })
}

/// How long a run took and on how many threads, as the commands' last lines report it:
/// "12.3 s on 2 threads".
#[derive(Clone, Copy, Debug)]
pub(crate) struct RunTime {
    seconds: f64,
    threads: usize,
}

impl RunTime {
    /// The time since `started`, on `threads` threads.
    pub(crate) fn since(started: std::time::Instant, threads: usize) -> RunTime {
        RunTime {
            seconds: started.elapsed().as_secs_f64(),
            threads,
        }
    }

    /// `work` units a second (a run too short to time counts as a nanosecond).
    pub(crate) fn per_second(self, work: u64) -> f64 {
        work as f64 / self.seconds.max(1e-9)
    }
}

impl std::fmt::Display for RunTime {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let threads = count(self.threads as u64, "thread");
        write!(f, "{:.1} s on {threads}", self.seconds)
    }
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(error) => return clap_exit(error),
    };
    let stdout = io::stdout();
    let mut out = stdout.lock();
    let result = run(cli, &mut out).and_then(|()| out.flush().map_err(CliError::from));
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => error.exit(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    #[test]
    fn the_command_line_definition_is_consistent() {
        Cli::command().debug_assert();
    }
}
