//! Query temperature at long positions: the factor Llama 4 (layers without RoPE), Ministral 3
//! (every layer) and Beam (layers without RoPE) multiply a query by at its position, over the
//! context ([`crate::scene::models::temperature_spec`]).

use leptos::html::Canvas;
use leptos::prelude::*;

use crate::app::figure::{InteractiveCanvas, draw_effect};
use crate::app::figures::cursor::XCursor;
use crate::app::frame::figure;
use crate::app::near;
use crate::app::state::models::ModelsState;
use crate::app::theme::chapter_context;
use crate::chart::lines::nearest;
use crate::explain::models::grouped;
use crate::explain::models::temperature::{
    beam_sentence, factor, layer_sentence, llama_sentence, mistral_sentence, overlap_sentence,
    softmax_sentence,
};
use crate::math::temperature::{MINISTRAL3, beam_at, drawn, of_model};
use crate::scene::models as scene;

/// The figure.
#[component]
pub fn QueryTemperature() -> impl IntoView {
    let (s, theme) = chapter_context!(ModelsState);
    let shown = s.shown();
    // The model's Llama 4 scale (None: not a Llama 4), and the one drawn.
    let llama = Memo::new(move |_| shown.with(|m| of_model(&m.model.model_type, &m.model.fields)));
    let drawn = Memo::new(move |_| llama.with(|l| drawn(l.as_ref())));
    let at = Memo::new(move |_| {
        scene::readout_positions(&drawn.get(), s.tokens.get().saturating_sub(1))
    });
    let cursor = XCursor::new();
    let count = move || at.with_untracked(Vec::len);
    let canvas_ref = NodeRef::<Canvas>::new();
    let stats = draw_effect(canvas_ref, move |surface| {
        let (tokens, query, t) = (s.tokens.get(), s.query().get(), theme.get());
        let (mut spec, extras) = scene::temperature_spec(&drawn.get(), tokens, query, t);
        if let Some(i) = cursor.get(count()) {
            let p = at.with(|a| a[i]);
            spec.marker = Some((p as f64, format!("position {}", grouped(p as u64))));
        }
        cursor.paint(surface, scene::temperature_height, &spec, &extras);
    });
    let readout = move || match cursor.get(at.with(Vec::len)) {
        Some(i) => {
            let p = at.with(|a| a[i]);
            format!(
                "Position {}: Llama 4's factor {}, Ministral 3's {}, Beam's {}.",
                grouped(p as u64),
                factor(drawn.get().at(p)),
                factor(MINISTRAL3.at(p)),
                factor(beam_at(p)),
            )
        }
        None => {
            "Hover the plot (or focus it and use the arrow keys) to read a position.".to_string()
        }
    };
    let findings = move || {
        let (query, chosen) = (s.query().get(), s.layer().get());
        llama.with(|l| {
            let mut lines = Vec::with_capacity(6);
            shown.with(|m| {
                if let Some(layer) = m.model.layers.get(chosen) {
                    lines.push(layer_sentence(m.name, l.as_ref(), layer, chosen));
                }
            });
            lines.push(llama_sentence(l.as_ref(), query));
            lines.push(mistral_sentence(query));
            lines.push(beam_sentence(query));
            let last = s.tokens.get().saturating_sub(1);
            lines.extend(overlap_sentence(&drawn.get(), last));
            lines.push(softmax_sentence(&drawn.get(), query));
            lines.join(" ")
        })
    };
    let describe = move || {
        format!(
            "Three lines over query positions 0 to {}: the factor Llama 4 multiplies the \
             queries of its layers without RoPE by and the factor Ministral 3 multiplies every \
             layer's queries by, both in steps, and Beam's smooth factor on its layers without \
             RoPE; a vertical line at the query's position. {}",
            grouped(s.tokens.get().saturating_sub(1) as u64),
            readout()
        )
    };
    let index = move |x: f64| at.with_untracked(|a| nearest(a, x, |p| p as f64) as f64);
    figure! { "fig-models-temperature", "ctl-m-L ctl-m-p", stats, [
        data-text-controls="ctl-m-model ctl-m-layer"
    ];
        <InteractiveCanvas node_ref=canvas_ref readout=readout label=describe
            pointer=cursor.pointer(canvas_ref, count, index).clearing(cursor.at) />
        <p class="finding">{near::text(findings)}</p>
        <figcaption>
            "Three mechanisms in transformers 5.24 multiply a query by a factor that grows "
            "with its position p: Llama 4 in its layers without RoPE (attn_temperature_tuning) "
            "and Ministral 3 and Mistral 4 in every layer, after RoPE (llama_4_scaling_beta, "
            "read from rope_parameters), both in steps, each step smaller than the one before; "
            "Beam in its layers without RoPE, smoothly. A factor s on the query is a factor s "
            "on every logit of its row, which sharpens the softmax. Why: the paper Llama 4's "
            "code cites, Scalable-Softmax (Nakanishi, 2025, arXiv 2501.19399), argues that a "
            "softmax over more keys spreads its weight thinner, and that logits scaled with "
            "the logarithm of the row's length keep it focused (the three formulas here are "
            "variants of that scaling). The curves are each formula "
            "with its config class's defaults (or the chosen Llama 4 config's values); the "
            "vertical line marks the chapter's query position."
        </figcaption>
    }
}
