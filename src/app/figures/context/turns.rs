//! The problem: over the trained context L₀ each pair turns `L₀·θ_i/2π` times. The slow pairs
//! turn less than once, so they only ever saw part of the circle; positions beyond L₀ take them
//! to angles training never showed. A scaling method slows them down so that the target length
//! stays (nearly) within what was seen.

use leptos::html::Canvas;
use leptos::prelude::*;

use crate::app::near;

use super::method_name;
use crate::app::figure::{InteractiveCanvas, draw_effect};
use crate::app::figures::cursor::XCursor;
use crate::app::frame::figure;
use crate::app::plot::paint_lines_with;
use crate::app::state::context::ContextState;
use crate::app::theme::chapter_context;
use crate::math::rope_extension::reach;
use crate::params::format_significant;
use crate::scene::context as scene;

/// The figure.
#[component]
pub fn Turns() -> impl IntoView {
    let (s, theme) = chapter_context!(ContextState);
    let (view, plain, scaled) = (s.view(), s.plain(), s.scaled());
    let pairs = Memo::new(move |_| {
        let (l0, target) = view.with(|v| (v.original, v.target));
        plain.with(|p| scaled.with(|(f, _)| reach(p, f, l0, target)))
    });
    let count = move || pairs.with(Vec::len);
    let cursor = XCursor::new();
    let canvas_ref = NodeRef::<Canvas>::new();
    let stats = draw_effect(canvas_ref, move |surface| {
        let t = theme.get();
        let method = method_name(s.rope_type.get());
        let at = cursor.get(count());
        pairs.with(|r| {
            let (spec, extras) = scene::turns_spec(r, method, at, t);
            let drawn = paint_lines_with(surface, scene::turns_height, &spec, &extras);
            cursor.layout.set_value(drawn);
        });
    });
    let summary = move || {
        let (l0, target) = view.with(|v| (v.original, v.target));
        let t = s.rope_type.get();
        pairs.with(|r| crate::explain::context::turns_claim(r, t, l0, target).to_string())
    };
    let readout = move || {
        let Some(i) = cursor.get(count()) else {
            return "Point at a pair (or focus the plot and use the arrow keys) for its numbers."
                .to_string();
        };
        let theta = plain.with(|p| p.get(i).copied()).unwrap_or(0.0);
        pairs.with(|r| {
            r.get(i).map_or(String::new(), |p| {
                format!(
                    "pair {i}: θ = {} rad per position, wavelength {} positions, {} turns within \
                     L₀ · seen 0–{:.1}° · plain RoPE reaches {:.1}° by T ({:.1}° never seen) · \
                     after scaling {:.1}° ({:.1}° never seen)",
                    format_significant(theta, 4),
                    format_significant(std::f64::consts::TAU / theta, 4),
                    format_significant(p.turns, 4),
                    p.seen * 360.0,
                    p.plain * 360.0,
                    p.unseen_plain() * 360.0,
                    p.scaled * 360.0,
                    p.unseen_scaled() * 360.0,
                )
            })
        })
    };
    let describe = move || {
        format!(
            "Bands over the pairs: the share of a full turn each pair's angle covers within the \
             trained context, and what positions up to the target add. {}",
            summary()
        )
    };
    figure! { "fig-ctx-turns", "ctl-c-s ctl-c-L ctl-c-T ctl-c-d ctl-c-base c-type", stats;
        <InteractiveCanvas node_ref=canvas_ref readout=readout label=describe
            pointer=cursor.pointer(canvas_ref, count, |x| x) />
        <p class="readout">{near::text(summary)}</p>
        <figcaption>
            "Pair i turns by θ" <sub>"i"</sub> " per position, so at the trained positions "
            "0 … L₀ − 1 its angle covers (L₀ − 1)·θ" <sub>"i"</sub> "/2π of a turn (green, "
            "capped at one full turn). A pair that turned at least once saw every angle; a "
            "slower one only an arc. When T > L₀, positions up to T − 1 push the slow pairs past that arc (red): "
            "angles the model never saw in training. The blue line is what the chosen "
            "method's frequencies θ′" <sub>"i"</sub> " reach by T; where it stays inside the "
            "green, the pair is interpolated (slowed) enough."
        </figcaption>
    }
}
