//! Figures rendered to SVG text: the same chart functions the browser runs on a canvas, on
//! plotters' `SVGBackend`, natively (CLI, tests) and in the browser (a figure's SVG download).
//!
//! A bitmap (a heatmap's cells) becomes one embedded PNG image. Natively plotters-svg encodes it
//! itself; in the browser, where it cannot, the caller passes an encoder (a canvas's
//! `toDataURL`), and [`Svg`] puts the image in the bitmap's place.

use std::cell::RefCell;

use super::dual::{Dual, NoCanvas};

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters_backend::{BackendCoord, DrawingErrorKind};

/// Encodes packed RGB pixels of the given size as a PNG `data:` URL; `None` if it cannot.
pub type PngEncoder<'a> = &'a dyn Fn(&[u8], (u32, u32)) -> Option<String>;

/// The fill of the rectangle that holds a bitmap's place until the document is finished: a colour
/// no chart draws.
const PLACEHOLDER: RGBColor = RGBColor(0xfe, 0x01, 0xfd);

/// plotters' SVG backend as [`Dual`] holds it: bitmaps encoded by a [`PngEncoder`] when one is
/// given, and text measured by a canvas backend `C` when one is given (in the browser plotters
/// would measure text by adding an element with an inline style to the page, which a strict
/// Content-Security-Policy blocks). Every other call goes to `inner`.
pub struct Svg<'a, C> {
    pub(super) inner: SVGBackend<'a>,
    encode: Option<PngEncoder<'a>>,
    /// The `data:` URLs of the bitmaps, in drawing order.
    images: &'a RefCell<Vec<String>>,
    pub(super) measure: Option<C>,
}

impl<C> Svg<'_, C> {
    /// With an encoder, the bitmap is encoded as a PNG and a placeholder rectangle keeps its place
    /// (see [`place_images`]); without one, plotters-svg embeds it (natively) or draws it pixel
    /// by pixel.
    pub(super) fn blit(
        &mut self,
        pos: BackendCoord,
        (w, h): (u32, u32),
        src: &[u8],
    ) -> Result<(), DrawingErrorKind<std::io::Error>> {
        match self.encode.and_then(|encode| encode(src, (w, h))) {
            Some(url) => {
                self.images.borrow_mut().push(url);
                let end = (pos.0 + w as i32, pos.1 + h as i32);
                self.inner
                    .draw_rect(pos, end, &PLACEHOLDER.to_backend_color(), true)
            }
            None => self.inner.blit_bitmap(pos, (w, h), src),
        }
    }
}

/// `svg` with each placeholder rectangle replaced by the next of `images`, stretched over the
/// rectangle's box.
fn place_images(svg: &str, images: &[String]) -> String {
    let fill = format!(
        "fill=\"#{:02X}{:02X}{:02X}\"",
        PLACEHOLDER.0, PLACEHOLDER.1, PLACEHOLDER.2
    );
    let mut out = String::with_capacity(svg.len() + images.iter().map(String::len).sum::<usize>());
    let mut rest = svg;
    for url in images {
        let Some(at) = rest.find(&fill) else { break };
        let (Some(start), Some(end)) = (rest[..at].rfind("<rect"), rest[at..].find("/>")) else {
            break;
        };
        let tag = &rest[start..at + end];
        let attr = |name: &str| {
            let key = format!(" {name}=\"");
            tag.find(&key).and_then(|k| {
                let v = &tag[k + key.len()..];
                v.find('"').map(|e| v[..e].to_string())
            })
        };
        out.push_str(&rest[..start]);
        out.push_str(&format!(
            "<image x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" preserveAspectRatio=\"none\" \
             image-rendering=\"optimizeSpeed\" href=\"{url}\"",
            attr("x").unwrap_or_default(),
            attr("y").unwrap_or_default(),
            attr("width").unwrap_or_default(),
            attr("height").unwrap_or_default(),
        ));
        rest = &rest[at + end..];
    }
    out.push_str(rest);
    out
}

/// Renders whatever `draw` draws on a `width × height` SVG canvas and returns the SVG document,
/// bitmaps encoded by `encode` when given. The drawing area is a [`Dual`] backend of canvas type
/// `C` holding the SVG, so that chart code the page already draws on `Dual<C>` is not compiled a
/// second time; `measure`, when given, measures its text. A drawing error is returned as its
/// message.
pub fn render_dual<C, F>(
    width: u32,
    height: u32,
    encode: Option<PngEncoder>,
    measure: Option<C>,
    draw: F,
) -> Result<String, String>
where
    C: DrawingBackend,
    F: for<'x> FnOnce(&DrawingArea<Dual<'x, C>, Shift>) -> Result<(), String>,
{
    #[cfg(not(target_arch = "wasm32"))]
    super::fonts::register()?;
    let mut svg = String::new();
    let images = RefCell::new(Vec::new());
    {
        let backend = Svg {
            inner: SVGBackend::with_string(&mut svg, (width, height)),
            encode,
            images: &images,
            measure,
        };
        let root = Dual::Svg(backend).into_drawing_area();
        draw(&root)?;
        root.present().map_err(|e| e.to_string())?;
    }
    let svg = place_images(&svg, &images.borrow());
    // plotters-svg 0.3.7 writes `data:png;base64,…`; browsers and viewers want the MIME type.
    Ok(svg.replace("href=\"data:png;base64,", "href=\"data:image/png;base64,"))
}

/// [`render_dual`] with no canvas type.
pub fn render_with<F>(
    width: u32,
    height: u32,
    encode: Option<PngEncoder>,
    draw: F,
) -> Result<String, String>
where
    F: for<'x> FnOnce(&DrawingArea<Dual<'x, NoCanvas>, Shift>) -> Result<(), String>,
{
    render_dual::<NoCanvas, F>(width, height, encode, None, draw)
}

/// [`render_with`] without an encoder: natively plotters-svg embeds bitmaps itself.
#[cfg(not(target_arch = "wasm32"))]
pub fn render<F>(width: u32, height: u32, draw: F) -> Result<String, String>
where
    F: for<'x> FnOnce(&DrawingArea<Dual<'x, NoCanvas>, Shift>) -> Result<(), String>,
{
    render_with(width, height, None, draw)
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::*;
    use crate::chart::raster::Raster;

    #[test]
    fn an_encoder_puts_each_bitmap_in_its_place() {
        let encode = |rgb: &[u8], (w, h): (u32, u32)| {
            Some(format!("data:image/png;base64,{w}x{h}:{}", rgb.len()))
        };
        let svg = render_with(100, 60, Some(&encode), |root| {
            let map = |e: DrawingAreaErrorKind<_>| e.to_string();
            root.fill(&WHITE).map_err(map)?;
            let (a, b) = (vec![0u8; 2 * 3 * 3], vec![9u8; 4 * 2 * 3]);
            root.draw(&Raster::new((10, 5), (2, 3), &a)).map_err(map)?;
            root.draw(&Rectangle::new([(0, 0), (5, 5)], BLUE.filled()))
                .map_err(map)?;
            root.draw(&Raster::new((40, 20), (4, 2), &b)).map_err(map)?;
            Ok(())
        })
        .expect("draws");
        assert!(!svg.contains("#FE01FD"), "no placeholder is left: {svg}");
        let first = svg
            .find("href=\"data:image/png;base64,2x3:18\"")
            .expect("first");
        let second = svg
            .find("href=\"data:image/png;base64,4x2:24\"")
            .expect("second");
        assert!(first < svg.find("#0000FF").expect("the square") && first < second);
        assert!(svg.contains("<image x=\"10\" y=\"5\" width=\"2\" height=\"3\""));
        assert!(svg.contains("<image x=\"40\" y=\"20\" width=\"4\" height=\"2\""));
        assert!(svg.ends_with("</svg>\n") || svg.trim_end().ends_with("</svg>"));
    }

    #[test]
    fn text_is_written_at_the_size_the_chart_asks_for() {
        // As the canvas draws it; plotters-svg alone would write 15 / 1.24 ≈ 12.1.
        let svg = render(200, 60, |root| {
            root.draw(&Text::new("label", (10, 10), ("sans-serif", 15.0)))
                .map_err(|e| e.to_string())
        })
        .expect("draws");
        let at = svg.find("font-size=\"").expect("a text") + "font-size=\"".len();
        let size: f64 = svg[at..]
            .split('"')
            .next()
            .and_then(|v| v.parse().ok())
            .expect("a number");
        assert!((size - 15.0).abs() < 1e-9, "font-size {size}");
    }
}
