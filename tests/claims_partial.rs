//! The partial-rotation figure's dots and sentences (fig-models-partial), re-derived
//! independently from transformers 5.24's code as written in Python: `_compute_proportional_rope_
//! parameters` (`rope_angles = int(f·h // 2)`, `inv_freq = 1/θ^(arange(0, 2·rope_angles, 2)/h)`
//! then zeros to `h/2`, `rotate_half` over the whole head) and the rotary_dim functions (`dim =
//! int(h·f)`, `inv_freq = 1/θ^(arange(0, dim, 2)/dim)`, cos and sin twice that many wide,
//! `q[..., :rotary_dim]` rotated by `rotate_half`, GPT-J's `rotate_every_two` for interleaved
//! models). proptest sweeps every preset, layer and `partial_rotary_factor`, and heads, rotated
//! parts (odd ones and 0 included), bases and factors beyond them.
#![cfg(not(target_arch = "wasm32"))]

#[path = "common/says.rs"]
mod says;

use std::collections::BTreeSet;
use std::f64::consts::TAU;

use pe_explorer::chart::theme::Theme;
use pe_explorer::explain::models::partial::{
    coordinate_text, layer_sentence, mixing_sentence, proportional_sentence, rotary_sentence,
};
use pe_explorer::math::layers::presets::{PRESETS, preset};
use pe_explorer::math::layers::read_model;
use pe_explorer::math::partial::{Fraction, Partial};
use pe_explorer::params::format_significant;
use pe_explorer::scene::models::{Passed, drawn, partial_layer, partial_spec};
use proptest::prelude::*;
use says::{assert_never_says, assert_says};

/// One convention as transformers builds it: `inv_freq` and each coordinate's partner (`None`:
/// not rotated).
struct Built {
    inv_freq: Vec<f64>,
    partner: Vec<Option<usize>>,
    pair: Vec<Option<usize>>,
}

fn proportional(h: usize, r: usize, theta: f64, factor: f64) -> Built {
    // int(f·h // 2) with r = int(f·h): ⌊r/2⌋.
    let angles = r / 2;
    let mut inv_freq: Vec<f64> = (0..2 * angles)
        .step_by(2)
        .map(|j| 1.0 / theta.powf(j as f64 / h as f64))
        .collect();
    inv_freq.resize(h / 2, 0.0);
    let inv_freq: Vec<f64> = inv_freq.iter().map(|w| w / factor).collect();
    let partner = (0..h).map(|x| Some((x + h / 2) % h)).collect();
    let pair = (0..h).map(|x| Some(x % (h / 2))).collect();
    Built {
        inv_freq,
        partner,
        pair,
    }
}

fn rotary_dim(h: usize, r: usize, theta: f64, factor: f64, interleaved: bool) -> Built {
    let inv_freq: Vec<f64> = (0..r)
        .step_by(2)
        .map(|j| 1.0 / theta.powf(j as f64 / r as f64) / factor)
        .collect();
    let width = 2 * inv_freq.len();
    let partner = (0..h)
        .map(|x| {
            (x < width).then(|| {
                if interleaved {
                    x ^ 1
                } else {
                    (x + width / 2) % width
                }
            })
        })
        .collect();
    let pair = (0..h)
        .map(|x| (x < width).then(|| if interleaved { x / 2 } else { x % (width / 2) }))
        .collect();
    Built {
        inv_freq,
        partner,
        pair,
    }
}

/// The coordinates that turn (a nonzero frequency).
fn turning(b: &Built) -> BTreeSet<usize> {
    (0..b.partner.len())
        .filter(|&x| b.pair[x].is_some_and(|i| b.inv_freq[i] > 0.0))
        .collect()
}

/// A count of tokens as the page writes it, derived here: three significant digits, whole
/// numbers from 1000 on grouped by narrow no-break spaces.
fn tokens(x: f64) -> String {
    if x >= 999.5 {
        // Round at the third digit from the left, by the decimal text of x.
        let sci = format!("{:.2e}", x);
        let (mantissa, exp) = sci.split_once('e').unwrap();
        let digits: String = mantissa.chars().filter(|c| c.is_ascii_digit()).collect();
        let exp: usize = exp.parse().unwrap();
        let whole = format!("{digits}{}", "0".repeat(exp - 2));
        let mut out = String::new();
        for (k, c) in whole.chars().enumerate() {
            if k > 0 && (whole.len() - k) % 3 == 0 {
                out.push('\u{202F}');
            }
            out.push(c);
        }
        out
    } else {
        format_significant(x, 3)
    }
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-12 * a.abs().max(b.abs())
}

/// Everything the figure says and draws for `p`, against the independent build.
fn check(p: &Partial) {
    let (h, r) = (p.head_dim, p.rotary);
    let prop = proportional(h, r, p.theta, p.factor);
    let rot = rotary_dim(h, r, p.theta, p.factor, p.interleaved);
    // The dots: each turning coordinate at its pair's wavelength; every coordinate once.
    let (spec, extras) = partial_spec(Ok((0, p)), None, Theme::LIGHT);
    // The others as bars on the rows above: every coordinate is drawn once per convention.
    let barred: f64 = extras
        .fills
        .iter()
        .map(|f| f.lower[1].0 - f.lower[0].0)
        .sum();
    assert_eq!(
        barred as usize,
        2 * h - turning(&prop).len() - turning(&rot).len()
    );
    for (k, b) in [&prop, &rot].into_iter().enumerate() {
        let dots = &spec.series[k].points;
        let on = turning(b);
        assert_eq!(dots.len(), on.len());
        for (&(x, y), &want) in dots.iter().zip(&on) {
            assert_eq!(x as usize, want);
            let w = b.inv_freq[b.pair[want].unwrap()];
            assert!(close(y, (TAU / w).log10()), "{x}");
        }
    }
    // proportional's sentence.
    let t = r / 2;
    let half = h / 2;
    let text = proportional_sentence(p);
    if t == 0 {
        assert_says(&text, &["is 0, so no pair turns"]);
    } else {
        let turn = if t == half && t == 1 {
            "its one pair turns".to_string()
        } else if t == half {
            format!("all {half} pairs turn,")
        } else if t == 1 {
            format!("1 of {half} pairs turns,")
        } else {
            format!("{t} of {half} pairs turn,")
        };
        assert_says(
            &text,
            &[
                &turn,
                &format!("i + {half} across"),
                &format!("θ^(−2i/{h})"),
                &tokens(TAU / prop.inv_freq[t - 1]),
            ],
        );
        match half - t {
            0 => assert_never_says(&text, &["the other"]),
            1 => assert_says(&text, &["the other pair has frequency exactly 0"]),
            n => assert_says(
                &text,
                &[&format!("the other {n} pairs have frequency exactly 0")],
            ),
        }
    }
    // rotary_dim's sentence.
    let width = 2 * rot.inv_freq.len();
    let text = rotary_sentence(p);
    if width == 0 {
        assert_says(&text, &["no coordinate rotates"]);
    } else {
        assert_says(
            &text,
            &[
                &format!("coordinates 0–{} rotate", width - 1),
                &format!("θ^(−2i/{r})"),
                &tokens(TAU / rot.inv_freq[rot.inv_freq.len() - 1]),
            ],
        );
        match h - width {
            0 => assert_never_says(&text, &["pass"]),
            1 => assert_says(&text, &[&format!("coordinate {width} passes through")]),
            _ => assert_says(
                &text,
                &[&format!("coordinates {width}–{} pass through", h - 1)],
            ),
        }
        if p.interleaved {
            assert_says(&text, &["2i and 2i + 1"]);
        } else {
            assert_says(&text, &[&format!("i and i + {}", width / 2)]);
        }
    }
    // Where they part.
    let text = mixing_sentence(p);
    if t == 0 && rot.inv_freq.is_empty() {
        assert_says(&text, &["Neither convention turns any pair"]);
    } else if r == h {
        assert_says(&text, &["at the same frequencies"]);
        assert!(
            prop.inv_freq
                .iter()
                .zip(&rot.inv_freq)
                .all(|(a, b)| close(*a, *b))
        );
        if p.interleaved {
            assert_says(&text, &["land on different coordinates"]);
        } else {
            assert!((0..h).all(|x| prop.partner[x] == rot.partner[x]));
            assert_says(&text, &["pair the same coordinates"]);
        }
    } else {
        let both = turning(&prop).intersection(&turning(&rot)).count();
        assert_says(
            &text,
            &[&match both {
                0 => "no coordinate of the head turns under both".to_string(),
                1 => "only 1 coordinate of the head turns under both".to_string(),
                n => format!("only {n} coordinates of the head turn under both"),
            }],
        );
        let common = t.min(rot.inv_freq.len());
        if common >= 2 {
            let (lp, lr) = (
                TAU / prop.inv_freq[common - 1],
                TAU / rot.inv_freq[common - 1],
            );
            assert!(lr > lp);
            assert_says(
                &text,
                &[&format!(
                    "pair {} turns every {} tokens under proportional and every {} under rotary_dim",
                    common - 1,
                    tokens(lp),
                    tokens(lr)
                )],
            );
        }
    }
    // The readout names each coordinate's partner.
    for x in [0, h / 2, h - 1, r.min(h - 1)] {
        let text = coordinate_text(p, x);
        for (b, name) in [(&prop, "proportional"), (&rot, "rotary_dim")] {
            match (b.partner[x], b.pair[x]) {
                (Some(q), Some(i)) if b.inv_freq[i] > 0.0 => assert_says(
                    &text,
                    &[&format!(
                        "{name} turns it with coordinate {q} as pair {i}, ω = {}",
                        format_significant(b.inv_freq[i], 4)
                    )],
                ),
                (Some(q), Some(i)) => assert_says(
                    &text,
                    &[&format!(
                        "{name} puts it in pair {i} with coordinate {q}, at ω = 0"
                    )],
                ),
                _ => assert_says(&text, &[&format!("{name} leaves it unrotated")]),
            }
        }
    }
}

#[test]
fn gemma_4s_full_layers_as_the_issue_states_them() {
    let config = preset("gemma-4-31b").unwrap().config;
    let json: serde_json::Value = serde_json::from_str(config).unwrap();
    let text = &json["text_config"];
    let h = text["global_head_dim"].as_u64().unwrap() as usize;
    let full = &text["rope_parameters"]["full_attention"];
    let f = full["partial_rotary_factor"].as_f64().unwrap();
    let theta = full["rope_theta"].as_f64().unwrap();
    let model = read_model(config).unwrap();
    let l = partial_layer(config, &model, 5).unwrap();
    let p = drawn(&l, Fraction::Layer);
    assert_eq!((p.head_dim, p.rotary), (h, (h as f64 * f) as usize));
    let built = proportional(h, p.rotary, theta, 1.0);
    assert_eq!(turning(&built).len() / 2, 64);
    assert_eq!(built.inv_freq.len(), 256);
    let slowest = TAU / built.inv_freq[63];
    assert!((187.5..188.5).contains(&slowest), "{slowest}");
    check(&p);
    assert_says(
        &proportional_sentence(&p),
        &["64 of 256 pairs turn", "to 188 tokens"],
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn every_preset_layer_and_fraction(
        k in 0..PRESETS.len(),
        layer in 0usize..64,
        f in 0usize..Fraction::ALL.len(),
    ) {
        let model = read_model(PRESETS[k].config).unwrap();
        let layer = layer.min(model.layers.len() - 1);
        let l = partial_layer(PRESETS[k].config, &model, layer).unwrap();
        let fraction = Fraction::ALL[f];
        let p = drawn(&l, fraction);
        check(&p);
        let said = layer_sentence(&l, fraction, layer);
        assert_says(&said, &[&format!("Layer {} is a {} layer with rope_type {}", l.layer, l.attention.as_str(), l.own.rope_type)]);
        match l.passed {
            None => prop_assert_eq!(l.layer, layer),
            Some(Passed::NoRope) => {
                prop_assert!(model.layers[layer].rope.is_none());
                assert_says(&said, &[&format!("Layer {layer} does not rotate q and k; drawn: layer {}", l.layer)]);
            }
            Some(Passed::Unread(ref e)) => prop_assert!(false, "{e}"),
        }
        match fraction.value() {
            Some(v) if Partial::rotary_of(p.head_dim, v) == l.own.partial.rotary => {
                assert_says(&said, &[&format!("partial_rotary_factor {v} gives the layer's own r")])
            }
            Some(v) => assert_says(&said, &[&format!("partial_rotary_factor {v} instead")]),
            None => assert_never_says(&said, &["instead", "chosen"]),
        }
    }

    #[test]
    fn any_head_rotated_part_base_and_factor(
        half in 1usize..=512,
        r in 0usize..=1024,
        theta in prop_oneof![Just(2.0), 2.0f64..1e7, Just(1e7)],
        factor in prop_oneof![Just(1.0), 1.0f64..64.0],
        interleaved in any::<bool>(),
    ) {
        let h = 2 * half;
        let p = Partial { head_dim: h, rotary: r.min(h), theta, factor, interleaved };
        check(&p);
    }
}
