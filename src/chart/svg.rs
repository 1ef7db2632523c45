//! Figures rendered to SVG text natively (CLI, tests): the same chart functions the browser runs on
//! a canvas, on plotters' `SVGBackend`.
#![cfg(not(target_arch = "wasm32"))]

use plotters::coord::Shift;
use plotters::prelude::*;

/// Renders whatever `draw` draws on a `width × height` SVG canvas and returns the SVG document.
/// A drawing error is returned as its message.
pub fn render<F>(width: u32, height: u32, draw: F) -> Result<String, String>
where
    F: FnOnce(&DrawingArea<SVGBackend, Shift>) -> Result<(), String>,
{
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (width, height)).into_drawing_area();
        draw(&root)?;
        root.present().map_err(|e| e.to_string())?;
    }
    // plotters-svg 0.3.7 writes `data:png;base64,…`; browsers and viewers want the MIME type.
    Ok(svg.replace("href=\"data:png;base64,", "href=\"data:image/png;base64,"))
}
