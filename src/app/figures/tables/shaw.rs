//! Shaw, Uszkoreit & Vaswani (2018): relative positions clipped at ±k. Query `i` and key `j`
//! share the learned vectors `a_clip(j − i, −k, k)`, so `2k + 1` vectors serve every distance;
//! the matrix of clipped distances.

use leptos::html::Canvas;
use leptos::prelude::*;

use crate::app::near;

use crate::app::controls::IntSlider;
use crate::app::figure::{InteractiveCanvas, draw_effect};
use crate::app::frame::figure;
use crate::app::matrix::{Matrix, MatrixPainter};
use crate::app::select::{cell_pointer, key_cursor};
use crate::app::state::tables::TablesState;
use crate::app::theme::chapter_context;
use crate::chart::heatmap::HeatmapLayout;
use crate::explain::tables::ShawFinding;
use crate::math::relative::shaw_clip;
use crate::params::tables::{SHAW_K, SHAW_POSITIONS};
use crate::scene::tables as scene;

/// `j − i` as a signed number.
fn relative(i: usize, j: usize) -> i64 {
    j as i64 - i as i64
}

/// The figure.
#[component]
pub fn ShawClipped() -> impl IntoView {
    let (s, theme) = chapter_context!(TablesState);
    let canvas_ref = NodeRef::<Canvas>::new();
    let layout = StoredValue::new(None::<HeatmapLayout>);
    let cursor = RwSignal::new(None::<(usize, usize)>);
    let mut painter = MatrixPainter::default();
    let mut diagonals = Vec::new();
    let stats = draw_effect(canvas_ref, move |surface| {
        let (n, k, t) = (s.shaw_len.get(), s.shaw_k.get(), theme.get());
        // Entry (i, j) depends on j − i only: its 2n − 1 diagonals.
        scene::shaw_diagonals_into(n, k, &mut diagonals);
        let spec = scene::shaw_spec(n, k, t);
        let cells = Matrix {
            values: &diagonals,
            stride: n,
            version: None,
            toeplitz: true,
        };
        layout.set_value(painter.paint(surface, scene::shaw_height, &spec, cells, &[]));
    });
    let on_key = key_cursor(
        cursor,
        move || (s.shaw_len.get_untracked(), s.shaw_len.get_untracked()),
        (0, 0),
    );
    let readout = move || match cursor.get() {
        Some((i, j)) if i < s.shaw_len.get() && j < s.shaw_len.get() => {
            let (r, k) = (relative(i, j), s.shaw_k.get());
            let c = shaw_clip(r, k);
            format!(
                "Query {i}, key {j}: j − i = {r}{} → the pair uses the vectors wᴷ and wⱽ of \
                 distance {c}.",
                if c == r {
                    String::new()
                } else {
                    format!(", clipped to {c}")
                }
            )
        }
        _ => "Hover the matrix (or focus it and use the arrow keys) to read a pair's vector."
            .to_string(),
    };
    let finding = move || {
        ShawFinding {
            n: s.shaw_len.get(),
            k: s.shaw_k.get(),
        }
        .to_string()
    };
    let describe = move || {
        let (n, k) = (s.shaw_len.get(), s.shaw_k.get());
        if k + 1 < n {
            format!(
                "A {n} by {n} matrix of clipped relative positions with k = {k}: a band of {w} \
                 diagonals where the colour changes with the distance, and flat colour beyond \
                 it (−{k} below the band, +{k} above).",
                w = 2 * k + 1
            )
        } else {
            format!(
                "A {n} by {n} matrix of relative positions j − i: every diagonal has its own \
                 colour, since k = {k} clips nothing at this length."
            )
        }
    };
    figure! { "fig-tab-shaw", "ctl-t-k ctl-t-sn", stats;
        <div class="figure-tools">
            <IntSlider label="clipping distance k" id="ctl-t-k" min=SHAW_K.0 max=SHAW_K.1 value=s.shaw_k />
            <IntSlider label="positions" id="ctl-t-sn" min=SHAW_POSITIONS.0 max=SHAW_POSITIONS.1 value=s.shaw_len />
        </div>
        <InteractiveCanvas node_ref=canvas_ref readout=readout label=describe
            pointer=cell_pointer(canvas_ref, layout, cursor, on_key) />
        <p class="finding">{near::text(finding)}</p>
        <figcaption>
            "Shaw, Uszkoreit and Vaswani (2018) give attention no absolute positions at all. "
            "Each query–key pair adds a learned vector for its distance j − i to the key (in "
            "the score) and to the value (in the output), and distances are clipped at ±k "
            "(their base translation model used k = 16 and their big one k = 8; BLEU barely "
            "changed for any k ≥ 2, which they explain by stacked layers passing precise "
            "relative position on beyond the clip, §4.3). In their ablation (Table 3) the "
            "key vectors alone gave the same BLEU as both (25.8) and the value vectors alone "
            "25.3; T5, ALiBi and RoPE after them act on the scores only. Only distance "
            "matters, and the same 2k + 1 vectors serve any sequence length."
        </figcaption>
    }
}
