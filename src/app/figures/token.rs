//! Adding PE to a token: one fixed word embedding placed at three positions. The differences
//! between the resulting vectors show where position lives: large in the low (fast) dimensions,
//! near zero in the high (slow) ones.

use leptos::html::Canvas;
use leptos::prelude::*;

use crate::app::figure::FigureLink;
use plotters::prelude::*;

use crate::app::figure::draw_effect;
use crate::app::plot::paint_lines;
use crate::app::state::{AppState, Notices};
use crate::app::theme::PageTheme;
use crate::chart::lines::{self, LinePlotSpec, Series};
use crate::math::attention::token_embedding;
use crate::params::{MAX_COMPARE, parse_usize};

fn figure_height(width: f64) -> f64 {
    (width * 0.42).clamp(240.0, 360.0)
}

/// The word whose embedding is moved around (any fixed vector would do).
const WORD: &str = "dog";

/// Mean of |v| over the first and the second half of the dimensions.
fn halves(v: &[f64]) -> (f64, f64) {
    let h = v.len() / 2;
    let mean = |s: &[f64]| s.iter().map(|x| x.abs()).sum::<f64>() / s.len().max(1) as f64;
    (mean(&v[..h]), mean(&v[h..]))
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
    let diffs = Memo::new(move |_| {
        let p = params.get();
        let [p0, p1, p2] = at.get();
        let base = p.row(p0);
        let diff =
            |q: usize| -> Vec<f64> { p.row(q).iter().zip(&base).map(|(a, b)| a - b).collect() };
        (diff(p1), diff(p2))
    });

    let canvas_ref = NodeRef::<Canvas>::new();
    let stats = draw_effect(canvas_ref, move |canvas| {
        let p = params.get();
        let [p0, p1, p2] = at.get();
        let line = |v: &[f64]| -> Vec<(f64, f64)> {
            v.iter().enumerate().map(|(i, &y)| (i as f64, y)).collect()
        };
        let word = token_embedding(WORD, p.dim);
        let (d1, d2) = diffs.get();
        let spec = LinePlotSpec {
            title: "Where position lives: x(p) − x(p₀) over dimensions",
            x_desc: "dimension i",
            y_desc: "difference",
            x_range: 0.0..(p.dim - 1).max(1) as f64,
            y_range: -2.1..2.1,
            series: vec![
                Series {
                    label: format!("x({p1}) − x({p0})"),
                    color: lines::series_color(0),
                    points: line(&d1),
                    dots: false,
                    line: true,
                },
                Series {
                    label: format!("x({p2}) − x({p0})"),
                    color: lines::series_color(1),
                    points: line(&d2),
                    dots: false,
                    line: true,
                },
                Series {
                    label: format!("the word “{WORD}” itself"),
                    color: RGBColor(0x99, 0x99, 0x99),
                    points: line(&word),
                    dots: false,
                    line: true,
                },
            ],
            marker: None,
            theme: theme.get(),
        };
        paint_lines(canvas, figure_height, &spec);
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
        let ((l1, h1), (l2, h2)) = (halves(&d1), halves(&d2));
        format!(
            "Mean |difference| in the low half of the dimensions vs the high half: \
             {l1:.3} vs {h1:.3} for positions {p1} and {p0}; {l2:.3} vs {h2:.3} for {p2} and {p0}."
        )
    };

    view! {
        <figure
            class="figure"
            id="fig-token"
            data-controls="ctl-at-0 ctl-at-1 ctl-at-2 ctl-d ctl-base"
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
                             position {p0}, over the dimensions: large on the left, near zero on \
                             the right. {}",
                            summary()
                        )
                    }
                ></canvas>
            </div>
            <p class="finding" id="fig-token-summary">{summary}</p>
            <figcaption>
                "The model sees word + position. Moving a word changes mostly the fast, "
                "low dimensions; the slow, high dimensions barely move over a few hundred "
                "positions, so they are left to carry what the word means."
            </figcaption>
        </figure>
    }
}
