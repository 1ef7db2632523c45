//! Why the patterns ship: the KV cache of the chosen model's pattern against the same model
//! with every layer full, over the tokens in the context ([`crate::math::layers::kv`]).

use leptos::html::Canvas;
use leptos::prelude::*;

use crate::app::figure::{InteractiveCanvas, draw_effect};
use crate::app::figures::cursor::XCursor;
use crate::app::frame::figure;
use crate::app::state::models::ModelsState;
use crate::app::theme::chapter_context;
use crate::chart::lines::nearest;
use crate::explain::models::{BYTES_PER_NUMBER, bytes_text, grouped};
use crate::math::layers::kv::cache_bytes;
use crate::scene::models as scene;

/// The figure.
#[component]
pub fn CacheBytes() -> impl IntoView {
    let (s, theme) = chapter_context!(ModelsState);
    let shown = s.shown();
    let lengths = Memo::new(move |_| {
        let tokens = s.tokens.get();
        shown.with(|m| scene::cache_lengths(&m.model, tokens))
    });
    let cursor = XCursor::new();
    let count = move || lengths.with_untracked(Vec::len);
    let canvas_ref = NodeRef::<Canvas>::new();
    let stats = draw_effect(canvas_ref, move |surface| {
        let (tokens, t) = (s.tokens.get(), theme.get());
        shown.with(|m| {
            let (mut spec, extras) = scene::cache_spec(&m.model, m.name, tokens, t);
            if let Some(k) = cursor.get(count()) {
                let at = lengths.with(|l| l[k]);
                spec.marker = Some(((at as f64).log10(), format!("{at} tokens")));
            }
            cursor.paint(surface, scene::cache_height, &spec, &extras);
        });
    });
    let bytes_at = move |t: usize| {
        shown.with(|m| cache_bytes(&m.model.layers, &m.model.widths, t, BYTES_PER_NUMBER))
    };
    let readout = move || {
        let t = match cursor.get(lengths.with(Vec::len)) {
            Some(k) => lengths.with(|l| l[k]),
            None => s.tokens.get(),
        };
        let b = bytes_at(t);
        format!(
            "After {} tokens: {} with the model's pattern, {} with every layer full{}",
            grouped(t as u64),
            bytes_text(b.pattern as f64),
            bytes_text(b.all_full as f64),
            if cursor.at.get().is_none() {
                ". Hover the plot (or focus it and use the arrow keys) to read another length."
            } else {
                "."
            }
        )
    };
    let describe = move || {
        let name = shown.with(|m| m.name);
        format!(
            "Two curves on logarithmic axes: {name}'s KV cache in MiB against the tokens in the \
             context, with its own pattern and with every layer full; {}.",
            readout()
        )
    };
    let index =
        move |x: f64| lengths.with_untracked(|l| nearest(l, x, |n| (n as f64).log10()) as f64);
    figure! { "fig-models-cache", "ctl-m-model ctl-m-L", stats;
        <InteractiveCanvas node_ref=canvas_ref readout=readout label=describe
            pointer=cursor.pointer(canvas_ref, count, index).clearing(cursor.at) />
        <figcaption>
            "The cache as transformers 5.24's DynamicCache keeps it, in bfloat16 (2 bytes a "
            "number): a full layer keeps the keys and values of every position; a sliding or "
            "chunked layer only the last W − 1 (DynamicSlidingWindowLayer; the query's own "
            "key and value are added when it is computed), for one sequence. Each kept "
            "position holds num_key_value_heads keys and values of head_dim numbers (Gemma "
            "4's full layers: num_global_key_value_heads of global_head_dim, as its keys "
            "double as values) — DeepSeek-V3's MLA caches one latent of 512 numbers and one "
            "shared rotated key of 64 instead. "
            "“Every layer full” is the same model with no window and no chunk. Until the "
            "first window fills, the two are the same; past it, a windowed layer's cache "
            "stops growing, and only the full layers' keeps rising with the context."
        </figcaption>
    }
}
