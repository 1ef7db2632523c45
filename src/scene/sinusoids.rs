//! Chapter 1's figures as data: each figure's height rules and chart specs (shared with the page's
//! components in `app/figures`), and a builder per figure that computes them from the views.

use plotters::prelude::RGBColor;

use super::{Height, MatrixPanel, Panel, indexed, line, lines};
use crate::chart::clock::{ClockSpec, shown_pairs, sinusoidal_clocks};
use crate::chart::colorbar::ColorBar;
use crate::chart::colormap::Scale;
use crate::chart::heatmap::HeatmapSpec;
use crate::chart::lines::{self, LinePlotSpec, Series};
use crate::chart::theme::Theme;
use crate::math::attention::{self, TOY_DIM, identical_rows, token_embedding, tokenize};
use crate::math::naive;
use crate::math::similarity;
use crate::math::sinusoidal::SinusoidalParams;
use crate::params::{Views, fit_dims};

/// The grey of reference curves (the word itself, a hovered column).
pub const REFERENCE_GREY: RGBColor = RGBColor(0x99, 0x99, 0x99);

// ------------------------------------------------------------------ fig-attention

/// The attention heatmap's height. style.css repeats it for the canvas before it first draws (a
/// browser test of layout shift checks that they agree).
pub fn attention_height(width: f64) -> f64 {
    (width * 0.62).clamp(300.0, 480.0)
}

/// Token labels with their position, so equal words stay distinguishable on the axes.
pub fn token_labels(tokens: &[String]) -> Vec<String> {
    tokens
        .iter()
        .enumerate()
        .map(|(i, t)| format!("{t} ·{i}"))
        .collect()
}

/// The upper end of the colour scale: the largest weight rounded up to a tenth (at least 0.1).
fn scale_top(weights: &[f64]) -> f64 {
    let max = weights.iter().copied().fold(0.0, f64::max);
    ((max * 10.0).ceil() / 10.0).clamp(0.1, 1.0)
}

/// The toy attention weights of `tokens` (`n × n`, row = query) as a heatmap.
pub fn attention_spec(
    tokens: &[String],
    weights: &[f64],
    with_position: bool,
    theme: Theme,
) -> HeatmapSpec {
    let n = tokens.len();
    let names = token_labels(tokens);
    let title = if with_position {
        "Attention weights with positions"
    } else {
        "Attention weights without positions"
    };
    HeatmapSpec {
        title: title.into(),
        x_desc: "key (attended to)",
        y_desc: "query",
        cols: 0..n,
        rows: 0..n,
        colorbar: ColorBar {
            lo: 0.0,
            hi: scale_top(weights),
            label: "weight",
            scale: Scale::Sequential,
        },
        col_names: Some(names.clone()),
        row_names: Some(names),
        theme,
    }
}

/// The rows outlined: every row that has an identical twin.
pub fn twin_rows(identical: &[(usize, usize)]) -> Vec<usize> {
    identical.iter().flat_map(|&(i, j)| [i, j]).collect()
}

/// fig-attention: the toy attention weights of the sentence.
pub fn attention(v: &Views, theme: Theme) -> Vec<(Panel, Height)> {
    let tokens = tokenize(&v.order.sentence);
    let weights = attention::weights(&tokens, TOY_DIM, v.order.with_position);
    let outlines = twin_rows(&identical_rows(&weights, tokens.len()));
    let spec = attention_spec(&tokens, &weights, v.order.with_position, theme);
    let stride = tokens.len();
    let panel = MatrixPanel {
        spec,
        values: weights,
        stride,
        toeplitz: false,
        outlines,
        cell: None,
    };
    vec![(Panel::Matrix(panel), Height::Rule(attention_height))]
}

// ------------------------------------------------------------------ fig-naive

/// The magnitudes plot's height.
pub fn naive_plot_height(width: f64) -> f64 {
    (width * 0.4).clamp(240.0, 340.0)
}

/// The two tables' height.
pub fn naive_table_height(width: f64) -> f64 {
    (width * 0.9).clamp(240.0, 420.0)
}

/// The norm of the word "dog"'s toy embedding at `d` dimensions.
pub fn word_norm(d: usize) -> f64 {
    token_embedding("dog", d)
        .iter()
        .map(|x| x * x)
        .sum::<f64>()
        .sqrt()
}

/// The size of the position signal against position: integer, normalised, sinusoidal, and the
/// word itself for scale.
pub fn magnitudes_spec(p: &SinusoidalParams, theme: Theme) -> LinePlotSpec {
    let (n, d) = (p.positions, p.dim);
    let word = word_norm(d);
    let curve = |f: &dyn Fn(usize) -> f64| -> Vec<(f64, f64)> {
        (0..n).map(|q| (q as f64, f(q))).collect()
    };
    let top = naive::integer_norm(n.saturating_sub(1), d).max(word * 1.5);
    LinePlotSpec {
        title: "Size of the position signal added to each token".into(),
        x_desc: "position",
        y_desc: "norm",
        x_range: 0.0..(n.max(2) - 1) as f64,
        y_range: 0.0..top * 1.05,
        series: vec![
            line(
                "integer pos in every dim".into(),
                lines::series_color(4),
                curve(&|q| naive::integer_norm(q, d)),
            ),
            line(
                format!("pos/(n−1), n = {n}"),
                lines::series_color(1),
                curve(&|q| naive::normalized_norm(q, n, d)),
            ),
            line(
                "sinusoidal".into(),
                lines::series_color(0),
                curve(&|q| p.row_norm(q)),
            ),
            line(
                "the word “dog” (for scale)".into(),
                REFERENCE_GREY,
                curve(&|_| word),
            ),
        ],
        marker: None,
        theme,
    }
}

/// Positions the binary table shows: at most 128.
pub fn bits_positions(p: &SinusoidalParams) -> usize {
    p.positions.min(128)
}

/// The binary bits of positions `0..n`, `bits` of them, fastest first.
pub fn bits_spec(n: usize, bits: u32, theme: Theme) -> HeatmapSpec {
    HeatmapSpec {
        title: "Binary bits of the position".into(),
        x_desc: "bit (fastest first)",
        y_desc: "position",
        cols: 0..bits as usize,
        rows: 0..n,
        colorbar: ColorBar {
            lo: 0.0,
            hi: 1.0,
            label: "bit",
            scale: Scale::Sequential,
        },
        col_names: None,
        row_names: None,
        theme,
    }
}

/// The sinusoidal table's first `2·bits` columns (at most d) for positions `0..n`.
pub fn first_columns_spec(p: &SinusoidalParams, n: usize, bits: u32, theme: Theme) -> HeatmapSpec {
    let cols = (2 * bits as usize).min(p.dim);
    HeatmapSpec::encoding("Sinusoidal PE, first columns", 0..n, 0..cols, theme)
}

/// fig-naive: the magnitudes, the binary bits and the sinusoidal table's first columns. (The
/// single-sine collision finder is text only.)
pub fn naive(v: &Views, theme: Theme) -> Vec<(Panel, Height)> {
    let p = v.sinusoidal.params;
    let n = bits_positions(&p);
    let bits = naive::bits_for(n);
    let table = SinusoidalParams { positions: n, ..p }.table();
    vec![
        lines(magnitudes_spec(&p, theme), Height::Rule(naive_plot_height)),
        (
            Panel::Matrix(MatrixPanel {
                spec: bits_spec(n, bits, theme),
                values: naive::binary_table(n, bits),
                stride: bits as usize,
                toeplitz: false,
                outlines: Vec::new(),
                cell: None,
            }),
            Height::Rule(naive_table_height),
        ),
        (
            Panel::Matrix(MatrixPanel {
                spec: first_columns_spec(&p, n, bits, theme),
                values: table,
                stride: p.dim,
                toeplitz: false,
                outlines: Vec::new(),
                cell: None,
            }),
            Height::Rule(naive_table_height),
        ),
    ]
}

// ------------------------------------------------------------------ fig-heatmap

/// The heatmap's height: landscape on wide screens, taller on narrow ones so rows stay visible.
pub fn heatmap_height(width: f64) -> f64 {
    (width * 0.62).clamp(300.0, 560.0)
}

/// The encoding table's frame for the rows and columns shown. The base is not in the title: the
/// page then keeps the frame while only the base changes.
pub fn heatmap_spec(
    rows: std::ops::Range<usize>,
    cols: std::ops::Range<usize>,
    theme: Theme,
) -> HeatmapSpec {
    HeatmapSpec::encoding("Sinusoidal positional encoding", rows, cols, theme)
}

/// fig-heatmap: the encoding table, the current position outlined.
pub fn heatmap(v: &Views, theme: Theme) -> Vec<(Panel, Height)> {
    let s = &v.sinusoidal;
    let p = s.params;
    let rows = s.rows.map_or(0..p.positions, |span| span.fit(p.positions));
    let cols = s.cols.map_or(0..p.dim, |span| span.fit(p.dim));
    let panel = MatrixPanel {
        spec: heatmap_spec(rows, cols, theme),
        values: p.table(),
        stride: p.dim,
        toeplitz: false,
        outlines: vec![s.pos.min(p.positions - 1)],
        cell: None,
    };
    vec![(Panel::Matrix(panel), Height::Rule(heatmap_height))]
}

// ------------------------------------------------------------------ fig-waves

/// The waves' height.
pub fn waves_height(width: f64) -> f64 {
    (width * 0.45).clamp(260.0, 420.0)
}

/// One wave: `PE(pos, dim)` for every position.
fn wave(p: &SinusoidalParams, dim: usize, label: String, color: RGBColor) -> Series {
    Series {
        label,
        color,
        points: (0..p.positions)
            .map(|pos| (pos as f64, p.value(pos, dim)))
            .collect(),
        dots: p.positions <= 40,
        line: true,
    }
}

/// The chosen columns as waves over position, then the hovered heatmap column (grey) if it is
/// not one of them; position `pos` marked.
pub fn waves_spec(
    p: &SinusoidalParams,
    dims: &[usize],
    hovered: Option<usize>,
    pos: usize,
    theme: Theme,
) -> LinePlotSpec {
    let mut series: Vec<Series> = dims
        .iter()
        .enumerate()
        .map(|(k, &d)| wave(p, d, format!("column {d}"), lines::series_color(k)))
        .collect();
    if let Some(h) = hovered.filter(|h| *h < p.dim && !dims.contains(h)) {
        series.push(wave(
            p,
            h,
            format!("column {h} (hovered)"),
            RGBColor(0x80, 0x80, 0x80),
        ));
    }
    LinePlotSpec {
        title: "Each column is a wave over positions".into(),
        x_desc: "position",
        y_desc: "PE(pos, j)",
        x_range: 0.0..(p.positions.max(2) - 1) as f64,
        y_range: -1.15..1.15,
        series,
        marker: Some((pos as f64, format!("pos {pos}"))),
        theme,
    }
}

/// fig-waves: the chosen columns over position.
pub fn waves(v: &Views, theme: Theme) -> Vec<(Panel, Height)> {
    let s = &v.sinusoidal;
    let p = s.params;
    let dims = fit_dims(&s.dims, p.dim);
    let pos = s.pos.min(p.positions - 1);
    vec![lines(
        waves_spec(&p, &dims, None, pos, theme),
        Height::Rule(waves_height),
    )]
}

// ------------------------------------------------------------------ fig-clocks

/// The clocks' height: a taller grid on narrow screens.
pub fn clocks_height(width: f64) -> f64 {
    if width < 500.0 {
        (width * 1.1).clamp(300.0, 520.0)
    } else {
        (width * 0.42).clamp(260.0, 400.0)
    }
}

/// One clock per shown pair at position `pos`, clock `selected` emphasised.
pub fn clocks_spec(
    p: &SinusoidalParams,
    pos: usize,
    pairs: &[usize],
    selected: Option<usize>,
    theme: Theme,
) -> ClockSpec {
    ClockSpec {
        title: format!("Clocks at position {pos}: hand angle = pos · ω_i"),
        clocks: sinusoidal_clocks(p, pos, pairs),
        selected,
        counter_clockwise: false,
        theme,
    }
}

/// fig-clocks: the clocks at the current position.
pub fn clocks(v: &Views, theme: Theme) -> Vec<(Panel, Height)> {
    let p = v.sinusoidal.params;
    let pos = v.sinusoidal.pos.min(p.positions - 1);
    let spec = clocks_spec(&p, pos, &shown_pairs(&p), None, theme);
    vec![(Panel::Clocks(spec), Height::Rule(clocks_height))]
}

// ------------------------------------------------------------------ fig-similarity

/// The similarity matrix's height.
pub fn similarity_matrix_height(width: f64) -> f64 {
    (width * 0.75).clamp(300.0, 620.0)
}

/// The similarity curve's height.
pub fn similarity_curve_height(width: f64) -> f64 {
    (width * 0.36).clamp(220.0, 320.0)
}

/// The `n × n` cosine-similarity matrix's frame.
pub fn similarity_matrix_spec(n: usize, theme: Theme) -> HeatmapSpec {
    HeatmapSpec {
        title: "Cosine similarity of position vectors".into(),
        x_desc: "position b",
        y_desc: "position a",
        cols: 0..n,
        rows: 0..n,
        colorbar: ColorBar {
            lo: -1.0,
            hi: 1.0,
            label: "cos(PE(a), PE(b))",
            scale: Scale::Diverging,
        },
        col_names: None,
        row_names: None,
        theme,
    }
}

/// Row `at` of the similarity matrix (`row`, one value per position) as a curve.
pub fn similarity_curve_spec(row: &[f64], at: usize, theme: Theme) -> LinePlotSpec {
    let n = row.len();
    let lo = row.iter().copied().fold(1.0, f64::min).min(0.0);
    LinePlotSpec {
        title: format!("Similarity of position {at} to every position"),
        x_desc: "position b",
        y_desc: "similarity",
        x_range: 0.0..(n.max(2) - 1) as f64,
        y_range: (lo - 0.05)..1.05,
        series: vec![Series {
            label: format!("cos(PE({at}), PE(b))"),
            color: lines::series_color(0),
            points: indexed(row),
            dots: n <= 40,
            line: true,
        }],
        marker: Some((at as f64, format!("pos {at}"))),
        theme,
    }
}

/// fig-similarity: the matrix, the current position outlined, and its row as a curve.
pub fn similarity(v: &Views, theme: Theme) -> Vec<(Panel, Height)> {
    let p = v.sinusoidal.params;
    let n = p.positions;
    let at = v.sinusoidal.pos.min(n - 1);
    let mut values = Vec::new();
    similarity::sinusoidal_matrix_into(&p, &mut values);
    let curve = similarity_curve_spec(&values[at * n..(at + 1) * n], at, theme);
    vec![
        (
            Panel::Matrix(MatrixPanel {
                spec: similarity_matrix_spec(n, theme),
                values,
                stride: n,
                toeplitz: false,
                outlines: vec![at],
                cell: None,
            }),
            Height::Rule(similarity_matrix_height),
        ),
        lines(curve, Height::Rule(similarity_curve_height)),
    ]
}

// ------------------------------------------------------------------ fig-shift

/// The shift plot's height.
pub fn shift_height(width: f64) -> f64 {
    (width * 0.42).clamp(240.0, 360.0)
}

/// `PE(at + shift)` (line) under `M_shift · PE(at)` (dots), over the columns. `borrowed`: an
/// odd d's lone sine, whose rotation takes cos(at·ω) from the position itself
/// ([`SinusoidalParams::apply_shift`]), so the dots are not a matrix times PE(at) alone.
pub fn shift_spec(
    dim: usize,
    borrowed: bool,
    at: usize,
    shift: usize,
    target: &[f64],
    moved: &[f64],
    theme: Theme,
) -> LinePlotSpec {
    LinePlotSpec {
        title: if borrowed && shift > 0 {
            format!(
                "M_{shift} · PE({at}), the lone sine's cosine borrowed, lands exactly on PE({})",
                at + shift
            )
        } else {
            format!("M_{shift} · PE({at}) lands exactly on PE({})", at + shift)
        },
        x_desc: "column j",
        y_desc: "value",
        x_range: 0.0..(dim - 1).max(1) as f64,
        y_range: -1.15..1.15,
        series: vec![
            line(
                format!("PE({})", at + shift),
                lines::series_color(0),
                indexed(target),
            ),
            Series {
                label: format!("M_{shift} · PE({at})"),
                color: lines::series_color(1),
                points: indexed(moved),
                dots: true,
                line: false,
            },
        ],
        marker: None,
        theme,
    }
}

/// fig-shift: the shifted row against the rotated one.
pub fn shift(v: &Views, theme: Theme) -> Vec<(Panel, Height)> {
    let p = v.sinusoidal.params;
    let at = v.sinusoidal.pos.min(p.positions - 1);
    let k = v.sinusoidal.shift;
    let moved = p.apply_shift(&p.row(at), at, k as f64);
    let target = p.row(at + k);
    let borrowed = crate::explain::sinusoids::lone_sine(&p).is_some();
    let spec = shift_spec(p.dim, borrowed, at, k, &target, &moved, theme);
    vec![lines(spec, Height::Rule(shift_height))]
}

// ------------------------------------------------------------------ fig-token

/// The token plot's height.
pub fn token_height(width: f64) -> f64 {
    (width * 0.42).clamp(240.0, 360.0)
}

/// The word whose embedding is moved around (any fixed vector would do).
pub const WORD: &str = "dog";

/// `x(p) − x(p₀) = PE(p) − PE(p₀)` for the two other positions of `at = [p₀, p₁, p₂]` (the
/// word's embedding cancels).
pub fn token_differences(p: &SinusoidalParams, at: [usize; 3]) -> (Vec<f64>, Vec<f64>) {
    let [p0, p1, p2] = at;
    let base = p.row(p0);
    let diff = |q: usize| -> Vec<f64> { p.row(q).iter().zip(&base).map(|(a, b)| a - b).collect() };
    (diff(p1), diff(p2))
}

/// The two differences and the word's own embedding over the columns.
pub fn token_spec(
    p: &SinusoidalParams,
    at: [usize; 3],
    (d1, d2): &(Vec<f64>, Vec<f64>),
    theme: Theme,
) -> LinePlotSpec {
    let [p0, p1, p2] = at;
    let word = token_embedding(WORD, p.dim);
    LinePlotSpec {
        title: "Where position lives: x(p) − x(p₀) over dimensions".into(),
        x_desc: "column j",
        y_desc: "difference",
        x_range: 0.0..(p.dim - 1).max(1) as f64,
        y_range: -2.1..2.1,
        series: vec![
            line(
                format!("x({p1}) − x({p0})"),
                lines::series_color(0),
                indexed(d1),
            ),
            line(
                format!("x({p2}) − x({p0})"),
                lines::series_color(1),
                indexed(d2),
            ),
            line(
                format!("the word “{WORD}” itself"),
                REFERENCE_GREY,
                indexed(&word),
            ),
        ],
        marker: None,
        theme,
    }
}

/// fig-token: where position lives in a word's vector.
pub fn token(v: &Views, theme: Theme) -> Vec<(Panel, Height)> {
    let p = v.sinusoidal.params;
    let at = v.sinusoidal.compare;
    let diffs = token_differences(&p, at);
    vec![lines(
        token_spec(&p, at, &diffs, theme),
        Height::Rule(token_height),
    )]
}

/// The picture builder of chapter 1's opening figure, which comes with the main module. With
/// [`REST_PICTURES`], the figures of [`crate::book::CHAPTERS`] that have a picture, in the book's
/// order (a test checks the lists agree).
pub const OPENING_PICTURES: &[(&str, crate::scene::Build)] = &[("fig-attention", attention)];

/// The picture builders of the rest of chapter 1's figures, by figure id, in the book's order:
/// they come with the rest of the chapter's code.
pub const REST_PICTURES: &[(&str, crate::scene::Build)] = &[
    ("fig-naive", naive),
    ("fig-heatmap", heatmap),
    ("fig-waves", waves),
    ("fig-clocks", clocks),
    ("fig-similarity", similarity),
    ("fig-shift", shift),
    ("fig-token", token),
];
