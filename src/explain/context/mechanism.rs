//! The first sentence under the wavelength figure — what the chosen method is, with this view's
//! numbers — and the whole readout ([`bands_text`]: that sentence, then the [`super::StretchClaim`]).

use super::dynamic::dynamic_claim;
use super::ntk::ntk_claim;
use super::yarn::yarn_ramp;
use super::{distinct, sig, stretch_claim};
use crate::math::rope_presets::find;
use crate::math::rope_scaling::RopeType;
use crate::params::context::ContextView;

/// What the chosen method is, with this view's numbers: the first sentence under the wavelength
/// figure (the second is the [`super::StretchClaim`]).
pub fn mechanism_text(v: &ContextView, lists: Option<&(Vec<f64>, Vec<f64>)>) -> String {
    let l0 = v.original as f64;
    match v.rope_type {
        RopeType::Default => "Plain RoPE: nothing is rescaled.".into(),
        RopeType::Linear if v.factor <= 1.0 => "Linear interpolation (PI) divides every frequency by s; at s = 1 that leaves every frequency as trained.".into(),
        RopeType::Linear => "Linear interpolation (PI) divides every frequency by s, so every wavelength, the fast pairs' too, grows s times; it changes every input, short ones included.".into(),
        RopeType::Yarn => format!(
            "{} Like linear interpolation it is fixed: short inputs get the same frequencies.",
            yarn_ramp(v)
        ),
        RopeType::Llama3 if v.high_freq > v.low_freq => {
            let (short, long) = distinct(l0 / v.high_freq, l0 / v.low_freq);
            format!(
                "Llama 3 keeps the pairs whose wavelength is shorter than L₀/high_freq_factor = {short} positions, divides those longer than L₀/low_freq_factor = {long} by s, and blends those between. It is fixed: short inputs get the same frequencies."
            )
        }
        RopeType::Llama3 => format!(
            "With high_freq_factor ≤ low_freq_factor Llama 3 has no blend band: the pairs whose wavelength is longer than L₀/low_freq_factor = {} positions are divided by s, the rest kept.",
            sig(l0 / v.low_freq)
        ),
        RopeType::Ntk if v.dim <= 2 => "With a single pair (head_dim 2) NTK-aware changes nothing: θ₀ = base⁰ = 1 for every base. (Its exponent d/(d − 2), in bloc97's formula, is undefined at d = 2; this page takes it as 1.)".into(),
        RopeType::Dynamic if v.dim <= 2 => "With a single pair (head_dim 2) dynamic NTK changes nothing: θ₀ = base⁰ = 1 for every base. (Its exponent d/(d − 2) is undefined at d = 2: transformers divides by zero; this page takes it as 1.)".into(),
        RopeType::Ntk => ntk_claim(v).to_string(),
        RopeType::Dynamic => dynamic_claim(v).to_string(),
        RopeType::Longrope => longrope_text(v, lists),
    }
}

/// Whether the view's model is a preset whose values are synthetic (not a real model's).
fn synthetic_preset(v: &ContextView) -> bool {
    v.model
        .and_then(find)
        .is_some_and(|p| p.source.starts_with("synthetic"))
}

/// LongRoPE: which list applies at `T`, where the lists come from, and its attention factor,
/// which is fixed when the model is built and so changes short inputs too.
fn longrope_text(v: &ContextView, lists: Option<&(Vec<f64>, Vec<f64>)>) -> String {
    let pairs = v.dim / 2;
    let fitting = lists.filter(|(s, l)| s.len() == pairs && l.len() == pairs);
    let which = if v.target > v.original {
        "T > L₀, so the long list applies here"
    } else {
        "T ≤ L₀, so the short list applies here"
    };
    let source = match fitting {
        Some((short, long)) if synthetic_preset(v) => {
            let (first, last) = (long.first().copied(), long.last().copied());
            let all_one = short.iter().all(|&x| x == 1.0);
            format!(
                "here the synthetic example's lists, not a real model's: short {}, long rising from {} to {}; real lists come from LongRoPE's search for each model (Ding et al. 2024), and a real short_factor is not all 1 either",
                if all_one { "all 1" } else { "not all 1" },
                sig(first.unwrap_or(1.0)),
                sig(last.unwrap_or(1.0))
            )
        }
        Some(_) => "here the model's own lists".to_string(),
        None => "here synthetic lists, short all 1 and long rising from 1 to s; real lists come from LongRoPE's search for each model (Ding et al. 2024), and a real short_factor is not all 1 either".to_string(),
    };
    let c = v.scaling(RopeType::Longrope, v.target, lists);
    let a = c.longrope_attention_factor();
    let attention = if v.attention_factor > 0.0 {
        format!(
            "It changes short inputs too: its attention factor, {} here (the config's own attention_factor), is set when the model is built and multiplies the cos and sin tables of every input, short ones included.",
            sig(a)
        )
    } else if a > 1.0 {
        format!(
            "It changes short inputs too: its attention factor √(1 + ln s / ln L₀) = {} is set when the model is built and multiplies the cos and sin tables of every input, short ones included.",
            sig(a)
        )
    } else {
        "Its attention factor √(1 + ln s / ln L₀) is 1 here (s = 1), so it scales nothing."
            .to_string()
    };
    format!(
        "LongRoPE divides each pair's frequency by its own factor from a list: long_factor once the sequence is longer than L₀, else short_factor ({which}; {source}). {attention} When generation carries a sequence past L₀, the keys already cached were rotated with the short factors; transformers' Phi-3 drops its cache at that step and recomputes it."
    )
}

/// The readout under the wavelength figure: what the method is, then what it does here.
pub fn bands_text(v: &ContextView, lists: Option<&(Vec<f64>, Vec<f64>)>) -> String {
    let mechanism = mechanism_text(v, lists);
    if v.rope_type == RopeType::Default {
        return mechanism;
    }
    let c = v.scaling(v.rope_type, v.target, lists);
    format!(
        "{mechanism} {}",
        stretch_claim(v.rope_type, v.factor, &c.scale_per_pair())
    )
}
