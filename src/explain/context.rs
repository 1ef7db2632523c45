//! Chapter 3, "Stretching the context": the sentences that depend on the settings.
//!
//! Each sentence is a typed claim decided from the math's outputs — the per-pair slow-downs
//! `θ_i/θ′_i` of [`crate::math::rope_scaling::RopeScaling::scale_per_pair`], YaRN's correction range, each pair's reach of
//! the circle ([`reach`]) — and its `Display` is the text the page shows. `tests/claims_context.rs`
//! sweeps the chapter's parameter space and re-derives every claim by brute force.

use std::fmt;

use super::count;
use crate::math::rope::inv_freq;
use crate::math::rope_extension::{PairReach, reach};
use crate::math::rope_scaling::{
    RopeType, dynamic_base, yarn_correction_dim, yarn_correction_range,
};
use crate::params::context::ContextView;
use crate::params::{format_number, round_significant};
use crate::scene::context::{length_text, method_name};

/// `x` to six significant digits, without trailing zeros: "4", "1.13863", "135402".
pub fn sig(x: f64) -> String {
    format_number(round_significant(x, 6))
}

/// `a` and `b` with as few significant digits (at least 6) as keep two different values from
/// printing alike.
pub fn distinct(a: f64, b: f64) -> (String, String) {
    for digits in 6..=17 {
        let (x, y) = (
            format_number(round_significant(a, digits)),
            format_number(round_significant(b, digits)),
        );
        if a == b || x != y {
            return (x, y);
        }
    }
    (format_number(a), format_number(b))
}

/// The indices as ranges: "0 … 20", "3, 5 … 9", or "none".
pub fn ranges(indices: &[usize]) -> String {
    let mut out: Vec<String> = Vec::new();
    let mut k = 0;
    while k < indices.len() {
        let start = indices[k];
        let mut end = start;
        while k + 1 < indices.len() && indices[k + 1] == end + 1 {
            k += 1;
            end = indices[k];
        }
        out.push(if start == end {
            start.to_string()
        } else {
            format!("{start} … {end}")
        });
        k += 1;
    }
    if out.is_empty() {
        "none".into()
    } else {
        out.join(", ")
    }
}

/// What a scaling does to one pair, read off its slow-down `k = θ/θ′` and the factor `s`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PairFate {
    /// `k = 1` (to 1e-9): the pair keeps its trained frequency.
    Kept,
    /// `1 < k < s`: slowed, but less than `s`.
    Between,
    /// `k = s` (to 1e-9 relative): fully interpolated.
    Divided,
    /// `k > s`.
    Beyond,
    /// `k < 1`: sped up (a LongRoPE list entry below 1).
    Faster,
}

/// The fate of a pair slowed `k` times under factor `s` (kept wins when `s = 1`).
pub fn fate(k: f64, s: f64) -> PairFate {
    if (k - 1.0).abs() <= 1e-9 {
        PairFate::Kept
    } else if (k - s).abs() <= 1e-9 * s {
        PairFate::Divided
    } else if k < 1.0 {
        PairFate::Faster
    } else if k < s {
        PairFate::Between
    } else {
        PairFate::Beyond
    }
}

/// The pairs of each fate, in pair order.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Groups {
    /// Kept (`k = 1`).
    pub kept: Vec<usize>,
    /// Slowed less than `s`.
    pub between: Vec<usize>,
    /// Divided by exactly `s`.
    pub divided: Vec<usize>,
    /// Slowed more than `s`.
    pub beyond: Vec<usize>,
    /// Sped up.
    pub faster: Vec<usize>,
    /// The factor `s`.
    pub factor: f64,
}

impl fmt::Display for Groups {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let s = sig(self.factor);
        let n = |v: &Vec<usize>| count(v.len(), "pair", "pairs");
        let mut parts = Vec::new();
        if !self.kept.is_empty() {
            parts.push(format!(
                "keeps {} as trained ({})",
                n(&self.kept),
                ranges(&self.kept)
            ));
        }
        if !self.between.is_empty() {
            parts.push(format!(
                "slows {} by less than s ({})",
                n(&self.between),
                ranges(&self.between)
            ));
        }
        if !self.divided.is_empty() {
            parts.push(format!(
                "divides {} by exactly s = {s} ({})",
                n(&self.divided),
                ranges(&self.divided)
            ));
        }
        if !self.beyond.is_empty() {
            parts.push(format!(
                "slows {} by more than s = {s} ({})",
                n(&self.beyond),
                ranges(&self.beyond)
            ));
        }
        if !self.faster.is_empty() {
            parts.push(format!(
                "speeds up {} ({})",
                n(&self.faster),
                ranges(&self.faster)
            ));
        }
        let text = match parts.len() {
            0 => String::new(),
            1 => parts.remove(0),
            _ => {
                let last = parts.pop().unwrap_or_default();
                format!("{} and {last}", parts.join(", "))
            }
        };
        write!(f, "{text}")
    }
}

/// What a method does to the pairs, as a whole: the sentence under the wavelength figure.
#[derive(Clone, Debug, PartialEq)]
pub enum StretchClaim {
    /// Every pair keeps its frequency.
    NoneStretched {
        /// The method's name.
        method: &'static str,
        /// How many pairs.
        pairs: usize,
    },
    /// Every pair is divided by exactly `s > 1`.
    EveryPairDivided {
        /// The method's name.
        method: &'static str,
        /// How many pairs.
        pairs: usize,
        /// `s`.
        factor: f64,
    },
    /// Slow-downs never fall from pair to pair; the fastest pair is kept, the slowest is not.
    FastKeptSlowStretched {
        /// The method's name.
        method: &'static str,
        /// The pairs by fate.
        groups: Groups,
    },
    /// Slow-downs never fall from pair to pair, every pair is slowed, not all alike.
    SlowerPairsMore {
        /// The method's name.
        method: &'static str,
        /// The pairs by fate.
        groups: Groups,
    },
    /// Slow-downs never rise from pair to pair; the fastest pair is slowed, the slowest kept.
    FastStretchedSlowKept {
        /// The method's name.
        method: &'static str,
        /// The pairs by fate.
        groups: Groups,
    },
    /// Anything else.
    Uneven {
        /// The method's name.
        method: &'static str,
        /// The pairs by fate.
        groups: Groups,
    },
}

/// Decides the [`StretchClaim`] of a method with factor `s` from its per-pair slow-downs.
pub fn stretch_claim(rope_type: RopeType, s: f64, scale: &[f64]) -> StretchClaim {
    let method = method_name(rope_type);
    let pairs = scale.len();
    let mut groups = Groups {
        factor: s,
        ..Groups::default()
    };
    for (i, &k) in scale.iter().enumerate() {
        match fate(k, s) {
            PairFate::Kept => groups.kept.push(i),
            PairFate::Between => groups.between.push(i),
            PairFate::Divided => groups.divided.push(i),
            PairFate::Beyond => groups.beyond.push(i),
            PairFate::Faster => groups.faster.push(i),
        }
    }
    let rising = scale.windows(2).all(|w| w[1] >= w[0] * (1.0 - 1e-12));
    let falling = scale.windows(2).all(|w| w[1] <= w[0] * (1.0 + 1e-12));
    let is_kept = |i: usize| groups.kept.contains(&i);
    let last = pairs.saturating_sub(1);
    if groups.kept.len() == pairs {
        StretchClaim::NoneStretched { method, pairs }
    } else if groups.divided.len() == pairs {
        StretchClaim::EveryPairDivided {
            method,
            pairs,
            factor: s,
        }
    } else if rising && is_kept(0) {
        StretchClaim::FastKeptSlowStretched { method, groups }
    } else if rising && groups.faster.is_empty() && groups.kept.is_empty() {
        StretchClaim::SlowerPairsMore { method, groups }
    } else if falling && is_kept(last) && groups.faster.is_empty() {
        StretchClaim::FastStretchedSlowKept { method, groups }
    } else {
        StretchClaim::Uneven { method, groups }
    }
}

impl fmt::Display for StretchClaim {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StretchClaim::NoneStretched { method, pairs } => write!(
                f,
                "Here {method} changes no frequency: {} as trained.",
                if *pairs == 1 {
                    "its only pair keeps θ".to_string()
                } else {
                    format!("all {pairs} pairs keep θ")
                }
            ),
            StretchClaim::EveryPairDivided {
                method,
                pairs,
                factor,
            } => write!(
                f,
                "Here {method} divides every frequency by s = {}: {}, the fast ones too, turn s times slower.",
                sig(*factor),
                if *pairs == 1 {
                    "the only pair".to_string()
                } else {
                    format!("all {pairs} pairs")
                }
            ),
            StretchClaim::FastKeptSlowStretched { method, groups } => write!(
                f,
                "Here {method} leaves the fast end alone and stretches the slow end: it {groups}."
            ),
            StretchClaim::SlowerPairsMore { method, groups } => write!(
                f,
                "Here {method} slows every pair, the slower ones at least as much: it {groups}."
            ),
            StretchClaim::FastStretchedSlowKept { method, groups } => write!(
                f,
                "Here {method} stretches the fast end and leaves the slow end alone, the reverse of what it is meant for: it {groups}."
            ),
            StretchClaim::Uneven { method, groups } => {
                write!(f, "Here {method} slows the pairs unevenly: it {groups}.")
            }
        }
    }
}

/// How YaRN's ramp comes out (`find_correction_range` in transformers' `_compute_yarn_parameters`).
#[derive(Clone, Debug, PartialEq)]
pub struct YarnRamp {
    /// `beta_fast`, `beta_slow`.
    pub betas: (f64, f64),
    /// `find_correction_dim` of each, unrounded.
    pub raw: (f64, f64),
    /// Floored/ceiled (`truncate`), before the clamp.
    pub rounded: (f64, f64),
    /// After the clamp to `[0, d − 1]`: the ramp's `(low, high)`.
    pub ends: (f64, f64),
    /// `truncate`.
    pub truncate: bool,
    /// The rotary dimension `d`.
    pub dim: usize,
}

/// YaRN's ramp at the view's settings.
pub fn yarn_ramp(v: &ContextView) -> YarnRamp {
    let c = v.scaling(RopeType::Yarn, v.target, None);
    let raw = (
        yarn_correction_dim(c.beta_fast, c.dim, c.base, c.original_max),
        yarn_correction_dim(c.beta_slow, c.dim, c.base, c.original_max),
    );
    let rounded = if c.truncate {
        (raw.0.floor(), raw.1.ceil())
    } else {
        raw
    };
    YarnRamp {
        betas: (c.beta_fast, c.beta_slow),
        raw,
        rounded,
        ends: yarn_correction_range(&c),
        truncate: c.truncate,
        dim: c.dim,
    }
}

impl fmt::Display for YarnRamp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (bf, bs) = self.betas;
        let (fast, slow) = distinct(self.raw.0, self.raw.1);
        let pairs = self.dim / 2;
        write!(
            f,
            "YaRN ramps between the pair indices that turn β_fast = {} and β_slow = {} times within L₀: {fast} and {slow} (find_correction_dim)",
            sig(bf),
            sig(bs)
        )?;
        if self.truncate {
            let (a, b) = distinct(self.rounded.0, self.rounded.1);
            write!(f, ", floored and ceiled to {a} and {b} (truncate)")?;
        } else {
            write!(f, ", not rounded (truncate = false)")?;
        }
        let (low, high) = self.ends;
        let (lo_text, hi_text) = distinct(low, high);
        if self.ends != self.rounded {
            write!(
                f,
                ", then clamped to 0 … d − 1 = {} — the head's coordinates, not its {} — giving {lo_text} and {hi_text}",
                self.dim - 1,
                count(pairs, "pair", "pairs")
            )?;
        }
        if low < high {
            write!(
                f,
                ". The ramp is 0 (θ kept) up to index {lo_text} and 1 (θ divided by s) from index {hi_text}, blended between"
            )?;
            if high > (pairs.saturating_sub(1)) as f64 && low < (pairs.saturating_sub(1)) as f64 {
                write!(
                    f,
                    "; index {hi_text} lies past the last pair, {}, so no pair is fully divided",
                    pairs.saturating_sub(1)
                )?;
            }
            write!(f, ".")
        } else if low == high {
            write!(
                f,
                ". Both ends are {lo_text}, so transformers adds 0.001 to the slow end and the ramp is a step: θ kept up to index {lo_text}, divided by s above it."
            )
        } else {
            let why = if self.rounded.0 > self.rounded.1 {
                "β_fast is below β_slow"
            } else {
                "the clamp moved an end"
            };
            write!(
                f,
                ". The ends are inverted ({lo_text} > {hi_text}: {why}), so transformers' ramp runs backwards: θ divided by s up to index {hi_text}, kept from index {lo_text}, blended between."
            )
        }
    }
}

/// What the chosen method is, with this view's numbers: the first sentence under the wavelength
/// figure (the second is the [`StretchClaim`]).
pub fn mechanism_text(v: &ContextView, lists: Option<&(Vec<f64>, Vec<f64>)>) -> String {
    let l0 = v.original as f64;
    match v.rope_type {
        RopeType::Default => "Plain RoPE: nothing is rescaled.".into(),
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
        RopeType::Ntk | RopeType::Dynamic if v.dim <= 2 => format!(
            "With a single pair (head_dim 2) {} changes nothing: θ₀ = base⁰ = 1 for every base. (Its exponent d/(d − 2) is undefined at d = 2: transformers divides by zero; this page takes it as 1.)",
            method_name(v.rope_type)
        ),
        RopeType::Ntk => ntk_claim(v).to_string(),
        RopeType::Dynamic => format!(
            "Dynamic NTK is NTK-aware scaling whose base follows the length L = max(current length, L₀): base·(s·L/L₀ − (s − 1))^(d/(d−2)), here at L = T = {}: base {}.",
            length_text(v.target),
            sig(dynamic_base(v.base, v.dim, v.factor, v.original, v.target))
        ),
        RopeType::Longrope => {
            let own = lists.is_some_and(|(s, l)| s.len() == v.dim / 2 && l.len() == v.dim / 2);
            let which = if v.target > v.original {
                "T > L₀, so the long list applies here"
            } else {
                "T ≤ L₀, so the short list applies here"
            };
            let source = if own {
                "here the model's own lists"
            } else {
                "here synthetic lists, short all 1 and long rising from 1 to s; real lists come from LongRoPE's search for each model (Ding et al. 2024), and a real short_factor is not all 1 either"
            };
            format!(
                "LongRoPE divides each pair's frequency by its own factor from a list: long_factor once the sequence is longer than L₀, else short_factor ({which}; {source}). When generation carries a sequence past L₀, the keys already cached were rotated with the short factors; transformers' Phi-3 drops its cache at that step and recomputes it."
            )
        }
    }
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

/// A pair's slow-down `θ/θ′` for the readout, with enough digits that a value that is neither 1
/// nor `s` does not print as either.
pub fn slowdown_text(k: f64, s: f64) -> String {
    match fate(k, s) {
        PairFate::Kept => "1".into(),
        PairFate::Divided => sig(s),
        _ => {
            for digits in 4..=17 {
                let t = format_number(round_significant(k, digits));
                // 4 digits at least, more until it differs from both 1 and s.
                if t != "1" && t != format_number(round_significant(s, digits)) {
                    return t;
                }
            }
            format_number(k)
        }
    }
}

/// Whether a share of a turn reaches past the trained arc by more than half a degree (a sliver
/// below that is rounding of the interpolation, not new angles).
pub fn past_arc(share: f64) -> bool {
    share * 360.0 > 0.5
}

/// How many pairs turn less than once over the trained positions and how many the target
/// takes past their trained arc, before and after scaling: the turns figure's summary.
#[derive(Clone, Debug, PartialEq)]
pub struct TurnsClaim {
    /// Pairs whose trained angles cover less than a full turn.
    pub slow: usize,
    /// All pairs.
    pub pairs: usize,
    /// `L₀`.
    pub original: usize,
    /// `T`.
    pub target: usize,
    /// The method.
    pub method: &'static str,
    /// Pairs taken past their arc by `T` without scaling.
    pub plain_new: usize,
    /// The same after scaling.
    pub scaled_new: usize,
}

/// The [`TurnsClaim`] of `reach` (from [`reach`]).
pub fn turns_claim(
    r: &[PairReach],
    rope_type: RopeType,
    original: usize,
    target: usize,
) -> TurnsClaim {
    TurnsClaim {
        slow: r.iter().filter(|p| p.seen < 1.0).count(),
        pairs: r.len(),
        original,
        target,
        method: method_name(rope_type),
        plain_new: r.iter().filter(|p| past_arc(p.unseen_plain())).count(),
        scaled_new: r.iter().filter(|p| past_arc(p.unseen_scaled())).count(),
    }
}

/// "18 of 64 pairs turn less than once", "1 of 64 pairs turns less than once".
pub fn slow_pairs_text(slow: usize, pairs: usize) -> String {
    format!(
        "{slow} of {} {} less than once",
        count(pairs, "pair", "pairs"),
        if slow == 1 { "turns" } else { "turn" }
    )
}

impl fmt::Display for TurnsClaim {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} over the trained positions 0 … L₀ − 1 (L₀ = {}). Up to T = {}, plain RoPE takes {} more than half a degree past every angle training showed them; after {}, {}.",
            slow_pairs_text(self.slow, self.pairs),
            length_text(self.original),
            length_text(self.target),
            count(self.plain_new, "pair", "pairs"),
            self.method,
            self.scaled_new
        )
    }
}

/// The view's [`TurnsClaim`] for method `rope_type`.
pub fn view_turns(
    v: &ContextView,
    rope_type: RopeType,
    lists: Option<&(Vec<f64>, Vec<f64>)>,
) -> TurnsClaim {
    let plain = inv_freq(v.dim, v.base);
    let scaled = v.scaling(rope_type, v.target, lists).compute().0;
    turns_claim(
        &reach(&plain, &scaled, v.original, v.target),
        rope_type,
        v.original,
        v.target,
    )
}

/// NTK-aware scaling with factor `s`: only the slowest pair is slowed `s` times, so it does not
/// reach `s·L₀` (YaRN §3.1); the counts come from the turns figure's own test.
#[derive(Clone, Debug, PartialEq)]
pub struct NtkClaim {
    /// `s`.
    pub factor: f64,
    /// The slow-down of the fastest pair that turns less than once within L₀, and its index.
    pub first_slow: Option<(usize, f64)>,
    /// Pairs under one turn within L₀.
    pub slow: usize,
    /// Pairs past their trained arc by T after NTK-aware scaling.
    pub ntk_past: usize,
    /// The same after linear interpolation with the same s.
    pub linear_past: usize,
    /// `T`.
    pub target: usize,
}

/// The view's [`NtkClaim`].
pub fn ntk_claim(v: &ContextView) -> NtkClaim {
    let ntk = view_turns(v, RopeType::Ntk, None);
    let linear = view_turns(v, RopeType::Linear, None);
    let plain = inv_freq(v.dim, v.base);
    let scale = v.scaling(RopeType::Ntk, v.target, None).scale_per_pair();
    let l0 = v.original.saturating_sub(1) as f64;
    let first_slow = plain
        .iter()
        .position(|t| l0 * t < std::f64::consts::TAU)
        .map(|i| (i, scale[i]));
    NtkClaim {
        factor: v.factor,
        first_slow,
        slow: ntk.slow,
        ntk_past: ntk.scaled_new,
        linear_past: linear.scaled_new,
        target: v.target,
    }
}

impl fmt::Display for NtkClaim {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "NTK-aware scaling raises the base to base·s^(d/(d−2)): pair i is slowed s^(2i/(d−2)) times, so the fastest pair is untouched and only the slowest is slowed the full s = {}.",
            sig(self.factor)
        )?;
        if let Some((i, k)) = self
            .first_slow
            .filter(|&(_, k)| fate(k, self.factor) == PairFate::Between)
        {
            let which = if self.slow == 1 {
                "the only pair that turns less than once within L₀".to_string()
            } else {
                format!(
                    "the fastest of the {} that turn less than once within L₀",
                    self.slow
                )
            };
            write!(
                f,
                " Pair {i}, {which}, is slowed only {}×.",
                slowdown_text(k, self.factor)
            )?;
        }
        let t = length_text(self.target);
        if self.ntk_past > self.linear_past {
            write!(
                f,
                " So up to T = {t} NTK-aware still takes {} past their trained arc, against {} after linear interpolation with the same s: with factor s it covers less, and YaRN §3.1 notes that its s has to be set higher than the expected scale.",
                count(self.ntk_past, "pair", "pairs"),
                self.linear_past
            )?;
        } else if self.ntk_past > 0 {
            write!(
                f,
                " Up to T = {t} it takes {} past their trained arc (linear interpolation with the same s: {}).",
                count(self.ntk_past, "pair", "pairs"),
                self.linear_past
            )?;
        } else {
            write!(f, " Up to T = {t} it takes no pair past its trained arc.")?;
        }
        write!(f, " It is fixed: short inputs get the same frequencies.")
    }
}

/// The dynamic-NTK curve as the plot draws it, for its text alternative.
pub fn dynamic_curve_text(v: &ContextView, end: usize) -> String {
    let trained = sig(v.base);
    if v.original >= end {
        format!(
            "flat at the trained base {trained} across the whole axis (up to {}), since L₀ = {} lies at or past its end",
            length_text(end),
            length_text(v.original)
        )
    } else {
        format!(
            "flat at {trained} up to L₀ = {}, then rising to {} at L = {}",
            length_text(v.original),
            sig(dynamic_base(v.base, v.dim, v.factor, v.original, end)),
            length_text(end)
        )
    }
}

/// What transformers 5.24's `dynamic_frequency_update` does when calls of different lengths
/// follow one another: it recomputes only when a length passes the cached maximum, and goes back
/// to the trained frequencies only for a sequence shorter than L₀ after having grown.
#[derive(Clone, Debug, PartialEq)]
pub struct DynamicRuntime {
    /// `L₀`.
    pub original: usize,
    /// The long call (T).
    pub long: usize,
    /// A later, shorter call, `L₀ < later < long`.
    pub later: usize,
    /// The base after the long call.
    pub long_base: f64,
    /// The base the formula gives for the later call.
    pub later_base: f64,
    /// The trained base.
    pub base: f64,
}

/// The view's [`DynamicRuntime`], when `T` leaves room for a call between `L₀` and `T`.
pub fn dynamic_runtime(v: &ContextView) -> Option<DynamicRuntime> {
    (v.target > v.original + 1).then(|| {
        let later = v.original + (v.target - v.original) / 2;
        let b = |len| dynamic_base(v.base, v.dim, v.factor, v.original, len);
        DynamicRuntime {
            original: v.original,
            long: v.target,
            later,
            long_base: b(v.target),
            later_base: b(later),
            base: v.base,
        }
    })
}

impl fmt::Display for DynamicRuntime {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (long, later) = distinct(self.long_base, self.later_base);
        let (long2, trained) = distinct(self.long_base, self.base);
        write!(
            f,
            "With these settings: after a {}-token call (base {long}), a {}-token call keeps base {long} instead of {later}, and so does a call of exactly L₀ = {} tokens (base {long2}, not the trained {trained}); only a call shorter than L₀ goes back to the trained base.",
            self.long, self.later, self.original
        )
    }
}

/// A one-pair (`d = 2`) note for the dynamic readout: transformers divides by zero there.
pub fn dynamic_d2_note(dim: usize) -> &'static str {
    if dim <= 2 {
        " (at head_dim 2 transformers divides by zero in d/(d − 2); this page takes the exponent as 1)"
    } else {
        ""
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_and_distinct() {
        assert_eq!(ranges(&[]), "none");
        assert_eq!(ranges(&[0, 1, 2, 5, 7, 8]), "0 … 2, 5, 7 … 8");
        assert_eq!(distinct(20.94, 20.94), ("20.94".into(), "20.94".into()));
        let (a, b) = distinct(1.000_000_1, 1.000_000_2);
        assert_ne!(a, b);
        assert_eq!(sig(4.0), "4");
    }

    #[test]
    fn slowdowns_that_are_neither_end_do_not_print_as_one() {
        assert_eq!(slowdown_text(1.0, 4.0), "1");
        assert_eq!(slowdown_text(4.0, 4.0), "4");
        assert_ne!(slowdown_text(3.999_99, 4.0), "4");
        assert_ne!(slowdown_text(1.000_01, 4.0), "1");
    }
}
