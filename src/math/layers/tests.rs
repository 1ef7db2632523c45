//! Tests of the layer reading: transformers' traps, masks and reach, errors.

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
    let l =
        layers(r#"{"model_type": "llama4_text", "num_hidden_layers": 8, "no_rope_layers": []}"#);
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

/// Gemma 4's full layers cache `num_global_key_value_heads` only where keys double as values
/// (`attention_k_eq_v`); otherwise `num_key_value_heads` (transformers 5.24's
/// Gemma4TextAttention; what `Gemma4TextConfig(attention_k_eq_v=False,
/// num_global_key_value_heads=2, num_key_value_heads=8, num_hidden_layers=6)` gives: 8 × 512).
#[test]
fn gemma4_global_heads_only_with_keys_as_values() {
    let config = |k_eq_v: bool| {
        format!(
            r#"{{"model_type": "gemma4_text", "num_hidden_layers": 6, "num_attention_heads": 8,
                "num_key_value_heads": 8, "num_global_key_value_heads": 2,
                "attention_k_eq_v": {k_eq_v}}}"#
        )
    };
    let (layers, widths) = parse_cache(&config(false)).unwrap();
    assert_eq!(layers[5].attention, Attention::Full);
    assert_eq!((widths[5].kv_heads, widths[5].d_k), (8, 512));
    let (_, widths) = parse_cache(&config(true)).unwrap();
    assert_eq!((widths[5].kv_heads, widths[5].d_k), (2, 512));
    // Layers that reuse another's cache (Gemma 4 E2B/E4B) are refused, not counted twice.
    let shared = r#"{"model_type": "gemma4_text", "num_hidden_layers": 6,
        "num_attention_heads": 8, "num_kv_shared_layers": 2}"#;
    let e = parse_cache(shared).unwrap_err();
    assert!(e.contains("num_kv_shared_layers"), "{e}");
}

/// Gemma 4's saved v5 form: `per_layer_config` holds what `Gemma4TextConfig.__post_init__`
/// derived from `global_head_dim` and `num_global_key_value_heads` (the full layers' head size,
/// and their key/value heads where keys double as values), which the saved file then leaves out.
/// The published form and the saved one give the same layers, caches and rotary head sizes.
#[test]
fn gemma4_per_layer_config_reads_as_the_published_form() {
    let published = super::presets::PRESETS[1].config;
    let mut root: Map<String, Value> = serde_json::from_str(published).unwrap();
    let text = root
        .get_mut("text_config")
        .unwrap()
        .as_object_mut()
        .unwrap();
    let types: Vec<String> = text["layer_types"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t.as_str().unwrap().to_string())
        .collect();
    let overrides: Map<String, Value> = types
        .iter()
        .enumerate()
        .filter(|(_, t)| *t == "full_attention")
        .map(|(i, _)| {
            let o = serde_json::json!({"head_dim": text["global_head_dim"], "num_key_value_heads": text["num_global_key_value_heads"]});
            (i.to_string(), o)
        })
        .collect();
    text.remove("global_head_dim");
    text.remove("num_global_key_value_heads");
    text.insert("per_layer_config".into(), Value::Object(overrides));
    let saved = Value::Object(root).to_string();
    assert_eq!(
        parse_cache(&saved).unwrap(),
        parse_cache(published).unwrap()
    );
    for layer in [0, 5, 59] {
        assert_eq!(
            layer_rope_config(&saved, layer).unwrap(),
            layer_rope_config(published, layer).unwrap().map(|mut v| {
                let o = v.as_object_mut().unwrap();
                o.remove("global_head_dim");
                o.remove("num_global_key_value_heads");
                o.insert("per_layer_config".into(), Value::Null);
                v
            }).map(|mut v| {
                // The saved form's per_layer_config travels with the fields.
                let saved_fields: Value = serde_json::from_str::<Value>(&saved).unwrap()["text_config"]["per_layer_config"].clone();
                v.as_object_mut().unwrap().insert("per_layer_config".into(), saved_fields);
                v
            }),
            "layer {layer}"
        );
    }
    let bad = saved.replace("\"per_layer_config\":{", "\"per_layer_config\":{\"0\":7,");
    assert!(
        parse_cache(&bad)
            .unwrap_err()
            .contains("per_layer_config[\"0\"]")
    );
}

/// What transformers 5.24 saves for the Gemma 4 preset (`tests/reference/configs/`, its
/// `per_layer_config` keyed "05", "11", …) reads as the published file.
#[test]
fn gemma4_as_transformers_saves_it() {
    let saved = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/reference/configs/gemma-4-31b-v5-saved.json"
    ))
    .unwrap();
    let published = super::presets::PRESETS[1].config;
    assert_eq!(
        parse_cache(&saved).unwrap(),
        parse_cache(published).unwrap()
    );
    assert_eq!(
        parse_layers(&saved).unwrap().layers,
        parse_layers(published).unwrap().layers
    );
}
