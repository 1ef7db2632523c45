//! "Why not just add the position?" — the score of one query/key pair in the toy model of
//! [`super::attention`], with the position added to the input (Vaswani et al. 2017, §3.5) and
//! with RoPE (Su et al. 2021, §3.2).
//!
//! Added to the input, the position mixes into every product. Expanding the score
//! (Ke, He & Liu 2021, "Rethinking positional encoding in language pre-training", §3.1) gives
//! four terms, only one of which is about the words alone:
//!
//! ```text
//! (W_q(x_a + p_m))·(W_k(x_b + p_n))/√d
//!   = (W_q x_a)·(W_k x_b)/√d     content·content
//!   + (W_q x_a)·(W_k p_n)/√d     content·position
//!   + (W_q p_m)·(W_k x_b)/√d     position·content
//!   + (W_q p_m)·(W_k p_n)/√d     position·position
//! ```
//!
//! (Ke et al. write row vectors, `(x + p)·W`; the toy model applies `W` on the left, `q = W_q·x`,
//! as [`super::attention::weights`] does, which is the same with `W` transposed.) The mixed terms
//! and the position·position term depend on `m` and `n` themselves, not only on `m − n`. RoPE
//! instead rotates the projected content, `(R_m W_q x_a)·(R_n W_k x_b)/√d`, which depends on
//! `m − n` only (RoFormer eq. 16).
//!
//! Everything is the toy model: width [`TOY_DIM`], embeddings [`token_embedding`], projections
//! [`projections`], the paper's sinusoidal `p` (interleaved, base 10000, paper spacing) and RoPE
//! with `inv_freq(TOY_DIM, 10000)`, interleaved.

use super::attention::{TOY_DIM, mat_vec, projections, token_embedding};
use super::rope::{self, Layout};
use super::sinusoidal::{SinusoidalParams, Spacing};

/// The four terms of an additive-position score `(W_q(x_a + p_m))·(W_k(x_b + p_n))/√d`, split as
/// content·content + content·position + position·content + position·position (Ke, He & Liu 2021,
/// "Rethinking positional encoding in language pre-training", §3.1; Vaswani et al. 2017 add the
/// PE to the input, §3.5).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Terms {
    /// `(W_q x_a)·(W_k x_b)/√d`: the words alone.
    pub content_content: f64,
    /// `(W_q x_a)·(W_k p_n)/√d`: the query word and the key's position.
    pub content_position: f64,
    /// `(W_q p_m)·(W_k x_b)/√d`: the query's position and the key word.
    pub position_content: f64,
    /// `(W_q p_m)·(W_k p_n)/√d`: the positions alone.
    pub position_position: f64,
}

impl Terms {
    /// The whole pre-softmax score: the sum of the four terms.
    pub fn total(&self) -> f64 {
        self.content_content
            + self.content_position
            + self.position_content
            + self.position_position
    }
}

/// A word read as [`super::attention::tokenize`] reads one (lower-cased, punctuation at either
/// end dropped), so `Dog,` is the token `dog` of the attention figure.
fn token(word: &str) -> String {
    word.trim_matches(|c: char| !c.is_alphanumeric())
        .to_lowercase()
}

/// The sinusoidal `PE(pos)` of the toy model, as `attention::inputs` adds it.
fn position(pos: usize) -> Vec<f64> {
    SinusoidalParams {
        positions: pos + 1,
        dim: TOY_DIM,
        base: 10_000.0,
        layout: Layout::Interleaved,
        spacing: Spacing::Paper,
    }
    .row(pos)
}

/// The four terms for query token `query` at position `m` and key token `key` at position `n`
/// (any words, read as the attention figure's tokenizer reads them; embeddings
/// [`token_embedding`] at [`TOY_DIM`]). `total()` is the pre-softmax score that
/// [`super::attention::weights`] computes with positions on, up to rounding.
pub fn additive_terms(query: &str, m: usize, key: &str, n: usize) -> Terms {
    let (wq, wk) = projections(TOY_DIM);
    let qc = mat_vec(&wq, &token_embedding(&token(query), TOY_DIM));
    let qp = mat_vec(&wq, &position(m));
    let kc = mat_vec(&wk, &token_embedding(&token(key), TOY_DIM));
    let kp = mat_vec(&wk, &position(n));
    let scale = 1.0 / (TOY_DIM as f64).sqrt();
    Terms {
        content_content: rope::dot(&qc, &kc) * scale,
        content_position: rope::dot(&qc, &kp) * scale,
        position_content: rope::dot(&qp, &kc) * scale,
        position_position: rope::dot(&qp, &kp) * scale,
    }
}

/// The RoPE score of the same pair: `(R_m W_q x_a)·(R_n W_k x_b)/√d` (RoFormer eq. 16), with
/// [`rope::inv_freq`]`(TOY_DIM, 10000)` and the interleaved pairing. No position is added to the
/// input; the score depends on `m − n` only (exactly so in exact arithmetic).
pub fn rope_score(query: &str, m: usize, key: &str, n: usize) -> f64 {
    let (wq, wk) = projections(TOY_DIM);
    let theta = rope::inv_freq(TOY_DIM, 10_000.0);
    let q = mat_vec(&wq, &token_embedding(&token(query), TOY_DIM));
    let k = mat_vec(&wk, &token_embedding(&token(key), TOY_DIM));
    let qm = rope::rotate(&q, m as f64, &theta, Layout::Interleaved);
    let kn = rope::rotate(&k, n as f64, &theta, Layout::Interleaved);
    rope::dot(&qm, &kn) / (TOY_DIM as f64).sqrt()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::attention::{self, EXAMPLE};

    #[test]
    fn total_equals_the_direct_score() {
        let (wq, wk) = projections(TOY_DIM);
        for (a, m, b, n) in [
            ("dog", 2, "the", 0),
            ("the", 0, "the", 4),
            ("x", 9, "y", 300),
        ] {
            let add = |x: Vec<f64>, p: Vec<f64>| -> Vec<f64> {
                x.iter().zip(&p).map(|(u, v)| u + v).collect()
            };
            let q = mat_vec(&wq, &add(token_embedding(a, TOY_DIM), position(m)));
            let k = mat_vec(&wk, &add(token_embedding(b, TOY_DIM), position(n)));
            let direct = rope::dot(&q, &k) / (TOY_DIM as f64).sqrt();
            let total = additive_terms(a, m, b, n).total();
            assert!(
                (total - direct).abs() < 1e-12,
                "{a}@{m} {b}@{n}: {total} vs {direct}"
            );
        }
    }

    #[test]
    fn totals_are_the_scores_behind_the_attention_figure() {
        let tokens = attention::tokenize(EXAMPLE);
        let n = tokens.len();
        let w = attention::weights(&tokens, TOY_DIM, true);
        for i in 0..n {
            let scores: Vec<f64> = (0..n)
                .map(|j| additive_terms(&tokens[i], i, &tokens[j], j).total())
                .collect();
            let max = scores.iter().copied().fold(f64::NEG_INFINITY, f64::max);
            let sum: f64 = scores.iter().map(|s| (s - max).exp()).sum();
            for j in 0..n {
                let p = (scores[j] - max).exp() / sum;
                assert!((p - w[i * n + j]).abs() < 1e-12, "({i}, {j})");
            }
        }
        // The raw words of the sentence read as its tokens.
        assert_eq!(
            additive_terms("The", 0, "dog,", 2),
            additive_terms("the", 0, "dog", 2)
        );
    }

    #[test]
    fn content_content_ignores_positions() {
        let base = additive_terms("dog", 0, "chased", 0).content_content;
        for (m, n) in [(1, 0), (5, 9), (100, 3), (1000, 1000)] {
            assert_eq!(additive_terms("dog", m, "chased", n).content_content, base);
        }
        // At m = n = 0 RoPE is the identity: its score is the content·content term.
        assert!((rope_score("dog", 0, "chased", 0) - base).abs() < 1e-12);
    }

    #[test]
    fn a_common_shift_moves_the_additive_terms_but_not_the_rope_score() {
        let (a, b) = ("dog", "the");
        let before = additive_terms(a, 2, b, 0);
        let after = additive_terms(a, 12, b, 10);
        assert!((before.content_position - after.content_position).abs() > 1e-3);
        assert!((before.position_content - after.position_content).abs() > 1e-3);
        assert!((before.position_position - after.position_position).abs() > 1e-3);
        assert!((before.total() - after.total()).abs() > 1e-3);
        for shift in [0, 1, 10, 100, 1000] {
            let r = rope_score(a, 2 + shift, b, shift);
            assert!((r - rope_score(a, 2, b, 0)).abs() < 1e-12, "shift {shift}");
        }
    }
}
