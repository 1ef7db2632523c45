//! The text model's part of a config: its fields as the rules read them (counts, flags, layer
//! types, RoPE parameters, Gemma 4's per-layer overrides); the rules per model type are in
//! [`rules`].

mod rules;

use serde_json::{Map, Value};

use super::kv::CacheWidth;
use super::{Attention, Layer, LayerRope, MAX_LAYERS, MODEL_TYPES, theta_of, type_of};

/// The text model's part of a config, and its `model_type`.
pub(super) struct TextConfig {
    pub(super) model_type: String,
    pub(super) fields: Map<String, Value>,
}

impl TextConfig {
    /// The text model's fields: `text_config` for the multimodal wrappers (a flat Qwen2.5-VL
    /// config keeps them at the top level), else the config itself.
    pub(super) fn of(root: &Map<String, Value>) -> Result<TextConfig, String> {
        let Some(model_type) = root.get("model_type").and_then(Value::as_str) else {
            return Err(format!(
                "the config has no model_type; the layer pattern depends on the model (known: {})",
                MODEL_TYPES.join(", ")
            ));
        };
        let nested = |text_type: &str| -> Result<TextConfig, String> {
            let fields = match root.get("text_config") {
                Some(Value::Object(m)) => m.clone(),
                None | Some(Value::Null) => Map::new(),
                Some(_) => return Err("text_config is not an object".to_string()),
            };
            Ok(TextConfig {
                model_type: text_type.to_string(),
                fields,
            })
        };
        match model_type {
            "gemma3" => nested("gemma3_text"),
            "gemma4" => nested("gemma4_text"),
            "llama4" => nested("llama4_text"),
            "qwen3_vl" => nested("qwen3_vl_text"),
            "qwen2_5_vl" => match root.get("text_config") {
                Some(Value::Object(_)) => nested("qwen2_5_vl_text"),
                _ => Ok(TextConfig {
                    model_type: "qwen2_5_vl_text".to_string(),
                    fields: root.clone(),
                }),
            },
            other => Ok(TextConfig {
                model_type: other.to_string(),
                fields: root.clone(),
            }),
        }
    }

    /// Whether this module reads this model type's layers.
    pub(super) fn known(&self) -> bool {
        self.layers_of().is_some()
    }

    /// The rule of this model type, if it has one here.
    #[allow(clippy::type_complexity)]
    fn layers_of(&self) -> Option<fn(&TextConfig) -> Result<Vec<Layer>, String>> {
        Some(match self.model_type.as_str() {
            "gemma3_text" => TextConfig::gemma3,
            "gemma4_text" => TextConfig::gemma4,
            "llama4_text" => TextConfig::llama4,
            "smollm3" => TextConfig::smollm3,
            "cohere2" => TextConfig::cohere2,
            "gpt_oss" => TextConfig::gpt_oss,
            "qwen3" | "qwen2_5_vl_text" => TextConfig::qwen,
            "deepseek_v3" | "qwen3_vl_text" => TextConfig::all_full,
            _ => return None,
        })
    }

    /// Every layer, by this model type's rule.
    pub(super) fn layers(&self) -> Result<Vec<Layer>, String> {
        match self.layers_of() {
            Some(rule) => rule(self),
            None => Err(super::unsupported(&self.model_type)),
        }
    }

    /// What each of `layers` caches per position (see [`super::kv`]): DeepSeek-V3's MLA latent
    /// (`kv_lora_rank`, 512, and the shared rotated key, `qk_rope_head_dim`, 64); otherwise
    /// `num_key_value_heads` heads of `head_dim` (Gemma 3's class defaults 4 and 256 when left
    /// out; Cohere2 always `hidden_size / num_attention_heads`; Gemma 4's full layers
    /// `global_head_dim`, 512, with `num_global_key_value_heads` when `attention_k_eq_v`); a count left out that this reader
    /// has no default for is an error.
    pub(super) fn cache_widths(&self, layers: &[Layer]) -> Result<Vec<CacheWidth>, String> {
        if self.model_type == "deepseek_v3" {
            let latent = self.count("kv_lora_rank", 1)?.unwrap_or(512);
            let rope = self.count("qk_rope_head_dim", 1)?.unwrap_or(64);
            return Ok(vec![
                CacheWidth {
                    kv_heads: 1,
                    d_k: latent,
                    d_v: rope,
                };
                layers.len()
            ]);
        }
        let gemma3 = self.model_type == "gemma3_text";
        let need = |key: &str, default: Option<usize>| -> Result<usize, String> {
            self.count(key, 1)?.or(default).ok_or_else(|| {
                format!(
                    "{key} is missing, and this reader has no default for model_type \"{}\"",
                    self.model_type
                )
            })
        };
        let heads = need("num_attention_heads", gemma3.then_some(8))?;
        let kv_heads = need("num_key_value_heads", Some(if gemma3 { 4 } else { heads }))?;
        let head_dim = if self.model_type == "cohere2" {
            need("hidden_size", None)? / heads
        } else {
            match self.gemma_head_dim(None, Attention::Sliding)? {
                Some(d) => d,
                None => match self.count("head_dim", 1)? {
                    Some(d) => d,
                    None => need("hidden_size", None)? / heads,
                },
            }
        };
        let sliding = CacheWidth {
            kv_heads,
            d_k: head_dim,
            d_v: head_dim,
        };
        if self.model_type == "gemma4_text" {
            if self.count("num_kv_shared_layers", 0)?.unwrap_or(0) > 0 {
                return Err(
                    "num_kv_shared_layers > 0: layers that reuse another layer's cache are not \
                     read here"
                        .to_string(),
                );
            }
            return layers
                .iter()
                .enumerate()
                .map(|(i, l)| self.gemma4_width(i, l.attention, sliding))
                .collect();
        }
        Ok(vec![sliding; layers.len()])
    }

    /// What Gemma 4's layer `layer` caches per position: as a sliding layer (`sliding`), or with
    /// a saved `per_layer_config` its overrides of `head_dim` and `num_key_value_heads`, or
    /// without one, for a full layer, `global_head_dim` (512) and, only where keys double as
    /// values (`attention_k_eq_v`, default false), `num_global_key_value_heads`
    /// (Gemma4TextConfig.__post_init__, which writes those into `per_layer_config`).
    fn gemma4_width(
        &self,
        layer: usize,
        attention: Attention,
        sliding: CacheWidth,
    ) -> Result<CacheWidth, String> {
        let d = self
            .gemma_head_dim(Some(layer), attention)?
            .unwrap_or(sliding.d_k);
        let kv_heads = if let Some(overrides) = self.per_layer(layer)? {
            count_in(overrides, "num_key_value_heads", layer)?.unwrap_or(sliding.kv_heads)
        } else if attention == Attention::Full && self.flag("attention_k_eq_v", false)? {
            self.count("num_global_key_value_heads", 1)?
                .unwrap_or(sliding.kv_heads)
        } else {
            sliding.kv_heads
        };
        Ok(CacheWidth {
            kv_heads,
            d_k: d,
            d_v: d,
        })
    }

    /// Gemma 4's saved `per_layer_config`: `Some` overrides for layer `layer` (empty when the
    /// layer has none) when the config has one, `None` when it does not.
    fn per_layer(&self, layer: usize) -> Result<Option<&Map<String, Value>>, String> {
        static EMPTY: std::sync::OnceLock<Map<String, Value>> = std::sync::OnceLock::new();
        match self.fields.get("per_layer_config") {
            None | Some(Value::Null) => Ok(None),
            // Keys are layer indices as text, zero-padded when transformers saves them ("05").
            Some(Value::Object(m)) => match m.iter().find(|(k, _)| k.parse::<usize>() == Ok(layer))
            {
                None => Ok(Some(EMPTY.get_or_init(Map::new))),
                Some((_, Value::Object(o))) => Ok(Some(o)),
                Some((k, v)) => Err(format!(
                    "per_layer_config[\"{k}\"] is {v}; expected an object of overrides"
                )),
            },
            Some(v) => Err(format!(
                "per_layer_config is {v}; expected an object from layer index to overrides"
            )),
        }
    }

    /// The head size Gemma's layer `layer` (any layer when `None`) of `attention` works in, the
    /// config class's defaults filled in: `head_dim` (256); for Gemma 4, its `per_layer_config`
    /// override, or without one, on full layers, `global_head_dim` (512); `None` for the other
    /// model types.
    pub(super) fn gemma_head_dim(
        &self,
        layer: Option<usize>,
        attention: Attention,
    ) -> Result<Option<usize>, String> {
        let base = || -> Result<usize, String> { Ok(self.count("head_dim", 1)?.unwrap_or(256)) };
        Ok(match self.model_type.as_str() {
            "gemma4_text" => {
                let saved = match layer {
                    Some(i) => self.per_layer(i)?,
                    None => None,
                };
                match saved {
                    Some(o) => Some(match count_in(o, "head_dim", layer.unwrap_or(0))? {
                        Some(d) => d,
                        None => base()?,
                    }),
                    None if attention == Attention::Full
                        && matches!(
                            self.fields.get("per_layer_config"),
                            None | Some(Value::Null)
                        ) =>
                    {
                        Some(self.count("global_head_dim", 1)?.unwrap_or(512))
                    }
                    None => Some(base()?),
                }
            }
            "gemma3_text" => Some(base()?),
            _ => None,
        })
    }

    /// A field that is absent or null.
    fn absent(&self, key: &str) -> bool {
        matches!(self.fields.get(key), None | Some(Value::Null))
    }

    /// A whole number ≥ `min` (absent or null: `None`).
    fn count(&self, key: &str, min: usize) -> Result<Option<usize>, String> {
        match self.fields.get(key) {
            None | Some(Value::Null) => Ok(None),
            Some(v) => match v.as_u64() {
                Some(n) if n as usize >= min && n <= u32::MAX as u64 => Ok(Some(n as usize)),
                _ => Err(format!("{key} is {v}; expected a whole number ≥ {min}")),
            },
        }
    }

    /// A flag (absent or null: `default`).
    fn flag(&self, key: &str, default: bool) -> Result<bool, String> {
        match self.fields.get(key) {
            None | Some(Value::Null) => Ok(default),
            Some(Value::Bool(b)) => Ok(*b),
            Some(v) => Err(format!("{key} is {v}; expected true or false")),
        }
    }

    /// `num_hidden_layers` (the class's default when absent), at most [`MAX_LAYERS`].
    fn num_layers(&self, default: usize) -> Result<usize, String> {
        let n = self.count("num_hidden_layers", 1)?.unwrap_or(default);
        if n > MAX_LAYERS {
            return Err(format!(
                "num_hidden_layers is {n}; at most {MAX_LAYERS} are read"
            ));
        }
        Ok(n)
    }

    /// `layer_types` when given (each one of `allowed`, as many as layers), else `derived`.
    fn layer_types(
        &self,
        n: usize,
        allowed: &[&str],
        derived: impl Fn(usize) -> &'static str,
    ) -> Result<Vec<String>, String> {
        match self.fields.get("layer_types") {
            None | Some(Value::Null) => Ok((0..n).map(|i| derived(i).to_string()).collect()),
            Some(Value::Array(items)) if items.is_empty() => {
                Ok((0..n).map(|i| derived(i).to_string()).collect())
            }
            Some(Value::Array(items)) => {
                if items.len() != n {
                    return Err(format!(
                        "layer_types has {} entries for {n} layers (num_hidden_layers)",
                        items.len()
                    ));
                }
                items
                    .iter()
                    .enumerate()
                    .map(|(i, t)| match t.as_str() {
                        Some(s) if allowed.contains(&s) => Ok(s.to_string()),
                        _ => Err(format!(
                            "layer_types[{i}] is {t}; expected {}",
                            allowed.join(" or ")
                        )),
                    })
                    .collect()
            }
            Some(v) => Err(format!("layer_types is {v}; expected a list")),
        }
    }

    /// `layer_types` of a model whose layers slide or attend to everything.
    fn sliding_types(
        &self,
        n: usize,
        derived: impl Fn(usize) -> &'static str,
    ) -> Result<Vec<String>, String> {
        self.layer_types(n, &["sliding_attention", "full_attention"], derived)
    }

    /// `no_rope_layers` (1: the layer uses RoPE) when given, else every layer but each
    /// `no_rope_layer_interval`-th; `empty_is_missing`: an empty list counts as missing (Llama 4).
    fn rope_layers(&self, n: usize, empty_is_missing: bool) -> Result<Vec<bool>, String> {
        let interval = self.count("no_rope_layer_interval", 1)?.unwrap_or(4);
        let derived = || (0..n).map(|i| (i + 1) % interval != 0).collect();
        match self.fields.get("no_rope_layers") {
            None | Some(Value::Null) => Ok(derived()),
            Some(Value::Array(items)) if items.is_empty() && empty_is_missing => Ok(derived()),
            Some(Value::Array(items)) => {
                if items.len() != n {
                    return Err(format!(
                        "no_rope_layers has {} entries for {n} layers (num_hidden_layers)",
                        items.len()
                    ));
                }
                items
                    .iter()
                    .enumerate()
                    .map(|(i, v)| match v.as_u64() {
                        Some(0) => Ok(false),
                        Some(1) => Ok(true),
                        _ => Err(format!(
                            "no_rope_layers[{i}] is {v}; expected 1 (the layer uses RoPE) or 0"
                        )),
                    })
                    .collect()
            }
            Some(v) => Err(format!("no_rope_layers is {v}; expected a list of 0 and 1")),
        }
    }

    /// The RoPE of a model with one set of parameters (see the module's doc); `default_theta` is
    /// the config class's, `defaults` its default dict when the config names none.
    fn rope(&self, default_theta: f64, defaults: Option<LayerRope>) -> Result<LayerRope, String> {
        let object = |key: &str| match self.fields.get(key) {
            Some(Value::Object(m)) if !m.is_empty() => Some(m),
            _ => None,
        };
        let dict = object("rope_scaling").or_else(|| object("rope_parameters"));
        let top_theta = theta_of(self.fields.get("rope_theta"), "rope_theta")?;
        let Some(dict) = dict else {
            // Only a model with a default dict and no dict of its own takes the default's θ
            // unless the top level names one.
            return Ok(match defaults {
                Some(d) => LayerRope::of(d.rope_type, top_theta.unwrap_or(d.theta), d.params),
                None => LayerRope::of(
                    "default".to_string(),
                    top_theta.unwrap_or(default_theta),
                    Map::new(),
                ),
            });
        };
        let name = if object("rope_scaling").is_some() {
            "rope_scaling"
        } else {
            "rope_parameters"
        };
        let theta = theta_of(dict.get("rope_theta"), &format!("{name}.rope_theta"))?
            .or(top_theta)
            .unwrap_or(default_theta);
        let mut rope_type = type_of(dict, name)?.unwrap_or_else(|| "default".to_string());
        if self.model_type == "qwen2_5_vl_text" && rope_type == "mrope" {
            rope_type = "default".to_string();
        }
        Ok(LayerRope::of(rope_type, theta, dict.clone()))
    }
}

/// A whole number ≥ 1 among layer `layer`'s `per_layer_config` overrides (absent: `None`).
fn count_in(
    overrides: &Map<String, Value>,
    key: &str,
    layer: usize,
) -> Result<Option<usize>, String> {
    match overrides.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(v) => match v.as_u64() {
            Some(n) if n >= 1 && n <= u32::MAX as u64 => Ok(Some(n as usize)),
            _ => Err(format!(
                "per_layer_config[\"{layer}\"].{key} is {v}; expected a whole number ≥ 1"
            )),
        },
    }
}
