//! q·k over positions: the score of q rotated to position m against k rotated to position n, for
//! every m and n — constant along each diagonal, because it depends only on m − n — and the same
//! numbers as a curve over the distance, under RoFormer's long-term decay bound.

use leptos::html::Canvas;
use leptos::prelude::*;

use crate::app::near;

use crate::app::controls::Choice;
use crate::app::figure::{
    DrawStats, InteractiveCanvas, SecondCanvas, StillCanvas, draw_panels_effect,
};
use crate::app::frame::figure;
use crate::app::matrix::{Matrix, MatrixPainter};
use crate::app::plot::paint_lines;
use crate::app::select::{cell_pointer, step_cursor};
use crate::app::state::rope::RopeState;
use crate::app::theme::chapter_context;
use crate::chart::heatmap::HeatmapLayout;
use crate::params::rope::QkSource;
use crate::scene::rope as scene;

/// The figure.
#[component]
pub fn ScoresOverPositions() -> impl IntoView {
    let (s, theme) = chapter_context!(RopeState);
    let (pos, rotary, qk) = (s.current_pos(), s.rotary_dim(), s.qk_vectors());
    // The 2n − 1 diagonals and the bound, recomputed when an input of the math changes (not when
    // only the highlighted position moves).
    let scores = Memo::new(move |_| {
        let (n, base, layout, r) = (
            s.positions.get(),
            s.base.get(),
            s.layout.get(),
            rotary.get(),
        );
        qk.with(|(q, k)| scene::score_tables((q, k), (base, r, layout), n))
    });
    let matrix_ref = NodeRef::<Canvas>::new();
    let curve = SecondCanvas::new();
    let layout = StoredValue::new(None::<HeatmapLayout>);
    let cursor = RwSignal::new(None::<(usize, usize)>);
    let mut painter = MatrixPainter::default();
    let mut version = 0u64;
    let mut last = None;
    // Drawn while either canvas is in view (the lower one can be on screen alone).
    let stats = DrawStats::new();
    draw_panels_effect(&[matrix_ref, curve.node], stats, move |surface| {
        let (n, m, t) = (s.positions.get(), pos.get(), theme.get());
        scores.with(|(g, bound)| {
            let scale = scene::score_scale(g);
            let key = (
                n,
                g.len(),
                g.first().copied(),
                g.get(n - 1).copied(),
                scale.to_bits(),
            );
            if last != Some(key) {
                version += 1;
                last = Some(key);
            }
            let spec = scene::scores_matrix_spec(n, scale, t);
            let cells = Matrix {
                values: g,
                stride: n,
                version: Some(version),
                toeplitz: true,
            };
            layout.set_value(painter.paint(
                surface,
                scene::scores_matrix_height,
                &spec,
                cells,
                &[m],
            ));

            let Some(curve) = curve.surface() else {
                return;
            };
            let spec = scene::scores_curve_spec(g, bound, n, scale, t);
            paint_lines(&curve, scene::scores_curve_height, &spec);
        });
    });
    let on_key = move |ev: web_sys::KeyboardEvent| {
        let n = s.positions.get_untracked();
        let at = cursor.get_untracked().unwrap_or((pos.get_untracked(), 0));
        if let Some(next) = step_cursor(&ev.key(), at, 0..n, 0..n) {
            ev.prevent_default();
            cursor.set(Some(next));
        }
    };
    Effect::new(move |_| {
        let n = s.positions.get();
        if cursor
            .get_untracked()
            .is_some_and(|(a, b)| a >= n || b >= n)
        {
            cursor.set(None);
        }
    });
    let value_at = move |(m, k): (usize, usize)| {
        let n = s.positions.get();
        scores.with(|(g, _)| g.get(m + n - 1 - k).copied().unwrap_or(0.0))
    };
    let readout = move || match cursor.get() {
        Some((m, k)) => format!(
            "q'_{m} · k'_{k} = {:.6} · distance m − n = {}",
            value_at((m, k)),
            m as i64 - k as i64
        ),
        None => {
            "Hover the matrix (or focus it and use the arrow keys) to read a score.".to_string()
        }
    };
    let bound_note = move || {
        let n = s.positions.get();
        scores.with(|(g, bound)| {
            let b0 = bound.first().copied().unwrap_or(0.0);
            format!(
                "The bound's shape is drawn scaled to |score| at distance 0 = {}: the bound itself starts at {} ({}× the score) and keeps that shape.",
                crate::params::format_significant(g[n - 1].abs(), 4),
                crate::params::format_significant(b0, 4),
                crate::params::format_significant(b0 / g[n - 1].abs().max(1e-300), 4),
            )
        })
    };
    let trend = move || {
        let n = s.positions.get();
        let pairs = rotary.get() / 2;
        scores.with(|(g, bound)| {
            crate::explain::rope::score_trend(&g[n - 1..], bound, pairs).to_string()
        })
    };
    let reroll = move |_| {
        if let Ok(seed) = getrandom::u64() {
            s.seed.set(seed);
        }
        s.qk.set(QkSource::Random);
    };
    let describe = move || {
        format!(
            "The {n} × {n} matrix of RoPE scores q'_m · k'_n (head_dim {}, base {}): every diagonal \
             has one colour, because the score depends only on m − n.",
            s.dim.get(),
            s.base.get(),
            n = s.positions.get()
        )
    };

    figure! { "fig-rope-scores", "ctl-r-n ctl-r-d ctl-r-base r-qk", stats, [
        data-cell=move || cursor.get().map(|(a, b)| format!("{a},{b}")).unwrap_or_default()
        data-value=move || cursor.get().map(|c| format!("{}", value_at(c))).unwrap_or_default()
    ];
        <div class="figure-tools">
            <Choice legend="q and k" name="r-qk" options=vec![(QkSource::Ones, "all ones"), (QkSource::Random, "random")] value=s.qk />
            <button type="button" class="button" on:click=reroll>"Re-roll q, k"</button>
            <span class="hint">{near::text(move || match s.qk.get() {
                QkSource::Ones => "every coordinate 1".to_string(),
                QkSource::Random => format!("standard normal, seed {}", s.seed.get()),
            })}</span>
        </div>
        <InteractiveCanvas node_ref=matrix_ref readout=readout label=describe
            pointer=cell_pointer(matrix_ref, layout, cursor, on_key) />
        <StillCanvas node_ref=curve.node label="The score as a function of the distance m − n, with the shape of RoFormer's bound scaled to start at the same height (the score can cross this scaled curve; it never exceeds the unscaled bound)." />
        <p class="hint">{near::text(bound_note)}</p>
        <figcaption>
            "Rotate q to position m and k to position n, then take the dot product: pair i "
            "adds one wave, A" <sub>"i"</sub> " cos((m − n)θ" <sub>"i"</sub> ") − B"
            <sub>"i"</sub> " sin((m − n)θ" <sub>"i"</sub> "), with A" <sub>"i"</sub> " and B"
            <sub>"i"</sub> " fixed by q and k, so the score depends only on m − n and the "
            "matrix is constant along every diagonal. (This is the raw dot product; the "
            "scores of “Why not add?” are divided by √d.) A few waves swing without dying "
            "down; many fall out of step and the sum shrinks over the distances shown — though "
            "a finite sum of waves never goes to zero for good. RoFormer (§3.4.3) bounds the "
            "score by a sum that shrinks the same way, which the paper shows numerically; the "
            "drawn shape is that bound scaled to meet the score at distance 0. A smaller base "
            "turns the pairs faster, so they fall out of step within fewer positions; a larger "
            "base stretches the same fall over longer distances. Random q and k stay under "
            "their (unscaled) bound but need not fall. "
            {trend}
        </figcaption>
    }
}
