//! Local and global heads: the attention weights of one query after the softmax, with equal
//! content scores so that only ALiBi's bias decides them. A head with a large slope looks at its
//! neighbours; one with a small slope spreads over the whole sequence. Per head, the distance
//! at which the weight halves: `ln 2 / m`.

use leptos::html::Canvas;
use leptos::prelude::*;

use crate::app::near;

use crate::app::figure::{InteractiveCanvas, draw_effect};
use crate::app::figures::cursor::XCursor;
use crate::app::frame::figure;
use crate::app::plot::paint_lines;
use crate::app::state::tables::TablesState;
use crate::app::theme::chapter_context;
use crate::explain::tables::{BIAS_AGAINST_CONTENT, head_ranges};
use crate::math::alibi;
use crate::params::format_significant;
use crate::scene::tables::{self as scene, query, slope_text};

/// The figure.
#[component]
pub fn AlibiAttention() -> impl IntoView {
    let (s, theme) = chapter_context!(TablesState);
    let (slopes, head) = (s.slopes(), s.head());
    // Every head's weights over the keys, for the current query.
    let weights = Memo::new(move |_| {
        let (n, causal) = (s.alibi_len.get(), s.causal.get());
        slopes.with(|ms| scene::alibi_weights(ms, n, causal))
    });
    let cursor = XCursor::new();
    let count = move || s.alibi_len.get_untracked();
    let canvas_ref = NodeRef::<Canvas>::new();
    let stats = draw_effect(canvas_ref, move |surface| {
        let (n, causal, h, t) = (s.alibi_len.get(), s.causal.get(), head.get(), theme.get());
        let at = cursor.get(n);
        let spec = weights.with(|ws| scene::alibi_attention_spec(ws, (n, causal), h, at, t));
        cursor
            .layout
            .set_value(paint_lines(surface, scene::alibi_attention_height, &spec));
    });
    let readout = move || {
        let (n, causal, h) = (s.alibi_len.get(), s.causal.get(), head.get());
        let q = query(n, causal);
        let m = slopes.with(|v| v[h - 1]);
        match cursor.get(n) {
            Some(j) => weights.with(|ws| {
                let w = ws.get(h - 1).and_then(|w| w.get(j)).copied().unwrap_or(0.0);
                let (lo, hi) = ws
                    .iter()
                    .filter_map(|w| w.get(j))
                    .fold((f64::INFINITY, 0.0_f64), |(a, b), &v| (a.min(v), b.max(v)));
                format!(
                    "Key {j} (distance {}): head {h} gives it {}; across the heads, {} to {}.",
                    q.abs_diff(j),
                    format_significant(w, 4),
                    format_significant(lo, 4),
                    format_significant(hi, 4)
                )
            }),
            None => format!(
                "Head {h} (m = {}): its weight halves every {} positions; the query's own token \
                 gets {}.",
                slope_text(m),
                format_significant(alibi::half_weight_distance(m), 4),
                weights.with(|ws| format_significant(ws[h - 1][q], 4))
            ),
        }
    };
    let finding = move || {
        let (n, causal) = (s.alibi_len.get(), s.causal.get());
        slopes.with(|ms| head_ranges(ms, n, query(n, causal)).to_string())
    };
    let describe = move || {
        format!(
            "Curves of attention weight over key positions for each of {} heads, one query. \
             Steep heads put nearly all their weight next to the query; flat heads spread it \
             over the sequence. {}",
            s.heads.get(),
            readout()
        )
    };
    figure! { "fig-tab-alibi-attention", "ctl-t-an ctl-t-causal ctl-t-h", stats;
        <InteractiveCanvas node_ref=canvas_ref readout=readout label=describe
            pointer=cursor.pointer(canvas_ref, count, |x| x).clearing(cursor.at) />
        <p class="finding">{near::text(finding)}</p>
        <details class="head-table">
            <summary>"Every head: slope and the distance at which its weight halves"</summary>
            <table class="numbers">
                <thead>
                    <tr><th scope="col">"head"</th><th scope="col">"slope m"</th><th scope="col">"weight halves every (ln 2 / m)"</th></tr>
                </thead>
                <tbody>
                    {
                        let rows = near::text(move || slopes.with(|ms| {
                            ms.iter()
                                .enumerate()
                                .map(|(k, &m)| {
                                    [
                                        (k + 1).to_string(),
                                        format_significant(m, 4),
                                        format_significant(alibi::half_weight_distance(m), 4),
                                    ]
                                })
                                .collect::<Vec<_>>()
                        }));
                        move || {
                            rows.get()
                                .into_iter()
                                .map(|[head, slope, halves]| {
                                    view! { <tr><td>{head}</td><td>{slope}</td><td>{halves}</td></tr> }
                                })
                                .collect_view()
                        }
                    }
                </tbody>
            </table>
        </details>
        <figcaption>
            "Every key gets the same content score here, so the weights come from the bias "
            "alone: softmax over keys of −m·|i − j|. A key's weight relative to the query's "
            "own is e^(−m·distance), which halves every ln 2 / m positions: one position "
            "for m = ln 2 ≈ 0.69, about 177 for m = 1/256. The heads share the same keys "
            "but look at them at different ranges, from local to nearly global. "
            {BIAS_AGAINST_CONTENT}
            " The sequence length, causal mask and heads are those of the figures above."
        </figcaption>
    }
}
