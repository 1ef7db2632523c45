//! The wave view: chosen dimensions of the sinusoidal encoding as curves over position, the current
//! position marked. Linked to the heatmap: the column under the heatmap's cursor is drawn too.

use leptos::html::Canvas;
use leptos::prelude::*;

use crate::app::near;

use crate::app::canvas::Surface;
use crate::app::figure::{InteractiveCanvas, Pointer, draw_effect};
use crate::app::frame::figure;
use crate::app::plot::paint_lines;
use crate::app::state::{AppState, Notices};
use crate::app::theme::chapter_context;
use crate::chart::lines::LinePlotLayout;
use crate::chart::theme::Theme;
use crate::math::sinusoidal::SinusoidalParams;
use crate::params::{format_dims, parse_dims};
use crate::scene::sinusoids as scene;

/// The wavelength of a column in positions (`2π/ω`), or `None` for a constant column.
fn wavelength(p: &SinusoidalParams, dim: usize) -> Option<f64> {
    let w = p.omega(dim);
    (w > 0.0).then(|| std::f64::consts::TAU / w)
}

/// Draws the figure; returns the plot layout for hover.
fn paint(
    canvas: &Surface,
    p: &SinusoidalParams,
    dims: &[usize],
    hovered: Option<usize>,
    pos: usize,
    theme: Theme,
) -> Option<LinePlotLayout> {
    let spec = scene::waves_spec(p, dims, hovered, pos, theme);
    paint_lines(canvas, scene::waves_height, &spec)
}

/// The wave figure with its dimension picker and readout.
#[component]
pub fn SinusoidalWaves() -> impl IntoView {
    let (state, theme) = chapter_context!(AppState.sinusoidal);
    let notices = expect_context::<Notices>();
    let params = state.params();
    let pos = state.current_pos();
    let dims = state.wave_dims();
    let hovered = state.hover_dim;

    let canvas_ref = NodeRef::<Canvas>::new();
    let layout = StoredValue::new(None::<LinePlotLayout>);
    let cursor = RwSignal::new(None::<usize>);
    let stats = draw_effect(canvas_ref, move |canvas| {
        let drawn = dims.with(|d| {
            paint(
                canvas,
                &params.get(),
                d,
                hovered.get(),
                pos.get(),
                theme.get(),
            )
        });
        layout.set_value(drawn);
    });

    let on_move = move |ev: leptos::ev::MouseEvent| {
        let Some(canvas) = canvas_ref.get_untracked() else {
            return;
        };
        let ratio = f64::from(canvas.width()) / f64::from(canvas.client_width().max(1));
        let x = layout.with_value(|l| {
            l.as_ref()
                .and_then(|l| l.data_x(f64::from(ev.offset_x()) * ratio))
        });
        if let Some(x) = x {
            let n = params.get_untracked().positions;
            cursor.set(Some((x.round().max(0.0) as usize).min(n - 1)));
        }
    };
    let on_key = move |ev: leptos::ev::KeyboardEvent| {
        let n = params.get_untracked().positions;
        let at = cursor.get_untracked().unwrap_or(pos.get_untracked());
        let next = match ev.key().as_str() {
            "ArrowLeft" => at.saturating_sub(1),
            "ArrowRight" => (at + 1).min(n - 1),
            "PageDown" => (at + 10).min(n - 1),
            "PageUp" => at.saturating_sub(10),
            "Home" => 0,
            "End" => n - 1,
            _ => return,
        };
        ev.prevent_default();
        cursor.set(Some(next));
    };
    let on_dims = move |ev: leptos::ev::Event| {
        let text = event_target_value(&ev);
        let (list, notice) = parse_dims(&text, params.get_untracked().dim);
        if let Some(n) = notice {
            notices.push(n);
        }
        event_target::<web_sys::HtmlInputElement>(&ev).set_value(&format_dims(&list));
        state.dims.set(list);
    };

    let readout = move || {
        let p = params.get();
        let at = cursor.get().unwrap_or(pos.get()).min(p.positions - 1);
        let values = dims.with(|d| {
            d.iter()
                .map(|&k| {
                    let lambda = wavelength(&p, k)
                        .map(|l| format!(" (λ = {l:.1})"))
                        .unwrap_or_default();
                    format!("column {k} = {:.4}{lambda}", p.value(at, k))
                })
                .collect::<Vec<_>>()
                .join(" · ")
        });
        format!("pos {at}: {values}")
    };
    let describe = move || {
        let p = params.get();
        let list = dims.with(|d| format_dims(d));
        format!(
            "Line plot of columns {list} of the sinusoidal encoding over positions 0 to {}. \
             {} Position {} is marked.",
            p.positions - 1,
            crate::explain::sinusoids::waves_speed_text(&p),
            pos.get()
        )
    };

    figure! { "fig-waves", "ctl-n ctl-d ctl-base ctl-pos ctl-dims layout spacing", stats;
        <div class="figure-tools">
            <label for="ctl-dims">"columns"</label>
            <input
                id="ctl-dims"
                type="text"
                inputmode="numeric"
                class="exact wide"
                prop:value=move || dims.with(|d| format_dims(d))
                on:change=on_dims
                aria-describedby="ctl-dims-hint"
            />
            <span id="ctl-dims-hint" class="hint">"comma-separated, up to 8"</span>
        </div>
        <InteractiveCanvas node_ref=canvas_ref readout=readout label=describe
            pointer=Pointer::new(on_move, on_key).clearing(cursor) />
        <figcaption>
            {near::text(move || crate::explain::sinusoids::waves_caption(&params.get()))}
            " Hover a column of the heatmap to add its wave here (grey)."
        </figcaption>
    }
}
