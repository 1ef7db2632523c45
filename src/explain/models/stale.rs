//! The cached-keys figure's sentences (fig-models-stale): whose frequencies are drawn, which
//! frequencies the key and the query were rotated with, how far each pair is off, what that does
//! to a score, and who drops the cache. Each is a function of the settings
//! ([`crate::math::cached_keys`]).

use super::{grouped, multiplier, theta_text};
use crate::math::cached_keys::{CachedKey, Regime};
use crate::math::layers::Layer;
use crate::math::rope_scaling::{RopeScaling, dynamic_base};
use crate::params::{format_number, format_significant};
use crate::scene::models::StaleRope;
use std::f64::consts::PI;

/// An error of this many radians or more counts as "off" in the findings.
pub const NOTICEABLE: f64 = 0.1;

/// A count of tokens, grouped.
fn tokens(n: usize) -> String {
    grouped(n as u64)
}

/// "1 token", "2 048 tokens".
fn token_count(n: usize) -> String {
    if n == 1 {
        "1 token".to_string()
    } else {
        format!("{} tokens", tokens(n))
    }
}

/// The head a RoPE turns: "128 rotating coordinates, θ = 10 000, L₀ = 4 096".
fn head(s: &RopeScaling) -> String {
    format!(
        "{} rotating coordinates, θ = {}, L₀ = {}",
        s.dim,
        theta_text(s.base),
        tokens(s.original_max)
    )
}

/// Whose frequencies are drawn: the chosen layer's own, or the example, and why.
pub fn source_sentence(r: &StaleRope, chosen: usize, layer: Option<&Layer>) -> String {
    let s = &r.scaling;
    if r.layer.is_some() {
        let factor = match r.regime {
            Regime::Dynamic => format!(", factor {}", format_number(s.factor)),
            Regime::Longrope => String::new(),
        };
        let notes = if r.notes.is_empty() {
            String::new()
        } else {
            format!(" Read with notes: {}.", r.notes.join("; "))
        };
        return format!(
            "Layer {chosen}'s RoPE is {} ({}{factor}): its frequencies depend on the \
             sequence's length.{notes}",
            r.regime.label(),
            head(s)
        );
    }
    let why = match (layer.and_then(|l| l.rope.as_ref()), &r.unread) {
        (_, Some((kind, why))) => {
            format!("Layer {chosen}'s RoPE ({kind}) cannot be drawn here ({why})")
        }
        (None, None) if layer.is_some() => format!("Layer {chosen} does not rotate q and k"),
        (None, None) => format!("This model has no layer {chosen}"),
        (Some(rope), None) => format!(
            "Layer {chosen}'s RoPE ({}) computes its frequencies once, whatever the length",
            rope.rope_type
        ),
    };
    let example = match r.regime {
        Regime::Dynamic => format!(
            "dynamic NTK as transformers computes it for Llama 2 7B's head loaded with \
             rope_scaling {{\"rope_type\": \"dynamic\", \"factor\": {}}} ({}, L₀ being its \
             max_position_embeddings)",
            format_number(s.factor),
            head(s)
        ),
        Regime::Longrope => format!(
            "LongRoPE with chapter 4's synthetic lists in Phi-3-mini-128k's shape ({}; short \
             factors {}, long ones from {} to {}; not a real model's lists), as a model that \
             keeps its cache would use them",
            head(s),
            range_text(&s.short_factor),
            format_number(s.long_factor.first().copied().unwrap_or(1.0)),
            format_number(s.long_factor.last().copied().unwrap_or(1.0)),
        ),
    };
    format!("{why}, so the figure draws an example: {example}.")
}

/// When the drawn layer's query does not see the key (a sliding window or a chunk), saying so;
/// empty when it does or the example is drawn.
pub fn window_sentence(r: &StaleRope, layer: Option<&Layer>, key: usize, query: usize) -> String {
    let (Some(i), Some(layer)) = (r.layer, layer) else {
        return String::new();
    };
    let seen = layer.visible(query);
    if seen.contains(&key) {
        return String::new();
    }
    format!(
        "Layer {i} is a {} layer: its query at {} sees the keys from {} on, so the key at {} \
         is not in what it reads; the numbers are what that key would be off by.",
        layer.attention.as_str(),
        tokens(query),
        tokens(*seen.start()),
        tokens(key)
    )
}

/// Two numbers to 4 significant digits, or more until they read differently (up to 12).
fn two(a: f64, b: f64) -> (String, String) {
    crate::explain::apart(a, b, 4..=12, |x, d| format_significant(x, d as i32))
}

/// "all 1" for a constant list, else "from a to b".
fn range_text(list: &[f64]) -> String {
    let (lo, hi) = list
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(l, h), &x| {
            (l.min(x), h.max(x))
        });
    if list.is_empty() || lo == hi {
        format!(
            "all {}",
            multiplier(list.first().copied().unwrap_or(1.0), 4)
        )
    } else {
        format!(
            "from {} to {}",
            format_significant(lo, 4),
            format_significant(hi, 4)
        )
    }
}

/// The dynamic base of a sequence of `len` tokens.
fn dynamic_base_at(s: &RopeScaling, len: usize) -> f64 {
    dynamic_base(s.base, s.dim, s.factor, s.original_max, len)
}

/// The frequencies of a sequence of `len` tokens, in words (`base`: the base as printed).
fn frequencies_text(s: &RopeScaling, regime: Regime, len: usize, base: &str) -> String {
    let within = len <= s.original_max;
    match regime {
        Regime::Dynamic if within || s.dim <= 2 => "the trained frequencies".to_string(),
        Regime::Dynamic => format!("base {base}"),
        Regime::Longrope if within => "the short factors".to_string(),
        Regime::Longrope => "the long factors".to_string(),
    }
}

/// Which frequencies the key and the query were rotated with.
pub fn timeline_sentence(s: &RopeScaling, regime: Regime, c: &CachedKey) -> String {
    let (k, p) = (c.key, c.query);
    let (b_then, b_now) = two(dynamic_base_at(s, k + 1), dynamic_base_at(s, p + 1));
    let then = frequencies_text(s, regime, k + 1, &b_then);
    let now = frequencies_text(s, regime, p + 1, &b_now);
    let head = format!(
        "The key at {} was rotated with {then}, those of {} (the sequence's length when it \
         was generated; a prompt of at most L₀ tokens gives its keys the same); the query at {} \
         with those of {}, {now}",
        tokens(k),
        token_count(k + 1),
        tokens(p),
        token_count(p + 1)
    );
    if k == 0 {
        format!("{head}. A key at position 0 is not rotated at all, so it is exact.")
    } else if c.changed() {
        format!("{head}.")
    } else {
        format!("{head}: the same frequencies, so the cached key is exact.")
    }
}

/// How many pairs are off, by how much, and the largest error.
pub fn error_sentence(c: &CachedKey) -> String {
    if !c.changed() || c.key == 0 {
        return String::new();
    }
    let e = c.errors();
    let n = e.len();
    let exact = e.iter().filter(|&&x| x == 0.0).count();
    let off = e.iter().filter(|&&x| x.abs() >= NOTICEABLE).count();
    let turned = e.iter().filter(|&&x| x.abs() >= PI).count();
    let (worst, size) =
        e.iter().enumerate().fold(
            (0, 0.0f64),
            |(w, m), (i, &x)| if x.abs() > m { (i, x.abs()) } else { (w, m) },
        );
    let exact = match exact {
        0 => String::new(),
        1 => " 1 pair keeps its frequency and is exact.".to_string(),
        z => format!(" {z} pairs keep their frequency and are exact."),
    };
    let turned = match turned {
        0 => String::new(),
        t => format!(
            ", {t} of them by π or more (past π an error only wraps around: the pair may point \
             anywhere)"
        ),
    };
    let (now, then) = two(c.now[worst], c.then[worst]);
    format!(
        "Pairs off by {} rad or more: {off} of {n}{turned}; the largest error is pair \
         {worst}'s, {} rad: {} × |{now} − {then}|.{exact}",
        NOTICEABLE,
        format_significant(size, 4),
        tokens(c.key),
    )
}

/// The query's score with the key for all-ones q and k, cached against recomputed.
pub fn score_sentence(c: &CachedKey) -> String {
    if !c.changed() || c.key == 0 {
        return String::new();
    }
    let (cached, fresh) = c.ones_scores();
    let factor = if c.attention == 1.0 {
        String::new()
    } else {
        format!(
            " (the attention factor {} scales both, squared)",
            format_significant(c.attention, 4)
        )
    };
    format!(
        "With q = k = all ones over the rotating coordinates, the query's score with this key \
         is {} from the cache, {} with the key rotated by the query's frequencies{factor}.",
        format_significant(cached, 4),
        format_significant(fresh, 4)
    )
}

/// What transformers 5.24 does with the cache under `regime`.
pub fn cache_sentence(regime: Regime) -> String {
    match regime {
        Regime::Dynamic => "transformers 5.24 keeps every cached key when dynamic NTK changes \
                            the frequencies: dynamic_frequency_update changes inv_freq (its \
                            attention factor stays 1) and nothing rebuilds the cache, so \
                            generation with its cache reads the keys as drawn here."
            .to_string(),
        Regime::Longrope => {
            "In transformers 5.24 only Phi-3 rebuilds: its prepare_inputs_for_generation drops \
             the cache the first time the input is longer than its L₀ while the cache holds at \
             most L₀ tokens, and the whole sequence is recomputed with the long factors (no \
             error, for one prefill of the sequence). A model of another type given rope_type \
             longrope keeps its keys, with the error drawn here. PhiMoE drops its cache at the \
             same step, but its rotary embedding keeps the short factors at every length (only \
             its cos/sin scale switches); Phi-4-multimodal drops it but leaves generate's \
             next_sequence_length at 1."
                .to_string()
        }
    }
}

/// The readout for pair `i`.
pub fn pair_readout(c: &CachedKey, i: usize) -> String {
    let (then, now) = (c.then[i], c.now[i]);
    let wave = |w: f64| {
        if w == 0.0 {
            "no wavelength".to_string()
        } else {
            format!("wavelength {} tokens", format_significant(2.0 * PI / w, 4))
        }
    };
    let (then_text, now_text) = two(then, now);
    let e = c.error(i);
    let wrapped = crate::math::plane::wrap(e);
    format!(
        "Pair {i}: ω = {then_text} for the key at {} ({}), {now_text} for the query ({}); the \
         key is off by {} rad{}.",
        tokens(c.key),
        wave(then),
        wave(now),
        format_significant(e, 4),
        if e.abs() > PI {
            format!(", which wraps to {} rad", format_significant(wrapped, 3))
        } else {
            String::new()
        }
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::cached_keys::example;

    #[test]
    fn the_default_sentences_read_the_computed_numbers() {
        let s = example(Regime::Dynamic);
        let c = CachedKey::of(&s, 2048, 32_767);
        let t = timeline_sentence(&s, Regime::Dynamic, &c);
        assert!(t.contains("rotated with the trained frequencies"), "{t}");
        let e = error_sentence(&c);
        assert!(
            e.contains("or more: 63 of 64,") && e.contains("1 pair keeps"),
            "{e}"
        );
        let before = CachedKey::of(&s, 2048, 4095);
        assert!(timeline_sentence(&s, Regime::Dynamic, &before).contains("exact"));
        assert!(error_sentence(&before).is_empty() && score_sentence(&before).is_empty());
    }
}
