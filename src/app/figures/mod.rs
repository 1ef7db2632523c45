//! One file a figure: a Leptos component that reads state, memoises the math, draws on a canvas
//! through `chart`, and shows a readout and a text alternative.

pub mod appearing;
pub mod context;
pub mod cursor;
pub mod models;
pub mod rope;
pub mod sinusoids;
pub mod tables;
pub mod turning;
pub mod vision;
