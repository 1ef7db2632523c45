//! What each layer of a model does with positions, read from its Hugging Face `config.json` the
//! way transformers 5.24 reads it: whether the layer attends to every earlier key (full), to the
//! last `W` (sliding window) or to its own chunk of `C` (chunked), whether it rotates q and k at
//! all, and with which RoPE (type and θ).
//!
//! The rules, per `model_type` (transformers 5.24.0: each model's `configuration_*.py` for the
//! defaults and `layer_types`, its attention module for which layers rotate;
//! `RotaryEmbeddingConfigMixin.convert_rope_params_to_dict` and `standardize_rope_params` for
//! the RoPE parameters; `tests/reference/layers/` holds what the config classes themselves give
//! for the shared reference configs, and `generate.py` there how):
//!
//! - **RoPE parameters** (every model but Gemma): the dict is `rope_scaling` when it is a
//!   non-empty object, else `rope_parameters`, else the model's default dict (gpt-oss: YaRN ×32),
//!   else `{}`; `rope_theta` is the dict's, else the top-level `rope_theta`, else the class's
//!   `default_theta`; `rope_type` is the dict's, else its legacy `type`, else `default`.
//!   Qwen2.5-VL's `mrope` is read as `default` (its sections only split the pairs by axis).
//! - `gemma3` / `gemma3_text`: `layer_types`, else sliding unless `(i + 1)` is a multiple of
//!   `sliding_window_pattern` (6); window `sliding_window` (4096; `W/2 + 1` with
//!   `use_bidirectional_attention`); every layer rotates, with `rope_parameters[layer_type]`: a
//!   legacy `rope_scaling` updates the full layers' dict only (its legacy `type` key is then not
//!   read: the dict already has `rope_type: default`), full layers take θ `rope_theta` (10⁶),
//!   sliding ones `rope_local_base_freq` (10⁴).
//! - `gemma4` / `gemma4_text`: the same pattern of 6, the last layer always full, window
//!   `sliding_window` (512); `rope_parameters` as given (default: sliding `default` θ 10⁴, full
//!   `proportional` θ 10⁶).
//! - `llama4` / `llama4_text`: `no_rope_layers[i] = 1` means layer `i` **uses** RoPE (an empty
//!   or missing list: `int((i + 1) % no_rope_layer_interval != 0)`, interval 4); a layer with
//!   RoPE attends in chunks of `attention_chunk_size` (8192), one without attends to everything.
//! - `smollm3`: `no_rope_layers` likewise (the interval only when the list is missing); a
//!   window only with `use_sliding_window`, and then only on layers without RoPE.
//! - `cohere2`: sliding unless `(i + 1)` is a multiple of `sliding_window_pattern` (4); only
//!   the sliding layers rotate (`Cohere2Attention` applies RoPE when it has a window).
//! - `gpt_oss`: even layers slide over `sliding_window` (128), odd ones are full; all rotate.
//! - `qwen3`, `qwen2_5_vl`: sliding from layer `max_window_layers` on, only with
//!   `use_sliding_window`; all rotate.
//! - `deepseek_v3`, `qwen3_vl`: every layer full, every layer rotates.

use serde_json::{Map, Value};

use super::rope_config::MAX_CONFIG_BYTES;

/// The most layers a config may have here.
pub const MAX_LAYERS: usize = 1024;

/// Which keys a layer's query sees.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Attention {
    /// Every key up to the query.
    Full,
    /// The last `W` keys, the query's own included: `p − W + 1 … p` (transformers 5.24's
    /// `sliding_window_overlay`: `kv > q − W`).
    Sliding,
    /// The keys of the query's own chunk of `C` up to it: `C·⌊p/C⌋ … p`.
    Chunked,
}

impl Attention {
    /// The name in `pe layers`' JSON.
    pub fn as_str(self) -> &'static str {
        match self {
            Attention::Full => "full",
            Attention::Sliding => "sliding",
            Attention::Chunked => "chunked",
        }
    }
}

/// A layer's RoPE.
#[derive(Clone, Debug, PartialEq)]
pub struct LayerRope {
    /// `rope_type` (`default`, `linear`, `yarn`, `llama3`, `proportional`, …).
    pub rope_type: String,
    /// `rope_theta`.
    pub theta: f64,
    /// The layer's whole RoPE dict as transformers holds it (`rope_type` and `rope_theta`
    /// filled in): what its rotary embedding computes from.
    pub params: Map<String, Value>,
}

impl LayerRope {
    /// A RoPE of `rope_type` and `theta` with the rest of `params` (the legacy `type` key
    /// dropped, `rope_type` and `rope_theta` written in).
    fn of(rope_type: String, theta: f64, mut params: Map<String, Value>) -> LayerRope {
        params.remove("type");
        params.insert("rope_type".into(), Value::from(rope_type.clone()));
        params.insert("rope_theta".into(), Value::from(theta));
        LayerRope {
            rope_type,
            theta,
            params,
        }
    }
}

/// One layer.
#[derive(Clone, Debug, PartialEq)]
pub struct Layer {
    /// Which keys it sees.
    pub attention: Attention,
    /// The sliding window or the chunk (`None` for full attention).
    pub window: Option<usize>,
    /// Its RoPE, or `None` when it does not rotate q and k.
    pub rope: Option<LayerRope>,
}

impl Layer {
    /// The keys a query at position `p` sees in this layer: `first ..= p` (transformers 5.24's
    /// masks: full `kv ≤ q`; sliding `q − W < kv ≤ q`; chunked, keys of the query's own chunk of
    /// `C` up to it).
    pub fn visible(&self, p: usize) -> std::ops::RangeInclusive<usize> {
        let first = match (self.attention, self.window) {
            (Attention::Sliding, Some(w)) => (p + 1).saturating_sub(w.max(1)),
            (Attention::Chunked, Some(c)) => p / c.max(1) * c.max(1),
            _ => 0,
        };
        first..=p
    }
}

/// The earliest position whose token can reach the query at `p` through `layers` (the first of
/// them is the lowest): each layer lets a position read the keys it sees, so from the top layer
/// down, the earliest reachable position moves to the first key the earliest one so far sees.
pub fn earliest_reached(layers: &[Layer], p: usize) -> usize {
    layers
        .iter()
        .rev()
        .fold(p, |m, layer| *layer.visible(m).start())
}

/// A model's layers.
#[derive(Clone, Debug, PartialEq)]
pub struct Layers {
    /// The text model's `model_type`.
    pub model_type: String,
    /// Every layer, in order.
    pub layers: Vec<Layer>,
}

/// The model types read here.
pub const MODEL_TYPES: [&str; 10] = [
    "gemma3",
    "gemma4",
    "llama4",
    "smollm3",
    "cohere2",
    "gpt_oss",
    "qwen3",
    "qwen2_5_vl",
    "qwen3_vl",
    "deepseek_v3",
];

/// Reads a model's layers from its `config.json` text. Errors are one line.
pub fn parse_layers(text: &str) -> Result<Layers, String> {
    let (text, layers) = read(text)?;
    Ok(Layers {
        model_type: text.model_type,
        layers,
    })
}

/// What `rope_config::parse_config` reads for layer `layer`'s rotary embedding: the text model's
/// fields with that layer's own RoPE dict as `rope_parameters` (and no `rope_scaling`), and the
/// head size the model's attention rotates there when the config leaves it out (Gemma 3 and 4:
/// `head_dim` 256, Gemma 4's full layers `global_head_dim`, 512). `None` for a layer that does not
/// rotate; an error for a layer the model does not have.
pub fn layer_rope_config(text: &str, layer: usize) -> Result<Option<Value>, String> {
    let (config, layers) = read(text)?;
    let Some(l) = layers.get(layer) else {
        return Err(format!(
            "layer {layer}: the model has layers 0 … {}",
            layers.len().saturating_sub(1)
        ));
    };
    let Some(rope) = &l.rope else {
        return Ok(None);
    };
    let mut fields = config.fields;
    fields.remove("rope_scaling");
    fields.remove("rope_theta");
    fields.insert("rope_parameters".into(), Value::Object(rope.params.clone()));
    let gemma = config.model_type.starts_with("gemma");
    if gemma && !fields.contains_key("head_dim") {
        fields.insert("head_dim".into(), Value::from(256));
    }
    if config.model_type == "gemma4_text" && l.attention == Attention::Full {
        let global = fields
            .get("global_head_dim")
            .cloned()
            .unwrap_or(Value::from(512));
        fields.insert("head_dim".into(), global);
    }
    Ok(Some(Value::Object(fields)))
}

/// Whether `text` is a config of a model type whose layers this module reads (so a single RoPE
/// read from it would be one layer's, not the model's).
pub fn knows(text: &str) -> bool {
    let Ok(Value::Object(root)) = serde_json::from_str::<Value>(text) else {
        return false;
    };
    TextConfig::of(&root).is_ok_and(|t| {
        [
            "gemma3_text",
            "gemma4_text",
            "llama4_text",
            "smollm3",
            "cohere2",
            "gpt_oss",
            "qwen3",
            "qwen2_5_vl_text",
            "deepseek_v3",
            "qwen3_vl_text",
        ]
        .contains(&t.model_type.as_str())
    })
}

/// The text model's fields and its layers.
fn read(text: &str) -> Result<(TextConfig, Vec<Layer>), String> {
    if text.len() > MAX_CONFIG_BYTES {
        return Err(format!(
            "the config has {} bytes; at most {MAX_CONFIG_BYTES} are read",
            text.len()
        ));
    }
    let value: Value = serde_json::from_str(text).map_err(|e| {
        let what = e.to_string();
        let what = what
            .rsplit_once(" at line ")
            .map_or(what.as_str(), |(w, _)| w);
        format!("line {}, column {}: {what}", e.line(), e.column())
    })?;
    let Value::Object(root) = value else {
        return Err("expected a JSON object (a model's config.json)".to_string());
    };
    let text = TextConfig::of(&root)?;
    let layers = match text.model_type.as_str() {
        "gemma3_text" => text.gemma3()?,
        "gemma4_text" => text.gemma4()?,
        "llama4_text" => text.llama4()?,
        "smollm3" => text.smollm3()?,
        "cohere2" => text.cohere2()?,
        "gpt_oss" => text.gpt_oss()?,
        "qwen3" | "qwen2_5_vl_text" => text.qwen()?,
        "deepseek_v3" | "qwen3_vl_text" => text.all_full()?,
        other => return Err(unsupported(other)),
    };
    Ok((text, layers))
}

fn unsupported(model_type: &str) -> String {
    format!(
        "model_type \"{model_type}\": its layer pattern is not known here (known: {})",
        MODEL_TYPES.join(", ")
    )
}

/// The text model's part of a config, and its `model_type`.
struct TextConfig {
    model_type: String,
    fields: Map<String, Value>,
}

impl TextConfig {
    /// The text model's fields: `text_config` for the multimodal wrappers (a flat Qwen2.5-VL
    /// config keeps them at the top level), else the config itself.
    fn of(root: &Map<String, Value>) -> Result<TextConfig, String> {
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

    fn gemma3(&self) -> Result<Vec<Layer>, String> {
        let n = self.num_layers(26)?;
        let mut window = self.count("sliding_window", 1)?.unwrap_or(4096);
        if self.flag("use_bidirectional_attention", false)? {
            window = window / 2 + 1;
        }
        let pattern = self.count("sliding_window_pattern", 1)?.unwrap_or(6);
        let types = self.sliding_types(n, every_nth_full(pattern))?;
        let nested = |key: &str| -> Result<Map<String, Value>, String> {
            match self.fields.get("rope_parameters") {
                Some(Value::Object(m)) => match m.get(key) {
                    Some(Value::Object(d)) => Ok(d.clone()),
                    None | Some(Value::Null) => Ok(Map::new()),
                    Some(v) => Err(format!("rope_parameters.{key} is {v}; expected an object")),
                },
                None | Some(Value::Null) => Ok(Map::new()),
                Some(v) => Err(format!("rope_parameters is {v}; expected an object")),
            }
        };
        let mut full = nested("full_attention")?;
        let sliding = nested("sliding_attention")?;
        // The class starts each layer type's dict as {"rope_type": "default"} when the config
        // names none, and a legacy rope_scaling updates the full layers' dict.
        if self.absent("rope_parameters") {
            full.insert("rope_type".into(), Value::from("default"));
        }
        match self.fields.get("rope_scaling") {
            Some(Value::Object(scaling)) => {
                for (k, v) in scaling {
                    full.insert(k.clone(), v.clone());
                }
            }
            None | Some(Value::Null) => {}
            Some(v) => return Err(format!("rope_scaling is {v}; expected an object or null")),
        }
        let resolve = |d: &Map<String, Value>, name: &str, theta_key: &str, default_theta: f64| {
            let theta = theta_of(d.get("rope_theta"), &format!("{name}.rope_theta"))?
                .or(theta_of(self.fields.get(theta_key), theta_key)?)
                .unwrap_or(default_theta);
            let rope_type = type_of(d, name)?.unwrap_or_else(|| "default".to_string());
            Ok::<_, String>(LayerRope::of(rope_type, theta, d.clone()))
        };
        let full = resolve(&full, "rope_parameters.full_attention", "rope_theta", 1.0e6)?;
        let sliding = resolve(
            &sliding,
            "rope_parameters.sliding_attention",
            "rope_local_base_freq",
            1.0e4,
        )?;
        Ok(sliding_or_full(
            &types,
            Some(window),
            Some(sliding),
            Some(full),
        ))
    }

    fn gemma4(&self) -> Result<Vec<Layer>, String> {
        let n = self.num_layers(30)?;
        let mut window = self.count("sliding_window", 1)?.unwrap_or(512);
        if self
            .fields
            .get("use_bidirectional_attention")
            .and_then(Value::as_str)
            == Some("all")
        {
            window = window / 2 + 1;
        }
        let mut types = self.sliding_types(n, every_nth_full(6))?;
        if let Some(last) = types.last_mut() {
            *last = "full_attention".to_string();
        }
        if matches!(self.fields.get("rope_scaling"), Some(Value::Object(m)) if !m.is_empty()) {
            return Err(
                "a Gemma 4 config with a rope_scaling: transformers 5.24 replaces the \
                        per-layer-type rope_parameters with it; give rope_parameters instead"
                    .to_string(),
            );
        }
        let given = |key: &str, default: LayerRope| -> Result<LayerRope, String> {
            let name = format!("rope_parameters.{key}");
            match self.fields.get("rope_parameters") {
                Some(Value::Object(m)) if !m.is_empty() => match m.get(key) {
                    Some(Value::Object(d)) => Ok(LayerRope::of(
                        type_of(d, &name)?.unwrap_or_else(|| "default".to_string()),
                        theta_of(d.get("rope_theta"), &format!("{name}.rope_theta"))?
                            .unwrap_or(default.theta),
                        d.clone(),
                    )),
                    _ => Err(format!("{name} is missing; expected an object")),
                },
                _ => Ok(default),
            }
        };
        let sliding = given(
            "sliding_attention",
            LayerRope::of("default".into(), 1.0e4, Map::new()),
        )?;
        let full = given(
            "full_attention",
            LayerRope::of(
                "proportional".into(),
                1.0e6,
                json_object(&[("partial_rotary_factor", Value::from(0.25))]),
            ),
        )?;
        Ok(sliding_or_full(
            &types,
            Some(window),
            Some(sliding),
            Some(full),
        ))
    }

    fn llama4(&self) -> Result<Vec<Layer>, String> {
        let n = self.num_layers(48)?;
        let uses = self.rope_layers(n, true)?;
        let chunk = match self.fields.get("attention_chunk_size") {
            None => Some(8192),
            Some(Value::Null) => None,
            Some(_) => self.count("attention_chunk_size", 1)?,
        };
        let types = self.layer_types(n, &["chunked_attention", "full_attention"], |i| {
            if uses[i] && chunk.is_some() {
                "chunked_attention"
            } else {
                "full_attention"
            }
        })?;
        let rope = self.rope(5.0e5, None)?;
        types
            .iter()
            .zip(&uses)
            .map(|(t, &r)| {
                let rope = r.then(|| rope.clone());
                if t == "chunked_attention" {
                    let Some(c) = chunk else {
                        return Err("a chunked_attention layer needs attention_chunk_size".into());
                    };
                    Ok(layer(Attention::Chunked, Some(c), rope))
                } else {
                    Ok(layer(Attention::Full, None, rope))
                }
            })
            .collect()
    }

    fn smollm3(&self) -> Result<Vec<Layer>, String> {
        let n = self.num_layers(36)?;
        let uses = self.rope_layers(n, false)?;
        let use_window = self.flag("use_sliding_window", false)?;
        let window = self.count("sliding_window", 1)?;
        let types = self.sliding_types(n, |i| {
            if use_window && window.is_some() && !uses[i] {
                "sliding_attention"
            } else {
                "full_attention"
            }
        })?;
        let rope = self.rope(2.0e6, None)?;
        Ok(types
            .iter()
            .zip(&uses)
            .map(|(t, &r)| {
                let w = window.filter(|_| use_window && t == "sliding_attention");
                let kind = if w.is_some() {
                    Attention::Sliding
                } else {
                    Attention::Full
                };
                layer(kind, w, r.then(|| rope.clone()))
            })
            .collect())
    }

    fn cohere2(&self) -> Result<Vec<Layer>, String> {
        let n = self.num_layers(40)?;
        let window = self.count("sliding_window", 1)?.unwrap_or(4096);
        let pattern = self.count("sliding_window_pattern", 1)?.unwrap_or(4);
        let types = self.sliding_types(n, every_nth_full(pattern))?;
        let rope = self.rope(1.0e4, None)?;
        // Cohere2Attention rotates only where it has a window.
        Ok(sliding_or_full(&types, Some(window), Some(rope), None))
    }

    fn gpt_oss(&self) -> Result<Vec<Layer>, String> {
        let n = self.num_layers(36)?;
        let window = self.count("sliding_window", 1)?.unwrap_or(128);
        let types = self.sliding_types(n, every_nth_full(2))?;
        // GptOssConfig's default dict.
        let yarn = LayerRope::of(
            "yarn".into(),
            150_000.0,
            json_object(&[
                ("factor", Value::from(32.0)),
                ("beta_fast", Value::from(32.0)),
                ("beta_slow", Value::from(1.0)),
                ("truncate", Value::from(false)),
                ("original_max_position_embeddings", Value::from(4096)),
            ]),
        );
        let rope = self.rope(150_000.0, Some(yarn))?;
        Ok(sliding_or_full(
            &types,
            Some(window),
            Some(rope.clone()),
            Some(rope),
        ))
    }

    fn qwen(&self) -> Result<Vec<Layer>, String> {
        let qwen3 = self.model_type == "qwen3";
        let n = self.num_layers(if qwen3 { 32 } else { 80 })?;
        // transformers: `sliding_window if use_sliding_window else None` (a null window: none).
        let window = if self.flag("use_sliding_window", false)? {
            match self.fields.get("sliding_window") {
                None => Some(4096),
                Some(_) => self.count("sliding_window", 1)?,
            }
        } else {
            None
        };
        let from = self
            .count("max_window_layers", 0)?
            .unwrap_or(if qwen3 { 28 } else { 80 });
        let types = self.sliding_types(n, |i| {
            if window.is_some() && i >= from {
                "sliding_attention"
            } else {
                "full_attention"
            }
        })?;
        let rope = self.rope(if qwen3 { 1.0e4 } else { 1.0e6 }, None)?;
        Ok(sliding_or_full(
            &types,
            window,
            Some(rope.clone()),
            Some(rope),
        ))
    }

    fn all_full(&self) -> Result<Vec<Layer>, String> {
        let deepseek = self.model_type == "deepseek_v3";
        let n = self.num_layers(if deepseek { 61 } else { 32 })?;
        let rope = self.rope(if deepseek { 1.0e4 } else { 5.0e5 }, None)?;
        Ok((0..n)
            .map(|_| layer(Attention::Full, None, Some(rope.clone())))
            .collect())
    }
}

/// Layers of two kinds: the `sliding_attention` ones slide over `window` (when there is one)
/// with `sliding`'s RoPE, the others attend to everything with `full`'s.
fn sliding_or_full(
    types: &[String],
    window: Option<usize>,
    sliding: Option<LayerRope>,
    full: Option<LayerRope>,
) -> Vec<Layer> {
    types
        .iter()
        .map(|t| match window {
            Some(w) if t == "sliding_attention" => {
                layer(Attention::Sliding, Some(w), sliding.clone())
            }
            _ => layer(Attention::Full, None, full.clone()),
        })
        .collect()
}

/// The pattern "sliding, except every `every`-th layer": `(i + 1) % every != 0` slides.
fn every_nth_full(every: usize) -> impl Fn(usize) -> &'static str {
    move |i| {
        if (i + 1) % every != 0 {
            "sliding_attention"
        } else {
            "full_attention"
        }
    }
}

fn json_object(pairs: &[(&str, Value)]) -> Map<String, Value> {
    pairs
        .iter()
        .map(|(k, v)| ((*k).to_string(), v.clone()))
        .collect()
}

fn layer(attention: Attention, window: Option<usize>, rope: Option<LayerRope>) -> Layer {
    Layer {
        attention,
        window,
        rope,
    }
}

/// A θ: a positive finite number (absent or null: `None`).
fn theta_of(v: Option<&Value>, name: &str) -> Result<Option<f64>, String> {
    match v {
        None | Some(Value::Null) => Ok(None),
        Some(v) => match v.as_f64() {
            Some(x) if x.is_finite() && x > 0.0 => Ok(Some(x)),
            _ => Err(format!("{name} is {v}; expected a positive number")),
        },
    }
}

/// A dict's `rope_type`, else its legacy `type` (absent: `None`).
fn type_of(d: &Map<String, Value>, name: &str) -> Result<Option<String>, String> {
    for key in ["rope_type", "type"] {
        match d.get(key) {
            None | Some(Value::Null) => continue,
            Some(Value::String(s)) => return Ok(Some(s.clone())),
            Some(v) => return Err(format!("{name}.{key} is {v}; expected a string")),
        }
    }
    Ok(None)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn layers(json: &str) -> Vec<Layer> {
        parse_layers(json).expect("parses").layers
    }

    #[test]
    fn gemma3_legacy_type_key_stays_default_on_full_layers() {
        // transformers' trap: the full layers' dict already says rope_type "default", so a
        // legacy "type" key merged into it is never read.
        let l = layers(
            r#"{"model_type": "gemma3_text", "num_hidden_layers": 6,
                "rope_scaling": {"type": "linear", "factor": 8.0}}"#,
        );
        assert_eq!(l[5].rope.as_ref().unwrap().rope_type, "default");
        let l = layers(
            r#"{"model_type": "gemma3_text", "num_hidden_layers": 6,
                "rope_scaling": {"rope_type": "linear", "factor": 8.0}}"#,
        );
        assert_eq!(l[5].rope.as_ref().unwrap().rope_type, "linear");
        assert_eq!(l[0].rope.as_ref().unwrap().rope_type, "default");
        assert_eq!(l[0].rope.as_ref().unwrap().theta, 1.0e4);
        assert_eq!(l[5].rope.as_ref().unwrap().theta, 1.0e6);
    }

    #[test]
    fn llama4_an_empty_no_rope_list_falls_back_to_the_interval() {
        let l = layers(
            r#"{"model_type": "llama4_text", "num_hidden_layers": 8, "no_rope_layers": []}"#,
        );
        let rope: Vec<bool> = l.iter().map(|l| l.rope.is_some()).collect();
        assert_eq!(rope, [true, true, true, false, true, true, true, false]);
        assert_eq!(l[0].attention, Attention::Chunked);
        assert_eq!(l[3].attention, Attention::Full);
        // 1 means the layer uses RoPE.
        let l = layers(
            r#"{"model_type": "llama4_text", "num_hidden_layers": 2, "no_rope_layers": [0, 1]}"#,
        );
        assert!(l[0].rope.is_none() && l[1].rope.is_some());
    }

    #[test]
    fn what_a_query_sees_and_how_far_information_travels() {
        let sliding = layer(Attention::Sliding, Some(4), None);
        let chunked = layer(Attention::Chunked, Some(8), None);
        let full = layer(Attention::Full, None, None);
        // The last W keys, the query's own included; its own chunk up to it; everything.
        assert_eq!(sliding.visible(10), 7..=10);
        assert_eq!(sliding.visible(2), 0..=2);
        assert_eq!(chunked.visible(10), 8..=10);
        assert_eq!(chunked.visible(8), 8..=8);
        assert_eq!(chunked.visible(7), 0..=7);
        assert_eq!(full.visible(10), 0..=10);
        // Brute force: the positions that reach p, layer by layer from the top.
        let brute = |stack: &[Layer], p: usize| {
            let mut reach = vec![p];
            for l in stack.iter().rev() {
                let mut next: Vec<usize> = reach.iter().flat_map(|&m| l.visible(m)).collect();
                next.sort_unstable();
                next.dedup();
                reach = next;
            }
            reach[0]
        };
        let stacks = [
            vec![sliding.clone(), sliding.clone(), sliding.clone()],
            vec![chunked.clone(), chunked.clone()],
            vec![sliding.clone(), chunked.clone(), sliding.clone()],
            vec![chunked.clone(), full.clone(), sliding.clone()],
        ];
        for stack in &stacks {
            for p in 0..40 {
                assert_eq!(
                    earliest_reached(stack, p),
                    brute(stack, p),
                    "{stack:?} at {p}"
                );
            }
        }
        // Three sliding layers of 4 reach back 3 × (4 − 1) positions; chunks never cross
        // their start; a full layer anywhere reaches position 0.
        assert_eq!(earliest_reached(&stacks[0], 20), 11);
        assert_eq!(earliest_reached(&stacks[1], 20), 16);
        assert_eq!(earliest_reached(&stacks[3], 20), 0);
    }

    #[test]
    fn bad_configs_are_one_line_errors() {
        for (json, says) in [
            ("[1]", "expected a JSON object"),
            ("{", "line 1"),
            (r#"{"hidden_size": 8}"#, "no model_type"),
            (r#"{"model_type": "llama"}"#, "not known here"),
            (
                r#"{"model_type": "cohere2", "num_hidden_layers": 0}"#,
                "≥ 1",
            ),
            (
                r#"{"model_type": "cohere2", "num_hidden_layers": 5000}"#,
                "at most 1024",
            ),
            (
                r#"{"model_type": "gpt_oss", "num_hidden_layers": 2, "layer_types": ["full_attention"]}"#,
                "1 entries for 2 layers",
            ),
            (
                r#"{"model_type": "gpt_oss", "num_hidden_layers": 1, "layer_types": ["chunked_attention"]}"#,
                "layer_types[0]",
            ),
            (
                r#"{"model_type": "smollm3", "num_hidden_layers": 1, "no_rope_layers": [2]}"#,
                "expected 1 (the layer uses RoPE) or 0",
            ),
            (r#"{"model_type": "qwen3", "rope_theta": -1}"#, "positive"),
        ] {
            let e = parse_layers(json).expect_err(json);
            assert!(e.contains(says) && !e.contains('\n'), "{json}: {e}");
        }
    }
}
