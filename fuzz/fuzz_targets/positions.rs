//! Positions, specifications and moves: no panic; whatever is accepted prints back to text
//! that reads back to the same value.
#![no_main]

use libfuzzer_sys::fuzz_target;
use senet::registry::{AnyRuleset, RulesetVisitor};
use senet::{Move, Ruleset, RulesetSpec, Setup};

mod common;

struct Position<'a>(&'a str);

impl RulesetVisitor for Position<'_> {
    type Output = ();
    fn visit<R: Ruleset>(self, rules: &R) {
        if let Ok(state) = rules.parse_position(self.0) {
            assert!(rules.validate(&state).is_ok());
            let printed = rules.position_string(&state);
            assert_eq!(rules.parse_position(&printed).unwrap(), state);
        }
    }
}

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let text = text.as_ref();
    if let Ok(setup) = text.parse::<Setup>() {
        assert_eq!(setup.to_string().parse::<Setup>().unwrap(), setup);
    }
    if let Ok(spec) = text.parse::<RulesetSpec>() {
        assert_eq!(spec.to_string().parse::<RulesetSpec>().unwrap(), spec);
        if let Ok(rules) = AnyRuleset::from_spec(&spec) {
            assert_eq!(AnyRuleset::parse(&rules.to_string()).unwrap(), rules);
        }
    }
    if let Ok(mv) = text.parse::<Move>() {
        assert_eq!(mv.to_string().parse::<Move>().unwrap(), mv);
    }
    for rules in common::configurations() {
        rules.visit(Position(text));
    }
});
