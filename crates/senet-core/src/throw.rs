//! Throwing devices: the sticks and dice that drive the game, with exact probabilities.

use core::fmt;
use core::num::NonZeroU8;

use rand_core::Rng;

/// The value of a throw: how many squares it counts, never 0.
///
/// A pending throw is an `Option<Throw>`, one byte like the value itself, so that "no throw
/// yet" cannot be confused with a throw. Whether a device can show the value is the
/// ruleset's check ([`ThrowingDevice::can_show`]).
///
/// ```
/// use senet_core::Throw;
/// const FOUR: Throw = Throw::at(4);
/// assert_eq!(FOUR.get(), 4);
/// assert_eq!(Throw::new(0), None);
/// assert_eq!(core::mem::size_of::<Option<Throw>>(), 1);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(try_from = "u8", into = "u8")
)]
pub struct Throw(NonZeroU8);

impl Throw {
    /// The throw of `value` squares, or `None` for 0 (no throw).
    #[inline]
    pub const fn new(value: u8) -> Option<Throw> {
        match NonZeroU8::new(value) {
            Some(v) => Some(Throw(v)),
            None => None,
        }
    }

    /// The throw of `value` squares, for constants: 0 panics, which in a `const` is a compile
    /// error.
    pub const fn at(value: u8) -> Throw {
        match Throw::new(value) {
            Some(t) => t,
            None => panic!("a throw counts at least one square"),
        }
    }

    /// The number of squares the throw counts.
    #[inline]
    pub const fn get(self) -> u8 {
        self.0.get()
    }
}

impl From<Throw> for u8 {
    #[inline]
    fn from(t: Throw) -> u8 {
        t.get()
    }
}

/// Compares the number of squares: `throw == 1`.
impl PartialEq<u8> for Throw {
    #[inline]
    fn eq(&self, other: &u8) -> bool {
        self.get() == *other
    }
}

impl From<Throw> for u32 {
    #[inline]
    fn from(t: Throw) -> u32 {
        u32::from(t.get())
    }
}

impl From<Throw> for usize {
    #[inline]
    fn from(t: Throw) -> usize {
        usize::from(t.get())
    }
}

/// A value of 0, which no throw counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("a throw counts at least one square, not 0")]
pub struct ZeroThrow;

impl TryFrom<u8> for Throw {
    type Error = ZeroThrow;

    fn try_from(value: u8) -> Result<Throw, ZeroThrow> {
        Throw::new(value).ok_or(ZeroThrow)
    }
}

impl fmt::Display for Throw {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.get().fmt(f)
    }
}

/// One outcome of a throwing device: a value and its weight. The probability of the value is
/// `weight / denominator`, where the denominator is the sum of the device's weights.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ThrowOutcome {
    /// The throw.
    pub value: Throw,
    /// Its weight; weights of a device are integers over a common denominator.
    pub weight: u32,
}

const fn outcome(value: u8, weight: u32) -> ThrowOutcome {
    ThrowOutcome {
        value: Throw::at(value),
        weight,
    }
}

/// Four sticks, 0 marked sides counting 5 (Kendall, Piccione): weights over 16.
pub const STICKS_ZERO_IS_FIVE: [ThrowOutcome; 5] = [
    outcome(1, 4),
    outcome(2, 6),
    outcome(3, 4),
    outcome(4, 1),
    outcome(5, 1),
];

/// Four sticks, 0 marked sides counting 6 (Regency, Botermans, CEMEA, Jéquier): weights over 16.
pub const STICKS_ZERO_IS_SIX: [ThrowOutcome; 5] = [
    outcome(1, 4),
    outcome(2, 6),
    outcome(3, 4),
    outcome(4, 1),
    outcome(6, 1),
];

/// A four-sided die (Bell): 1–4, each 1/4.
pub const FOUR_SIDED_DIE: [ThrowOutcome; 4] =
    [outcome(1, 1), outcome(2, 1), outcome(3, 1), outcome(4, 1)];

/// An ordinary die (CEMEA's option): 1–6, each 1/6.
pub const SIX_SIDED_DIE: [ThrowOutcome; 6] = [
    outcome(1, 1),
    outcome(2, 1),
    outcome(3, 1),
    outcome(4, 1),
    outcome(5, 1),
    outcome(6, 1),
];

/// Something thrown to decide how far a piece moves.
///
/// The outcome table is data: a search engine weights its chance nodes with it, and
/// [`sample`](ThrowingDevice::sample) draws from it using any caller-supplied RNG (the library
/// never creates randomness of its own).
///
/// ```
/// use senet_core::{Sticks, Throw, ThrowingDevice};
/// let sticks = Sticks::ZERO_IS_SIX;
/// assert_eq!(sticks.denominator(), 16);
/// assert_eq!(sticks.probability(Throw::at(2)), Some((6, 16)));
/// assert_eq!(sticks.probability(Throw::at(5)), None);
/// ```
pub trait ThrowingDevice: Copy + fmt::Debug + Send + Sync + 'static {
    /// Every value the device can show, with integer weights.
    fn outcomes(&self) -> &'static [ThrowOutcome];

    /// Draws one throw. Implementations must follow the outcome table exactly.
    fn sample<R: Rng + ?Sized>(&self, rng: &mut R) -> Throw {
        let mut ticket = uniform_below(rng, self.denominator());
        for o in self.outcomes() {
            if ticket < o.weight {
                return o.value;
            }
            ticket -= o.weight;
        }
        // The tickets cover exactly the denominator, so this is never reached; fall back to
        // the last outcome rather than panic.
        self.outcomes().last().map_or(Throw::at(1), |o| o.value)
    }

    /// The sum of the weights.
    fn denominator(&self) -> u32 {
        self.outcomes().iter().map(|o| o.weight).sum()
    }

    /// Whether the device can show `value`.
    fn can_show(&self, value: Throw) -> bool {
        self.outcomes().iter().any(|o| o.value == value)
    }

    /// The probability of `value` as (weight, denominator), or `None` if it cannot come up.
    fn probability(&self, value: Throw) -> Option<(u32, u32)> {
        self.outcomes()
            .iter()
            .find(|o| o.value == value)
            .map(|o| (o.weight, self.denominator()))
    }

    /// The largest value the device can show.
    fn max_value(&self) -> Throw {
        self.outcomes()
            .iter()
            .map(|o| o.value)
            .max()
            .unwrap_or(Throw::at(1))
    }
}

/// Four two-sided throwing sticks; the throw counts the marked sides showing, and a throw
/// with no marked side counts 5 or 6 depending on the ruleset.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Sticks {
    zero_counts: Throw,
}

impl Sticks {
    /// No marked side counts 5 (values 1–5).
    pub const ZERO_IS_FIVE: Sticks = Sticks {
        zero_counts: Throw::at(5),
    };
    /// No marked side counts 6 (values 1, 2, 3, 4, 6).
    pub const ZERO_IS_SIX: Sticks = Sticks {
        zero_counts: Throw::at(6),
    };

    /// What a throw with no marked side counts.
    pub const fn zero_counts(self) -> Throw {
        self.zero_counts
    }

    /// The throw shown by four sticks whose marked sides are the low four bits of `bits`.
    #[inline]
    pub const fn value_of(self, bits: u32) -> Throw {
        match NonZeroU8::new((bits & 0xF).count_ones() as u8) {
            Some(marked) => Throw(marked),
            None => self.zero_counts,
        }
    }
}

impl ThrowingDevice for Sticks {
    fn outcomes(&self) -> &'static [ThrowOutcome] {
        if self.zero_counts.get() == 5 {
            &STICKS_ZERO_IS_FIVE
        } else {
            &STICKS_ZERO_IS_SIX
        }
    }

    /// Four fair sticks are four random bits: the exact 1/4/6/4/1 weights over 16.
    #[inline]
    fn sample<R: Rng + ?Sized>(&self, rng: &mut R) -> Throw {
        self.value_of(rng.next_u32() >> 28)
    }

    fn denominator(&self) -> u32 {
        16
    }
}

/// A four-sided die: 1–4, each with probability 1/4.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct FourSidedDie;

impl ThrowingDevice for FourSidedDie {
    fn outcomes(&self) -> &'static [ThrowOutcome] {
        &FOUR_SIDED_DIE
    }

    #[inline]
    fn sample<R: Rng + ?Sized>(&self, rng: &mut R) -> Throw {
        Throw(NonZeroU8::MIN.saturating_add((rng.next_u32() >> 30) as u8))
    }

    fn denominator(&self) -> u32 {
        4
    }
}

/// An ordinary six-sided die: 1–6, each with probability 1/6.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct SixSidedDie;

impl ThrowingDevice for SixSidedDie {
    fn outcomes(&self) -> &'static [ThrowOutcome] {
        &SIX_SIDED_DIE
    }

    #[inline]
    fn sample<R: Rng + ?Sized>(&self, rng: &mut R) -> Throw {
        Throw(NonZeroU8::MIN.saturating_add(uniform_below(rng, 6) as u8))
    }

    fn denominator(&self) -> u32 {
        6
    }
}

/// Any of the standard devices, for rulesets whose options choose the device at run time.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum StandardDevice {
    /// Throwing sticks.
    Sticks(Sticks),
    /// A four-sided die.
    FourSidedDie,
    /// A six-sided die.
    SixSidedDie,
}

impl ThrowingDevice for StandardDevice {
    fn outcomes(&self) -> &'static [ThrowOutcome] {
        match self {
            StandardDevice::Sticks(s) => s.outcomes(),
            StandardDevice::FourSidedDie => FourSidedDie.outcomes(),
            StandardDevice::SixSidedDie => SixSidedDie.outcomes(),
        }
    }

    #[inline]
    fn sample<R: Rng + ?Sized>(&self, rng: &mut R) -> Throw {
        match self {
            StandardDevice::Sticks(s) => s.sample(rng),
            StandardDevice::FourSidedDie => FourSidedDie.sample(rng),
            StandardDevice::SixSidedDie => SixSidedDie.sample(rng),
        }
    }

    fn denominator(&self) -> u32 {
        match self {
            StandardDevice::Sticks(_) => 16,
            StandardDevice::FourSidedDie => 4,
            StandardDevice::SixSidedDie => 6,
        }
    }
}

/// A uniformly distributed integer in `0..n` (0 when `n` is 0), drawn without bias from
/// `rng` (Lemire's multiply-and-reject method).
#[inline]
pub fn uniform_below<R: Rng + ?Sized>(rng: &mut R, n: u32) -> u32 {
    if n == 0 {
        return 0;
    }
    uniform_below_from(rng.next_u32(), rng, n)
}

/// [`uniform_below`] for `n` ≥ 1 whose first word, `first`, was already drawn from `rng`:
/// for a caller that needs that word too (a lock-step lane that throws reads it with `n` 1,
/// which never draws another).
#[inline]
pub(crate) fn uniform_below_from<R: Rng + ?Sized>(first: u32, rng: &mut R, n: u32) -> u32 {
    let mut product = u64::from(first) * u64::from(n);
    let mut low = product as u32;
    if low < n {
        let threshold = n.wrapping_neg() % n;
        while low < threshold {
            product = u64::from(rng.next_u32()) * u64::from(n);
            low = product as u32;
        }
    }
    (product >> 32) as u32
}

#[cfg(test)]
mod tests {
    use super::*;
    use core::convert::Infallible;
    use rand_chacha::ChaCha8Rng;
    use rand_core::{SeedableRng, TryRng};

    /// An RNG that returns a fixed script of words, for exact enumeration.
    struct Script(Vec<u32>, usize);

    impl TryRng for Script {
        type Error = Infallible;
        fn try_next_u32(&mut self) -> Result<u32, Infallible> {
            let v = self.0[self.1 % self.0.len()];
            self.1 += 1;
            Ok(v)
        }
        fn try_next_u64(&mut self) -> Result<u64, Infallible> {
            Ok(u64::from(self.try_next_u32()?))
        }
        fn try_fill_bytes(&mut self, dst: &mut [u8]) -> Result<(), Infallible> {
            dst.fill(0);
            Ok(())
        }
    }

    fn all_tables() -> Vec<&'static [ThrowOutcome]> {
        vec![
            &STICKS_ZERO_IS_FIVE,
            &STICKS_ZERO_IS_SIX,
            &FOUR_SIDED_DIE,
            &SIX_SIDED_DIE,
        ]
    }

    #[test]
    fn tables_sum_to_their_denominators() {
        assert_eq!(
            Sticks::ZERO_IS_FIVE
                .outcomes()
                .iter()
                .map(|o| o.weight)
                .sum::<u32>(),
            16
        );
        assert_eq!(
            Sticks::ZERO_IS_SIX
                .outcomes()
                .iter()
                .map(|o| o.weight)
                .sum::<u32>(),
            16
        );
        assert_eq!(FOUR_SIDED_DIE.iter().map(|o| o.weight).sum::<u32>(), 4);
        assert_eq!(SIX_SIDED_DIE.iter().map(|o| o.weight).sum::<u32>(), 6);
        for table in all_tables() {
            let mut values: Vec<Throw> = table.iter().map(|o| o.value).collect();
            values.dedup();
            assert_eq!(values.len(), table.len(), "values are distinct");
        }
    }

    #[test]
    fn sticks_follow_the_binomial_weights_exactly() {
        // Enumerate all 16 patterns of four sticks: each pattern is equally likely.
        for sticks in [Sticks::ZERO_IS_FIVE, Sticks::ZERO_IS_SIX] {
            let mut counts = [0u32; 7];
            for pattern in 0u32..16 {
                let mut rng = Script(vec![pattern << 28], 0);
                counts[usize::from(sticks.sample(&mut rng))] += 1;
            }
            for o in sticks.outcomes() {
                assert_eq!(counts[usize::from(o.value)], o.weight, "value {}", o.value);
            }
            assert_eq!(counts.iter().sum::<u32>(), 16);
        }
    }

    #[test]
    fn four_sided_die_is_exactly_uniform() {
        let mut counts = [0u32; 5];
        for top in 0u32..4 {
            let mut rng = Script(vec![top << 30], 0);
            counts[usize::from(FourSidedDie.sample(&mut rng))] += 1;
        }
        assert_eq!(counts, [0, 1, 1, 1, 1]);
    }

    #[test]
    fn sampling_matches_the_tables_statistically() {
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        let devices = [
            StandardDevice::Sticks(Sticks::ZERO_IS_FIVE),
            StandardDevice::Sticks(Sticks::ZERO_IS_SIX),
            StandardDevice::FourSidedDie,
            StandardDevice::SixSidedDie,
        ];
        let n = 160_000u32;
        for device in devices {
            let mut counts = [0u32; 7];
            for _ in 0..n {
                counts[usize::from(device.sample(&mut rng))] += 1;
            }
            for o in device.outcomes() {
                let expected = f64::from(n) * f64::from(o.weight) / f64::from(device.denominator());
                let sd = (expected * (1.0 - expected / f64::from(n))).sqrt();
                let got = f64::from(counts[usize::from(o.value)]);
                assert!(
                    (got - expected).abs() < 5.0 * sd,
                    "{device:?} value {}: {got} vs {expected}",
                    o.value
                );
            }
            let shown: u32 = device
                .outcomes()
                .iter()
                .map(|o| counts[usize::from(o.value)])
                .sum();
            assert_eq!(shown, n, "{device:?} showed a value outside its table");
        }
    }

    #[test]
    fn table_sampler_covers_every_ticket() {
        // The provided table sampler maps tickets 0..denominator onto the weights exactly.
        #[derive(Clone, Copy, Debug)]
        struct Loaded;
        static LOADED: [ThrowOutcome; 2] = [outcome(1, 3), outcome(2, 1)];
        impl ThrowingDevice for Loaded {
            fn outcomes(&self) -> &'static [ThrowOutcome] {
                &LOADED
            }
        }
        let mut counts = [0u32; 3];
        // uniform_below(rng, 4) maps the word w to (w * 4) >> 32, i.e. its top two bits.
        for top in 0u32..4 {
            let mut rng = Script(vec![top << 30], 0);
            counts[usize::from(Loaded.sample(&mut rng))] += 1;
        }
        assert_eq!(counts, [0, 3, 1]);
        assert_eq!(Loaded.probability(Throw::at(1)), Some((3, 4)));
        assert_eq!(Loaded.max_value(), 2);
    }

    #[test]
    fn uniform_below_handles_edges() {
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        assert_eq!(uniform_below(&mut rng, 0), 0);
        assert_eq!(uniform_below(&mut rng, 1), 0);
        for _ in 0..1000 {
            assert!(uniform_below(&mut rng, 7) < 7);
        }
        let mut rng = Script(vec![u32::MAX], 0);
        assert_eq!(uniform_below(&mut rng, 3), 2);
    }
}
