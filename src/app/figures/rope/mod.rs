//! The figures of chapter 2, "Rotations: RoPE", one file each.

pub mod add;
pub mod cloud;
pub mod dims;
pub mod efficient;
pub mod layouts;
pub mod scores;
pub mod sentences;
pub mod values;
pub mod vector;
pub mod wheels;
