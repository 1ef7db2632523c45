//! RoPE's score against distance before and after scaling, out to the target length (up to 2²⁴
//! positions): q = k = all ones (RoFormer §3.4.3's setting), so the score is the mean over pairs
//! of cos(r·θ_i), times the attention factor squared after scaling. Each point is the mean over
//! one column of distances on a log axis, computed in closed form (O(columns · pairs)).

use leptos::html::Canvas;
use leptos::prelude::*;

use super::{length_text, method_name};
use crate::app::figure::{FigureLink, InteractiveCanvas, draw_effect};
use crate::app::figures::cursor::XCursor;
use crate::app::plot::paint_lines_with;
use crate::app::state::AppState;
use crate::app::theme::PageTheme;
use crate::chart::lines::{Extras, LinePlotSpec, Series, series_color};
use crate::math::rope_extension::{ScoreCurve, log_columns, score_curve};
use crate::params::format_significant;

/// Columns of the curve: about one per one and a half pixel columns of the widest plot, which
/// keeps the curve smooth and its cost (one `sin` per column and pair) low at head_dim 1024.
const COLUMNS: usize = 480;

fn height(width: f64) -> f64 {
    (width * 0.4).clamp(240.0, 340.0)
}

/// `log₁₀ r`, the plot's x for distance `r ≥ 1` (distance 0, where every score is its maximum,
/// is left off the log axis).
fn x_of(r: usize) -> f64 {
    (r.max(1) as f64).log10()
}

/// The figure.
#[component]
pub fn ScoresByDistance() -> impl IntoView {
    let s = expect_context::<AppState>().context;
    let theme = expect_context::<PageTheme>().chart();
    let (plain, scaled) = (s.plain(), s.scaled());
    // Two memos: a method change recomputes only the scaled curve. The count of columns
    // depends on the length alone, so readouts never force a curve to be computed.
    let plain_curve = Memo::new(move |_| {
        let max = s.target.get().saturating_sub(1);
        plain.with(|p| score_curve(p, 1.0, max, COLUMNS))
    });
    let scaled_curve = Memo::new(move |_| {
        let max = s.target.get().saturating_sub(1);
        scaled.with(|(f, factor)| (score_curve(f, factor * factor, max, COLUMNS), *factor))
    });
    let columns = Memo::new(move |_| log_columns(s.target.get().saturating_sub(1), COLUMNS).len());
    let count = move || columns.get();
    let cursor = XCursor::new();
    let canvas_ref = NodeRef::<Canvas>::new();
    let stats = draw_effect(canvas_ref, move |surface| {
        let t = theme.get();
        let method = method_name(s.rope_type.get());
        let l0 = s.original.get();
        let at = cursor.get(count());
        plain_curve.with(|plain| {
            scaled_curve.with(|(scaled, factor)| {
                let line = |curve: &ScoreCurve| {
                    curve
                        .start
                        .iter()
                        .zip(&curve.mean)
                        .filter(|(r, _)| **r >= 1)
                        .map(|(&r, &m)| (x_of(r), m))
                        .collect::<Vec<_>>()
                };
                let series = vec![
                    Series {
                        label: "plain RoPE".into(),
                        color: t.axis,
                        points: line(plain),
                        dots: false,
                        line: true,
                    },
                    Series {
                        label: if *factor == 1.0 {
                            format!("after {method}")
                        } else {
                            format!(
                                "after {method} (× factor² = {})",
                                format_significant(factor * factor, 4)
                            )
                        },
                        color: series_color(0),
                        points: line(scaled),
                        dots: false,
                        line: true,
                    },
                ];
                let (lo, hi) = series
                    .iter()
                    .flat_map(|s| s.points.iter().map(|p| p.1))
                    .fold((0.0_f64, 1.0_f64), |(lo, hi), v| (lo.min(v), hi.max(v)));
                let end = plain.end.last().copied().unwrap_or(0);
                let spec = LinePlotSpec {
                    title: "Score of q = k = ones against distance".into(),
                    x_desc: "distance m − n (log scale; each point averages a column of distances)",
                    y_desc: "score / (|q|·|k|)",
                    x_range: 0.0..x_of(end).max(0.5),
                    y_range: (lo - 0.05)..(hi + 0.08),
                    series,
                    marker: match at {
                        Some(k) => Some((x_of(plain.start[k]), format!("r = {}", plain.start[k]))),
                        None => Some((x_of(l0), format!("L₀ = {}", length_text(l0)))),
                    },
                    theme: t,
                };
                let extras = Extras {
                    x_log: true,
                    hlines: vec![(0.0, String::new())],
                    ..Extras::default()
                };
                cursor
                    .layout
                    .set_value(paint_lines_with(surface, height, &spec, &extras));
            })
        });
    });
    let index = move |x: f64| {
        // The column whose first distance is closest on the log axis.
        plain_curve.with_untracked(|c| {
            c.start
                .iter()
                .enumerate()
                .min_by(|a, b| (x_of(*a.1) - x).abs().total_cmp(&(x_of(*b.1) - x).abs()))
                .map_or(0.0, |(k, _)| k as f64)
        })
    };
    let readout = move || {
        let Some(k) = cursor.get(count()) else {
            return "Point at the plot (or focus it and use the arrow keys) for the scores at a \
                    distance."
                .to_string();
        };
        plain_curve.with(|plain| {
            scaled_curve.with(|(scaled, _)| {
                let (a, b) = (plain.start[k], plain.end[k]);
                let span = if a == b {
                    format!("distance {a}")
                } else {
                    format!("distances {a} … {b} (mean)")
                };
                format!(
                    "{span}: plain RoPE {} · after scaling {}",
                    format_significant(plain.mean[k], 4),
                    format_significant(scaled.mean[k], 4)
                )
            })
        })
    };
    let describe = move || {
        format!(
            "Two curves over the distance, on a log axis up to {}: the score of all-ones q and k \
             with plain RoPE and after {}, from distance 1 on; with more than a few pairs both \
             fall, unevenly, as the distance grows.",
            length_text(s.target.get()),
            method_name(s.rope_type.get())
        )
    };
    view! {
        <figure
            class="figure"
            id="fig-ctx-scores"
            data-controls="ctl-c-s ctl-c-L ctl-c-T ctl-c-d ctl-c-base ctl-c-bf ctl-c-bs c-type"
            data-draw-ms=stats.ms_text()
            data-drawn-at=stats.at_text()
        >
            <FigureLink id="fig-ctx-scores" />
            <InteractiveCanvas
                node_ref=canvas_ref
                readout_id="fig-ctx-scores-readout"
                label=describe
                on_move=cursor.on_move(canvas_ref, count, index)
                on_leave=move || {}
                on_key=cursor.on_key(count)
            />
            <p class="readout" id="fig-ctx-scores-readout" aria-live="polite">{readout}</p>
            <figcaption>
                "With q = k = (1, …, 1), RoPE's score at distance r is (1/P)·Σ" <sub>"i"</sub>
                " cos(r·θ" <sub>"i"</sub> ") over the P pairs: 1 at r = 0, then, with more than "
                "a few pairs, a noisy decay on average (RoFormer §3.4.3 proves a decaying upper "
                "bound; the all-ones score is a common illustration of it). Linear interpolation gives exactly plain RoPE's curve "
                "stretched s times along the distance; the other methods stretch mostly what "
                "the slow pairs contribute, at long distances. transformers "
                "multiplies both cos and sin by the attention factor, so the rotary part of each "
                "score grows by its square (the whole score when the whole head rotates). Each point is the exact mean of the score over one column of distances "
                "(single distances near 0), summed in closed form, so the curve costs the same "
                "for 2²⁴ positions as for 100."
            </figcaption>
        </figure>
    }
}
