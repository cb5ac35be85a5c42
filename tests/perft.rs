//! Perft, the regression oracle of the move generators: for every registered ruleset, the
//! number of (throw, move) sequences from the start and from a few fixed positions to each
//! depth, checked in under `tests/perft/<id>.txt` (format in `docs/notation.md`, "Perft
//! files"). Any change in what is legal, what a throw or a move leads to, or when a game ends
//! changes a count, and this test names the ruleset, the position and the depth.
//!
//! The counts of `senet::perft` are also recomputed by a second, naive walk (checked
//! `try_throw` of every value from 0 to 9 and `try_play` of each legal move, on copies of
//! the state) at every depth with at most [`NAIVE_MAX_SEQUENCES`] sequences, so the files
//! do not merely agree with themselves.
//!
//! `SENET_BLESS=1 cargo test --test perft` rewrites the counts from the current rules, and
//! fills in a position listed without depth lines down to the deepest depth whose walk stays
//! within [`START_BUDGET`] (the start) or [`POSITION_BUDGET`] (other positions) sequences.

#[path = "perft/file.rs"]
mod file;

use file::Item;
use senet::Throw;
use senet::perft::{Perft, PerftCount};
use senet::registry::{AnyRuleset, RULESETS, Registered, RulesetVisitor};
use senet::{Phase, Ruleset};

/// Sequences, summed over all depths, a new start position is walked to: its deepest count
/// is also the one `benches/perft.rs` times.
const START_BUDGET: u64 = 1_000_000;
/// Sequences, summed over all depths, a new position other than the start is walked to.
const POSITION_BUDGET: u64 = 150_000;
/// The naive walk checks every depth with at most this many sequences.
const NAIVE_MAX_SEQUENCES: u64 = 10_000;
/// No position is filled in deeper than this, even when its game ends sooner.
const MAX_DEPTH: usize = 40;

fn blessing() -> bool {
    std::env::var_os("SENET_BLESS").is_some()
}

/// Checks one position against its counts, or with `bless` rewrites them. Returns the
/// failures, each naming where it happened.
struct CheckPosition<'a> {
    place: String,
    text: &'a str,
    counts: &'a mut Vec<PerftCount>,
    bless: bool,
}

impl RulesetVisitor for CheckPosition<'_> {
    type Output = Vec<String>;

    fn visit<R: Registered>(self, rules: &R) -> Vec<String> {
        let place = self.place;
        let state = if self.text == "start" {
            rules.initial_state()
        } else {
            match rules.parse_position(self.text) {
                Ok(state) if rules.position_string(&state) == self.text => state,
                Ok(state) => {
                    return vec![format!(
                        "{place}: write the position as {}",
                        rules.position_string(&state)
                    )];
                }
                Err(e) => return vec![format!("{place}: {e}")],
            }
        };
        let mut failures = Vec::new();
        if self.counts.is_empty() {
            if !self.bless {
                return vec![format!(
                    "{place}: no depth lines (`SENET_BLESS=1 cargo test --test perft` fills them in)"
                )];
            }
            let budget = if self.text == "start" {
                START_BUDGET
            } else {
                POSITION_BUDGET
            };
            *self.counts = deepest_within(rules, &state, budget);
        } else {
            let computed = Perft::new(self.counts.len())
                .unwrap()
                .run(rules, &state)
                .to_vec();
            if self.bless {
                *self.counts = computed;
            } else {
                failures.extend(differences(&place, self.counts, "senet::perft", &computed));
            }
        }
        let naive_depth = self
            .counts
            .iter()
            .take_while(|c| c.sequences <= NAIVE_MAX_SEQUENCES)
            .count();
        let mut naive = vec![PerftCount::default(); naive_depth];
        naive_walk(rules, &state, &mut naive);
        failures.extend(differences(
            &place,
            &self.counts[..naive_depth],
            "the naive walk",
            &naive,
        ));
        failures
    }
}

/// The counts down to the deepest depth whose walk, summed over the depths, stays within
/// `budget` sequences (and before any depth no sequence reaches).
fn deepest_within<R: Ruleset>(rules: &R, state: &R::State, budget: u64) -> Vec<PerftCount> {
    let mut best = Perft::new(1).unwrap().run(rules, state).to_vec();
    for depth in 2..=MAX_DEPTH {
        let counts = Perft::new(depth).unwrap().run(rules, state).to_vec();
        let total: u64 = counts.iter().map(|c| c.sequences).sum();
        if total > budget || counts[depth - 1].sequences == 0 {
            break;
        }
        best = counts;
    }
    best
}

/// One message per depth at which the `checked` counts and those `source` found differ.
fn differences(
    place: &str,
    checked: &[PerftCount],
    source: &str,
    found: &[PerftCount],
) -> Vec<String> {
    checked
        .iter()
        .zip(found)
        .enumerate()
        .filter(|(_, (c, f))| c != f)
        .map(|(d, (c, f))| {
            format!(
                "{place}, depth {}: checked in {} sequences ({} game over), {source} counts {} ({})",
                d + 1,
                c.sequences,
                c.game_over,
                f.sequences,
                f.game_over
            )
        })
        .collect()
}

/// Perft written the plain way, through the checked entry points: every throw value the
/// ruleset accepts and every move it lists, each on a copy of the state.
fn naive_walk<R: Ruleset>(rules: &R, state: &R::State, counts: &mut [PerftCount]) {
    let Some((count, deeper)) = counts.split_first_mut() else {
        return;
    };
    let mut children = Vec::new();
    for value in 1..=9 {
        let mut next = *state;
        if rules.try_throw(&mut next, Throw::at(value)).is_ok() {
            children.push(next);
        }
    }
    for &mv in rules.legal_moves(state).iter() {
        let mut next = *state;
        rules
            .try_play(&mut next, mv)
            .expect("a listed move is accepted");
        children.push(next);
    }
    for child in &children {
        count.sequences += 1;
        if let Phase::Over(_) = rules.phase(child) {
            count.game_over += 1;
        } else {
            naive_walk(rules, child, deeper);
        }
    }
}

/// Checks (or blesses) the file of ruleset `id`; returns the failures.
fn check_file(id: &str) -> Vec<String> {
    let path = file::path(id);
    let name = format!("tests/perft/{id}.txt");
    let Ok(text) = std::fs::read_to_string(&path) else {
        return vec![format!("{name} is missing")];
    };
    let mut items = match file::parse(&text) {
        Ok(items) => items,
        Err(e) => return vec![format!("{name}, {e}")],
    };
    let mut failures = Vec::new();
    let mut rules: Option<AnyRuleset> = None;
    for item in &mut items {
        match item {
            Item::Text(_) => {}
            Item::Ruleset(spec) => match AnyRuleset::parse(spec) {
                Ok(r) if r.id() == id => rules = Some(r),
                Ok(r) => failures.push(format!("{name}: ruleset {r} in the file of {id}")),
                Err(e) => failures.push(format!("{name}: ruleset {spec}: {e}")),
            },
            Item::Position { text, line, counts } => {
                let Some(rules) = &rules else { continue };
                failures.extend(rules.visit(CheckPosition {
                    place: format!("{name}:{line} {rules}, position {text}"),
                    text,
                    counts,
                    bless: blessing(),
                }));
            }
        }
    }
    if blessing() {
        let updated = file::write(&items);
        if updated != text {
            std::fs::write(&path, updated).expect("the perft file is writable");
        }
    }
    failures
}

#[test]
fn perft_counts_match_the_checked_in_files() {
    let failures: Vec<String> = RULESETS.iter().flat_map(|r| check_file(r.id)).collect();
    assert!(
        failures.is_empty(),
        "{} perft failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// The walk of `senet::perft` counts what it should on a position small enough to count by
/// hand: Piccione's start (docs/rules/piccione.md). Black throws one of 5 values; a 1 enters
/// a piece (P-3) and any other throw finds nothing to move and passes (P-8), one move each;
/// every one of those 5 sequences is followed by a throw of 5 values (the extra throw of an
/// entry or of a 5, or White's), and no game ends.
#[cfg(feature = "piccione")]
#[test]
fn perft_counts_piccione_start_by_hand() {
    let rules = senet::Piccione;
    let counts = Perft::new(3)
        .unwrap()
        .run(&rules, &rules.initial_state())
        .to_vec();
    let by_hand = [5, 5, 25].map(|sequences| PerftCount {
        sequences,
        game_over: 0,
    });
    assert_eq!(counts, by_hand);
}

#[test]
fn a_depth_above_the_cap_is_refused() {
    assert!(Perft::new(senet::perft::MAX_DEPTH).is_ok());
    let refused = Perft::new(senet::perft::MAX_DEPTH + 1).unwrap_err();
    assert_eq!(refused.to_string(), "perft depth 65 is above the cap of 64");
}

/// The walk allocates nothing: `Perft::new` allocates the lists and counts (which also shows
/// that the counting allocator of `allocation-counter` watches this thread), `Perft::run`
/// reuses them, for every registered ruleset.
#[test]
fn perft_walks_without_allocating() {
    struct Allocations;
    impl RulesetVisitor for Allocations {
        type Output = (u64, u64);
        fn visit<R: Registered>(self, rules: &R) -> (u64, u64) {
            let start = rules.initial_state();
            let mut perft = None;
            let new = allocation_counter::measure(|| perft = Perft::new(5).ok());
            let mut perft = perft.expect("set by the closure");
            let run = allocation_counter::measure(|| {
                std::hint::black_box(perft.run(rules, &start));
            });
            (new.count_total, run.count_total)
        }
    }
    for info in RULESETS {
        let rules = AnyRuleset::parse(info.id).expect("a registered id parses");
        let (new, run) = rules.visit(Allocations);
        assert!(new > 0, "{}: Perft::new allocated nothing", info.id);
        assert_eq!(run, 0, "{}: Perft::run allocated", info.id);
    }
}
