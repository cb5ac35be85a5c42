//! `docs/notation.md` stays true: its generated reference matches `senet rules --markdown`,
//! and its examples of positions and records are accepted by the command.

mod common;

use std::path::PathBuf;

use common::{senet, senet_with_input};

const BEGIN: &str = "<!-- BEGIN GENERATED: senet rules --markdown -->\n";
const END: &str = "<!-- END GENERATED -->";

fn notation_path() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../docs/notation.md")
}

fn notation() -> String {
    std::fs::read_to_string(notation_path()).expect("docs/notation.md exists")
}

#[test]
fn the_generated_reference_is_up_to_date() {
    let doc = notation();
    let generated = senet(&["rules", "--markdown"]).ok();
    let start = doc.find(BEGIN).expect("the BEGIN marker") + BEGIN.len();
    let end = doc.find(END).expect("the END marker");
    if doc[start..end] == generated {
        return;
    }
    if std::env::var_os("SENET_BLESS").is_some() {
        let updated = format!("{}{generated}{}", &doc[..start], &doc[end..]);
        std::fs::write(notation_path(), updated).expect("docs/notation.md is writable");
        return;
    }
    panic!(
        "docs/notation.md is out of date with the registry; rewrite its generated section \
         with `SENET_BLESS=1 cargo test -p senet-cli --test notation`"
    );
}

/// The fenced code blocks of the document: (language, content).
fn code_blocks(doc: &str) -> Vec<(String, String)> {
    let mut blocks = Vec::new();
    let mut current: Option<(String, String)> = None;
    for line in doc.lines() {
        match (line.strip_prefix("```"), current.take()) {
            (Some(lang), None) => current = Some((lang.trim().to_string(), String::new())),
            (Some(_), Some(block)) => blocks.push(block),
            (None, Some((lang, mut text))) => {
                text.push_str(line);
                text.push('\n');
                current = Some((lang, text));
            }
            (None, None) => {}
        }
    }
    blocks
}

#[test]
fn the_example_records_replay() {
    let blocks = code_blocks(&notation());
    let records: Vec<&String> = blocks
        .iter()
        .filter(|(lang, text)| {
            lang == "json"
                || text
                    .lines()
                    .find(|l| !l.starts_with('#'))
                    .is_some_and(|l| l.starts_with("rules "))
        })
        .map(|(_, text)| text)
        .collect();
    assert_eq!(records.len(), 2, "a text record and a JSON record");
    for record in records {
        let out = senet_with_input(&["replay", "-"], record).ok();
        assert!(out.starts_with("rules regency"), "{out}");
    }
}

#[test]
fn the_example_position_is_the_regency_start() {
    let blocks = code_blocks(&notation());
    let (_, first) = &blocks[0];
    let example = first.lines().nth(1).expect("an example position");
    let described = senet(&["rules", "regency"]).ok();
    assert!(
        described.contains(&format!("start position: {example}")),
        "{example}"
    );
}
