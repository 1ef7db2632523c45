//! The plotters backend the figures draw with: `plotters_canvas::CanvasBackend`, except that text is
//! measured with the canvas's own `measureText`.
//!
//! On wasm32, plotters measures text (a caption's height, right-aligned tick labels, legend
//! entries) by appending a `<span>` to the document and reading its `offsetWidth`: every
//! measurement forces a layout of the whole page. Measured in headless Chromium, building a
//! heatmap chart with its caption took 1.6–1.9 ms, of which the axes, ticks and labels were
//! 0.2 ms; the rest was that forced layout. `measureText` reads the font's metrics without
//! touching layout.

use plotters::prelude::*;
use plotters_backend::{
    BackendColor, BackendCoord, BackendStyle, BackendTextStyle, DrawingErrorKind,
};
use plotters_canvas::CanvasBackend;
use web_sys::{CanvasRenderingContext2d, HtmlCanvasElement};

use super::canvas;

/// A drawing area on a canvas element, as figures use it.
pub type CanvasArea = DrawingArea<Canvas2d, plotters::coord::Shift>;

/// `CanvasBackend` with text measured by `measureText` (see the module doc).
pub struct Canvas2d {
    inner: CanvasBackend,
    ctx: CanvasRenderingContext2d,
}

/// A drawing area covering `el` (`None` if it has no 2D context).
pub fn area(el: &HtmlCanvasElement) -> Option<CanvasArea> {
    let ctx = canvas::context_2d(el)?;
    let inner = CanvasBackend::with_canvas_object(el.clone())?;
    Some(Canvas2d { inner, ctx }.into_drawing_area())
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
        self.inner.draw_pixel(point, color)
    }

    fn draw_line<S: BackendStyle>(
        &mut self,
        from: BackendCoord,
        to: BackendCoord,
        style: &S,
    ) -> Result<(), Error> {
        self.inner.draw_line(from, to, style)
    }

    fn draw_rect<S: BackendStyle>(
        &mut self,
        upper_left: BackendCoord,
        bottom_right: BackendCoord,
        style: &S,
        fill: bool,
    ) -> Result<(), Error> {
        self.inner.draw_rect(upper_left, bottom_right, style, fill)
    }

    fn draw_path<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        path: I,
        style: &S,
    ) -> Result<(), Error> {
        self.inner.draw_path(path, style)
    }

    fn draw_circle<S: BackendStyle>(
        &mut self,
        center: BackendCoord,
        radius: u32,
        style: &S,
        fill: bool,
    ) -> Result<(), Error> {
        self.inner.draw_circle(center, radius, style, fill)
    }

    fn fill_polygon<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        vert: I,
        style: &S,
    ) -> Result<(), Error> {
        self.inner.fill_polygon(vert, style)
    }

    fn draw_text<S: BackendTextStyle>(
        &mut self,
        text: &str,
        style: &S,
        pos: BackendCoord,
    ) -> Result<(), Error> {
        self.inner.draw_text(text, style, pos)
    }

    /// Width from `measureText`; height from the font's ascent + descent (what the span's
    /// `offsetHeight` gave: the line box of the font), both rounded up. The font string is the
    /// one `CanvasBackend::draw_text` sets before drawing.
    fn estimate_text_size<S: BackendTextStyle>(
        &self,
        text: &str,
        style: &S,
    ) -> Result<(u32, u32), Error> {
        self.ctx.set_font(&format!(
            "{} {}px {}",
            style.style().as_str(),
            style.size(),
            style.family().as_str(),
        ));
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
        self.inner.blit_bitmap(pos, size, src)
    }
}
