//! Who chooses the moves: a person at the terminal, or a computer player.
//!
//! Computer players implement [`Player`] for any ruleset. To add one (for example the search
//! players of the `senet-ai` crate), add a variant to [`ComputerKind`], a line to
//! [`PlayerKind::ALL`] and an arm to [`ComputerKind::player`]; `play` and `simulate` then
//! offer it under its name.

use senet::rand_core::Rng;
use senet::{Move, Ruleset, uniform_below};

use crate::error::CliError;

/// A computer player: picks one of the legal moves of a decision point.
pub(crate) trait Player<R: Ruleset>: Send {
    /// Chooses among `moves` (the legal moves of `state`, never empty). Any randomness is
    /// drawn from `rng`, the game's own stream, so that seeded games repeat exactly.
    fn choose(&mut self, rules: &R, state: &R::State, moves: &[Move], rng: &mut dyn Rng) -> Move;
}

/// Picks a legal move uniformly at random: one `uniform_below` draw from the game's stream,
/// exactly as `senet::random_playout` does.
struct RandomPlayer;

impl<R: Ruleset> Player<R> for RandomPlayer {
    fn choose(&mut self, _: &R, _: &R::State, moves: &[Move], rng: &mut dyn Rng) -> Move {
        let pick = uniform_below(rng, moves.len() as u32) as usize;
        moves.get(pick).copied().unwrap_or_default()
    }
}

/// A computer player, as named on the command line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum ComputerKind {
    /// [`RandomPlayer`].
    Random,
}

impl ComputerKind {
    /// A fresh player of this kind.
    pub(crate) fn player<R: Ruleset>(self) -> Box<dyn Player<R>> {
        match self {
            ComputerKind::Random => Box::new(RandomPlayer),
        }
    }

    /// The name used on the command line.
    pub(crate) fn name(self) -> &'static str {
        PlayerKind::Computer(self).name()
    }
}

/// Who plays a side: a person at the terminal or a computer player.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum PlayerKind {
    /// A person typing moves at the terminal.
    Human,
    /// A computer player.
    Computer(ComputerKind),
}

impl PlayerKind {
    /// Every kind with its name and a one-line description.
    pub(crate) const ALL: &[(PlayerKind, &str, &str)] = &[
        (PlayerKind::Human, "human", "a person at the terminal"),
        (
            PlayerKind::Computer(ComputerKind::Random),
            "random",
            "picks a legal move uniformly at random",
        ),
    ];

    /// The name used on the command line.
    pub(crate) fn name(self) -> &'static str {
        PlayerKind::ALL
            .iter()
            .find(|(kind, _, _)| *kind == self)
            .map_or("?", |(_, name, _)| name)
    }

    fn parse(text: &str) -> Result<PlayerKind, CliError> {
        let text = text.trim();
        PlayerKind::ALL
            .iter()
            .find(|(_, name, _)| *name == text)
            .map(|(kind, _, _)| *kind)
            .ok_or_else(|| {
                let known: Vec<&str> = PlayerKind::ALL.iter().map(|(_, n, _)| *n).collect();
                CliError::input(format!(
                    "--players: unknown player {text:?} (known: {})",
                    known.join(", ")
                ))
            })
    }

    /// Reads `--players a,b`.
    pub(crate) fn parse_pair(text: &str) -> Result<[PlayerKind; 2], CliError> {
        let parts: Vec<&str> = text.split(',').collect();
        match parts.as_slice() {
            [a, b] => Ok([PlayerKind::parse(a)?, PlayerKind::parse(b)?]),
            _ => Err(CliError::input(format!(
                "--players {text:?}: expected two players separated by a comma, e.g. human,random"
            ))),
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

    #[test]
    fn player_names_parse_back() {
        for (kind, name, _) in PlayerKind::ALL {
            assert_eq!(PlayerKind::parse(name).unwrap(), *kind);
            assert_eq!(kind.name(), *name);
        }
        assert_eq!(
            PlayerKind::parse_pair("human, random").unwrap(),
            [
                PlayerKind::Human,
                PlayerKind::Computer(ComputerKind::Random)
            ]
        );
        for bad in [
            "",
            "random",
            "random,random,random",
            "random,robot",
            "Random,human",
        ] {
            assert!(PlayerKind::parse_pair(bad).is_err(), "{bad:?}");
        }
    }

    /// Two random players drawing from the game's stream play exactly the games of
    /// `random_playout` with the same stream.
    struct SameAsPlayout;
    impl RulesetVisitor for SameAsPlayout {
        type Output = ();
        fn visit<R: Ruleset>(self, rules: &R) {
            let mut player = ComputerKind::Random.player::<R>();
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
}
