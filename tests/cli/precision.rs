//! `pe rope-freqs --dtype`: inv_freq rounded to a float type, and the angle errors of the naive
//! low-precision path and of transformers' float32 path, against a computation here that rounds
//! with float64 arithmetic on the bits of each number (not with the CLI's conversions).

use super::{assert_one_line_error, json, pe};

/// `x` rounded to `bits` significant bits, ties to even; below `min_normal` the spacing stays that
/// of the smallest binade (subnormals); past `max` infinity.
fn round_to(x: f64, bits: i32, min_normal: f64, max: f64) -> f64 {
    if x == 0.0 {
        return 0.0;
    }
    let exponent = ((x.abs().to_bits() >> 52) & 0x7ff) as i32 - 1023;
    let spacing = 2f64
        .powi(exponent - (bits - 1))
        .max(min_normal * 2f64.powi(-(bits - 1)));
    let r = (x / spacing).round_ties_even() * spacing;
    if r.abs() > max {
        f64::INFINITY.copysign(x)
    } else {
        r
    }
}

/// The three types as bit counts, smallest normal and largest finite value.
fn rounding(dtype: &str) -> impl Fn(f64) -> f64 {
    let (bits, min_normal, max) = match dtype {
        "bf16" => (8, 2f64.powi(-126), 3.3895313892515355e38),
        "f16" => (11, 2f64.powi(-14), 65_504.0),
        _ => (24, 2f64.powi(-126), f32::MAX as f64),
    };
    move |x| round_to(x, bits, min_normal, max)
}

fn floats(v: &serde_json::Value) -> Vec<f64> {
    v.as_array()
        .expect("a list")
        .iter()
        .map(|x| x.as_f64().expect("a number"))
        .collect()
}

#[test]
fn dtype_rounds_inv_freq_and_measures_both_paths() {
    let plain = floats(&json(&["rope-freqs", "--dim", "128", "--base", "10000"])["inv_freq"]);
    let len = 4096usize;
    for dtype in ["f32", "bf16", "f16"] {
        let round = rounding(dtype);
        let got = json(&[
            "rope-freqs",
            "--dim",
            "128",
            "--base",
            "10000",
            "--dtype",
            dtype,
            "--seq-len",
            &len.to_string(),
        ]);
        assert_eq!(got["dtype"], dtype);
        let rounded: Vec<f64> = plain.iter().map(|&w| round(w)).collect();
        assert_eq!(floats(&got["inv_freq"]), rounded, "{dtype}");
        let mut naive = 0.0f64;
        let mut single = 0.0f64;
        for p in 0..len {
            for (&w, &r) in plain.iter().zip(&rounded) {
                let exact = p as f64 * w;
                naive = naive.max((round(round(p as f64) * r) - exact).abs());
                let f32_angle = f64::from(p as f32 * w as f32);
                single = single.max((f32_angle - exact).abs());
            }
        }
        let g = got["max_angle_error"].as_f64().expect("finite");
        assert!(
            (g - naive).abs() <= 1e-12 * naive.max(1.0),
            "{dtype}: {g} vs {naive}"
        );
        let t = got["max_angle_error_transformers"]
            .as_f64()
            .expect("finite");
        assert!((t - single).abs() <= 1e-12, "{dtype}: {t} vs {single}");
    }
    // bfloat16's 8 bits space positions 2048 to 4095 by 16: pair 0's angle is off by up to 8.
    let bf16 = json(&[
        "rope-freqs",
        "--dim",
        "2",
        "--dtype",
        "bf16",
        "--seq-len",
        "4096",
    ]);
    assert_eq!(bf16["max_angle_error"], 8.0);
}

#[test]
fn dtype_says_when_float16_overflows_and_refuses_too_many_positions() {
    let got = json(&[
        "rope-freqs",
        "--dim",
        "8",
        "--dtype",
        "f16",
        "--seq-len",
        "70000",
    ]);
    assert_eq!(got["max_angle_error"], serde_json::Value::Null);
    assert!(
        got["max_angle_error_transformers"]
            .as_f64()
            .expect("finite")
            < 0.01
    );
    assert_one_line_error(
        &pe(&[
            "rope-freqs",
            "--dim",
            "8",
            "--dtype",
            "bf16",
            "--seq-len",
            "2000000",
        ]),
        "too many positions",
        &["at most 1048576 positions"],
    );
    let bad = pe(&["rope-freqs", "--dim", "8", "--dtype", "fp8"]);
    assert_eq!(bad.status.code(), Some(2));
}
