//! `Piccione::play_random_move` chooses among the positions the choices lead to instead of
//! listing moves; it must play the very move the listed way plays, with the same draws.

use rand_chacha::ChaCha8Rng;
use rand_core::{Rng, SeedableRng};
use senet_core::{MoveList, Phase, Ruleset, ThrowingDevice, play_random_from_list};
use senet_piccione::{Piccione, PiccioneState};
use senet_testkit::scenario::scenario;

/// Plays the random move of `state` both ways from the same generator and checks that the
/// states and the generators agree afterwards; returns the state after it.
fn both_ways(state: &PiccioneState, rng: &mut ChaCha8Rng, moves: &mut MoveList) -> PiccioneState {
    let (mut direct, mut listed) = (*state, *state);
    let mut listed_rng = rng.clone();
    Piccione.play_random_move(&mut direct, rng, moves);
    play_random_from_list(&Piccione, &mut listed, &mut listed_rng, moves);
    assert_eq!(direct, listed, "from {}", Piccione.position_string(state));
    assert_eq!(
        rng.clone().next_u64(),
        listed_rng.next_u64(),
        "draws from {}",
        Piccione.position_string(state)
    );
    direct
}

#[test]
fn random_moves_are_the_listed_ones_in_whole_games() {
    let mut moves = MoveList::new();
    let mut decisions = 0u32;
    for game in 0..2_000u64 {
        let mut rng = ChaCha8Rng::seed_from_u64(2026);
        rng.set_stream(game);
        let mut state = Piccione.initial_state();
        loop {
            match Piccione.phase(&state) {
                Phase::Over(_) => break,
                Phase::Throw(_) => {
                    let value = Piccione.device().sample(&mut rng);
                    Piccione.throw_unchecked(&mut state, value);
                }
                Phase::Move(_) => {
                    state = both_ways(&state, &mut rng, &mut moves);
                    decisions += 1;
                }
            }
        }
    }
    // About 355 decisions a game.
    assert!(decisions > 2_000 * 200, "{decisions}");
}

#[test]
fn a_decision_with_more_choices_than_the_stack_keeps_lists_its_moves() {
    // 195 moves, the largest list there is (tests/move_list_bound.rs).
    let state = Piccione
        .parse_position(&scenario(&[1, 7, 14, 20, 25], &[], "throw=5 hand=0,5"))
        .unwrap();
    let mut moves = MoveList::new();
    Piccione.generate_moves(&state, &mut moves);
    assert_eq!(moves.len(), 195);
    for seed in 0..200 {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        both_ways(&state, &mut rng, &mut moves);
    }
}

#[test]
fn passes_entries_and_the_end_of_the_game_are_played_alike() {
    let mut moves = MoveList::new();
    for (me, opp, fields) in [
        // P-S1: nothing to do with a 2 and every piece in hand.
        (&[][..], &[][..], "throw=2 hand=5,5"),
        // P-3: a 1 may enter.
        (&[][..], &[][..], "throw=1 hand=5,5"),
        // P-7: the entered piece cannot move and goes back to hand.
        (
            &[1][..],
            &[2, 3, 4][..],
            "throw=3 hand=4,2 entered_must_move=true",
        ),
        // P-11, P-12: the last piece leaves.
        (&[30][..], &[][..], "throw=1 hand=0,5"),
        // P-9 and P-2: a 5 landing on 15, with extra throws already earned.
        (&[10][..], &[][..], "throw=5 hand=0,5 extra_throws=2"),
    ] {
        let state = Piccione.parse_position(&scenario(me, opp, fields)).unwrap();
        for seed in 0..20 {
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            both_ways(&state, &mut rng, &mut moves);
        }
    }
}
