//! Rule ids tie the code to `docs/rules/<ruleset>.md`: each page gives every rule (`R-12`),
//! interpretation (`I-3`) and scenario (`R-S4`) an entry of its own. These tests read the
//! repository's pages and sources and fail when a cited id has no entry, or when an entry has
//! no test in its crate's `tests/rules.rs` named after it (`r_12_…`, `r_03_i_1_…`, `r_s4_…`).

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use senet::registry::RULESETS;

/// The prefix of interpretations, which every ruleset numbers on its own.
const INTERPRETATION: &str = "I";

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn read(path: &Path) -> String {
    fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The id prefix of each registered ruleset (`R` for regency), read from its rules page: the
/// one prefix of the rules it lists (`- **R-12** …`).
fn prefixes() -> &'static [(String, &'static str)] {
    static PREFIXES: OnceLock<Vec<(String, &'static str)>> = OnceLock::new();
    PREFIXES.get_or_init(|| {
        RULESETS
            .iter()
            .map(|info| {
                let page = read(&root().join("docs/rules").join(format!("{}.md", info.id)));
                let found: BTreeSet<&str> = page
                    .lines()
                    .filter_map(|line| line.strip_prefix("- **")?.split_once("**"))
                    .filter_map(|(id, _)| id.split_once('-'))
                    .filter(|(prefix, number)| {
                        *prefix != INTERPRETATION
                            && !prefix.is_empty()
                            && prefix.chars().all(|c| c.is_ascii_alphabetic())
                            && !number.is_empty()
                            && number.chars().all(|c| c.is_ascii_digit())
                    })
                    .map(|(prefix, _)| prefix)
                    .collect();
                assert_eq!(
                    found.len(),
                    1,
                    "docs/rules/{}.md: its rules (`- **X-1** …`) use one prefix, not {found:?}",
                    info.id
                );
                (found.first().unwrap().to_string(), info.id)
            })
            .collect()
    })
}

fn ruleset_of_prefix(prefix: &str) -> Option<&'static str> {
    prefixes()
        .iter()
        .find(|(p, _)| p == prefix)
        .map(|&(_, ruleset)| ruleset)
}

/// A rule id as written: prefix, whether it is a scenario (`-S`), number.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct RuleId {
    prefix: String,
    scenario: bool,
    number: u32,
}

impl std::fmt::Display for RuleId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let s = if self.scenario { "S" } else { "" };
        write!(f, "{}-{s}{}", self.prefix, self.number)
    }
}

impl RuleId {
    /// Reads one id from the whole of `text` (`R-12`, `Be-S4`, `I-2`), with a known prefix.
    fn parse(text: &str) -> Option<RuleId> {
        let (prefix, rest) = text.split_once('-')?;
        if prefix != INTERPRETATION && ruleset_of_prefix(prefix).is_none() {
            return None;
        }
        let (scenario, digits) = match rest.strip_prefix('S') {
            Some(digits) => (true, digits),
            None => (false, rest),
        };
        if digits.is_empty() || !digits.chars().all(|c| c.is_ascii_digit()) {
            return None;
        }
        if scenario && prefix == INTERPRETATION {
            return None;
        }
        Some(RuleId {
            prefix: prefix.to_string(),
            scenario,
            number: digits.parse().ok()?,
        })
    }

    /// Every id cited in `line`: a known prefix standing alone as a word, a hyphen, an
    /// optional `S`, digits.
    fn cited_in(line: &str) -> Vec<RuleId> {
        line.split(|c: char| !(c.is_ascii_alphanumeric() || c == '-'))
            .filter_map(|word| RuleId::parse(word.trim_matches('-')))
            .collect()
    }
}

/// The ids a rules page defines: the bold head of a list entry (`- **R-12** …`) or the first
/// cell of a table row (`| R-S4 | …`).
fn defined_ids(page: &str) -> BTreeSet<RuleId> {
    page.lines()
        .filter_map(|line| {
            if let Some(entry) = line.strip_prefix("- **") {
                entry.split_once("**").map(|(id, _)| id)
            } else {
                line.strip_prefix('|')
                    .and_then(|row| row.split('|').next())
                    .map(str::trim)
            }
        })
        .filter_map(RuleId::parse)
        .collect()
}

/// Every ruleset's page, by ruleset, as the set of ids it defines.
fn definitions() -> BTreeMap<&'static str, BTreeSet<RuleId>> {
    prefixes()
        .iter()
        .map(|&(_, ruleset)| {
            let page = root().join("docs/rules").join(format!("{ruleset}.md"));
            (ruleset, defined_ids(&read(&page)))
        })
        .collect()
}

/// The `.rs` and `.md` files of the repository, outside build output and hidden folders.
fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> = fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|entry| entry.expect("a readable folder entry").path())
        .collect();
    entries.sort();
    for path in entries {
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
        if name.starts_with('.') || name == "target" {
            continue;
        }
        if path.is_dir() {
            sources(&path, out);
        } else if name.ends_with(".rs") || name.ends_with(".md") {
            out.push(path);
        }
    }
}

/// The ruleset a file belongs to: its crate's (`crates/senet-kendall/…`) or its rules page's
/// (`docs/rules/kendall.md`). Elsewhere an `I-…` id takes the ruleset of the last prefixed id
/// before it.
fn home_ruleset(relative: &Path) -> Option<&'static str> {
    let text = relative.to_str()?;
    prefixes().iter().map(|&(_, r)| r).find(|ruleset| {
        text.starts_with(&format!("crates/senet-{ruleset}/"))
            || text == format!("docs/rules/{ruleset}.md")
    })
}

/// The ids cited in one file that its ruleset's page does not define, as `file:line id`.
fn undefined_in(
    relative: &Path,
    text: &str,
    defined: &BTreeMap<&'static str, BTreeSet<RuleId>>,
) -> Vec<String> {
    let home = home_ruleset(relative);
    let mut context = home;
    let mut problems = Vec::new();
    for (n, line) in text.lines().enumerate() {
        for id in RuleId::cited_in(line) {
            let ruleset = if id.prefix == INTERPRETATION {
                home.or(context)
            } else {
                ruleset_of_prefix(&id.prefix)
            };
            if id.prefix != INTERPRETATION {
                context = ruleset;
            }
            let place = format!("{}:{}", relative.display(), n + 1);
            match ruleset {
                None => problems.push(format!("{place} {id}: no ruleset in context")),
                Some(r) if !defined[r].contains(&id) => {
                    problems.push(format!("{place} {id}: not in docs/rules/{r}.md"));
                }
                Some(_) => {}
            }
        }
    }
    problems
}

/// The ids a test's name starts with: `r_03_i_1_exactly_…` names `R-3` and `I-1`, `be_s4_…`
/// names `Be-S4`.
fn ids_of_test_name(name: &str) -> Vec<RuleId> {
    let words: Vec<&str> = name.split('_').collect();
    let mut ids = Vec::new();
    for pair in words.chunks(2) {
        let [prefix, number] = pair else { break };
        let prefix = prefixes()
            .iter()
            .map(|(p, _)| p.as_str())
            .chain([INTERPRETATION])
            .find(|p| p.to_lowercase() == *prefix);
        let number = number
            .strip_prefix('s')
            .map_or(number.to_string(), |n| format!("S{n}"));
        match prefix.and_then(|p| RuleId::parse(&format!("{p}-{number}"))) {
            Some(id) => ids.push(id),
            None => break,
        }
    }
    ids
}

#[test]
fn every_registered_ruleset_has_a_page_with_a_prefix_of_its_own() {
    let defined = definitions();
    let distinct: BTreeSet<&str> = prefixes().iter().map(|(p, _)| p.as_str()).collect();
    assert_eq!(distinct.len(), RULESETS.len(), "{:?}", prefixes());
    for (ruleset, ids) in &defined {
        let kinds = [
            ids.iter()
                .any(|id| id.prefix != INTERPRETATION && !id.scenario),
            ids.iter().any(|id| id.scenario),
        ];
        assert_eq!(
            kinds,
            [true, true],
            "docs/rules/{ruleset}.md: rules and scenarios"
        );
    }
}

#[test]
fn every_rule_id_in_the_sources_is_defined_in_its_rules_page() {
    let defined = definitions();
    let mut files = Vec::new();
    sources(root(), &mut files);
    let mut cited = 0;
    let mut problems = Vec::new();
    for path in &files {
        let relative = path.strip_prefix(root()).expect("under the root");
        let text = read(path);
        cited += text
            .lines()
            .map(|l| RuleId::cited_in(l).len())
            .sum::<usize>();
        problems.extend(undefined_in(relative, &text, &defined));
    }
    // About 1,200 today; far fewer means the scan missed the sources.
    assert!(
        cited > 500,
        "only {cited} rule ids found: is the scan broken?"
    );
    assert!(
        problems.is_empty(),
        "rule ids without an entry:\n{}",
        problems.join("\n")
    );
}

#[test]
fn every_defined_rule_id_has_a_test_named_after_it() {
    for (ruleset, ids) in definitions() {
        let path = root()
            .join("crates")
            .join(format!("senet-{ruleset}"))
            .join("tests/rules.rs");
        let tested: BTreeSet<RuleId> = read(&path)
            .lines()
            .filter_map(|line| line.trim().strip_prefix("fn "))
            .filter_map(|rest| rest.split_once('('))
            .flat_map(|(name, _)| ids_of_test_name(name))
            .collect();
        let untested: Vec<String> = ids.difference(&tested).map(RuleId::to_string).collect();
        assert!(
            untested.is_empty(),
            "{}: no test named after {untested:?}",
            path.display()
        );
    }
}

#[test]
fn ids_are_read_from_pages_lines_and_test_names() {
    let page = "- **R-12** a rule\n| I-3 | a reading |\n| id | head |\n- **Note** no id\n";
    let ids: Vec<String> = defined_ids(page).iter().map(RuleId::to_string).collect();
    assert_eq!(ids, ["I-3", "R-12"]);
    let line = "(R-14, I-4; Be-S5/K-7) UTF-8 X-1 R-1a";
    let ids: Vec<String> = RuleId::cited_in(line)
        .iter()
        .map(RuleId::to_string)
        .collect();
    assert_eq!(ids, ["R-14", "I-4", "Be-S5", "K-7"]);
    let ids: Vec<String> = ids_of_test_name("r_03_i_1_exactly_one")
        .iter()
        .chain(&ids_of_test_name("be_s4_marked"))
        .chain(&ids_of_test_name("option_exits_replace_r_14"))
        .map(RuleId::to_string)
        .collect();
    assert_eq!(ids, ["R-3", "I-1", "Be-S4"]);
}
