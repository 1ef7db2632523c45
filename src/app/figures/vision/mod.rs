//! Chapter 6's figures ("Beyond a line").

pub mod grid;
pub mod ids;
pub mod sections;
pub mod video;
