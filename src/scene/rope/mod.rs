//! Chapter 2's figures ("Rotations: RoPE") as data: each figure's height rules and chart specs
//! (shared with the page's components in `app/figures/rope`), and a builder per figure that
//! computes them from the views, deriving what the page derives from its state the same way
//! ([`RopeView::current_pos`](crate::params::rope::RopeView::current_pos),
//! [`RopeView::rotary`](crate::params::rope::RopeView::rotary),
//! [`RopeView::qk_vectors`](crate::params::rope::RopeView::qk_vectors)). Interactive state takes
//! its resting value: no hover, no selection, animations at the view's position.
//!
//! By subject: `plane` (the 2D vector, the two sentences), `turns` (the wheels and `R_m`, the
//! efficient form, the coordinates before and after, the layouts), `distance` (q·k over
//! positions), `toy` (chapter 1's toy sentence: why not add, why only q and k, the token cloud).

mod distance;
mod plane;
mod toy;
mod turns;

pub use distance::*;
pub use plane::*;
pub use toy::*;
pub use turns::*;

use super::{indexed, lines};

/// Chapter 2's picture builders, by figure id, in the book's order (the figures of
/// [`crate::book::CHAPTERS`] that have a picture; a test checks the two lists agree).
pub const PICTURES: &[(&str, crate::scene::Build)] = &[
    ("fig-rope-add", add),
    ("fig-rope-2d", vector),
    ("fig-rope-sentences", sentences),
    ("fig-rope-wheels", wheels),
    ("fig-rope-scores", scores),
    ("fig-rope-dims", dims),
    ("fig-rope-efficient", efficient),
    ("fig-rope-layouts", layouts),
    ("fig-rope-values", values),
    ("fig-rope-cloud", cloud),
];

#[cfg(test)]
mod tests;
