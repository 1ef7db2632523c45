//! fig-tab-shaw (Shaw's clipped relative distances) and fig-tab-t5 (T5's buckets): matrices
//! that depend on `j − i` only, kept as their `2n − 1` diagonals.

use super::super::{Height, MatrixPanel, Panel};
use super::lines;
use crate::chart::colorbar::ColorBar;
use crate::chart::colormap::Scale;
use crate::chart::heatmap::HeatmapSpec;
use crate::chart::lines::{Extras, LinePlotSpec, Series, series_color};
use crate::chart::theme::Theme;
use crate::math::relative::{shaw_clip, t5_bucket};
use crate::params::Views;

/// The `2n − 1` diagonals of an `n × n` matrix whose entry `(i, j)` is `of_distance(j − i)`, in
/// the order [`MatrixPanel::value`] reads them (`(i, j)` ↦ `out[i + n − 1 − j]`), written into
/// `out` (allocation reused).
fn diagonals_into(n: usize, of_distance: impl Fn(i64) -> f64, out: &mut Vec<f64>) {
    out.clear();
    out.extend((0..(2 * n).saturating_sub(1)).map(|q| of_distance(n as i64 - 1 - q as i64)));
}

/// A Toeplitz matrix panel from its diagonals.
fn toeplitz(spec: HeatmapSpec, diagonals: Vec<f64>, n: usize) -> Panel {
    Panel::Matrix(MatrixPanel {
        spec,
        values: diagonals,
        stride: n,
        toeplitz: true,
        outlines: Vec::new(),
        cell: None,
    })
}

// ------------------------------------------------------------------ fig-tab-shaw

/// The matrix's height.
pub fn shaw_height(width: f64) -> f64 {
    (width * 0.75).clamp(260.0, 520.0)
}

/// The diagonals of Shaw's `n × n` matrix of clipped distances `clip(j − i, −k, k)`.
pub fn shaw_diagonals_into(n: usize, k: usize, out: &mut Vec<f64>) {
    diagonals_into(n, |r| shaw_clip(r, k) as f64, out);
}

/// The clipped-distance matrix's frame for `n` positions and clipping distance `k`.
pub fn shaw_spec(n: usize, k: usize, theme: Theme) -> HeatmapSpec {
    HeatmapSpec {
        title: "Clipped relative position clip(j − i, −k, k)".into(),
        x_desc: "key j",
        y_desc: "query i",
        cols: 0..n,
        rows: 0..n,
        colorbar: ColorBar {
            lo: -(k as f64),
            hi: k as f64,
            label: "clipped j − i",
            scale: Scale::Diverging,
        },
        col_names: None,
        row_names: None,
        theme,
    }
}

/// fig-tab-shaw: the matrix of clipped distances.
pub fn shaw(v: &Views, theme: Theme) -> Vec<(Panel, Height)> {
    let (n, k) = (v.tables.shaw_len, v.tables.shaw_k);
    let mut diagonals = Vec::new();
    shaw_diagonals_into(n, k, &mut diagonals);
    vec![(
        toeplitz(shaw_spec(n, k, theme), diagonals, n),
        Height::Rule(shaw_height),
    )]
}

// ------------------------------------------------------------------ fig-tab-t5

/// The bucket matrix's height.
pub fn t5_matrix_height(width: f64) -> f64 {
    (width * 0.75).clamp(260.0, 520.0)
}

/// The bucket curve's height.
pub fn t5_curve_height(width: f64) -> f64 {
    (width * 0.4).clamp(220.0, 320.0)
}

/// T5's settings: `num_buckets`, `max_distance`, bidirectional.
pub type Buckets = (usize, usize, bool);

/// How far the curve reaches on each side of a matrix of `len ≥ 1` positions: past
/// `max_distance` and the matrix.
pub fn t5_reach(len: usize, max_distance: usize) -> usize {
    len.saturating_sub(1)
        .max(max_distance + max_distance / 2)
        .max(8)
}

/// The diagonals of T5's `n × n` bucket matrix: entry `(i, j)` is the bucket of `j − i`.
pub fn t5_diagonals_into(n: usize, (nb, md, bi): Buckets, out: &mut Vec<f64>) {
    diagonals_into(n, |r| t5_bucket(r, bi, nb, md) as f64, out);
}

/// The bucket matrix's frame for `n` positions and `nb ≥ 1` buckets.
pub fn t5_matrix_spec(n: usize, nb: usize, theme: Theme) -> HeatmapSpec {
    HeatmapSpec {
        title: "Bucket of each query–key pair".into(),
        x_desc: "key j",
        y_desc: "query i",
        cols: 0..n,
        rows: 0..n,
        colorbar: ColorBar {
            lo: 0.0,
            hi: nb.saturating_sub(1) as f64,
            label: "bucket",
            scale: Scale::Sequential,
        },
        col_names: None,
        row_names: None,
        theme,
    }
}

/// The bucket against the relative position over `−reach … reach` ([`t5_reach`] for `n`
/// positions), relative position `at` marked.
pub fn t5_curve_spec(n: usize, b: Buckets, at: Option<i64>, theme: Theme) -> LinePlotSpec {
    let (nb, md, bi) = b;
    let r = t5_reach(n, md) as i64;
    let points: Vec<(f64, f64)> = (-r..=r)
        .map(|x| (x as f64, t5_bucket(x, bi, nb, md) as f64))
        .collect();
    LinePlotSpec {
        title: "Bucket against the relative position j − i".into(),
        x_desc: "relative position j − i",
        y_desc: "bucket",
        x_range: -(r as f64)..r as f64,
        y_range: -0.5..nb as f64 - 0.5,
        series: vec![Series {
            // One line, named by the title and the controls: no legend over it.
            label: String::new(),
            color: series_color(0),
            points,
            dots: false,
            line: true,
        }],
        marker: at.map(|x| (x as f64, format!("j − i = {x}"))),
        theme,
    }
}

/// fig-tab-t5: the bucket matrix, then the curve.
pub fn t5(v: &Views, theme: Theme) -> Vec<(Panel, Height)> {
    let t = &v.tables;
    let n = t.t5_len;
    let b = (t.buckets, t.t5_max_distance(), t.bidirectional);
    let mut diagonals = Vec::new();
    t5_diagonals_into(n, b, &mut diagonals);
    let curve = t5_curve_spec(n, b, None, theme);
    vec![
        (
            toeplitz(t5_matrix_spec(n, t.buckets, theme), diagonals, n),
            Height::Rule(t5_matrix_height),
        ),
        lines((curve, Extras::default()), Height::Rule(t5_curve_height)),
    ]
}
