//! The cached-keys figure (fig-models-stale), re-derived independently: generation is simulated
//! step by step the way transformers 5.24's `dynamic_rope_update` runs it (a prefill of at most
//! L₀ tokens, then one token at a time; `dynamic_frequency_update` recomputing `inv_freq` when
//! the length passes the longest so far, `longrope_frequency_update` picking the long factors
//! past L₀), each `inv_freq` written out from `_compute_dynamic_ntk_parameters` and
//! `_compute_longrope_parameters`; the key keeps the frequencies it was rotated with. proptest
//! sweeps heads, bases, factors, lists, lengths and positions; every dot and every number in
//! the sentences is checked against the simulation.
#![cfg(not(target_arch = "wasm32"))]

#[path = "common/says.rs"]
mod says;

use pe_explorer::explain::models::stale::{
    NOTICEABLE, cache_sentence, error_sentence, score_sentence, source_sentence, timeline_sentence,
    window_sentence,
};
use pe_explorer::math::cached_keys::{CachedKey, Regime, example};
use pe_explorer::math::layers::presets::PRESETS;
use pe_explorer::math::layers::read_model;
use pe_explorer::math::rope_scaling::{RopeScaling, RopeType};
use pe_explorer::params::format_significant;
use pe_explorer::scene::models::{error_y, stale_rope, stale_spec};
use proptest::prelude::*;
use says::assert_says;
use std::f64::consts::PI;

/// `_compute_dynamic_ntk_parameters` at `seq_len` (its `max(seq_len, max_position_embeddings)`;
/// exponent 1 at dim 2, where transformers divides by zero).
fn dynamic_inv_freq(s: &RopeScaling, seq_len: usize) -> Vec<f64> {
    let (d, l0) = (s.dim as f64, s.original_max as f64);
    let seq = (seq_len as f64).max(l0);
    let exponent = if s.dim > 2 { d / (d - 2.0) } else { 1.0 };
    let base = s.base * ((s.factor * seq / l0) - (s.factor - 1.0)).powf(exponent);
    (0..s.dim)
        .step_by(2)
        .map(|j| 1.0 / base.powf(j as f64 / d))
        .collect()
}

/// `_compute_longrope_parameters`' `inv_freq` with the list `longrope_frequency_update` picks.
fn longrope_inv_freq(s: &RopeScaling, seq_len: usize) -> Vec<f64> {
    let list = if seq_len > s.original_max {
        &s.long_factor
    } else {
        &s.short_factor
    };
    (0..s.dim)
        .step_by(2)
        .enumerate()
        .map(|(i, j)| 1.0 / (list[i] * s.base.powf(j as f64 / s.dim as f64)))
        .collect()
}

/// Generation simulated: (the key's inv_freq, the query's) for a prefill of `prompt` tokens
/// (`≤ L₀`) and one token at a time up to the query at `query`.
fn simulate(s: &RopeScaling, prompt: usize, key: usize, query: usize) -> (Vec<f64>, Vec<f64>) {
    let compute = |len| match s.rope_type {
        RopeType::Dynamic => dynamic_inv_freq(s, len),
        _ => longrope_inv_freq(s, len),
    };
    // The rotary embedding as built: the trained frequencies, max_seq_len_cached = L₀.
    let mut inv_freq = compute(s.original_max);
    let mut longest = s.original_max;
    let mut step = |len: usize, inv_freq: &mut Vec<f64>| match s.rope_type {
        RopeType::Dynamic => {
            if len > longest {
                *inv_freq = compute(len);
                longest = len;
            }
        }
        _ => *inv_freq = compute(len),
    };
    step(prompt, &mut inv_freq);
    let mut key_freq = (key < prompt).then(|| inv_freq.clone());
    for t in prompt..=query {
        step(t + 1, &mut inv_freq);
        if t == key {
            key_freq = Some(inv_freq.clone());
        }
    }
    (key_freq.unwrap(), inv_freq)
}

/// `n` with narrow no-break spaces between thousands, independently of the app's.
fn grouped(n: usize) -> String {
    let d = n.to_string();
    let mut out = String::new();
    for (i, c) in d.chars().enumerate() {
        if i > 0 && (d.len() - i).is_multiple_of(3) {
            out.push('\u{202F}');
        }
        out.push(c);
    }
    out
}

/// "1 token", "n tokens".
fn count(n: usize) -> String {
    if n == 1 {
        "1 token".to_string()
    } else {
        format!("{} tokens", grouped(n))
    }
}

fn scaling(
    dynamic: bool,
    half: usize,
    base: f64,
    factor: f64,
    l0: usize,
    lists: &[(f64, f64)],
) -> RopeScaling {
    RopeScaling {
        rope_type: if dynamic {
            RopeType::Dynamic
        } else {
            RopeType::Longrope
        },
        dim: 2 * half,
        base,
        factor,
        original_max: l0,
        seq_len: l0,
        short_factor: lists.iter().take(half).map(|l| l.0).collect(),
        long_factor: lists.iter().take(half).map(|l| l.1).collect(),
        ..RopeScaling::default()
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn the_cached_key_is_the_simulated_generation_s(
        dynamic in any::<bool>(),
        half in 1usize..48,
        base in 2.0f64..1e7,
        factor in 1.0f64..40.0,
        l0 in 16usize..3000,
        lists in proptest::collection::vec((0.5f64..4.0, 1.0f64..64.0), 48),
        prompt_share in 0.0f64..=1.0,
        key_share in 0.0f64..=1.0,
        past in 0usize..6000,
    ) {
        let s = scaling(dynamic, half, base, factor, l0, &lists);
        let prompt = ((l0 as f64 * prompt_share) as usize).max(1);
        let query = prompt - 1 + past;
        let key = (query as f64 * key_share) as usize;
        let (then, now) = simulate(&s, prompt, key, query);
        let c = CachedKey::of(&s, key, query);
        for i in 0..half {
            prop_assert!((c.then[i] - then[i]).abs() <= 1e-12 * then[i], "pair {i} then");
            prop_assert!((c.now[i] - now[i]).abs() <= 1e-12 * now[i], "pair {i} now");
        }
        let errors: Vec<f64> = (0..half).map(|i| key as f64 * (now[i] - then[i])).collect();
        let regime = if dynamic { Regime::Dynamic } else { Regime::Longrope };
        let (spec, _) = stale_spec(&c, regime, None, pe_explorer::chart::theme::Theme::LIGHT);
        for (i, dot) in spec.series[0].points.iter().enumerate() {
            let want = errors[i].abs().log10().max(-8.0);
            prop_assert!(dot.0 == i as f64 && (dot.1 - want).abs() < 1e-9, "dot {i}");
        }
        let changed = then.iter().zip(&now).any(|(a, b)| (a - b).abs() > 1e-15 * a);
        let timeline = timeline_sentence(&s, regime, &c);
        let errs = error_sentence(&c);
        let score = score_sentence(&c);
        if key == 0 || !changed {
            prop_assert!(timeline.contains("exact"), "{timeline}");
            prop_assert!(errs.is_empty() && score.is_empty());
        } else {
            let off = errors.iter().filter(|e| e.abs() >= NOTICEABLE).count();
            let worst = (0..half).fold(0, |w, i| if errors[i].abs() > errors[w].abs() { i } else { w });
            assert_says(&errs, &[
                &format!("Pairs off by {NOTICEABLE} rad or more: {off} of {half}"),
                &format!("pair {worst}'s, {} rad", format_significant(errors[worst].abs(), 4)),
            ]);
            let turned = errors.iter().filter(|e| e.abs() >= PI).count();
            prop_assert_eq!(errs.contains(&format!("{turned} of them by π")), turned > 0);
            let (p, k) = (query as f64, key as f64);
            let a2 = c.attention * c.attention;
            let cached: f64 = (0..half).map(|i| 2.0 * (p * now[i] - k * then[i]).cos()).sum();
            let fresh: f64 = (0..half).map(|i| 2.0 * ((p - k) * now[i]).cos()).sum();
            assert_says(&score, &[&format!(
                "{} from the cache, {} with",
                format_significant(a2 * cached, 4),
                format_significant(a2 * fresh, 4)
            )]);
        }
        let within = |len: usize| len <= l0;
        let words = |len: usize| match (dynamic, within(len)) {
            (true, true) => "the trained frequencies".to_string(),
            (true, false) if half == 1 => "the trained frequencies".to_string(),
            (true, false) => "base ".to_string(),
            (false, true) => "the short factors".to_string(),
            (false, false) => "the long factors".to_string(),
        };
        assert_says(&timeline, &[
            &format!("The key at {} was rotated with {}", grouped(key), words(key + 1)),
            &format!("those of {} (the sequence's length", count(key + 1)),
            &format!("the query at {} with those of {}, {}",
                grouped(query), count(query + 1), words(query + 1)),
        ]);
        // Two different bases never print alike.
        if dynamic && half > 1 && !within(key + 1) && changed {
            let bases: Vec<&str> = timeline.split("base ").skip(1).map(|t| t.split([',', ' ']).next().unwrap()).collect();
            prop_assert!(bases.len() == 2 && bases[0] != bases[1], "{timeline}");
        }
    }
}

#[test]
fn presets_draw_the_example_and_say_so() {
    for preset in PRESETS {
        let model = read_model(preset.config).unwrap();
        for chosen in 0..model.layers.len() {
            for regime in [Regime::Dynamic, Regime::Longrope] {
                let r = stale_rope(preset.config, &model, chosen, regime);
                let text = source_sentence(&r, chosen, model.layers.get(chosen));
                let head = match regime {
                    Regime::Dynamic => {
                        "128 rotating coordinates, θ = 10\u{202F}000, L₀ = 4\u{202F}096"
                    }
                    Regime::Longrope => {
                        "96 rotating coordinates, θ = 10\u{202F}000, L₀ = 4\u{202F}096"
                    }
                };
                let why = match &model.layers[chosen].rope {
                    None => format!("Layer {chosen} does not rotate q and k"),
                    Some(rope) => format!("Layer {chosen}'s RoPE ({})", rope.rope_type),
                };
                assert_says(&text, &["so the figure draws an example", head, &why]);
            }
        }
    }
    let d = example(Regime::Dynamic);
    assert_says(
        &source_sentence(
            &stale_rope(
                PRESETS[0].config,
                &read_model(PRESETS[0].config).unwrap(),
                0,
                Regime::Dynamic,
            ),
            0,
            None,
        ),
        &[&format!("\"factor\": {}", d.factor)],
    );
}

#[test]
fn a_pasted_longrope_layer_is_drawn_as_it_is_and_its_drop_named() {
    let text = r#"{"model_type": "qwen3", "hidden_size": 512, "num_attention_heads": 8,
        "num_hidden_layers": 3, "max_position_embeddings": 65536, "rope_theta": 5e5,
        "rope_scaling": {"rope_type": "longrope", "original_max_position_embeddings": 2048,
        "short_factor": [1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1],
        "long_factor": [1,1,1,1,2,2,2,2,3,3,3,3,4,4,4,4,5,5,5,5,6,6,6,6,7,7,7,7,8,8,8,8]}}"#;
    let model = read_model(text).unwrap();
    let r = stale_rope(text, &model, 2, Regime::Dynamic);
    assert_eq!((r.layer, r.regime), (Some(2), Regime::Longrope));
    assert_eq!((r.scaling.dim, r.scaling.original_max), (64, 2048));
    let said = source_sentence(&r, 2, model.layers.get(2));
    assert_says(
        &said,
        &[
            "Layer 2's RoPE is LongRoPE",
            "θ = 500\u{202F}000",
            "L₀ = 2\u{202F}048",
        ],
    );
    let c = CachedKey::of(&r.scaling, 1000, 5000);
    let (then, now) = simulate(&r.scaling, 1, 1000, 5000);
    let close = |a: &[f64], b: &[f64]| a.iter().zip(b).all(|(x, y)| (x - y).abs() <= 1e-12 * y);
    assert!(close(&c.then, &then) && close(&c.now, &now) && c.now.len() == 32);
    // Pairs 0–3 keep factor 1: exact.
    assert_says(
        &error_sentence(&c),
        &["4 pairs keep their frequency and are exact"],
    );
    let keeps = cache_sentence(Regime::Longrope);
    assert_says(
        &keeps,
        &[
            "only Phi-3 rebuilds",
            "A model of another type given rope_type longrope keeps",
        ],
    );
    assert!(window_sentence(&r, model.layers.get(2), 0, 5000).is_empty());
    assert!(error_y(0.0) == -8.0);
}

#[test]
fn a_sliding_layer_says_when_the_key_is_outside_its_window() {
    let text = r#"{"model_type": "gpt_oss", "hidden_size": 2880, "num_attention_heads": 64,
        "head_dim": 64, "num_hidden_layers": 2, "sliding_window": 128,
        "layer_types": ["sliding_attention", "full_attention"],
        "max_position_embeddings": 4096, "rope_theta": 150000,
        "rope_scaling": {"rope_type": "dynamic", "factor": 2.0}}"#;
    let model = read_model(text).unwrap();
    let r = stale_rope(text, &model, 0, Regime::Longrope);
    assert_eq!((r.layer, r.regime), (Some(0), Regime::Dynamic));
    let layer = model.layers.first();
    // The window holds the query's last 128 positions: 9 872 … 9 999.
    assert!(window_sentence(&r, layer, 9872, 9999).is_empty());
    assert_says(
        &window_sentence(&r, layer, 9871, 9999),
        &[
            "Layer 0 is a sliding layer: its query at 9\u{202F}999 sees the keys from 9\u{202F}872 on, so the key at 9\u{202F}871 is not in what it reads",
        ],
    );
    let full = stale_rope(text, &model, 1, Regime::Longrope);
    assert!(window_sentence(&full, model.layers.get(1), 0, 9999).is_empty());
}

#[test]
fn a_dynamic_layer_without_its_length_is_not_guessed() {
    let text = r#"{"model_type": "qwen3", "hidden_size": 1024, "num_attention_heads": 16,
        "num_hidden_layers": 1, "rope_theta": 1e6,
        "rope_scaling": {"rope_type": "dynamic", "factor": 3.0}}"#;
    let model = read_model(text).unwrap();
    let r = stale_rope(text, &model, 0, Regime::Dynamic);
    assert_eq!(r.layer, None);
    assert_says(
        &source_sentence(&r, 0, model.layers.first()),
        &[
            "Layer 0's RoPE (dynamic) cannot be drawn here (the config has no max_position_embeddings",
        ],
    );
}
