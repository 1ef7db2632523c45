//! NoPE: no positional encoding at all. A decoder-only transformer without position vectors still
//! learns positions, because the causal mask itself leaks them (Haviv et al., "Transformer
//! Language Models without Positional Encodings Still Learn Positional Information", 2022, whose
//! probes read the absolute position from a NoPE model's hidden states; Kazemnejad et al., "The
//! Impact of Positional Encoding on Length Generalization in Transformers", 2023, Theorem 1: a
//! first causal layer can recover the absolute position exactly, from the causal mask together
//! with a marker only the first token carries, `<bos>`, attended to uniformly; the construction
//! needs that marker, not the mask alone).
//!
//! The simplest leak: with equal scores, query `i` spreads its attention uniformly over the
//! `i + 1` keys it may see ([`uniform_weight`]), so its output is the mean of `i + 1` value
//! vectors. For independent values of variance 1 that mean has variance `1/(i + 1)`: the output's
//! size shrinks with the position, and the next layer can read the position from it (Chi et al.,
//! "Latent Positional Information is in the Self-Attention Variance of Transformer Language Models
//! Without Positional Embeddings", 2023, make this argument). [`output_variance_into`] simulates
//! it.

use super::learned;

/// The weight `1/(query + 1)` a causal query gives each of the `query + 1` keys it sees when all
/// scores are equal (`softmax` of equal scores over keys `0..=query`).
pub fn uniform_weight(query: usize) -> f64 {
    1.0 / (query as f64 + 1.0)
}

/// The simulated second moment of uniform causal attention's output at each position `0..len`.
///
/// Values `v_j ∈ R^dim`, `j = 0..len`, have iid `N(0, 1)` coordinates: `v_j` is row `j` of the
/// seeded learned table with σ = 1 ([`learned::row_into`]`(seed, 1, j, dim)`), so the same seed
/// gives the same values everywhere. Query `i` attends uniformly to keys `0..=i`, so its output is
/// `o_i = (1/(i + 1))·Σ_{j≤i} v_j`, and
///
/// ```text
/// out[i] = (1/dim)·Σ_c o_i[c]²,    E[out[i]] = 1/(i + 1)
/// ```
///
/// (its standard deviation is `√(2/dim)/(i + 1)`). A running sum of the values makes it
/// O(len·dim). `out` is cleared and gets `len` values, all finite and non-negative; `dim = 0`
/// gives zeros.
pub fn output_variance_into(seed: u64, len: usize, dim: usize, out: &mut Vec<f64>) {
    let mut run = VarianceRun::new(seed, len, dim);
    run.out = std::mem::take(out);
    run.out.clear();
    run.advance(usize::MAX);
    *out = run.out;
}

/// [`output_variance_into`] a slice of positions at a time, so a long sequence (2048 × 1024
/// normal draws, ~20 ms in the browser) can be spread over several browser tasks.
pub struct VarianceRun {
    seed: u64,
    len: usize,
    dim: usize,
    /// `Σ_{j<next} v_j`, and the value row being added.
    sum: Vec<f64>,
    value: Vec<f64>,
    out: Vec<f64>,
}

impl VarianceRun {
    /// The run for `len` positions of width `dim`, none done yet.
    pub fn new(seed: u64, len: usize, dim: usize) -> VarianceRun {
        VarianceRun {
            seed,
            len,
            dim,
            sum: vec![0.0; dim],
            value: Vec::with_capacity(dim),
            out: Vec::with_capacity(len),
        }
    }

    /// Adds up to `rows` more positions; true once all `len` are done.
    pub fn advance(&mut self, rows: usize) -> bool {
        let end = self.out.len().saturating_add(rows).min(self.len);
        for i in self.out.len()..end {
            if self.dim == 0 {
                self.out.push(0.0);
                continue;
            }
            learned::row_into(self.seed, 1.0, i, self.dim, &mut self.value);
            self.sum
                .iter_mut()
                .zip(&self.value)
                .for_each(|(s, v)| *s += v);
            let mean_square: f64 = self.sum.iter().map(|s| s * s).sum::<f64>() / self.dim as f64;
            // o_i = sum/(i + 1), so (1/dim)·Σ o_i² = mean_square/(i + 1)².
            self.out
                .push(mean_square * uniform_weight(i) * uniform_weight(i));
        }
        self.out.len() == self.len
    }

    /// Takes the values of every position done so far (all of them once
    /// [`VarianceRun::advance`] has said so), leaving none.
    pub fn take_values(&mut self) -> Vec<f64> {
        std::mem::take(&mut self.out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_run_in_slices_gives_the_same_values_to_the_bit() {
        for (len, dim) in [(0, 3), (5, 0), (9, 1), (40, 7)] {
            let mut whole = vec![9.0; 3];
            output_variance_into(5, len, dim, &mut whole);
            let mut run = VarianceRun::new(5, len, dim);
            while !run.advance(3) {}
            let sliced = run.take_values();
            assert_eq!(sliced.len(), len);
            assert!(
                whole
                    .iter()
                    .zip(&sliced)
                    .all(|(a, b)| a.to_bits() == b.to_bits())
            );
        }
    }

    #[test]
    fn uniform_weights_are_one_over_the_keys_seen() {
        assert_eq!(uniform_weight(0), 1.0);
        assert_eq!(uniform_weight(3), 0.25);
        assert!(uniform_weight(usize::MAX) > 0.0);
    }

    #[test]
    fn the_variance_falls_as_one_over_i_plus_one() {
        let dim = 4096;
        let mut out = Vec::new();
        output_variance_into(11, 64, dim, &mut out);
        assert_eq!(out.len(), 64);
        for (i, &v) in out.iter().enumerate() {
            let want = uniform_weight(i);
            let standard_error = (2.0 / dim as f64).sqrt() * want;
            assert!(
                (v - want).abs() < 5.0 * standard_error,
                "{i}: {v} vs {want} ± {standard_error}"
            );
        }
        let mut again = vec![3.0];
        output_variance_into(11, 64, dim, &mut again);
        assert_eq!(out, again, "same seed, same values");
        output_variance_into(12, 64, dim, &mut again);
        assert_ne!(out, again);
    }

    #[test]
    fn the_first_output_is_the_first_value() {
        let mut out = Vec::new();
        output_variance_into(5, 3, 7, &mut out);
        let mut v = Vec::new();
        learned::row_into(5, 1.0, 0, 7, &mut v);
        let want = v.iter().map(|x| x * x).sum::<f64>() / 7.0;
        assert!((out[0] - want).abs() < 1e-15);
        output_variance_into(5, 4, 0, &mut out);
        assert_eq!(out, [0.0; 4]);
        output_variance_into(5, 0, 8, &mut out);
        assert!(out.is_empty());
    }
}
