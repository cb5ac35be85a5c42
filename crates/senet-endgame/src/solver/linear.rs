//! Linear equations under frozen decisions, and their solvers.

/// The linear equations `x_i = constant_i + Σ_j coefficient_ij · x_j` of a set of states
/// under frozen decisions, one row per state.
#[derive(Default)]
pub(super) struct Rows {
    /// Where each row's terms start in `column`/`coefficient` (one more than the rows).
    pub(super) start: Vec<usize>,
    pub(super) column: Vec<u32>,
    pub(super) coefficient: Vec<f64>,
    pub(super) constant: Vec<f64>,
}

/// The most iterations of [`solve_sparse`].
const KRYLOV_MOST: usize = 2000;
/// [`solve_sparse`] stops when the residual's 2-norm is this small against the right-hand
/// side's.
const KRYLOV_PRECISION: f64 = 1e-14;

/// `y = (I − A) · x` for the rows `a` (their constants unused).
fn multiply(a: &Rows, x: &[f64], y: &mut [f64]) {
    for (k, out) in y.iter_mut().enumerate() {
        let mut v = x[k];
        for t in a.start[k]..a.start[k + 1] {
            v -= a.coefficient[t] * x[a.column[t] as usize];
        }
        *out = v;
    }
}

/// What [`solve_sparse`] found.
pub(super) struct Krylov {
    /// The solution, or `None` when it ended no better than the guess.
    pub(super) x: Option<Vec<f64>>,
    pub(super) iterations: usize,
    /// The residual's 2-norm relative to the right-hand side's.
    pub(super) residual: f64,
}

/// Solves `(I − A) · x = b` for the rows `a` by BiCGSTAB (van der Vorst's stabilised
/// biconjugate gradients) from the guess `x`.
pub(super) fn solve_sparse(a: &Rows, b: &[f64], mut x: Vec<f64>) -> Krylov {
    let n = b.len();
    let norm = |v: &[f64]| dot(v, v).sqrt();
    let mut r = vec![0.0; n];
    multiply(a, &x, &mut r);
    for (r, &b) in r.iter_mut().zip(b) {
        *r = b - *r;
    }
    let first = norm(&r);
    let scale = norm(b).max(f64::MIN_POSITIVE);
    let goal = KRYLOV_PRECISION * scale;
    if first <= goal {
        return Krylov {
            x: Some(x),
            iterations: 0,
            residual: first / scale,
        };
    }
    let shadow = r.clone();
    let (mut rho, mut alpha, mut omega) = (1.0, 1.0, 1.0);
    let mut v = vec![0.0; n];
    let mut p = vec![0.0; n];
    let mut s = vec![0.0; n];
    let mut t = vec![0.0; n];
    let mut best = (first, x.clone());
    let mut iterations = 0;
    for _ in 0..KRYLOV_MOST {
        iterations += 1;
        let rho_next = dot(&shadow, &r);
        if rho_next == 0.0 || omega == 0.0 {
            break;
        }
        let beta = (rho_next / rho) * (alpha / omega);
        for k in 0..n {
            p[k] = r[k] + beta * (p[k] - omega * v[k]);
        }
        multiply(a, &p, &mut v);
        let along = dot(&shadow, &v);
        if along == 0.0 {
            break;
        }
        alpha = rho_next / along;
        for k in 0..n {
            s[k] = r[k] - alpha * v[k];
        }
        multiply(a, &s, &mut t);
        let tt = dot(&t, &t);
        omega = if tt > 0.0 { dot(&t, &s) / tt } else { 0.0 };
        for k in 0..n {
            x[k] += alpha * p[k] + omega * s[k];
            r[k] = s[k] - omega * t[k];
        }
        rho = rho_next;
        let size = norm(&r);
        if !size.is_finite() {
            break;
        }
        if size < best.0 {
            best = (size, x.clone());
        }
        if size <= goal {
            break;
        }
    }
    let (size, x) = best;
    Krylov {
        x: (size < first && x.iter().all(|v| v.is_finite())).then_some(x),
        iterations,
        residual: size / scale,
    }
}

pub(super) fn dot(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

/// Solves the `n × n` system `a · x = b` by Gaussian elimination with partial pivoting;
/// `None` if it is singular to working precision.
pub(super) fn solve_dense(a: &mut [f64], b: &mut [f64], n: usize) -> Option<Vec<f64>> {
    for col in 0..n {
        let pivot = (col..n)
            .max_by(|&i, &j| a[i * n + col].abs().total_cmp(&a[j * n + col].abs()))
            .expect("col < n");
        if a[pivot * n + col].abs() < 1e-13 {
            return None;
        }
        if pivot != col {
            for k in 0..n {
                a.swap(pivot * n + k, col * n + k);
            }
            b.swap(pivot, col);
        }
        let diagonal = a[col * n + col];
        for row in col + 1..n {
            let factor = a[row * n + col] / diagonal;
            if factor != 0.0 {
                for k in col..n {
                    a[row * n + k] -= factor * a[col * n + k];
                }
                b[row] -= factor * b[col];
            }
        }
    }
    let mut x = vec![0.0; n];
    for row in (0..n).rev() {
        let mut v = b[row];
        for k in row + 1..n {
            v -= a[row * n + k] * x[k];
        }
        x[row] = v / a[row * n + row];
    }
    x.iter().all(|v| v.is_finite()).then_some(x)
}
#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dense_elimination_solves_and_refuses_singular_systems() {
        let mut a = [0.0, 2.0, 1.0, 1.0];
        let mut b = [4.0, 3.0];
        assert_eq!(solve_dense(&mut a, &mut b, 2), Some(vec![1.0, 2.0]));
        let mut a = [1.0, 1.0, 1.0, 1.0];
        assert_eq!(solve_dense(&mut a, &mut [1.0, 2.0], 2), None);
    }
}
