//! Sets of board positions ranked in the combinatorial number system, which both endgame
//! spaces index their positions by.
//!
//! A set is a `u32` mask of positions `0..30` (a square less one, or a square's place among
//! the squares a piece can rest on). The sets of `r` positions among `n` are numbered
//! `0..C(n, r)` in colexicographic order: the rank of `{p₁ < p₂ < … < p_r}` is
//! `Σ_i C(p_i, i)`. One side's pieces are ranked among all the positions, the other side's
//! among those the first leaves free ([`compress`], [`expand`]).

/// Rows of the binomial table: sets among up to 30 positions.
const POSITIONS: usize = 30;
/// Columns of the binomial table: sets of up to 7 positions (Kendall's pieces a side).
pub(crate) const MOST_IN_SET: usize = 7;

/// `BINOMIAL[n][r]` = C(n, r), exact.
static BINOMIAL: [[usize; MOST_IN_SET + 1]; POSITIONS + 1] = binomials();

const fn binomials() -> [[usize; MOST_IN_SET + 1]; POSITIONS + 1] {
    let mut table = [[0; MOST_IN_SET + 1]; POSITIONS + 1];
    let mut n = 0;
    while n <= POSITIONS {
        table[n][0] = 1;
        let mut r = 1;
        while r <= MOST_IN_SET {
            // C(n, r) = C(n, r − 1) · (n − r + 1) / r, exact at every step.
            table[n][r] = table[n][r - 1] * (n + 1).saturating_sub(r) / r;
            r += 1;
        }
        n += 1;
    }
    table
}

/// C(n, r) for `n ≤ 30` and `r ≤ 7`: the sets of `r` positions among `n`.
#[inline]
pub(crate) fn binomial(n: usize, r: usize) -> usize {
    BINOMIAL[n][r]
}

/// The colexicographic rank of the set `mask` among the sets of its size.
#[inline]
pub(crate) fn rank(mut mask: u32) -> usize {
    let mut rank = 0;
    let mut i = 1;
    while mask != 0 {
        let p = mask.trailing_zeros() as usize;
        mask &= mask - 1;
        rank += BINOMIAL[p][i.min(MOST_IN_SET)];
        i += 1;
    }
    rank
}

/// The set of `size` positions among `0..n` whose colexicographic rank is `rank`.
pub(crate) fn unrank(mut rank: usize, size: u8, n: usize) -> u32 {
    let mut mask = 0;
    let mut top = n;
    for i in (1..=usize::from(size).min(MOST_IN_SET)).rev() {
        // The largest p with C(p, i) ≤ rank.
        let mut p = top;
        while p > 0 && BINOMIAL[p - 1][i] > rank {
            p -= 1;
        }
        let p = p.saturating_sub(1);
        rank -= BINOMIAL[p][i].min(rank);
        mask |= 1 << p;
        top = p;
    }
    mask
}

/// Packs the bits of `mask` that lie outside `taken` (which it does not meet): bit j of the
/// result is set when the j-th position not in `taken` is in `mask`.
#[inline]
pub(crate) fn compress(mut mask: u32, taken: u32) -> u32 {
    let mut out = 0;
    while mask != 0 {
        let p = mask.trailing_zeros();
        mask &= mask - 1;
        let below = (taken & ((1u32 << p) - 1)).count_ones();
        out |= 1 << (p - below);
    }
    out
}

/// Spreads the low bits of `compressed` over the zero bits of `taken`, undoing
/// [`compress`]: bit j of the result is set when the j-th position not in `taken` is in
/// `compressed`.
pub(crate) fn expand(compressed: u32, taken: u32) -> u32 {
    let mut out = 0;
    let mut source = compressed;
    let mut p = 0;
    while source != 0 && p < 32 {
        if taken & (1 << p) == 0 {
            if source & 1 != 0 {
                out |= 1 << p;
            }
            source >>= 1;
        }
        p += 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn binomials_are_exact() {
        assert_eq!(binomial(28, 3), 3276);
        assert_eq!(binomial(25, 3), 2300);
        assert_eq!(binomial(30, 3), 4060);
        assert_eq!(binomial(30, 5), 142_506);
        assert_eq!(binomial(30, 7), 2_035_800);
        assert_eq!(binomial(2, 3), 0);
    }

    #[test]
    fn rank_and_unrank_are_inverse() {
        for n in [12, 14] {
            for size in 1..=3u8 {
                for r in 0..binomial(n, usize::from(size)) {
                    let mask = unrank(r, size, n);
                    assert_eq!(mask.count_ones(), u32::from(size));
                    assert!(mask < 1 << n);
                    assert_eq!(rank(mask), r);
                }
            }
        }
    }

    #[test]
    fn compress_and_expand_are_inverse() {
        // Free positions are 0, 2, 3, 5…; positions 2 and 3 are the free ones number 1 and 2.
        assert_eq!(compress(0b1100, 0b10010), 0b110);
        assert_eq!(expand(0b110, 0b10010), 0b1100);
        for taken in [0u32, 0b1, 0b1010_0110, 0x2AAA_AAAA] {
            for mask in 0..256u32 {
                let spread = expand(mask, taken);
                assert_eq!(spread & taken, 0);
                assert_eq!(compress(spread, taken), mask);
            }
        }
    }
}
