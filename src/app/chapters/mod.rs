//! The explainer's chapters, in reading order. A chapter is prose, controls and figures.

pub mod closing;
pub mod context;
pub mod rope;
pub mod sinusoids;
pub mod tables;
