//! RoPE attention scores as a function of the relative distance alone.
//!
//! Write pair `i` of q and k as complex numbers `q̃_i = q_a + i·q_b`, `k̃_i = k_a + i·k_b` (the
//! pair's coordinates `(a, b)` depend on the [`Layout`]). Rotating both (RoFormer §3.2.2,
//! eq. 16; this complex form is §3.4.3, eq. 35):
//!
//! ```text
//! q'_m · k'_n = Re Σ_i q̃_i · conj(k̃_i) · e^{i(m−n)θ_i}
//!             = Σ_i A_i cos(rθ_i) − B_i sin(rθ_i),   r = m − n,
//! A_i = q_a k_a + q_b k_b,   B_i = q_b k_a − q_a k_b
//! ```
//!
//! so the whole `n × n` matrix is fixed by its `2n − 1` diagonals, computed here in O(n·d) with
//! the angle-addition kernel ([`Phases`]) instead of O(n²·d). Coordinates beyond `rotary_dim`
//! (partial rotation) do not turn and add the constant `Σ q_j k_j` to every score.

use super::phase::Phases;
use super::rope::{Layout, decay, inv_freq, pair};

/// A query and a key, and how they turn: the first `rotary_dim` coordinates with the frequencies
/// `inv_freq(rotary_dim, base)`, paired as `layout` says; the rest pass through. Preconditions:
/// `q.len() == k.len()`, `rotary_dim` even with `2 ≤ rotary_dim ≤ q.len()`, `base > 1`.
#[derive(Clone, Copy, Debug)]
pub struct QueryKey<'a> {
    /// The query.
    pub q: &'a [f64],
    /// The key.
    pub k: &'a [f64],
    /// RoPE's base.
    pub base: f64,
    /// The coordinates that turn.
    pub rotary_dim: usize,
    /// Which coordinates pair up.
    pub layout: Layout,
}

/// `(A_i, B_i)` per rotated pair and the constant of the unrotated tail.
fn coefficients(
    q: &[f64],
    k: &[f64],
    rotary_dim: usize,
    layout: Layout,
) -> (Vec<f64>, Vec<f64>, f64) {
    let (a, b): (Vec<f64>, Vec<f64>) = (0..rotary_dim / 2)
        .map(|i| {
            let (x, y) = pair(layout, rotary_dim, i);
            (q[x] * k[x] + q[y] * k[y], q[y] * k[x] - q[x] * k[y])
        })
        .unzip();
    let tail = q[rotary_dim..]
        .iter()
        .zip(&k[rotary_dim..])
        .map(|(x, y)| x * y)
        .sum();
    (a, b, tail)
}

/// The score `q'_m · k'_n` for every distance `r = m − n` from `−(n−1)` to `n−1`: entry
/// `r + n − 1`. So the score matrix is `out[m − n + n − 1]` at row m, column n (a Toeplitz
/// matrix). Preconditions: those of [`QueryKey`], and `n ≥ 1`.
pub fn score_by_distance(qk: QueryKey, n: usize) -> Vec<f64> {
    let (a, b, tail) = coefficients(qk.q, qk.k, qk.rotary_dim, qk.layout);
    let mut out = vec![0.0; 2 * n - 1];
    let mut phases = Phases::new(inv_freq(qk.rotary_dim, qk.base));
    for r in 0..n {
        let (mut even, mut odd) = (0.0, 0.0);
        for ((c, s), (ai, bi)) in phases.cos().iter().zip(phases.sin()).zip(a.iter().zip(&b)) {
            even += ai * c;
            odd += bi * s;
        }
        // cos is even in r and sin odd: g(r) = C − S, g(−r) = C + S.
        out[n - 1 + r] = tail + even - odd;
        out[n - 1 - r] = tail + even + odd;
        phases.advance();
    }
    out
}

/// RoFormer's long-term decay bound (§3.4.3) for these q and k, at distances `r = 0 … n−1`:
///
/// ```text
/// |q'_m·k'_n| ≤ max_i |h_{i+1} − h_i| · Σ_{j=1}^{d/2} |S_j| + |tail|,
/// h_i = q̃_i·conj(k̃_i) (h_{d/2} = 0),   S_j = Σ_{i<j} e^{i·r·θ_i}
/// ```
///
/// (Abel summation of the complex sum; the tail of a partial rotation is a constant).
/// Preconditions as [`score_by_distance`].
pub fn decay_bound(qk: QueryKey, n: usize) -> Vec<f64> {
    let (a, b, tail) = coefficients(qk.q, qk.k, qk.rotary_dim, qk.layout);
    // h_i = q̃_i·conj(k̃_i) = A_i + i·B_i, and h_{d/2} = 0.
    let h: Vec<(f64, f64)> = a
        .iter()
        .zip(&b)
        .map(|(&x, &y)| (x, y))
        .chain([(0.0, 0.0)])
        .collect();
    let step = h
        .windows(2)
        .map(|w| (w[1].0 - w[0].0).hypot(w[1].1 - w[0].1))
        .fold(0.0, f64::max);
    let half = (qk.rotary_dim / 2) as f64;
    decay(qk.rotary_dim, qk.base, n.saturating_sub(1))
        .into_iter()
        .map(|mean| step * mean * half + tail.abs())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::rope::{dot, rotate};

    fn vectors(d: usize) -> (Vec<f64>, Vec<f64>) {
        let q = (0..d).map(|i| ((i * 7 + 3) as f64 * 0.37).sin()).collect();
        let k = (0..d).map(|i| ((i * 5 + 1) as f64 * 0.91).cos()).collect();
        (q, k)
    }

    /// Rotates the first `r` coordinates only (pairs within them), the rest unchanged.
    fn rotate_head(x: &[f64], m: f64, base: f64, r: usize, layout: Layout) -> Vec<f64> {
        let mut out = rotate(&x[..r], m, &inv_freq(r, base), layout);
        out.extend_from_slice(&x[r..]);
        out
    }

    #[test]
    fn diagonals_equal_the_rotated_dot_products() {
        for layout in [Layout::Interleaved, Layout::Half] {
            for (d, r) in [(8, 8), (12, 4), (16, 16)] {
                let (q, k) = vectors(d);
                let n = 40;
                let g = score_by_distance(
                    QueryKey {
                        q: &q,
                        k: &k,
                        base: 100.0,
                        rotary_dim: r,
                        layout,
                    },
                    n,
                );
                for m in [0usize, 3, 39] {
                    for p in [0usize, 17, 39] {
                        let direct = dot(
                            &rotate_head(&q, m as f64, 100.0, r, layout),
                            &rotate_head(&k, p as f64, 100.0, r, layout),
                        );
                        let got = g[m + n - 1 - p];
                        assert!(
                            (got - direct).abs() < 1e-10,
                            "{layout:?} d={d} r={r} m={m} n={p}: {got} vs {direct}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn the_bound_holds_at_every_distance() {
        for layout in [Layout::Interleaved, Layout::Half] {
            for (d, r) in [(32, 32), (32, 8)] {
                let (q, k) = vectors(d);
                let n = 500;
                let qk = QueryKey {
                    q: &q,
                    k: &k,
                    base: 10_000.0,
                    rotary_dim: r,
                    layout,
                };
                let (g, bound) = (score_by_distance(qk, n), decay_bound(qk, n));
                for dist in 0..n {
                    let s = g[n - 1 + dist].abs().max(g[n - 1 - dist].abs());
                    assert!(
                        s <= bound[dist] + 1e-9,
                        "{layout:?} r={r} dist={dist}: {s} > {}",
                        bound[dist]
                    );
                }
            }
        }
    }

    #[test]
    fn all_ones_scores_start_at_d() {
        let ones = vec![1.0; 64];
        let g = score_by_distance(
            QueryKey {
                q: &ones,
                k: &ones,
                base: 10_000.0,
                rotary_dim: 64,
                layout: Layout::Interleaved,
            },
            10,
        );
        assert!((g[9] - 64.0).abs() < 1e-12);
        // All-ones: h_i = 2 for every pair, so the only step is the last, |0 − 2| = 2.
        let b = decay_bound(
            QueryKey {
                q: &ones,
                k: &ones,
                base: 10_000.0,
                rotary_dim: 64,
                layout: Layout::Half,
            },
            10,
        );
        assert!((b[0] - 2.0 * 32.0 * 33.0 / 2.0).abs() < 1e-9, "{}", b[0]);
    }
}
