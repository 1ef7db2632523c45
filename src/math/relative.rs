//! Relative position schemes: attention that sees `j − i`, the key's offset from the query, and
//! never an absolute position.
//!
//! - **Shaw, Uszkoreit & Vaswani** ("Self-Attention with Relative Position Representations",
//!   2018, §3.2): learned vectors `w_{−k} … w_k` indexed by the clipped offset
//!   `clip(j − i, −k, k)`; every offset beyond `k` shares the edge vector ([`shaw_clip`],
//!   [`shaw_index`]).
//! - **T5** (Raffel et al., "Exploring the Limits of Transfer Learning…", 2020, §2.1): one learned
//!   scalar per head and *bucket*, added to the attention logit. Small offsets get a bucket each;
//!   larger ones share logarithmically wider buckets up to `max_distance`, beyond which all share
//!   the last ([`t5_bucket`], exactly Hugging Face's `T5Attention._relative_position_bucket`).

/// Shaw et al. 2018 §3.2: the clipped relative position `clip(j − i, −k, k) = max(−k, min(k, j − i))`
/// of `relative = j − i` (key minus query). A `k` beyond `i64::MAX` is taken as `i64::MAX` (no
/// clipping), so the result is always within `±k`.
pub fn shaw_clip(relative: i64, k: usize) -> i64 {
    let k = i64::try_from(k).unwrap_or(i64::MAX);
    relative.clamp(-k, k)
}

/// The index `clip(j − i, −k, k) + k ∈ 0..=2k` of the relative vector `w_{clip(j−i,k)}` in Shaw et
/// al.'s table of `2k + 1` learned vectors (§3.2); a `k` beyond `i64::MAX` is taken as `i64::MAX`.
pub fn shaw_index(relative: i64, k: usize) -> usize {
    let clipped = shaw_clip(relative, k);
    let k = i64::try_from(k).unwrap_or(i64::MAX);
    // clipped + k ∈ 0..=2k: as i128 it cannot overflow.
    usize::try_from(i128::from(clipped) + i128::from(k)).unwrap_or(usize::MAX)
}

/// T5's bucket of the distance `n ≥ 0` among `buckets` buckets (after the bidirectional halving):
/// `n` itself below `max_exact = buckets/2`; above, `max_exact + trunc(ln(n/max_exact) /
/// ln(max_distance/max_exact) · (buckets − max_exact))` in float32, capped at `buckets − 1`. Where
/// the log part is undefined (`max_exact = 0`, or `max_distance ≤ max_exact`) every distance is
/// its own bucket, capped: `min(n, buckets − 1)` (0 when `buckets = 0`).
fn distance_bucket(n: u64, buckets: usize, max_distance: usize) -> usize {
    let max_exact = buckets / 2;
    let last = buckets.saturating_sub(1);
    let exact = usize::try_from(n).unwrap_or(usize::MAX);
    if exact < max_exact {
        return exact;
    }
    // Python's `math.log(max_distance / max_exact)`: a float64, cast to float32 by the tensor op.
    let span = (max_distance as f64 / max_exact as f64).ln() as f32;
    if max_exact == 0 || max_distance <= max_exact || !(span > 0.0 && span.is_finite()) {
        return exact.min(last);
    }
    // `relative_position.float() / max_exact`, `torch.log`, `/ span`, `* (buckets − max_exact)`:
    // each a float32 operation, rounded to float32. The log is the float64 log rounded to float32
    // (the correctly rounded float32 log, bar a double rounding at an exact float32 midpoint).
    let ratio = n as f32 / max_exact as f32;
    let log = f64::from(ratio).ln() as f32;
    let scaled = log / span * (buckets - max_exact) as f32;
    // `.to(torch.long)` truncates toward zero; `scaled ≥ 0` here (n ≥ max_exact), and `as`
    // saturates (a NaN would give 0) instead of panicking.
    max_exact.saturating_add(scaled as usize).min(last)
}

/// T5's relative-position bucket, exactly Hugging Face transformers'
/// `T5Attention._relative_position_bucket(relative_position, bidirectional, num_buckets,
/// max_distance)` (from Mesh TensorFlow), with `relative_position = memory_position −
/// query_position` (key minus query, `j − i`):
///
/// ```text
/// if bidirectional:  nb = num_buckets // 2;  offset = nb if rel > 0 else 0;  n = |rel|
/// else:              nb = num_buckets;       offset = 0;                     n = max(−rel, 0)
/// max_exact = nb // 2
/// bucket = offset + (n                                                         if n < max_exact
///                    else min(max_exact + long(ln(n/max_exact) / ln(max_distance/max_exact)
///                                              · (nb − max_exact)), nb − 1))
/// ```
///
/// The log part is computed as torch does it, in float32: `rel.float() / max_exact`, then
/// `torch.log`, then divided by `math.log(max_distance / max_exact)` (a Python float64, cast to
/// float32 by the tensor op) and multiplied by `nb − max_exact`, each step rounded to float32;
/// `.to(torch.long)` truncates toward zero. Float32 matters at the bucket edges: with
/// `num_buckets = 9, max_distance = 128` (causal), offset −8 lands exactly on `ln 2 / ln 32 · 5 = 1`,
/// which float32 gives as 1 (bucket 5) and float64 as 0.999… (bucket 4).
///
/// So with the T5 defaults (32 buckets, max distance 128, bidirectional) keys before the query
/// get buckets 0–15 and keys after it 16–31: offsets ±1 … ±7 are exact, and the log buckets
/// start at distances 8, 12, 16, 23, 32, 46, 64 and 91 (every distance from 91 on shares the last).
///
/// Preconditions (T5's own): after the halving, `max_exact = nb/2 ≥ 1` (so `num_buckets ≥ 4`
/// bidirectional, `≥ 2` causal) and `max_distance > max_exact`. Outside them Python divides by
/// zero or takes the log of a ratio ≤ 1; here every distance is then its own bucket, capped at
/// `nb − 1` (so the result is still monotone in the distance and below `num_buckets` whenever
/// `num_buckets ≥ 1`). Never panics; `|i64::MIN|` is taken exactly.
pub fn t5_bucket(
    relative_position: i64,
    bidirectional: bool,
    num_buckets: usize,
    max_distance: usize,
) -> usize {
    let (buckets, offset, n) = if bidirectional {
        let half = num_buckets / 2;
        let offset = if relative_position > 0 { half } else { 0 };
        (half, offset, relative_position.unsigned_abs())
    } else {
        (num_buckets, 0, relative_position.min(0).unsigned_abs())
    };
    offset.saturating_add(distance_bucket(n, buckets, max_distance))
}

/// The `len × len` bucket matrix, row-major: entry `(i, j)` is [`t5_bucket`]`(j − i, …)` for
/// query `i` and key `j` (what `T5Attention.compute_bias` feeds the bias embedding). It depends
/// only on `j − i`, so the `2·len − 1` distinct buckets are computed once and each row is a window
/// of them. `out` is cleared and filled (allocation reused); the caller bounds `len` (its square
/// is allocated; see [`super::limits::T5_LEN`]).
pub fn t5_buckets_into(
    len: usize,
    bidirectional: bool,
    num_buckets: usize,
    max_distance: usize,
    out: &mut Vec<usize>,
) {
    out.clear();
    if len == 0 {
        return;
    }
    let last = len - 1;
    let span = i64::try_from(last).unwrap_or(i64::MAX);
    // by_offset[k] is the bucket of j − i = k − (len − 1), k = 0 ..= 2(len − 1).
    let by_offset: Vec<usize> = (-span..=span)
        .map(|rel| t5_bucket(rel, bidirectional, num_buckets, max_distance))
        .collect();
    out.reserve(len.saturating_mul(len));
    for i in 0..len {
        // Row i, key j: offset j − i, index j + (len − 1 − i).
        out.extend_from_slice(&by_offset[last - i..][..len]);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shaw_clips_to_plus_minus_k() {
        assert_eq!(shaw_clip(5, 2), 2);
        assert_eq!(shaw_clip(-5, 2), -2);
        assert_eq!(shaw_clip(1, 2), 1);
        assert_eq!(shaw_clip(7, 0), 0);
        assert_eq!(shaw_clip(i64::MIN, usize::MAX), -i64::MAX);
        assert_eq!(shaw_clip(i64::MAX, usize::MAX), i64::MAX);
        assert_eq!(shaw_index(-5, 2), 0);
        assert_eq!(shaw_index(0, 2), 2);
        assert_eq!(shaw_index(9, 2), 4);
        assert_eq!(shaw_index(i64::MAX, usize::MAX), 2 * i64::MAX as usize);
    }

    #[test]
    fn the_matrix_is_the_bucket_of_j_minus_i() {
        for (len, bidirectional) in [(1, true), (5, true), (9, false), (40, true)] {
            let mut m = vec![7; 3];
            t5_buckets_into(len, bidirectional, 16, 20, &mut m);
            assert_eq!(m.len(), len * len);
            for i in 0..len {
                for j in 0..len {
                    let want = t5_bucket(j as i64 - i as i64, bidirectional, 16, 20);
                    assert_eq!(m[i * len + j], want, "({i}, {j})");
                }
            }
        }
        let mut m = vec![1];
        t5_buckets_into(0, true, 32, 128, &mut m);
        assert!(m.is_empty());
    }

    #[test]
    fn outside_the_preconditions_every_distance_is_exact_and_capped() {
        // num_buckets 2 bidirectional: nb = 1, max_exact = 0 (Python: ZeroDivisionError).
        assert_eq!(t5_bucket(-3, true, 2, 128), 0);
        assert_eq!(t5_bucket(3, true, 2, 128), 1);
        // max_distance ≤ max_exact (Python: a log ≤ 0 divides): min(n, nb − 1).
        let causal: Vec<usize> = (0..12).map(|n| t5_bucket(-n, false, 8, 3)).collect();
        assert_eq!(causal, [0, 1, 2, 3, 4, 5, 6, 7, 7, 7, 7, 7]);
        assert_eq!(t5_bucket(5, false, 0, 0), 0);
        assert_eq!(t5_bucket(-5, false, 0, 0), 0);
        assert!(t5_bucket(i64::MIN, false, usize::MAX, usize::MAX) < usize::MAX);
        assert!(t5_bucket(i64::MAX, true, usize::MAX, 3) < usize::MAX);
        assert_eq!(t5_bucket(i64::MIN, true, 32, 128), 15);
        assert_eq!(t5_bucket(i64::MAX, true, 32, 128), 31);
    }
}
