//! Every computer player of `senet-ai` plays every registered ruleset, under every option
//! value: on decision points from random games it lists exactly the legal moves and chooses
//! one of them, and a whole game between two players ends by the rules. Rulesets added to
//! the registry are covered automatically.

use rand_chacha::ChaCha8Rng;
use rand_core::SeedableRng;
use senet::conformance::sample_states;
use senet::registry::{AnyRuleset, RULESETS, RulesetVisitor};
use senet::{DEFAULT_TURN_CAP, Phase, Ruleset, ThrowingDevice, TurnCounter};
use senet_ai::{Player, PlayerSpec};

const PLAYERS: [&str; 5] = [
    "random",
    "greedy",
    "expectiminimax:2",
    "expectiminimax:nodes=2000",
    "mcts:30",
];

struct PlayEveryPlayer;

impl RulesetVisitor for PlayEveryPlayer {
    type Output = Result<(), String>;

    fn visit<R: Ruleset>(self, rules: &R) -> Result<(), String> {
        let spec = rules.spec();
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        let mut players: Vec<Box<dyn Player<R>>> = PLAYERS
            .iter()
            .map(|name| name.parse::<PlayerSpec>().and_then(|p| p.build(rules)))
            .collect::<Result<_, _>>()
            .map_err(|e| format!("{spec}: {e}"))?;
        let states = sample_states(rules, &mut rng, 40, DEFAULT_TURN_CAP, |p| {
            matches!(p, Phase::Move(_))
        });
        for state in &states {
            let position = rules.position_string(state);
            let legal = rules.legal_moves(state);
            for player in &mut players {
                let name = player.name();
                let analysis = player
                    .analyse(rules, state, &mut rng)
                    .map_err(|e| format!("{spec} {name} {position}: {e}"))?;
                if analysis.moves().len() != legal.len()
                    || analysis.moves().iter().any(|m| !legal.contains(&m.mv))
                {
                    return Err(format!("{spec} {name} {position}: lists other moves"));
                }
                let mut next = *state;
                rules
                    .try_play(&mut next, analysis.chosen())
                    .map_err(|e| format!("{spec} {name} {position}: {e}"))?;
            }
        }
        // A whole game: expectiminimax:2 (Black) against mcts:30 (White).
        let mut state = rules.initial_state();
        let mut turns = TurnCounter::default();
        let device = rules.device();
        loop {
            let phase = rules.phase(&state);
            if let Some(side) = phase.side()
                && turns.observe(side)
                && turns.turns() > DEFAULT_TURN_CAP
            {
                return Err(format!("{spec}: the game did not end"));
            }
            match phase {
                Phase::Over(_) => return Ok(()),
                Phase::Throw(_) => rules.throw_unchecked(&mut state, device.sample(&mut rng)),
                Phase::Move(side) => {
                    let player = &mut players[if side.index() == 0 { 2 } else { 4 }];
                    let mv = player
                        .choose(rules, &state, &mut rng)
                        .map_err(|e| format!("{spec}: {e}"))?;
                    rules
                        .try_play(&mut state, mv)
                        .map_err(|e| format!("{spec}: {e}"))?;
                }
            }
        }
    }
}

#[test]
fn every_player_plays_every_ruleset_under_every_option() {
    for info in RULESETS {
        let variants = info.options.iter().flat_map(|option| {
            option
                .values
                .iter()
                .skip(1)
                .map(move |value| format!("{}({}={value})", info.id, option.name))
        });
        for text in core::iter::once(info.id.to_string()).chain(variants) {
            let rules = AnyRuleset::parse(&text).unwrap();
            rules.visit(PlayEveryPlayer).unwrap();
        }
    }
}

/// Bell's captures take a piece out of the game for good (`Ruleset::captured`); the players
/// count such a piece as sent back the whole way (31 pips), never as borne off.
#[test]
fn players_treat_a_piece_captured_in_bell_as_lost_not_as_borne_off() {
    use senet::{Bell, Side};
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
