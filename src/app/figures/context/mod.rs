//! The figures of chapter 3, "Stretching the context", one file each, and the names they share.

pub mod attention;
pub mod dynamic;
pub mod scores;
pub mod turns;
pub mod wavelengths;

pub use crate::scene::context::{length_text, method_name};
