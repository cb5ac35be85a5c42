//! Who chooses the moves: a person at the terminal, or a computer player of `senet-ai`.
//!
//! Computer players are named as `senet_ai::PlayerSpec` parses them (`random`, `greedy`,
//! `expectiminimax:3`, `mcts:500`, `perfect`, …); this module adds `human` and builds the
//! players for a ruleset. The perfect player needs endgame tables: read from `--tables FILE`,
//! or solved when the command starts (up to [`MOST_PIECES_SOLVED_ON_DEMAND`] pieces a side).

use std::path::Path;
use std::sync::Arc;

use senet::rand_core::Rng;
use senet::{Move, Ruleset, uniform_below};
use senet_ai::endgame::{
    PositionOracle, SolveOptions, read_for, read_table_bytes, solve_for, supports_endgame,
};
use senet_ai::{PlayerSpec, PlayerSpecError};

use crate::error::CliError;
use crate::limits::MAX_TABLE_BYTES;

/// A computer player: picks one of the legal moves of a decision point.
pub(crate) trait Player<R: Ruleset>: Send {
    /// Chooses among `moves` (the legal moves of `state`, never empty). Any randomness is
    /// drawn from `rng`, the game's own stream, so that seeded games repeat exactly.
    fn choose(&mut self, rules: &R, state: &R::State, moves: &[Move], rng: &mut dyn Rng) -> Move;
}

/// Picks a legal move uniformly at random: one `uniform_below` draw from the game's stream
/// at every decision, forced or not, exactly as `senet::random_playout` does, so that the
/// seeded games of `senet simulate` between random players are those of the library.
/// (`senet_ai::RandomPlayer` draws nothing when a move is forced.)
struct PlayoutRandom;

impl<R: Ruleset> Player<R> for PlayoutRandom {
    fn choose(&mut self, _: &R, _: &R::State, moves: &[Move], rng: &mut dyn Rng) -> Move {
        let pick = uniform_below(rng, moves.len() as u32) as usize;
        moves.get(pick).copied().unwrap_or_default()
    }
}

/// A player of `senet-ai`.
struct Ai<R: Ruleset>(Box<dyn senet_ai::Player<R>>);

impl<R: Ruleset> Player<R> for Ai<R> {
    fn choose(&mut self, rules: &R, state: &R::State, moves: &[Move], rng: &mut dyn Rng) -> Move {
        // The players only refuse states that wait for no move, which the callers never
        // give them; fall back on the first legal move rather than stop the game.
        self.0
            .choose(rules, state, rng)
            .unwrap_or_else(|_| moves.first().copied().unwrap_or_default())
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
     :nodes=N], mcts[:PLAYOUTS], perfect[:PIECES]";

/// The most pieces a side for which `perfect` solves its tables when the command starts;
/// larger tables take minutes or more and are read from `--tables` instead.
pub(crate) const MOST_PIECES_SOLVED_ON_DEMAND: u8 = 2;

impl PlayerKind {
    /// The name used on the command line.
    pub(crate) fn name(self) -> String {
        match self {
            PlayerKind::Human => "human".to_string(),
            PlayerKind::Computer(spec) => spec.to_string(),
        }
    }

    fn parse(text: &str) -> Result<PlayerKind, CliError> {
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
pub(crate) struct Roster<R: Ruleset> {
    specs: Vec<PlayerSpec>,
    tables: Option<Arc<dyn PositionOracle<R>>>,
}

impl<R: Ruleset> Roster<R> {
    /// Prepares `specs` for `rules`: reads `tables` when given (it must have been solved for
    /// this ruleset, options and rules revision), or solves the tables a perfect player needs
    /// (at most [`MOST_PIECES_SOLVED_ON_DEMAND`] pieces a side), telling `notes` what it
    /// does. Fails with a one-line message for a perfect player without usable tables.
    pub(crate) fn new(
        rules: &R,
        specs: &[PlayerSpec],
        tables: Option<&Path>,
        notes: &mut dyn FnMut(&str),
    ) -> Result<Roster<R>, CliError> {
        // The most pieces any perfect player asks for: the tables must cover it.
        let perfect = specs
            .iter()
            .filter_map(|spec| match spec {
                PlayerSpec::Perfect(pieces) => Some(*pieces),
                _ => None,
            })
            .max();
        let tables = match (tables, perfect) {
            (Some(path), _) => {
                let file = std::fs::File::open(path).map_err(|e| {
                    CliError::input(format!("--tables: cannot read {}: {e}", path.display()))
                })?;
                let refused = |e: &dyn std::fmt::Display| {
                    CliError::input(format!("--tables {}: {e}", path.display()))
                };
                let bytes = read_table_bytes(file, MAX_TABLE_BYTES).map_err(|e| refused(&e))?;
                let oracle = read_for(rules, &bytes).map_err(|e| refused(&e))?;
                if let Some(pieces) = perfect
                    && pieces > oracle.max_pieces()
                {
                    return Err(refused(&format_args!(
                        "perfect:{pieces} needs tables of {pieces} pieces a side, these have {0} \
                         (perfect:{0} plays from them; `perfect` alone is perfect:2)",
                        oracle.max_pieces()
                    )));
                }
                notes(&format!("endgame tables: {}", oracle.describe()));
                Some(oracle)
            }
            (None, Some(pieces)) if pieces > MOST_PIECES_SOLVED_ON_DEMAND => {
                return Err(CliError::input(format!(
                    "--players: perfect:{pieces} needs --tables FILE (tables of more than \
                     {MOST_PIECES_SOLVED_ON_DEMAND} pieces a side take minutes or more to solve; \
                     make them once with `senet solve --rules {} --pieces {pieces} --out FILE`)",
                    rules.spec()
                )));
            }
            (None, Some(pieces)) => {
                if supports_endgame(rules) {
                    notes(&format!(
                        "solving the {} endgames with up to {pieces} pieces a side for the perfect \
                     player (--tables FILE reads them instead)",
                        rules.spec()
                    ));
                }
                let oracle = solve_for(rules, pieces, &SolveOptions::default())
                    .map_err(|e| CliError::input(format!("--players: perfect:{pieces}: {e}")))?;
                Some(oracle)
            }
            (None, None) => None,
        };
        let roster = Roster {
            specs: specs.to_vec(),
            tables,
        };
        // Build each player once, so that any refusal comes now, in one line.
        for i in 0..specs.len() {
            roster.player(rules, i)?;
        }
        Ok(roster)
    }

    /// A fresh player for the `i`-th spec.
    pub(crate) fn player(&self, rules: &R, i: usize) -> Result<Box<dyn Player<R>>, CliError> {
        let spec = self.specs[i];
        let built = match &self.tables {
            _ if spec == PlayerSpec::Random => return Ok(Box::new(PlayoutRandom)),
            Some(tables) => spec.build_with_tables(rules, Arc::clone(tables)),
            None => spec.build(rules),
        };
        built
            .map(|player| Box::new(Ai(player)) as Box<dyn Player<R>>)
            .map_err(|e| CliError::input(format!("--players: {e}")))
    }

    /// The name of the `i`-th player, as it plays (a perfect player by the tables it has).
    pub(crate) fn name(&self, i: usize) -> String {
        match (self.specs[i], &self.tables) {
            (PlayerSpec::Perfect(_), Some(tables)) => format!("perfect:{}", tables.max_pieces()),
            (spec, _) => spec.to_string(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand_chacha::ChaCha8Rng;
    use senet::rand_core::SeedableRng;
    use senet::registry::{AnyRuleset, RULESETS, RulesetVisitor};
    use senet::{MoveList, Phase, random_playout};
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
    struct SameAsPlayout;
    impl RulesetVisitor for SameAsPlayout {
        type Output = ();
        fn visit<R: Ruleset>(self, rules: &R) {
            let roster = Roster::new(rules, &[PlayerSpec::Random], None, &mut |_| {}).unwrap();
            let mut player = roster.player(rules, 0).unwrap();
            let device = rules.device();
            let mut moves = MoveList::new();
            for seed in 0..20 {
                let mut a = ChaCha8Rng::seed_from_u64(seed);
                let mut b = a.clone();
                let mut expected = rules.initial_state();
                random_playout(rules, &mut expected, &mut a, &mut moves, 10_000);
                let mut state = rules.initial_state();
                loop {
                    match rules.phase(&state) {
                        Phase::Over(_) => break,
                        Phase::Throw(_) => {
                            let value = senet::ThrowingDevice::sample(&device, &mut b);
                            rules.throw_unchecked(&mut state, value);
                        }
                        Phase::Move(_) => {
                            rules.generate_moves(&state, &mut moves);
                            let mv = player.choose(rules, &state, &moves, &mut b);
                            rules.play_unchecked(&mut state, mv);
                        }
                    }
                }
                assert_eq!(state, expected, "{} seed {seed}", R::ID);
            }
        }
    }

    #[test]
    fn the_random_player_matches_random_playout() {
        for info in RULESETS {
            AnyRuleset::parse(info.id).unwrap().visit(SameAsPlayout);
        }
    }

    /// Every player of `senet-ai` plays legal moves through the adapter, on every ruleset.
    struct EveryPlayerIsLegal;
    impl RulesetVisitor for EveryPlayerIsLegal {
        type Output = ();
        fn visit<R: Ruleset>(self, rules: &R) {
            let specs = [
                PlayerSpec::Greedy,
                PlayerSpec::Expectiminimax(Budget::Depth(1)),
                PlayerSpec::Mcts(8),
            ];
            let roster = Roster::new(rules, &specs, None, &mut |_| {}).unwrap();
            let mut players: Vec<_> = (0..specs.len())
                .map(|i| roster.player(rules, i).unwrap())
                .collect();
            let device = rules.device();
            let mut rng = ChaCha8Rng::seed_from_u64(3);
            let mut moves = MoveList::new();
            let mut state = rules.initial_state();
            for step in 0..400 {
                match rules.phase(&state) {
                    Phase::Over(_) => break,
                    Phase::Throw(_) => {
                        let value = senet::ThrowingDevice::sample(&device, &mut rng);
                        rules.throw_unchecked(&mut state, value);
                    }
                    Phase::Move(_) => {
                        rules.generate_moves(&state, &mut moves);
                        let player = &mut players[step % specs.len()];
                        let mv = player.choose(rules, &state, &moves, &mut rng);
                        assert!(moves.contains(&mv), "{}: {mv} is not legal", R::ID);
                        rules.play_unchecked(&mut state, mv);
                    }
                }
            }
        }
    }

    #[test]
    fn the_players_of_senet_ai_play_legal_moves_on_every_ruleset() {
        for info in RULESETS {
            AnyRuleset::parse(info.id)
                .unwrap()
                .visit(EveryPlayerIsLegal);
        }
    }

    #[test]
    fn perfect_players_need_tables_they_can_get() {
        let rules = senet::Regency::default();
        let mut notes = Vec::new();
        let roster = Roster::new(&rules, &[PlayerSpec::Perfect(1)], None, &mut |n| {
            notes.push(n.to_string())
        })
        .unwrap();
        assert_eq!(roster.name(0), "perfect:1");
        assert!(notes[0].contains("solving"), "{notes:?}");
        assert!(Roster::new(&rules, &[PlayerSpec::Perfect(3)], None, &mut |_| {}).is_err());
        let bell = senet::Bell::default();
        assert!(Roster::new(&bell, &[PlayerSpec::Perfect(1)], None, &mut |_| {}).is_err());
    }
}
