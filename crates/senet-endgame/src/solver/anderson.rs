//! Anderson acceleration of a fixed-point iteration `x = G(x)`.
//!
//! Plain iteration takes `G(x)` as the next `x`. Anderson's method keeps the last few
//! iterates' images `g_i = G(x_i)` and residuals `f_i = g_i − x_i`, finds the combination of
//! the residuals' differences that best cancels the newest residual (least squares over a few
//! unknowns), and applies the same combination to the images. On a linear iteration this is
//! a Krylov method (it matches GMRES), so it removes whole clusters of slow modes at once,
//! where an extrapolation from the ratio of two changes removes one.
//!
//! The values here are game values: every step is clamped to `[0, 1]`, and a step whose
//! residual grew far past the smallest one seen forgets the history and starts again from a
//! plain step. Sums run in one fixed order, so the iterates do not depend on the thread count.

use std::collections::VecDeque;

use super::linear::{dot, solve_dense};

/// A residual this many times the smallest seen since the last restart restarts the method.
const GROWTH_LIMIT: f64 = 10.0;

/// The state of the acceleration: the differences of the last `depth` images and residuals.
pub(crate) struct Anderson {
    depth: usize,
    /// `g_i − g_{i−1}`, oldest first.
    image_steps: VecDeque<Vec<f64>>,
    /// `f_i − f_{i−1}`, oldest first.
    residual_steps: VecDeque<Vec<f64>>,
    /// The last image and residual, once there is one.
    last: Option<(Vec<f64>, Vec<f64>)>,
    smallest: f64,
    /// Buffers of retired differences, reused.
    spare: Vec<Vec<f64>>,
}

impl Anderson {
    /// No history yet, keeping at most `depth` differences.
    pub(crate) fn new(depth: usize) -> Anderson {
        Anderson {
            depth: depth.max(1),
            image_steps: VecDeque::new(),
            residual_steps: VecDeque::new(),
            last: None,
            smallest: f64::INFINITY,
            spare: Vec::new(),
        }
    }

    /// Forgets the history: the next step is a plain one.
    pub(crate) fn restart(&mut self) {
        self.spare.extend(self.image_steps.drain(..));
        self.spare.extend(self.residual_steps.drain(..));
        if let Some((image, residual)) = self.last.take() {
            self.spare.push(image);
            self.spare.push(residual);
        }
        self.smallest = f64::INFINITY;
    }

    fn buffer(&mut self, len: usize) -> Vec<f64> {
        let mut buffer = self.spare.pop().unwrap_or_default();
        buffer.resize(len, 0.0);
        buffer
    }

    /// Replaces the iterate `x` by the next one, given its image `image = G(x)` and the
    /// largest `|G(x) − x|` (`change`).
    pub(crate) fn step(&mut self, x: &mut [f64], image: &[f64], change: f64) {
        if change > GROWTH_LIMIT * self.smallest {
            self.restart();
        }
        self.smallest = self.smallest.min(change);
        let n = x.len();
        let mut residual = self.buffer(n);
        for ((r, &g), &v) in residual.iter_mut().zip(image).zip(x.iter()) {
            *r = g - v;
        }
        let mut last_image = self.buffer(n);
        last_image.copy_from_slice(image);
        if let Some((old_image, old_residual)) = self.last.take() {
            let (mut image_step, mut residual_step) = (old_image, old_residual);
            for (d, &g) in image_step.iter_mut().zip(image) {
                *d = g - *d;
            }
            for (d, &r) in residual_step.iter_mut().zip(&residual) {
                *d = r - *d;
            }
            if self.image_steps.len() == self.depth {
                self.spare.extend(self.image_steps.pop_front());
                self.spare.extend(self.residual_steps.pop_front());
            }
            self.image_steps.push_back(image_step);
            self.residual_steps.push_back(residual_step);
        }
        x.copy_from_slice(image);
        if let Some(weights) = self.weights(&residual) {
            for (weight, step) in weights.iter().zip(&self.image_steps) {
                for (v, &d) in x.iter_mut().zip(step) {
                    *v -= weight * d;
                }
            }
            for v in x.iter_mut() {
                *v = v.clamp(0.0, 1.0);
            }
        } else if !self.image_steps.is_empty() {
            // The differences are degenerate: start again from this plain step.
            self.spare.push(residual);
            self.spare.push(last_image);
            self.restart();
            return;
        }
        self.last = Some((last_image, residual));
    }

    /// The least-squares weights `γ` minimizing `|residual − Σ γ_i residual_steps_i|`, from
    /// the normal equations scaled to a unit diagonal.
    fn weights(&self, residual: &[f64]) -> Option<Vec<f64>> {
        let m = self.residual_steps.len();
        if m == 0 {
            return None;
        }
        let steps: Vec<&[f64]> = self.residual_steps.iter().map(Vec::as_slice).collect();
        let scale: Vec<f64> = steps.iter().map(|s| dot(s, s).sqrt()).collect();
        if scale.iter().any(|&s| s == 0.0 || !s.is_finite()) {
            return None;
        }
        let mut gram = vec![0.0; m * m];
        let mut right = vec![0.0; m];
        for i in 0..m {
            for j in 0..=i {
                let entry = dot(steps[i], steps[j]) / (scale[i] * scale[j]);
                gram[i * m + j] = entry;
                gram[j * m + i] = entry;
            }
            // A touch of regularization keeps nearly parallel differences solvable.
            gram[i * m + i] += 1e-10;
            right[i] = dot(steps[i], residual) / scale[i];
        }
        let scaled = solve_dense(&mut gram, &mut right, m)?;
        Some(scaled.iter().zip(&scale).map(|(w, s)| w / s).collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `x = A x + b` for a 3 × 3 `A` with eigenvalues 0.99, −0.99 and 0.5: plain iteration
    /// needs over 1,500 steps for 1e-9.
    fn image(x: &[f64]) -> Vec<f64> {
        vec![
            0.99 * x[1] + 0.005,
            0.99 * x[0] + 0.002,
            0.5 * x[2] + 0.25 * x[0] + 0.1,
        ]
    }

    #[test]
    fn a_slow_linear_iteration_converges_in_a_few_steps() {
        let exact = {
            // x0 = 0.99 x1 + 0.005, x1 = 0.99 x0 + 0.002.
            let x0 = (0.005 + 0.99 * 0.002) / (1.0 - 0.99 * 0.99);
            let x1 = 0.99 * x0 + 0.002;
            [x0, x1, (0.25 * x0 + 0.1) / 0.5]
        };
        let mut anderson = Anderson::new(4);
        let mut x = vec![0.0; 3];
        let mut steps = 0;
        loop {
            let g = image(&x);
            let change = g
                .iter()
                .zip(&x)
                .map(|(a, b)| (a - b).abs())
                .fold(0.0, f64::max);
            if change < 1e-12 {
                break;
            }
            anderson.step(&mut x, &g, change);
            steps += 1;
            assert!(steps < 20, "{steps} steps, change {change:e}");
        }
        for (v, e) in x.iter().zip(exact) {
            assert!((v - e).abs() < 1e-9, "{x:?} against {exact:?}");
        }
    }

    #[test]
    fn a_restart_forgets_the_history() {
        let mut anderson = Anderson::new(2);
        let mut x = vec![0.5; 3];
        for _ in 0..3 {
            let g = image(&x);
            anderson.step(&mut x, &g, 1.0);
        }
        assert_eq!(anderson.image_steps.len(), 2);
        anderson.restart();
        assert!(anderson.image_steps.is_empty() && anderson.last.is_none());
        let before = x.clone();
        let g = image(&x);
        anderson.step(&mut x, &g, 1.0);
        assert_eq!(x, image(&before), "a plain step after a restart");
    }
}
