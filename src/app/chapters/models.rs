//! Chapter 5, "RoPE as today's models ship it": what each layer of a published model does with
//! positions (full, sliding window, chunked, no RoPE; its θ and scaling), read from its
//! config.json as transformers 5.24 reads it; the KV cache the pattern saves; and how far back a
//! query reaches through the layers.

use leptos::prelude::*;

use crate::app::controls::{ConfigBox, IntSlider, LengthSlider};
use crate::app::deferred::Deferred;
use crate::app::figures::models::cache::CacheBytes;
use crate::app::figures::models::layers::LayerStrip;
use crate::app::figures::models::partial::PartialRotation;
use crate::app::figures::models::precision::PositionPrecision;
use crate::app::figures::models::sees::QuerySees;
use crate::app::figures::models::stale::CachedKeys;
use crate::app::figures::models::temperature::QueryTemperature;
use crate::app::figures::models::yarn::YarnFactors;
use crate::app::frame::{chapter, figure_grid};
use crate::app::state::models::ModelsState;
use crate::math::layers::paste::{keep_read_fields, legacy_form, v5_form};
use crate::math::layers::presets::PRESETS;
use crate::params::models::{PASTED, TOKENS, preset_of};
use crate::params::quote_line;

/// The chapter.
#[component]
pub fn Models() -> impl IntoView {
    chapter! { "models";
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
        {figure_grid! { ModelControls;
            <Deferred>
                <LayerStrip />
            </Deferred>
            <p class="bridge">
                "Why ship such patterns? Memory: a windowed layer caps what it must keep "
                "for every token generated, its keys and values. (What a window costs in "
                "quality each model's report measures for itself.)"
            </p>
            <Deferred>
                <CacheBytes />
            </Deferred>
            <p class="bridge">
                "A window limits what one layer reads; stacked layers can carry more: "
                "each layer reads positions that already hold what they read the layer "
                "before. Sliding windows chain, each reaching W − 1 positions further "
                "back; chunks do not (a chunk's first position sees only itself), and "
                "it is the full layers that reach everything."
            </p>
            <Deferred>
                <QuerySees />
            </Deferred>
            <p class="bridge">
                "Inside a layer, RoPE need not turn the whole head. Gemma 4's full layers "
                "rotate a quarter of theirs, and so do Qwen3-Next's full-attention layers; the config says "
                "so with one number, partial_rotary_factor, which transformers reads in two "
                "different ways:"
            </p>
            <Deferred>
                <PartialRotation />
            </Deferred>
            <p class="bridge">
                "Position reaches a layer without RoPE too, and every layer of some models, "
                "through the query's size: a factor that grows with the query's position "
                "sharpens its softmax row:"
            </p>
            <Deferred>
                <QueryTemperature />
            </Deferred>
            <p class="bridge">
                "YaRN can scale a model's logits in two places, cos and sin and the softmax; "
                "DeepSeek's config sets both, and its MLA head splits the coordinates that "
                "rotate from those that do not:"
            </p>
            <Deferred>
                <YarnFactors />
            </Deferred>
            <p class="bridge">
                "Models like these are usually run in bfloat16, a float type with 8 "
                "significant bits: it holds every whole number up to 256, and past that only "
                "some. A position rounded to it is a position moved, and the fastest pair "
                "turns up to a radian per token. Where the angle is computed decides whether "
                "that happens:"
            </p>
            <Deferred>
                <PositionPrecision />
            </Deferred>
            <p class="bridge">
                "Every figure so far fixes a layer's frequencies once. Two RoPE types change "
                "them while a sequence grows, and the keys already in the cache do not follow:"
            </p>
            <Deferred>
                <CachedKeys />
            </Deferred>
        }}
        <h3>"Where ports go wrong"</h3>
        <ul class="pitfalls">
            <li>
                <code>"no_rope_layers[i] = 1"</code> " means layer i " <em>"uses"</em>
                " RoPE (Llama 4, SmolLM3): the list marks the layers that rotate. An empty "
                "list in a Llama 4 config is filled from " <code>"no_rope_layer_interval"</code>
                " (4): every fourth layer has no RoPE, and in Llama 4 attends to every key "
                "while the others attend within their chunk. No RoPE is not no position: "
                "with attn_temperature_tuning (on by default) transformers' Llama 4 "
                "attention scales those layers' queries by 1 + attn_scale·ln(1 + ⌊(p + 1)/"
                "floor_scale⌋), which grows with the position p."
            </li>
            <li>
                "DeepSeek's YaRN corrects twice: cos and sin by get_mscale(s, mscale) / "
                "get_mscale(s, mscale_all_dim) (1 for DeepSeek-V3, whose two fields are 1), "
                "and, in its attention, the softmax scale by get_mscale(s, mscale_all_dim)² "
                "(≈ 1.874 at s = 40). A port that leaves out the second makes every q·k "
                "logit that much too small; one that reads the first as YaRN's default "
                "get_mscale(s) makes the 64 rotated coordinates' share that much too large."
            </li>
            <li>
                "Ministral 3 and Mistral 4 keep their query scale's β, "
                <code>"llama_4_scaling_beta"</code> ", inside " <code>"rope_parameters"</code>
                " (transformers' RoPE validation is told to ignore it), and its floor is the "
                "YaRN " <code>"original_max_position_embeddings"</code> ". It is not a RoPE "
                "setting: after RoPE, every layer's whole query (in Mistral 4 the part without "
                "RoPE too) is multiplied by 1 + β·ln(1 + ⌊p/original_max_position_embeddings⌋)."
            </li>
            <li>
                "A window of W means the query and the W − 1 keys before it (transformers: "
                "q − W < kv ≤ q). Between steps, transformers' DynamicCache keeps the last "
                "W − 1 keys and values of a sliding layer, what the next query needs besides "
                "its own (its StaticCache keeps W)."
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
            <li>
                <code>"partial_rotary_factor"</code> " is read two ways. With rope_type "
                <code>"proportional"</code> " (Gemma 4's full layers) the frequencies stay "
                "spaced over the whole head, pairs span the head's halves, and the pairs past "
                "int(f·h // 2) get frequency 0. Otherwise, in the models whose code applies f "
                "(Qwen3-Next, Phi-3, GPT-NeoX, GLM), the first int(h·f) coordinates rotate (one "
                "more when that is odd), with frequencies spaced over those alone; the other "
                "models this chapter reads ignore f under the default RoPE and cannot run a "
                "scaling type with f below 1. Gemma 4's full "
                "layers also take their width from " <code>"global_head_dim"</code> " (512), "
                "not " <code>"head_dim"</code> " (256)."
            </li>
            <li>
                "transformers builds a rotary embedding's inv_freq in float32, and loading "
                "with " <code>"from_pretrained(…, dtype=torch.bfloat16)"</code> " keeps it so; "
                "casting the model afterwards (" <code>"model.to(torch.bfloat16)"</code> ") "
                "rounds that buffer too. Every pair whose ω bfloat16 cannot hold exactly (at "
                "θ = 10 000 with a head of 128, every pair but the first) then turns at a "
                "slightly wrong speed, "
                "and its angle drifts by ω's rounding error times the position."
            </li>
            <li>
                "Dynamic NTK and LongRoPE recompute inv_freq from the current length, but a KV "
                "cache keeps keys rotated with the frequencies of the length they were "
                "computed at. In transformers 5.24 only Phi-3 then rebuilds its cache (once, "
                "when a sequence first passes original_max_position_embeddings); nothing does "
                "for dynamic NTK. Under dynamic NTK, a port that rebuilds its cache, or caches "
                "keys before rotating them, computes different scores from transformers' "
                "generation; for a Phi-3 model past that length, a port that keeps its cache "
                "does."
            </li>
        </ul>
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
            s.config.set(None);
            s.model.set(k);
        }
    };
    let preset = move || preset_of(s.model.get());
    let pasted = move || s.shown().with(|m| m.name == PASTED);
    view! {
        <div class="controls" role="group" aria-label="Model controls">
            <div class="control">
                <label for="ctl-m-model">"model"</label>
                <select
                    id="ctl-m-model"
                    on:change=on_model
                    prop:value=move || if pasted() { PASTED_ID } else { preset().id }
                >
                    {move || pasted().then(|| view! { <option value=PASTED_ID>{PASTED}</option> })}
                    {PRESETS
                        .iter()
                        .map(|p| view! { <option value=p.id>{p.name}</option> })
                        .collect_view()}
                </select>
            </div>
            <p class="hint preset-note" class:inactive=pasted>
                {move || preset().note} " "
                <a href=move || preset().source rel="noopener noreferrer" target="_blank">
                    "published config ↗"
                </a>
            </p>
            {move || {
                s.shown()
                    .with(|m| m.error.clone())
                    .map(|e| {
                        view! {
                            <p class="paste-error" role="alert">
                                {format!(
                                    "The config in the link could not be read ({}); the preset is shown.",
                                    quote_line(&e),
                                )}
                            </p>
                        }
                    })
            }}
            <PasteModel />
            <IntSlider label="layer" id="ctl-m-layer" min=0usize max=last_layer value=s.layer />
            <LengthSlider label="tokens in the context" id="ctl-m-L" range=TOKENS value=s.tokens />
            <IntSlider label="query position" id="ctl-m-p" min=0usize max=last_query value=s.query />
        </div>
    }
}

/// Said in place of the RoPE fields when no layer rotates.
const NO_ROTATION: &str = "(no layer rotates: whatever RoPE fields the config has go unused)";

/// The select's value for a pasted config.
const PASTED_ID: &str = "pasted";

/// "Paste a config.json": read as the presets are, kept to the fields read (the others named in
/// one line), in place of the preset; text that is not such a config changes nothing and says
/// why in one line. Below, the model's RoPE in transformers v5's form and in the legacy one.
#[component]
fn PasteModel() -> impl IntoView {
    let s = expect_context::<ModelsState>();
    let text = RwSignal::new(String::new());
    let said = RwSignal::new(None::<Result<String, String>>);
    let on_read = move |t: Result<String, String>| {
        let t = match t {
            Ok(t) => t,
            Err(too_long) => return said.set(Some(Err(too_long))),
        };
        match keep_read_fields(&t) {
            Ok(kept) => {
                said.set(Some(Ok(ignored_note(&kept.ignored))));
                s.config.set(Some(kept.text));
            }
            Err(e) => said.set(Some(Err(quote_line(&e)))),
        }
    };
    let forms = move || {
        s.shown()
            .with(|m| (v5_form(&m.model), legacy_form(&m.model)))
    };
    view! {
        <details class="paste">
            <summary>"Paste a config.json"</summary>
            <label for="ctl-m-config" class="hint">
                "A model's config.json (legacy rope_scaling, or as transformers v5 saves it: "
                "rope_parameters, Gemma 4's per_layer_config; "
                "Gemma 3 and 4, Llama 4, SmolLM3, Cohere2, gpt-oss, Qwen3, Qwen2.5-VL, Qwen3-VL, "
                "DeepSeek-V3)."
            </label>
            <ConfigBox id="ctl-m-config" button="ctl-m-read" text=text read=on_read />
            {move || match said.get() {
                Some(Ok(note)) => view! { <p class="hint paste-read">{note}</p> }.into_any(),
                Some(Err(e)) => view! { <p class="paste-error" role="alert">{e}</p> }.into_any(),
                None => ().into_any(),
            }}
            <p class="hint">
                "This model's RoPE in transformers v5's form (the fields the config states; "
                "transformers may add ones it fills in, such as original_max_position_embeddings):"
            </p>
            <pre class="rope-form" id="fig-models-v5">
                {move || forms().0.unwrap_or_else(|| NO_ROTATION.to_string())}
            </pre>
            <p class="hint">"and in the legacy fields:"</p>
            <pre class="rope-form" id="fig-models-legacy">
                {move || {
                    let (v5, legacy) = forms();
                    match (v5, legacy) {
                        (_, Some(l)) => l,
                        (None, None) => NO_ROTATION.to_string(),
                        (Some(_), None) => {
                            "(none: the layer types' RoPEs differ in more than what rope_theta, \
                             rope_scaling and Gemma 3's rope_local_base_freq can say)"
                                .to_string()
                        }
                    }
                }}
            </pre>
        </details>
    }
}

/// The one line on the fields a pasted config had that are not read.
fn ignored_note(ignored: &[String]) -> String {
    const SHOWN: usize = 8;
    match ignored.len() {
        0 => "Read: every field is one this chapter uses.".to_string(),
        n => format!(
            "Read. Not used by this chapter's figures ({n}): {}{}",
            ignored[..n.min(SHOWN)].join(", "),
            if n > SHOWN { ", …" } else { "." }
        ),
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
        "fig-models-partial" => (view! { <partial::PartialRotation /> }.into_any(), true),
        "fig-models-temperature" => (view! { <temperature::QueryTemperature /> }.into_any(), true),
        "fig-models-yarn" => (view! { <yarn::YarnFactors /> }.into_any(), true),
        "fig-models-precision" => (view! { <precision::PositionPrecision /> }.into_any(), true),
        "fig-models-stale" => (view! { <stale::CachedKeys /> }.into_any(), true),
        _ => return None,
    })
}
