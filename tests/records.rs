//! Game records in JSON (serde): every registered ruleset's games serialise, load back identically, and a
//! record that does not replay is refused with an error naming the first bad action.

use rand_chacha::ChaCha8Rng;
use rand_core::SeedableRng;
use senet::Throw;
use senet::registry::{AnyRuleset, RULESETS};
use senet::{Action, AnyGame, Game, GameRecord, PlayoutEnd, RecordError};

fn round_trip(rules: &AnyRuleset, seed: u64) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut game = AnyGame::new(rules.clone());
    game.set_seed(Some(seed));
    let end = game.play_random(&mut rng, senet::DEFAULT_TURN_CAP);
    assert!(matches!(end, PlayoutEnd::Finished(_)), "{rules}");

    // JSON round trip through serde: the loaded game is the same game.
    let json = serde_json::to_string(&game).unwrap();
    let loaded: AnyGame = serde_json::from_str(&json).unwrap();
    assert_eq!(loaded, game);
    assert_eq!(loaded.outcome(), game.outcome());

    // A record cut in the middle resumes to the same state as the original at that point.
    let record = game.record();
    let half = record.actions.len() / 2;
    let mut prefix = record.clone();
    prefix.actions.truncate(half);
    let resumed = AnyGame::from_record(&prefix).unwrap();
    let mut replay = AnyGame::new(rules.clone());
    for action in &record.actions[..half] {
        replay.apply(*action).unwrap();
    }
    assert_eq!(resumed.position(), replay.position());

    // Tampering: a move that cannot be played at that point is refused, naming it.
    let index = record
        .actions
        .iter()
        .position(|a| matches!(a, Action::Move(_)))
        .unwrap();
    let mut tampered = record.clone();
    tampered.actions[index] = Action::Throw(Throw::at(1));
    match AnyGame::from_record(&tampered) {
        Err(RecordError::Replay { index: bad, .. }) => assert_eq!(bad, index),
        other => panic!("{rules}: tampered record gave {other:?}"),
    }
    let mut tampered_json: serde_json::Value = serde_json::from_str(&json).unwrap();
    tampered_json["actions"][index] = serde_json::json!({"move": "1-2"});
    let text = tampered_json.to_string();
    match serde_json::from_str::<AnyGame>(&text) {
        Err(e) => assert!(e.to_string().contains("does not replay"), "{e}"),
        // 1-2 happened to be legal there; then the game must still be consistent.
        Ok(game) => assert!(AnyGame::from_position(rules.clone(), &game.position()).is_ok()),
    }
}

#[test]
fn records_round_trip_and_bad_records_are_refused() {
    for info in RULESETS {
        let rules = AnyRuleset::parse(info.id).unwrap();
        for seed in 0..5 {
            round_trip(&rules, seed);
        }
    }
}

/// The typed game serialises as its record too, and loads back by replaying it.
#[test]
fn the_typed_game_serialises_as_its_record() {
    let mut game = Game::new(senet::Regency::default());
    game.play_random(&mut ChaCha8Rng::seed_from_u64(8), senet::DEFAULT_TURN_CAP);
    let json = serde_json::to_string(&game).unwrap();
    assert_eq!(json, serde_json::to_string(&game.record()).unwrap());
    assert_eq!(
        serde_json::from_str::<Game<senet::Regency>>(&json).unwrap(),
        game
    );
    assert!(
        serde_json::from_str::<Game<senet::Regency>>(r#"{"rules":"bell","actions":[]}"#).is_err()
    );
}

#[test]
fn corrupted_json_is_a_typed_error() {
    for bad in [
        "",
        "{}",
        r#"{"rules":"regency"}"#,
        r#"{"rules":"chess","actions":[]}"#,
        r#"{"rules":"regency(house_of_water=maybe)","actions":[]}"#,
        r#"{"rules":"regency","actions":[{"throw":5}]}"#,
        r#"{"rules":"regency","actions":[{"move":"9-"}]}"#,
        r#"{"rules":"regency","actions":[{"jump":3}]}"#,
        r#"{"rules":"regency","start":"nonsense","actions":[]}"#,
        r#"{"rules":"regency","seed":-1,"actions":[]}"#,
    ] {
        assert!(
            serde_json::from_str::<AnyGame>(bad).is_err(),
            "{bad:?} was accepted"
        );
    }
    let ok: GameRecord =
        serde_json::from_str(r#"{"rules":"regency","actions":[{"throw":2}]}"#).unwrap();
    assert!(Game::<senet::Regency>::from_record(&ok).is_ok());
}
