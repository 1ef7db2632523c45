//! T5's relative position buckets (Raffel et al. 2020, §2.1), exactly as Hugging Face
//! transformers' `T5Attention._relative_position_bucket`: each head learns one scalar bias per
//! bucket; distances below `max_exact` get a bucket each, longer ones share logarithmically
//! wider buckets, and from the last bucket's first distance (at or before `max_distance`) on
//! everything shares the last one. The bucket
//! matrix, and the bucket against the relative position.

use leptos::html::Canvas;
use leptos::prelude::*;

use crate::app::near;

use crate::app::controls::{Choice, IntSlider};
use crate::app::figure::{DrawStats, InteractiveCanvas, SecondCanvas, draw_panels_effect};
use crate::app::figures::cursor::XCursor;
use crate::app::frame::figure;
use crate::app::matrix::{Matrix, MatrixPainter};
use crate::app::plot::paint_lines;
use crate::app::select::{cell_pointer, key_cursor};
use crate::app::state::tables::TablesState;
use crate::app::theme::chapter_context;
use crate::chart::heatmap::HeatmapLayout;
use crate::explain::tables::{T5, t5_describe, t5_finding, t5_readout};
use crate::params::tables::{T5_BUCKETS, T5_MAX_DISTANCE, T5_POSITIONS, exact_buckets};
use crate::scene::tables::{self as scene, t5_reach as reach};

/// The figure.
#[component]
pub fn T5Buckets() -> impl IntoView {
    let (s, theme) = chapter_context!(TablesState);
    let max_distance = s.max_distance();
    let matrix_ref = NodeRef::<Canvas>::new();
    let curve = SecondCanvas::new();
    let layout = StoredValue::new(None::<HeatmapLayout>);
    let cursor = RwSignal::new(None::<(usize, usize)>);
    let x_cursor = XCursor::new();
    let count = move || 2 * reach(s.t5_len.get_untracked(), max_distance.get_untracked()) + 1;
    let mut painter = MatrixPainter::default();
    let mut diagonals = Vec::new();
    let stats = DrawStats::new();
    draw_panels_effect(&[matrix_ref, curve.node], stats, move |surface| {
        let (n, nb, md, bi, t) = (
            s.t5_len.get(),
            s.buckets.get(),
            max_distance.get(),
            s.bidirectional.get(),
            theme.get(),
        );
        // Entry (i, j) is the bucket of j − i: its 2n − 1 diagonals.
        scene::t5_diagonals_into(n, (nb, md, bi), &mut diagonals);
        let spec = scene::t5_matrix_spec(n, nb, t);
        let cells = Matrix {
            values: &diagonals,
            stride: n,
            version: None,
            toeplitz: true,
        };
        layout.set_value(painter.paint(surface, scene::t5_matrix_height, &spec, cells, &[]));

        let Some(surface) = curve.surface() else {
            return;
        };
        let r = reach(n, md) as i64;
        let at = x_cursor.get((2 * r + 1) as usize).map(|k| k as i64 - r);
        let spec = scene::t5_curve_spec(n, (nb, md, bi), at, t);
        x_cursor
            .layout
            .set_value(paint_lines(&surface, scene::t5_curve_height, &spec));
    });
    let on_key = key_cursor(
        cursor,
        move || (s.t5_len.get_untracked(), s.t5_len.get_untracked()),
        (0, 0),
    );
    let settings = move || T5 {
        num_buckets: s.buckets.get(),
        max_distance: max_distance.get(),
        bidirectional: s.bidirectional.get(),
    };
    let explain = move |r: i64| t5_readout(settings(), r).to_string();
    let readout = move || match cursor.get() {
        Some((i, j)) if i < s.t5_len.get() && j < s.t5_len.get() => {
            format!("Query {i}, key {j}: {}", explain(j as i64 - i as i64))
        }
        _ => "Hover the matrix (or focus it and use the arrow keys) to read a pair's bucket."
            .to_string(),
    };
    let curve_readout = move || {
        let r = reach(s.t5_len.get(), max_distance.get()) as i64;
        match x_cursor.get((2 * r + 1) as usize) {
            Some(k) => explain(k as i64 - r),
            None => "Hover the curve (or focus it and use the arrow keys) to step through \
                     relative positions."
                .to_string(),
        }
    };
    let finding = move || t5_finding(settings()).to_string();
    let describe = move || t5_describe(settings(), s.t5_len.get());
    let directions = vec![
        (true, "bidirectional (encoder)"),
        (false, "causal (decoder)"),
    ];
    let distance_min = Signal::derive(move || {
        T5_MAX_DISTANCE
            .0
            .max(exact_buckets(s.buckets.get(), s.bidirectional.get()) + 1)
    });
    figure! { "fig-tab-t5", "ctl-t-nb ctl-t-md ctl-t-tn t-bi", stats;
        <div class="figure-tools">
            <IntSlider label="num_buckets" id="ctl-t-nb" min=T5_BUCKETS.0 max=T5_BUCKETS.1 value=s.buckets />
            <IntSlider label="max_distance" id="ctl-t-md" min=distance_min max=T5_MAX_DISTANCE.1 value=s.max_distance />
            <IntSlider label="positions" id="ctl-t-tn" min=T5_POSITIONS.0 max=T5_POSITIONS.1 value=s.t5_len />
            <Choice legend="attention" name="t-bi" options=directions value=s.bidirectional />
        </div>
        <InteractiveCanvas node_ref=matrix_ref readout=readout label=describe
            pointer=cell_pointer(matrix_ref, layout, cursor, on_key) />
        <InteractiveCanvas
            node_ref=curve.node
            readout_id="fig-tab-t5-curve-readout"
            readout=curve_readout
            label=describe
            pointer=x_cursor.pointer(curve.node, count, move |x| {
                x + reach(s.t5_len.get_untracked(), max_distance.get_untracked()) as f64
            })
        />
        <p class="finding">{near::text(finding)}</p>
        <figcaption>
            "T5 (Raffel et al. 2020) adds one learned scalar per bucket and head to the "
            "attention logits. Near distances are told apart exactly; far ones only roughly, "
            "in buckets whose width grows with the distance. The log buckets reach the last "
            "one at or before max_distance (at distance 91 with T5's own 32 buckets and "
            "max_distance 128, bidirectional), and from there on every distance looks the "
            "same to this bias, so it stops changing and any length can be read. That is "
            "one layer's view: T5's authors note that a layer is insensitive to relative "
            "position beyond 128 tokens, but subsequent layers can build a sensitivity to "
            "larger offsets by combining local information (Raffel et al. 2020, §2.1). The "
            "numbers are those of transformers' T5Attention._relative_position_bucket."
        </figcaption>
    }
}
