//! The precision figure's sentences and dots (fig-models-precision), re-derived independently:
//! each type's rounding done by the `half` crate in float32 arithmetic (a product of two
//! bfloat16 or float16 numbers is exact in float32, so rounding it once is the type's own
//! multiply), against the float64 angle; the stored positions' worst offset by rounding every
//! position. proptest sweeps every preset, layer, type, pair and context length (edges
//! included: the first rounded position, the binades' starts, float16's overflow).
#![cfg(not(target_arch = "wasm32"))]

#[path = "common/says.rs"]
mod says;

use half::{bf16, f16};
use pe_explorer::explain::models::grouped;
use pe_explorer::explain::models::precision::{
    inv_freq_sentence, layer_sentence, pair_sentence, score_sentence, storage_sentence,
};
use pe_explorer::math::layers::presets::PRESETS;
use pe_explorer::math::layers::read_model;
use pe_explorer::math::precision::Dtype;
use pe_explorer::params::format_significant;
use pe_explorer::scene::models::{Skipped, errors, positions, rotary};
use proptest::prelude::*;
use says::{assert_never_says, assert_says};

/// `x` rounded to `dtype`, in float32.
fn to(dtype: Dtype, x: f32) -> f32 {
    match dtype {
        Dtype::F32 => x,
        Dtype::Bf16 => bf16::from_f32(x).to_f32(),
        Dtype::F16 => f16::from_f32(x).to_f32(),
    }
}

/// The two paths' angle errors at position `p` for frequency `w`, independently.
fn independent(p: usize, w: f64, dtype: Dtype) -> (f64, f64) {
    let exact = p as f64 * w;
    let naive = to(dtype, to(dtype, p as f32) * to(dtype, w as f32));
    let float32 = p as f32 * w as f32;
    let err = |a: f32| {
        let e = (f64::from(a) - exact).abs();
        if e.is_nan() { f64::INFINITY } else { e }
    };
    (err(naive), err(float32))
}

fn dtype_of(k: usize) -> Dtype {
    Dtype::ALL[k % Dtype::ALL.len()]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn dots_and_the_pair_sentence_are_the_independent_errors(
        k in 0..PRESETS.len(),
        layer in 0usize..64,
        t in 0usize..3,
        pair in 0usize..300,
        tokens in prop_oneof![16usize..20, 250usize..262, 2040usize..2060, 4090usize..4120, 65_500usize..65_540, Just(1usize << 20)],
    ) {
        let dtype = dtype_of(t);
        let model = read_model(PRESETS[k].config).unwrap();
        let layer = layer.min(model.layers.len() - 1);
        let rot = rotary(PRESETS[k].config, &model, layer).unwrap();
        let pair = pair.min(rot.inv_freq.len() - 1);
        let w = rot.inv_freq[pair];
        let at = positions(tokens);
        prop_assert!(at.iter().all(|&p| (1..tokens).contains(&p)));
        let errs = errors(w, dtype, &at);
        let mut worst = (0.0f64, 0.0f64);
        for (&p, &e) in at.iter().zip(&errs) {
            let want = independent(p, w, dtype);
            prop_assert_eq!(e, want, "position {}", p);
            if want.0.is_finite() {
                worst.0 = worst.0.max(want.0);
            }
            worst.1 = worst.1.max(want.1);
        }
        let text = pair_sentence(pair, w, dtype, &errs);
        if w == 0.0 {
            // A proportional layer's pair past its turning ones: no angle to move.
            prop_assert!(at.iter().zip(&errs).all(|(&p, e)| e.1 == 0.0 && (e.0 == 0.0 || !to(dtype, p as f32).is_finite())));
            assert_says(&text, &[&format!("Pair {pair} has frequency 0")]);
            return Ok(());
        }
        assert_says(&text, &[&format!("Pair {pair} turns ω = {} rad a token", format_significant(w, 4))]);
        // One float32 step of ω, from ω's float32 bits, and its angle at the last position.
        let bits = (w as f32).to_bits() & 0x7f80_0000;
        let step = f64::from(f32::from_bits(bits)) * 2f64.powi(-23);
        let last = tokens - 1;
        assert_says(&inv_freq_sentence(w, last), &[&format!(
            "One step, {} here, moves the angle at position p by p × {} rad: {} rad at position {}.",
            format_significant(step, 3), format_significant(step, 3), format_significant(step * last as f64, 3), grouped(last as u64)
        )]);
        let off = |e: f64, exact: &str| if e == 0.0 { exact.to_string() } else { format!("up to {} rad off", format_significant(e, 3)) };
        if dtype == Dtype::F32 {
            // The two paths are one: the same errors.
            prop_assert!(errs.iter().all(|e| e.0 == e.1));
            let said = if worst.1 == 0.0 { "both are exact".to_string() } else { format!("both are at most {} rad off", format_significant(worst.1, 3)) };
            assert_says(&text, &[&said]);
        } else {
            let lost = errs.iter().any(|e| !e.0.is_finite());
            assert_says(&text, &[if lost { "At the drawn positions below 65\u{202F}520 the naive" } else { "At the drawn positions the naive" }]);
            assert_says(&text, &[
                &format!("naive path's angle is {}", off(worst.0, "exact at every one")),
                &format!("float32 path's is {}.", off(worst.1, "exact at every one")),
            ]);
            if worst.0 > std::f64::consts::PI {
                assert_says(&text, &["more than half a turn"]);
            } else {
                assert_never_says(&text, &["half a turn"]);
            }
        }
        // The layer drawn is the chosen one unless it cannot be, and the sentence says why.
        let said = layer_sentence(&rot, layer);
        match rot.skipped {
            None => prop_assert!(said.is_empty()),
            Some(Skipped::NoRope) => assert_says(&said, &[&format!("Layer {layer} does not rotate"), &format!("drawn: layer {}, a {} layer", rot.layer, model.layers[rot.layer].attention.as_str())]),
            Some(Skipped::NotModelled(ref kind)) => assert_says(&said, &[&format!("RoPE type, {kind},"), &format!("drawn: layer {}, a {} layer", rot.layer, model.layers[rot.layer].attention.as_str())]),
        }
    }

    #[test]
    fn the_score_sentence_is_the_independent_score(
        k in 0..PRESETS.len(),
        layer in 0usize..64,
        t in 0usize..3,
        query in prop_oneof![0usize..4, 255usize..260, 2046usize..2052, 32_760usize..32_775, 65_515usize..65_525, ((1usize << 20) - 3)..(1usize << 20)],
    ) {
        let dtype = dtype_of(t);
        let model = read_model(PRESETS[k].config).unwrap();
        let layer = layer.min(model.layers.len() - 1);
        let rot = rotary(PRESETS[k].config, &model, layer).unwrap();
        let text = score_sentence(&rot.inv_freq, dtype, query);
        if query == 0 {
            prop_assert!(text.is_empty());
            return Ok(());
        }
        let angle = |p: usize, w: f64, path: u8| match path {
            0 => p as f64 * w,
            1 => f64::from(to(dtype, to(dtype, p as f32) * to(dtype, w as f32))),
            _ => f64::from(p as f32 * w as f32),
        };
        let score = |path: u8| -> f64 { rot.inv_freq.iter().map(|&w| 2.0 * (angle(query, w, path) - angle(query - 1, w, path)).cos()).sum() };
        let naive = score(1);
        let naive = if naive.is_finite() { format_significant(naive, 6) } else { "none (the position overflows)".into() };
        let naive = format!("{naive} with the naive path's angles");
        assert_says(&text, &[
            &format!("over the layer's {} pairs", rot.inv_freq.len()),
            &format!("the score is {} exactly", format_significant(score(0), 6)),
            &naive,
            &format!("{} with transformers' float32 angles.", format_significant(score(2), 6)),
        ]);
        let shared = to(dtype, query as f32) == to(dtype, (query - 1) as f32) && to(dtype, query as f32).is_finite();
        if shared {
            let stored = to(dtype, query as f32) as u64;
            assert_says(&text, &[&format!("stores both positions as {}: on the naive path the two positions are one", grouped(stored))]);
        } else {
            assert_never_says(&text, &["are one"]);
        }
    }

    #[test]
    fn the_storage_sentence_is_what_rounding_every_position_gives(
        t in 0usize..3,
        last in prop_oneof![0usize..300, 2040usize..2060, 4090usize..4120, 65_500usize..65_540, 100_000usize..(1 << 20)],
    ) {
        let dtype = dtype_of(t);
        let finite = |p: usize| to(dtype, p as f32).is_finite();
        let rounded: Vec<usize> = (0..=last).filter(|&p| finite(p) && to(dtype, p as f32) != p as f32).collect();
        let text = storage_sentence(dtype, last);
        if rounded.is_empty() {
            assert_says(&text, &[&format!("no position up to {} is rounded", grouped(last as u64))]);
        } else {
            let end = (0..=last).rev().find(|&p| finite(p)).unwrap();
            let worst = (0..=end).map(|p| (f64::from(to(dtype, p as f32)) - p as f64).abs()).fold(0.0, f64::max);
            assert_says(&text, &[
                &format!("exact up to {}", grouped(rounded[0] as u64 - 1)),
                &format!("among positions up to {}, the farthest is stored {} off", grouped(end as u64), grouped(worst as u64)),
            ]);
        }
        let overflows = (0..=last).any(|p| !finite(p));
        if overflows {
            let first = (0..=last).find(|&p| !finite(p)).unwrap();
            assert_says(&text, &[&format!("From position {} on", grouped(first as u64)), "infinity"]);
        } else {
            assert_never_says(&text, &["infinity"]);
        }
    }
}
