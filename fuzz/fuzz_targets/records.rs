//! Game records, text and JSON: no panic; whatever loads, loads again identically from its
//! own record.
#![no_main]

use libfuzzer_sys::fuzz_target;
use senet::registry::RulesetVisitor;
use senet::{Game, GameRecord, Ruleset};

mod common;

struct Load<'a>(&'a [u8]);

impl RulesetVisitor for Load<'_> {
    type Output = ();
    fn visit<R: Ruleset>(self, _: &R) {
        let text = String::from_utf8_lossy(self.0);
        if let Ok(game) = Game::<R>::from_record_text(&text) {
            let again = Game::<R>::from_record_text(&game.record().to_string()).unwrap();
            assert!(again == game);
        }
        if let Ok(game) = serde_json::from_slice::<Game<R>>(self.0) {
            let json = serde_json::to_string(&game).unwrap();
            let again: Game<R> = serde_json::from_str(&json).unwrap();
            assert!(again == game);
        }
    }
}

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    if let Ok(record) = text.parse::<GameRecord>() {
        assert_eq!(record.to_string().parse::<GameRecord>().unwrap(), record);
    }
    for rules in common::configurations() {
        rules.visit(Load(data));
    }
});
