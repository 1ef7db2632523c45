//! A figure's picture as one SVG document, natively: each panel drawn by the chart code the page
//! uses, on plotters' `SVGBackend`, the panels stacked top to bottom.
#![cfg(not(target_arch = "wasm32"))]

use plotters::coord::Shift;
use plotters::prelude::*;

use super::{Panel, Picture};
use crate::chart::{clock, heatmap, lines, svg};

/// Draws `panel` on `root` (the whole area).
fn draw<DB: DrawingBackend>(root: &DrawingArea<DB, Shift>, panel: &Panel) -> Result<(), String> {
    let err = |e: DrawingAreaErrorKind<DB::ErrorType>| e.to_string();
    match panel {
        Panel::Lines(spec, extras) => lines::draw_with(root, spec, extras)
            .map(|_| ())
            .map_err(err),
        Panel::Matrix(m) => {
            let lut = crate::chart::colormap::Lut::for_scale(
                m.spec.colorbar.scale,
                m.spec.theme.diverging,
            );
            let layout = heatmap::draw(root, &m.spec, &m.window(), &lut, None).map_err(err)?;
            for &row in &m.outlines {
                heatmap::draw_row_highlight(root, &layout, row, &m.spec.theme).map_err(err)?;
            }
            Ok(())
        }
        Panel::Clocks(spec) => clock::draw(root, spec).map(|_| ()).map_err(err),
    }
}

/// The panels' heights at CSS width `width`, in whole pixels.
pub fn heights(picture: &Picture, width: u32) -> Vec<u32> {
    picture
        .panels
        .iter()
        .map(|(_, height)| height(f64::from(width)).round().max(1.0) as u32)
        .collect()
}

/// The figure `width` pixels wide, each panel as tall as the page makes it at that width: one SVG
/// document holding one nested `<svg>` per panel. A drawing error is returned as its message.
pub fn render(picture: &Picture, width: u32) -> Result<String, String> {
    let heights = heights(picture, width);
    let total: u32 = heights.iter().sum();
    let mut out = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width}\" height=\"{total}\" \
         viewBox=\"0 0 {width} {total}\">\n<title>{}</title>\n",
        escape(picture.title)
    );
    let mut y = 0;
    for ((panel, _), &h) in picture.panels.iter().zip(&heights) {
        let inner = svg::render(width, h, |root| draw(root, panel))?;
        // Place the panel: its own <svg> element at y, inside the document.
        let placed = inner.replacen("<svg ", &format!("<svg x=\"0\" y=\"{y}\" "), 1);
        out.push_str(placed.trim());
        out.push('\n');
        y += h;
    }
    out.push_str("</svg>\n");
    Ok(out)
}

/// `text` safe inside an XML element.
fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}
