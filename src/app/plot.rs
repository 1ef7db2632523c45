//! Painting a line-plot figure on a canvas: size it, draw the plot with plotters, return the
//! layout that maps pointer positions back to data.

use super::backend;

use super::canvas::{self, Surface};
use crate::chart::lines::{self, LinePlotLayout, LinePlotSpec};

/// Sizes the surface (CSS height from `height(width)`) and draws `spec` on it. `None` while the canvas
/// is not laid out or cannot draw.
pub fn paint_lines(
    surface: &Surface,
    height: impl Fn(f64) -> f64,
    spec: &LinePlotSpec,
) -> Option<LinePlotLayout> {
    canvas::fit(surface, height)?;
    let root = backend::area(&surface.el)?;
    let layout = lines::draw(&root, spec).ok()?;
    root.present().ok()?;
    Some(layout)
}
