//! Order blindness: toy attention weights on a sentence, with positions off or on. Off, equal
//! tokens have identical rows (outlined) and reordering a sentence only permutes the weights.

use leptos::html::Canvas;
use leptos::prelude::*;

use crate::app::near;

use crate::app::figure::{InteractiveCanvas, draw_effect};
use crate::app::frame::figure;
use crate::app::matrix::{Matrix, MatrixPainter};
use crate::app::select::{cell_pointer, step_cursor};
use crate::app::state::{AppState, Notices};
use crate::app::theme::chapter_context;
use crate::chart::heatmap::HeatmapLayout;
use crate::math::attention::{self, TOY_DIM, identical_rows, tokenize};
use crate::params::check_sentence;
use crate::scene::sinusoids as scene;

/// "dog bites man" against "man bites dog": the weight dog → man in each, without and with
/// positions.
fn word_order_readout() -> String {
    let a = tokenize("dog bites man");
    let b = tokenize("man bites dog");
    // dog → man: in a, query 0 to key 2; in b, query 2 to key 0.
    let pick = |w: &[f64], i: usize, j: usize| w[i * 3 + j];
    let (wa, wb) = (
        attention::weights(&a, TOY_DIM, false),
        attention::weights(&b, TOY_DIM, false),
    );
    let (pa, pb) = (
        attention::weights(&a, TOY_DIM, true),
        attention::weights(&b, TOY_DIM, true),
    );
    format!(
        "Attention from “dog” to “man”: without positions {:.4} in “dog bites man” and {:.4} in \
         “man bites dog” — the same; with positions {:.4} and {:.4}.",
        pick(&wa, 0, 2),
        pick(&wb, 2, 0),
        pick(&pa, 0, 2),
        pick(&pb, 2, 0)
    )
}

/// The figure: sentence box, positions toggle, attention heatmap, readouts.
#[component]
pub fn OrderBlindness() -> impl IntoView {
    let (state, theme) = chapter_context!(AppState.order);
    let notices = expect_context::<Notices>();
    let tokens = Memo::new(move |_| tokenize(&state.sentence.get()));
    let weights =
        Memo::new(move |_| attention::weights(&tokens.get(), TOY_DIM, state.with_position.get()));
    let identical = Memo::new(move |_| identical_rows(&weights.get(), tokens.with(Vec::len)));

    let canvas_ref = NodeRef::<Canvas>::new();
    let layout = StoredValue::new(None::<HeatmapLayout>);
    let cursor = RwSignal::new(None::<(usize, usize)>);
    let mut painter = MatrixPainter::default();
    let stats = draw_effect(canvas_ref, move |canvas| {
        let (toks, w, t) = (tokens.get(), weights.get(), theme.get());
        let spec = scene::attention_spec(&toks, &w, state.with_position.get(), t);
        // Outline every row that has an identical twin.
        let twins = scene::twin_rows(&identical.get());
        let matrix = Matrix {
            values: &w,
            stride: toks.len(),
            version: None,
            toeplitz: false,
        };
        let drawn = painter.paint(canvas, scene::attention_height, &spec, matrix, &twins);
        layout.set_value(drawn);
    });

    let on_sentence = move |ev: leptos::ev::Event| {
        let text = event_target_value(&ev);
        match check_sentence(&text) {
            Ok(_) => state.sentence.set(text),
            Err(n) => {
                notices.push(n);
                event_target::<web_sys::HtmlInputElement>(&ev)
                    .set_value(&state.sentence.get_untracked());
            }
        }
    };
    let on_key = move |ev: leptos::ev::KeyboardEvent| {
        let n = tokens.with_untracked(Vec::len);
        let at = cursor.get_untracked().unwrap_or((0, 0));
        if let Some(next) = step_cursor(&ev.key(), at, 0..n, 0..n) {
            ev.prevent_default();
            cursor.set(Some(next));
        }
    };
    Effect::new(move |_| {
        let n = tokens.with(Vec::len);
        if cursor
            .get_untracked()
            .is_some_and(|(i, j)| i >= n || j >= n)
        {
            cursor.set(None);
        }
    });

    let readout = move || match cursor.get() {
        Some((i, j)) => tokens.with(|t| {
            let n = t.len();
            let w = weights.with(|w| w.get(i * n + j).copied().unwrap_or(0.0));
            format!(
                "query “{}” (position {i}) → key “{}” (position {j}): weight {w:.4}",
                t.get(i).map_or("", String::as_str),
                t.get(j).map_or("", String::as_str)
            )
        }),
        None => "Hover a cell (or focus the figure and use the arrow keys) to read a weight."
            .to_string(),
    };
    let twins = move || {
        let pairs = identical.get();
        tokens.with(|t| {
            if pairs.is_empty() {
                if state.with_position.get() {
                    let repeats = t.iter().enumerate().any(|(i, w)| t[..i].contains(w));
                    if repeats {
                        "With positions, every row differs: the two copies of a word now attend \
                         differently, because they sit in different places."
                            .to_string()
                    } else {
                        "With positions, reordering the words changes the weights themselves, \
                         not just their order (see “dog bites man” below)."
                            .to_string()
                    }
                } else {
                    "No word repeats, so no two rows coincide — but reordering the words would \
                     only reorder the rows and columns."
                        .to_string()
                }
            } else {
                let list = pairs
                    .iter()
                    .map(|&(i, j)| format!("“{}” at {i} and {j}", t[i]))
                    .collect::<Vec<_>>()
                    .join(", ");
                format!(
                    "Identical rows (outlined): {list}. Without positions, attention cannot tell \
                     the copies apart."
                )
            }
        })
    };
    let identical_attr = move || {
        identical
            .get()
            .iter()
            .map(|(i, j)| format!("{i},{j}"))
            .collect::<Vec<_>>()
            .join(";")
    };
    let describe = move || {
        format!(
            "Attention heatmap for the sentence “{}”, positions {}. {}",
            state.sentence.get(),
            if state.with_position.get() {
                "on"
            } else {
                "off"
            },
            twins()
        )
    };

    figure! { "fig-attention", "ctl-sentence ctl-pe", stats, [
        data-identical=identical_attr
    ];
        <div class="figure-tools">
            <label for="ctl-sentence">"sentence"</label>
            <input
                id="ctl-sentence"
                type="text"
                class="exact sentence"
                maxlength="200"
                prop:value=move || state.sentence.get()
                on:change=on_sentence
                aria-describedby="ctl-sentence-hint"
            />
            <span id="ctl-sentence-hint" class="hint">"up to 16 words"</span>
            <label class="switch">
                <input
                    id="ctl-pe"
                    type="checkbox"
                    role="switch"
                    prop:checked=move || state.with_position.get()
                    on:change=move |ev| state.with_position.set(event_target_checked(&ev))
                />
                <span>"add positional encoding"</span>
            </label>
        </div>
        <div class="figure-tools">
            <span class="hint">"Try:"</span>
            {["The brown dog chased the black dog", "dog bites man", "man bites dog"]
                .into_iter()
                .map(|s| {
                    view! {
                        <button
                            type="button"
                            class="button small"
                            on:click=move |_| state.sentence.set(s.to_string())
                        >
                            {s}
                        </button>
                    }
                })
                .collect_view()}
        </div>
        <InteractiveCanvas node_ref=canvas_ref readout=readout label=describe
            pointer=cell_pointer(canvas_ref, layout, cursor, on_key) />
        <p class="finding" id="fig-attention-twins">{near::text(twins)}</p>
        <p class="finding">{word_order_readout()}</p>
        <figcaption>
            "A toy attention layer (d = 16, fixed random embeddings and projections): each row "
            "is how much one word attends to every word. Turn positions off and repeated words "
            "(like the two “dog”s of the first example) look at the sentence in exactly the "
            "same way. Its positions are always the paper's sinusoids at d = 16, base 10000, "
            "interleaved: the controls further down change the figures below them, not this "
            "toy."
        </figcaption>
    }
}
