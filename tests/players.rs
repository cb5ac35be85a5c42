//! Every computer player of `senet-ai` plays every registered ruleset, under every option
//! value: on decision points from random games it lists exactly the legal moves and chooses
//! one of them, and a whole game between two players ends by the rules. Rulesets added to
//! the registry are covered automatically.

use rand_chacha::ChaCha8Rng;
use rand_core::SeedableRng;
use senet::Throw;
use senet::registry::{AnyRuleset, RULESETS};
use senet::{AnyGame, AnyPlayer, DEFAULT_TURN_CAP, Phase, uniform_below};
use senet::{Coverage, option_specs};
use senet_ai::Player;

const PLAYERS: [&str; 5] = [
    "random",
    "greedy",
    "expectiminimax:2",
    "expectiminimax:nodes=2000",
    "mcts:30",
];

/// Decision points checked per configuration, and one decision in how many is checked.
const DECISIONS: usize = 40;
const EVERY: u32 = 5;

fn play_every_player(rules: &AnyRuleset) -> Result<(), String> {
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    let mut players = PLAYERS
        .iter()
        .map(|name| AnyPlayer::parse(name, rules))
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| format!("{rules}: {e}"))?;
    // Decision points from random games.
    let mut game = AnyGame::new(rules.clone());
    let mut checked = 0;
    while checked < DECISIONS {
        if game.outcome().is_some() || game.turns() > DEFAULT_TURN_CAP {
            game = AnyGame::new(rules.clone());
        }
        if let Phase::Throw(_) = game.phase() {
            game.throw_random(&mut rng)
                .map_err(|e| format!("{rules}: {e}"))?;
            continue;
        }
        let legal = game.legal_moves();
        if game.decisions().is_multiple_of(EVERY) {
            let position = game.position();
            for player in &mut players {
                let name = player.name();
                let analysis = player
                    .analyse(&game, &mut rng)
                    .map_err(|e| format!("{rules} {name} {position}: {e}"))?;
                if analysis.moves().len() != legal.len()
                    || analysis.moves().iter().any(|m| !legal.contains(&m.mv))
                {
                    return Err(format!("{rules} {name} {position}: lists other moves"));
                }
                game.position_after(analysis.chosen())
                    .map_err(|e| format!("{rules} {name} {position}: {e}"))?;
            }
            checked += 1;
        }
        let pick = uniform_below(&mut rng, legal.len() as u32) as usize;
        game.play(legal[pick])
            .map_err(|e| format!("{rules}: {e}"))?;
    }
    // A whole game: expectiminimax:2 (Black) against mcts:30 (White).
    let mut game = AnyGame::new(rules.clone());
    loop {
        if game.turns() > DEFAULT_TURN_CAP {
            return Err(format!("{rules}: the game did not end"));
        }
        match game.phase() {
            Phase::Over(_) => return Ok(()),
            Phase::Throw(_) => {
                game.throw_random(&mut rng)
                    .map_err(|e| format!("{rules}: {e}"))?;
            }
            Phase::Move(side) => {
                let player = &mut players[if side.index() == 0 { 2 } else { 4 }];
                let mv = player
                    .choose(&game, &mut rng)
                    .map_err(|e| format!("{rules}: {e}"))?;
                game.play(mv).map_err(|e| format!("{rules}: {e}"))?;
            }
        }
    }
}

#[test]
fn every_player_plays_every_ruleset_under_every_option() {
    for info in RULESETS {
        for spec in option_specs(info.id, info.options, Coverage::EachAlone) {
            play_every_player(&AnyRuleset::from_spec(&spec).unwrap()).unwrap();
        }
    }
}

/// A player made for one configuration refuses a game of another, and a decision that is
/// not due, with typed errors.
#[test]
fn a_player_refuses_games_it_was_not_made_for() {
    let regency = AnyRuleset::parse("regency").unwrap();
    let water = AnyRuleset::parse("regency(house_of_water=true)").unwrap();
    let mut player = AnyPlayer::parse("greedy", &regency).unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(0);
    for other in [water, AnyRuleset::parse("bell").unwrap()] {
        let mut game = AnyGame::new(other);
        game.throw(Throw::at(1)).unwrap();
        assert!(matches!(
            player.choose(&game, &mut rng),
            Err(senet_ai::PlayerError::OtherRules { .. })
        ));
    }
    let game = AnyGame::new(regency);
    assert!(matches!(
        player.analyse(&game, &mut rng),
        Err(senet_ai::PlayerError::NotADecision(Phase::Throw(_)))
    ));
}

/// A perfect player from a table file plays the moves of one solved on the spot.
#[test]
fn a_perfect_player_reads_its_tables_from_a_file() {
    use senet_ai::endgame::{SolveOptions, ValueEncoding};
    let rules = AnyRuleset::parse("regency").unwrap();
    let (bytes, _) = rules
        .solve_endgame_file(1, &SolveOptions::default(), ValueEncoding::U32)
        .unwrap();
    let spec = "perfect:1".parse().unwrap();
    let mut from_file = AnyPlayer::with_table_file(&spec, &rules, &bytes).unwrap();
    let mut solved = AnyPlayer::new(&spec, &rules).unwrap();
    let bell = AnyRuleset::parse("bell").unwrap();
    assert!(AnyPlayer::with_table_file(&spec, &bell, &bytes).is_err());
    let mut game = AnyGame::from_position(rules, &format!("{}WB. b", ".".repeat(27))).unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(0);
    game.throw(Throw::at(2)).unwrap();
    assert_eq!(
        from_file.analyse(&game, &mut rng).unwrap(),
        solved.analyse(&game, &mut rng).unwrap()
    );
}

/// Bell's captures take a piece out of the game for good (`Ruleset::captured`); the players
/// count such a piece as sent back the whole way (31 pips), never as borne off.
#[test]
fn players_treat_a_piece_captured_in_bell_as_lost_not_as_borne_off() {
    use senet::{Bell, Ruleset, Side};
    use senet_ai::{Evaluator, Greedy, RaceEvaluator};
    let rules = Bell::default();
    // Black to move with a 2: 18-20 captures White's piece on 20, 21-23 does not.
    let board: String = (1..=30)
        .map(|sq| match sq {
            18 | 21 => 'B',
            20 | 25 => 'W',
            _ => '.',
        })
        .collect();
    let state = rules.parse_position(&format!("{board} b throw=2")).unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(0);
    let chosen = Greedy::new().choose(&rules, &state, &mut rng).unwrap();
    assert_eq!(chosen.to_string(), "18-20");
    // The same position with one more White piece captured is worse for White, not better.
    let evaluator = RaceEvaluator::default();
    let fewer = rules.parse_position(&format!("{board} w")).unwrap();
    let more = rules
        .parse_position(&format!("{board} w captured_w=1"))
        .unwrap();
    assert!(
        evaluator.evaluate(&rules, &more, Side::White)
            < evaluator.evaluate(&rules, &fewer, Side::White)
    );
}
