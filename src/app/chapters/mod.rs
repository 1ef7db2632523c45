//! The explainer's chapters, in reading order. A chapter is prose, controls and figures.

pub mod sinusoids;
