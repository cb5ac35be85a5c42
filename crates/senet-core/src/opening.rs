//! The opening throws that decide which person plays the even set (Black), and so moves first.
//!
//! These throws only assign people to sets; the game itself starts from
//! [`Ruleset::initial_state`](crate::Ruleset::initial_state). Each ruleset names its
//! procedure in [`Ruleset::SEAT_RULE`](crate::Ruleset::SEAT_RULE).

use crate::prelude::*;
use rand_core::Rng;

use crate::throw::{Throw, ThrowingDevice};

/// How the two people decide who plays the even set.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SeatRule {
    /// The people throw in turn, person 0 first; the first to throw a 1 takes the even set
    /// (Botermans B-3, CEMEA C-3, Jéquier J-3, Kendall K-3).
    FirstToThrowOne,
    /// Both throw together, round after round, until exactly one of them throws a 1, who takes
    /// the even set (Regency R-3 and its interpretation I-1).
    OnlyOneThrowsOne,
    /// Both throw once; the higher throw takes the even set; ties are thrown again (Bell Be-3).
    HigherThrow,
    /// No throw-off: person 0 plays the even set (Piccione, where the first player starts).
    FirstPersonStarts,
}

/// The result of the opening throws.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeatDraw {
    /// The person (0 or 1) who plays the even set, Black.
    pub black_player: u8,
    /// The throws made, as (person, value), in order.
    pub throws: Vec<(u8, Throw)>,
}

/// Carries out `rule` with throws of `device` drawn from `rng`.
///
/// ```
/// use rand_chacha::ChaCha8Rng;
/// use rand_core::SeedableRng;
/// use senet_core::{draw_seats, SeatRule, Sticks};
/// let mut rng = ChaCha8Rng::seed_from_u64(3);
/// let draw = draw_seats(Sticks::ZERO_IS_SIX, SeatRule::FirstToThrowOne, &mut rng);
/// // The last throw is the deciding 1, by the person who takes the even set.
/// assert_eq!(draw.throws.last(), Some(&(draw.black_player, senet_core::Throw::at(1))));
/// ```
pub fn draw_seats<D: ThrowingDevice, G: Rng + ?Sized>(
    device: D,
    rule: SeatRule,
    rng: &mut G,
) -> SeatDraw {
    let mut throws = Vec::new();
    // Probability of a 1 is at least 1/6 for every device, so these loops end quickly; the
    // bound only guards against a broken RNG.
    const MAX_ROUNDS: usize = 100_000;
    let black_player = match rule {
        SeatRule::FirstPersonStarts => 0,
        SeatRule::FirstToThrowOne => {
            let mut found = 0;
            for i in 0..MAX_ROUNDS {
                let person = (i % 2) as u8;
                let value = device.sample(rng);
                throws.push((person, value));
                if value == 1 {
                    found = person;
                    break;
                }
            }
            found
        }
        SeatRule::OnlyOneThrowsOne | SeatRule::HigherThrow => {
            let mut found = 0;
            for _ in 0..MAX_ROUNDS {
                let (a, b) = (device.sample(rng), device.sample(rng));
                throws.push((0, a));
                throws.push((1, b));
                let decided = match rule {
                    SeatRule::OnlyOneThrowsOne => (a == 1) != (b == 1),
                    _ => a != b,
                };
                if decided {
                    found = match rule {
                        SeatRule::OnlyOneThrowsOne => u8::from(b == 1),
                        _ => u8::from(b > a),
                    };
                    break;
                }
            }
            found
        }
    };
    SeatDraw {
        black_player,
        throws,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::throw::{FourSidedDie, Sticks};
    use rand_chacha::ChaCha8Rng;
    use rand_core::SeedableRng;

    #[test]
    fn first_to_throw_one_alternates_and_stops_at_the_first_one() {
        let mut rng = ChaCha8Rng::seed_from_u64(11);
        for _ in 0..200 {
            let draw = draw_seats(Sticks::ZERO_IS_FIVE, SeatRule::FirstToThrowOne, &mut rng);
            for (i, &(person, value)) in draw.throws.iter().enumerate() {
                assert_eq!(usize::from(person), i % 2);
                assert_eq!(value == 1, i + 1 == draw.throws.len());
            }
            assert_eq!(draw.throws.last().unwrap().0, draw.black_player);
        }
    }

    #[test]
    fn only_one_throws_one_needs_exactly_one_one() {
        let mut rng = ChaCha8Rng::seed_from_u64(12);
        for _ in 0..200 {
            let draw = draw_seats(Sticks::ZERO_IS_SIX, SeatRule::OnlyOneThrowsOne, &mut rng);
            let rounds: Vec<_> = draw.throws.chunks(2).collect();
            for round in &rounds[..rounds.len() - 1] {
                assert_eq!(round[0].1 == 1, round[1].1 == 1, "an earlier round decided");
            }
            let last = rounds.last().unwrap();
            assert_ne!(last[0].1 == 1, last[1].1 == 1);
            let winner = if last[0].1 == 1 { 0 } else { 1 };
            assert_eq!(draw.black_player, winner);
        }
    }

    #[test]
    fn higher_throw_wins_and_ties_repeat() {
        let mut rng = ChaCha8Rng::seed_from_u64(13);
        let mut wins = [0u32; 2];
        for _ in 0..2000 {
            let draw = draw_seats(FourSidedDie, SeatRule::HigherThrow, &mut rng);
            let rounds: Vec<_> = draw.throws.chunks(2).collect();
            for round in &rounds[..rounds.len() - 1] {
                assert_eq!(round[0].1, round[1].1);
            }
            let last = rounds.last().unwrap();
            let winner = if last[0].1 > last[1].1 { 0 } else { 1 };
            assert_eq!(draw.black_player, winner);
            wins[usize::from(winner)] += 1;
        }
        assert!(wins[0] > 800 && wins[1] > 800, "{wins:?}");
    }

    #[test]
    fn first_person_starts_without_throws() {
        let mut rng = ChaCha8Rng::seed_from_u64(14);
        let draw = draw_seats(Sticks::ZERO_IS_FIVE, SeatRule::FirstPersonStarts, &mut rng);
        assert_eq!(draw.black_player, 0);
        assert!(draw.throws.is_empty());
    }
}
