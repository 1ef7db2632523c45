//! RoPE's score against distance before and after scaling, out to the target length (up to 2²⁴
//! positions): q = k = all ones (RoFormer §3.4.3's setting), so the score is the mean over pairs
//! of cos(r·θ_i), times the attention factor squared after scaling. Each point is the mean over
//! one column of distances on a log axis, computed in closed form (O(columns · pairs)).

use leptos::html::Canvas;
use leptos::prelude::*;

use super::{length_text, method_name};
use crate::app::figure::{InteractiveCanvas, draw_effect};
use crate::app::figures::cursor::XCursor;
use crate::app::frame::figure;
use crate::app::state::context::ContextState;
use crate::app::theme::chapter_context;
use crate::math::rope_extension::log_columns;
use crate::params::format_significant;
use crate::scene::context as scene;

/// The figure.
#[component]
pub fn ScoresByDistance() -> impl IntoView {
    let (s, theme) = chapter_context!(ContextState);
    let (plain, scaled) = (s.plain(), s.scaled());
    // Two memos: a method change recomputes only the scaled curve. The count of columns
    // depends on the length alone, so readouts never force a curve to be computed.
    let plain_curve =
        Memo::new(move |_| plain.with(|p| scene::score_curve_to(p, 1.0, s.target.get())));
    let scaled_curve = Memo::new(move |_| {
        let target = s.target.get();
        scaled.with(|(f, factor)| (scene::score_curve_to(f, factor * factor, target), *factor))
    });
    let columns = Memo::new(move |_| {
        log_columns(s.target.get().saturating_sub(1), scene::SCORE_COLUMNS).len()
    });
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
                let (spec, extras) = scene::scores_spec(plain, scaled, *factor, method, l0, at, t);
                cursor.paint(surface, scene::scores_height, &spec, &extras);
            })
        });
    });
    let index = move |x: f64| {
        // The column whose first distance is closest on the log axis.
        plain_curve.with_untracked(|c| {
            c.start
                .iter()
                .enumerate()
                .min_by(|a, b| {
                    (scene::score_x(*a.1) - x)
                        .abs()
                        .total_cmp(&(scene::score_x(*b.1) - x).abs())
                })
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
    figure! { "fig-ctx-scores", "ctl-c-s ctl-c-L ctl-c-T ctl-c-d ctl-c-base ctl-c-bf ctl-c-bs c-type", stats;
        <InteractiveCanvas node_ref=canvas_ref readout=readout label=describe
            pointer=cursor.pointer(canvas_ref, count, index) />
        <figcaption>
            "With q = k = (1, …, 1), RoPE's score at distance r is (1/P)·Σ" <sub>"i"</sub>
            " cos(r·θ" <sub>"i"</sub> ") over the P pairs: 1 at r = 0, then, with more than "
            "a few pairs, a noisy decay on average (RoFormer §3.4.3 derives an upper bound "
            "by Abel summation and shows numerically that it decays with the distance; the "
            "all-ones score is a common illustration of it). Linear interpolation gives exactly plain RoPE's curve "
            "stretched s times along the distance; the other methods stretch mostly what "
            "the slow pairs contribute, at long distances. transformers "
            "multiplies both cos and sin by the attention factor, so the rotary part of each "
            "score grows by its square (the whole score when the whole head rotates). Each point is the exact mean of the score over one column of distances "
            "(single distances near 0), summed in closed form, so the curve costs the same "
            "for 2²⁴ positions as for 100."
        </figcaption>
    }
}
