//! The raw config fields that decide what one layer does, and what each means for that layer:
//! the table under chapter 5's strip of layers.

use serde_json::Value;

use super::{attention_text, grouped, theta_text};
use crate::math::layers::{Attention, Model};

/// One raw config field that decides what a layer does, and what it means for that layer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RawField {
    /// The field as the config names it (`no_rope_layers[3]`).
    pub field: String,
    /// Its value as JSON (`0`), or "(not set: 6)" for a default the model type fills in.
    pub value: String,
    /// What it means here.
    pub meaning: String,
}

/// A JSON value on one short line.
fn short(v: &Value) -> String {
    let text = v.to_string();
    if text.chars().count() > 90 {
        format!("{}…", text.chars().take(89).collect::<String>())
    } else {
        text
    }
}

/// The raw fields of `model`'s config that decide layer `index`, with their meanings, in the
/// order the config's reader consults them (transformers 5.24, see [`crate::math::layers`]).
pub fn raw_fields(model: &Model, index: usize) -> Vec<RawField> {
    let Some(layer) = model.layers.get(index) else {
        return Vec::new();
    };
    let mt = model.model_type.as_str();
    let fields = &model.fields;
    let mut rows = Vec::new();
    let mut row = |field: String, value: String, meaning: String| {
        rows.push(RawField {
            field,
            value,
            meaning,
        });
    };
    let given = |key: &str| fields.get(key).filter(|v| !v.is_null());
    let gemma = matches!(mt, "gemma3_text" | "gemma4_text");
    let chunk_rope = matches!(mt, "llama4_text" | "smollm3");
    // Which keys the layer sees.
    match given("layer_types").and_then(Value::as_array) {
        Some(types) => {
            let t = types.get(index).map_or("?".to_string(), short);
            row(
                format!("layer_types[{index}]"),
                t,
                format!(
                    "its mask: {}{}",
                    attention_text(layer),
                    if mt == "smollm3" && layer.attention == Attention::Full {
                        " (SmolLM3 slides only with use_sliding_window)"
                    } else {
                        ""
                    }
                ),
            );
        }
        None => match mt {
            "gemma3_text" | "cohere2" => {
                let every = if mt == "gemma3_text" { 6 } else { 4 };
                let (value, set) = match given("sliding_window_pattern") {
                    Some(v) => (short(v), v.as_u64().unwrap_or(every)),
                    None => (format!("(not set: {every})"), every),
                };
                row(
                    "sliding_window_pattern".into(),
                    value,
                    format!(
                        "with no layer_types, layer i is full when i + 1 is a multiple of {set} \
                         and slides otherwise; layer {index}: {}",
                        attention_text(layer)
                    ),
                );
            }
            _ => {}
        },
    }
    if let Some(v) = given("use_sliding_window") {
        row(
            "use_sliding_window".into(),
            short(v),
            if v.as_bool() == Some(true) {
                "sliding windows are on".to_string()
            } else {
                "false: no layer slides, whatever sliding_window says".to_string()
            },
        );
    }
    if let (Some(v), "qwen3") = (given("max_window_layers"), mt) {
        row(
            "max_window_layers".into(),
            short(v),
            "with use_sliding_window, the layers from this index on would slide".to_string(),
        );
    }
    match (layer.attention, given("sliding_window")) {
        (Attention::Sliding, Some(v)) => row(
            "sliding_window".into(),
            short(v),
            format!(
                "W: a query in layer {index} sees the last {} keys, its own included, and the \
                 cache keeps the last {}",
                grouped(layer.window.unwrap_or(0) as u64),
                grouped(layer.window.unwrap_or(1).saturating_sub(1) as u64)
            ),
        ),
        (_, Some(v)) => row(
            "sliding_window".into(),
            short(v),
            format!("the sliding layers' window; layer {index} does not slide"),
        ),
        (_, None) => {}
    }
    if let Some(v) = given("attention_chunk_size") {
        row(
            "attention_chunk_size".into(),
            short(v),
            if layer.attention == Attention::Chunked {
                format!("C: layer {index} attends within chunks of C")
            } else {
                format!("the chunk of the layers with RoPE; layer {index} attends to every key")
            },
        );
    }
    // Whether it rotates.
    if chunk_rope {
        match given("no_rope_layers").and_then(Value::as_array) {
            Some(list) if !list.is_empty() => {
                let v = list.get(index).map_or("?".to_string(), short);
                row(
                    format!("no_rope_layers[{index}]"),
                    v,
                    if layer.rope.is_some() {
                        "1 means this layer USES RoPE (the list names the layers that rotate, \
                         despite its name)"
                            .to_string()
                    } else {
                        "0 means this layer has no RoPE".to_string()
                    },
                );
            }
            list => {
                let interval = given("no_rope_layer_interval")
                    .and_then(Value::as_u64)
                    .unwrap_or(4);
                row(
                    "no_rope_layers".into(),
                    list.map_or("(not set)".to_string(), |_| "[]".to_string()),
                    format!(
                        "filled from no_rope_layer_interval = {interval}: layer i rotates unless \
                         i + 1 is a multiple of {interval}; layer {index} {}",
                        if layer.rope.is_some() {
                            "rotates"
                        } else {
                            "does not"
                        }
                    ),
                );
            }
        }
    }
    if mt == "cohere2" {
        row(
            "(model code)".into(),
            "Cohere2Attention".into(),
            format!(
                "rotates only on sliding layers; layer {index} {}",
                if layer.rope.is_some() {
                    "rotates"
                } else {
                    "does not"
                }
            ),
        );
    }
    // With which RoPE.
    let Some(rope) = &layer.rope else {
        return rows;
    };
    let layer_type = match layer.attention {
        Attention::Sliding => "sliding_attention",
        Attention::Chunked => "chunked_attention",
        Attention::Full => "full_attention",
    };
    if let Some(v) = given("rope_parameters") {
        let nested = v.get(layer_type).filter(|d| d.is_object());
        match (nested, gemma) {
            (Some(d), _) => row(
                format!("rope_parameters[\"{layer_type}\"]"),
                short(d),
                "transformers v5's form, one dict per layer type: this layer's RoPE".to_string(),
            ),
            _ => row(
                "rope_parameters".into(),
                short(v),
                "transformers v5's form: one RoPE for every rotating layer".to_string(),
            ),
        }
    }
    if let Some(v) = fields.get("rope_scaling") {
        let meaning = match (v.is_null(), mt) {
            (true, _) => "null: no scaling".to_string(),
            (false, "gemma3_text") => format!(
                "the legacy form; Gemma 3 applies it to its full layers only{}",
                if layer.attention == Attention::Full {
                    ", this one among them"
                } else {
                    ", not to this one"
                }
            ),
            _ => "the legacy form of rope_parameters: every rotating layer".to_string(),
        };
        row("rope_scaling".into(), short(v), meaning);
    }
    if mt == "gemma3_text" {
        let (key, default, of) = if layer.attention == Attention::Full {
            ("rope_theta", 1_000_000.0, "the full layers' θ")
        } else {
            ("rope_local_base_freq", 10_000.0, "the sliding layers' θ")
        };
        row(
            key.into(),
            given(key).map_or(format!("(not set: {})", theta_text(default)), short),
            format!("{of}: {}", theta_text(rope.theta)),
        );
    } else if let Some(v) = given("rope_theta") {
        row(
            "rope_theta".into(),
            short(v),
            format!("θ of every rotating layer: {}", theta_text(rope.theta)),
        );
    }
    for (key, meaning) in [
        (
            "partial_rotary_factor",
            "the share of each head's coordinates that turn",
        ),
        (
            "head_dim",
            if mt == "gemma4_text" {
                "the sliding layers' numbers per query or key head"
            } else {
                "numbers per query or key head"
            },
        ),
        (
            "global_head_dim",
            "the full layers' numbers per query or key head (Gemma 4)",
        ),
        (
            "qk_rope_head_dim",
            "per head, the dimensions that rotate (MLA's decoupled part)",
        ),
        (
            "rope_interleave",
            "whether the rotated pairs are stored interleaved",
        ),
    ] {
        if let Some(v) = given(key) {
            row(key.into(), short(v), meaning.to_string());
        } else if key == "rope_interleave" && mt == "deepseek_v3" {
            row(
                key.into(),
                "(not set: true)".into(),
                "transformers' DeepseekV3Config default: the checkpoint's rotated pairs are \
                 interleaved, and its attention reorders them to halves before rotating"
                    .to_string(),
            );
        }
    }
    rows
}
