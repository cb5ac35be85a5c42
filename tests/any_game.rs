//! `AnyGame` is the typed `Game<R>` behind one type: for every registered configuration, the
//! same seeded games (step by step and through `play_random`), the same records, the same
//! refusals, and records that load back as the same game.

mod common;

use rand_chacha::ChaCha8Rng;
use rand_core::SeedableRng;
use senet::Throw;
use senet::registry::{AnyRuleset, Registered, RulesetVisitor};
use senet::{
    Action, AnyGame, Game, Move, Phase, PlayError, RecordError, Side, ThrowingDevice, uniform_below,
};

/// Plays the same seeded game with the typed game and with `AnyGame`, comparing them after
/// every action, then undoes the last actions of both.
struct SameGames {
    rules: AnyRuleset,
    seed: u64,
}

const ACTIONS: usize = 400;

impl RulesetVisitor for SameGames {
    type Output = ();

    fn visit<R: Registered>(self, rules: &R) {
        let label = format!("{} seed {}", self.rules, self.seed);
        let mut typed = Game::new(rules.clone());
        let mut any = AnyGame::new(self.rules.clone());
        let mut typed_rng = ChaCha8Rng::seed_from_u64(self.seed);
        let mut any_rng = ChaCha8Rng::seed_from_u64(self.seed);
        for _ in 0..ACTIONS {
            assert_eq!(any.phase(), typed.phase(), "{label}");
            assert_eq!(any.position(), typed.position(), "{label}");
            assert_eq!(any.board(), typed.board(), "{label}");
            assert_eq!(any.legal_moves(), typed.legal_moves(), "{label}");
            for side in [Side::Black, Side::White] {
                assert_eq!(
                    any.captured(side),
                    rules.captured(typed.state(), side),
                    "{label}"
                );
            }
            match typed.phase() {
                Phase::Over(_) => break,
                Phase::Throw(_) => {
                    assert_eq!(
                        any.throw_random(&mut any_rng),
                        typed.throw_random(&mut typed_rng),
                        "{label}"
                    );
                }
                Phase::Move(_) => {
                    let moves = typed.legal_moves();
                    let pick = uniform_below(&mut typed_rng, moves.len() as u32) as usize;
                    assert_eq!(
                        uniform_below(&mut any_rng, moves.len() as u32) as usize,
                        pick
                    );
                    let mv = moves[pick];
                    assert_eq!(any.position_after(mv), {
                        let mut after = typed.clone();
                        after.play(mv).map(|()| after.position())
                    });
                    assert_eq!(any.play(mv), typed.play(mv), "{label}");
                }
            }
        }
        assert_eq!(any.outcome(), typed.outcome(), "{label}");
        assert_eq!(any.history(), typed.history(), "{label}");
        assert_eq!(
            (any.turns(), any.decisions()),
            (typed.turns(), typed.decisions())
        );
        assert_eq!(any.record(), typed.record(), "{label}");
        for _ in 0..5 {
            assert_eq!(any.undo(), typed.undo(), "{label}");
            assert_eq!(any.position(), typed.position(), "{label}");
        }
        assert_eq!(any.record(), typed.record(), "{label}");
    }
}

#[test]
fn any_game_plays_the_same_seeded_games_as_the_typed_game() {
    for rules in common::configurations() {
        for seed in 0..3 {
            rules.visit(SameGames {
                rules: rules.clone(),
                seed,
            });
        }
    }
}

/// `play_random` draws from the RNG as the typed game does and stops at the same turn cap.
struct SameRandomGames {
    rules: AnyRuleset,
}

impl RulesetVisitor for SameRandomGames {
    type Output = ();

    fn visit<R: Registered>(self, rules: &R) {
        for (seed, cap) in [(1, 5), (2, 40), (3, senet::DEFAULT_TURN_CAP)] {
            let mut typed = Game::new(rules.clone());
            let mut any = AnyGame::new(self.rules.clone());
            typed.set_seed(Some(seed));
            any.set_seed(Some(seed));
            let typed_end = typed.play_random(&mut ChaCha8Rng::seed_from_u64(seed), cap);
            let any_end = any.play_random(&mut ChaCha8Rng::seed_from_u64(seed), cap);
            assert_eq!(any_end, typed_end, "{} seed {seed}", self.rules);
            assert_eq!(any.record(), typed.record(), "{} seed {seed}", self.rules);
            let text = typed.record().to_string();
            assert_eq!(any.record_text(), text);
            assert_eq!(AnyGame::from_record_text(&text).unwrap(), any);
            assert_eq!(AnyGame::from_record(&typed.record()).unwrap(), any);
            assert_eq!(any.throw_outcomes(), rules.device().outcomes());
            assert_eq!(any.pieces_per_side(), rules.pieces_per_side());
            assert_eq!(*any.rules(), self.rules);
        }
    }
}

#[test]
fn any_game_plays_random_games_and_records_them_as_the_typed_game() {
    for rules in common::configurations() {
        rules.visit(SameRandomGames {
            rules: rules.clone(),
        });
    }
}

/// A game from a position: the same start, the same record (with its `start` line).
struct SameStart {
    rules: AnyRuleset,
}

impl RulesetVisitor for SameStart {
    type Output = ();

    fn visit<R: Registered>(self, rules: &R) {
        let mut typed = Game::new(rules.clone());
        typed.play_random(&mut ChaCha8Rng::seed_from_u64(9), 8);
        let position = typed.position();
        let typed = Game::from_position(rules.clone(), &position).unwrap();
        let any = AnyGame::from_position(self.rules.clone(), &position).unwrap();
        assert_eq!(any.start_position(), position);
        assert_eq!(any.record(), typed.record(), "{}", self.rules);
        assert_eq!(
            AnyGame::from_position(self.rules.clone(), "not a position").unwrap_err(),
            Game::from_position(rules.clone(), "not a position").unwrap_err()
        );
    }
}

#[test]
fn any_game_starts_from_a_position_as_the_typed_game() {
    for rules in common::configurations() {
        rules.visit(SameStart {
            rules: rules.clone(),
        });
    }
}

#[test]
fn a_typed_game_converts_into_the_same_any_game() {
    let mut typed = Game::new(senet::Kendall::default());
    typed.play_random(&mut ChaCha8Rng::seed_from_u64(5), 30);
    let any = AnyGame::from(typed.clone());
    assert_eq!(any.record(), typed.record());
    assert_eq!(AnyGame::from_record(&typed.record()).unwrap(), any);
}

#[test]
fn refusals_are_the_typed_errors_and_change_nothing() {
    let mut game = AnyGame::new(AnyRuleset::parse("regency").unwrap());
    let before = game.clone();
    let mv: Move = "9-12".parse().unwrap();
    assert_eq!(game.play(mv), Err(PlayError::ThrowExpected(Side::Black)));
    assert_eq!(
        game.throw(Throw::at(5)),
        Err(PlayError::ImpossibleThrow(Throw::at(5)))
    );
    assert_eq!(
        game.position_after(mv),
        Err(PlayError::ThrowExpected(Side::Black))
    );
    assert_eq!(game.undo(), None);
    assert_eq!(game, before);
    game.throw(Throw::at(3)).unwrap();
    assert!(matches!(
        game.throw(Throw::at(3)),
        Err(PlayError::MoveExpected(Side::Black))
    ));
    assert!(matches!(
        game.apply(Action::Move("1-2".parse().unwrap())),
        Err(PlayError::IllegalMove { .. })
    ));
}

#[test]
fn records_that_do_not_load_are_the_typed_errors() {
    let error = AnyGame::from_record_text("rules chess\n").unwrap_err();
    assert!(error.to_string().starts_with("line 1: "), "{error}");
    assert!(matches!(
        AnyGame::from_record(&"rules chess\n".parse().unwrap()),
        Err(RecordError::Spec(_))
    ));
    let error = AnyGame::from_record_text("rules regency\nthrow 3\nthrow 3\n").unwrap_err();
    assert!(error.to_string().contains("line 3"), "{error}");
    let mut record = AnyGame::new(AnyRuleset::parse("kendall").unwrap()).record();
    record.revision = Some(u32::MAX);
    assert!(matches!(
        AnyGame::from_record(&record),
        Err(RecordError::Revision { id: "kendall", .. })
    ));
}

#[test]
fn any_game_serialises_as_its_record() {
    let mut game = AnyGame::new(AnyRuleset::parse("piccione").unwrap());
    game.play_random(&mut ChaCha8Rng::seed_from_u64(4), 10);
    let json = serde_json::to_string(&game).unwrap();
    assert_eq!(json, serde_json::to_string(&game.record()).unwrap());
    assert_eq!(serde_json::from_str::<AnyGame>(&json).unwrap(), game);
}

/// `peek_after` shows each legal move's result exactly as playing it would, and leaves the
/// game as it was, counters included.
#[test]
fn peek_after_shows_each_move_played_and_changes_nothing() {
    for rules in common::configurations() {
        let mut game = AnyGame::new(rules.clone());
        let mut rng = ChaCha8Rng::seed_from_u64(5);
        let mut peeked = 0;
        for _ in 0..600 {
            match game.phase() {
                Phase::Over(_) => break,
                Phase::Throw(_) => {
                    game.throw_random(&mut rng).unwrap();
                }
                Phase::Move(_) => {
                    let before = game.clone();
                    let (turns, decisions) = (game.turns(), game.decisions());
                    let legal = game.legal_moves();
                    for &mv in legal.iter() {
                        let mut played = before.clone();
                        played.play(mv).unwrap();
                        let mut seen = None;
                        game.peek_after(mv, &mut |after| {
                            seen = Some((
                                after.position(),
                                after.phase(),
                                after.history().len(),
                                after.turns(),
                                after.decisions(),
                            ));
                        })
                        .unwrap();
                        let expected = (
                            played.position(),
                            played.phase(),
                            played.history().len(),
                            played.turns(),
                            played.decisions(),
                        );
                        assert_eq!(seen, Some(expected), "{rules} {mv}");
                        assert_eq!(game, before, "{rules} {mv}");
                        assert_eq!((game.turns(), game.decisions()), (turns, decisions));
                        peeked += 1;
                    }
                    let pick = senet::uniform_below(&mut rng, legal.len() as u32) as usize;
                    game.play(legal[pick]).unwrap();
                }
            }
        }
        assert!(peeked > 20, "{rules}: only {peeked} moves peeked at");
        // A refused move is refused by peek_after too, without calling the closure.
        let mut called = false;
        let refused = game.peek_after("1-2".parse().unwrap(), &mut |_| called = true);
        if !game.legal_moves().iter().any(|m| m.to_string() == "1-2") {
            assert!(refused.is_err() && !called, "{rules}");
        }
    }
}

/// `generate_moves` writes exactly `legal_moves` into a list that held other moves, in every
/// phase (an empty list outside the move phase).
#[test]
fn generate_moves_replaces_the_list_with_the_legal_moves() {
    for rules in common::configurations() {
        let mut game = AnyGame::new(rules.clone());
        let mut rng = ChaCha8Rng::seed_from_u64(9);
        let mut list = senet::MoveList::new();
        let mut moves_seen = 0;
        for _ in 0..400 {
            game.generate_moves(&mut list);
            assert_eq!(list, game.legal_moves(), "{rules}");
            match game.phase() {
                Phase::Over(_) => break,
                Phase::Throw(_) => {
                    assert!(list.is_empty(), "{rules}");
                    game.throw_random(&mut rng).unwrap();
                }
                Phase::Move(_) => {
                    moves_seen += list.len();
                    let pick = uniform_below(&mut rng, list.len() as u32) as usize;
                    game.play(list[pick]).unwrap();
                }
            }
        }
        assert!(moves_seen > 50, "{rules}: only {moves_seen} moves listed");
    }
}
