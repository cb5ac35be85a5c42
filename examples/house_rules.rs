//! House rules: a ruleset of your own in one file, registered nowhere, played by the generic
//! computer players, simulated, and checked by the testkit's conformance suite.
//!
//! ```text
//! cargo run --release --example house_rules
//! cargo run --release --example house_rules -- --games 2000 --checks 50
//! ```
//!
//! *Sprint* is a short Senet for a quick game at home:
//!
//! - H-1: three pieces a side, White on 1, 3, 5 and Black on 2, 4, 6; Black throws first.
//! - H-2: four sticks; the throw is the number of marked sides up, and none up counts 5.
//! - H-3: a piece moves exactly the throw forward; one that would pass square 30 is borne off
//!   (option `exact_exit`: only with exactly the throw that takes it to 31).
//! - H-4: no piece lands on one of its own; landing on a lone opposing piece swaps the two,
//!   while a piece with a neighbour of its own side is safe.
//! - H-5: 1, 4 and 5 throw again, 2 and 3 end the turn; a throw with no legal move is lost and
//!   ends the turn (option `lost_throw_keeps_extra`: a lost 1, 4 or 5 still throws again).
//! - H-6: the first side to bear off its three pieces wins and scores the opposing pieces still
//!   on the board.
//!
//! Everything generic works on it unchanged: `Game`, records, perft, `random_playout`, every
//! `senet::ai` player, and the property suite of `senet-testkit` that the seven registered
//! rulesets pass.

use std::error::Error;

use clap::Parser;
use senet::Throw;
use senet::ai::{Budget, Expectiminimax, Greedy, Mcts, Player, RandomPlayer};
use senet::perft::Perft;
use senet::rng;
use senet::stats::SimulationSummary;
use senet::{
    BitBoard, FieldInfo, Game, Move, MoveList, Outcome, PerSide, Phase, PositionError, Ruleset,
    SeatRule, Setup, Side, SquareSet, Sticks, ThrowingDevice, TurnState, kernel,
    option_combinations, random_playout, ruleset_options,
};
use senet_testkit::conformance::arbitrary_action;
use senet_testkit::properties::{self, Suite};

/// Pieces a side (H-1).
const PIECES: u8 = 3;

ruleset_options! {
    /// Sprint, a short house variant of Senet (see the example's documentation).
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
    pub struct Sprint {
        /// a piece leaves only with exactly the throw that takes it to 31
        pub exact_exit: bool = false, rules "H-3", with_exact_exit;
        /// a lost 1, 4 or 5 still gives another throw
        pub lost_throw_keeps_extra: bool = false, rules "H-5", with_lost_throw_keeps_extra;
    }
}

impl Sprint {
    /// The squares the side to move may move from with throw `t`, every rule applied.
    fn origins(&self, board: &BitBoard, me: Side, t: u8) -> SquareSet {
        let own = board.pieces_of(me);
        let theirs = board.pieces_of(me.opponent());
        // H-4: an empty square, or a lone opposing piece.
        let landing = board.empty_squares() | (theirs & !theirs.with_neighbour());
        // H-3: exactly t forward; past 30 the piece leaves (shifted-out landings drop out).
        let leaving = if self.exact_exit {
            SquareSet::range(31 - t, 31 - t)
        } else {
            SquareSet::range(31 - t, 30)
        };
        own & (landing.backward(t) | leaving)
    }

    /// H-6: the winner, once one side has borne off every piece.
    fn outcome(board: &BitBoard) -> Option<Outcome> {
        let winner = board.side_with_all_off(PIECES)?;
        let left = board.on_board(winner.opponent());
        Some(Outcome {
            winner: Some(winner),
            points: PerSide::only(winner, i32::from(left)),
        })
    }
}

const FIELDS: &[FieldInfo] = &[FieldInfo::pending_throw(
    "1 to 5",
    "the throw the side to act has made and must now use (H-2)",
)];

impl Ruleset for Sprint {
    type State = TurnState;
    type Device = Sticks;

    const ID: &'static str = "sprint";
    const NAME: &'static str = "Sprint (house rules)";
    const RULES_REVISION: u32 = 1;
    const FIELD_INFO: &'static [FieldInfo] = FIELDS;
    const SEAT_RULE: SeatRule = SeatRule::FirstToThrowOne;

    senet::forward_ruleset_options!();

    fn device(&self) -> Sticks {
        Sticks::ZERO_IS_FIVE
    }

    fn pieces_per_side(&self) -> u8 {
        PIECES
    }

    fn initial_state(&self) -> TurnState {
        TurnState::new(BitBoard::alternating(PIECES), Side::Black, ())
    }

    fn board<'s>(&self, state: &'s TurnState) -> &'s BitBoard {
        &state.board
    }

    fn throw_unchecked(&self, state: &mut TurnState, value: Throw) {
        state.throw_unchecked(value);
    }

    fn phase(&self, state: &TurnState) -> Phase {
        match Sprint::outcome(&state.board) {
            Some(outcome) => Phase::Over(outcome),
            None => state.phase(),
        }
    }

    fn generate_moves(&self, state: &TurnState, moves: &mut MoveList) {
        let t = match state.throw {
            Some(t) if t.get() <= 5 && Sprint::outcome(&state.board).is_none() => t.get(),
            _ => {
                moves.clear();
                return;
            }
        };
        let origins = self.origins(&state.board, state.to_move, t);
        // One move per origin, or a lone pass; 31 stands for "off" (H-3).
        kernel::assign_one_per_origin::<{ PIECES as usize }>(moves, origins, |from| {
            Move::from_codes_unchecked(from, from.wrapping_add(t).min(31))
        });
    }

    fn play_unchecked(&self, state: &mut TurnState, mv: Move) {
        let me = state.to_move;
        let t = state.take_throw().map_or(0, Throw::get);
        if !mv.is_pass() {
            let [from, to] = mv.step_codes(0);
            let board = &mut state.board;
            let mut own = board.pieces_of(me).bits() & !(1u32 << (from & 31));
            let mut theirs = board.pieces_of(me.opponent()).bits();
            if to >= 31 {
                board.set_off(me, board.off_count(me).saturating_add(1));
            } else {
                let target = 1u32 << to;
                if theirs & target != 0 {
                    // H-4: the attacked piece takes the attacker's square.
                    theirs = theirs & !target | 1u32 << (from & 31);
                }
                own |= target;
            }
            board.replace_pieces(
                me,
                SquareSet::from_bits_truncate(own),
                SquareSet::from_bits_truncate(theirs),
            );
        }
        // H-5: 1, 4 and 5 throw again; a lost throw ends the turn unless the option says not.
        let again = matches!(t, 1 | 4 | 5) && (!mv.is_pass() || self.lost_throw_keeps_extra);
        if !again {
            state.to_move = me.opponent();
        }
    }

    fn validate(&self, state: &TurnState) -> Result<(), PositionError> {
        state.board.check_pieces(PIECES)?;
        let over = Sprint::outcome(&state.board).is_some();
        state.check_throw(&self.device(), over, "the sticks show 1 to 5 (H-2)")
    }

    fn to_setup(&self, state: &TurnState) -> Setup {
        state.to_setup()
    }

    fn read_setup(&self, setup: &Setup) -> Result<TurnState, PositionError> {
        setup.check_fields(Self::FIELD_INFO)?;
        // Pieces not on the board have been borne off.
        let board = setup.board_with_rest_off(PIECES)?;
        self.validated(TurnState::read_setup(setup, board, 5)?)
    }
}

#[derive(Parser, Debug)]
#[command(about = "A house ruleset defined in one file, played, simulated and checked")]
struct Args {
    /// Random games to simulate per configuration.
    #[arg(long, default_value_t = 20_000, value_parser = clap::value_parser!(u64).range(1..=10_000_000))]
    games: u64,
    /// Seeded games the conformance suite plays per configuration and property.
    #[arg(long, default_value_t = 200, value_parser = clap::value_parser!(u64).range(1..=100_000))]
    checks: u64,
    /// Games of each computer player against the random player.
    #[arg(long, default_value_t = 100, value_parser = clap::value_parser!(u64).range(1..=100_000))]
    matches: u64,
}

/// Runs the testkit's property suite on `rules` with seeds `0..checks`: every decision point
/// keeps the invariants, random games end and replay from their records, and refused input
/// leaves a game unchanged.
fn conformance(rules: &Sprint, checks: u64) -> Result<(), Box<dyn Error>> {
    let suite = Suite::default();
    let junk = |seed: u64| {
        let texts = [
            "1-4", "2-7", "6-off", "30-off", "pass", "4-9,9-12", "x", "31-32",
        ];
        (0..24u64)
            .filter_map(|i| {
                let k = (seed.wrapping_mul(31) + i * 7) as usize;
                arbitrary_action(i % 3 == 0, (k % 8) as u8, texts[k % texts.len()])
            })
            .collect::<Vec<_>>()
    };
    for seed in 0..checks {
        properties::decision_points_keep_the_invariants(&suite, rules, seed)
            .and_then(|()| properties::random_games_end_and_replay(&suite, rules, seed))
            .and_then(|()| {
                properties::refused_actions_leave_the_game_unchanged(rules, seed, junk(seed))
            })
            .map_err(|e| format!("{} seed {seed}: {e}", rules.spec()))?;
    }
    Ok(())
}

/// `games` seeded random games, game `i` on ChaCha8 stream `i`.
fn simulate(rules: &Sprint, games: u64) -> SimulationSummary {
    let mut summary = SimulationSummary::default();
    let mut moves = MoveList::new();
    for index in 0..games {
        let mut rng = rng::seeded(1, index);
        let mut state = rules.initial_state();
        let playout = random_playout(rules, &mut state, &mut rng, &mut moves, 1_000);
        summary.add(&playout.end, playout.decisions, playout.turns);
    }
    summary
}

/// Plays `player` against the random player for `games` games, each side in turn; the share
/// of games `player` won.
fn match_share(
    rules: &Sprint,
    player: &mut dyn Player<Sprint>,
    games: u64,
) -> Result<f64, Box<dyn Error>> {
    let mut random = RandomPlayer::new();
    let mut won = 0u64;
    for index in 0..games {
        let mut rng = rng::seeded(2, index);
        let seat = senet::simulation::side_of_player_a(index);
        let mut game = Game::new(*rules);
        loop {
            match game.phase() {
                Phase::Over(outcome) => {
                    won += u64::from(outcome.winner == Some(seat));
                    break;
                }
                Phase::Throw(_) => {
                    let value = rules.device().sample(&mut rng);
                    game.throw(value)?;
                }
                Phase::Move(side) => {
                    let chooser: &mut dyn Player<Sprint> = if side == seat {
                        &mut *player
                    } else {
                        &mut random
                    };
                    let mv = chooser.choose(rules, game.state(), &mut rng)?;
                    game.play(mv)?;
                }
            }
        }
    }
    Ok(won as f64 / games as f64)
}

fn main() -> Result<(), Box<dyn Error>> {
    let args = Args::parse();
    for rules in option_combinations::<Sprint>()? {
        println!("{} ({})", rules.spec(), Sprint::NAME);

        conformance(&rules, args.checks)?;
        println!(
            "  conformance: {} seeds × 3 properties of senet-testkit pass",
            args.checks
        );

        let counts = Perft::new(6)?
            .run(&rules, &rules.initial_state())
            .iter()
            .map(|c| c.sequences.to_string())
            .collect::<Vec<_>>();
        println!("  perft from the start, depths 1-6: {}", counts.join(", "));

        let summary = simulate(&rules, args.games);
        let (black, (low, high)) = summary.win_rate(Side::Black);
        println!(
            "  {} random games: Black (first to throw) wins {:.1}% [{:.1}, {:.1}], {:.1} decisions a game",
            summary.games(),
            100.0 * black,
            100.0 * low,
            100.0 * high,
            summary.decisions.mean().unwrap_or(0.0),
        );

        let mut players: Vec<Box<dyn Player<Sprint>>> = vec![
            Box::new(Greedy::new()),
            Box::new(Expectiminimax::new(Budget::Depth(2))),
            Box::new(Mcts::new(200)),
        ];
        for player in &mut players {
            let share = match_share(&rules, player.as_mut(), args.matches)?;
            println!(
                "  {} against random: wins {:.0}% of {} games",
                player.name(),
                100.0 * share,
                args.matches
            );
        }
    }
    Ok(())
}
