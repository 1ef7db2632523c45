//! A matrix as a heatmap: plotters draws the frame (title, axes, ticks, colour bar); the cells are one
//! RGBA raster the caller paints into the plot rectangle in a single blit (one `putImageData` into
//! a layer over the plot in the browser, an embedded PNG in SVG), never one rectangle per cell.

use std::ops::Range;

use plotters::coord::Shift;
use plotters::prelude::*;

use super::colorbar::{self, ColorBar};
use super::colormap::{Lut, sample_indices};
use super::raster::Raster;
use super::theme::Theme;

/// What a heatmap shows. Cell `(row, col)` of the raster is matrix entry `(rows.start + row,
/// cols.start + col)`.
#[derive(Clone, Debug)]
pub struct HeatmapSpec {
    /// Caption above the chart.
    pub title: String,
    /// Description of the horizontal axis (columns).
    pub x_desc: &'static str,
    /// Description of the vertical axis (rows, top to bottom).
    pub y_desc: &'static str,
    /// The matrix columns shown.
    pub cols: Range<usize>,
    /// The matrix rows shown.
    pub rows: Range<usize>,
    /// The colour bar: value range, label and scale.
    pub colorbar: ColorBar,
    /// Names for the columns (e.g. tokens), shown as tick labels instead of indices.
    pub col_names: Option<Vec<String>>,
    /// Names for the rows.
    pub row_names: Option<Vec<String>>,
    /// Page colours and scale.
    pub theme: Theme,
}

impl HeatmapSpec {
    /// A positional-encoding table: dimensions across, positions down, values on the diverging
    /// −1 … 1 scale labelled "PE value".
    pub fn encoding(
        title: impl Into<String>,
        rows: Range<usize>,
        cols: Range<usize>,
        theme: Theme,
    ) -> HeatmapSpec {
        HeatmapSpec {
            title: title.into(),
            x_desc: "column j",
            y_desc: "position",
            cols,
            rows,
            colorbar: ColorBar {
                lo: -1.0,
                hi: 1.0,
                label: "PE value",
                scale: super::colormap::Scale::Diverging,
            },
            col_names: None,
            row_names: None,
            theme,
        }
    }
}

/// Where the cells went: the plot rectangle in backend pixels and the cells it spans. Returned by
/// [`draw_frame`] so the caller can blit the raster and map a mouse position back to a cell.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HeatmapLayout {
    /// Backend pixel columns covered by the cells.
    pub x: Range<i32>,
    /// Backend pixel rows covered by the cells.
    pub y: Range<i32>,
    /// The matrix columns shown.
    pub cols: Range<usize>,
    /// The matrix rows shown.
    pub rows: Range<usize>,
}

impl HeatmapLayout {
    /// The matrix cell `(row, col)` under backend pixel `(px, py)`, if any.
    pub fn cell_at(&self, px: f64, py: f64) -> Option<(usize, usize)> {
        let (w, h) = (self.width() as f64, self.height() as f64);
        let fx = (px - f64::from(self.x.start)) / w;
        let fy = (py - f64::from(self.y.start)) / h;
        if !(0.0..1.0).contains(&fx) || !(0.0..1.0).contains(&fy) {
            return None;
        }
        let col = self.cols.start + (fx * self.cols.len() as f64) as usize;
        let row = self.rows.start + (fy * self.rows.len() as f64) as usize;
        (col < self.cols.end && row < self.rows.end).then_some((row, col))
    }

    /// The backend-pixel rectangle `(x0, y0, x1, y1)` of matrix row `row` across all shown columns.
    pub fn row_rect(&self, row: usize) -> Option<(i32, i32, i32, i32)> {
        if !self.rows.contains(&row) {
            return None;
        }
        let h = self.height() as f64 / self.rows.len() as f64;
        let k = (row - self.rows.start) as f64;
        let y0 = f64::from(self.y.start) + k * h;
        Some((
            self.x.start,
            y0.floor() as i32,
            self.x.end,
            (y0 + h).ceil() as i32,
        ))
    }

    /// The backend-pixel rectangle `(x0, y0, x1, y1)` of cell `(row, col)`.
    pub fn cell_rect(&self, row: usize, col: usize) -> Option<(i32, i32, i32, i32)> {
        let (_, y0, _, y1) = self.row_rect(row)?;
        if !self.cols.contains(&col) {
            return None;
        }
        let w = self.width() as f64 / self.cols.len() as f64;
        let x0 = f64::from(self.x.start) + (col - self.cols.start) as f64 * w;
        Some((x0.floor() as i32, y0, (x0 + w).ceil() as i32, y1))
    }

    /// Width of the plot rectangle in backend pixels (at least 1).
    pub fn width(&self) -> u32 {
        (self.x.end - self.x.start).max(1) as u32
    }

    /// Height of the plot rectangle in backend pixels (at least 1).
    pub fn height(&self) -> u32 {
        (self.y.end - self.y.start).max(1) as u32
    }
}

/// Tick label for cell coordinate `v`: the cell's name if names are given, else its index;
/// nothing between cell centres.
fn cell_label(v: f64, names: Option<&[String]>) -> String {
    let r = v.round();
    if (v - r).abs() > 1e-9 || r < 0.0 {
        return String::new();
    }
    let k = r as usize;
    match names {
        Some(names) => names.get(k).cloned().unwrap_or_default(),
        None => k.to_string(),
    }
}

/// Draws background, caption, axes with ticks and titles, and the colour bar. Leaves the plot
/// rectangle empty for the raster and returns where it is.
///
/// Cell `k` of an axis is centred on coordinate `k` (as matplotlib's `imshow`), so integer ticks
/// label cells. The vertical coordinate is negated so that row 0 is at the top.
pub fn draw_frame<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    spec: &HeatmapSpec,
) -> Result<HeatmapLayout, DrawingAreaErrorKind<DB::ErrorType>> {
    root.fill(&spec.theme.background)?;
    let (main, bar) = split(root, &spec.theme);
    let layout = draw_axes(&main, spec)?;
    colorbar::draw(&bar, &spec.colorbar, &spec.theme)?;
    Ok(layout)
}

/// Redraws the chart part of a frame [`draw_frame`] drew for a spec with the same colour bar, size
/// and theme (only the rows, columns, names or titles differ): the colour bar strip is left as it
/// is, which saves about half the cost of a frame on a canvas.
pub fn redraw_axes<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    spec: &HeatmapSpec,
) -> Result<HeatmapLayout, DrawingAreaErrorKind<DB::ErrorType>> {
    let (main, _) = split(root, &spec.theme);
    main.fill(&spec.theme.background)?;
    draw_axes(&main, spec)
}

/// The chart area and the colour-bar strip on its right.
fn split<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    t: &Theme,
) -> (DrawingArea<DB, Shift>, DrawingArea<DB, Shift>) {
    let (w, _) = root.dim_in_pixel();
    let bar_width = t.px(72.0).min(w / 4);
    root.split_horizontally(w.saturating_sub(bar_width))
}

/// Caption, axes, ticks and axis titles in `main`; returns the plot rectangle.
fn draw_axes<DB: DrawingBackend>(
    main: &DrawingArea<DB, Shift>,
    spec: &HeatmapSpec,
) -> Result<HeatmapLayout, DrawingAreaErrorKind<DB::ErrorType>> {
    let t = &spec.theme;
    let (w, _) = main.dim_in_pixel();
    let font = |size: f64| ("sans-serif", t.font(size)).into_font().color(&t.text);
    let x_range = spec.cols.start as f64 - 0.5..spec.cols.end as f64 - 0.5;
    let y_range = -(spec.rows.end as f64) + 0.5..-(spec.rows.start as f64) + 0.5;
    let named = |names: Option<&[String]>, len: usize| names.map_or(8, |_| len.max(1));
    let y_area = match &spec.row_names {
        Some(names) => {
            let longest = names.iter().map(|n| n.chars().count()).max().unwrap_or(0);
            t.px((longest as f64 * 7.5 + 30.0).clamp(52.0, 140.0))
        }
        None => t.px(52.0),
    };
    let mut chart = ChartBuilder::on(main)
        .caption(&spec.title, font(15.0))
        .margin(t.px(8.0))
        .x_label_area_size(t.px(if spec.col_names.is_some() { 48.0 } else { 40.0 }))
        .y_label_area_size(y_area)
        .build_cartesian_2d(x_range, y_range)?;
    // Column names that would not fit under their column (narrow screens) give way to indices.
    let plot_w = f64::from(w.saturating_sub(y_area)).max(1.0);
    let col_w = plot_w / spec.cols.len().max(1) as f64;
    let widest = spec.col_names.as_deref().map_or(0, |names| {
        names.iter().map(|n| n.chars().count()).max().unwrap_or(0)
    });
    let col_names = spec
        .col_names
        .as_deref()
        .filter(|_| widest as f64 * t.font(12.0) * 0.6 <= col_w);
    let x_label = |v: &f64| cell_label(*v, col_names);
    let y_label = |v: &f64| cell_label(-*v, spec.row_names.as_deref());
    chart
        .configure_mesh()
        .disable_mesh()
        .axis_style(t.axis)
        .label_style(font(12.0))
        .axis_desc_style(font(13.0))
        .x_desc(spec.x_desc)
        .y_desc(spec.y_desc)
        .x_labels(named(spec.col_names.as_deref(), spec.cols.len()))
        .y_labels(named(spec.row_names.as_deref(), spec.rows.len()))
        .x_label_formatter(&x_label)
        .y_label_formatter(&y_label)
        .draw()?;
    let (x, y) = chart.plotting_area().get_pixel_range();
    Ok(HeatmapLayout {
        x,
        y,
        cols: spec.cols.clone(),
        rows: spec.rows.clone(),
    })
}

/// Outlines one matrix row (the current position) over the painted cells.
pub fn draw_row_highlight<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    layout: &HeatmapLayout,
    row: usize,
    theme: &Theme,
) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
    if let Some((x0, y0, x1, y1)) = layout.row_rect(row) {
        let style = ShapeStyle::from(theme.highlight).stroke_width(theme.px(2.0));
        root.draw(&Rectangle::new([(x0, y0 - 1), (x1, y1)], style))?;
    }
    Ok(())
}

/// Outlines one cell (the chosen patch of a grid) over the painted cells.
pub fn draw_cell_highlight<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    layout: &HeatmapLayout,
    (row, col): (usize, usize),
    theme: &Theme,
) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
    if let Some((x0, y0, x1, y1)) = layout.cell_rect(row, col) {
        let style = ShapeStyle::from(theme.highlight).stroke_width(theme.px(2.0));
        root.draw(&Rectangle::new([(x0, y0 - 1), (x1, y1)], style))?;
    }
    Ok(())
}

/// Resamples a row-major `rows × cols` RGBA image (one pixel per cell) to the plot rectangle by
/// nearest neighbour, as packed RGB over `background` (a translucent pixel — the hatching of a
/// cell with no value — is blended with it) — the form `DrawingBackend::blit_bitmap` takes.
pub fn resample_rgb(
    rgba: &[u8],
    (cols, rows): (usize, usize),
    (width, height): (u32, u32),
    background: RGBColor,
) -> Vec<u8> {
    let bg = [background.0, background.1, background.2];
    let (w, h) = (width as usize, height as usize);
    let mut out = Vec::with_capacity(w * h * 3);
    for py in 0..h {
        let r = (py * rows / h).min(rows.saturating_sub(1));
        for px in 0..w {
            let c = (px * cols / w).min(cols.saturating_sub(1));
            let i = (r * cols + c) * 4;
            let px = rgba.get(i..i + 4).unwrap_or(&[0, 0, 0, 255]);
            let a = u16::from(px[3]);
            out.extend(
                (0..3).map(|k| ((u16::from(px[k]) * a + u16::from(bg[k]) * (255 - a)) / 255) as u8),
            );
        }
    }
    out
}

/// Draws a whole heatmap on any backend: the frame, then the cells `value(row, col)` (matrix
/// indices) painted with `lut` as one bitmap blit (a NaN cell — no value — hatched as the page
/// paints it; with more cells than pixels, the cells nearest each pixel, as the page samples
/// them), then an optional row highlight. The
/// browser uses [`draw_frame`] and paints the cells as a `putImageData` layer over the plot
/// instead (a canvas backend would blit pixel by pixel); SVG output and tests use this.
pub fn draw<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    spec: &HeatmapSpec,
    lut: &Lut,
    value: &dyn Fn(usize, usize) -> f64,
    highlight_row: Option<usize>,
) -> Result<HeatmapLayout, DrawingAreaErrorKind<DB::ErrorType>> {
    let layout = draw_frame(root, spec)?;
    let mut rgba = Vec::new();
    let rows = sample_indices(spec.rows.clone(), layout.height() as usize);
    let cols = sample_indices(spec.cols.clone(), layout.width() as usize);
    let range = (spec.colorbar.lo, spec.colorbar.hi);
    lut.paint_fn_into(&rows, &cols, range, &mut rgba, value);
    let rgb = resample_rgb(
        &rgba,
        (cols.len(), rows.len()),
        (layout.width(), layout.height()),
        spec.theme.background,
    );
    root.draw(&Raster::new(
        (layout.x.start, layout.y.start),
        (layout.width(), layout.height()),
        &rgb,
    ))?;
    if let Some(row) = highlight_row {
        draw_row_highlight(root, &layout, row, &spec.theme)?;
    }
    Ok(layout)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn layout() -> HeatmapLayout {
        HeatmapLayout {
            x: 100..300,
            y: 50..150,
            cols: 0..4,
            rows: 10..20,
        }
    }

    #[test]
    fn cell_at_maps_pixels_to_cells_and_rejects_outside() {
        let l = layout();
        assert_eq!(l.cell_at(100.0, 50.0), Some((10, 0)));
        assert_eq!(l.cell_at(299.9, 149.9), Some((19, 3)));
        assert_eq!(l.cell_at(150.0, 60.0), Some((11, 1)));
        assert_eq!(l.cell_at(99.0, 60.0), None);
        assert_eq!(l.cell_at(150.0, 150.0), None);
        assert_eq!(l.cell_at(f64::NAN, 60.0), None);
    }

    #[test]
    fn row_rect_covers_the_row() {
        let l = layout();
        assert_eq!(l.row_rect(10), Some((100, 50, 300, 60)));
        assert_eq!(l.row_rect(9), None);
        assert_eq!(l.row_rect(20), None);
    }

    #[test]
    fn resample_picks_the_nearest_cell() {
        // 2×2 image: red, green / blue, white.
        let rgba = [
            255, 0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 255, 255, 255, 255, 255,
        ];
        let rgb = resample_rgb(&rgba, (2, 2), (4, 2), RGBColor(0, 0, 0));
        assert_eq!(
            rgb,
            vec![
                255, 0, 0, 255, 0, 0, 0, 255, 0, 0, 255, 0, //
                0, 0, 255, 0, 0, 255, 255, 255, 255, 255, 255, 255
            ]
        );
    }

    #[test]
    fn resample_blends_translucent_cells_over_the_background() {
        // A transparent cell shows the background; a half-opaque grey mixes with it.
        let rgba = [0, 0, 0, 0, 0x8c, 0x8c, 0x8c, 0x90];
        let rgb = resample_rgb(&rgba, (2, 1), (2, 1), RGBColor(0xff, 0xff, 0xff));
        let mix = ((0x8c * 0x90 + 0xff * (0xff - 0x90)) / 0xff) as u8;
        assert_eq!(rgb, vec![0xff, 0xff, 0xff, mix, mix, mix]);
    }
}
