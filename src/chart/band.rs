//! Lines denser than the pixels they are drawn on, as bands (see [`dense_band`]).

use std::ops::Range;

/// A line with more points than the plot has pixel columns, drawn as the eye sees it: in each
/// column, the band from the lowest to the highest point of the line there (a column also takes
/// in the segment from the previous column's last point, so the band is joined), widened by half
/// the stroke (`stroke_px`) above and below and kept inside `y`. Returned as a polygon outline in
/// data coordinates (the upper edge left to right, the lower edge back); `None` when the line has
/// no more points than `size.0` columns or a point is not finite: such a line is drawn as a path.
///
/// Why: stroking a path that zigzags a thousand times across the plot (column 0 of a 1024-position
/// table, which turns one radian per position) cost Chromium's software canvas ~30 ms per redraw,
/// most of a frame at the bench's largest sizes (issue 25); filling this outline costs a few
/// thousand edges. Where a line has a point per column or fewer, nothing changes.
pub fn dense_band(
    points: &[(f64, f64)],
    x: &Range<f64>,
    y: &Range<f64>,
    size: (u32, u32),
    stroke_px: f64,
) -> Option<Vec<(f64, f64)>> {
    let (cols, rows) = (size.0 as usize, f64::from(size.1));
    let (span, height) = (x.end - x.start, y.end - y.start);
    if cols == 0
        || points.len() <= cols
        || rows <= 0.0
        || span.partial_cmp(&0.0) != Some(std::cmp::Ordering::Greater)
    {
        return None;
    }
    let column = |px: f64| {
        ((px - x.start) / span * cols as f64)
            .floor()
            .clamp(0.0, (cols - 1) as f64) as usize
    };
    let (mut lo, mut hi) = (vec![f64::INFINITY; cols], vec![f64::NEG_INFINITY; cols]);
    let mut last: Option<(usize, f64)> = None;
    for &(px, py) in points {
        if !(px.is_finite() && py.is_finite()) {
            return None;
        }
        let c = column(px);
        // The segment from the previous point covers every column between the two.
        let (from, to, low, high) = match last {
            Some((pc, pv)) => (pc.min(c), pc.max(c), pv.min(py), pv.max(py)),
            None => (c, c, py, py),
        };
        for k in from..=to {
            lo[k] = lo[k].min(low);
            hi[k] = hi[k].max(high);
        }
        last = Some((c, py));
    }
    // Points cover the columns from the first point's to the last one's, with no gap between.
    let first = lo.iter().position(|v| v.is_finite())?;
    let end = lo.iter().rposition(|v| v.is_finite())?;
    let half = stroke_px / 2.0 * height / rows;
    let (bottom, top) = (y.start.min(y.end), y.start.max(y.end));
    let at = |k: usize| x.start + (k as f64 + 0.5) / cols as f64 * span;
    let upper = (first..=end).map(|k| (at(k), (hi[k] + half).clamp(bottom, top)));
    let lower = (first..=end)
        .rev()
        .map(|k| (at(k), (lo[k] - half).clamp(bottom, top)));
    Some(upper.chain(lower).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Where `outline`'s upper and lower edges stand at column `k` of `cols` (its `k`-th and
    /// `len − 1 − k`-th vertices, counted from the first column it covers).
    fn edges(outline: &[(f64, f64)], k: usize) -> (f64, f64) {
        (outline[k].1, outline[outline.len() - 1 - k].1)
    }

    #[test]
    fn sparse_lines_stay_paths() {
        let line: Vec<(f64, f64)> = (0..100).map(|i| (i as f64, (i as f64).sin())).collect();
        assert!(dense_band(&line, &(0.0..99.0), &(-1.2..1.2), (100, 300), 2.0).is_none());
        assert!(dense_band(&line, &(0.0..99.0), &(-1.2..1.2), (684, 300), 2.0).is_none());
    }

    #[test]
    fn a_dense_line_is_covered_by_its_band_in_every_column() {
        // Column 0 of a 1024-position table: sin(p), one radian a position, on 300 columns.
        let n = 1024;
        let line: Vec<(f64, f64)> = (0..n).map(|i| (i as f64, (i as f64).sin())).collect();
        let (x, y, cols) = (0.0..(n - 1) as f64, -1.15..1.15, 300u32);
        let band = dense_band(&line, &x, &y, (cols, 200), 2.0).expect("dense");
        assert_eq!(band.len(), 2 * cols as usize);
        let half = 1.0 * (y.end - y.start) / 200.0;
        for (i, &(px, py)) in line.iter().enumerate() {
            let k = (((px - x.start) / (x.end - x.start) * f64::from(cols)).floor() as usize)
                .min(cols as usize - 1);
            let (upper, lower) = edges(&band, k);
            assert!(
                lower <= py - half + 1e-12 && py + half <= upper + 1e-12,
                "point {i} ({px}, {py}) outside column {k}: [{lower}, {upper}]"
            );
        }
        // Every vertex inside the plot's y range.
        assert!(band.iter().all(|&(_, v)| (-1.15..=1.15).contains(&v)));
    }

    #[test]
    fn a_smooth_dense_line_is_a_thin_band() {
        // A slow wave, 2048 points on 500 columns: each column's band is the line ± half a stroke
        // (plus the small rise within the column), never a block.
        let n = 2048;
        let line: Vec<(f64, f64)> = (0..n)
            .map(|i| (i as f64, (i as f64 / 400.0).sin()))
            .collect();
        let (x, y) = (0.0..(n - 1) as f64, -1.1..1.1);
        let band = dense_band(&line, &x, &y, (500, 400), 2.0).expect("dense");
        let half = 1.0 * 2.2 / 400.0;
        for k in 0..500 {
            let (upper, lower) = edges(&band, k);
            assert!(
                upper - lower <= 2.0 * half + 0.02,
                "column {k}: {lower}..{upper}"
            );
            assert!(upper - lower >= 2.0 * half - 1e-12);
        }
    }

    #[test]
    fn bad_points_fall_back_to_a_path_and_gaps_are_joined() {
        let mut line: Vec<(f64, f64)> = (0..1000).map(|i| (i as f64, 0.0)).collect();
        line[500].1 = f64::NAN;
        assert!(dense_band(&line, &(0.0..999.0), &(-1.0..1.0), (100, 100), 2.0).is_none());
        // Points only at both ends of the x range: the segment that joins them fills the columns
        // between, so the band is whole.
        let ends: Vec<(f64, f64)> = (0..200)
            .map(|i| (if i < 100 { 0.0 } else { 999.0 }, 0.0))
            .collect();
        assert!(dense_band(&ends, &(0.0..999.0), &(-1.0..1.0), (100, 100), 2.0).is_some());
        // An empty or inverted x range, no columns or rows: a path.
        assert!(dense_band(&line, &(1.0..1.0), &(-1.0..1.0), (100, 100), 2.0).is_none());
        assert!(dense_band(&line, &(0.0..999.0), &(-1.0..1.0), (0, 100), 2.0).is_none());
        assert!(dense_band(&line, &(0.0..999.0), &(-1.0..1.0), (100, 0), 2.0).is_none());
    }

    #[cfg(not(target_arch = "wasm32"))]
    #[test]
    fn a_line_plot_fills_the_dense_line_and_strokes_the_sparse_one() {
        use crate::chart::lines::{LinePlotSpec, Series, draw};
        use crate::chart::theme::Theme;
        use plotters::style::RGBColor;
        let wave = |n: usize, color: RGBColor| Series {
            label: String::new(),
            color,
            points: (0..n)
                .map(|i| (i as f64 * 999.0 / (n - 1) as f64, (i as f64).sin()))
                .collect(),
            dots: false,
            line: true,
        };
        let spec = LinePlotSpec {
            title: "t".into(),
            x_desc: "x",
            y_desc: "y",
            x_range: 0.0..999.0,
            y_range: -1.2..1.2,
            series: vec![wave(1000, RGBColor(1, 2, 3)), wave(50, RGBColor(4, 5, 6))],
            marker: None,
            theme: Theme::LIGHT,
        };
        let svg = crate::chart::svg::render(400, 300, |root| {
            draw(root, &spec).map(|_| ()).map_err(|e| e.to_string())
        })
        .unwrap();
        let shapes = |color: &str| {
            svg.lines()
                .filter(|l| l.contains(color))
                .map(|l| {
                    l.trim_start()
                        .split([' ', '>'])
                        .next()
                        .unwrap_or("")
                        .to_string()
                })
                .collect::<Vec<_>>()
        };
        assert_eq!(
            shapes("#010203"),
            ["<polygon"],
            "the dense line is one filled outline"
        );
        assert_eq!(
            shapes("#040506"),
            ["<polyline"],
            "the sparse line is a path"
        );
    }
}
