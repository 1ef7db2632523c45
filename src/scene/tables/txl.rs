//! fig-tab-txl: Transformer-XL's score of every visible pair of the toy sentence, one of its four
//! terms, or (b) + (d) as the authors' code computes them before and after `_rel_shift`
//! ([`crate::math::txl`]), on one colour scale for all seven views.

use super::super::{Height, MatrixPanel, Panel};
use crate::chart::colorbar::ColorBar;
use crate::chart::colormap::Scale;
use crate::chart::heatmap::HeatmapSpec;
use crate::chart::theme::Theme;
use crate::math::attention::tokenize;
use crate::math::txl::{self, Terms};
use crate::params::Views;
use crate::params::tables::TxlTerm;
use crate::scene::sinusoids::token_labels;

/// The matrix's height.
pub fn txl_height(width: f64) -> f64 {
    (width * 0.62).clamp(300.0, 480.0)
}

/// The matrix `term` picks out of `t`, row-major `n × n`: for the score and the four terms, NaN
/// above the diagonal, where the causal mask hides the key; the code's rows (one column per
/// distance) and their shift in full, to show what the mask hides.
pub fn txl_values(t: &Terms, term: TxlTerm) -> Vec<f64> {
    let cells = match term {
        TxlTerm::Score => t.score(),
        TxlTerm::Content => t.content.clone(),
        TxlTerm::ContentPosition => t.content_position.clone(),
        TxlTerm::GlobalContent => t.global_content.clone(),
        TxlTerm::GlobalPosition => t.global_position.clone(),
        TxlTerm::Rows => return t.position_rows.clone(),
        TxlTerm::Shifted => return t.shifted_rows(),
    };
    cells.into_iter().map(|c| c.unwrap_or(f64::NAN)).collect()
}

/// The term's name in the title and the text alternative (the paper's names, §3.3).
pub fn txl_term_name(term: TxlTerm) -> &'static str {
    match term {
        TxlTerm::Score => "score (a) + (b) + (c) + (d)",
        TxlTerm::Content => "(a) content-based addressing",
        TxlTerm::ContentPosition => "(b) content-dependent positional bias",
        TxlTerm::GlobalContent => "(c) global content bias",
        TxlTerm::GlobalPosition => "(d) global positional bias",
        TxlTerm::Rows => "(b) + (d), the code's rows",
        TxlTerm::Shifted => "(b) + (d) after _rel_shift",
    }
}

/// `text` with its first letter upper-case (a title).
fn capitalised(text: &str) -> String {
    let mut chars = text.chars();
    chars
        .next()
        .map_or_else(String::new, |c| c.to_uppercase().chain(chars).collect())
}

/// The half-width of the colour scale: the largest magnitude of any visible entry of the four
/// terms and the score, and of the code's rows, rounded up to a tenth (at least 0.1), so that
/// switching the view keeps the colours comparable.
pub fn txl_range(t: &Terms) -> f64 {
    let score = t.score();
    let max = [
        &t.content,
        &t.content_position,
        &t.global_content,
        &t.global_position,
        &score,
    ]
    .iter()
    .flat_map(|m| m.iter().flatten())
    .chain(&t.position_rows)
    .fold(0.0f64, |a, v| a.max(v.abs()));
    ((max * 10.0).ceil() / 10.0).max(0.1)
}

/// The frame of `term`'s matrix over `tokens`, its colour scale `±range`.
pub fn txl_spec(tokens: &[String], term: TxlTerm, range: f64, theme: Theme) -> HeatmapSpec {
    let n = tokens.len();
    let names = token_labels(tokens);
    // The code's rows have a column per distance, longest first, not per key.
    let (x_desc, col_names) = if term == TxlTerm::Rows {
        (
            "distance (the code's column order)",
            (0..n).rev().map(|d| d.to_string()).collect(),
        )
    } else {
        ("key j", names.clone())
    };
    HeatmapSpec {
        // Short enough for a phone's canvas; the figure says whose terms they are.
        title: capitalised(txl_term_name(term)),
        x_desc,
        y_desc: "query i",
        cols: 0..n,
        rows: 0..n,
        colorbar: ColorBar {
            lo: -range,
            hi: range,
            label: "score term (÷√d)",
            scale: Scale::Diverging,
        },
        col_names: Some(col_names),
        row_names: Some(names),
        theme,
    }
}

/// fig-tab-txl: the chosen view's matrix (for the score and the terms, NaN above the diagonal;
/// the code's rows and their shift in full).
pub fn txl(v: &Views, theme: Theme) -> Vec<(Panel, Height)> {
    let t = &v.tables;
    let tokens = tokenize(&t.txl_sentence);
    let terms = txl::terms(&tokens, t.txl_seed);
    let panel = MatrixPanel {
        spec: txl_spec(&tokens, t.txl_term, txl_range(&terms), theme),
        values: txl_values(&terms, t.txl_term),
        stride: tokens.len(),
        toeplitz: false,
        outlines: Vec::new(),
        cell: None,
    };
    vec![(Panel::Matrix(panel), Height::Rule(txl_height))]
}
