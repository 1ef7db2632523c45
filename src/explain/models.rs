//! Chapter 5's sentences ("RoPE as today's models ship it"): what a layer does, what a model's
//! pattern of layers adds up to (counts, the KV cache against every layer full), how far back a
//! query reaches through the layers, and what each raw config field that decides a layer means —
//! each a function of the model read from its config ([`crate::math::layers`]).

use std::fmt;

use super::count;
use crate::math::layers::kv::{CacheBytes, cache_bytes};
use crate::math::layers::{Attention, Layer, Model, earliest_reached};
use crate::params::format_significant;

mod fields;
pub mod partial;
pub mod precision;
pub mod stale;
pub mod temperature;
pub mod yarn;
pub use fields::{RawField, raw_fields};

/// Bytes a cached number takes: bfloat16, the dtype these models ship in.
pub const BYTES_PER_NUMBER: usize = 2;

/// A whole number with narrow no-break spaces between thousands: 1 000 000 (a line never breaks
/// inside it, as it would at a thin space).
pub fn grouped(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (k, c) in digits.chars().enumerate() {
        if k > 0 && (digits.len() - k).is_multiple_of(3) {
            out.push('\u{202F}');
        }
        out.push(c);
    }
    out
}

/// A multiplier to `digits` significant digits, exactly 1 as "1" (not "1.00000"): "1.16094".
pub fn multiplier(x: f64, digits: i32) -> String {
    if x == 1.0 {
        "1".to_string()
    } else {
        crate::params::format_significant(x, digits)
    }
}

/// A θ as the configs write it, grouped when whole: 10 000, 1 000 000, 5e6 → 5 000 000.
pub fn theta_text(theta: f64) -> String {
    if theta.fract() == 0.0 && theta < 1e15 {
        grouped(theta as u64)
    } else {
        format_significant(theta, 6)
    }
}

/// Bytes in binary units: 512 B, 12.0 KiB, 3.25 MiB, 1.50 GiB.
pub fn bytes_text(bytes: f64) -> String {
    const UNITS: [&str; 4] = ["KiB", "MiB", "GiB", "TiB"];
    if bytes < 1024.0 {
        return format!("{} B", format_significant(bytes, 3));
    }
    let mut value = bytes / 1024.0;
    let mut unit = 0;
    // Move up while the value, rounded to three digits, would read 1024 or more.
    let shown = |v: f64| format_significant(v, 3).parse::<f64>().unwrap_or(v);
    while shown(value) >= 1024.0 && unit < UNITS.len() - 1 {
        value /= 1024.0;
        unit += 1;
    }
    // Moved up from a value that rounds to 1024: just under 1 of the new unit, which reads 1.00.
    let value = value.max(1.0);
    format!("{} {}", format_significant(value, 3), UNITS[unit])
}

/// Which keys a layer's query at `p` sees, in words: "the last 1024 keys (p − 1023 … p)".
pub fn attention_text(layer: &Layer) -> String {
    match (layer.attention, layer.window) {
        (Attention::Sliding, Some(w)) => format!(
            "sliding window: a query at p sees the last {} keys, p − {} … p",
            grouped(w as u64),
            grouped(w.saturating_sub(1) as u64)
        ),
        (Attention::Chunked, Some(c)) => format!(
            "chunked: a query at p sees the keys of its own chunk of {} up to p, {c}·⌊p/{c}⌋ … p",
            grouped(c as u64),
            c = c
        ),
        _ => "full attention: a query at p sees every key 0 … p".to_string(),
    }
}

/// A layer in one sentence: "Layer 5: full attention: …; RoPE linear, θ = 1 000 000."
pub fn layer_text(index: usize, layer: &Layer) -> String {
    let rope = match &layer.rope {
        Some(r) => format!("RoPE \"{}\" with θ = {}", r.rope_type, theta_text(r.theta)),
        None => "no RoPE (q and k are not rotated)".to_string(),
    };
    format!("Layer {index}: {}; {rope}.", attention_text(layer))
}

/// The kinds of layer the chapter tells apart (which keys, and whether q and k rotate), in
/// the legend's order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// Full attention with RoPE.
    Full,
    /// Full attention without RoPE.
    FullNoRope,
    /// A sliding window with RoPE.
    Sliding,
    /// A sliding window without RoPE.
    SlidingNoRope,
    /// Chunked attention with RoPE.
    Chunked,
    /// Chunked attention without RoPE.
    ChunkedNoRope,
}

impl Kind {
    /// Every kind, in the legend's order.
    pub const ALL: [Kind; 6] = [
        Kind::Full,
        Kind::FullNoRope,
        Kind::Sliding,
        Kind::SlidingNoRope,
        Kind::Chunked,
        Kind::ChunkedNoRope,
    ];

    /// The kind of `layer`.
    pub fn of(layer: &Layer) -> Kind {
        let rope = layer.rope.is_some();
        match (layer.attention, layer.window, rope) {
            (Attention::Sliding, Some(_), true) => Kind::Sliding,
            (Attention::Sliding, Some(_), false) => Kind::SlidingNoRope,
            (Attention::Chunked, Some(_), true) => Kind::Chunked,
            (Attention::Chunked, Some(_), false) => Kind::ChunkedNoRope,
            (_, _, true) => Kind::Full,
            (_, _, false) => Kind::FullNoRope,
        }
    }

    /// Its name in the legend and the findings.
    pub fn label(self) -> &'static str {
        match self {
            Kind::Full => "full with RoPE",
            Kind::FullNoRope => "full without RoPE",
            Kind::Sliding => "sliding window with RoPE",
            Kind::SlidingNoRope => "sliding window without RoPE",
            Kind::Chunked => "chunked with RoPE",
            Kind::ChunkedNoRope => "chunked without RoPE",
        }
    }

    /// Whether its query sees only part of the keys (a window or a chunk).
    pub fn windowed(self) -> bool {
        !matches!(self, Kind::Full | Kind::FullNoRope)
    }
}

/// Layers of each kind among `layers`, in [`Kind::ALL`]'s order.
pub fn kind_counts(layers: &[Layer]) -> [usize; 6] {
    let mut counts = [0; 6];
    for l in layers {
        let kind = Kind::of(l);
        counts[Kind::ALL.iter().position(|&k| k == kind).unwrap_or(0)] += 1;
    }
    counts
}

/// "5 full with RoPE", "29 sliding window with RoPE": one part per kind present, in
/// [`Kind::ALL`]'s order, from [`kind_counts`].
pub fn kind_parts(counts: [usize; 6]) -> Vec<String> {
    Kind::ALL
        .iter()
        .zip(counts)
        .filter(|(_, n)| *n > 0)
        .map(|(k, n)| format!("{n} {}", k.label()))
        .collect()
}

/// What a model's pattern adds up to after `tokens` tokens: its layers by kind, and its KV cache
/// against the same model with every layer full.
#[derive(Clone, Debug, PartialEq)]
pub struct PatternFinding {
    /// Layers of each kind, in [`Kind::ALL`]'s order.
    pub kinds: [usize; 6],
    /// Distinct windows (sliding) and chunks, ascending.
    pub windows: Vec<usize>,
    /// What the next token adds to the cache, in bytes.
    pub next_token: u64,
    /// Tokens so far.
    pub tokens: usize,
    /// The cache, in bytes.
    pub bytes: CacheBytes,
}

impl PatternFinding {
    /// The finding for `model` after `tokens` tokens.
    pub fn new(model: &Model, tokens: usize) -> PatternFinding {
        let mut windows: Vec<usize> = model
            .layers
            .iter()
            .filter(|l| Kind::of(l).windowed())
            .filter_map(|l| l.window)
            .collect();
        windows.sort_unstable();
        windows.dedup();
        let bytes = |t| cache_bytes(&model.layers, &model.widths, t, BYTES_PER_NUMBER);
        let now = bytes(tokens);
        PatternFinding {
            kinds: kind_counts(&model.layers),
            windows,
            next_token: bytes(tokens + 1).pattern - now.pattern,
            tokens,
            bytes: now,
        }
    }
}

impl fmt::Display for PatternFinding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let total: usize = self.kinds.iter().sum();
        let parts = kind_parts(self.kinds);
        write!(
            f,
            "{}: {}",
            count(total, "layer", "layers"),
            parts.join("; ")
        )?;
        let (pattern, full) = (self.bytes.pattern as f64, self.bytes.all_full as f64);
        write!(
            f,
            ". After {} tokens of one sequence its KV cache holds {} in bfloat16 (the next \
             token adds {}), against {} with every layer full",
            grouped(self.tokens as u64),
            bytes_text(pattern),
            bytes_text(self.next_token as f64),
            bytes_text(full),
        )?;
        let filling = self.windows.iter().all(|&w| w >= self.tokens);
        if self.bytes.pattern == self.bytes.all_full {
            if self.windows.is_empty() {
                write!(f, ": the same, since no layer has a window or a chunk")?;
            } else {
                write!(f, ": the same, since no window or chunk has filled yet")?;
            }
        } else if filling {
            write!(
                f,
                ": its windows have only just filled, and a layer whose window is {} keeps one \
                 position fewer",
                grouped(self.tokens as u64)
            )?;
        } else if full < 1.1 * pattern {
            write!(f, ": {} less", bytes_text(full - pattern))?;
        } else {
            let ratio = full / pattern.max(1.0);
            write!(f, ": {}× less", format_significant(ratio, 3))?;
        }
        write!(f, ".")
    }
}

/// How far back a query reaches: directly in layer `layer`, and through every layer up to it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ReachFinding {
    /// The query's position.
    pub query: usize,
    /// The chosen layer, from 0.
    pub layer: usize,
    /// The first key the chosen layer's query sees.
    pub direct: usize,
    /// The earliest position whose token reaches it through layers 0 … layer.
    pub through: usize,
    /// The earliest position reached through every layer of the model.
    pub whole: usize,
    /// The model's layers.
    pub layers: usize,
}

impl ReachFinding {
    /// The finding for the query at `query` and layer `layer` of `layers`.
    pub fn new(layers: &[Layer], layer: usize, query: usize) -> ReachFinding {
        let layer = layer.min(layers.len().saturating_sub(1));
        ReachFinding {
            query,
            layer,
            direct: layers.get(layer).map_or(0, |l| *l.visible(query).start()),
            through: earliest_reached(&layers[..(layer + 1).min(layers.len())], query),
            whole: earliest_reached(layers, query),
            layers: layers.len(),
        }
    }
}

impl fmt::Display for ReachFinding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let keys = self.query - self.direct + 1;
        write!(
            f,
            "In layer {}, the query at position {} attends to {} {}, {} … {}",
            self.layer,
            grouped(self.query as u64),
            grouped(keys as u64),
            if keys == 1 { "key" } else { "keys" },
            grouped(self.direct as u64),
            grouped(self.query as u64),
        )?;
        let reached = |from: usize| {
            if self.query == 0 {
                "only its own position, 0".to_string()
            } else if from == 0 {
                "every token up to it, from position 0".to_string()
            } else {
                format!("tokens from position {} on", grouped(from as u64))
            }
        };
        if self.through < self.direct {
            write!(
                f,
                "; through layers 0 … {}, information from {} can reach it",
                self.layer,
                reached(self.through)
            )?;
        } else if self.layer > 0 {
            write!(
                f,
                "; the layers below bring it nothing from farther back ({})",
                reached(self.through)
            )?;
        }
        if self.layer + 1 < self.layers {
            write!(
                f,
                ". Through all {} layers: {}",
                self.layers,
                reached(self.whole)
            )?;
        }
        write!(f, ".")
    }
}
