//! Adding PE to a token: one fixed word embedding placed at three positions. The differences
//! between the resulting vectors show where position lives: large in the low (fast) dimensions,
//! near zero in the high (slow) ones.

use leptos::html::Canvas;
use leptos::prelude::*;

use crate::app::near;

use crate::app::figure::{StillCanvas, draw_effect};
use crate::app::frame::figure;
use crate::app::plot::paint_lines;
use crate::app::state::{AppState, Notices};
use crate::app::theme::chapter_context;
use crate::explain::sinusoids::{group_name, pair_groups};
use crate::math::sinusoidal::Layout;
use crate::params::{MAX_COMPARE, parse_usize};
use crate::scene::sinusoids as scene;

/// The figure: three position boxes and the plot of differences over dimension.
#[component]
pub fn AddToToken() -> impl IntoView {
    let (state, theme) = chapter_context!(AppState.sinusoidal);
    let notices = expect_context::<Notices>();
    let params = state.params();
    let at = state.compare;
    // x(p) − x(p₀) = PE(p) − PE(p₀): the word's embedding cancels.
    let diffs = Memo::new(move |_| scene::token_differences(&params.get(), at.get()));

    let canvas_ref = NodeRef::<Canvas>::new();
    let stats = draw_effect(canvas_ref, move |canvas| {
        let spec = diffs.with(|d| scene::token_spec(&params.get(), at.get(), d, theme.get()));
        paint_lines(canvas, scene::token_height, &spec);
    });

    let set_slot = move |slot: usize, ev: leptos::ev::Event| {
        let text = event_target_value(&ev);
        let current = at.get_untracked();
        let (v, notice) = parse_usize("position", &text, (0, MAX_COMPARE), current[slot]);
        if let Some(n) = notice {
            notices.push(n);
        }
        let mut next = current;
        next[slot] = v;
        at.set(next);
        event_target::<web_sys::HtmlInputElement>(&ev).set_value(&v.to_string());
    };
    let summary = move || {
        let (d1, d2) = diffs.get();
        let [p0, p1, p2] = at.get();
        let p = params.get();
        let show = |q: Vec<f64>| {
            q.iter()
                .map(|x| format!("{x:.2}"))
                .collect::<Vec<_>>()
                .join(" · ")
        };
        format!(
            "Mean |difference| by {}, fastest → slowest: {} for \
             positions {p1} and {p0}; {} for {p2} and {p0}.",
            group_name(&p),
            show(pair_groups(&p, &d1)),
            show(pair_groups(&p, &d2))
        )
    };

    figure! { "fig-token", "ctl-at-0 ctl-at-1 ctl-at-2 ctl-d ctl-base layout spacing", stats;
        <div class="figure-tools">
            {["reference p₀", "p₁", "p₂"]
                .into_iter()
                .enumerate()
                .map(|(slot, label)| {
                    let id = format!("ctl-at-{slot}");
                    view! {
                        <label for=id.clone()>{label}</label>
                        <input
                            type="number"
                            class="exact"
                            id=id
                            min="0"
                            max=MAX_COMPARE.to_string()
                            prop:value=move || at.get()[slot].to_string()
                            on:change=move |ev| set_slot(slot, ev)
                        />
                    }
                })
                .collect_view()}
        </div>
        <StillCanvas
            node_ref=canvas_ref
            label=move || {
                let [p0, p1, p2] = at.get();
                format!(
                    "Differences between the word placed at positions {p1} and {p2} and at \
                     position {p0}, over the columns (fast pairs {}). {}",
                    match params.get().layout {
                        Layout::Interleaved => "on the left",
                        Layout::Half => "at the start of each half",
                    },
                    summary()
                )
            }
        />
        <p class="finding" id="fig-token-summary">{near::text(summary)}</p>
        <figcaption>
            {near::text(move || {
                let [p0, _, p2] = at.get();
                let p = params.get();
                let q = diffs.with(|(_, d2)| pair_groups(&p, d2));
                let what = crate::explain::sinusoids::WordMove::from_groups(
                    p2.abs_diff(p0),
                    &q,
                    group_name(&p),
                );
                format!("The model sees word + position. {what}")
            })}
        </figcaption>
    }
}
