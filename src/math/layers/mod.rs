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

mod config;
pub mod kv;
pub mod paste;
pub mod presets;

use config::TextConfig;

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
    let head_dim = config.gemma_head_dim(Some(layer), l.attention)?;
    let mut fields = config.fields;
    fields.remove("rope_scaling");
    fields.remove("rope_theta");
    fields.insert("rope_parameters".into(), Value::Object(rope.params.clone()));
    if let Some(d) = head_dim {
        fields.insert("head_dim".into(), Value::from(d));
    }
    Ok(Some(Value::Object(fields)))
}

/// Layer `layer`'s RoPE as its rotary embedding computes it: [`layer_rope_config`] read by
/// [`crate::math::rope_config::parse_config`] (`.scaling.compute()` gives its `inv_freq`, what
/// `pe rope-freqs --layer` prints). `None` for a layer that does not rotate; an error for a
/// layer the model does not have or a RoPE type not modelled (Gemma 4's `proportional`).
pub fn layer_rope(
    text: &str,
    layer: usize,
) -> Result<Option<crate::math::rope_config::ModelRope>, String> {
    match layer_rope_config(text, layer)? {
        Some(config) => crate::math::rope_config::parse_config(&config.to_string()).map(Some),
        None => Ok(None),
    }
}

/// Whether `text` is a config of a model type whose layers this module reads (so a single RoPE
/// read from it would be one layer's, not the model's).
pub fn knows(text: &str) -> bool {
    let Ok(Value::Object(root)) = serde_json::from_str::<Value>(text) else {
        return false;
    };
    TextConfig::of(&root).is_ok_and(|t| t.known())
}

/// A model's layers and what each caches per position (see [`kv`]).
pub fn parse_cache(text: &str) -> Result<(Vec<Layer>, Vec<kv::CacheWidth>), String> {
    let (config, layers) = read(text)?;
    let widths = config.cache_widths(&layers)?;
    Ok((layers, widths))
}

/// Everything the page reads from one config: the text model's type and fields as written,
/// its layers and what each caches per position.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Model {
    /// The text model's `model_type`.
    pub model_type: String,
    /// The text model's fields as the config writes them (`text_config`'s for the wrappers).
    pub fields: Map<String, Value>,
    /// Every layer, in order.
    pub layers: Vec<Layer>,
    /// What each layer caches per kept position.
    pub widths: Vec<kv::CacheWidth>,
}

/// Reads a whole model from its `config.json` text. Errors are one line.
pub fn read_model(text: &str) -> Result<Model, String> {
    let (config, layers) = read(text)?;
    let widths = config.cache_widths(&layers)?;
    Ok(Model {
        model_type: config.model_type,
        fields: config.fields,
        layers,
        widths,
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
    let layers = text.layers()?;
    Ok((text, layers))
}

pub(super) fn unsupported(model_type: &str) -> String {
    format!(
        "model_type \"{model_type}\": its layer pattern is not known here (known: {})",
        MODEL_TYPES.join(", ")
    )
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
mod tests;
