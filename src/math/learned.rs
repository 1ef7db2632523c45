//! Learned absolute position embeddings (as in BERT and GPT-2): a trainable table of `max_len`
//! vectors. Before training it is random; here a seeded `N(0, σ²)` table stands in for it (the
//! page uses σ = 0.02, Hugging Face transformers' `initializer_range` for BERT and GPT-2; OpenAI's
//! original GPT-2 code used 0.01). Its defining weakness: a position at or beyond `max_len` has no row at all.
//!
//! Random access by row: row `pos` of seed `seed` is drawn from its own Xoshiro256++ stream
//! (`rand::rngs::Xoshiro256PlusPlus::seed_from_u64`) seeded with [`row_seed`]`(seed, pos)`, with
//! `rand_distr::Normal`. So a figure can draw only the rows it paints ([`row_into`]), a row does
//! not depend on how many rows the table has, and the same seed gives the same rows in the
//! browser and the CLI.

use rand::SeedableRng;
use rand::rngs::Xoshiro256PlusPlus;
use rand_distr::{Distribution, Normal};

/// 2^64 / φ, odd: the Weyl increment of SplitMix64 (Steele, Lea & Flood 2014).
const GOLDEN: u64 = 0x9E37_79B9_7F4A_7C15;

/// SplitMix64's output function (Steele, Lea & Flood, "Fast splittable pseudorandom number
/// generators", 2014; the `mix64` variant 13 of Stafford): a bijection of `u64` that scatters
/// nearby inputs.
fn splitmix64(x: u64) -> u64 {
    let mut z = x.wrapping_add(GOLDEN);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The seed of row `pos`'s stream: `splitmix64(seed ^ GOLDEN·(pos + 1))` (wrapping arithmetic).
/// For one `seed`, distinct positions get distinct stream seeds: `pos ↦ GOLDEN·(pos + 1)` is a
/// bijection mod 2^64 (GOLDEN is odd), as are the xor and SplitMix64.
pub fn row_seed(seed: u64, pos: usize) -> u64 {
    splitmix64(seed ^ GOLDEN.wrapping_mul((pos as u64).wrapping_add(1)))
}

/// `N(0, sigma²)`, or `None` (all zeros) when `sigma` is not finite or not positive.
fn normal(sigma: f64) -> Option<Normal<f64>> {
    (sigma.is_finite() && sigma > 0.0)
        .then(|| Normal::new(0.0, sigma).ok())
        .flatten()
}

/// Appends row `pos` (`dim` values) to `out`.
fn extend_row(seed: u64, sigma: f64, pos: usize, dim: usize, out: &mut Vec<f64>) {
    match normal(sigma) {
        Some(normal) => {
            let mut rng = Xoshiro256PlusPlus::seed_from_u64(row_seed(seed, pos));
            out.extend((0..dim).map(|_| normal.sample(&mut rng)));
        }
        None => out.resize(out.len() + dim, 0.0),
    }
}

/// Row `pos` of the seeded table: `dim` draws of `N(0, sigma²)` (`rand_distr::Normal`) from
/// Xoshiro256++ seeded with [`row_seed`]`(seed, pos)`. A `sigma` that is not finite or not
/// positive gives zeros. `out` is cleared and filled with `dim` values (allocation reused).
pub fn row_into(seed: u64, sigma: f64, pos: usize, dim: usize, out: &mut Vec<f64>) {
    out.clear();
    extend_row(seed, sigma, pos, dim, out);
}

/// The `positions × positions` cosine similarities of rows `0..positions` of the seeded table,
/// row-major: `S[a][b] = r_a·r_b / (|r_a|·|r_b|)`, clamped to `[−1, 1]`. Symmetric (each pair is
/// computed once, from the rows scaled to unit length); the diagonal is 1, and a zero row (`sigma`
/// not positive, or `dim = 0`) is similar to nothing: 0 off the diagonal, 1 on it. `out` is
/// cleared and filled (allocation reused). O(positions·dim + positions²·dim).
pub fn cosine_similarity_into(
    seed: u64,
    sigma: f64,
    positions: usize,
    dim: usize,
    out: &mut Vec<f64>,
) {
    let mut unit = Vec::with_capacity(positions.saturating_mul(dim));
    for pos in 0..positions {
        let start = unit.len();
        extend_row(seed, sigma, pos, dim, &mut unit);
        let row = &mut unit[start..];
        let norm = row.iter().map(|x| x * x).sum::<f64>().sqrt();
        if norm > 0.0 && norm.is_finite() {
            row.iter_mut().for_each(|x| *x /= norm);
        } else {
            row.fill(0.0);
        }
    }
    out.clear();
    out.resize(positions.saturating_mul(positions), 0.0);
    let n = positions;
    for a in 0..n {
        out[a * n + a] = 1.0;
    }
    // No rows when dim = 0: then everything off the diagonal stays 0.
    let rows: Vec<&[f64]> = unit.chunks_exact(dim.max(1)).collect();
    for (a, ra) in rows.iter().enumerate() {
        for (b, rb) in rows.iter().enumerate().skip(a + 1) {
            let s = super::similarity::dot(ra, rb).clamp(-1.0, 1.0);
            out[a * n + b] = s;
            out[b * n + a] = s;
        }
    }
}

/// A seeded learned-position table.
#[derive(Clone, Debug, PartialEq)]
pub struct LearnedTable {
    max_len: usize,
    dim: usize,
    data: Vec<f64>,
}

impl LearnedTable {
    /// A `max_len × dim` table of `N(0, sigma²)` draws from `seed`: row `p` is
    /// [`row_into`]`(seed, sigma, p, dim)`. A non-finite or non-positive `sigma` gives all zeros.
    pub fn new(max_len: usize, dim: usize, sigma: f64, seed: u64) -> LearnedTable {
        let mut data = Vec::with_capacity(max_len.saturating_mul(dim));
        for pos in 0..max_len {
            extend_row(seed, sigma, pos, dim, &mut data);
        }
        LearnedTable { max_len, dim, data }
    }

    /// The embedding of `pos`, or `None` when `pos ≥ max_len`: the table has no such row.
    pub fn row(&self, pos: usize) -> Option<&[f64]> {
        (pos < self.max_len).then(|| &self.data[pos * self.dim..(pos + 1) * self.dim])
    }

    /// The whole table, row-major `max_len × dim`.
    pub fn data(&self) -> &[f64] {
        &self.data
    }

    /// Number of rows.
    pub fn max_len(&self) -> usize {
        self.max_len
    }

    /// Width.
    pub fn dim(&self) -> usize {
        self.dim
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_shorter_row_is_a_prefix_of_the_longer_one() {
        // The extrapolation figure draws only column 0 of each row this way.
        let (mut short, mut long) = (Vec::new(), Vec::new());
        for pos in [0, 1, 511, 4095] {
            row_into(7, 0.02, pos, 1, &mut short);
            row_into(7, 0.02, pos, 1024, &mut long);
            assert_eq!(short[..], long[..1], "row {pos}");
        }
    }

    #[test]
    fn same_seed_same_table_and_no_row_past_the_end() {
        let a = LearnedTable::new(16, 8, 1.0, 7);
        assert_eq!(a, LearnedTable::new(16, 8, 1.0, 7));
        assert_ne!(a, LearnedTable::new(16, 8, 1.0, 8));
        assert!(a.row(15).is_some());
        assert!(a.row(16).is_none());
        let mean = a.data().iter().sum::<f64>() / 128.0;
        assert!(mean.abs() < 0.4, "{mean}");
        for sigma in [f64::NAN, 0.0, -1.0, f64::INFINITY] {
            let t = LearnedTable::new(4, 4, sigma, 1);
            assert_eq!(t.data(), &[0.0; 16], "{sigma}");
        }
    }

    #[test]
    fn rows_are_random_access_and_independent_of_the_table_size() {
        let t = LearnedTable::new(12, 5, 0.5, 99);
        let mut row = vec![1.0; 40];
        for pos in 0..12 {
            row_into(99, 0.5, pos, 5, &mut row);
            assert_eq!(t.row(pos), Some(row.as_slice()), "{pos}");
        }
        assert_eq!(&LearnedTable::new(3, 5, 0.5, 99).data(), &&t.data()[..15]);
        // Neighbouring rows and seeds differ; a row past any table exists.
        let mut other = Vec::new();
        row_into(99, 0.5, 1, 5, &mut other);
        assert_ne!(t.row(0).unwrap(), other.as_slice());
        row_into(100, 0.5, 0, 5, &mut other);
        assert_ne!(t.row(0).unwrap(), other.as_slice());
        row_into(0, 1.0, usize::MAX, 3, &mut other);
        assert_eq!(other.len(), 3);
        assert!(other.iter().all(|x| x.is_finite()));
        // σ scales the same draws.
        row_into(5, 2.0, 4, 6, &mut row);
        row_into(5, 1.0, 4, 6, &mut other);
        for (a, b) in row.iter().zip(&other) {
            assert!((a - 2.0 * b).abs() < 1e-12);
        }
    }

    #[test]
    fn cosine_similarity_matches_the_general_matrix() {
        let (n, d) = (9, 6);
        let t = LearnedTable::new(n, d, 1.0, 3);
        let want = super::super::similarity::cosine_matrix(t.data(), n, d);
        let mut got = vec![5.0; 2];
        cosine_similarity_into(3, 1.0, n, d, &mut got);
        assert_eq!(got.len(), n * n);
        for (a, (g, w)) in got.iter().zip(&want).enumerate() {
            assert!((g - w).abs() < 1e-12, "{a}: {g} vs {w}");
        }
        for a in 0..n {
            assert_eq!(got[a * n + a], 1.0);
            for b in 0..n {
                assert_eq!(got[a * n + b], got[b * n + a]);
            }
        }
        // Zero rows: identity.
        cosine_similarity_into(3, 0.0, 3, 4, &mut got);
        assert_eq!(got, [1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0]);
        cosine_similarity_into(3, 1.0, 2, 0, &mut got);
        assert_eq!(got, [1.0, 0.0, 0.0, 1.0]);
        cosine_similarity_into(3, 1.0, 0, 4, &mut got);
        assert!(got.is_empty());
    }
}
