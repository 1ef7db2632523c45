//! Cosine similarity of sinusoidal position vectors: the `n × n` matrix, and the row of the
//! current position as a curve — it peaks at the position itself and depends only on distance.

use leptos::html::Canvas;
use leptos::prelude::*;

use crate::app::near;

use crate::app::figure::{
    DrawStats, InteractiveCanvas, SecondCanvas, StillCanvas, draw_panels_effect,
};
use crate::app::frame::figure;
use crate::app::matrix::{Matrix, MatrixPainter};
use crate::app::plot::paint_lines;
use crate::app::select::{cell_pointer, step_cursor};
use crate::app::state::AppState;
use crate::app::theme::chapter_context;
use crate::chart::heatmap::HeatmapLayout;
use crate::math::similarity;
use crate::scene::sinusoids as scene;

/// The similarity figure: matrix with hover, and the current position's row as a curve.
#[component]
pub fn SinusoidalSimilarity() -> impl IntoView {
    let (state, theme) = chapter_context!(AppState.sinusoidal);
    let params = state.params();
    let pos = state.current_pos();
    // The matrix lives in one reused buffer (n² floats: 8 MB at n = 1024), recomputed only when
    // the encoding changes, not when the position moves. `version` tells readers it changed.
    let matrix = StoredValue::new(Vec::<f64>::new());
    let version = RwSignal::new(0u64);

    let matrix_ref = NodeRef::<Canvas>::new();
    let curve = SecondCanvas::new();
    let layout = StoredValue::new(None::<HeatmapLayout>);
    let cursor = RwSignal::new(None::<(usize, usize)>);
    let mut painter = MatrixPainter::default();
    let mut computed_for = None;
    // One effect paints both canvases, so the curve always reads the matrix just computed.
    // Drawn while either canvas is in view (the lower one can be on screen alone).
    let stats = DrawStats::new();
    draw_panels_effect(&[matrix_ref, curve.node], stats, move |canvas| {
        let p = params.get();
        let (n, at, t) = (p.positions, pos.get(), theme.get());
        if computed_for != Some(p) {
            matrix.update_value(|m| similarity::sinusoidal_matrix_into(&p, m));
            computed_for = Some(p);
            version.update(|v| *v += 1);
        }
        let spec = scene::similarity_matrix_spec(n, t);
        let drawn = matrix.with_value(|m| {
            let cells = Matrix {
                values: m,
                stride: n,
                version: Some(version.get_untracked()),
                toeplitz: false,
            };
            painter.paint(canvas, scene::similarity_matrix_height, &spec, cells, &[at])
        });
        layout.set_value(drawn);

        let Some(curve) = curve.surface() else {
            return;
        };
        let spec =
            matrix.with_value(|m| scene::similarity_curve_spec(&m[at * n..(at + 1) * n], at, t));
        paint_lines(&curve, scene::similarity_curve_height, &spec);
    });

    let on_key = move |ev: leptos::ev::KeyboardEvent| {
        let n = params.get_untracked().positions;
        let at = cursor.get_untracked().unwrap_or((pos.get_untracked(), 0));
        if let Some(next) = step_cursor(&ev.key(), at, 0..n, 0..n) {
            ev.prevent_default();
            cursor.set(Some(next));
        }
    };
    Effect::new(move |_| {
        let n = params.get().positions;
        if cursor
            .get_untracked()
            .is_some_and(|(a, b)| a >= n || b >= n)
        {
            cursor.set(None);
        }
    });

    let cell_value = move |(a, b): (usize, usize)| {
        version.track();
        let n = params.get().positions;
        matrix.with_value(|m| m.get(a * n + b).copied().unwrap_or(0.0))
    };
    let readout = move || match cursor.get() {
        Some((a, b)) => format!(
            "similarity(PE({a}), PE({b})) = {:.6} · distance {}",
            cell_value((a, b)),
            a.abs_diff(b)
        ),
        None => "Hover the matrix (or focus it and use the arrow keys) to read a similarity."
            .to_string(),
    };
    // The caption's live numbers: along the distance when the rows are shift invariant, else the
    // spread of the distance-1 diagonal that the lone sine causes.
    let caption = Memo::new(move |_| {
        let p = params.get();
        let n = p.positions;
        if n < 2 {
            return "With a single position there is nothing to compare.".to_string();
        }
        if p.is_shift_invariant() {
            let g = similarity::sinusoidal_by_distance(&p, n);
            let (low_at, low) =
                g.iter()
                    .enumerate()
                    .skip(1)
                    .fold(
                        (1, f64::INFINITY),
                        |(k, m), (j, &v)| if v < m { (j, v) } else { (k, m) },
                    );
            let steady = g.windows(2).all(|w| w[1] <= w[0]);
            let shape = if steady {
                "over this short range it falls steadily; show more positions to see the ripples"
            } else {
                "not a steady fall but a sum of waves"
            };
            format!(
                "Similarity by distance: {:.2} at distance 1, {:.2} at distance {}, lowest {low:.2} at distance {low_at} — {shape}. Since PE(a)·PE(b) = Σ_i cos((a−b)·ω_i) and every row has norm √{}, the similarity is the mean of cos((a−b)·ω_i) over the pairs: only the distance matters, so every diagonal is constant and the curve keeps its shape as you move the position slider. It is also the same for a − b and b − a: the raw encodings cannot tell before from after.",
                g[1],
                g[n - 1],
                n - 1,
                p.dim / 2
            )
        } else {
            let h = p.dim / 2;
            let (lo, hi) = similarity::sinusoidal_diagonal(&p, 1)
                .into_iter()
                .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), v| {
                    (lo.min(v), hi.max(v))
                });
            format!(
                "d is odd, so the last sine has no cosine partner: it adds sin(a·ω_{h})·sin(b·ω_{h}), which depends on a and b, not only on a − b. So the diagonals are not exactly constant — the distance-1 diagonal runs {} — and the curve depends on the position the slider picks, not only on the distance.",
                crate::explain::sinusoids::range_text(lo, hi)
            )
        }
    });
    let describe = move || {
        let p = params.get();
        format!(
            "Cosine-similarity matrix of the sinusoidal position vectors for {} positions, d_model \
             {}, base {}. The diagonal is 1; away from it the values are a sum of waves in the distance, and {}",
            p.positions,
            p.dim,
            p.base,
            if p.is_shift_invariant() {
                "each diagonal band is constant, because the similarity depends only on the distance a − b."
            } else {
                "the diagonal bands are not exactly constant (an odd d leaves one sine without its cosine)."
            }
        )
    };

    figure! { "fig-similarity", "ctl-n ctl-d ctl-base ctl-pos spacing", stats, [
        data-cell=move || cursor.get().map(|(a, b)| format!("{a},{b}")).unwrap_or_default()
        data-value=move || cursor.get().map(|c| format!("{}", cell_value(c))).unwrap_or_default()
    ];
        <InteractiveCanvas node_ref=matrix_ref readout=readout label=describe
            pointer=cell_pointer(matrix_ref, layout, cursor, on_key) />
        <StillCanvas
            node_ref=curve.node
            label=move || {
                format!(
                    "Similarity of position {} to every other position: 1 at the position \
                     itself, and a sum of waves in the distance on either side.",
                    pos.get()
                )
            }
        />
        <figcaption>{near::text(move || caption.get())}</figcaption>
    }
}
