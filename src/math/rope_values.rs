//! "Why only q and k?" — RoPE turns queries and keys, never values (RoFormer §3.2.2, eq. 14:
//! the position enters through `q_m·k_n` only; Hugging Face `apply_rotary_pos_emb(q, k, …)`).
//!
//! In the toy model of [`super::attention`] (width [`TOY_DIM`], its `W_q`, `W_k`, values = the
//! token embeddings), put the whole sentence `offset` positions later. With RoPE on q and k, every
//! weight depends on `m − n` only, so every output is the same:
//!
//! ```text
//! o_i = Σ_j softmax_j((R_{i+o} W_q x_i)·(R_{j+o} W_k x_j)/√d) · v_j
//! ```
//!
//! Turn the values too (`v_j → R_{j+o} v_j`) and the output carries the absolute positions
//! `j + o`: it changes with the offset although the sentence did not.

use super::attention::{TOY_DIM, mat_vec, projections, token_embedding};
use super::rope::{Layout, dot, inv_freq, rotate};

/// The attention outputs `o_i` of `tokens` placed at positions `offset, offset + 1, …`, with RoPE
/// on q and k (base 10000, interleaved) and, if `rotate_values`, on the values as well.
pub fn outputs<S: AsRef<str>>(tokens: &[S], offset: usize, rotate_values: bool) -> Vec<Vec<f64>> {
    let d = TOY_DIM;
    let (wq, wk) = projections(d);
    let theta = inv_freq(d, 10_000.0);
    let x: Vec<Vec<f64>> = tokens
        .iter()
        .map(|t| token_embedding(t.as_ref(), d))
        .collect();
    let at = |j: usize| (offset + j) as f64;
    let q: Vec<Vec<f64>> = x
        .iter()
        .enumerate()
        .map(|(i, xi)| rotate(&mat_vec(&wq, xi), at(i), &theta, Layout::Interleaved))
        .collect();
    let k: Vec<Vec<f64>> = x
        .iter()
        .enumerate()
        .map(|(j, xj)| rotate(&mat_vec(&wk, xj), at(j), &theta, Layout::Interleaved))
        .collect();
    let v: Vec<Vec<f64>> = x
        .iter()
        .enumerate()
        .map(|(j, xj)| {
            if rotate_values {
                rotate(xj, at(j), &theta, Layout::Interleaved)
            } else {
                xj.clone()
            }
        })
        .collect();
    let scale = 1.0 / (d as f64).sqrt();
    q.iter()
        .map(|qi| {
            let scores: Vec<f64> = k.iter().map(|kj| dot(qi, kj) * scale).collect();
            let top = scores.iter().copied().fold(f64::NEG_INFINITY, f64::max);
            let e: Vec<f64> = scores.iter().map(|s| (s - top).exp()).collect();
            let sum: f64 = e.iter().sum();
            let mut o = vec![0.0; d];
            for (w, vj) in e.iter().zip(&v) {
                for (oc, vc) in o.iter_mut().zip(vj) {
                    *oc += w / sum * vc;
                }
            }
            o
        })
        .collect()
}

/// The largest Euclidean distance between matching outputs.
fn largest_change(a: &[Vec<f64>], b: &[Vec<f64>]) -> f64 {
    a.iter()
        .zip(b)
        .map(|(x, y)| {
            x.iter()
                .zip(y)
                .map(|(p, q)| (p - q).powi(2))
                .sum::<f64>()
                .sqrt()
        })
        .fold(0.0, f64::max)
}

/// How far the outputs move when the sentence moves `offset` positions: the largest
/// `|o_i(offset) − o_i(0)|` (Euclidean) over the tokens.
pub fn drift<S: AsRef<str>>(tokens: &[S], offset: usize, rotate_values: bool) -> f64 {
    largest_change(
        &outputs(tokens, offset, rotate_values),
        &outputs(tokens, 0, rotate_values),
    )
}

/// [`drift`] for every offset `0 ..= max_offset` (the outputs at offset 0 computed once).
pub fn drift_curve<S: AsRef<str>>(
    tokens: &[S],
    max_offset: usize,
    rotate_values: bool,
) -> Vec<f64> {
    let base = outputs(tokens, 0, rotate_values);
    (0..=max_offset)
        .map(|o| largest_change(&outputs(tokens, o, rotate_values), &base))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    const SENTENCE: [&str; 7] = ["the", "brown", "dog", "chased", "the", "black", "dog"];

    #[test]
    fn rotating_q_and_k_only_leaves_the_outputs_where_they_were() {
        for offset in [1, 7, 100, 4096] {
            assert!(drift(&SENTENCE, offset, false) < 1e-9, "offset {offset}");
        }
    }

    #[test]
    fn rotating_the_values_too_makes_the_outputs_depend_on_absolute_position() {
        for offset in [1, 7, 100] {
            assert!(drift(&SENTENCE, offset, true) > 1e-2, "offset {offset}");
        }
        assert_eq!(drift(&SENTENCE, 0, true), 0.0);
    }

    #[test]
    fn the_curve_is_drift_at_every_offset() {
        for rotate_values in [false, true] {
            let curve = drift_curve(&SENTENCE, 20, rotate_values);
            assert_eq!(curve.len(), 21);
            for (o, &c) in curve.iter().enumerate() {
                assert_eq!(c, drift(&SENTENCE, o, rotate_values));
            }
        }
    }

    #[test]
    fn weights_sum_to_one_so_outputs_are_averages_of_values() {
        // One token attends only to itself: its output is its value.
        let o = outputs(&["dog"], 3, false);
        let v = token_embedding("dog", TOY_DIM);
        for (a, b) in o[0].iter().zip(&v) {
            assert!((a - b).abs() < 1e-12);
        }
    }
}
