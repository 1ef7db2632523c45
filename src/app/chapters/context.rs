//! Chapter 3, "Stretching the context": why a RoPE model trained on L₀ tokens fails beyond them,
//! and how position interpolation, NTK-aware scaling, dynamic NTK, YaRN, Llama 3 and LongRoPE
//! rescale its frequencies — on real model configurations, or the reader's own.

use leptos::prelude::*;

use crate::app::deferred::Deferred;
use crate::app::frame::{chapter, figure_grid};
use crate::app::near::{Near, watch};
use crate::explain::context as claims;

use crate::app::controls::{Choice, ConfigBox, FloatSlider, IntSlider, LengthSlider, LogSlider};
use crate::app::figures::context::attention::AttentionFactor;
use crate::app::figures::context::dynamic::DynamicNtk;
use crate::app::figures::context::scores::ScoresByDistance;
use crate::app::figures::context::turns::Turns;
use crate::app::figures::context::wavelengths::Wavelengths;
use crate::app::figures::context::{length_text, method_name};
use crate::app::state::context::ContextState;
use crate::math::limits;
use crate::math::rope_config::parse_config;
use crate::math::rope_presets::{PRESETS, find};
use crate::math::rope_scaling::RopeType;
use crate::params::context::{HEAD_DIM, LENGTH, MSCALE};
use crate::params::format_significant;

/// The chapter.
#[component]
pub fn Context() -> impl IntoView {
    let s = expect_context::<ContextState>();
    let slow = move || {
        let (l0, plain) = (s.original.get(), s.plain());
        plain.with(|p| {
            let slow = p
                .iter()
                .filter(|t| l0.saturating_sub(1) as f64 * **t < std::f64::consts::TAU)
                .count();
            claims::slow_pairs_text(slow, p.len())
        })
    };
    // The paragraph's numbers follow the controls by its own place on the page.
    let near = Near::new();
    chapter! { "context";
        <p use:watch=near>
            "A model trained on sequences of L₀ tokens has only ever seen rotations by angles "
            "m·θ" <sub>"i"</sub> " with m < L₀. Feed it a longer text and its quality "
            "collapses beyond L₀ (Chen et al. 2023 measure this for LLaMA). A common "
            "explanation (bloc97's NTK-by-parts; Peng et al. 2023, §3.2) is that the fast "
            "pairs only revisit angles seen many times, while the slow pairs — those that did "
            "not complete one "
            "turn within L₀ — reach angles never seen in training. With the settings below, "
            {near.text(slow)} " over the positions 0 … L₀ − 1 (L₀ = " {near.text(move || length_text(s.original.get()))} ")."
        </p>
        <p>
            "Every fix rescales the frequencies θ" <sub>"i"</sub> " → θ′" <sub>"i"</sub>
            " to bring the angles at positions up to a target T closer to those of training; "
            "some rely on further long-context training to cover the rest. The methods differ "
            "in which pairs they slow down and by how much. " {claims::notes::NUMBERS_SOURCE}
        </p>
        <p>{claims::notes::SHORT_INPUTS}</p>
        {figure_grid! { ContextControls;
            <Deferred>
                <Turns />
            </Deferred>
            <p class="bridge">
                "Where does each method put its slow-down? Compare the wavelengths pair "
                "by pair (tick more methods to overlay them):"
            </p>
            <Deferred>
                <Wavelengths />
            </Deferred>
            <p class="bridge">
                "What the model computes from them: the score of a query and a key as "
                "their distance grows, out to the target length."
            </p>
            <Deferred>
                <ScoresByDistance />
            </Deferred>
            <p class="bridge">
                "YaRN and LongRoPE also rescale the scores themselves:"
            </p>
            <Deferred>
                <AttentionFactor />
            </Deferred>
            <p class="bridge">
                "Dynamic NTK does not fix one target: its base follows the length of the "
                "sequence, as far as transformers' cache of frequencies lets it."
            </p>
            <Deferred>
                <DynamicNtk />
            </Deferred>
        }}
    }
}

/// The chapter's controls: a model preset, the paste box, the method and its parameters.
#[component]
pub fn ContextControls() -> impl IntoView {
    let s = expect_context::<ContextState>();
    let methods: Vec<(RopeType, &'static str)> = RopeType::ALL
        .into_iter()
        .map(|t| (t, method_name(t)))
        .collect();
    let on_preset = move |ev: leptos::ev::Event| {
        let id = event_target_value(&ev);
        if let Some(p) = find(&id) {
            if let Err(e) = s.apply_preset(p) {
                s.read
                    .set(vec![format!("The preset could not be read: {e}")]);
            }
        } else {
            s.model.set(None);
        }
    };
    let preset = move || s.model.get().and_then(find);
    view! {
        <div class="controls" role="group" aria-label="Context extension controls">
            <div class="control">
                <label for="ctl-c-model">"model"</label>
                <select id="ctl-c-model" on:change=on_preset prop:value=move || s.model.get().unwrap_or_default()>
                    <option value="">"— your own settings —"</option>
                    {PRESETS
                        .iter()
                        .map(|p| view! { <option value=p.id>{p.name}</option> })
                        .collect_view()}
                </select>
            </div>
            {move || {
                preset()
                    .map(|p| {
                        view! {
                            <p class="hint preset-note">
                                {p.note} " "
                                {p
                                    .url()
                                    .map(|url| {
                                        view! {
                                            <a href=url rel="noopener noreferrer" target="_blank">
                                                "source ↗"
                                            </a>
                                        }
                                    })}
                            </p>
                        }
                    })
            }}
            <PasteConfig state=s />
            <Choice legend="method (rope_type)" name="c-type" options=methods value=s.rope_type />
            <FloatSlider label="factor s" id="ctl-c-s" min=limits::FACTOR.0 max=limits::FACTOR.1 step=0.25 value=s.factor />
            <LengthSlider label="trained context L₀" id="ctl-c-L" range=LENGTH value=s.original />
            <LengthSlider label="target length T" id="ctl-c-T" range=LENGTH value=s.target />
            <IntSlider label="head_dim (rotary part)" id="ctl-c-d" min=HEAD_DIM.0 max=HEAD_DIM.1 step=2 value=s.dim />
            <LogSlider label="base (rope_theta)" id="ctl-c-base" min=limits::BASE.0 max=limits::BASE.1 value=s.base />
            <fieldset class="control-group" class:inactive=move || s.rope_type.get() != RopeType::Yarn>
                <legend>"YaRN"</legend>
                <LogSlider label="beta_fast" id="ctl-c-bf" min=limits::RAMP.0 max=limits::RAMP.1 value=s.beta_fast />
                <LogSlider label="beta_slow" id="ctl-c-bs" min=limits::RAMP.0 max=limits::RAMP.1 value=s.beta_slow />
                <label class="check" for="ctl-c-trunc">
                    <input type="checkbox" id="ctl-c-trunc" prop:checked=move || s.truncate.get() on:change=move |_| s.truncate.update(|t| *t = !*t) />
                    "truncate (round the ramp's ends to whole pairs)"
                </label>
                <FloatSlider label="mscale (0 = not set)" id="ctl-c-ms" min=MSCALE.0 max=MSCALE.1 step=0.001 value=s.mscale />
                <FloatSlider label="mscale_all_dim (0 = not set)" id="ctl-c-msa" min=MSCALE.0 max=MSCALE.1 step=0.001 value=s.mscale_all_dim />
            </fieldset>
            <fieldset class="control-group" class:inactive=move || s.rope_type.get() != RopeType::Llama3>
                <legend>"Llama 3"</legend>
                <LogSlider label="low_freq_factor" id="ctl-c-lo" min=limits::RAMP.0 max=limits::RAMP.1 value=s.low_freq />
                <LogSlider label="high_freq_factor" id="ctl-c-hi" min=limits::RAMP.0 max=limits::RAMP.1 value=s.high_freq />
            </fieldset>
            {move || {
                (s.attention_factor.get() > 0.0)
                    .then(|| {
                        view! {
                            <p class="hint">
                                {format!(
                                    "attention_factor = {} (from the config; YaRN and LongRoPE use it instead of their formula)",
                                    format_significant(s.attention_factor.get(), 6),
                                )}
                                " "
                                <button type="button" class="button small" on:click=move |_| s.attention_factor.set(0.0)>
                                    "Clear"
                                </button>
                            </p>
                        }
                    })
            }}
        </div>
    }
}

/// "Paste your config": a whole `config.json` or its scaling object sets every control and says
/// what it read; text that is not a valid config changes nothing and says why, in one line.
#[component]
fn PasteConfig(
    /// The chapter's state.
    state: ContextState,
) -> impl IntoView {
    let s = state;
    let text = RwSignal::new(String::new());
    let error = RwSignal::new(None::<String>);
    let on_read = move |t: Result<String, String>| {
        let t = match t {
            Ok(t) => t,
            Err(too_long) => return error.set(Some(too_long)),
        };
        match parse_config(&t) {
            Ok(m) => {
                error.set(None);
                s.apply(&m, None);
            }
            Err(e) => error.set(Some(crate::params::quote_line(&e))),
        }
    };
    view! {
        <details class="paste">
            <summary>"Paste your config.json"</summary>
            <label for="ctl-c-config" class="hint">
                "A model's config.json, or just its rope_scaling / rope_parameters object."
            </label>
            <p class="hint">{claims::notes::PASTE_VERSIONS}</p>
            <ConfigBox id="ctl-c-config" button="ctl-c-read" text=text read=on_read />
            <p class="paste-error" role="alert">{move || error.get()}</p>
            <ul class="paste-read" aria-label="What the config set">
                {move || s.read.get().into_iter().map(|line| view! { <li>{line}</li> }).collect_view()}
            </ul>
        </details>
    }
}

/// This chapter's figure `id` on its own (an embed), and whether it reads the chapter's control
/// panel (the others carry their own controls); `None` for an id not of this chapter.
pub fn figure(id: &str) -> Option<(AnyView, bool)> {
    use crate::app::figures::context::*;
    Some(match id {
        "fig-ctx-turns" => (view! { <turns::Turns /> }.into_any(), true),
        "fig-ctx-wavelengths" => (view! { <wavelengths::Wavelengths /> }.into_any(), true),
        "fig-ctx-scores" => (view! { <scores::ScoresByDistance /> }.into_any(), true),
        "fig-ctx-attention" => (view! { <attention::AttentionFactor /> }.into_any(), true),
        "fig-ctx-dynamic" => (view! { <dynamic::DynamicNtk /> }.into_any(), true),
        _ => return None,
    })
}
