//! Wavelength per pair, before and after scaling, on a log scale, with the trained context and
//! the chosen method's thresholds drawn; below it, how much each method slows each pair
//! (θ_i/θ′_i, from 1 = untouched to s = fully interpolated). Several methods can be overlaid.

use leptos::html::Canvas;
use leptos::prelude::*;

use crate::app::near;

use super::method_name;
use crate::app::figure::{DrawStats, InteractiveCanvas, draw_effect_into};
use crate::app::figures::cursor::XCursor;
use crate::app::frame::figure;
use crate::app::state::context::ContextState;
use crate::app::theme::chapter_context;
use crate::explain::context as claims;
use crate::math::rope_scaling::RopeType;
use crate::params::format_significant;
use crate::scene::context as scene;

/// The figure.
#[component]
pub fn Wavelengths() -> impl IntoView {
    let (s, theme) = chapter_context!(ContextState);
    let view = s.view();
    let plain = s.plain();
    let curves = Memo::new(move |_| view.with(|v| s.lists.with(|l| scene::curves(v, l.as_ref()))));
    let count = move || plain.with(Vec::len);
    let cursor = XCursor::new();
    let scale_cursor = XCursor::new();
    let (top_ref, bottom_ref) = (NodeRef::<Canvas>::new(), NodeRef::<Canvas>::new());
    let stats = DrawStats::new();
    // Pointer or keys on either panel select the same pair.
    Effect::new(move |_| {
        if let Some(i) = scale_cursor.at.get() {
            cursor.at.set(Some(i));
        }
    });
    draw_effect_into(top_ref, stats, move |surface| {
        let t = theme.get();
        let at = cursor.get(count());
        let (spec, extras) = view
            .with(|v| plain.with(|p| curves.with(|cs| scene::wavelengths_spec(v, p, cs, at, t))));
        cursor.paint(surface, scene::wavelengths_height, &spec, &extras);
    });
    draw_effect_into(bottom_ref, stats, move |surface| {
        let t = theme.get();
        let at = cursor.get(count());
        let (factor, n) = (s.factor.get(), count());
        curves.with(|cs| {
            let (spec, extras) = scene::slowdown_spec(factor, n, cs, at, t);
            scale_cursor.paint(surface, scene::slowdown_height, &spec, &extras);
        });
    });
    let readout = move || {
        let Some(i) = cursor.get(count()) else {
            return "Point at a pair (or focus a plot and use the arrow keys) for its wavelengths."
                .to_string();
        };
        let before = plain.with(|p| p.get(i).map(|t| std::f64::consts::TAU / t));
        let Some(before) = before else {
            return String::new();
        };
        let (l0, factor) = (s.original.get(), s.factor.get());
        let mut parts = vec![format!(
            "pair {i}: wavelength {} positions ({} turns within L₀)",
            format_significant(before, 4),
            format_significant(l0 as f64 / before, 4)
        )];
        curves.with(|cs| {
            for c in cs {
                if let (Some(w), Some(k)) = (c.wavelength.get(i), c.scale.get(i)) {
                    parts.push(format!(
                        "{} {} (×{})",
                        method_name(c.rope_type),
                        format_significant(*w, 4),
                        claims::slowdown_text(*k, factor)
                    ));
                }
            }
        });
        parts.join(" · ")
    };
    let bands = move || view.with(|v| s.lists.with(|l| claims::bands_text(v, l.as_ref())));
    let toggles = move || {
        RopeType::ALL
            .into_iter()
            .filter(|&t| t != RopeType::Default)
            .map(|t| {
                let id = format!("ctl-c-cmp-{}", t.as_str());
                let chosen = move || s.rope_type.get() == t;
                let checked = move || chosen() || s.compare.with(|c| c.contains(&t));
                let on_change = move |_| {
                    s.compare.update(|c| {
                        if let Some(k) = c.iter().position(|&x| x == t) {
                            c.remove(k);
                        } else {
                            c.push(t);
                        }
                    })
                };
                let label_for = id.clone();
                view! {
                    <label class="check" for=label_for>
                        <input type="checkbox" id=id prop:checked=checked prop:disabled=chosen on:change=on_change />
                        {method_name(t)}
                    </label>
                }
            })
            .collect_view()
    };
    let describe = move || {
        format!(
            "Two line plots over the pairs: each pair's wavelength on a log scale for plain RoPE \
             and {} method(s), with the trained context L₀ and the target T drawn; and each \
             method's slow-down θ/θ′. {}",
            curves.with(Vec::len),
            bands()
        )
    };
    let describe_scale =
        move || "How much each method slows each pair, from 1 (untouched) to s.".to_string();
    figure! { "fig-ctx-wavelengths", move || {
            // The chosen method's own overlay box is disabled (it is always drawn).
            let chosen = s.rope_type.get();
            let boxes = RopeType::ALL
                .into_iter()
                .filter(|&t| t != RopeType::Default && t != chosen)
                .map(|t| format!(" ctl-c-cmp-{}", t.as_str()))
                .collect::<String>();
            format!("ctl-c-s ctl-c-L ctl-c-T ctl-c-d ctl-c-base ctl-c-bf ctl-c-bs ctl-c-trunc ctl-c-lo ctl-c-hi{boxes} c-type ctl-c-model")
        }, stats;
        <fieldset class="figure-tools checks">
            <legend>"overlay"</legend>
            {toggles}
        </fieldset>
        <InteractiveCanvas
            node_ref=top_ref
            label=describe
            pointer=cursor.pointer(top_ref, count, |x| x)
        />
        <InteractiveCanvas
            node_ref=bottom_ref
            readout=readout
            label=describe_scale
            pointer=scale_cursor.pointer(bottom_ref, count, |x| x)
        />
        <p class="readout">{near::text(bands)}</p>
        <figcaption>
            "Each pair's wavelength λ" <sub>"i"</sub> " = 2π/θ" <sub>"i"</sub>
            " is the number of positions it needs for one full turn. Pairs whose wavelength "
            "is longer than the trained context L₀ never completed a turn in training. "
            "Position interpolation (Chen et al. 2023) stretches every wavelength s times, "
            "the fast pairs' too: neighbouring tokens end up s times closer in angle on the "
            "pairs that tell nearby positions apart, which blurs local detail (YaRN §3.1) and "
            "is what NTK-aware scaling, NTK-by-parts and YaRN set out to avoid. Chen et al. "
            "show that the attention scores stay far better bounded after interpolation than "
            "after extrapolation (§2.3), yet the model still needs fine-tuning (about 1000 "
            "steps) to work at the new length. NTK-aware scaling slows pair i by "
            "s" <sup>"2i/(d−2)"</sup> ": only the slowest pair is slowed the full s, so at "
            "T = s·L₀ the other slow pairs still pass their trained arc. YaRN and Llama 3 "
            "decide per pair from how often it turns within L₀: at their usual settings they "
            "keep the fast pairs and stretch the slow ones, but at others they can divide or "
            "keep every pair, or invert the ramp; the readout above says what they do now. "
            "The lower plot shows each method's "
            "slow-down θ" <sub>"i"</sub> "/θ′" <sub>"i"</sub> ". Frequencies as Hugging Face "
            "transformers computes them (modeling_rope_utils), at the target length T; "
            "NTK-aware, which transformers has no fixed-factor type for, is bloc97's base "
            "change base·s" <sup>"d/(d−2)"</sup> "."
        </figcaption>
    }
}
