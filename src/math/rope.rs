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
//! Because rotations compose, `q'_m·k'_n` depends only on `m − n` (RoFormer §3.2.2, eq. 16).
//!
//! The same rotation three ways: pair by pair ([`rotate`]), as the libraries compute it,
//! `x ⊙ cos + rotate_half(x) ⊙ sin` ([`apply_efficient`]), and as the block matrix `R_m`
//! ([`rotation_matrix`]). Models may rotate only part of each head ([`rotate_partial`]), and
//! Meta's interleaved checkpoints become Hugging Face's half-split ones by permuting the rows of
//! `W_q` and `W_k` ([`hf_permutation`]), which leaves every score unchanged.

use rand::SeedableRng;
use rand::rngs::Xoshiro256PlusPlus;
use rand_distr::{Distribution, StandardNormal};

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

/// The library's name for [`rotate_half`] under `layout`: `rotate_half` (Hugging Face, GPT-NeoX)
/// or `rotate_every_two` (GPT-J).
pub fn shuffle_name(layout: Layout) -> &'static str {
    match layout {
        Layout::Half => "rotate_half",
        Layout::Interleaved => "rotate_every_two",
    }
}

/// The partner of every coordinate, signed: Hugging Face `rotate_half` under [`Layout::Half`]
/// (`cat(−x2, x1)` with `x1 = x[..d/2]`, `x2 = x[d/2..]`, `transformers.models.llama`) or GPT-J's
/// `rotate_every_two` under [`Layout::Interleaved`] (each pair `(a, b) → (−b, a)`,
/// `transformers.models.gptj`). It is the rotation by 90° of every pair, so
/// `rotate(x, m) = x·cos(mθ) + rotate_half(x)·sin(mθ)` ([`apply_efficient`]).
/// Precondition: `x.len()` even (an odd last coordinate under `Interleaved` is copied as is).
pub fn rotate_half(x: &[f64], layout: Layout) -> Vec<f64> {
    let d = x.len();
    let mut out = x.to_vec();
    match layout {
        Layout::Interleaved => {
            for (o, xi) in out.chunks_exact_mut(2).zip(x.chunks_exact(2)) {
                o[0] = -xi[1];
                o[1] = xi[0];
            }
        }
        Layout::Half => {
            let h = d / 2;
            for i in 0..h {
                out[i] = -x[i + h];
                out[i + h] = x[i];
            }
        }
    }
    out
}

/// `cos(pos·θ_i)` and `sin(pos·θ_i)` expanded to the `d = 2·inv_freq.len()` coordinates the way
/// the libraries lay them out: under [`Layout::Half`] `cat(freqs, freqs)` (Hugging Face
/// `LlamaRotaryEmbedding.forward`: `emb = torch.cat((freqs, freqs), dim=-1)`), so coordinate `j`
/// uses `θ_{j mod d/2}`; under [`Layout::Interleaved`] each angle twice in a row (GPT-J:
/// `torch.repeat_interleave(sin, 2, dim=3)`), so coordinate `j` uses `θ_{⌊j/2⌋}`. Returns
/// `(cos, sin)`.
pub fn cos_sin(pos: f64, inv_freq: &[f64], layout: Layout) -> (Vec<f64>, Vec<f64>) {
    let h = inv_freq.len();
    let (mut cos, mut sin) = (vec![0.0; 2 * h], vec![0.0; 2 * h]);
    for (i, &theta) in inv_freq.iter().enumerate() {
        let (s, c) = (pos * theta).sin_cos();
        let (a, b) = pair(layout, 2 * h, i);
        (cos[a], cos[b], sin[a], sin[b]) = (c, c, s, s);
    }
    (cos, sin)
}

/// The efficient form of RoPE (RoFormer §3.4.2, eq. 34; Hugging Face `apply_rotary_pos_emb`):
///
/// ```text
/// x' = x ⊙ cos + rotate_half(x) ⊙ sin
/// ```
///
/// with `cos`, `sin` from [`cos_sin`]: two element-wise products instead of a `d × d` matrix.
/// Equals [`rotate`]`(x, pos, inv_freq, layout)` in exact arithmetic (and here bit for bit: the
/// same products and sums). Precondition: `x.len() == 2·inv_freq.len()`.
pub fn apply_efficient(x: &[f64], pos: f64, inv_freq: &[f64], layout: Layout) -> Vec<f64> {
    let (cos, sin) = cos_sin(pos, inv_freq, layout);
    let rot = rotate_half(x, layout);
    x.iter()
        .zip(&rot)
        .zip(cos.iter().zip(&sin))
        .map(|((xi, ri), (c, s))| xi * c + ri * s)
        .collect()
}

/// The `d × d` rotation matrix `R_pos` (RoFormer §3.2.2, eq. 15), row-major, `d = 2·inv_freq.len()`,
/// so that `R·x == rotate(x, pos, inv_freq, layout)`: for pair `i` at coordinates `(a, b)` (see
/// [`pair`]),
///
/// ```text
/// R[a][a] = cos(pos·θ_i)   R[a][b] = −sin(pos·θ_i)
/// R[b][a] = sin(pos·θ_i)   R[b][b] =  cos(pos·θ_i)
/// ```
///
/// and zeros elsewhere. Under `Interleaved` it is block-diagonal with 2×2 blocks
/// `[[cos, −sin], [sin, cos]]`; under `Half` the same blocks sit at rows/columns `(i, i + d/2)`.
pub fn rotation_matrix(pos: f64, inv_freq: &[f64], layout: Layout) -> Vec<f64> {
    let d = 2 * inv_freq.len();
    let mut r = vec![0.0; d * d];
    for (i, &theta) in inv_freq.iter().enumerate() {
        let (s, c) = (pos * theta).sin_cos();
        let (a, b) = pair(layout, d, i);
        r[a * d + a] = c;
        r[a * d + b] = -s;
        r[b * d + a] = s;
        r[b * d + b] = c;
    }
    r
}

/// Row `row < d` of [`rotation_matrix`] (`d = 2·inv_freq.len()`) written into `out` (length `d`):
/// the same entries, for a product with `R_pos` one row at a time instead of `d²` entries at once.
pub fn rotation_matrix_row(
    pos: f64,
    inv_freq: &[f64],
    layout: Layout,
    row: usize,
    out: &mut [f64],
) {
    let d = 2 * inv_freq.len();
    out.fill(0.0);
    let i = match layout {
        Layout::Interleaved => row / 2,
        Layout::Half => row % (d / 2),
    };
    let (s, c) = (pos * inv_freq[i]).sin_cos();
    let (a, b) = pair(layout, d, i);
    if row == a {
        out[a] = c;
        out[b] = -s;
    } else {
        out[a] = s;
        out[b] = c;
    }
}

/// Partial rotation: only the first `rotary_dim` coordinates rotate, with frequencies
/// [`inv_freq`]`(rotary_dim, base)`; the rest pass through unchanged. This is Hugging Face's
/// `partial_rotary_factor` (`dim = int(head_dim · partial_rotary_factor)` in each model's
/// `compute_default_rope_parameters`; `apply_rotary_pos_emb` splits `q[..., :rotary_dim]` from
/// `q[..., rotary_dim:]`), GPT-NeoX's `rotary_pct` (0.25) and GPT-J's `rotary_dim` (64 of 256).
/// Pairs are formed within the rotated coordinates (`Half`: `(i, i + rotary_dim/2)`).
/// Precondition: `rotary_dim` even, `2 ≤ rotary_dim ≤ x.len()`, `base > 1`; outside it,
/// `rotary_dim` is clamped to the largest even number `≤ min(rotary_dim, x.len())`.
pub fn rotate_partial(
    x: &[f64],
    pos: f64,
    base: f64,
    rotary_dim: usize,
    layout: Layout,
) -> Vec<f64> {
    let r = rotary_dim.min(x.len()) & !1;
    let mut out = rotate(&x[..r], pos, &inv_freq(r, base), layout);
    out.extend_from_slice(&x[r..]);
    out
}

/// The row permutation that Meta's LLaMA checkpoints get in Hugging Face's
/// `convert_llama_weights_to_hf.py` (`permute(w)`:
/// `w.view(n_heads, dim/n_heads/2, 2, dim).transpose(1, 2).reshape(dim, dim)`), applied to `W_q`
/// and `W_k`, for one head of width `d`: `perm[new] = old` with `new = t·(d/2) + i` for
/// `old = 2i + t` (`t ∈ {0, 1}`). It moves the interleaved pair `(2i, 2i+1)` to the half-split pair
/// `(i, i + d/2)`, so
///
/// ```text
/// rotate(permute(q), m, Half) == permute(rotate(q, m, Interleaved))
/// ```
///
/// and, a permutation preserving dot products, every score `q'_m·k'_n` is the same under both
/// conventions. Precondition: `d` even.
pub fn hf_permutation(d: usize) -> Vec<usize> {
    let h = d / 2;
    (0..2 * h).map(|new| 2 * (new % h) + new / h).collect()
}

/// `out[j] = x[perm[j]]` (gathers; with [`hf_permutation`], a query or key in Meta's interleaved
/// order becomes one in Hugging Face's half-split order). Precondition: every `perm[j] < x.len()`.
pub fn permute(x: &[f64], perm: &[usize]) -> Vec<f64> {
    perm.iter().map(|&p| x[p]).collect()
}

/// A seeded vector of `d` standard-normal entries, for the "random q, k" option: Xoshiro256++
/// (`rand::rngs::Xoshiro256PlusPlus::seed_from_u64`) and `rand_distr::StandardNormal`, the same
/// family as [`super::learned`]; the same seed gives the same vector in the browser and the CLI.
pub fn random_vector(d: usize, seed: u64) -> Vec<f64> {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    (0..d).map(|_| StandardNormal.sample(&mut rng)).collect()
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

    const LAYOUTS: [Layout; 2] = [Layout::Interleaved, Layout::Half];

    fn close(a: &[f64], b: &[f64], tol: f64) -> bool {
        a.len() == b.len() && a.iter().zip(b).all(|(x, y)| (x - y).abs() < tol)
    }

    #[test]
    fn rotate_half_is_rotate_every_two_or_the_half_swap() {
        let x = [1.0, 2.0, 3.0, 4.0, 5.0, 6.0];
        assert_eq!(
            rotate_half(&x, Layout::Interleaved),
            [-2.0, 1.0, -4.0, 3.0, -6.0, 5.0]
        );
        assert_eq!(
            rotate_half(&x, Layout::Half),
            [-4.0, -5.0, -6.0, 1.0, 2.0, 3.0]
        );
        // A quarter turn: twice is −x.
        for layout in LAYOUTS {
            let twice = rotate_half(&rotate_half(&x, layout), layout);
            assert_eq!(twice, x.map(|v| -v));
        }
    }

    #[test]
    fn cos_sin_expand_like_cat_or_repeat_interleave() {
        let f = [1.0, 0.5];
        let (c, s) = cos_sin(3.0, &f, Layout::Half);
        assert_eq!(c, [3f64.cos(), 1.5f64.cos(), 3f64.cos(), 1.5f64.cos()]);
        assert_eq!(s, [3f64.sin(), 1.5f64.sin(), 3f64.sin(), 1.5f64.sin()]);
        let (c, s) = cos_sin(3.0, &f, Layout::Interleaved);
        assert_eq!(c, [3f64.cos(), 3f64.cos(), 1.5f64.cos(), 1.5f64.cos()]);
        assert_eq!(s, [3f64.sin(), 3f64.sin(), 1.5f64.sin(), 1.5f64.sin()]);
    }

    #[test]
    fn efficient_form_and_matrix_equal_rotate() {
        for (d, base) in [(2, 10_000.0), (8, 10_000.0), (64, 500_000.0), (10, 2.0)] {
            let f = inv_freq(d, base);
            let x: Vec<f64> = (0..d).map(|j| ((j + 1) as f64).sin() * 3.0).collect();
            for layout in LAYOUTS {
                for pos in [0.0, 1.0, 2.5, 7.0, 100.0, 1234.0, 65_535.0, 1e6] {
                    let want = rotate(&x, pos, &f, layout);
                    let fast = apply_efficient(&x, pos, &f, layout);
                    assert!(close(&fast, &want, 1e-12), "{layout:?} d={d} pos={pos}");
                    let r = rotation_matrix(pos, &f, layout);
                    let rx: Vec<f64> = r.chunks_exact(d).map(|row| dot(row, &x)).collect();
                    assert!(close(&rx, &want, 1e-12), "{layout:?} d={d} pos={pos}");
                }
            }
        }
    }

    #[test]
    fn rotation_matrix_rows_are_its_rows() {
        for (d, base) in [(2, 10_000.0), (6, 100.0), (64, 500_000.0)] {
            let f = inv_freq(d, base);
            for layout in LAYOUTS {
                for pos in [0.0, 7.0, 1234.5] {
                    let r = rotation_matrix(pos, &f, layout);
                    let mut row = vec![f64::NAN; d];
                    for (k, want) in r.chunks_exact(d).enumerate() {
                        rotation_matrix_row(pos, &f, layout, k, &mut row);
                        let same = row
                            .iter()
                            .zip(want)
                            .all(|(a, b)| a.to_bits() == b.to_bits());
                        assert!(same, "{layout:?} d={d} pos={pos} row {k}");
                    }
                }
            }
        }
    }

    #[test]
    fn rotation_matrix_is_orthogonal_with_blocks_where_the_pairs_are() {
        let f = inv_freq(6, 100.0);
        let (s, c) = (7.0f64 * f[1]).sin_cos();
        let r = rotation_matrix(7.0, &f, Layout::Interleaved);
        assert_eq!(
            [r[2 * 6 + 2], r[2 * 6 + 3], r[3 * 6 + 2], r[3 * 6 + 3]],
            [c, -s, s, c]
        );
        let r = rotation_matrix(7.0, &f, Layout::Half);
        assert_eq!(
            [r[6 + 1], r[6 + 4], r[4 * 6 + 1], r[4 * 6 + 4]],
            [c, -s, s, c]
        );
        assert_eq!(r[6 + 2], 0.0);
        // RᵀR = I.
        for a in 0..6 {
            for b in 0..6 {
                let rtr: f64 = (0..6).map(|k| r[k * 6 + a] * r[k * 6 + b]).sum();
                assert!((rtr - f64::from(u8::from(a == b))).abs() < 1e-15);
            }
        }
    }

    #[test]
    fn partial_rotation_rotates_the_head_and_passes_the_tail() {
        let x: Vec<f64> = (0..12).map(|j| (j as f64 * 0.9).cos()).collect();
        for layout in LAYOUTS {
            for r in [2, 4, 8, 12] {
                let y = rotate_partial(&x, 37.0, 10_000.0, r, layout);
                assert_eq!(y.len(), 12);
                assert_eq!(&y[r..], &x[r..], "tail unchanged");
                assert_eq!(
                    &y[..r],
                    rotate(&x[..r], 37.0, &inv_freq(r, 10_000.0), layout),
                    "head rotated with inv_freq(rotary_dim)"
                );
            }
            assert_eq!(
                rotate_partial(&x, 37.0, 10_000.0, 12, layout),
                rotate(&x, 37.0, &inv_freq(12, 10_000.0), layout)
            );
            // Out of its precondition it clamps, it does not panic.
            assert_eq!(rotate_partial(&x, 3.0, 100.0, 0, layout), x);
            assert_eq!(rotate_partial(&x, 3.0, 100.0, 99, layout).len(), 12);
        }
    }

    #[test]
    fn hf_permutation_turns_interleaved_into_half() {
        assert_eq!(hf_permutation(8), [0, 2, 4, 6, 1, 3, 5, 7]);
        assert_eq!(hf_permutation(2), [0, 1]);
        assert!(hf_permutation(0).is_empty());
        for d in [2, 4, 8, 64, 128] {
            let perm = hf_permutation(d);
            let mut sorted = perm.clone();
            sorted.sort_unstable();
            assert_eq!(sorted, (0..d).collect::<Vec<_>>(), "a permutation");
            let f = inv_freq(d, 10_000.0);
            let q = random_vector(d, 1);
            let k = random_vector(d, 2);
            let (pq, pk) = (permute(&q, &perm), permute(&k, &perm));
            for (m, n) in [(0.0, 0.0), (5.0, 2.0), (100.0, 999.0), (4096.0, 17.0)] {
                let inter_q = rotate(&q, m, &f, Layout::Interleaved);
                let half_q = rotate(&pq, m, &f, Layout::Half);
                assert_eq!(permute(&inter_q, &perm), half_q, "d={d} m={m}");
                let inter = dot(&inter_q, &rotate(&k, n, &f, Layout::Interleaved));
                let half = dot(&half_q, &rotate(&pk, n, &f, Layout::Half));
                assert!((inter - half).abs() < 1e-12 * (1.0 + inter.abs()), "d={d}");
            }
        }
    }

    #[test]
    fn random_vectors_are_seeded_standard_normals() {
        let a = random_vector(4096, 7);
        assert_eq!(a, random_vector(4096, 7));
        assert_ne!(a, random_vector(4096, 8));
        assert_eq!(
            &random_vector(10, 7)[..],
            &a[..10],
            "a prefix of the same stream"
        );
        let mean = a.iter().sum::<f64>() / 4096.0;
        let var = a.iter().map(|v| (v - mean) * (v - mean)).sum::<f64>() / 4095.0;
        assert!(mean.abs() < 0.1 && (var - 1.0).abs() < 0.1, "{mean} {var}");
        assert!(random_vector(0, 1).is_empty());
    }
}
