//! How many moves can one Piccione position offer? Split throws make this the largest move
//! list of every ruleset, so it decides `MOVE_LIST_CAPACITY`.
//!
//! The exhaustive part tries every placement of five pieces of the side to move on the 29
//! squares a piece can stand on (237,510 cases with throws of 4 and 5, and the entry
//! obligation wherever a piece stands on square 1), with the opponent's pieces in hand. The
//! largest list is 195 moves, for {1, 7, 14, 20, 25} with a 5. Opposing pieces only take
//! squares away; a hill-climbing search that adds them (and tries every throw) found nothing
//! larger. It takes a few seconds in release mode:
//!
//! ```text
//! cargo test --release -p senet-piccione --test move_list_bound -- --ignored
//! ```

use senet_core::{MOVE_LIST_CAPACITY, MoveList, Ruleset};
use senet_piccione::Piccione;
use senet_testkit::scenario::scenario;

/// The largest number of moves found.
const LARGEST: usize = 195;

fn count(list: &mut MoveList, me: &[u8], opp: &[u8], throw: u8, entered: bool) -> usize {
    let mut fields = format!("throw={throw} hand={},{}", 5 - me.len(), 5 - opp.len());
    if entered {
        fields.push_str(" entered_must_move=true");
    }
    let state = Piccione
        .parse_position(&scenario(me, opp, &fields))
        .unwrap();
    Piccione.generate_moves(&state, list);
    list.len()
}

#[test]
fn the_largest_known_list_fits() {
    let mut list = MoveList::new();
    assert_eq!(
        count(&mut list, &[1, 7, 14, 20, 25], &[], 5, false),
        LARGEST
    );
    const { assert!(LARGEST <= MOVE_LIST_CAPACITY) };
}

#[test]
#[ignore = "exhaustive: a few seconds in release mode, minutes in debug"]
fn no_placement_of_five_pieces_offers_more() {
    let squares: Vec<u8> = (1..=30).filter(|&n| n != 27).collect();
    let n = squares.len();
    let mut list = MoveList::new();
    let mut largest = 0;
    for a in 0..n {
        for b in a + 1..n {
            for c in b + 1..n {
                for d in c + 1..n {
                    for e in d + 1..n {
                        let me = [squares[a], squares[b], squares[c], squares[d], squares[e]];
                        for throw in [4, 5] {
                            largest = largest.max(count(&mut list, &me, &[], throw, false));
                            if me[0] == 1 {
                                largest = largest.max(count(&mut list, &me, &[], throw, true));
                            }
                        }
                    }
                }
            }
        }
    }
    assert_eq!(largest, LARGEST);
}
