//! YaRN's two corrections, kept apart, as transformers 5.24 applies them.
//!
//! 1. **The cos/sin amplitude** `attention_factor` (`modeling_rope_utils._compute_yarn_parameters`):
//!    the config's `attention_factor` when given, else `get_mscale(s, mscale) /
//!    get_mscale(s, mscale_all_dim)` when both fields are given and nonzero (DeepSeek), else
//!    `get_mscale(s) = 0.1·ln s + 1` ([`yarn_get_mscale`]; 1 for `s ≤ 1`). The rotary embedding
//!    multiplies cos and sin by it, so a rotated coordinate's product `q_i·k_i` is multiplied by
//!    its square; coordinates without RoPE are not touched.
//! 2. **The softmax scale** (`yarn_apply_mscale`, in the attention of DeepSeek-V2/V3 and the
//!    models copied from it): when `rope_type` is not `default` and `mscale_all_dim` is nonzero,
//!    `scaling = qk_head_dim^−0.5 · get_mscale(s, mscale_all_dim)²` — every logit, rotated
//!    coordinates or not. Other attentions (Qwen3's and gpt-oss's `head_dim^−0.5`, Gemma's own
//!    scales, …) are left as they are.
//!
//! DeepSeek-V3 (`factor` 40, `mscale` = `mscale_all_dim` = 1): amplitude 1, softmax scale
//! × get_mscale(40, 1)² = (0.1·ln 40 + 1)² ≈ 1.874.

use serde_json::{Map, Value};

use crate::math::rope_scaling::yarn_get_mscale;

/// One YaRN layer's fields that decide its two factors, and whether its attention applies the
/// softmax one.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct YarnScale {
    /// `factor` s.
    pub factor: f64,
    /// `attention_factor`, when the config gives it.
    pub attention_factor: Option<f64>,
    /// `mscale`.
    pub mscale: Option<f64>,
    /// `mscale_all_dim`.
    pub mscale_all_dim: Option<f64>,
    /// Whether the model's attention calls `yarn_apply_mscale`.
    pub softmax: bool,
}

/// DeepSeek-V3's published `rope_scaling` (the chapter's preset): factor 40, mscale 1,
/// mscale_all_dim 1, its attention applying the softmax factor.
pub const DEEPSEEK_V3: YarnScale = YarnScale {
    factor: 40.0,
    attention_factor: None,
    mscale: Some(1.0),
    mscale_all_dim: Some(1.0),
    softmax: true,
};

/// DeepSeek-V3's query-key head (the chapter's preset): `qk_nope_head_dim` 128 coordinates without
/// RoPE, `qk_rope_head_dim` 64 with.
pub const DEEPSEEK_V3_HEAD: (usize, usize) = (128, 64);

/// Whether a text model type's attention calls `yarn_apply_mscale` (of the types the chapter
/// reads, DeepSeek-V3's alone).
pub fn applies_softmax_factor(model_type: &str) -> bool {
    model_type == "deepseek_v3"
}

/// Layer `layer` of `model`'s YaRN fields; `None` when the layer does not rotate, is not YaRN,
/// or is out of range.
pub fn of_layer(model: &crate::math::layers::Model, layer: usize) -> Option<YarnScale> {
    let rope = model.layers.get(layer)?.rope.as_ref()?;
    let max_position = number(&model.fields, "max_position_embeddings");
    YarnScale::of_params(&rope.params, &model.model_type, max_position)
}

/// A number field of a RoPE dict; `None` when absent, null or not a finite number.
fn number(params: &Map<String, Value>, key: &str) -> Option<f64> {
    params
        .get(key)
        .and_then(Value::as_f64)
        .filter(|v| v.is_finite())
}

impl YarnScale {
    /// A layer's YaRN fields from its RoPE dict (`rope_type` `yarn`); its `factor`, or, when the
    /// dict gives none, `max_position / original_max_position_embeddings` as
    /// `_compute_yarn_parameters` takes it. `None` for another type or no factor to be had.
    pub fn of_params(
        params: &Map<String, Value>,
        model_type: &str,
        max_position: Option<f64>,
    ) -> Option<YarnScale> {
        if params.get("rope_type").and_then(Value::as_str) != Some("yarn") {
            return None;
        }
        let derived = || {
            let original = number(params, "original_max_position_embeddings")?;
            Some(max_position? / original).filter(|f| f.is_finite() && *f > 0.0)
        };
        let softmax = applies_softmax_factor(model_type);
        let factor = match params.get("factor") {
            // transformers reads params["factor"]: a dict without one is refused (KeyError).
            None => return None,
            // A null factor: _compute_yarn_parameters takes the ratio of the lengths, but
            // DeepSeek-V3's yarn_apply_mscale reads the null itself when mscale_all_dim is
            // nonzero, and fails.
            Some(Value::Null) => {
                if softmax && number(params, "mscale_all_dim").is_some_and(|m| m != 0.0) {
                    return None;
                }
                derived()?
            }
            Some(_) => number(params, "factor")?,
        };
        Some(YarnScale {
            factor,
            attention_factor: number(params, "attention_factor"),
            mscale: number(params, "mscale"),
            mscale_all_dim: number(params, "mscale_all_dim"),
            softmax,
        })
    }

    /// The same fields at another factor `s`.
    pub fn at(self, s: f64) -> YarnScale {
        YarnScale { factor: s, ..self }
    }

    /// Whether the amplitude comes from the `mscale` pair (both given and nonzero).
    pub fn pair(&self) -> Option<(f64, f64)> {
        match (self.mscale, self.mscale_all_dim) {
            (Some(m), Some(a)) if m != 0.0 && a != 0.0 => Some((m, a)),
            _ => None,
        }
    }

    /// The cos/sin amplitude `attention_factor`.
    pub fn amplitude(&self) -> f64 {
        if let Some(a) = self.attention_factor {
            return a;
        }
        match self.pair() {
            Some((m, a)) => yarn_get_mscale(self.factor, m) / yarn_get_mscale(self.factor, a),
            None => yarn_get_mscale(self.factor, 1.0),
        }
    }

    /// What `yarn_apply_mscale` multiplies the softmax scale by: `get_mscale(s,
    /// mscale_all_dim)²` when the attention applies it and `mscale_all_dim` is nonzero, else 1.
    pub fn softmax_factor(&self) -> f64 {
        match self.mscale_all_dim {
            Some(a) if self.softmax && a != 0.0 => yarn_get_mscale(self.factor, a).powi(2),
            _ => 1.0,
        }
    }

    /// What YaRN multiplies a rotated coordinate's share of a logit by: amplitude² × softmax.
    pub fn rotated_logit(&self) -> f64 {
        self.amplitude().powi(2) * self.softmax_factor()
    }

    /// What YaRN multiplies a coordinate without RoPE's share of a logit by: the softmax factor.
    pub fn plain_logit(&self) -> f64 {
        self.softmax_factor()
    }
}

/// A port that gets one of the two factors wrong.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Port {
    /// Leaves out `yarn_apply_mscale`'s softmax factor.
    NoSoftmax,
    /// Reads the amplitude as YaRN's default `get_mscale(s)`, ignoring the mscale pair.
    DefaultAmplitude,
    /// Divides the raw fields, `mscale / mscale_all_dim`, for the amplitude.
    RawRatio,
    /// Leaves cos and sin unscaled (amplitude 1).
    NoAmplitude,
}

impl Port {
    /// Every port, in the order the finding lists them.
    pub const ALL: [Port; 4] = [
        Port::NoSoftmax,
        Port::DefaultAmplitude,
        Port::RawRatio,
        Port::NoAmplitude,
    ];

    /// The port's (amplitude, softmax factor) for `y`; `None` when it is not a different
    /// reading of this layer (no softmax factor to leave out, no mscale pair to misread).
    pub fn factors(self, y: &YarnScale) -> Option<(f64, f64)> {
        let (a, s) = (y.amplitude(), y.softmax_factor());
        match self {
            Port::NoSoftmax => (s != 1.0).then_some((a, 1.0)),
            Port::DefaultAmplitude => y
                .pair()
                .filter(|_| y.attention_factor.is_none())
                .map(|_| (yarn_get_mscale(y.factor, 1.0), s)),
            Port::RawRatio => y
                .pair()
                .filter(|_| y.attention_factor.is_none())
                .map(|(m, all)| (m / all, s)),
            Port::NoAmplitude => (a != 1.0).then_some((1.0, s)),
        }
    }

    /// The port's (rotated, plain) logit multipliers over the right ones: 1 where it is right.
    pub fn error(self, y: &YarnScale) -> Option<(f64, f64)> {
        let (a, s) = self.factors(y)?;
        Some((a * a * s / y.rotated_logit(), s / y.plain_logit()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn deepseek_v3_keeps_cos_and_sin_and_scales_the_softmax_by_1_874() {
        let y = DEEPSEEK_V3;
        assert_eq!(y.amplitude(), 1.0);
        let s = (0.1 * 40f64.ln() + 1.0).powi(2);
        assert!((y.softmax_factor() - s).abs() < 1e-15);
        assert!((s - 1.8739).abs() < 1e-4);
        assert_eq!(Port::NoSoftmax.error(&y), Some((1.0 / s, 1.0 / s)));
        let (r, p) = Port::DefaultAmplitude.error(&y).unwrap();
        assert!((r - s).abs() < 1e-12 && p == 1.0);
        assert_eq!(Port::RawRatio.error(&y), Some((1.0, 1.0)));
        assert_eq!(Port::NoAmplitude.error(&y), None);
    }

    #[test]
    fn without_the_pair_the_amplitude_is_get_mscale_and_the_softmax_untouched() {
        let y = YarnScale {
            factor: 32.0,
            attention_factor: None,
            mscale: None,
            mscale_all_dim: None,
            softmax: false,
        };
        assert!((y.amplitude() - (0.1 * 32f64.ln() + 1.0)).abs() < 1e-15);
        assert_eq!(y.softmax_factor(), 1.0);
        assert_eq!(y.at(1.0).amplitude(), 1.0);
        let (r, p) = Port::NoAmplitude.error(&y).unwrap();
        assert!((r * y.amplitude().powi(2) - 1.0).abs() < 1e-12 && p == 1.0);
    }
}
