//! Program words packed for the scratch file: each word's tag and payload as one LEB128
//! number, a successor's payload as its distance from the previous successor of its kind.
//!
//! The successors of a state sit close to it in the sweep order, and those of one state
//! close to each other, so most words take one or two bytes instead of four. Regency's
//! scratch file for 4 pieces against 4 (4.4 billion words) then fits in the page cache of a
//! 24 GB machine beside the solve, where at 4 bytes a word (16.5 GiB) it did not quite, and
//! every sweep waited on the disk for the part that had fallen out.

use std::io::{Error, ErrorKind};

use super::program::{PAYLOAD, TAG_SHIFT};

/// Tags 0 and 1 name successors in the layer, 2 and 3 in earlier layers: each kind keeps
/// its own previous payload to count from.
fn kind(tag: u32) -> Option<usize> {
    match tag {
        0 | 1 => Some(0),
        2 | 3 => Some(1),
        _ => None,
    }
}

/// Appends `words` packed to `out`. Each chunk is packed on its own, counting from 0.
pub(super) fn pack(words: &[u32], out: &mut Vec<u8>) {
    let mut previous = [0u32; 2];
    for &word in words {
        let tag = word >> TAG_SHIFT;
        let payload = word & PAYLOAD;
        let number = match kind(tag) {
            Some(k) => {
                let delta = i64::from(payload) - i64::from(previous[k]);
                previous[k] = payload;
                // Zigzag: small distances either way become small numbers.
                ((delta << 1) ^ (delta >> 63)) as u64
            }
            None => u64::from(payload),
        };
        let mut rest = (number << 3) | u64::from(tag);
        loop {
            let low = (rest & 0x7f) as u8;
            rest >>= 7;
            if rest == 0 {
                out.push(low);
                break;
            }
            out.push(low | 0x80);
        }
    }
}

fn corrupt(what: &str) -> Error {
    Error::new(ErrorKind::InvalidData, format!("scratch chunk: {what}"))
}

/// The `count` words packed in `bytes` by [`pack`]; an error when the bytes do not hold
/// exactly that many valid words.
pub(super) fn unpack(bytes: &[u8], count: usize) -> std::io::Result<Vec<u32>> {
    let mut words = Vec::with_capacity(count);
    let mut previous = [0u32; 2];
    let mut at = 0;
    while words.len() < count {
        let mut number: u64 = 0;
        let mut shift = 0;
        loop {
            let &byte = bytes.get(at).ok_or_else(|| corrupt("ends early"))?;
            at += 1;
            if shift > 35 {
                return Err(corrupt("number too long"));
            }
            number |= u64::from(byte & 0x7f) << shift;
            shift += 7;
            if byte & 0x80 == 0 {
                break;
            }
        }
        let tag = (number & 7) as u32;
        let rest = number >> 3;
        let payload = match kind(tag) {
            Some(k) => {
                let delta = ((rest >> 1) as i64) ^ -((rest & 1) as i64);
                let payload = i64::from(previous[k]) + delta;
                let payload = u32::try_from(payload)
                    .ok()
                    .filter(|&p| p <= PAYLOAD)
                    .ok_or_else(|| corrupt("successor out of range"))?;
                previous[k] = payload;
                payload
            }
            None => u32::try_from(rest)
                .ok()
                .filter(|&p| p <= PAYLOAD)
                .ok_or_else(|| corrupt("payload out of range"))?,
        };
        words.push((tag << TAG_SHIFT) | payload);
    }
    if at != bytes.len() {
        return Err(corrupt("bytes left over"));
    }
    Ok(words)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::program::{
        CHANCE, FINAL_FLIP, FINAL_SAME, LOCAL_FLIP, LOCAL_SAME, MAXIMUM, MINIMUM, TERMINAL,
    };

    #[test]
    fn words_come_back_as_they_went_and_near_successors_take_little_room() {
        let words = [
            MAXIMUM | 2,
            LOCAL_SAME | 1_000_000,
            LOCAL_FLIP | 1_000_003,
            FINAL_SAME | PAYLOAD,
            FINAL_FLIP,
            LOCAL_SAME | 999_990,
            MINIMUM | 3,
            TERMINAL | 2,
            CHANCE,
            LOCAL_FLIP | PAYLOAD,
            LOCAL_SAME,
        ];
        let mut bytes = Vec::new();
        pack(&words, &mut bytes);
        assert_eq!(unpack(&bytes, words.len()).unwrap(), words);
        // Beyond the first successor, one a few places from the last takes one byte.
        let near: Vec<u32> = (0..1000).map(|i| LOCAL_FLIP | (500_000 + i % 7)).collect();
        let mut bytes = Vec::new();
        pack(&near, &mut bytes);
        assert!(bytes.len() < 1010, "{} bytes", bytes.len());
        assert_eq!(unpack(&bytes, near.len()).unwrap(), near);
    }

    #[test]
    fn damaged_chunks_are_errors() {
        let mut bytes = Vec::new();
        pack(&[LOCAL_SAME | 5, MAXIMUM | 2], &mut bytes);
        // Too few bytes, too many, a number that never ends, a successor before place 0.
        assert!(unpack(&bytes[..bytes.len() - 1], 2).is_err());
        assert!(unpack(&bytes, 1).is_err());
        assert!(unpack(&[0xff; 12], 1).is_err());
        assert!(unpack(&[3 << 3], 1).is_err());
        // A payload past 29 bits.
        let mut wide = Vec::new();
        let number: u64 = ((u64::from(PAYLOAD) + 1) << 3) | 4;
        let mut rest = number;
        while rest >= 0x80 {
            wide.push((rest as u8 & 0x7f) | 0x80);
            rest >>= 7;
        }
        wide.push(rest as u8);
        assert!(unpack(&wide, 1).is_err());
    }
}
