//! Rotary position embedding, RoPE (Su et al., "RoFormer: Enhanced Transformer with Rotary
//! Position Embedding", 2021, §3.2–3.4).
//!
//! A query or key vector of even width `d` is split into `d/2` coordinate pairs; pair `i` is
//! rotated by the angle `m·θ_i` at position `m`, with `θ_i = base^(−2i/d)` (`inv_freq` in Hugging
//! Face transformers: `1 / base^(arange(0, d, 2)/d)`):
//!
//! ```text
//! x'_a = x_a·cos(mθ_i) − x_b·sin(mθ_i)
//! x'_b = x_b·cos(mθ_i) + x_a·sin(mθ_i)
//! ```
//!
//! Which coordinates form pair `i` is a convention ([`Layout`]):
//! - `Interleaved`: `(2i, 2i+1)` — RoFormer, GPT-J's `rotate_every_two`, Meta's original LLaMA.
//! - `Half`: `(i, i + d/2)` — GPT-NeoX and Hugging Face Llama's `rotate_half`.
//!
//! Because rotations compose, `q'_m·k'_n` depends only on `m − n` (RoFormer eq. 16).

use super::phase::Phases;
pub use super::sinusoidal::Layout;

/// RoPE inverse frequencies `θ_i = base^(−2i/d)` for `i = 0..d/2`. Precondition: `d` even ≥ 2,
/// `base > 1`.
pub fn inv_freq(d: usize, base: f64) -> Vec<f64> {
    (0..d / 2)
        .map(|i| base.powf(-((2 * i) as f64) / d as f64))
        .collect()
}

/// The coordinates of pair `i` in a `d`-wide vector.
pub fn pair(layout: Layout, d: usize, i: usize) -> (usize, usize) {
    match layout {
        Layout::Interleaved => (2 * i, 2 * i + 1),
        Layout::Half => (i, i + d / 2),
    }
}

/// `x` rotated to position `pos` with frequencies `inv_freq` (`x.len() == 2·inv_freq.len()`).
/// `pos` is real so that interpolated positions (`pos / s`) can be shown too. Coordinates
/// beyond `2·inv_freq.len()` (or frequencies beyond `x.len()/2`) are left as they are.
pub fn rotate(x: &[f64], pos: f64, inv_freq: &[f64], layout: Layout) -> Vec<f64> {
    let mut out = x.to_vec();
    let d = x.len();
    for (i, &theta) in inv_freq.iter().enumerate().take(d / 2) {
        let (a, b) = pair(layout, d, i);
        let (s, c) = (pos * theta).sin_cos();
        out[a] = x[a] * c - x[b] * s;
        out[b] = x[b] * c + x[a] * s;
    }
    out
}

/// `rotate(x, m)` for every integer position `m = 0..n`, row-major `n × d`, written into `out`
/// (resized, allocation reused). The angles `m·θ_i` are stepped by angle addition
/// ([`Phases`], re-anchored exactly every 64 positions), so there is no `sin`/`cos` per entry.
/// Precondition: `x.len() == 2·inv_freq.len()`.
pub fn rotate_sweep_into(
    x: &[f64],
    n: usize,
    inv_freq: &[f64],
    layout: Layout,
    out: &mut Vec<f64>,
) {
    let d = x.len();
    let h = inv_freq.len().min(d / 2);
    out.clear();
    out.resize(n * d, 0.0);
    if d == 0 {
        return;
    }
    let mut phases = Phases::new(inv_freq[..h].to_vec());
    for row in out.chunks_exact_mut(d) {
        row.copy_from_slice(x);
        let (sin, cos) = (phases.sin(), phases.cos());
        match layout {
            Layout::Interleaved => {
                for ((cell, xi), (&s, &c)) in row
                    .chunks_exact_mut(2)
                    .zip(x.chunks_exact(2))
                    .zip(sin.iter().zip(cos))
                {
                    cell[0] = xi[0] * c - xi[1] * s;
                    cell[1] = xi[1] * c + xi[0] * s;
                }
            }
            Layout::Half => {
                let (lo, hi) = row.split_at_mut(d / 2);
                let (xa, xb) = x.split_at(d / 2);
                for i in 0..h {
                    let (s, c) = (sin[i], cos[i]);
                    lo[i] = xa[i] * c - xb[i] * s;
                    hi[i] = xb[i] * c + xa[i] * s;
                }
            }
        }
        phases.advance();
    }
}

/// Dot product.
pub fn dot(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

/// `dots[a][b] = rotate(q, positions[a]) · rotate(k, positions[b])`, row-major.
pub fn dots(q: &[f64], k: &[f64], positions: &[f64], inv_freq: &[f64], layout: Layout) -> Vec<f64> {
    let qs: Vec<Vec<f64>> = positions
        .iter()
        .map(|&m| rotate(q, m, inv_freq, layout))
        .collect();
    let ks: Vec<Vec<f64>> = positions
        .iter()
        .map(|&n| rotate(k, n, inv_freq, layout))
        .collect();
    qs.iter()
        .flat_map(|qm| ks.iter().map(move |kn| dot(qm, kn)))
        .collect()
}

/// The long-term decay bound of RoFormer §3.4.3 (its Fig. 2): for relative distance `r`,
///
/// ```text
/// bound(r) = (1/(d/2)) · Σ_{j=1}^{d/2} | Σ_{k=0}^{j−1} e^{i·r·θ_k} |
/// ```
///
/// the mean magnitude of the partial sums `S_j` that bound `|q'_m·k'_n|` by Abel summation
/// (`|Σ h_i e^{i(m−n)θ_i}| ≤ max_i |h_{i+1} − h_i| · Σ_j |S_j|`). Computed for
/// `r = 0..=max_distance` in O(R·d), with `e^{i·r·θ_k}` stepped along `r` ([`Phases`]).
/// Precondition: `d` even ≥ 2, `base > 1`.
pub fn decay(d: usize, base: f64, max_distance: usize) -> Vec<f64> {
    let theta = inv_freq(d, base);
    let half = theta.len().max(1) as f64;
    let mut phases = Phases::new(theta);
    (0..=max_distance)
        .map(|_| {
            let (mut re, mut im, mut total) = (0.0, 0.0, 0.0);
            for (s, c) in phases.sin().iter().zip(phases.cos()) {
                re += c;
                im += s;
                total += (re * re + im * im).sqrt();
            }
            phases.advance();
            total / half
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inv_freq_starts_at_one_and_falls_geometrically() {
        let f = inv_freq(8, 10_000.0);
        assert_eq!(f.len(), 4);
        assert_eq!(f[0], 1.0);
        assert!((f[1] - 0.1).abs() < 1e-15);
        assert!((f[3] - 1e-3).abs() < 1e-15);
    }

    #[test]
    fn rotation_keeps_norm_and_position_zero_is_identity() {
        let x = [0.3, -1.2, 2.0, 0.5, 0.0, 1.0];
        let f = inv_freq(6, 100.0);
        for layout in [Layout::Interleaved, Layout::Half] {
            assert_eq!(rotate(&x, 0.0, &f, layout), x.to_vec());
            let y = rotate(&x, 17.0, &f, layout);
            assert!((dot(&y, &y) - dot(&x, &x)).abs() < 1e-12);
        }
    }

    #[test]
    fn dots_depend_only_on_the_offset() {
        let q = [0.3, -1.2, 2.0, 0.5];
        let k = [1.0, 0.1, -0.7, 0.4];
        let f = inv_freq(4, 10_000.0);
        let m = dots(&q, &k, &[3.0, 10.0, 7.0, 14.0], &f, Layout::Half);
        // (3, 7) and (10, 14) are both offset −4.
        assert!((m[2] - m[7]).abs() < 1e-12);
    }

    #[test]
    fn sweep_equals_rotating_at_each_position() {
        let x: Vec<f64> = (0..10).map(|i| (i as f64 * 0.7).cos()).collect();
        let f = inv_freq(10, 300.0);
        for layout in [Layout::Interleaved, Layout::Half] {
            let mut sweep = Vec::new();
            rotate_sweep_into(&x, 200, &f, layout, &mut sweep);
            assert_eq!(sweep.len(), 200 * 10);
            for (m, row) in sweep.chunks_exact(10).enumerate() {
                for (a, b) in row.iter().zip(rotate(&x, m as f64, &f, layout)) {
                    assert!((a - b).abs() < 1e-12, "{layout:?} m={m}: {a} vs {b}");
                }
            }
        }
    }

    #[test]
    fn decay_equals_the_direct_double_sum() {
        // The formula evaluated literally, with a sin/cos per term.
        let (d, base) = (16, 10_000.0);
        let theta = inv_freq(d, base);
        let bound = decay(d, base, 300);
        for (r, &got) in bound.iter().enumerate() {
            let direct: f64 = (1..=d / 2)
                .map(|j| {
                    let (re, im) = theta[..j].iter().fold((0.0, 0.0), |(re, im), t| {
                        (re + (r as f64 * t).cos(), im + (r as f64 * t).sin())
                    });
                    (re * re + im * im).sqrt()
                })
                .sum::<f64>()
                / (d / 2) as f64;
            assert!((got - direct).abs() < 1e-11, "r={r}: {got} vs {direct}");
        }
    }

    #[test]
    fn decay_starts_at_its_maximum() {
        // At r = 0 every e^{i·0} = 1, so |S_j| = j and the bound is (d/2 + 1)/2.
        let b = decay(128, 10_000.0, 200);
        assert!((b[0] - 32.5).abs() < 1e-12);
        assert!(b.iter().all(|&v| v <= b[0] + 1e-12));
        assert!(b[200] < b[0] / 2.0);
    }
}
