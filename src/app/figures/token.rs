//! Adding PE to a token: one fixed word embedding placed at three positions. The differences
//! between the resulting vectors show where position lives: large in the low (fast) dimensions,
//! near zero in the high (slow) ones.

use leptos::html::Canvas;
use leptos::prelude::*;

use crate::app::figure::FigureLink;

use crate::app::figure::draw_effect;
use crate::app::plot::paint_lines;
use crate::app::state::{AppState, Notices};
use crate::app::theme::PageTheme;
use crate::math::sinusoidal::{Column, Layout, SinusoidalParams};
use crate::params::{MAX_COMPARE, parse_usize};
use crate::scene::sinusoids as scene;

/// Mean of |v| over the columns of each quarter of the frequency pairs, fastest first (pair `i`'s
/// columns, wherever the layout puts them, count for quarter `⌊4i/pairs⌋`; zero padding counts
/// for none) — or of each pair when there are fewer than four. The same for both layouts.
fn pair_groups(p: &SinusoidalParams, v: &[f64]) -> Vec<f64> {
    let pairs = p.pairs().max(1);
    let groups = pairs.min(4);
    let (mut sum, mut count) = (vec![0.0; groups], vec![0usize; groups]);
    for (c, x) in v.iter().enumerate() {
        if let Column::Sin(i) | Column::Cos(i) = p.column(c) {
            let g = (groups * i / pairs).min(groups - 1);
            sum[g] += x.abs();
            count[g] += 1;
        }
    }
    sum.iter()
        .zip(&count)
        .map(|(s, &n)| if n > 0 { s / n as f64 } else { 0.0 })
        .collect()
}

/// "quarter of the pairs" or "pair", as [`pair_groups`] groups them.
fn group_name(p: &SinusoidalParams) -> &'static str {
    if p.pairs() >= 4 {
        "quarter of the pairs"
    } else {
        "pair"
    }
}

/// The figure: three position boxes and the plot of differences over dimension.
#[component]
pub fn AddToToken() -> impl IntoView {
    let state = expect_context::<AppState>().sinusoidal;
    let notices = expect_context::<Notices>();
    let theme = expect_context::<PageTheme>().chart();
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

    view! {
        <figure
            class="figure"
            id="fig-token"
            data-controls="ctl-at-0 ctl-at-1 ctl-at-2 ctl-d ctl-base layout spacing"
            data-draw-ms=stats.ms_text()
            data-drawn-at=stats.at_text()
        >
            <FigureLink id="fig-token" />
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
            <div class="canvas-wrap">
                <canvas
                    node_ref=canvas_ref
                    role="img"
                    aria-label=move || {
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
                ></canvas>
            </div>
            <p class="finding" id="fig-token-summary">{summary}</p>
            <figcaption>
                {move || {
                    let [p0, _, p2] = at.get();
                    let p = params.get();
                    let q = diffs.with(|(_, d2)| pair_groups(&p, d2));
                    let (fast, slow) = (q.first().copied().unwrap_or(0.0), q.last().copied().unwrap_or(0.0));
                    let group = group_name(&p);
                    let moved = p2.abs_diff(p0);
                    let what = if moved == 0 {
                        "Put p₂ away from p₀ to move the word.".to_string()
                    } else if slow < fast / 4.0 {
                        format!(
                            "Moving the word by {moved} positions changes mostly the fast pairs: the slowest {group} moves {slow:.2} on average against {fast:.2} for the fastest. One reading — an interpretation, not something the encoding forces — is that a model can keep what a word means in those quiet dimensions."
                        )
                    } else {
                        format!(
                            "Moving the word by {moved} positions moves the slowest {group} by {slow:.2} on average against {fast:.2} for the fastest: over that distance even the slow pairs have turned a good way."
                        )
                    };
                    format!("The model sees word + position. {what}")
                }}
            </figcaption>
        </figure>
    }
}
