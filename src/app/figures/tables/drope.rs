//! DroPE (Gelberg et al. 2025): drop the rotation after training. A toy of what that changes: the
//! softmax weight of a key equal to the query, placed farther and farther back among seeded
//! distractors, under plain RoPE, YaRN and no rotation ([`crate::math::drope`]).

use leptos::html::Canvas;
use leptos::prelude::*;

use crate::app::near;

use super::SeedField;
use crate::app::controls::{IntSlider, LengthSlider, LogSlider};
use crate::app::figure::{InteractiveCanvas, draw_effect};
use crate::app::figures::cursor::XCursor;
use crate::app::frame::figure;
use crate::app::state::tables::TablesState;
use crate::app::theme::chapter_context;
use crate::chart::lines::nearest;
use crate::explain::tables::{DropeFinding, weight_text};
use crate::math::limits::BASE;
use crate::params::format_significant;
use crate::params::tables::{DROPE_DIM, DROPE_DISTRACTORS, DROPE_FACTOR, DROPE_TRAINED};
use crate::scene::tables as scene;

/// The figure.
#[component]
pub fn DroppedRotation() -> impl IntoView {
    let (s, theme) = chapter_context!(TablesState);
    let curves = s.drope();
    let cursor = XCursor::new();
    let count = move || curves.with_untracked(|c| c.distance.len());
    let canvas_ref = NodeRef::<Canvas>::new();
    let stats = draw_effect(canvas_ref, move |surface| {
        let (n, lengths, t) = (
            s.drope_distractors.get(),
            (s.drope_trained.get(), s.drope_factor.get()),
            theme.get(),
        );
        curves.with(|c| {
            let at = cursor.get(c.distance.len());
            let (spec, extras) = scene::drope_spec(c, n, lengths, at, t);
            cursor.paint(surface, scene::drope_height, &spec, &extras);
        });
    });
    let readout = move || {
        curves.with(|c| {
            let Some(k) = cursor.get(c.distance.len()) else {
                return "Hover the plot (or focus it and use the arrow keys) to read one \
                        distance."
                    .to_string();
            };
            let (t, trained) = (c.distance[k], s.drope_trained.get());
            format!(
                "Matching key at distance {t} ({} L₀ = {trained}): weight {} under RoPE, {} \
                 under YaRN, {} with no rotation.",
                if t >= trained { "at or past" } else { "below" },
                weight_text(c.rope[k]),
                weight_text(c.yarn[k]),
                weight_text(c.none[k]),
            )
        })
    };
    let finding = move || {
        let (n, trained, factor) = (
            s.drope_distractors.get(),
            s.drope_trained.get(),
            s.drope_factor.get(),
        );
        curves.with(|c| DropeFinding::new(c, n, trained, factor).to_string())
    };
    let describe = move || {
        let (n, trained, factor) = (
            s.drope_distractors.get(),
            s.drope_trained.get(),
            s.drope_factor.get(),
        );
        let (top, lines) = curves.with(|c| {
            let top = scene::weight_axis_top(c);
            let lines: Vec<String> = scene::drope_reference_lines(n, top)
                .into_iter()
                .map(|(_, label)| label)
                .collect();
            (top, lines)
        });
        let dashed = match lines.as_slice() {
            [] => String::new(),
            [one] => format!(", a dashed line at {one}"),
            many => format!(", dashed lines at {}", many.join(" and ")),
        };
        format!(
            "The matching key's softmax weight, on an axis from 0 to {}, against its distance on \
             a logarithmic axis from {} to T = {}, with the distances from L₀ = {trained} on \
             shaded{dashed}: under RoPE and YaRN (a line where every distance is sampled, dots \
             beyond) and with no rotation, a flat line. {}",
            format_significant(top, 3),
            n + 1,
            trained * factor,
            finding()
        )
    };
    let index = move |x: f64| {
        curves.with_untracked(|c| nearest(&c.distance, 10f64.powf(x), |d| d as f64) as f64)
    };
    figure! { "fig-tab-drope", "ctl-t-dd ctl-t-db ctl-t-dL ctl-t-ds ctl-t-dn ctl-t-dseed", stats;
        <div class="figure-tools">
            <IntSlider label="head_dim d" id="ctl-t-dd" min=DROPE_DIM.0 max=DROPE_DIM.1 step=2 value=s.drope_dim />
            <LogSlider label="base" id="ctl-t-db" min=BASE.0 max=BASE.1 value=s.drope_base />
            <LengthSlider label="trained length L₀" id="ctl-t-dL" range=DROPE_TRAINED value=s.drope_trained />
            <IntSlider label="target T = s × L₀, s" id="ctl-t-ds" min=DROPE_FACTOR.0 max=DROPE_FACTOR.1 value=s.drope_factor />
            <IntSlider label="distractor keys N" id="ctl-t-dn" min=DROPE_DISTRACTORS.0 max=DROPE_DISTRACTORS.1 value=s.drope_distractors />
            <SeedField id="ctl-t-dseed" seed=s.drope_seed />
        </div>
        <InteractiveCanvas node_ref=canvas_ref readout=readout label=describe
            pointer=cursor.pointer(canvas_ref, count, index).clearing(cursor.at) />
        <p class="finding">{near::text(finding)}</p>
        <figcaption>
            "A toy, not the paper's experiment. One query q of d standard-normal entries; a "
            "key equal to q, t positions before it; N distractor keys, also standard normal, "
            "at distances 1 … N. The plot gives the matching key's share of the softmax "
            "over the N + 1 keys, for t from N + 1 to T, at every distance when there are "
            "fewer than 2048, else at up to 2048 spread about evenly on the logarithmic "
            "axis, one step per doubling: a line while the step is one, then dots, since "
            "between samples the weight moves faster than they could show. The same N + 1 "
            "keys compete at every distance; in a text a farther key competes with more of "
            "them, which thins its weight even without rotation (the paper offsets that "
            "with a softmax scale fitted at the target length, below). RoPE uses the rotate_half pairs with θ" <sub>"i"</sub> " = base"
            <sup>"−2i/d"</sup> "; YaRN uses factor s = T/L₀ with β_fast 32 and β_slow 1 and "
            "its attention factor 0.1 ln s + 1 on q and k (transformers' "
            "_compute_yarn_parameters); no rotation is what DroPE's code puts in every layer "
            "(SakanaAI/DroPE, custom_models/attention.py: cos = 1, sin = 0). With random "
            "vectors, RoPE spreads q·k over the pairs' angles, so the match can fade well "
            "inside L₀ (the finding above says where, for this setting); a trained model's "
            "queries and keys are not random, and this toy does not say how far a real "
            "model's match carries."
        </figcaption>
    }
}
