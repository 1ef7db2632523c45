//! Which coordinates RoPE turns together: one row of coordinate cells per layout, with an arc
//! joining the two coordinates of every pair, coloured from the fastest pair to the slowest.
//! Coordinates that do not turn (partial rotation) are drawn hatched grey.

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::colormap::{Lut, Scale};
use super::theme::Theme;
use crate::math::rope::{Layout, pair};

/// What the pairing picture shows.
#[derive(Clone, Debug)]
pub struct PairsSpec {
    /// Caption.
    pub title: String,
    /// head_dim.
    pub dim: usize,
    /// Coordinates that turn (even, ≤ dim).
    pub rotary_dim: usize,
    /// The rows, top to bottom, with their names.
    pub layouts: Vec<(Layout, &'static str)>,
    /// Page colours and scale.
    pub theme: Theme,
}

/// A step between labelled coordinate indices that keeps labels about 36 px apart.
fn label_step(cell: f64, scale: f64) -> usize {
    let want = 36.0 * scale;
    [1, 2, 4, 8, 16, 32, 64, 128]
        .into_iter()
        .find(|&s| s as f64 * cell >= want)
        .unwrap_or(256)
}

/// Draws the rows.
pub fn draw<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    spec: &PairsSpec,
) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
    let t = &spec.theme;
    let title_h = super::theme::begin_titled(root, &spec.title, t)?;
    let font = |size: f64| ("sans-serif", t.font(size)).into_font().color(&t.text);
    let (w, h) = root.dim_in_pixel();
    let d = spec.dim.max(2);
    let r = spec.rotary_dim.clamp(2, d);
    let left = f64::from(t.px(110.0));
    let right = f64::from(t.px(12.0));
    let cell = (f64::from(w) - left - right) / d as f64;
    let top = f64::from(title_h + t.px(4.0));
    let rows = spec.layouts.len().max(1);
    let row_h = (f64::from(h) - top) / rows as f64;
    let lut = Lut::for_scale(Scale::Sequential, t.diverging);
    let step = label_step(cell, t.scale);
    for (k, (layout, name)) in spec.layouts.iter().enumerate() {
        let y0 = top + row_h * k as f64;
        let cell_top = y0 + row_h * 0.62;
        let cell_bottom = cell_top + (row_h * 0.16).max(6.0);
        root.draw(&Text::new(
            name.to_string(),
            (t.px(6.0) as i32, ((cell_top + cell_bottom) / 2.0) as i32),
            font(13.0).pos(Pos::new(HPos::Left, VPos::Center)),
        ))?;
        for c in 0..d {
            let x0 = left + cell * c as f64;
            let rect = [
                (x0.round() as i32, cell_top as i32),
                ((x0 + cell).round() as i32 - 1, cell_bottom as i32),
            ];
            let turns = c < r;
            let fill = if turns {
                t.axis.mix(0.25)
            } else {
                t.axis.mix(0.08)
            };
            root.draw(&Rectangle::new(rect, fill.filled()))?;
            if !turns && cell >= 6.0 {
                root.draw(&PathElement::new(
                    vec![(rect[0].0, rect[1].1), (rect[1].0, rect[0].1)],
                    ShapeStyle::from(t.axis.mix(0.5)).stroke_width(1),
                ))?;
            }
            if c % step == 0 || c + 1 == d {
                root.draw(&Text::new(
                    c.to_string(),
                    (
                        ((x0 + cell / 2.0).round()) as i32,
                        cell_bottom as i32 + t.px(3.0) as i32,
                    ),
                    font(11.0).pos(Pos::new(HPos::Center, VPos::Top)),
                ))?;
            }
        }
        // Arcs above the cells: half-ellipses from one coordinate of a pair to the other.
        let pairs = r / 2;
        let max_arc = row_h * 0.5;
        for i in 0..pairs {
            let (a, b) = pair(*layout, r, i);
            let (xa, xb) = (
                left + cell * (a as f64 + 0.5),
                left + cell * (b as f64 + 0.5),
            );
            let span = (xb - xa).abs();
            let height = (span * 0.5).clamp(3.0, max_arc);
            let shade = 40 + (200 * i / pairs.max(1)) as u8;
            let [cr, cg, cb, _] = lut.entry(255 - shade);
            let color = RGBColor(cr, cg, cb);
            let points: Vec<(i32, i32)> = (0..=24)
                .map(|s| {
                    let f = f64::from(s) / 24.0;
                    let angle = std::f64::consts::PI * f;
                    (
                        (xa + (xb - xa) * f).round() as i32,
                        (cell_top - 2.0 - height * angle.sin()).round() as i32,
                    )
                })
                .collect();
            root.draw(&PathElement::new(
                points,
                ShapeStyle::from(color).stroke_width(t.px(1.5)),
            ))?;
        }
    }
    Ok(())
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::*;

    #[test]
    fn svg_has_both_rows_an_arc_per_pair_and_labels() {
        let spec = PairsSpec {
            title: "pairs".into(),
            dim: 8,
            rotary_dim: 8,
            layouts: vec![
                (Layout::Interleaved, "interleaved"),
                (Layout::Half, "half-split"),
            ],
            theme: Theme::LIGHT,
        };
        let svg = crate::chart::svg::render(800, 300, |root| {
            draw(root, &spec).map_err(|e| e.to_string())
        })
        .unwrap();
        for text in ["pairs", "interleaved", "half-split"] {
            assert!(svg.contains(text), "missing {text}");
        }
        // The title, two row names and every coordinate's index in both rows.
        assert_eq!(svg.matches("<text").count(), 3 + 2 * 8, "{svg}");
        // Two rows × four pairs of arcs.
        assert_eq!(svg.matches("<polyline").count(), 8, "{svg}");
    }

    #[test]
    fn labels_thin_out_when_cells_are_narrow() {
        assert_eq!(label_step(40.0, 1.0), 1);
        assert_eq!(label_step(3.0, 1.0), 16);
    }
}
