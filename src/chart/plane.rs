//! A square 2D plane with arrows from the origin: RoPE's rotating vectors. Axes with ticks, a
//! light grid, the circle the arrows' tips move on, angle arcs, a trail of earlier tips, and
//! labelled arrows. Returns the mapping between pixels and the plane for dragging and hover.

use std::f64::consts::TAU;
use std::ops::Range;

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::theme::Theme;

/// One arrow from the origin.
#[derive(Clone, Debug)]
pub struct Arrow {
    /// The tip, in plane coordinates.
    pub tip: [f64; 2],
    /// Colour.
    pub color: RGBColor,
    /// Label drawn beyond the tip (may be empty).
    pub label: String,
    /// Drawn faint (context) rather than bold.
    pub faint: bool,
}

/// An angle marked by an arc around the origin, from direction `from` to `to` (radians,
/// counter-clockwise), with a label at its middle.
#[derive(Clone, Debug)]
pub struct AngleArc {
    /// Start direction.
    pub from: f64,
    /// End direction.
    pub to: f64,
    /// Radius in plane units.
    pub radius: f64,
    /// Colour.
    pub color: RGBColor,
    /// Label.
    pub label: String,
}

/// What the plane shows.
#[derive(Clone, Debug)]
pub struct PlaneSpec {
    /// Caption.
    pub title: String,
    /// Both axes span `−extent … extent`.
    pub extent: f64,
    /// A circle around the origin (the path of the tips), if any.
    pub circle: Option<f64>,
    /// Earlier tips, oldest first, drawn as dots that fade with age.
    pub trail: Vec<[f64; 2]>,
    /// Colour of the trail.
    pub trail_color: RGBColor,
    /// Arcs marking angles.
    pub arcs: Vec<AngleArc>,
    /// The arrows, drawn in order (last on top).
    pub arrows: Vec<Arrow>,
    /// Page colours and scale.
    pub theme: Theme,
}

/// Where the plane went: its pixel square and extent, to map pointer positions to coordinates.
#[derive(Clone, Debug, PartialEq)]
pub struct PlaneLayout {
    /// Backend pixel columns of the plot square.
    pub x: Range<i32>,
    /// Backend pixel rows of the plot square.
    pub y: Range<i32>,
    /// Both axes span `−extent … extent`.
    pub extent: f64,
}

impl PlaneLayout {
    /// The plane point under backend pixel `(px, py)` (outside the square too).
    pub fn point(&self, px: f64, py: f64) -> [f64; 2] {
        let (w, h) = (
            f64::from((self.x.end - self.x.start).max(1)),
            f64::from((self.y.end - self.y.start).max(1)),
        );
        let fx = (px - f64::from(self.x.start)) / w;
        let fy = (py - f64::from(self.y.start)) / h;
        [
            -self.extent + 2.0 * self.extent * fx,
            self.extent - 2.0 * self.extent * fy,
        ]
    }

    /// The backend pixel of plane point `p`.
    pub fn pixel(&self, p: [f64; 2]) -> (i32, i32) {
        let (w, h) = (
            f64::from(self.x.end - self.x.start),
            f64::from(self.y.end - self.y.start),
        );
        let fx = (p[0] + self.extent) / (2.0 * self.extent);
        let fy = (self.extent - p[1]) / (2.0 * self.extent);
        (
            (f64::from(self.x.start) + fx * w).round() as i32,
            (f64::from(self.y.start) + fy * h).round() as i32,
        )
    }
}

/// Tick label: integers plain, halves with one decimal.
fn tick(v: &f64) -> String {
    if (v - v.round()).abs() < 1e-9 {
        format!("{}", v.round() as i64)
    } else {
        format!("{v:.1}")
    }
}

/// Draws the plane.
pub fn draw<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    spec: &PlaneSpec,
) -> Result<PlaneLayout, DrawingAreaErrorKind<DB::ErrorType>> {
    let t = &spec.theme;
    let top = super::theme::begin_titled(root, &spec.title, t)?;
    let font = |size: f64| ("sans-serif", t.font(size)).into_font().color(&t.text);
    let body = root.margin(top, 0, 0, 0);
    let e = spec.extent.max(1e-9);
    let (label_w, label_h) = (t.px(44.0), t.px(36.0));
    let build = |area: &DrawingArea<DB, Shift>| {
        ChartBuilder::on(area)
            .margin(t.px(6.0))
            .x_label_area_size(label_h)
            .y_label_area_size(label_w)
            .build_cartesian_2d(-e..e, -e..e)
    };
    // A square plot, so that a unit is as long across as it is up and circles stay round: build
    // once to measure, then trim the longer side.
    let (pw, ph) = {
        let probe = build(&body)?;
        let (x, y) = probe.plotting_area().get_pixel_range();
        (
            (x.end - x.start).max(0) as u32,
            (y.end - y.start).max(0) as u32,
        )
    };
    let (side_margin, bottom_margin) = if pw > ph {
        ((pw - ph) / 2, 0)
    } else {
        (0, ph - pw)
    };
    let area = body.margin(0, bottom_margin, side_margin, side_margin);
    let mut chart = build(&area)?;
    chart
        .configure_mesh()
        .light_line_style(TRANSPARENT)
        .bold_line_style(t.axis.mix(0.15))
        .axis_style(t.axis)
        .label_style(font(12.0))
        .axis_desc_style(font(13.0))
        .x_desc("x (first coordinate of the pair)")
        .y_desc("y")
        .x_labels(5)
        .y_labels(5)
        .x_label_formatter(&tick)
        .y_label_formatter(&tick)
        .draw()?;
    let (px, py) = chart.plotting_area().get_pixel_range();
    let layout = PlaneLayout {
        x: px,
        y: py,
        extent: e,
    };
    let plot = root;
    let at = |p: [f64; 2]| layout.pixel(p);
    let origin = at([0.0, 0.0]);
    let axis = ShapeStyle::from(t.axis.mix(0.5)).stroke_width(t.px(1.0));
    plot.draw(&PathElement::new(vec![at([-e, 0.0]), at([e, 0.0])], axis))?;
    plot.draw(&PathElement::new(vec![at([0.0, -e]), at([0.0, e])], axis))?;
    if let Some(r) = spec.circle.filter(|r| *r > 0.0) {
        let points: Vec<(i32, i32)> = (0..=96)
            .map(|k| {
                let a = TAU * f64::from(k) / 96.0;
                at([r * a.cos(), r * a.sin()])
            })
            .collect();
        plot.draw(&PathElement::new(
            points,
            ShapeStyle::from(t.axis.mix(0.45)).stroke_width(t.px(1.0)),
        ))?;
    }
    let count = spec.trail.len();
    for (k, p) in spec.trail.iter().enumerate() {
        let age = (count - k) as f64 / count.max(1) as f64;
        let alpha = 0.2 + 0.6 * (1.0 - age);
        plot.draw(&Circle::new(
            at(*p),
            t.px(3.5) as i32,
            spec.trail_color.mix(alpha).filled(),
        ))?;
    }
    for arc in &spec.arcs {
        let steps = (((arc.to - arc.from).abs() / TAU) * 96.0).ceil().max(2.0) as usize;
        let points: Vec<(i32, i32)> = (0..=steps)
            .map(|s| {
                let a = arc.from + (arc.to - arc.from) * s as f64 / steps as f64;
                at([arc.radius * a.cos(), arc.radius * a.sin()])
            })
            .collect();
        plot.draw(&PathElement::new(
            points,
            ShapeStyle::from(arc.color).stroke_width(t.px(2.0)),
        ))?;
        let mid = (arc.from + arc.to) / 2.0;
        let r = arc.radius + e * 0.09;
        plot.draw(&Text::new(
            arc.label.clone(),
            at([r * mid.cos(), r * mid.sin()]),
            font(12.0)
                .color(&arc.color)
                .pos(Pos::new(HPos::Center, VPos::Center)),
        ))?;
    }
    for arrow in &spec.arrows {
        let end = at(arrow.tip);
        let (width, alpha) = if arrow.faint { (1.5, 0.45) } else { (3.0, 1.0) };
        let style = ShapeStyle::from(arrow.color.mix(alpha)).stroke_width(t.px(width));
        plot.draw(&PathElement::new(vec![origin, end], style))?;
        // The head: two strokes back from the tip, 25° either side of the shaft.
        let (dx, dy) = (f64::from(end.0 - origin.0), f64::from(end.1 - origin.1));
        let len = dx.hypot(dy);
        if len > 2.0 {
            let head = f64::from(t.px(10.0)).min(len * 0.5);
            let back = dy.atan2(dx) + std::f64::consts::PI;
            for side in [-0.44, 0.44] {
                let a = back + side;
                let p = (
                    end.0 + (head * a.cos()).round() as i32,
                    end.1 + (head * a.sin()).round() as i32,
                );
                plot.draw(&PathElement::new(vec![end, p], style))?;
            }
        }
        if !arrow.label.is_empty() {
            let dir = arrow.tip[1].atan2(arrow.tip[0]);
            let off = f64::from(t.px(14.0));
            let pos = (
                end.0 + (off * dir.cos()).round() as i32,
                end.1 - (off * dir.sin()).round() as i32,
            );
            plot.draw(&Text::new(
                arrow.label.clone(),
                pos,
                font(12.0)
                    .color(&arrow.color)
                    .pos(Pos::new(HPos::Center, VPos::Center)),
            ))?;
        }
    }
    plot.draw(&Circle::new(origin, t.px(2.5) as i32, t.text.filled()))?;
    Ok(layout)
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::*;

    #[test]
    fn pixels_and_points_map_both_ways() {
        let l = PlaneLayout {
            x: 100..300,
            y: 0..200,
            extent: 2.0,
        };
        assert_eq!(l.pixel([0.0, 0.0]), (200, 100));
        assert_eq!(l.pixel([2.0, 2.0]), (300, 0));
        assert_eq!(l.point(200.0, 100.0), [0.0, 0.0]);
        assert_eq!(l.point(100.0, 200.0), [-2.0, -2.0]);
    }

    #[test]
    fn svg_has_title_axes_labels_and_a_square_plot() {
        let spec = PlaneSpec {
            title: "a vector at position 3".into(),
            extent: 1.5,
            circle: Some(1.0),
            trail: vec![[1.0, 0.0], [0.0, 1.0]],
            trail_color: RGBColor(0, 0, 255),
            arcs: vec![AngleArc {
                from: 0.0,
                to: 1.0,
                radius: 0.4,
                color: RGBColor(200, 0, 0),
                label: "3θ".into(),
            }],
            arrows: vec![Arrow {
                tip: [0.0, -1.0],
                color: RGBColor(0, 0, 0),
                label: "m = 3".into(),
                faint: false,
            }],
            theme: Theme::LIGHT,
        };
        let mut layout = None;
        let svg = crate::chart::svg::render(720, 400, |root| {
            layout = Some(draw(root, &spec).map_err(|e| e.to_string())?);
            Ok(())
        })
        .unwrap();
        for text in [
            "a vector at position 3",
            "3θ",
            "m = 3",
            "x (first coordinate",
        ] {
            assert!(svg.contains(text), "missing {text}");
        }
        let l = layout.unwrap();
        let (w, h) = (l.x.end - l.x.start, l.y.end - l.y.start);
        assert!((w - h).abs() <= 2, "square: {w}×{h}");
    }
}
