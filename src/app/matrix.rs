//! Painting a matrix figure on a canvas: plotters draws the frame, the cells go in as one raster
//! (one `putImageData` + one scaled `drawImage`), and pointer positions map back to cells.

use leptos::html::Canvas;
use leptos::prelude::*;
use plotters::prelude::*;
use plotters_canvas::CanvasBackend;
use wasm_bindgen::JsCast;
use web_sys::HtmlCanvasElement;

use super::canvas::{self, Blitter};
use crate::chart::colormap::{Lut, sample_indices};
use crate::chart::heatmap::{self, HeatmapLayout, HeatmapSpec};

/// A reusable painter: the off-screen canvas, the RGBA buffer and the last drawn frame survive
/// between redraws.
pub struct MatrixPainter {
    blitter: Option<Blitter>,
    rgba: Vec<u8>,
    frame: Option<Frame>,
}

/// A rendered frame (background, axes, ticks, labels, colour bar) and what it was drawn for.
/// Most inputs change only the cells (base, position): the frame is then copied back with one
/// `drawImage` instead of laying out every label again.
struct Frame {
    key: String,
    image: HtmlCanvasElement,
    layout: HeatmapLayout,
}

impl Default for MatrixPainter {
    fn default() -> Self {
        MatrixPainter {
            blitter: Blitter::new(),
            rgba: Vec::new(),
            frame: None,
        }
    }
}

impl MatrixPainter {
    /// Sizes `canvas` (CSS height from `height(width)`), draws `spec`'s frame, paints the block
    /// `spec.rows × spec.cols` of the row-major matrix `values` (`stride` columns) and outlines
    /// every row in `highlight_rows`. Returns the layout for hover, or `None` if the canvas is not ready.
    pub fn paint(
        &mut self,
        canvas: &HtmlCanvasElement,
        height: impl Fn(f64) -> f64,
        spec: &HeatmapSpec,
        values: &[f64],
        stride: usize,
        highlight_rows: &[usize],
    ) -> Option<HeatmapLayout> {
        canvas::fit(canvas, height)?;
        let ctx = canvas::context_2d(canvas)?;
        let blitter = self.blitter.as_ref()?;
        let key = format!("{}x{}:{spec:?}", canvas.width(), canvas.height());
        let layout = match &self.frame {
            Some(frame) if frame.key == key => {
                ctx.draw_image_with_html_canvas_element(&frame.image, 0.0, 0.0)
                    .ok()?;
                frame.layout.clone()
            }
            _ => {
                let root = CanvasBackend::with_canvas_object(canvas.clone())?.into_drawing_area();
                let layout = heatmap::draw_frame(&root, spec).ok()?;
                root.present().ok()?;
                self.frame = snapshot(canvas, key, layout.clone(), self.frame.take());
                layout
            }
        };
        // The plot cannot show more cells than it has pixels: paint only the cell each pixel shows
        // (the one the nearest-neighbour `drawImage` would pick), not the whole n × d block.
        let rows = sample_indices(spec.rows.clone(), layout.height() as usize);
        let cols = sample_indices(spec.cols.clone(), layout.width() as usize);
        let lut = Lut::for_scale(spec.colorbar.scale, spec.theme.diverging);
        let range = (spec.colorbar.lo, spec.colorbar.hi);
        lut.paint_sampled_into(values, stride, &rows, &cols, range, &mut self.rgba);
        let root = CanvasBackend::with_canvas_object(canvas.clone())?.into_drawing_area();
        blitter.blit(
            &ctx,
            &self.rgba,
            (cols.len() as u32, rows.len() as u32),
            (
                f64::from(layout.x.start),
                f64::from(layout.y.start),
                f64::from(layout.width()),
                f64::from(layout.height()),
            ),
        );
        for &row in highlight_rows {
            heatmap::draw_row_highlight(&root, &layout, row, &spec.theme).ok()?;
        }
        root.present().ok()?;
        Some(layout)
    }
}

/// Copies the canvas (just framed, cells still empty) into a frame cache, reusing `old`'s
/// off-screen canvas when there is one.
fn snapshot(
    canvas: &HtmlCanvasElement,
    key: String,
    layout: HeatmapLayout,
    old: Option<Frame>,
) -> Option<Frame> {
    let image = match old {
        Some(frame) => frame.image,
        None => web_sys::window()?
            .document()?
            .create_element("canvas")
            .ok()?
            .dyn_into()
            .ok()?,
    };
    image.set_width(canvas.width());
    image.set_height(canvas.height());
    canvas::context_2d(&image)?
        .draw_image_with_html_canvas_element(canvas, 0.0, 0.0)
        .ok()?;
    Some(Frame { key, image, layout })
}

/// The backend pixel under a mouse event on `canvas` (CSS offset × device-pixel ratio).
pub fn event_pixel(canvas: &HtmlCanvasElement, ev: &web_sys::MouseEvent) -> (f64, f64) {
    let ratio = f64::from(canvas.width()) / f64::from(canvas.client_width().max(1));
    (
        f64::from(ev.offset_x()) * ratio,
        f64::from(ev.offset_y()) * ratio,
    )
}

/// Arrow-key navigation over the cells `rows × cols`: the next cursor for `key` from `at`, or
/// `None` for keys it does not handle.
pub fn step_cursor(
    key: &str,
    at: (usize, usize),
    rows: std::ops::Range<usize>,
    cols: std::ops::Range<usize>,
) -> Option<(usize, usize)> {
    let (r, c) = at;
    let next = match key {
        "ArrowUp" => (r.saturating_sub(1), c),
        "ArrowDown" => (r + 1, c),
        "ArrowLeft" => (r, c.saturating_sub(1)),
        "ArrowRight" => (r, c + 1),
        "Home" => (r, cols.start),
        "End" => (r, cols.end.saturating_sub(1)),
        "PageUp" => (r.saturating_sub(10), c),
        "PageDown" => (r + 10, c),
        _ => return None,
    };
    Some((
        next.0
            .clamp(rows.start, rows.end.saturating_sub(1).max(rows.start)),
        next.1
            .clamp(cols.start, cols.end.saturating_sub(1).max(cols.start)),
    ))
}

/// The `mousemove` handler of a matrix figure: maps the pointer to a cell of the last drawn
/// `layout` and moves `cursor` there (outside the cells it leaves the cursor alone).
pub fn hover_cell(
    canvas: NodeRef<Canvas>,
    layout: StoredValue<Option<HeatmapLayout>>,
    cursor: RwSignal<Option<(usize, usize)>>,
) -> impl Fn(web_sys::MouseEvent) + Copy + 'static {
    move |ev| {
        let Some(el) = canvas.get_untracked() else {
            return;
        };
        let (x, y) = event_pixel(&el, &ev);
        if let Some(cell) = layout.with_value(|l| l.as_ref().and_then(|l| l.cell_at(x, y))) {
            cursor.set(Some(cell));
        }
    }
}
