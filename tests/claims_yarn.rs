//! The YaRN-factors figure's numbers and sentences (fig-models-yarn), re-derived from
//! transformers 5.24's code as written in Python: `_compute_yarn_parameters`' attention_factor
//! (`get_mscale(factor, mscale) / get_mscale(factor, mscale_all_dim)` when both are truthy, else
//! `get_mscale(factor)`, an explicit `attention_factor` first) and DeepSeek-V3's
//! `yarn_apply_mscale` (`scaling * mscale * mscale` with `mscale = yarn_get_mscale(factor,
//! mscale_all_dim)` when `mscale_all_dim` is truthy). proptest sweeps factors and fields; every
//! preset's every layer is read.
#![cfg(not(target_arch = "wasm32"))]

#[path = "common/says.rs"]
mod says;

use pe_explorer::explain::models::yarn::{amplitude_sentence, ports_sentence, softmax_sentence};
use pe_explorer::math::layers::presets::PRESETS;
use pe_explorer::math::layers::read_model;
use pe_explorer::math::yarn_scale::{DEEPSEEK_V3, DEEPSEEK_V3_HEAD, Port, YarnScale, of_layer};
use pe_explorer::params::format_significant;
use pe_explorer::scene::models::yarn_spec;
use proptest::prelude::*;
use says::assert_says;

/// `get_mscale(scale, mscale=1)` as both functions write it.
fn get_mscale(scale: f64, mscale: f64) -> f64 {
    if scale <= 1.0 {
        1.0
    } else {
        0.1 * mscale * scale.ln() + 1.0
    }
}

/// Python's truth of an optional number (None and 0 are false).
fn truthy(x: Option<f64>) -> bool {
    x.is_some_and(|v| v != 0.0)
}

/// (cos/sin amplitude, softmax factor) as transformers computes them.
fn python(y: &YarnScale) -> (f64, f64) {
    let amplitude = match y.attention_factor {
        Some(a) => a,
        None if truthy(y.mscale) && truthy(y.mscale_all_dim) => {
            get_mscale(y.factor, y.mscale.unwrap())
                / get_mscale(y.factor, y.mscale_all_dim.unwrap())
        }
        None => get_mscale(y.factor, 1.0),
    };
    let softmax = if y.softmax && truthy(y.mscale_all_dim) {
        let m = get_mscale(y.factor, y.mscale_all_dim.unwrap());
        m * m
    } else {
        1.0
    };
    (amplitude, softmax)
}

fn four(x: f64) -> String {
    if x == 1.0 {
        "1".into()
    } else {
        format_significant(x, 4)
    }
}

fn field() -> impl Strategy<Value = Option<f64>> {
    prop_oneof![
        Just(None),
        Just(Some(0.0)),
        Just(Some(1.0)),
        Just(Some(0.707)),
        (0.0f64..2.0).prop_map(Some)
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn both_factors_every_curve_and_the_ports(
        factor in prop_oneof![Just(1.0), Just(40.0), 0.5f64..200.0],
        attention_factor in prop_oneof![4 => Just(None), 1 => (0.5f64..2.0).prop_map(Some)],
        mscale in field(),
        mscale_all_dim in field(),
        softmax in any::<bool>(),
    ) {
        let y = YarnScale { factor, attention_factor, mscale, mscale_all_dim, softmax };
        let (a, s) = python(&y);
        prop_assert!((y.amplitude() - a).abs() <= 1e-12 * a.abs().max(1.0));
        prop_assert!((y.softmax_factor() - s).abs() <= 1e-12 * s);
        prop_assert!((y.rotated_logit() - a * a * s).abs() <= 1e-12 * (a * a * s).max(1.0));
        // Every drawn point is the formula at its s.
        let (spec, _) = yarn_spec(&y, None, pe_explorer::chart::theme::Theme::LIGHT);
        for p in &spec.series[0].points {
            let (a, s) = python(&y.at(10f64.powf(p.0)));
            prop_assert!((p.1 - a * a * s).abs() <= 1e-9 * (a * a * s).max(1.0));
        }
        assert_says(&amplitude_sentence(&y, "M"), &[&format!("= {}, so a rotated coordinate's q·k product by {}.", four(a), four(a * a))]);
        if softmax && truthy(mscale_all_dim) {
            assert_says(&softmax_sentence(&y, "M"), &[&format!(" = {}: every coordinate", four(s))]);
        }
        // A port's error is its own factors over the right ones.
        for port in Port::ALL {
            if let Some((rot, other)) = port.error(&y) {
                let (pa, ps) = port.factors(&y).unwrap();
                prop_assert!((rot - pa * pa * ps / (a * a * s)).abs() <= 1e-9 * rot.max(1.0));
                prop_assert!((other - ps / s).abs() <= 1e-12 * other.max(1.0));
            }
        }
        let text = ports_sentence(&y, true);
        if let Some((rot, _)) = Port::NoSoftmax.error(&y) {
            prop_assert!((rot * s - 1.0).abs() < 1e-12);
            assert_says(&text, &[&format!("leaves out the softmax factor gets every q·k logit {} times too small", four(s))]);
        }
        // A reading listed as off changes some share; one that changes none is said to be right.
        for port in Port::ALL {
            if let Some((rot, other)) = port.error(&y) {
                let same = (rot - 1.0).abs() < 1e-12 && (other - 1.0).abs() < 1e-12;
                let said_right = text.split(" One that ").nth(1).is_some_and(|t| t.contains(match port {
                    Port::NoSoftmax => "leaves out the softmax factor",
                    Port::DefaultAmplitude => "puts YaRN's default",
                    Port::RawRatio => "divides the raw fields",
                    Port::NoAmplitude => "leaves cos and sin unscaled",
                }));
                prop_assert_eq!(same, said_right, "{:?}: {}", port, text);
            }
        }
    }
}

/// DeepSeek-V3's published fields are the figure's fallback, its every layer reads them, and the
/// other YaRN presets (gpt-oss-20b, Qwen3-8B with YaRN ×4) keep head_dim^−0.5.
#[test]
fn every_preset_layer() {
    for preset in PRESETS {
        let m = read_model(preset.config).unwrap();
        for i in 0..m.layers.len() {
            let y = of_layer(&m, i);
            let yarn = m.layers[i]
                .rope
                .as_ref()
                .is_some_and(|r| r.rope_type == "yarn");
            assert_eq!(y.is_some(), yarn, "{} layer {i}", preset.id);
            if preset.id == "deepseek-v3" {
                assert_eq!(y, Some(DEEPSEEK_V3));
                let field = |k: &str| m.fields[k].as_u64().unwrap() as usize;
                assert_eq!(
                    DEEPSEEK_V3_HEAD,
                    (field("qk_nope_head_dim"), field("qk_rope_head_dim"))
                );
            } else if let Some(y) = y {
                assert!(!y.softmax && y.softmax_factor() == 1.0, "{}", preset.id);
            }
        }
    }
    let s = DEEPSEEK_V3.softmax_factor();
    assert!((s - (0.1 * 40f64.ln() + 1.0).powi(2)).abs() < 1e-15 && (s - 1.874).abs() < 5e-4);
}

/// A YaRN dict without a factor takes max_position_embeddings / original_max_position_embeddings,
/// as _compute_yarn_parameters does.
#[test]
fn a_missing_factor_is_the_ratio_of_the_lengths() {
    let params: serde_json::Map<String, serde_json::Value> = serde_json::from_str(
        r#"{"rope_type": "yarn", "original_max_position_embeddings": 8192, "factor": null}"#,
    )
    .unwrap();
    let y = YarnScale::of_params(&params, "qwen3", Some(32_768.0)).unwrap();
    assert_eq!(y.factor, 4.0);
    assert_eq!(YarnScale::of_params(&params, "qwen3", None), None);
    // No factor at all: transformers refuses the dict.
    let mut absent = params.clone();
    absent.remove("factor");
    assert_eq!(YarnScale::of_params(&absent, "qwen3", Some(32_768.0)), None);
    // A null factor with DeepSeek-V3's softmax factor: its attention reads the null and fails.
    let mut deepseek = params.clone();
    deepseek.insert("mscale_all_dim".into(), serde_json::Value::from(1.0));
    assert_eq!(
        YarnScale::of_params(&deepseek, "deepseek_v3", Some(32_768.0)),
        None
    );
    assert!(YarnScale::of_params(&deepseek, "qwen3", Some(32_768.0)).is_some());
}
