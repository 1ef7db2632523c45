//! The efficient form: libraries never build R_m. They compute `x ⊙ cos + rotate_half(x) ⊙ sin`
//! (Hugging Face `apply_rotary_pos_emb`, GPT-J `rotate_every_two`) — the same numbers, shown here
//! computed both ways with their largest difference.

use leptos::html::Canvas;
use leptos::prelude::*;

use crate::app::figure::{FigureLink, draw_effect};
use crate::app::plot::paint_lines;
use crate::app::state::AppState;
use crate::app::theme::PageTheme;
use crate::chart::lines::{LinePlotSpec, Series, series_color};
use crate::math::rope::{self, Layout};

fn height(width: f64) -> f64 {
    (width * 0.4).clamp(240.0, 340.0)
}

/// Rows of the coordinate table.
const TABLE_ROWS: usize = 6;

/// `R_m·x` by the matrix and by the efficient form, and their largest difference. Only the first
/// `2·inv_freq.len()` coordinates turn; the rest are passed through (as Hugging Face concatenates
/// the unrotated part back for partial rotation).
fn both_ways(x: &[f64], m: f64, inv_freq: &[f64], layout: Layout) -> (Vec<f64>, Vec<f64>, f64) {
    let r = (2 * inv_freq.len()).min(x.len());
    let (head, tail) = x.split_at(r);
    // R_m one row at a time (the same entries and sums as the whole matrix): the full d × d
    // matrix would be a 128 KB block per position at head_dim 128, twice (both layouts).
    let mut row = vec![0.0; 2 * inv_freq.len()];
    let mut by_matrix: Vec<f64> = (0..r)
        .map(|a| {
            rope::rotation_matrix_row(m, inv_freq, layout, a, &mut row);
            rope::dot(&row, head)
        })
        .collect();
    by_matrix.extend_from_slice(tail);
    let mut efficient = rope::apply_efficient(head, m, inv_freq, layout);
    efficient.extend_from_slice(tail);
    let diff = by_matrix
        .iter()
        .zip(&efficient)
        .map(|(a, b)| (a - b).abs())
        .fold(0.0, f64::max);
    (by_matrix, efficient, diff)
}

/// The figure.
#[component]
pub fn EfficientForm() -> impl IntoView {
    let s = expect_context::<AppState>().rope;
    let theme = expect_context::<PageTheme>().chart();
    let inv_freq = s.rotary_inv_freq();
    let rotary = s.rotary_dim();
    let pos = s.current_pos();
    let qk = s.qk_vectors();
    let computed = Memo::new(move |_| {
        let (m, layout) = (pos.get() as f64, s.layout.get());
        qk.with(|(q, _)| inv_freq.with(|f| both_ways(q, m, f, layout)))
    });
    // The other layout's difference, so the claim is checked for both.
    let other_diff = Memo::new(move |_| {
        let m = pos.get() as f64;
        let other = match s.layout.get() {
            Layout::Interleaved => Layout::Half,
            Layout::Half => Layout::Interleaved,
        };
        qk.with(|(q, _)| inv_freq.with(|f| both_ways(q, m, f, other).2))
    });
    let canvas_ref = NodeRef::<Canvas>::new();
    let stats = draw_effect(canvas_ref, move |surface| {
        let t = theme.get();
        let m = pos.get();
        computed.with(|(by_matrix, efficient, _)| {
            let d = by_matrix.len();
            let at = |v: &[f64]| {
                v.iter()
                    .enumerate()
                    .map(|(i, &y)| (i as f64, y))
                    .collect::<Vec<_>>()
            };
            let top = by_matrix
                .iter()
                .chain(efficient)
                .fold(1e-9_f64, |a, v| a.max(v.abs()));
            let title = format!("q turned to m = {m}, computed two ways");
            let spec = LinePlotSpec {
                title: title.clone(),
                x_desc: "coordinate",
                y_desc: "value",
                x_range: 0.0..(d.max(2) - 1) as f64,
                y_range: (-top * 1.1)..(top * 1.1),
                series: vec![
                    Series {
                        label: "R_m · q (matrix)".into(),
                        color: series_color(0),
                        points: at(by_matrix),
                        dots: true,
                        line: false,
                    },
                    Series {
                        label: "q⊙cos + rotate_half(q)⊙sin".into(),
                        color: series_color(1),
                        points: at(efficient),
                        dots: false,
                        line: true,
                    },
                ],
                marker: None,
                theme: t,
            };
            paint_lines(surface, height, &spec);
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
                            view! {
                                <tr>
                                    <td>{i}</td>
                                    <td>{format!("{:.4}", q[i])}</td>
                                    <td>{format!("{:.4}", cos[i])}</td>
                                    <td>{format!("{:.4}", half[i])}</td>
                                    <td>{format!("{:.4}", sin[i])}</td>
                                    <td>{format!("{:.6}", efficient[i])}</td>
                                    <td>{format!("{:.6}", by_matrix[i])}</td>
                                </tr>
                            }
                        })
                        .collect_view()
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

    view! {
        <figure
            class="figure"
            id="fig-rope-efficient"
            data-controls="ctl-r-pos ctl-r-d r-layout ctl-r-rot"
            data-draw-ms=stats.ms_text()
            data-drawn-at=stats.at_text()
            data-max-diff=move || format!("{}", computed.get().2.max(other_diff.get()))
        >
            <FigureLink id="fig-rope-efficient" />
            <math display="block">
                <mrow>
                    <msub><mi>"R"</mi><mi>"m"</mi></msub><mi>"q"</mi>
                    <mo>"="</mo>
                    <mi>"q"</mi><mo>"⊙"</mo><mi>"cos"</mi><mo>"("</mo><mi>"m"</mi><mi>"θ"</mi><mo>")"</mo>
                    <mo>"+"</mo>
                    <mi>"rotate_half"</mi><mo>"("</mo><mi>"q"</mi><mo>")"</mo><mo>"⊙"</mo><mi>"sin"</mi><mo>"("</mo><mi>"m"</mi><mi>"θ"</mi><mo>")"</mo>
                </mrow>
            </math>
            <div class="canvas-wrap">
                <canvas node_ref=canvas_ref role="img" aria-label=describe></canvas>
            </div>
            <p class="readout" aria-live="polite">{diff_text}</p>
            <table class="numbers">
                <caption>{move || format!("The first coordinates at m = {} ({} layout)", pos.get(), s.layout.get().as_str())}</caption>
                <thead>
                    <tr>
                        <th scope="col">"coordinate"</th>
                        <th scope="col">"q"</th>
                        <th scope="col">"cos"</th>
                        <th scope="col">"rotate_half(q)"</th>
                        <th scope="col">"sin"</th>
                        <th scope="col">"element-wise"</th>
                        <th scope="col">"R_m·q"</th>
                    </tr>
                </thead>
                <tbody>{table}</tbody>
            </table>
            <figcaption>
                "R" <sub>"m"</sub> " has at most two nonzero entries in each row, so "
                "implementations never build it: Hugging Face and GPT-NeoX use this element-wise "
                "form (rotate_half), GPT-J the same with rotate_every_two for the interleaved "
                "layout, and Meta's LLaMA code multiplies complex numbers, which is the same thing. "
                "Each angle appears twice in the cos and sin vectors (repeated pairwise when "
                "interleaved, as two copies of the list when half-split), and the shuffle turns each "
                "pair (a, b) into (−b, a). Coordinates past rotary_dim pass through. q here is the "
                "q·k figure's q (all ones, or the random one)."
            </figcaption>
        </figure>
    }
}
