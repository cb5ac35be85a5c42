//! Fuzzing every parser with arbitrary strings and bytes and with mutations of valid inputs
//! taken from real seeded games, for every registered configuration (`common::configurations`):
//! positions (`Setup`, `Ruleset::parse_position`), ruleset specifications (`RulesetSpec`,
//! `AnyRuleset`, `Ruleset::from_spec`), moves and actions, text records
//! (`GameRecord::from_str`, `Game::from_record_text`) and JSON records through serde
//! (`GameRecord`, `Game<R>`, `Move`, `RulesetSpec`).
//!
//! Properties: nothing panics; a refusal is the parser's typed error with a message of
//! reasonable length (a line number, when it has one, inside the text); whatever is
//! accepted prints back to text that parses to the same value (for positions: a state that
//! validates), and a loaded record's game loads again identically from its own record.
//!
//! The default run is short (CI); `cargo test --release --test fuzz_parsers -- --ignored` is
//! the long run, with `PROPTEST_CASES` cases per configuration (see docs/reliability.md).

mod common;

use proptest::prelude::*;
use proptest::test_runner::TestCaseError;
use rand_chacha::ChaCha8Rng;
use rand_core::SeedableRng;
use senet::registry::{AnyRuleset, Registered, RulesetVisitor};
use senet::{Action, Game, GameRecord, Move, RecordError, Ruleset, RulesetSpec, Setup};
use senet_testkit::conformance::walk_random_game;

/// The longest error message accepted: errors quote the offending input, but only a bounded
/// part of it, so that hostile input cannot blow up logs.
const MAX_MESSAGE: usize = 1000;

/// Valid inputs of each kind, from real seeded games of one configuration.
struct Corpus {
    positions: Vec<String>,
    specs: Vec<String>,
    moves: Vec<String>,
    records: Vec<String>,
    json: Vec<String>,
}

fn corpus<R: Ruleset>(rules: &R, games: u64) -> Corpus {
    let mut positions = Vec::new();
    let mut moves = vec![
        "pass".to_string(),
        "enter".to_string(),
        "3-5,8-10/2".to_string(),
    ];
    let mut records = Vec::new();
    let mut json = Vec::new();
    for seed in 0..games {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut index = 0u32;
        walk_random_game(rules, &mut rng, senet::DEFAULT_TURN_CAP, |state| {
            index += 1;
            if index.is_multiple_of(13) {
                positions.push(rules.position_string(state));
                for mv in &rules.legal_moves(state) {
                    moves.push(mv.to_string());
                }
            }
            true
        });
        let mut game = Game::new(rules.clone());
        game.set_seed(Some(seed));
        game.play_random(
            &mut ChaCha8Rng::seed_from_u64(seed),
            senet::DEFAULT_TURN_CAP,
        );
        // Short records too: the start of the game, and a game that starts mid-way.
        let mut opening = Game::new(rules.clone());
        for action in game.history().iter().take(40) {
            opening.apply(*action).expect("a recorded action replays");
        }
        let mut middle = Game::from_state(rules.clone(), *opening.state()).expect("valid");
        middle.play_random(&mut ChaCha8Rng::seed_from_u64(seed + 100), 30);
        for g in [&game, &opening, &middle] {
            records.push(g.record().to_string());
            json.push(serde_json::to_string(g).expect("a game serialises"));
        }
    }
    moves.sort();
    moves.dedup();
    let specs = common::configurations()
        .iter()
        .map(ToString::to_string)
        .chain([
            "regency(house_of_water=true, house_of_happiness=true)".to_string(),
            "cemea(pieces=5,die=true,ancient=true,forced_own_landing=false)".to_string(),
        ])
        .collect();
    Corpus {
        positions,
        specs,
        moves,
        records,
        json,
    }
}

/// One edit of a valid input.
#[derive(Clone, Debug)]
enum Edit {
    /// Replace the character at a position.
    Replace(usize, char),
    /// Delete a run of characters.
    Delete(usize, usize),
    /// Insert text.
    Insert(usize, String),
    /// Repeat a run of characters.
    Duplicate(usize, usize),
    /// Swap two lines.
    SwapLines(usize, usize),
    /// Delete a line.
    DropLine(usize),
    /// Repeat a line.
    RepeatLine(usize),
    /// Replace the n-th run of digits with another number.
    Number(usize, u64),
    /// Insert one character many times (hostile input: very long names and values).
    Flood(usize, char, u16),
}

fn interesting_char() -> impl Strategy<Value = char> {
    prop_oneof![
        4 => prop::sample::select(
            "BW.bw =-,/()#\n 0123456789_{}[]\":x\u{e9}\u{0}\t".chars().collect::<Vec<_>>()
        ),
        1 => any::<char>(),
    ]
}

fn edit() -> impl Strategy<Value = Edit> {
    prop_oneof![
        4 => (any::<usize>(), interesting_char()).prop_map(|(i, c)| Edit::Replace(i, c)),
        2 => (any::<usize>(), 1usize..8).prop_map(|(i, n)| Edit::Delete(i, n)),
        2 => (
            any::<usize>(),
            prop_oneof![
                "[BW. bw=a-z0-9_,/()#\\-]{1,8}",
                prop::sample::select(vec![
                    "throw", "move", "rules", "revision", "seed", "start", "off", "pass",
                    "enter", "hand", "=", "\n", "(", ")", ",", "/", "\"", "{", "}", "null",
                    "99999999999999999999", "-1", "255", "256", "65536", "4294967296",
                ]).prop_map(String::from),
            ],
        ).prop_map(|(i, s)| Edit::Insert(i, s)),
        1 => (any::<usize>(), 1usize..40).prop_map(|(i, n)| Edit::Duplicate(i, n)),
        1 => (any::<usize>(), any::<usize>()).prop_map(|(a, b)| Edit::SwapLines(a, b)),
        1 => any::<usize>().prop_map(Edit::DropLine),
        1 => any::<usize>().prop_map(Edit::RepeatLine),
        2 => (any::<usize>(), prop_oneof![0u64..10, 0u64..300, any::<u64>()])
            .prop_map(|(i, n)| Edit::Number(i, n)),
        1 => (any::<usize>(), interesting_char(), 1u16..3000)
            .prop_map(|(i, c, n)| Edit::Flood(i, c, n)),
    ]
}

fn apply(text: &str, edit: &Edit) -> String {
    let mut chars: Vec<char> = text.chars().collect();
    let at = |i: usize, len: usize| if len == 0 { 0 } else { i % (len + 1) };
    match edit {
        Edit::Replace(i, c) => {
            if !chars.is_empty() {
                let i = i % chars.len();
                chars[i] = *c;
            }
        }
        Edit::Delete(i, n) => {
            let start = at(*i, chars.len());
            let end = (start + n).min(chars.len());
            chars.drain(start..end);
        }
        Edit::Insert(i, s) => {
            let start = at(*i, chars.len());
            chars.splice(start..start, s.chars());
        }
        Edit::Duplicate(i, n) => {
            let start = at(*i, chars.len());
            let end = (start + n).min(chars.len());
            let copy: Vec<char> = chars[start..end].to_vec();
            chars.splice(end..end, copy);
        }
        Edit::SwapLines(..) | Edit::DropLine(_) | Edit::RepeatLine(_) => {
            let mut lines: Vec<&str> = text.lines().collect();
            if lines.is_empty() {
                return text.to_string();
            }
            let n = lines.len();
            match edit {
                Edit::SwapLines(a, b) => lines.swap(a % n, b % n),
                Edit::DropLine(a) => {
                    lines.remove(a % n);
                }
                Edit::RepeatLine(a) => lines.insert(a % n, lines[a % n]),
                _ => {}
            }
            return lines.join("\n");
        }
        Edit::Flood(i, c, n) => {
            let start = at(*i, chars.len());
            chars.splice(start..start, std::iter::repeat_n(*c, usize::from(*n)));
        }
        Edit::Number(i, value) => {
            let runs: Vec<(usize, usize)> = digit_runs(&chars);
            if !runs.is_empty() {
                let (start, end) = runs[i % runs.len()];
                chars.splice(start..end, value.to_string().chars());
            }
        }
    }
    chars.into_iter().collect()
}

fn digit_runs(chars: &[char]) -> Vec<(usize, usize)> {
    let mut runs = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        if chars[i].is_ascii_digit() {
            let start = i;
            while i < chars.len() && chars[i].is_ascii_digit() {
                i += 1;
            }
            runs.push((start, i));
        } else {
            i += 1;
        }
    }
    runs
}

/// Where an input comes from.
#[derive(Clone, Debug)]
enum Source {
    /// Any string at all.
    Any(String),
    /// Any bytes (read as UTF-8 where a parser takes text).
    Bytes(Vec<u8>),
    /// A string over the characters the notations use.
    Alphabet(String),
    /// A valid input of some kind (0 positions, 1 specs, 2 moves, 3 records, 4 JSON), by
    /// index, with edits.
    Mutated(u8, usize, Vec<Edit>),
}

fn source() -> impl Strategy<Value = Source> {
    prop_oneof![
        1 => any::<String>().prop_map(Source::Any),
        1 => prop::collection::vec(any::<u8>(), 0..200).prop_map(Source::Bytes),
        2 => "[BW.bw =a-z0-9_,/()#\\-\n{}\":\\[\\]]{0,120}".prop_map(Source::Alphabet),
        8 => (0u8..5, any::<usize>(), prop::collection::vec(edit(), 0..6))
            .prop_map(|(k, i, e)| Source::Mutated(k, i, e)),
    ]
}

fn input_bytes(corpus: &Corpus, source: &Source) -> Vec<u8> {
    match source {
        Source::Any(s) | Source::Alphabet(s) => s.clone().into_bytes(),
        Source::Bytes(b) => b.clone(),
        Source::Mutated(kind, index, edits) => {
            let pool = match kind {
                0 => &corpus.positions,
                1 => &corpus.specs,
                2 => &corpus.moves,
                3 => &corpus.records,
                _ => &corpus.json,
            };
            let mut text = pool[index % pool.len()].clone();
            for edit in edits {
                text = apply(&text, edit);
            }
            text.into_bytes()
        }
    }
}

fn fail(message: String) -> TestCaseError {
    TestCaseError::fail(message)
}

fn short_message(what: &str, message: String) -> Result<(), TestCaseError> {
    if message.is_empty() || message.len() > MAX_MESSAGE {
        return Err(fail(format!(
            "{what}: an error message of {} characters: {}",
            message.len(),
            message.chars().take(200).collect::<String>()
        )));
    }
    Ok(())
}

/// Runs every parser on one input.
fn check_input<R: Ruleset>(rules: &R, bytes: &[u8]) -> Result<(), TestCaseError> {
    let text = String::from_utf8_lossy(bytes);
    let text = text.as_ref();

    // Positions.
    match text.parse::<Setup>() {
        Ok(setup) => prop_assert_eq!(setup.to_string().parse::<Setup>(), Ok(setup.clone())),
        Err(e) => short_message("Setup", e.to_string())?,
    }
    match rules.parse_position(text) {
        Ok(state) => {
            prop_assert!(rules.validate(&state).is_ok());
            let printed = rules.position_string(&state);
            let again = rules
                .parse_position(&printed)
                .map_err(|e| fail(format!("{printed:?} does not parse back: {e}")))?;
            prop_assert_eq!(again, state, "{:?} → {:?}", text, printed);
            prop_assert_eq!(rules.position_string(&again), printed);
        }
        Err(e) => short_message("position", e.to_string())?,
    }

    // Ruleset specifications.
    match text.parse::<RulesetSpec>() {
        Ok(spec) => {
            prop_assert_eq!(spec.to_string().parse::<RulesetSpec>(), Ok(spec.clone()));
            match AnyRuleset::from_spec(&spec) {
                Ok(any) => {
                    prop_assert_eq!(AnyRuleset::parse(&any.to_string()), Ok(any.clone()));
                }
                Err(e) => short_message("AnyRuleset", e.to_string())?,
            }
            match R::from_spec(&spec) {
                Ok(configured) => prop_assert_eq!(
                    R::from_spec(&configured.spec()).ok().map(|r| r.spec()),
                    Some(configured.spec())
                ),
                Err(e) => short_message("from_spec", e.to_string())?,
            }
        }
        Err(e) => short_message("RulesetSpec", e.to_string())?,
    }

    // Moves and actions.
    match text.parse::<Move>() {
        Ok(mv) => prop_assert_eq!(mv.to_string().parse::<Move>(), Ok(mv)),
        Err(e) => short_message("Move", e.to_string())?,
    }
    if let Ok(action) = text.parse::<Action>() {
        prop_assert_eq!(action.to_string().parse::<Action>(), Ok(action));
    }

    // Text records.
    let line_count = text.lines().count().max(1);
    match text.parse::<GameRecord>() {
        Ok(record) => prop_assert_eq!(record.to_string().parse::<GameRecord>(), Ok(record.clone())),
        Err(e) => short_message("GameRecord", e.to_string())?,
    }
    match Game::<R>::from_record_text(text) {
        Ok(game) => {
            let again = Game::<R>::from_record_text(&game.record().to_string())
                .map_err(|e| fail(format!("a loaded game's record does not load: {e}")))?;
            prop_assert_eq!(again, game);
        }
        Err(e) => {
            if let RecordError::Syntax { line, .. } | RecordError::AtLine { line, .. } = &e {
                prop_assert!(
                    (1..=line_count).contains(line),
                    "line {} named in a text of {} lines: {}",
                    line,
                    line_count,
                    e
                );
            }
            short_message("record", e.to_string())?;
        }
    }

    // JSON through serde.
    if let Ok(record) = serde_json::from_slice::<GameRecord>(bytes) {
        let json = serde_json::to_string(&record).map_err(|e| fail(e.to_string()))?;
        prop_assert_eq!(serde_json::from_str::<GameRecord>(&json).ok(), Some(record));
    }
    if let Ok(game) = serde_json::from_slice::<Game<R>>(bytes) {
        let json = serde_json::to_string(&game).map_err(|e| fail(e.to_string()))?;
        let again: Game<R> =
            serde_json::from_str(&json).map_err(|e| fail(format!("reload: {e}")))?;
        prop_assert_eq!(again, game);
    }
    if let Ok(mv) = serde_json::from_slice::<Move>(bytes) {
        let json = serde_json::to_string(&mv).map_err(|e| fail(e.to_string()))?;
        prop_assert_eq!(serde_json::from_str::<Move>(&json).ok(), Some(mv));
    }
    if let Ok(spec) = serde_json::from_slice::<RulesetSpec>(bytes) {
        let json = serde_json::to_string(&spec).map_err(|e| fail(e.to_string()))?;
        prop_assert_eq!(serde_json::from_str::<RulesetSpec>(&json).ok(), Some(spec));
    }
    Ok(())
}

struct Parsers {
    cases: u32,
}

impl RulesetVisitor for Parsers {
    type Output = ();

    fn visit<R: Registered>(self, rules: &R) {
        let corpus = corpus(rules, 2);
        // The valid inputs themselves parse and round-trip.
        for bytes in [
            &corpus.positions,
            &corpus.specs,
            &corpus.moves,
            &corpus.records,
            &corpus.json,
        ]
        .into_iter()
        .flatten()
        {
            if let Err(e) = check_input(rules, bytes.as_bytes()) {
                panic!("{}: valid input {bytes:?}: {e}", rules.spec());
            }
        }
        for position in &corpus.positions {
            assert!(rules.parse_position(position).is_ok(), "{position}");
        }
        for record in &corpus.records {
            assert!(Game::<R>::from_record_text(record).is_ok(), "{record}");
        }
        for json in &corpus.json {
            assert!(serde_json::from_str::<Game<R>>(json).is_ok(), "{json}");
        }
        let what = format!("fuzz_parsers {}", rules.spec());
        common::run_property(&what, self.cases, source(), |source| {
            check_input(rules, &input_bytes(&corpus, &source))
        });
    }
}

fn run_all(cases: u32) {
    for rules in common::configurations() {
        rules.visit(Parsers { cases });
    }
}

#[test]
fn every_parser_survives_arbitrary_and_mutated_input() {
    run_all(common::cases(48));
}

/// The long run: `PROPTEST_CASES` (default 50,000) cases per configuration.
#[test]
#[ignore = "long run; see docs/reliability.md"]
fn long_every_parser_survives_arbitrary_and_mutated_input() {
    run_all(common::cases(50_000));
}

#[test]
fn edits_do_what_they_say() {
    assert_eq!(apply("abc", &Edit::Replace(4, 'x')), "axc");
    assert_eq!(apply("abcdef", &Edit::Delete(1, 2)), "adef");
    assert_eq!(apply("abc", &Edit::Insert(1, "XY".to_string())), "aXYbc");
    assert_eq!(apply("abc", &Edit::Duplicate(0, 2)), "ababc");
    assert_eq!(apply("a\nb\nc", &Edit::SwapLines(0, 2)), "c\nb\na");
    assert_eq!(apply("a\nb\nc", &Edit::DropLine(1)), "a\nc");
    assert_eq!(apply("a\nb", &Edit::RepeatLine(0)), "a\na\nb");
    assert_eq!(
        apply("throw 3\nseed 12", &Edit::Number(1, 7)),
        "throw 3\nseed 7"
    );
    assert_eq!(apply("ab", &Edit::Flood(1, 'x', 3)), "axxxb");
}
