//! The sinusoidal encoding as a heatmap: positions down, dimensions across, a diverging colour map
//! fixed to [−1, 1]. The cells are one RGBA raster (one `putImageData` into a layer over the plot,
//! see [`crate::app::matrix`]); plotters draws the frame. Hover or arrow keys pick a cell; the
//! readout shows `PE(pos, i)` from the exact formula.

use leptos::html::{Canvas, Input};
use leptos::prelude::*;

use crate::app::near;

use crate::app::controls::show_value;
use crate::app::figure::{InteractiveCanvas, draw_effect};
use crate::app::frame::figure;
use crate::app::matrix::{Matrix, MatrixPainter};
use crate::app::select::{cell_pointer, step_cursor};
use crate::app::state::{AppState, Notices};
use crate::app::theme::PageTheme;
use crate::chart::heatmap::HeatmapLayout;
use crate::math::sinusoidal::{Column, SinusoidalParams};
use crate::params::{Span, parse_usize};
use crate::scene::sinusoids as scene;

/// What the text alternative says about the current figure.
fn describe(p: &SinusoidalParams, pos: usize) -> String {
    format!(
        "Heatmap of the sinusoidal positional encoding: {} positions down, {} columns across, \
         base {}, {} layout, {} spacing. Colour runs from blue (−1) to red or orange (+1), with 0 in the page colour. \
         {}. Read as clock hands, {}. Position {} is outlined.",
        p.positions,
        p.dim,
        p.base,
        p.layout.as_str(),
        p.spacing.label(),
        crate::explain::sinusoids::columns_text(p),
        crate::explain::sinusoids::readings(p),
        pos
    )
}

/// The heatmap figure with its readout.
#[component]
pub fn SinusoidalHeatmap() -> impl IntoView {
    let state = expect_context::<AppState>().sinusoidal;
    let page_theme = expect_context::<PageTheme>();
    let params = state.params();
    let pos = state.current_pos();
    let rows = state.row_range();
    let cols = state.col_range();
    let theme = page_theme.chart();

    let canvas_ref = NodeRef::<Canvas>::new();
    let layout = StoredValue::new(None::<HeatmapLayout>);
    let cursor = RwSignal::new(None::<(usize, usize)>);

    let mut table = Vec::new();
    let mut painter = MatrixPainter::default();
    // The table is recomputed only when the encoding changes (not when the position moves);
    // `version` counts the recomputations, so the painter repaints the cells only then.
    let mut computed_for = None;
    let mut version = 0u64;
    let stats = draw_effect(canvas_ref, move |canvas| {
        let (p, row, t) = (params.get(), pos.get(), theme.get());
        if computed_for != Some(p) {
            p.table_into(&mut table);
            computed_for = Some(p);
            version += 1;
        }
        let spec = scene::heatmap_spec(rows.get(), cols.get(), t);
        let matrix = Matrix {
            values: &table,
            stride: p.dim,
            version: Some(version),
            toeplitz: false,
        };
        let drawn = painter.paint(canvas, scene::heatmap_height, &spec, matrix, &[row]);
        layout.set_value(drawn);
    });

    // Share the column under the cursor with the wave view (UI state only). Signals are set only
    // when the value really changes: a redundant set would repaint the waves a second time.
    Effect::new(move |_| {
        let col = cursor.get().map(|(_, col)| col);
        if state.hover_dim.get_untracked() != col {
            state.hover_dim.set(col);
        }
    });

    // Keep the hovered cell inside the table when the table shrinks.
    Effect::new(move |_| {
        let (rs, cs) = (rows.get(), cols.get());
        if let Some((r, c)) = cursor.get_untracked()
            && (!rs.contains(&r) || !cs.contains(&c))
        {
            cursor.set(None);
        }
    });

    let on_key = move |ev: leptos::ev::KeyboardEvent| {
        let (rs, cs) = (rows.get_untracked(), cols.get_untracked());
        let start = (pos.get_untracked().clamp(rs.start, rs.end - 1), cs.start);
        let at = cursor.get_untracked().unwrap_or(start);
        if let Some(next) = step_cursor(&ev.key(), at, rs, cs) {
            ev.prevent_default();
            cursor.set(Some(next));
        }
    };

    let readout = move || match cursor.get() {
        Some((r, c)) => {
            let p = params.get();
            let what = match p.column(c) {
                Column::Sin(i) => format!("sin of pair {i}"),
                Column::Cos(i) => format!("cos of pair {i}"),
                Column::Zero => "zero padding".to_string(),
            };
            format!("PE({r}, {c}) = {:.6} — {what}", p.value(r, c))
        }
        None => "Hover over the heatmap (or focus it and use the arrow keys) to read a value."
            .to_string(),
    };
    let cursor_value = move || {
        cursor
            .get()
            .map(|(r, c)| format!("{}", params.get().value(r, c)))
            .unwrap_or_default()
    };
    let cursor_cell = move || {
        cursor
            .get()
            .map(|(r, c)| format!("{r},{c}"))
            .unwrap_or_default()
    };

    figure! { "fig-heatmap", "ctl-n ctl-d ctl-base ctl-pos layout spacing ctl-rows-from ctl-rows-to ctl-cols-from ctl-cols-to", stats;
        <div class="figure-tools" role="group" aria-label="Zoom">
            <SpanInput what="positions" id="ctl-rows" span=state.rows len=state.positions />
            <SpanInput what="columns" id="ctl-cols" span=state.cols len=state.dim />
            <button
                type="button"
                class="button small"
                on:click=move |_| {
                    state.rows.set(None);
                    state.cols.set(None);
                }
            >
                "show all"
            </button>
        </div>
        <InteractiveCanvas node_ref=canvas_ref label=move || describe(&params.get(), pos.get())
            pointer=cell_pointer(canvas_ref, layout, cursor, on_key) />
        <p
            class="readout"
            id="fig-heatmap-readout"
            aria-live="polite"
            data-cell=cursor_cell
            data-value=cursor_value
        >
            {readout}
        </p>
        <figcaption>{near::text(move || crate::explain::sinusoids::heatmap_caption(&params.get()))}</figcaption>
    }
}

/// "`what` from [a] to [b]": an inclusive zoom range over `0..len`, typed as two numbers.
#[component]
fn SpanInput(
    what: &'static str,
    id: &'static str,
    span: RwSignal<Option<Span>>,
    len: RwSignal<usize>,
) -> impl IntoView {
    let notices = expect_context::<Notices>();
    let shown = Memo::new(move |_| {
        let n = len.get();
        span.get().map_or(0..n, |s| s.fit(n))
    });
    let set_end = move |ev: leptos::ev::Event, is_from: bool| {
        let n = len.get_untracked();
        let current = shown.get_untracked();
        let fallback = if is_from {
            current.start
        } else {
            current.end - 1
        };
        let label = format!("{what} {}", if is_from { "from" } else { "to" });
        let (v, notice) = parse_usize(&label, &event_target_value(&ev), (0, n - 1), fallback);
        if let Some(n) = notice {
            notices.push(n);
        }
        let (from, to) = if is_from {
            (v, current.end - 1)
        } else {
            (current.start, v)
        };
        let next = Span {
            from: from.min(to),
            to: from.max(to),
        };
        span.set((next != Span { from: 0, to: n - 1 }).then_some(next));
        event_target::<web_sys::HtmlInputElement>(&ev).set_value(&v.to_string());
    };
    let (from, to) = (NodeRef::<Input>::new(), NodeRef::<Input>::new());
    show_value(from, move || shown.get().start.to_string());
    show_value(to, move || (shown.get().end - 1).to_string());
    let from_id = format!("{id}-from");
    let to_id = format!("{id}-to");
    view! {
        <span class="span-input">
            <label for=from_id.clone()>{what}</label>
            <input
                node_ref=from
                type="number"
                class="exact"
                id=from_id
                min="0"
                max=near::text(move || (len.get() - 1).to_string())
                aria-label=format!("{what} shown from")
                on:change=move |ev| set_end(ev, true)
            />
            <span aria-hidden="true">"–"</span>
            <input
                node_ref=to
                type="number"
                class="exact"
                id=to_id
                min="0"
                max=near::text(move || (len.get() - 1).to_string())
                aria-label=format!("{what} shown to")
                on:change=move |ev| set_end(ev, false)
            />
        </span>
    }
}
