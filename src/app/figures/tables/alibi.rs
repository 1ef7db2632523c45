//! ALiBi's bias `−m·|i − j|` (Press, Smith & Lewis 2022, §3): the chosen head's matrix, and
//! small multiples of every head on the same colour scale. With the causal mask, keys after the
//! query are masked (grey).

use leptos::html::Canvas;
use leptos::prelude::*;

use crate::app::near;
use wasm_bindgen::Clamped;
use web_sys::ImageData;

use crate::app::canvas;
use crate::app::controls::IntSlider;
use crate::app::figure::{DrawStats, InteractiveCanvas, SecondCanvas, draw_panels_effect};
use crate::app::frame::figure;
use crate::app::matrix::MatrixPainter;
use crate::app::select::{cell_pointer, event_pixel, key_cursor, step_item};
use crate::app::state::tables::TablesState;
use crate::app::theme::chapter_context;
use crate::chart::colormap::Lut;
use crate::chart::heatmap::HeatmapLayout;
use crate::chart::multiples::TileGrid;
use crate::explain::tables::{APP_B, alibi_mask_note};
use crate::params::tables::ALIBI_LEN;
use crate::scene::tables::{self as scene, bias, slope_text};

/// The small multiples' grid for `heads` tiles across `width` pixels at `ratio` pixels per CSS
/// pixel.
fn grid(heads: usize, width: f64, ratio: f64) -> TileGrid {
    let px = |css: f64| (css * ratio).round() as usize;
    TileGrid::new(heads, px(width), px(64.0), px(140.0), px(10.0), px(18.0))
}

/// The figure.
#[component]
pub fn AlibiBias() -> impl IntoView {
    let (s, theme) = chapter_context!(TablesState);
    let (slopes, head) = (s.slopes(), s.head());
    let matrix_ref = NodeRef::<Canvas>::new();
    let tiles = SecondCanvas::new();
    let layout = StoredValue::new(None::<HeatmapLayout>);
    let tiles_grid = StoredValue::new(None::<TileGrid>);
    let cursor = RwSignal::new(None::<(usize, usize)>);
    let tile_cursor = RwSignal::new(None::<usize>);
    let mut painter = MatrixPainter::default();
    let mut rgba = Vec::new();
    let (mut version, mut drawn_for) = (0u64, None);
    let stats = DrawStats::new();
    draw_panels_effect(&[matrix_ref, tiles.node], stats, move |surface| {
        let (n, causal, h, t) = (s.alibi_len.get(), s.causal.get(), head.get(), theme.get());
        let m = slopes.with(|v| v.get(h - 1).copied().unwrap_or(0.0));
        if drawn_for != Some((n, causal, m.to_bits())) {
            drawn_for = Some((n, causal, m.to_bits()));
            version += 1;
        }
        let spec = scene::alibi_spec(n, h, m, t);
        layout.set_value(painter.paint_fn(
            surface,
            scene::alibi_height,
            &spec,
            Some(version),
            |i, j| bias(m, i, j, causal),
            &[],
        ));

        // Small multiples: every head, same scale, one image.
        let Some(surface) = tiles.surface() else {
            return;
        };
        let heads = s.heads.get();
        let css = grid(heads, surface.css_width, 1.0);
        if canvas::fit(&surface, |_| css.size().1 as f64).is_none() {
            return;
        }
        let canvas_el = &surface.el;
        let ratio = surface.backing_ratio();
        let g = grid(heads, surface.css_width, ratio);
        tiles_grid.set_value(Some(g));
        let bar = scene::alibi_colorbar();
        let lut = Lut::for_scale(bar.scale, t.diverging);
        slopes.with(|ms| {
            let at = |px: usize| px * n / g.tile.max(1);
            g.paint(
                &lut,
                (bar.lo, bar.hi),
                |k, y, x| bias(ms[k], at(y), at(x), causal),
                &mut rgba,
            );
        });
        let Some(ctx) = canvas::context_2d(canvas_el) else {
            return;
        };
        let (w, hgt) = g.size();
        ctx.clear_rect(
            0.0,
            0.0,
            f64::from(canvas_el.width()),
            f64::from(canvas_el.height()),
        );
        if let Ok(image) =
            ImageData::new_with_u8_clamped_array_and_sh(Clamped(&rgba), w as u32, hgt as u32)
        {
            let _ = ctx.put_image_data(&image, 0.0, 0.0);
        }
        let text = |c: plotters::style::RGBColor| format!("rgb({},{},{})", c.0, c.1, c.2);
        ctx.set_font(&format!(
            "{}px system-ui, sans-serif",
            (12.0 * ratio).round()
        ));
        ctx.set_text_baseline("bottom");
        let selected = tile_cursor.get().unwrap_or(h - 1);
        slopes.with(|ms| {
            for (k, m) in ms.iter().enumerate() {
                let (x, y) = g.origin(k);
                let strong = k == selected;
                ctx.set_fill_style_str(&text(if strong { t.highlight } else { t.text }));
                let label = scene::tile_label(k, *m);
                let _ = ctx.fill_text(&label, x as f64, y as f64 - 3.0 * ratio);
                if strong {
                    ctx.set_stroke_style_str(&text(t.highlight));
                    ctx.set_line_width(2.0 * ratio);
                    ctx.stroke_rect(x as f64, y as f64, g.tile as f64, g.tile as f64);
                }
            }
        });
    });
    let on_key = key_cursor(
        cursor,
        move || (s.alibi_len.get_untracked(), s.alibi_len.get_untracked()),
        (0, 0),
    );
    let choose = move |k: usize| {
        if k + 1 != head.get_untracked() {
            s.slope.set(None);
            s.head.set(k + 1);
        }
    };
    let on_tiles_move = move |ev: web_sys::MouseEvent| {
        let Some(el) = tiles.node.get_untracked() else {
            return;
        };
        let (x, y) = event_pixel(&el, &ev);
        if let Some(k) = tiles_grid.with_value(|g| g.and_then(|g| g.tile_at(x, y))) {
            tile_cursor.set(Some(k));
        }
    };
    let on_tiles_key = move |ev: leptos::ev::KeyboardEvent| {
        let heads = s.heads.get_untracked();
        let key = ev.key();
        if key == "Enter" || key == " " {
            if let Some(k) = tile_cursor.get_untracked() {
                ev.prevent_default();
                choose(k);
            }
            return;
        }
        let at = tile_cursor
            .get_untracked()
            .or(Some(head.get_untracked() - 1));
        if let Some(k) = step_item(&key, at, heads) {
            ev.prevent_default();
            tile_cursor.set(Some(k));
        }
    };
    let readout = move || match cursor.get() {
        Some((i, j)) if i < s.alibi_len.get() && j < s.alibi_len.get() => {
            let h = head.get();
            let m = slopes.with(|v| v[h - 1]);
            let b = bias(m, i, j, s.causal.get());
            if b.is_nan() {
                format!(
                    "Query {i}, key {j}: the key comes after the query; the causal mask hides it."
                )
            } else {
                format!(
                    "Query {i}, key {j}: distance {} → bias {} (relative to the key at the \
                     query's own position, this key's weight is multiplied by e^bias = {}).",
                    i.abs_diff(j),
                    crate::params::format_significant(b, 5),
                    crate::params::format_significant(b.exp(), 4)
                )
            }
        }
        _ => "Hover the matrix (or focus it and use the arrow keys) to read a bias.".to_string(),
    };
    let tiles_readout = move || {
        let heads = s.heads.get();
        match tile_cursor.get().filter(|&k| k < heads) {
            Some(k) => {
                let m = slopes.with(|v| v[k]);
                format!(
                    "Head {} of {heads}: m = {} · at distance 8 the bias is {} · click (or press \
                     Enter) to show this head above.",
                    k + 1,
                    slope_text(m),
                    crate::params::format_significant(-8.0 * m, 4)
                )
            }
            None => "Hover a head (or focus the grid and use the arrow keys) to read it; click or \
                     press Enter to show it above."
                .to_string(),
        }
    };
    let describe = move || {
        let h = head.get();
        format!(
            "The bias matrix of head {h} for {} positions: 0 on the diagonal, falling linearly \
             with the distance{}.",
            s.alibi_len.get(),
            if s.causal.get() {
                "; keys after the query are masked"
            } else {
                " on both sides"
            }
        )
    };
    let describe_tiles = move || {
        format!(
            "Small multiples of the bias of all {} heads on one colour scale, their slopes {}: \
             a steep slope leaves only a thin bright band near the diagonal, a shallow one a \
             wide band.",
            s.heads.get(),
            super::slopes::shape(s.heads.get())
        )
    };
    figure! { "fig-tab-alibi", "ctl-t-an ctl-t-causal", stats;
        <div class="figure-tools">
            <IntSlider label="sequence length n" id="ctl-t-an" min=ALIBI_LEN.0 max=ALIBI_LEN.1 value=s.alibi_len />
            <label class="check" for="ctl-t-causal">
                <input type="checkbox" id="ctl-t-causal" prop:checked=move || s.causal.get() on:change=move |_| s.causal.update(|c| *c = !*c) />
                "causal (a decoder: keys after the query are masked)"
            </label>
        </div>
        <InteractiveCanvas node_ref=matrix_ref readout=readout label=describe
            pointer=cell_pointer(matrix_ref, layout, cursor, on_key) />
        <div class="canvas-wrap">
            <canvas
                node_ref=tiles.node
                class="tiles"
                tabindex="0"
                role="img"
                aria-label=describe_tiles
                aria-describedby="fig-tab-alibi-tiles-readout"
                on:mousemove=on_tiles_move
                on:mouseleave=move |_| tile_cursor.set(None)
                on:click=move |_| {
                    if let Some(k) = tile_cursor.get_untracked() {
                        choose(k);
                    }
                }
                on:keydown=on_tiles_key
            ></canvas>
        </div>
        <p class="readout" id="fig-tab-alibi-tiles-readout" aria-live="polite">{near::text(tiles_readout)}</p>
        {move || {
            let note = alibi_mask_note(s.causal.get());
            (!note.is_empty()).then(|| view! { <p class="finding" id="fig-tab-alibi-mask">{note}</p> })
        }}
        <figcaption>
            "The bias is added to the attention score before the softmax, so relative to the "
            "key at the query's own position a key's weight is multiplied by e^(−m·|i − j|): "
            "farther keys are damped, more so for larger slopes. Colours stop at −8 (a factor e⁻⁸ ≈ 0.0003); hover for exact values. "
            "The formula has no length in it: make n as long as you like, and every bias "
            "is still defined. That alone does not make a model work past its training "
            "length (the sinusoidal table is defined everywhere too). What ALiBi adds is an "
            "inductive bias towards recency (Press et al., §3), and it does extrapolate: "
            "their 1.3-billion-parameter model, trained on 1024 tokens, reaches on 2048 the "
            "perplexity of a sinusoidal model trained on 2048 (§4.2). " {APP_B}
        </figcaption>
    }
}
