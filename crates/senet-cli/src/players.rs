//! Who chooses the moves: a person at the terminal, or a computer player of `senet-ai`.
//!
//! Computer players are named as `senet_ai::PlayerSpec` parses them (`random`, `greedy`,
//! `expectiminimax:3`, `mcts:500`, `perfect`, …); this module adds `human` and builds the
//! players for a ruleset. The perfect player needs endgame tables: read from `--tables FILE`,
//! or solved when the command starts (up to [`AnyRuleset::endgame_pieces_on_demand`] pieces
//! a side).

use std::path::Path;

use senet::rand_core::Rng;
use senet::registry::AnyRuleset;
use senet::simulation::{Lineup, perfect_pieces, random_pick};
use senet::{AnyGame, AnyPlayer, AnyTables, Move};
use senet_ai::endgame::{SolveOptions, read_table_bytes};
use senet_ai::{PlayerSpec, PlayerSpecError};

use crate::error::CliError;
use crate::limits::MAX_TABLE_BYTES;

/// A computer player of a game of any ruleset, for commands that play one game at a time.
pub(crate) enum Computer {
    /// Picks a legal move uniformly at random, drawing as `random_playout` does
    /// ([`random_pick`]).
    Random,
    /// A player of `senet-ai`.
    Ai(AnyPlayer),
}

impl Computer {
    /// Chooses a legal move of `game`, which must wait for one. Any randomness is drawn
    /// from `rng`, the game's own stream, so that seeded games repeat exactly.
    pub(crate) fn choose(&mut self, game: &AnyGame, rng: &mut dyn Rng) -> Move {
        let moves = game.legal_moves();
        match self {
            Computer::Random => random_pick(&moves, rng),
            // The players only refuse games that wait for no move, which the callers never
            // give them; fall back on the first legal move rather than stop the game.
            Computer::Ai(player) => player
                .choose(game, rng)
                .unwrap_or_else(|_| moves.first().copied().unwrap_or_default()),
        }
    }
}

/// Who plays a side: a person at the terminal or a computer player.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum PlayerKind {
    /// A person typing moves at the terminal.
    Human,
    /// A computer player.
    Computer(PlayerSpec),
}

/// The players `--players` accepts, for the messages.
pub(crate) const PLAYER_NAMES: &str = "human, random, greedy, expectiminimax[:DEPTH | \
     :nodes=N], mcts[:PLAYOUTS], perfect[:PIECES], learned[:DEPTH]";

impl PlayerKind {
    /// The name used on the command line.
    pub(crate) fn name(self) -> String {
        match self {
            PlayerKind::Human => "human".to_string(),
            PlayerKind::Computer(spec) => spec.to_string(),
        }
    }

    /// Reads one player name.
    pub(crate) fn parse(text: &str) -> Result<PlayerKind, CliError> {
        let text = text.trim();
        if text == "human" {
            return Ok(PlayerKind::Human);
        }
        text.parse::<PlayerSpec>()
            .map(PlayerKind::Computer)
            .map_err(|e| match e {
                PlayerSpecError::UnknownPlayer(name) => CliError::input(format!(
                    "--players: unknown player `{}` (known: {PLAYER_NAMES})",
                    senet::shorten(&name)
                )),
                other => CliError::input(format!("--players: {other}")),
            })
    }

    /// Reads `--players a,b`.
    pub(crate) fn parse_pair(text: &str) -> Result<[PlayerKind; 2], CliError> {
        let parts: Vec<&str> = text.split(',').collect();
        match parts.as_slice() {
            [a, b] => Ok([PlayerKind::parse(a)?, PlayerKind::parse(b)?]),
            _ => Err(CliError::input(format!(
                "--players {}: expected two players separated by a comma, e.g. \
                 human,expectiminimax:3 (players: {PLAYER_NAMES})",
                senet::quote(text)
            ))),
        }
    }
}

/// The computer players of a command, ready to be built for each game: the endgame tables
/// of a perfect player are made once and shared.
pub(crate) struct Roster {
    rules: AnyRuleset,
    specs: Vec<PlayerSpec>,
    tables: Option<AnyTables>,
}

impl Roster {
    /// Prepares `specs` for `rules`: reads `tables` when given (it must have been solved for
    /// this ruleset, options and rules revision), or solves the tables a perfect player needs
    /// (at most [`AnyRuleset::endgame_pieces_on_demand`] pieces a side), telling `notes` what it
    /// does. Fails with a one-line message for a perfect player without usable tables.
    pub(crate) fn new(
        rules: &AnyRuleset,
        specs: &[PlayerSpec],
        tables: Option<&Path>,
        notes: &mut dyn FnMut(&str),
    ) -> Result<Roster, CliError> {
        let perfect = perfect_pieces(specs);
        let tables = match (tables, perfect) {
            (Some(path), _) => {
                let tables = read_tables(rules, path)?;
                let refused = |e: &dyn std::fmt::Display| {
                    CliError::input(format!("--tables {}: {e}", path.display()))
                };
                if let Some(pieces) = perfect
                    && pieces > tables.max_pieces()
                {
                    return Err(refused(&format_args!(
                        "perfect:{pieces} needs tables of {pieces} pieces a side, these have {0} \
                         (perfect:{0} plays from them; `perfect` alone is perfect:2)",
                        tables.max_pieces()
                    )));
                }
                notes(&format!("endgame tables: {}", tables.describe()));
                Some(tables)
            }
            (None, Some(pieces)) if pieces > rules.endgame_pieces_on_demand() => {
                return Err(CliError::input(format!(
                    "--players: perfect:{pieces} needs --tables FILE (tables of more than {} \
                     pieces a side of {} take minutes or more to solve; make them once with \
                     `senet solve --rules {} --pieces {pieces} --out FILE`)",
                    rules.endgame_pieces_on_demand(),
                    rules.spec(),
                    rules.spec()
                )));
            }
            (None, Some(pieces)) => {
                if rules.supports_endgame() {
                    notes(&format!(
                        "solving the {} endgames with up to {pieces} pieces a side for the perfect \
                     player (--tables FILE reads them instead)",
                        rules.spec()
                    ));
                }
                let tables = rules
                    .solve_endgame(pieces, &SolveOptions::default())
                    .map_err(|e| CliError::input(format!("--players: perfect:{pieces}: {e}")))?;
                Some(tables)
            }
            (None, None) => None,
        };
        let roster = Roster {
            rules: rules.clone(),
            specs: specs.to_vec(),
            tables,
        };
        // Build each player once, so that any refusal comes now, in one line.
        for i in 0..specs.len() {
            roster.computer(i)?;
        }
        Ok(roster)
    }

    /// A fresh player for the `i`-th spec.
    pub(crate) fn computer(&self, i: usize) -> Result<Computer, CliError> {
        let spec = self.specs[i];
        let built = match &self.tables {
            _ if spec == PlayerSpec::Random => return Ok(Computer::Random),
            Some(tables) => AnyPlayer::with_tables(&spec, &self.rules, tables),
            None => AnyPlayer::new(&spec, &self.rules),
        };
        built.map(Computer::Ai).map_err(refused_player)
    }

    /// Players `a` and `b` (indices of the specs) as a lineup for seeded games.
    pub(crate) fn lineup(&self, [a, b]: [usize; 2]) -> Result<Lineup, CliError> {
        Lineup::new(
            &self.rules,
            [self.specs[a], self.specs[b]],
            self.tables.clone(),
        )
        .map_err(refused_player)
    }

    /// The name of the `i`-th player, as it plays (a perfect player by the tables it has).
    pub(crate) fn name(&self, i: usize) -> String {
        match (self.specs[i], &self.tables) {
            (PlayerSpec::Perfect(_), Some(tables)) => format!("perfect:{}", tables.max_pieces()),
            (spec, _) => spec.to_string(),
        }
    }
}

fn refused_player(e: PlayerSpecError) -> CliError {
    CliError::input(format!("--players: {e}"))
}

/// Reads the endgame tables of `--tables PATH`, which must have been solved for `rules`.
pub(crate) fn read_tables(rules: &AnyRuleset, path: &Path) -> Result<AnyTables, CliError> {
    let refused =
        |e: &dyn std::fmt::Display| CliError::input(format!("--tables {}: {e}", path.display()));
    let file = std::fs::File::open(path)
        .map_err(|e| CliError::input(format!("--tables: cannot read {}: {e}", path.display())))?;
    let bytes = read_table_bytes(file, MAX_TABLE_BYTES).map_err(|e| refused(&e))?;
    rules.read_endgame_file(&bytes).map_err(|e| refused(&e))
}

#[cfg(test)]
mod tests {
    use super::*;
    use senet::Phase;
    use senet::registry::RULESETS;
    use senet::rng::ChaCha8Rng;
    use senet::rng::SeedableRng;
    use senet_ai::Budget;

    #[test]
    fn player_names_are_senet_ai_names_or_human() {
        assert_eq!(
            PlayerKind::parse_pair("human, expectiminimax:3").unwrap(),
            [
                PlayerKind::Human,
                PlayerKind::Computer(PlayerSpec::Expectiminimax(Budget::Depth(3)))
            ]
        );
        for name in [
            "random",
            "greedy",
            "expectiminimax:2",
            "expectiminimax:nodes=500",
            "mcts:20",
            "perfect:1",
        ] {
            let kind = PlayerKind::parse(name).unwrap();
            assert_eq!(kind.name(), name);
        }
        assert_eq!(PlayerKind::parse("mcts").unwrap().name(), "mcts:1000");
        for (bad, needle) in [
            ("", "expected two players"),
            ("random", "expected two players"),
            ("random,random,random", "expected two players"),
            ("random,robot", "unknown player `robot`"),
            ("Random,human", "unknown player `Random`"),
            ("mcts:0,human", "at least 1"),
            ("human,greedy:2", "no parameter"),
            ("expectiminimax:deep,human", "a depth"),
        ] {
            match PlayerKind::parse_pair(bad) {
                Err(CliError::Input(message)) => assert!(message.contains(needle), "{message}"),
                other => panic!("{bad:?}: {other:?}"),
            }
        }
    }

    /// The random player draws from the game's stream exactly as `random_playout` does.
    #[test]
    fn the_random_player_matches_random_playout() {
        for info in RULESETS {
            let rules = AnyRuleset::parse(info.id).unwrap();
            let roster = Roster::new(&rules, &[PlayerSpec::Random], None, &mut |_| {}).unwrap();
            let mut player = roster.computer(0).unwrap();
            for seed in 0..20 {
                let mut a = ChaCha8Rng::seed_from_u64(seed);
                let mut b = a.clone();
                let mut expected = AnyGame::new(rules.clone());
                expected.play_random(&mut a, 10_000);
                let mut game = AnyGame::new(rules.clone());
                while let Some(side) = game.phase().side() {
                    if let Phase::Throw(_) = game.phase() {
                        game.throw_random(&mut b).unwrap();
                    } else {
                        let mv = player.choose(&game, &mut b);
                        game.play(mv)
                            .unwrap_or_else(|e| panic!("{side}: {mv}: {e}"));
                    }
                }
                assert_eq!(
                    game.position(),
                    expected.position(),
                    "{} seed {seed}",
                    info.id
                );
                assert_eq!(
                    game.history(),
                    expected.history(),
                    "{} seed {seed}",
                    info.id
                );
            }
        }
    }

    /// Every player of `senet-ai` plays legal moves, on every ruleset.
    #[test]
    fn the_players_of_senet_ai_play_legal_moves_on_every_ruleset() {
        let specs = [
            PlayerSpec::Greedy,
            PlayerSpec::Expectiminimax(Budget::Depth(1)),
            PlayerSpec::Mcts(8),
        ];
        for info in RULESETS {
            let rules = AnyRuleset::parse(info.id).unwrap();
            let roster = Roster::new(&rules, &specs, None, &mut |_| {}).unwrap();
            let mut players: Vec<_> = (0..specs.len())
                .map(|i| roster.computer(i).unwrap())
                .collect();
            let mut rng = ChaCha8Rng::seed_from_u64(3);
            let mut game = AnyGame::new(rules);
            for step in 0..400 {
                match game.phase() {
                    Phase::Over(_) => break,
                    Phase::Throw(_) => {
                        game.throw_random(&mut rng).unwrap();
                    }
                    Phase::Move(_) => {
                        let mv = players[step % specs.len()].choose(&game, &mut rng);
                        assert!(
                            game.legal_moves().contains(&mv),
                            "{}: {mv} is not legal",
                            info.id
                        );
                        game.play(mv).unwrap();
                    }
                }
            }
        }
    }

    #[test]
    fn perfect_players_need_tables_they_can_get() {
        let rules = AnyRuleset::parse("regency").unwrap();
        let mut notes = Vec::new();
        let roster = Roster::new(&rules, &[PlayerSpec::Perfect(1)], None, &mut |n| {
            notes.push(n.to_string())
        })
        .unwrap();
        assert_eq!(roster.name(0), "perfect:1");
        assert!(notes[0].contains("solving"), "{notes:?}");
        assert!(Roster::new(&rules, &[PlayerSpec::Perfect(3)], None, &mut |_| {}).is_err());
        let bell = AnyRuleset::parse("bell").unwrap();
        assert!(Roster::new(&bell, &[PlayerSpec::Perfect(1)], None, &mut |_| {}).is_err());
    }
}
