//! Chapter 3's figures past the trained length: the scores far away, the attention factor and
//! dynamic NTK's base as the length grows.

use super::{length_text, method_name, y_span};
use crate::chart::lines::{Extras, LinePlotSpec, series_color};
use crate::chart::theme::Theme;
use crate::math::limits;
use crate::math::rope_extension::{ScoreCurve, score_curve};
use crate::math::rope_scaling::{
    dynamic_base, longrope_default_factor, yarn_get_mscale, yarn_mscale,
};
use crate::params::context::{ContextView, LENGTH, preset_lists};
use crate::params::{Views, format_significant};
use crate::scene::{Height, Panel, line};

// ------------------------------------------------------------------ fig-ctx-scores

/// Columns of the score curve: about one per one and a half pixel columns of the widest plot,
/// which keeps the curve smooth and its cost (one `sin` per column and pair) low at head_dim 1024.
pub const SCORE_COLUMNS: usize = 480;

/// The scores plot's height.
pub fn scores_height(width: f64) -> f64 {
    (width * 0.4).clamp(240.0, 340.0)
}

/// `log₁₀ r`, the plot's x for distance `r ≥ 1` (distance 0, where every score is its maximum,
/// is left off the log axis).
pub fn score_x(r: usize) -> f64 {
    (r.max(1) as f64).log10()
}

/// The score of q = k = ones against distance up to `target − 1` with frequencies `inv_freq`,
/// times `scale`.
pub fn score_curve_to(inv_freq: &[f64], scale: f64, target: usize) -> ScoreCurve {
    score_curve(inv_freq, scale, target.saturating_sub(1), SCORE_COLUMNS)
}

/// Plain RoPE's and `method`'s score curves (the latter times the attention factor²) against distance on a
/// log axis; column `at` marked, else L₀.
pub fn scores_spec(
    plain: &ScoreCurve,
    scaled: &ScoreCurve,
    factor: f64,
    method: &str,
    l0: usize,
    at: Option<usize>,
    theme: Theme,
) -> (LinePlotSpec, Extras) {
    let points = |curve: &ScoreCurve| {
        curve
            .start
            .iter()
            .zip(&curve.mean)
            .filter(|(r, _)| **r >= 1)
            .map(|(&r, &m)| (score_x(r), m))
            .collect::<Vec<_>>()
    };
    let after = if factor == 1.0 {
        format!("after {method}")
    } else {
        format!(
            "after {method} (× attention factor² = {})",
            format_significant(factor * factor, 4)
        )
    };
    let series = vec![
        line("plain RoPE".into(), theme.axis, points(plain)),
        line(after, series_color(0), points(scaled)),
    ];
    let (lo, hi) = y_span(&series, (0.0, 1.0));
    let end = plain.end.last().copied().unwrap_or(0);
    let marker = match at.and_then(|k| plain.start.get(k)) {
        Some(&r) => (score_x(r), format!("r = {r}")),
        None => (score_x(l0), format!("L₀ = {}", length_text(l0))),
    };
    let spec = LinePlotSpec {
        title: "Score of q = k = ones against distance".into(),
        x_desc: "distance m − n (log scale; each point averages a column of distances)",
        y_desc: "score / (|q|·|k|)",
        x_range: 0.0..score_x(end).max(0.5),
        y_range: (lo - 0.05)..(hi + 0.08),
        series,
        marker: Some(marker),
        theme,
    };
    let extras = Extras {
        x_log: true,
        hlines: vec![(0.0, String::new())],
        ..Extras::default()
    };
    (spec, extras)
}

/// fig-ctx-scores: the score against distance before and after scaling.
pub fn scores(v: &Views, theme: Theme) -> Vec<(Panel, Height)> {
    let c = &v.context;
    let (scaled, factor) = c.scaled(preset_lists(c.model).as_ref());
    let plain = score_curve_to(&c.plain(), 1.0, c.target);
    let after = score_curve_to(&scaled, factor * factor, c.target);
    let method = method_name(c.rope_type);
    let (spec, extras) = scores_spec(&plain, &after, factor, method, c.original, None, theme);
    vec![(Panel::Lines(spec, extras), Height::Rule(scores_height))]
}

// ------------------------------------------------------------------ fig-ctx-attention

/// Points of each attention-factor curve over s.
pub const FACTOR_POINTS: usize = 253;

/// The attention-factor plot's height.
pub fn attention_height(width: f64) -> f64 {
    (width * 0.36).clamp(220.0, 300.0)
}

/// s of point `k` of the attention-factor curves.
pub fn factor_at(k: usize) -> f64 {
    let (lo, hi) = limits::FACTOR;
    lo + (hi - lo) * k as f64 / (FACTOR_POINTS - 1) as f64
}

/// DeepSeek's `(mscale, mscale_all_dim)` when the view sets both.
pub fn deepseek(v: &ContextView) -> Option<(f64, f64)> {
    (v.mscale > 0.0 && v.mscale_all_dim > 0.0).then_some((v.mscale, v.mscale_all_dim))
}

/// The attention factor against s: YaRN's `0.1·ln s + 1`, LongRoPE's `√(1 + ln s / ln L₀)`,
/// and DeepSeek's mscale ratio when set; s = `at` marked.
pub fn attention_spec(
    l0: usize,
    deepseek: Option<(f64, f64)>,
    at: f64,
    theme: Theme,
) -> LinePlotSpec {
    let curve = |f: &dyn Fn(f64) -> f64| {
        (0..FACTOR_POINTS)
            .map(|k| (factor_at(k), f(factor_at(k))))
            .collect()
    };
    let mut series = vec![
        line(
            "YaRN: 0.1·ln s + 1".into(),
            series_color(4),
            curve(&yarn_mscale),
        ),
        line(
            "LongRoPE: √(1 + ln s / ln L₀)".into(),
            series_color(6),
            curve(&|x| longrope_default_factor(x, l0)),
        ),
    ];
    if let Some((m, a)) = deepseek {
        series.push(line(
            "YaRN, DeepSeek's mscale ratio".into(),
            series_color(2),
            curve(&|x| yarn_get_mscale(x, m) / yarn_get_mscale(x, a)),
        ));
    }
    let (bottom, top) = y_span(&series, (1.0, 1.0));
    LinePlotSpec {
        title: "Attention factor against the scale factor s".into(),
        x_desc: "scale factor s",
        y_desc: "attention factor",
        x_range: limits::FACTOR.0..limits::FACTOR.1,
        y_range: (bottom - 0.05)..(top + 0.08),
        series,
        marker: Some((at, format!("s = {}", format_significant(at, 3)))),
        theme,
    }
}

/// fig-ctx-attention: the attention factor over s, the view's s marked.
pub fn attention(v: &Views, theme: Theme) -> Vec<(Panel, Height)> {
    let c = &v.context;
    let spec = attention_spec(c.original, deepseek(c), c.factor, theme);
    vec![(
        Panel::Lines(spec, Extras::default()),
        Height::Rule(attention_height),
    )]
}

// ------------------------------------------------------------------ fig-ctx-dynamic

/// Points of the dynamic-NTK curve.
pub const DYNAMIC_POINTS: usize = 241;

/// The dynamic-NTK plot's height.
pub fn dynamic_height(width: f64) -> f64 {
    (width * 0.36).clamp(220.0, 300.0)
}

/// The end of the length axis: twice the larger of the target and the current length.
pub fn dynamic_end(v: &ContextView) -> usize {
    (2 * v.target.max(v.len)).min(LENGTH.1)
}

/// The length of point `k` of the curve: log-spaced from 16 to `end`.
pub fn length_at(k: usize, end: usize) -> usize {
    let (lo, hi) = ((LENGTH.0 as f64).ln(), (end.max(LENGTH.0 + 1) as f64).ln());
    (lo + (hi - lo) * k as f64 / (DYNAMIC_POINTS - 1) as f64)
        .exp()
        .round() as usize
}

/// Dynamic NTK's base at current length `len` for this view (transformers
/// `_compute_dynamic_ntk_parameters`).
pub fn dynamic_base_at(v: &ContextView, len: usize) -> f64 {
    dynamic_base(v.base, v.dim, v.factor, v.original, len)
}

/// Dynamic NTK's base at each current length (log–log), the trained base drawn; length `at`
/// marked.
pub fn dynamic_spec(v: &ContextView, at: usize, theme: Theme) -> (LinePlotSpec, Extras) {
    let end = dynamic_end(v);
    let base_at = |len: usize| dynamic_base_at(v, len);
    let points: Vec<(f64, f64)> = (0..DYNAMIC_POINTS)
        .map(|k| {
            let n = length_at(k, end);
            ((n as f64).log10(), base_at(n).log10())
        })
        .collect();
    let series = vec![line("base′(L)".into(), series_color(3), points)];
    let (lo, hi) = y_span(&series, (f64::INFINITY, f64::NEG_INFINITY));
    let spec = LinePlotSpec {
        title: "Dynamic NTK: the base at each current length".into(),
        x_desc: "current sequence length L (log scale)",
        y_desc: "base (log scale)",
        x_range: (LENGTH.0 as f64).log10()..(end as f64).log10(),
        y_range: (lo - 0.1)..(hi + 0.25).max(lo + 0.5),
        series,
        marker: Some(((at as f64).log10(), format!("L = {}", length_text(at)))),
        theme,
    };
    let extras = Extras {
        x_log: true,
        y_log: true,
        hlines: vec![(
            v.base.log10(),
            format!("trained base, up to L₀ = {}", length_text(v.original)),
        )],
        ..Extras::default()
    };
    (spec, extras)
}

/// fig-ctx-dynamic: dynamic NTK's base over the current length, the view's length marked.
pub fn dynamic(v: &Views, theme: Theme) -> Vec<(Panel, Height)> {
    let (spec, extras) = dynamic_spec(&v.context, v.context.len, theme);
    vec![(Panel::Lines(spec, extras), Height::Rule(dynamic_height))]
}
