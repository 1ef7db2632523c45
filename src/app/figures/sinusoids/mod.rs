//! The figures of chapter 1, "Order and sinusoids", one file each.

pub mod attention;
pub mod clocks;
pub mod heatmap;
pub mod naive;
pub mod shift;
pub mod similarity;
pub mod token;
pub mod waves;
