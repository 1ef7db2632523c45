//! A vertical colour bar: the colour map as a gradient beside a labelled value axis.

use plotters::coord::Shift;
use plotters::prelude::*;

use super::colormap::{Lut, Scale};
use super::theme::Theme;

/// What a colour bar shows.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ColorBar {
    /// Value at the bottom of the bar.
    pub lo: f64,
    /// Value at the top of the bar.
    pub hi: f64,
    /// Label beside the bar (e.g. "PE value").
    pub label: &'static str,
    /// Diverging or sequential colours.
    pub scale: Scale,
}

/// Number of bands the gradient is drawn with (a colour bar is small: bands are not cells).
const BANDS: usize = 64;

/// Draws the bar into `area`: a gradient of [`BANDS`] bands of the bar's scale (in the theme's
/// light or dark variant) with ticks and the label on the right.
pub fn draw<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    bar: &ColorBar,
    theme: &Theme,
) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
    let lut = Lut::for_scale(bar.scale, theme.diverging);
    let font = |size: f64| {
        ("sans-serif", theme.font(size))
            .into_font()
            .color(&theme.text)
    };
    let mut chart = ChartBuilder::on(area)
        .margin_top(theme.px(36.0))
        .margin_bottom(theme.px(48.0))
        .margin_left(theme.px(6.0))
        .set_label_area_size(LabelAreaPosition::Right, theme.px(44.0))
        .build_cartesian_2d(0.0..1.0, bar.lo..bar.hi)?;
    chart
        .configure_mesh()
        .disable_mesh()
        .disable_x_axis()
        .axis_style(theme.axis)
        .label_style(font(11.0))
        .axis_desc_style(font(12.0))
        .y_labels(5)
        .y_desc(bar.label)
        .draw()?;
    let step = (bar.hi - bar.lo) / BANDS as f64;
    chart.draw_series((0..BANDS).map(|k| {
        let v0 = bar.lo + step * k as f64;
        let c = lut.color(v0 + step / 2.0, bar.lo, bar.hi);
        Rectangle::new(
            [(0.0, v0), (1.0, v0 + step)],
            RGBColor(c[0], c[1], c[2]).filled(),
        )
    }))?;
    Ok(())
}
