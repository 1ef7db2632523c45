//! Chapter 4's subcommands (learned tables, ALiBi, T5, NoPE, Transformer-XL, DroPE): their JSON
//! equals the library's numbers.

use pe_explorer::math::learned::{self, LearnedTable};
use pe_explorer::math::sinusoidal::{Layout, SinusoidalParams, Spacing};
use pe_explorer::math::{alibi, attention, drope, nope, relative, rope, similarity, txl};
use serde_json::Value;

use super::{assert_one_line_error, flat, json, pe};

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
fn txl_terms_prints_the_four_terms_and_their_sum_below_the_diagonal() {
    let v = json(&["txl-terms", "--sentence", "Dog bites man.", "--seed", "9"]);
    let tokens = attention::tokenize("Dog bites man.");
    assert_eq!(v["tokens"], serde_json::json!(["dog", "bites", "man"]));
    let t = txl::terms(&tokens, 9);
    let n = tokens.len();
    let cells = |key: &str| -> Vec<Option<f64>> {
        let rows = v[key].as_array().unwrap();
        assert_eq!(rows.len(), n, "{key}: one row per query");
        rows.iter()
            .flat_map(|r| r.as_array().unwrap().iter().map(Value::as_f64))
            .collect()
    };
    assert_eq!(cells("a"), t.content);
    assert_eq!(cells("b"), t.content_position);
    assert_eq!(cells("c"), t.global_content);
    assert_eq!(cells("d"), t.global_position);
    let score = cells("score");
    for i in 0..n {
        for j in 0..n {
            let k = i * n + j;
            if j > i {
                assert_eq!(score[k], None, "({i}, {j}) is hidden by the causal mask");
                continue;
            }
            let sum: f64 = ["a", "b", "c", "d"]
                .iter()
                .map(|m| cells(m)[k].unwrap())
                .sum();
            assert!((score[k].unwrap() - sum).abs() < 1e-12, "({i}, {j})");
        }
    }
    // The authors' rows and their shift: on and below the diagonal, b + d.
    let shifted = flat(&v["bd_shifted"]);
    assert_eq!(flat(&v["bd_rows"]), t.position_rows);
    for i in 0..n {
        for j in 0..=i {
            let k = i * n + j;
            let bd = cells("b")[k].unwrap() + cells("d")[k].unwrap();
            assert!((shifted[k] - bd).abs() < 1e-12, "({i}, {j})");
        }
    }
    // The default sentence is the attention figure's; the seed changes only b, c and d's draws.
    let other = json(&["txl-terms", "--seed", "10"]);
    let default = json(&["txl-terms"]);
    assert_eq!(other["a"], default["a"]);
    assert_ne!(other["d"], default["d"]);
    assert_one_line_error(
        &pe(&["txl-terms", "--sentence", "?!"]),
        "sentence",
        &["0 words"],
    );
}

#[test]
fn drope_prints_the_three_curves_of_the_library() {
    let v = json(&[
        "drope",
        "--dim",
        "16",
        "--trained",
        "64",
        "--target",
        "512",
        "--seed",
        "4",
    ]);
    let c = drope::curves(16, 10_000.0, 64, 512, 16, 4);
    assert_eq!(flat(&v["rope"]), c.rope);
    assert_eq!(flat(&v["yarn"]), c.yarn);
    assert_eq!(flat(&v["none"]), c.none);
    let distance: Vec<usize> = v["distance"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d.as_u64().unwrap() as usize)
        .collect();
    assert_eq!(distance, c.distance);
    assert_eq!((distance[0], *distance.last().unwrap()), (17, 512));
    assert_one_line_error(
        &pe(&["drope", "--trained", "512", "--target", "512"]),
        "target at L₀",
        &["--target (512) must be above --trained (512)"],
    );
    assert_one_line_error(
        &pe(&[
            "drope",
            "--trained",
            "8",
            "--target",
            "16",
            "--distractors",
            "16",
        ]),
        "distractors",
        &["--distractors (16) must be below --target (16)"],
    );
}
