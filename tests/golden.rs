//! Golden playthroughs: for every registered ruleset, with its defaults and with each
//! non-default option value on its own (plus the combinations in [`EXTRA_CONFIGURATIONS`]), a
//! seeded random game written out with every position, throw, the legal moves at each
//! decision and the move chosen, checked in under `tests/golden/`. This test plays each game
//! again and compares, so any change of behaviour shows as a diff.
//!
//! Each file is also a valid game record (the positions and legal moves are comments), so
//! `senet replay tests/golden/regency.txt` shows it, and the test checks that it replays.
//!
//! - A changed game whose ruleset kept its `RULES_REVISION` fails, even when blessing: raise
//!   the revision in the ruleset crate first (see `docs/reliability.md`).
//! - `SENET_BLESS=1 cargo test --test golden` rewrites the files whose game changed under a
//!   new revision, writes the files of new configurations (choosing their seed) and deletes
//!   those of configurations that no longer exist.

mod common;

use std::collections::BTreeSet;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use rand_chacha::ChaCha8Rng;
use rand_core::SeedableRng;
use senet::registry::{AnyRuleset, Registered, RulesetVisitor};
use senet::{Game, GameRecord, Phase, PlayoutEnd, ThrowingDevice, TurnCounter, uniform_below};

/// Option combinations worth a golden game of their own, beyond the defaults and each
/// option value alone (which are covered automatically). One line per combination.
const EXTRA_CONFIGURATIONS: &[&str] = &[
    "regency(house_of_happiness=true,house_of_water=true)",
    "cemea(pieces=5,die=true,ancient=true)",
];

/// A new golden file gets the first seed from 1 whose game ends within this many actions
/// (which keeps the files short enough to read) and, for a configuration with options,
/// differs from the game of the ruleset's defaults with the same seed.
const MAX_NEW_GAME_ACTIONS: usize = 600;

/// Golden games stop at this many turns. Some configurations make random games that rarely
/// end (Jéquier with `backward_priority=per_piece` walks pieces back and forth for tens of
/// thousands of turns), and a game cut at the cap is as good a witness of behaviour as a
/// finished one; the file says where it stopped.
const GOLDEN_TURN_CAP: u32 = 200;

fn golden_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/golden")
}

/// `regency` → `regency.txt`; `regency(house_of_water=true)` →
/// `regency-house_of_water=true.txt`.
fn file_name(rules: &AnyRuleset) -> String {
    let spec = rules.spec();
    let mut name = spec.id().to_string();
    for (option, value) in spec.options() {
        let _ = write!(name, "-{option}={value}");
    }
    name.push_str(".txt");
    name
}

fn blessing() -> bool {
    std::env::var_os("SENET_BLESS").is_some_and(|v| v != "0")
}

/// Plays the seeded game and writes it out. The throws and choices come from one ChaCha8
/// stream exactly as `Game::play_random` draws them (the test checks that they agree).
struct Playthrough {
    seed: u64,
}

struct Played {
    text: String,
    actions: usize,
    revision: u32,
}

impl RulesetVisitor for Playthrough {
    type Output = Played;

    fn visit<R: Registered>(self, rules: &R) -> Played {
        let seed = self.seed;
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut game = Game::new(rules.clone());
        game.set_seed(Some(seed));
        let device = rules.device();
        let mut turns = TurnCounter::default();
        let mut text = String::new();
        let _ = writeln!(
            text,
            "# Golden playthrough of {} (tests/golden.rs): a seeded random game with the\n\
             # position before every action and the legal moves at every decision. It is a\n\
             # game record: `senet replay` shows it. See docs/reliability.md.",
            rules.spec()
        );
        let _ = writeln!(text, "rules {}", rules.spec());
        let _ = writeln!(text, "revision {}", R::RULES_REVISION);
        let _ = writeln!(text, "seed {seed}");
        let end = loop {
            let phase = game.phase();
            if let Some(side) = phase.side()
                && turns.observe(side)
                && turns.turns() > GOLDEN_TURN_CAP
            {
                break PlayoutEnd::TurnCap;
            }
            let _ = writeln!(text, "# position {}", game.position());
            match phase {
                Phase::Over(outcome) => break PlayoutEnd::Finished(outcome),
                Phase::Throw(_) => {
                    let value = device.sample(&mut rng);
                    game.throw(value)
                        .expect("a device value in the throw phase");
                    let _ = writeln!(text, "throw {value}");
                }
                Phase::Move(_) => {
                    let moves = game.legal_moves();
                    let listed: Vec<String> = moves.iter().map(ToString::to_string).collect();
                    let _ = writeln!(text, "# legal {}", listed.join(" "));
                    let pick = uniform_below(&mut rng, moves.len() as u32) as usize;
                    let mv = moves[pick];
                    game.play(mv).expect("a generated move is legal");
                    let _ = writeln!(text, "move {mv}");
                }
            }
        };
        match end {
            PlayoutEnd::Finished(outcome) => {
                let winner = outcome
                    .winner
                    .map_or_else(|| "nobody (a draw)".to_string(), |s| s.to_string());
                // Turns are left out: they are the driver's count, not the ruleset's.
                let _ = writeln!(
                    text,
                    "# result: {winner} wins; points Black {}, White {}; {} actions",
                    outcome.points[senet::Side::Black],
                    outcome.points[senet::Side::White],
                    game.history().len(),
                );
            }
            PlayoutEnd::TurnCap => {
                let _ = writeln!(
                    text,
                    "# stopped at the turn cap ({GOLDEN_TURN_CAP} turns) after {} actions",
                    game.history().len()
                );
            }
        }

        // The same seed through the library's own random play makes the same game.
        let mut again = Game::new(rules.clone());
        again.set_seed(Some(seed));
        let again_end = again.play_random(&mut ChaCha8Rng::seed_from_u64(seed), GOLDEN_TURN_CAP);
        assert_eq!(
            again_end,
            end,
            "{}: play_random ends differently",
            rules.spec()
        );
        assert_eq!(
            again,
            game,
            "{}: play_random plays differently",
            rules.spec()
        );

        // The file is the game's record, annotated.
        let record: GameRecord = text.parse().expect("a golden file is a record");
        assert_eq!(record, game.record(), "{}", rules.spec());
        let replayed = Game::<R>::from_record_text(&text).expect("a golden file replays");
        assert_eq!(replayed.state(), game.state());

        Played {
            text,
            actions: game.history().len(),
            revision: R::RULES_REVISION,
        }
    }
}

/// The `revision` and `seed` a golden file was written with.
fn header_number(text: &str, keyword: &str) -> Option<u64> {
    text.lines()
        .find_map(|line| line.strip_prefix(keyword)?.strip_prefix(' '))
        .and_then(|rest| rest.trim().parse().ok())
}

/// The first line where two texts differ, with a few lines of each around it.
fn first_difference(expected: &str, actual: &str) -> String {
    let old: Vec<&str> = expected.lines().collect();
    let new: Vec<&str> = actual.lines().collect();
    let at = old
        .iter()
        .zip(&new)
        .position(|(a, b)| a != b)
        .unwrap_or(old.len().min(new.len()));
    let from = at.saturating_sub(3);
    let show = |lines: &[&str], sign: char| -> String {
        let mut out = String::new();
        for (i, line) in lines.iter().enumerate().skip(from).take(at - from + 4) {
            let marker = if i == at { sign } else { ' ' };
            let _ = writeln!(out, "{marker} {:>5} | {line}", i + 1);
        }
        if lines.len() <= at {
            let _ = writeln!(out, "{sign} {:>5} | <end of file>", lines.len() + 1);
        }
        out
    };
    format!(
        "first difference at line {}\n--- checked in\n{}+++ played now\n{}",
        at + 1,
        show(&old, '-'),
        show(&new, '+')
    )
}

fn configurations() -> Vec<AnyRuleset> {
    let mut all = common::configurations();
    for text in EXTRA_CONFIGURATIONS {
        let id = text.split('(').next().unwrap_or_default();
        if senet::registry::info(id).is_some() {
            all.push(AnyRuleset::parse(text).unwrap_or_else(|e| panic!("{text}: {e}")));
        }
    }
    all
}

/// Checks one configuration against its file; returns a problem to report, if any.
fn check(rules: &AnyRuleset, path: &Path, bless: bool) -> Option<String> {
    let name = path.file_name().unwrap().to_string_lossy().into_owned();
    let Ok(checked_in) = std::fs::read_to_string(path) else {
        // A new configuration: pick a seed with a short game in which its options matter.
        let played = (1..=2000u64)
            .map(|seed| (seed, rules.visit(Playthrough { seed })))
            .find(|(seed, p)| {
                p.actions <= MAX_NEW_GAME_ACTIONS && shows_its_options(rules, *seed, p)
            })
            .map(|(_, p)| p)
            .unwrap_or_else(|| {
                panic!("{name}: no seed up to 2000 gives a short game showing its options")
            });
        if bless {
            std::fs::write(path, played.text).expect("tests/golden is writable");
            return None;
        }
        return Some(format!(
            "{name}: no golden file for {rules}; create it with `SENET_BLESS=1 cargo test --test golden`"
        ));
    };
    let seed = header_number(&checked_in, "seed")
        .unwrap_or_else(|| panic!("{name}: the golden file names no seed"));
    let played = rules.visit(Playthrough { seed });
    if played.text == checked_in {
        return None;
    }
    let old_revision = header_number(&checked_in, "revision");
    let same_game = strip_revision(&played.text) == strip_revision(&checked_in);
    if old_revision == Some(u64::from(played.revision)) {
        // The ruleset plays differently under the same revision: never bless that.
        return Some(format!(
            "{name}: the game of {rules} changed, but its RULES_REVISION is still {}. If the \
             change is intended, raise RULES_REVISION in the ruleset crate (noting why), then \
             bless with `SENET_BLESS=1 cargo test --test golden`.\n{}",
            played.revision,
            first_difference(&checked_in, &played.text)
        ));
    }
    if bless {
        std::fs::write(path, played.text).expect("tests/golden is writable");
        return None;
    }
    Some(format!(
        "{name}: the revision of {rules} went from {} to {}{}; bless with \
         `SENET_BLESS=1 cargo test --test golden`.\n{}",
        old_revision.map_or_else(|| "none".to_string(), |r| r.to_string()),
        played.revision,
        if same_game {
            " and the game is unchanged"
        } else {
            " and the game changed"
        },
        first_difference(&checked_in, &played.text)
    ))
}

/// The actions and positions of a golden text, without its header.
fn moves_part(text: &str) -> &str {
    // Everything after the `seed` line, the last of the header.
    text.split_once("\nseed ")
        .and_then(|(_, rest)| rest.split_once('\n'))
        .map_or(text, |(_, moves)| moves)
}

/// Whether the game differs from the one the ruleset's defaults play with the same seed
/// (always true for the defaults themselves), so that a configuration's golden game shows
/// what its options change.
fn shows_its_options(rules: &AnyRuleset, seed: u64, played: &Played) -> bool {
    let defaults = AnyRuleset::parse(rules.id()).expect("a registered id parses");
    defaults == *rules
        || moves_part(&defaults.visit(Playthrough { seed }).text) != moves_part(&played.text)
}

fn strip_revision(text: &str) -> String {
    text.lines()
        .filter(|l| !l.starts_with("revision "))
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn golden_playthroughs_are_unchanged() {
    let bless = blessing();
    let dir = golden_dir();
    std::fs::create_dir_all(&dir).expect("tests/golden can be created");
    let mut problems = Vec::new();
    let mut expected_files = BTreeSet::new();
    for rules in configurations() {
        let name = file_name(&rules);
        assert!(expected_files.insert(name.clone()), "{name} listed twice");
        if let Some(problem) = check(&rules, &dir.join(&name), bless) {
            problems.push(problem);
        }
    }
    // Files of configurations that no longer exist (a removed option, say) are stale. Files
    // of rulesets that are not in this build's registry (their feature is off, or the
    // ruleset was removed, in which case delete them by hand) are left alone.
    for entry in std::fs::read_dir(&dir).expect("tests/golden is readable") {
        let name = entry.unwrap().file_name().to_string_lossy().into_owned();
        let id = name.split(['-', '.']).next().unwrap_or_default();
        let compiled_in = senet::registry::info(id).is_some();
        if name.ends_with(".txt") && compiled_in && !expected_files.contains(&name) {
            if bless {
                std::fs::remove_file(dir.join(&name)).expect("a stale golden file is removable");
            } else {
                problems.push(format!(
                    "{name}: no registered configuration plays it any more; remove it with \
                     `SENET_BLESS=1 cargo test --test golden`"
                ));
            }
        }
    }
    assert!(problems.is_empty(), "\n{}", problems.join("\n\n"));
}

#[test]
fn every_registered_configuration_has_a_golden_file_name_of_its_own() {
    let names: BTreeSet<String> = configurations().iter().map(file_name).collect();
    assert_eq!(names.len(), configurations().len());
    assert!(names.contains("regency.txt"));
    assert!(names.contains("regency-house_of_water=true.txt"));
}

#[test]
fn the_difference_report_names_the_first_changed_line() {
    let report = first_difference("a\nb\nc\n", "a\nB\nc\n");
    assert!(
        report.starts_with("first difference at line 2\n"),
        "{report}"
    );
    assert!(report.contains("-     2 | b"), "{report}");
    assert!(report.contains("+     2 | B"), "{report}");
    let shorter = first_difference("a\nb\n", "a\n");
    assert!(shorter.contains("+     2 | <end of file>"), "{shorter}");
}

/// A changed game under an unchanged revision is refused even when blessing; under a new
/// revision blessing accepts it. Checked on a scratch copy of one golden file.
#[test]
fn a_changed_game_needs_a_new_revision() {
    let rules = AnyRuleset::parse("regency").unwrap();
    let played = rules.visit(Playthrough { seed: 3 });
    let scratch = std::env::temp_dir().join(format!("senet-golden-{}", std::process::id()));
    std::fs::create_dir_all(&scratch).unwrap();
    let path = scratch.join("regency.txt");

    // The same revision with a different game (another seed's moves): refused, even blessing.
    let other = rules.visit(Playthrough { seed: 4 });
    let tampered = other.text.replace("seed 4", "seed 3");
    std::fs::write(&path, &tampered).unwrap();
    for bless in [false, true] {
        let problem = check(&rules, &path, bless).expect("a changed game is reported");
        assert!(problem.contains("RULES_REVISION is still"), "{problem}");
        assert_eq!(std::fs::read_to_string(&path).unwrap(), tampered);
    }

    // An older revision in the file: reported, and blessing rewrites it.
    let older = played.text.replace(
        &format!("revision {}", played.revision),
        &format!("revision {}", played.revision - 1),
    );
    std::fs::write(&path, &older).unwrap();
    let problem = check(&rules, &path, false).expect("a new revision is reported");
    assert!(problem.contains("the game is unchanged"), "{problem}");
    assert_eq!(check(&rules, &path, true), None);
    assert_eq!(std::fs::read_to_string(&path).unwrap(), played.text);
    assert_eq!(check(&rules, &path, false), None);
    std::fs::remove_dir_all(&scratch).unwrap();
}
