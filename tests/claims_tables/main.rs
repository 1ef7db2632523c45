//! Chapter 4's setting-dependent sentences (`explain::tables`), re-derived by brute force from
//! the math: proptest sweeps over the chapter's parameter space (edges included), and one named
//! regression per link the chapter-4 reviews reproduced their findings with. No check calls the
//! predicate that chose a sentence: the runs of T5 buckets are scanned distance by distance, the
//! ALiBi ranges are read off the softmax weights, the similarities recomputed from the rows.
//!
//! One module per family, as in `explain::tables`: [`t5`], [`alibi`], [`learned`], and
//! [`others`] (Shaw, NoPE, one position, past the training length).
#![cfg(not(target_arch = "wasm32"))]

#[path = "../common/says.rs"]
mod says;

mod alibi;
mod learned;
mod others;
mod t5;

use pe_explorer::params::Declared;
use pe_explorer::params::parse_query;
use pe_explorer::params::tables::TablesView;

/// The view a link opens.
fn view(query: &str) -> TablesView {
    TablesView::from_query(&parse_query(query)).0
}
