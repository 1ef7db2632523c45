//! A figure's picture as one SVG document: each panel drawn by the chart code the page uses, on
//! plotters' `SVGBackend`, the panels stacked top to bottom. Natively for `pe render`; in the
//! browser for a figure's SVG download (its bitmaps encoded by the page's canvas).

use plotters::coord::Shift;
use plotters::prelude::*;

use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::{Panel, Picture, TilesPanel};
use crate::chart::colormap::Lut;
use crate::chart::dual::NoCanvas;
use crate::chart::multiples::TileGrid;
use crate::chart::raster::Raster;
use crate::chart::theme::{Theme, begin_titled};
use crate::chart::{clock, cloud, heatmap, lines, pairs, plane, svg};

/// The tiles' grid across `width` device pixels (the page's: 64–140 px tiles, 10 px apart, 18 px
/// labels, in CSS pixels scaled by the theme).
fn tile_grid(count: usize, width: u32, t: &Theme) -> TileGrid {
    let px = |css: f64| t.px(css) as usize;
    TileGrid::new(
        count,
        width as usize,
        px(64.0),
        px(140.0),
        px(10.0),
        px(18.0),
    )
}

/// Space above the tiles for the title, in CSS pixels.
const TILES_TOP: f64 = 34.0;

/// The small multiples: the title, then every tile as one image composited over the background,
/// each labelled above; the selected tile's label in the highlight colour and the tile outlined
/// with it, as the page draws the chosen head.
fn draw_tiles<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    tiles: &TilesPanel,
) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
    let t = &tiles.theme;
    begin_titled(root, &tiles.title, t)?;
    let (width, _) = root.dim_in_pixel();
    let grid = tile_grid(tiles.labels.len(), width, t);
    let top = t.px(TILES_TOP) as i32;
    let side = tiles.side().max(1);
    let lut = Lut::for_scale(tiles.colorbar.scale, t.diverging);
    let mut rgba = Vec::new();
    let at = |px: usize| px * side / grid.tile.max(1);
    grid.paint(
        &lut,
        (tiles.colorbar.lo, tiles.colorbar.hi),
        |k, y, x| {
            tiles
                .values
                .get((k * side + at(y)) * side + at(x))
                .copied()
                .unwrap_or(f64::NAN)
        },
        &mut rgba,
    );
    let (w, h) = grid.size();
    let bg = [t.background.0, t.background.1, t.background.2];
    let rgb: Vec<u8> = rgba
        .chunks_exact(4)
        .flat_map(|px| {
            let a = u16::from(px[3]);
            (0..3).map(move |i| ((u16::from(px[i]) * a + u16::from(bg[i]) * (255 - a)) / 255) as u8)
        })
        .collect();
    root.draw(&Raster::new((0, top), (w as u32, h as u32), &rgb))?;
    let font = ("sans-serif", t.font(12.0)).into_font();
    for (k, label) in tiles.labels.iter().enumerate() {
        let (x, y) = grid.origin(k);
        let (x, y) = (x as i32, top + y as i32);
        let strong = tiles.selected == Some(k);
        let color = if strong { t.highlight } else { t.text };
        root.draw(&Text::new(
            label.clone(),
            (x, y - t.px(3.0) as i32),
            font.clone()
                .color(&color)
                .pos(Pos::new(HPos::Left, VPos::Bottom)),
        ))?;
        if strong {
            let side = grid.tile as i32;
            root.draw(&Rectangle::new(
                [(x, y), (x + side, y + side)],
                ShapeStyle::from(t.highlight).stroke_width(t.px(2.0)),
            ))?;
        }
    }
    Ok(())
}

/// Draws `panel` on `root` (the whole area).
pub fn draw<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    panel: &Panel,
) -> Result<(), String> {
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
            let value = |r: usize, c: usize| m.value(r, c);
            let layout = heatmap::draw(root, &m.spec, &lut, &value, None).map_err(err)?;
            for &row in &m.outlines {
                heatmap::draw_row_highlight(root, &layout, row, &m.spec.theme).map_err(err)?;
            }
            if let Some(cell) = m.cell {
                heatmap::draw_cell_highlight(root, &layout, cell, &m.spec.theme).map_err(err)?;
            }
            Ok(())
        }
        Panel::Clocks(spec) => clock::draw(root, spec).map(|_| ()).map_err(err),
        Panel::Plane(spec) => plane::draw(root, spec).map(|_| ()).map_err(err),
        Panel::Pairs(spec) => pairs::draw(root, spec).map_err(err),
        Panel::Cloud(c) => cloud::draw(root, &c.spec()).map(|_| ()).map_err(err),
        Panel::Tiles(t) => draw_tiles(root, t).map_err(err),
        Panel::Ids(p) => crate::chart::idstrip::draw(root, &p.spec(None))
            .map(|_| ())
            .map_err(err),
    }
}

/// The panels' heights in device pixels for a width of `width` device pixels at `scale` device
/// pixels per CSS pixel (the page's height rules are in CSS pixels).
pub fn heights(picture: &Picture, width: u32, scale: f64) -> Vec<u32> {
    let css = f64::from(width) / scale;
    picture
        .panels
        .iter()
        .map(|(panel, height)| match panel {
            Panel::Tiles(t) => {
                let grid = tile_grid(t.labels.len(), width, &t.theme);
                t.theme.px(TILES_TOP) + grid.size().1 as u32 + t.theme.px(8.0)
            }
            _ => (height.at(css) * scale).round().max(1.0) as u32,
        })
        .collect()
}

/// The figure `width` pixels wide, each panel as tall as the page makes it at that width: one SVG
/// document holding one nested `<svg>` per panel, bitmaps encoded by `encode` when given (see
/// [`svg::render_with`]). A drawing error is returned as its message.
pub fn render(
    picture: &Picture,
    width: u32,
    encode: Option<svg::PngEncoder>,
) -> Result<String, String> {
    render_on::<NoCanvas>(picture, width, encode, &|| None)
}

/// [`render`], drawn through [`crate::chart::dual::Dual`] with canvas type `C`: the page passes
/// its own, so the chart code is the copy the page already has, and a canvas backend from
/// `measure` to measure text (see [`svg::render_dual`]).
pub fn render_on<C: DrawingBackend>(
    picture: &Picture,
    width: u32,
    encode: Option<svg::PngEncoder>,
    measure: &dyn Fn() -> Option<C>,
) -> Result<String, String> {
    let heights = heights(picture, width, 1.0);
    let total: u32 = heights.iter().sum();
    let mut out = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width}\" height=\"{total}\" \
         viewBox=\"0 0 {width} {total}\">\n<title>{}</title>\n",
        escape(picture.title)
    );
    let mut y = 0;
    for ((panel, _), &h) in picture.panels.iter().zip(&heights) {
        let inner =
            svg::render_dual::<C, _>(width, h, encode, measure(), |root| draw(root, panel))?;
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
