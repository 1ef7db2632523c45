//! Positions in low precision: one rotary pair's angle error over the context when positions are
//! rounded to a model's float type, on the naive path and on transformers' float32 path, for the
//! chosen layer's frequencies ([`crate::scene::models::precision_spec`]).

use leptos::html::Canvas;
use leptos::prelude::*;

use crate::app::controls::{Choice, IntSlider};
use crate::app::figure::{InteractiveCanvas, draw_effect};
use crate::app::figures::cursor::XCursor;
use crate::app::frame::figure;
use crate::app::near;
use crate::app::state::models::ModelsState;
use crate::app::theme::chapter_context;
use crate::chart::lines::nearest;
use crate::explain::models::grouped;
use crate::explain::models::precision::{
    inv_freq_sentence, layer_sentence, pair_sentence, score_sentence, storage_sentence,
};
use crate::math::precision::Dtype;
use crate::params::format_significant;
use crate::scene::models as scene;

/// The figure.
#[component]
pub fn PositionPrecision() -> impl IntoView {
    let (s, theme) = chapter_context!(ModelsState);
    let shown = s.shown();
    let rot = Memo::new(move |_| {
        let chosen = s.layer().get();
        shown.with(|m| scene::rotary(&m.config, &m.model, chosen))
    });
    let pairs = Memo::new(move |_| rot.with(|r| r.as_ref().map_or(1, |r| r.inv_freq.len())));
    let last_pair = Signal::derive(move || pairs.get().saturating_sub(1));
    // A link's pair past this layer's pairs, or a layer with fewer: the last pair.
    Effect::new(move |_| {
        let last = last_pair.get();
        if s.pair.get() > last {
            s.pair.set(last);
        }
    });
    let pair = Memo::new(move |_| s.pair.get().min(last_pair.get()));
    let omega = Memo::new(move |_| {
        let k = pair.get();
        rot.with(|r| r.as_ref().and_then(|r| r.inv_freq.get(k).copied()))
    });
    let at = Memo::new(move |_| scene::positions(s.tokens.get()));
    let errors = Memo::new(move |_| {
        let (w, dtype) = (omega.get().unwrap_or(0.0), s.dtype.get());
        at.with(|p| scene::errors(w, dtype, p))
    });
    let cursor = XCursor::new();
    let count = move || at.with_untracked(Vec::len);
    let canvas_ref = NodeRef::<Canvas>::new();
    let stats = draw_effect(canvas_ref, move |surface| {
        let (k, dtype, tokens, t) = (pair.get(), s.dtype.get(), s.tokens.get(), theme.get());
        let marked = cursor.get(count()).map(|i| at.with(|p| p[i]));
        rot.with(|r| {
            let (spec, extras) = scene::precision_spec(r.as_ref(), k, dtype, tokens, marked, t);
            cursor.paint(surface, scene::precision_height, &spec, &extras);
        });
    });
    let readout = move || {
        let Some(w) = omega.get() else {
            return "No layer of this model rotates q and k.".to_string();
        };
        match cursor.get(at.with(Vec::len)) {
            Some(i) => {
                let (p, dtype) = (at.with(|a| a[i]), s.dtype.get());
                let stored = dtype.round(p as f64);
                let (naive, float32) = errors.with(|e| e[i]);
                let (label, k) = (dtype.label(), pair.get());
                let (stored, naive) = if naive.is_finite() {
                    (
                        format!("{label} stores it as {}", grouped(stored as u64)),
                        format!("is {} rad off", format_significant(naive, 3)),
                    )
                } else {
                    (
                        format!("{label} rounds it to infinity"),
                        "has no angle".to_string(),
                    )
                };
                format!(
                    "Position {} ({stored}): pair {k}'s angle is {} rad; the naive path {naive}, \
                     the float32 path (ω rounded to float32) is {} rad off.",
                    grouped(p as u64),
                    format_significant(p as f64 * w, 6),
                    format_significant(float32, 3),
                )
            }
            None => "Hover the plot (or focus it and use the arrow keys) to read a position."
                .to_string(),
        }
    };
    let findings = move || {
        let (dtype, last) = (s.dtype.get(), s.tokens.get().saturating_sub(1));
        let mut lines = vec![storage_sentence(dtype, last)];
        rot.with(|r| {
            if let (Some(r), Some(w)) = (r, omega.get()) {
                lines.push(layer_sentence(r, s.layer().get()));
                lines.push(errors.with(|e| pair_sentence(pair.get(), w, dtype, e)));
                lines.push(inv_freq_sentence(w, last));
                lines.push(score_sentence(&r.inv_freq, dtype, s.query().get()));
            }
        });
        lines.retain(|l| !l.is_empty());
        lines.join(" ")
    };
    let describe = move || {
        let (n, dtype, tokens) = (at.with(Vec::len), s.dtype.get(), s.tokens.get());
        let label = dtype.label();
        // The half-gap line is drawn where positions are rounded (scene::precision_spec).
        let line = if dtype.first_inexact() < tokens {
            format!("a line at ω times half the {label} gap; ")
        } else {
            String::new()
        };
        format!(
            "Dots at {n} positions from 1 to {} on a logarithmic axis: how far the angle of \
             pair {} is from its exact value, in radians on a logarithmic axis, for the naive \
             {label} path and transformers' float32 path; {line}π dashed. {}",
            grouped(tokens.saturating_sub(1) as u64),
            pair.get(),
            readout(),
        )
    };
    let index = move |x: f64| at.with_untracked(|a| nearest(a, x, |p| (p as f64).log10()) as f64);
    let types = vec![
        (Dtype::Bf16, "bfloat16"),
        (Dtype::F16, "float16"),
        (Dtype::F32, "float32"),
    ];
    figure! { "fig-models-precision", "ctl-m-model ctl-m-layer ctl-m-L m-dt ctl-m-pair", stats, [
        data-text-controls="ctl-m-p"
    ];
        <div class="figure-tools">
            <Choice legend="float type" name="m-dt" options=types value=s.dtype />
            <IntSlider label="rotary pair" id="ctl-m-pair" min=0usize max=last_pair value=s.pair />
        </div>
        <InteractiveCanvas node_ref=canvas_ref readout=readout label=describe
            pointer=cursor.pointer(canvas_ref, count, index).clearing(cursor.at) />
        <p class="finding">{near::text(findings)}</p>
        <figcaption>
            "A rotary pair turns by p·ω at position p. The naive path computes that angle in "
            "the model's float type: the position, the frequency ω and their product each "
            "rounded to it. transformers 5.24's rotary embeddings keep inv_freq in float32 as "
            "the model is loaded and compute the angles in float32 "
            "(position_ids.float() * inv_freq), then round cos and sin to the model's type "
            "(Llama 4 rotates q and k in float32 and rounds only the result); their angle "
            "error is the same whatever that type. The float32 path here takes inv_freq as ω "
            "rounded to float32; transformers computes it in float32 arithmetic, which can be "
            "a float32 step or two away (the finding says how far one step moves the angle). "
            "Rounding cos and sin turns the pair by up "
            "to about 0.003 rad more in bfloat16 (0.0003 in float16) at any position, an "
            "error that does not grow and is not drawn. Each dot is one position's error "
            "against the exact angle (float64); errors under 10⁻⁸ rad, or none, sit on the "
            "floor (and the CSV gives them as 10⁻⁸). The line is ω times half the gap between "
            "the type's neighbouring numbers there: the most that rounding the position alone "
            "moves the angle (rounding the product can add to it). An error of π turns the "
            "pair to the opposite of where it should point; past π the error only wraps "
            "around. The fast pairs (small index, large ω) lose their angle first: a position "
            "off by Δ tokens moves pair i's angle by Δ·ω_i radians."
        </figcaption>
    }
}
