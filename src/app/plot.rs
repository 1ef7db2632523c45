//! Painting a line-plot figure on a canvas: size it, draw the plot with plotters, return the
//! layout that maps pointer positions back to data.

use plotters::prelude::*;
use plotters_canvas::CanvasBackend;
use web_sys::HtmlCanvasElement;

use super::canvas;
use crate::chart::lines::{self, LinePlotLayout, LinePlotSpec};

/// Sizes `canvas` (CSS height from `height(width)`) and draws `spec` on it. `None` while the canvas
/// is not laid out or cannot draw.
pub fn paint_lines(
    canvas: &HtmlCanvasElement,
    height: impl Fn(f64) -> f64,
    spec: &LinePlotSpec,
) -> Option<LinePlotLayout> {
    canvas::fit(canvas, height)?;
    let root = CanvasBackend::with_canvas_object(canvas.clone())?.into_drawing_area();
    let layout = lines::draw(&root, spec).ok()?;
    root.present().ok()?;
    Some(layout)
}
