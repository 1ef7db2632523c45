//! Line plots: several named series over a shared x axis, with a legend, an optional vertical
//! marker (the current position) and a returned layout that maps pixels back to data for hover.

use std::ops::Range;

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::band::dense_band;
use super::theme::Theme;
use super::ticks::{label_count, power_label, tick_label, y_label_area};

/// Categorical colours for series, distinguishable in light and dark (Okabe–Ito, colour-blind safe).
pub const SERIES_COLORS: [RGBColor; 7] = [
    RGBColor(0x00, 0x72, 0xb2),
    RGBColor(0xe6, 0x9f, 0x00),
    RGBColor(0x00, 0x9e, 0x73),
    RGBColor(0xcc, 0x79, 0xa7),
    RGBColor(0xd5, 0x5e, 0x00),
    RGBColor(0x56, 0xb4, 0xe9),
    RGBColor(0x88, 0x66, 0xcc),
];

/// The colour of series `k`.
pub fn series_color(k: usize) -> RGBColor {
    SERIES_COLORS[k % SERIES_COLORS.len()]
}

/// One line.
#[derive(Clone, Debug)]
pub struct Series {
    /// Legend text.
    pub label: String,
    /// Line colour.
    pub color: RGBColor,
    /// The points, in x order.
    pub points: Vec<(f64, f64)>,
    /// Draw a dot at every point (for short, discrete series, or to overlay another line).
    pub dots: bool,
    /// Join the points with a line.
    pub line: bool,
}

/// What a line plot shows.
#[derive(Clone, Debug)]
pub struct LinePlotSpec {
    /// Caption above the plot.
    pub title: String,
    /// Horizontal axis description.
    pub x_desc: &'static str,
    /// Vertical axis description.
    pub y_desc: &'static str,
    /// Horizontal data range.
    pub x_range: Range<f64>,
    /// Vertical data range.
    pub y_range: Range<f64>,
    /// The lines.
    pub series: Vec<Series>,
    /// A vertical marker line at this x, with its label.
    pub marker: Option<(f64, String)>,
    /// Page colours and scale.
    pub theme: Theme,
}

/// A shaded band between two lines over the same x values (`lower` and `upper` in x order).
#[derive(Clone, Debug)]
pub struct Fill {
    /// Legend text (empty: not in the legend).
    pub label: String,
    /// Colour (drawn translucent).
    pub color: RGBColor,
    /// The band's lower edge.
    pub lower: Vec<(f64, f64)>,
    /// The band's upper edge.
    pub upper: Vec<(f64, f64)>,
}

/// What some plots add to a [`LinePlotSpec`]: shaded bands, labelled horizontal reference lines
/// and logarithmic axes.
#[derive(Clone, Debug, Default)]
pub struct Extras {
    /// Bands, drawn under the lines.
    pub fills: Vec<Fill>,
    /// Horizontal reference lines at these y values, with their labels (dashed).
    pub hlines: Vec<(f64, String)>,
    /// The x values are `log₁₀` of the quantity: ticks read as the quantity (10, 100, 1k…).
    pub x_log: bool,
    /// The same for y.
    pub y_log: bool,
    /// Where the legend goes (top right unless the data needs that corner).
    pub legend: Corner,
}

/// A corner of the plotting area.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Corner {
    /// Top right (the default).
    #[default]
    TopRight,
    /// Top left.
    TopLeft,
    /// Bottom left.
    BottomLeft,
    /// Bottom right.
    BottomRight,
}

/// The index of the item of `values` nearest to the data x `x`, each item drawn at the data x
/// `at(item)` (ascending): `|v| v as f64` on a linear axis, `|v| (v as f64).log10()` on a
/// logarithmic one. What a hover cursor reads at a pointer's data x.
pub fn nearest<T: Copy>(values: &[T], x: f64, at: impl Fn(T) -> f64) -> usize {
    let k = values.partition_point(|&v| at(v) < x);
    match (k.checked_sub(1), values.get(k)) {
        (Some(b), Some(&a)) if x - at(values[b]) <= at(a) - x => b,
        (Some(b), None) => b,
        _ => k,
    }
}

/// Above this many dots a series draws them as squares.
const MANY_DOTS: usize = 200;

/// Where the plot went, to map pointer positions back to data.
#[derive(Clone, Debug, PartialEq)]
pub struct LinePlotLayout {
    /// Backend pixel columns of the plotting area.
    pub x: Range<i32>,
    /// Backend pixel rows of the plotting area.
    pub y: Range<i32>,
    /// Horizontal data range.
    pub x_range: Range<f64>,
    /// Vertical data range.
    pub y_range: Range<f64>,
}

impl LinePlotLayout {
    /// The data x under backend pixel column `px`, if inside the plotting area.
    pub fn data_x(&self, px: f64) -> Option<f64> {
        let w = f64::from(self.x.end - self.x.start);
        let f = (px - f64::from(self.x.start)) / w;
        (w > 0.0 && (0.0..=1.0).contains(&f))
            .then_some(self.x_range.start + f * (self.x_range.end - self.x_range.start))
    }

    /// The backend pixel of data point `(x, y)`.
    pub fn pixel(&self, x: f64, y: f64) -> (f64, f64) {
        let fx = (x - self.x_range.start) / (self.x_range.end - self.x_range.start);
        let fy = (y - self.y_range.start) / (self.y_range.end - self.y_range.start);
        (
            f64::from(self.x.start) + fx * f64::from(self.x.end - self.x.start),
            f64::from(self.y.end) - fy * f64::from(self.y.end - self.y.start),
        )
    }
}

/// Draws the plot: background, caption, axes with light grid, every series, the marker and the
/// legend (top right, framed).
pub fn draw<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    spec: &LinePlotSpec,
) -> Result<LinePlotLayout, DrawingAreaErrorKind<DB::ErrorType>> {
    draw_with(root, spec, &Extras::default())
}

/// [`draw`] with bands, reference lines and logarithmic axes.
pub fn draw_with<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    spec: &LinePlotSpec,
    extras: &Extras,
) -> Result<LinePlotLayout, DrawingAreaErrorKind<DB::ErrorType>> {
    let t = &spec.theme;
    root.fill(&t.background)?;
    let font = |size: f64| ("sans-serif", t.font(size)).into_font().color(&t.text);
    let x_range = spec.x_range.clone();
    let y_range = spec.y_range.clone();
    let mut chart = ChartBuilder::on(root)
        .caption(&spec.title, font(15.0))
        .margin(t.px(10.0))
        // Room for half of a tick label at the axis's right end (a log axis often has one there).
        .margin_right(t.px(22.0))
        .x_label_area_size(t.px(40.0))
        .y_label_area_size(t.px(y_label_area(&y_range, extras.y_log)))
        .build_cartesian_2d(x_range.clone(), y_range.clone())?;
    let grid = t.axis.mix(0.18);
    chart
        .configure_mesh()
        .disable_x_mesh()
        .light_line_style(TRANSPARENT)
        .bold_line_style(grid)
        .axis_style(t.axis)
        .label_style(font(12.0))
        .axis_desc_style(font(13.0))
        .x_desc(spec.x_desc)
        .y_desc(spec.y_desc)
        .x_labels(label_count(&x_range, extras.x_log, 8))
        .y_labels(label_count(&y_range, extras.y_log, 6))
        .x_label_formatter(if extras.x_log {
            &power_label
        } else {
            &tick_label
        })
        .y_label_formatter(if extras.y_log {
            &power_label
        } else {
            &tick_label
        })
        .draw()?;

    for f in &extras.fills {
        let outline: Vec<(f64, f64)> = f
            .lower
            .iter()
            .chain(f.upper.iter().rev())
            .copied()
            .collect();
        chart.draw_series(std::iter::once(Polygon::new(
            outline,
            f.color.mix(0.22).filled(),
        )))?;
    }
    for (y, label) in &extras.hlines {
        let style = ShapeStyle::from(t.axis.mix(0.8)).stroke_width(t.px(1.0));
        let (x0, x1) = (x_range.start, x_range.end);
        let dashes = plotters::element::DashedPathElement::new(
            vec![(x0, *y), (x1, *y)],
            t.px(5.0),
            t.px(4.0),
            style,
        );
        chart.draw_series(std::iter::once(dashes))?;
        // On the side away from the legend, so that the legend never hides a label.
        let left_legend = matches!(extras.legend, Corner::TopLeft | Corner::BottomLeft);
        let (at, nudge, pos) = if left_legend {
            let nudge = (-(t.px(4.0) as i32), -(t.px(14.0) as i32));
            (x1, nudge, Pos::new(HPos::Right, VPos::Top))
        } else {
            let nudge = (t.px(4.0) as i32, -(t.px(14.0) as i32));
            (x0, nudge, Pos::new(HPos::Left, VPos::Top))
        };
        chart.draw_series(std::iter::once(
            EmptyElement::at((at, *y)) + Text::new(label.clone(), nudge, font(11.0).pos(pos)),
        ))?;
    }

    let stroke = t.px(2.0);
    let area = chart.plotting_area().dim_in_pixel();
    for s in &spec.series {
        let style = ShapeStyle::from(s.color).stroke_width(stroke);
        let band = s
            .line
            .then(|| dense_band(&s.points, &x_range, &y_range, area, f64::from(stroke)))
            .flatten();
        if let Some(outline) = band {
            chart.draw_series(std::iter::once(Polygon::new(outline, s.color.filled())))?;
        } else {
            // Consecutive points on one pixel add nothing to the path, and a zero-length
            // segment makes plotters' bitmap backend mitre a join at NaN (a spike across the
            // PNG): keep only the first point of each pixel run.
            let mut last = None;
            let drawn: Vec<(f64, f64)> = if s.line {
                s.points
                    .iter()
                    .copied()
                    .filter(|p| {
                        let px = chart.backend_coord(p);
                        last.replace(px) != Some(px)
                    })
                    .collect()
            } else {
                Vec::new()
            };
            if std::any::type_name::<DB>().contains("BitMapBackend") {
                // plotters' bitmap backend mitres the inner side of a sharp turn without a
                // limit (a spike across the PNG where a line turns back within a few pixels):
                // there, each segment is stroked on its own, with no join to mitre.
                chart.draw_series(
                    drawn
                        .windows(2)
                        .map(|w| PathElement::new(vec![w[0], w[1]], style)),
                )?;
            } else {
                chart.draw_series(LineSeries::new(drawn, style))?;
            }
        }
        if s.dots && s.points.len() > MANY_DOTS {
            // Many dots as small squares: a canvas fills a rectangle far faster than an arc
            // (2000 circles cost a frame's worth of paint).
            let r = t.px(2.0) as i32;
            chart.draw_series(s.points.iter().map(|&p| {
                EmptyElement::at(p) + Rectangle::new([(-r, -r), (r, r)], s.color.filled())
            }))?;
        } else if s.dots {
            let r = t.px(3.0);
            chart.draw_series(
                s.points
                    .iter()
                    .map(|&p| Circle::new(p, r, s.color.filled())),
            )?;
        }
    }

    if let Some((x, _)) = &spec.marker {
        let style = ShapeStyle::from(t.highlight).stroke_width(t.px(1.5));
        chart.draw_series(std::iter::once(PathElement::new(
            vec![(*x, y_range.start), (*x, y_range.end)],
            style,
        )))?;
    }

    // Series without a label (a second line of the same quantity) stay out of the legend.
    let bands: Vec<Series> = extras
        .fills
        .iter()
        .filter(|f| !f.label.is_empty())
        .map(|f| Series {
            label: f.label.clone(),
            color: f.color,
            points: Vec::new(),
            dots: false,
            line: false,
        })
        .collect();
    let named: Vec<&Series> = spec
        .series
        .iter()
        .chain(&bands)
        .filter(|s| !s.label.is_empty())
        .collect();
    let plot = chart.plotting_area().strip_coord_spec();
    let legend = if named.is_empty() {
        None
    } else {
        Some(draw_legend(&plot, &named, t, extras.legend)?)
    };

    if let Some((x, label)) = &spec.marker {
        // A little right of the line and below the top, clear of the y axis's top label; in
        // the right quarter of the plot, left of the line (where the label would run off); at
        // the bottom of the line when the legend is in the way at the top.
        let area = chart.plotting_area();
        let line_x = area.map_coordinate(&(*x, y_range.end)).0 - area.get_base_pixel().0;
        let style = font(12.0).pos(Pos::new(HPos::Left, VPos::Top));
        let (w, h) = plot.estimate_text_size(label, &style)?;
        let (w, h) = (w as i32, h as i32);
        let (plot_w, plot_h) = plot.dim_in_pixel();
        let nudge = t.px(5.0) as i32;
        let x0 = if f64::from(line_x) > 0.75 * f64::from(plot_w) {
            line_x - nudge - w
        } else {
            line_x + nudge
        };
        let top = t.px(2.0) as i32;
        let bottom = plot_h as i32 - h - t.px(4.0) as i32;
        let hits = |y0: i32| {
            legend.is_some_and(|[(a, b), (c, d)]| x0 < c && x0 + w > a && y0 < d && y0 + h > b)
        };
        let y0 = if hits(top) && !hits(bottom) {
            bottom
        } else {
            top
        };
        plot.draw(&Text::new(label.clone(), (x0, y0), style))?;
    }

    let (x, y) = chart.plotting_area().get_pixel_range();
    Ok(LinePlotLayout {
        x,
        y,
        x_range,
        y_range,
    })
}

/// The legend, framed, in `corner` of `plot`: each series' colour as a short line and its label
/// beside it. Returns its frame (pixels of `plot`).
///
/// Drawn here rather than with plotters' series labels, which measure every label with a
/// `MultiLineText` through the font itself: in the browser, each such measurement appends a
/// `<span>` to the page and reads its size, forcing a layout (four labels: 1.6 ms measured). The
/// drawing area measures through the backend instead, which the app's canvas backend does with
/// `measureText`.
fn draw_legend<DB: DrawingBackend>(
    plot: &DrawingArea<DB, Shift>,
    series: &[&Series],
    t: &Theme,
    corner: Corner,
) -> Result<[(i32, i32); 2], DrawingAreaErrorKind<DB::ErrorType>> {
    let style = ("sans-serif", t.font(12.0))
        .into_font()
        .color(&t.text)
        .pos(Pos::new(HPos::Left, VPos::Center));
    let mut text_w = 0;
    let mut text_h = t.px(14.0);
    for s in series {
        let (w, h) = plot.estimate_text_size(&s.label, &style)?;
        text_w = text_w.max(w);
        text_h = text_h.max(h);
    }
    let px = |v: f64| t.px(v) as i32;
    let (pad, swatch, gap) = (px(8.0), px(18.0), px(6.0));
    let line_h = text_h as i32 + px(2.0);
    let w = pad + swatch + gap + text_w as i32 + pad;
    let h = 2 * pad + line_h * series.len() as i32;
    let (plot_w, plot_h) = plot.dim_in_pixel();
    let (plot_w, plot_h) = (plot_w as i32, plot_h as i32);
    let (left, top) = (px(10.0), px(10.0));
    let (right, bottom) = (plot_w - w - px(10.0), plot_h - h - px(10.0));
    let (x0, y0) = match corner {
        Corner::TopRight => (right, top),
        Corner::TopLeft => (left, top),
        Corner::BottomLeft => (left, bottom),
        Corner::BottomRight => (right, bottom),
    };
    let frame = [(x0, y0), (x0 + w, y0 + h)];
    plot.draw(&Rectangle::new(frame, t.background.mix(0.9).filled()))?;
    plot.draw(&Rectangle::new(frame, t.axis.mix(0.5)))?;
    for (k, s) in series.iter().enumerate() {
        let y = y0 + pad + line_h * k as i32 + line_h / 2;
        let x = x0 + pad;
        if s.line || s.dots {
            plot.draw(&PathElement::new(
                vec![(x, y), (x + swatch, y)],
                ShapeStyle::from(s.color).stroke_width(t.px(2.0)),
            ))?;
        } else {
            // A band: a translucent swatch.
            let half = px(5.0);
            plot.draw(&Rectangle::new(
                [(x, y - half), (x + swatch, y + half)],
                s.color.mix(0.35).filled(),
            ))?;
        }
        plot.draw(&Text::new(
            s.label.clone(),
            (x + swatch + gap, y),
            style.clone(),
        ))?;
    }
    Ok(frame)
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::*;

    #[test]
    fn the_nearest_item() {
        let d = [17usize, 18, 20, 40];
        let at = |v: usize| v as f64;
        assert_eq!(nearest(&d, 0.0, at), 0);
        assert_eq!(nearest(&d, 18.9, at), 1);
        assert_eq!(nearest(&d, 19.1, at), 2);
        assert_eq!(nearest(&d, 31.0, at), 3);
        assert_eq!(nearest(&d, 1e9, at), 3);
        // On a logarithmic axis, 2 is nearer 1 than 10 is (log₁₀ 2 ≈ 0.30).
        assert_eq!(
            nearest(&[1usize, 10], 2f64.log10(), |v| (v as f64).log10()),
            0
        );
    }
    use crate::chart::svg;

    fn spec() -> LinePlotSpec {
        LinePlotSpec {
            title: "waves".into(),
            x_desc: "position",
            y_desc: "PE value",
            x_range: 0.0..10.0,
            y_range: -1.0..1.0,
            series: vec![
                Series {
                    label: "dimension 0".into(),
                    color: series_color(0),
                    points: (0..=10).map(|k| (k as f64, (k as f64).sin())).collect(),
                    dots: false,
                    line: true,
                },
                Series {
                    label: "dimension 1".into(),
                    color: series_color(1),
                    points: (0..=10).map(|k| (k as f64, (k as f64).cos())).collect(),
                    dots: true,
                    line: true,
                },
            ],
            marker: Some((3.0, "pos 3".into())),
            theme: Theme::LIGHT,
        }
    }

    #[test]
    fn svg_has_title_axes_legend_and_marker() {
        let s = spec();
        let out = svg::render(640, 400, |root| {
            draw(root, &s).map(|_| ()).map_err(|e| e.to_string())
        })
        .unwrap();
        for text in [
            "waves",
            "position",
            "PE value",
            "dimension 0",
            "dimension 1",
            "pos 3",
        ] {
            assert!(out.contains(text), "missing {text}");
        }
        assert!(out.matches("<polyline").count() >= 2, "two series drawn");
    }

    #[test]
    fn layout_maps_pixels_and_data_both_ways() {
        let l = LinePlotLayout {
            x: 100..300,
            y: 20..220,
            x_range: 0.0..10.0,
            y_range: -1.0..1.0,
        };
        assert_eq!(l.data_x(100.0), Some(0.0));
        assert_eq!(l.data_x(200.0), Some(5.0));
        assert_eq!(l.data_x(99.0), None);
        assert_eq!(l.pixel(5.0, 0.0), (200.0, 120.0));
        assert_eq!(l.pixel(10.0, 1.0), (300.0, 20.0));
    }

    #[test]
    fn extras_draw_bands_reference_lines_and_log_ticks() {
        let s = spec();
        let extras = Extras {
            fills: vec![Fill {
                label: "unseen".into(),
                color: series_color(2),
                lower: vec![(0.0, -0.5), (10.0, -0.5)],
                upper: vec![(0.0, 0.5), (10.0, 0.5)],
            }],
            hlines: vec![(0.25, "L₀ = 4096".into())],
            x_log: true,
            y_log: false,
            legend: Corner::BottomLeft,
        };
        let out = svg::render(640, 400, |root| {
            draw_with(root, &s, &extras)
                .map(|_| ())
                .map_err(|e| e.to_string())
        })
        .unwrap();
        for text in ["unseen", "L₀ = 4096", "10k"] {
            assert!(out.contains(text), "missing {text}");
        }
        assert!(out.contains("<polygon"), "the band");
    }

    #[test]
    fn a_log_axis_is_labelled_at_powers_of_ten() {
        // Keys from ½ to 300 (as the layers strip of a short context): 1, 10, 100, not 3.16.
        let s = LinePlotSpec {
            y_range: -0.3..2.5,
            ..spec()
        };
        let extras = Extras {
            y_log: true,
            ..Extras::default()
        };
        let out = svg::render(640, 400, |root| {
            draw_with(root, &s, &extras)
                .map(|_| ())
                .map_err(|e| e.to_string())
        })
        .unwrap();
        let labels: Vec<&str> = out
            .split("</text>")
            .filter_map(|t| t.rsplit('>').next())
            .map(str::trim)
            .collect();
        for power in ["1", "10", "100"] {
            assert!(labels.contains(&power), "no {power} in {labels:?}");
        }
        for between in ["3.16", "31.6", "316"] {
            assert!(!labels.contains(&between), "{between} in {labels:?}");
        }
    }
}
