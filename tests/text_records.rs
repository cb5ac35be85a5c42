//! The text form of game records, for every registered ruleset: random games written out,
//! read back and replayed; records that do not replay are refused at the right line.

use rand_chacha::ChaCha8Rng;
use rand_core::SeedableRng;
use senet::registry::{AnyRuleset, RULESETS, RulesetVisitor};
use senet::{Action, Game, GameRecord, Phase, RecordError, Ruleset};

struct RoundTrip {
    seed: u64,
}

impl RulesetVisitor for RoundTrip {
    type Output = ();
    fn visit<R: Ruleset>(self, rules: &R) {
        let mut rng = ChaCha8Rng::seed_from_u64(self.seed);
        let mut game = Game::new(rules.clone());
        game.set_seed(Some(self.seed));
        game.play_random(&mut rng, senet::DEFAULT_TURN_CAP);
        let record = game.record();
        let text = record.to_string();
        assert_eq!(text.parse::<GameRecord>().unwrap(), record, "{text}");
        let loaded = Game::<R>::from_record_text(&text).unwrap();
        assert_eq!(loaded, game);

        // A game that starts from a later position records it on a `start` line.
        let mut middle = Game::new(rules.clone());
        for action in &record.actions[..record.actions.len() / 2] {
            middle.apply(*action).unwrap();
        }
        let mut resumed = Game::from_state(rules.clone(), *middle.state()).unwrap();
        resumed.play_random(&mut rng, senet::DEFAULT_TURN_CAP);
        let text = resumed.record().to_string();
        // rules, revision, start.
        assert!(text.lines().nth(2).unwrap().starts_with("start "), "{text}");
        assert_eq!(Game::<R>::from_record_text(&text).unwrap(), resumed);
    }
}

#[test]
fn random_games_of_every_ruleset_round_trip_through_the_text_form() {
    for info in RULESETS {
        let rules = AnyRuleset::parse(info.id).unwrap();
        for seed in 0..20 {
            rules.visit(RoundTrip { seed });
        }
    }
}

struct Corrupt;

impl RulesetVisitor for Corrupt {
    type Output = ();
    fn visit<R: Ruleset>(self, rules: &R) {
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        let mut game = Game::new(rules.clone());
        game.play_random(&mut rng, senet::DEFAULT_TURN_CAP);
        let record = game.record();
        // Swap the kind of the tenth action: a throw where a move is due, or the reverse.
        let index = 9;
        let mut replay = Game::new(rules.clone());
        for action in &record.actions[..index] {
            replay.apply(*action).unwrap();
        }
        let wrong = match replay.phase() {
            Phase::Move(_) => Action::Throw(rules.device_max()),
            _ => Action::Move(senet::Move::PASS),
        };
        let mut bad = record.clone();
        bad.actions[index] = wrong;
        // A comment and a blank line shift the actions down by two lines.
        let text = format!("# corrupted\n\n{bad}");
        // Header: rules (line 3) and revision (line 4), then the actions; the tenth action
        // is 9 lines after the first one.
        let first_action_line = 5;
        let err = Game::<R>::from_record_text(&text).unwrap_err();
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
        let text = format!("\n\nrules {}(no_such_option=true)\n", R::ID);
        let err = Game::<R>::from_record_text(&text).unwrap_err();
        assert!(matches!(err, RecordError::AtLine { line: 3, .. }), "{err}");

        // A start position that does not validate is refused at its `start` line.
        let text = format!("rules {}\nseed 1\nstart {} b\n", R::ID, "B".repeat(30));
        let err = Game::<R>::from_record_text(&text).unwrap_err();
        assert!(matches!(err, RecordError::AtLine { line: 3, .. }), "{err}");
    }
}

/// The largest value a ruleset's device shows: a valid throw, refused when a move is due.
trait DeviceMax {
    fn device_max(&self) -> u8;
}

impl<R: Ruleset> DeviceMax for R {
    fn device_max(&self) -> u8 {
        senet::ThrowingDevice::max_value(&self.device())
    }
}

#[test]
fn records_that_do_not_replay_name_their_first_bad_line() {
    for info in RULESETS {
        AnyRuleset::parse(info.id).unwrap().visit(Corrupt);
    }
}
