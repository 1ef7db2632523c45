//! The math against numbers produced by real libraries (PyTorch / Hugging Face transformers), from
//! `../shared/reference/`. A missing or malformed file fails the test; every record is checked.
#![cfg(not(target_arch = "wasm32"))]

use pe_explorer::math::alibi;
use pe_explorer::math::relative::t5_bucket;
use pe_explorer::math::rope::{self, Layout as RopeLayout};
use pe_explorer::math::rope_config::parse_config;
use pe_explorer::math::rope_scaling::{RopeScaling, RopeType};
use pe_explorer::math::sinusoidal::{Layout, SinusoidalParams, Spacing};
use serde_json::Value;

/// Loads `../shared/reference/<name>` and returns its records.
fn records(name: &str) -> Vec<Value> {
    let path = format!("{}/../shared/reference/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let json: Value = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{path}: {e}"));
    let records = json["records"].as_array().expect("records").clone();
    assert!(!records.is_empty(), "{path} has no records");
    records
}

/// `|a − b| ≤ 1e-6 + 1e-5·|b|`: the references are float32.
fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-6 + 1e-5 * b.abs()
}

fn matrix(v: &Value) -> Vec<Vec<f64>> {
    v.as_array()
        .expect("matrix")
        .iter()
        .map(|row| {
            row.as_array()
                .expect("row")
                .iter()
                .map(|x| x.as_f64().expect("number"))
                .collect()
        })
        .collect()
}

#[test]
fn sinusoidal_matches_distilbert_marian_and_m2m100() {
    let mut seen = Vec::new();
    for r in records("sinusoidal.json") {
        let source = r["source"].as_str().expect("source");
        let (layout, spacing) = match source {
            s if s.contains("distilbert") => (Layout::Interleaved, Spacing::Paper),
            s if s.contains("marian") => (Layout::Half, Spacing::Paper),
            s if s.contains("m2m_100") => (Layout::Half, Spacing::Fairseq),
            other => panic!("unexpected source {other}"),
        };
        let p = SinusoidalParams {
            positions: r["positions"].as_u64().expect("positions") as usize,
            dim: r["dim"].as_u64().expect("dim") as usize,
            base: r["base"].as_f64().expect("base"),
            layout,
            spacing,
        };
        let expected = matrix(&r["data"]);
        assert_eq!(expected.len(), p.positions);
        let table = p.table();
        for (pos, row) in expected.iter().enumerate() {
            assert_eq!(row.len(), p.dim);
            for (col, &want) in row.iter().enumerate() {
                let fast = table[pos * p.dim + col];
                let exact = p.value(pos, col);
                assert!(
                    close(fast, want),
                    "{source} ({pos},{col}): {fast} vs {want}"
                );
                assert!(
                    close(exact, want),
                    "{source} ({pos},{col}): {exact} vs {want}"
                );
            }
        }
        seen.push((layout, spacing));
    }
    assert_eq!(seen.len(), 3, "all three conventions checked");
}

fn vector(v: &Value) -> Vec<f64> {
    v.as_array()
        .expect("vector")
        .iter()
        .map(|x| x.as_f64().expect("number"))
        .collect()
}

fn assert_all_close(got: &[f64], want: &[f64], what: &str) {
    assert_eq!(got.len(), want.len(), "{what}: length");
    for (i, (&g, &w)) in got.iter().zip(want).enumerate() {
        assert!(close(g, w), "{what}[{i}]: {g} vs {w}");
    }
}

/// An optional number of a record, or `default` when the record does not name it.
fn number_or(r: &Value, key: &str, default: f64) -> f64 {
    match &r[key] {
        Value::Null => default,
        v => v
            .as_f64()
            .unwrap_or_else(|| panic!("{key} is not a number")),
    }
}

#[test]
fn rope_frequencies_match_transformers_default_and_linear() {
    let mut types = Vec::new();
    for r in records("rope_freqs.json") {
        let name = r["rope_type"].as_str().expect("rope_type");
        let rope_type = RopeType::parse(name).expect("known rope_type");
        let defaults = RopeScaling::default();
        // The trained context: `max_position_embeddings` for dynamic,
        // `original_max_position_embeddings` for yarn and llama3 (as transformers reads them).
        let max_pos = number_or(&r, "max_position_embeddings", defaults.original_max as f64);
        let context = match rope_type {
            RopeType::Dynamic => max_pos,
            _ => number_or(&r, "original_max_position_embeddings", max_pos),
        } as usize;
        let c = RopeScaling {
            rope_type,
            dim: r["head_dim"].as_u64().expect("head_dim") as usize,
            base: r["base"].as_f64().expect("base"),
            factor: number_or(&r, "factor", 1.0),
            original_max: context,
            seq_len: number_or(&r, "seq_len", context as f64) as usize,
            beta_fast: number_or(&r, "beta_fast", defaults.beta_fast),
            beta_slow: number_or(&r, "beta_slow", defaults.beta_slow),
            low_freq_factor: number_or(&r, "low_freq_factor", defaults.low_freq_factor),
            high_freq_factor: number_or(&r, "high_freq_factor", defaults.high_freq_factor),
            ..defaults
        };
        let (inv_freq, attention_factor) = c.compute();
        assert_all_close(&inv_freq, &vector(&r["inv_freq"]), name);
        let want = r["attention_factor"].as_f64().expect("attention_factor");
        assert!(
            close(attention_factor, want),
            "{name}: {attention_factor} vs {want}"
        );
        types.push(rope_type);
    }
    for t in [RopeType::Default, RopeType::Linear] {
        assert!(types.contains(&t), "{t:?} checked");
    }
}

/// Each real model configuration in `configs/`, read by `parse_config` as a user's `config.json`
/// would be, against the `inv_freq` and `attention_factor` of the model's own rotary embedding
/// class (`LlamaRotaryEmbedding`, `Qwen2RotaryEmbedding`; transformers 5.23).
#[test]
fn model_configs_match_transformers_rotary_embeddings() {
    let mut names = Vec::new();
    for r in records("rope_configs.json") {
        let name = r["name"].as_str().expect("name");
        let file = r["config"].as_str().expect("config");
        let path = format!(
            "{}/../shared/reference/configs/{file}",
            env!("CARGO_MANIFEST_DIR")
        );
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
        let model = parse_config(&text).unwrap_or_else(|e| panic!("{path}: {e}"));
        assert!(model.warnings.is_empty(), "{name}: {:?}", model.warnings);
        let (inv_freq, attention_factor) = model.scaling.compute();
        assert_all_close(&inv_freq, &vector(&r["inv_freq"]), name);
        let want = r["attention_factor"].as_f64().expect("attention_factor");
        assert!(
            close(attention_factor, want),
            "{name}: {attention_factor} vs {want}"
        );
        names.push(name.to_string());
    }
    for want in ["llama-3.1-8b", "qwen2.5-7b-instruct-yarn"] {
        assert!(names.iter().any(|n| n == want), "{want} checked");
    }
}

/// One record of `rope_apply.json`: head_dim, base, the positions and the vectors q and k.
fn apply_case(r: &Value) -> (usize, f64, Vec<f64>, Vec<f64>, Vec<f64>) {
    let d = r["head_dim"].as_u64().expect("head_dim") as usize;
    let base = r["base"].as_f64().expect("base");
    (
        d,
        base,
        vector(&r["positions"]),
        vector(&r["q"]),
        vector(&r["k"]),
    )
}

#[test]
fn rope_application_matches_llama_rotate_half_and_gptj_rotate_every_two() {
    let mut checked = 0;
    for r in records("rope_apply.json") {
        let (d, base, positions, q, k) = apply_case(&r);
        assert_eq!((q.len(), k.len()), (d, d), "q and k are head_dim wide");
        let theta = rope::inv_freq(d, base);
        for (key, layout) in [
            ("half", RopeLayout::Half),
            ("interleaved", RopeLayout::Interleaved),
        ] {
            let rec = &r[key];
            let q_rot = matrix(&rec["q_rot"]);
            let k_rot = matrix(&rec["k_rot"]);
            assert_eq!(
                (q_rot.len(), k_rot.len()),
                (positions.len(), positions.len())
            );
            for (a, &m) in positions.iter().enumerate() {
                for (name, x, rot) in [("q", &q, &q_rot), ("k", &k, &k_rot)] {
                    assert_all_close(
                        &rope::rotate(x, m, &theta, layout),
                        &rot[a],
                        &format!("{key} {name}_rot[{a}]"),
                    );
                    // The libraries' own form, x ⊙ cos + rotate_half(x) ⊙ sin.
                    assert_all_close(
                        &rope::apply_efficient(x, m, &theta, layout),
                        &rot[a],
                        &format!("{key} apply_efficient({name})[{a}]"),
                    );
                }
                // R_m·x.
                let r = rope::rotation_matrix(m, &theta, layout);
                let rq: Vec<f64> = r.chunks_exact(d).map(|row| rope::dot(row, &q)).collect();
                assert_all_close(&rq, &q_rot[a], &format!("{key} R·q[{a}]"));
                // The whole head rotating is the partial rotation with rotary_dim = head_dim.
                assert_all_close(
                    &rope::rotate_partial(&q, m, base, d, layout),
                    &q_rot[a],
                    &format!("{key} rotate_partial(q, head_dim)[{a}]"),
                );
            }
            let dots = rope::dots(&q, &k, &positions, &theta, layout);
            let want: Vec<f64> = matrix(&rec["dots"]).concat();
            assert_eq!(dots.len(), want.len(), "{key} dots: size");
            // Dot products of float32 vectors: the sum of d products loses a little more.
            for (i, (&g, &w)) in dots.iter().zip(&want).enumerate() {
                assert!(
                    (g - w).abs() <= 1e-5 + 1e-5 * w.abs(),
                    "{key} dots[{i}]: {g} vs {w}"
                );
            }
            checked += 1;
        }
    }
    assert!(checked >= 2, "both layouts checked");
}

/// Hugging Face's `convert_llama_weights_to_hf.py` permutation turns GPT-J's interleaved rotation
/// into Llama's `rotate_half`: the library's interleaved `q_rot`, permuted, is `rotate_half`-style
/// RoPE of the permuted `q`, and the library's interleaved scores are the half-split scores of
/// the permuted vectors.
#[test]
fn hf_permutation_maps_gptj_rotations_to_llama_ones() {
    let mut checked = 0;
    for r in records("rope_apply.json") {
        let (d, base, positions, q, k) = apply_case(&r);
        let theta = rope::inv_freq(d, base);
        let perm = rope::hf_permutation(d);
        let (pq, pk) = (rope::permute(&q, &perm), rope::permute(&k, &perm));
        let interleaved = &r["interleaved"];
        let q_rot = matrix(&interleaved["q_rot"]);
        let k_rot = matrix(&interleaved["k_rot"]);
        for (a, &m) in positions.iter().enumerate() {
            assert_all_close(
                &rope::rotate(&pq, m, &theta, RopeLayout::Half),
                &rope::permute(&q_rot[a], &perm),
                &format!("half(permute(q))[{a}]"),
            );
            assert_all_close(
                &rope::rotate(&pk, m, &theta, RopeLayout::Half),
                &rope::permute(&k_rot[a], &perm),
                &format!("half(permute(k))[{a}]"),
            );
        }
        let dots = rope::dots(&pq, &pk, &positions, &theta, RopeLayout::Half);
        let want: Vec<f64> = matrix(&interleaved["dots"]).concat();
        assert_eq!(dots.len(), want.len());
        for (i, (&g, &w)) in dots.iter().zip(&want).enumerate() {
            assert!(
                (g - w).abs() <= 1e-5 + 1e-5 * w.abs(),
                "permuted half dots[{i}]: {g} vs {w}"
            );
        }
        checked += 1;
    }
    assert!(checked >= 1);
}

#[test]
fn alibi_slopes_match_bloom() {
    let mut heads_seen = Vec::new();
    for r in records("alibi.json") {
        let heads = r["heads"].as_u64().expect("heads") as usize;
        assert_all_close(
            &alibi::slopes(heads),
            &vector(&r["slopes"]),
            &format!("{heads} heads"),
        );
        heads_seen.push(heads);
    }
    assert_eq!(heads_seen, vec![1, 2, 4, 8, 16]);
}

/// 12 heads (not in alibi.json), derived from `_get_alibi_slopes`: the closest power of two is
/// 8, so `2^(−8h/8) = 2^−h` for h = 1..8, then `extra_base = 2^(−4/8)` to the odd powers 1, 3,
/// 5, 7: `2^(−0.5·(2k−1))`, k = 1..4.
#[test]
fn alibi_slopes_for_twelve_heads_follow_bloom() {
    let want: Vec<f64> = (1..=8)
        .map(|h| 2f64.powi(-h))
        .chain((1..=4).map(|k| 2f64.powf(-0.5 * (2 * k - 1) as f64)))
        .collect();
    assert_all_close(&alibi::slopes(12), &want, "12 heads");
}

/// T5's buckets against Hugging Face's `T5Attention._relative_position_bucket`. No torch here, so
/// the table was derived by hand from its code and checked with a plain-Python float32 emulation
/// (`struct.pack('f', …)` rounding after every operation, `math.log` rounded to float32 for
/// `torch.log`; Python's `int()` truncates toward zero like `.to(torch.long)`).
///
/// Bidirectional, 32 buckets, max distance 128 (T5's defaults): `nb = 16`, `max_exact = 8`; keys
/// before the query (`rel ≤ 0`) get `0 + b`, keys after it `16 + b`, with `b = n` for `n = |rel| <
/// 8` and `b = min(8 + trunc(ln(n/8)/ln 16 · 8), 15) = min(8 + trunc(2·log2(n/8)), 15)` above.
/// `2·log2(n/8)` reaches k at `n = 8·2^(k/2)`: 8, 11.3, 16, 22.6, 32, 45.3, 64, 90.5, so the
/// first distance of buckets 8 … 15 is 8, 12, 16, 23, 32, 46, 64, 91. At 16, 32 and 64 the value
/// is exactly 2, 4, 6 in float32 (`f32(ln 2) / f32(ln 16) = 0.25` exactly, ×8 = 2), so 16 → 10.
///
/// Causal (`bidirectional = false`), 32 buckets, max distance 128: `nb = 32`, `max_exact = 16`,
/// `n = max(−rel, 0)` (keys after the query all get bucket 0), `b = min(16 + trunc(ln(n/16)/ln 8 ·
/// 16), 31)`: the first distances of buckets 16 … 31 are 16, 19, 21, 24, 27, 31, 35, 40, 46, 52,
/// 59, 67, 77, 87, 99, 113 (`16·8^(k/16)` rounded up).
///
/// Float32 at the edges, where the exact value is an integer:
/// - causal, 9 buckets, max distance 128, rel −8: `max_exact = 4`, `ln(2)/ln(32)·5 = 1`; float32:
///   `0.6931472 / 3.4657359 = 0.2` (0.20000000298) `× 5 = 1.0` → bucket 5 (float64 gives
///   0.9999999999999999 → 4);
/// - causal, 17 buckets, max distance 27, rel −12 and −18: `max_exact = 8`, `ln(1.5)/ln(3.375) ·
///   9 = 3` and `ln(2.25)/ln(3.375) · 9 = 6`; float32: `0.40546510 / 1.2163954 = 0.33333331`,
///   `× 9 = 2.9999998` → bucket 10, and `0.81093019 / 1.2163954 = 0.66666663`, `× 9 = 5.9999995`
///   → bucket 13 (float64 gives exactly 3 and 6: 11 and 14).
#[test]
fn t5_buckets_match_transformers_relative_position_bucket() {
    let bi = |rel: i64| t5_bucket(rel, true, 32, 128);
    let causal = |rel: i64| t5_bucket(rel, false, 32, 128);
    assert_eq!(bi(0), 0);
    assert_eq!(bi(-1), 1);
    assert_eq!(bi(1), 17);
    assert_eq!((bi(-7), bi(7)), (7, 23));
    assert_eq!((bi(-8), bi(8)), (8, 24));
    for (k, first) in [8i64, 12, 16, 23, 32, 46, 64, 91].into_iter().enumerate() {
        let b = 8 + k;
        assert_eq!(bi(-first), b, "−{first}");
        assert_eq!(bi(first), 16 + b, "+{first}");
        if k > 0 {
            assert_eq!(bi(-(first - 1)), b - 1, "−{}", first - 1);
            assert_eq!(bi(first - 1), 16 + b - 1, "+{}", first - 1);
        }
    }
    for n in [127, 128, 129, 500, 1 << 40] {
        assert_eq!((bi(-n), bi(n)), (15, 31), "{n}");
    }

    for rel in [1, 2, 100, 1 << 50] {
        assert_eq!(causal(rel), 0, "{rel}");
    }
    for n in 0..16 {
        assert_eq!(causal(-n), n as usize);
    }
    let firsts = [
        16i64, 19, 21, 24, 27, 31, 35, 40, 46, 52, 59, 67, 77, 87, 99, 113,
    ];
    for (k, first) in firsts.into_iter().enumerate() {
        assert_eq!(causal(-first), 16 + k, "−{first}");
        assert_eq!(causal(-(first - 1)), 15 + k, "−{}", first - 1);
    }
    assert_eq!((causal(-128), causal(-500)), (31, 31));

    assert_eq!(t5_bucket(-8, false, 9, 128), 5, "float32 lands on 1");
    assert_eq!(t5_bucket(-7, false, 9, 128), 4);
    assert_eq!(
        t5_bucket(-12, false, 17, 27),
        10,
        "float32 falls short of 3"
    );
    assert_eq!(
        t5_bucket(-18, false, 17, 27),
        13,
        "float32 falls short of 6"
    );
    // Bidirectional with 16 buckets, max distance 40: nb = 8, max_exact = 4, log buckets 4 … 7
    // from 4, 8 (4·10^(1/4) = 7.1), 13 (12.6), 23 (22.5).
    let firsts: Vec<usize> = [4i64, 8, 13, 23]
        .iter()
        .map(|&n| t5_bucket(n, true, 16, 40))
        .collect();
    assert_eq!(firsts, [12, 13, 14, 15]);
    assert_eq!(t5_bucket(12, true, 16, 40), 13);
    assert_eq!(t5_bucket(-22, true, 16, 40), 6);
}

/// Every modern config's KV cache, layer by layer and in bytes at three lengths, against what
/// transformers 5.24.0's own `DynamicCache` rules and config classes give
/// (`tests/reference/kv/kv.json`, written by `generate.py` there).
#[test]
fn kv_cache_matches_transformers_dynamic_cache() {
    use pe_explorer::math::layers::{self, kv};
    let root = env!("CARGO_MANIFEST_DIR");
    let text =
        std::fs::read_to_string(format!("{root}/tests/reference/kv/kv.json")).expect("kv.json");
    let want: Value = serde_json::from_str(&text).expect("kv.json parses");
    let bytes = want["bytes_per_value"].as_u64().expect("bytes") as usize;
    let lengths: Vec<usize> = want["lengths"]
        .as_array()
        .expect("lengths")
        .iter()
        .map(|n| n.as_u64().expect("n") as usize)
        .collect();
    let configs = want["configs"].as_object().expect("configs");
    assert!(configs.len() >= 11);
    for (name, w) in configs {
        let path = format!("{root}/../shared/reference/modern/configs/{name}");
        let config = std::fs::read_to_string(&path).expect("config");
        let (layers, widths) =
            layers::parse_cache(&config).unwrap_or_else(|e| panic!("{name}: {e}"));
        let rows = w["layers"].as_array().expect("layers");
        assert_eq!(layers.len(), rows.len(), "{name}");
        for (i, ((l, width), row)) in layers.iter().zip(&widths).zip(rows).enumerate() {
            let number = |k: &str| row[k].as_u64().map(|n| n as usize);
            assert_eq!(
                (width.kv_heads, width.d_k, width.d_v),
                (
                    number("kv_heads").expect("kv_heads"),
                    number("d_k").expect("d_k"),
                    number("d_v").expect("d_v")
                ),
                "{name} layer {i}"
            );
            // A sliding or chunked cache layer's window is the layer's window or chunk.
            assert_eq!(l.window, number("window"), "{name} layer {i}");
        }
        for (k, &len) in lengths.iter().enumerate() {
            let got = kv::cache_bytes(&layers, &widths, len, bytes);
            assert_eq!(
                got.pattern,
                w["pattern"][k].as_u64().expect("pattern"),
                "{name} at {len}"
            );
            assert_eq!(
                got.all_full,
                w["all_full"][k].as_u64().expect("all_full"),
                "{name} at {len}"
            );
        }
    }
}
