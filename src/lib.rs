//! Positional Encoding Explorer: the math of positional encodings (`math`), the figures that draw it
//! (`chart`, generic over plotters' `DrawingBackend`), and — in the browser only — the Leptos app (`app`).

pub mod book;
pub mod chart;
pub mod explain;
pub mod math;
pub mod names;
pub mod params;
pub mod scene;

#[cfg(target_arch = "wasm32")]
pub mod app;
