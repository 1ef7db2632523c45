//! The plotters backend the figures draw with: `plotters_canvas::CanvasBackend`, except that text is
//! measured with the canvas's own `measureText`, and text and lines skip the context state
//! (font, alignment, colours) they would set to what it already is.
//!
//! On wasm32, plotters measures text (a caption's height, right-aligned tick labels, legend
//! entries) by appending a `<span>` to the document and reading its `offsetWidth`: every
//! measurement forces a layout of the whole page. Measured in headless Chromium, building a
//! heatmap chart with its caption took 1.6–1.9 ms, of which the axes, ticks and labels were
//! 0.2 ms; the rest was that forced layout. `measureText` reads the font's metrics. On a canvas
//! in the document it too first brings style and layout up to date, but that is a layout only
//! when something changed since the last one, not one per label.
//!
//! `CanvasBackend` also sets the font, alignment, baseline and colour before every label, and the
//! colour (and stroke width) before every line, path, circle, rectangle and polygon: each colour a
//! string built in Rust, copied into JavaScript and parsed by the browser. An axis draws a run of
//! labels in one style, a clock face its twelve ticks, so remembering the state last set removes
//! most of those calls. Only pixels and bitmaps still go through `CanvasBackend`.

use std::cell::RefCell;

use plotters::prelude::*;
use plotters_backend::text_anchor::{HPos, VPos};
use plotters_backend::{
    BackendColor, BackendCoord, BackendStyle, BackendTextStyle, DrawingErrorKind, FontTransform,
};
use plotters_canvas::CanvasBackend;
use web_sys::{CanvasRenderingContext2d, HtmlCanvasElement};

use super::canvas;
use crate::chart::dual::Dual;

/// A drawing area on a canvas element, as figures use it: through [`Dual`], the type the figures'
/// SVG downloads draw on too, so the chart code is in the bundle once.
pub type CanvasArea = DrawingArea<Dual<'static, Canvas2d>, plotters::coord::Shift>;

/// `CanvasBackend` with text measured by `measureText` and redundant state skipped (see the
/// module doc).
pub struct Canvas2d {
    inner: CanvasBackend,
    ctx: CanvasRenderingContext2d,
    state: State,
}

/// The context state last set through this backend (`None`: unknown, set it next time).
#[derive(Default)]
struct State {
    /// In a cell: measuring text (through `&self`) sets the font too.
    font: RefCell<Option<String>>,
    align: Option<&'static str>,
    baseline: Option<&'static str>,
    fill: Option<Rgba>,
    stroke: Option<(Rgba, u32)>,
}

/// A colour as compared and written: red, green, blue and alpha in thousandths.
type Rgba = (u8, u8, u8, u16);

fn rgba(c: BackendColor) -> Rgba {
    let (r, g, b) = c.rgb;
    (r, g, b, (c.alpha.clamp(0.0, 1.0) * 1000.0).round() as u16)
}

fn css_color((r, g, b, a): Rgba) -> String {
    format!("rgba({r},{g},{b},{})", f64::from(a) / 1000.0)
}

/// The CSS font shorthand for a plotters text style (as `CanvasBackend` writes it).
fn css_font<S: BackendTextStyle>(style: &S) -> String {
    format!(
        "{} {}px {}",
        style.style().as_str(),
        style.size(),
        style.family().as_str()
    )
}

impl Canvas2d {
    fn set_font(&self, font: String) {
        let mut current = self.state.font.borrow_mut();
        if current.as_ref() != Some(&font) {
            self.ctx.set_font(&font);
            *current = Some(font);
        }
    }

    /// Sets the fill colour (`fill`) or the stroke colour and width for `style`, each only if it
    /// is not what the context has already; false for a transparent colour (nothing to draw, as
    /// `CanvasBackend` skips it).
    fn paint<S: BackendStyle>(&mut self, style: &S, fill: bool) -> bool {
        let color = rgba(style.color());
        if color.3 == 0 {
            return false;
        }
        if fill {
            if self.state.fill != Some(color) {
                self.ctx.set_fill_style_str(&css_color(color));
                self.state.fill = Some(color);
            }
        } else {
            let stroke = (color, style.stroke_width());
            if self.state.stroke != Some(stroke) {
                self.ctx.set_stroke_style_str(&css_color(color));
                self.ctx.set_line_width(f64::from(stroke.1));
                self.state.stroke = Some(stroke);
            }
        }
        true
    }

    /// A new path through `points` (false if there are none: nothing to draw).
    fn trace<I: IntoIterator<Item = BackendCoord>>(&self, points: I) -> bool {
        let mut points = points.into_iter();
        let Some(start) = points.next() else {
            return false;
        };
        self.ctx.begin_path();
        self.ctx.move_to(f64::from(start.0), f64::from(start.1));
        for next in points {
            self.ctx.line_to(f64::from(next.0), f64::from(next.1));
        }
        true
    }

    /// Forgets the fill and stroke state (after drawing through `CanvasBackend`, which sets them).
    fn forget_paint(&mut self) {
        self.state.fill = None;
        self.state.stroke = None;
    }
}

/// The backend on canvas `el` (`None` if it has no 2D context).
fn canvas2d(el: HtmlCanvasElement) -> Option<Canvas2d> {
    let ctx = canvas::context_2d(&el)?;
    let inner = CanvasBackend::with_canvas_object(el)?;
    Some(Canvas2d {
        inner,
        ctx,
        state: State::default(),
    })
}

/// A backend on a new canvas that is not on the page, to measure text with (`measureText`).
pub fn measurer() -> Option<Canvas2d> {
    use wasm_bindgen::JsCast;
    let el = web_sys::window()?
        .document()?
        .create_element("canvas")
        .ok()?
        .dyn_into()
        .ok()?;
    canvas2d(el)
}

/// A drawing area covering `el` (`None` if it has no 2D context).
pub fn area(el: &HtmlCanvasElement) -> Option<CanvasArea> {
    Some(Dual::Canvas(canvas2d(el.clone())?).into_drawing_area())
}

type Error = DrawingErrorKind<<CanvasBackend as DrawingBackend>::ErrorType>;

impl DrawingBackend for Canvas2d {
    type ErrorType = <CanvasBackend as DrawingBackend>::ErrorType;

    fn get_size(&self) -> (u32, u32) {
        self.inner.get_size()
    }

    fn ensure_prepared(&mut self) -> Result<(), Error> {
        self.inner.ensure_prepared()
    }

    fn present(&mut self) -> Result<(), Error> {
        self.inner.present()
    }

    fn draw_pixel(&mut self, point: BackendCoord, color: BackendColor) -> Result<(), Error> {
        self.forget_paint();
        self.inner.draw_pixel(point, color)
    }

    /// A one-path stroke, on the pixel grid for horizontal and vertical lines (half-pixel offset,
    /// as `CanvasBackend` does, so a 1 px line is one crisp pixel wide).
    fn draw_line<S: BackendStyle>(
        &mut self,
        from: BackendCoord,
        to: BackendCoord,
        style: &S,
    ) -> Result<(), Error> {
        if !self.paint(style, false) {
            return Ok(());
        }
        let (mut a, mut b) = (
            (f64::from(from.0), f64::from(from.1)),
            (f64::from(to.0), f64::from(to.1)),
        );
        if from.0 == to.0 {
            a.0 -= 0.5;
            b.0 -= 0.5;
        }
        if from.1 == to.1 {
            a.1 -= 0.5;
            b.1 -= 0.5;
        }
        self.ctx.begin_path();
        self.ctx.move_to(a.0, a.1);
        self.ctx.line_to(b.0, b.1);
        self.ctx.stroke();
        Ok(())
    }

    fn draw_rect<S: BackendStyle>(
        &mut self,
        upper_left: BackendCoord,
        bottom_right: BackendCoord,
        style: &S,
        fill: bool,
    ) -> Result<(), Error> {
        if !self.paint(style, fill) {
            return Ok(());
        }
        let (x, y) = (f64::from(upper_left.0), f64::from(upper_left.1));
        let (w, h) = (
            f64::from(bottom_right.0 - upper_left.0),
            f64::from(bottom_right.1 - upper_left.1),
        );
        if fill {
            self.ctx.fill_rect(x, y, w, h);
        } else {
            self.ctx.stroke_rect(x, y, w, h);
        }
        Ok(())
    }

    fn draw_path<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        path: I,
        style: &S,
    ) -> Result<(), Error> {
        if self.paint(style, false) && self.trace(path) {
            self.ctx.stroke();
        }
        Ok(())
    }

    fn draw_circle<S: BackendStyle>(
        &mut self,
        center: BackendCoord,
        radius: u32,
        style: &S,
        fill: bool,
    ) -> Result<(), Error> {
        if !self.paint(style, fill) {
            return Ok(());
        }
        self.ctx.begin_path();
        self.ctx
            .arc(
                f64::from(center.0),
                f64::from(center.1),
                f64::from(radius),
                0.0,
                std::f64::consts::TAU,
            )
            .map_err(|_| DrawingErrorKind::FontError("canvas arc failed".into()))?;
        if fill {
            self.ctx.fill();
        } else {
            self.ctx.stroke();
        }
        Ok(())
    }

    fn fill_polygon<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        vert: I,
        style: &S,
    ) -> Result<(), Error> {
        if self.paint(style, true) && self.trace(vert) {
            self.ctx.close_path();
            self.ctx.fill();
        }
        Ok(())
    }

    /// `fillText` at the anchor, rotated about it for vertical text.
    fn draw_text<S: BackendTextStyle>(
        &mut self,
        text: &str,
        style: &S,
        pos: BackendCoord,
    ) -> Result<(), Error> {
        let color = rgba(style.color());
        if color.3 == 0 {
            return Ok(());
        }
        let turn = match style.transform() {
            FontTransform::None => 0.0,
            FontTransform::Rotate90 => 0.25,
            FontTransform::Rotate180 => 0.5,
            FontTransform::Rotate270 => 0.75,
        };
        let fail = |_| DrawingErrorKind::FontError("canvas text drawing failed".into());
        let (x, y) = if turn == 0.0 {
            (f64::from(pos.0), f64::from(pos.1))
        } else {
            self.ctx.save();
            self.ctx
                .translate(f64::from(pos.0), f64::from(pos.1))
                .map_err(fail)?;
            self.ctx
                .rotate(turn * std::f64::consts::TAU)
                .map_err(fail)?;
            (0.0, 0.0)
        };
        let baseline = match style.anchor().v_pos {
            VPos::Top => "top",
            VPos::Center => "middle",
            VPos::Bottom => "bottom",
        };
        if self.state.baseline != Some(baseline) {
            self.ctx.set_text_baseline(baseline);
            self.state.baseline = Some(baseline);
        }
        let align = match style.anchor().h_pos {
            HPos::Left => "start",
            HPos::Right => "end",
            HPos::Center => "center",
        };
        if self.state.align != Some(align) {
            self.ctx.set_text_align(align);
            self.state.align = Some(align);
        }
        if self.state.fill != Some(color) {
            self.ctx.set_fill_style_str(&css_color(color));
            self.state.fill = Some(color);
        }
        self.set_font(css_font(style));
        let drawn = self.ctx.fill_text(text, x, y).map_err(fail);
        if turn != 0.0 {
            // `restore` brings back the state of `save`, whatever this backend set since.
            self.ctx.restore();
            self.state = State::default();
        }
        drawn
    }

    /// Width from `measureText`; height from the font's ascent + descent (what the span's
    /// `offsetHeight` gave: the line box of the font), both rounded up. The font string is the
    /// one `CanvasBackend::draw_text` sets before drawing.
    fn estimate_text_size<S: BackendTextStyle>(
        &self,
        text: &str,
        style: &S,
    ) -> Result<(u32, u32), Error> {
        self.set_font(css_font(style));
        let metrics = self
            .ctx
            .measure_text(text)
            .map_err(|_| DrawingErrorKind::FontError("measureText failed".into()))?;
        let height = metrics.font_bounding_box_ascent() + metrics.font_bounding_box_descent();
        let height = if height.is_finite() && height > 0.0 {
            height
        } else {
            style.size() * 1.2
        };
        let size = |v: f64| v.ceil().clamp(0.0, f64::from(u32::MAX)) as u32;
        Ok((size(metrics.width()), size(height)))
    }

    fn blit_bitmap(
        &mut self,
        pos: BackendCoord,
        size: (u32, u32),
        src: &[u8],
    ) -> Result<(), Error> {
        self.forget_paint();
        self.inner.blit_bitmap(pos, size, src)
    }
}
