//! The `pe` binary: every subcommand's JSON parses and equals the library's numbers; bad input
//! exits 2 with one line on stderr; `--help` documents ranges and exits 0.
#![cfg(not(target_arch = "wasm32"))]

use std::io::Write;
use std::process::{Command, Output, Stdio};

use pe_explorer::math::rope_config::parse_config;
use pe_explorer::math::rope_scaling::{RopeScaling, RopeType};
use pe_explorer::math::sinusoidal::{Layout, SinusoidalParams, Spacing};
use pe_explorer::math::{attention, limits, naive, rope, similarity};
use serde_json::Value;

mod config;
mod errors;
mod layers;
mod precision;
mod render;
mod tables;

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
    let head = [
        "rope-apply",
        "--dim",
        "6",
        "--base",
        "100",
        "--layout",
        "half",
    ];
    let vectors = [
        "--positions",
        "0,3,7.5",
        "--q",
        "0.5,-1,2,0,4,-3",
        "--k",
        "1,1,-0.25,3,0,2",
    ];
    let args = |r: &str| json(&[&head[..], &["--rotary-dim", r], &vectors[..]].concat());
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
    let default = json(&[&head[..], &vectors[..]].concat());
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
