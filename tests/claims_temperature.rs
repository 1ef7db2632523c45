//! The query-temperature figure's steps and sentences (fig-models-temperature), re-derived
//! from transformers 5.24's code as written in Python: Llama 4's `torch.log1p(torch.floor(
//! (positions + 1) / floor_scale)) * attn_scale + 1` and Ministral 3's `1 + beta *
//! torch.log(1 + torch.floor(positions / original_max_position_embeddings))`, and softmax's
//! weight of one leading key. proptest sweeps positions, contexts and Llama 4 configs (a floor
//! of 1 and a scale of 0 included).
#![cfg(not(target_arch = "wasm32"))]

#[path = "common/says.rs"]
mod says;

use pe_explorer::explain::models::grouped;
use pe_explorer::explain::models::temperature::{
    beam_sentence, llama_sentence, mistral_sentence, overlap_sentence, softmax_sentence,
};
use pe_explorer::math::temperature::{Llama4Scale, MINISTRAL3, QueryScale, llama4_of};
use pe_explorer::params::format_significant;
use pe_explorer::scene::models::{STEPS_ACROSS, staircase};
use proptest::prelude::*;
use says::assert_says;

fn llama(p: usize, scale: f64, floor: usize) -> f64 {
    (((p as f64 + 1.0) / floor as f64).floor()).ln_1p() * scale + 1.0
}

fn ministral(p: usize) -> f64 {
    1.0 + 0.1 * (1.0 + (p as f64 / 16_384.0).floor()).ln()
}

/// Beam's `torch.exp(0.1 * torch.log1p((position_ids + 1) / 2048))`, written as the power.
fn beam(p: usize) -> f64 {
    (1.0 + (p as f64 + 1.0) / 2048.0).powf(0.1)
}

/// `x` through float32 to bfloat16, rounding to nearest even on the float32 bits.
fn bf16(x: f64) -> f64 {
    let b = (x as f32).to_bits();
    let r = (b + 0x7FFF + ((b >> 16) & 1)) & 0xFFFF_0000;
    f64::from(f32::from_bits(r))
}

fn shown(s: f64) -> String {
    if s == 1.0 {
        "1".into()
    } else {
        format_significant(s, 6)
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    #[test]
    fn factors_steps_and_sentences(
        query in prop_oneof![0usize..3, 8185usize..8200, 16_380usize..16_390, 0usize..(1 << 20), Just((1 << 20) - 1)],
        scale in prop_oneof![Just(0.0), Just(0.1), 0.0f64..1.0],
        floor in prop_oneof![Just(1usize), Just(8192usize), 1usize..100_000],
        tokens in prop_oneof![16usize..=(1 << 20), Just(1 << 20)],
    ) {
        let mut fields = serde_json::Map::new();
        fields.insert("attn_scale".into(), scale.into());
        fields.insert("floor_scale".into(), (floor as u64).into());
        let read: Llama4Scale = llama4_of(&fields);
        prop_assert!(read.notes.is_empty());
        let q: QueryScale = read.scale.unwrap();
        prop_assert!((q.at(query) - llama(query, scale, floor)).abs() <= 1e-12);
        prop_assert!((MINISTRAL3.at(query) - ministral(query)).abs() <= 1e-12);
        // Every vertex of the staircase lies on the formula, in order, and a step is drawn
        // unless it comes within last/STEPS_ACROSS positions of the one drawn before it.
        let last = tokens - 1;
        let points = staircase(&q, last);
        let at: Vec<usize> = points.iter().map(|p| p.0 as usize).collect();
        prop_assert_eq!((at[0], *at.last().unwrap()), (0, last));
        for (p, v) in at.iter().zip(&points) {
            prop_assert!(p.to_string() == v.0.to_string());
            prop_assert!((llama(*p, scale, floor) - v.1).abs() <= 1e-12, "{} {}", p, v.1);
        }
        prop_assert!(at.windows(2).all(|w| w[0] < w[1]));
        prop_assert!(points.len() <= 2 * STEPS_ACROSS + 2);
        let gap = last.div_ceil(STEPS_ACROSS);
        for k in 1..=10_000 {
            let Some(p) = (k * floor).checked_sub(1).filter(|&p| p <= last) else { break };
            // `at` is sorted: binary searches keep this loop cheap.
            let has = |v: usize| at.binary_search(&v).is_ok();
            let drawn = p == 0 || (has(p) && has(p - 1));
            let below = at.partition_point(|&v| v < p);
            let near = below > 0 && at[below - 1] + gap > p;
            prop_assert!(drawn || near, "the step at {} is neither drawn nor near one", p);
        }
        let text = llama_sentence(Some(&read), query);
        let first = (0..=floor).find(|&p| llama(p, scale, floor) > 1.0);
        let course = match (scale == 0.0, first) {
            (true, _) => "every factor is 1".to_string(),
            (false, Some(0)) => "above 1 from position 0".to_string(),
            (false, Some(r)) => format!("1 up to position {}", grouped(r as u64 - 1)),
            (false, None) => unreachable!("a scale above 0 raises s at p = floor − 1"),
        };
        assert_says(&text, &[&course, &format!("at the query's position {}, {}.", grouped(query as u64), shown(llama(query, scale, floor)))]);
        // Where both stepped lines are 1: below the first position either formula leaves 1.
        let both = first.filter(|_| scale > 0.0).unwrap_or(usize::MAX).min(16_384);
        match overlap_sentence(&q, last) {
            None => prop_assert_eq!(both, 0),
            Some(text) if both > last => assert_says(&text, &[&format!("Over positions 0 to {} both", grouped(last as u64))]),
            Some(text) => {
                prop_assert!(llama(both, scale, floor) > 1.0 || ministral(both) > 1.0);
                prop_assert!(llama(both - 1, scale, floor) == 1.0 && ministral(both - 1) == 1.0);
                assert_says(&text, &[&format!("Up to position {} both", grouped(both as u64 - 1))]);
            }
        }
        let text = mistral_sentence(query);
        let cast = bf16(ministral(query));
        let cast = if cast == ministral(query) {
            String::new()
        } else {
            format!(" ({} in a bfloat16 model, which casts the factor first)", shown(cast))
        };
        assert_says(&text, &["1 up to position 16\u{202F}383", &format!("{}, {}{cast}.", grouped(query as u64), shown(ministral(query)))]);
        assert_says(&beam_sentence(query), &[&format!("{}, {}.", grouped(query as u64), shown(beam(query)))]);
        let text = softmax_sentence(&q, query);
        if query >= 2 {
            let lead = (query as f64).ln();
            let weight = |s: f64| 1.0 / (1.0 + query as f64 * (-s * lead).exp());
            prop_assert!((weight(1.0) - 0.5).abs() < 1e-9);
            // Four significant digits, but never a rounded-up "1.000".
            let four = |s: f64| {
                let w = weight(s);
                if format_significant(w, 4).starts_with('1') { "over 0.9999".to_string() } else { format_significant(w, 4) }
            };
            assert_says(&text, &[
                &format!("({} keys, its own included)", grouped(query as u64 + 1)),
                &format!(
                    "gets {}, with Ministral 3's {}, with Beam's {}.",
                    four(llama(query, scale, floor)),
                    four(ministral(query)),
                    four(beam(query)),
                ),
            ]);
        }
    }
}

#[test]
fn llama_4_off_is_said() {
    let mut fields = serde_json::Map::new();
    fields.insert("attn_temperature_tuning".into(), false.into());
    let read = llama4_of(&fields);
    assert!(read.scale.is_none());
    assert_says(
        &llama_sentence(Some(&read), 100),
        &["this config turns attn_temperature_tuning off, so none of its queries is scaled"],
    );
}

/// A pasted Llama 4 config keeps its temperature fields through the paste box's filter, and
/// the figure reads them: tuning off, or another attn_scale and floor_scale.
#[test]
fn a_pasted_llama_4_config_is_read_with_its_own_temperature() {
    use pe_explorer::math::layers::paste::keep_read_fields;
    use pe_explorer::math::layers::read_model;
    use pe_explorer::math::temperature::of_model;
    let scout = include_str!("../src/math/layers/presets/llama-4-scout.json");
    let edited = |pairs: &[(&str, serde_json::Value)]| {
        let mut v: serde_json::Value = serde_json::from_str(scout).unwrap();
        for (k, x) in pairs {
            v["text_config"][*k] = x.clone();
        }
        let kept = keep_read_fields(&v.to_string()).unwrap();
        let m = read_model(&kept.text).unwrap();
        of_model(&m.model_type, &m.fields).unwrap()
    };
    let off = edited(&[("attn_temperature_tuning", false.into())]);
    assert_eq!(off.scale, None);
    let own = edited(&[("attn_scale", 0.5.into()), ("floor_scale", 1024.into())]);
    let q = own.scale.unwrap();
    assert_eq!((q.scale, q.floor), (0.5, 1024));
    assert!((q.at(32_767) - llama(32_767, 0.5, 1024)).abs() < 1e-12);
    assert_says(
        &llama_sentence(Some(&own), 32_767),
        &["with this config's attn_scale 0.5 and floor_scale 1\u{202F}024"],
    );
}

/// Which mechanism the finding applies to each layer of each preset: Llama 4 Scout's layers
/// without RoPE (3, 7, …, 47 from its empty no_rope_layers) are scaled unless attn_scale is 0,
/// its others are not; no other preset scales a query.
#[test]
fn the_layer_sentence_for_every_layer_of_every_preset() {
    use pe_explorer::explain::models::temperature::layer_sentence;
    use pe_explorer::math::layers::presets::PRESETS;
    use pe_explorer::math::layers::read_model;
    use pe_explorer::math::temperature::of_model;
    for preset in PRESETS {
        let m = read_model(preset.config).unwrap();
        let of = of_model(&m.model_type, &m.fields);
        assert_eq!(of.is_some(), preset.id == "llama-4-scout", "{}", preset.id);
        for (i, layer) in m.layers.iter().enumerate() {
            let text = layer_sentence(preset.name, of.as_ref(), layer, i);
            let want = match &of {
                None => "scales no query by its position".to_string(),
                Some(_) if (i + 1) % 4 == 0 => format!(
                    "Layer {i} of {} has no RoPE: its queries are scaled",
                    preset.name
                ),
                Some(_) => format!(
                    "Layer {i} of {} rotates q and k, so its queries are not scaled",
                    preset.name
                ),
            };
            assert_says(&text, &[&want]);
        }
        if let Some(of) = &of {
            let mut flat = of.clone();
            flat.scale.as_mut().unwrap().scale = 0.0;
            assert_says(
                &layer_sentence(preset.name, Some(&flat), &m.layers[3], 3),
                &["attn_scale 0 makes its factor 1 at every position"],
            );
        }
    }
}
