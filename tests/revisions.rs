//! Records carry the ruleset's `RULES_REVISION`; a record written under another revision is
//! refused with a typed error (text, JSON and `GameRecord` alike), and one without a revision
//! loads unchecked. Every registered ruleset is covered.

use rand_chacha::ChaCha8Rng;
use rand_core::SeedableRng;
use senet::registry::{AnyRuleset, RULESETS, RulesetVisitor};
use senet::{Game, RecordError, Ruleset};

struct RevisionChecks;

impl RulesetVisitor for RevisionChecks {
    type Output = ();

    fn visit<R: Ruleset>(self, rules: &R) {
        assert!(R::RULES_REVISION >= 1, "{}: revisions start at 1", R::ID);
        let info = senet::registry::info(R::ID).unwrap();
        assert_eq!(info.rules_revision, R::RULES_REVISION);

        let mut rng = ChaCha8Rng::seed_from_u64(11);
        let mut game = Game::new(rules.clone());
        game.play_random(&mut rng, 40);
        let record = game.record();
        assert_eq!(record.revision, Some(R::RULES_REVISION));

        // The text form names it on the line after `rules`, and reads it back.
        let text = record.to_string();
        assert_eq!(
            text.lines().nth(1),
            Some(format!("revision {}", R::RULES_REVISION).as_str()),
            "{text}"
        );
        assert_eq!(Game::<R>::from_record_text(&text).unwrap(), game);

        // Another revision, older or newer, is refused before anything is replayed.
        for other in [R::RULES_REVISION - 1, R::RULES_REVISION + 1] {
            let mut changed = record.clone();
            changed.revision = Some(other);
            assert_eq!(
                Game::<R>::from_record(&changed),
                Err(RecordError::Revision {
                    id: R::ID,
                    recorded: other,
                    current: R::RULES_REVISION,
                })
            );
            // In the text form the error names the `revision` line (line 2 here).
            match Game::<R>::from_record_text(&changed.to_string()) {
                Err(RecordError::AtLine { line: 2, source }) => {
                    assert!(matches!(*source, RecordError::Revision { .. }))
                }
                other => panic!("{}: expected the revision line, got {other:?}", R::ID),
            }
            let json = serde_json::to_string(&changed).unwrap();
            let err = serde_json::from_str::<Game<R>>(&json).unwrap_err();
            assert!(err.to_string().contains("revision"), "{err}");
        }

        // Without a revision (a hand-written record) the check is skipped.
        let mut bare = record.clone();
        bare.revision = None;
        let loaded = Game::<R>::from_record(&bare).unwrap();
        assert_eq!(loaded.state(), game.state());
        assert!(!bare.to_string().contains("revision"));
    }
}

#[test]
fn records_name_the_revision_they_were_written_under() {
    for info in RULESETS {
        AnyRuleset::parse(info.id).unwrap().visit(RevisionChecks);
    }
}

#[test]
fn the_revision_error_says_how_to_load_anyway() {
    let err = RecordError::Revision {
        id: "regency",
        recorded: 2,
        current: 1,
    };
    assert_eq!(
        err.to_string(),
        "the record was written under revision 2 of the regency rules, and this build plays \
         revision 1: its actions may not replay the recorded game (to load it anyway, remove \
         its revision)"
    );
}
