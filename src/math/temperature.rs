//! Query temperature at long positions: two mechanisms in transformers 5.24 that multiply a
//! query by a factor growing with its position `p` (from 0), which multiplies every logit of its
//! row by that factor — a softmax temperature `1/s`.
//!
//! - **Llama 4** (`Llama4TextAttention.forward`, `attn_temperature_tuning`, on by default): only
//!   the layers **without** RoPE, `s(p) = 1 + attn_scale · ln(1 + ⌊(p + 1)/floor_scale⌋)`
//!   (`torch.log1p(torch.floor((positions + 1) / floor_scale)) * attn_scale + 1`;
//!   `Llama4TextConfig` defaults `attn_scale` 0.1, `floor_scale` 8192).
//! - **Ministral 3 and Mistral 4** (`get_llama_4_attn_scale`, applied to every layer's queries
//!   after RoPE): `s(p) = 1 + β · ln(1 + ⌊p / L₀⌋)` with `β` = `rope_parameters
//!   ["llama_4_scaling_beta"]` and `L₀` = `rope_parameters["original_max_position_embeddings"]`
//!   (`Ministral3Config`'s defaults 0.1 and 16 384; `Mistral4Config`'s 0.1 and 8192).
//!
//! Both are steps: `s` is 1 until `p + offset` reaches the floor, then `1 + scale·ln 2` until it
//! reaches twice the floor, then `1 + scale·ln 3`, … .

use serde_json::{Map, Value};

/// `s(p) = 1 + scale · ln(1 + ⌊(p + offset)/floor⌋)`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct QueryScale {
    /// `attn_scale` (Llama 4) or `llama_4_scaling_beta` (Mistral).
    pub scale: f64,
    /// `floor_scale` (Llama 4) or `original_max_position_embeddings` (Mistral), ≥ 1.
    pub floor: usize,
    /// 1 for Llama 4 (`p + 1`), 0 for Mistral.
    pub offset: usize,
}

/// Llama 4's defaults (`Llama4TextConfig`: `attn_scale` 0.1, `floor_scale` 8192).
pub const LLAMA4: QueryScale = QueryScale {
    scale: 0.1,
    floor: 8192,
    offset: 1,
};

/// Ministral 3's defaults (`Ministral3Config`: `llama_4_scaling_beta` 0.1,
/// `original_max_position_embeddings` 16 384).
pub const MINISTRAL3: QueryScale = QueryScale {
    scale: 0.1,
    floor: 16_384,
    offset: 0,
};

impl QueryScale {
    /// `s(p)`.
    pub fn at(&self, p: usize) -> f64 {
        let k = (p + self.offset) / self.floor.max(1);
        1.0 + self.scale * (k as f64).ln_1p()
    }

    /// The first position where `s` is above 1.
    pub fn first_raised(&self) -> usize {
        self.floor.max(1).saturating_sub(self.offset)
    }

    /// The position where `s` takes its `k`-th step up (`k ≥ 1`): `k·floor − offset`, the first
    /// `p` with `⌊(p + offset)/floor⌋ = k`; `None` past `usize` or for `k = 0`.
    pub fn step(&self, k: usize) -> Option<usize> {
        if k == 0 {
            return None;
        }
        k.checked_mul(self.floor.max(1))?.checked_sub(self.offset)
    }
}

/// Llama 4's scale as a Llama 4 config sets it, and what was not used.
#[derive(Clone, Debug, PartialEq)]
pub struct Llama4Scale {
    /// The scale; `None` when `attn_temperature_tuning` is off.
    pub scale: Option<QueryScale>,
    /// One line per field that could not be used, with the default used instead.
    pub notes: Vec<String>,
}

/// Python's truth of a JSON value: `false`, `null`, `0`, `""`, `[]` and `{}` are false.
fn truthy(v: &Value) -> bool {
    match v {
        Value::Null => false,
        Value::Bool(b) => *b,
        Value::Number(n) => n.as_f64() != Some(0.0),
        Value::String(s) => !s.is_empty(),
        Value::Array(a) => !a.is_empty(),
        Value::Object(o) => !o.is_empty(),
    }
}

/// The largest `floor_scale` read (a floor past any context: no step).
const MAX_FLOOR: f64 = (1u64 << 40) as f64;

/// Llama 4's scale from a Llama 4 text config's fields. `Llama4TextConfig` is a strict dataclass
/// in 5.24 (huggingface_hub's `@strict`): it refuses an `attn_temperature_tuning` that is not a
/// bool (some published configs write `4`), an `attn_scale` that is not a float and a
/// `floor_scale` that is not an int. Such values are read here as the model code would use them
/// (the tuning as Python's `if` reads it), with a note; `floor_scale` 0 (a division by zero in
/// transformers) and a negative `attn_scale` are replaced by the class's defaults, with a note.
pub fn llama4_of(fields: &Map<String, Value>) -> Llama4Scale {
    let mut notes = Vec::new();
    let refused = "transformers 5.24 refuses such a config (strict types)";
    if let Some(v) = fields.get("attn_temperature_tuning") {
        let on = truthy(v);
        if !v.is_boolean() {
            notes.push(format!(
                "attn_temperature_tuning {v} is not true or false: {refused}; read as Python's \
                 if reads it, {}",
                if on { "on" } else { "off" }
            ));
        }
        if !on {
            return Llama4Scale { scale: None, notes };
        }
    }
    let scale = match fields.get("attn_scale") {
        None => LLAMA4.scale,
        Some(v) => match v.as_f64().filter(|s| s.is_finite() && *s >= 0.0) {
            Some(s) => {
                if !v.is_f64() {
                    notes.push(format!(
                        "attn_scale {v} is an integer: {refused}; read as {s}"
                    ));
                }
                s
            }
            None => {
                notes.push(format!(
                    "attn_scale {v} is not a number ≥ 0: drawn with the default {}",
                    LLAMA4.scale
                ));
                LLAMA4.scale
            }
        },
    };
    let floor = match fields.get("floor_scale") {
        None => LLAMA4.floor,
        Some(v) => match v
            .as_f64()
            .filter(|f| f.fract() == 0.0 && (1.0..=MAX_FLOOR).contains(f))
        {
            Some(f) => {
                if !v.is_u64() {
                    notes.push(format!(
                        "floor_scale {v} is not an int: {refused}; read as {f}"
                    ));
                }
                f as usize
            }
            None => {
                let why = if v.as_f64() == Some(0.0) {
                    "0 divides by zero in transformers (every factor infinite)".to_string()
                } else {
                    format!("{v} is not a whole number from 1 to 2^40")
                };
                notes.push(format!(
                    "floor_scale {why}: drawn with the default {}",
                    LLAMA4.floor
                ));
                LLAMA4.floor
            }
        },
    };
    Llama4Scale {
        scale: Some(QueryScale {
            scale,
            floor,
            offset: 1,
        }),
        notes,
    }
}

/// Beam's query scale on its layers without RoPE (transformers 5.24,
/// `modeling_beam.compute_attention_scaling`: `exp(0.1 · log1p((position_ids + 1)/2048))`,
/// constants in the code, not the config): `(1 + (p + 1)/2048)^0.1`, smooth rather than stepped.
pub fn beam_at(p: usize) -> f64 {
    (0.1 * ((p as f64 + 1.0) / 2048.0).ln_1p()).exp()
}

/// Ministral 3's and Mistral 4's factor as the model multiplies by it: `get_llama_4_attn_scale`
/// computes it in float32 and casts it `.to(query_states.dtype)` before the product, so in a
/// bfloat16 model it is `s` rounded to bfloat16 (Llama 4 and Beam multiply in float32 and round
/// only the product).
pub fn mistral_in_bf16(s: f64) -> f64 {
    crate::math::precision::Dtype::Bf16.round(s)
}

/// A model's Llama 4 scale: `None` unless its text `model_type` is Llama 4's.
pub fn of_model(model_type: &str, fields: &Map<String, Value>) -> Option<Llama4Scale> {
    model_type.starts_with("llama4").then(|| llama4_of(fields))
}

/// The Llama 4 scale a figure draws: the model's when it is a Llama 4 whose tuning is on, else
/// `Llama4TextConfig`'s defaults.
pub fn drawn(of_model: Option<&Llama4Scale>) -> QueryScale {
    of_model.and_then(|l| l.scale).unwrap_or(LLAMA4)
}

/// The weight softmax gives one key whose logit leads each of `others` keys by `lead`, after
/// every logit is multiplied by `s`: `1 / (1 + others · e^(−s·lead))`.
pub fn lead_weight(lead: f64, others: usize, s: f64) -> f64 {
    1.0 / (1.0 + others as f64 * (-s * lead).exp())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn llama_4_rises_at_8191_and_ministral_3_at_16_384() {
        assert_eq!(LLAMA4.at(8190), 1.0);
        assert!((LLAMA4.at(8191) - (1.0 + 0.1 * 2f64.ln())).abs() < 1e-15);
        assert_eq!(LLAMA4.first_raised(), 8191);
        assert_eq!(MINISTRAL3.at(16_383), 1.0);
        assert!((MINISTRAL3.at(16_384) - (1.0 + 0.1 * 2f64.ln())).abs() < 1e-15);
        assert_eq!(MINISTRAL3.first_raised(), 16_384);
        // At 32 767 Llama 4 has taken its fourth step (⌊32768/8192⌋ = 4).
        assert!((LLAMA4.at(32_767) - (1.0 + 0.1 * 5f64.ln())).abs() < 1e-15);
    }

    #[test]
    fn each_step_is_where_the_scale_changes() {
        for q in [LLAMA4, MINISTRAL3] {
            for k in 1..20 {
                let p = q.step(k).unwrap();
                assert!(q.at(p) > q.at(p - 1));
                assert_eq!(q.at(p), q.at(q.step(k + 1).unwrap() - 1));
            }
        }
        assert_eq!(LLAMA4.step(0), None);
        assert_eq!(LLAMA4.step(usize::MAX), None);
    }

    #[test]
    fn the_tuning_is_read_as_python_reads_it() {
        let fields = |text: &str| serde_json::from_str::<Map<String, Value>>(text).unwrap();
        for off in ["false", "0", "null"] {
            let f = fields(&format!(r#"{{"attn_temperature_tuning": {off}}}"#));
            assert_eq!(llama4_of(&f).scale, None, "{off}");
        }
        let on = llama4_of(&fields(
            r#"{"attn_temperature_tuning": 4, "floor_scale": 8192.0}"#,
        ));
        assert_eq!((on.scale, on.notes.len()), (Some(LLAMA4), 2));
        let on = llama4_of(&fields(
            r#"{"attn_temperature_tuning": true, "floor_scale": 8192}"#,
        ));
        assert_eq!((on.scale, on.notes.len()), (Some(LLAMA4), 0));
        let bad = llama4_of(&fields(r#"{"attn_scale": -1, "floor_scale": 0.5}"#));
        assert_eq!((bad.scale, bad.notes.len()), (Some(LLAMA4), 2));
        let zero = llama4_of(&fields(r#"{"floor_scale": 0}"#));
        assert!(zero.notes[0].contains("divides by zero"));
    }

    #[test]
    fn beam_and_the_bfloat16_cast() {
        assert!((beam_at(2047) - 2f64.powf(0.1)).abs() < 1e-15);
        assert_eq!(mistral_in_bf16(MINISTRAL3.at(16_384)), 1.0703125);
    }

    #[test]
    fn a_lead_of_ln_n_is_half_the_weight_unscaled() {
        let n = 32_767;
        assert!((lead_weight((n as f64).ln(), n, 1.0) - 0.5).abs() < 1e-12);
        assert!(lead_weight((n as f64).ln(), n, 1.2) > 0.5);
    }
}
