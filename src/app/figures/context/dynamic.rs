//! Dynamic NTK: the base follows the current sequence length. Below the trained context it is
//! the model's own; beyond it grows as `base·(s·L/L₀ − (s − 1))^(d/(d−2))` (transformers
//! `_compute_dynamic_ntk_parameters`), so the slowest pair's wavelength grows with it.

use leptos::html::Canvas;
use leptos::prelude::*;

use crate::app::near;

use super::length_text;
use crate::app::controls::IntSlider;
use crate::app::figure::{InteractiveCanvas, draw_effect};
use crate::app::figures::cursor::XCursor;
use crate::app::frame::figure;
use crate::app::state::context::ContextState;
use crate::app::theme::chapter_context;
use crate::explain::context as claims;
use crate::math::rope;
use crate::params::context::LENGTH;
use crate::params::format_significant;
use crate::scene::context::{self as scene, DYNAMIC_POINTS as POINTS, length_at};

/// The figure.
#[component]
pub fn DynamicNtk() -> impl IntoView {
    let (s, theme) = chapter_context!(ContextState);
    // The axis runs to twice the larger of the target and the current length.
    let end = move || s.view().with(scene::dynamic_end);
    let cursor = XCursor::new();
    let count = || POINTS;
    let canvas_ref = NodeRef::<Canvas>::new();
    let stats = draw_effect(canvas_ref, move |surface| {
        let t = theme.get();
        let e = end();
        let at = cursor.get(POINTS).map_or(s.len.get(), |k| length_at(k, e));
        let (spec, extras) = s.view().with(|v| scene::dynamic_spec(v, at, t));
        cursor.paint(surface, scene::dynamic_height, &spec, &extras);
    });
    let index = move |x: f64| {
        let (lo, hi) = ((LENGTH.0 as f64).log10(), (end() as f64).log10());
        (x - lo) / (hi - lo).max(1e-9) * (POINTS - 1) as f64
    };
    let numbers = move |len: usize| {
        let b = s.view().with(|v| scene::dynamic_base_at(v, len));
        let slowest = rope::inv_freq(s.dim.get(), b)
            .last()
            .map_or(f64::INFINITY, |t| std::f64::consts::TAU / t);
        let slowed = s.view().with(|v| claims::dynamic_slowest(v, len));
        format!(
            "at L = {}: base {}{} · slowest pair's wavelength {} positions, slowed {}×",
            length_text(len),
            claims::sig(b),
            claims::dynamic_d2_note(s.dim.get()),
            format_significant(slowest, 4),
            claims::sig(slowed)
        )
    };
    let readout = move || match cursor.get(POINTS) {
        Some(k) => numbers(length_at(k, end())),
        None => numbers(s.len.get()),
    };
    let describe = move || {
        format!(
            "A curve of dynamic NTK's base over the current length on log axes: {}. {}",
            s.view()
                .with(|v| claims::dynamic_curve_text(v, scene::dynamic_end(v))),
            numbers(s.len.get())
        )
    };
    figure! { "fig-ctx-dynamic", "ctl-c-len ctl-c-s ctl-c-L ctl-c-T ctl-c-d ctl-c-base", stats;
        <div class="figure-tools">
            <IntSlider label="current length L" id="ctl-c-len" min=LENGTH.0 max=Signal::derive(move || (2 * s.target.get()).clamp(LENGTH.0, LENGTH.1)) value=s.len step=16 />
        </div>
        <InteractiveCanvas node_ref=canvas_ref readout=readout label=describe
            pointer=cursor.pointer(canvas_ref, count, index) />
        <figcaption>
            "Dynamic NTK (transformers' \"dynamic\") computes the base for a length "
            "L = max(current length, L₀): base·(s·L/L₀ − (s − 1))" <sup>"d/(d−2)"</sup>
            ", which the curve draws; past L₀ the base, and with it every wavelength but the "
            "first pair's, grows with L. "
            {near::text(move || s.view().with(claims::dynamic_factor_note))}
            "At run time transformers 5.24 "
            "(dynamic_frequency_update) does not follow every length: it recomputes the "
            "frequencies only when a sequence is longer than the longest so far, and goes back "
            "to the trained ones only when a sequence shorter than L₀ comes after a longer "
            "one. "
            {near::text(move || {
                s.view()
                    .with(|v| claims::dynamic_runtime(v).map(|r| format!("{r} ")))
                    .unwrap_or_default()
            })}
            "And a token's rotation depends on the length of the whole sequence, so keys "
            "cached after rotation (as Hugging Face's cache holds them) were turned with the "
            "frequencies of a shorter length than the current one."
        </figcaption>
    }
}
