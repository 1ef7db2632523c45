//! The figures on chapter 1's toy sentence: why not add (fig-rope-add), why only q and k
//! (fig-rope-values) and the token cloud (fig-rope-cloud).

use super::super::{CloudPanel, Height, Panel};
use super::lines;
use crate::chart::cloud::CloudSpec;
use crate::chart::lines::{LinePlotSpec, Series, series_color};
use crate::chart::theme::Theme;
use crate::math::attention::tokenize;
use crate::math::cloud::{self, CloudMode};
use crate::math::rope_terms::{Terms, additive_terms, rope_score};
use crate::math::rope_values::drift_curve;
use crate::params::Views;
use crate::params::rope::SHIFT;

// ------------------------------------------------------------------ fig-rope-add

/// The plot's height.
pub fn add_height(width: f64) -> f64 {
    (width * 0.45).clamp(260.0, 380.0)
}

/// The query and key token indices `pair`, fitted to a sentence of `len` tokens.
pub fn add_pair(len: usize, [a, b]: [usize; 2]) -> (usize, usize) {
    let last = len.saturating_sub(1);
    (a.min(last), b.min(last))
}

/// The terms and RoPE's score for the pair at positions `(a + o, b + o)`, for every shift `o`.
fn sweep(query: &str, a: usize, key: &str, b: usize) -> Vec<(Terms, f64)> {
    (SHIFT.0..=SHIFT.1)
        .map(|o| {
            (
                additive_terms(query, a + o, key, b + o),
                rope_score(query, a + o, key, b + o),
            )
        })
        .collect()
}

/// The sweep of tokens `a` (query) and `b` (key) of `tokens` over every shift; empty if either
/// is missing.
pub fn add_curves(tokens: &[String], (a, b): (usize, usize)) -> Vec<(Terms, f64)> {
    match (tokens.get(a), tokens.get(b)) {
        (Some(q), Some(k)) => sweep(q, a, k, b),
        _ => Vec::new(),
    }
}

/// The four terms, their total and RoPE's score over the shift (from [`add_curves`]), shift `o`
/// marked.
pub fn add_spec(curves: &[(Terms, f64)], o: usize, t: Theme) -> LinePlotSpec {
    let line = |k: usize, label: &str, f: &dyn Fn(&(Terms, f64)) -> f64| Series {
        label: label.into(),
        color: series_color(k),
        points: curves
            .iter()
            .enumerate()
            .map(|(o, v)| (o as f64, f(v)))
            .collect(),
        dots: false,
        line: true,
    };
    let series = vec![
        line(0, "content·content", &|(t, _)| t.content_content),
        line(1, "content·position", &|(t, _)| t.content_position),
        line(2, "position·content", &|(t, _)| t.position_content),
        line(3, "position·position", &|(t, _)| t.position_position),
        line(4, "added: total", &|(t, _)| t.total()),
        line(6, "RoPE score", &|(_, r)| *r),
    ];
    let (lo, hi) = series
        .iter()
        .flat_map(|s| s.points.iter().map(|p| p.1))
        .fold((0.0_f64, 0.0_f64), |(lo, hi), v| (lo.min(v), hi.max(v)));
    let pad = (hi - lo).max(1e-6) * 0.08;
    LinePlotSpec {
        title: "The score's parts as both tokens move".into(),
        x_desc: "offset o (both positions + o, distance unchanged)",
        y_desc: "score term",
        x_range: SHIFT.0 as f64..SHIFT.1 as f64,
        y_range: (lo - pad)..(hi + pad),
        series,
        marker: Some((o as f64, format!("o = {o}"))),
        theme: t,
    }
}

/// fig-rope-add: the score's parts for the chosen pair of chapter 1's sentence.
pub fn add(v: &Views, theme: Theme) -> Vec<(Panel, Height)> {
    let tokens = tokenize(&v.order.sentence);
    let curves = add_curves(&tokens, add_pair(tokens.len(), v.rope.pair));
    vec![lines(
        add_spec(&curves, v.rope.shift, theme),
        Height::Rule(add_height),
    )]
}

// ------------------------------------------------------------------ fig-rope-values

/// The plot's height.
pub fn values_height(width: f64) -> f64 {
    (width * 0.4).clamp(240.0, 330.0)
}

/// The largest output movement at every offset of the whole sentence `tokens`: with q and k
/// rotated, and with v rotated too.
pub fn values_curves(tokens: &[String]) -> Vec<(f64, f64)> {
    let (qk, all) = (
        drift_curve(tokens, SHIFT.1, false),
        drift_curve(tokens, SHIFT.1, true),
    );
    qk.into_iter().zip(all).collect()
}

/// Both curves of [`values_curves`] over the offset, offset `o` marked.
pub fn values_spec(curves: &[(f64, f64)], o: usize, t: Theme) -> LinePlotSpec {
    let top = curves.iter().map(|v| v.1).fold(1e-6_f64, f64::max);
    let at = |f: &dyn Fn(&(f64, f64)) -> f64| {
        curves
            .iter()
            .enumerate()
            .map(|(k, v)| (k as f64, f(v)))
            .collect::<Vec<_>>()
    };
    LinePlotSpec {
        title: "Output change as the sentence moves".into(),
        x_desc: "offset of the whole sentence",
        y_desc: "largest |output change|",
        x_range: SHIFT.0 as f64..SHIFT.1 as f64,
        y_range: (-top * 0.05)..(top * 1.1),
        series: vec![
            Series {
                label: "RoPE on q, k (as used)".into(),
                color: series_color(0),
                points: at(&|v| v.0),
                dots: false,
                line: true,
            },
            Series {
                label: "q, k and v rotated".into(),
                color: series_color(4),
                points: at(&|v| v.1),
                dots: false,
                line: true,
            },
        ],
        marker: Some((o as f64, format!("offset {o}"))),
        theme: t,
    }
}

/// fig-rope-values: the outputs' movement as chapter 1's sentence moves.
pub fn values(v: &Views, theme: Theme) -> Vec<(Panel, Height)> {
    let curves = values_curves(&tokenize(&v.order.sentence));
    let spec = values_spec(&curves, v.rope.value_offset, theme);
    vec![lines(spec, Height::Rule(values_height))]
}

// ------------------------------------------------------------------ fig-rope-cloud

/// The cloud's height.
pub fn cloud_height(width: f64) -> f64 {
    (width * 0.7).clamp(320.0, 520.0)
}

/// The cloud's axes: the first three principal components.
pub const CLOUD_AXES: [&str; 3] = ["PC1", "PC2", "PC3"];

/// The caption of the cloud of `mode`.
pub fn cloud_title(mode: CloudMode) -> &'static str {
    match mode {
        CloudMode::Plain => "Word vectors, no positions (PCA, 3D)",
        CloudMode::Sinusoidal => "Word vectors + sinusoidal (PCA, 3D)",
        CloudMode::Rope => "Word vectors, RoPE's rotation (PCA, 3D)",
    }
}

/// The cloud of `mode` (its `points`), the first `shown` points drawn, seen from `view` (yaw and
/// pitch, degrees), point `selected` labelled.
pub fn cloud_spec(
    mode: CloudMode,
    points: &[[f64; 3]],
    shown: usize,
    [yaw, pitch]: [f64; 2],
    selected: Option<(usize, String)>,
    t: Theme,
) -> CloudSpec<'_> {
    CloudSpec {
        title: cloud_title(mode).to_string(),
        points,
        axes: CLOUD_AXES,
        shown,
        yaw: yaw.to_radians(),
        pitch: pitch.to_radians(),
        selected,
        order: "position",
        positive: false,
        angles: None,
        theme: t,
    }
}

/// fig-rope-cloud: chapter 1's sentence over the view's positions, every point shown (not
/// playing), none hovered.
pub fn cloud(v: &Views, theme: Theme) -> Vec<(Panel, Height)> {
    let r = &v.rope;
    let data = cloud::cloud(&tokenize(&v.order.sentence), r.cloud_positions, r.cloud);
    // The page shows positions 0 … n − 1 (the last one shown is n − 1, at least 0).
    let shown = r.cloud_positions.saturating_sub(1) + 1;
    let panel = CloudPanel::owning(cloud_spec(
        r.cloud,
        &data.points,
        shown,
        r.view,
        None,
        theme,
    ));
    vec![(Panel::Cloud(panel), Height::Rule(cloud_height))]
}
