//! Chapter 4's figures ("Tables and biases") as data: each figure's height rules and chart specs
//! (shared with the page's components in `app/figures/tables`), and a builder per figure that
//! computes them from the view a link describes, deriving what the page derives from its state
//! the same way ([`TablesView::slopes`](crate::params::tables::TablesView::slopes),
//! [`TablesView::chosen_head`](crate::params::tables::TablesView::chosen_head),
//! [`TablesView::t5_max_distance`](crate::params::tables::TablesView::t5_max_distance)).
//! Interactive state takes its resting value: no hover, no selected tile.
//!
//! By subject: `learned` (the learned table and its similarity), `relative` (Shaw's clipped
//! distances, T5's buckets), `txl` (Transformer-XL's four terms), `drope` (a matching key's weight with and without rotation), `alibi` (the slopes, the bias, local and global heads), `position`
//! (NoPE, one position in every method, past the training length). The comparison table
//! (fig-tab-compare) is HTML text with no picture, so it has no builder.

mod alibi;
mod drope;
mod learned;
mod position;
mod relative;
mod txl;

pub use alibi::*;
pub use drope::*;
pub use learned::*;
pub use position::*;
pub use relative::*;
pub use txl::*;

use super::{Height, Panel, indexed};
use crate::chart::lines::{Extras, LinePlotSpec};

/// σ of the learned table: Hugging Face transformers initialises BERT's and GPT-2's position
/// tables with `N(0, initializer_range²)`, `initializer_range = 0.02`.
pub const SIGMA: f64 = 0.02;

/// A line plot as a panel, with its extras.
fn lines((spec, extras): (LinePlotSpec, Extras), height: Height) -> (Panel, Height) {
    (Panel::Lines(spec, extras), height)
}

/// Chapter 4's picture builders, by figure id, in the book's order (the figures of
/// [`crate::book::CHAPTERS`] that have a picture; a test checks the two lists agree).
pub const PICTURES: &[(&str, crate::scene::Build)] = &[
    ("fig-tab-learned", learned),
    ("fig-tab-learned-sim", learned_sim),
    ("fig-tab-shaw", shaw),
    ("fig-tab-txl", txl),
    ("fig-tab-t5", t5),
    ("fig-tab-slopes", slopes),
    ("fig-tab-alibi", alibi),
    ("fig-tab-alibi-attention", alibi_attention),
    ("fig-tab-nope", nope),
    ("fig-tab-drope", drope),
    ("fig-tab-same", same),
    ("fig-tab-extrapolate", extrapolate),
];

#[cfg(test)]
mod tests;
