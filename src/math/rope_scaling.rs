//! RoPE context extension: the `rope_type`s of Hugging Face transformers'
//! `modeling_rope_utils.ROPE_INIT_FUNCTIONS`, each returning `(inv_freq, attention_factor)`.
//!
//! With `θ_i = base^(−2i/d)` (see [`super::rope::inv_freq`]) and scale factor `s`:
//!
//! - `default`: `θ_i`, attention factor 1.
//! - `linear` (position interpolation, Chen et al. 2023): `θ_i / s` — positions squeezed by `s`.
//! - `ntk` (NTK-aware scaling, bloc97 2023): the base grows to `base·s^(d/(d−2))`, so the lowest
//!   frequency is interpolated by exactly `s` and the highest is untouched.
//! - `dynamic` (dynamic NTK, `_compute_dynamic_ntk_parameters`): for a sequence of length
//!   `L = max(seq_len, L₀)`, base' = `base·(s·L/L₀ − (s − 1))^(d/(d−2))` — no change until the
//!   context `L₀` is exceeded.
//! - `yarn` (Peng et al. 2023, `_compute_yarn_parameters`): per frequency, a ramp between
//!   extrapolation (`θ_i`, for dimensions that turn more than `beta_fast` times within `L₀`) and
//!   interpolation (`θ_i/s`, for those turning fewer than `beta_slow` times):
//!   `low, high = find_correction_range(beta_fast, beta_slow)` with
//!   `dim(r) = d·ln(L₀/(2πr)) / (2·ln base)`, floored/ceiled and clamped to `[0, d−1]`;
//!   `ramp_i = clamp((i − low)/(high − low), 0, 1)` (`high += 0.001` if equal);
//!   `inv_freq_i = θ_i/s · ramp_i + θ_i · (1 − ramp_i)` (transformers writes it with
//!   `inv_freq_extrapolation_factor = 1 − ramp`: slow pairs are interpolated, fast ones kept);
//!   attention factor `0.1·ln(s) + 1` (`get_mscale`, 1 for `s ≤ 1`) — the default when the config
//!   gives no `attention_factor` (and no `mscale`/`mscale_all_dim` pair, DeepSeek's variant,
//!   which is not modelled here); `truncate` is transformers' default, `True`. The factor `s` is
//!   taken as given (transformers derives it as `max_position_embeddings / L₀` only when the
//!   config omits it).
//! - `llama3` (`_compute_llama3_parameters`): wavelengths `λ_i = 2π/θ_i` longer than
//!   `L₀/low_freq_factor` are divided by `s`, shorter than `L₀/high_freq_factor` kept, and in
//!   between blended with `smooth = (L₀/λ_i − low)/(high − low)`:
//!   `(1 − smooth)·θ_i/s + smooth·θ_i`. Attention factor 1.
//!
//! `ntk` and `dynamic` take the exponent `d/(d−2)`; transformers divides by zero at d = 2, where
//! here the exponent is 1 (the base simply scales by `s`). Every type returns finite, positive
//! frequencies for every input within [`super::limits`].

use super::rope::inv_freq;
use std::f64::consts::PI;

/// Which frequency scaling.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum RopeType {
    /// Plain RoPE.
    #[default]
    Default,
    /// Position interpolation.
    Linear,
    /// Dynamic NTK.
    Dynamic,
    /// YaRN.
    Yarn,
    /// Llama 3.
    Llama3,
    /// NTK-aware base change.
    Ntk,
}

impl RopeType {
    /// All types, in the order the explainer introduces them.
    pub const ALL: [RopeType; 6] = [
        RopeType::Default,
        RopeType::Linear,
        RopeType::Ntk,
        RopeType::Dynamic,
        RopeType::Yarn,
        RopeType::Llama3,
    ];

    /// The `rope_type` name (as in transformers; `ntk` is ours).
    pub fn as_str(self) -> &'static str {
        match self {
            RopeType::Default => "default",
            RopeType::Linear => "linear",
            RopeType::Dynamic => "dynamic",
            RopeType::Yarn => "yarn",
            RopeType::Llama3 => "llama3",
            RopeType::Ntk => "ntk",
        }
    }

    /// Reads [`RopeType::as_str`]'s names.
    pub fn parse(s: &str) -> Option<Self> {
        RopeType::ALL.into_iter().find(|t| t.as_str() == s)
    }
}

/// Everything a scaling may use. Preconditions: `dim` even ≥ 4 for `ntk`/`dynamic` (the exponent
/// `d/(d−2)`; d = 2 is treated as exponent 1), `base > 1`, `factor ≥ 1`, `original_max ≥ 1`,
/// `beta_fast > beta_slow > 0`, `high_freq_factor > low_freq_factor > 0`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RopeScaling {
    /// The scaling.
    pub rope_type: RopeType,
    /// head_dim.
    pub dim: usize,
    /// RoPE base (`rope_theta`).
    pub base: f64,
    /// Scale factor `s`.
    pub factor: f64,
    /// Trained context `L₀` (`max_position_embeddings` for `dynamic`,
    /// `original_max_position_embeddings` for `yarn` and `llama3`).
    pub original_max: usize,
    /// Current sequence length (for `dynamic`).
    pub seq_len: usize,
    /// YaRN `beta_fast` (default 32).
    pub beta_fast: f64,
    /// YaRN `beta_slow` (default 1).
    pub beta_slow: f64,
    /// Llama 3 `low_freq_factor` (default 1).
    pub low_freq_factor: f64,
    /// Llama 3 `high_freq_factor` (default 4).
    pub high_freq_factor: f64,
}

impl Default for RopeScaling {
    fn default() -> Self {
        RopeScaling {
            rope_type: RopeType::Default,
            dim: 128,
            base: 10_000.0,
            factor: 1.0,
            original_max: 4096,
            seq_len: 4096,
            beta_fast: 32.0,
            beta_slow: 1.0,
            low_freq_factor: 1.0,
            high_freq_factor: 4.0,
        }
    }
}

/// The NTK exponent `d/(d−2)` (1 for d ≤ 2, where it is undefined).
fn ntk_exponent(d: usize) -> f64 {
    if d > 2 {
        d as f64 / (d - 2) as f64
    } else {
        1.0
    }
}

/// YaRN's `get_mscale`: `0.1·ln(s) + 1` for `s > 1`, else 1.
pub fn yarn_mscale(s: f64) -> f64 {
    if s <= 1.0 { 1.0 } else { 0.1 * s.ln() + 1.0 }
}

/// YaRN's `find_correction_dim`: the (fractional) dimension index whose pair turns
/// `rotations` times over `max_pos` positions.
fn correction_dim(rotations: f64, d: usize, base: f64, max_pos: usize) -> f64 {
    d as f64 * (max_pos as f64 / (rotations * 2.0 * PI)).ln() / (2.0 * base.ln())
}

/// YaRN's `find_correction_range` with `truncate = True`: `(low, high)` dimension indices.
pub fn yarn_correction_range(c: &RopeScaling) -> (f64, f64) {
    let low = correction_dim(c.beta_fast, c.dim, c.base, c.original_max).floor();
    let high = correction_dim(c.beta_slow, c.dim, c.base, c.original_max).ceil();
    (low.max(0.0), high.min(c.dim as f64 - 1.0))
}

impl RopeScaling {
    /// `(inv_freq, attention_factor)` as transformers computes them for this `rope_type`.
    pub fn compute(&self) -> (Vec<f64>, f64) {
        let d = self.dim;
        let s = self.factor;
        let theta = inv_freq(d, self.base);
        match self.rope_type {
            RopeType::Default => (theta, 1.0),
            RopeType::Linear => (theta.iter().map(|t| t / s).collect(), 1.0),
            RopeType::Ntk => (inv_freq(d, self.base * s.powf(ntk_exponent(d))), 1.0),
            RopeType::Dynamic => {
                let l0 = self.original_max as f64;
                let len = self.seq_len.max(self.original_max) as f64;
                let grown = (s * len / l0 - (s - 1.0)).powf(ntk_exponent(d));
                (inv_freq(d, self.base * grown), 1.0)
            }
            RopeType::Yarn => {
                let (low, mut high) = yarn_correction_range(self);
                if low == high {
                    high += 0.001;
                }
                let freqs = theta
                    .iter()
                    .enumerate()
                    .map(|(i, &t)| {
                        let ramp = ((i as f64 - low) / (high - low)).clamp(0.0, 1.0);
                        let extrapolation = 1.0 - ramp;
                        (t / s) * (1.0 - extrapolation) + t * extrapolation
                    })
                    .collect();
                (freqs, yarn_mscale(s))
            }
            RopeType::Llama3 => {
                let l0 = self.original_max as f64;
                let (lo, hi) = (self.low_freq_factor, self.high_freq_factor);
                let (low_wavelen, high_wavelen) = (l0 / lo, l0 / hi);
                let freqs = theta
                    .iter()
                    .map(|&t| {
                        let wavelen = 2.0 * PI / t;
                        if wavelen > low_wavelen {
                            t / s
                        } else if wavelen < high_wavelen {
                            t
                        } else if hi > lo {
                            let smooth = (l0 / wavelen - lo) / (hi - lo);
                            (1.0 - smooth) * t / s + smooth * t
                        } else {
                            // No band between the two (high_freq_factor ≤ low_freq_factor, outside
                            // the precondition): the wavelength sits on the shared edge; keep θ
                            // rather than divide by zero.
                            t
                        }
                    })
                    .collect();
                (freqs, 1.0)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cfg(rope_type: RopeType, factor: f64) -> RopeScaling {
        RopeScaling {
            rope_type,
            factor,
            ..RopeScaling::default()
        }
    }

    #[test]
    fn ntk_interpolates_the_lowest_frequency_by_exactly_s() {
        // base' = base·s^(d/(d−2)) makes θ'_{d/2−1} = base'^(−(d−2)/d) = θ_{d/2−1}/s.
        let (plain, _) = cfg(RopeType::Default, 1.0).compute();
        let (ntk, _) = cfg(RopeType::Ntk, 8.0).compute();
        let last = plain.len() - 1;
        assert!((ntk[last] - plain[last] / 8.0).abs() < 1e-15);
        assert_eq!(ntk[0], 1.0);
    }

    #[test]
    fn dynamic_changes_nothing_inside_the_trained_context() {
        let mut c = cfg(RopeType::Dynamic, 4.0);
        c.seq_len = 1000;
        assert_eq!(c.compute().0, cfg(RopeType::Default, 1.0).compute().0);
        c.seq_len = 4 * 4096;
        assert!(c.compute().0[10] < cfg(RopeType::Default, 1.0).compute().0[10]);
    }

    #[test]
    fn yarn_keeps_fast_dims_and_interpolates_slow_ones() {
        // d = 128, base 10000, L₀ = 4096: low = ⌊dim(32)⌋, high = ⌈dim(1)⌉ with
        // dim(r) = 128·ln(4096/(2π·r))/(2·ln 10000) (= 20.94 and 45.03, so 20 and 46).
        let c = cfg(RopeType::Yarn, 4.0);
        let (low, high) = yarn_correction_range(&c);
        let by_hand = |r: f64| 128.0 * (4096.0 / (2.0 * PI * r)).ln() / (2.0 * 10_000f64.ln());
        assert_eq!(low, by_hand(32.0).floor());
        assert_eq!(high, by_hand(1.0).ceil());
        let (f, attn) = c.compute();
        let (plain, _) = cfg(RopeType::Default, 1.0).compute();
        assert_eq!(f[0], plain[0]);
        assert!((f[63] - plain[63] / 4.0).abs() < 1e-18);
        assert!((attn - (0.1 * 4f64.ln() + 1.0)).abs() < 1e-15);
    }

    #[test]
    fn yarn_spot_value_by_hand() {
        // Same setting: (low, high) = (20, 46). Pair 30 has ramp (30 − 20)/(46 − 20) = 5/13, so
        // inv_freq = θ₃₀·(ramp/4 + 1 − ramp) = θ₃₀·0.7115384615…, θ₃₀ = 10000^(−60/128)
        // = 0.0133352143…: 0.0094885178827 (by hand, to 11 digits).
        let c = cfg(RopeType::Yarn, 4.0);
        assert_eq!(yarn_correction_range(&c), (20.0, 46.0));
        let (f, _) = c.compute();
        assert!((f[30] - 0.009_488_517_882_7).abs() < 1e-13, "{}", f[30]);
        // Outside the ramp: pair 20 keeps θ (ramp 0), pair 46 and beyond are θ/4 (ramp 1).
        let plain = inv_freq(128, 10_000.0);
        assert_eq!(f[20], plain[20]);
        assert!((f[46] - plain[46] / 4.0).abs() < 1e-18);
        // No scaling, no attention change.
        assert_eq!(yarn_mscale(1.0), 1.0);
        assert_eq!(yarn_mscale(0.5), 1.0);
    }

    #[test]
    fn llama3_spot_value_by_hand() {
        // Llama 3.1: d = 128, base 500000, s = 8, L₀ = 8192, factors 1 and 4. Pair 32 has
        // θ = 500000^(−1/2) = 0.00141421356…, wavelength 2π/θ = 4442.88 (between 2048 and 8192),
        // smooth = (8192/4442.88 − 1)/3 = 0.2812826…, so inv_freq = θ·((1 − smooth)/8 + smooth)
        // = θ·0.3711222795 = 0.000524846160993 (by hand).
        let c = RopeScaling {
            rope_type: RopeType::Llama3,
            base: 500_000.0,
            factor: 8.0,
            original_max: 8192,
            ..RopeScaling::default()
        };
        let (f, attn) = c.compute();
        assert!((f[32] - 0.000_524_846_160_993).abs() < 1e-15, "{}", f[32]);
        assert_eq!(attn, 1.0);
    }

    #[test]
    fn llama3_with_equal_factors_stays_finite() {
        let mut c = cfg(RopeType::Llama3, 8.0);
        c.low_freq_factor = 2.0;
        c.high_freq_factor = 2.0;
        assert!(c.compute().0.iter().all(|v| v.is_finite() && *v > 0.0));
    }

    #[test]
    fn every_type_at_d_2_is_finite() {
        for t in RopeType::ALL {
            let c = RopeScaling {
                rope_type: t,
                dim: 2,
                factor: 64.0,
                seq_len: 1 << 24,
                ..RopeScaling::default()
            };
            let (f, attn) = c.compute();
            assert_eq!(f.len(), 1);
            assert!(f[0].is_finite() && f[0] > 0.0 && attn.is_finite(), "{t:?}");
        }
    }

    #[test]
    fn llama3_matches_its_three_bands() {
        let mut c = cfg(RopeType::Llama3, 8.0);
        c.original_max = 8192;
        c.base = 500_000.0;
        let (f, _) = c.compute();
        let plain = inv_freq(128, 500_000.0);
        for (i, (&got, &t)) in f.iter().zip(&plain).enumerate() {
            let wavelen = 2.0 * PI / t;
            if wavelen < 8192.0 / 4.0 {
                assert_eq!(got, t, "high frequency {i} kept");
            } else if wavelen > 8192.0 {
                assert_eq!(got, t / 8.0, "low frequency {i} divided");
            } else {
                assert!(got < t && got > t / 8.0, "medium {i} blended");
            }
        }
    }

    #[test]
    fn names_round_trip() {
        for t in RopeType::ALL {
            assert_eq!(RopeType::parse(t.as_str()), Some(t));
        }
        assert_eq!(RopeType::parse("longrope"), None);
    }
}
