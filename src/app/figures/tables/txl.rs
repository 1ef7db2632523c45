//! Transformer-XL (Dai et al. 2019, §3.3): the score of every visible pair of the toy sentence,
//! or one of its four terms, as a matrix over (query i, key j); keys after the query are hidden
//! by the causal mask.

use leptos::html::Canvas;
use leptos::prelude::*;

use crate::app::near;

use super::SeedField;
use crate::app::controls::{Choice, TextField};
use crate::app::figure::{InteractiveCanvas, draw_effect};
use crate::app::frame::figure;
use crate::app::matrix::{Matrix, MatrixPainter};
use crate::app::select::{cell_pointer, key_cursor};
use crate::app::state::tables::TablesState;
use crate::app::theme::chapter_context;
use crate::chart::heatmap::HeatmapLayout;
use crate::explain::tables::TxlFinding;
use crate::math::txl::{Landing, Terms, landing, origin};
use crate::params::check_sentence;
use crate::params::tables::TxlTerm;
use crate::scene::tables as scene;

/// A term's value as the readout writes it: four decimals (all parts alike, so that they add up
/// to the score to within the rounding), with a real minus sign.
fn value(x: Option<f64>) -> String {
    x.map_or_else(String::new, |v| format!("{v:.4}").replace('-', "−"))
}

/// The readout of entry `(i, c)` of the code's rows: its distance, its value, where the shift
/// puts it.
fn rows_readout(w: &[String], t: &Terms, i: usize, c: usize) -> String {
    let n = t.n;
    let d = n - 1 - c;
    let place = match landing(i, c, n) {
        Landing::Key(j) => format!(
            "the shift puts it under key {} ·{j}: (b) + (d) of that pair",
            w[j]
        ),
        Landing::Above { row, col } => format!(
            "no key of this sentence is {d} before the query (a cached one would be); the shift \
             puts it above the diagonal at ({row}, {col}), where the mask hides it"
        ),
        Landing::Dropped => "no key is that far before query 0; the shift drops it with the \
                             first row of the reshaped view"
            .to_string(),
    };
    format!(
        "Query {} ·{i}, column {c} = distance {d}: (q + v)·W_k,R R_{d}/√d = {}; {place}.",
        w[i],
        value(Some(t.position_rows[i * n + c]))
    )
}

/// The readout of entry `(i, j)` of the shifted rows: the pair's (b) + (d), a padded zero, or
/// the next row's leftover.
fn shifted_readout(w: &[String], t: &Terms, i: usize, j: usize) -> String {
    let n = t.n;
    let head = format!("Query {} ·{i}, key {} ·{j}", w[i], w[j]);
    match origin(i, j, n) {
        Some((_, c)) if j <= i => format!(
            "{head}: from column {c} of its row, distance {} = i − j: (b) + (d) = {}.",
            i - j,
            value(Some(t.shifted_rows()[i * n + j]))
        ),
        None => format!(
            "{head}: 0, the zero padded in front of query {}'s row of the code's rows; the \
             causal mask hides it.",
            i + 1
        ),
        Some((r, c)) => format!(
            "{head}: {}, query {r}'s number for distance {}, left over from the shift; the \
             causal mask hides it.",
            value(Some(t.position_rows[r * n + c])),
            n - 1 - c
        ),
    }
}

/// The figure.
#[component]
pub fn TransformerXl() -> impl IntoView {
    let (s, theme) = chapter_context!(TablesState);
    let (tokens, terms) = (s.txl_tokens(), s.txl());
    let canvas_ref = NodeRef::<Canvas>::new();
    let layout = StoredValue::new(None::<HeatmapLayout>);
    let cursor = RwSignal::new(None::<(usize, usize)>);
    let mut painter = MatrixPainter::default();
    let stats = draw_effect(canvas_ref, move |surface| {
        let (term, t) = (s.txl_term.get(), theme.get());
        terms.with(|terms| {
            tokens.with(|tokens| {
                let values = scene::txl_values(terms, term);
                let spec = scene::txl_spec(tokens, term, scene::txl_range(terms), t);
                let cells = Matrix {
                    values: &values,
                    stride: terms.n,
                    version: None,
                    toeplitz: false,
                };
                layout.set_value(painter.paint(surface, scene::txl_height, &spec, cells, &[]));
            })
        });
    });
    let n = move || tokens.with(Vec::len);
    let on_key = key_cursor(
        cursor,
        move || {
            let n = tokens.with_untracked(Vec::len);
            (n, n)
        },
        (0, 0),
    );
    let readout = move || {
        let n = n();
        match cursor.get() {
            Some((i, c)) if i < n && c < n && s.txl_term.get() == TxlTerm::Rows => {
                tokens.with(|w| terms.with(|t| rows_readout(w, t, i, c)))
            }
            Some((i, j)) if i < n && j < n && s.txl_term.get() == TxlTerm::Shifted => {
                tokens.with(|w| terms.with(|t| shifted_readout(w, t, i, j)))
            }
            Some((i, j)) if i < n && j < n => tokens.with(|w| {
                if j > i {
                    return format!(
                        "Query {} ·{i}, key {} ·{j}: the key comes after the query; the causal \
                         mask hides it.",
                        w[i], w[j]
                    );
                }
                terms.with(|t| {
                    let k = i * n + j;
                    format!(
                        "Query {} ·{i}, key {} ·{j}, distance i − j = {}: (a) {}, (b) {}, (c) {}, \
                         (d) {}; their sum, the score, {} (each rounded).",
                        w[i],
                        w[j],
                        i - j,
                        value(t.content[k]),
                        value(t.content_position[k]),
                        value(t.global_content[k]),
                        value(t.global_position[k]),
                        value(t.score()[k])
                    )
                })
            }),
            _ => "Hover the matrix (or focus it and use the arrow keys) to read a pair's four \
                  terms."
                .to_string(),
        }
    };
    let finding = move || {
        tokens.with(|tokens| {
            terms.with(|terms| {
                TxlFinding {
                    tokens,
                    terms,
                    term: s.txl_term.get(),
                }
                .to_string()
            })
        })
    };
    let describe = move || {
        let n = n();
        let term = s.txl_term.get();
        let name = scene::txl_term_name(term);
        match term {
            TxlTerm::Rows | TxlTerm::Shifted if n == 1 => format!(
                "A 1 by 1 matrix of Transformer-XL's {name}: the one query's (b) + (d) at \
                 distance 0."
            ),
            TxlTerm::Rows => format!(
                "A {n} by {n} matrix of Transformer-XL's {name}: queries in rows, distances \
                 from {} down to 0 in columns.",
                n - 1
            ),
            TxlTerm::Shifted => format!(
                "A {n} by {n} matrix of Transformer-XL's {name}: queries in rows, keys in \
                 columns; on and below the diagonal each pair's (b) + (d), above it {}, which \
                 the causal mask hides.",
                if n >= 3 {
                    "the padded zeros and the next rows' leftovers"
                } else {
                    "a padded zero"
                }
            ),
            _ => format!(
                "A {n} by {n} matrix of Transformer-XL's {name} for the sentence's tokens, \
                 queries in rows and keys in columns; the entries above the diagonal, keys after \
                 their query, are masked."
            ),
        }
    };
    let terms_choice = vec![
        (TxlTerm::Score, "score"),
        (TxlTerm::Content, "(a)"),
        (TxlTerm::ContentPosition, "(b)"),
        (TxlTerm::GlobalContent, "(c)"),
        (TxlTerm::GlobalPosition, "(d)"),
        (TxlTerm::Rows, "code's rows"),
        (TxlTerm::Shifted, "after shift"),
    ];
    figure! { "fig-tab-txl", "ctl-t-xs ctl-t-xseed t-xterm", stats;
        <div class="figure-tools">
            <TextField
                label="sentence"
                id="ctl-t-xs"
                hint="up to 16 words"
                current=move || s.txl_sentence.get()
                check=|text: &str| check_sentence(text).map(|_| text.to_string())
                set=move |text| s.txl_sentence.set(text)
            />
            <SeedField id="ctl-t-xseed" seed=s.txl_seed />
            <Choice legend="show" name="t-xterm" options=terms_choice value=s.txl_term />
        </div>
        <InteractiveCanvas node_ref=canvas_ref readout=readout label=describe
            pointer=cell_pointer(canvas_ref, layout, cursor, on_key) />
        <p class="finding">{near::text(finding)}</p>
        <figcaption>
            "Transformer-XL (Dai et al. 2019) reads a long text in segments and lets each "
            "segment attend to the cached states of the one before (§3.2). With absolute "
            "positions both segments would number their tokens the same way, and the model "
            "could not tell a cached token's position from that of the token at the same "
            "place in this segment (§3.3), so the score is rewritten to use only the "
            "distance i − j. The four products of "
            "adding positions to the input become: (a) content-based addressing, the words "
            "alone; (b) a content-dependent positional bias, the query word against "
            "R" <sub>"i−j"</sub> ", a sinusoid of the distance with no learned parameter, "
            "projected by a key matrix of its own, W" <sub>"k,R"</sub> "; (c) a global "
            "content bias, a learned vector u in place of the query, the same at every "
            "position; (d) a global positional bias, a learned v against the distance. Here "
            "the words are chapter 1's toy model (W" <sub>"q"</sub> " and W" <sub>"k,E"</sub>
            " as in its attention figure), and W" <sub>"k,R"</sub> ", u and v are drawn "
            "from the seed, each term divided by √d as the authors' code scales the sum. "
            "Their code builds (b) + (d) as one row per query over the distances klen − 1, …, "
            "1, 0 (klen: the keys, cached ones included) and shifts each row into place ("
            <code>"_rel_shift"</code> "); the causal mask hides what the shift leaves above "
            "the diagonal (with cached keys, above the diagonal moved right by their number)."
        </figcaption>
    }
}
