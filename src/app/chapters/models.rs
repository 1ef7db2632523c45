//! Chapter 5, "RoPE as today's models ship it": what each layer of a published model does with
//! positions (full, sliding window, chunked, no RoPE; its θ and scaling), read from its
//! config.json as transformers 5.24 reads it; the KV cache the pattern saves; and how far back a
//! query reaches through the layers.

use leptos::prelude::*;

use crate::app::controls::{IntSlider, LengthSlider};
use crate::app::deferred::Deferred;
use crate::app::figures::models::cache::CacheBytes;
use crate::app::figures::models::layers::LayerStrip;
use crate::app::figures::models::sees::QuerySees;
use crate::app::state::models::ModelsState;
use crate::math::layers::presets::PRESETS;
use crate::params::models::{TOKENS, preset_of};

/// The chapter.
#[component]
pub fn Models() -> impl IntoView {
    view! {
        <section class="chapter" id="models" aria-labelledby="models-title">
            <h2 id="models-title">"5 · RoPE as today's models ship it"</h2>
            <p>
                "Chapters 2 and 3 gave every layer the same RoPE. Several of today's open models "
                "do not. In Gemma 3 five layers of every six, in Command A three of every four "
                "and in gpt-oss every other layer attend only to a window of recent keys. Llama 4 "
                "Scout's layers with RoPE attend within chunks of 8192 tokens, and its other "
                "layers, like every fourth layer of SmolLM3, do not rotate at all. Gemma's "
                "sliding and full layers rotate with different bases. The config.json says which "
                "layer does what — in fields whose names can mislead, and with defaults that live "
                "in the library's code, not in the file. Choose a model and a layer:"
            </p>
            <div class="figure-grid">
                <Deferred>
                    <ModelControls />
                </Deferred>
                <div class="figure-stack">
                    <Deferred>
                        <LayerStrip />
                    </Deferred>
                    <p class="bridge">
                        "Why ship such patterns? A window costs little in quality for many "
                        "tasks, and it caps what the layer must keep for every token generated: "
                        "its keys and values."
                    </p>
                    <Deferred>
                        <CacheBytes />
                    </Deferred>
                    <p class="bridge">
                        "A window limits what one layer reads, not what the model can know: "
                        "each layer reads positions that already hold what they read the layer "
                        "before."
                    </p>
                    <Deferred>
                        <QuerySees />
                    </Deferred>
                </div>
            </div>
            <h3>"Where ports go wrong"</h3>
            <ul class="pitfalls">
                <li>
                    <code>"no_rope_layers[i] = 1"</code> " means layer i " <em>"uses"</em>
                    " RoPE (Llama 4, SmolLM3): the list marks the layers that rotate. An empty "
                    "list in a Llama 4 config is filled from " <code>"no_rope_layer_interval"</code>
                    " (4): every fourth layer has no RoPE, and in Llama 4 attends to every key "
                    "while the others attend within their chunk."
                </li>
                <li>
                    "A window of W means the query and the W − 1 keys before it (transformers: "
                    "q − W < kv ≤ q); the cache of a sliding layer keeps the last W − 1 keys and "
                    "values."
                </li>
                <li>
                    "Gemma 3's " <code>"rope_scaling"</code> " (linear ×8 in the 4B model) "
                    "applies to its full layers only; the sliding layers keep "
                    <code>"rope_local_base_freq"</code> " (10 000) unscaled. Transformers v5 "
                    "writes the two as " <code>"rope_parameters"</code> " with one dict per "
                    "layer type."
                </li>
                <li>
                    "Command A (cohere2) rotates only its sliding layers: its full layers have "
                    "no RoPE, which no field of the config says — it is in the model's code."
                </li>
            </ul>
        </section>
    }
}

/// The chapter's controls (its panel; an embedded figure shows it too).
#[component]
pub fn ModelControls() -> impl IntoView {
    let s = expect_context::<ModelsState>();
    let last_layer = Signal::derive(move || s.layers().get().saturating_sub(1));
    let last_query = Signal::derive(move || s.tokens.get().saturating_sub(1));
    let on_model = move |ev: leptos::ev::Event| {
        let id = event_target_value(&ev);
        if let Some(k) = PRESETS.iter().position(|p| p.id == id) {
            s.model.set(k);
        }
    };
    let preset = move || preset_of(s.model.get());
    view! {
        <div class="controls" role="group" aria-label="Model controls">
            <div class="control">
                <label for="ctl-m-model">"model"</label>
                <select id="ctl-m-model" on:change=on_model prop:value=move || preset().id>
                    {PRESETS
                        .iter()
                        .map(|p| view! { <option value=p.id>{p.name}</option> })
                        .collect_view()}
                </select>
            </div>
            <p class="hint preset-note">
                {move || preset().note} " "
                <a href=move || preset().source rel="noopener noreferrer" target="_blank">
                    "published config ↗"
                </a>
            </p>
            <IntSlider label="layer" id="ctl-m-layer" min=0usize max=last_layer value=s.layer />
            <LengthSlider label="tokens in the context" id="ctl-m-L" range=TOKENS value=s.tokens />
            <IntSlider label="query position" id="ctl-m-p" min=0usize max=last_query value=s.query />
        </div>
    }
}

/// This chapter's figure `id` on its own (an embed), and whether it reads the chapter's control
/// panel; `None` for an id not of this chapter.
pub fn figure(id: &str) -> Option<(AnyView, bool)> {
    use crate::app::figures::models::*;
    Some(match id {
        "fig-models-layers" => (view! { <layers::LayerStrip /> }.into_any(), true),
        "fig-models-cache" => (view! { <cache::CacheBytes /> }.into_any(), true),
        "fig-models-sees" => (view! { <sees::QuerySees /> }.into_any(), true),
        _ => return None,
    })
}
