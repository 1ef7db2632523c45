//! RoPE context extension, each type returning `(inv_freq, attention_factor)`: the scalings of
//! Hugging Face transformers 5.24's `modeling_rope_utils.ROPE_INIT_FUNCTIONS` that this app models
//! (`linear`, `dynamic`, `yarn`, `longrope`, `llama3`; the map also holds `proportional`, not
//! modelled here, and has no `default` entry — each model computes plain RoPE itself), plus plain
//! RoPE (`default`) and bloc97's fixed NTK-aware base change (`ntk`, ours).
//!
//! With `θ_i = base^(−2i/d)` (see [`super::rope::inv_freq`]), `d` the rotary dimension and scale
//! factor `s`:
//!
//! - `default`: `θ_i`, attention factor 1.
//! - `linear` (position interpolation, Chen et al. 2023): `θ_i / s` — positions squeezed by `s`.
//! - `ntk` (NTK-aware scaling, bloc97 2023): the base grows to `base·s^(d/(d−2))`, so the lowest
//!   frequency is interpolated by exactly `s` and the highest is untouched.
//! - `dynamic` (dynamic NTK, `_compute_dynamic_ntk_parameters`): for a sequence of length
//!   `L = max(seq_len, L₀)`, base' = `base·(s·L/L₀ − (s − 1))^(d/(d−2))` — no change until the
//!   context `L₀` is exceeded. (At run time transformers 5.24's `dynamic_frequency_update`
//!   recomputes only when a sequence is longer than the longest so far, and restores the trained
//!   frequencies only for a sequence shorter than `L₀` after having grown.)
//! - `yarn` (Peng et al. 2023, `_compute_yarn_parameters`): per frequency, a ramp between
//!   extrapolation (`θ_i`, for dimensions that turn more than `beta_fast` times within `L₀`) and
//!   interpolation (`θ_i/s`, for those turning fewer than `beta_slow` times):
//!   `low, high = find_correction_range(beta_fast, beta_slow)` with
//!   `dim(r) = d·ln(L₀/(2πr)) / (2·ln base)`, floored/ceiled when `truncate` (transformers'
//!   default) and clamped to `[0, d−1]`; `ramp_i = clamp((i − low)/(high − low), 0, 1)`
//!   (`high += 0.001` if equal); `inv_freq_i = θ_i/s · ramp_i + θ_i · (1 − ramp_i)` (transformers
//!   writes it with `inv_freq_extrapolation_factor = 1 − ramp`: slow pairs are interpolated, fast
//!   ones kept). Attention factor: the config's `attention_factor` if given, else
//!   `get_mscale(s, mscale)/get_mscale(s, mscale_all_dim)` when both are given and nonzero
//!   (DeepSeek), else `get_mscale(s) = 0.1·ln(s) + 1` (1 for `s ≤ 1`). The factor `s` is taken as
//!   given (transformers derives it as `max_position_embeddings / L₀` only when the config's
//!   factor is null; see [`super::rope_config`]).
//! - `longrope` (LongRoPE, Ding et al. 2024, `_compute_longrope_parameters`): one rescale factor
//!   per pair, `inv_freq_i = 1/(ext_i · base^(2i/d))`, with `ext = long_factor` when the current
//!   sequence is longer than `L₀` and `short_factor` otherwise. Attention factor: the config's if
//!   given, else 1 for `s ≤ 1`, else `sqrt(1 + ln(s)/ln(L₀))`.
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
    /// LongRoPE (Phi-3): one rescale factor per frequency pair.
    Longrope,
}

impl RopeType {
    /// All types, in the order the explainer introduces them.
    pub const ALL: [RopeType; 7] = [
        RopeType::Default,
        RopeType::Linear,
        RopeType::Ntk,
        RopeType::Dynamic,
        RopeType::Yarn,
        RopeType::Llama3,
        RopeType::Longrope,
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
            RopeType::Longrope => "longrope",
        }
    }

    /// A human name for menus and headings.
    pub fn label(self) -> &'static str {
        match self {
            RopeType::Default => "none (plain RoPE)",
            RopeType::Linear => "linear (position interpolation)",
            RopeType::Ntk => "NTK-aware",
            RopeType::Dynamic => "dynamic NTK",
            RopeType::Yarn => "YaRN",
            RopeType::Llama3 => "Llama 3",
            RopeType::Longrope => "LongRoPE",
        }
    }

    /// Reads [`RopeType::as_str`]'s names (not the legacy alias `su`, which only
    /// [`super::rope_config::parse_config`] accepts).
    pub fn parse(s: &str) -> Option<Self> {
        RopeType::ALL.into_iter().find(|t| t.as_str() == s)
    }
}

/// Everything a scaling may use. Preconditions: `dim` even ≥ 4 for `ntk`/`dynamic` (the exponent
/// `d/(d−2)`; d = 2 is treated as exponent 1), `base > 1`, `factor ≥ 1`, `original_max ≥ 1`,
/// `beta_fast > beta_slow > 0`, `high_freq_factor > low_freq_factor > 0`, `mscale`,
/// `mscale_all_dim` ≥ 0, every LongRoPE list entry > 0. [`super::limits`] keeps every input within
/// these; outside them the results stay finite where transformers would divide by zero.
#[derive(Clone, Debug, PartialEq)]
pub struct RopeScaling {
    /// The scaling.
    pub rope_type: RopeType,
    /// The rotary dimension: how many coordinates of a head rotate
    /// (`int(head_dim · partial_rotary_factor)`).
    pub dim: usize,
    /// RoPE base (`rope_theta`).
    pub base: f64,
    /// Scale factor `s`.
    pub factor: f64,
    /// Trained context `L₀` (`max_position_embeddings` for `dynamic`,
    /// `original_max_position_embeddings` for `yarn`, `llama3` and `longrope`).
    pub original_max: usize,
    /// Current sequence length (`dynamic`; `longrope` takes its long factors above `L₀`).
    pub seq_len: usize,
    /// YaRN `beta_fast` (default 32).
    pub beta_fast: f64,
    /// YaRN `beta_slow` (default 1).
    pub beta_slow: f64,
    /// Llama 3 `low_freq_factor` (default 1).
    pub low_freq_factor: f64,
    /// Llama 3 `high_freq_factor` (default 4).
    pub high_freq_factor: f64,
    /// The config's explicit `attention_factor` (`yarn`, `longrope`; the other types ignore it,
    /// as transformers does).
    pub attention_factor: Option<f64>,
    /// YaRN `mscale` (DeepSeek): with `mscale_all_dim`, sets the default attention factor.
    pub mscale: Option<f64>,
    /// YaRN `mscale_all_dim` (DeepSeek).
    pub mscale_all_dim: Option<f64>,
    /// LongRoPE factors for sequences up to `L₀`, one per pair (`dim/2`); empty = all 1.
    pub short_factor: Vec<f64>,
    /// LongRoPE factors for sequences longer than `L₀`, one per pair; empty = all 1.
    pub long_factor: Vec<f64>,
    /// YaRN `truncate` (default true): floor/ceil the correction range. gpt-oss sets it false.
    pub truncate: bool,
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
            attention_factor: None,
            mscale: None,
            mscale_all_dim: None,
            short_factor: Vec::new(),
            long_factor: Vec::new(),
            truncate: true,
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

/// Dynamic NTK's base at current length `len` (`_compute_dynamic_ntk_parameters`):
/// `base · (s·L/L₀ − (s − 1))^(d/(d−2))` with `L = max(len, L₀)` (exponent 1 at `d ≤ 2`), so
/// nothing changes up to `L₀`.
pub fn dynamic_base(base: f64, dim: usize, factor: f64, original: usize, len: usize) -> f64 {
    let l0 = original.max(1) as f64;
    let l = len.max(original) as f64;
    base * (factor * l / l0 - (factor - 1.0)).powf(ntk_exponent(dim))
}

/// LongRoPE's default attention factor (`_compute_longrope_parameters`, from Phi-3):
/// `√(1 + ln s / ln L₀)`, 1 for `s ≤ 1` or `L₀ ≤ 1` (where transformers would divide by
/// `ln 1 = 0`).
pub fn longrope_default_factor(s: f64, original: usize) -> f64 {
    if s <= 1.0 || original <= 1 {
        1.0
    } else {
        (1.0 + s.ln() / (original as f64).ln()).sqrt()
    }
}

/// YaRN's `get_mscale(s, m)` (inside `_compute_yarn_parameters`): `0.1·m·ln(s) + 1` for `s > 1`,
/// else 1.
pub fn yarn_get_mscale(s: f64, m: f64) -> f64 {
    if s <= 1.0 {
        1.0
    } else {
        0.1 * m * s.ln() + 1.0
    }
}

/// YaRN's default attention factor `get_mscale(s) = 0.1·ln(s) + 1` for `s > 1`, else 1.
pub fn yarn_mscale(s: f64) -> f64 {
    yarn_get_mscale(s, 1.0)
}

/// YaRN's `find_correction_dim`: the (fractional) dimension index whose pair turns
/// `rotations` times over `max_pos` positions.
pub fn yarn_correction_dim(rotations: f64, d: usize, base: f64, max_pos: usize) -> f64 {
    d as f64 * (max_pos as f64 / (rotations * 2.0 * PI)).ln() / (2.0 * base.ln())
}

/// YaRN's `find_correction_range(beta_fast, beta_slow, d, base, L₀, truncate)`: `(low, high)`
/// dimension indices, `low = dim(beta_fast)` and `high = dim(beta_slow)` floored and ceiled when
/// `truncate`, then clamped to `low ≥ 0`, `high ≤ d − 1` — the head's `d` coordinates, as
/// transformers clamps them, although the ramp runs over the `d/2` pairs: a `high` past the last
/// pair leaves the slowest pairs only partly interpolated, and a clamp can invert the range.
pub fn yarn_correction_range(c: &RopeScaling) -> (f64, f64) {
    let mut low = yarn_correction_dim(c.beta_fast, c.dim, c.base, c.original_max);
    let mut high = yarn_correction_dim(c.beta_slow, c.dim, c.base, c.original_max);
    if c.truncate {
        low = low.floor();
        high = high.ceil();
    }
    (low.max(0.0), high.min(c.dim as f64 - 1.0))
}

impl RopeScaling {
    /// `(inv_freq, attention_factor)` as transformers computes them: plain RoPE as each model's
    /// default does, the others as `ROPE_INIT_FUNCTIONS[rope_type]`
    /// (`_compute_linear_scaling_rope_parameters`,
    /// `_compute_dynamic_ntk_parameters`, `_compute_yarn_parameters`,
    /// `_compute_longrope_parameters`, `_compute_llama3_parameters`; `ntk` is ours). The formulas
    /// are in the module documentation; `dim/2` frequencies, each finite and positive.
    pub fn compute(&self) -> (Vec<f64>, f64) {
        let d = self.dim;
        let s = self.factor;
        let theta = inv_freq(d, self.base);
        match self.rope_type {
            RopeType::Default => (theta, 1.0),
            RopeType::Linear => (theta.iter().map(|t| t / s).collect(), 1.0),
            RopeType::Ntk => (inv_freq(d, self.base * s.powf(ntk_exponent(d))), 1.0),
            RopeType::Dynamic => {
                let base = dynamic_base(self.base, d, s, self.original_max, self.seq_len);
                (inv_freq(d, base), 1.0)
            }
            RopeType::Yarn => (self.yarn_freqs(&theta), self.yarn_attention_factor()),
            RopeType::Longrope => {
                let ext = self.longrope_factors();
                let freqs = theta.iter().zip(&ext).map(|(t, e)| t / e).collect();
                (freqs, self.longrope_attention_factor())
            }
            RopeType::Llama3 => (self.llama3_freqs(&theta), 1.0),
        }
    }

    /// `θ_i / θ'_i` for each pair: how much this scaling slows pair `i` down (1 = untouched,
    /// `s` = fully interpolated). The ratio of [`super::rope::inv_freq`] to [`Self::compute`]'s
    /// frequencies.
    pub fn scale_per_pair(&self) -> Vec<f64> {
        let plain = inv_freq(self.dim, self.base);
        plain
            .iter()
            .zip(self.compute().0)
            .map(|(p, f)| p / f)
            .collect()
    }

    /// `_compute_yarn_parameters`' frequencies: `θ_i/s · ramp_i + θ_i · (1 − ramp_i)` with
    /// `ramp_i = clamp((i − low)/(high − low), 0, 1)` over [`yarn_correction_range`].
    fn yarn_freqs(&self, theta: &[f64]) -> Vec<f64> {
        let s = self.factor;
        let (low, mut high) = yarn_correction_range(self);
        if low == high {
            high += 0.001;
        }
        theta
            .iter()
            .enumerate()
            .map(|(i, &t)| {
                let ramp = ((i as f64 - low) / (high - low)).clamp(0.0, 1.0);
                let extrapolation = 1.0 - ramp;
                (t / s) * (1.0 - extrapolation) + t * extrapolation
            })
            .collect()
    }

    /// `_compute_yarn_parameters`' attention factor: the explicit `attention_factor`, else
    /// `get_mscale(s, mscale)/get_mscale(s, mscale_all_dim)` when both are given and nonzero, else
    /// `get_mscale(s) = 0.1·ln(s) + 1` ([`yarn_get_mscale`]).
    pub fn yarn_attention_factor(&self) -> f64 {
        if let Some(a) = self.attention_factor {
            return a;
        }
        match (self.mscale, self.mscale_all_dim) {
            (Some(m), Some(m_all)) if m != 0.0 && m_all != 0.0 => {
                yarn_get_mscale(self.factor, m) / yarn_get_mscale(self.factor, m_all)
            }
            _ => yarn_mscale(self.factor),
        }
    }

    /// LongRoPE's `ext_i` (`_compute_longrope_parameters`): `long_factor` when
    /// `seq_len > original_max`, else `short_factor`; `dim/2` entries, missing ones (an empty or
    /// short list) taken as 1 and extra ones ignored.
    pub fn longrope_factors(&self) -> Vec<f64> {
        let list = if self.seq_len > self.original_max {
            &self.long_factor
        } else {
            &self.short_factor
        };
        list.iter()
            .copied()
            .chain(std::iter::repeat(1.0))
            .take(self.dim / 2)
            .collect()
    }

    /// `_compute_longrope_parameters`' attention factor: the explicit `attention_factor`, else 1
    /// for `s ≤ 1`, else `sqrt(1 + ln(s)/ln(L₀))`. (At `L₀ = 1` transformers divides by
    /// `ln 1 = 0`; here the factor is then 1.)
    pub fn longrope_attention_factor(&self) -> f64 {
        if let Some(a) = self.attention_factor {
            return a;
        }
        longrope_default_factor(self.factor, self.original_max)
    }

    /// `_compute_llama3_parameters`' frequencies: wavelengths above `L₀/low_freq_factor` divided
    /// by `s`, below `L₀/high_freq_factor` kept, in between
    /// `(1 − smooth)·θ/s + smooth·θ` with `smooth = (L₀/λ − low)/(high − low)`.
    fn llama3_freqs(&self, theta: &[f64]) -> Vec<f64> {
        let s = self.factor;
        let l0 = self.original_max as f64;
        let (lo, hi) = (self.low_freq_factor, self.high_freq_factor);
        let (low_wavelen, high_wavelen) = (l0 / lo, l0 / hi);
        theta
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
            .collect()
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
        assert_eq!(RopeType::parse("longrope"), Some(RopeType::Longrope));
        assert_eq!(
            RopeType::parse("su"),
            None,
            "the legacy alias is the config parser's"
        );
        assert_eq!(RopeType::Longrope.label(), "LongRoPE");
        assert_eq!(RopeType::ALL[0].label(), "none (plain RoPE)");
    }

    #[test]
    fn yarn_mscale_pair_sets_the_attention_factor() {
        // DeepSeek-V2: mscale = mscale_all_dim = 0.707, s = 40: the ratio is exactly 1.
        let mut c = cfg(RopeType::Yarn, 40.0);
        c.mscale = Some(0.707);
        c.mscale_all_dim = Some(0.707);
        assert_eq!(c.compute().1, 1.0);
        // mscale 1 with mscale_all_dim 0.707 (a made-up pair): (0.1·ln 40 + 1)/(0.0707·ln 40 + 1)
        // = 1.3688879/1.2608040 = 1.0857264 (by hand).
        c.mscale = Some(1.0);
        assert!(
            (c.compute().1 - 1.085_726_4).abs() < 1e-7,
            "{}",
            c.compute().1
        );
        // A zero in the pair falls back to get_mscale(s); an explicit attention_factor wins.
        c.mscale_all_dim = Some(0.0);
        assert_eq!(c.compute().1, yarn_mscale(40.0));
        c.attention_factor = Some(0.5);
        assert_eq!(c.compute().1, 0.5);
    }

    #[test]
    fn yarn_without_truncation_keeps_the_fractional_range() {
        // Same setting as above: dim(32) = 20.94…, dim(1) = 45.03… unrounded.
        let mut c = cfg(RopeType::Yarn, 4.0);
        c.truncate = false;
        let (low, high) = yarn_correction_range(&c);
        assert!(
            (low - 20.94).abs() < 0.01 && (high - 45.03).abs() < 0.01,
            "{low} {high}"
        );
        // Pair 21 sits just past low: ramp (21 − low)/(high − low) ≈ 0.0024, almost θ.
        let f = c.compute().0;
        let plain = inv_freq(128, 10_000.0);
        let ramp = (21.0 - low) / (high - low);
        assert!((f[21] - plain[21] * (ramp / 4.0 + 1.0 - ramp)).abs() < 1e-18);
    }

    #[test]
    fn longrope_picks_short_or_long_factors_by_sequence_length() {
        // d = 8 (4 pairs), base 100: θ = 1, 0.316…, 0.1, 0.0316…
        let c = RopeScaling {
            rope_type: RopeType::Longrope,
            dim: 8,
            base: 100.0,
            factor: 32.0,
            original_max: 4096,
            seq_len: 4096,
            short_factor: vec![1.0, 2.0, 4.0, 8.0],
            long_factor: vec![1.0, 10.0, 20.0, 40.0],
            ..RopeScaling::default()
        };
        let plain = inv_freq(8, 100.0);
        let (f, attn) = c.compute();
        assert_eq!(f[2], plain[2] / 4.0, "short factors up to L₀");
        // sqrt(1 + ln 32/ln 4096) = sqrt(1 + 5/12) = sqrt(17/12).
        assert!((attn - (17.0f64 / 12.0).sqrt()).abs() < 1e-15);
        let long = RopeScaling {
            seq_len: 4097,
            ..c.clone()
        };
        assert_eq!(
            long.compute().0[3],
            plain[3] / 40.0,
            "long factors beyond L₀"
        );
        assert_eq!(long.scale_per_pair(), vec![1.0, 10.0, 20.0, 40.0]);
        // Empty lists are all ones; factor ≤ 1 gives attention 1; an explicit one wins.
        let plainish = RopeScaling {
            short_factor: Vec::new(),
            factor: 1.0,
            ..c.clone()
        };
        assert_eq!(plainish.compute(), (plain.clone(), 1.0));
        let explicit = RopeScaling {
            attention_factor: Some(1.25),
            ..c
        };
        assert_eq!(explicit.compute().1, 1.25);
    }

    #[test]
    fn scale_per_pair_is_one_for_plain_and_s_for_linear() {
        assert!(
            cfg(RopeType::Default, 1.0)
                .scale_per_pair()
                .iter()
                .all(|&r| r == 1.0)
        );
        let r = cfg(RopeType::Linear, 8.0).scale_per_pair();
        assert!(r.iter().all(|&x| (x - 8.0).abs() < 1e-12), "{r:?}");
        // YaRN: 1 for the fast pairs (below low = 20), s for the slow ones (from high = 46).
        let y = cfg(RopeType::Yarn, 4.0).scale_per_pair();
        assert_eq!(y[0], 1.0);
        assert!((y[63] - 4.0).abs() < 1e-12);
    }
}
