//! Axial 2D RoPE: RoPE over a grid of image patches, as Qwen2.5-VL's vision encoder computes it
//! in transformers 5.24 (`models/qwen2_5_vl/modeling_qwen2_5_vl.py`: the frequencies in
//! `Qwen2_5_VLVisionRotaryEmbedding.compute_axial_rope_parameters`, the angles in its `forward`
//! and `recomposition_frequencies`, applied by `apply_rotary_pos_emb_vision` with `rotate_half`;
//! the row and column ids from `vision_utils.get_vision_position_ids`). 5.24 declares `"axial"`
//! the default rope type of this vision config (the constructor refuses any other).
//!
//! - The frequencies are built for half a head, `D = head_dim/2`: `D/2 = head_dim/4` of them,
//!   `ω_i = θ^(−2i/D)` (θ = 10000, the config's default; computed there in float32, here in
//!   float64). Qwen2.5-VL-7B's config.json gives its vision heads 1280/16 = 80 coordinates: 20
//!   frequencies.
//! - A patch in row `r` and column `c` of the full (unmerged) patch grid gets the angles
//!   `[r·ω_0 … r·ω_{D/2−1}, c·ω_0 … c·ω_{D/2−1}]`: the first `head_dim/4` angles follow the row,
//!   the last `head_dim/4` the column, the same frequencies for both. (The encoder reorders its
//!   tokens into 2 × 2 merge blocks and attention windows, and reorders the cos and sin with
//!   them: every patch keeps its own row and column.)
//! - Those `head_dim/2` angles are repeated over both halves of the head and applied with
//!   `rotate_half`: pair `p` is coordinates `p` and `p + head_dim/2`.
//!
//! So the score of q at patch (r₁, c₁) with k at (r₂, c₂) depends only on the offset
//! (r₂ − r₁, c₂ − c₁). Flattening the grid row by row into one line of 1D RoPE instead puts the
//! patch below a whole row away.

use super::phase::Phases;
use super::rope;

/// The `head_dim/4` frequencies each axis gets, `ω_i = θ^(−2i/D)` with `D = head_dim/2`.
/// Precondition: `head_dim` a multiple of 4.
pub fn inv_freq(head_dim: usize, theta: f64) -> Vec<f64> {
    rope::inv_freq(head_dim / 2, theta)
}

/// The `head_dim/2` angles of the patch in row `row` and column `col`: the row's, then the
/// column's.
pub fn angles(head_dim: usize, theta: f64, row: usize, col: usize) -> Vec<f64> {
    let freqs = inv_freq(head_dim, theta);
    let along = |at: usize| freqs.iter().map(move |w| at as f64 * w);
    along(row).chain(along(col)).collect()
}

/// The angles 1D RoPE gives the same patch when the grid of `width` columns is read row by row:
/// position `row·width + col`, frequencies `θ^(−2i/head_dim)` over the head's `head_dim/2` pairs.
pub fn flattened_angles(
    head_dim: usize,
    theta: f64,
    width: usize,
    row: usize,
    col: usize,
) -> Vec<f64> {
    let p = (row * width + col) as f64;
    rope::inv_freq(head_dim, theta)
        .into_iter()
        .map(|w| p * w)
        .collect()
}

/// `q·k` after rotating q by `q_angles` and k by `k_angles`, pair `p` being coordinates `p` and
/// `p' = p + head_dim/2` (`rotate_half`):
/// `Σ_p (q_p k_p + q_p' k_p')·cos(Δ_p) + (q_p' k_p − q_p k_p')·sin(Δ_p)`, `Δ_p = k_angles[p] −
/// q_angles[p]`.
pub fn score(q: &[f64], k: &[f64], q_angles: &[f64], k_angles: &[f64]) -> f64 {
    let half = q.len() / 2;
    (0..half)
        .map(|p| pair_term(q, k, p, k_angles[p] - q_angles[p]))
        .sum()
}

/// Pair `p`'s coefficients of `cos Δ` and `sin Δ` in `q·k` when k is turned `Δ` radians further
/// than q (pair `p` is coordinates `p` and `p + head_dim/2`).
fn pair_coefficients(q: &[f64], k: &[f64], p: usize) -> (f64, f64) {
    let half = q.len() / 2;
    let (a, b) = (q[p], q[p + half]);
    let (c, d) = (k[p], k[p + half]);
    (a * c + b * d, b * c - a * d)
}

/// Pair `p`'s part of `q·k` when k is turned `delta` radians further than q (the term of
/// [`score`]).
fn pair_term(q: &[f64], k: &[f64], p: usize, delta: f64) -> f64 {
    let (on_cos, on_sin) = pair_coefficients(q, k, p);
    let (s, co) = delta.sin_cos();
    on_cos * co + on_sin * s
}

/// The scores of q at patch `at` (row, column) with k at every patch of a `rows × cols` grid,
/// row-major, under axial 2D RoPE ([`angles`] for both). The first `head_dim/4` pairs follow the
/// row and the last `head_dim/4` the column, so a score is a part of the row offset plus a part of
/// the column offset: `O((rows + cols)·head_dim)`, not a sum per patch. Precondition: `head_dim`
/// a multiple of 4, `q` and `k` of that length.
pub fn grid_scores(
    theta: f64,
    (rows, cols): (usize, usize),
    at: (usize, usize),
    q: &[f64],
    k: &[f64],
) -> Vec<f64> {
    let freqs = inv_freq(q.len(), theta);
    let quarter = freqs.len();
    let part = |offset: f64, first: usize| -> f64 {
        freqs
            .iter()
            .enumerate()
            .map(|(i, w)| pair_term(q, k, first + i, offset * w))
            .sum()
    };
    let by_row: Vec<f64> = (0..rows).map(|r| part(r as f64 - at.0 as f64, 0)).collect();
    let by_col: Vec<f64> = (0..cols)
        .map(|c| part(c as f64 - at.1 as f64, quarter))
        .collect();
    by_row
        .iter()
        .flat_map(|r| by_col.iter().map(move |c| r + c))
        .collect()
}

/// The same scores when the grid is read row by row as one line of 1D RoPE over the whole head
/// ([`flattened_angles`], pairs `p` and `p + head_dim/2`): the patch in row `r` and column `c`
/// is position `r·cols + c`. The angles step along the positions ([`Phases`]); the query's are
/// subtracted by the angle-difference identities. Precondition: `head_dim` even, `q` and `k` of
/// that length.
pub fn flattened_grid_scores(
    theta: f64,
    (rows, cols): (usize, usize),
    at: (usize, usize),
    q: &[f64],
    k: &[f64],
) -> Vec<f64> {
    let half = q.len() / 2;
    let freqs = rope::inv_freq(q.len(), theta);
    let p0 = (at.0 * cols + at.1) as f64;
    let (s0, c0): (Vec<f64>, Vec<f64>) = freqs.iter().map(|w| (p0 * w).sin_cos()).unzip();
    // Per pair, the coefficients of cos Δ and sin Δ.
    let (cos_k, sin_k): (Vec<f64>, Vec<f64>) =
        (0..half).map(|p| pair_coefficients(q, k, p)).unzip();
    let mut phases = Phases::new(freqs);
    let mut out = Vec::with_capacity(rows * cols);
    for _ in 0..rows * cols {
        let (sin, cos) = (phases.sin(), phases.cos());
        let score: f64 = (0..half)
            .map(|p| {
                let cos_delta = cos[p] * c0[p] + sin[p] * s0[p];
                let sin_delta = sin[p] * c0[p] - cos[p] * s0[p];
                cos_k[p] * cos_delta + sin_k[p] * sin_delta
            })
            .sum();
        out.push(score);
        phases.advance();
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Rotates `x` by `angles` with `rotate_half` pairing, as `apply_rotary_pos_emb_vision` does.
    fn rotate(x: &[f64], angles: &[f64]) -> Vec<f64> {
        let half = x.len() / 2;
        let mut out = x.to_vec();
        for p in 0..half {
            let (s, c) = angles[p].sin_cos();
            out[p] = x[p] * c - x[p + half] * s;
            out[p + half] = x[p + half] * c + x[p] * s;
        }
        out
    }

    #[test]
    fn qwen25_vl_vision_heads_have_twenty_frequencies_per_axis() {
        // hidden_size 1280, 16 heads: head_dim 80, an embedding of 40, 20 frequencies.
        let f = inv_freq(80, 10_000.0);
        assert_eq!(f.len(), 20);
        assert_eq!(f[0], 1.0);
        assert!((f[19] - 10_000f64.powf(-19.0 / 20.0)).abs() < 1e-15);
        let a = angles(80, 10_000.0, 3, 5);
        assert_eq!(a.len(), 40);
        assert!((a[1] - 3.0 * f[1]).abs() < 1e-15 && (a[21] - 5.0 * f[1]).abs() < 1e-15);
    }

    #[test]
    fn the_score_is_the_dot_product_of_the_rotated_vectors() {
        let q: Vec<f64> = (0..8).map(|i| (i as f64 * 0.7).sin()).collect();
        let k: Vec<f64> = (0..8).map(|i| (i as f64 * 1.3).cos()).collect();
        let (qa, ka) = (angles(8, 100.0, 2, 7), angles(8, 100.0, 5, 1));
        let direct: f64 = rotate(&q, &qa)
            .iter()
            .zip(rotate(&k, &ka))
            .map(|(x, y)| x * y)
            .sum();
        assert!((score(&q, &k, &qa, &ka) - direct).abs() < 1e-12);
    }

    #[test]
    fn grid_scores_are_the_scores_patch_by_patch() {
        for (head_dim, theta, rows, cols, at, seed) in [
            (80, 10_000.0, 5, 7, (2, 6), 1),
            (4, 2.0, 1, 9, (0, 0), 2),
            (16, 1e6, 8, 1, (7, 0), 3),
        ] {
            let q = rope::random_vector(head_dim, seed);
            let k = rope::random_vector(head_dim, seed + 10);
            let grid = grid_scores(theta, (rows, cols), at, &q, &k);
            let flat = flattened_grid_scores(theta, (rows, cols), at, &q, &k);
            let qa = angles(head_dim, theta, at.0, at.1);
            let qf = flattened_angles(head_dim, theta, cols, at.0, at.1);
            for r in 0..rows {
                for c in 0..cols {
                    let direct = score(&q, &k, &qa, &angles(head_dim, theta, r, c));
                    assert!((grid[r * cols + c] - direct).abs() < 1e-9);
                    let direct = score(&q, &k, &qf, &flattened_angles(head_dim, theta, cols, r, c));
                    assert!((flat[r * cols + c] - direct).abs() < 1e-9);
                }
            }
        }
    }

    #[test]
    fn the_score_depends_only_on_the_offset_and_flattening_does_not_keep_it() {
        let q: Vec<f64> = (0..16).map(|i| 1.0 + i as f64 * 0.1).collect();
        let k = q.clone();
        let at = |r, c| angles(16, 10_000.0, r, c);
        let s1 = score(&q, &k, &at(1, 2), &at(3, 5));
        let s2 = score(&q, &k, &at(4, 0), &at(6, 3));
        assert!((s1 - s2).abs() < 1e-9, "{s1} vs {s2}");
        // Read row by row with 10 columns, the patch one row down is 10 positions away, the patch
        // one column right 1: the same 2D distance, different scores.
        let flat = |r, c| flattened_angles(16, 10_000.0, 10, r, c);
        let down = score(&q, &k, &flat(2, 2), &flat(3, 2));
        let right = score(&q, &k, &flat(2, 2), &flat(2, 3));
        assert!((down - right).abs() > 1e-3, "{down} vs {right}");
        // With q = k = all ones rows and columns turn alike (the same ω): one row down scores as
        // one column right, which flattening breaks.
        let ones = vec![1.0; 16];
        let a_down = score(&ones, &ones, &at(2, 2), &at(3, 2));
        let a_right = score(&ones, &ones, &at(2, 2), &at(2, 3));
        assert!((a_down - a_right).abs() < 1e-12, "{a_down} vs {a_right}");
        let f_down = score(&ones, &ones, &flat(2, 2), &flat(3, 2));
        let f_right = score(&ones, &ones, &flat(2, 2), &flat(2, 3));
        assert!((f_down - f_right).abs() > 1e-3, "{f_down} vs {f_right}");
    }
}
