//! Unit tests of [`super`] (`parse_config`): each value read from where transformers reads it,
//! and every error and warning.

use super::*;

fn ok(text: &str) -> ModelRope {
    parse_config(text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn err(text: &str) -> String {
    parse_config(text).expect_err(text)
}

#[test]
fn llama_3_1_reads_every_value() {
    let m = ok(
        r#"{"model_type": "llama", "hidden_size": 4096, "num_attention_heads": 32,
        "head_dim": 128, "max_position_embeddings": 131072, "rope_theta": 500000.0,
        "rope_scaling": {"factor": 8.0, "high_freq_factor": 4.0, "low_freq_factor": 1.0,
        "original_max_position_embeddings": 8192, "rope_type": "llama3"}}"#,
    );
    let c = &m.scaling;
    assert_eq!(c.rope_type, RopeType::Llama3);
    assert_eq!((c.dim, c.base, c.factor), (128, 500_000.0, 8.0));
    assert_eq!(
        (c.original_max, c.seq_len, m.max_position),
        (8192, 8192, 131_072)
    );
    assert_eq!((c.low_freq_factor, c.high_freq_factor), (1.0, 4.0));
    assert!(!m.interleaved);
    assert!(m.warnings.is_empty(), "{:?}", m.warnings);
    assert!(
        m.read
            .contains(&"rope_theta = 500000 (rope_theta)".to_string())
    );
    assert!(m.read.contains(&"head_dim = 128 (head_dim)".to_string()));
}

#[test]
fn yarn_keeps_an_explicit_factor_with_original_equal_to_max() {
    // Qwen2.5-7B-Instruct with its documented YaRN: transformers 5 keeps factor 4 (4.5x would
    // have replaced it by 32768/32768 = 1).
    let m = ok(
        r#"{"model_type": "qwen2", "hidden_size": 3584, "num_attention_heads": 28,
        "max_position_embeddings": 32768, "rope_theta": 1000000.0,
        "rope_scaling": {"factor": 4.0, "original_max_position_embeddings": 32768, "type": "yarn"}}"#,
    );
    assert_eq!(m.scaling.rope_type, RopeType::Yarn);
    assert_eq!((m.scaling.factor, m.scaling.original_max), (4.0, 32768));
    assert_eq!(m.head_dim, 128);
    assert!((m.scaling.compute().1 - (0.1 * 4f64.ln() + 1.0)).abs() < 1e-15);
    assert!(m.warnings.is_empty(), "{:?}", m.warnings);
}

#[test]
fn yarn_null_factor_is_derived_and_mismatch_warns() {
    let m = ok(
        r#"{"max_position_embeddings": 16384, "hidden_size": 256, "num_attention_heads": 4,
        "rope_scaling": {"rope_type": "yarn", "factor": null, "original_max_position_embeddings": 4096}}"#,
    );
    assert_eq!(m.scaling.factor, 4.0);
    let m = ok(
        r#"{"max_position_embeddings": 16384, "hidden_size": 256, "num_attention_heads": 4,
        "rope_scaling": {"rope_type": "yarn", "factor": 8, "original_max_position_embeddings": 4096,
        "truncate": false, "beta_fast": 0}}"#,
    );
    assert_eq!(m.scaling.factor, 8.0);
    assert!(!m.scaling.truncate);
    assert_eq!(
        m.scaling.beta_fast, 32.0,
        "0 means the default, as `or 32` does"
    );
    assert_eq!(m.warnings.len(), 1, "{:?}", m.warnings);
    assert!(m.warnings[0].contains("differs"), "{:?}", m.warnings);
}

#[test]
fn a_bare_scaling_object_takes_the_defaults() {
    let m = ok(r#"{"rope_type": "linear", "factor": 2}"#);
    assert_eq!(m.scaling.rope_type, RopeType::Linear);
    assert_eq!(
        (m.scaling.dim, m.scaling.base, m.scaling.factor),
        (128, 10_000.0, 2.0)
    );
    assert!(
        m.read[0].starts_with("only a rope_scaling object"),
        "{:?}",
        m.read
    );
    assert!(m.warnings.is_empty(), "{:?}", m.warnings);
    // rope_parameters (transformers 5) may carry rope_theta.
    let m = ok(r#"{"rope_type": "default", "rope_theta": 500000}"#);
    assert_eq!(m.scaling.base, 500_000.0);
    assert!(m.read[0].contains("rope_parameters"), "{:?}", m.read);
}

#[test]
fn rope_parameters_per_layer_and_in_place_of_rope_scaling() {
    let m = ok(
        r#"{"hidden_size": 512, "num_attention_heads": 8, "max_position_embeddings": 8192,
        "rope_parameters": {"rope_type": "linear", "factor": 2.0, "rope_theta": 20000.0}}"#,
    );
    assert_eq!(
        (m.scaling.base, m.scaling.factor, m.head_dim),
        (20_000.0, 2.0, 64)
    );
    let m = ok(r#"{"hidden_size": 512, "num_attention_heads": 8,
        "rope_parameters": {"full_attention": {"rope_type": "default", "rope_theta": 1000000.0},
                            "sliding_attention": {"rope_type": "default", "rope_theta": 10000.0}}}"#);
    assert_eq!(m.scaling.base, 1e6);
    assert_eq!(m.warnings.len(), 1);
}

#[test]
fn partial_rotation_keys() {
    let neox = ok(
        r#"{"model_type": "gpt_neox", "hidden_size": 6144, "num_attention_heads": 64,
        "rotary_pct": 0.25, "rotary_emb_base": 10000, "max_position_embeddings": 2048}"#,
    );
    assert_eq!((neox.head_dim, neox.scaling.dim), (96, 24));
    assert!(
        neox.read
            .contains(&"rotary dim = 24 (rotary_pct 0.25 × head_dim 96)".to_string())
    );
    let gptj = ok(
        r#"{"model_type": "gptj", "n_embd": 4096, "n_head": 16, "rotary_dim": 64, "n_positions": 2048}"#,
    );
    assert_eq!(
        (gptj.head_dim, gptj.scaling.dim, gptj.max_position),
        (256, 64, 2048)
    );
    assert!(gptj.interleaved);
    let phi =
        ok(r#"{"hidden_size": 2560, "num_attention_heads": 32, "partial_rotary_factor": 0.4}"#);
    assert_eq!((phi.head_dim, phi.scaling.dim), (80, 32));
    let deepseek =
        ok(r#"{"hidden_size": 5120, "num_attention_heads": 128, "qk_rope_head_dim": 64}"#);
    assert_eq!((deepseek.head_dim, deepseek.scaling.dim), (64, 64));
    // 90 × 0.1 = 9 coordinates: not pairs.
    assert!(
        err(r#"{"hidden_size": 90, "num_attention_heads": 1, "partial_rotary_factor": 0.1}"#)
            .contains("rotary dim 9 (partial_rotary_factor 0.1 × head_dim 90) must be even")
    );
}

#[test]
fn longrope_phi3_style() {
    let list = |v: f64| format!("[{}]", vec![v.to_string(); 48].join(", "));
    let text = format!(
        r#"{{"hidden_size": 3072, "num_attention_heads": 32, "max_position_embeddings": 131072,
        "original_max_position_embeddings": 4096, "rope_theta": 10000.0,
        "rope_scaling": {{"type": "su", "short_factor": {}, "long_factor": {}}}}}"#,
        list(1.0),
        list(2.0)
    );
    let m = ok(&text);
    assert_eq!(m.scaling.rope_type, RopeType::Longrope);
    assert_eq!((m.scaling.factor, m.scaling.original_max), (32.0, 4096));
    assert!((m.scaling.compute().1 - (17.0f64 / 12.0).sqrt()).abs() < 1e-15);
    assert!(m.warnings.is_empty(), "{:?}", m.warnings);
    // Built, the model holds its short factors (all 1 here); past L₀ the long ones (all 2).
    assert_eq!(m.scaling.seq_len, 4096);
    assert!(m.scaling.scale_per_pair().iter().all(|&k| k == 1.0));
    let longer = RopeScaling {
        seq_len: 4097,
        ..m.scaling.clone()
    };
    assert!(longer.scale_per_pair().iter().all(|&k| k == 2.0));
    let short = text.replace(&list(2.0), "[1, 2]");
    assert_eq!(
        err(&short),
        "long_factor has 2 entries; rope_type 'longrope' needs head_dim·partial/2 = 48"
    );
}

#[test]
fn errors_are_one_line_and_precise() {
    let e = err("{\n  \"rope_scaling\": {\n    \"factor\" 8\n  }\n}");
    assert!(e.starts_with("line 3, column 14: expected `:`"), "{e}");
    assert_eq!(
        err(
            r#"{"max_position_embeddings": 131072, "rope_scaling": {"rope_type": "llama3", "factor": 8, "high_freq_factor": 4}}"#
        ),
        "rope_scaling for rope_type 'llama3' is missing original_max_position_embeddings, low_freq_factor"
    );
    assert!(
        err(r#"{"rope_scaling": {"rope_type": "rotary9"}}"#)
            .contains("known: default, linear, ntk")
    );
    assert!(
        err(r#"{"rope_theta": 1e9}"#).contains("rope_theta 1e9 is out of this app's range 2..=1e7")
    );
    assert!(err(r#"{"rope_scaling": {"rope_type": "linear", "factor": 100}}"#).contains("1..=64"));
    assert!(
        err(r#"{"rope_scaling": {"rope_type": "linear", "factor": "8"}}"#)
            .contains("must be a number")
    );
    assert!(err("[1, 2]").contains("got an array"));
    assert!(err(&" ".repeat(MAX_CONFIG_BYTES + 1)).contains("at most 65536"));
    for text in ["", "{", "{\"a\": [}", "nul"] {
        let e = err(text);
        assert!(e.starts_with("line ") && !e.contains('\n'), "{e}");
    }
}

#[test]
fn warnings_like_transformers() {
    let m = ok(
        r#"{"head_dim": 64, "rope_scaling": {"rope_type": "default", "factor": 4.0, "foo": 1}}"#,
    );
    assert_eq!(m.warnings.len(), 1);
    assert!(m.warnings[0].contains("factor, foo"), "{:?}", m.warnings);
    let m = ok(r#"{"head_dim": 64, "rope_scaling": {"rope_type": "linear", "factor": 0.5}}"#);
    assert_eq!(m.scaling.factor, 1.0);
    assert!(m.warnings[0].contains("below 1"), "{:?}", m.warnings);
    let m = ok(
        r#"{"head_dim": 64, "max_position_embeddings": 2048, "rope_scaling": {"rope_type": "dynamic", "factor": 2.0,
        "original_max_position_embeddings": 1024}}"#,
    );
    assert_eq!(
        m.scaling.original_max, 2048,
        "dynamic scales from max_position_embeddings"
    );
    // transformers 5.24's `_validate_dynamic_rope_parameters` does not list the key: it logs
    // "Unrecognized keys … {'original_max_position_embeddings'}".
    assert_eq!(m.warnings.len(), 1, "{:?}", m.warnings);
    assert!(
        m.warnings[0].contains("unknown key")
            && m.warnings[0].contains("original_max_position_embeddings"),
        "{:?}",
        m.warnings
    );
}

#[test]
fn the_dicts_partial_rotary_factor_wins_over_the_top_level_one() {
    // transformers 5.24: convert_rope_params_to_dict / standardize_rope_params only
    // `setdefault` the top-level partial_rotary_factor into rope_parameters, and
    // _compute_default_rope_parameters reads the dict's: int(128 · 0.25) = 32, not 128 · 0.5.
    let both = ok(
        r#"{"hidden_size":4096,"num_attention_heads":32,"partial_rotary_factor":0.5,"rope_parameters":{"rope_type":"default","rope_theta":10000,"partial_rotary_factor":0.25}}"#,
    );
    assert_eq!((both.head_dim, both.scaling.dim), (128, 32));
    assert!(
        both.read.contains(
            &"rotary dim = 32 (rope_parameters.partial_rotary_factor 0.25 × head_dim 128)"
                .to_string()
        ),
        "{:?}",
        both.read
    );
    assert!(
        both.warnings.iter().any(|w| w.contains(
            "partial_rotary_factor 0.5 (top level) is not used: transformers 5 keeps rope_parameters.partial_rotary_factor 0.25"
        )),
        "{:?}",
        both.warnings
    );
    // Only at the top level: it fills the dict (setdefault), 128 · 0.5 = 64.
    let top = ok(
        r#"{"hidden_size":4096,"num_attention_heads":32,"partial_rotary_factor":0.5,"rope_parameters":{"rope_type":"default","rope_theta":10000}}"#,
    );
    assert_eq!(top.scaling.dim, 64);
    // The same value in both places: no warning.
    let same = ok(
        r#"{"hidden_size":4096,"num_attention_heads":32,"partial_rotary_factor":0.25,"rope_scaling":{"rope_type":"linear","factor":2.0,"partial_rotary_factor":0.25}}"#,
    );
    assert_eq!(same.scaling.dim, 32);
    assert!(
        !same.warnings.iter().any(|w| w.contains("is not used")),
        "{:?}",
        same.warnings
    );
}
