//! Partial rotation, two conventions: every coordinate of the chosen layer's head at the
//! wavelength of the pair it turns in, under transformers' rotary_dim layout and its
//! proportional one ([`crate::scene::models::partial_spec`]).

use leptos::html::Canvas;
use leptos::prelude::*;

use crate::app::controls::Choice;
use crate::app::figure::{InteractiveCanvas, draw_effect};
use crate::app::figures::cursor::XCursor;
use crate::app::frame::figure;
use crate::app::near;
use crate::app::state::models::ModelsState;
use crate::app::theme::chapter_context;
use crate::explain::models::partial::{
    coordinate_text, layer_sentence, mixing_sentence, proportional_sentence, rotary_sentence,
};
use crate::math::partial::Fraction;
use crate::scene::models as scene;

/// The figure.
#[component]
pub fn PartialRotation() -> impl IntoView {
    let (s, theme) = chapter_context!(ModelsState);
    let shown = s.shown();
    let layer = Memo::new(move |_| {
        let chosen = s.layer().get();
        shown.with(|m| scene::partial_layer(&m.config, &m.model, chosen))
    });
    let drawn = Memo::new(move |_| {
        let f = s.fraction.get();
        layer.with(|l| {
            l.as_ref()
                .map(|l| (l.layer, scene::drawn(l, f)))
                .map_err(Clone::clone)
        })
    });
    let count = move || drawn.with_untracked(|d| d.as_ref().map_or(0, |(_, p)| p.head_dim));
    let cursor = XCursor::new();
    let canvas_ref = NodeRef::<Canvas>::new();
    let stats = draw_effect(canvas_ref, move |surface| {
        let t = theme.get();
        let n = drawn.with(|d| d.as_ref().map_or(0, |(_, p)| p.head_dim));
        let marked = cursor.get(n);
        drawn.with(|d| {
            let layer = d.as_ref().map(|(i, p)| (*i, p)).map_err(String::as_str);
            let (spec, extras) = scene::partial_spec(layer, marked, t);
            cursor.paint(surface, scene::partial_height, &spec, &extras);
        });
    });
    let readout = move || {
        let p = match drawn.get() {
            Ok((_, p)) => p,
            Err(why) => return format!("Nothing to lay out: {why}."),
        };
        match cursor.get(p.head_dim) {
            Some(x) => coordinate_text(&p, x),
            None => "Hover the plot (or focus it and use the arrow keys) to read a coordinate."
                .to_string(),
        }
    };
    let findings = move || {
        let chosen = s.layer().get();
        let f = s.fraction.get();
        let mut lines = Vec::new();
        layer.with(|l| {
            if let Ok(l) = l {
                lines.push(layer_sentence(l, f, chosen));
            }
        });
        if let Ok((_, p)) = drawn.get() {
            lines.push(proportional_sentence(&p));
            lines.push(rotary_sentence(&p));
            lines.push(mixing_sentence(&p));
        }
        lines.join(" ")
    };
    let describe = move || {
        let Some(n) = drawn.with(|d| d.as_ref().ok().map(|(_, p)| p.head_dim)) else {
            return readout();
        };
        format!(
            "Each of the head's {n} coordinates along the horizontal axis, twice: as a dot at \
             the wavelength of the pair it turns in (logarithmic axis), or on a row above for a \
             coordinate that does not turn, once for transformers' proportional layout and once \
             for its rotary_dim layout. {}",
            readout(),
        )
    };
    let index = |x: f64| x;
    let fractions = vec![
        (Fraction::Layer, "the layer's"),
        (Fraction::Eighth, "1/8"),
        (Fraction::Quarter, "1/4"),
        (Fraction::Half, "1/2"),
        (Fraction::ThreeQuarters, "3/4"),
    ];
    figure! { "fig-models-partial", "ctl-m-model ctl-m-layer m-prf", stats, [];
        <div class="figure-tools">
            <Choice legend="partial_rotary_factor" name="m-prf" options=fractions
                value=s.fraction />
        </div>
        <InteractiveCanvas node_ref=canvas_ref readout=readout label=describe
            pointer=cursor.pointer(canvas_ref, count, index).clearing(cursor.at) />
        <p class="finding">{near::text(findings)}</p>
        <figcaption>
            "A config's partial_rotary_factor f rotates only part of each head of width h, "
            "and transformers 5.24 has two ways to lay that part out. rotary_dim, the way of "
            "its linear, YaRN and other scaling types and of the default RoPE of models that "
            "read f, as Qwen3-Next, Phi-3 and GPT-NeoX apply it: the first r = int(h·f) "
            "coordinates rotate (one more when r is odd), pair i joins i and i + ⌈r/2⌉ "
            "(GPT-J and GLM join 2i and 2i + 1 instead), ω_i = θ^(−2i/r), and the rest pass "
            "through. proportional, Gemma 4's type for its "
            "full layers: every pair spans the whole head (i and i + h/2), ω_i = θ^(−2i/h), "
            "and only the first int(f·h // 2) pairs turn: the others have ω = 0 exactly. Each "
            "coordinate is drawn at the wavelength 2π/ω of its pair, so a pair is two dots at "
            "one height; coordinates that do not turn sit as bars on the rows above, which have "
            "no wavelength. The same f gives the same number of turning pairs (for even r) "
            "and, below f = 1, different pairings and a different frequency for every pair "
            "but the first."
        </figcaption>
    }
}
