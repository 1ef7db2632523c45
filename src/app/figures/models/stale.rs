//! Cached keys when the frequencies change: each rotary pair's angle error of a key cached
//! before dynamic NTK or LongRoPE changed the frequencies, read by the chapter's query
//! ([`crate::scene::models::stale_spec`]).

use leptos::html::Canvas;
use leptos::prelude::*;

use crate::app::controls::{Choice, IntSlider};
use crate::app::figure::{InteractiveCanvas, draw_effect};
use crate::app::figures::cursor::XCursor;
use crate::app::frame::figure;
use crate::app::near;
use crate::app::state::models::ModelsState;
use crate::app::theme::chapter_context;
use crate::explain::models::stale::{
    cache_sentence, error_sentence, pair_readout, score_sentence, source_sentence,
    timeline_sentence, window_sentence,
};
use crate::math::cached_keys::{CachedKey, Regime};
use crate::scene::models as scene;

/// The figure.
#[component]
pub fn CachedKeys() -> impl IntoView {
    let (s, theme) = chapter_context!(ModelsState);
    let shown = s.shown();
    let rope = Memo::new(move |_| {
        let (chosen, regime) = (s.layer().get(), s.regime.get());
        shown.with(|m| scene::stale_rope(&m.config, &m.model, chosen, regime))
    });
    let key = Memo::new(move |_| s.key.get().min(s.query().get()));
    let cached = Memo::new(move |_| {
        let (k, p) = (key.get(), s.query().get());
        rope.with(|r| CachedKey::of(&r.scaling, k, p))
    });
    let pairs = Memo::new(move |_| cached.with(|c| c.now.len()));
    let cursor = XCursor::new();
    let count = move || pairs.get_untracked();
    let canvas_ref = NodeRef::<Canvas>::new();
    let stats = draw_effect(canvas_ref, move |surface| {
        let t = theme.get();
        let marked = cursor.get(count());
        let regime = rope.with(|r| r.regime);
        cached.with(|c| {
            let (spec, extras) = scene::stale_spec(c, regime, marked, t);
            cursor.paint(surface, scene::stale_height, &spec, &extras);
        });
    });
    let readout = move || match cursor.get(pairs.get()) {
        Some(i) => cached.with(|c| pair_readout(c, i)),
        None => "Hover the plot (or focus it and use the arrow keys) to read a pair.".to_string(),
    };
    let findings = move || {
        let chosen = s.layer().get();
        rope.with(|r| {
            cached.with(|c| {
                let (source, window) = shown.with(|m| {
                    let layer = m.model.layers.get(chosen);
                    (
                        source_sentence(r, chosen, layer),
                        window_sentence(r, layer, c.key, c.query),
                    )
                });
                let lines = [
                    source,
                    timeline_sentence(&r.scaling, r.regime, c),
                    window,
                    error_sentence(c),
                    score_sentence(c),
                    cache_sentence(r.regime),
                ];
                lines
                    .into_iter()
                    .filter(|l| !l.is_empty())
                    .collect::<Vec<_>>()
                    .join(" ")
            })
        })
    };
    let describe = move || {
        format!(
            "Two series of dots over the {} rotary pairs: how far each pair of the key at {} \
             is turned from where a cache rebuilt for the query at {} would put it, and the \
             same wrapped into [0, π], in radians on a logarithmic axis (errors under 10⁻⁸ \
             rad, or none, at the floor); π dashed. {}",
            pairs.get(),
            crate::explain::models::grouped(key.get() as u64),
            crate::explain::models::grouped(s.query().get() as u64),
            readout()
        )
    };
    let index = move |x: f64| x.round().clamp(0.0, count().saturating_sub(1) as f64);
    let last_key = Signal::derive(move || s.query().get());
    let regimes = vec![
        (Regime::Dynamic, "dynamic NTK"),
        (Regime::Longrope, "LongRoPE"),
    ];
    figure! { "fig-models-stale", "ctl-m-p m-cm ctl-m-key", stats, [
        data-text-controls="ctl-m-model ctl-m-layer ctl-m-L"
    ];
        <div class="figure-tools">
            <Choice legend="example (for a layer whose frequencies do not change with the length)" name="m-cm"
                options=regimes value=s.regime />
            <IntSlider label="cached key position k" id="ctl-m-key" min=0usize max=last_key
                value=s.key />
        </div>
        <InteractiveCanvas node_ref=canvas_ref readout=readout label=describe
            pointer=cursor.pointer(canvas_ref, count, index).clearing(cursor.at) />
        <p class="finding">{near::text(findings)}</p>
        <figcaption>
            "Two RoPE types in transformers 5.24 change their frequencies as a sequence grows: "
            "dynamic NTK raises the base at every new length past L₀ "
            "(max_position_embeddings), and LongRoPE switches from its short factors to its "
            "long ones once the sequence is longer than L₀ "
            "(original_max_position_embeddings). The query is rotated with the frequencies of "
            "its own length, but a key already in the KV cache keeps the rotation it was given "
            "when it was computed. Here the prompt is at most L₀ tokens and every later token "
            "is generated one at a time, so the key at position k was rotated with the "
            "frequencies of k + 1 tokens and the query at p with those of p + 1: pair i's "
            "query–key angle is p·ω_i(p + 1) − k·ω_i(k + 1) where a rebuilt cache would give "
            "(p − k)·ω_i(p + 1). The first series is pair i's difference, "
            "k·|ω_i(p + 1) − ω_i(k + 1)| radians; the second wraps it into [0, π], how far the "
            "pair points from where it should (an error of π points it the opposite way). "
            "Errors under 10⁻⁸ rad, or none, sit on the floor. This holds for one sequence "
            "(a padded batch takes its longest), a model fresh from loading (after a longer "
            "run, dynamic NTK goes back to the trained frequencies only below L₀) and exact "
            "arithmetic (transformers computes the angles in float32). The query is the "
            "chapter's query position; a layer whose own RoPE is dynamic or LongRoPE (from a "
            "pasted config) is drawn as it is."
        </figcaption>
    }
}
