//! A figure's picture as a PNG, natively (`pe render --format png`): each panel drawn by the chart
//! code the page uses, on plotters' bitmap backend at `scale` device pixels per CSS pixel (text
//! laid out and drawn from the system font by `chart::fonts::Glyphs`), the panels stacked top to
//! bottom, encoded by `image`.
#![cfg(not(target_arch = "wasm32"))]

use image::ImageEncoder;
use image::codecs::png::PngEncoder;
use plotters::prelude::*;

use super::Picture;
use super::svg::{draw, heights};
use crate::chart::fonts::Glyphs;

/// The figure at `width` CSS pixels and `scale` device pixels per CSS pixel, as PNG bytes. The
/// picture's panels must have been built with a theme scaled by `scale`. A drawing error is
/// returned as its message.
pub fn render(picture: &Picture, width: u32, scale: f64) -> Result<Vec<u8>, String> {
    crate::chart::fonts::register()?;
    let w = (f64::from(width) * scale).round() as u32;
    let heights = heights(picture, w, scale);
    let total: u32 = heights.iter().sum();
    let mut rgb = Vec::with_capacity(w as usize * total as usize * 3);
    // Each panel on its own buffer (a chart's coordinates are the backend's), then stacked: rows
    // are contiguous, so stacking is appending.
    for ((panel, _), &h) in picture.panels.iter().zip(&heights) {
        let mut buf = vec![0u8; w as usize * h as usize * 3];
        {
            let root = Glyphs(BitMapBackend::with_buffer(&mut buf, (w, h))).into_drawing_area();
            draw(&root, panel)?;
            root.present().map_err(|e| e.to_string())?;
        }
        rgb.extend_from_slice(&buf);
    }
    let mut png = Vec::new();
    PngEncoder::new(&mut png)
        .write_image(&rgb, w, total, image::ColorType::Rgb8)
        .map_err(|e| format!("could not encode the PNG: {e}"))?;
    Ok(png)
}
