//! DeepSeek's MLA and YaRN's two factors: the cos/sin amplitude, the softmax scale's factor and
//! what they make of a rotated coordinate's share of a logit, over the scale factor s, for the
//! chosen layer ([`crate::scene::models::yarn_spec`]).

use leptos::html::Canvas;
use leptos::prelude::*;

use crate::app::figure::{InteractiveCanvas, draw_effect};
use crate::app::figures::cursor::XCursor;
use crate::app::frame::figure;
use crate::app::near;
use crate::app::state::models::ModelsState;
use crate::app::theme::chapter_context;
use crate::chart::lines::nearest;
use crate::explain::models::yarn::{
    amplitude_sentence, head_sentence, layer_sentence, ports_sentence, short, softmax_sentence,
    times,
};
use crate::math::yarn_scale::{DEEPSEEK_V3, DEEPSEEK_V3_HEAD, of_layer};
use crate::params::format_significant;
use crate::scene::models as scene;

/// The figure.
#[component]
pub fn YarnFactors() -> impl IntoView {
    let (s, theme) = chapter_context!(ModelsState);
    let shown = s.shown();
    // The chosen layer's YaRN fields (None: not YaRN), and the ones drawn.
    let own = Memo::new(move |_| {
        let chosen = s.layer().get();
        shown.with(|m| of_layer(&m.model, chosen))
    });
    let drawn = Memo::new(move |_| own.get().unwrap_or(DEEPSEEK_V3));
    // The head's split into coordinates without and with RoPE, when it has both: the model's
    // own (DeepSeek-V3's type; a field left out is the config class's default) or, when
    // DeepSeek-V3's fields are drawn, its 128 + 64.
    let split = Memo::new(move |_| {
        if own.get().is_none() {
            return Some(DEEPSEEK_V3_HEAD);
        }
        shown.with(|m| {
            // A field the config leaves out is DeepseekV3Config's default (128, 64).
            let field = |k: &str, default: usize| match m.model.fields.get(k) {
                None => Some(default),
                Some(v) => v.as_u64().map(|v| v as usize),
            };
            (m.model.model_type == "deepseek_v3")
                .then(|| {
                    field("qk_nope_head_dim", DEEPSEEK_V3_HEAD.0)
                        .zip(field("qk_rope_head_dim", DEEPSEEK_V3_HEAD.1))
                })
                .flatten()
        })
    });
    let at = Memo::new(move |_| scene::yarn_factors(&drawn.get()));
    let cursor = XCursor::new();
    let count = move || at.with_untracked(Vec::len);
    let canvas_ref = NodeRef::<Canvas>::new();
    let stats = draw_effect(canvas_ref, move |surface| {
        let t = theme.get();
        let y = drawn.get();
        let marked = cursor.get(at.with(Vec::len)).map(|i| at.with(|a| a[i]));
        let (spec, extras) = scene::yarn_spec(&y, marked, t);
        cursor.paint(surface, scene::yarn_height, &spec, &extras);
    });
    let readout = move || match cursor.get(at.with(Vec::len)) {
        Some(i) => {
            let y = drawn.get().at(at.with(|a| a[i]));
            let others = match split.get() {
                Some(_) => format!(", the others' × {}", times(y.plain_logit())),
                None => String::new(),
            };
            format!(
                "s = {}: cos and sin × {}, softmax scale × {}, a rotated coordinate's share \
                 × {}{others}.",
                short(y.factor),
                times(y.amplitude()),
                times(y.softmax_factor()),
                times(y.rotated_logit()),
            )
        }
        None => {
            "Hover the plot (or focus it and use the arrow keys) to read a factor s.".to_string()
        }
    };
    let findings = move || {
        let chosen = s.layer().get();
        let y = drawn.get();
        let own = own.get();
        shown.with(|m| {
            let rope = m.model.layers.get(chosen).and_then(|l| l.rope.as_ref());
            let derived =
                rope.is_some_and(|r| r.params.get("factor").and_then(|v| v.as_f64()).is_none());
            let rope_type = rope.map(|r| r.rope_type.as_str());
            let mut lines = vec![layer_sentence(
                m.name,
                chosen,
                own.as_ref(),
                derived,
                rope_type,
            )];
            // The model whose attention and rotary embedding the sentences describe.
            let who = if own.is_some() { m.name } else { "DeepSeek-V3" };
            let split = split.get();
            if let Some((nope, rope)) = split {
                lines.push(head_sentence(who, nope, rope));
            }
            lines.push(amplitude_sentence(&y, who));
            lines.push(softmax_sentence(&y, who));
            lines.push(ports_sentence(&y, split.is_some()));
            lines.join(" ")
        })
    };
    let describe = move || {
        format!(
            "Three lines over YaRN's scale factor s from 1 to {} on a logarithmic axis: the \
             factor on cos and sin, the factor on the softmax scale, and the two together on a \
             rotated coordinate's share of a logit; a vertical line at the layer's factor. {}",
            format_significant(scene::top_factor(&drawn.get()), 3),
            readout()
        )
    };
    let index = move |x: f64| at.with_untracked(|a| nearest(a, x, f64::log10) as f64);
    figure! { "fig-models-yarn", "", stats, [
        data-text-controls="ctl-m-model ctl-m-layer"
    ];
        <InteractiveCanvas node_ref=canvas_ref readout=readout label=describe
            pointer=cursor.pointer(canvas_ref, count, index).clearing(cursor.at) />
        <p class="finding">{near::text(findings)}</p>
        <figcaption>
            "YaRN stretches a model's context by a factor s and corrects the logits for it: "
            "always through cos and sin, and in DeepSeek's attention a second time. The rotary "
            "embedding multiplies cos and sin by attention_factor (transformers' "
            "_compute_yarn_parameters: the config's attention_factor if it gives one, else "
            "get_mscale(s, mscale) / get_mscale(s, mscale_all_dim) when both are nonzero, else "
            "get_mscale(s) = 0.1·ln s + 1 for s > 1), which scales only the rotated "
            "coordinates' q·k. DeepSeek's attention (yarn_apply_mscale) also multiplies the "
            "softmax scale by get_mscale(s, mscale_all_dim)², which scales every coordinate's. "
            "With both fields 1, as in DeepSeek-V3, the first is 1 at every s and the second "
            "≈ 1.874 at s = 40. The lines are the chosen layer's fields over every s "
            "(DeepSeek-V3's when the layer is not YaRN); the vertical line marks the factor of "
            "the fields drawn."
        </figcaption>
    }
}
