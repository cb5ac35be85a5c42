//! The text form of game records, for every registered ruleset: random games written out,
//! read back and replayed; records that do not replay are refused at the right line.

use rand_chacha::ChaCha8Rng;
use rand_core::SeedableRng;
use senet::Throw;
use senet::registry::{AnyRuleset, RULESETS};
use senet::{Action, AnyGame, GameRecord, Phase, RecordError};

fn round_trip(rules: &AnyRuleset, seed: u64) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut game = AnyGame::new(rules.clone());
    game.set_seed(Some(seed));
    game.play_random(&mut rng, senet::DEFAULT_TURN_CAP);
    let record = game.record();
    let text = record.to_string();
    assert_eq!(text.parse::<GameRecord>().unwrap(), record, "{text}");
    let loaded = AnyGame::from_record_text(&text).unwrap();
    assert_eq!(loaded, game);

    // A game that starts from a later position records it on a `start` line.
    let mut middle = AnyGame::new(rules.clone());
    for action in &record.actions[..record.actions.len() / 2] {
        middle.apply(*action).unwrap();
    }
    let mut resumed = AnyGame::from_position(rules.clone(), &middle.position()).unwrap();
    resumed.play_random(&mut rng, senet::DEFAULT_TURN_CAP);
    let text = resumed.record().to_string();
    // rules, revision, start.
    assert!(text.lines().nth(2).unwrap().starts_with("start "), "{text}");
    assert_eq!(AnyGame::from_record_text(&text).unwrap(), resumed);
}

#[test]
fn random_games_of_every_ruleset_round_trip_through_the_text_form() {
    for info in RULESETS {
        let rules = AnyRuleset::parse(info.id).unwrap();
        for seed in 0..20 {
            round_trip(&rules, seed);
        }
    }
}

fn corrupt(rules: &AnyRuleset) {
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    let mut game = AnyGame::new(rules.clone());
    game.play_random(&mut rng, senet::DEFAULT_TURN_CAP);
    let record = game.record();
    // Swap the kind of the tenth action: a throw where a move is due, or the reverse.
    let index = 9;
    let mut replay = AnyGame::new(rules.clone());
    for action in &record.actions[..index] {
        replay.apply(*action).unwrap();
    }
    let wrong = match replay.phase() {
        Phase::Move(_) => Action::Throw(Throw::at(device_max(&replay))),
        _ => Action::Move(senet::Move::PASS),
    };
    let mut bad = record.clone();
    bad.actions[index] = wrong;
    // A comment and a blank line shift the actions down by two lines.
    let text = format!("# corrupted\n\n{bad}");
    // Header: rules (line 3) and revision (line 4), then the actions; the tenth action
    // is 9 lines after the first one.
    let first_action_line = 5;
    let err = AnyGame::from_record_text(&text).unwrap_err();
    match &err {
        RecordError::AtLine { line, source } => {
            assert_eq!(*line, first_action_line + index, "{err}");
            assert!(
                matches!(**source, RecordError::Replay { index: i, .. } if i == index),
                "{err}"
            );
        }
        other => panic!("expected a located replay error, got {other:?}"),
    }
    assert!(
        err.to_string().starts_with(&format!(
            "line {}: action {} ",
            first_action_line + index,
            index + 1
        )),
        "{err}"
    );

    // A record naming an option the ruleset lacks is refused at its `rules` line.
    let text = format!("\n\nrules {}(no_such_option=true)\n", rules.id());
    let err = AnyGame::from_record_text(&text).unwrap_err();
    assert!(matches!(err, RecordError::AtLine { line: 3, .. }), "{err}");

    // A start position that does not validate is refused at its `start` line.
    let text = format!("rules {}\nseed 1\nstart {} b\n", rules.id(), "B".repeat(30));
    let err = AnyGame::from_record_text(&text).unwrap_err();
    assert!(matches!(err, RecordError::AtLine { line: 3, .. }), "{err}");
}

/// The largest value a ruleset's device shows: a valid throw, refused when a move is due.
fn device_max(game: &AnyGame) -> u8 {
    (game.throw_outcomes().iter().map(|o| o.value).max().unwrap()).get()
}

#[test]
fn records_that_do_not_replay_name_their_first_bad_line() {
    for info in RULESETS {
        corrupt(&AnyRuleset::parse(info.id).unwrap());
    }
}
