//! Why only q and k: move the whole sentence by an offset. With RoPE on q and k, every weight
//! depends on m − n, so the attention outputs do not move at all. Rotate the values as well and
//! the outputs carry the absolute positions: they change although the sentence did not.

use leptos::html::Canvas;
use leptos::prelude::*;

use crate::app::near;

use crate::app::controls::IntSlider;
use crate::app::figure::{DrawStats, StillCanvas, draw_effect_into};
use crate::app::frame::figure;
use crate::app::lazy::near_memo;
use crate::app::plot::paint_lines;
use crate::app::state::AppState;
use crate::app::state::rope::RopeState;
use crate::app::theme::chapter_context;
use crate::math::attention::tokenize;
use crate::params::rope::SHIFT;
use crate::scene::rope as scene;

/// The figure.
#[component]
pub fn WhyOnlyQk() -> impl IntoView {
    let state = expect_context::<AppState>();
    let (s, theme) = chapter_context!(RopeState);
    let tokens = Memo::new(move |_| tokenize(&state.order.sentence.get()));
    // The largest output movement at every offset, for both variants.
    // Off screen, computed when idle (5 ms a sentence: see `app::lazy`).
    let stats = DrawStats::new();
    let curves = near_memo(
        stats.near,
        move || tokens.get(),
        |t| scene::values_curves(t),
    );
    let canvas_ref = NodeRef::<Canvas>::new();
    draw_effect_into(canvas_ref, stats, move |surface| {
        let (o, t) = (s.value_offset.get(), theme.get());
        let spec = curves.with(|c| scene::values_spec(c, o, t));
        paint_lines(surface, scene::values_height, &spec);
    });
    let readout = move || {
        let o = s.value_offset.get();
        curves.with(|c| {
            c.get(o).map_or(String::new(), |(qk, v)| {
                format!(
                    "sentence moved by {o}: outputs move by at most {qk:.1e} with q, k rotated, and by {v:.4} with v rotated too"
                )
            })
        })
    };

    figure! { "fig-rope-values", "ctl-r-voff", stats, [
        data-drift=move || {
            let o = s.value_offset.get();
            curves.with(|c| c.get(o).map_or(String::new(), |(a, b)| format!("{a},{b}")))
        }
    ];
        <div class="figure-tools">
            <IntSlider label="offset of the whole sentence" id="ctl-r-voff" min=SHIFT.0 max=SHIFT.1 value=s.value_offset />
        </div>
        <StillCanvas node_ref=canvas_ref label="Two curves over the offset of the sentence: with q and k rotated the outputs do not move (a flat line at zero); with the values rotated too they move by a wavy amount that is zero only at offset 0." />
        <p class="readout" aria-live="polite">{near::text(readout)}</p>
        <figcaption>
            "Chapter 1's toy sentence through one attention layer with RoPE (values: the raw word "
            "vectors, with no position in them). An attention output is a weighted average of "
            "the values. Rotating q and k makes every weight depend on distances only, so moving "
            "the whole sentence leaves every output unchanged (up to rounding). Rotating each "
            "value by its own position and stopping there turns every output by the sentence's "
            "starting offset — the curve is |R" <sub>"o"</sub> "·out − out| — so the same "
            "sentence gives different outputs depending on where it starts. Standard RoPE, as in "
            "RoFormer and Hugging Face's apply_rotary_pos_emb(q, k), leaves v alone. Variants "
            "that do rotate v (VO-RoPE, RoPER) also turn each output back by its query's "
            "position, which keeps it relative. The toy is fixed — 16 dimensions, base 10000, "
            "interleaved pairs — so the chapter's head_dim, base, layout and rotary_dim controls "
            "do not change this figure."
        </figcaption>
    }
}
