//! The attention factor: YaRN and LongRoPE multiply the cos and sin tables by a factor that
//! grows with s (transformers' `attention_scaling`), which sharpens the softmax over the longer
//! context. Its curve over s for each formula, the current value marked, and the formula with
//! live numbers.

use leptos::html::Canvas;
use leptos::prelude::*;

use crate::app::near;

use super::method_name;
use crate::app::figure::{InteractiveCanvas, draw_effect};
use crate::app::figures::cursor::XCursor;
use crate::app::frame::figure;
use crate::app::plot::paint_lines;
use crate::app::state::context::ContextState;
use crate::app::theme::chapter_context;
use crate::math::limits;
use crate::math::rope_scaling::{RopeType, longrope_default_factor, yarn_get_mscale, yarn_mscale};
use crate::params::format_significant;
use crate::scene::context::{self as scene, FACTOR_POINTS as POINTS, factor_at as s_at};

/// The figure.
#[component]
pub fn AttentionFactor() -> impl IntoView {
    let (s, theme) = chapter_context!(ContextState);
    let scaled = s.scaled();
    let deepseek = move || s.view().with(scene::deepseek);
    let cursor = XCursor::new();
    let count = || POINTS;
    let canvas_ref = NodeRef::<Canvas>::new();
    let stats = draw_effect(canvas_ref, move |surface| {
        let t = theme.get();
        let (factor, l0) = (s.factor.get(), s.original.get());
        let at = cursor.get(POINTS).map_or(factor, s_at);
        let spec = scene::attention_spec(l0, deepseek(), at, t);
        cursor
            .layout
            .set_value(paint_lines(surface, scene::attention_height, &spec));
    });
    let index = |x: f64| {
        let (lo, hi) = limits::FACTOR;
        (x - lo) / (hi - lo) * (POINTS - 1) as f64
    };
    let current = move || {
        let t = s.rope_type.get();
        let f = scaled.with(|(_, a)| *a);
        let explicit = s.attention_factor.get() > 0.0;
        let why = match t {
            RopeType::Yarn | RopeType::Longrope if explicit => "the config's own attention_factor",
            RopeType::Yarn if deepseek().is_some() => {
                "YaRN with DeepSeek's mscale and mscale_all_dim"
            }
            RopeType::Yarn => "YaRN's default",
            RopeType::Longrope => "LongRoPE's default",
            _ => "this method has none",
        };
        format!(
            "{}: attention factor {} ({why}); the rotary part of each score is multiplied by its \
             square, {}.{}",
            method_name(t),
            format_significant(f, 6),
            format_significant(f * f, 6),
            match (t, deepseek()) {
                (RopeType::Yarn, Some((_, a))) => format!(
                    " DeepSeek's attention also multiplies its softmax scale by get_mscale(s, \
                     mscale_all_dim)² = {}.",
                    format_significant(yarn_get_mscale(s.factor.get(), a).powi(2), 5)
                ),
                _ => String::new(),
            }
        )
    };
    let readout = move || match cursor.get(POINTS) {
        None => current(),
        Some(k) => {
            let x = s_at(k);
            let mut parts = vec![
                format!("s = {}", format_significant(x, 4)),
                format!("YaRN {}", format_significant(yarn_mscale(x), 5)),
                format!(
                    "LongRoPE {}",
                    format_significant(longrope_default_factor(x, s.original.get()), 5)
                ),
            ];
            if let Some((m, a)) = deepseek() {
                parts.push(format!(
                    "DeepSeek {}",
                    format_significant(yarn_get_mscale(x, m) / yarn_get_mscale(x, a), 5)
                ));
            }
            parts.join(" · ")
        }
    };
    let describe = move || {
        format!(
            "Curves of the attention factor over s from 1 to 64 for YaRN and LongRoPE{}. {}",
            if deepseek().is_some() {
                " and DeepSeek's mscale ratio"
            } else {
                ""
            },
            current()
        )
    };
    let live = move || format_significant(s.factor.get(), 4);
    let yarn_value = move || format_significant(yarn_mscale(s.factor.get()), 5);
    figure! { "fig-ctx-attention", "ctl-c-s ctl-c-L ctl-c-ms ctl-c-msa", stats;
        <math display="block">
            <mrow>
                <mi>"get_mscale"</mi><mo>"("</mo><mn>{live}</mn><mo>")"</mo>
                <mo>"="</mo>
                <mn>"0.1"</mn><mo>"·"</mo><mi>"ln"</mi><mo>"("</mo><mn>{live}</mn><mo>")"</mo>
                <mo>"+"</mo><mn>"1"</mn>
                <mo>"="</mo><mn>{yarn_value}</mn>
            </mrow>
        </math>
        <InteractiveCanvas node_ref=canvas_ref readout=readout label=describe
            pointer=cursor.pointer(canvas_ref, count, index) />
        <p class="readout">{near::text(current)}</p>
        <figcaption>
            {crate::explain::context::notes::YARN_TEMPERATURE}
            " DeepSeek splits that temperature: the rotary tables "
            "carry get_mscale(s, mscale)/get_mscale(s, mscale_all_dim) (1 when the two are "
            "equal), and its attention multiplies the softmax scale by get_mscale(s, "
            "mscale_all_dim)², outside modeling_rope_utils; this figure shows the tables' "
            "factor. transformers' LongRoPE default (from Phi-3) is √(1 + ln s / ln L₀). A "
            "config's own attention_factor overrides each. The other methods leave scores "
            "unscaled."
        </figcaption>
    }
}
