//! Each ruleset's prose rules (`Ruleset::RULES_TEXT`, the crate's `RULES.md`) are the rules
//! and interpretations of `docs/rules/<id>.md` word for word, so the two cannot drift apart.

use std::fs;
use std::path::Path;

use senet::registry::{AnyRuleset, RULESETS};

#[test]
fn every_rulesets_prose_is_its_rules_page_word_for_word() {
    for info in RULESETS {
        let text = AnyRuleset::parse(info.id).unwrap().rules_text();
        assert!(
            text.starts_with("## The rules\n") && text.contains("## Interpretations\n"),
            "{}: RULES.md should hold the rules and the interpretations",
            info.id
        );
        let page = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("docs/rules")
            .join(format!("{}.md", info.id));
        let page = fs::read_to_string(&page).unwrap();
        assert!(
            page.contains(text),
            "{}: crates/senet-{}/RULES.md differs from docs/rules/{}.md; copy the sections \
             \"The rules\" and \"Interpretations\" again",
            info.id,
            info.id,
            info.id
        );
        // The sections are whole: the page's next section follows the copied text.
        let after = &page[page.find(text).unwrap() + text.len()..];
        assert!(after.trim_start().starts_with("## "), "{}", info.id);
    }
}
