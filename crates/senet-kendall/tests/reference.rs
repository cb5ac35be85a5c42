//! A straightforward reference generator, written from `docs/rules/kendall.md` (rules and
//! documented choices) with an array of 30 squares and no bit tricks, must
//! agree with the fast generator on more than 100,000 decision points of random games under
//! all 32 option combinations, and on variants of them with other stored throws and with a
//! piece that must move (K-15).

use rand_chacha::ChaCha8Rng;
use rand_core::Rng;
use senet_core::Throw;
use senet_core::{Move, Phase, Ruleset, Setup, Side, Square};
use senet_kendall::{Kendall, KendallState, ThrowTiming};
use senet_testkit::mailbox::MailboxBoard;
use senet_testkit::reference::{MIN_PAIRS, assert_agrees, for_sampled_states, square};

/// What the reference saw, to check that the comparison covered every rule.
#[derive(Default, Debug)]
struct Seen {
    several_values: usize,
    backward: usize,
    water: usize,
    water_frozen_lifted: usize,
    declines: usize,
    must_move_applied: usize,
    attacks_from_gate: usize,
    trap_moves: usize,
    plain_passes: usize,
}

/// A candidate move: the square it starts from, the move, and whether it bears off.
type Candidate = (i32, Move, bool);

/// The board as the side to act sees it, square by square.
struct View {
    board: MailboxBoard,
    me: Side,
}

impl View {
    fn mine(&self, n: i32) -> bool {
        self.board.at(n) == Some(self.me)
    }

    fn theirs(&self, n: i32) -> bool {
        self.board.at(n) == Some(self.me.opponent())
    }

    fn empty(&self, n: i32) -> bool {
        (1..=30).contains(&n) && self.board.at(n).is_none()
    }

    /// K-7: an opposing piece with a neighbour of its own side cannot be attacked.
    fn attackable(&self, n: i32) -> bool {
        self.theirs(n) && !self.theirs(n - 1) && !self.theirs(n + 1)
    }
}

/// The legal moves, rule by rule.
fn reference_moves(rules: &Kendall, state: &KendallState, seen: &mut Seen) -> Vec<Move> {
    if !matches!(rules.phase(state), Phase::Move(_)) {
        return Vec::new();
    }
    let me = state.to_move();
    let view = View {
        board: MailboxBoard::from(state.board()),
        me,
    };
    let values: Vec<u8> = (1..=5)
        .filter(|&v| state.stored(Throw::at(v)) > 0)
        .collect();
    if values.len() > 1 {
        seen.several_values += 1;
    }
    // Option home_row.
    let may_bear_off = !rules.home_row() || (1..=10).all(|n| !view.mine(n));
    if let Some(moves) = water_moves(&view, &values, may_bear_off, seen) {
        return moves;
    }

    // Per value: the throw, its candidates, and whether they go backward.
    let mut per_value: Vec<(u8, Vec<Candidate>, bool)> = Vec::new();
    for &v in &values {
        let forward = forward_moves(rules, &view, v, may_bear_off, seen);
        if !forward.is_empty() {
            per_value.push((v, forward, false));
            continue;
        }
        // K-5 / I-1: backward only when no forward move exists for this throw; I-2.
        let t = i32::from(v);
        let mut backward = Vec::new();
        for from in 1..=26 {
            let to = from - t;
            if view.mine(from) && to >= 1 && (view.empty(to) || view.attackable(to)) {
                backward.push((
                    from,
                    Move::step(square(from), square(to)).with_throw(Throw::at(v)),
                    false,
                ));
            }
        }
        if !backward.is_empty() {
            seen.backward += 1;
        }
        per_value.push((v, backward, true));
    }
    if per_value.iter().all(|(_, list, _)| list.is_empty()) {
        seen.plain_passes += 1;
        return vec![Move::PASS]; // K-5: every stored throw is lost
    }
    // K-15: the piece back from the water moves first when any stored throw moves it.
    if let Some(chosen) = state.must_move(me) {
        let chosen = i32::from(chosen.get());
        if per_value
            .iter()
            .any(|(_, list, _)| list.iter().any(|e| e.0 == chosen))
        {
            seen.must_move_applied += 1;
            for (_, list, _) in &mut per_value {
                list.retain(|e| e.0 == chosen);
            }
        }
    }
    let mut moves = Vec::new();
    for (v, list, _) in &per_value {
        moves.extend(list.iter().map(|e| e.1));
        // K-16: a throw that could bear a piece off may be given up instead.
        if list.iter().any(|e| e.2) {
            seen.declines += 1;
            moves.push(Move::PASS.with_throw(Throw::at(*v)));
        }
    }
    moves
}

/// K-14: the moves of the piece in the water, which is the only one that moves while it
/// has a way out; `None` when there is no such piece or it has no way out.
fn water_moves(
    view: &View,
    values: &[u8],
    may_bear_off: bool,
    seen: &mut Seen,
) -> Option<Vec<Move>> {
    if !view.mine(27) {
        return None;
    }
    if !(may_bear_off || view.empty(15)) {
        seen.water_frozen_lifted += 1;
        return None;
    }
    seen.water += 1;
    let mut moves = Vec::new();
    for &v in values {
        if v == 4 && may_bear_off {
            moves.push(Move::bear_off(square(27)).with_throw(Throw::at(4)));
        }
        if view.empty(15) {
            moves.push(Move::step(square(27), square(15)).with_throw(Throw::at(v)));
        }
    }
    if moves.is_empty() {
        seen.plain_passes += 1;
        return Some(vec![Move::PASS]);
    }
    for &v in values {
        moves.push(Move::PASS.with_throw(Throw::at(v)));
    }
    Some(moves)
}

/// The forward moves of throw `v` (K-6 to K-13, option trap).
fn forward_moves(
    rules: &Kendall,
    view: &View,
    v: u8,
    may_bear_off: bool,
    seen: &mut Seen,
) -> Vec<Candidate> {
    let t = i32::from(v);
    let off = |from: i32| {
        (
            from,
            Move::bear_off(square(from)).with_throw(Throw::at(v)),
            true,
        )
    };
    let step = |from: i32, to: i32| {
        (
            from,
            Move::step(square(from), square(to)).with_throw(Throw::at(v)),
            false,
        )
    };
    let mut forward = Vec::new();
    for from in (1..=30).filter(|&n| view.mine(n)) {
        match from {
            27 => {} // frozen water piece (home_row): it stays
            28 if t == 3 && may_bear_off => forward.push(off(from)), // K-11
            29 if t == 2 && may_bear_off => forward.push(off(from)), // K-11
            30 if may_bear_off => forward.push(off(from)), // K-11
            28..=30 => {}
            26 => match t {
                5 if may_bear_off => forward.push(off(26)), // K-10
                5 => {}
                1 if view.empty(27) => forward.push(step(26, 27)), // K-13
                1 => {}
                _ => {
                    let to = 26 + t;
                    if view.empty(to) {
                        forward.push(step(26, to));
                    } else if view.attackable(to) && view.empty(27) {
                        seen.attacks_from_gate += 1;
                        forward.push(step(26, to)); // K-12
                    }
                }
            },
            _ => {
                let to = from + t;
                if to <= 26 {
                    if view.empty(to) || view.attackable(to) {
                        forward.push(step(from, to)); // K-6, K-8
                    }
                } else if rules.trap() && view.empty(27) {
                    seen.trap_moves += 1;
                    forward.push(step(from, to)); // option trap (K-9 otherwise)
                }
            }
        }
    }
    forward
}

/// `state` with the given fields replaced (and `remove` dropped), if that is a valid state.
fn with_fields(
    rules: &Kendall,
    state: &KendallState,
    set: &[(&str, String)],
    remove: &[&str],
) -> Option<KendallState> {
    let mut setup: Setup = rules.to_setup(state);
    setup
        .fields
        .retain(|(name, _)| !remove.contains(&name.as_str()) && !set.iter().any(|s| s.0 == name));
    for (name, value) in set {
        setup.push_field(name, value);
    }
    rules.read_setup(&setup).ok()
}

/// Another multiset of stored throws that the turn could hold.
fn random_throws(rules: &Kendall, rng: &mut ChaCha8Rng) -> String {
    if rules.throw_timing() == ThrowTiming::Immediate {
        return char::from(b'1' + (rng.next_u32() % 5) as u8).to_string();
    }
    let mut text = String::new();
    for digit in ['1', '4', '5'] {
        for _ in 0..rng.next_u32() % 3 {
            text.push(digit);
        }
    }
    match rng.next_u32() % 3 {
        0 => text.push('2'),
        1 => text.push('3'),
        _ if text.is_empty() => text.push('4'),
        _ => {}
    }
    text
}

#[test]
fn fast_generator_agrees_with_the_reference_on_100k_decision_points() {
    let option_sets = senet_core::option_combinations::<Kendall>().unwrap();
    let per_set = 100_000 / option_sets.len() + 1;
    let mut compared = 0usize;
    let mut from_games = 0usize;
    let mut seen = Seen::default();
    let decision = |p| matches!(p, Phase::Move(_));
    for_sampled_states(
        &option_sets,
        4000,
        per_set,
        decision,
        |rules, state, rng| {
            let me = state.to_move();
            let must_field = if me == Side::Black {
                "must_move_b"
            } else {
                "must_move_w"
            };
            let own: Vec<u8> = state
                .board()
                .pieces_of(me)
                .iter()
                .map(Square::get)
                .filter(|&n| n <= 26)
                .collect();
            let mut variants = vec![*state];
            variants.extend(with_fields(
                rules,
                state,
                &[("throws", random_throws(rules, rng))],
                &["phase"],
            ));
            if !own.is_empty() {
                let pick = own[(rng.next_u32() as usize) % own.len()];
                variants.extend(with_fields(
                    rules,
                    state,
                    &[(must_field, pick.to_string())],
                    &[],
                ));
            }
            for (k, variant) in variants.iter().enumerate() {
                let reference = reference_moves(rules, variant, &mut seen);
                assert_agrees(rules, variant, &reference);
                compared += 1;
                if k == 0 {
                    from_games += 1;
                }
            }
        },
    );
    assert!(
        from_games >= MIN_PAIRS,
        "only {from_games} decision points from games"
    );
    assert!(compared >= 250_000, "only {compared} states compared");
    // Every rule the generator implements was exercised many times.
    for (what, count) in [
        ("several stored values", seen.several_values),
        ("backward moves", seen.backward),
        ("the water (K-14)", seen.water),
        (
            "the frozen water piece (home_row)",
            seen.water_frozen_lifted,
        ),
        ("declined bear-offs (K-16)", seen.declines),
        ("K-15", seen.must_move_applied),
        ("attacks from 26 (K-12)", seen.attacks_from_gate),
        ("trap moves", seen.trap_moves),
        ("plain passes", seen.plain_passes),
    ] {
        assert!(count >= 100, "{what}: only {count} cases ({seen:?})");
    }
}
