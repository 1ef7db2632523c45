//! A pasted `config.json`, kept to what this module reads: the fields that decide each layer's
//! attention, RoPE, cache and query temperature ([`READ_FIELDS`]); every other field is named as
//! ignored. And the model's RoPE written both ways: as transformers v5 writes it
//! (`rope_parameters`, flat, or one dict per layer type) and in the legacy form (`rope_theta` +
//! `rope_scaling`, and Gemma 3's `rope_local_base_freq`), where one exists.

use serde_json::{Map, Value};

use super::{Attention, Model, read_model};

/// The text model's fields this module reads; any other field of a pasted config is ignored.
pub const READ_FIELDS: [&str; 31] = [
    "model_type",
    "num_hidden_layers",
    "layer_types",
    "sliding_window",
    "use_sliding_window",
    "max_window_layers",
    "sliding_window_pattern",
    "use_bidirectional_attention",
    "no_rope_layers",
    "no_rope_layer_interval",
    "attention_chunk_size",
    "rope_local_base_freq",
    "rope_theta",
    "rope_scaling",
    "rope_parameters",
    "partial_rotary_factor",
    "rope_interleave",
    "head_dim",
    "global_head_dim",
    "qk_rope_head_dim",
    "num_attention_heads",
    "num_key_value_heads",
    "num_global_key_value_heads",
    "attention_k_eq_v",
    "per_layer_config",
    "num_kv_shared_layers",
    "hidden_size",
    "kv_lora_rank",
    "attn_temperature_tuning",
    "attn_scale",
    "floor_scale",
];

/// The most bytes a kept config may take in the page's link, percent-encoded (a link's query is
/// read up to 8 KB, and the other keys need room).
pub const MAX_KEPT_BYTES: usize = 6000;

/// `text`'s length percent-encoded as a link's value (unreserved bytes as they are, any other
/// as `%XX`).
fn encoded_len(text: &str) -> usize {
    text.bytes()
        .map(|b| {
            if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.' | b'~') {
                1
            } else {
                3
            }
        })
        .sum()
}

/// A pasted config, kept to the fields read.
#[derive(Clone, Debug, PartialEq)]
pub struct Kept {
    /// The config with only [`READ_FIELDS`] (and the `text_config` holding them), compact JSON.
    pub text: String,
    /// The fields dropped, in the order the config has them (`text_config.` before a nested one).
    pub ignored: Vec<String>,
}

/// `fields` without the ones not read; the names dropped go to `ignored` with `prefix`.
fn keep(
    fields: &Map<String, Value>,
    prefix: &str,
    ignored: &mut Vec<String>,
) -> Map<String, Value> {
    let mut out = Map::new();
    for (k, v) in fields {
        if READ_FIELDS.contains(&k.as_str()) {
            out.insert(k.clone(), v.clone());
        } else if k != "text_config" {
            ignored.push(format!("{prefix}{k}"));
        }
    }
    out
}

/// Reads `text` as a model's config and keeps what this module reads of it. An error (one line)
/// when it is not a config whose layers are read here, or when what is kept is too long for a
/// link.
pub fn keep_read_fields(text: &str) -> Result<Kept, String> {
    read_model(text)?;
    let Ok(Value::Object(root)) = serde_json::from_str::<Value>(text) else {
        return Err("expected a JSON object (a model's config.json)".to_string());
    };
    let mut ignored = Vec::new();
    let mut kept = keep(&root, "", &mut ignored);
    if let Some(Value::Object(inner)) = root.get("text_config") {
        kept.insert(
            "text_config".into(),
            Value::Object(keep(inner, "text_config.", &mut ignored)),
        );
    }
    let text = Value::Object(kept).to_string();
    let encoded = encoded_len(&text);
    if encoded > MAX_KEPT_BYTES {
        return Err(format!(
            "the fields read still take {encoded} bytes in a link; at most {MAX_KEPT_BYTES} fit"
        ));
    }
    Ok(Kept { text, ignored })
}

/// The name transformers gives a layer's attention in `layer_types`.
fn layer_type(attention: Attention) -> &'static str {
    match attention {
        Attention::Full => "full_attention",
        Attention::Sliding => "sliding_attention",
        Attention::Chunked => "chunked_attention",
    }
}

/// The RoPE of each layer type that rotates, in the order the layers first show it.
fn by_type(model: &Model) -> Vec<(&'static str, &Map<String, Value>)> {
    let mut out: Vec<(&'static str, &Map<String, Value>)> = Vec::new();
    for l in &model.layers {
        if let Some(r) = &l.rope {
            let t = layer_type(l.attention);
            if !out.iter().any(|(name, _)| *name == t) {
                out.push((t, &r.params));
            }
        }
    }
    out
}

/// The one RoPE that every rotating layer has, when transformers writes a single one: not when
/// the layer types' differ, nor for the model types it keeps per layer type whatever the values
/// (Gemma 3 and 4: `rope_parameters[layer_type]`).
fn shared<'a>(
    model: &Model,
    types: &[(&str, &'a Map<String, Value>)],
) -> Option<&'a Map<String, Value>> {
    let first = types.first()?.1;
    let per_layer_type = matches!(model.model_type.as_str(), "gemma3_text" | "gemma4_text");
    (types.iter().all(|(_, p)| *p == first) && !per_layer_type).then_some(first)
}

/// The model's RoPE as transformers v5 writes it: `"rope_parameters": {…}` when every rotating
/// layer has the same, else one dict per layer type (`None` when no layer rotates).
pub fn v5_form(model: &Model) -> Option<String> {
    let types = by_type(model);
    if types.is_empty() {
        return None;
    }
    let value = match shared(model, &types) {
        Some(params) => Value::Object(params.clone()),
        None => Value::Object(
            types
                .iter()
                .map(|(t, p)| ((*t).to_string(), Value::Object((*p).clone())))
                .collect(),
        ),
    };
    Some(format!("\"rope_parameters\": {value}"))
}

/// `params` as the legacy pair: its θ, and the rest as `rope_scaling` (null for a plain RoPE).
fn legacy_pair(params: &Map<String, Value>) -> (Value, Value) {
    let theta = params.get("rope_theta").cloned().unwrap_or(Value::Null);
    let mut rest = params.clone();
    rest.remove("rope_theta");
    let plain = rest.len() == 1 && rest.get("rope_type") == Some(&Value::from("default"));
    (
        theta,
        if plain {
            Value::Null
        } else {
            Value::Object(rest)
        },
    )
}

/// The model's RoPE in the legacy form: `rope_theta` and `rope_scaling` when every rotating
/// layer has the same; Gemma 3's full and sliding layers as `rope_theta`, `rope_scaling` and
/// `rope_local_base_freq` (the sliding layers plain); `None` when the legacy fields cannot say
/// it (Gemma 4's proportional full layers beside plain sliding ones) or no layer rotates.
pub fn legacy_form(model: &Model) -> Option<String> {
    let types = by_type(model);
    if types.is_empty() {
        return None;
    }
    if let Some(params) = shared(model, &types) {
        let (theta, scaling) = legacy_pair(params);
        return Some(format!(
            "\"rope_theta\": {theta}, \"rope_scaling\": {scaling}"
        ));
    }
    let find = |t: &str| types.iter().find(|(n, _)| *n == t).map(|(_, p)| *p);
    if model.model_type != "gemma3_text" {
        return None;
    }
    // Gemma 3: the full layers' θ and scaling, the sliding layers' θ (plain); a type the model
    // has no layer of is left to the class's default.
    let mut parts = Vec::new();
    if let Some(full) = find("full_attention") {
        let (theta, scaling) = legacy_pair(full);
        parts.push(format!(
            "\"rope_theta\": {theta}, \"rope_scaling\": {scaling}"
        ));
    }
    if let Some(sliding) = find("sliding_attention") {
        let (local, rest) = legacy_pair(sliding);
        if !rest.is_null() {
            return None;
        }
        parts.push(format!("\"rope_local_base_freq\": {local}"));
    }
    Some(parts.join(", "))
}

#[cfg(test)]
mod tests {
    use super::super::presets::PRESETS;
    use super::*;

    #[test]
    fn a_kept_config_reads_as_the_whole_one() {
        let nested = std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../shared/reference/modern/configs/gemma-3-4b-v5-nested.json"
        ))
        .expect("the shared reference's v5 Gemma 3 config");
        for text in PRESETS.iter().map(|p| p.config).chain([nested.as_str()]) {
            let kept = keep_read_fields(text).expect(text);
            let (a, b) = (read_model(&kept.text).unwrap(), read_model(text).unwrap());
            assert_eq!((a.layers, a.widths), (b.layers, b.widths));
            for name in &kept.ignored {
                let field = name.trim_start_matches("text_config.");
                assert!(!READ_FIELDS.contains(&field), "{name}");
            }
        }
        let scout = PRESETS.iter().find(|p| p.id == "llama-4-scout").unwrap();
        let kept = keep_read_fields(scout.config).unwrap();
        assert!(
            kept.ignored
                .contains(&"text_config.use_qk_norm".to_string())
        );
        // Llama 4's query temperature is read from the kept config as from the published one.
        let of = |text: &str| {
            let m = read_model(text).unwrap();
            crate::math::temperature::of_model(&m.model_type, &m.fields)
        };
        assert_eq!(of(&kept.text), of(scout.config));
        assert!(kept.text.contains("floor_scale"));
        assert!(keep_read_fields("{").is_err());
        assert!(keep_read_fields("[1]").is_err());
    }

    #[test]
    fn the_two_forms_say_the_same_rope() {
        let gemma3 = read_model(PRESETS[0].config).unwrap();
        assert_eq!(
            v5_form(&gemma3).unwrap(),
            "\"rope_parameters\": {\"full_attention\":{\"factor\":8.0,\"rope_theta\":1000000.0,\
             \"rope_type\":\"linear\"},\"sliding_attention\":{\"rope_theta\":10000.0,\"rope_type\":\"default\"}}"
        );
        assert_eq!(
            legacy_form(&gemma3).unwrap(),
            "\"rope_theta\": 1000000.0, \"rope_scaling\": {\"factor\":8.0,\"rope_type\":\"linear\"}, \
             \"rope_local_base_freq\": 10000.0"
        );
        // Gemma 3 stays per layer type even when its layers agree, or a type has no layer:
        // pasted back, each form gives the same layers.
        for text in [
            r#"{"model_type": "gemma3_text", "num_hidden_layers": 5, "rope_local_base_freq": 20000}"#,
            r#"{"model_type": "gemma3_text", "num_hidden_layers": 4, "sliding_window_pattern": 1,
                "rope_scaling": {"rope_type": "linear", "factor": 8.0}}"#,
            r#"{"model_type": "gemma3_text", "num_hidden_layers": 6, "rope_theta": 10000,
                "rope_local_base_freq": 10000}"#,
        ] {
            let model = read_model(text).unwrap();
            let v5 = v5_form(&model).unwrap();
            assert!(v5.contains("_attention"), "{v5}");
            for form in [v5, legacy_form(&model).unwrap()] {
                let mut root: Map<String, Value> = serde_json::from_str(text).unwrap();
                for k in ["rope_theta", "rope_scaling", "rope_local_base_freq"] {
                    root.remove(k);
                }
                root.extend(
                    serde_json::from_str::<Map<String, Value>>(&format!("{{{form}}}")).unwrap(),
                );
                let again = read_model(&Value::Object(root).to_string()).unwrap();
                assert_eq!(again.layers, model.layers, "{text}: {form}");
            }
        }
        let gemma4 = read_model(PRESETS[1].config).unwrap();
        assert!(v5_form(&gemma4).unwrap().contains("proportional"));
        assert_eq!(legacy_form(&gemma4), None);
        // Pasting the legacy form back gives the same layers, and so does the v5 one.
        for p in &PRESETS {
            let model = read_model(p.config).unwrap();
            for form in [v5_form(&model), legacy_form(&model)].into_iter().flatten() {
                let mut root: Map<String, Value> =
                    serde_json::from_str(&keep_read_fields(p.config).unwrap().text).unwrap();
                let fields = match root.get_mut("text_config") {
                    Some(Value::Object(m)) => m,
                    _ => &mut root,
                };
                for k in [
                    "rope_theta",
                    "rope_scaling",
                    "rope_parameters",
                    "rope_local_base_freq",
                ] {
                    fields.remove(k);
                }
                let extra: Map<String, Value> =
                    serde_json::from_str(&format!("{{{form}}}")).unwrap();
                fields.extend(extra);
                let again = read_model(&Value::Object(root).to_string()).unwrap();
                assert_eq!(again.layers, model.layers, "{} {form}", p.id);
            }
        }
    }
}
