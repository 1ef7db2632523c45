//! Canvas plumbing shared by the figures: sizing for the device-pixel ratio, the 2D context, and the
//! one-blit raster path (`putImageData` into a reused off-screen canvas, then one scaled
//! `drawImage` with smoothing off, so each matrix cell is a crisp block).

use wasm_bindgen::{Clamped, JsCast};
use web_sys::{CanvasRenderingContext2d, HtmlCanvasElement, ImageData};

/// Device pixels per CSS pixel (1 if unknown).
pub fn device_pixel_ratio() -> f64 {
    web_sys::window()
        .map(|w| w.device_pixel_ratio())
        .filter(|r| r.is_finite() && *r > 0.0)
        .unwrap_or(1.0)
}

/// The canvas's 2D context.
pub fn context_2d(canvas: &HtmlCanvasElement) -> Option<CanvasRenderingContext2d> {
    canvas
        .get_context("2d")
        .ok()
        .flatten()
        .and_then(|c| c.dyn_into().ok())
}

/// Sizes `canvas` to its CSS width and `height(width)` CSS pixels, with a backing store of device
/// pixels. Returns the CSS size, or `None` while the canvas is not laid out.
pub fn fit(canvas: &HtmlCanvasElement, height: impl Fn(f64) -> f64) -> Option<(f64, f64)> {
    let css_w = f64::from(canvas.client_width());
    if css_w < 1.0 {
        return None;
    }
    let css_h = height(css_w).round().max(1.0);
    let ratio = device_pixel_ratio();
    let (w, h) = (
        (css_w * ratio).round() as u32,
        (css_h * ratio).round() as u32,
    );
    if canvas.width() != w {
        canvas.set_width(w);
    }
    if canvas.height() != h {
        canvas.set_height(h);
    }
    let _ = canvas.style().set_property("height", &format!("{css_h}px"));
    Some((css_w, css_h))
}

/// A reusable off-screen canvas for painting rasters.
pub struct Blitter {
    scratch: HtmlCanvasElement,
}

impl Blitter {
    /// A new off-screen canvas (`None` if the document cannot make one).
    pub fn new() -> Option<Blitter> {
        let scratch = web_sys::window()?
            .document()?
            .create_element("canvas")
            .ok()?
            .dyn_into()
            .ok()?;
        Some(Blitter { scratch })
    }

    /// Paints the row-major RGBA image `rgba` (`cols × rows` pixels) into `ctx`'s rectangle
    /// `(x, y, w, h)` in one `putImageData` and one scaled `drawImage`.
    pub fn blit(
        &self,
        ctx: &CanvasRenderingContext2d,
        rgba: &[u8],
        (cols, rows): (u32, u32),
        (x, y, w, h): (f64, f64, f64, f64),
    ) {
        if cols == 0 || rows == 0 || rgba.len() != (cols * rows * 4) as usize {
            return;
        }
        if self.scratch.width() != cols {
            self.scratch.set_width(cols);
        }
        if self.scratch.height() != rows {
            self.scratch.set_height(rows);
        }
        let Some(scratch_ctx) = context_2d(&self.scratch) else {
            return;
        };
        let Ok(image) = ImageData::new_with_u8_clamped_array_and_sh(Clamped(rgba), cols, rows)
        else {
            return;
        };
        let _ = scratch_ctx.put_image_data(&image, 0.0, 0.0);
        ctx.set_image_smoothing_enabled(false);
        let _ = ctx.draw_image_with_html_canvas_element_and_dw_and_dh(&self.scratch, x, y, w, h);
    }
}
