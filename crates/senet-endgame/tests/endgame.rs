//! The endgame solver: its values satisfy the Bellman equation, agree with expectiminimax
//! searched deep enough, survive the file format, and bad tables are refused.

mod common;

use std::sync::OnceLock;

use common::TOLERANCE;
use senet_ai::Perfect;
use senet_core::Throw;
use senet_core::{Phase, Ruleset};
use senet_endgame::table::{TableError, TableHeader};
use senet_endgame::{
    EXACT_BOUND, EndgameError, EndgameFiles, EndgameSpace, EndgameTable, Endgames, PolicySteps,
    PositionOracle, RegencyEndgame, SolveOptions, ValueEncoding, endgames_or_unsupported, solve,
};
use senet_regency::{ExitRule, Regency};

/// The default Regency endgames with up to two pieces a side, solved once for all tests.
fn two_pieces() -> &'static EndgameTable<RegencyEndgame> {
    static TABLE: OnceLock<EndgameTable<RegencyEndgame>> = OnceLock::new();
    TABLE.get_or_init(|| solved(Regency::default(), 2))
}

/// The tables of `rules` with up to `pieces` a side.
fn solved(rules: Regency, pieces: u8) -> EndgameTable<RegencyEndgame> {
    common::solved(RegencyEndgame::new(rules, pieces).unwrap())
}

common::endgame_suite! {
    table: two_pieces(),
    near_the_end: common::NearTheEnd { step: 7, lowest_square: 21, tolerance: 1e-9 },
    leaves_tolerance: 1e-8,
}

#[test]
fn regency_sweeps_plainly_unless_policy_steps_are_asked_for() {
    // Regency has no slow cycles: by default no policy steps; asked for, they give the
    // same values.
    let space = || RegencyEndgame::new(Regency::default(), 1).unwrap();
    let plain = solve(space(), &SolveOptions::default()).unwrap();
    assert_eq!(plain.stats().policy_steps, 0);
    let stepped = solve(
        space(),
        &SolveOptions {
            policy_steps: PolicySteps::Always,
            ..SolveOptions::default()
        },
    )
    .unwrap();
    assert!(stepped.stats().policy_steps > 0);
    assert!(stepped.stats().sweeps < plain.stats().sweeps);
    let largest = plain.largest_difference(&stepped);
    assert!(largest < 1e-8, "values differ by {largest:e}");
    assert!(stepped.bellman_residual().unwrap() <= TOLERANCE);
}

#[test]
fn solved_values_satisfy_the_bellman_equation_recomputed_from_the_turn_machine() {
    assert_eq!(two_pieces().stats().states, 143_262);
    common::assert_solved_to_the_tolerance(two_pieces());
}

#[test]
fn every_option_combination_solves_to_the_tolerance() {
    let variants = [
        Regency::default().with_house_of_happiness(true),
        Regency::default().with_house_of_water(true),
        Regency::default().with_exit(ExitRule::From28To30),
        Regency::default().with_exit(ExitRule::BeyondThirty),
        Regency::default().with_lost_throw_keeps_extra_throw(true),
    ];
    for rules in variants {
        common::assert_solved_to_the_tolerance(&solved(rules, 1));
    }
}

#[test]
fn values_differ_between_options_where_the_rules_differ() {
    // Black on 26 and White on 29, Black to throw. Under R-14 a 4 lands Black on 30 and bears
    // it off; under exit_beyond_30 leaving from 26 takes a 5, which these sticks never show,
    // and 30 is an ordinary square.
    let plain = solved(Regency::default(), 1);
    let exits = solved(Regency::default().with_exit(ExitRule::BeyondThirty), 1);
    let position = format!("{}B..W. b", ".".repeat(25));
    let a = plain.value(&plain.space().rules().parse_position(&position).unwrap());
    let b = exits.value(&exits.space().rules().parse_position(&position).unwrap());
    assert!((a.unwrap() - b.unwrap()).abs() > 1e-3, "{a:?} vs {b:?}");
}

#[test]
fn r_14_a_lone_piece_on_29_wins_only_with_a_one() {
    // Black's last piece on 29 against White's on 28, Black to throw. Black wins at once with a
    // 1; every other throw is lost and the turn passes (I-4). White bears off with
    // a 2; its 1 is blocked (29 is a safe square Black holds, R-10 b), and its other throws are
    // lost. So V = 1/4 + 3/4 · (1 − W) with W = 6/16 + 10/16 · (1 − V):
    // V = 1/4 + 3/4 · (10/16) · V  ⇒  V = (1/4) / (1 − 30/64) = 16/34.
    let table = two_pieces();
    let rules = table.space().rules();
    let state = rules
        .parse_position(&format!("{}WB. b", ".".repeat(27)))
        .unwrap();
    let value = table.value(&state).unwrap();
    assert!((value - 16.0 / 34.0).abs() < 1e-8, "{value}");
}

#[test]
fn tables_round_trip_through_the_file_format() {
    let table = two_pieces();
    let solved_bound = table.stats().error_bound;
    assert!(
        solved_bound > 0.0 && solved_bound <= EXACT_BOUND,
        "{solved_bound:e}"
    );
    for (encoding, precision) in [
        (ValueEncoding::U16, 7.7e-6),
        (ValueEncoding::U32, 1.2e-10),
        (ValueEncoding::F64, 0.0),
    ] {
        let bytes = table.to_bytes(encoding);
        let (header, _) = TableHeader::parse(&bytes).unwrap();
        assert_eq!(header.spec, "regency");
        assert_eq!(header.max_pieces, 2);
        assert_eq!(header.states, 143_262);
        assert_eq!(header.layout, RegencyEndgame::LAYOUT);
        assert_eq!(header.version, 3);
        assert_eq!(header.rules_revision, senet_regency::RULES_REVISION);
        assert_eq!(
            bytes.len(),
            54 + 7 + 2 + RegencyEndgame::LAYOUT.len() + 143_262 * encoding.bytes() + 8
        );
        let space = RegencyEndgame::new(Regency::default(), 2).unwrap();
        let back = EndgameTable::from_bytes(space, &bytes).unwrap();
        let worst = table.largest_difference(&back);
        assert!(worst <= precision, "{encoding:?}: {worst:e}");
        assert!(worst <= encoding.rounding(), "{encoding:?}: {worst:e}");
        assert_eq!(back.stats().residual, table.stats().residual);
        // The bound is kept, the encoding's rounding added: a value read back is within it
        // of the game's value wherever the solved one was within the solver's bound.
        let bound = solved_bound + encoding.rounding();
        assert_eq!(header.error_bound, bound);
        assert_eq!(back.stats().error_bound, bound);
        assert_eq!(PositionOracle::error_bound(&back), bound);
        assert!(PositionOracle::describe(&back).contains("(proven)"));
        let mut reader = &bytes[..];
        let again = EndgameTable::read_from(
            RegencyEndgame::new(Regency::default(), 2).unwrap(),
            &mut reader,
        )
        .unwrap();
        assert_eq!(again.values(), back.values());
    }
}

#[test]
fn a_table_for_other_options_is_refused() {
    let water = Regency::default().with_house_of_water(true);
    let bytes = solved(water, 1).to_bytes(ValueEncoding::U16);
    let space = RegencyEndgame::new(Regency::default(), 1).unwrap();
    match EndgameTable::from_bytes(space, &bytes) {
        Err(TableError::RulesetMismatch { table, expected }) => {
            assert_eq!(table, "regency(house_of_water=true)");
            assert_eq!(expected, "regency");
        }
        other => panic!("expected a ruleset mismatch, got {other:?}"),
    }
    assert!(matches!(
        Endgames::read_oracle(&Regency::default(), &bytes),
        Err(EndgameError::Table(TableError::RulesetMismatch { .. }))
    ));
    // The generic reader builds the space from the header and accepts the right options.
    let oracle = Endgames::read_oracle(&water, &bytes).unwrap();
    assert_eq!(oracle.spec().to_string(), "regency(house_of_water=true)");
    assert_eq!(oracle.max_pieces(), 1);
}

#[test]
fn damaged_or_foreign_files_are_typed_errors() {
    let bytes = solved(Regency::default(), 1).to_bytes(ValueEncoding::U16);
    let space = || RegencyEndgame::new(Regency::default(), 1).unwrap();
    let refuse = |bytes: &[u8]| EndgameTable::from_bytes(space(), bytes).unwrap_err();

    assert!(matches!(
        refuse(b"PK\x03\x04 not a table"),
        TableError::BadMagic
    ));
    assert!(matches!(refuse(&bytes[..5]), TableError::Length { .. }));
    assert!(matches!(
        refuse(&bytes[..bytes.len() - 1]),
        TableError::Length { .. }
    ));
    let mut flipped = bytes.clone();
    flipped[100] ^= 0x10;
    assert!(matches!(refuse(&flipped), TableError::Checksum));
    let mut version = bytes.clone();
    version[8] = 9;
    assert!(matches!(refuse(&version), TableError::Version(9)));
    let mut encoding = bytes.clone();
    encoding[10] = 3;
    assert!(matches!(refuse(&encoding), TableError::Encoding(3)));
    // A table solved under another revision of the rules (checksum made good again).
    let mut revised = bytes.clone();
    revised[48..52].copy_from_slice(&(senet_regency::RULES_REVISION + 1).to_le_bytes());
    let body = revised.len() - 8;
    let sum = revised[..body]
        .iter()
        .fold(0xcbf2_9ce4_8422_2325u64, |hash, &b| {
            (hash ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
        });
    revised[body..].copy_from_slice(&sum.to_le_bytes());
    match refuse(&revised) {
        TableError::RevisionMismatch {
            table, expected, ..
        } => assert_eq!(
            (table, expected),
            (expected + 1, senet_regency::RULES_REVISION)
        ),
        other => panic!("expected a revision mismatch, got {other:?}"),
    }
    // Version 1 of the format recorded no revision, version 2 no proven bound: refused.
    let mut old = bytes.clone();
    old[8] = 1;
    assert!(matches!(refuse(&old), TableError::Outdated(1)));
    // A value out of its range or a bound that is not a number (checksums made good).
    let mut values = solved(Regency::default(), 1).to_bytes(ValueEncoding::F64);
    let first = 54 + 7 + 2 + RegencyEndgame::LAYOUT.len();
    values[first..first + 8].copy_from_slice(&1.5f64.to_le_bytes());
    assert!(matches!(
        refuse(&with_checksum(values)),
        TableError::Invalid("value")
    ));
    let mut bound = bytes.clone();
    bound[36..44].copy_from_slice(&f64::NAN.to_le_bytes());
    assert!(matches!(
        refuse(&with_checksum(bound)),
        TableError::Invalid("error bound")
    ));
    // A table for two pieces read as one for one piece.
    let two = two_pieces().to_bytes(ValueEncoding::U16);
    assert!(matches!(
        refuse(&two),
        TableError::PiecesMismatch {
            table: 2,
            expected: 1
        }
    ));
}

/// `bytes` with its last eight bytes replaced by the checksum of the rest.
fn with_checksum(mut bytes: Vec<u8>) -> Vec<u8> {
    let body = bytes.len() - 8;
    let sum = bytes[..body]
        .iter()
        .fold(0xcbf2_9ce4_8422_2325u64, |hash, &b| {
            (hash ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
        });
    bytes[body..].copy_from_slice(&sum.to_le_bytes());
    bytes
}

/// A table file as version 2 of the format wrote it (no proven bound), for `table`.
fn version_2_file(table: &EndgameTable<RegencyEndgame>) -> Vec<u8> {
    let mut out = Vec::new();
    out.extend_from_slice(b"SENETEGT");
    out.extend_from_slice(&2u16.to_le_bytes());
    out.push(2);
    out.push(table.space().max_pieces());
    out.extend_from_slice(&(table.values().len() as u64).to_le_bytes());
    out.extend_from_slice(&1e-9f64.to_le_bytes());
    out.extend_from_slice(&table.stats().residual.to_le_bytes());
    out.extend_from_slice(&table.stats().sweeps.to_le_bytes());
    out.extend_from_slice(&senet_regency::RULES_REVISION.to_le_bytes());
    for text in ["regency", RegencyEndgame::LAYOUT] {
        out.extend_from_slice(&(text.len() as u16).to_le_bytes());
        out.extend_from_slice(text.as_bytes());
    }
    for &v in table.values() {
        out.extend_from_slice(&((v * 65535.0).round() as u16).to_le_bytes());
    }
    out.extend_from_slice(&[0; 8]);
    with_checksum(out)
}

#[test]
fn a_file_of_the_format_before_proven_bounds_is_refused_with_the_way_out() {
    let table = solved(Regency::default(), 1);
    let old = version_2_file(&table);
    let space = || RegencyEndgame::new(Regency::default(), 1).unwrap();
    let refused = EndgameTable::from_bytes(space(), &old).unwrap_err();
    assert!(matches!(refused, TableError::Outdated(2)), "{refused:?}");
    assert!(refused.to_string().contains("senet solve"), "{refused}");
    // The generic readers refuse it as early, before reading past the header.
    assert!(matches!(
        Endgames::read_oracle(&Regency::default(), &old),
        Err(EndgameError::Table(TableError::Outdated(2)))
    ));
    assert!(matches!(
        senet_endgame::read_table_bytes(&old[..], 1 << 20),
        Err(TableError::Outdated(2))
    ));
    // The current format of the same table is read.
    let current = table.to_bytes(ValueEncoding::U16);
    assert!(EndgameTable::from_bytes(space(), &current).is_ok());
}

/// Every position's value is within its proven bound of the same position's value solved
/// far more precisely: at tolerance 1e-13, to a bound of 1e-12 if it gets there. A bound
/// that did not hold would show wherever the default solve is off by more than its bound.
#[test]
fn the_proven_bound_holds_against_a_far_more_precise_solve() {
    let table = two_pieces();
    let bound = table.stats().error_bound;
    assert!(bound <= EXACT_BOUND, "{bound:e}");
    let precise = solve(
        RegencyEndgame::new(Regency::default(), 2).unwrap(),
        &SolveOptions {
            tolerance: 1e-13,
            target_bound: 1e-12,
            ..SolveOptions::default()
        },
    )
    .unwrap();
    let precise_bound = precise.stats().error_bound;
    assert!(precise_bound < bound, "{precise_bound:e} against {bound:e}");
    for (index, (a, b)) in table.values().iter().zip(precise.values()).enumerate() {
        assert!(
            (a - b).abs() <= bound + precise_bound,
            "index {index}: {a} against {b}, bounds {bound:e} and {precise_bound:e}"
        );
    }
    // Before the brackets, the default solve left values up to 1.0e-9 off (below), which
    // the loop above would have caught against a bound of 1e-10.
    assert!(table.largest_difference(&precise) <= 2.0 * EXACT_BOUND);
}

/// A Regency position whose value the default tolerance once left 1.0e-9 off
/// (0.973168127922): Black on 29 against White on 1 and 28, Black to throw.
#[test]
fn a_position_once_off_by_1e_9_is_within_1e_10_of_its_value() {
    let table = two_pieces();
    let rules = table.space().rules();
    let state = rules
        .parse_position(&format!("W{}WB. b", ".".repeat(26)))
        .unwrap();
    let value = table.value(&state).unwrap();
    // The value to twelve places, solved at tolerance 1e-13.
    let exact = 0.973_168_128_924;
    assert!((value - exact).abs() <= 1e-10, "{value}");
    assert!(
        (value - exact).abs() <= table.stats().error_bound + 5e-13,
        "{value}"
    );
}

#[test]
fn bad_endgame_requests_are_typed_errors() {
    assert!(matches!(
        RegencyEndgame::new(Regency::default(), 0),
        Err(EndgameError::Pieces { requested: 0, .. })
    ));
    assert!(matches!(
        Endgames::solve_oracle(&Regency::default(), 9, &SolveOptions::default()),
        Err(EndgameError::Pieces { requested: 9, .. })
    ));
    // Four pieces a side: 290 million positions, refused before any memory is spent.
    assert!(matches!(
        Endgames::solve_oracle(&Regency::default(), 4, &SolveOptions::default()),
        Err(EndgameError::TooLarge {
            limit: 67_108_864,
            ..
        })
    ));
    // Too few sweeps allowed to reach the tolerance.
    let space = RegencyEndgame::new(Regency::default(), 1).unwrap();
    let stingy = SolveOptions {
        tolerance: 1e-12,
        max_sweeps: 2,
        ..SolveOptions::default()
    };
    assert!(matches!(
        solve(space, &stingy),
        Err(EndgameError::NotConverged { sweeps: 2, .. })
    ));
    // The tables of one configuration cannot drive a player of another.
    let water = Regency::default().with_house_of_water(true);
    let oracle = Endgames::solve_oracle(&water, 1, &SolveOptions::default()).unwrap();
    assert!(matches!(
        Perfect::with_default_fallback(&Regency::default(), oracle),
        Err(EndgameError::RulesetMismatch { .. })
    ));
}

/// A ruleset without an endgame space: Regency under another name.
#[derive(Clone, Debug)]
struct Renamed(Regency);

impl Ruleset for Renamed {
    type State = <Regency as Ruleset>::State;
    type Device = <Regency as Ruleset>::Device;
    const ID: &'static str = "renamed";
    const NAME: &'static str = "Regency under another name";
    const RULES_REVISION: u32 = Regency::RULES_REVISION;
    const OPTIONS: &'static [senet_core::OptionInfo] = &[];
    const SEAT_RULE: senet_core::SeatRule = Regency::SEAT_RULE;
    fn from_spec(_: &senet_core::RulesetSpec) -> Result<Self, senet_core::SpecError> {
        Ok(Renamed(Regency::default()))
    }
    fn spec(&self) -> senet_core::RulesetSpec {
        senet_core::RulesetSpec::new("renamed")
    }
    fn device(&self) -> Self::Device {
        self.0.device()
    }
    fn pieces_per_side(&self) -> u8 {
        self.0.pieces_per_side()
    }
    fn initial_state(&self) -> Self::State {
        self.0.initial_state()
    }
    fn board<'s>(&self, state: &'s Self::State) -> &'s senet_core::BitBoard {
        self.0.board(state)
    }
    fn phase(&self, state: &Self::State) -> Phase {
        self.0.phase(state)
    }
    fn throw_unchecked(&self, state: &mut Self::State, value: Throw) {
        self.0.throw_unchecked(state, value)
    }
    fn generate_moves(&self, state: &Self::State, moves: &mut senet_core::MoveList) {
        self.0.generate_moves(state, moves)
    }
    fn play_unchecked(&self, state: &mut Self::State, mv: senet_core::Move) {
        self.0.play_unchecked(state, mv)
    }
    fn validate(&self, state: &Self::State) -> Result<(), senet_core::PositionError> {
        self.0.validate(state)
    }
    fn to_setup(&self, state: &Self::State) -> senet_core::Setup {
        self.0.to_setup(state)
    }
    fn read_setup(
        &self,
        setup: &senet_core::Setup,
    ) -> Result<Self::State, senet_core::PositionError> {
        self.0.read_setup(setup)
    }
}

#[test]
fn rulesets_without_an_endgame_space_are_a_typed_error() {
    // Generic code holds a ruleset's endgames as an option: `None` for a ruleset without
    // a space, here a renamed Regency.
    let rules = Renamed(Regency::default());
    let none: Option<&dyn Endgames<Renamed>> = None;
    assert!(matches!(
        endgames_or_unsupported(&rules, none),
        Err(EndgameError::Unsupported(spec)) if spec == "renamed"
    ));
    assert!(EndgameFiles::supported(&Regency::default()));
    assert!(matches!(
        "perfect:1"
            .parse::<senet_ai::PlayerSpec>()
            .unwrap()
            .build(&rules, None),
        Err(senet_ai::PlayerSpecError::Endgame(
            EndgameError::Unsupported(_)
        ))
    ));
}

#[test]
fn a_space_that_breaks_its_contract_is_reported() {
    /// Only the one-piece positions of Black on 1..=10, but claiming to be closed.
    struct Leaky(RegencyEndgame);
    impl EndgameSpace for Leaky {
        type Rules = Regency;
        const LAYOUT: &'static str = "leaky";
        fn rules(&self) -> &Regency {
            self.0.rules()
        }
        fn max_pieces(&self) -> u8 {
            1
        }
        fn state_count(&self) -> usize {
            10
        }
        fn index(&self, state: &senet_regency::RegencyState) -> Option<usize> {
            self.0.index(state).filter(|&i| i < 10)
        }
        fn state(&self, index: usize) -> Option<senet_regency::RegencyState> {
            (index < 10).then(|| self.0.state(index)).flatten()
        }
    }
    let leaky = Leaky(RegencyEndgame::new(Regency::default(), 1).unwrap());
    assert!(matches!(
        solve(leaky, &SolveOptions::default()),
        Err(EndgameError::NotClosed { .. })
    ));
}

#[test]
fn solve_oracle_gives_an_oracle_that_generic_code_can_use() {
    let rules = Regency::default();
    let oracle = Endgames::solve_oracle(&rules, 1, &SolveOptions::default()).unwrap();
    assert!(oracle.describe().contains("756"));
    // A covered state answers; the opening does not.
    let state = rules
        .parse_position(&format!("{}W...B. w", ".".repeat(24)))
        .unwrap();
    assert!(oracle.throw_value(&state).is_some());
    assert!(oracle.throw_value(&rules.initial_state()).is_none());
}

#[test]
fn the_solved_values_do_not_depend_on_the_number_of_threads() {
    let values = |threads| {
        let options = SolveOptions {
            threads,
            ..SolveOptions::default()
        };
        solve(
            RegencyEndgame::new(Regency::default(), 2).unwrap(),
            &options,
        )
        .unwrap()
        .values()
        .to_vec()
    };
    let one = values(1);
    for threads in [2, 3, 8] {
        assert_eq!(values(threads), one, "{threads} threads");
    }
}
