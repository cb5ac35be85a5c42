//! The harness that holds each ruleset's fast move generator against the reference generator
//! its `tests/reference.rs` writes straight from the specification on a [`MailboxBoard`]. The
//! reference generators are the rulesets' own; the sampling and comparison loop is this.

use rand_chacha::ChaCha8Rng;
use rand_core::SeedableRng;
use senet_core::{Move, Phase, Ruleset, Side, Square};

use crate::mailbox::MailboxBoard;

use crate::conformance::{compare_generators, sample_states, with_each_throw};
use senet_core::Throw;

/// The number of decision points every ruleset's generator is compared on, at least.
pub const MIN_PAIRS: usize = 100_000;

/// How often [`agree_after_each_throw`] also sweeps [`Ruleset::is_legal`] over every
/// single-step move (a sweep costs about a thousand legality checks).
pub const IS_LEGAL_EVERY: usize = 50;

/// The square `n`, for reference generators that count in `i32`.
///
/// # Panics
/// When `n` is not a square.
pub fn square(n: i32) -> Square {
    u8::try_from(n)
        .ok()
        .and_then(|n| Square::new(n).ok())
        .unwrap_or_else(|| panic!("{n} is not a square"))
}

/// For each option set `rules` (the `i`-th drawing from a ChaCha8 RNG seeded with
/// `seed + i`), samples `per_set` states whose phase `keep` accepts from random games, then
/// calls `each(rules, state, rng)` on every one of them with that same RNG.
pub fn for_sampled_states<R: Ruleset>(
    option_sets: &[R],
    seed: u64,
    per_set: usize,
    keep: impl Fn(Phase) -> bool,
    mut each: impl FnMut(&R, &R::State, &mut ChaCha8Rng),
) {
    for (i, rules) in option_sets.iter().enumerate() {
        let mut rng = ChaCha8Rng::seed_from_u64(seed + i as u64);
        let states = sample_states(rules, &mut rng, per_set, 10_000, &keep);
        for state in &states {
            each(rules, state, &mut rng);
        }
    }
}

/// Asserts that the fast generator gives the moves of `reference` on `state` (order ignored).
///
/// # Panics
/// When they differ, naming the options, the position and both lists.
pub fn assert_agrees<R: Ruleset>(rules: &R, state: &R::State, reference: &[Move]) {
    if let Err(e) = compare_generators(rules, state, reference) {
        panic!("{}: {e}", rules.spec());
    }
}

/// The comparison of rulesets whose decisions follow a single throw: for each option set,
/// `per_set` states waiting for a throw (see [`for_sampled_states`]), each followed by every
/// value of the device. On every such decision point the fast generator must agree with
/// `reference`, and on every [`IS_LEGAL_EVERY`]-th one [`Ruleset::is_legal`] must agree with
/// generation ([`assert_is_legal_matches_generation`]); `visit(rules, throw, decision,
/// reference_moves)` then runs the ruleset's own checks and tallies. Returns the number of decision points compared.
///
/// # Panics
/// On a disagreement, or when fewer than [`MIN_PAIRS`] decision points were compared.
pub fn agree_after_each_throw<R: Ruleset>(
    option_sets: &[R],
    seed: u64,
    per_set: usize,
    mut reference: impl FnMut(&R, &R::State) -> Vec<Move>,
    mut visit: impl FnMut(&R, Throw, &R::State, &[Move]),
) -> usize {
    let mut pairs = 0usize;
    let before_throw = |p| matches!(p, Phase::Throw(_));
    for_sampled_states(
        option_sets,
        seed,
        per_set,
        before_throw,
        |rules, state, _| {
            for (throw, decision) in with_each_throw(rules, state) {
                let moves = reference(rules, &decision);
                assert_agrees(rules, &decision, &moves);
                pairs += 1;
                if pairs.is_multiple_of(IS_LEGAL_EVERY) {
                    assert_is_legal_matches_generation(rules, &decision);
                }
                visit(rules, throw, &decision, &moves);
            }
        },
    );
    assert!(pairs >= MIN_PAIRS, "only {pairs} pairs compared");
    pairs
}

/// Asserts that [`Ruleset::is_legal`] accepts exactly the generated moves among every
/// single-step move between squares and off, and a pass.
///
/// # Panics
/// On the first move where they differ.
pub fn assert_is_legal_matches_generation<R: Ruleset>(rules: &R, state: &R::State) {
    let generated = rules.legal_moves(state);
    let candidates = (1..=30u8).flat_map(|from| {
        (1..=31u8)
            .filter(move |&to| to != from)
            .map(move |to| Move::from_codes_unchecked(from, to))
    });
    for mv in candidates.chain([Move::PASS]) {
        assert_eq!(
            rules.is_legal(state, mv),
            generated.contains(&mv),
            "{}: {mv} in {}",
            rules.spec(),
            rules.position_string(state)
        );
    }
}

/// What a reference generator reads at a decision point: the board of `state` as a
/// [`MailboxBoard`], the side to move `me` and its opponent, and the throw the position holds
/// (its `throw` field) as an `i32`; `None` outside a decision or without a pending throw (the
/// reference then generates nothing).
pub fn decision_inputs<R: Ruleset>(
    rules: &R,
    state: &R::State,
) -> Option<(MailboxBoard, Side, Side, i32)> {
    let Phase::Move(me) = rules.phase(state) else {
        return None;
    };
    let throw = rules.to_setup(state).field("throw")?.parse().ok()?;
    Some((
        MailboxBoard::from(rules.board(state)),
        me,
        me.opponent(),
        throw,
    ))
}
