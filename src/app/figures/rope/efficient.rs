//! The efficient form: libraries never build R_m. They compute `x ⊙ cos + rotate_half(x) ⊙ sin`
//! (Hugging Face `apply_rotary_pos_emb`, GPT-J `rotate_every_two`) — the same numbers, shown here
//! computed both ways with their largest difference.

use leptos::html::Canvas;
use leptos::prelude::*;

use crate::app::near;

use crate::app::figure::{StillCanvas, draw_effect};
use crate::app::frame::figure;
use crate::app::plot::paint_lines;
use crate::app::state::rope::RopeState;
use crate::app::theme::chapter_context;
use crate::math::rope::{self, Layout};
use crate::scene::rope as scene;

/// Rows of the coordinate table.
const TABLE_ROWS: usize = 6;

/// The figure.
#[component]
pub fn EfficientForm() -> impl IntoView {
    let (s, theme) = chapter_context!(RopeState);
    let (inv_freq, rotary, pos, qk) = (
        s.rotary_inv_freq(),
        s.rotary_dim(),
        s.current_pos(),
        s.qk_vectors(),
    );
    let computed = Memo::new(move |_| {
        let (m, layout) = (pos.get() as f64, s.layout.get());
        qk.with(|(q, _)| inv_freq.with(|f| scene::both_ways(q, m, f, layout)))
    });
    // The other layout's difference, so the claim is checked for both.
    let other_diff = Memo::new(move |_| {
        let m = pos.get() as f64;
        let other = match s.layout.get() {
            Layout::Interleaved => Layout::Half,
            Layout::Half => Layout::Interleaved,
        };
        qk.with(|(q, _)| inv_freq.with(|f| scene::both_ways(q, m, f, other).2))
    });
    let canvas_ref = NodeRef::<Canvas>::new();
    let stats = draw_effect(canvas_ref, move |surface| {
        let t = theme.get();
        let m = pos.get();
        computed.with(|(by_matrix, efficient, _)| {
            let spec = scene::efficient_spec(m, s.layout.get(), by_matrix, efficient, t);
            paint_lines(surface, scene::efficient_height, &spec);
        });
    });
    let table = move || {
        let (m, layout) = (pos.get() as f64, s.layout.get());
        qk.with(|(q, _)| {
            inv_freq.with(|f| {
                let r = rotary.get().min(q.len());
                let (cos, sin) = rope::cos_sin(m, f, layout);
                let half = rope::rotate_half(&q[..r], layout);
                computed.with(|(by_matrix, efficient, _)| {
                    (0..r.min(TABLE_ROWS))
                        .map(|i| {
                            [
                                i.to_string(),
                                format!("{:.4}", q[i]),
                                format!("{:.4}", cos[i]),
                                format!("{:.4}", half[i]),
                                format!("{:.4}", sin[i]),
                                format!("{:.6}", efficient[i]),
                                format!("{:.6}", by_matrix[i]),
                            ]
                        })
                        .collect::<Vec<_>>()
                })
            })
        })
    };
    let diff_text = move || {
        let (_, _, diff) = computed.get();
        format!(
            "largest |difference| over all {} coordinates: {diff:.1e} ({} layout) and {:.1e} (the other layout) — rounding only.",
            s.dim.get(),
            s.layout.get().as_str(),
            other_diff.get()
        )
    };
    let describe = move || {
        format!(
            "The {} coordinates of q turned to position {}: dots computed with the rotation matrix, \
             a line computed with the element-wise form; they coincide.",
            s.dim.get(),
            pos.get()
        )
    };

    figure! { "fig-rope-efficient", "ctl-r-pos ctl-r-d r-layout ctl-r-rot", stats, [
        data-max-diff=move || format!("{}", computed.get().2.max(other_diff.get()))
    ];
        <math display="block">
            <mrow>
                <msub><mi>"R"</mi><mi>"m"</mi></msub><mi>"q"</mi>
                <mo>"="</mo>
                <mi>"q"</mi><mo>"⊙"</mo><mi>"cos"</mi><mo>"("</mo><mi>"m"</mi><mi>"θ"</mi><mo>")"</mo>
                <mo>"+"</mo>
                <mi>{near::text(move || rope::shuffle_name(s.layout.get()))}</mi><mo>"("</mo><mi>"q"</mi><mo>")"</mo><mo>"⊙"</mo><mi>"sin"</mi><mo>"("</mo><mi>"m"</mi><mi>"θ"</mi><mo>")"</mo>
            </mrow>
        </math>
        <StillCanvas node_ref=canvas_ref label=describe />
        <p class="readout" aria-live="polite">{near::text(diff_text)}</p>
        <table class="numbers">
            <caption>{near::text(move || format!("The first coordinates at m = {} ({} layout)", pos.get(), s.layout.get().as_str()))}</caption>
            <thead>
                <tr>
                    <th scope="col">"coordinate"</th>
                    <th scope="col">"q"</th>
                    <th scope="col">"cos"</th>
                    <th scope="col">{near::text(move || format!("{}(q)", rope::shuffle_name(s.layout.get())))}</th>
                    <th scope="col">"sin"</th>
                    <th scope="col">"element-wise"</th>
                    <th scope="col">"R_m·q"</th>
                </tr>
            </thead>
            <tbody>
                {
                    let rows = near::text(table);
                    move || {
                        rows.get()
                            .into_iter()
                            .map(|cells| {
                                view! { <tr>{cells.map(|c| view! { <td>{c}</td> })}</tr> }
                            })
                            .collect_view()
                    }
                }
            </tbody>
        </table>
        <figcaption>
            "R" <sub>"m"</sub> " has at most two nonzero entries in each row. Hugging Face "
            "and GPT-NeoX use this element-wise "
            "form (rotate_half), GPT-J the same with rotate_every_two for the interleaved "
            "layout, and Meta's LLaMA code multiplies complex numbers, which is the same thing. "
            "Each angle appears twice in the cos and sin vectors (repeated pairwise when "
            "interleaved, as two copies of the list when half-split), and the shuffle turns each "
            "pair (a, b) into (−b, a). Coordinates past rotary_dim pass through. q here is the "
            "q·k figure's q (all ones, or the random one)."
        </figcaption>
    }
}
