//! DroPE (Gelberg, Eguchi, Akiba & Cetin 2025, "Extending the Context of Pretrained LLMs by
//! Dropping Their Positional Embeddings", arXiv 2512.12167): a model pretrained with RoPE has
//! the rotation removed from every layer and is recalibrated briefly at its original context
//! length. In the authors' code (SakanaAI/DroPE, `custom_models/attention.py`) the attention
//! keeps its form and the rotation becomes the identity: `cos = 1`, `sin = 0` for queries and keys
//! alike; `custom_models/drope.py` swaps every layer's attention.
//!
//! This module computes a toy of what that changes, not the paper's experiment: one query `q`
//! and a key `k* = q` that matches it in content, `t` positions behind the query, among `N`
//! distractor keys `k_1 … k_N` at distances `1 … N`, all entries standard normal from one seed.
//! The matching key's softmax weight over the `N + 1` keys,
//!
//! ```text
//! w(t) = e^{s*(t)} / (e^{s*(t)} + Σ_i e^{s_i}),   s = a²·(R q)·(R' k)/√d,
//! ```
//!
//! under three rotations:
//! - RoPE (`rotate_half` pairs `(i, i + d/2)`, `θ_i = base^(−2i/d)`, `a = 1`): with `k* = q`
//!   the cross terms cancel and `s*(t) = Σ_i (q_i² + q_{i+d/2}²)·cos(t·θ_i)/√d`; a distractor at
//!   distance `i` scores `(R_i q)·k_i/√d` (RoFormer eq. 16: only the distance matters);
//! - YaRN-scaled RoPE with factor `s = T/L₀` (transformers' `_compute_yarn_parameters`, β_fast
//!   32, β_slow 1): YaRN's `θ'_i` and its attention factor `a = 0.1·ln s + 1`, which multiplies
//!   both `cos` and `sin`, so every score by `a²`;
//! - no rotation (DroPE after the drop): `s* = |q|²/√d` at every distance and `s_i = q·k_i/√d`,
//!   so `w` is the same at every `t`: the score no longer says where the key is.

use rand::SeedableRng;
use rand::rngs::Xoshiro256PlusPlus;
use rand_distr::{Distribution, StandardNormal};

use super::rope::{Layout, dot, inv_freq, rotate};
use super::rope_scaling::{RopeScaling, RopeType};

/// The most distances a curve samples (geometrically spaced from `N + 1` to `T`).
pub const POINTS: usize = 2048;

/// The three curves: the matching key's weight at each sampled distance.
#[derive(Clone, Debug, PartialEq)]
pub struct Curves {
    /// The distances `t` of the matching key, `N + 1 ≤ t ≤ T`, increasing.
    pub distance: Vec<usize>,
    /// Under plain RoPE.
    pub rope: Vec<f64>,
    /// Under YaRN-scaled RoPE (factor `T/L₀`).
    pub yarn: Vec<f64>,
    /// With no rotation: the same value at every distance.
    pub none: Vec<f64>,
}

/// The toy's vectors from `seed`: `q`, then the `n` distractor keys, `d` standard-normal entries
/// each, from one Xoshiro256++ stream.
pub fn vectors(d: usize, n: usize, seed: u64) -> (Vec<f64>, Vec<Vec<f64>>) {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut draw = || -> Vec<f64> { (0..d).map(|_| StandardNormal.sample(&mut rng)).collect() };
    let q = draw();
    let keys = (0..n).map(|_| draw()).collect();
    (q, keys)
}

/// The sampled distances: every one from `first` to `last` when they are at most [`POINTS`],
/// else about even on a logarithmic axis: in each octave `[a, 2a)` (from `a = first`, a new
/// octave wherever the last sample reaches twice the octave's start) one constant step
/// `⌈a/m⌉`, `m` samples per octave, both ends included. The step is constant within an octave so
/// that [`curves`] carries each pair's rotation from sample to sample with a handful of sines.
pub fn distances(first: usize, last: usize) -> Vec<usize> {
    if last < first || first == 0 {
        return Vec::new();
    }
    if last - first < POINTS {
        return (first..=last).collect();
    }
    // At most `per_octave` samples in each octave (its step is rounded up), and a partial last
    // octave of `f` octaves takes at most `f·per_octave`: `POINTS` in all.
    let octaves = (last as f64 / first as f64).log2();
    let per_octave = ((POINTS - 1) as f64 / octaves).floor().max(1.0);
    let mut out = Vec::with_capacity(POINTS);
    let (mut t, mut start) = (first, first);
    out.push(t);
    while t < last {
        if t >= 2 * start {
            start = t;
        }
        let step = ((start as f64 / per_octave).ceil() as usize).max(1);
        t = (t + step).min(last);
        out.push(t);
    }
    out
}

/// `ln Σ e^{x}` without overflow.
fn log_sum_exp(xs: &[f64]) -> f64 {
    let max = xs.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    if !max.is_finite() {
        return max;
    }
    max + xs.iter().map(|x| (x - max).exp()).sum::<f64>().ln()
}

/// The matching key's weight given its score and the distractors' `ln Σ e^{s_i}`.
fn weight(matching: f64, distractors: f64) -> f64 {
    // e^{s*} / (e^{s*} + e^{L}) = 1 / (1 + e^{L − s*})
    1.0 / (1.0 + (distractors - matching).exp())
}

/// One rotated curve: scores under `theta` and attention factor `a`.
fn rotated(q: &[f64], keys: &[Vec<f64>], theta: &[f64], a: f64, ts: &[usize]) -> Vec<f64> {
    let d = q.len();
    let half = d / 2;
    let scale = a * a / (d as f64).sqrt();
    let distractors: Vec<f64> = keys
        .iter()
        .enumerate()
        .map(|(i, k)| dot(&rotate(q, (i + 1) as f64, theta, Layout::Half), k) * scale)
        .collect();
    let lse = log_sum_exp(&distractors);
    // Per pair (i, i + d/2): |q_pair|², and e^{i·t·θ_i} carried from one sampled distance to the
    // next by the rotation of the step between them, recomputed only when the step changes
    // (once an octave, see [`distances`]): a curve costs a few dozen cos/sin per pair instead of
    // one per distance, and the drift over 2048 steps stays near 1e-13.
    let mut pairs: Vec<Turn> = theta
        .iter()
        .enumerate()
        .map(|(i, &theta)| Turn {
            theta,
            norm: q[i] * q[i] + q[i + half] * q[i + half],
            ..Turn::default()
        })
        .collect();
    let (mut step, mut prev) = (0usize, 0usize);
    let mut out = Vec::with_capacity(ts.len());
    for (k, &t) in ts.iter().enumerate() {
        let mut sum = 0.0;
        if k == 0 {
            for p in &mut pairs {
                (p.im, p.re) = (t as f64 * p.theta).sin_cos();
                sum += p.norm * p.re;
            }
        } else {
            let delta = t - prev;
            if delta != step {
                step = delta;
                for p in &mut pairs {
                    (p.step_im, p.step_re) = (delta as f64 * p.theta).sin_cos();
                }
            }
            for p in &mut pairs {
                let (r, m) = (p.re, p.im);
                p.re = r * p.step_re - m * p.step_im;
                p.im = r * p.step_im + m * p.step_re;
                sum += p.norm * p.re;
            }
        }
        prev = t;
        out.push(weight(sum * scale, lse));
    }
    out
}

/// One coordinate pair of [`rotated`]'s query: its frequency, `|q_pair|²`, `e^{i·t·θ}` at the
/// current distance and the rotation of the current step.
#[derive(Clone, Copy, Default)]
struct Turn {
    theta: f64,
    norm: f64,
    re: f64,
    im: f64,
    step_re: f64,
    step_im: f64,
}

/// The three curves for head dimension `d` (even, ≥ 2), RoPE `base`, trained length `trained`
/// (`L₀`), target `target` (`T > L₀`), `n` distractors (`n < T`) and `seed`. Preconditions as
/// stated; the CLI and the page check them first.
pub fn curves(d: usize, base: f64, trained: usize, target: usize, n: usize, seed: u64) -> Curves {
    let (q, keys) = vectors(d, n, seed);
    let ts = distances(n + 1, target);
    let theta = inv_freq(d, base);
    let yarn = RopeScaling {
        rope_type: RopeType::Yarn,
        dim: d,
        base,
        factor: target as f64 / trained as f64,
        original_max: trained,
        seq_len: target,
        ..RopeScaling::default()
    };
    let (yarn_theta, a) = yarn.compute();
    let plain = 1.0 / (d as f64).sqrt();
    let none_distractors: Vec<f64> = keys.iter().map(|k| dot(&q, k) * plain).collect();
    let none = weight(dot(&q, &q) * plain, log_sum_exp(&none_distractors));
    Curves {
        rope: rotated(&q, &keys, &theta, 1.0, &ts),
        yarn: rotated(&q, &keys, &yarn_theta, a, &ts),
        none: vec![none; ts.len()],
        distance: ts,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The weight straight from the definition: rotate q and every key to their positions and
    /// take the softmax over all `n + 1` scores.
    fn direct(q: &[f64], keys: &[Vec<f64>], theta: &[f64], a: f64, t: usize) -> f64 {
        let d = q.len() as f64;
        let query_pos = 10_000.0 + t as f64;
        let rq = rotate(q, query_pos, theta, Layout::Half);
        let score = |k: &[f64], dist: usize| {
            let rk = rotate(k, query_pos - dist as f64, theta, Layout::Half);
            dot(&rq, &rk) * a * a / d.sqrt()
        };
        let matching = score(q, t);
        let all: Vec<f64> = std::iter::once(matching)
            .chain(keys.iter().enumerate().map(|(i, k)| score(k, i + 1)))
            .collect();
        let lse = log_sum_exp(&all);
        (matching - lse).exp()
    }

    #[test]
    fn the_closed_form_equals_rotating_every_vector() {
        let (d, base, n, seed) = (16, 10_000.0, 5, 3);
        let (q, keys) = vectors(d, n, seed);
        let c = curves(d, base, 64, 256, n, seed);
        let theta = inv_freq(d, base);
        for (k, &t) in c.distance.iter().enumerate().step_by(17) {
            let want = direct(&q, &keys, &theta, 1.0, t);
            assert!(
                (c.rope[k] - want).abs() < 1e-9,
                "t = {t}: {} vs {want}",
                c.rope[k]
            );
        }
    }

    #[test]
    fn the_carried_rotation_does_not_drift_over_the_longest_curve() {
        // 2048 distances up to 2^20, steps of every size: each sampled weight still equals the
        // one from rotating every vector afresh (RoPE and YaRN alike).
        let (d, base, n, seed, trained, target) = (64, 10_000.0, 16, 9, 65_536, 1 << 20);
        let (q, keys) = vectors(d, n, seed);
        let c = curves(d, base, trained, target, n, seed);
        let m = c.distance.len();
        assert!(m > POINTS / 2 && c.distance[m - 1] == target);
        let theta = inv_freq(d, base);
        let yarn = RopeScaling {
            rope_type: RopeType::Yarn,
            dim: d,
            base,
            factor: (target / trained) as f64,
            original_max: trained,
            seq_len: target,
            ..RopeScaling::default()
        };
        let (yarn_theta, a) = yarn.compute();
        for k in (0..m).step_by(97).chain([m - 1]) {
            let t = c.distance[k];
            for (got, want) in [
                (c.rope[k], direct(&q, &keys, &theta, 1.0, t)),
                (c.yarn[k], direct(&q, &keys, &yarn_theta, a, t)),
            ] {
                assert!((got - want).abs() < 1e-9, "t = {t}: {got} vs {want}");
            }
        }
    }

    #[test]
    fn without_rotation_the_weight_ignores_the_distance() {
        let c = curves(32, 10_000.0, 128, 1024, 8, 1);
        assert!(c.none.windows(2).all(|w| w[0] == w[1]));
        assert!(
            c.rope
                .iter()
                .chain(&c.yarn)
                .chain(&c.none)
                .all(|w| *w > 0.0 && *w < 1.0)
        );
        // RoPE's does not: it moves with the distance.
        let (lo, hi) = c
            .rope
            .iter()
            .fold((1.0f64, 0.0f64), |(l, h), w| (l.min(*w), h.max(*w)));
        assert!(hi - lo > 1e-3, "{lo} … {hi}");
    }

    #[test]
    fn distances_are_spread_on_a_log_axis_with_few_distinct_steps() {
        assert_eq!(distances(3, 7), vec![3, 4, 5, 6, 7]);
        assert!(distances(9, 8).is_empty());
        for (first, last) in [
            (17, 131_072),
            (2, 1 << 20),
            (1025, 2048 + 1025),
            (513, 1 << 20),
        ] {
            let many = distances(first, last);
            assert!(
                many.len() <= POINTS && many.len() > POINTS / 2,
                "{first}…{last}: {}",
                many.len()
            );
            assert_eq!((many[0], *many.last().unwrap()), (first, last));
            assert!(many.windows(2).all(|w| w[0] < w[1]));
            // Each step is at most 1/32 of the distance it leaves from (even on a log axis) …
            assert!(
                many.windows(2).all(|w| (w[1] - w[0]) * 32 <= w[0].max(32)),
                "{first}…{last}"
            );
            // … and few steps differ: about one per octave.
            let mut steps: Vec<usize> = many.windows(2).map(|w| w[1] - w[0]).collect();
            steps.dedup();
            assert!(
                steps.len() <= 2 * 22,
                "{first}…{last}: {} runs of steps",
                steps.len()
            );
        }
        // Every distance while the step is one.
        let near = distances(17, 131_072);
        assert_eq!(&near[..20], &(17..37).collect::<Vec<_>>()[..]);
    }
}
