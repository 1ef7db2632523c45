//! ALiBi, attention with linear biases (Press, Smith & Lewis, "Train Short, Test Long", 2022, §3).
//!
//! No position vectors: each head `h` adds `−m_h·|i − j|` to the attention score of query `i` and
//! key `j` (causal models use only `j ≤ i`, i.e. `−m_h·(i − j)`). The slopes are a geometric
//! sequence: for `n` heads, a power of two, `m_h = 2^(−8h/n)`, `h = 1..n` (so 8 heads get
//! 1/2, 1/4, …, 1/256). The paper trains only powers of two; for other `n` the authors' code
//! (`get_slopes`, and Hugging Face's `_get_alibi_slopes` in `transformers.models.bloom`) takes the slopes of the closest power of two below, `p`, and
//! adds the first `n − p` of every other slope of `2p` heads (`2^(−4·(2k−1)/p)`, k = 1, 2, …).

/// Slopes of the closest power of two `p` heads: `2^(−8h/p)`, h = 1..=p.
fn power_of_two_slopes(p: usize) -> Vec<f64> {
    let start = 2f64.powf(-8.0 / p as f64);
    (1..=p).map(|h| start.powi(h as i32)).collect()
}

/// The head slopes `m_h` for `heads ≥ 1` heads (see the module documentation), as
/// `transformers.models.bloom._get_alibi_slopes` computes them: `base^h` with `base = 2^(−8/p)`
/// for the closest power of two `p ≤ heads`, then `extra^(2k−1)`, `k = 1 ..= heads − p`, with
/// `extra = 2^(−4/p)` (every other slope of `2p` heads). BLOOM-176B has 112 heads: 64 of the
/// first run and 48 of the second. 0 heads is taken as 1. Only `heads` slopes are computed, so
/// any count the caller can allocate works.
pub fn slopes(heads: usize) -> Vec<f64> {
    let heads = heads.max(1);
    let p = 1usize << heads.ilog2();
    let mut out = power_of_two_slopes(p);
    // 2^(−8/(2p)) = 2^(−4/p) exactly: both exponents are exact in f64.
    let extra = 2f64.powf(-4.0 / p as f64);
    out.extend((0..heads - p).map(|k| extra.powi((2 * k + 1) as i32)));
    out
}

/// The distance at which head `slope = m`'s bias halves a key's weight: `exp(−m·r) = ½` at
/// `r = ln 2 / m` (uniform content scores: the weight relative to the query's own key falls as
/// `exp(−m·r)`). `+∞` for `m ≤ 0` or NaN (the weight never halves).
pub fn half_weight_distance(slope: f64) -> f64 {
    if slope > 0.0 {
        std::f64::consts::LN_2 / slope
    } else {
        f64::INFINITY
    }
}

/// One query's attention weights over keys `j = 0..len` with uniform content scores and ALiBi's
/// bias alone: `softmax_j(0 − m·|query − j|)` (Press et al. §3: the bias is added to `q·k`, here
/// the same for every key); with `causal`, keys `j > query` are masked (weight 0). `out` is
/// cleared and gets `len` weights summing to 1 (empty when `len = 0`). A `query ≥ len` is taken as
/// `len − 1`.
///
/// Numerically stable: the exponent is measured from the largest score (the query's own key for
/// `m ≥ 0`, the farthest allowed key for `m < 0`), so it is never positive and nothing overflows.
/// A NaN slope is taken as 0 (uniform weights), ±∞ as the largest finite slope of that sign.
pub fn attention_row_into(slope: f64, query: usize, len: usize, causal: bool, out: &mut Vec<f64>) {
    out.clear();
    let Some(last) = len.checked_sub(1) else {
        return;
    };
    let query = query.min(last);
    let m = if slope.is_nan() {
        0.0
    } else {
        slope.clamp(-f64::MAX, f64::MAX)
    };
    let keys = if causal { query + 1 } else { len };
    // The largest allowed distance, where a negative slope's score peaks.
    let far = query.max(keys - 1 - query) as f64;
    let weight = |j: usize| -> f64 {
        let r = query.abs_diff(j) as f64;
        let below_max = if m >= 0.0 { r } else { far - r };
        (-(m.abs() * below_max)).exp()
    };
    out.extend((0..keys).map(weight));
    // The maximum's weight is exp(0) = 1, so the sum is at least 1.
    let sum: f64 = out.iter().sum();
    out.iter_mut().for_each(|w| *w /= sum);
    out.resize(len, 0.0);
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
    fn twelve_heads_are_eight_then_every_other_of_sixteen() {
        let s = slopes(12);
        let sixteen = slopes(16);
        let want: Vec<f64> = slopes(8)
            .into_iter()
            .chain(sixteen.into_iter().step_by(2).take(4))
            .collect();
        assert_eq!(s, want, "bit for bit");
    }

    #[test]
    fn bloom_176b_has_112_slopes_in_two_decreasing_runs() {
        let s = slopes(112);
        assert_eq!(s.len(), 112);
        assert!(s.iter().all(|&m| m > 0.0 && m < 1.0));
        let (first, second) = s.split_at(64);
        assert!(first.windows(2).all(|w| w[1] < w[0]));
        assert!(second.windows(2).all(|w| w[1] < w[0]));
        assert!((first[63] - 2f64.powi(-8)).abs() < 1e-15);
        assert_eq!(second[0], 2f64.powf(-4.0 / 64.0));
        // Large counts neither panic nor leave (0, 1).
        for heads in [0, 1, 1023, 1024, 1025, 5000] {
            let s = slopes(heads);
            assert_eq!(s.len(), heads.max(1));
            assert!(s.iter().all(|&m| m > 0.0 && m < 1.0), "{heads}");
        }
    }

    #[test]
    fn half_weight_distance_is_ln2_over_m() {
        assert_eq!(half_weight_distance(0.5), 2.0 * std::f64::consts::LN_2);
        assert!((-half_weight_distance(0.25) * 0.25).exp() - 0.5 < 1e-15);
        assert_eq!(half_weight_distance(0.0), f64::INFINITY);
        assert_eq!(half_weight_distance(-1.0), f64::INFINITY);
        assert_eq!(half_weight_distance(f64::NAN), f64::INFINITY);
    }

    #[test]
    fn attention_rows_are_softmax_of_the_bias() {
        let mut w = vec![9.0];
        attention_row_into(0.5, 2, 4, false, &mut w);
        let e: Vec<f64> = [2.0, 1.0, 0.0, 1.0]
            .iter()
            .map(|r: &f64| (-0.5 * r).exp())
            .collect();
        let z: f64 = e.iter().sum();
        for (a, b) in w.iter().zip(&e) {
            assert!((a - b / z).abs() < 1e-15, "{a} vs {}", b / z);
        }
        attention_row_into(0.5, 1, 4, true, &mut w);
        assert_eq!(w.len(), 4);
        assert_eq!(&w[2..], &[0.0, 0.0]);
        assert!((w[1] / w[0] - 0.5f64.exp()).abs() < 1e-12);
        // Slope 0: uniform over the allowed keys; query past the end is the last.
        attention_row_into(0.0, 99, 4, true, &mut w);
        assert_eq!(w, vec![0.25; 4]);
        attention_row_into(1.0, 0, 0, false, &mut w);
        assert!(w.is_empty());
        // Extreme slopes stay finite and sum to 1.
        for m in [
            f64::INFINITY,
            f64::NEG_INFINITY,
            f64::NAN,
            -3.0,
            1e300,
            -1e300,
        ] {
            attention_row_into(m, 3, 8, false, &mut w);
            assert!(w.iter().all(|x| x.is_finite() && *x >= 0.0), "{m}: {w:?}");
            assert!((w.iter().sum::<f64>() - 1.0).abs() < 1e-12, "{m}");
        }
        attention_row_into(f64::INFINITY, 3, 8, false, &mut w);
        assert_eq!(w[3], 1.0);
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
