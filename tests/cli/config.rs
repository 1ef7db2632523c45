//! `pe rope-freqs --config`: model configs read as transformers reads them, and their errors.

use super::*;

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
