//! The precision figure's sentences (fig-models-precision): which positions a float type holds
//! exactly and how far apart it stores the others, which layer's frequencies are drawn and why,
//! and how far off the chosen pair's angle gets on each path — each computed from the type's
//! rounding ([`crate::math::precision`]) and the frequencies drawn.

use super::grouped;
use crate::math::precision::{Dtype, float32_angle, naive_angle, ones_score};
use crate::params::format_significant;
use crate::scene::models::{Rotary, Skipped};

/// How far from its whole number the type stores a position, at worst, among positions
/// `0 ..= last` (below the overflow): half the gap where the last binade reaches a halfway
/// point, else its last position's own offset, or the binade below's half gap when larger.
pub fn worst_offset(dtype: Dtype, last: usize) -> f64 {
    let last = dtype.overflow().map_or(last, |o| last.min(o - 1));
    if last < dtype.first_inexact() {
        return 0.0;
    }
    let gap = dtype.spacing(last as f64);
    let start = 1usize << (last as f64).log2().floor() as u32;
    let here = ((last - start) as f64).min(gap / 2.0);
    // The binade below holds positions exactly a half gap (there gap / 4) from a stored one
    // whenever its gap is 2 or more.
    let below = if gap >= 4.0 { gap / 4.0 } else { 0.0 };
    here.max(below)
}

/// What `dtype` does to the positions `0 … last`.
pub fn storage_sentence(dtype: Dtype, last: usize) -> String {
    let label = dtype.label();
    let bits = dtype.bits();
    let exact = grouped(1u64 << bits);
    if last < dtype.first_inexact() {
        return format!(
            "{label} keeps {bits} significant bits, so it holds every whole number up to {exact} \
             exactly: no position up to {} is rounded, and the errors come from rounding ω and \
             the angle alone.",
            grouped(last as u64)
        );
    }
    let finite = dtype.overflow().map_or(last, |o| last.min(o - 1));
    let around = if finite >= 2usize << bits {
        format!(
            ", and {} apart around position {}",
            grouped(dtype.spacing(finite as f64) as u64),
            grouped(finite as u64),
        )
    } else {
        String::new()
    };
    // Offsets are whole: half a gap of 2 or more, or a distance between whole numbers.
    let mut s = format!(
        "{label} keeps {bits} significant bits: whole positions are exact up to {exact}, then \
         stored 2 apart up to {}{around}; among positions up to {}, the farthest is stored {} \
         off.",
        grouped(2u64 << bits),
        grouped(finite as u64),
        grouped(worst_offset(dtype, finite) as u64),
    );
    if let Some(o) = dtype.overflow().filter(|&o| last >= o) {
        s.push_str(&format!(
            " From position {} on, {label} holds no position at all (it rounds to infinity): \
             the naive path has no angle there, and draws none.",
            grouped(o as u64)
        ));
    }
    s
}

/// Which layer's frequencies are drawn, when not the chosen layer's; empty when they are.
pub fn layer_sentence(rot: &Rotary, chosen: usize) -> String {
    match &rot.skipped {
        None => String::new(),
        Some(Skipped::NoRope) => format!(
            "Layer {chosen} does not rotate q and k, so nothing in it is rounded this way; \
             drawn: layer {}, a {} layer, the nearest that rotates.",
            rot.layer,
            rot.attention.as_str()
        ),
        Some(Skipped::NotModelled(kind)) => format!(
            "Layer {chosen}'s RoPE type, {kind}, is not one this figure computes; drawn: layer \
             {}, a {} layer, the nearest whose RoPE it computes.",
            rot.layer,
            rot.attention.as_str()
        ),
    }
}

/// The chosen pair's frequency and its largest angle error on each path over `errors` (naive,
/// float32) at the drawn positions.
pub fn pair_sentence(pair: usize, w: f64, dtype: Dtype, errors: &[(f64, f64)]) -> String {
    if w == 0.0 {
        return format!(
            "Pair {pair} has frequency 0 (a proportional layer's pairs past \
             int(partial_rotary_factor × head_dim // 2) never turn): wherever the type holds \
             the position, its angle is 0 on both paths, so rounding cannot move it."
        );
    }
    let lost = errors.iter().any(|e| !e.0.is_finite());
    let naive = errors
        .iter()
        .map(|e| e.0)
        .filter(|e| e.is_finite())
        .fold(0.0, f64::max);
    let float32 = errors.iter().map(|e| e.1).fold(0.0, f64::max);
    let turn = format!(
        "a full turn every {} tokens",
        format_significant(2.0 * std::f64::consts::PI / w, 4)
    );
    let head = format!(
        "Pair {pair} turns ω = {} rad a token ({turn}).",
        format_significant(w, 4)
    );
    if dtype == Dtype::F32 {
        return format!(
            "{head} In float32 the naive path is the float32 path drawn for transformers (the \
             product of two float32 numbers rounded once is float32's own multiply): at the \
             drawn positions both are {}.",
            if float32 == 0.0 {
                "exact".to_string()
            } else {
                format!("at most {} rad off", format_significant(float32, 3))
            }
        );
    }
    let past = if naive > std::f64::consts::PI {
        ", more than half a turn (past it the error only wraps around: the pair may point \
         anywhere)"
    } else {
        ""
    };
    let drawn = match dtype.overflow().filter(|_| lost) {
        Some(o) => format!("At the drawn positions below {}", grouped(o as u64)),
        None => "At the drawn positions".to_string(),
    };
    let exact = |e: f64| {
        if e == 0.0 {
            "exact at every one".to_string()
        } else {
            format!("up to {} rad off", format_significant(e, 3))
        }
    };
    format!(
        "{head} {drawn} the naive path's angle is {}{past}; transformers' float32 path's is \
         {}.",
        exact(naive),
        exact(float32)
    )
}

/// One float32 step (ulp) of a frequency `w > 0`: the gap from `w`'s binade's float32 numbers
/// to the next, `2^(⌊log₂ w⌋ − 23)`.
pub fn float32_step(w: f64) -> f64 {
    2f64.powi(w.log2().floor() as i32 - 23)
}

/// What the float32 path leaves out: it takes inv_freq as ω rounded to float32, while
/// transformers computes inv_freq in float32 arithmetic (`1.0 / (base ** (arange(0, dim, 2) /
/// dim))`, then any scaling), which can land a step or two from that; one step's angle at the
/// context's last position `last`. Empty at frequency 0 or position 0.
pub fn inv_freq_sentence(w: f64, last: usize) -> String {
    if w == 0.0 || last == 0 {
        return String::new();
    }
    let step = float32_step(w);
    format!(
        "The float32 path takes inv_freq as ω rounded to float32; transformers computes \
         inv_freq in float32 arithmetic (1.0 / base ** (2i/d), then any scaling), which can \
         land a float32 step or two from that. One step, {} here, moves the angle at position p \
         by p × {} rad: {} rad at position {}.",
        format_significant(step, 3),
        format_significant(step, 3),
        format_significant(step * last as f64, 3),
        super::grouped(last as u64)
    )
}

/// The score of the query at `query` with the key just before it, `q = k` = all ones, over
/// every pair of `inv_freq`: exact, on the naive `dtype` path, on transformers' path; empty at
/// position 0 (no key before it).
pub fn score_sentence(inv_freq: &[f64], dtype: Dtype, query: usize) -> String {
    let Some(key) = query.checked_sub(1) else {
        return String::new();
    };
    let exact = ones_score(inv_freq, query, key, |p, w| p as f64 * w);
    let naive = ones_score(inv_freq, query, key, |p, w| naive_angle(p, w, dtype));
    let float32 = ones_score(inv_freq, query, key, float32_angle);
    let stored = (dtype.round(query as f64), dtype.round(key as f64));
    let shared = if stored.0 == stored.1 && stored.0.is_finite() {
        format!(
            " ({} stores both positions as {}: on the naive path the two positions are one)",
            dtype.label(),
            grouped(stored.0 as u64)
        )
    } else {
        String::new()
    };
    let naive = if naive.is_finite() {
        format_significant(naive, 6)
    } else {
        "none (the position overflows)".to_string()
    };
    format!(
        "The query at position {} and the key just before it, q = k = all ones over the \
         layer's {} pairs (2·cos of each pair's angle difference, from the angles alone: cos, \
         sin and the products exact, no attention factor): the score is {} exactly, {naive} \
         with the naive path's angles{shared}, {} with transformers' float32 angles.",
        grouped(query as u64),
        inv_freq.len(),
        format_significant(exact, 6),
        format_significant(float32, 6),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The worst offset by rounding every position.
    fn brute(dtype: Dtype, last: usize) -> f64 {
        let end = dtype.overflow().map_or(last, |o| last.min(o - 1));
        (0..=end)
            .map(|p| (dtype.round(p as f64) - p as f64).abs())
            .fold(0.0, f64::max)
    }

    #[test]
    fn the_worst_offset_is_what_rounding_every_position_gives() {
        for dtype in Dtype::ALL {
            let mut lasts: Vec<usize> = (0..1100).step_by(7).collect();
            lasts.extend([
                255, 256, 257, 258, 259, 511, 512, 513, 4095, 4096, 4100, 4111, 4112,
            ]);
            lasts.extend([
                4113, 9000, 2047, 2048, 2049, 2050, 65_503, 65_519, 65_520, 70_000,
            ]);
            lasts.extend([(1 << 20) - 1, 300_001]);
            for last in lasts {
                assert_eq!(
                    worst_offset(dtype, last),
                    brute(dtype, last),
                    "{dtype:?} {last}"
                );
            }
        }
    }

    #[test]
    fn the_storage_sentence_names_the_type_and_the_overflow_only_when_reached() {
        let s = storage_sentence(Dtype::Bf16, 4095);
        assert!(s.contains("exact up to 256") && s.contains("512"), "{s}");
        assert!(s.contains("16 apart around position 4\u{202F}095"), "{s}");
        let s = storage_sentence(Dtype::Bf16, 32_767);
        assert!(s.contains("128 apart around position 32\u{202F}767"), "{s}");
        assert!(storage_sentence(Dtype::Bf16, 200).contains("no position up to 200"));
        assert!(storage_sentence(Dtype::F32, (1 << 20) - 1).contains("no position"));
        assert!(!storage_sentence(Dtype::F16, 65_519).contains("infinity"));
        assert!(storage_sentence(Dtype::F16, 65_520).contains("infinity"));
    }

    #[test]
    fn the_pair_sentence_says_past_half_a_turn_only_when_it_is() {
        let small = [(0.5, 1e-6), (f64::INFINITY, 0.0)];
        assert!(!pair_sentence(0, 1.0, Dtype::Bf16, &small).contains("half a turn"));
        let big = [(3.5, 1e-6)];
        assert!(pair_sentence(0, 1.0, Dtype::Bf16, &big).contains("more than half a turn"));
        assert!(pair_sentence(3, 0.0, Dtype::F16, &big).contains("has frequency 0"));
    }
}
