//! Figures rendered to SVG text natively (CLI, tests): the same chart functions the browser runs on
//! a canvas, on plotters' `SVGBackend`.
#![cfg(not(target_arch = "wasm32"))]

use plotters::coord::Shift;
use plotters::prelude::*;

use super::colormap::Lut;
use super::heatmap::{self, HeatmapSpec};
use super::theme::Theme;
use crate::math::sinusoidal::SinusoidalParams;

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

/// The sinusoidal encoding as a heatmap (positions down, dimensions across, colour bar −1..1),
/// optionally with the row of position `highlight` outlined.
pub fn sinusoidal_heatmap(
    params: &SinusoidalParams,
    highlight: Option<usize>,
    theme: Theme,
    (width, height): (u32, u32),
) -> Result<String, String> {
    let values = params.table();
    let title = format!(
        "Sinusoidal PE · {} positions × d_model {} · base {}",
        params.positions, params.dim, params.base
    );
    let spec = HeatmapSpec::encoding(&title, 0..params.positions, 0..params.dim, theme);
    let lut = Lut::diverging(theme.diverging);
    render(width, height, |root| {
        heatmap::draw(root, &spec, &values, &lut, highlight)
            .map(|_| ())
            .map_err(|e| e.to_string())
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::params::SINUSOIDAL_DEFAULT;

    #[test]
    fn heatmap_svg_has_axes_colour_bar_and_one_embedded_image() {
        let svg = sinusoidal_heatmap(&SINUSOIDAL_DEFAULT, Some(10), Theme::LIGHT, (800, 500))
            .expect("draws");
        assert!(svg.starts_with("<svg"), "{}", &svg[..80.min(svg.len())]);
        assert_eq!(svg.matches("<image").count(), 1, "the cells are one bitmap");
        for text in ["column j", "position", "PE value", "Sinusoidal PE"] {
            assert!(svg.contains(text), "missing {text}");
        }
        assert!(svg.contains("data:image/png;base64,"));
    }
}
