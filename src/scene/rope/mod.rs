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

#[cfg(test)]
mod tests;
