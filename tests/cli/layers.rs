//! `pe layers` against what transformers 5.24 holds for every config of the shared reference's
//! `modern/` folder: its own records (Gemma 3 4B) and, for every config, what its config classes
//! give (`tests/reference/layers/`, written by `generate.py` there).

use serde_json::Value;

use super::{assert_one_line_error, json, pe, pe_with_stdin};

/// The shared reference's `modern/` folder beside the crate.
fn modern(path: &str) -> String {
    format!(
        "{}/../shared/reference/modern/{path}",
        env!("CARGO_MANIFEST_DIR")
    )
}

fn read_json(path: &str) -> Value {
    serde_json::from_str(&std::fs::read_to_string(path).expect(path)).expect(path)
}

/// The records of `kind` in `records.json`, each with the path of its config (at least one).
fn records(kind: &str) -> Vec<(Value, String)> {
    let all = read_json(&modern("records.json"));
    let found: Vec<(Value, String)> = all["records"]
        .as_array()
        .expect("records")
        .iter()
        .filter(|r| r["kind"] == kind)
        .map(|r| {
            let config = modern(&format!(
                "configs/{}",
                r["config"].as_str().expect("config")
            ));
            (r.clone(), config)
        })
        .collect();
    assert!(!found.is_empty(), "no {kind} record");
    found
}

#[test]
fn every_modern_config_reads_as_transformers_reads_it() {
    let folder = modern("configs");
    let mut names: Vec<String> = std::fs::read_dir(&folder)
        .expect("the shared reference's configs")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".json"))
        .collect();
    names.sort();
    assert!(names.len() >= 11, "{names:?}");
    for name in &names {
        let got = json(&["layers", "--config", &format!("{folder}/{name}")]);
        let want = read_json(&format!(
            "{}/tests/reference/layers/{name}",
            env!("CARGO_MANIFEST_DIR")
        ));
        assert_eq!(got["num_layers"], want["num_layers"], "{name}");
        assert_eq!(got["layers"], want["layers"], "{name}");
    }
}

#[test]
fn the_gemma_3_record_is_what_pe_layers_prints() {
    for (r, config) in records("layers") {
        let got = json(&["layers", "--config", &config]);
        assert_eq!(got["num_layers"], r["num_layers"], "{}", r["name"]);
        // θ compared as numbers (a record may print 10000 or 10000.0).
        for (g, w) in got["layers"]
            .as_array()
            .expect("layers")
            .iter()
            .zip(r["layers"].as_array().expect("layers"))
        {
            for key in ["layer", "attention", "window", "rope", "rope_type"] {
                assert_eq!(g[key], w[key], "{}: {key} of {g}", r["name"]);
            }
            assert_eq!(g["rope_theta"].as_f64(), w["rope_theta"].as_f64(), "{g}");
        }
    }
}

#[test]
fn layers_reads_stdin_and_refuses_what_it_cannot_read() {
    let out = pe_with_stdin(
        &["layers", "--config", "-"],
        r#"{"model_type": "llama4_text", "num_hidden_layers": 4, "no_rope_layers": [1, 1, 1, 0]}"#,
    );
    assert!(out.status.success());
    let v: Value = serde_json::from_slice(&out.stdout).expect("json");
    assert_eq!(v["layers"][3]["rope"], false);
    assert_eq!(v["layers"][3]["rope_theta"], Value::Null);
    assert_eq!(v["layers"][0]["attention"], "chunked");
    assert_one_line_error(
        &pe_with_stdin(&["layers", "--config", "-"], r#"{"model_type": "bert"}"#),
        "unknown model type",
        &["stdin: ", "\"bert\"", "not known here"],
    );
    assert_one_line_error(
        &pe(&["layers", "--config", "/nonexistent.json"]),
        "no file",
        &["/nonexistent.json"],
    );
}

#[test]
fn rope_freqs_of_a_layer_is_the_records_rotary_embedding() {
    let found = records("rope-freqs");
    assert!(found.len() >= 2);
    for (r, config) in found {
        let layer = r["layer"].as_u64().expect("layer").to_string();
        let got = json(&["rope-freqs", "--config", &config, "--layer", &layer]);
        assert_eq!(got["layer"], r["layer"]);
        assert_eq!(got["rope"], r["rope"]);
        let (g, w) = (
            got["inv_freq"].as_array().expect("inv_freq"),
            r["inv_freq"].as_array().expect("inv_freq"),
        );
        assert_eq!(g.len(), w.len(), "{}", r["name"]);
        for (a, b) in g.iter().zip(w) {
            let (a, b) = (a.as_f64().expect("a"), b.as_f64().expect("b"));
            // The record is PyTorch's float32.
            assert!((a - b).abs() <= 2e-7 * b.abs(), "{}: {a} vs {b}", r["name"]);
        }
        assert_eq!(
            got["attention_factor"], r["attention_factor"],
            "{}",
            r["name"]
        );
    }
}

#[test]
fn rope_freqs_of_a_layer_without_rope_and_of_no_such_layer() {
    let scout = modern("configs/llama-4-scout.json");
    let v = json(&["rope-freqs", "--config", &scout, "--layer", "3"]);
    assert_eq!(v["rope"], false);
    assert_eq!(v["inv_freq"], serde_json::json!([]));
    assert_eq!(v["attention_factor"], Value::Null);
    let v = json(&["rope-freqs", "--config", &scout, "--layer", "4"]);
    assert_eq!(
        (v["rope"].clone(), v["rope_type"].clone()),
        (Value::Bool(true), Value::from("llama3"))
    );
    assert_one_line_error(
        &pe(&["rope-freqs", "--config", &scout, "--layer", "48"]),
        "past the last layer",
        &["layer 48", "0 … 47"],
    );
    // Without --layer, a model whose layers differ answers for layer 0.
    let gemma = modern("configs/gemma-3-4b.json");
    let first = json(&["rope-freqs", "--config", &gemma]);
    assert_eq!(first["layer"], 0);
    assert_eq!(first["base"].as_f64(), Some(10_000.0));
    // Every layer of every modern config computes.
    let folder = modern("configs");
    for entry in std::fs::read_dir(&folder).expect("configs") {
        let path = entry.expect("entry").path().to_string_lossy().into_owned();
        let n = json(&["layers", "--config", &path])["num_layers"]
            .as_u64()
            .expect("n");
        for layer in (0..n).step_by(3) {
            let out = pe(&[
                "rope-freqs",
                "--config",
                &path,
                "--layer",
                &layer.to_string(),
            ]);
            assert!(out.status.success(), "{path} layer {layer}");
        }
    }
}

/// Gemma 4's full layers as transformers 5.24's `_compute_proportional_rope_parameters` builds
/// them, written out here in float32 from its Python: head 512 (`global_head_dim`),
/// `rope_angles = int(0.25 * 512 // 2)`, `inv_freq = 1 / θ ** (arange(0, 2·angles, 2) / 512)`,
/// then zeros to 256.
#[test]
fn rope_freqs_of_a_proportional_layer_is_transformers_formula() {
    let gemma = modern("configs/gemma-4-31b.json");
    let config = read_json(&gemma);
    let full = &config["text_config"]["rope_parameters"]["full_attention"];
    let (f, theta) = (
        full["partial_rotary_factor"].as_f64().expect("f") as f32,
        full["rope_theta"].as_f64().expect("θ") as f32,
    );
    let h = config["text_config"]["global_head_dim"]
        .as_u64()
        .expect("h") as usize;
    let angles = (f * h as f32 / 2.0).floor() as usize;
    let v = json(&["rope-freqs", "--config", &gemma, "--layer", "5"]);
    assert_eq!(
        (v["rope_type"].as_str(), v["head_dim"].as_u64()),
        (Some("proportional"), Some(512))
    );
    let got = v["inv_freq"].as_array().expect("inv_freq");
    assert_eq!(got.len(), h / 2);
    for (i, w) in got.iter().enumerate() {
        let w = w.as_f64().expect("number");
        let want = if i < angles {
            f64::from(1.0 / theta.powf((2 * i) as f32 / h as f32))
        } else {
            0.0
        };
        assert!(
            (w - want).abs() <= 1e-6 * want,
            "pair {i}: {w} against {want}"
        );
        assert_eq!(v["wavelengths"][i].is_null(), want == 0.0, "pair {i}");
    }
    assert_eq!((angles, v["turning_pairs"].as_u64()), (64, Some(64)));
    assert_eq!(v["attention_factor"].as_f64(), Some(1.0));
    // Its sliding layers stay plain RoPE over their head of 256.
    let sliding = json(&["rope-freqs", "--config", &gemma, "--layer", "4"]);
    assert_eq!(sliding["inv_freq"].as_array().map(Vec::len), Some(128));
    // No reach or score curves: --target says so.
    assert_one_line_error(
        &pe(&[
            "rope-freqs",
            "--config",
            &gemma,
            "--layer",
            "5",
            "--target",
            "100000",
        ]),
        "--target",
        &["proportional does not extend the context"],
    );
}

#[test]
fn mrope_is_the_records_get_rope_index() {
    for (r, config) in records("mrope") {
        let input = r["input"].as_str().expect("input");
        let got = json(&["mrope", "--config", &config, "--input", input]);
        assert_eq!(got["position_ids"], r["position_ids"], "{}", r["name"]);
        assert_eq!(got["axis_of_pair"], r["axis_of_pair"], "{}", r["name"]);
    }
}

#[test]
fn mrope_follows_qwen3_vl_and_refuses_what_it_cannot_read() {
    let got = json(&[
        "mrope",
        "--config",
        &modern("configs/qwen3-vl-8b.json"),
        "--input",
        "text:2,image:1,2,4,text:1",
    ]);
    // The block starts at 2 (t stays 2; h 2..3; w 2..5); the text after it starts at 2 + max(2, 4).
    assert_eq!(
        got["position_ids"],
        serde_json::json!([
            [0, 1, 2, 2, 2, 2, 2, 2, 2, 2, 6],
            [0, 1, 2, 2, 2, 2, 3, 3, 3, 3, 6],
            [0, 1, 2, 3, 4, 5, 2, 3, 4, 5, 6]
        ])
    );
    let axes = got["axis_of_pair"].as_array().expect("axes");
    assert_eq!(axes.len(), 64);
    assert_eq!(axes[..4], [0, 1, 2, 0]);
    assert!(axes[60..].iter().all(|a| a == 0));
    assert_one_line_error(
        &pe(&[
            "mrope",
            "--config",
            &modern("configs/qwen3-vl-8b.json"),
            "--input",
            "image:2,2,2",
        ]),
        "a Qwen3-VL video block",
        &["T = 1 block per frame"],
    );
    assert_one_line_error(
        &pe(&[
            "mrope",
            "--config",
            &modern("configs/gemma-3-4b.json"),
            "--input",
            "text:1",
        ]),
        "not a multimodal RoPE",
        &["qwen2_5_vl and qwen3_vl"],
    );
    assert_one_line_error(
        &pe(&[
            "mrope",
            "--config",
            &modern("configs/qwen2.5-vl-7b.json"),
            "--input",
            "text:1,video:1,2,2",
        ]),
        "an unknown segment",
        &["text:N or image:T,H,W"],
    );
}
