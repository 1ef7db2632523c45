//! Before and after rotation: one fixed q and its rotations at positions 0, m and n − 1, over the
//! coordinates. The first pairs turn fast and scramble; the last pairs barely move, so those
//! coordinates look the same at every position.

use leptos::html::Canvas;
use leptos::prelude::*;

use crate::app::near;

use crate::app::figure::{StillCanvas, draw_effect};
use crate::app::frame::figure;
use crate::app::plot::paint_lines;
use crate::app::state::rope::RopeState;
use crate::app::theme::chapter_context;
use crate::scene::rope as scene;

/// The figure.
#[component]
pub fn BeforeAfter() -> impl IntoView {
    let (s, theme) = chapter_context!(RopeState);
    let (pos, rotary, qk) = (s.current_pos(), s.rotary_dim(), s.qk_vectors());
    let canvas_ref = NodeRef::<Canvas>::new();
    let stats = draw_effect(canvas_ref, move |surface| {
        let (m, n, t) = (pos.get(), s.positions.get(), theme.get());
        let (base, layout, r) = (s.base.get(), s.layout.get(), rotary.get());
        qk.with(|(q, _)| {
            let spec = scene::dims_spec(q, (m, n), (base, r, layout), t);
            paint_lines(surface, scene::dims_height, &spec);
        });
    });
    // How far the slowest and the fastest pair have turned at m.
    let turns = move || {
        let m = pos.get() as f64;
        let f = s.rotary_inv_freq().get();
        let (fast, slow) = (
            f.first().copied().unwrap_or(0.0),
            f.last().copied().unwrap_or(0.0),
        );
        format!(
            "At m = {}: pair 0 has turned {:.2} turns, the last pair {:.4} turns ({:.2}°).",
            pos.get(),
            m * fast / std::f64::consts::TAU,
            m * slow / std::f64::consts::TAU,
            (m * slow).to_degrees()
        )
    };
    let describe = move || {
        format!(
            "q's {} coordinates at positions {}: they differ where pairs turn fast (the start of \
             the turning coordinates, and with half-split also the start of their second half) \
             and agree where a pair's largest turn is small.",
            s.dim.get(),
            scene::dims_positions(pos.get(), s.positions.get())
                .iter()
                .map(usize::to_string)
                .collect::<Vec<_>>()
                .join(", ")
        )
    };

    figure! { "fig-rope-dims", "ctl-r-pos ctl-r-base ctl-r-d r-layout ctl-r-rot", stats;
        <StillCanvas node_ref=canvas_ref label=describe />
        <p class="readout" aria-live="polite">{near::text(turns)}</p>
        <figcaption>
            "The same q at positions 0, the current m and the last row n − 1. Where pairs turn "
            "fast the curves disagree; where a pair's largest turn (n − 1)·θ" <sub>"i"</sub>
            " is small they lie on top of each other (with a small base, no pair is slow). Interleaved, the pairs (2i, 2i + 1) go from fast on the left to slow on "
            "the right; half-split, the pairs are (i, i + rotary_dim/2), so both halves of the "
            "turning coordinates go from fast to slow. Coordinates past rotary_dim never turn."
        </figcaption>
    }
}
