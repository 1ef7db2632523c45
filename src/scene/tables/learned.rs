//! fig-tab-learned (a learned table ends, the sinusoidal one goes on) and fig-tab-learned-sim
//! (no structure before training).

use super::super::{Height, MatrixPanel, Panel};
use super::SIGMA;
use crate::chart::colorbar::ColorBar;
use crate::chart::colormap::Scale;
use crate::chart::heatmap::HeatmapSpec;
use crate::chart::theme::Theme;
use crate::math::sinusoidal::{Column, Layout, SinusoidalParams, Spacing};
use crate::math::{learned, similarity};
use crate::params::Views;

/// The sinusoidal table of the same size (the paper's interleaved layout, base 10000).
pub fn sinusoidal(positions: usize, dim: usize) -> SinusoidalParams {
    SinusoidalParams {
        positions,
        dim,
        base: 10_000.0,
        layout: Layout::Interleaved,
        spacing: Spacing::Paper,
    }
}

/// A dense matrix panel (no outlined rows).
fn dense(spec: HeatmapSpec, values: Vec<f64>, stride: usize) -> Panel {
    Panel::Matrix(MatrixPanel {
        spec,
        values,
        stride,
        toeplitz: false,
        outlines: Vec::new(),
        cell: None,
    })
}

// ------------------------------------------------------------------ fig-tab-learned

/// The height of each of the two tables.
pub fn learned_height(width: f64) -> f64 {
    (width * 0.9).clamp(260.0, 520.0)
}

/// The two tables' frames for `n` positions by `d` columns: the learned table, then the
/// sinusoidal one.
pub fn learned_specs(n: usize, d: usize, theme: Theme) -> [HeatmapSpec; 2] {
    let spec = HeatmapSpec {
        title: "Learned table (seeded, untrained)".into(),
        x_desc: "column j",
        y_desc: "position",
        cols: 0..d,
        rows: 0..n,
        colorbar: ColorBar {
            lo: -3.0 * SIGMA,
            hi: 3.0 * SIGMA,
            label: "value (σ = 0.02)",
            scale: Scale::Diverging,
        },
        col_names: None,
        row_names: None,
        theme,
    };
    let sinusoidal = HeatmapSpec {
        title: "Sinusoidal table (a formula)".into(),
        colorbar: ColorBar {
            lo: -1.0,
            hi: 1.0,
            label: "PE value",
            scale: Scale::Diverging,
        },
        ..spec.clone()
    };
    [spec, sinusoidal]
}

/// Entry `(r, c)` of the learned table of `max_len` rows and `d` columns drawn from `seed`: NaN
/// past its last row. `cache` holds the last row drawn (its index first): painting goes row by
/// row, so each row costs one pass of `d` draws.
pub fn learned_cell(
    (max_len, d, seed): (usize, usize, u64),
    cache: &mut (usize, Vec<f64>),
    r: usize,
    c: usize,
) -> f64 {
    if r >= max_len {
        return f64::NAN;
    }
    if cache.0 != r {
        learned::row_into(seed, SIGMA, r, d, &mut cache.1);
        cache.0 = r;
    }
    cache.1.get(c).copied().unwrap_or(0.0)
}

/// Each column's frequency and phase of the sinusoidal table `p` (cos x = sin(x + π/2)): one sin
/// per cell.
pub fn column_waves(p: &SinusoidalParams) -> Vec<(f64, f64)> {
    (0..p.dim)
        .map(|c| match p.column(c) {
            Column::Sin(k) => (p.pair_omega(k), 0.0),
            Column::Cos(k) => (p.pair_omega(k), std::f64::consts::FRAC_PI_2),
            Column::Zero => (0.0, 0.0),
        })
        .collect()
}

/// Entry `(r, c)` of the sinusoidal table whose [`column_waves`] are `waves`.
pub fn wave_cell(waves: &[(f64, f64)], r: usize, c: usize) -> f64 {
    waves
        .get(c)
        .map_or(0.0, |(w, phase)| (r as f64 * w + phase).sin())
}

/// fig-tab-learned: the learned table (rows past max_len have no value), then the sinusoidal
/// one, over the sequence. At most 4096 × 1024 cells each, materialised.
pub fn learned(v: &Views, theme: Theme) -> Vec<(Panel, Height)> {
    let t = &v.tables;
    let (n, d) = (t.seq_len, t.dim);
    let [spec, sin_spec] = learned_specs(n, d, theme);
    let mut cache = (usize::MAX, Vec::new());
    let mut table = Vec::with_capacity(n * d);
    let mut waves_table = Vec::with_capacity(n * d);
    let waves = column_waves(&sinusoidal(n, d));
    for r in 0..n {
        for c in 0..d {
            table.push(learned_cell((t.max_len, d, t.seed), &mut cache, r, c));
            waves_table.push(wave_cell(&waves, r, c));
        }
    }
    vec![
        (dense(spec, table, d), Height::Rule(learned_height)),
        (
            dense(sin_spec, waves_table, d),
            Height::Rule(learned_height),
        ),
    ]
}

// ------------------------------------------------------------------ fig-tab-learned-sim

/// Positions compared (the first ones of the table): the matrices cost `P²·d`.
pub const SIMILARITY_POSITIONS: usize = 128;

/// The height of each similarity matrix.
pub fn learned_sim_height(width: f64) -> f64 {
    (width * 0.9).clamp(240.0, 480.0)
}

/// Positions compared for a table of `max_len` rows.
pub fn similarity_positions(max_len: usize) -> usize {
    max_len.min(SIMILARITY_POSITIONS)
}

/// The two `p × p` similarity matrices' frames: the learned rows, then the sinusoidal ones.
pub fn learned_sim_specs(p: usize, theme: Theme) -> [HeatmapSpec; 2] {
    let spec = HeatmapSpec {
        title: "Learned rows (untrained)".into(),
        x_desc: "position b",
        y_desc: "position a",
        cols: 0..p,
        rows: 0..p,
        colorbar: ColorBar {
            lo: -1.0,
            hi: 1.0,
            label: "cosine similarity",
            scale: Scale::Diverging,
        },
        col_names: None,
        row_names: None,
        theme,
    };
    let sinusoidal = HeatmapSpec {
        title: "Sinusoidal rows".into(),
        ..spec.clone()
    };
    [spec, sinusoidal]
}

/// The cosine similarity of the first `p` rows of the learned table (width `d`, `seed`) into
/// `learned_out`, and of the sinusoidal table's into `sinusoidal_out`, both `p × p` row-major.
pub fn similarity_matrices_into(
    (p, d, seed): (usize, usize, u64),
    learned_out: &mut Vec<f64>,
    sinusoidal_out: &mut Vec<f64>,
) {
    learned::cosine_similarity_into(seed, SIGMA, p, d, learned_out);
    similarity::sinusoidal_matrix_into(&sinusoidal(p, d), sinusoidal_out);
}

/// fig-tab-learned-sim: the two similarity matrices over the first positions.
pub fn learned_sim(v: &Views, theme: Theme) -> Vec<(Panel, Height)> {
    let t = &v.tables;
    let p = similarity_positions(t.max_len);
    let (mut l, mut sm) = (Vec::new(), Vec::new());
    similarity_matrices_into((p, t.dim, t.seed), &mut l, &mut sm);
    let [spec, sin_spec] = learned_sim_specs(p, theme);
    vec![
        (dense(spec, l, p), Height::Rule(learned_sim_height)),
        (dense(sin_spec, sm, p), Height::Rule(learned_sim_height)),
    ]
}
