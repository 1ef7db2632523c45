//! Painting a line-plot figure on a canvas: size it, draw the plot with plotters, return the
//! layout that maps pointer positions back to data.

use super::backend;

use super::canvas::{self, Surface};
use crate::chart::lines::{self, Extras, LinePlotLayout, LinePlotSpec};
use crate::chart::plane::{self, PlaneLayout, PlaneSpec};

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

/// [`paint_lines`] with bands, reference lines or logarithmic axes.
pub fn paint_lines_with(
    surface: &Surface,
    height: impl Fn(f64) -> f64,
    spec: &LinePlotSpec,
    extras: &Extras,
) -> Option<LinePlotLayout> {
    canvas::fit(surface, height)?;
    let root = backend::area(&surface.el)?;
    let layout = lines::draw_with(&root, spec, extras).ok()?;
    root.present().ok()?;
    Some(layout)
}

/// Sizes the surface and draws the 2D plane `spec` on it; see [`paint_lines`].
pub fn paint_plane(
    surface: &Surface,
    height: impl Fn(f64) -> f64,
    spec: &PlaneSpec,
) -> Option<PlaneLayout> {
    canvas::fit(surface, height)?;
    let root = backend::area(&surface.el)?;
    let layout = plane::draw(&root, spec).ok()?;
    root.present().ok()?;
    Some(layout)
}
