//! No structure before training: the cosine similarity of an untrained learned table's rows
//! beside the sinusoidal table's. Random rows are nearly orthogonal (similarity about
//! `±1/√d`, by the central limit theorem), with no band along the diagonal; the sinusoidal
//! similarity depends on the distance only.

use leptos::html::Canvas;
use leptos::prelude::*;

use crate::app::near;

use crate::app::figure::{SecondCanvas, draw_effect};
use crate::app::frame::figure;
use crate::app::matrix::{Matrix, MatrixPainter, MatrixPair};
use crate::app::select::key_cursor;
use crate::app::state::tables::TablesState;
use crate::app::theme::chapter_context;
use crate::chart::heatmap::HeatmapLayout;
use crate::explain::tables::NeighbourSimilarity;
use crate::scene::tables as scene;

/// The mean of the entries just above the diagonal of a `p × p` matrix (0 for `p < 2`).
fn neighbour_mean(m: &[f64], p: usize) -> f64 {
    if p < 2 {
        return 0.0;
    }
    let sum: f64 = (0..p - 1).filter_map(|a| m.get(a * p + a + 1)).sum();
    sum / (p - 1) as f64
}

/// Root mean square of the off-diagonal entries of a `p × p` matrix.
fn off_diagonal_rms(m: &[f64], p: usize) -> f64 {
    if p < 2 {
        return 0.0;
    }
    let sum: f64 = m
        .iter()
        .enumerate()
        .filter(|(k, _)| k / p != k % p)
        .map(|(_, v)| v * v)
        .sum();
    (sum / (p * (p - 1)) as f64).sqrt()
}

/// The figure.
#[component]
pub fn LearnedSimilarity() -> impl IntoView {
    let (s, theme) = chapter_context!(TablesState);
    let shown = Memo::new(move |_| scene::similarity_positions(s.max_len.get()));
    // Both matrices in buffers kept across redraws, recomputed only when the table changes;
    // `version` tells the readouts they changed.
    let matrices = StoredValue::new((Vec::<f64>::new(), Vec::<f64>::new()));
    let version = RwSignal::new(0u64);
    let learned_ref = NodeRef::<Canvas>::new();
    let sin = SecondCanvas::new();
    let [left_layout, right_layout] = [(); 2].map(|_| StoredValue::new(None::<HeatmapLayout>));
    let cursor = RwSignal::new(None::<(usize, usize)>);
    let (mut left, mut right) = (MatrixPainter::default(), MatrixPainter::default());
    let mut drawn_for = None;
    let stats = draw_effect(learned_ref, move |surface| {
        let (p, t) = (shown.get(), theme.get());
        let key = (p, s.dim.get(), s.seed.get());
        if drawn_for != Some(key) {
            drawn_for = Some(key);
            matrices.update_value(|(l, sm)| scene::similarity_matrices_into(key, l, sm));
            version.update(|v| *v += 1);
        }
        let v = Some(version.get_untracked());
        let [spec, sin_spec] = scene::learned_sim_specs(p, t);
        matrices.with_value(|(l, sm)| {
            let cells = |values| Matrix {
                values,
                stride: p,
                version: v,
                toeplitz: false,
            };
            let height = scene::learned_sim_height;
            left_layout.set_value(left.paint(surface, height, &spec, cells(l), &[]));
            let Some(surface) = sin.surface() else {
                return;
            };
            right_layout.set_value(right.paint(&surface, height, &sin_spec, cells(sm), &[]));
        });
    });
    let on_key = key_cursor(
        cursor,
        move || (shown.get_untracked(), shown.get_untracked()),
        (0, 0),
    );
    let readout = move || {
        let Some((a, b)) = cursor.get() else {
            return "Hover either matrix (or focus it and use the arrow keys) to compare two \
                    positions."
                .to_string();
        };
        let p = shown.get();
        version.track();
        matrices.with_value(|(l, sm)| {
            let at = |m: &[f64]| m.get(a * p + b).copied().unwrap_or(0.0);
            format!(
                "Positions {a} and {b} (distance {}): learned {:.4} · sinusoidal {:.4}",
                a.abs_diff(b),
                at(l),
                at(sm)
            )
        })
    };
    let finding = move || {
        let (p, d) = (shown.get(), s.dim.get());
        version.track();
        matrices.with_value(|(l, sm)| {
            // Until the figure has drawn (it computes its matrices when first seen), nothing.
            if l.len() != p * p || sm.len() != p * p {
                return String::new();
            }
            NeighbourSimilarity {
                positions: p,
                dim: d,
                rms: off_diagonal_rms(l, p),
                learned: neighbour_mean(l, p),
                sinusoidal: neighbour_mean(sm, p),
            }
            .to_string()
        })
    };
    let describe = move || {
        format!(
            "Two cosine-similarity matrices over the first {} positions. Left, the untrained \
             learned rows: 1 on the diagonal and speckled noise elsewhere, with no band. Right, \
             the sinusoidal rows: bands parallel to the diagonal, because their similarity \
             depends {}on the distance.",
            shown.get(),
            if s.dim.get().is_multiple_of(2) {
                "only "
            } else {
                "nearly only (exactly for even d) "
            }
        )
    };
    figure! { "fig-tab-learned-sim", "ctl-t-d ctl-t-seed", stats;
        <MatrixPair canvases=[(learned_ref, left_layout), (sin.node, right_layout)] cursor=cursor on_key=on_key
            readout=readout label=describe />
        <p class="finding">{near::text(finding)}</p>
        <figcaption>
            "The same table as above (its seed, width and rows; at most the first 128 "
            "positions). Untrained, a learned table knows nothing about order: a position is "
            "no more like its neighbour than like a distant position, except by chance. "
            "Whatever diagonal structure a trained table has, training put there: trained "
            "tables do grow smooth, distance-dependent similarity, but only in rows that "
            "were trained enough. BERT, for one, pre-trained on 128-token sequences for 90% "
            "of its steps and on 512 only for the last 10%, “to learn the positional "
            "embeddings” (Devlin et al. 2019, App. A.2), so its rows 128 … 511 were updated "
            "only in that last tenth. The sinusoidal table has its structure by construction."
        </figcaption>
    }
}
