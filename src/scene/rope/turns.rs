//! The figures of the pairs' turns: one wheel per pair and `R_m` (fig-rope-wheels), the efficient
//! form (fig-rope-efficient), q before and after (fig-rope-dims) and the two layouts
//! (fig-rope-layouts).

use std::f64::consts::TAU;

use super::super::{Height, MatrixPanel, Panel};
use super::{indexed, lines};
use crate::chart::clock::{Clock, ClockSpec};
use crate::chart::colorbar::ColorBar;
use crate::chart::colormap::Scale;
use crate::chart::heatmap::HeatmapSpec;
use crate::chart::lines::{LinePlotSpec, Series, series_color};
use crate::chart::pairs::PairsSpec;
use crate::chart::theme::Theme;
use crate::math::rope::{self, Layout};
use crate::params::Views;

// ------------------------------------------------------------------ fig-rope-wheels

/// Wheels per row for a canvas `width` CSS pixels wide (cells of about 84 px).
pub fn columns(width: f64) -> usize {
    ((width / 84.0).floor() as usize).clamp(1, 16)
}

/// The wheel count a canvas is sized for: pair counts share one height within buckets whose
/// edges sit between the usual head sizes (… 6 | 12 | 24 | 48 | 96 | …), each sized for 0.7 of
/// its top count (68 wheels for 49 … 96 pairs). Moving head_dim or rotary_dim within a bucket then keeps the
/// canvas — and the page below it — where it is, and the wheels grow or shrink to fill it
/// ([`crate::chart::clock::grid`]); only crossing an edge changes the height.
pub fn wheels_sized_for(pairs: usize) -> usize {
    let mut top = 3;
    while top < pairs {
        top *= 2;
    }
    (top * 7).div_ceil(10)
}

/// Height of the wheels canvas for `pairs` wheels: rows of about 84 px cells for
/// [`wheels_sized_for`]`(pairs)` wheels.
pub fn wheels_height(width: f64, pairs: usize) -> f64 {
    let cols = columns(width);
    let rows = wheels_sized_for(pairs).div_ceil(cols).max(1);
    rows as f64 * (width / cols as f64).max(84.0) + 34.0
}

/// The matrix's height.
pub fn rotation_height(width: f64) -> f64 {
    (width * 0.62).clamp(280.0, 460.0)
}

/// A short angle: degrees within the current turn.
pub fn degrees(angle: f64) -> String {
    format!("{:.0}°", angle.rem_euclid(TAU).to_degrees())
}

/// One wheel per turning pair at position `m` (frequencies `inv_freq`), wheel `selected`
/// emphasised.
pub fn wheels_spec(m: usize, inv_freq: &[f64], selected: Option<usize>, t: Theme) -> ClockSpec {
    ClockSpec {
        title: format!("Position m = {m}: pair i has turned by m·θ_i"),
        clocks: inv_freq
            .iter()
            .enumerate()
            .map(|(i, theta)| {
                let angle = m as f64 * theta;
                Clock {
                    angle,
                    label: format!("pair {i}"),
                    sublabel: degrees(angle),
                }
            })
            .collect(),
        selected,
        counter_clockwise: true,
        theme: t,
    }
}

/// One row of `R_m`: its diagonal value and its one off-diagonal (column, value); `usize::MAX`
/// for a row with none (a coordinate that does not turn).
pub type RotationRow = (f64, usize, f64);

/// `R_m` over the `rotary_dim` turning coordinates (frequencies `inv_freq`, `rotary_dim / 2` of
/// them), the identity over the rest of `d`, one [`RotationRow`] per row, written into `rows`
/// (allocation reused): no `d × d` matrix is built.
pub fn rotation_rows(
    m: usize,
    inv_freq: &[f64],
    layout: Layout,
    rotary_dim: usize,
    d: usize,
    rows: &mut Vec<RotationRow>,
) {
    rows.clear();
    rows.resize(d, (1.0, usize::MAX, 0.0));
    for (i, &theta) in inv_freq.iter().enumerate() {
        // As `rope::rotation_matrix`: rows a and b hold pair i's 2×2 block.
        let (sn, cs) = (m as f64 * theta).sin_cos();
        let (a, b) = rope::pair(layout, rotary_dim, i);
        rows[a] = (cs, b, -sn);
        rows[b] = (cs, a, sn);
    }
}

/// Entry `(row, col)` of the matrix `rows` describe.
pub fn rotation_entry(rows: &[RotationRow], row: usize, col: usize) -> f64 {
    let (diagonal, other, value) = rows[row];
    if col == row {
        diagonal
    } else if col == other {
        value
    } else {
        0.0
    }
}

/// The frame of the `d × d` matrix `R_m` at position `m` under `layout`.
pub fn rotation_spec(m: usize, d: usize, layout: Layout, t: Theme) -> HeatmapSpec {
    HeatmapSpec {
        title: format!("R_m at m = {m} ({} layout)", layout.as_str()),
        x_desc: "input coordinate",
        y_desc: "output coordinate",
        cols: 0..d,
        rows: 0..d,
        colorbar: ColorBar {
            lo: -1.0,
            hi: 1.0,
            label: "entry",
            scale: Scale::Diverging,
        },
        col_names: None,
        row_names: None,
        theme: t,
    }
}

/// fig-rope-wheels: the wheels at the current position (none selected), then `R_m`.
pub fn wheels(v: &Views, theme: Theme) -> Vec<(Panel, Height)> {
    let r = &v.rope;
    let (m, d, rotary) = (r.current_pos(), r.dim, r.rotary());
    let inv_freq = r.rotary_inv_freq();
    let mut rows = Vec::new();
    rotation_rows(m, &inv_freq, r.layout, rotary, d, &mut rows);
    let values = (0..d * d)
        .map(|k| rotation_entry(&rows, k / d, k % d))
        .collect();
    let matrix = MatrixPanel {
        spec: rotation_spec(m, d, r.layout, theme),
        values,
        stride: d,
        toeplitz: false,
        outlines: Vec::new(),
        cell: None,
    };
    vec![
        (
            Panel::Clocks(wheels_spec(m, &inv_freq, None, theme)),
            Height::Counted(wheels_height, inv_freq.len()),
        ),
        (Panel::Matrix(matrix), Height::Rule(rotation_height)),
    ]
}

// ------------------------------------------------------------------ fig-rope-efficient

/// The plot's height.
pub fn efficient_height(width: f64) -> f64 {
    (width * 0.4).clamp(240.0, 340.0)
}

/// `R_m·x` by the matrix and by the efficient form, and their largest difference. Only the first
/// `2·inv_freq.len()` coordinates turn; the rest are passed through (as Hugging Face concatenates
/// the unrotated part back for partial rotation).
pub fn both_ways(x: &[f64], m: f64, inv_freq: &[f64], layout: Layout) -> (Vec<f64>, Vec<f64>, f64) {
    let r = (2 * inv_freq.len()).min(x.len());
    let (head, tail) = x.split_at(r);
    // R_m one row at a time (the same entries and sums as the whole matrix): the full d × d
    // matrix would be a 128 KB block per position at head_dim 128, twice (both layouts).
    let mut row = vec![0.0; 2 * inv_freq.len()];
    let mut by_matrix: Vec<f64> = (0..r)
        .map(|a| {
            rope::rotation_matrix_row(m, inv_freq, layout, a, &mut row);
            rope::dot(&row, head)
        })
        .collect();
    by_matrix.extend_from_slice(tail);
    let mut efficient = rope::apply_efficient(head, m, inv_freq, layout);
    efficient.extend_from_slice(tail);
    let diff = by_matrix
        .iter()
        .zip(&efficient)
        .map(|(a, b)| (a - b).abs())
        .fold(0.0, f64::max);
    (by_matrix, efficient, diff)
}

/// q turned to position `m` computed with the matrix (dots) and element-wise (line).
pub fn efficient_spec(
    m: usize,
    layout: Layout,
    by_matrix: &[f64],
    efficient: &[f64],
    t: Theme,
) -> LinePlotSpec {
    let d = by_matrix.len();
    let top = by_matrix
        .iter()
        .chain(efficient)
        .fold(1e-9_f64, |a, v| a.max(v.abs()));
    LinePlotSpec {
        title: format!("q turned to m = {m}, computed two ways"),
        x_desc: "coordinate",
        y_desc: "value",
        x_range: 0.0..(d.max(2) - 1) as f64,
        y_range: (-top * 1.1)..(top * 1.1),
        series: vec![
            Series {
                label: "R_m · q (matrix)".into(),
                color: series_color(0),
                points: indexed(by_matrix),
                dots: true,
                line: false,
            },
            Series {
                label: format!("q⊙cos + {}(q)⊙sin", crate::math::rope::shuffle_name(layout)),
                color: series_color(1),
                points: indexed(efficient),
                dots: false,
                line: true,
            },
        ],
        marker: None,
        theme: t,
    }
}

/// fig-rope-efficient: the q·k figure's q turned to the current position, both ways.
pub fn efficient(v: &Views, theme: Theme) -> Vec<(Panel, Height)> {
    let r = &v.rope;
    let m = r.current_pos();
    let (q, _) = r.qk_vectors();
    let (by_matrix, efficient, _) = both_ways(&q, m as f64, &r.rotary_inv_freq(), r.layout);
    let spec = efficient_spec(m, r.layout, &by_matrix, &efficient, theme);
    vec![lines(spec, Height::Rule(efficient_height))]
}

// ------------------------------------------------------------------ fig-rope-dims

/// The plot's height.
pub fn dims_height(width: f64) -> f64 {
    (width * 0.42).clamp(250.0, 360.0)
}

/// The positions drawn: 0, the current m and the last row, without repeats.
pub fn dims_positions(m: usize, n: usize) -> Vec<usize> {
    let mut out = vec![0, m, n.saturating_sub(1)];
    out.dedup();
    out.sort_unstable();
    out.dedup();
    out
}

/// `q` turned (the first `rotary_dim` coordinates, under `layout`, with `base`) to position 0,
/// `m` and `n − 1`, over the coordinates; `rotary_dim` marked when not every coordinate turns.
pub fn dims_spec(
    q: &[f64],
    (m, n): (usize, usize),
    (base, rotary_dim, layout): (f64, usize, Layout),
    t: Theme,
) -> LinePlotSpec {
    let (d, r) = (q.len(), rotary_dim);
    let series: Vec<Series> = dims_positions(m, n)
        .into_iter()
        .enumerate()
        .map(|(k, p)| Series {
            label: if p == 0 {
                "position 0 (q itself)".into()
            } else {
                format!("position {p}")
            },
            color: series_color(k),
            points: indexed(&rope::rotate_partial(q, p as f64, base, r, layout)),
            dots: d <= 32,
            line: true,
        })
        .collect();
    let top = series
        .iter()
        .flat_map(|s| s.points.iter().map(|p| p.1.abs()))
        .fold(1e-9_f64, f64::max);
    LinePlotSpec {
        title: "q at up to three positions".into(),
        x_desc: "coordinate",
        y_desc: "value",
        x_range: 0.0..(d.max(2) - 1) as f64,
        y_range: (-top * 1.1)..(top * 1.1),
        series,
        marker: (r < d).then(|| (r as f64 - 0.5, format!("rotary_dim = {r}"))),
        theme: t,
    }
}

/// fig-rope-dims: the q·k figure's q at 0, the current position and the last one.
pub fn dims(v: &Views, theme: Theme) -> Vec<(Panel, Height)> {
    let r = &v.rope;
    let (q, _) = r.qk_vectors();
    let at = (r.current_pos(), r.positions);
    let spec = dims_spec(&q, at, (r.base, r.rotary(), r.layout), theme);
    vec![lines(spec, Height::Rule(dims_height))]
}

// ------------------------------------------------------------------ fig-rope-layouts

/// The pairings' height.
pub fn layouts_height(width: f64) -> f64 {
    (width * 0.34).clamp(220.0, 300.0)
}

/// Which coordinates of a `d`-wide head pair up, interleaved and half-split, the first
/// `rotary_dim` turning.
pub fn layouts_spec(d: usize, rotary_dim: usize, t: Theme) -> PairsSpec {
    let r = rotary_dim;
    let title = if r < d {
        format!("{d}-wide head: the first {r} turn")
    } else {
        format!("Pairs of a {d}-wide head")
    };
    PairsSpec {
        title,
        dim: d,
        rotary_dim: r,
        layouts: vec![
            (Layout::Interleaved, "interleaved"),
            (Layout::Half, "half-split"),
        ],
        theme: t,
    }
}

/// fig-rope-layouts: the pairings. (The scores under both layouts are a table.)
pub fn layouts(v: &Views, theme: Theme) -> Vec<(Panel, Height)> {
    let r = &v.rope;
    let spec = layouts_spec(r.dim, r.rotary(), theme);
    vec![(Panel::Pairs(spec), Height::Rule(layouts_height))]
}
