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

crate::names::named! {
    /// Which frequency scaling, named by its `rope_type` (as in transformers; `ntk` is ours) and
    /// listed in the order the explainer introduces them. `parse` does not read the legacy alias
    /// `su`: only [`super::rope_config::parse_config`] accepts it.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
    pub enum RopeType {
        /// Plain RoPE.
        #[default]
        Default = "default",
        /// Position interpolation.
        Linear = "linear",
        /// NTK-aware base change.
        Ntk = "ntk",
        /// Dynamic NTK.
        Dynamic = "dynamic",
        /// YaRN.
        Yarn = "yarn",
        /// Llama 3.
        Llama3 = "llama3",
        /// LongRoPE (Phi-3): one rescale factor per frequency pair.
        Longrope = "longrope",
    }
}

impl RopeType {
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
mod tests;
