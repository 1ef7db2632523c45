//! q·k over positions (fig-rope-scores): the `n × n` score matrix, constant along its diagonals,
//! and the same numbers over the distance under RoFormer's decay bound.

use super::super::{Height, MatrixPanel, Panel};
use super::lines;
use crate::chart::colorbar::ColorBar;
use crate::chart::colormap::Scale;
use crate::chart::heatmap::HeatmapSpec;
use crate::chart::lines::{LinePlotSpec, Series, series_color};
use crate::chart::theme::Theme;
use crate::math::rope::Layout;
use crate::math::rope_scores::{QueryKey, decay_bound, score_by_distance};
use crate::params::Views;

/// The matrix's height.
pub fn scores_matrix_height(width: f64) -> f64 {
    (width * 0.75).clamp(300.0, 600.0)
}

/// The curve's height.
pub fn scores_curve_height(width: f64) -> f64 {
    (width * 0.4).clamp(240.0, 340.0)
}

/// The scores' `2n − 1` diagonals (entry `m − k + n − 1` for row m, column k) and RoFormer's
/// bound at distances `0 … n − 1`, for `q`, `k` turned (the first `rotary_dim` coordinates)
/// with `base` under `layout`.
pub fn score_tables(
    (q, k): (&[f64], &[f64]),
    (base, rotary_dim, layout): (f64, usize, Layout),
    n: usize,
) -> (Vec<f64>, Vec<f64>) {
    let qk = QueryKey {
        q,
        k,
        base,
        rotary_dim,
        layout,
    };
    (score_by_distance(qk, n), decay_bound(qk, n))
}

/// The colour scale's half-width: the largest |score| (at least 1e-12).
pub fn score_scale(g: &[f64]) -> f64 {
    g.iter().fold(1e-12_f64, |a, v| a.max(v.abs()))
}

/// The frame of the `n × n` score matrix on the scale `±scale`.
pub fn scores_matrix_spec(n: usize, scale: f64, t: Theme) -> HeatmapSpec {
    HeatmapSpec {
        title: "q rotated to m · k rotated to n".into(),
        x_desc: "key position n",
        y_desc: "query position m",
        cols: 0..n,
        rows: 0..n,
        colorbar: ColorBar {
            lo: -scale,
            hi: scale,
            label: "q'_m · k'_n",
            scale: Scale::Diverging,
        },
        col_names: None,
        row_names: None,
        theme: t,
    }
}

/// The score over the distance `0 … n − 1` (from the diagonals `g`), and the bound's shape scaled
/// to meet |score| at distance 0 (the bound is loose: RoFormer plots it relative to its value at
/// 0), on the scale `±scale`.
pub fn scores_curve_spec(g: &[f64], bound: &[f64], n: usize, scale: f64, t: Theme) -> LinePlotSpec {
    let shrink = g[n - 1].abs().max(1e-12) / bound.first().copied().unwrap_or(1.0).max(1e-12);
    let top = scale;
    let points = |f: &dyn Fn(usize) -> f64| (0..n).map(|r| (r as f64, f(r))).collect::<Vec<_>>();
    LinePlotSpec {
        title: "Score and RoFormer's bound vs m − n".into(),
        x_desc: "distance m − n",
        y_desc: "q'_m · k'_n",
        x_range: 0.0..(n - 1).max(1) as f64,
        y_range: (-top * 1.05)..(top * 1.05),
        series: vec![
            Series {
                label: "score".into(),
                color: series_color(0),
                points: points(&|r| g[n - 1 + r]),
                dots: false,
                line: true,
            },
            Series {
                label: "± bound (shape)".into(),
                color: series_color(4),
                points: points(&|r| bound[r] * shrink),
                dots: false,
                line: true,
            },
            Series {
                label: "".into(),
                color: series_color(4),
                points: points(&|r| -bound[r] * shrink),
                dots: false,
                line: true,
            },
        ],
        marker: None,
        theme: t,
    }
}

/// fig-rope-scores: the matrix with the current position's row outlined, then the curve.
pub fn scores(v: &Views, theme: Theme) -> Vec<(Panel, Height)> {
    let r = &v.rope;
    let n = r.positions.max(1);
    let (q, k) = r.qk_vectors();
    let (g, bound) = score_tables((&q, &k), (r.base, r.rotary(), r.layout), n);
    let scale = score_scale(&g);
    let curve = scores_curve_spec(&g, &bound, n, scale, theme);
    let matrix = MatrixPanel {
        spec: scores_matrix_spec(n, scale, theme),
        values: g,
        stride: n,
        toeplitz: true,
        outlines: vec![r.current_pos()],
        cell: None,
    };
    vec![
        (Panel::Matrix(matrix), Height::Rule(scores_matrix_height)),
        lines(curve, Height::Rule(scores_curve_height)),
    ]
}
