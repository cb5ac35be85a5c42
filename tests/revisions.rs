//! Records carry the ruleset's `RULES_REVISION`; a record written under another revision is
//! refused with a typed error (text, JSON and `GameRecord` alike), and one without a revision
//! loads unchecked. Every registered ruleset is covered.

use rand_chacha::ChaCha8Rng;
use rand_core::SeedableRng;
use senet::registry::{AnyRuleset, RULESETS, RulesetInfo};
use senet::{AnyGame, RecordError};

fn check_revisions(info: &RulesetInfo) {
    let (id, revision) = (info.id, info.rules_revision);
    assert!(revision >= 1, "{id}: revisions start at 1");

    let mut rng = ChaCha8Rng::seed_from_u64(11);
    let mut game = AnyGame::new(AnyRuleset::parse(id).unwrap());
    game.play_random(&mut rng, 40);
    let record = game.record();
    assert_eq!(record.revision, Some(revision));

    // The text form names it on the line after `rules`, and reads it back.
    let text = record.to_string();
    assert_eq!(
        text.lines().nth(1),
        Some(format!("revision {revision}").as_str()),
        "{text}"
    );
    assert_eq!(AnyGame::from_record_text(&text).unwrap(), game);

    // Another revision, older or newer, is refused before anything is replayed.
    for other in [revision - 1, revision + 1] {
        let mut changed = record.clone();
        changed.revision = Some(other);
        assert_eq!(
            AnyGame::from_record(&changed),
            Err(RecordError::Revision {
                id,
                recorded: other,
                current: revision,
            })
        );
        // In the text form the error names the `revision` line (line 2 here).
        match AnyGame::from_record_text(&changed.to_string()) {
            Err(RecordError::AtLine { line: 2, source }) => {
                assert!(matches!(*source, RecordError::Revision { .. }))
            }
            other => panic!("{id}: expected the revision line, got {other:?}"),
        }
        let json = serde_json::to_string(&changed).unwrap();
        let err = serde_json::from_str::<AnyGame>(&json).unwrap_err();
        assert!(err.to_string().contains("revision"), "{err}");
    }

    // Without a revision (a hand-written record) the check is skipped.
    let mut bare = record.clone();
    bare.revision = None;
    let loaded = AnyGame::from_record(&bare).unwrap();
    assert_eq!(loaded.position(), game.position());
    assert!(!bare.to_string().contains("revision"));
}

#[test]
fn records_name_the_revision_they_were_written_under() {
    for info in RULESETS {
        check_revisions(info);
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
