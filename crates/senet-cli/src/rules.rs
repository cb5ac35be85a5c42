//! `senet rules`: the rulesets of the registry, their options, throws and position fields;
//! and the generated reference tables of `docs/notation.md` (`--markdown`).

use std::io::Write;

use clap::Args;
use senet::registry::{AnyRuleset, RULESETS, RulesetInfo};
use senet::{AnyGame, FieldInfo, SeatRule};

use crate::error::{CliError, parse_rules};

/// List the rulesets, or describe one.
///
/// A description gives the options with their defaults, the throws, the start position, the
/// fields of the position notation, and then the rules in prose with their ids.
#[derive(Args, Debug)]
pub(crate) struct RulesArgs {
    /// A ruleset id (or `id(option=value,…)` to see that configuration's start position).
    ruleset: Option<String>,
    /// Print the reference tables of docs/notation.md (every ruleset, or the one named).
    #[arg(long)]
    markdown: bool,
    /// Print only the id of every registered ruleset, one a line: the list scripts and CI
    /// take the rulesets from (each id is also the crate feature that turns it on).
    #[arg(long, conflicts_with_all = ["ruleset", "markdown"])]
    ids: bool,
}

/// What a ruleset is like beyond its registry entry: things only the configured ruleset
/// knows.
struct Facts {
    spec: String,
    pieces: u8,
    throws: String,
    seats: &'static str,
    start: String,
}

impl Facts {
    fn of(rules: &AnyRuleset) -> Facts {
        let outcomes = rules.throw_outcomes();
        let denominator: u32 = outcomes.iter().map(|o| o.weight).sum();
        let throws = outcomes
            .iter()
            .map(|o| format!("{} ({}/{denominator})", o.value, o.weight))
            .collect::<Vec<_>>()
            .join(", ");
        Facts {
            spec: rules.spec().to_string(),
            pieces: rules.pieces_per_side(),
            throws,
            seats: seat_rule(rules.seat_rule()),
            start: AnyGame::new(rules.clone()).position(),
        }
    }
}

fn seat_rule(rule: SeatRule) -> &'static str {
    match rule {
        SeatRule::FirstToThrowOne => {
            "the players throw in turn; the first to throw a 1 plays Black, the even set"
        }
        SeatRule::OnlyOneThrowsOne => {
            "both players throw together until exactly one throws a 1; that one plays Black, \
             the even set"
        }
        SeatRule::HigherThrow => {
            "both players throw once; the higher throw plays Black, the even set; ties throw again"
        }
        SeatRule::FirstPersonStarts => "no throw-off: the first player plays Black, the even set",
    }
}

/// One row of a ruleset's position fields.
struct FieldRow {
    name: String,
    values: &'static str,
    default: &'static str,
    doc: &'static str,
}

impl From<&FieldInfo> for FieldRow {
    fn from(f: &FieldInfo) -> FieldRow {
        FieldRow {
            name: f.name.to_string(),
            values: f.values,
            default: f.default,
            doc: f.doc,
        }
    }
}

/// The documented position fields of a ruleset.
fn fields(info: &RulesetInfo) -> Vec<FieldRow> {
    info.field_info.iter().map(FieldRow::from).collect()
}

fn list(out: &mut dyn Write) -> Result<(), CliError> {
    let width = RULESETS.iter().map(|r| r.id.len()).max().unwrap_or(0);
    for info in RULESETS {
        writeln!(
            out,
            "{:<width$}  {} ({})",
            info.id,
            info.name,
            crate::count(info.options.len() as u64, "option")
        )?;
    }
    writeln!(out)?;
    writeln!(
        out,
        "`senet rules <id>` describes one; rulesets are named as id or id(option=value,…)."
    )?;
    Ok(())
}

fn describe(rules: &AnyRuleset, out: &mut dyn Write) -> Result<(), CliError> {
    let info = rules
        .info()
        .ok_or_else(|| CliError::input(format!("{} is not in the registry", rules.id())))?;
    let facts = Facts::of(rules);
    writeln!(out, "{}: {}", info.id, info.name)?;
    if facts.spec != info.id {
        writeln!(out, "configured as {}", facts.spec)?;
    }
    writeln!(out, "pieces per side: {}", facts.pieces)?;
    writeln!(out, "throws (value and chance): {}", facts.throws)?;
    writeln!(out, "who starts: {}", facts.seats)?;
    writeln!(out, "start position: {}", facts.start)?;
    writeln!(out, "rules revision: {}", info.rules_revision)?;
    writeln!(out)?;
    if info.options.is_empty() {
        writeln!(out, "options: none")?;
    } else {
        writeln!(
            out,
            "options, as {}(name=value,…); the first value is the default:",
            info.id
        )?;
        for option in info.options {
            writeln!(
                out,
                "  {} = {}  [{}]\n      {}",
                option.name,
                option.values.join(" | "),
                option.rules,
                option.doc
            )?;
        }
    }
    writeln!(out)?;
    let fields = fields(info);
    if fields.is_empty() {
        writeln!(
            out,
            "position fields: none (board and side are the whole position)"
        )?;
    } else {
        writeln!(
            out,
            "position fields, as <board> <side> name=value…; a field left out takes its default:"
        )?;
        for field in fields {
            writeln!(
                out,
                "  {} = {}  (default: {})\n      {}",
                field.name, field.values, field.default, field.doc
            )?;
        }
    }
    writeln!(out)?;
    write!(out, "{}", plain_rules(rules.rules_text()))?;
    Ok(())
}

/// A ruleset's prose rules (Markdown) for the terminal: without the emphasis and code marks.
pub(crate) fn plain_rules(markdown: &str) -> String {
    markdown.replace("**", "").replace('`', "")
}

/// Text for a Markdown table cell.
fn cell(text: &str) -> String {
    text.replace('|', "\\|")
}

/// The generated reference section of `docs/notation.md` for the given rulesets.
fn markdown(rulesets: &[&RulesetInfo]) -> Result<String, CliError> {
    use std::fmt::Write as _;
    let mut md = String::new();
    for info in rulesets {
        let facts = Facts::of(&parse_rules(info.id)?);
        // Writing to a String cannot fail.
        let _ = writeln!(md, "### `{}`: {}\n", info.id, cell(info.name));
        let _ = writeln!(
            md,
            "{} pieces a side; throws (value and chance): {}.\n",
            facts.pieces, facts.throws
        );
        let _ = writeln!(md, "Start position: `{}`\n", facts.start);
        let _ = writeln!(md, "Rules revision: {}\n", info.rules_revision);
        if info.options.is_empty() {
            let _ = writeln!(md, "No options.\n");
        } else {
            md.push_str("| option | values (default first) | rules | what it does |\n");
            md.push_str("|---|---|---|---|\n");
            for option in info.options {
                let values: Vec<String> = option.values.iter().map(|v| format!("`{v}`")).collect();
                let _ = writeln!(
                    md,
                    "| `{}` | {} | {} | {} |",
                    option.name,
                    values.join(", "),
                    cell(option.rules),
                    cell(option.doc)
                );
            }
            md.push('\n');
        }
        let fields = fields(info);
        if fields.is_empty() {
            let _ = writeln!(
                md,
                "No position fields: board and side are the whole position.\n"
            );
        } else {
            md.push_str("| position field | values | when left out | what it records |\n");
            md.push_str("|---|---|---|---|\n");
            for field in fields {
                let _ = writeln!(
                    md,
                    "| `{}` | {} | {} | {} |",
                    field.name,
                    cell(field.values),
                    cell(field.default),
                    cell(field.doc)
                );
            }
            md.push('\n');
        }
    }
    Ok(md)
}

pub(crate) fn run(args: &RulesArgs, out: &mut dyn Write) -> Result<(), CliError> {
    if args.ids {
        for info in RULESETS {
            writeln!(out, "{}", info.id)?;
        }
        return Ok(());
    }
    let chosen = args.ruleset.as_deref().map(parse_rules).transpose()?;
    if args.markdown {
        let infos: Vec<&RulesetInfo> = match &chosen {
            Some(rules) => rules.info().into_iter().collect(),
            None => RULESETS.iter().collect(),
        };
        write!(out, "{}", markdown(&infos)?)?;
        return Ok(());
    }
    match chosen {
        Some(rules) => describe(&rules, out),
        None => list(out),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_ruleset_is_described_with_each_option_and_field() {
        for info in RULESETS {
            let mut out = Vec::new();
            describe(&parse_rules(info.id).ok().unwrap(), &mut out)
                .ok()
                .unwrap();
            let text = String::from_utf8(out).unwrap();
            for option in info.options {
                assert!(text.contains(option.name), "{}: {}", info.id, option.name);
            }
            for field in fields(info) {
                assert!(text.contains(&field.name), "{}: {}", info.id, field.name);
            }
            let md = markdown(&[info]).ok().unwrap();
            assert!(md.starts_with(&format!("### `{}`", info.id)));
            for option in info.options {
                assert!(md.contains(&format!("| `{}` |", option.name)));
            }
        }
    }

    #[test]
    fn table_cells_escape_pipes() {
        assert_eq!(cell("a | b"), "a \\| b");
    }
}
