//! `senet play`: a game in the terminal, against a computer player or another person.

use std::io::{BufRead, Read, Write};
use std::path::{Path, PathBuf};

use clap::Args;
use senet::registry::{AnyRuleset, DEFAULT_RULESET};
use senet::rng::ChaCha8Rng;
use senet::rng::SeedableRng;
use senet::{Action, AnyGame, AnyPlayer, DEFAULT_TURN_CAP, Move, Phase, Side};

use crate::error::{CliError, device_values, parse_rules, start_game};
use crate::files::Durability;
use crate::players::{Computer, PlayerKind, Roster};
use crate::replay::{LoadedRecord, RNG_COMMENT};
use crate::rules::plain_rules;
use senet::Throw;
use senet_view::narrate::{narrate, show_value, value_meaning};

/// Play in the terminal, against a computer player or another person.
///
/// Black (the even set, B on the board) moves first. At your move, type the move
/// (e.g. 9-12, 28-off, pass) or its number in the list. Other commands: undo (take back your
/// last move), save [FILE] (write the game record), board, position, moves, help, quit.
/// The computer makes the throws (seeded: --seed repeats a game) unless --manual-throws
/// lets you type every throw, for playing with real sticks.
///
/// Players: human, random, greedy, expectiminimax[:DEPTH | :nodes=N], mcts[:PLAYOUTS],
/// perfect[:PIECES], learned[:DEPTH] (docs/players.md). A perfect player solves its endgame tables first (up
/// to 2 pieces a side, seconds) or reads them from --tables (made by `senet solve`).
#[derive(Args, Debug)]
pub(crate) struct PlayArgs {
    /// The ruleset: `id` or `id(option=value,…)`.
    #[arg(long, default_value = DEFAULT_RULESET)]
    rules: String,
    /// Who plays Black (moves first) and who plays White: `human` or a computer player
    /// (random, greedy, expectiminimax[:DEPTH | :nodes=N], mcts[:PLAYOUTS],
    /// perfect[:PIECES], learned[:DEPTH]).
    #[arg(long, default_value = "human,random")]
    players: String,
    /// Endgame tables for a perfect player (a file written by `senet solve` for the same
    /// ruleset and options).
    #[arg(long)]
    tables: Option<PathBuf>,
    /// Seed for the throws and the computer's choices (default: taken from the clock, and
    /// shown at the start).
    #[arg(long)]
    seed: Option<u64>,
    /// Start from this position instead of the ruleset's initial one.
    #[arg(long, default_value = "start")]
    position: String,
    /// Type every throw yourself instead of letting the computer throw.
    #[arg(long)]
    manual_throws: bool,
    /// Keep the game record in this file: it is checked before the first move and written
    /// again (atomically) after every throw and move, so an interrupted game is never lost.
    #[arg(long)]
    save: Option<PathBuf>,
    /// Continue the game of a saved record (its ruleset, moves and the position of its
    /// seeded stream; --rules and --position do not apply).
    #[arg(long, conflicts_with = "position")]
    resume: Option<PathBuf>,
}

const HELP: &str = "\
commands: a move (e.g. 9-12, 28-off, enter, pass) or its number in the list;
          undo        take back your last move (the same throws come again)
          save [FILE] write the game record (to --save's file when FILE is left out)
          board       draw the board          position  print the position notation
          moves       list the legal moves    help      this text
          hint [PLAYER]  each legal move's value (default expectiminimax:2)
          rules       the rules in prose
          quit        stop (with --save, the record is already saved after every action)";

/// The longest input line read; anything longer is refused rather than stored.
const MAX_INPUT_LINE: u64 = 1024;

/// A seed from the clock, for games where none is given.
fn clock_seed() -> u64 {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    (nanos as u64) ^ (u64::from(std::process::id()) << 32)
}

/// Where a game starts.
enum Start<'a> {
    /// A ruleset and a position (`start` for its initial one).
    Position(AnyRuleset, &'a str),
    Record(&'a LoadedRecord),
}

struct Session<'a> {
    game: AnyGame,
    kinds: [PlayerKind; 2],
    /// The players' names as they play (a perfect player by the tables it has).
    names: [String; 2],
    computers: [Option<Computer>; 2],
    rng: ChaCha8Rng,
    /// For each action made in this session, where the stream stood before it: taking an
    /// action back puts the stream back too, so a player cannot fish for another throw.
    stream_before: Vec<u128>,
    /// Actions that were already played when the session started (from `--resume`).
    resumed_actions: usize,
    manual_throws: bool,
    save: Option<&'a Path>,
    input: &'a mut dyn BufRead,
    out: &'a mut dyn Write,
}

/// What a command did.
enum Handled {
    /// Stop the session.
    Stop,
    /// Printed something; the game is as it was.
    Shown,
    /// The game changed (undo): start the turn afresh.
    Changed,
}

/// What the person typed, once read.
enum Reply {
    Line(String),
    EndOfInput,
}

/// A person's entry at a prompt, once empty lines and commands are dealt with.
enum Entry {
    /// The turn is over without a throw or move: the session stops (`stop`), or a command
    /// changed the game and the turn starts afresh.
    TurnOver { stop: bool },
    /// A line for the prompt itself: a throw or a move.
    Input(String),
}

impl Session<'_> {
    /// Asks at `prompt` until the person types a throw or move, or ends the turn: empty
    /// lines ask again, commands (help, undo, save, quit…) are carried out here.
    fn entry(&mut self, prompt: &str) -> Result<Entry, CliError> {
        loop {
            let line = match self.ask(prompt)? {
                Reply::EndOfInput => return Ok(Entry::TurnOver { stop: true }),
                Reply::Line(line) if line.is_empty() => continue,
                Reply::Line(line) => line,
            };
            match self.command(&line)? {
                Some(Handled::Stop) => return Ok(Entry::TurnOver { stop: true }),
                Some(Handled::Changed) => return Ok(Entry::TurnOver { stop: false }),
                Some(Handled::Shown) => continue,
                None => return Ok(Entry::Input(line)),
            }
        }
    }

    fn is_human(&self, side: Side) -> bool {
        self.kinds[side.index()] == PlayerKind::Human
    }

    fn label(&self, side: Side) -> String {
        format!("{side} ({})", self.names[side.index()])
    }

    fn ask(&mut self, prompt: &str) -> Result<Reply, CliError> {
        write!(self.out, "{prompt}> ")?;
        self.out.flush()?;
        let mut line = Vec::new();
        let read = (&mut self.input)
            .take(MAX_INPUT_LINE + 1)
            .read_until(b'\n', &mut line);
        match read {
            Ok(0) => {
                writeln!(self.out)?;
                Ok(Reply::EndOfInput)
            }
            Ok(_) if line.len() as u64 > MAX_INPUT_LINE => Err(CliError::input(format!(
                "an input line is longer than {MAX_INPUT_LINE} bytes"
            ))),
            // Bytes that are not UTF-8 make an unknown command, answered like any other.
            Ok(_) => Ok(Reply::Line(
                String::from_utf8_lossy(&line).trim().to_string(),
            )),
            Err(e) => Err(CliError::input(format!("cannot read the input: {e}"))),
        }
    }

    fn show_board(&mut self) -> Result<(), CliError> {
        writeln!(self.out)?;
        write!(self.out, "{}", self.game.diagram())?;
        writeln!(self.out, "position: {}", self.game.position())?;
        Ok(())
    }

    /// The throws made since the last move (what the side to move has to spend).
    fn recent_throws(&self) -> Vec<Throw> {
        let mut throws: Vec<Throw> = self
            .game
            .history()
            .iter()
            .rev()
            .map_while(|a| match a {
                Action::Throw(v) => Some(*v),
                Action::Move(_) => None,
            })
            .collect();
        throws.reverse();
        throws
    }

    fn show_moves(&mut self) -> Result<(), CliError> {
        let moves = self.game.legal_moves();
        let list: Vec<String> = moves
            .iter()
            .enumerate()
            .map(|(i, m)| format!("[{}] {m}", i + 1))
            .collect();
        writeln!(self.out, "legal moves: {}", list.join("  "))?;
        Ok(())
    }

    fn save_to(&mut self, path: &Path, durability: Durability) -> Result<(), String> {
        let header = format!(
            "# senet play: Black {}, White {}\n",
            self.names[0], self.names[1]
        );
        let stream = if self.manual_throws && self.computers.iter().all(Option::is_none) {
            String::new()
        } else {
            format!("{RNG_COMMENT}{}\n", self.rng.get_word_pos())
        };
        let text = format!("{header}{stream}{}", self.game.record());
        crate::files::write_with(path, text.as_bytes(), durability)
            .map_err(|e| format!("cannot write {}: {e}", path.display()))
    }

    /// Saves to `--save`, if it was given.
    fn autosave(&mut self, durability: Durability) -> Result<(), CliError> {
        match self.save {
            Some(path) => self.save_to(path, durability).map_err(CliError::input),
            None => Ok(()),
        }
    }

    /// Saves to `--save` at the end of the session, if it was given, and says so.
    fn save_at_end(&mut self) -> Result<(), CliError> {
        if let Some(path) = self.save {
            self.autosave(Durability::Synced)?;
            writeln!(self.out, "game saved to {}", path.display())?;
        }
        Ok(())
    }

    /// Takes back actions up to and including the last decision a person made (a move with
    /// a choice, or a typed throw), and puts the seeded stream back to where it stood before
    /// them, so that the same throws come again. Returns false, changing nothing, when there
    /// is none since the session started.
    fn undo(&mut self) -> bool {
        let mut game = self.game.clone();
        while game.history().len() > self.resumed_actions {
            let Some(action) = game.undo() else { break };
            let phase = game.phase();
            let by_person = match (action, phase) {
                (Action::Throw(_), _) => self.manual_throws,
                (Action::Move(_), Phase::Move(side)) => {
                    self.is_human(side) && game.legal_moves().len() > 1
                }
                _ => false,
            };
            if by_person {
                let kept = game.history().len() - self.resumed_actions;
                if let Some(&position) = self.stream_before.get(kept) {
                    self.rng.set_word_pos(position);
                }
                self.stream_before.truncate(kept);
                self.game = game;
                return true;
            }
        }
        false
    }

    /// Handles a command other than a move or a throw; `None` when it is not a command.
    fn command(&mut self, line: &str) -> Result<Option<Handled>, CliError> {
        let (word, rest) = line
            .split_once(char::is_whitespace)
            .map_or((line, ""), |(w, r)| (w, r.trim()));
        match word {
            "quit" | "q" | "exit" => return Ok(Some(Handled::Stop)),
            "help" | "?" => writeln!(self.out, "{HELP}")?,
            "board" => self.show_board()?,
            "position" => writeln!(self.out, "{}", self.game.position())?,
            "moves" => self.show_moves()?,
            "rules" => write!(self.out, "{}", plain_rules(self.game.rules().rules_text()))?,
            "hint" | "h" => self.hint(rest)?,
            "undo" | "u" => {
                if self.undo() {
                    writeln!(self.out, "taken back")?;
                    return Ok(Some(Handled::Changed));
                } else {
                    writeln!(self.out, "nothing to take back")?;
                }
            }
            "save" => {
                let path = if rest.is_empty() {
                    self.save.map(Path::to_path_buf)
                } else {
                    Some(PathBuf::from(rest))
                };
                match path {
                    Some(path) => match self.save_to(&path, Durability::Synced) {
                        Ok(()) => writeln!(self.out, "game saved to {}", path.display())?,
                        Err(e) => writeln!(self.out, "{e}")?,
                    },
                    None => writeln!(self.out, "save where? (save FILE)")?,
                }
            }
            _ => return Ok(None),
        }
        Ok(Some(Handled::Shown))
    }

    /// Tells what each action since `before` did, naming the computer player that moved.
    fn narrate_since(&mut self, before: &AnyGame) -> Result<(), CliError> {
        let mut game = before.clone();
        for &action in &self.game.history()[before.history().len()..] {
            let previous = game.clone();
            if game.apply(action).is_err() {
                break;
            }
            let mut line = narrate(&previous, action, &game);
            if let (Action::Move(_), Some(side)) = (action, previous.phase().side())
                && !self.is_human(side)
            {
                line.push_str(&format!(" ({})", self.names[side.index()]));
            }
            writeln!(self.out, "{line}")?;
        }
        Ok(())
    }

    /// Prints each legal move's value in the eyes of the player `name` (a search two moves
    /// deep when empty) and what the values mean.
    fn hint(&mut self, name: &str) -> Result<(), CliError> {
        let name = if name.is_empty() {
            "expectiminimax:2"
        } else {
            name
        };
        let rules = self.game.rules();
        // A clone of the stream, so that asking for hints changes no throw to come.
        let mut rng = self.rng.clone();
        let analysis = AnyPlayer::parse(name, rules)
            .map_err(|e| e.to_string())
            .and_then(|mut player| {
                player
                    .analyse(&self.game, &mut rng)
                    .map_err(|e| e.to_string())
                    .map(|a| (player.name(), a))
            });
        let side = self.game.phase().side().unwrap_or(Side::Black);
        match analysis {
            Ok((player, analysis)) => {
                let meaning = value_meaning(analysis.kind(), side);
                writeln!(self.out, "{player}: the values are {meaning}")?;
                for m in analysis.ranked() {
                    writeln!(
                        self.out,
                        "  {:<12} {}",
                        m.mv.to_string(),
                        show_value(analysis.kind(), m.value)
                    )?;
                }
            }
            Err(e) => writeln!(self.out, "{e}")?,
        }
        Ok(())
    }

    fn show_turn(&mut self, side: Side) -> Result<(), CliError> {
        self.show_board()?;
        let throws = self.recent_throws();
        let thrown = if throws.is_empty() {
            String::new()
        } else {
            let list: Vec<String> = throws.iter().map(Throw::to_string).collect();
            format!(", having thrown {}", list.join(", "))
        };
        writeln!(self.out, "{} to move{thrown}", self.label(side))?;
        self.show_moves()
    }

    /// A person's move. Returns true to stop the session.
    fn human_move(&mut self, side: Side) -> Result<bool, CliError> {
        let moves = self.game.legal_moves();
        if moves.len() == 1 && moves[0] == Move::PASS {
            self.game
                .play(Move::PASS)
                .map_err(|e| CliError::input(format!("the ruleset refused its own pass: {e}")))?;
            return Ok(false);
        }
        self.show_turn(side)?;
        loop {
            let line = match self.entry(&side.to_string())? {
                Entry::TurnOver { stop } => return Ok(stop),
                Entry::Input(line) => line,
            };
            let legal = self.game.legal_moves();
            let chosen = match line.parse::<usize>() {
                Ok(n) if (1..=legal.len()).contains(&n) => Ok(legal[n - 1]),
                Ok(n) => Err(format!("there is no move number {n}")),
                Err(_) => line.parse::<Move>().map_err(|e| e.to_string()),
            };
            match chosen.and_then(|mv| self.game.play(mv).map_err(|e| e.to_string())) {
                Ok(()) => return Ok(false),
                Err(e) => {
                    writeln!(self.out, "{e}")?;
                    self.show_moves()?;
                }
            }
        }
    }

    /// A throw typed by a person. Returns true to stop the session.
    fn typed_throw(&mut self, side: Side) -> Result<bool, CliError> {
        let values = device_values(self.game.rules());
        loop {
            let prompt = format!("{side} throws ({values})");
            let line = match self.entry(&prompt)? {
                Entry::TurnOver { stop } => return Ok(stop),
                Entry::Input(line) => line,
            };
            match line.parse::<u8>().ok().and_then(Throw::new) {
                Some(v) => match self.game.throw(v) {
                    Ok(()) => return Ok(false),
                    Err(e) => writeln!(self.out, "{e}")?,
                },
                None => writeln!(self.out, "{line:?} is not a throw; type one of {values}")?,
            }
        }
    }

    /// Plays the session; whatever ends it (the game, `quit`, the end of the input, an error
    /// such as a closed output), the record is saved to `--save` first.
    fn run(mut self) -> Result<(), CliError> {
        let played = self.play_turns();
        let saved = match &played {
            Ok(()) => self.save_at_end(),
            Err(_) => self.autosave(Durability::Synced),
        };
        played.and(saved)
    }

    fn play_turns(&mut self) -> Result<(), CliError> {
        writeln!(
            self.out,
            "senet play: {}; Black (B, moves first): {}; White (W): {}",
            self.game.rules().spec(),
            self.names[0],
            self.names[1]
        )?;
        if let Some(seed) = self.game.seed() {
            writeln!(self.out, "seed {seed}")?;
        }
        if self.kinds.contains(&PlayerKind::Human) {
            writeln!(self.out, "type help for the commands")?;
        }
        loop {
            if self.game.turns() > DEFAULT_TURN_CAP {
                writeln!(self.out, "stopped after {DEFAULT_TURN_CAP} turns")?;
                return Ok(());
            }
            let phase = self.game.phase();
            let before = self.game.clone();
            let actions = self.game.history().len();
            let stream = self.rng.get_word_pos();
            let stop = match phase {
                Phase::Over(outcome) => {
                    self.show_board()?;
                    writeln!(self.out, "{outcome}")?;
                    return Ok(());
                }
                Phase::Throw(side) if self.manual_throws => self.typed_throw(side)?,
                Phase::Throw(_) => {
                    self.game.throw_random(&mut self.rng).map_err(|e| {
                        CliError::input(format!("the ruleset refused its device's throw: {e}"))
                    })?;
                    false
                }
                Phase::Move(side) if self.is_human(side) => self.human_move(side)?,
                Phase::Move(side) => {
                    let chosen = match &mut self.computers[side.index()] {
                        Some(player) => player.choose(&self.game, &mut self.rng),
                        None => Move::PASS,
                    };
                    self.game.play(chosen).map_err(|e| {
                        CliError::input(format!("the computer player chose {chosen}: {e}"))
                    })?;
                    false
                }
            };
            if self.game.history().len() > actions {
                self.narrate_since(&before)?;
                let new = self.game.history().len() - actions;
                self.stream_before.extend(std::iter::repeat_n(stream, new));
                self.autosave(Durability::Unsynced)?;
            }
            if stop {
                if let Phase::Over(_) = self.game.phase() {
                    continue;
                }
                writeln!(self.out, "game left unfinished")?;
                return Ok(());
            }
        }
    }
}

/// Plays a session of `args` from `start`.
fn play(
    args: &PlayArgs,
    start: Start<'_>,
    kinds: [PlayerKind; 2],
    input: &mut dyn BufRead,
    out: &mut dyn Write,
) -> Result<(), CliError> {
    if let Some(path) = &args.save {
        crate::files::check_writable(path).map_err(|e| {
            CliError::input(format!("--save: cannot write {}: {e}", path.display()))
        })?;
    }
    let recorded = match start {
        Start::Record(loaded) => loaded.record.seed.zip(loaded.rng_position),
        Start::Position(..) => None,
    };
    let seed = match recorded {
        Some((seed, _)) => seed,
        None => args.seed.unwrap_or_else(clock_seed),
    };
    let mut game = match start {
        Start::Record(loaded) => loaded.replay()?,
        Start::Position(rules, text) => start_game(&rules, text, "--position")?,
    };
    if !args.manual_throws && game.history().is_empty() {
        game.set_seed(Some(seed));
    }
    // The computer players, by seat.
    let seats: Vec<(usize, senet_ai::PlayerSpec)> = kinds
        .iter()
        .enumerate()
        .filter_map(|(seat, kind)| match kind {
            PlayerKind::Computer(spec) => Some((seat, *spec)),
            PlayerKind::Human => None,
        })
        .collect();
    let specs: Vec<senet_ai::PlayerSpec> = seats.iter().map(|&(_, spec)| spec).collect();
    let roster = Roster::new(game.rules(), &specs, args.tables.as_deref(), &mut |note| {
        // Shown before a wait; if it cannot be written, the game's own output fails next.
        let _ = writeln!(out, "{note}").and_then(|()| out.flush());
    })?;
    let mut computers: [Option<Computer>; 2] = [None, None];
    let mut names = kinds.map(PlayerKind::name);
    for (i, &(seat, _)) in seats.iter().enumerate() {
        computers[seat] = Some(roster.computer(i)?);
        names[seat] = roster.name(i);
    }
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    if let Some((_, position)) = recorded {
        rng.set_word_pos(position);
    }
    Session {
        resumed_actions: game.history().len(),
        game,
        kinds,
        names,
        computers,
        rng,
        stream_before: Vec::new(),
        manual_throws: args.manual_throws,
        save: args.save.as_deref(),
        input,
        out,
    }
    .run()
}

pub(crate) fn run(args: &PlayArgs, out: &mut dyn Write) -> Result<(), CliError> {
    let kinds = PlayerKind::parse_pair(&args.players)?;
    let stdin = std::io::stdin();
    let mut input = stdin.lock();
    match &args.resume {
        Some(path) => {
            let loaded = LoadedRecord::read(path)?;
            play(args, Start::Record(&loaded), kinds, &mut input, out)
        }
        None => {
            let rules = parse_rules(&args.rules)?;
            play(
                args,
                Start::Position(rules, &args.position),
                kinds,
                &mut input,
                out,
            )
        }
    }
}
