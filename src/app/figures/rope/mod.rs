//! The figures of chapter 2, "Rotations: RoPE", one file each.

pub mod dims;
pub mod efficient;
pub mod layouts;
pub mod scores;
pub mod sentences;
pub mod vector;
pub mod wheels;
