//! A network of one hidden layer that estimates a side's chance to win.

use rand_core::Rng;

use super::encoding::{Input, MAX_INPUTS};

/// The most hidden units a network may have: its evaluation keeps them on the stack.
pub const MAX_HIDDEN: usize = 256;

/// Partial sums of the output: eight `f32` fill one AVX register or two SSE ones.
const CHUNK: usize = 8;

/// `e^x` by `f32` arithmetic alone, for the network's activations: no library call, so loops
/// over hidden units vectorise, and the same bits on every platform (the library's `exp`
/// may differ between them). Arguments are clamped to ±87, where `e^x` nears the limits of
/// `f32`. Within a few units in the last place of the exact value.
#[inline(always)]
fn exp(x: f32) -> f32 {
    // Adding 1.5 · 2^23 rounds to an integer held in the low bits of the sum.
    const SHIFT: f32 = 12_582_912.0;
    // ln 2 in two parts: the first has few enough bits that n times it is exact.
    const LN2_HIGH: f32 = 355.0 / 512.0;
    const LN2_LOW: f32 = -2.121_944_4e-4;
    let x = x.clamp(-87.0, 87.0);
    let shifted = x * std::f32::consts::LOG2_E + SHIFT;
    let n = shifted - SHIFT;
    let r = (x - n * LN2_HIGH) - n * LN2_LOW;
    // Taylor's series to degree 7: for |r| ≤ ln 2 / 2 the rest is under 1e-8 of the value.
    let series = 1.0
        + r * (1.0
            + r * (1.0 / 2.0
                + r * (1.0 / 6.0
                    + r * (1.0 / 24.0
                        + r * (1.0 / 120.0 + r * (1.0 / 720.0 + r * (1.0 / 5040.0)))))));
    // 2^n built from its exponent bits; n lies in −126..=126 after the clamp.
    let exponent = shifted
        .to_bits()
        .wrapping_sub(SHIFT.to_bits())
        .wrapping_add(127)
        << 23;
    series * f32::from_bits(exponent)
}

#[inline(always)]
fn sigmoid(z: f32) -> f32 {
    1.0 / (1.0 + exp(-z))
}

/// One hidden layer of sigmoid units and a sigmoid output: the estimated probability that
/// the side a position is encoded for ([`Input::encode`]) wins. The shape of TD-Gammon's
/// networks; small enough that one evaluation costs well under a microsecond.
///
/// The first layer is stored input by input (the weights from one input to every hidden unit
/// side by side), so that a sparse input adds whole columns.
#[derive(Clone, Debug, PartialEq)]
pub struct ValueNet {
    inputs: usize,
    hidden: usize,
    /// `inputs × hidden`, input-major.
    pub(crate) w1: Vec<f32>,
    pub(crate) b1: Vec<f32>,
    pub(crate) w2: Vec<f32>,
    pub(crate) b2: f32,
}

/// Why a network cannot be built with a shape.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ShapeError {
    /// Zero inputs or hidden units, or more than the caps.
    #[error(
        "a network takes 1 to {MAX_INPUTS} inputs and 1 to {MAX_HIDDEN} hidden units, not {inputs} and {hidden}"
    )]
    OutOfRange {
        /// The inputs asked for.
        inputs: usize,
        /// The hidden units asked for.
        hidden: usize,
    },
    /// A tensor does not have the length the shape needs.
    #[error("tensor `{name}` has {found} values where the shape needs {expected}")]
    Length {
        /// The tensor's name.
        name: &'static str,
        /// Values needed.
        expected: usize,
        /// Values found.
        found: usize,
    },
    /// A weight is not finite.
    #[error("tensor `{0}` holds a weight that is not a finite number")]
    NotFinite(&'static str),
}

fn check_shape(inputs: usize, hidden: usize) -> Result<(), ShapeError> {
    if (1..=MAX_INPUTS).contains(&inputs) && (1..=MAX_HIDDEN).contains(&hidden) {
        Ok(())
    } else {
        Err(ShapeError::OutOfRange { inputs, hidden })
    }
}

impl ValueNet {
    /// A network with small random weights (uniform in ±0.1) drawn from `rng`, for training.
    pub fn random(inputs: usize, hidden: usize, rng: &mut impl Rng) -> Result<Self, ShapeError> {
        check_shape(inputs, hidden)?;
        let mut small = || (rng.next_u32() as f32 / u32::MAX as f32 - 0.5) * 0.2;
        Ok(ValueNet {
            inputs,
            hidden,
            w1: (0..inputs * hidden).map(|_| small()).collect(),
            b1: (0..hidden).map(|_| small()).collect(),
            w2: (0..hidden).map(|_| small()).collect(),
            b2: 0.0,
        })
    }

    /// A network from its weights: `w1` input by input (`inputs × hidden`), the hidden
    /// biases, the output weights and the output bias. Fails on a shape out of range, a
    /// length that does not fit it, or a weight that is not finite.
    pub fn from_weights(
        inputs: usize,
        hidden: usize,
        w1: Vec<f32>,
        b1: Vec<f32>,
        w2: Vec<f32>,
        b2: f32,
    ) -> Result<Self, ShapeError> {
        check_shape(inputs, hidden)?;
        for (name, tensor, expected) in [
            ("w1", &w1, inputs * hidden),
            ("b1", &b1, hidden),
            ("w2", &w2, hidden),
        ] {
            if tensor.len() != expected {
                return Err(ShapeError::Length {
                    name,
                    expected,
                    found: tensor.len(),
                });
            }
            if !tensor.iter().all(|w| w.is_finite()) {
                return Err(ShapeError::NotFinite(name));
            }
        }
        if !b2.is_finite() {
            return Err(ShapeError::NotFinite("b2"));
        }
        Ok(ValueNet {
            inputs,
            hidden,
            w1,
            b1,
            w2,
            b2,
        })
    }

    /// The number of inputs.
    pub fn inputs(&self) -> usize {
        self.inputs
    }

    /// The number of hidden units.
    pub fn hidden(&self) -> usize {
        self.hidden
    }

    /// The weights: first layer (input-major), hidden biases, output weights, output bias.
    pub fn weights(&self) -> (&[f32], &[f32], &[f32], f32) {
        (&self.w1, &self.b1, &self.w2, self.b2)
    }

    /// The hidden activations of `input` into `hidden[..self.hidden]`, and the output. The
    /// output sums the hidden units in [`CHUNK`] partial sums, so that every loop here
    /// vectorises.
    #[inline]
    fn forward(&self, input: &Input, hidden: &mut [f32; MAX_HIDDEN]) -> f32 {
        let h = &mut hidden[..self.hidden];
        h.copy_from_slice(&self.b1);
        for (i, x) in input.active() {
            // An input past the network's (another ruleset's encoding) adds nothing.
            let Some(column) = self.w1.get(i * self.hidden..(i + 1) * self.hidden) else {
                continue;
            };
            for (a, w) in h.iter_mut().zip(column) {
                *a += w * x;
            }
        }
        for a in h.iter_mut() {
            *a = sigmoid(*a);
        }
        let mut partial = [0.0f32; CHUNK];
        let mut units = h.chunks_exact(CHUNK);
        let mut weights = self.w2.chunks_exact(CHUNK);
        for (units, weights) in (&mut units).zip(&mut weights) {
            for k in 0..CHUNK {
                partial[k] += weights[k] * units[k];
            }
        }
        let rest = units.remainder().iter().zip(weights.remainder());
        for (part, (unit, weight)) in partial.iter_mut().zip(rest) {
            *part += weight * unit;
        }
        sigmoid(partial.iter().fold(self.b2, |z, part| z + part))
    }

    /// The estimated chance that the side `input` was encoded for wins. Does not allocate.
    #[inline]
    pub fn value(&self, input: &Input) -> f32 {
        self.forward(input, &mut [0.0; MAX_HIDDEN])
    }

    /// One step of gradient descent on the squared error of `input`'s value against
    /// `target`: every weight moves by `alpha · (target − value) · ∂value/∂weight`. Only the
    /// columns of the active inputs change in the first layer. Returns the value before the
    /// step.
    pub(crate) fn learn(&mut self, input: &Input, target: f32, alpha: f32) -> f32 {
        let mut hidden = [0.0; MAX_HIDDEN];
        let y = self.forward(input, &mut hidden);
        let out = alpha * (target - y) * y * (1.0 - y);
        // The hidden units' share, with the output weights as they were.
        let mut back = [0.0f32; MAX_HIDDEN];
        for j in 0..self.hidden {
            let h = hidden[j];
            back[j] = out * self.w2[j] * h * (1.0 - h);
            self.w2[j] += out * h;
            self.b1[j] += back[j];
        }
        self.b2 += out;
        let back = &back[..self.hidden];
        for (i, x) in input.active() {
            let Some(column) = self.w1.get_mut(i * self.hidden..(i + 1) * self.hidden) else {
                continue;
            };
            for (w, g) in column.iter_mut().zip(back) {
                *w += g * x;
            }
        }
        y
    }

    /// Adds `other − base` to the weights: the change another copy made since `base`.
    pub(crate) fn add_change(&mut self, other: &ValueNet, base: &ValueNet) {
        self.b2 += other.b2 - base.b2;
        let own = self.w1.iter_mut().chain(&mut self.b1).chain(&mut self.w2);
        let theirs = other.w1.iter().chain(&other.b1).chain(&other.w2);
        let before = base.w1.iter().chain(&base.b1).chain(&base.w2);
        for ((w, o), b) in own.zip(theirs).zip(before) {
            *w += o - b;
        }
    }

    /// Whether every weight is finite (training with too large a step can overflow).
    pub(crate) fn is_finite(&self) -> bool {
        self.b2.is_finite()
            && self
                .w1
                .iter()
                .chain(&self.b1)
                .chain(&self.w2)
                .all(|w| w.is_finite())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A fixed input with three active entries.
    fn sample_input() -> Input {
        let mut input = Input::default();
        #[cfg(feature = "regency")]
        {
            let rules = senet_regency::Regency::default();
            use senet_core::{Ruleset, Side};
            input.encode(&rules, &rules.initial_state(), Side::Black);
        }
        input
    }

    fn rng() -> rand_chacha::ChaCha8Rng {
        rand_core::SeedableRng::seed_from_u64(3)
    }

    #[test]
    fn a_step_moves_the_value_toward_its_target_by_the_gradient() {
        let mut net = ValueNet::random(80, 12, &mut rng()).unwrap();
        let input = sample_input();
        // The derivative of the value by the output bias is y(1 − y): a step of `alpha` on
        // a target one above the value moves the bias by alpha · y(1 − y), and the value by
        // about that times y(1 − y) again, plus the other weights' share.
        let before = net.value(&input);
        let (b2, w2) = (net.b2, net.w2[3]);
        let returned = net.learn(&input, before + 1.0, 0.01);
        assert_eq!(returned, before);
        let dy = before * (1.0 - before);
        assert!((net.b2 - b2 - 0.01 * dy).abs() < 1e-7);
        assert!(net.w2[3] > w2);
        let after = net.value(&input);
        assert!(after > before);
        // A target equal to the value changes nothing.
        let copy = net.clone();
        net.learn(&input, after, 0.5);
        assert_eq!(net, copy);
        // Finite difference: the value's derivative by one first-layer weight of an active
        // input, against the change a tiny step made to that weight.
        if let Some((i, x)) = input.active().next() {
            let index = i * 12 + 5;
            let eps = 1e-2;
            let mut probe = net.clone();
            probe.w1[index] += eps;
            let up = probe.value(&input);
            probe.w1[index] -= 2.0 * eps;
            let numeric = (up - probe.value(&input)) / (2.0 * eps);
            let w = net.w1[index];
            let y = net.value(&input);
            net.learn(&input, y + 1.0, 1e-3);
            // The step moved the weight by alpha · (target − value) · ∂value/∂weight.
            let analytic = (net.w1[index] - w) / 1e-3;
            assert!(x > 0.0);
            assert!((numeric - analytic).abs() < 1e-3, "{numeric} vs {analytic}");
        }
    }

    #[test]
    fn the_activation_is_within_a_few_units_in_the_last_place() {
        // Every 1/64 from −100 to 100: the clamped ends, every rounding of n, both signs.
        for step in -6400..=6400 {
            let x = step as f32 / 64.0;
            let exact = f64::from(x).clamp(-87.0, 87.0).exp();
            let error = ((f64::from(exp(x)) - exact) / exact).abs();
            assert!(error < 4.0 * f64::from(f32::EPSILON), "exp({x}): {error}");
            let exact = 1.0 / (1.0 + (-f64::from(x)).exp());
            let error = (f64::from(sigmoid(x)) - exact).abs();
            assert!(
                error < 2e-7 * exact.max(1e-30) + 1e-37,
                "sigmoid({x}): {error}"
            );
        }
    }

    #[test]
    fn every_width_of_hidden_layer_evaluates_the_same_sum() {
        // Widths below, at and between whole chunks, against a plain sum in f64.
        let input = sample_input();
        for hidden in [1, 7, 8, 9, 16, 21, 80] {
            let net = ValueNet::random(80, hidden, &mut rng()).unwrap();
            let mut z = f64::from(net.b2);
            for j in 0..hidden {
                let mut a = f64::from(net.b1[j]);
                for (i, x) in input.active() {
                    a += f64::from(net.w1[i * hidden + j]) * f64::from(x);
                }
                z += f64::from(net.w2[j]) / (1.0 + (-a).exp());
            }
            let exact = 1.0 / (1.0 + (-z).exp());
            let value = f64::from(net.value(&input));
            assert!(
                (value - exact).abs() < 1e-6,
                "{hidden} units: {value} vs {exact}"
            );
        }
    }

    #[test]
    fn shapes_out_of_range_and_bad_weights_are_refused() {
        assert!(matches!(
            ValueNet::random(0, 10, &mut rng()),
            Err(ShapeError::OutOfRange { .. })
        ));
        assert!(ValueNet::random(10, MAX_HIDDEN + 1, &mut rng()).is_err());
        let short = ValueNet::from_weights(2, 2, vec![0.0; 3], vec![0.0; 2], vec![0.0; 2], 0.0);
        assert_eq!(
            short,
            Err(ShapeError::Length {
                name: "w1",
                expected: 4,
                found: 3
            })
        );
        let nan = ValueNet::from_weights(1, 1, vec![f32::NAN], vec![0.0], vec![0.0], 0.0);
        assert_eq!(nan, Err(ShapeError::NotFinite("w1")));
    }
}
