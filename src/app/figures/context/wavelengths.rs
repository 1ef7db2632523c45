//! Wavelength per pair, before and after scaling, on a log scale, with the trained context and
//! the chosen method's thresholds drawn; below it, how much each method slows each pair
//! (θ_i/θ′_i, from 1 = untouched to s = fully interpolated). Several methods can be overlaid.

use leptos::html::Canvas;
use leptos::prelude::*;

use super::method_name;
use crate::app::figure::{DrawStats, FigureLink, InteractiveCanvas, draw_effect_into};
use crate::app::figures::cursor::XCursor;
use crate::app::plot::paint_lines_with;
use crate::app::state::AppState;
use crate::app::theme::PageTheme;
use crate::math::rope_scaling::RopeType;
use crate::params::context::ContextView;
use crate::params::format_significant;
use crate::scene::context as scene;

/// The pairs where `flags` holds, as ranges: "0 … 20", "3, 5 … 9", or "none".
fn ranges(flags: impl Iterator<Item = bool>) -> String {
    let mut out: Vec<String> = Vec::new();
    let mut start = None;
    let mut last = 0;
    for (i, f) in flags.enumerate() {
        match (f, start) {
            (true, None) => start = Some(i),
            (false, Some(a)) => {
                out.push(span(a, i - 1));
                start = None;
            }
            _ => {}
        }
        last = i;
    }
    if let Some(a) = start {
        out.push(span(a, last));
    }
    if out.is_empty() {
        "none".into()
    } else {
        out.join(", ")
    }
}

fn span(a: usize, b: usize) -> String {
    if a == b {
        a.to_string()
    } else {
        format!("{a} … {b}")
    }
}

/// What YaRN does to these pairs, read off its computed slow-downs (so it holds for every
/// setting, inverted ramps and clamped ends included).
fn yarn_text(v: &ContextView) -> String {
    let c = v.scaling(RopeType::Yarn, v.target, None);
    let s = v.factor;
    if s <= 1.0 {
        return "With s = 1 YaRN changes no frequency.".into();
    }
    let scale = c.scale_per_pair();
    let kept = |k: f64| (k - 1.0).abs() < 1e-9;
    let divided = |k: f64| (k - s).abs() < 1e-9 * s;
    let first = |f: &dyn Fn(f64) -> bool| scale.iter().position(|&k| f(k));
    let inverted = matches!((first(&kept), first(&divided)), (Some(a), Some(b)) if b < a);
    let rounding = if v.truncate {
        "floored and ceiled to whole pairs (truncate)"
    } else {
        "not rounded (truncate = false)"
    };
    let mut text = format!(
        "YaRN keeps pairs {} as they are, divides pairs {} by s, and ramps pairs {} between.",
        ranges(scale.iter().map(|&k| kept(k))),
        ranges(scale.iter().map(|&k| divided(k))),
        ranges(scale.iter().map(|&k| !kept(k) && !divided(k))),
    );
    if inverted {
        text.push_str(
            " The ramp is inverted: with β_fast ≤ β_slow, or its ends clamped to the pairs there \
             are, transformers divides the fast end and keeps the slow one.",
        );
    } else {
        text.push_str(&format!(
            " The ramp's ends are the pairs that turn β_fast = {} and β_slow = {} times within \
             L₀, {rounding}, and clamped to the pairs there are.",
            format_significant(v.beta_fast, 3),
            format_significant(v.beta_slow, 3)
        ));
    }
    text
}

/// The figure.
#[component]
pub fn Wavelengths() -> impl IntoView {
    let s = expect_context::<AppState>().context;
    let theme = expect_context::<PageTheme>().chart();
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
        cursor.layout.set_value(paint_lines_with(
            surface,
            scene::wavelengths_height,
            &spec,
            &extras,
        ));
    });
    draw_effect_into(bottom_ref, stats, move |surface| {
        let t = theme.get();
        let at = cursor.get(count());
        let (factor, n) = (s.factor.get(), count());
        curves.with(|cs| {
            let (spec, extras) = scene::slowdown_spec(factor, n, cs, at, t);
            scale_cursor.layout.set_value(paint_lines_with(
                surface,
                scene::slowdown_height,
                &spec,
                &extras,
            ));
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
        let l0 = s.original.get();
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
                        format_significant(*k, 4)
                    ));
                }
            }
        });
        parts.join(" · ")
    };
    let bands = move || {
        let v = view.get();
        match v.rope_type {
            RopeType::Yarn => yarn_text(&v),
            RopeType::Llama3 if v.high_freq > v.low_freq => format!(
                "Llama 3 keeps pairs whose wavelength is shorter than L₀/high_freq_factor = {} \
                 positions, divides those longer than L₀/low_freq_factor = {} by s, and blends \
                 smoothly in between.",
                format_significant(v.original as f64 / v.high_freq, 4),
                format_significant(v.original as f64 / v.low_freq, 4)
            ),
            RopeType::Llama3 => format!(
                "With high_freq_factor ≤ low_freq_factor Llama 3 has no blend band: pairs whose \
                 wavelength is longer than L₀/low_freq_factor = {} positions are divided by s, \
                 the rest kept.",
                format_significant(v.original as f64 / v.low_freq, 4)
            ),
            RopeType::Linear => "Linear interpolation divides every frequency by s: every \
                                 wavelength grows s times, the fast pairs' too."
                .into(),
            RopeType::Ntk if v.dim > 2 => "NTK-aware scaling raises the base to base·s^(d/(d−2)): \
                              pair i is slowed s^(2i/(d−2)) times, so the fastest pair is \
                              untouched and the slowest slowed exactly s times."
                .into(),
            RopeType::Ntk | RopeType::Dynamic if v.dim <= 2 => "With a single pair (head_dim 2) \
                NTK-aware scaling changes nothing: θ₀ = base⁰ = 1 for every base."
                .into(),
            RopeType::Dynamic => "Dynamic NTK is NTK-aware scaling whose base grows with the \
                                  current length L (here the target T): base·(s·L/L₀ − (s − 1))\
                                  ^(d/(d−2)); at L ≤ L₀ nothing changes."
                .into(),
            RopeType::Longrope => {
                let source = s.lists.with(|l| match l {
                    Some((short, _)) if short.len() == v.dim / 2 => "the model's own lists",
                    _ => "synthetic lists: short all 1, long rising from 1 to s",
                });
                format!(
                    "LongRoPE divides each pair's frequency by its own factor from a list \
                     (long_factor when the sequence is longer than L₀, else short_factor; here \
                     {source})."
                )
            }
            RopeType::Ntk | RopeType::Default => "Plain RoPE: nothing is rescaled.".into(),
        }
    };
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
    view! {
        <figure
            class="figure"
            id="fig-ctx-wavelengths"
            data-controls=move || {
                // The chosen method's own overlay box is disabled (it is always drawn).
                let chosen = s.rope_type.get();
                let boxes = RopeType::ALL
                    .into_iter()
                    .filter(|&t| t != RopeType::Default && t != chosen)
                    .map(|t| format!(" ctl-c-cmp-{}", t.as_str()))
                    .collect::<String>();
                format!("ctl-c-s ctl-c-L ctl-c-T ctl-c-d ctl-c-base ctl-c-bf ctl-c-bs ctl-c-trunc ctl-c-lo ctl-c-hi{boxes} c-type ctl-c-model")
            }
            data-draw-ms=stats.ms_text()
            data-drawn-at=stats.at_text()
        >
            <FigureLink id="fig-ctx-wavelengths" />
            <fieldset class="figure-tools checks">
                <legend>"overlay"</legend>
                {toggles}
            </fieldset>
            <InteractiveCanvas
                node_ref=top_ref
                readout_id="fig-ctx-wavelengths-readout"
                label=describe
                on_move=cursor.on_move(top_ref, count, |x| x)
                on_leave=move || {}
                on_key=cursor.on_key(count)
            />
            <InteractiveCanvas
                node_ref=bottom_ref
                readout_id="fig-ctx-wavelengths-readout"
                label=describe_scale
                on_move=scale_cursor.on_move(bottom_ref, count, |x| x)
                on_leave=move || {}
                on_key=scale_cursor.on_key(count)
            />
            <p class="readout" id="fig-ctx-wavelengths-readout" aria-live="polite">{readout}</p>
            <p class="readout">{bands}</p>
            <figcaption>
                "Each pair's wavelength λ" <sub>"i"</sub> " = 2π/θ" <sub>"i"</sub>
                " is the number of positions it needs for one full turn. Pairs whose wavelength "
                "is longer than the trained context L₀ never completed a turn in training. "
                "Position interpolation stretches every wavelength s times; NTK-aware scaling "
                "slows every pair but the first, more toward the slow end; YaRN and Llama 3 (with "
                "β_fast > β_slow, high_freq_factor > low_freq_factor) leave the fast pairs (short "
                "wavelengths, which saw every angle many times) alone and stretch the slow ones. "
                "The lower plot shows each method's "
                "slow-down θ" <sub>"i"</sub> "/θ′" <sub>"i"</sub> ". Frequencies as Hugging Face "
                "transformers computes them (modeling_rope_utils), at the target length T; "
                "NTK-aware, which transformers has no fixed-factor type for, is bloc97's base "
                "change base·s" <sup>"d/(d−2)"</sup> "."
            </figcaption>
        </figure>
    }
}
