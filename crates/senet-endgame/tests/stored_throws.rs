//! Kendall's endgames with stored throws (K-4, the default rules): the values agree with the
//! turn machine expanded throw by throw and move by move, do not depend on the number of
//! threads, survive the file format, and the perfect player plays the default rules from
//! them.

use std::collections::HashMap;
use std::sync::{Arc, OnceLock};
use std::time::Duration;

use rand_chacha::ChaCha8Rng;
use rand_core::SeedableRng;
use senet_ai::{Perfect, Player, PlayerSpec, ValueKind};
use senet_core::{Phase, Ruleset, ThrowingDevice};
use senet_endgame::{
    Checkpoint, EndgameError, EndgameFiles, EndgameSpace, EndgameTable, Endgames, KendallEndgame,
    PositionOracle, SolveMethod, SolveOptions, ValueEncoding, solve, solve_resumable,
};
use senet_kendall::{Kendall, KendallState, ThrowTiming};

/// The default endgames (stored throws) with one piece a side, solved once for all tests.
fn one_piece() -> &'static EndgameTable<KendallEndgame> {
    static TABLE: OnceLock<EndgameTable<KendallEndgame>> = OnceLock::new();
    TABLE.get_or_init(|| {
        solve(
            KendallEndgame::new(Kendall::default(), 1).unwrap(),
            &SolveOptions::default(),
        )
        .unwrap()
    })
}

/// Values of turns in progress, found by playing every throw and every move through the
/// ruleset, with the table only where the turn has passed to the other side.
struct TurnMachine<'a> {
    rules: Kendall,
    table: &'a EndgameTable<KendallEndgame>,
    memo: HashMap<KendallState, f64>,
}

impl TurnMachine<'_> {
    /// The value of `state`, a turn in progress, for the side whose turn it is.
    fn turn(&mut self, state: &KendallState) -> f64 {
        if let Some(&value) = self.memo.get(state) {
            return value;
        }
        let rules = self.rules;
        let me = state.to_move();
        let value = match rules.phase(state) {
            // The turns the solver leaves out count as half won (the table's midpoint).
            Phase::Throw(_)
                if usize::from(state.stored_count()) > KendallEndgame::MOST_AGAIN_THROWS =>
            {
                0.5
            }
            Phase::Throw(_) => {
                let device = rules.device();
                let mut total = 0.0;
                for outcome in device.outcomes() {
                    let mut next = *state;
                    rules.throw_unchecked(&mut next, outcome.value);
                    total += f64::from(outcome.weight) * self.after(&next, me);
                }
                total / f64::from(device.denominator())
            }
            Phase::Move(_) => rules
                .legal_moves(state)
                .iter()
                .map(|&mv| {
                    let mut next = *state;
                    rules.play_unchecked(&mut next, mv);
                    self.after(&next, me)
                })
                .fold(0.0, f64::max),
            Phase::Over(outcome) => outcome.value_for(me),
        };
        self.memo.insert(*state, value);
        value
    }

    /// The value for `me` of `state`, reached during `me`'s turn.
    fn after(&mut self, state: &KendallState, me: senet_core::Side) -> f64 {
        match self.rules.phase(state) {
            Phase::Over(outcome) => outcome.value_for(me),
            Phase::Throw(side) if side != me => {
                let covered = self.table.value(state);
                1.0 - covered.unwrap_or_else(|| panic!("not covered: {state:?}"))
            }
            _ => self.turn(state),
        }
    }
}

#[test]
fn values_agree_with_the_turn_machine_throw_by_throw_and_move_by_move() {
    // The solver spends a turn's throws a level at a time over every multiset; here every
    // throw is thrown and every move played through the ruleset, so a move it leaves out, a
    // turn it ends too early or a K-15 obligation it forgets shows up as a difference.
    let table = one_piece();
    let stats = table.stats();
    // Each cut turn weighs (6/16)^16 = 1.5e-7; the bounds take them over a whole endgame.
    assert!(
        stats.truncation > 1.5e-7 && stats.truncation < 2e-6,
        "{stats:?}"
    );
    assert!(stats.residual <= stats.truncation + 1e-7, "{stats:?}");
    // The proven bound counts the cut turns (the game's value lies between a bound that
    // loses them and one that wins them) and the rounding of the cells, proven by sweeps
    // with `f64` cells.
    assert!(
        stats.error_bound >= 0.9 * stats.truncation && stats.error_bound < 5e-6,
        "{stats:?}"
    );
    assert!(stats.bracket_sweeps > 0, "{stats:?}");
    assert_eq!(PositionOracle::error_bound(table), stats.error_bound);
    let space = table.space();
    let mut machine = TurnMachine {
        rules: *space.rules(),
        table,
        memo: HashMap::new(),
    };
    let mut largest: f64 = 0.0;
    let mut must_move = 0;
    for index in (0..space.state_count()).step_by(3) {
        let state = space.state(index).unwrap();
        must_move += usize::from(state.must_move(state.to_move()).is_some());
        let value = table.value_at(index).unwrap();
        largest = largest.max((machine.turn(&state) - value).abs());
    }
    assert!(must_move > 100, "{must_move}");
    // The cells between two moves are `f32`: 6e-8 each at most.
    assert!(
        largest <= stats.residual + 2e-7,
        "largest difference {largest:e}, residual {:e}",
        stats.residual
    );
}

#[test]
fn the_values_do_not_depend_on_the_number_of_threads() {
    // The shared table is solved with one thread per core.
    let options = SolveOptions {
        threads: 1,
        ..SolveOptions::default()
    };
    let table = solve(
        KendallEndgame::new(Kendall::default(), 1).unwrap(),
        &options,
    )
    .unwrap();
    assert_eq!(table.values(), one_piece().values());
    assert_eq!(table.stats(), one_piece().stats());
}

#[test]
fn a_stopped_solve_goes_on_from_its_checkpoint_and_ends_as_one_run_through() {
    let path = std::env::temp_dir().join(format!("stored-{}.senet-checkpoint", std::process::id()));
    let _ = std::fs::remove_file(&path);
    let space = || KendallEndgame::new(Kendall::default(), 1).unwrap();
    let mut checkpoint = Checkpoint::new(&path);
    checkpoint.every = Duration::ZERO;
    checkpoint.stop_after = Some(Duration::ZERO);
    // Stopped at every point where a checkpoint may be saved, each run building its graph
    // again, then run to the end: the values and figures of a solve never stopped, bit for
    // bit.
    let mut stops = Vec::new();
    let table = loop {
        match solve_resumable(space(), &SolveOptions::default(), &checkpoint) {
            Err(EndgameError::Stopped { layers, .. }) => stops.push(layers),
            Ok(table) => break table,
            Err(e) => panic!("{e}"),
        }
        assert!(stops.len() < 100, "{stops:?}");
    };
    assert!(
        !stops.is_empty() && stops.iter().all(|&layers| layers == 0),
        "{stops:?}"
    );
    assert_eq!(table.values(), one_piece().values());
    assert_eq!(table.stats(), one_piece().stats());
    // The on-disk and lean methods, whose memory is no guide to this solver's, are refused.
    for method in [SolveMethod::OnDisk, SolveMethod::Lean] {
        let options = SolveOptions {
            method,
            ..SolveOptions::default()
        };
        let refused = solve(space(), &options);
        assert!(matches!(
            refused,
            Err(EndgameError::UnsupportedOptions { .. })
        ));
    }
    // Another solve's checkpoint is refused.
    let other = KendallEndgame::new(
        Kendall::default().with_throw_timing(ThrowTiming::Immediate),
        1,
    );
    let refused = solve_resumable(other.unwrap(), &SolveOptions::default(), &checkpoint);
    assert!(matches!(refused, Err(EndgameError::Checkpoint { .. })));
    std::fs::remove_file(&path).unwrap();
}

#[test]
fn the_table_survives_its_file_and_refuses_immediate_throws() {
    let stored = Kendall::default();
    let immediate = stored.with_throw_timing(ThrowTiming::Immediate);
    assert!(EndgameFiles::supported(&stored));
    let bytes = one_piece().to_bytes(ValueEncoding::U32);
    let read = Endgames::read_oracle(&stored, &bytes).unwrap();
    let space = one_piece().space();
    for index in (0..space.state_count()).step_by(7) {
        let state = space.state(index).unwrap();
        let (a, b) = (
            read.throw_value(&state).unwrap(),
            one_piece().values()[index],
        );
        assert!((a - b).abs() <= 1.2e-10, "{index}");
    }
    // The file keeps the proven bound, its rounding added.
    let bound = one_piece().stats().error_bound + ValueEncoding::U32.rounding();
    assert_eq!(read.error_bound(), bound);
    assert!(Endgames::read_oracle(&immediate, &bytes).is_err());
    // A position with throws held is not one the table keeps.
    let held = stored
        .parse_position(&format!("{}B.W.. b throws=14 phase=throw", ".".repeat(25)))
        .unwrap();
    assert_eq!(read.throw_value(&held), None);
}

#[test]
fn the_perfect_player_plays_the_default_rules_from_the_tables() {
    let rules = Kendall::default();
    let mut player = Perfect::with_default_fallback(&rules, Arc::new(one_piece().clone())).unwrap();
    assert!(
        "perfect:1"
            .parse::<PlayerSpec>()
            .unwrap()
            .build(&rules, Some(&rules))
            .is_ok()
    );
    let mut machine = TurnMachine {
        rules,
        table: one_piece(),
        memo: HashMap::new(),
    };
    // Black on 24 against White on 22, with the throws held: every move's value is the turn
    // machine's, and the best one is chosen.
    let mut check = |throws: &str| {
        let state = rules
            .parse_position(&format!("{}W.B...... b throws={throws}", ".".repeat(21)))
            .unwrap();
        let analysis = player
            .analyse(&rules, &state, &mut ChaCha8Rng::seed_from_u64(3))
            .unwrap();
        assert_eq!(analysis.kind(), ValueKind::ExactWinProbability);
        for choice in analysis.moves() {
            let mut next = state;
            rules.try_play(&mut next, choice.mv).unwrap();
            let expected = machine.after(&next, state.to_move());
            assert!((choice.value - expected).abs() < 1e-12, "{}", choice.mv);
        }
        let best = analysis.moves()[analysis.chosen_index()].value;
        assert!(analysis.moves().iter().all(|m| m.value <= best));
        analysis.moves().len()
    };
    // A 1, a 4 and a 2: 24-28 with the 4 leaves a piece that only a 3 takes off (K-11),
    // 24-25-26 or 24-26 first keep the gate.
    check("124");
    // Nine throws: the same positions are reached by many orders of the moves, and the
    // player values each once.
    assert!(check("111124445") > 2);
    // Whole games against greedy reach their end, each decision legal.
    let mut greedy = "greedy"
        .parse::<PlayerSpec>()
        .unwrap()
        .build(&rules, Some(&rules))
        .unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    for _ in 0..4 {
        let mut state = rules.initial_state();
        for _ in 0..20_000 {
            match rules.phase(&state) {
                Phase::Over(_) => break,
                Phase::Throw(_) => {
                    rules.throw_unchecked(&mut state, rules.device().sample(&mut rng))
                }
                Phase::Move(side) => {
                    let mover: &mut dyn Player<Kendall> = if side == senet_core::Side::Black {
                        &mut player
                    } else {
                        greedy.as_mut()
                    };
                    let analysis = mover.analyse(&rules, &state, &mut rng).unwrap();
                    rules.try_play(&mut state, analysis.chosen()).unwrap();
                }
            }
        }
        assert!(matches!(rules.phase(&state), Phase::Over(_)));
    }
}
