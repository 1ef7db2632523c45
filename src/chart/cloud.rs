//! A 3D point cloud seen from a chosen direction (orthographic): the token cloud. Three axes
//! through the origin, the points joined in position order, each point coloured by its position
//! (a legend bar shows the scale), nearer points drawn over farther ones.

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::colormap::{Lut, Scale};
use super::theme::Theme;

/// What the cloud shows.
#[derive(Clone, Debug)]
pub struct CloudSpec<'a> {
    /// Caption.
    pub title: String,
    /// The points, in position order.
    pub points: &'a [[f64; 3]],
    /// Names of the three axes.
    pub axes: [&'static str; 3],
    /// How many points are shown (the first ones; play makes them appear).
    pub shown: usize,
    /// Turn about the vertical axis, radians.
    pub yaw: f64,
    /// Tilt towards the viewer, radians.
    pub pitch: f64,
    /// A point to pick out (hovered), with its label.
    pub selected: Option<(usize, String)>,
    /// What the points' order counts ("position", "token"), named on the legend.
    pub order: &'static str,
    /// Each point's angle in radians: when given, a point is coloured by its angle on a colour
    /// wheel (0 … 2π), not by its place in the order, and the points are not joined.
    pub angles: Option<&'a [f64]>,
    /// The points' coordinates are all ≥ 0: the axes run from the origin along the positive
    /// directions only, and the view turns about the middle of the cloud's box.
    pub positive: bool,
    /// Page colours and scale.
    pub theme: Theme,
}

/// Where the shown points went on screen, for hover.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct CloudLayout {
    /// Backend pixel of each shown point, in position order.
    pub screen: Vec<(i32, i32)>,
}

impl CloudLayout {
    /// The shown point nearest to backend pixel `(x, y)`, if within `radius` pixels.
    pub fn nearest(&self, x: f64, y: f64, radius: f64) -> Option<usize> {
        self.screen
            .iter()
            .enumerate()
            .map(|(k, &(px, py))| (k, (f64::from(px) - x).hypot(f64::from(py) - y)))
            .filter(|(_, d)| *d <= radius)
            .min_by(|a, b| a.1.total_cmp(&b.1))
            .map(|(k, _)| k)
    }
}

/// `p` turned by `yaw` about the vertical axis and `pitch` about the horizontal one:
/// (screen x, screen y up, depth towards the viewer).
pub fn view(p: [f64; 3], yaw: f64, pitch: f64) -> [f64; 3] {
    let (sy, cy) = yaw.sin_cos();
    let (sp, cp) = pitch.sin_cos();
    let x = p[0] * cy + p[2] * sy;
    let z = -p[0] * sy + p[2] * cy;
    let y = p[1] * cp - z * sp;
    let depth = p[1] * sp + z * cp;
    [x, y, depth]
}

/// The colour at share `f` (0 … 1) of a full turn: a hue wheel, red at 0 and again at 1.
pub fn wheel(f: f64) -> RGBColor {
    // HSL with saturation 0.7 and lightness 0.5.
    let h = f.rem_euclid(1.0) * 6.0;
    let (c, l) = (0.7, 0.5);
    let x = c * (1.0 - (h % 2.0 - 1.0).abs());
    let (r, g, b) = match h as u8 {
        0 => (c, x, 0.0),
        1 => (x, c, 0.0),
        2 => (0.0, c, x),
        3 => (0.0, x, c),
        4 => (x, 0.0, c),
        _ => (c, 0.0, x),
    };
    let m = l - c / 2.0;
    let byte = |v: f64| ((v + m) * 255.0).round().clamp(0.0, 255.0) as u8;
    RGBColor(byte(r), byte(g), byte(b))
}

/// Draws the cloud.
pub fn draw<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    spec: &CloudSpec,
) -> Result<CloudLayout, DrawingAreaErrorKind<DB::ErrorType>> {
    let t = &spec.theme;
    let top = f64::from(super::theme::begin_titled(root, &spec.title, t)?);
    let font = |size: f64| ("sans-serif", t.font(size)).into_font().color(&t.text);
    let (w, h) = root.dim_in_pixel();
    let legend_h = f64::from(t.px(34.0));
    let (cx, cy) = (
        f64::from(w) / 2.0,
        top + (f64::from(h) - top - legend_h) / 2.0,
    );
    // The view turns about `center`; `extent` is how far the drawing reaches from it; each axis
    // runs from `ends.0` to `ends.1` along its component.
    let (center, extent, ends) = if spec.positive {
        let top = spec.points.iter().fold([0.0f64; 3], |m, p| {
            [m[0].max(p[0]), m[1].max(p[1]), m[2].max(p[2])]
        });
        let center = top.map(|v| v / 2.0);
        // From the origin to a little past the largest coordinate (at least 1).
        let axis = top.iter().fold(1.0, |m: f64, v| m.max(*v)) * 1.15 + 0.8;
        // Any turn keeps the box, and the axes' ends, within this distance of the middle.
        let reach = (0..3)
            .map(|k| {
                (0..3)
                    .map(|i| {
                        let end = if i == k { axis } else { 0.0 };
                        (end - center[i]).powi(2)
                    })
                    .sum::<f64>()
                    .sqrt()
            })
            .fold(0.0, f64::max);
        (center, reach.max(1e-9), (0.0, axis))
    } else {
        let extent = spec
            .points
            .iter()
            .map(|p| p.iter().map(|v| v.abs()).fold(0.0, f64::max))
            .fold(1e-9, f64::max);
        ([0.0; 3], extent, (-extent * 1.1, extent * 1.1))
    };
    let scale = (f64::from(w).min(f64::from(h) - top - legend_h) * 0.42) / extent;
    let to_screen = |p: [f64; 3]| {
        let v = view(
            [p[0] - center[0], p[1] - center[1], p[2] - center[2]],
            spec.yaw,
            spec.pitch,
        );
        (
            (
                (cx + v[0] * scale).round() as i32,
                (cy - v[1] * scale).round() as i32,
            ),
            v[2],
        )
    };
    // The axes: a line through the origin along each component (from the origin, for positive
    // points), named at its positive end over the points.
    let mut names = Vec::with_capacity(3);
    for (k, name) in spec.axes.iter().enumerate() {
        let (mut start, mut end) = ([0.0; 3], [0.0; 3]);
        (start[k], end[k]) = ends;
        let (a, _) = to_screen(start);
        let (b, _) = to_screen(end);
        root.draw(&PathElement::new(
            vec![a, b],
            ShapeStyle::from(t.axis.mix(0.55)).stroke_width(t.px(1.0)),
        ))?;
        names.push((name, b));
    }
    let shown = spec.shown.min(spec.points.len());
    let placed: Vec<((i32, i32), f64)> =
        spec.points[..shown].iter().map(|&p| to_screen(p)).collect();
    let lut = Lut::for_scale(Scale::Sequential, t.diverging);
    // A point's colour from its share `f` (0 … 1) of the order's scale, or of a full turn.
    let scale = |f: f64| {
        if spec.angles.is_some() {
            wheel(f)
        } else {
            let [r, g, b, _] = lut.color(0.15 + 0.85 * f, 0.0, 1.0);
            RGBColor(r, g, b)
        }
    };
    let tau = std::f64::consts::TAU;
    let color = |k: usize| match spec.angles {
        Some(a) => scale(a.get(k).map_or(0.0, |x| x.rem_euclid(tau) / tau)),
        None if spec.points.len() > 1 => scale(k as f64 / (spec.points.len() - 1) as f64),
        None => scale(0.0),
    };
    if placed.len() > 1 && spec.angles.is_none() {
        root.draw(&PathElement::new(
            placed.iter().map(|(s, _)| *s).collect::<Vec<_>>(),
            ShapeStyle::from(t.axis.mix(0.3)).stroke_width(t.px(1.0)),
        ))?;
    }
    let mut order: Vec<usize> = (0..placed.len()).collect();
    order.sort_by(|&a, &b| placed[a].1.total_cmp(&placed[b].1));
    let r = t.px(4.0) as i32;
    for k in order {
        let (s, _) = placed[k];
        root.draw(&Circle::new(s, r, color(k).filled()))?;
        root.draw(&Circle::new(
            s,
            r,
            ShapeStyle::from(t.background.mix(0.8)).stroke_width(1),
        ))?;
    }
    for (name, at) in names {
        // On a veil of the background, readable over the points (about 7 CSS px a character).
        let (half, tall) = (
            (name.chars().count() as f64 * 3.5 * t.scale).ceil() as i32 + t.px(2.0) as i32,
            t.px(15.0) as i32,
        );
        root.draw(&Rectangle::new(
            [(at.0 - half, at.1 - tall), (at.0 + half, at.1)],
            t.background.mix(0.8).filled(),
        ))?;
        root.draw(&Text::new(
            name.to_string(),
            at,
            font(12.0)
                .color(&t.axis)
                .pos(Pos::new(HPos::Center, VPos::Bottom)),
        ))?;
    }
    if let Some((k, label)) = &spec.selected
        && let Some(&(s, _)) = placed.get(*k)
    {
        root.draw(&Circle::new(
            s,
            r + t.px(3.0) as i32,
            ShapeStyle::from(t.highlight).stroke_width(t.px(2.0)),
        ))?;
        // Right of the point, or left of it where the label would run off the edge (about
        // 7 CSS px a character at 12 px).
        let room = f64::from(w) - f64::from(s.0 + r + t.px(6.0) as i32);
        let (x, anchor) = if room >= label.chars().count() as f64 * 7.0 * t.scale {
            (s.0 + r + t.px(6.0) as i32, HPos::Left)
        } else {
            (s.0 - r - t.px(6.0) as i32, HPos::Right)
        };
        root.draw(&Text::new(
            label.clone(),
            (x, s.1),
            font(12.0).pos(Pos::new(anchor, VPos::Center)),
        ))?;
    }
    // The legend: the order's colour scale, or the angle's wheel.
    let n = spec.points.len();
    let (lx, ly) = (
        f64::from(t.px(60.0)),
        f64::from(h) - legend_h + f64::from(t.px(8.0)),
    );
    let lw = (f64::from(w) * 0.4).min(f64::from(t.px(260.0)));
    let steps = 64;
    for s in 0..steps {
        let x0 = lx + lw * f64::from(s) / f64::from(steps);
        let x1 = lx + lw * f64::from(s + 1) / f64::from(steps);
        let f = (f64::from(s) + 0.5) / f64::from(steps);
        let fill = if spec.angles.is_some() {
            scale(f)
        } else {
            color((f * n.saturating_sub(1) as f64).round() as usize)
        };
        root.draw(&Rectangle::new(
            [
                (x0 as i32, ly as i32),
                (x1.ceil() as i32, (ly + f64::from(t.px(10.0))) as i32),
            ],
            fill.filled(),
        ))?;
    }
    let mid = (ly + f64::from(t.px(5.0))) as i32;
    let (first, last) = match spec.angles {
        Some(_) => ("angle 0".to_string(), "2π".to_string()),
        None => (
            format!("{} 0", spec.order),
            format!("{}", n.saturating_sub(1)),
        ),
    };
    root.draw(&Text::new(
        first,
        ((lx - f64::from(t.px(6.0))) as i32, mid),
        font(11.0).pos(Pos::new(HPos::Right, VPos::Center)),
    ))?;
    root.draw(&Text::new(
        last,
        ((lx + lw + f64::from(t.px(6.0))) as i32, mid),
        font(11.0).pos(Pos::new(HPos::Left, VPos::Center)),
    ))?;
    Ok(CloudLayout {
        screen: placed.into_iter().map(|(s, _)| s).collect(),
    })
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::*;

    #[test]
    fn the_view_turns_without_stretching() {
        let p = [0.3, -1.2, 2.0];
        for (yaw, pitch) in [(0.0, 0.0), (0.7, -0.4), (3.0, 1.5)] {
            let v = view(p, yaw, pitch);
            let (a, b) = (
                p.iter().map(|x| x * x).sum::<f64>(),
                v.iter().map(|x| x * x).sum::<f64>(),
            );
            assert!((a - b).abs() < 1e-12);
        }
        assert_eq!(view(p, 0.0, 0.0), [0.3, -1.2, 2.0]);
    }

    #[test]
    fn svg_has_title_axes_legend_and_a_point_each() {
        let points: Vec<[f64; 3]> = (0..10).map(|k| [k as f64, (k as f64).sin(), 0.5]).collect();
        let spec = CloudSpec {
            title: "cloud".into(),
            points: &points,
            axes: ["PC1", "PC2", "PC3"],
            shown: 7,
            yaw: 0.5,
            pitch: 0.3,
            selected: Some((2, "dog at 2".into())),
            order: "position",
            positive: false,
            angles: None,
            theme: Theme::LIGHT,
        };
        let mut layout = None;
        let svg = crate::chart::svg::render(640, 480, |root| {
            layout = Some(draw(root, &spec).map_err(|e| e.to_string())?);
            Ok(())
        })
        .unwrap();
        for text in ["cloud", "PC1", "PC3", "position 0", "dog at 2"] {
            assert!(svg.contains(text), "missing {text}");
        }
        let layout = layout.unwrap();
        assert_eq!(layout.screen.len(), 7);
        let (x, y) = layout.screen[3];
        assert_eq!(
            layout.nearest(f64::from(x) + 1.0, f64::from(y), 5.0),
            Some(3)
        );
        assert_eq!(layout.nearest(-100.0, -100.0, 5.0), None);
    }
}
