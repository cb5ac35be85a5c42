//! Exact evaluation of a bound of a right-hand side, for the brackets' sweeps where rounding
//! would otherwise decide (see the [solver's documentation](super#what-it-guarantees)).
//!
//! A value is a sum of doubles that do not overlap (Shewchuk's *expansions*, "Adaptive
//! precision floating-point arithmetic and fast robust geometric predicates", 1997): sums
//! and products by a double are kept exact with the error-free transformations `two_sum`
//! and `two_product` (the latter by a fused multiply–add), so that comparisons, maxima and
//! minima are exact. The throws' probabilities must be exact doubles (dyadic: a device whose
//! weights' denominator is a power of two); nothing near the bottom of the double range is
//! handled (`None`).

use super::equations::Known;
use super::program::{PAYLOAD, TAG_SHIFT, TERMINAL_VALUES};

/// A number as a sum of nonoverlapping doubles, smallest first, no zeros: at most
/// [`PARTS`] of them, which is plenty for a right-hand side's sums (an operation that
/// would need more gives up, `None`).
#[derive(Clone, Copy, Debug)]
pub(super) struct Expansion {
    len: usize,
    parts: [f64; PARTS],
}

/// The most doubles an [`Expansion`] holds.
const PARTS: usize = 16;

impl PartialEq for Expansion {
    fn eq(&self, other: &Expansion) -> bool {
        self.parts() == other.parts()
    }
}

impl Default for Expansion {
    fn default() -> Expansion {
        Expansion {
            len: 0,
            parts: [0.0; PARTS],
        }
    }
}

/// Below this, a product's rounding error may not be a double: such sums are not taken.
const TINY: f64 = 1e-280;

fn two_sum(a: f64, b: f64) -> (f64, f64) {
    let s = a + b;
    let bv = s - a;
    let av = s - bv;
    (s, (a - av) + (b - bv))
}

fn two_product(a: f64, b: f64) -> (f64, f64) {
    let p = a * b;
    (p, a.mul_add(b, -p))
}

impl Expansion {
    /// The double `value`, exactly.
    pub(super) fn of(value: f64) -> Expansion {
        let mut e = Expansion::default();
        if value != 0.0 {
            e.parts[0] = value;
            e.len = 1;
        }
        e
    }

    fn parts(&self) -> &[f64] {
        &self.parts[..self.len]
    }

    /// Adds `b` in place, exactly (Shewchuk's `grow_expansion` with zeros dropped: each
    /// part is written at or before the place it was read from); `None` past [`PARTS`].
    fn grow(&mut self, b: f64) -> Option<()> {
        let mut q = b;
        let mut n = 0;
        for i in 0..self.len {
            let (sum, error) = two_sum(q, self.parts[i]);
            if error != 0.0 {
                self.parts[n] = error;
                n += 1;
            }
            q = sum;
        }
        if q != 0.0 {
            *self.parts.get_mut(n)? = q;
            n += 1;
        }
        self.len = n;
        Some(())
    }

    /// Makes the number the double `value`.
    fn set(&mut self, value: f64) {
        self.len = 0;
        if value != 0.0 {
            self.parts[0] = value;
            self.len = 1;
        }
    }

    /// Adds `term · p` in place, exactly.
    fn add_product(&mut self, term: &Expansion, p: f64) -> Option<()> {
        for &e in term.parts() {
            let (product, low) = checked_product(e, p)?;
            self.grow(low)?;
            self.grow(product)?;
        }
        Some(())
    }

    /// The sign of `self − other`: from the two numbers' rounded sums where those are far
    /// enough apart, exactly otherwise. Summed from the smallest part up, the parts of at
    /// most [`PARTS`] nonoverlapping doubles round to within `16 · 2⁻⁵³` of their sum
    /// relative to it, so a difference above `32 · 2⁻⁵²` of the two sizes has its sign.
    fn order(&self, other: &Expansion) -> Option<i8> {
        let (a, b): (f64, f64) = (self.parts().iter().sum(), other.parts().iter().sum());
        if (a - b).abs() > 32.0 * f64::EPSILON * (a.abs() + b.abs()) {
            return Some(if a > b { 1 } else { -1 });
        }
        Some(self.minus(other)?.signum())
    }

    /// `self + other`, exactly.
    pub(super) fn plus(mut self, other: &Expansion) -> Option<Expansion> {
        for &b in other.parts() {
            self.grow(b)?;
        }
        Some(self)
    }

    /// `self − other`, exactly.
    pub(super) fn minus(mut self, other: &Expansion) -> Option<Expansion> {
        for &b in other.parts() {
            self.grow(-b)?;
        }
        Some(self)
    }

    /// The sign of the number: the sign of its largest component.
    pub(super) fn signum(&self) -> i8 {
        match self.parts().last() {
            Some(&v) if v > 0.0 => 1,
            Some(_) => -1,
            None => 0,
        }
    }

    /// The sign of `value − self`; `None` where that cannot be told exactly.
    pub(super) fn compare(&self, value: f64) -> Option<i8> {
        let mut difference = *self;
        for part in &mut difference.parts[..difference.len] {
            *part = -*part;
        }
        difference.grow(value)?;
        Some(difference.signum())
    }

    /// The largest double at most the number.
    pub(super) fn round_down(&self) -> Option<f64> {
        let mut guess: f64 = self.parts().iter().sum();
        while self.compare(guess)? > 0 {
            guess = guess.next_down();
        }
        Some(guess)
    }

    /// The smallest double at least the number.
    pub(super) fn round_up(&self) -> Option<f64> {
        let mut guess: f64 = self.parts().iter().sum();
        while self.compare(guess)? < 0 {
            guess = guess.next_up();
        }
        Some(guess)
    }

    /// Whether the number is the double `value`.
    pub(super) fn is(&self, value: f64) -> bool {
        self.compare(value) == Some(0)
    }
}

/// `two_product(a, b)` where its error is exact (the product well above the subnormals).
fn checked_product(a: f64, b: f64) -> Option<(f64, f64)> {
    let (p, e) = two_product(a, b);
    (p == 0.0 || p.abs() > TINY).then_some((p, e))
}

/// Whether every probability is an exact double and they sum to exactly 1: then the
/// weighted sums of a right-hand side are sums of exact products.
pub(super) fn exact_probabilities(probabilities: &[f64]) -> bool {
    let total = probabilities
        .iter()
        .try_fold(Expansion::default(), |sum, &p| sum.plus(&Expansion::of(p)));
    // A probability k / 2^n is exact; a rounded one would not sum to exactly 1, and all
    // the device's outcomes are there.
    total.is_some_and(|total| total.is(1.0))
}

/// The exact lower (`upper` false) or upper bound of the right-hand side of the program at
/// `words[*at]`, as [`bracket_right_hand_side`](super::program::bracket_right_hand_side)
/// computes it in floating point, each earlier layer's value `v` read as `v ∓ inherited`
/// within 0..=1. Moves `at` past it. `None` where a product is too small or a sum too long.
pub(super) fn exact_bound(
    words: &[u32],
    at: &mut usize,
    known: Known<'_>,
    (inherited, upper): (f64, bool),
    pairs: &[[f64; 2]],
) -> Option<Expansion> {
    let mut out = Expansion::default();
    let reads = Reads {
        words,
        known,
        inherited,
        upper,
        pairs,
    };
    reads.sum(at, &mut out)?;
    Some(out)
}

/// What an exact evaluation reads.
struct Reads<'a> {
    words: &'a [u32],
    known: Known<'a>,
    inherited: f64,
    upper: bool,
    pairs: &'a [[f64; 2]],
}

impl Reads<'_> {
    /// The throws of the chance node at `words[*at]`, weighted, into `out`.
    fn sum(&self, at: &mut usize, out: &mut Expansion) -> Option<()> {
        out.len = 0;
        let mut term = Expansion::default();
        for &p in self.known.probabilities {
            self.expression(at, &mut term)?;
            out.add_product(&term, p)?;
        }
        Some(())
    }

    /// The expression at `words[*at]` into `out`.
    fn expression(&self, at: &mut usize, out: &mut Expansion) -> Option<()> {
        let word = self.words[*at];
        *at += 1;
        let payload = (word & PAYLOAD) as usize;
        let side = usize::from(self.upper);
        match word >> TAG_SHIFT {
            0 => out.set(self.pairs[payload][side]),
            1 => {
                out.set(1.0);
                out.grow(-self.pairs[payload][1 - side])?;
            }
            tag @ (2 | 3) => {
                let v = self.known.solved[payload];
                if tag == 2 {
                    out.set(v);
                } else {
                    out.set(1.0);
                    out.grow(-v)?;
                }
                out.grow(if self.upper {
                    self.inherited
                } else {
                    -self.inherited
                })?;
                // The game's values are within 0..=1.
                if out.signum() < 0 {
                    out.set(0.0);
                } else if out.compare(1.0)? < 0 {
                    out.set(1.0);
                }
            }
            6 => out.set(TERMINAL_VALUES[payload.min(2)]),
            tag @ (4 | 5) => {
                self.expression(at, out)?;
                let mut other = Expansion::default();
                for _ in 1..payload {
                    self.expression(at, &mut other)?;
                    let order = other.order(out)?;
                    if (tag == 4 && order > 0) || (tag == 5 && order < 0) {
                        *out = other;
                    }
                }
            }
            _ => self.sum(at, out)?,
        }
        Some(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sums_and_products_are_exact() {
        // 0.1 + 0.2 − 0.3 is not zero in doubles, and exactly its own value here.
        let sum = Expansion::of(0.1).plus(&Expansion::of(0.2)).unwrap();
        assert_eq!(
            sum.plus(&Expansion::of(-0.1))
                .unwrap()
                .minus(&Expansion::of(0.2)),
            Some(Expansion::default())
        );
        assert_eq!(sum.minus(&Expansion::of(0.3)).unwrap().signum(), 1);
        assert_eq!(Expansion::of(0.3).order(&sum), Some(-1));
        // Products by three sixteenths and by sixteen: the same as by three.
        let mut x = Expansion::default();
        x.add_product(&Expansion::of(0.1), 3.0 / 16.0).unwrap();
        let mut y = Expansion::default();
        y.add_product(&x, 16.0).unwrap();
        let mut z = Expansion::default();
        z.add_product(&Expansion::of(0.1), 3.0).unwrap();
        assert_eq!(y, z);
        assert_eq!(y.compare(0.30000000000000004), Some(1));
        // Rounding down and up around a number that is not a double.
        let third = Expansion::of(1.0 / 3.0);
        let above = third.plus(&Expansion::of(1e-30)).unwrap();
        assert_eq!(above.round_down(), Some(1.0 / 3.0));
        assert_eq!(above.round_up(), Some((1.0f64 / 3.0).next_up()));
        assert_eq!(third.round_up(), Some(1.0 / 3.0));
        assert!(
            Expansion::default()
                .add_product(&Expansion::of(1e-300), 1e-10)
                .is_none()
        );
    }

    #[test]
    fn probabilities_are_exact_when_dyadic() {
        assert!(exact_probabilities(&[
            4.0 / 16.0,
            6.0 / 16.0,
            4.0 / 16.0,
            1.0 / 16.0,
            1.0 / 16.0
        ]));
        assert!(!exact_probabilities(&[1.0 / 3.0, 1.0 / 3.0, 1.0 / 3.0]));
    }
}
