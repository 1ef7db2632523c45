//! A toy self-attention layer that shows why transformers need positions.
//!
//! Scaled dot-product attention (Vaswani et al. 2017, §3.2.1) over a short sentence:
//!
//! ```text
//! x_i = e(token_i) [+ PE(i)]        q_i = W_q·x_i     k_j = W_k·x_j
//! weights[i][j] = softmax_j(q_i·k_j / √d)
//! ```
//!
//! Everything is fixed and deterministic so any sentence gives the same numbers every time: a
//! token's embedding `e` is drawn from a SplitMix64 stream (Steele, Lea & Flood 2014) seeded with
//! the FNV-1a hash of the lower-cased token; `W_q` and `W_k` from fixed seeds; `PE` is the paper's
//! sinusoidal encoding (interleaved, base 10000). Without `PE`, two equal tokens have equal inputs,
//! so their attention rows are identical, and reordering the sentence only permutes the matrix:
//! "dog bites man" and "man bites dog" get the same weights.

use super::sinusoidal::{Layout, SinusoidalParams, Spacing};

/// Width of the toy model.
pub const TOY_DIM: usize = 16;

/// The sentence the explainer starts with: two "dog"s, two "the"s.
pub const EXAMPLE: &str = "The brown dog chased the black dog";

/// Splits a sentence into lower-cased words; punctuation at either end of a word is dropped,
/// and pieces that are only punctuation disappear.
pub fn tokenize(sentence: &str) -> Vec<String> {
    sentence
        .split_whitespace()
        .map(|w| {
            w.trim_matches(|c: char| !c.is_alphanumeric())
                .to_lowercase()
        })
        .filter(|w| !w.is_empty())
        .collect()
}

/// 64-bit FNV-1a hash.
fn fnv1a(text: &str) -> u64 {
    text.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// SplitMix64: a tiny, well-mixed deterministic stream (enough for fixed toy weights).
pub(crate) struct SplitMix64(pub(crate) u64);

impl SplitMix64 {
    pub(crate) fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// Uniform in [−1, 1).
    pub(crate) fn next_signed(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 52) as f64 - 1.0
    }
}

/// The embedding of a token: `d` numbers uniform in [−1, 1) from its hash.
pub fn token_embedding(token: &str, d: usize) -> Vec<f64> {
    let mut rng = SplitMix64(fnv1a(token));
    (0..d).map(|_| rng.next_signed()).collect()
}

/// A fixed `d × d` projection, entries uniform in [−1, 1) scaled by `2/√d` (twice the usual
/// initialisation scale, so the toy's attention is peaked enough to read at a glance).
fn projection(seed: u64, d: usize) -> Vec<f64> {
    let mut rng = SplitMix64(seed);
    let scale = 2.0 / (d as f64).sqrt();
    (0..d * d).map(|_| rng.next_signed() * scale).collect()
}

/// The toy model's fixed projections `(W_q, W_k)`, each `d × d` row-major (see `projection`),
/// applied as `q = W_q·x` (row `r` of `W` dotted with `x`), as [`weights`] does.
pub fn projections(d: usize) -> (Vec<f64>, Vec<f64>) {
    (projection(0x5157, d), projection(0x4b45, d))
}

/// `m·v` for a row-major square `m` (row `r` dotted with `v`).
pub(crate) fn mat_vec(m: &[f64], v: &[f64]) -> Vec<f64> {
    m.chunks_exact(v.len())
        .map(|row| row.iter().zip(v).map(|(a, b)| a * b).sum())
        .collect()
}

/// The inputs `x_i`: token embeddings, plus the sinusoidal `PE(i)` when `with_position`.
pub fn inputs<S: AsRef<str>>(tokens: &[S], d: usize, with_position: bool) -> Vec<Vec<f64>> {
    let pe = SinusoidalParams {
        positions: tokens.len().max(1),
        dim: d,
        base: 10_000.0,
        layout: Layout::Interleaved,
        spacing: Spacing::Paper,
    };
    tokens
        .iter()
        .enumerate()
        .map(|(i, t)| {
            let mut x = token_embedding(t.as_ref(), d);
            if with_position {
                for (c, v) in x.iter_mut().enumerate() {
                    *v += pe.value(i, c);
                }
            }
            x
        })
        .collect()
}

/// Attention weights, row-major `n × n` (`n = tokens.len()`, at most
/// [`super::limits::TOKENS`]); each row sums to 1. `tokens` as from [`tokenize`] (`&[String]`)
/// or any `&[&str]`. Precondition: `d ≥ 1`.
pub fn weights<S: AsRef<str>>(tokens: &[S], d: usize, with_position: bool) -> Vec<f64> {
    let x = inputs(tokens, d, with_position);
    let (wq, wk) = projections(d);
    let q: Vec<Vec<f64>> = x.iter().map(|v| mat_vec(&wq, v)).collect();
    let k: Vec<Vec<f64>> = x.iter().map(|v| mat_vec(&wk, v)).collect();
    let scale = 1.0 / (d as f64).sqrt();
    let mut out = Vec::with_capacity(tokens.len() * tokens.len());
    for qi in &q {
        let scores: Vec<f64> = k
            .iter()
            .map(|kj| qi.iter().zip(kj).map(|(a, b)| a * b).sum::<f64>() * scale)
            .collect();
        let max = scores.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let exps: Vec<f64> = scores.iter().map(|s| (s - max).exp()).collect();
        let total: f64 = exps.iter().sum();
        out.extend(exps.iter().map(|e| e / total));
    }
    out
}

/// Pairs `(i, j)`, `i < j`, of tokens whose attention rows are identical (to 1e-12).
pub fn identical_rows(weights: &[f64], n: usize) -> Vec<(usize, usize)> {
    let row = |i: usize| &weights[i * n..(i + 1) * n];
    let mut out = Vec::new();
    for i in 0..n {
        for j in i + 1..n {
            if row(i)
                .iter()
                .zip(row(j))
                .all(|(a, b)| (a - b).abs() < 1e-12)
            {
                out.push((i, j));
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn toks(s: &str) -> Vec<String> {
        tokenize(s)
    }

    #[test]
    fn tokenizer_lowercases_and_strips_punctuation() {
        assert_eq!(
            toks("The dog, the DOG!  ..."),
            vec!["the", "dog", "the", "dog"]
        );
        assert!(toks("  ").is_empty());
    }

    #[test]
    fn rows_sum_to_one() {
        let t = toks(EXAMPLE);
        for with_position in [false, true] {
            let w = weights(&t, TOY_DIM, with_position);
            for row in w.chunks_exact(t.len()) {
                assert!((row.iter().sum::<f64>() - 1.0).abs() < 1e-12);
                assert!(row.iter().all(|v| (0.0..=1.0).contains(v)));
            }
        }
    }

    #[test]
    fn equal_tokens_attend_identically_only_without_position() {
        let t = toks(EXAMPLE); // the brown dog chased the black dog
        let n = t.len();
        let without = identical_rows(&weights(&t, TOY_DIM, false), n);
        assert_eq!(without, vec![(0, 4), (2, 6)], "the/the and dog/dog");
        assert!(identical_rows(&weights(&t, TOY_DIM, true), n).is_empty());
    }

    #[test]
    fn word_order_only_permutes_the_weights_without_position() {
        let a = toks("dog bites man");
        let b = toks("man bites dog");
        let perm = [2, 1, 0]; // a[i] = b[perm[i]]
        let (wa, wb) = (weights(&a, TOY_DIM, false), weights(&b, TOY_DIM, false));
        for i in 0..3 {
            for j in 0..3 {
                assert!((wa[i * 3 + j] - wb[perm[i] * 3 + perm[j]]).abs() < 1e-12);
            }
        }
        let (pa, pb) = (weights(&a, TOY_DIM, true), weights(&b, TOY_DIM, true));
        let differs = (0..3)
            .any(|i| (0..3).any(|j| (pa[i * 3 + j] - pb[perm[i] * 3 + perm[j]]).abs() > 1e-6));
        assert!(differs, "with positions, order matters");
    }
}
