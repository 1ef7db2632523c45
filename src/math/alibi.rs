//! ALiBi, attention with linear biases (Press, Smith & Lewis, "Train Short, Test Long", 2022, §3).
//!
//! No position vectors: each head `h` adds `−m_h·|i − j|` to the attention score of query `i` and
//! key `j` (causal models use only `j ≤ i`, i.e. `−m_h·(i − j)`). The slopes are a geometric
//! sequence: for `n` heads, a power of two, `m_h = 2^(−8h/n)`, `h = 1..n` (so 8 heads get
//! 1/2, 1/4, …, 1/256). For other `n` the paper (and Hugging Face's `_get_alibi_slopes` in
//! `transformers.models.bloom`) takes the slopes of the closest power of two below, `p`, and
//! adds the first `n − p` of every other slope of `2p` heads (`2^(−4·(2k−1)/p)`, k = 1, 2, …).

/// Slopes of the closest power of two `p` heads: `2^(−8h/p)`, h = 1..=p.
fn power_of_two_slopes(p: usize) -> Vec<f64> {
    let start = 2f64.powf(-8.0 / p as f64);
    (1..=p).map(|h| start.powi(h as i32)).collect()
}

/// The head slopes `m_h` for `heads ≥ 1` heads (see the module documentation).
pub fn slopes(heads: usize) -> Vec<f64> {
    let heads = heads.max(1);
    let p = 1usize << (usize::BITS - 1 - heads.leading_zeros());
    let mut out = power_of_two_slopes(p);
    if p < heads {
        let extra = power_of_two_slopes(2 * p);
        out.extend(extra.into_iter().step_by(2).take(heads - p));
    }
    out
}

/// The bias of one head, row-major `len × len`: `bias[i][j] = −m·|i − j|`; with `causal`, the
/// entries above the diagonal (`j > i`, keys in the future) are `−∞` (masked).
pub fn bias(slope: f64, len: usize, causal: bool) -> Vec<f64> {
    let mut out = Vec::new();
    bias_into(slope, len, causal, &mut out);
    out
}

/// [`bias`] written into `out` (resized, allocation reused). Each row is filled from one
/// distance ramp `−m·r`, `r = 0..len`: no multiplication per entry.
pub fn bias_into(slope: f64, len: usize, causal: bool, out: &mut Vec<f64>) {
    // 0 − m·r rather than −(m·r): the diagonal is +0, not −0.
    let ramp: Vec<f64> = (0..len).map(|r| 0.0 - slope * r as f64).collect();
    out.clear();
    out.resize(len * len, 0.0);
    for (i, row) in out.chunks_exact_mut(len.max(1)).enumerate() {
        // Left of the diagonal, distance i − j: ramp[i], …, ramp[1]; from it rightwards ramp[j − i].
        for (cell, r) in row[..i].iter_mut().zip(ramp[1..=i].iter().rev()) {
            *cell = *r;
        }
        if causal {
            row[i] = ramp[0];
            row[i + 1..].fill(f64::NEG_INFINITY);
        } else {
            row[i..].copy_from_slice(&ramp[..len - i]);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn eight_heads_are_halves_down_to_one_over_256() {
        let s = slopes(8);
        let expected: Vec<f64> = (1..=8).map(|h| 0.5f64.powi(h)).collect();
        assert_eq!(s, expected);
    }

    #[test]
    fn non_power_of_two_interleaves_the_next_power() {
        // 12 heads: the 8-head slopes, then slopes 1, 3, 5, 7 of the 16-head sequence
        // 2^(−0.5·h): 2^−0.5, 2^−1.5, 2^−2.5, 2^−3.5.
        let s = slopes(12);
        assert_eq!(s.len(), 12);
        for (k, &m) in s[8..].iter().enumerate() {
            let want = 2f64.powf(-0.5 * (2 * k + 1) as f64);
            assert!((m - want).abs() < 1e-15, "{k}: {m} vs {want}");
        }
    }

    #[test]
    fn bias_is_symmetric_or_causal() {
        let b = bias(0.5, 3, false);
        assert_eq!(b, vec![0.0, -0.5, -1.0, -0.5, 0.0, -0.5, -1.0, -0.5, 0.0]);
        assert!(b[0].is_sign_positive(), "no negative zero on the diagonal");
        let c = bias(0.5, 3, true);
        let inf = f64::NEG_INFINITY;
        assert_eq!(c, vec![0.0, inf, inf, -0.5, 0.0, inf, -1.0, -0.5, 0.0]);
        assert!(bias(0.5, 0, false).is_empty());
        assert_eq!(bias(0.5, 1, true), vec![0.0]);
    }
}
