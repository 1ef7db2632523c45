//! The numbers behind chapter 3, "Stretching the context": what each RoPE pair saw in training,
//! what a longer context asks of it, and how a scaling method changes that. Frequencies come from
//! [`super::rope_scaling::RopeScaling::compute`]; everything here is a function of them.

use std::f64::consts::TAU;

/// How far one pair turns over the trained context, and which share of the circle it reaches.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PairReach {
    /// Turns of pair `i` within the trained context: `L₀·θ_i / 2π = L₀/λ_i` (YaRN's `r`).
    pub turns: f64,
    /// Share of the circle (0 … 1) of the angles `m·θ_i` seen in training, positions
    /// `0 ≤ m < L₀`: `min(1, (L₀ − 1)·θ_i / 2π)`.
    pub seen: f64,
    /// Share of the circle the angles reach at positions `m < T`, unscaled:
    /// `min(1, (T − 1)·θ_i / 2π)` (≥ `seen` when `T ≥ L₀`).
    pub plain: f64,
    /// The same with the scaled frequency `θ'_i`: `min(1, (T − 1)·θ'_i / 2π)`.
    pub scaled: f64,
}

impl PairReach {
    /// Share of the circle reached beyond the trained angles without scaling (`plain − seen`).
    pub fn unseen_plain(&self) -> f64 {
        (self.plain - self.seen).max(0.0)
    }

    /// Share of the circle reached beyond the trained angles after scaling (`0` when the scaled
    /// angles stay within what training saw).
    pub fn unseen_scaled(&self) -> f64 {
        (self.scaled - self.seen).max(0.0)
    }
}

/// [`PairReach`] of every pair: `plain` are the trained frequencies `θ_i`, `scaled` the scaled
/// ones `θ'_i` (same length), `original` the trained context `L₀`, `target` the length `T`.
///
/// A pair with `turns ≥ 1` saw every angle in training; a pair under one turn only saw the arc
/// `[0, L₀·θ_i]`, and positions beyond `L₀` take it to angles it never saw. The per-pair argument
/// is YaRN's (Peng et al. 2023, §3.2 "NTK-by-parts": a dimension whose wavelength is longer than
/// the trained context sees its angles unevenly, and keeps absolute positions). Chen et al. 2023
/// ("Extending context window … via positional interpolation", §2.2 "Direct extrapolation") show
/// that extrapolating past `L₀` fails, from the attention score as a whole, not pair by pair.
pub fn reach(plain: &[f64], scaled: &[f64], original: usize, target: usize) -> Vec<PairReach> {
    let share = |len: usize, theta: f64| (len.saturating_sub(1) as f64 * theta / TAU).min(1.0);
    plain
        .iter()
        .zip(scaled)
        .map(|(&t, &t2)| PairReach {
            turns: original as f64 * t / TAU,
            seen: share(original, t),
            plain: share(target, t),
            scaled: share(target, t2),
        })
        .collect()
}

/// Wavelength of each pair in positions, `λ_i = 2π/θ_i`.
pub fn wavelengths(inv_freq: &[f64]) -> Vec<f64> {
    inv_freq.iter().map(|t| TAU / t).collect()
}

/// The mean score curve over distances, one value per column of distances.
#[derive(Clone, Debug, PartialEq)]
pub struct ScoreCurve {
    /// First distance of each column.
    pub start: Vec<usize>,
    /// Last distance of each column (inclusive).
    pub end: Vec<usize>,
    /// Mean over the column's distances of `scale · (1/P) Σ_i cos(r·θ_i)`.
    pub mean: Vec<f64>,
}

/// Column edges for distances `0 … max_distance` on a logarithmic axis of `1 + r`: at most
/// `columns` columns, each holding at least one distance; the first columns are single
/// distances where the axis is stretched.
pub fn log_columns(max_distance: usize, columns: usize) -> Vec<(usize, usize)> {
    let columns = columns.max(1);
    let top = (max_distance as f64 + 1.0).ln();
    let mut out = Vec::with_capacity(columns);
    let mut start = 0usize;
    for c in 1..=columns {
        let edge = ((top * c as f64 / columns as f64).exp() - 1.0).round() as usize;
        let end = edge.min(max_distance);
        if end >= start {
            out.push((start, end));
            start = end + 1;
        }
        if start > max_distance {
            break;
        }
    }
    if start <= max_distance {
        out.push((start, max_distance));
    }
    out
}

/// RoPE's score against distance for a query and key of all ones (RoFormer §3.4.3's setting),
/// normalised by `|q|·|k|`: `score(r) = scale · (1/P) Σ_{i<P} cos(r·θ_i)`, averaged over each of
/// the `columns` of [`log_columns`]. `scale` is the attention factor squared, since transformers
/// multiplies both the cos and the sin table by it (`attention_scaling`), so `q'·k'` grows by its
/// square.
///
/// O(columns · P) with one `sin` per column and pair, so the curve to 2²⁴ positions costs what
/// it costs to 100: the prefix sums `C_i(x) = Σ_{r=0}^{x} cos(r·θ_i)
/// = (sin((x + ½)θ_i) + sin(θ_i/2)) / (2 sin(θ_i/2))` (the Dirichlet kernel) make a column's sum
/// `C_i(b) − C_i(a − 1)`, and the columns are contiguous, so each column's lower prefix is the
/// previous column's upper one. (For `θ_i/2` below 1e-150 the pair contributes `cos ≈ 1`.)
pub fn score_curve(
    inv_freq: &[f64],
    scale: f64,
    max_distance: usize,
    columns: usize,
) -> ScoreCurve {
    let cols = log_columns(max_distance, columns);
    let p = inv_freq.len().max(1) as f64;
    let mut totals = vec![0.0; cols.len()];
    for &t in inv_freq {
        let half = (t / 2.0).sin();
        if half.abs() < 1e-150 {
            for (total, &(a, b)) in totals.iter_mut().zip(&cols) {
                *total += (b - a + 1) as f64;
            }
            continue;
        }
        // sin((x + ½)θ) at x = a − 1 for the first column (a = 0): sin(−θ/2).
        let mut lower = -half;
        for (total, &(_, b)) in totals.iter_mut().zip(&cols) {
            let upper = ((b as f64 + 0.5) * t).sin();
            *total += (upper - lower) / (2.0 * half);
            lower = upper;
        }
    }
    let mut curve = ScoreCurve {
        start: Vec::with_capacity(cols.len()),
        end: Vec::with_capacity(cols.len()),
        mean: Vec::with_capacity(cols.len()),
    };
    for ((a, b), total) in cols.into_iter().zip(totals) {
        curve.start.push(a);
        curve.end.push(b);
        curve.mean.push(scale * total / (p * (b - a + 1) as f64));
    }
    curve
}

/// The exact score at one distance `r` (same normalisation as [`score_curve`]).
pub fn score_at(inv_freq: &[f64], scale: f64, r: usize) -> f64 {
    let p = inv_freq.len().max(1) as f64;
    scale * inv_freq.iter().map(|t| (r as f64 * t).cos()).sum::<f64>() / p
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::rope::inv_freq;

    /// The test oracle: `Σ_{r=a}^{b} cos(r·θ)` in closed form: `cos((a+b)θ/2) · sin(nθ/2) / sin(θ/2)`, `n = b − a + 1`
    /// (the Dirichlet kernel; the product form stays accurate for small θ). `n` for `θ = 0`.
    fn cos_sum(a: usize, b: usize, theta: f64) -> f64 {
        let n = (b - a + 1) as f64;
        let half = theta / 2.0;
        let s = half.sin();
        let mid = (a + b) as f64 * half;
        if s.abs() < 1e-300 {
            return n * mid.cos();
        }
        mid.cos() * (n * half).sin() / s
    }

    #[test]
    fn score_curve_holds_its_digits_far_away() {
        // To 2²⁴ positions the prefix differences agree with the product form per column.
        let f = inv_freq(128, 500_000.0);
        let max = (1 << 24) - 1;
        let curve = score_curve(&f, 1.0, max, 480);
        for k in (0..curve.mean.len()).step_by(37) {
            let (a, b) = (curve.start[k], curve.end[k]);
            let direct: f64 =
                f.iter().map(|&t| cos_sum(a, b, t)).sum::<f64>() / (64.0 * (b - a + 1) as f64);
            assert!(
                (curve.mean[k] - direct).abs() < 1e-7,
                "{k}: {} vs {direct}",
                curve.mean[k]
            );
        }
    }

    #[test]
    fn cos_sum_matches_the_loop() {
        for &theta in &[1.0, 0.3, 1e-3, 1e-9, 0.0, 2.5] {
            for &(a, b) in &[(0usize, 0usize), (0, 10), (5, 5), (17, 400), (1000, 1003)] {
                let direct: f64 = (a..=b).map(|r| (r as f64 * theta).cos()).sum();
                let closed = cos_sum(a, b, theta);
                assert!(
                    (direct - closed).abs() < 1e-9 * (b - a + 1) as f64,
                    "{theta} {a} {b}: {direct} vs {closed}"
                );
            }
        }
    }

    #[test]
    fn columns_cover_every_distance_once() {
        for &(n, c) in &[
            (0usize, 10usize),
            (1, 10),
            (100, 400),
            (131_071, 800),
            (5, 1),
        ] {
            let cols = log_columns(n, c);
            assert!(cols.len() <= c + 1);
            assert_eq!(cols[0].0, 0);
            assert_eq!(cols.last().unwrap().1, n);
            for w in cols.windows(2) {
                assert_eq!(w[1].0, w[0].1 + 1);
            }
            assert!(cols.iter().all(|(a, b)| a <= b));
        }
        // Near zero the columns are single distances.
        assert_eq!(log_columns(131_071, 800)[0], (0, 0));
    }

    #[test]
    fn score_curve_is_the_column_mean_of_the_exact_scores() {
        let f = inv_freq(64, 10_000.0);
        let curve = score_curve(&f, 1.3, 5000, 200);
        assert!((curve.mean[0] - 1.3).abs() < 1e-12, "r = 0 scores scale·1");
        for k in [3, 50, curve.mean.len() - 1] {
            let (a, b) = (curve.start[k], curve.end[k]);
            let direct = (a..=b).map(|r| score_at(&f, 1.3, r)).sum::<f64>() / (b - a + 1) as f64;
            assert!((curve.mean[k] - direct).abs() < 1e-9, "{k}");
        }
    }

    #[test]
    fn reach_by_hand() {
        // θ = 2π/8192 turns once in 8192 positions: half a turn within L₀ = 4096, whose
        // positions 0 … 4095 reach 4095/8192 of the circle.
        let t = TAU / 8192.0;
        let r = reach(&[t], &[t / 4.0], 4096, 16_384)[0];
        assert!((r.turns - 0.5).abs() < 1e-12);
        assert!((r.seen - 4095.0 / 8192.0).abs() < 1e-12);
        assert_eq!(r.plain, 1.0);
        // Interpolated by 4: position 16383 reaches 16383/32768, 3/32768 beyond the seen arc.
        assert!((r.scaled - 16_383.0 / 32_768.0).abs() < 1e-12);
        assert!((r.unseen_scaled() - 3.0 / 32_768.0).abs() < 1e-12);
        assert!((r.unseen_plain() - (1.0 - 4095.0 / 8192.0)).abs() < 1e-12);
    }

    #[test]
    fn dynamic_base_grows_only_past_the_trained_length() {
        use crate::math::rope_scaling::dynamic_base;
        assert_eq!(dynamic_base(10_000.0, 128, 4.0, 4096, 1000), 10_000.0);
        assert_eq!(dynamic_base(10_000.0, 128, 4.0, 4096, 4096), 10_000.0);
        // At L = 2·L₀: s·2 − (s − 1) = s + 1 = 5, so base·5^(128/126).
        let want = 10_000.0 * 5f64.powf(128.0 / 126.0);
        assert!((dynamic_base(10_000.0, 128, 4.0, 4096, 8192) - want).abs() < 1e-6);
    }
}
