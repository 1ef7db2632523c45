//! Canvas plumbing shared by the figures: a canvas with its observed CSS width, sizing its backing
//! store for the device-pixel ratio, and the 2D context.

use wasm_bindgen::JsCast;
use web_sys::{CanvasRenderingContext2d, HtmlCanvasElement};

thread_local! {
    /// The density figures draw at instead of the screen's, while a figure is exported
    /// ([`set_ratio_override`]).
    static RATIO_OVERRIDE: std::cell::Cell<Option<f64>> = const { std::cell::Cell::new(None) };
    /// Whether [`fit`] only sizes canvases, and stops the figure before it draws
    /// ([`sizing_only`]).
    static SIZING_ONLY: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Runs `draw` so that every canvas it sizes with [`fit`] takes its size and nothing is drawn:
/// `fit` returns `None`, as it does while a canvas is not laid out, and the figure stops there.
/// A figure off screen is sized this way, so it takes its height before it scrolls into view
/// without paying for a drawing nobody sees yet.
pub fn sizing_only<R>(draw: impl FnOnce() -> R) -> R {
    SIZING_ONLY.with(|s| s.set(true));
    let out = draw();
    SIZING_ONLY.with(|s| s.set(false));
    out
}

/// Backing-store pixels per CSS pixel that figures draw at: the screen's device-pixel ratio, or
/// the export density while a picture is taken.
pub fn device_pixel_ratio() -> f64 {
    RATIO_OVERRIDE
        .with(std::cell::Cell::get)
        .unwrap_or_else(screen_pixel_ratio)
}

/// The screen's device pixels per CSS pixel (1 if unknown).
pub fn screen_pixel_ratio() -> f64 {
    web_sys::window()
        .map(|w| w.device_pixel_ratio())
        .filter(|r| r.is_finite() && *r > 0.0)
        .unwrap_or(1.0)
}

/// Makes figures draw at `ratio` instead of the screen's density (`None`: the screen's again).
/// Only [`super::theme::PageTheme::set_pixel_ratio`] calls it, so that the charts' theme (line
/// widths, font sizes) follows.
pub(super) fn set_ratio_override(ratio: Option<f64>) {
    RATIO_OVERRIDE.with(|r| r.set(ratio.filter(|r| r.is_finite() && *r > 0.0)));
}

/// The canvas's 2D context.
pub fn context_2d(canvas: &HtmlCanvasElement) -> Option<CanvasRenderingContext2d> {
    canvas
        .get_context("2d")
        .ok()
        .flatten()
        .and_then(|c| c.dyn_into().ok())
}

/// A canvas to draw on, with its laid-out CSS width (as a `ResizeObserver` last reported it).
#[derive(Clone)]
pub struct Surface {
    /// The canvas element.
    pub el: HtmlCanvasElement,
    /// Its CSS width in CSS pixels (at least 1).
    pub css_width: f64,
}

impl Surface {
    /// Backing-store pixels per CSS pixel (the device-pixel ratio the canvas was sized for).
    pub fn backing_ratio(&self) -> f64 {
        f64::from(self.el.width()) / self.css_width
    }
}

/// Sizes the surface's canvas to its CSS width and `height(width)` CSS pixels, with a backing store
/// of device pixels; touches the element only when a size changes (resizing clears a canvas, and
/// each style write dirties layout). Returns the CSS size, or `None` while it is not laid out or
/// while only sizing ([`sizing_only`]).
pub fn fit(surface: &Surface, height: impl Fn(f64) -> f64) -> Option<(f64, f64)> {
    let (canvas, css_w) = (&surface.el, surface.css_width);
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
    let style = canvas.style();
    let height_text = format!("{css_h}px");
    if style.get_property_value("height").ok().as_deref() != Some(height_text.as_str()) {
        let _ = style.set_property("height", &height_text);
    }
    if SIZING_ONLY.with(std::cell::Cell::get) {
        return None;
    }
    Some((css_w, css_h))
}
