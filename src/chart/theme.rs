//! Page themes as the charts see them: colours for background, text and lines, and a pixel scale.

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::colormap::Diverging;

/// Colours and sizes a chart needs from the page.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Theme {
    /// Fill behind the chart.
    pub background: RGBColor,
    /// Titles, tick labels and axis descriptions.
    pub text: RGBColor,
    /// Axis lines and tick marks.
    pub axis: RGBColor,
    /// Outlines that pick something out (the current position's row, a hovered cell).
    pub highlight: RGBColor,
    /// Which diverging colour map suits this background.
    pub diverging: Diverging,
    /// Device pixels per CSS pixel: sizes below are multiplied by it.
    pub scale: f64,
}

impl Theme {
    /// For light pages.
    pub const LIGHT: Theme = Theme {
        background: RGBColor(0xff, 0xff, 0xff),
        text: RGBColor(0x1f, 0x23, 0x28),
        axis: RGBColor(0x6a, 0x73, 0x7d),
        highlight: RGBColor(0x11, 0x11, 0x11),
        diverging: Diverging::Light,
        scale: 1.0,
    };

    /// For dark pages.
    pub const DARK: Theme = Theme {
        background: RGBColor(0x16, 0x1b, 0x22),
        text: RGBColor(0xe6, 0xed, 0xf3),
        axis: RGBColor(0x8b, 0x94, 0x9e),
        highlight: RGBColor(0xff, 0xe0, 0x66),
        diverging: Diverging::Dark,
        scale: 1.0,
    };

    /// The same theme at another device-pixel ratio.
    pub fn scaled(self, scale: f64) -> Theme {
        Theme {
            scale: if scale.is_finite() {
                scale.clamp(0.5, 4.0)
            } else {
                1.0
            },
            ..self
        }
    }

    /// A length in device pixels.
    pub fn px(&self, css_px: f64) -> u32 {
        (css_px * self.scale).round().max(1.0) as u32
    }

    /// A font size in device pixels.
    pub fn font(&self, css_px: f64) -> f64 {
        css_px * self.scale
    }
}
/// Fills `root` with the page background and draws `title` centred at its top, as the charts
/// that lay themselves out (clocks, plane, pairs, cloud) all begin; returns the height the title
/// takes, in device pixels.
pub fn begin_titled<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    title: &str,
    t: &Theme,
) -> Result<u32, DrawingAreaErrorKind<DB::ErrorType>> {
    root.fill(&t.background)?;
    draw_title(root, title, t)
}

/// Draws `title` centred at the top of `root` (as [`begin_titled`], without the background);
/// returns [`title_height`].
pub fn draw_title<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    title: &str,
    t: &Theme,
) -> Result<u32, DrawingAreaErrorKind<DB::ErrorType>> {
    root.draw(&Text::new(
        title.to_string(),
        (root.dim_in_pixel().0 as i32 / 2, t.px(8.0) as i32),
        ("sans-serif", t.font(15.0))
            .into_font()
            .color(&t.text)
            .pos(Pos::new(HPos::Center, VPos::Top)),
    ))?;
    Ok(title_height(t))
}

/// The height a chart's title takes ([`begin_titled`]), in device pixels.
pub fn title_height(t: &Theme) -> u32 {
    t.px(30.0)
}
