//! Throws nobody chose. A room of `senet serve` draws its throws from a ChaCha8 stream whose
//! 32-byte seed is committed when the room opens (its SHA-256 is shown to both players) and
//! revealed when the game ends; `senet replay --seed` then draws the stream again and compares
//! it with the record, throw by throw.

use senet::rng::{ChaCha8Rng, SeedableRng};
use senet::{Action, AnyGame};
use sha2::{Digest, Sha256};

/// A stream's seed: 32 bytes from the operating system's generator.
pub(crate) type Seed = [u8; 32];

/// A fresh seed from the operating system's generator.
pub(crate) fn fresh_seed() -> Result<Seed, getrandom::Error> {
    let mut seed = [0u8; 32];
    getrandom::fill(&mut seed)?;
    Ok(seed)
}

/// `bytes` in lower-case hexadecimal.
pub(crate) fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// The bytes of `text`, hexadecimal of exactly `N` bytes; `None` for anything else.
pub(crate) fn from_hex<const N: usize>(text: &str) -> Option<[u8; N]> {
    let text = text.trim();
    if text.len() != 2 * N || !text.is_ascii() {
        return None;
    }
    let mut bytes = [0u8; N];
    for (i, byte) in bytes.iter_mut().enumerate() {
        *byte = u8::from_str_radix(&text[2 * i..2 * i + 2], 16).ok()?;
    }
    Some(bytes)
}

/// The SHA-256 of `bytes`.
pub(crate) fn sha256(bytes: &[u8]) -> [u8; 32] {
    Sha256::digest(bytes).into()
}

/// The commitment to `seed`: its SHA-256 in hexadecimal.
pub(crate) fn commitment(seed: &Seed) -> String {
    hex(&sha256(seed))
}

/// The stream the throws of a game with `seed` are drawn from, in order, one
/// `sample_throw` each.
pub(crate) fn throw_stream(seed: &Seed) -> ChaCha8Rng {
    ChaCha8Rng::from_seed(*seed)
}

/// Checks that every throw of `game` is the next draw of the stream of `seed`; returns the
/// number of throws, or the first that differs, in words.
pub(crate) fn verify_throws(game: &AnyGame, seed: &Seed) -> Result<usize, String> {
    let mut rng = throw_stream(seed);
    let mut throws = 0;
    for (index, action) in game.history().iter().enumerate() {
        if let Action::Throw(value) = action {
            let drawn = game.rules().sample_throw(&mut rng);
            if drawn != *value {
                return Err(format!(
                    "action {}: the record throws {value}, the seed's stream gives {drawn}",
                    index + 1
                ));
            }
            throws += 1;
        }
    }
    Ok(throws)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hex_round_trips_and_refuses_other_lengths() {
        let seed = [0xab; 32];
        assert_eq!(from_hex::<32>(&hex(&seed)), Some(seed));
        assert_eq!(from_hex::<32>("ab"), None);
        assert_eq!(from_hex::<2>("zz00"), None);
        assert_eq!(from_hex::<2>("é0"), None);
    }

    #[test]
    fn a_game_thrown_from_the_stream_verifies_and_a_changed_throw_does_not() {
        let seed = [7; 32];
        let mut rng = throw_stream(&seed);
        let mut game = AnyGame::new("regency".parse().unwrap());
        let value = game.rules().sample_throw(&mut rng);
        game.apply(Action::Throw(value)).unwrap();
        assert_eq!(verify_throws(&game, &seed), Ok(1));
        // Another seed verifies the record only if its first draw happens to be the same.
        let other = [8; 32];
        let same = game.rules().sample_throw(&mut throw_stream(&other)) == value;
        assert_eq!(verify_throws(&game, &other).is_ok(), same);
        assert_eq!(commitment(&seed).len(), 64);
    }
}
