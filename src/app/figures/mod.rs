//! One file a figure: a Leptos component that reads state, memoises the math, draws on a canvas
//! through `chart`, and shows a readout and a text alternative.

pub mod attention;
pub mod clocks;
pub mod context;
pub mod cursor;
pub mod heatmap;
pub mod naive;
pub mod rope;
pub mod shift;
pub mod similarity;
pub mod tables;
pub mod token;
pub mod waves;
