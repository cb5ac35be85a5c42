//! The perft files of this folder (`<id>.txt`, format in `docs/notation.md`, "Perft files"):
//! reading and writing them. Shared by `tests/perft.rs`, which checks every count, and
//! `benches/perft.rs`, which times the deepest count from the start.

// Each of the two users includes this module and uses only part of it.
#![allow(dead_code)]

use std::fmt::Write as _;
use std::path::PathBuf;

use senet::perft::PerftCount;

/// The file of ruleset `id`.
pub(crate) fn path(id: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(format!("tests/perft/{id}.txt"))
}

/// A line of a perft file, with the depth lines gathered under their position.
#[derive(Clone, Debug)]
pub(crate) enum Item {
    /// A comment or a blank line, kept as written.
    Text(String),
    /// `ruleset <spec>`: the positions up to the next such line are played under it.
    Ruleset(String),
    /// `position <position>` (or `position start`) and its `depth` lines.
    Position {
        /// The position as written, or `start`.
        text: String,
        /// Its line number, counting from 1.
        line: usize,
        /// The counts at depths 1, 2, …
        counts: Vec<PerftCount>,
    },
}

/// Reads a perft file; an error names the line.
pub(crate) fn parse(text: &str) -> Result<Vec<Item>, String> {
    let mut items = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = i + 1;
        let trimmed = raw.trim();
        if trimmed.is_empty() || trimmed.starts_with('#') {
            items.push(Item::Text(raw.to_string()));
        } else if let Some(spec) = trimmed.strip_prefix("ruleset ") {
            items.push(Item::Ruleset(spec.trim().to_string()));
        } else if let Some(position) = trimmed.strip_prefix("position ") {
            if !items.iter().any(|item| matches!(item, Item::Ruleset(_))) {
                return Err(format!("line {line}: a position before any `ruleset` line"));
            }
            items.push(Item::Position {
                text: position.trim().to_string(),
                line,
                counts: Vec::new(),
            });
        } else if let Some(rest) = trimmed.strip_prefix("depth ") {
            let Some(Item::Position { counts, .. }) = items.last_mut() else {
                return Err(format!(
                    "line {line}: a depth line belongs under a position"
                ));
            };
            let numbers: Vec<u64> = rest
                .split_whitespace()
                .map(str::parse)
                .collect::<Result<_, _>>()
                .map_err(|e| format!("line {line}: {e} in {trimmed:?}"))?;
            let &[depth, sequences, game_over] = numbers.as_slice() else {
                return Err(format!(
                    "line {line}: expected `depth <d> <sequences> <game over>`, found {trimmed:?}"
                ));
            };
            if depth != counts.len() as u64 + 1 {
                return Err(format!(
                    "line {line}: depth {depth} where depth {} comes next",
                    counts.len() + 1
                ));
            }
            counts.push(PerftCount {
                sequences,
                game_over,
            });
        } else {
            return Err(format!("line {line}: not a perft line: {trimmed:?}"));
        }
    }
    Ok(items)
}

/// Writes the items back in the file format.
pub(crate) fn write(items: &[Item]) -> String {
    let mut out = String::new();
    for item in items {
        match item {
            Item::Text(text) => out.push_str(text),
            Item::Ruleset(spec) => out.push_str(&format!("ruleset {spec}")),
            Item::Position { text, counts, .. } => {
                out.push_str(&format!("position {text}"));
                for (d, count) in counts.iter().enumerate() {
                    let _ = write!(
                        out,
                        "\ndepth {} {} {}",
                        d + 1,
                        count.sequences,
                        count.game_over
                    );
                }
            }
        }
        out.push('\n');
    }
    out
}

/// The counts checked in for `position start` under `ruleset <spec>`.
pub(crate) fn start_counts<'a>(items: &'a [Item], spec: &str) -> Option<&'a [PerftCount]> {
    let mut current = None;
    items.iter().find_map(|item| match item {
        Item::Ruleset(s) => {
            current = Some(s.as_str());
            None
        }
        Item::Position { text, counts, .. } if text == "start" && current == Some(spec) => {
            Some(counts.as_slice())
        }
        _ => None,
    })
}
