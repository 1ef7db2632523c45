//! Cosine similarity between position vectors: `sim(a, b) = PE(a)·PE(b) / (|PE(a)|·|PE(b)|)`.
//!
//! Two paths. The general one forms every dot product (the Gram matrix, O(n²·d)). The fast one is
//! for encodings whose similarity depends only on the distance `a − b` — the sinusoidal encoding
//! with complete sin/cos pairs, where `PE(a)·PE(b) = Σ_k cos((a−b)·ω_k)` and every row has
//! `|PE|² = pairs` — so one row `g(r) = (1/pairs)·Σ_k cos(r·ω_k)` for `r = 0..n` is computed in
//! O(n·d) and the matrix is filled from it (a symmetric Toeplitz matrix).

use super::phase::Phases;
use super::sinusoidal::SinusoidalParams;

/// Cosine similarity of every pair of rows of the row-major `n × d` matrix `vectors`, row-major
/// `n × n`. A zero row has similarity 0 with everything (and 1 with itself, by convention, so the
/// diagonal is always 1).
pub fn cosine_matrix(vectors: &[f64], n: usize, d: usize) -> Vec<f64> {
    let norms: Vec<f64> = (0..n)
        .map(|i| dot(&vectors[i * d..(i + 1) * d], &vectors[i * d..(i + 1) * d]).sqrt())
        .collect();
    let mut out = vec![0.0; n * n];
    for i in 0..n {
        out[i * n + i] = 1.0;
        for j in 0..i {
            let denom = norms[i] * norms[j];
            let s = if denom > 0.0 {
                (dot(&vectors[i * d..(i + 1) * d], &vectors[j * d..(j + 1) * d]) / denom)
                    .clamp(-1.0, 1.0)
            } else {
                0.0
            };
            out[i * n + j] = s;
            out[j * n + i] = s;
        }
    }
    out
}

/// `a · b` over their common length, in four interleaved partial sums: one running sum waits for
/// each addition before the next can start, four let them overlap (the learned similarity matrix,
/// 128 rows of 1024, went from about 10 to 5.5 ms in the browser). It differs from a left-to-right
/// sum by round-off only.
pub fn dot(a: &[f64], b: &[f64]) -> f64 {
    let n = a.len().min(b.len());
    let (a4, b4) = (a[..n].chunks_exact(4), b[..n].chunks_exact(4));
    let tail: f64 = a4
        .remainder()
        .iter()
        .zip(b4.remainder())
        .map(|(x, y)| x * y)
        .sum();
    let mut s = [0.0; 4];
    for (x, y) in a4.zip(b4) {
        s[0] += x[0] * y[0];
        s[1] += x[1] * y[1];
        s[2] += x[2] * y[2];
        s[3] += x[3] * y[3];
    }
    (s[0] + s[1]) + (s[2] + s[3]) + tail
}

/// Fills the symmetric Toeplitz matrix `m[i][j] = g[|i − j|]` (row-major `n × n`, `n = g.len()`)
/// into `out` (resized, allocation reused).
pub fn fill_from_distance(g: &[f64], out: &mut Vec<f64>) {
    let n = g.len();
    out.clear();
    out.resize(n * n, 0.0);
    for (i, row) in out.chunks_exact_mut(n.max(1)).enumerate() {
        // Left of the diagonal: g[i], g[i−1], …, g[1]; from it rightwards: g[0], g[1], ….
        for (j, cell) in row[..i].iter_mut().enumerate() {
            *cell = g[i - j];
        }
        row[i..].copy_from_slice(&g[..n - i]);
    }
}

/// `Σ_ω cos(r·ω)` over `omegas` for `r = 0..n`, with the cosines stepped along `r` by angle
/// addition ([`Phases`], re-anchored exactly every 64 steps): no `cos` is evaluated per entry.
fn cos_sums(omegas: Vec<f64>, n: usize) -> Vec<f64> {
    let mut phases = Phases::new(omegas);
    (0..n)
        .map(|_| {
            let sum = phases.cos().iter().sum();
            phases.advance();
            sum
        })
        .collect()
}

/// The sinusoidal similarity as a function of distance: `g(r) = (1/pairs)·Σ_k cos(r·ω_k)` for
/// `r = 0..n`. Exact when [`SinusoidalParams::is_shift_invariant`] (then every pair has both its
/// sine and its cosine; zero padding contributes nothing to dot products or norms).
pub fn sinusoidal_by_distance(p: &SinusoidalParams, n: usize) -> Vec<f64> {
    let omegas: Vec<f64> = (0..p.pairs()).map(|k| p.pair_omega(k)).collect();
    let count = omegas.len().max(1) as f64;
    cos_sums(omegas, n).iter().map(|v| v / count).collect()
}

/// The sinusoidal encoding's `positions × positions` similarity matrix, written into `out`.
///
/// Shift-invariant encodings take the Toeplitz fast path. An odd `d` with paper spacing has
/// `h = ⌊d/2⌋` complete pairs plus one lone sine of frequency `ω_h`, so, exactly,
///
/// ```text
/// PE(a)·PE(b) = Σ_{k<h} cos((a−b)ω_k) + sin(aω_h)·sin(bω_h)
/// |PE(a)|²    = h + sin²(aω_h)
/// ```
///
/// — still O(n·d + n²), never the O(n²·d) Gram matrix.
pub fn sinusoidal_matrix_into(p: &SinusoidalParams, out: &mut Vec<f64>) {
    let n = p.positions;
    if p.is_shift_invariant() {
        fill_from_distance(&sinusoidal_by_distance(p, n), out);
        return;
    }
    let h = p.dim / 2;
    let omegas: Vec<f64> = (0..h).map(|k| p.pair_omega(k)).collect();
    let sums = cos_sums(omegas, n);
    let lone: Vec<f64> = (0..n).map(|a| (a as f64 * p.pair_omega(h)).sin()).collect();
    let inv_norm: Vec<f64> = lone
        .iter()
        .map(|s| 1.0 / (h as f64 + s * s).sqrt())
        .collect();
    out.clear();
    out.resize(n * n, 0.0);
    // Row by row (streaming writes), multiplications only. Left of the diagonal the distance runs
    // a, a−1, …, 1 (the sums reversed), from it on 0, 1, 2, …: two zipped runs, no index checks.
    for (a, row) in out.chunks_exact_mut(n.max(1)).enumerate() {
        let (la, ia) = (lone[a], inv_norm[a]);
        let (left, right) = row.split_at_mut(a);
        let cell = |dist_sum: f64, lb: f64, ib: f64| {
            // iₐ·i_b before the dot product: exactly symmetric in a and b.
            ((dist_sum + la * lb) * (ia * ib)).clamp(-1.0, 1.0)
        };
        for (((c, &s), &lb), &ib) in left
            .iter_mut()
            .zip(sums[1..=a].iter().rev())
            .zip(&lone[..a])
            .zip(&inv_norm[..a])
        {
            *c = cell(s, lb, ib);
        }
        for (((c, &s), &lb), &ib) in right
            .iter_mut()
            .zip(&sums[..n - a])
            .zip(&lone[a..])
            .zip(&inv_norm[a..])
        {
            *c = cell(s, lb, ib);
        }
        row[a] = 1.0;
    }
}

/// `similarity(PE(a), PE(a + r))` for `a = 0..positions − r`: one diagonal of
/// [`sinusoidal_matrix_into`], in O(positions + d) by the same identities (the shared cosine sum
/// `Σ_{k<h} cos(r·ω_k)` once, then the lone sine's term and the norms per position), not a row of
/// `d` values per position. Empty when `r ≥ positions`. Precondition: `d ≥ 2` (`limits::DIM`), so
/// no row is zero.
pub fn sinusoidal_diagonal(p: &SinusoidalParams, r: usize) -> Vec<f64> {
    let n = p.positions;
    if r >= n {
        return Vec::new();
    }
    if p.is_shift_invariant() {
        let pairs = p.pairs();
        let sum: f64 = (0..pairs).map(|k| (r as f64 * p.pair_omega(k)).cos()).sum();
        return vec![sum / pairs.max(1) as f64; n - r];
    }
    let h = p.dim / 2;
    let shared: f64 = (0..h).map(|k| (r as f64 * p.pair_omega(k)).cos()).sum();
    let lone = |a: usize| (a as f64 * p.pair_omega(h)).sin();
    (0..n - r)
        .map(|a| {
            let (la, lb) = (lone(a), lone(a + r));
            let norms = (h as f64 + la * la).sqrt() * (h as f64 + lb * lb).sqrt();
            ((shared + la * lb) / norms).clamp(-1.0, 1.0)
        })
        .collect()
}

/// RoPE's similarity matrix for `n` positions: the cosine similarity of the rotations of one fixed
/// vector `u = (1, …, 1)` to each position. A rotation keeps each pair's length, so
/// `cos(R_m u, R_n u) = (1/(d/2))·Σ_i cos((m−n)·θ_i)` — the same distance-only function as the
/// sinusoidal encoding with paper spacing, filled by the fast path. Precondition: `d` even.
pub fn rope_matrix(d: usize, base: f64, n: usize) -> Vec<f64> {
    let mut out = Vec::new();
    rope_matrix_into(d, base, n, &mut out);
    out
}

/// [`rope_matrix`] written into `out` (resized, allocation reused).
pub fn rope_matrix_into(d: usize, base: f64, n: usize, out: &mut Vec<f64>) {
    let p = SinusoidalParams {
        positions: n,
        dim: d,
        base,
        layout: super::sinusoidal::Layout::Interleaved,
        spacing: super::sinusoidal::Spacing::Paper,
    };
    fill_from_distance(&sinusoidal_by_distance(&p, n), out);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::sinusoidal::{Layout, Spacing};

    #[test]
    fn toeplitz_fill_puts_distance_on_diagonals() {
        let mut m = Vec::new();
        fill_from_distance(&[1.0, 0.5, 0.25], &mut m);
        assert_eq!(m, vec![1.0, 0.5, 0.25, 0.5, 1.0, 0.5, 0.25, 0.5, 1.0]);
        fill_from_distance(&[1.0], &mut m);
        assert_eq!(m, vec![1.0]);
    }

    #[test]
    fn fast_and_general_paths_agree() {
        for layout in [Layout::Interleaved, Layout::Half] {
            for spacing in [Spacing::Paper, Spacing::Fairseq] {
                for dim in [2, 3, 8, 9, 64] {
                    let p = SinusoidalParams {
                        positions: 40,
                        dim,
                        base: 100.0,
                        layout,
                        spacing,
                    };
                    let general = cosine_matrix(&p.table(), p.positions, p.dim);
                    let mut fast = Vec::new();
                    sinusoidal_matrix_into(&p, &mut fast);
                    for (a, b) in fast.iter().zip(&general) {
                        assert!((a - b).abs() < 1e-12, "{p:?}: {a} vs {b}");
                    }
                }
            }
        }
    }

    #[test]
    fn diagonals_equal_the_rows_dot_products() {
        for layout in [Layout::Interleaved, Layout::Half] {
            for spacing in [Spacing::Paper, Spacing::Fairseq] {
                for dim in [2, 3, 8, 9, 65] {
                    let p = SinusoidalParams {
                        positions: 30,
                        dim,
                        base: 50.0,
                        layout,
                        spacing,
                    };
                    let general = cosine_matrix(&p.table(), p.positions, p.dim);
                    for r in [0, 1, 7, 29] {
                        let diagonal = sinusoidal_diagonal(&p, r);
                        assert_eq!(diagonal.len(), p.positions - r);
                        for (a, v) in diagonal.iter().enumerate() {
                            let want = general[a * p.positions + a + r];
                            assert!((v - want).abs() < 1e-12, "{p:?} r={r} a={a}: {v} vs {want}");
                        }
                    }
                    assert!(sinusoidal_diagonal(&p, 30).is_empty());
                }
            }
        }
    }

    #[test]
    fn rope_fast_path_equals_rotated_vectors() {
        use crate::math::rope::{Layout, inv_freq, rotate};
        let (d, n) = (16, 30);
        let theta = inv_freq(d, 500.0);
        let ones = vec![1.0; d];
        let rotated: Vec<f64> = (0..n)
            .flat_map(|m| rotate(&ones, m as f64, &theta, Layout::Half))
            .collect();
        let general = cosine_matrix(&rotated, n, d);
        for (a, b) in rope_matrix(d, 500.0, n).iter().zip(&general) {
            assert!((a - b).abs() < 1e-12, "{a} vs {b}");
        }
    }

    #[test]
    fn zero_rows_have_zero_similarity_but_unit_diagonal() {
        let m = cosine_matrix(&[0.0, 0.0, 1.0, 0.0], 2, 2);
        assert_eq!(m, vec![1.0, 0.0, 0.0, 1.0]);
    }
}
