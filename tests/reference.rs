//! The math against numbers produced by real libraries (PyTorch / Hugging Face transformers), from
//! `../shared/reference/`. A missing or malformed file fails the test; every record is checked.
#![cfg(not(target_arch = "wasm32"))]

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
