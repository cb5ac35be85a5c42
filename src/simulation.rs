//! Seeded matches between two computer players, and their summary (feature `ai`).
//!
//! This is the game loop of `senet simulate` and of the Python package's `simulate`, so that
//! both give the same figures for the same arguments. Game `i` draws every throw and every
//! random choice (of random players and of MCTS) from ChaCha8 stream `i` of the seed
//! ([`rng::seeded`]); every player is fresh or keeps nothing from one decision to the next;
//! player a plays Black in the even-numbered games ([`seats`]). So a [`MatchSummary`] of any
//! range of game indices depends on nothing else, and summaries of disjoint ranges merge
//! exactly: split the games over threads, processes or machines as you like.
//!
//! ```
//! use senet::registry::AnyRuleset;
//! use senet::simulation::Lineup;
//! use senet_ai::PlayerSpec;
//!
//! let rules = AnyRuleset::parse("regency").unwrap();
//! let lineup = Lineup::new(&rules, [PlayerSpec::Greedy, PlayerSpec::Random], None).unwrap();
//! let whole = lineup.play(0..40, 7, 1000).unwrap();
//! let mut halves = lineup.play(0..25, 7, 1000).unwrap();
//! halves.merge(&lineup.play(25..40, 7, 1000).unwrap());
//! assert_eq!(halves, whole);
//! assert_eq!(whole.by_side.games(), 40);
//! ```

use core::ops::Range;

use senet_ai::endgame::EndgameError;
use senet_ai::{PlayerSpec, PlayerSpecError};
use senet_core::batch::BatchRun;
use senet_core::rand_core::Rng;
use senet_core::{
    Move, MoveList, Phase, Playout, PlayoutEnd, Ruleset, Side, ThrowingDevice, TurnCounter,
    uniform_below,
};

use crate::AnyTables;
use crate::registry::{AnyRuleset, Registered, RulesetVisitor};
use crate::rng::{self, ChaCha8Rng};
use crate::stats::{Distribution, SimulationSummary, wilson_interval};

/// Which player (0 = a, 1 = b) sits on each side in game `index`, indexed by side: player a
/// plays Black in the even-numbered games.
pub fn seats(index: u64) -> [usize; 2] {
    match side_of_player_a(index) {
        Side::Black => [0, 1],
        Side::White => [1, 0],
    }
}

/// The side player a takes in game `index`: Black, the side that moves first, in the
/// even-numbered games and White in the others, so that each player of a match moves first
/// in half of its games.
///
/// ```
/// use senet::Side;
/// use senet::simulation::side_of_player_a;
/// assert_eq!(side_of_player_a(0), Side::Black);
/// assert_eq!(side_of_player_a(7), Side::White);
/// ```
pub fn side_of_player_a(index: u64) -> Side {
    if index.is_multiple_of(2) {
        Side::Black
    } else {
        Side::White
    }
}

/// The random player's choice among `moves`: one `uniform_below` draw at every decision,
/// forced or not, exactly as [`random_playout`](senet_core::random_playout) draws, so that the seeded games of random
/// players are those of the library. (`senet_ai::RandomPlayer` draws nothing when a move is
/// forced.)
pub fn random_pick(moves: &[Move], rng: &mut dyn Rng) -> Move {
    let pick = uniform_below(rng, moves.len() as u32) as usize;
    moves.get(pick).copied().unwrap_or_default()
}

/// The most games one simulation plays: a billion, far more than any interval needs. Front
/// ends refuse more with an error naming this cap.
pub const MAX_GAMES: u64 = 1_000_000_000;

/// The most worker threads one simulation starts: more is surely a typing mistake.
pub const MAX_THREADS: usize = 1024;

/// The most pieces a side for which a perfect player's tables are solved when a run starts,
/// by `senet simulate` and the Python package (seconds); larger tables take minutes or more
/// and are solved once (`senet solve`) and read from a file.
pub const MOST_PIECES_SOLVED_ON_DEMAND: u8 = 2;

/// The most pieces a side that the perfect players among `specs` ask for: the tables they
/// play from must cover it. `None` without a perfect player.
///
/// ```
/// use senet::simulation::perfect_pieces;
/// use senet_ai::PlayerSpec;
/// assert_eq!(perfect_pieces(&[PlayerSpec::Perfect(3), PlayerSpec::Perfect(1)]), Some(3));
/// assert_eq!(perfect_pieces(&[PlayerSpec::Greedy]), None);
/// ```
pub fn perfect_pieces(specs: &[PlayerSpec]) -> Option<u8> {
    specs
        .iter()
        .filter_map(|spec| match spec {
            PlayerSpec::Perfect(pieces) => Some(*pieces),
            _ => None,
        })
        .max()
}

/// What a batch of games between players a and b came to: the summary by side, plus the
/// wins of each player.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct MatchSummary {
    /// Wins, draws and lengths by side.
    pub by_side: SimulationSummary,
    /// Wins of player a and of player b.
    pub player_wins: [u64; 2],
}

impl MatchSummary {
    /// Adds every game of `other` (a disjoint batch).
    pub fn merge(&mut self, other: &MatchSummary) {
        self.by_side.merge(&other.by_side);
        self.player_wins[0] += other.player_wins[0];
        self.player_wins[1] += other.player_wins[1];
    }
}

impl core::iter::Sum for MatchSummary {
    /// Merges the parts: the summary of all their games, in any order.
    fn sum<I: Iterator<Item = MatchSummary>>(parts: I) -> MatchSummary {
        crate::stats::merge_all(parts, MatchSummary::merge)
    }
}

/// Two computer players for one ruleset configuration, ready to play seeded games.
#[derive(Clone, Debug)]
pub struct Lineup {
    rules: AnyRuleset,
    specs: [PlayerSpec; 2],
    tables: Option<AnyTables>,
}

impl Lineup {
    /// Players a and b of `specs` for `rules`; a perfect player plays from `tables` (of this
    /// configuration, whatever number of pieces they cover); without them, every call of
    /// [`play`](Lineup::play) solves its own. Each player is built once here, so that a refusal comes
    /// now.
    pub fn new(
        rules: &AnyRuleset,
        specs: [PlayerSpec; 2],
        tables: Option<AnyTables>,
    ) -> Result<Lineup, PlayerSpecError> {
        let lineup = Lineup {
            rules: rules.clone(),
            specs,
            tables,
        };
        for spec in specs {
            match &lineup.tables {
                _ if spec == PlayerSpec::Random => {}
                Some(tables) => drop(crate::AnyPlayer::with_tables(&spec, rules, tables)?),
                None => drop(crate::AnyPlayer::new(&spec, rules)?),
            }
        }
        Ok(lineup)
    }

    /// Whether both players are random: their games run on the batch engine, which wants
    /// ranges of a few thousand games to keep its lanes full.
    pub fn both_random(&self) -> bool {
        self.specs == [PlayerSpec::Random; 2]
    }

    /// The ruleset configuration.
    pub fn rules(&self) -> &AnyRuleset {
        &self.rules
    }

    /// The names of players a and b as they play (a perfect player by the tables it has).
    pub fn names(&self) -> [String; 2] {
        self.specs.map(|spec| match (spec, &self.tables) {
            (PlayerSpec::Perfect(_), Some(tables)) => format!("perfect:{}", tables.max_pieces()),
            (spec, _) => spec.to_string(),
        })
    }

    /// Plays the games whose indices are in `games` (see the module documentation) and
    /// summarises them; a game still going at turn `turn_cap + 1` is stopped and counted as
    /// such.
    pub fn play(
        &self,
        games: Range<u64>,
        seed: u64,
        turn_cap: u32,
    ) -> Result<MatchSummary, PlayerSpecError> {
        self.play_from(games, seed, 0, turn_cap)
    }

    /// As [`play`](Lineup::play), but game `i` draws from stream `first_stream + i` (its
    /// seats still follow `i`): for runs that give several matches disjoint streams of one
    /// seed, such as `senet rate`.
    pub fn play_from(
        &self,
        games: Range<u64>,
        seed: u64,
        first_stream: u64,
        turn_cap: u32,
    ) -> Result<MatchSummary, PlayerSpecError> {
        self.rules.clone().visit(PlayRange {
            lineup: self,
            games,
            seed,
            first_stream,
            turn_cap,
        })
    }

    /// A fresh player `i` for the typed game loop of `rules`, the lineup's ruleset.
    fn player<R: Registered>(
        &self,
        rules: &R,
        i: usize,
    ) -> Result<TypedPlayer<R>, PlayerSpecError> {
        let spec = self.specs[i];
        let built = match &self.tables {
            _ if spec == PlayerSpec::Random => return Ok(TypedPlayer::Random),
            Some(tables) => match tables.oracle::<R>() {
                Some(oracle) => spec.build_with_tables(rules, oracle),
                None => Err(PlayerSpecError::from(EndgameError::RulesetMismatch {
                    table: tables.rules().to_string(),
                    game: rules.spec().to_string(),
                })),
            },
            None => spec.build(rules, rules.endgames()),
        };
        built.map(TypedPlayer::Ai)
    }
}

/// A player of the typed game loop.
enum TypedPlayer<R: Ruleset> {
    /// Draws as [`random_pick`].
    Random,
    /// A player of `senet-ai`.
    Ai(Box<dyn senet_ai::Player<R>>),
}

impl<R: Ruleset> TypedPlayer<R> {
    fn choose(&mut self, rules: &R, state: &R::State, moves: &[Move], rng: &mut dyn Rng) -> Move {
        match self {
            TypedPlayer::Random => random_pick(moves, rng),
            // The players refuse only states that wait for no move, which the loop never
            // gives them; the first legal move keeps the game going regardless.
            TypedPlayer::Ai(player) => player
                .choose(rules, state, rng)
                .unwrap_or_else(|_| moves.first().copied().unwrap_or_default()),
        }
    }
}

/// Plays one game from the initial position: throws from the device and choices from the
/// players, all drawn from `rng`. `seats[side.index()]` is the player of that side.
fn play_game<R: Ruleset>(
    rules: &R,
    players: &mut [TypedPlayer<R>; 2],
    seats: [usize; 2],
    rng: &mut ChaCha8Rng,
    moves: &mut MoveList,
    turn_cap: u32,
) -> Playout {
    let device = rules.device();
    let mut state = rules.initial_state();
    let mut turns = TurnCounter::default();
    let mut decisions = 0;
    loop {
        let phase = rules.phase(&state);
        if let Some(side) = phase.side()
            && turns.observe(side)
            && turns.turns() > turn_cap
        {
            return Playout {
                end: PlayoutEnd::TurnCap,
                turns: turn_cap,
                decisions,
            };
        }
        match phase {
            Phase::Over(outcome) => {
                return Playout {
                    end: PlayoutEnd::Finished(outcome),
                    turns: turns.turns(),
                    decisions,
                };
            }
            Phase::Throw(_) => rules.throw_unchecked(&mut state, device.sample(rng)),
            Phase::Move(side) => {
                rules.generate_moves(&state, moves);
                let player = &mut players[seats[side.index()]];
                let mv = player.choose(rules, &state, moves, rng);
                rules.play_unchecked(&mut state, mv);
                decisions += 1;
            }
        }
    }
}

/// The game loop, generic over the ruleset: two random players take the batch engine
/// ([`BatchRules::play_seeded_batch`], the games of [`random_playout`](senet_core::random_playout), which a test checks), the
/// others run on the typed state without a dispatch per decision.
struct PlayRange<'a> {
    lineup: &'a Lineup,
    games: Range<u64>,
    seed: u64,
    first_stream: u64,
    turn_cap: u32,
}

impl RulesetVisitor for PlayRange<'_> {
    type Output = Result<MatchSummary, PlayerSpecError>;

    fn visit<R: Registered>(self, rules: &R) -> Self::Output {
        let mut summary = MatchSummary::default();
        let mut add = |index: u64, game: Playout| {
            summary.by_side.add(&game.end, game.decisions, game.turns);
            if let PlayoutEnd::Finished(outcome) = game.end
                && let Some(winner) = outcome.winner
            {
                summary.player_wins[seats(index)[winner.index()]] += 1;
            }
        };
        if self.lineup.both_random() {
            // The batch plays stream `first_stream + index` as its game of that number.
            let shift = self.first_stream;
            let streams = shift + self.games.start..shift + self.games.end;
            let run = BatchRun::new(streams).with_turn_cap(self.turn_cap);
            rules.play_seeded_batch(&run, rng::seed_bytes(self.seed), |stream, game| {
                add(stream - shift, game)
            });
            return Ok(summary);
        }
        let mut players = [self.lineup.player(rules, 0)?, self.lineup.player(rules, 1)?];
        let mut moves = MoveList::new();
        for index in self.games {
            let mut rng = rng::seeded(self.seed, self.first_stream + index);
            let game = play_game(
                rules,
                &mut players,
                seats(index),
                &mut rng,
                &mut moves,
                self.turn_cap,
            );
            add(index, game);
        }
        Ok(summary)
    }
}

/// A count of games with its share of all games and the 95% Wilson interval.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Rate {
    /// Games won.
    pub wins: u64,
    /// `wins` over all games (0 when there are none).
    pub rate: f64,
    /// The 95% Wilson interval of `rate`.
    pub ci95: [f64; 2],
}

impl Rate {
    /// `wins` out of `games`.
    pub fn new(wins: u64, games: u64) -> Rate {
        let (low, high) = wilson_interval(wins, games);
        Rate {
            wins,
            rate: if games == 0 {
                0.0
            } else {
                wins as f64 / games as f64
            },
            ci95: [low, high],
        }
    }
}

/// The length statistics of a [`Distribution`], with a histogram of about 20 buckets.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Lengths {
    /// The mean.
    pub mean: Option<f64>,
    /// The median.
    pub median: Option<u32>,
    /// The 10th percentile.
    pub p10: Option<u32>,
    /// The 90th percentile.
    pub p90: Option<u32>,
    /// The largest value.
    pub max: Option<u32>,
    /// The width of a histogram bucket; the first bucket starts at 0.
    pub histogram_width: u32,
    /// Counts of games per bucket.
    pub histogram: Vec<u64>,
}

/// A bucket width that splits `0..=max` into at most about 20 buckets of a round size.
fn bucket_width(max: u32) -> u32 {
    let raw = max / 20 + 1;
    [1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000]
        .into_iter()
        .find(|&w| w >= raw)
        .unwrap_or(raw.next_multiple_of(1000))
}

impl Lengths {
    /// The statistics of `d`.
    pub fn new(d: &Distribution) -> Lengths {
        let width = bucket_width(d.max().unwrap_or(0));
        Lengths {
            mean: d.mean(),
            median: d.median(),
            p10: d.quantile(0.1),
            p90: d.quantile(0.9),
            max: d.max(),
            histogram_width: width,
            histogram: d.histogram(width).into_iter().map(|(_, c)| c).collect(),
        }
    }
}

/// How often the side that moves first won.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct FirstMover {
    /// Black's share of the games that had a winner (0.5 when none had).
    pub black_share_of_decided: f64,
    /// Its 95% Wilson interval.
    pub ci95: [f64; 2],
    /// `black_share_of_decided - 0.5`.
    pub advantage: f64,
}

/// One player's wins.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct PlayerResult {
    /// The player's name as it played.
    pub name: String,
    /// Games won.
    pub wins: u64,
    /// `wins` over all games.
    pub rate: f64,
    /// The 95% Wilson interval of `rate`.
    pub ci95: [f64; 2],
}

/// The summary of a run as `senet simulate --json` prints it.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct SimulationReport {
    /// The canonical ruleset specification.
    pub rules: String,
    /// Games played.
    pub games: u64,
    /// The seed of the run.
    pub seed: u64,
    /// The turn cap.
    pub turn_cap: u32,
    /// Players a and b.
    pub players: [PlayerResult; 2],
    /// Black's wins.
    pub black: Rate,
    /// White's wins.
    pub white: Rate,
    /// Games drawn.
    pub draws: u64,
    /// Games stopped by the turn cap.
    pub stopped_at_turn_cap: u64,
    /// Black's share of the decided games.
    pub first_mover: FirstMover,
    /// Game lengths in turns.
    pub turns: Lengths,
    /// Game lengths in decisions (moves and passes).
    pub decisions: Lengths,
}

impl SimulationReport {
    /// The report of `summary`, the games of `lineup` from `seed` with `turn_cap`.
    pub fn new(lineup: &Lineup, seed: u64, turn_cap: u32, s: &MatchSummary) -> SimulationReport {
        let games = s.by_side.games();
        let black = s.by_side.wins(Side::Black);
        let white = s.by_side.wins(Side::White);
        let decided = black + white;
        let (low, high) = wilson_interval(black, decided);
        let share = if decided == 0 {
            0.5
        } else {
            black as f64 / decided as f64
        };
        let names = lineup.names();
        let player = |i: usize| {
            let r = Rate::new(s.player_wins[i], games);
            PlayerResult {
                name: names[i].clone(),
                wins: r.wins,
                rate: r.rate,
                ci95: r.ci95,
            }
        };
        SimulationReport {
            rules: lineup.rules.to_string(),
            games,
            seed,
            turn_cap,
            players: [player(0), player(1)],
            black: Rate::new(black, games),
            white: Rate::new(white, games),
            draws: s.by_side.draws(),
            stopped_at_turn_cap: s.by_side.capped(),
            first_mover: FirstMover {
                black_share_of_decided: share,
                ci95: [low, high],
                advantage: share - 0.5,
            },
            turns: Lengths::new(&s.by_side.turns),
            decisions: Lengths::new(&s.by_side.decisions),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::AnyGame;
    use crate::registry::RULESETS;
    use senet_core::{DEFAULT_TURN_CAP, random_playout};

    /// The summary of `games` seeded random games played one by one through `AnyGame`.
    fn direct(rules: &AnyRuleset, games: u64) -> SimulationSummary {
        let mut summary = SimulationSummary::default();
        for index in 0..games {
            let mut game = AnyGame::new(rules.clone());
            let end = game.play_random(&mut rng::seeded(9, index), DEFAULT_TURN_CAP);
            summary.add(&end, game.decisions(), game.turns());
        }
        summary
    }

    #[test]
    fn random_players_reproduce_random_playouts_in_any_split() {
        for info in RULESETS {
            let rules = AnyRuleset::parse(info.id).unwrap();
            let expected = direct(&rules, 300);
            let lineup = Lineup::new(&rules, [PlayerSpec::Random; 2], None).unwrap();
            assert_eq!(lineup.names(), ["random", "random"]);
            let whole = lineup.play(0..300, 9, DEFAULT_TURN_CAP).unwrap();
            assert_eq!(whole.by_side, expected, "{}", info.id);
            let mut parts = lineup.play(100..300, 9, DEFAULT_TURN_CAP).unwrap();
            parts.merge(&lineup.play(0..100, 9, DEFAULT_TURN_CAP).unwrap());
            assert_eq!(parts, whole, "{}", info.id);
            let decided = expected.wins(Side::Black) + expected.wins(Side::White);
            assert_eq!(whole.player_wins.iter().sum::<u64>(), decided);
        }
    }

    /// The general loop with two random players plays the very games of `random_playout`,
    /// which is what lets `play` take the fast path for them.
    struct GeneralLoop;
    impl RulesetVisitor for GeneralLoop {
        type Output = ();
        fn visit<R: Registered>(self, rules: &R) {
            let mut players = [TypedPlayer::Random, TypedPlayer::Random];
            let mut moves = MoveList::new();
            for index in 0..200 {
                let mut rng = rng::seeded(4, index);
                let general =
                    play_game(rules, &mut players, seats(index), &mut rng, &mut moves, 500);
                let mut rng = rng::seeded(4, index);
                let mut state = rules.initial_state();
                let fast = random_playout(rules, &mut state, &mut rng, &mut moves, 500);
                assert_eq!(general, fast, "{} game {index}", R::ID);
            }
        }
    }

    #[test]
    fn the_general_loop_with_random_players_is_random_playout() {
        for info in RULESETS {
            AnyRuleset::parse(info.id).unwrap().visit(GeneralLoop);
        }
    }

    #[test]
    fn refusals_come_when_the_lineup_is_made() {
        let bell = AnyRuleset::parse("bell").unwrap();
        assert!(Lineup::new(&bell, [PlayerSpec::Perfect(1), PlayerSpec::Random], None).is_err());
        let regency = AnyRuleset::parse("regency").unwrap();
        let tables = regency
            .solve_endgame(1, &senet_ai::endgame::SolveOptions::default())
            .unwrap();
        let other = AnyRuleset::parse("regency(house_of_water=true)").unwrap();
        let specs = [PlayerSpec::Perfect(1), PlayerSpec::Random];
        assert!(Lineup::new(&other, specs, Some(tables.clone())).is_err());
        let specs = [PlayerSpec::Perfect(1), PlayerSpec::Greedy];
        let lineup = Lineup::new(&regency, specs, Some(tables)).unwrap();
        assert_eq!(lineup.names(), ["perfect:1", "greedy"]);
    }

    #[test]
    fn seats_alternate() {
        assert_eq!(seats(0), [0, 1]);
        assert_eq!(seats(1), [1, 0]);
        assert_eq!(seats(10), [0, 1]);
    }

    #[test]
    fn bucket_widths_are_round_and_cover_the_range() {
        assert_eq!(bucket_width(0), 1);
        assert_eq!(bucket_width(19), 1);
        assert_eq!(bucket_width(20), 2);
        assert_eq!(bucket_width(150), 10);
        assert_eq!(bucket_width(1_000_000), 51_000);
        for max in [0, 7, 99, 433, 10_000] {
            assert!(bucket_width(max) * 21 > max, "{max}");
        }
    }
}
