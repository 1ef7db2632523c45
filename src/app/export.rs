//! A figure's pictures and numbers as files: the corner's download button opens three choices.
//!
//! - **PNG**: the figure's canvases redrawn at twice their CSS size (or the screen's density, if
//!   higher), stacked as the page shows them, downloaded as `<figure-id>.png`.
//! - **SVG**: the same picture drawn by the same chart code on plotters' SVG backend
//!   (`scene::svg`), at the CSS width of the figure's widest chart (within `RENDER_WIDTH`), its
//!   panels stacked top to bottom (also where the page puts two side by side); a heatmap's cells
//!   are one PNG inside it.
//! - **CSV**: the numbers the figure shows (`scene::Picture::csv`), its state in a comment.
//!
//! SVG and CSV are built from the state the page's link describes, as `pe render` builds them.
//!
//! Every canvas of the figure is drawn into one image at its place on the page, in page order (a
//! matrix figure's cells and outline layers lie over its frame); a layer clipped by a box
//! (`.layer-clip`) is clipped the same way, and CSS-scaled cell rasters stay sharp (no smoothing).
//! The background is the figure's own. Text outside the canvases (captions, readouts) is not in
//! the picture; the charts carry their titles, axes and legends.

use std::cell::RefCell;

use leptos::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{CanvasRenderingContext2d, Element, HtmlCanvasElement};

use super::canvas::{self, context_2d};
use super::split::split_point;
use super::theme::PageTheme;
use crate::scene::Build;

/// The pixel density of an exported picture: twice the CSS size, or the screen's, if higher.
pub fn export_ratio() -> f64 {
    canvas::screen_pixel_ratio().max(2.0)
}

/// A PNG button: downloads the figure as a PNG.
#[component]
fn PngButton(
    /// The figure's element id.
    id: &'static str,
    /// Its title in the contents.
    title: &'static str,
) -> impl IntoView {
    let theme = expect_context::<PageTheme>();
    let busy = RwSignal::new(false);
    let failed = RwSignal::new(false);
    let on_click = move |_| {
        if busy.get_untracked() {
            return;
        }
        busy.set(true);
        failed.set(false);
        // Redraw at the export density, give the figure's effects a task to repaint, take the
        // picture, then go back to the screen's density.
        theme.set_pixel_ratio(Some(export_ratio()));
        set_timeout(
            move || {
                let ok = save_png(id).is_some();
                theme.set_pixel_ratio(None);
                let _ = failed.try_set(!ok);
                let _ = busy.try_set(false);
            },
            std::time::Duration::from_millis(50),
        );
    };
    view! {
        <button
            type="button"
            class="figure-png"
            title="Download this figure as a PNG picture"
            aria-busy=move || busy.get().to_string()
            on:click=on_click
        >
            "PNG"
            <span class="visually-hidden">{format!(" picture of “{title}”")}</span>
            <span class="figure-link-status" aria-live="polite">
                {move || if failed.get() { "failed" } else { "" }}
            </span>
        </button>
    }
}

/// Draws figure `id`'s canvases into one picture and downloads it; `None` if the figure has no
/// drawn canvas or the browser refuses.
fn save_png(id: &str) -> Option<()> {
    let figure = document().get_element_by_id(id)?;
    let data_url = picture(&figure)?.to_data_url().ok()?;
    let link: web_sys::HtmlElement = document().create_element("a").ok()?.unchecked_into();
    link.set_attribute("href", &data_url).ok()?;
    link.set_attribute("download", &format!("{id}.png")).ok()?;
    link.click();
    Some(())
}

/// A canvas holding every laid-out canvas of `figure`, at the export density.
fn picture(figure: &Element) -> Option<HtmlCanvasElement> {
    let list = figure.query_selector_all("canvas").ok()?;
    let canvases: Vec<HtmlCanvasElement> = (0..list.length())
        .filter_map(|i| list.item(i)?.dyn_into::<HtmlCanvasElement>().ok())
        .filter(|c| {
            let r = c.get_bounding_client_rect();
            c.width() > 0 && c.height() > 0 && r.width() > 0.0 && r.height() > 0.0
        })
        .collect();
    let rects: Vec<web_sys::DomRect> = canvases
        .iter()
        .map(|c| visible_rect(c).unwrap_or_else(|| c.get_bounding_client_rect()))
        .collect();
    let left = rects.iter().map(|r| r.left()).fold(f64::INFINITY, f64::min);
    let top = rects.iter().map(|r| r.top()).fold(f64::INFINITY, f64::min);
    let right = rects
        .iter()
        .map(|r| r.right())
        .fold(f64::NEG_INFINITY, f64::max);
    let bottom = rects
        .iter()
        .map(|r| r.bottom())
        .fold(f64::NEG_INFINITY, f64::max);
    if !(right > left && bottom > top) {
        return None;
    }
    let scale = export_ratio();
    let out: HtmlCanvasElement = document().create_element("canvas").ok()?.unchecked_into();
    out.set_width(((right - left) * scale).round() as u32);
    out.set_height(((bottom - top) * scale).round() as u32);
    let ctx = context_2d(&out)?;
    let background = window()
        .get_computed_style(figure)
        .ok()
        .flatten()
        .and_then(|s| s.get_property_value("background-color").ok())
        .unwrap_or_else(|| "#ffffff".to_string());
    ctx.set_fill_style_str(&background);
    ctx.fill_rect(0.0, 0.0, f64::from(out.width()), f64::from(out.height()));
    ctx.set_image_smoothing_enabled(false);
    for (canvas, clip) in canvases.iter().zip(&rects) {
        draw_layer(&ctx, canvas, clip, (left, top), scale);
    }
    Some(out)
}

/// The box that clips `canvas` on the page (its `.layer-clip` parent), if any.
fn visible_rect(canvas: &HtmlCanvasElement) -> Option<web_sys::DomRect> {
    let clip = canvas.parent_element()?;
    clip.class_list()
        .contains("layer-clip")
        .then(|| clip.get_bounding_client_rect())
}

/// Draws `canvas` at its place on the page (relative to `origin`, scaled), clipped to `clip`.
fn draw_layer(
    ctx: &CanvasRenderingContext2d,
    canvas: &HtmlCanvasElement,
    clip: &web_sys::DomRect,
    (left, top): (f64, f64),
    scale: f64,
) {
    let r = canvas.get_bounding_client_rect();
    ctx.save();
    ctx.begin_path();
    ctx.rect(
        (clip.left() - left) * scale,
        (clip.top() - top) * scale,
        clip.width() * scale,
        clip.height() * scale,
    );
    ctx.clip();
    let _ = ctx.draw_image_with_html_canvas_element_and_dw_and_dh(
        canvas,
        (r.left() - left) * scale,
        (r.top() - top) * scale,
        r.width() * scale,
        r.height() * scale,
    );
    ctx.restore();
}

thread_local! {
    /// The picture builders of the chapters whose code is here (see [`know_pictures`]).
    static PICTURES: RefCell<Vec<&'static [(&'static str, Build)]>> = const { RefCell::new(Vec::new()) };
}

/// Makes a chapter's picture builders known to the downloads. The chapters' loader calls it when a
/// chapter's code arrives (in a build split by chapter the builders live in the chapter's module),
/// before any of its figures, and so any download button, exists.
pub fn know_pictures(table: &'static [(&'static str, Build)]) {
    PICTURES.with(|known| {
        let mut known = known.borrow_mut();
        if !known.iter().any(|t| std::ptr::eq(*t, table)) {
            known.push(table);
        }
    });
}

/// The figure's picture, in the state the page's link describes, drawn in the page's theme; `None`
/// if the figure is text or its chapter's builders are not known.
fn scene_picture(id: &str) -> Option<crate::scene::Picture> {
    let (chapter, figure) = crate::book::find_figure(id)?;
    let build = PICTURES.with(|known| {
        known
            .borrow()
            .iter()
            .find_map(|table| crate::scene::builder(table, id))
    })?;
    let link = expect_context::<super::url::ShareLink>();
    let theme = expect_context::<PageTheme>()
        .chart()
        .get_untracked()
        .scaled(1.0);
    let (views, _) = crate::params::Views::from_query(&link.pairs());
    Some(crate::scene::draw(chapter.id, figure, build, &views, theme))
}

/// The CSS width of figure `id`'s widest chart canvas (not a matrix's layers), within what
/// `pe render` takes.
fn css_width(id: &str) -> u32 {
    let (lo, hi) = crate::math::limits::RENDER_WIDTH;
    let widest = document()
        .get_element_by_id(id)
        .and_then(|f| f.query_selector_all("canvas:not(.layer)").ok())
        .map_or(0.0, |list| {
            (0..list.length())
                .filter_map(|i| list.item(i)?.dyn_into::<Element>().ok())
                .map(|c| c.get_bounding_client_rect().width())
                .fold(0.0, f64::max)
        });
    (widest.round() as u32).clamp(lo, hi)
}

/// Packed RGB pixels as a PNG `data:` URL, through a canvas.
fn png_url(rgb: &[u8], (w, h): (u32, u32)) -> Option<String> {
    let canvas: HtmlCanvasElement = document().create_element("canvas").ok()?.unchecked_into();
    canvas.set_width(w);
    canvas.set_height(h);
    let rgba: Vec<u8> = rgb
        .chunks_exact(3)
        .flat_map(|p| [p[0], p[1], p[2], 255])
        .collect();
    let image =
        web_sys::ImageData::new_with_u8_clamped_array_and_sh(wasm_bindgen::Clamped(&rgba), w, h)
            .ok()?;
    context_2d(&canvas)?.put_image_data(&image, 0.0, 0.0).ok()?;
    canvas.to_data_url().ok()
}

/// Downloads `text` as file `name` of type `mime`.
fn save_text(name: &str, mime: &str, text: &str) -> Option<()> {
    let parts = js_sys::Array::of1(&wasm_bindgen::JsValue::from_str(text));
    let options = web_sys::BlobPropertyBag::new();
    options.set_type(mime);
    let blob = web_sys::Blob::new_with_str_sequence_and_options(&parts, &options).ok()?;
    let url = web_sys::Url::create_object_url_with_blob(&blob).ok()?;
    let link: web_sys::HtmlElement = document().create_element("a").ok()?.unchecked_into();
    link.set_attribute("href", &url).ok()?;
    link.set_attribute("download", name).ok()?;
    link.click();
    // The download has its own copy; the address can go once the click has been handled.
    set_timeout(
        move || {
            let _ = web_sys::Url::revoke_object_url(&url);
        },
        std::time::Duration::from_secs(1),
    );
    Some(())
}

split_point! {
    svg:
    /// `picture` as SVG text, `width` CSS pixels wide. A split point of its own: the SVG renderer
    /// draws every kind of panel, so it reaches every chapter's chart code; its module is fetched
    /// at the first SVG download.
    fn svg_text(picture: &crate::scene::Picture, width: u32) -> Option<String> {
        crate::scene::svg::render_on(picture, width, Some(&png_url), &super::backend::measurer).ok()
    }
}

/// Downloads figure `id`'s picture as SVG (once its renderer is here), or its numbers as CSV, in
/// the state the page's link describes; `outcome` learns whether it worked. Reads the page's state
/// at once (in the click's reactive context).
fn save_scene(id: &'static str, svg: bool, outcome: impl Fn(bool) + 'static) {
    let Some(picture) = scene_picture(id) else {
        return outcome(false);
    };
    if !svg {
        let csv = picture.csv();
        return outcome(save_text(&format!("{id}.csv"), "text/csv;charset=utf-8", &csv).is_some());
    }
    let width = css_width(id);
    leptos::task::spawn_local(async move {
        let text = svg_text(&picture, width).await.ok().flatten();
        let saved = text.and_then(|t| save_text(&format!("{id}.svg"), "image/svg+xml", &t));
        outcome(saved.is_some());
    });
}

/// A button that downloads the figure as SVG (`svg`) or CSV.
#[component]
fn SceneButton(
    /// The figure's element id.
    id: &'static str,
    /// Its title in the contents.
    title: &'static str,
    /// SVG, else CSV.
    svg: bool,
) -> impl IntoView {
    let failed = RwSignal::new(false);
    let on_click = move |_| save_scene(id, svg, move |saved| failed.set(!saved));
    let (class, label, what) = if svg {
        ("figure-svg", "SVG", "picture")
    } else {
        ("figure-csv", "CSV", "numbers")
    };
    view! {
        <button type="button" class=class on:click=on_click>
            {label}
            <span class="visually-hidden">{format!(" {what} of “{title}”")}</span>
            <span class="figure-link-status" aria-live="polite">
                {move || if failed.get() { "failed" } else { "" }}
            </span>
        </button>
    }
}

/// The corner's download button: opens the figure's PNG, SVG and CSV buttons (Escape closes). A
/// figure that is text, not a picture (the comparison table), has none.
#[component]
pub fn Downloads(
    /// The figure's element id.
    id: &'static str,
    /// Its title in the contents.
    title: &'static str,
) -> impl IntoView {
    let open = RwSignal::new(false);
    let toggle = NodeRef::<leptos::html::Button>::new();
    let menu_id = format!("{id}-downloads");
    let on_key = move |ev: web_sys::KeyboardEvent| {
        if ev.key() == "Escape" {
            open.set(false);
            if let Some(b) = toggle.get_untracked() {
                let _ = b.focus();
            }
        }
    };
    // Every figure with a picture has a canvas and a scene: the three buttons all apply.
    let picture = crate::scene::has_picture(id);
    view! {
        <button
            node_ref=toggle
            type="button"
            class="figure-download"
            hidden=!picture
            title="Download this figure: PNG, SVG or CSV"
            aria-expanded=move || open.get().to_string()
            aria-controls=menu_id.clone()
            on:click=move |_| open.update(|o| *o = !*o)
        >
            <span aria-hidden="true">"⤓"</span>
            <span class="visually-hidden">{format!("Download “{title}”")}</span>
        </button>
        <div class="figure-downloads" id=menu_id hidden=move || !open.get() on:keydown=on_key>
            <PngButton id=id title=title />
            <SceneButton id=id title=title svg=true />
            <SceneButton id=id title=title svg=false />
        </div>
    }
}
