//! Painting a matrix figure on a canvas, in three layers so that an input repaints only what it
//! changed:
//!
//! 1. the figure's own canvas holds the frame (title, axes, ticks, colour bar), drawn by plotters
//!    and left alone while only values change (base, position…); when only the axes change
//!    (rows, columns), the colour bar is kept;
//! 2. a `cells` canvas over the plot rectangle holds one pixel per shown cell, written with a
//!    single `putImageData` and stretched by CSS (`image-rendering: pixelated`) — no `drawImage`,
//!    no copy of the frame;
//! 3. a `marks` canvas over the plot rectangle holds the row outlines (the current position).
//!
//! The two layers are plain canvases the painter adds beside the figure's canvas, absolutely
//! positioned and transparent to the pointer, so hover and keyboard stay on the figure's canvas.
//! Pointer positions map back to cells through the frame's [`HeatmapLayout`] ([`super::select`]).

use leptos::html::Canvas;
use leptos::prelude::*;
use wasm_bindgen::{Clamped, JsCast};
use web_sys::{HtmlCanvasElement, ImageData};

use super::backend;
use super::canvas::{self, Surface};
use super::select::cell_pointer;
use crate::chart::colormap::{Lut, sample_indices};
use crate::chart::heatmap::{self, HeatmapLayout, HeatmapSpec};

/// A reusable painter: the layer canvases, the RGBA buffer and what the frame shows survive
/// between redraws.
#[derive(Default)]
pub struct MatrixPainter {
    layers: Option<Layers>,
    rgba: Vec<u8>,
    frame: Option<Frame>,
    /// What the cells layer shows: the frame key and the matrix version it was painted for.
    cells: Option<(String, u64)>,
    /// A cell outlined with the rows (the chosen patch of a grid).
    cell: Option<(usize, usize)>,
}

/// The matrix a painter paints: row-major `values` with `stride` columns, and a `version` that
/// changes whenever the values do (`None`: unknown, paint them every time). With a version, a
/// redraw that only moves the outlines (the current position) leaves the cells alone.
#[derive(Clone, Copy)]
pub struct Matrix<'a> {
    /// The values, row-major.
    pub values: &'a [f64],
    /// Columns per row.
    pub stride: usize,
    /// Changes whenever `values` do.
    pub version: Option<u64>,
    /// `values` are the `2·stride − 1` diagonals of a `stride × stride` Toeplitz matrix (entry
    /// `(r, c)` is `values[r + stride − 1 − c]`), not the matrix itself: an `n × n` matrix that
    /// depends only on `r − c` is never materialised.
    pub toeplitz: bool,
}

/// What the figure's canvas shows now.
struct Frame {
    /// The canvas size and the whole spec.
    key: String,
    /// The canvas size, colour bar and theme: while it holds, the colour bar strip can stay.
    bar_key: String,
    layout: HeatmapLayout,
}

/// The cell and mark canvases over the plot rectangle, and where they were last placed.
struct Layers {
    cells: Cells,
    marks: Layer,
    /// Whether the marks canvas shows any outline.
    marked: bool,
}

/// A new element `tag` of class `class` appended to `parent`: absolutely positioned, ignored by
/// the pointer and by assistive technology (the figure's canvas carries the text alternative).
fn overlay<T: JsCast>(parent: &web_sys::Element, tag: &str, class: &str) -> Option<T> {
    let el: web_sys::HtmlElement = web_sys::window()?
        .document()?
        .create_element(tag)
        .ok()?
        .dyn_into()
        .ok()?;
    el.set_class_name(class);
    let _ = el.set_attribute("aria-hidden", "true");
    set_styles(
        &el,
        &[
            ("position", "absolute"),
            ("pointer-events", "none"),
            ("image-rendering", "pixelated"),
            ("border-radius", "0"),
        ],
    );
    parent.append_child(&el).ok()?;
    el.dyn_into().ok()
}

fn set_styles(el: &web_sys::HtmlElement, styles: &[(&str, &str)]) {
    let style = el.style();
    for (name, value) in styles {
        let _ = style.set_property(name, value);
    }
}

/// Places `el` at the CSS rectangle (left, top, width, height).
fn set_rect(el: &web_sys::HtmlElement, (left, top, width, height): CssRect) {
    let style = el.style();
    for (name, v) in [
        ("left", left),
        ("top", top),
        ("width", width),
        ("height", height),
    ] {
        let _ = style.set_property(name, &format!("{v}px"));
    }
}

/// A CSS rectangle: left, top, width, height.
pub(super) type CssRect = (f64, f64, f64, f64);

/// One overlay canvas and the CSS rectangle it was last given.
pub(super) struct Layer {
    pub(super) el: HtmlCanvasElement,
    placed: CssRect,
}

impl Layer {
    /// A new overlay canvas of class `class` over `canvas` (its parent is made the positioning
    /// box), not placed yet.
    pub(super) fn over(canvas: &HtmlCanvasElement, class: &str) -> Option<Layer> {
        let parent = positioning_box(canvas)?;
        Some(Layer {
            el: overlay(&parent, "canvas", class)?,
            placed: (f64::NAN, 0.0, 0.0, 0.0),
        })
    }

    /// Gives the canvas a `w × h` backing store (clearing it if that changes) and places it at
    /// CSS rectangle `rect` (left, top, width, height) within the figure's canvas.
    pub(super) fn place(&mut self, (w, h): (u32, u32), rect: CssRect) {
        if self.el.width() != w {
            self.el.set_width(w);
        }
        if self.el.height() != h {
            self.el.set_height(h);
        }
        if self.placed != rect {
            set_rect(&self.el, rect);
            self.placed = rect;
        }
    }
}

/// The cells layer: a canvas inside a clipping box over the plot rectangle.
///
/// Resizing a canvas reallocates it (measured at 0.5 ms per change of n or d), so the canvas only
/// grows: the shown `cols × rows` cells are its top-left corner, and CSS scales the canvas so that
/// this corner exactly fills the box, which clips the rest.
struct Cells {
    clip: web_sys::HtmlElement,
    el: HtmlCanvasElement,
    /// The box's CSS rectangle, the shown size and the canvas size it was last laid out for.
    placed: (CssRect, (u32, u32), (u32, u32)),
}

impl Cells {
    fn new(parent: &web_sys::Element) -> Option<Cells> {
        let clip: web_sys::HtmlElement = overlay(parent, "div", "layer-clip")?;
        let _ = clip.style().set_property("overflow", "hidden");
        let el: HtmlCanvasElement = overlay(&clip, "canvas", "layer cells")?;
        set_styles(&el, &[("left", "0"), ("top", "0")]);
        Some(Cells {
            clip,
            el,
            placed: ((f64::NAN, 0.0, 0.0, 0.0), (0, 0), (0, 0)),
        })
    }

    /// Shows the top-left `size` pixels of the canvas (growing it if needed) over CSS `rect`.
    fn place(&mut self, size: (u32, u32), rect: CssRect) {
        if self.el.width() < size.0 {
            self.el.set_width(size.0);
        }
        if self.el.height() < size.1 {
            self.el.set_height(size.1);
        }
        let canvas = (self.el.width(), self.el.height());
        if self.placed == (rect, size, canvas) {
            return;
        }
        set_rect(&self.clip, rect);
        let (_, _, w, h) = rect;
        let scaled = (
            w * f64::from(canvas.0) / f64::from(size.0),
            h * f64::from(canvas.1) / f64::from(size.1),
        );
        let style = web_sys::HtmlElement::style(&self.el);
        let _ = style.set_property("width", &format!("{}px", scaled.0));
        let _ = style.set_property("height", &format!("{}px", scaled.1));
        // For tests and tools: which part of the canvas is the picture.
        let _ = self.el.set_attribute("data-cols", &size.0.to_string());
        let _ = self.el.set_attribute("data-rows", &size.1.to_string());
        self.placed = (rect, size, canvas);
    }
}

impl Layers {
    /// The two overlays beside `canvas` (its parent is made the positioning box).
    fn new(canvas: &HtmlCanvasElement) -> Option<Layers> {
        // Cells first: the marks are drawn over them.
        let parent = positioning_box(canvas)?;
        let cells = Cells::new(&parent)?;
        Some(Layers {
            cells,
            marks: Layer::over(canvas, "layer marks")?,
            marked: false,
        })
    }
}

/// `canvas`'s parent, made the box its overlays are positioned in.
fn positioning_box(canvas: &HtmlCanvasElement) -> Option<web_sys::HtmlElement> {
    let parent: web_sys::HtmlElement = canvas.parent_element()?.dyn_into().ok()?;
    let _ = parent.style().set_property("position", "relative");
    Some(parent)
}

/// Writes the RGBA pixels of the sampled cells: (colour table, rows, columns, value range, pixels).
type CellFill<'a> = Box<dyn FnOnce(&Lut, &[usize], &[usize], (f64, f64), &mut Vec<u8>) + 'a>;

impl MatrixPainter {
    /// Sizes the surface (CSS height from `height(width)`), draws `spec`'s frame if it changed,
    /// paints the block `spec.rows × spec.cols` of `matrix` if it or the frame changed, and
    /// outlines every row in `highlight_rows`. Returns the layout for hover, or `None` if the
    /// canvas is not ready.
    pub fn paint(
        &mut self,
        surface: &Surface,
        height: impl Fn(f64) -> f64,
        spec: &HeatmapSpec,
        matrix: Matrix,
        highlight_rows: &[usize],
    ) -> Option<HeatmapLayout> {
        let Matrix {
            values,
            stride,
            version,
            toeplitz,
        } = matrix;
        let fill: CellFill = Box::new(|lut, rows, cols, range, rgba| {
            if toeplitz {
                lut.paint_toeplitz_into(values, stride, rows, cols, range, rgba);
            } else {
                lut.paint_sampled_into(values, stride, rows, cols, range, rgba);
            }
        });
        self.paint_cells(surface, &height, spec, version, highlight_rows, fill)
    }

    /// [`MatrixPainter::paint`] for a matrix given by its entries `value(row, col)` instead of a
    /// slice, so a sparse matrix (RoPE's `R_m`: two nonzero entries per row) is never built as
    /// `rows × cols` values. `version` changes whenever the entries do (`None`: paint them every
    /// time).
    pub fn paint_fn(
        &mut self,
        surface: &Surface,
        height: impl Fn(f64) -> f64,
        spec: &HeatmapSpec,
        version: Option<u64>,
        value: impl Fn(usize, usize) -> f64,
        highlight_rows: &[usize],
    ) -> Option<HeatmapLayout> {
        let fill: CellFill = Box::new(|lut, rows, cols, range, rgba| {
            lut.paint_fn_into(rows, cols, range, rgba, &value)
        });
        self.paint_cells(surface, &height, spec, version, highlight_rows, fill)
    }

    /// What [`MatrixPainter::paint`] and [`MatrixPainter::paint_fn`] share: `fill` writes the
    /// RGBA pixels of the sampled `rows × cols` cells with the colour table, over `range`. Not
    /// generic (the closures come as `dyn`): one copy serves every matrix figure.
    fn paint_cells(
        &mut self,
        surface: &Surface,
        height: &dyn Fn(f64) -> f64,
        spec: &HeatmapSpec,
        version: Option<u64>,
        highlight_rows: &[usize],
        fill: CellFill<'_>,
    ) -> Option<HeatmapLayout> {
        canvas::fit(surface, height)?;
        let canvas = &surface.el;
        if self.layers.is_none() {
            self.layers = Layers::new(canvas);
        }
        let layout = self.frame(canvas, spec)?;
        let frame_key = self
            .frame
            .as_ref()
            .map(|f| f.key.clone())
            .unwrap_or_default();
        let painted = version.map(|v| (frame_key, v));
        if painted.is_some() && painted == self.cells {
            return self.mark(surface, &layout, spec, highlight_rows);
        }
        self.cells = None;
        let layers = self.layers.as_mut()?;

        // The plot's CSS rectangle: backing pixels over device pixels per CSS pixel.
        let ratio = surface.backing_ratio();
        let css = |px: i32| f64::from(px) / ratio;

        // The plot cannot show more cells than it has pixels: paint only the cell each pixel shows
        // (the one the nearest-neighbour scaling picks), not the whole n × d block.
        let rows = sample_indices(spec.rows.clone(), layout.height() as usize);
        let cols = sample_indices(spec.cols.clone(), layout.width() as usize);
        let lut = Lut::for_scale(spec.colorbar.scale, spec.theme.diverging);
        let range = (spec.colorbar.lo, spec.colorbar.hi);
        fill(&lut, &rows, &cols, range, &mut self.rgba);
        let size = (cols.len() as u32, rows.len() as u32);
        if size.0 == 0 || size.1 == 0 {
            return Some(layout);
        }
        layers.cells.place(
            size,
            (
                css(layout.x.start),
                css(layout.y.start),
                css(layout.x.end) - css(layout.x.start),
                css(layout.y.end) - css(layout.y.start),
            ),
        );
        let image =
            ImageData::new_with_u8_clamped_array_and_sh(Clamped(&self.rgba), size.0, size.1)
                .ok()?;
        canvas::context_2d(&layers.cells.el)?
            .put_image_data(&image, 0.0, 0.0)
            .ok()?;
        self.cells = painted;
        self.mark(surface, &layout, spec, highlight_rows)
    }

    /// Outlines `cell` (with the rows given to the next paint), or none.
    pub fn mark_cell(&mut self, cell: Option<(usize, usize)>) {
        self.cell = cell;
    }

    /// Redraws the row and cell outlines (if there are or were any); returns the layout.
    fn mark(
        &mut self,
        surface: &Surface,
        layout: &HeatmapLayout,
        spec: &HeatmapSpec,
        highlight_rows: &[usize],
    ) -> Option<HeatmapLayout> {
        let cell = self.cell;
        let layers = self.layers.as_mut()?;
        if !highlight_rows.is_empty() || cell.is_some() || layers.marked {
            mark_rows(
                layers,
                layout,
                spec,
                surface.backing_ratio(),
                (highlight_rows, cell),
            )?;
        }
        Some(layout.clone())
    }

    /// Brings the figure's canvas up to `spec`'s frame: nothing if it already shows it, the axes
    /// alone if only they changed, else everything. Returns the plot layout.
    fn frame(&mut self, canvas: &HtmlCanvasElement, spec: &HeatmapSpec) -> Option<HeatmapLayout> {
        let size = format!("{}x{}", canvas.width(), canvas.height());
        let bar_key = format!("{size}:{:?}:{:?}", spec.colorbar, spec.theme);
        let key = format!("{size}:{spec:?}");
        if let Some(frame) = self.frame.as_ref().filter(|f| f.key == key) {
            return Some(frame.layout.clone());
        }
        let keep_bar = self.frame.as_ref().is_some_and(|f| f.bar_key == bar_key);
        let root = backend::area(canvas)?;
        let drawn = if keep_bar {
            heatmap::redraw_axes(&root, spec)
        } else {
            heatmap::draw_frame(&root, spec)
        };
        // A failed draw leaves the canvas in an unknown state: draw everything next time.
        self.frame = None;
        let layout = drawn.ok()?;
        root.present().ok()?;
        self.frame = Some(Frame {
            key,
            bar_key,
            layout: layout.clone(),
        });
        Some(layout)
    }
}

/// Redraws the marks layer: the outline of every row in `rows` and of `cell`, over the plot
/// rectangle of `layout` and a margin for the stroke.
fn mark_rows(
    layers: &mut Layers,
    layout: &HeatmapLayout,
    spec: &HeatmapSpec,
    ratio: f64,
    (rows, cell): (&[usize], Option<(usize, usize)>),
) -> Option<()> {
    let pad = spec.theme.px(2.0) as i32 + 1;
    let (w, h) = (
        layout.width() + 2 * pad as u32,
        layout.height() + 2 * pad as u32,
    );
    let (x0, y0) = (layout.x.start - pad, layout.y.start - pad);
    layers.marks.place(
        (w, h),
        (
            f64::from(x0) / ratio,
            f64::from(y0) / ratio,
            f64::from(w) / ratio,
            f64::from(h) / ratio,
        ),
    );
    canvas::context_2d(&layers.marks.el)?.clear_rect(0.0, 0.0, f64::from(w), f64::from(h));
    // The same layout, moved into the marks canvas's own pixels.
    let local = HeatmapLayout {
        x: pad..pad + layout.width() as i32,
        y: pad..pad + layout.height() as i32,
        ..layout.clone()
    };
    let root = backend::area(&layers.marks.el)?;
    for &row in rows {
        heatmap::draw_row_highlight(&root, &local, row, &spec.theme).ok()?;
    }
    if let Some(cell) = cell {
        heatmap::draw_cell_highlight(&root, &local, cell, &spec.theme).ok()?;
    }
    root.present().ok()?;
    layers.marked = !rows.is_empty() || cell.is_some();
    Some(())
}

/// Two matrices side by side with one cursor (`<div class="pair">`): each canvas is hovered and
/// stepped as [`cell_pointer`] does, both have the text alternative `label`, and both are
/// described by the figure's readout paragraph (`{id}-readout`), which follows them.
#[component]
pub fn MatrixPair<L, K>(
    /// The two canvases, left then right, with the layouts their draws keep.
    canvases: [(NodeRef<Canvas>, StoredValue<Option<HeatmapLayout>>); 2],
    /// The selected cell, shared.
    cursor: RwSignal<Option<(usize, usize)>>,
    /// What the keys do on either canvas (usually [`super::select::key_cursor`]).
    on_key: K,
    /// The readout's text, kept current.
    #[prop(into)]
    readout: TextProp,
    /// The text alternative of both canvases, kept current.
    label: L,
) -> impl IntoView
where
    L: Fn() -> String + Send + Sync + 'static,
    K: Fn(web_sys::KeyboardEvent) + Copy + 'static,
{
    let label: std::sync::Arc<dyn Fn() -> String + Send + Sync> = std::sync::Arc::new(label);
    let readout_id = super::figure::readout_of(None);
    let [left, right] = canvases.map(|(canvas, layout)| {
        super::figure::interactive_canvas(
            canvas,
            None,
            None,
            label.clone(),
            cell_pointer(canvas, layout, cursor, on_key),
        )
    });
    view! {
        <div class="pair">{left} {right}</div>
        <p class="readout" id=readout_id aria-live="polite">{super::near::text(move || readout.get())}</p>
    }
}
