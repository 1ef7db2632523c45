//! Chapter 3's figures ("Stretching the context") as data: each figure's height rules and chart
//! specs (shared with the page's components in `app/figures/context`), and a builder per figure
//! that computes them from the view a link describes.

mod far;

pub use far::*;

use plotters::prelude::RGBColor;

use super::{Height, Panel};
use crate::chart::lines::{Corner, Extras, Fill, LinePlotSpec, Series, series_color};
use crate::chart::theme::Theme;
use crate::math::rope_extension::{PairReach, reach, wavelengths as wavelengths_of};
use crate::math::rope_scaling::RopeType;
use crate::params::context::{ContextView, preset_lists};
use crate::params::{Views, format_significant};

/// A method's short name in legends: "plain RoPE" for `default`, else its label.
pub fn method_name(t: RopeType) -> &'static str {
    match t {
        RopeType::Default => "plain RoPE",
        RopeType::Linear => "linear (PI)",
        RopeType::Ntk => "NTK-aware",
        RopeType::Dynamic => "dynamic NTK",
        RopeType::Yarn => "YaRN",
        RopeType::Llama3 => "Llama 3",
        RopeType::Longrope => "LongRoPE",
    }
}

/// A length in positions, compactly: 4096, 32k (for 32768), 1M.
pub fn length_text(n: usize) -> String {
    if n >= 1 << 20 && n.is_multiple_of(1 << 20) {
        format!("{}M", n >> 20)
    } else if n >= 1 << 13 && n.is_multiple_of(1024) {
        format!("{}k", n >> 10)
    } else {
        n.to_string()
    }
}

/// `(i, f(item i))` for every item.
fn indexed<T>(items: &[T], f: impl Fn(&T) -> f64) -> Vec<(f64, f64)> {
    items
        .iter()
        .enumerate()
        .map(|(i, x)| (i as f64, f(x)))
        .collect()
}

/// The lowest and highest y of `series`, starting from `(lo, hi)`.
pub(super) fn y_span(series: &[Series], (lo, hi): (f64, f64)) -> (f64, f64) {
    series
        .iter()
        .flat_map(|s| s.points.iter().map(|p| p.1))
        .fold((lo, hi), |(lo, hi), v| (lo.min(v), hi.max(v)))
}

// ------------------------------------------------------------------ fig-ctx-turns

/// The turns plot's height.
pub fn turns_height(width: f64) -> f64 {
    (width * 0.42).clamp(250.0, 360.0)
}

/// The share of the circle each pair reaches: seen in training (band), first reached beyond L₀
/// by plain RoPE (band), and reached by T after `method` (line); pair `at` marked.
pub fn turns_spec(
    pairs: &[PairReach],
    method: &str,
    at: Option<usize>,
    theme: Theme,
) -> (LinePlotSpec, Extras) {
    let seen = indexed(pairs, |p| p.seen);
    let extras = Extras {
        fills: vec![
            Fill {
                label: "seen in training (m < L₀)".into(),
                color: series_color(2),
                lower: indexed(pairs, |_| 0.0),
                upper: seen.clone(),
            },
            Fill {
                label: "first reached beyond L₀ (plain RoPE)".into(),
                color: series_color(4),
                lower: seen,
                // Nothing new when T ≤ L₀ (plain stays inside the seen arc).
                upper: indexed(pairs, |p| p.plain.max(p.seen)),
            },
        ],
        legend: Corner::BottomLeft,
        ..Extras::default()
    };
    let spec = LinePlotSpec {
        title: "Share of the circle each pair reaches".into(),
        x_desc: "pair i (fast → slow)",
        y_desc: "share of a full turn",
        x_range: 0.0..(pairs.len().max(2) - 1) as f64,
        y_range: 0.0..1.08,
        series: vec![Series {
            label: format!("reached by T after {method}"),
            color: series_color(0),
            points: indexed(pairs, |p| p.scaled),
            dots: pairs.len() <= 64,
            line: true,
        }],
        marker: at.map(|i| (i as f64, format!("pair {i}"))),
        theme,
    };
    (spec, extras)
}

/// fig-ctx-turns: the share of the circle each pair reaches.
pub fn turns(v: &Views, theme: Theme) -> Vec<(Panel, Height)> {
    let c = &v.context;
    let (plain, (scaled, _)) = (c.plain(), c.scaled(preset_lists(c.model).as_ref()));
    let pairs = reach(&plain, &scaled, c.original, c.target);
    let (spec, extras) = turns_spec(&pairs, method_name(c.rope_type), None, theme);
    vec![(Panel::Lines(spec, extras), Height::Rule(turns_height))]
}

// ------------------------------------------------------------------ fig-ctx-wavelengths

/// The wavelength plot's height.
pub fn wavelengths_height(width: f64) -> f64 {
    (width * 0.4).clamp(240.0, 340.0)
}

/// The slow-down plot's height.
pub fn slowdown_height(width: f64) -> f64 {
    (width * 0.3).clamp(200.0, 260.0)
}

/// One method's curve: its type, wavelengths and per-pair slow-down.
#[derive(Clone, Debug, PartialEq)]
pub struct Curve {
    /// The method.
    pub rope_type: RopeType,
    /// `2π/θ′_i` per pair.
    pub wavelength: Vec<f64>,
    /// `θ_i/θ′_i` per pair.
    pub scale: Vec<f64>,
}

/// The colour of a method: fixed per method, so overlays keep their colours.
fn color_of(t: RopeType) -> RGBColor {
    let k = RopeType::ALL.iter().position(|&x| x == t).unwrap_or(0);
    series_color(k)
}

/// The curves of the chosen method, then of each compared one (plain RoPE left out: it is the
/// reference line), at the target length.
pub fn curves(v: &ContextView, lists: Option<&(Vec<f64>, Vec<f64>)>) -> Vec<Curve> {
    let mut methods = vec![v.rope_type];
    methods.extend(v.compare.iter().filter(|&&t| t != v.rope_type));
    methods
        .into_iter()
        .filter(|&t| t != RopeType::Default)
        .map(|t| {
            let c = v.scaling(t, v.target, lists);
            Curve {
                rope_type: t,
                wavelength: wavelengths_of(&c.compute().0),
                scale: c.scale_per_pair(),
            }
        })
        .collect()
}

/// Wavelength per pair on a log axis, before (plain, from `plain`'s inverse frequencies) and
/// after each method, with L₀, T and the method's thresholds drawn; pair `at` marked.
pub fn wavelengths_spec(
    v: &ContextView,
    plain: &[f64],
    curves: &[Curve],
    at: Option<usize>,
    theme: Theme,
) -> (LinePlotSpec, Extras) {
    let (l0, target) = (v.original, v.target);
    let before = wavelengths_of(plain);
    let dots = before.len() <= 64;
    let log = |w: &f64| w.log10();
    let mut series = vec![Series {
        label: "plain RoPE (trained)".into(),
        color: theme.axis,
        points: indexed(&before, log),
        dots,
        line: true,
    }];
    series.extend(curves.iter().map(|c| Series {
        label: method_name(c.rope_type).into(),
        color: color_of(c.rope_type),
        points: indexed(&c.wavelength, log),
        dots,
        line: true,
    }));
    let (_, top) = y_span(&series, (f64::INFINITY, (target as f64).log10().max(1.0)));
    let mut hlines = vec![
        ((l0 as f64).log10(), format!("L₀ = {}", length_text(l0))),
        (
            (target as f64).log10(),
            format!("T = {}", length_text(target)),
        ),
    ];
    match v.rope_type {
        RopeType::Yarn => {
            let (bf, bs) = (v.beta_fast, v.beta_slow);
            hlines.push((
                (l0 as f64 / bf).log10(),
                format!("L₀/β_fast ({} turns)", format_significant(bf, 3)),
            ));
            hlines.push((
                (l0 as f64 / bs).log10(),
                format!("L₀/β_slow ({} turns)", format_significant(bs, 3)),
            ));
        }
        RopeType::Llama3 => {
            hlines.push((
                (l0 as f64 / v.low_freq).log10(),
                "L₀/low_freq_factor".into(),
            ));
            hlines.push((
                (l0 as f64 / v.high_freq).log10(),
                "L₀/high_freq_factor".into(),
            ));
        }
        _ => {}
    }
    // Lines at the same height (β_slow = 1 puts L₀/β_slow on L₀) share one label.
    let mut merged: Vec<(f64, String)> = Vec::new();
    for (y, label) in hlines {
        match merged.iter_mut().find(|(m, _)| (*m - y).abs() < 1e-9) {
            Some((_, text)) => *text = format!("{text} = {label}"),
            None => merged.push((y, label)),
        }
    }
    let first = series[0].points.first().map_or(0.0, |p| p.1);
    let spec = LinePlotSpec {
        title: "Wavelength 2π/θ of each pair, before and after".into(),
        x_desc: "pair i (fast → slow)",
        y_desc: "wavelength (positions, log scale)",
        x_range: 0.0..(before.len().max(2) - 1) as f64,
        y_range: (0.5_f64.min(first - 0.1))..(top + 0.3),
        series,
        marker: at.map(|i| (i as f64, format!("pair {i}"))),
        theme,
    };
    let extras = Extras {
        hlines: merged,
        y_log: true,
        legend: Corner::BottomRight,
        ..Extras::default()
    };
    (spec, extras)
}

/// How much each method slows each of `pairs` pairs (`θ_i/θ′_i`), with 1 and s drawn; pair `at`
/// marked.
pub fn slowdown_spec(
    factor: f64,
    pairs: usize,
    curves: &[Curve],
    at: Option<usize>,
    theme: Theme,
) -> (LinePlotSpec, Extras) {
    let series: Vec<Series> = curves
        .iter()
        .map(|c| Series {
            label: method_name(c.rope_type).into(),
            color: color_of(c.rope_type),
            points: indexed(&c.scale, |&k| k),
            dots: pairs <= 64,
            line: true,
        })
        .collect();
    let (_, top) = y_span(&series, (f64::INFINITY, factor));
    let spec = LinePlotSpec {
        title: "How much each pair is slowed: θᵢ / θ′ᵢ".into(),
        x_desc: "pair i (fast → slow)",
        y_desc: "slow-down",
        x_range: 0.0..(pairs.max(2) - 1) as f64,
        y_range: 0.0..(top * 1.08).max(1.2),
        series,
        marker: at.map(|i| (i as f64, format!("pair {i}"))),
        theme,
    };
    let extras = Extras {
        hlines: vec![
            (1.0, "1 = untouched".into()),
            (factor, format!("s = {}", format_significant(factor, 3))),
        ],
        legend: Corner::BottomRight,
        ..Extras::default()
    };
    (spec, extras)
}

/// fig-ctx-wavelengths: the wavelengths per pair, and the slow-down per pair.
pub fn wavelengths(v: &Views, theme: Theme) -> Vec<(Panel, Height)> {
    let c = &v.context;
    let plain = c.plain();
    let cs = curves(c, preset_lists(c.model).as_ref());
    let (top, top_extras) = wavelengths_spec(c, &plain, &cs, None, theme);
    let (bottom, bottom_extras) = slowdown_spec(c.factor, plain.len(), &cs, None, theme);
    vec![
        (
            Panel::Lines(top, top_extras),
            Height::Rule(wavelengths_height),
        ),
        (
            Panel::Lines(bottom, bottom_extras),
            Height::Rule(slowdown_height),
        ),
    ]
}

/// Chapter 3's picture builders, by figure id, in the book's order (the figures of
/// [`crate::book::CHAPTERS`] that have a picture; a test checks the two lists agree).
pub const PICTURES: &[(&str, crate::scene::Build)] = &[
    ("fig-ctx-turns", turns),
    ("fig-ctx-wavelengths", wavelengths),
    ("fig-ctx-scores", scores),
    ("fig-ctx-attention", attention),
    ("fig-ctx-dynamic", dynamic),
];

#[cfg(test)]
mod tests {
    use super::*;
    use crate::params::parse_query;

    type Builder = fn(&Views, Theme) -> Vec<(Panel, Height)>;
    const BUILDERS: [(Builder, usize); 5] = [
        (turns, 1),
        (wavelengths, 2),
        (scores, 1),
        (attention, 1),
        (dynamic, 1),
    ];

    /// Every y a panel plots, and whether it has a title.
    fn lines_of(panels: &[(Panel, Height)]) -> Vec<&LinePlotSpec> {
        panels
            .iter()
            .map(|(p, _)| match p {
                Panel::Lines(spec, _) => spec,
                other => panic!("chapter 3 draws line plots only: {}", other.title()),
            })
            .collect()
    }

    #[test]
    fn every_figure_draws_finite_curves_at_the_ends_of_every_range() {
        let queries = [
            "",
            "c.type=default",
            "c.type=linear&c.s=64",
            "c.type=dynamic&c.len=16777216",
            "c.type=llama3&c.lo=1000&c.hi=0.001",
            "c.type=longrope&c.d=2&c.L=16&c.T=16",
            "c.type=longrope&c.d=96&c.model=longrope-synthetic",
            "c.type=yarn&c.model=deepseek-v2",
            "c.type=yarn&c.d=1024&c.base=1000000&c.T=16777216&c.bf=0.001&c.bs=1000&c.ms=2&c.msa=0.5&c.af=1000",
            "c.type=ntk&c.s=1&c.cmp=linear,ntk,dynamic,yarn,llama3,longrope",
        ];
        for q in queries {
            let (views, _) = Views::from_query(&parse_query(q));
            for (build, count) in BUILDERS {
                let panels = build(&views, Theme::DARK);
                assert_eq!(panels.len(), count, "{q}");
                for spec in lines_of(&panels) {
                    assert!(!spec.title.is_empty());
                    assert!(spec.x_range.start < spec.x_range.end, "{q}: {}", spec.title);
                    assert!(spec.y_range.start < spec.y_range.end, "{q}: {}", spec.title);
                    for s in &spec.series {
                        assert!(!s.points.is_empty(), "{q}: {}", s.label);
                        assert!(
                            s.points.iter().all(|p| p.0.is_finite() && p.1.is_finite()),
                            "{q}: {} / {}",
                            spec.title,
                            s.label
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn the_resting_marker_is_the_view_s_value() {
        let (views, _) = Views::from_query(&parse_query("c.s=8&c.len=1000&c.L=2048"));
        let attention = attention(&views, Theme::LIGHT);
        let dynamic = dynamic(&views, Theme::LIGHT);
        let scores = scores(&views, Theme::LIGHT);
        let marker = |p: &[(Panel, Height)]| lines_of(p)[0].marker.clone().map(|m| m.1);
        assert_eq!(marker(&attention).as_deref(), Some("s = 8.00"));
        assert_eq!(marker(&dynamic).as_deref(), Some("L = 1000"));
        assert_eq!(marker(&scores).as_deref(), Some("L₀ = 2048"));
    }
}
