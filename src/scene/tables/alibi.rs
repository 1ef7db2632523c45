//! ALiBi's figures: fig-tab-slopes (a slope per head), fig-tab-alibi (the chosen head's bias and
//! every head's as small multiples) and fig-tab-alibi-attention (local and global heads).

use super::super::{Height, MatrixPanel, Panel, TilesPanel};
use super::lines;
use crate::chart::colorbar::ColorBar;
use crate::chart::colormap::{Scale, sample_indices};
use crate::chart::heatmap::HeatmapSpec;
use crate::chart::lines::{Corner, Extras, LinePlotSpec, Series, series_color};
use crate::chart::theme::Theme;
use crate::math::alibi;
use crate::params::{Views, format_significant};

pub use crate::explain::tables::{power_below, slope_text};

/// Slope `k` (from 0) of `slopes`, 0 when there is none.
fn slope_of(slopes: &[f64], k: usize) -> f64 {
    slopes.get(k).copied().unwrap_or(0.0)
}

// ------------------------------------------------------------------ fig-tab-slopes

/// The slopes plot's height.
pub fn slopes_height(width: f64) -> f64 {
    (width * 0.4).clamp(230.0, 320.0)
}

/// One dot (or line) per head: `(h, log₁₀ m_h)`.
fn slope_series(label: String, k: usize, values: &[f64], line: bool) -> Series {
    Series {
        label,
        color: series_color(k),
        points: values
            .iter()
            .enumerate()
            .map(|(i, m)| ((i + 1) as f64, m.log10()))
            .collect(),
        dots: !line,
        line,
    }
}

/// The slopes in use (one per head) on a log scale: the neighbouring powers of two's slopes as
/// lines when the head count is not one, the heads' dots, the chosen head's (from 1) own slope
/// when `overridden`, and a stem per head; head `at` (from 1) marked.
pub fn slopes_spec(
    slopes: &[f64],
    chosen: usize,
    overridden: bool,
    at: usize,
    theme: Theme,
) -> (LinePlotSpec, Extras) {
    let h_count = slopes.len();
    let mut series = Vec::new();
    let p = power_below(h_count);
    if p != h_count {
        series.push(slope_series(
            format!("{p} heads"),
            2,
            &alibi::slopes(p),
            true,
        ));
        series.push(slope_series(
            format!("{} heads", 2 * p),
            4,
            &alibi::slopes(2 * p),
            true,
        ));
    }
    series.push(slope_series(format!("{h_count} heads"), 0, slopes, false));
    if overridden {
        let m = slope_of(slopes, chosen.wrapping_sub(1));
        series.push(Series {
            label: format!("head {chosen}, your slope"),
            color: series_color(1),
            points: vec![(chosen as f64, m.log10())],
            dots: true,
            line: false,
        });
    }
    let (lo, hi) = series
        .iter()
        .flat_map(|s| s.points.iter().map(|p| p.1))
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), y| {
            (a.min(y), b.max(y))
        });
    // One bar per head in use: a stem from the bottom of the plot up to its dot.
    let bottom = lo - 0.2;
    for (i, v) in slopes.iter().enumerate() {
        series.push(Series {
            label: String::new(),
            color: series_color(0),
            points: vec![((i + 1) as f64, bottom), ((i + 1) as f64, v.log10())],
            dots: false,
            line: true,
        });
    }
    let x_max = if p == h_count { h_count } else { 2 * p };
    let spec = LinePlotSpec {
        title: "ALiBi slope of each head".into(),
        x_desc: "head h",
        y_desc: "m",
        x_range: 0.5..x_max as f64 + 0.5,
        y_range: bottom..(hi + 0.2),
        series,
        marker: Some((at as f64, format!("head {at}"))),
        theme,
    };
    let extras = Extras {
        y_log: true,
        legend: Corner::TopRight,
        ..Extras::default()
    };
    (spec, extras)
}

/// fig-tab-slopes: the slopes, the chosen head marked.
pub fn slopes(v: &Views, theme: Theme) -> Vec<(Panel, Height)> {
    let t = &v.tables;
    let chosen = t.chosen_head();
    let spec = slopes_spec(&t.slopes(), chosen, t.slope.is_some(), chosen, theme);
    vec![lines(spec, Height::Rule(slopes_height))]
}

// ------------------------------------------------------------------ fig-tab-alibi

/// The colour scale's floor: a bias of −8 multiplies a key's weight by e⁻⁸ ≈ 0.0003.
pub const FLOOR: f64 = -8.0;

/// The most rows (and columns) of a head's matrix a tile samples: the page's largest tile is
/// 140 CSS pixels.
pub const TILE_SAMPLES: usize = 140;

/// The chosen head's matrix height.
pub fn alibi_height(width: f64) -> f64 {
    (width * 0.75).clamp(260.0, 520.0)
}

/// The bias of query `i` and key `j` under slope `m`; NaN where the causal mask hides the key.
pub fn bias(m: f64, i: usize, j: usize, causal: bool) -> f64 {
    if causal && j > i {
        f64::NAN
    } else {
        0.0 - m * i.abs_diff(j) as f64
    }
}

/// The bias's colour scale, shared by the matrix and the tiles.
pub fn alibi_colorbar() -> ColorBar {
    ColorBar {
        lo: FLOOR,
        hi: 0.0,
        label: "bias −m·|i − j| (floor −8)",
        scale: Scale::Sequential,
    }
}

/// The frame of head `h`'s (from 1) `n × n` bias matrix under slope `m`.
pub fn alibi_spec(n: usize, h: usize, m: f64, theme: Theme) -> HeatmapSpec {
    HeatmapSpec {
        title: format!("Bias of head {h}, m = {}", slope_text(m)),
        x_desc: "key j",
        y_desc: "query i",
        cols: 0..n,
        rows: 0..n,
        colorbar: alibi_colorbar(),
        col_names: None,
        row_names: None,
        theme,
    }
}

/// The label above head `k`'s (from 0) tile.
pub fn tile_label(k: usize, m: f64) -> String {
    format!("h{} · {}", k + 1, format_significant(m, 3))
}

/// Every head's bias over `n` positions as small multiples on one colour scale, each tile
/// sampling at most [`TILE_SAMPLES`] rows and columns; `selected` is the tile outlined as the
/// page outlines the chosen head's (from 0).
pub fn alibi_tiles(
    slopes: &[f64],
    n: usize,
    causal: bool,
    selected: Option<usize>,
    theme: Theme,
) -> TilesPanel {
    let indices = sample_indices(0..n, TILE_SAMPLES);
    let values = slopes
        .iter()
        .flat_map(|&m| {
            let indices = &indices;
            indices
                .iter()
                .flat_map(move |&i| indices.iter().map(move |&j| bias(m, i, j, causal)))
        })
        .collect();
    TilesPanel {
        title: "Every head's bias, on one colour scale".into(),
        labels: slopes
            .iter()
            .enumerate()
            .map(|(k, &m)| tile_label(k, m))
            .collect(),
        indices,
        values,
        colorbar: alibi_colorbar(),
        selected,
        theme,
    }
}

/// fig-tab-alibi: the chosen head's bias (NaN where the causal mask hides a key), then every
/// head's.
pub fn alibi(v: &Views, theme: Theme) -> Vec<(Panel, Height)> {
    let t = &v.tables;
    let (n, causal, h) = (t.alibi_len, t.causal, t.chosen_head());
    let slopes = t.slopes();
    let m = slope_of(&slopes, h - 1);
    let values = (0..n)
        .flat_map(|i| (0..n).map(move |j| bias(m, i, j, causal)))
        .collect();
    let matrix = MatrixPanel {
        spec: alibi_spec(n, h, m, theme),
        values,
        stride: n,
        toeplitz: false,
        outlines: Vec::new(),
        cell: None,
    };
    vec![
        (Panel::Matrix(matrix), Height::Rule(alibi_height)),
        // The tiles' height comes from their grid (see `scene::svg`), not from this rule.
        (
            Panel::Tiles(alibi_tiles(&slopes, n, causal, h.checked_sub(1), theme)),
            Height::Rule(alibi_height),
        ),
    ]
}

// ------------------------------------------------------------------ fig-tab-alibi-attention

/// The plot's height.
pub fn alibi_attention_height(width: f64) -> f64 {
    (width * 0.45).clamp(240.0, 360.0)
}

/// The query whose weights are shown: the last token with the causal mask (it sees every key),
/// else the middle one.
pub fn query(len: usize, causal: bool) -> usize {
    if causal {
        len.saturating_sub(1)
    } else {
        len / 2
    }
}

/// Every head's weights over the `n` keys for the shown [`query`].
pub fn alibi_weights(slopes: &[f64], n: usize, causal: bool) -> Vec<Vec<f64>> {
    let q = query(n, causal);
    slopes
        .iter()
        .map(|&m| {
            let mut row = Vec::new();
            alibi::attention_row_into(m, q, n, causal, &mut row);
            row
        })
        .collect()
}

/// The heads' weights `ws` over `n` keys: the other heads in one colour, head `h` (from 1) on
/// top; key `at` marked.
pub fn alibi_attention_spec(
    ws: &[Vec<f64>],
    (n, causal): (usize, bool),
    h: usize,
    at: Option<usize>,
    theme: Theme,
) -> LinePlotSpec {
    let q = query(n, causal);
    let top = ws
        .iter()
        .flat_map(|w| w.iter().copied())
        .fold(0.0_f64, f64::max);
    let points = |w: &[f64]| -> Vec<(f64, f64)> {
        w.iter().enumerate().map(|(j, v)| (j as f64, *v)).collect()
    };
    let mut series: Vec<Series> = ws
        .iter()
        .enumerate()
        .filter(|(k, _)| k + 1 != h)
        .enumerate()
        .map(|(shown, (_, w))| Series {
            label: if shown == 0 {
                "the other heads".into()
            } else {
                String::new()
            },
            color: series_color(5),
            points: points(w),
            dots: false,
            line: true,
        })
        .collect();
    if let Some(w) = h.checked_sub(1).and_then(|k| ws.get(k)) {
        series.push(Series {
            label: format!("head {h}"),
            color: series_color(0),
            points: points(w),
            dots: n <= 32,
            line: true,
        });
    }
    LinePlotSpec {
        title: format!("Attention of query {q} over the keys (equal content scores)"),
        x_desc: "key position j",
        y_desc: "attention weight",
        x_range: 0.0..n.saturating_sub(1).max(1) as f64,
        y_range: 0.0..(top * 1.08).max(1e-3),
        series,
        marker: at.map(|j| (j as f64, format!("key {j}"))),
        theme,
    }
}

/// fig-tab-alibi-attention: every head's weights for one query, the chosen head on top.
pub fn alibi_attention(v: &Views, theme: Theme) -> Vec<(Panel, Height)> {
    let t = &v.tables;
    let ws = alibi_weights(&t.slopes(), t.alibi_len, t.causal);
    let spec = alibi_attention_spec(&ws, (t.alibi_len, t.causal), t.chosen_head(), None, theme);
    vec![lines(
        (spec, Extras::default()),
        Height::Rule(alibi_attention_height),
    )]
}
