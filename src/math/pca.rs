//! Principal component analysis (Pearson 1901; Hotelling 1933), small and dependency-free, to
//! draw high-dimensional position vectors (a sinusoidal table's rows, a rotated query at every
//! position) in two or three dimensions.
//!
//! For `n` rows `x_r` of width `d` with mean `μ`, the covariance is
//!
//! ```text
//! C = Σ_r (x_r − μ)(x_r − μ)ᵀ / (n − 1)
//! ```
//!
//! (the divisor of scikit-learn's `PCA.explained_variance_`; 0 variance when `n = 1`). Its
//! eigenvectors, by decreasing eigenvalue, are the principal components and the eigenvalues the
//! variances of the data along them. They are found one at a time by power iteration
//! (`v ← C v / ‖C v‖`, Golub & Van Loan, *Matrix Computations*, §7.3.1) with deflation: each new
//! component is iterated on `C` restricted to the complement of the ones already found
//! (`P C P`, `P = I − Σ_j v_j v_jᵀ`).
//!
//! `C` is formed (`d × d`) when that is cheaper (many rows, few columns); otherwise `C v` is
//! applied as `Xᵀ(X v)/(n − 1)` through the centred rows, never formed. The data are divided by their largest magnitude first (and the
//! mean and variances scaled back), so no sum or square overflows.

/// Most power-iteration steps per component (reached only when two variances nearly tie; the
/// direction found then lies in their common plane, and its variance is right).
const MAX_ITERATIONS: usize = 1000;

/// Principal components of the rows of a matrix (see [`pca`]).
#[derive(Clone, Debug, PartialEq)]
pub struct Pca {
    /// The mean row `μ` (width `d`).
    pub mean: Vec<f64>,
    /// `k` orthonormal directions (width `d` each), by decreasing variance; each one's
    /// largest-magnitude coordinate is positive (the first such, on a tie).
    pub components: Vec<Vec<f64>>,
    /// The variance of the rows along each component, `vᵀ C v` (≥ 0, descending).
    pub variances: Vec<f64>,
}

impl Pca {
    /// Coordinates of `row` in the components: `((row − μ)·v_1, …, (row − μ)·v_k)`. Non-finite
    /// entries are read as 0, as [`pca`] reads them.
    pub fn project(&self, row: &[f64]) -> Vec<f64> {
        let centred: Vec<f64> = row
            .iter()
            .zip(&self.mean)
            .map(|(&x, m)| finite(x) - m)
            .collect();
        self.components.iter().map(|c| dot(&centred, c)).collect()
    }
}

fn finite(x: f64) -> f64 {
    if x.is_finite() { x } else { 0.0 }
}

fn dot(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

fn norm(a: &[f64]) -> f64 {
    dot(a, a).sqrt()
}

/// `v ← v − Σ_j (v·c_j) c_j`, twice (classical Gram–Schmidt repeated is as accurate as the
/// modified one).
fn project_out(v: &mut [f64], basis: &[Vec<f64>]) {
    for _ in 0..2 {
        for c in basis {
            let along = dot(v, c);
            for (x, y) in v.iter_mut().zip(c) {
                *x -= along * y;
            }
        }
    }
}

/// The covariance `C` (of the scaled, centred rows), as a product `v ↦ C v`.
enum Covariance {
    /// `C` itself, `d × d` row-major.
    Formed(Vec<f64>),
    /// The centred rows `X` (`n × d`) and the divisor: `C v = Xᵀ(X v)/divisor`.
    Rows(Vec<f64>, f64),
}

impl Covariance {
    /// Forms `C` when that is cheaper for `k` components: forming costs `n·d²/2` and then `d²`
    /// a step, the rows `2·n·d` a step; a component takes some 50 steps (measured on sinusoidal
    /// tables and RoPE sweeps, d = 16..1024).
    fn new(centred: Vec<f64>, n: usize, d: usize, k: usize) -> Covariance {
        let divisor = n.saturating_sub(1).max(1) as f64;
        let (nf, df, steps) = (n as f64, d as f64, 50.0 * k as f64);
        if nf * df * df / 2.0 + steps * df * df > steps * 2.0 * nf * df {
            return Covariance::Rows(centred, divisor);
        }
        let mut c = vec![0.0; d * d];
        for row in centred.chunks_exact(d) {
            for (a, &xa) in row.iter().enumerate() {
                for (cell, &xb) in c[a * d + a..(a + 1) * d].iter_mut().zip(&row[a..]) {
                    *cell += xa * xb;
                }
            }
        }
        for a in 0..d {
            for b in a..d {
                let v = c[a * d + b] / divisor;
                c[a * d + b] = v;
                c[b * d + a] = v;
            }
        }
        Covariance::Formed(c)
    }

    fn times(&self, v: &[f64]) -> Vec<f64> {
        let d = v.len();
        match self {
            Covariance::Formed(c) => c.chunks_exact(d).map(|row| dot(row, v)).collect(),
            Covariance::Rows(x, divisor) => {
                let mut out = vec![0.0; d];
                for row in x.chunks_exact(d) {
                    let s = dot(row, v) / divisor;
                    for (o, r) in out.iter_mut().zip(row) {
                        *o += s * r;
                    }
                }
                out
            }
        }
    }
}

/// A unit vector orthogonal to `basis` (`basis.len() < d`) to start component `j` from: a fixed
/// irregular vector (so it is not orthogonal to any particular component by design), or, when
/// little of it is left outside `basis`, the unit axis with most left.
fn start(d: usize, j: usize, basis: &[Vec<f64>]) -> Vec<f64> {
    let mut v: Vec<f64> = (0..d)
        .map(|i| 0.5 + ((i + 1) as f64 * 0.618_033_988_749_895 + j as f64 * 0.414_213_562).fract())
        .collect();
    let before = norm(&v);
    project_out(&mut v, basis);
    if norm(&v) < 0.1 * before {
        v = (0..d)
            .map(|axis| {
                let mut e = vec![0.0; d];
                e[axis] = 1.0;
                project_out(&mut e, basis);
                e
            })
            .max_by(|a, b| norm(a).total_cmp(&norm(b)))
            .unwrap_or_default();
    }
    let len = norm(&v);
    v.iter_mut().for_each(|x| *x /= len);
    v
}

/// Principal components of the rows of a row-major `n × d` matrix (see the module docs for the
/// formula and method): the mean row, `min(k, d)` unit components ordered by decreasing
/// variance, and those variances. Signs are fixed so that each component's largest-magnitude
/// coordinate is positive, so pictures do not flip between redraws.
///
/// Never panics and never returns NaN: with `n ≤ 1`, all rows equal, or fewer than `k`
/// directions of spread, the missing components are other unit vectors orthogonal to the rest
/// (unit axes when there is no spread at all) with variance 0; rows missing from `data` (when
/// `data.len() < n·d`) are not used, and non-finite entries are read as 0. Cost: `O(n·d)` per
/// power-iteration step (or `O(d²)` after forming `C` in `O(n·d²)`), some 50 steps per
/// component (at most 1000); 3 components of a 1024 × 1024 table take about 0.1 s natively.
pub fn pca(data: &[f64], n: usize, d: usize, k: usize) -> Pca {
    let k = k.min(d);
    if d == 0 {
        return Pca {
            mean: Vec::new(),
            components: Vec::new(),
            variances: Vec::new(),
        };
    }
    let n = n.min(data.len() / d);
    let rows = || data.chunks_exact(d).take(n);
    // Everything is computed on the rows scaled to |x| ≤ 1, so no sum or square overflows; the
    // mean and the variances are scaled back at the end.
    let scale = rows()
        .flatten()
        .fold(0.0f64, |a, &x| a.max(finite(x).abs()));
    let scaled = |x: f64| if scale > 0.0 { finite(x) / scale } else { 0.0 };
    let mut mean = vec![0.0; d];
    for row in rows() {
        for (m, &x) in mean.iter_mut().zip(row) {
            *m += scaled(x);
        }
    }
    mean.iter_mut().for_each(|m| *m /= n.max(1) as f64);
    let centred: Vec<f64> = rows()
        .flat_map(|row| row.iter().zip(&mean).map(|(&x, m)| scaled(x) - m))
        .collect();
    let trace = centred.iter().map(|x| x * x).sum::<f64>() / n.saturating_sub(1).max(1) as f64;
    let cov = Covariance::new(centred, n, d, k);

    let mut components: Vec<Vec<f64>> = Vec::with_capacity(k);
    let mut variances = Vec::with_capacity(k);
    for j in 0..k {
        let mut v = start(d, j, &components);
        let mut lambda = 0.0;
        for step in 0..MAX_ITERATIONS {
            let mut w = cov.times(&v);
            project_out(&mut w, &components);
            let len = norm(&w);
            // No spread left outside the components found: any unit vector will do.
            if len <= 1e-13 * trace {
                break;
            }
            let next_lambda = dot(&v, &w);
            w.iter_mut().for_each(|x| *x /= len);
            let moved = w
                .iter()
                .zip(&v)
                .map(|(a, b)| (a - b) * (a - b))
                .sum::<f64>();
            v = w;
            if moved < 1e-24 || (step > 2 && (next_lambda - lambda).abs() <= 1e-14 * next_lambda) {
                break;
            }
            lambda = next_lambda;
        }
        project_out(&mut v, &components);
        let len = norm(&v);
        v.iter_mut().for_each(|x| *x /= len);
        let variance = dot(&v, &cov.times(&v)).max(0.0) * scale * scale;
        components.push(v);
        variances.push(if variance.is_finite() {
            variance
        } else {
            f64::MAX
        });
    }

    let mut order: Vec<usize> = (0..k).collect();
    order.sort_by(|&a, &b| variances[b].total_cmp(&variances[a]));
    let components = order
        .iter()
        .map(|&j| {
            let mut c = components[j].clone();
            let peak = c
                .iter()
                .copied()
                .reduce(|a, b| if b.abs() > a.abs() { b } else { a })
                .unwrap_or(0.0);
            if peak < 0.0 {
                c.iter_mut().for_each(|x| *x = -*x);
            }
            c
        })
        .collect();
    let variances = order.iter().map(|&j| variances[j]).collect();
    let mean = mean
        .iter()
        .map(|m| if scale > 0.0 { m * scale } else { *m })
        .collect();
    Pca {
        mean,
        components,
        variances,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn orthonormal(p: &Pca) -> bool {
        p.components.iter().enumerate().all(|(a, u)| {
            p.components.iter().enumerate().all(|(b, v)| {
                let want = if a == b { 1.0 } else { 0.0 };
                (dot(u, v) - want).abs() < 1e-10
            })
        })
    }

    fn finite_everywhere(p: &Pca) -> bool {
        p.mean
            .iter()
            .chain(p.components.iter().flatten())
            .chain(&p.variances)
            .all(|x| x.is_finite())
    }

    /// Points along `axis` (spread ±`n`/2) plus a small fixed wobble in every coordinate.
    fn line(axis: &[f64], n: usize, wobble: f64) -> Vec<f64> {
        (0..n)
            .flat_map(|r| {
                let t = r as f64 - n as f64 / 2.0;
                axis.iter()
                    .enumerate()
                    .map(move |(i, a)| 3.0 + t * a + wobble * ((r * 7 + i * 13) as f64).sin())
            })
            .collect()
    }

    #[test]
    fn finds_the_line_the_points_lie_along() {
        let axis = [2.0, -1.0, 0.5, 0.0, 2.0];
        let unit: Vec<f64> = axis.iter().map(|a| a / norm(&axis)).collect();
        // n > d (covariance formed) and n < d (applied through the rows).
        for (data, n, d) in [
            (line(&axis, 200, 0.01), 200, 5),
            (
                line(&[axis.as_slice(), &[0.0; 40]].concat(), 20, 0.01),
                20,
                45,
            ),
        ] {
            let p = pca(&data, n, d, 3);
            assert_eq!(p.components.len(), 3);
            let got = &p.components[0];
            // Signs fixed: the largest coordinate (the first 2.0, at 0) is positive.
            let dev = got
                .iter()
                .zip(&unit)
                .map(|(g, u)| (g - u).abs())
                .fold(0.0, f64::max);
            assert!(dev < 1e-3, "d={d}: {got:?}");
            assert!(p.variances[0] > 100.0 * p.variances[1]);
            assert!(p.variances.windows(2).all(|w| w[0] >= w[1]));
            assert!(orthonormal(&p));
            // t runs over −n/2 ..= n/2 − 1, so its mean is −1/2.
            assert!((p.mean[0] - (3.0 - 0.5 * axis[0])).abs() < 0.01);
            // The first coordinate of a row is its position along the line.
            let row = &data[7 * d..8 * d];
            let along = p.project(row)[0];
            let want = (7.0 - n as f64 / 2.0 + 0.5) * norm(&axis);
            assert!((along - want).abs() < 0.05, "{along} vs {want}");
        }
    }

    #[test]
    fn variances_are_those_of_independent_axes() {
        // x spread ±3, y ±1, z ±2 on a grid: variances in the order x, z, y, along the axes.
        let mut data = Vec::new();
        for a in [-3.0, 3.0] {
            for b in [-1.0, 1.0] {
                for c in [-2.0, 2.0] {
                    data.extend([a, b, c]);
                }
            }
        }
        let p = pca(&data, 8, 3, 3);
        let n = 8.0;
        let want = [9.0 * n / (n - 1.0), 4.0 * n / (n - 1.0), n / (n - 1.0)];
        for (g, w) in p.variances.iter().zip(want) {
            assert!((g - w).abs() < 1e-9, "{:?}", p.variances);
        }
        assert_eq!(
            p.components[0]
                .iter()
                .map(|x| x.round())
                .collect::<Vec<_>>(),
            [1.0, 0.0, 0.0]
        );
        assert_eq!(
            p.components[1]
                .iter()
                .map(|x| x.round())
                .collect::<Vec<_>>(),
            [0.0, 0.0, 1.0]
        );
        assert_eq!(
            p.components[2]
                .iter()
                .map(|x| x.round())
                .collect::<Vec<_>>(),
            [0.0, 1.0, 0.0]
        );
    }

    #[test]
    fn degenerate_inputs_give_finite_orthonormal_output() {
        for (data, n, d, k) in [
            (vec![1.0, 2.0, 3.0], 1, 3, 3),           // one row
            (vec![5.0; 40], 10, 4, 4),                // all rows equal
            (vec![1.0, 2.0, 4.0, 8.0], 4, 1, 1),      // d = 1
            (vec![1.0, 2.0, 4.0, 8.0], 4, 1, 5),      // k > d
            (vec![], 0, 3, 2),                        // no rows
            (vec![1.0, 2.0], 5, 2, 2),                // fewer rows than n
            (vec![], 0, 0, 2),                        // d = 0
            (vec![1e300, -1e300, 0.0, 3.0], 2, 2, 2), // huge
            (vec![f64::NAN, 1.0, f64::INFINITY, 2.0], 2, 2, 2),
            (line(&[1.0, 1.0, 0.0, 0.0], 30, 0.0), 30, 4, 4), // rank 1
        ] {
            let p = pca(&data, n, d, k);
            assert!(finite_everywhere(&p), "{data:?}: {p:?}");
            assert_eq!(p.components.len(), k.min(d));
            assert_eq!(p.mean.len(), d);
            assert!(orthonormal(&p), "{data:?}: {p:?}");
            assert!(p.variances.iter().all(|&v| v >= 0.0));
            assert!(p.variances.windows(2).all(|w| w[0] >= w[1]));
            for c in &p.components {
                let peak = c
                    .iter()
                    .copied()
                    .fold(0.0, |a: f64, b| if b.abs() > a.abs() { b } else { a });
                assert!(peak > 0.0, "{c:?}");
            }
        }
        let p = pca(&[1.0, 2.0, 3.0], 1, 3, 3);
        assert_eq!(p.variances, [0.0; 3]);
        for (m, want) in p.mean.iter().zip([1.0, 2.0, 3.0]) {
            assert!((m - want).abs() < 1e-15);
        }
        assert!(p.project(&[1.0, 2.0, 3.0]).iter().all(|x| x.abs() < 1e-15));
    }

    #[test]
    fn formed_and_row_wise_covariance_agree() {
        let (n, d) = (30, 10);
        let x: Vec<f64> = (0..n * d).map(|i| ((i * 31) as f64 * 0.11).sin()).collect();
        let v: Vec<f64> = (0..d).map(|i| i as f64 - 4.0).collect();
        let formed = Covariance::new(x.clone(), n, d, 3);
        assert!(
            matches!(formed, Covariance::Formed(_)),
            "30 rows, 10 columns: formed"
        );
        assert!(matches!(
            Covariance::new(vec![0.0; 400], 5, 80, 3),
            Covariance::Rows(..)
        ));
        let rows = Covariance::Rows(x.clone(), (n - 1) as f64);
        let direct: Vec<f64> = (0..d)
            .map(|a| {
                (0..n)
                    .map(|r| x[r * d + a] * dot(&x[r * d..(r + 1) * d], &v))
                    .sum::<f64>()
                    / (n - 1) as f64
            })
            .collect();
        for got in [formed.times(&v), rows.times(&v)] {
            for (g, w) in got.iter().zip(&direct) {
                assert!((g - w).abs() < 1e-12, "{g} vs {w}");
            }
        }
    }

    #[test]
    fn same_data_same_components() {
        let data: Vec<f64> = (0..300).map(|i| ((i * i) as f64 * 0.37).sin()).collect();
        assert_eq!(pca(&data, 30, 10, 3), pca(&data, 30, 10, 3));
    }
}
