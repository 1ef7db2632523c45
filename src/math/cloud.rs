//! The token cloud: a sentence's token vectors position by position, seen in 3D through PCA.
//!
//! The sentence's tokens are repeated to fill `n` positions (token `p mod len` at position `p`),
//! each token a vector of the toy model ([`super::attention::token_embedding`], width
//! [`TOY_DIM`]). Three ways to give them a position:
//! - [`CloudMode::Plain`]: none — every copy of a word is the same point;
//! - [`CloudMode::Sinusoidal`]: `x + PE(p)` (Vaswani et al. 2017, §3.5; interleaved, base 10000);
//! - [`CloudMode::Rope`]: `R_p·x` (RoFormer §3.2.2, eq. 14; interleaved, base 10000) — what RoPE does to
//!   the queries and keys.
//!
//! The `n × TOY_DIM` vectors are projected on their first three principal components
//! ([`super::pca`]).

use super::attention::{TOY_DIM, token_embedding};
use super::pca::pca;
use super::rope::{Layout, inv_freq, rotate};
use super::sinusoidal::{SinusoidalParams, Spacing};

crate::names::named! {
    /// Which vectors the token cloud shows.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
    pub enum CloudMode {
        /// The token embeddings alone.
        Plain = "none",
        /// Embeddings plus the sinusoidal encoding.
        Sinusoidal = "sin",
        /// Embeddings rotated by RoPE.
        #[default]
        Rope = "rope",
    }
}

/// The cloud in 3D.
#[derive(Clone, Debug, PartialEq)]
pub struct Cloud {
    /// One point per position: its coordinates on the first three principal components.
    pub points: Vec<[f64; 3]>,
    /// The token at each position.
    pub tokens: Vec<String>,
    /// The share of the total variance each component explains (0 … 1; 0 when there is none).
    pub explained: [f64; 3],
    /// The total variance (the covariance's trace); 0 when every point coincides (up to
    /// rounding: below 1e-12 of the vectors' mean square length).
    pub spread: f64,
}

/// The `n × TOY_DIM` vectors (row-major) of `tokens` repeated over `n` positions, with positions
/// given by `mode`. Precondition: `tokens` not empty.
pub fn vectors<S: AsRef<str>>(tokens: &[S], n: usize, mode: CloudMode) -> Vec<f64> {
    let d = TOY_DIM;
    let pe = SinusoidalParams {
        positions: n.max(1),
        dim: d,
        base: 10_000.0,
        layout: Layout::Interleaved,
        spacing: Spacing::Paper,
    };
    let theta = inv_freq(d, 10_000.0);
    let mut out = Vec::with_capacity(n * d);
    for p in 0..n {
        let x = token_embedding(tokens[p % tokens.len()].as_ref(), d);
        match mode {
            CloudMode::Plain => out.extend(x),
            CloudMode::Sinusoidal => out.extend(x.iter().zip(pe.row(p)).map(|(a, b)| a + b)),
            CloudMode::Rope => out.extend(rotate(&x, p as f64, &theta, Layout::Interleaved)),
        }
    }
    out
}

/// The cloud of `tokens` over `n` positions under `mode`. Empty `tokens` give an empty cloud.
pub fn cloud<S: AsRef<str>>(tokens: &[S], n: usize, mode: CloudMode) -> Cloud {
    if tokens.is_empty() || n == 0 {
        return Cloud {
            points: Vec::new(),
            tokens: Vec::new(),
            explained: [0.0; 3],
            spread: 0.0,
        };
    }
    let d = TOY_DIM;
    let data = vectors(tokens, n, mode);
    let p = pca(&data, n, d, 3);
    let points = data
        .chunks_exact(d)
        .map(|row| {
            let c = p.project(row);
            [0, 1, 2].map(|k| c.get(k).copied().unwrap_or(0.0))
        })
        .collect();
    // Total variance: the trace of the covariance (sum of the columns' variances, n − 1 divisor).
    let total: f64 = if n > 1 {
        (0..d)
            .map(|c| {
                let mean = data.iter().skip(c).step_by(d).sum::<f64>() / n as f64;
                data.iter()
                    .skip(c)
                    .step_by(d)
                    .map(|v| (v - mean).powi(2))
                    .sum::<f64>()
                    / (n - 1) as f64
            })
            .sum()
    } else {
        0.0
    };
    // Coinciding points leave only rounding noise: call it no spread at all.
    let mean_square = data.iter().map(|v| v * v).sum::<f64>() / n as f64;
    let total = if total > 1e-12 * mean_square.max(f64::MIN_POSITIVE) {
        total
    } else {
        0.0
    };
    let explained = [0, 1, 2].map(|k| {
        let v = p.variances.get(k).copied().unwrap_or(0.0);
        if total > 0.0 {
            (v / total).clamp(0.0, 1.0)
        } else {
            0.0
        }
    });
    Cloud {
        points,
        tokens: (0..n)
            .map(|p| tokens[p % tokens.len()].as_ref().to_string())
            .collect(),
        explained,
        spread: total,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SENTENCE: [&str; 7] = ["the", "brown", "dog", "chased", "the", "black", "dog"];

    #[test]
    fn without_positions_every_copy_of_a_word_is_one_point() {
        let c = cloud(&SENTENCE, 64, CloudMode::Plain);
        assert_eq!(c.points.len(), 64);
        // Position 0 and 4 are both "the"; 2 and 6 both "dog"; 7 is "the" again.
        assert_eq!(c.points[0], c.points[4]);
        assert_eq!(c.points[2], c.points[6]);
        assert_eq!(c.points[0], c.points[7]);
        assert_eq!(c.tokens[7], "the");
    }

    #[test]
    fn with_positions_the_copies_come_apart() {
        for mode in [CloudMode::Sinusoidal, CloudMode::Rope] {
            let c = cloud(&SENTENCE, 64, mode);
            let gap = (0..3)
                .map(|k| (c.points[0][k] - c.points[4][k]).abs())
                .fold(0.0, f64::max);
            assert!(gap > 1e-3, "{mode:?}: {gap}");
        }
    }

    #[test]
    fn rope_keeps_each_vector_length() {
        let plain = vectors(&SENTENCE, 40, CloudMode::Plain);
        let turned = vectors(&SENTENCE, 40, CloudMode::Rope);
        for (a, b) in plain
            .chunks_exact(TOY_DIM)
            .zip(turned.chunks_exact(TOY_DIM))
        {
            let (na, nb) = (
                a.iter().map(|v| v * v).sum::<f64>(),
                b.iter().map(|v| v * v).sum::<f64>(),
            );
            assert!((na - nb).abs() < 1e-9);
        }
    }

    #[test]
    fn explained_shares_are_fractions_in_order_and_edge_cases_are_finite() {
        let c = cloud(&SENTENCE, 100, CloudMode::Sinusoidal);
        let [a, b, d] = c.explained;
        assert!(
            a >= b && b >= d && a <= 1.0 && a + b + d <= 1.0 + 1e-9,
            "{:?}",
            c.explained
        );
        let one = cloud(&["x"], 4, CloudMode::Plain);
        assert_eq!(one.explained, [0.0; 3]);
        assert_eq!(one.spread, 0.0);
        let same = cloud(&["the", "the"], 64, CloudMode::Plain);
        assert_eq!((same.spread, same.explained), (0.0, [0.0; 3]));
        assert!(one.points.iter().flatten().all(|v| v.is_finite()));
        assert!(cloud::<&str>(&[], 4, CloudMode::Rope).points.is_empty());
        assert_eq!(CloudMode::parse("sin"), Some(CloudMode::Sinusoidal));
        assert_eq!(CloudMode::parse("x"), None);
    }
}
