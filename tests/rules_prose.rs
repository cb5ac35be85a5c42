//! The rules a player reads — the prose of each ruleset (`senet rules <id>`, the web page's
//! Rules panel) and the meanings of its special squares (the legend beside the board) — are
//! written for players: no paths like `Type::item`, no type names in CamelCase, no field or
//! function names in snake_case. Code marks (backticks) are kept for what a player types: an
//! option of the ruleset (its name, a value, `name=value`), a ruleset specification, a move.
//! The allowed words come from the registry (each ruleset's options) and from the move
//! notation's parser, not from a list kept here.

use std::str::FromStr;

use senet::Move;
use senet::registry::{AnyRuleset, RULESETS, RulesetInfo};

/// Whether `text` is something a player of ruleset `info` types: one of its options' names or
/// values, `name=value`, a ruleset specification (`regency(house_of_water=true)`) or a move
/// (`12-14`, `28-off`, `pass`, `11-15/4`).
fn typed_by_a_player(info: &RulesetInfo, text: &str) -> bool {
    let option_word = info
        .options
        .iter()
        .any(|o| o.name == text || o.values.contains(&text));
    let option_setting = text.split_once('=').is_some_and(|(name, value)| {
        info.options
            .iter()
            .any(|o| o.name == name && o.values.contains(&value))
    });
    let spec = text.contains('(') && AnyRuleset::parse(text).is_ok();
    option_word || option_setting || spec || Move::from_str(text).is_ok()
}

/// Whether `word` (letters, digits, underscores) reads as a code identifier: a CamelCase name
/// (`FirstToThrowOne`, `initialState`) or a name with underscores (`initial_state`,
/// `SEAT_RULE`) that is not one of the ruleset's options.
fn code_word(info: &RulesetInfo, word: &str) -> bool {
    let chars: Vec<char> = word.chars().collect();
    let camel = chars
        .windows(2)
        .any(|w| w[0].is_ascii_lowercase() && w[1].is_ascii_uppercase());
    let snake = word.contains('_') && !typed_by_a_player(info, word);
    camel || snake
}

/// The code identifiers in a player's `text`, each as the number of its line (from 1) and a
/// description.
fn code_in(info: &RulesetInfo, text: &str) -> Vec<(usize, String)> {
    let mut found = Vec::new();
    let mut line = 1;
    // Outside code marks the even pieces, inside them the odd ones.
    for (i, piece) in text.split('`').enumerate() {
        if piece.contains("::") {
            found.push((line, format!("a path with `::` in {piece:?}")));
        }
        if i % 2 == 1 {
            if !typed_by_a_player(info, piece) {
                found.push((
                    line,
                    format!("`{piece}` in code marks is nothing a player types"),
                ));
            }
        } else {
            for (n, part) in piece.split('\n').enumerate() {
                let words = part.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'));
                for word in words.filter(|w| code_word(info, w)) {
                    found.push((line + n, format!("{word:?} reads as a code identifier")));
                }
                if let Some(at) = part.find("()") {
                    let before = part[..at].chars().next_back();
                    if before.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_') {
                        found.push((line + n, format!("a call: {:?}", &part[..at + 2])));
                    }
                }
            }
        }
        line += piece.matches('\n').count();
    }
    found
}

/// The cells of a table row: the text between unescaped `|`s.
fn cells(row: &str) -> usize {
    let mut count: usize = 0;
    let mut escaped = false;
    for c in row.trim().chars() {
        if c == '|' && !escaped {
            count += 1;
        }
        escaped = c == '\\';
    }
    count.saturating_sub(1)
}

/// Problems with the Markdown tables of `text`: every table has a head, a separator row
/// (`|---|---|`) and rows of as many cells as the head.
fn table_problems(text: &str) -> Vec<String> {
    let mut problems = Vec::new();
    let lines: Vec<&str> = text.lines().collect();
    let mut i = 0;
    while i < lines.len() {
        if !lines[i].starts_with('|') {
            i += 1;
            continue;
        }
        let head = lines[i];
        let width = cells(head);
        let separator = lines.get(i + 1).copied().unwrap_or("");
        let is_separator = separator.starts_with('|')
            && separator
                .chars()
                .all(|c| matches!(c, '|' | '-' | ':' | ' '));
        if !is_separator || cells(separator) != width {
            problems.push(format!(
                "table at {head:?}: no separator row under its head"
            ));
        }
        i += 1;
        while i < lines.len() && lines[i].starts_with('|') {
            if cells(lines[i]) != width {
                problems.push(format!(
                    "table row of {} cells, not {width}: {:?}",
                    cells(lines[i]),
                    lines[i]
                ));
            }
            i += 1;
        }
    }
    problems
}

/// Whether `meaning` ends with its rule ids in parentheses: `safe from attack (R-10)`.
fn cites_a_rule(meaning: &str) -> bool {
    let Some(open) = meaning.rfind('(') else {
        return false;
    };
    let Some(inside) = meaning[open + 1..].strip_suffix(')') else {
        return false;
    };
    inside.split([',', ' ', ';']).any(|word| {
        word.split_once('-').is_some_and(|(prefix, number)| {
            let number = number.strip_prefix('S').unwrap_or(number);
            !prefix.is_empty()
                && prefix.chars().all(|c| c.is_ascii_alphabetic())
                && prefix.starts_with(|c: char| c.is_ascii_uppercase())
                && !number.is_empty()
                && number.chars().all(|c| c.is_ascii_digit())
        })
    })
}

/// The ruleset `info` as configured by default and with each option set to each of its other
/// values in turn (the special squares can depend on the options). A setting refused alone
/// (an option that needs another) is left out.
fn configurations(info: &RulesetInfo) -> Vec<AnyRuleset> {
    let mut all = vec![AnyRuleset::parse(info.id).unwrap()];
    for option in info.options {
        for value in option.values.iter().skip(1) {
            if let Ok(rules) = AnyRuleset::parse(&format!("{}({}={value})", info.id, option.name)) {
                all.push(rules);
            }
        }
    }
    all
}

#[test]
fn the_rules_players_read_name_no_code() {
    let mut problems = Vec::new();
    for info in RULESETS {
        let rules = AnyRuleset::parse(info.id).unwrap();
        let text = rules.rules_text();
        let lines: Vec<&str> = text.lines().collect();
        for (n, problem) in code_in(info, text) {
            let line = lines.get(n - 1).copied().unwrap_or("");
            problems.push(format!(
                "{} rules, line {n}: {problem}\n    in {line:?}",
                info.id
            ));
        }
        for problem in table_problems(rules.rules_text()) {
            problems.push(format!("{} rules: {problem}", info.id));
        }
        for configured in configurations(info) {
            for special in configured.special_squares() {
                let meaning = special.meaning;
                let place = format!("{} special squares ({})", info.id, configured.spec());
                for (_, problem) in code_in(info, meaning) {
                    problems.push(format!("{place}: {problem}\n    in {meaning:?}"));
                }
                if !cites_a_rule(meaning) {
                    problems.push(format!(
                        "{place}: {meaning:?} should end with its rule ids in parentheses"
                    ));
                }
            }
        }
    }
    problems.sort();
    problems.dedup();
    assert!(
        problems.is_empty(),
        "{} problems in what players read:\n{}",
        problems.len(),
        problems.join("\n")
    );
}

#[test]
fn the_checks_tell_player_words_from_code() {
    let info = senet::registry::info("regency").unwrap();
    // What a player types passes.
    for typed in [
        "house_of_water",
        "house_of_water=true",
        "regency(collect_throws=true)",
        "12-14",
        "28-off",
        "pass",
        "11-15/4",
    ] {
        assert!(typed_by_a_player(info, typed), "{typed}");
    }
    for clean in [
        "- **R-3** Both players throw (R-3; the option `collect_throws`); `28-off` is a move.",
        "sends a piece to 15 when it is empty (R-12, house_of_water)",
        "Ludii, CEMEA and King Tut's Game",
    ] {
        assert_eq!(code_in(info, clean), [], "{clean}");
    }
    // Code does not.
    for code in [
        "`draw_seats` with `SeatRule::OnlyOneThrowsOne` carries it out",
        "In Outcome::points the winner has that score",
        "`initial_state()` has Black on 2, 4, 6, 8, 11",
        "initial_state() has Black on 2",
        "(`SEAT_RULE = FirstToThrowOne` describes the throw-off)",
        "one `Phase` step",
        "FirstToThrowOne describes it",
        "the option `points`",
        "the option `house_of_water=maybe`",
    ] {
        assert!(!code_in(info, code).is_empty(), "{code}");
    }
    // A code span may run over a line break; lines are counted from 1.
    let found = code_in(
        info,
        "one\ntwo `Outcome::\npoints` three\nfour initial_state",
    );
    let lines: Vec<usize> = found.iter().map(|(line, _)| *line).collect();
    assert_eq!(lines, [2, 2, 4], "{found:?}");
    assert!(cites_a_rule("safe from attack (R-10)"));
    assert!(cites_a_rule("the water (K-13, K-14)"));
    assert!(cites_a_rule("marked: protects its piece (Be-6)"));
    assert!(!cites_a_rule("the House of Rebirth (house_of_water)"));
    assert!(!cites_a_rule("safe from attack"));
    assert!(table_problems("| a | b |\n|---|---|\n| 1 | 2 |\n").is_empty());
    assert!(table_problems("| a \\| b | c |\n|---|---|\n").is_empty());
    assert_eq!(table_problems("| a | b |\n| 1 | 2 |\n").len(), 1);
    assert_eq!(
        table_problems("| a | b |\n|---|---|\n| 1 | 2 | 3 |\n").len(),
        1
    );
}
