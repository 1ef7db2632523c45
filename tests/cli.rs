//! The `pe` binary: every subcommand's JSON parses and equals the library's numbers; bad input
//! exits 2 with one line on stderr; `--help` documents ranges and exits 0.
#![cfg(not(target_arch = "wasm32"))]

use std::io::Write;
use std::process::{Command, Output, Stdio};

use pe_explorer::math::learned::{self, LearnedTable};
use pe_explorer::math::rope_config::parse_config;
use pe_explorer::math::rope_scaling::{RopeScaling, RopeType};
use pe_explorer::math::sinusoidal::{Layout, SinusoidalParams, Spacing};
use pe_explorer::math::{alibi, attention, limits, naive, nope, relative, rope, similarity};
use serde_json::Value;

fn pe(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_pe"))
        .args(args)
        .output()
        .expect("pe runs")
}

fn json(args: &[&str]) -> Value {
    let out = pe(args);
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("one JSON object")
}

fn flat(v: &Value) -> Vec<f64> {
    match v {
        Value::Array(items) => items.iter().flat_map(flat).collect(),
        other => vec![other.as_f64().expect("number")],
    }
}

#[test]
fn sinusoidal_prints_the_library_table_exactly() {
    let v = json(&[
        "sinusoidal",
        "--positions",
        "7",
        "--dim",
        "5",
        "--base",
        "100",
        "--layout",
        "half",
        "--spacing",
        "fairseq",
    ]);
    let p = SinusoidalParams {
        positions: 7,
        dim: 5,
        base: 100.0,
        layout: Layout::Half,
        spacing: Spacing::Fairseq,
    };
    assert_eq!(v["data"].as_array().unwrap().len(), 7);
    assert_eq!(flat(&v["data"]), p.table(), "full precision, bit for bit");
    assert_eq!(v["layout"], "half");
}

#[test]
fn rope_freqs_for_every_type() {
    for (name, t) in [
        ("default", RopeType::Default),
        ("linear", RopeType::Linear),
        ("dynamic", RopeType::Dynamic),
        ("yarn", RopeType::Yarn),
        ("llama3", RopeType::Llama3),
        ("ntk", RopeType::Ntk),
    ] {
        let v = json(&[
            "rope-freqs",
            "--dim",
            "64",
            "--scaling",
            name,
            "--factor",
            "8",
            "--original-max",
            "2048",
            "--seq-len",
            "9000",
        ]);
        let c = RopeScaling {
            rope_type: t,
            dim: 64,
            factor: 8.0,
            original_max: 2048,
            seq_len: 9000,
            ..RopeScaling::default()
        };
        let (inv_freq, attention) = c.compute();
        assert_eq!(flat(&v["inv_freq"]), inv_freq, "{name}");
        assert_eq!(v["attention_factor"].as_f64(), Some(attention), "{name}");
    }
}

/// A config file for `--config` in cargo's scratch folder for integration tests.
fn config_file(name: &str, text: &str) -> String {
    let path = format!("{}/{name}", env!("CARGO_TARGET_TMPDIR"));
    std::fs::write(&path, text).expect("write the config");
    path
}

/// The reference config `configs/<name>` beside the crate.
fn reference_config(name: &str) -> String {
    format!(
        "{}/../shared/reference/configs/{name}",
        env!("CARGO_MANIFEST_DIR")
    )
}

/// `pe` fed `stdin`.
fn pe_with_stdin(args: &[&str], stdin: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_pe"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("pe runs");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(stdin.as_bytes())
        .expect("write stdin");
    child.wait_with_output().expect("pe ends")
}

/// Exit 2, nothing on stdout, one stderr line starting `pe: ` that contains every one of
/// `wants`; `what` names the case in failure messages.
fn assert_one_line_error(out: &Output, what: &str, wants: &[&str]) {
    assert_eq!(out.status.code(), Some(2), "{what}");
    assert!(out.stdout.is_empty(), "{what}");
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(err.trim_end().lines().count(), 1, "{what}: {err}");
    assert!(err.starts_with("pe: "), "{what}: {err}");
    for want in wants {
        assert!(err.contains(want), "{what}: {want} in {err}");
    }
}

#[test]
fn rope_freqs_reads_the_reference_model_configs() {
    for (file, rope_type, head_dim) in [
        ("llama-3.1-8b.json", "llama3", 128),
        ("qwen2.5-7b-instruct-yarn.json", "yarn", 128),
    ] {
        let path = reference_config(file);
        let v = json(&["rope-freqs", "--config", &path]);
        let model = parse_config(&std::fs::read_to_string(&path).unwrap()).unwrap();
        let (inv_freq, attention) = model.scaling.compute();
        assert_eq!(flat(&v["inv_freq"]), inv_freq, "{file}: full precision");
        assert_eq!(v["attention_factor"].as_f64(), Some(attention), "{file}");
        assert_eq!(v["rope_type"], rope_type);
        assert_eq!(v["head_dim"], head_dim);
        assert_eq!(v["rotary_dim"], head_dim);
        assert_eq!(v["interleaved"], false);
        assert_eq!(v["max_position"].as_u64(), Some(model.max_position as u64));
        assert_eq!(flat(&v["scale_per_pair"]), model.scaling.scale_per_pair());
        let wavelengths = flat(&v["wavelengths"]);
        for (w, f) in wavelengths.iter().zip(&inv_freq) {
            assert_eq!(*w, 2.0 * std::f64::consts::PI / f);
        }
        assert!(v["warnings"].as_array().unwrap().is_empty(), "{file}");
        assert!(v["read"].as_array().unwrap().len() >= 5, "{file}");
    }
    let v = json(&[
        "rope-freqs",
        "--config",
        &reference_config("llama-3.1-8b.json"),
    ]);
    assert_eq!(v["base"].as_f64(), Some(500_000.0));
    assert_eq!(v["factor"].as_f64(), Some(8.0));
    assert_eq!(v["original_max"], 8192);
}

#[test]
fn rope_freqs_reads_a_bare_scaling_object_and_stdin() {
    let path = config_file("bare.json", r#"{"rope_type": "linear", "factor": 4}"#);
    let v = json(&["rope-freqs", "--config", &path]);
    let want = RopeScaling {
        rope_type: RopeType::Linear,
        factor: 4.0,
        ..RopeScaling::default()
    };
    assert_eq!(flat(&v["inv_freq"]), want.compute().0);
    assert_eq!(v["dim"], 128);
    assert!(
        v["read"][0]
            .as_str()
            .unwrap()
            .contains("only a rope_scaling object"),
        "{}",
        v["read"]
    );
    // The same from stdin, with --seq-len for dynamic NTK.
    let out = pe_with_stdin(
        &["rope-freqs", "--config", "-", "--seq-len", "16384"],
        r#"{"max_position_embeddings": 4096, "head_dim": 64,
            "rope_scaling": {"rope_type": "dynamic", "factor": 2.0}}"#,
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    let want = RopeScaling {
        rope_type: RopeType::Dynamic,
        dim: 64,
        factor: 2.0,
        original_max: 4096,
        seq_len: 16384,
        ..RopeScaling::default()
    };
    assert_eq!(flat(&v["inv_freq"]), want.compute().0);
    assert_eq!(v["seq_len"], 16384);
}

#[test]
fn rope_freqs_config_errors_name_the_file_and_the_place() {
    let broken = config_file(
        "broken.json",
        "{\n  \"rope_theta\": 10000,\n  \"head_dim\" 64\n}",
    );
    assert_one_line_error(
        &pe(&["rope-freqs", "--config", &broken]),
        "broken JSON",
        &[&broken, "line 3, column 14", "expected `:`"],
    );
    let missing = config_file(
        "missing.json",
        r#"{"max_position_embeddings": 131072, "rope_scaling": {"rope_type": "llama3", "factor": 8.0, "high_freq_factor": 4.0}}"#,
    );
    assert_one_line_error(
        &pe(&["rope-freqs", "--config", &missing]),
        "missing key",
        &[
            &missing,
            "rope_scaling for rope_type 'llama3' is missing original_max_position_embeddings, low_freq_factor",
        ],
    );
    let short = config_file(
        "short-list.json",
        r#"{"hidden_size": 3072, "num_attention_heads": 32, "rope_scaling": {"type": "longrope",
           "short_factor": [1, 1], "long_factor": [1, 1]}}"#,
    );
    assert_one_line_error(
        &pe(&["rope-freqs", "--config", &short]),
        "list length",
        &["short_factor has 2 entries; rope_type 'longrope' needs head_dim·partial/2 = 48"],
    );
    assert_one_line_error(
        &pe_with_stdin(&["rope-freqs", "--config", "-"], "[1, 2"),
        "broken stdin",
        &["pe: stdin: line 1, column 5"],
    );
    assert_one_line_error(
        &pe(&["rope-freqs", "--config", "/no/such/config.json"]),
        "no such file",
        &["/no/such/config.json"],
    );
    assert_one_line_error(
        &pe(&["rope-freqs", "--config", &broken, "--factor", "2"]),
        "--config with a flag",
        &["--config", "--factor"],
    );
}

#[test]
fn rope_freqs_config_unknown_key_is_a_warning() {
    let path = config_file(
        "unknown-key.json",
        r#"{"head_dim": 64, "rope_scaling": {"rope_type": "linear", "factor": 2.0, "fudge": 3}}"#,
    );
    let out = pe(&["rope-freqs", "--config", &path]);
    assert_eq!(out.status.code(), Some(0));
    assert!(out.stderr.is_empty());
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    let warnings = v["warnings"].as_array().unwrap();
    assert_eq!(warnings.len(), 1, "{warnings:?}");
    assert!(
        warnings[0].as_str().unwrap().contains("fudge"),
        "{warnings:?}"
    );
}

#[test]
fn rope_freqs_longrope_from_flags() {
    let v = json(&[
        "rope-freqs",
        "--dim",
        "8",
        "--scaling",
        "longrope",
        "--factor",
        "32",
        "--short-factor",
        "1,1,1,1",
        "--long-factor",
        "1,2,4,8",
        "--seq-len",
        "5000",
    ]);
    let c = RopeScaling {
        rope_type: RopeType::Longrope,
        dim: 8,
        factor: 32.0,
        seq_len: 5000,
        short_factor: vec![1.0; 4],
        long_factor: vec![1.0, 2.0, 4.0, 8.0],
        ..RopeScaling::default()
    };
    assert_eq!(flat(&v["inv_freq"]), c.compute().0);
    assert_eq!(flat(&v["scale_per_pair"]), vec![1.0, 2.0, 4.0, 8.0]);
    assert_eq!(v["attention_factor"].as_f64(), Some(c.compute().1));
    for args in [
        vec!["rope-freqs", "--dim", "8", "--scaling", "longrope"],
        vec![
            "rope-freqs",
            "--dim",
            "8",
            "--scaling",
            "longrope",
            "--short-factor",
            "1,1,1",
            "--long-factor",
            "1,1,1,1",
        ],
        vec!["rope-freqs", "--dim", "8", "--short-factor", "1,1,1,1"],
    ] {
        assert_one_line_error(&pe(&args), &format!("{args:?}"), &["factor"]);
    }
}

#[test]
fn rope_freqs_longrope_config_answers_the_short_factors_the_model_holds() {
    // transformers' rotary embedding built from a LongRoPE config holds inv_freq with the short
    // factors; only a sequence longer than original_max_position_embeddings (4096) switches to
    // the long ones. d = 8 (4 pairs), base 10000: θ_i = 10000^(−i/4) = 1, 0.1, 0.01, 0.001.
    let path = config_file(
        "longrope-short.json",
        r#"{"head_dim": 8, "max_position_embeddings": 131072,
            "original_max_position_embeddings": 4096, "rope_theta": 10000.0,
            "rope_scaling": {"rope_type": "longrope", "short_factor": [1, 1.5, 2, 3],
            "long_factor": [1, 4, 16, 32]}}"#,
    );
    let theta = [1.0, 0.1, 0.01, 0.001];
    let v = json(&["rope-freqs", "--config", &path]);
    assert_eq!(v["seq_len"], 4096);
    for (i, (got, want)) in flat(&v["scale_per_pair"])
        .iter()
        .zip([1.0, 1.5, 2.0, 3.0])
        .enumerate()
    {
        assert!(
            (got - want).abs() < 1e-12,
            "pair {i}: {got} vs short {want}"
        );
        let f = flat(&v["inv_freq"])[i];
        assert!(
            (f - theta[i] / want).abs() < 1e-12 * theta[i],
            "pair {i}: {f}"
        );
    }
    // Past L₀ the long factors, by --seq-len or by --target.
    for extra in [["--seq-len", "4097"], ["--target", "8192"]] {
        let mut args = vec!["rope-freqs", "--config", &path];
        args.extend(extra);
        let v = json(&args);
        for (got, want) in flat(&v["scale_per_pair"])
            .iter()
            .zip([1.0, 4.0, 16.0, 32.0])
        {
            assert!(
                (got - want).abs() < 1e-12,
                "{extra:?}: {got} vs long {want}"
            );
        }
    }
    let help = String::from_utf8(pe(&["rope-freqs", "--help"]).stdout).unwrap();
    let help = help.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        help.contains("a LongRoPE config answers with its short factors"),
        "{help}"
    );
}

#[test]
fn rope_apply_rotates_and_dots() {
    let v = json(&[
        "rope-apply",
        "--dim",
        "4",
        "--layout",
        "interleaved",
        "--positions",
        "0,1,5",
        "--q",
        "0.5,-1,2,0",
        "--k",
        "1,1,-0.25,3",
    ]);
    let theta = rope::inv_freq(4, 10_000.0);
    let q = [0.5, -1.0, 2.0, 0.0];
    assert_eq!(
        flat(&v["q_rot"][2]),
        rope::rotate(&q, 5.0, &theta, Layout::Interleaved)
    );
    let dots = rope::dots(
        &q,
        &[1.0, 1.0, -0.25, 3.0],
        &[0.0, 1.0, 5.0],
        &theta,
        Layout::Interleaved,
    );
    assert_eq!(flat(&v["dots"]), dots);
    assert_eq!(v["dots"].as_array().unwrap().len(), 3);
}

#[test]
fn rope_apply_rotary_dim_rotates_only_the_head() {
    let args = |r: &str| {
        json(&[
            "rope-apply",
            "--dim",
            "6",
            "--base",
            "100",
            "--layout",
            "half",
            "--rotary-dim",
            r,
            "--positions",
            "0,3,7.5",
            "--q",
            "0.5,-1,2,0,4,-3",
            "--k",
            "1,1,-0.25,3,0,2",
        ])
    };
    let q = [0.5, -1.0, 2.0, 0.0, 4.0, -3.0];
    let k = [1.0, 1.0, -0.25, 3.0, 0.0, 2.0];
    let v = args("4");
    assert_eq!(v["rotary_dim"], 4);
    let want_q = rope::rotate_partial(&q, 7.5, 100.0, 4, Layout::Half);
    assert_eq!(flat(&v["q_rot"][2]), want_q);
    assert_eq!(flat(&v["q_rot"][2])[4..], q[4..], "the tail passes through");
    let want_k = rope::rotate_partial(&k, 3.0, 100.0, 4, Layout::Half);
    assert_eq!(flat(&v["k_rot"][1]), want_k);
    assert_eq!(v["dots"][2][1].as_f64(), Some(rope::dot(&want_q, &want_k)));
    // The default is the whole head, exactly as without the flag.
    let full = args("6");
    let mut without = vec![
        "rope-apply",
        "--dim",
        "6",
        "--base",
        "100",
        "--layout",
        "half",
    ];
    without.extend([
        "--positions",
        "0,3,7.5",
        "--q",
        "0.5,-1,2,0,4,-3",
        "--k",
        "1,1,-0.25,3,0,2",
    ]);
    let default = json(&without);
    assert_eq!(default, full);
    assert_eq!(default["rotary_dim"], 6);
}

#[test]
fn rope_permute_shows_both_conventions_agree() {
    let v = json(&[
        "rope-permute",
        "--dim",
        "8",
        "--positions",
        "0,5,100",
        "--q",
        "1,2,3,4,5,6,7,8",
        "--k",
        "0.5,-1,0,2,-3,1,1,-0.25",
    ]);
    let perm = rope::hf_permutation(8);
    assert_eq!(
        v["permutation"],
        serde_json::json!([0, 2, 4, 6, 1, 3, 5, 7])
    );
    let q = [1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0];
    let theta = rope::inv_freq(8, 10_000.0);
    assert_eq!(
        flat(&v["interleaved"]["q_rot"][1]),
        rope::rotate(&q, 5.0, &theta, Layout::Interleaved)
    );
    assert_eq!(flat(&v["half_permuted"]["q"]), rope::permute(&q, &perm));
    assert_eq!(
        flat(&v["half_permuted"]["q_rot"][2]),
        rope::permute(&flat(&v["interleaved"]["q_rot"][2]), &perm),
        "rotate(permute(q), Half) == permute(rotate(q, Interleaved))"
    );
    let (a, b) = (
        flat(&v["interleaved"]["dots"]),
        flat(&v["half_permuted"]["dots"]),
    );
    assert_eq!(a.len(), 9);
    for (x, y) in a.iter().zip(&b) {
        assert!((x - y).abs() < 1e-12 * (1.0 + x.abs()), "{x} vs {y}");
    }
    assert!(v["max_dot_difference"].as_f64().unwrap() < 1e-12);

    // Defaults: seeded random q and k, positions 0 and 5.
    let v = json(&["rope-permute", "--dim", "16"]);
    assert_eq!(flat(&v["q"]), rope::random_vector(16, 0));
    assert_eq!(flat(&v["k"]), rope::random_vector(16, 1));
    assert_eq!(flat(&v["positions"]), [0.0, 5.0]);
    assert_eq!(v["interleaved"]["dots"].as_array().unwrap().len(), 2);
}

#[test]
fn alibi_decay_similarity_and_learned_match_the_library() {
    let v = json(&["alibi", "--heads", "6", "--len", "4"]);
    assert_eq!(flat(&v["slopes"]), alibi::slopes(6));
    assert_eq!(
        flat(&v["bias"][5]),
        alibi::bias(alibi::slopes(6)[5], 4, false)
    );

    let v = json(&["decay", "--dim", "32", "--max-distance", "20"]);
    assert_eq!(flat(&v["bound"]), rope::decay(32, 10_000.0, 20));
    assert_eq!(v["relative_distance"].as_array().unwrap().len(), 21);

    let v = json(&[
        "similarity",
        "--method",
        "rope",
        "--positions",
        "9",
        "--dim",
        "16",
    ]);
    assert_eq!(flat(&v["data"]), similarity::rope_matrix(16, 10_000.0, 9));
    let v = json(&[
        "similarity",
        "--method",
        "learned",
        "--positions",
        "5",
        "--dim",
        "8",
        "--seed",
        "3",
    ]);
    let t = LearnedTable::new(5, 8, 1.0, 3);
    assert_eq!(flat(&v["data"]), similarity::cosine_matrix(t.data(), 5, 8));

    let v = json(&["learned", "--max-len", "4", "--dim", "3", "--seed", "42"]);
    assert_eq!(flat(&v["data"]), LearnedTable::new(4, 3, 1.0, 42).data());
    let v = json(&[
        "learned",
        "--max-len",
        "4",
        "--dim",
        "3",
        "--seed",
        "18446744073709551615",
        "--sigma",
        "0.02",
    ]);
    assert_eq!(
        flat(&v["data"]),
        LearnedTable::new(4, 3, 0.02, u64::MAX).data()
    );

    for spacing in ["paper", "fairseq"] {
        let v = json(&[
            "similarity",
            "--method",
            "sinusoidal",
            "--positions",
            "12",
            "--dim",
            "7",
            "--base",
            "50",
            "--spacing",
            spacing,
        ]);
        let p = SinusoidalParams {
            positions: 12,
            dim: 7,
            base: 50.0,
            layout: Layout::Interleaved,
            spacing: Spacing::parse(spacing).unwrap(),
        };
        let mut m = Vec::new();
        similarity::sinusoidal_matrix_into(&p, &mut m);
        assert_eq!(flat(&v["data"]), m, "{spacing}");
        assert_eq!(v["data"].as_array().unwrap().len(), 12);
    }
}

#[test]
fn alibi_takes_up_to_1024_heads_and_prints_attention_rows() {
    let v = json(&["alibi", "--heads", "112", "--len", "2"]);
    assert_eq!(flat(&v["slopes"]), alibi::slopes(112), "BLOOM-176B");
    let v = json(&["alibi", "--heads", "1024", "--len", "1"]);
    assert_eq!(v["slopes"].as_array().unwrap().len(), 1024);
    let half = flat(&v["half_weight_distance"]);
    for (h, m) in half.iter().zip(alibi::slopes(1024)) {
        assert_eq!(*h, alibi::half_weight_distance(m));
    }
    assert!(v.get("attention").is_none());

    let v = json(&[
        "alibi", "--heads", "3", "--len", "6", "--query", "4", "--causal",
    ]);
    assert_eq!(v["query"], 4);
    let attention = v["attention"].as_array().unwrap();
    assert_eq!(attention.len(), 3);
    let mut row = Vec::new();
    for (a, m) in attention.iter().zip(alibi::slopes(3)) {
        alibi::attention_row_into(m, 4, 6, true, &mut row);
        assert_eq!(flat(a), row);
        assert_eq!(row[5], 0.0, "the future is masked");
    }
}

#[test]
fn t5_buckets_print_every_relative_position_and_the_matrix() {
    let v = json(&["t5-buckets", "--num-buckets", "32", "--max-distance", "128"]);
    assert_eq!(v["bidirectional"], true);
    assert_eq!(v["max_exact"], 8);
    let relative: Vec<i64> = v["relative_position"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r.as_i64().unwrap())
        .collect();
    assert_eq!(relative, (-128..=128).collect::<Vec<_>>());
    let bucket: Vec<u64> = v["bucket"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b.as_u64().unwrap())
        .collect();
    for (r, b) in relative.iter().zip(&bucket) {
        assert_eq!(*b as usize, relative::t5_bucket(*r, true, 32, 128), "{r}");
    }
    assert_eq!(
        (bucket[0], bucket[127], bucket[129], bucket[256]),
        (15, 1, 17, 31)
    );
    assert!(v.get("matrix").is_none());

    let v = json(&[
        "t5-buckets",
        "--num-buckets",
        "8",
        "--max-distance",
        "5",
        "--causal",
        "--len",
        "7",
    ]);
    assert_eq!(v["bidirectional"], false);
    assert_eq!(v["max_exact"], 4);
    let mut m = Vec::new();
    relative::t5_buckets_into(7, false, 8, 5, &mut m);
    let got: Vec<usize> = flat(&v["matrix"]).iter().map(|&b| b as usize).collect();
    assert_eq!(got, m);
    assert_eq!(v["matrix"].as_array().unwrap().len(), 7);

    let out = pe(&["t5-buckets", "--num-buckets", "32", "--max-distance", "8"]);
    assert_one_line_error(&out, "max_distance ≤ max_exact", &["above max_exact 8"]);
}

#[test]
fn nope_prints_the_uniform_weights_and_the_simulated_variance() {
    let v = json(&["nope", "--len", "5", "--dim", "16", "--seed", "9"]);
    assert_eq!(flat(&v["uniform_weight"]), [1.0, 0.5, 1.0 / 3.0, 0.25, 0.2]);
    let mut want = Vec::new();
    nope::output_variance_into(9, 5, 16, &mut want);
    assert_eq!(flat(&v["output_variance"]), want);
    let v = json(&["nope", "--len", "3"]);
    assert_eq!(
        (v["dim"].as_u64(), v["seed"].as_u64()),
        (Some(256), Some(0))
    );
}

#[test]
fn learned_rows_are_the_random_access_rows() {
    let v = json(&["learned", "--max-len", "3", "--dim", "4", "--seed", "8"]);
    let mut row = Vec::new();
    learned::row_into(8, 1.0, 2, 4, &mut row);
    assert_eq!(flat(&v["data"][2]), row);
}

#[test]
fn alibi_causal_masks_the_future_as_null() {
    let v = json(&["alibi", "--heads", "2", "--len", "3", "--causal"]);
    let row = &v["bias"][1][0];
    assert_eq!(row[0].as_f64(), Some(0.0));
    assert!(row[1].is_null() && row[2].is_null(), "{row}");
    assert_eq!(
        v["bias"][1][2][0].as_f64(),
        Some(-2.0 * alibi::slopes(2)[1])
    );
}

#[test]
fn shift_attention_and_sine_collision_match_the_library() {
    let v = json(&["shift", "--dim", "6", "--base", "100", "--k", "-7"]);
    let p = SinusoidalParams {
        positions: 1,
        dim: 6,
        base: 100.0,
        layout: Layout::Interleaved,
        spacing: Spacing::Paper,
    };
    let blocks: Vec<f64> = p
        .shift_matrix(-7.0)
        .iter()
        .flatten()
        .flatten()
        .copied()
        .collect();
    assert_eq!(flat(&v["blocks"]), blocks);
    assert_eq!(v["blocks"].as_array().unwrap().len(), 3);

    let v = json(&["attention"]);
    let tokens = attention::tokenize(attention::EXAMPLE);
    assert_eq!(v["tokens"].as_array().unwrap().len(), tokens.len());
    assert_eq!(
        flat(&v["without_position"]),
        attention::weights(&tokens, attention::TOY_DIM, false)
    );
    assert_eq!(
        flat(&v["with_position"]),
        attention::weights(&tokens, attention::TOY_DIM, true)
    );
    assert_eq!(
        v["identical_rows_without_position"],
        serde_json::json!([[0, 4], [2, 6]]),
        "the/the and dog/dog"
    );

    let v = json(&["sine-collision", "--pos", "2", "--eps", "0.001"]);
    assert_eq!(
        v["collision"].as_u64().map(|q| q as usize),
        naive::sine_collision(2, 1e-3, 100_000)
    );
    let v = json(&[
        "sine-collision",
        "--pos",
        "2",
        "--eps",
        "1e-12",
        "--limit",
        "50",
    ]);
    assert!(v["collision"].is_null());
}

#[test]
fn bad_input_exits_2_with_one_line() {
    for args in [
        vec!["sinusoidal", "--positions", "0", "--dim", "4"],
        vec![
            "sinusoidal",
            "--positions",
            "4",
            "--dim",
            "4",
            "--base",
            "inf",
        ],
        vec![
            "sinusoidal",
            "--positions",
            "4",
            "--dim",
            "4",
            "--layout",
            "diagonal",
        ],
        vec!["rope-freqs", "--dim", "7"],
        vec!["rope-freqs", "--dim", "8", "--factor", "0.5"],
        vec![
            "rope-freqs",
            "--dim",
            "8",
            "--beta-fast",
            "1",
            "--beta-slow",
            "2",
        ],
        vec![
            "rope-apply",
            "--dim",
            "4",
            "--layout",
            "half",
            "--positions",
            "0",
            "--q",
            "1,2,3",
            "--k",
            "1,2,3,4",
        ],
        vec![
            "rope-apply",
            "--dim",
            "2",
            "--layout",
            "half",
            "--positions",
            "x",
            "--q",
            "1,2",
            "--k",
            "1,2",
        ],
        vec![
            "rope-apply",
            "--dim",
            "4",
            "--layout",
            "half",
            "--rotary-dim",
            "3",
            "--positions",
            "0",
            "--q",
            "1,2,3,4",
            "--k",
            "1,2,3,4",
        ],
        vec![
            "rope-apply",
            "--dim",
            "4",
            "--layout",
            "half",
            "--rotary-dim",
            "6",
            "--positions",
            "0",
            "--q",
            "1,2,3,4",
            "--k",
            "1,2,3,4",
        ],
        vec![
            "rope-apply",
            "--dim",
            "4",
            "--layout",
            "interleaved",
            "--rotary-dim",
            "0",
            "--positions",
            "0",
            "--q",
            "1,2,3,4",
            "--k",
            "1,2,3,4",
        ],
        vec![
            "rope-apply",
            "--dim",
            "4",
            "--layout",
            "half",
            "--rotary-dim",
            "-2",
            "--positions",
            "0",
            "--q",
            "1,2,3,4",
            "--k",
            "1,2,3,4",
        ],
        vec!["rope-permute", "--dim", "7"],
        vec!["rope-permute"],
        vec!["rope-permute", "--dim", "4", "--q", "1,2,3"],
        vec!["rope-permute", "--dim", "4", "--k", "1,2,x,4"],
        vec!["rope-permute", "--dim", "4", "--positions", "-1"],
        vec!["rope-permute", "--dim", "4", "--base", "1"],
        vec!["alibi", "--heads", "1025"],
        vec!["alibi", "--heads", "0"],
        vec!["alibi", "--heads", "4", "--len", "8", "--query", "8"],
        vec!["t5-buckets", "--num-buckets", "32"],
        vec!["nope", "--len", "0"],
        vec!["nope", "--len", "4097"],
        vec!["nope", "--len", "4", "--dim", "1"],
        vec!["nope", "--len", "4", "--seed", "-1"],
        vec!["learned", "--max-len", "4", "--dim", "4"],
        vec!["learned", "--max-len", "4", "--dim", "4", "--seed", "-1"],
        vec!["rope-freqs", "--dim", "8", "--factor", "nan"],
        vec![
            "rope-freqs",
            "--dim",
            "8",
            "--scaling",
            "yarn",
            "--beta-fast",
            "inf",
        ],
        vec!["decay", "--dim", "8", "--base", "NaN"],
        vec![
            "rope-apply",
            "--dim",
            "2",
            "--layout",
            "half",
            "--positions",
            "0",
            "--q",
            "1e200,1",
            "--k",
            "1,1",
        ],
        vec![
            "similarity",
            "--method",
            "rope",
            "--positions",
            "4",
            "--dim",
            "5",
        ],
        vec![
            "attention",
            "--sentence",
            "a b c d e f g h i j k l m n o p q",
        ],
        vec!["shift", "--dim", "4", "--k", "-inf"],
        vec!["sine-collision", "--pos", "2", "--eps", "0"],
        vec!["sinusoidal", "--positions", "4"],
        vec!["nope"],
        vec!["no-such-command"],
        vec![],
    ] {
        assert_one_line_error(&pe(&args), &format!("{args:?}"), &[]);
    }
    // t5-buckets: sizes out of range, and a max distance not above max_exact.
    for (buckets, distance, more) in [
        ("3", "128", &[][..]),
        ("257", "128", &[]),
        ("32", "65537", &[]),
        ("32", "1", &[]),
        ("32", "8", &[]),
        ("32", "16", &["--causal"]),
        ("32", "128", &["--len", "0"]),
        ("32", "128", &["--len", "1025"]),
    ] {
        let mut args = vec![
            "t5-buckets",
            "--num-buckets",
            buckets,
            "--max-distance",
            distance,
        ];
        args.extend(more);
        assert_one_line_error(&pe(&args), &format!("{args:?}"), &[]);
    }
}

#[test]
fn one_line_errors_keep_the_detail() {
    let out = pe(&[
        "sinusoidal",
        "--positions",
        "4",
        "--dim",
        "4",
        "--layout",
        "x",
    ]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("interleaved") && err.contains("half"), "{err}");
    let out = pe(&["sinusoidal", "--dim", "4"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("--positions"), "{err}");
}

/// A value, a file name or a config's string with a line break, an escape or a bidi control
/// stays on the error's one line, escaped.
#[test]
fn errors_escape_control_characters() {
    let out = pe(&[
        "rope-freqs",
        "--config",
        "/nonexistent/a\nb\u{1b}[31m\u{202e}.json",
    ]);
    assert_one_line_error(
        &out,
        "a path",
        &["/nonexistent/a\\nb\\u{1b}[31m\\u{202e}.json: "],
    );
    let out = pe_with_stdin(&["rope-freqs", "--config", "-"], r#"{"rope_type": "x\ny"}"#);
    assert_one_line_error(&out, "a config string", &["'x\\ny'"]);
    let out = pe(&["sinusoidal", "--positions", "\r", "--dim", "4"]);
    assert_one_line_error(&out, "a value", &["'\\r'"]);
    let out = pe(&["rope-permute", "--dim", "2", "--q", "1,\u{7}2"]);
    assert_one_line_error(&out, "a list entry", &["“\\u{7}2”"]);
}

/// `lo..=hi` as the help prints it (exponent form for long numbers).
fn range(lo: f64, hi: f64) -> String {
    let n = |v: f64| {
        if v != 0.0 && !(1e-2..1e5).contains(&v.abs()) {
            format!("{v:e}")
        } else {
            format!("{v}")
        }
    };
    format!("{}..={}", n(lo), n(hi))
}

#[test]
fn help_documents_ranges_and_defaults_and_exits_0() {
    let help = |args: &[&str]| {
        let out = pe(args);
        assert_eq!(out.status.code(), Some(0), "{args:?}");
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    let text = help(&["sinusoidal", "--help"]);
    let (p, d) = (limits::POSITIONS, limits::DIM);
    for want in [
        format!("{}..={}", p.0, p.1),
        format!("{}..={}", d.0, d.1),
        range(limits::BASE.0, limits::BASE.1),
        "[default: 10000]".to_string(),
        "[default: interleaved]".to_string(),
    ] {
        assert!(text.contains(&want), "{want} in {text}");
    }
    let text = help(&["rope-freqs", "--help"]);
    for want in [
        range(limits::FACTOR.0, limits::FACTOR.1),
        range(limits::RAMP.0, limits::RAMP.1),
        "[default: 32]".to_string(),
        "[default: 4]".to_string(),
    ] {
        assert!(text.contains(&want), "{want} in {text}");
    }
    let text = help(&["alibi", "--help"]);
    assert!(text.contains(&format!("{}..={}", limits::HEADS.0, limits::HEADS.1)));
    assert!(text.contains("1..=1024"), "{text}");
    let text = help(&["t5-buckets", "--help"]);
    for (lo, hi) in [limits::T5_BUCKETS, limits::T5_MAX_DISTANCE, limits::T5_LEN] {
        assert!(text.contains(&format!("{lo}..={hi}")), "{text}");
    }
    let text = help(&["nope", "--help"]);
    assert!(text.contains(&format!("{}..={}", limits::NOPE_LEN.0, limits::NOPE_LEN.1)));
    assert!(text.contains("[default: 256]"), "{text}");
    let text = help(&["rope-apply", "--help"]);
    assert!(
        text.contains("--rotary-dim") && text.contains("2..=--dim"),
        "{text}"
    );
    let text = help(&["rope-permute", "--help"]);
    assert!(text.contains("[default: 0,5]"), "{text}");
    for sub in [
        "rope-apply",
        "rope-permute",
        "decay",
        "similarity",
        "learned",
        "shift",
        "attention",
        "sine-collision",
        "t5-buckets",
        "nope",
    ] {
        assert!(help(&[sub, "--help"]).contains("..="), "{sub} names ranges");
    }
    assert!(help(&["--help"]).contains("sinusoidal"));
    assert!(help(&["--version"]).contains("pe"));
}

#[test]
fn rope_freqs_target_gives_chapter_three_numbers() {
    // YaRN s = 4 over L₀ = 4096, head_dim 128, target 16384: 18 of 64 pairs turn less than once
    // over positions 0 … 4095 (the page's summary), none of them past the seen arc after YaRN,
    // and the score curve starts at 1 (plain) and at the attention factor squared (scaled).
    let v = json(&[
        "rope-freqs",
        "--dim",
        "128",
        "--scaling",
        "yarn",
        "--factor",
        "4",
        "--original-max",
        "4096",
        "--target",
        "16384",
    ]);
    assert_eq!(v["target"], 16384);
    assert_eq!(v["seq_len"], 16384, "the target is the current length");
    let reach = v["reach"].as_array().unwrap();
    assert_eq!(reach.len(), 64);
    let slow = reach
        .iter()
        .filter(|p| p["seen"].as_f64().unwrap() < 1.0)
        .count();
    assert_eq!(slow, 18);
    let past = reach
        .iter()
        .filter(|p| (p["scaled"].as_f64().unwrap() - p["seen"].as_f64().unwrap()) * 360.0 > 0.5)
        .count();
    assert_eq!(past, 0);
    let scores = &v["scores"];
    assert_eq!(scores["plain"][0].as_f64(), Some(1.0));
    let factor = 0.1 * 4f64.ln() + 1.0;
    assert!((scores["scaled"][0].as_f64().unwrap() - factor * factor).abs() < 1e-12);
    assert_eq!(scores["end"].as_array().unwrap().last().unwrap(), 16383);
}

/// `pe render`'s output for `args` (written to a temporary file named after `name`): the JSON
/// summary and the file's text.
fn render(name: &str, args: &[&str]) -> (Value, String) {
    let path = format!("{}/render-{name}", env!("CARGO_TARGET_TMPDIR"));
    let mut all = vec!["render"];
    all.extend_from_slice(args);
    all.extend_from_slice(&["--out", &path]);
    let summary = json(&all);
    let text = std::fs::read_to_string(&path).expect("the file pe render wrote");
    assert_eq!(summary["out"], path.as_str());
    assert_eq!(summary["bytes"].as_u64(), Some(text.len() as u64));
    (summary, text)
}

/// The data rows of a CSV's panel `k` (from 1): the lines after its header, as fields.
fn csv_panel(text: &str, k: usize) -> (Vec<String>, Vec<Vec<String>>) {
    let marker = format!("# panel {k}: ");
    let mut lines = text
        .lines()
        .skip_while(|l| !l.starts_with(&marker))
        .skip(1)
        .take_while(|l| !l.is_empty());
    let split = |l: &str| l.split(',').map(str::to_string).collect::<Vec<_>>();
    let header = split(lines.next().expect("a header row"));
    (header, lines.map(split).collect())
}

fn number(field: &str) -> f64 {
    field
        .parse()
        .unwrap_or_else(|_| panic!("not a number: {field}"))
}

#[test]
fn render_draws_every_listed_figure_as_svg_with_its_panels() {
    let ids = json(&["render", "--list"]);
    let ids: Vec<&str> = ids["figures"]
        .as_array()
        .expect("a list")
        .iter()
        .map(|v| v.as_str().expect("an id"))
        .collect();
    let book: Vec<&str> = pe_explorer::book::CHAPTERS
        .iter()
        .flat_map(|c| c.figures.iter().map(|f| f.id))
        .collect();
    let in_book_order: Vec<&str> = book.iter().copied().filter(|id| ids.contains(id)).collect();
    assert_eq!(ids, in_book_order, "figure ids of the book, in its order");
    for id in ids {
        let (summary, svg) = render(id, &[id, "--width", "640"]);
        let doc = roxmltree::Document::parse(&svg).unwrap_or_else(|e| panic!("{id}: {e}"));
        let root = doc.root_element();
        assert_eq!(root.tag_name().name(), "svg", "{id}");
        assert_eq!(root.attribute("width"), Some("640"), "{id}");
        let height = summary["height"].as_u64().expect("height");
        assert_eq!(root.attribute("height"), Some(height.to_string().as_str()));
        let panels: Vec<_> = root
            .children()
            .filter(|n| n.tag_name().name() == "svg")
            .collect();
        let titles = summary["panels"].as_array().expect("panel titles");
        assert_eq!(panels.len(), titles.len(), "{id}: one <svg> per panel");
        let heights: u64 = panels
            .iter()
            .map(|p| {
                p.attribute("height")
                    .and_then(|h| h.parse::<u64>().ok())
                    .expect("h")
            })
            .sum();
        assert_eq!(heights, height, "{id}: the panels fill the picture");
        for (panel, title) in panels.iter().zip(titles) {
            let title = title.as_str().expect("title");
            let texts: Vec<&str> = panel
                .descendants()
                .filter_map(|n| n.text())
                .map(str::trim)
                .collect();
            assert!(texts.contains(&title), "{id}: “{title}” is drawn");
            // Something is drawn besides the background and the title: axes, curves, cells.
            assert!(
                panel.descendants().filter(|n| n.is_element()).count() > 10,
                "{id}"
            );
        }
    }
}

#[test]
fn render_csv_holds_the_numbers_the_figure_shows() {
    let p = SinusoidalParams {
        positions: 12,
        dim: 6,
        base: 100.0,
        layout: Layout::Half,
        spacing: Spacing::Paper,
    };
    let query = "n=12&d=6&base=100&layout=half&pos=3";
    // The table: one row per position, one column per dimension, the exact values.
    let (_, csv) = render(
        "heatmap.csv",
        &["fig-heatmap", "--query", query, "--format", "csv"],
    );
    assert!(csv.starts_with("# Positional Encoding Explorer · fig-heatmap"));
    assert!(csv.contains(&format!("# state: ?{query}")), "{csv}");
    let (header, rows) = csv_panel(&csv, 1);
    assert_eq!(header.len(), 7);
    assert_eq!(rows.len(), 12);
    for (pos, row) in rows.iter().enumerate() {
        assert_eq!(number(&row[0]), pos as f64);
        for (j, field) in row[1..].iter().enumerate() {
            // The table is computed by angle-addition steps: equal to the formula within 1e-12.
            assert!(
                (number(field) - p.value(pos, j)).abs() < 1e-12,
                "PE({pos}, {j})"
            );
        }
    }
    // Waves: one row per position, one column per chosen dimension.
    let (_, csv) = render(
        "waves.csv",
        &[
            "fig-waves",
            "--query",
            &format!("{query}&dims=1,4"),
            "--format",
            "csv",
        ],
    );
    let (header, rows) = csv_panel(&csv, 1);
    assert_eq!(header, ["position", "column 1", "column 4"]);
    assert_eq!(rows.len(), 12);
    assert!((number(&rows[7][2]) - p.value(7, 4)).abs() < 1e-12);
    // Similarity: the matrix, then the current position's row as a curve.
    let (summary, csv) = render(
        "similarity.csv",
        &["fig-similarity", "--query", query, "--format", "csv"],
    );
    assert_eq!(summary["panels"].as_array().map(Vec::len), Some(2));
    let mut m = Vec::new();
    similarity::sinusoidal_matrix_into(&p, &mut m);
    let (_, matrix) = csv_panel(&csv, 1);
    let (header, curve) = csv_panel(&csv, 2);
    assert_eq!(matrix.len(), 12);
    assert_eq!(number(&matrix[5][9]), m[5 * 12 + 8]);
    assert_eq!(header[0], "position b");
    assert_eq!(curve.len(), 12);
    for (b, row) in curve.iter().enumerate() {
        assert_eq!(number(&row[1]), m[3 * 12 + b], "row of position 3");
    }
    // Attention: the toy weights, rows and columns named by token.
    let (_, csv) = render(
        "attention.csv",
        &[
            "fig-attention",
            "--query",
            "s=dog+bites+man",
            "--format",
            "csv",
        ],
    );
    let (header, rows) = csv_panel(&csv, 1);
    assert_eq!(header[1..], ["dog ·0", "bites ·1", "man ·2"]);
    let w = attention::weights(&["dog", "bites", "man"], attention::TOY_DIM, false);
    assert_eq!(rows.len(), 3);
    assert_eq!(number(&rows[2][1]), w[2 * 3]);
}

#[test]
fn render_draws_pngs_at_the_scale_asked() {
    for (id, scale, width) in [
        ("fig-heatmap", "2", 640u32),
        ("fig-clocks", "1", 500),
        ("fig-naive", "1.5", 400),
    ] {
        let path = format!("{}/render-{id}.png", env!("CARGO_TARGET_TMPDIR"));
        let summary = json(&[
            "render",
            id,
            "--format",
            "png",
            "--scale",
            scale,
            "--width",
            &width.to_string(),
            "--out",
            &path,
        ]);
        let bytes = std::fs::read(&path).expect("the PNG");
        assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n", "{id}: PNG signature");
        assert_eq!(&bytes[12..16], b"IHDR");
        let be = |at: usize| u32::from_be_bytes(bytes[at..at + 4].try_into().expect("4 bytes"));
        let scale: f64 = scale.parse().expect("scale");
        assert_eq!(
            be(16),
            (f64::from(width) * scale).round() as u32,
            "{id}: width"
        );
        assert_eq!(
            u64::from(be(20)),
            summary["height"].as_u64().expect("height"),
            "{id}"
        );
        assert_eq!(summary["width"].as_u64(), Some(u64::from(be(16))));
        // Not blank: the picture has many distinct bytes.
        let distinct: std::collections::HashSet<&u8> = bytes[100..].iter().collect();
        assert!(distinct.len() > 200, "{id}");
    }
}

#[test]
fn render_draws_the_dark_theme_and_the_query_theme() {
    let dark = "#161B22";
    let (_, svg) = render("dark.svg", &["fig-waves", "--theme", "dark"]);
    assert!(svg.contains(dark));
    let (_, svg) = render("query-dark.svg", &["fig-waves", "--query", "theme=dark"]);
    assert!(svg.contains(dark));
    let (_, svg) = render(
        "light.svg",
        &["fig-waves", "--query", "theme=dark", "--theme", "light"],
    );
    assert!(!svg.contains(dark) && svg.contains("#FFFFFF"));
}

#[test]
fn render_rejects_bad_ids_queries_widths_and_paths() {
    let out = format!("{}/render-bad", env!("CARGO_TARGET_TMPDIR"));
    let cases: [(&[&str], &[&str]); 7] = [
        (&["fig-nothing"], &["fig-nothing", "fig-waves"]),
        (
            &["fig-waves", "--query", "n=99999"],
            &["--query", "n (positions)"],
        ),
        (&["fig-waves", "--query", "zz=1"], &["unknown key", "zz"]),
        (
            &["fig-waves", "--query", "theme=sepia"],
            &["--query", "theme"],
        ),
        (
            &["fig-waves", "--width", "10"],
            &["--width 10", "320..=2400"],
        ),
        (
            &["fig-waves", "--format", "png", "--scale", "9"],
            &["--scale 9", "4"],
        ),
        (
            &["fig-waves", "--out", "/nonexistent/dir/x.svg"],
            &["could not write"],
        ),
    ];
    for (args, wants) in cases {
        let mut all = vec!["render"];
        all.extend_from_slice(args);
        if !args.contains(&"--out") {
            all.extend_from_slice(&["--out", &out]);
        }
        assert_one_line_error(&pe(&all), &format!("{args:?}"), wants);
    }
}

#[test]
fn render_all_writes_one_file_per_figure() {
    let dir = format!("{}/render-all", env!("CARGO_TARGET_TMPDIR"));
    std::fs::create_dir_all(&dir).expect("folder");
    let ids = json(&["render", "--list"]);
    let v = json(&["render", "--all", "--format", "csv", "--out", &dir]);
    let written = v["figures"].as_array().expect("summaries");
    assert_eq!(written.len(), ids["figures"].as_array().map_or(0, Vec::len));
    for s in written {
        let id = s["figure"].as_str().expect("id");
        let text = std::fs::read_to_string(format!("{dir}/{id}.csv")).expect("the file");
        assert!(text.starts_with(&format!("# Positional Encoding Explorer · {id}")));
    }
    // Every figure as a PNG, 400 CSS pixels wide at 1.5 device pixels per CSS pixel.
    let v = json(&[
        "render", "--all", "--format", "png", "--width", "400", "--scale", "1.5", "--out", &dir,
    ]);
    for s in v["figures"].as_array().expect("summaries") {
        let id = s["figure"].as_str().expect("id");
        let bytes = std::fs::read(format!("{dir}/{id}.png")).expect("the PNG");
        assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n", "{id}");
        assert_eq!(
            u32::from_be_bytes(bytes[16..20].try_into().expect("4")),
            600,
            "{id}"
        );
        assert_eq!(s["width"].as_u64(), Some(600), "{id}");
    }
    let out = pe(&["render", "--all", "--out", "/nonexistent/folder"]);
    assert_one_line_error(&out, "--all into no folder", &["not a folder"]);
}

#[test]
fn the_readme_pictures_are_what_pe_render_draws_now() {
    let root = env!("CARGO_MANIFEST_DIR");
    let list = std::fs::read_to_string(format!("{root}/docs/figures/list.txt")).expect("list");
    for line in list.lines().filter(|l| !l.trim().is_empty()) {
        let (id, theme) = line.split_once(' ').expect("id theme");
        let name = format!("{id}-{theme}.png");
        let fresh = format!("{}/readme-{name}", env!("CARGO_TARGET_TMPDIR"));
        json(&[
            "render", id, "--format", "png", "--theme", theme, "--width", "720", "--scale", "1",
            "--out", &fresh,
        ]);
        let committed = std::fs::read(format!("{root}/docs/figures/{name}")).expect("committed");
        assert!(
            std::fs::read(&fresh).expect("fresh") == committed,
            "docs/figures/{name} is stale: run `make pictures`"
        );
    }
}
