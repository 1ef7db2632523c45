//! ALiBi's head slopes (Press, Smith & Lewis 2022, §3): a geometric sequence `2^(−8h/H)` for a
//! power-of-two head count `H`; otherwise, as the authors' code (and BLOOM, MPT) does it, the
//! slopes of the power of two below, then every other slope of the power of two above. One dot per head on a log scale, with the neighbouring
//! powers of two drawn beside a head count that is not one; a slider overrides one head's slope.

use leptos::html::{Canvas, Input};
use leptos::prelude::*;

use crate::app::near;

use crate::app::controls::{IntSlider, show_value};
use crate::app::figure::{InteractiveCanvas, draw_effect};
use crate::app::figures::cursor::XCursor;
use crate::app::frame::figure;
use crate::app::state::Notices;
use crate::app::state::tables::TablesState;
use crate::app::theme::chapter_context;
use crate::explain::tables::{SlopeReadout, SlopesFinding};
use crate::params::tables::{HEADS, SLOPE};
use crate::params::{format_number, parse_f64};
use crate::scene::tables::{self as scene, power_below, slope_text};

/// How the slopes of `heads` heads fall, in words (for text alternatives).
pub fn shape(heads: usize) -> String {
    let p = power_below(heads);
    if heads == 1 {
        "a single dot".to_string()
    } else if p == heads {
        "falling steadily from head 1 to the last".to_string()
    } else {
        format!(
            "falling from head 1 to head {p}, then again from a steeper start at head {}",
            p + 1
        )
    }
}

/// The figure.
#[component]
pub fn AlibiSlopes() -> impl IntoView {
    let (s, theme) = chapter_context!(TablesState);
    let (slopes, defaults, head) = (s.slopes(), s.default_slopes(), s.head());
    let cursor = XCursor::new();
    let count = move || s.heads.get_untracked();
    let canvas_ref = NodeRef::<Canvas>::new();
    let stats = draw_effect(canvas_ref, move |surface| {
        let (h_count, chosen, t) = (s.heads.get(), head.get(), theme.get());
        let at = cursor.get(h_count).map(|k| k + 1).unwrap_or(chosen);
        let overridden = s.slope.get().is_some();
        let (spec, extras) = slopes.with(|m| scene::slopes_spec(m, chosen, overridden, at, t));
        cursor.paint(surface, scene::slopes_height, &spec, &extras);
    });
    let readout = move || {
        let heads = s.heads.get();
        let h = cursor.get(heads).map_or(head.get(), |k| k + 1);
        SlopeReadout {
            head: h,
            heads,
            slope: slopes.with(|v| v[h - 1]),
            default: defaults.with(|v| v[h - 1]),
        }
        .to_string()
    };
    let finding = move || {
        SlopesFinding {
            heads: s.heads.get(),
            overridden: s.slope.get().map(|_| head.get()),
        }
        .to_string()
    };
    let describe = move || {
        format!(
            "Dots for the slopes of {} ALiBi heads on a logarithmic axis, {}. {}",
            s.heads.get(),
            shape(s.heads.get()),
            readout()
        )
    };
    figure! { "fig-tab-slopes", "ctl-t-h ctl-t-head ctl-t-m", stats, [
        data-slopes=move || slopes.with(|m| m.iter().map(|v| v.to_string()).collect::<Vec<_>>().join(","))
    ];
        <div class="figure-tools">
            <IntSlider label="heads H" id="ctl-t-h" min=HEADS.0 max=HEADS.1 value=s.heads />
            <HeadPicker />
            <SlopeSlider />
        </div>
        <InteractiveCanvas node_ref=canvas_ref readout=readout label=describe
            pointer=cursor.pointer(canvas_ref, count, |x| x - 1.0).clearing(cursor.at) />
        <p class="finding">{near::text(finding)}</p>
        <figcaption>
            "ALiBi adds no position vector anywhere. Each head subtracts m·|i − j| from the "
            "score of query i and key j, with its own slope m. Large slopes make a head look "
            "only at its neighbours; small ones let it see far. Press, Smith and Lewis "
            "(2022, §3) fix the slopes instead of learning them (trainable slopes did not "
            "yield strong extrapolation in their experiments). Why a geometric sequence? "
            "In their exploration the slope sets that worked best had slopes in (0, 1), "
            "denser towards 0; a geometric sequence is exactly that, and it gives each head "
            "a range (ln 2 / m) a constant factor longer than the previous head's. The "
            "slopes are those of the authors' code and of Hugging Face transformers' BLOOM "
            "code (bloom._get_alibi_slopes in transformers 5)."
        </figcaption>
    }
}

/// Which head the slope slider (and the bias figure) shows; a new head drops the override.
#[component]
pub fn HeadPicker() -> impl IntoView {
    let s = expect_context::<TablesState>();
    let head = s.head();
    let chosen = RwSignal::new(head.get_untracked());
    Effect::new(move |_| {
        let h = head.get();
        if chosen.get_untracked() != h {
            chosen.set(h);
        }
    });
    Effect::new(move |first: Option<()>| {
        let h = chosen.get();
        if first.is_some() && s.head.get_untracked() != h {
            s.slope.set(None);
            s.head.set(h);
        }
    });
    view! {
        <IntSlider label="head" id="ctl-t-head" min=1usize max=s.heads value=chosen />
    }
}

/// The chosen head's slope on a log₂ slider (2⁻¹⁶ … 4), with a number box and a reset to the
/// default slope (the authors' code's).
#[component]
pub fn SlopeSlider() -> impl IntoView {
    let s = expect_context::<TablesState>();
    let notices = expect_context::<Notices>();
    let (slopes, head) = (s.slopes(), s.head());
    let current = move || slopes.with(|m| m.get(head.get() - 1).copied().unwrap_or(1.0));
    let (range, number) = (NodeRef::<Input>::new(), NodeRef::<Input>::new());
    show_value(range, move || current().log2().to_string());
    show_value(number, move || format_number(current()));
    let on_range = move |ev| {
        if let Ok(e) = event_target_value(&ev).parse::<f64>() {
            let m = crate::params::round_significant(2f64.powf(e), 4).clamp(SLOPE.0, SLOPE.1);
            s.slope.set(Some(m));
        }
    };
    let on_number = move |ev: leptos::ev::Event| {
        let (m, notice) = parse_f64("slope", &event_target_value(&ev), SLOPE, current());
        if let Some(n) = notice {
            notices.push(n);
        }
        s.slope.set(Some(m));
    };
    view! {
        <div class="control">
            <label for="ctl-t-m">{move || format!("slope of head {}", head.get())}</label>
            <input
                node_ref=range
                type="range"
                id="ctl-t-m"
                min=SLOPE.0.log2().to_string()
                max=SLOPE.1.log2().to_string()
                step="0.01"
                aria-valuetext=move || slope_text(current())
                on:input=on_range
            />
            <input
                node_ref=number
                type="number"
                class="exact"
                id="ctl-t-m-value"
                aria-label="slope, exact value"
                min=SLOPE.0.to_string()
                max=SLOPE.1.to_string()
                step="any"
                on:change=on_number
            />
            <button
                type="button"
                class="button small"
                id="ctl-t-m-reset"
                disabled=move || s.slope.get().is_none()
                title="the slope the authors' code (and BLOOM) gives this head"
                on:click=move |_| s.slope.set(None)
            >
                "Default slope"
            </button>
        </div>
    }
}
