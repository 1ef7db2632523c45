//! A video as a 3D cloud: its tokens at (temporal patch, row, column), each coloured by the angle
//! a chosen rotary pair of the language model turns it by under M-RoPE; play shows the temporal
//! patches one after another ([`crate::scene::vision::video`]).

use leptos::html::Canvas;
use leptos::prelude::*;

use crate::app::backend;
use crate::app::canvas;
use crate::app::controls::{Choice, FloatSlider, IntSlider, split_pair};
use crate::app::figure::{DragCanvas, draw_effect};
use crate::app::figures::appearing::{Appearing, AppearingButtons};
use crate::app::figures::turning::turning;
use crate::app::frame::figure;
use crate::app::near;
use crate::app::state::vision::VisionState;
use crate::app::theme::chapter_context;
use crate::chart::cloud::{self, CloudLayout};
use crate::explain::video::{describe, finding, readout};
use crate::params::vision::{CLIP_SIDE, CLIP_TIME, PAIR, PITCH, STAMP, VlModel, YAW};
use crate::scene::vision::sections::{lm_rope, models};
use crate::scene::vision::video as scene;

/// Temporal patches that appear per second while playing.
const SPEED: f64 = 3.0;

/// The figure.
#[component]
pub fn VideoCloud() -> impl IntoView {
    let (s, theme) = chapter_context!(VisionState);
    let canvas_ref = NodeRef::<Canvas>::new();
    let hovered = RwSignal::new(None::<usize>);
    let layout = StoredValue::new(CloudLayout::default());
    let appearing = Appearing::new(s.clip_frames.into());
    let points = Memo::new(move |_| s.clip().with(scene::points));
    let stats = draw_effect(canvas_ref, move |surface| {
        let (t, view, model) = (theme.get(), s.clip_view.get(), s.lm.get());
        let last = appearing.last();
        s.clip().with(|clip| {
            points.with(|points| {
                if canvas::fit(surface, scene::cloud_height).is_none() {
                    return;
                }
                let Some(root) = backend::area(&surface.el) else {
                    return;
                };
                let m = lm_rope(model);
                let mut spec = scene::cloud_spec(m, clip, points, last + 1, view, None, t);
                // A hovered point is labelled while its temporal patch is shown.
                spec.selected = hovered.get().filter(|&n| n < spec.shown).map(|n| {
                    let (k, i, j) = clip.place(n);
                    (n, format!("patch {k}, row {i}, column {j}"))
                });
                if let Ok(l) = cloud::draw(&root, &spec) {
                    let _ = root.present();
                    layout.set_value(l);
                }
            });
        });
    });
    let (yaw, pitch) = split_pair(s.clip_view);
    let text = move || {
        s.clip().with(|clip| match hovered.get() {
            Some(n) if n < clip.ids.len() => readout(clip, n),
            _ => match appearing.last() {
                0 => "Showing temporal patch 0. Hover a point to read its ids and angle.".into(),
                last => format!(
                    "Showing temporal patches 0 … {last}. Hover a point to read its ids and \
                     angle."
                ),
            },
        })
    };
    let found = move || s.clip().with(|clip| finding(lm_rope(s.lm.get()), clip));
    let label = move || {
        let n = appearing.last() + 1;
        s.clip().with(|clip| describe(lm_rope(s.lm.get()), clip, n))
    };
    let qwen3 = move || s.lm.get() == VlModel::Qwen3;
    figure! { "fig-vision-video", "v-lm-video ctl-v-cf ctl-v-ch ctl-v-cw ctl-v-pair ctl-v-cyaw ctl-v-cpitch", stats;
        <div class="figure-tools">
            <Choice legend="model" name="v-lm-video" options=models() value=s.lm />
            <IntSlider label="rotary pair" id="ctl-v-pair" min=PAIR.0 max=PAIR.1 value=s.pair />
            <IntSlider label="temporal patches" id="ctl-v-cf" min=CLIP_TIME.0 max=CLIP_TIME.1 value=s.clip_frames />
            <IntSlider label="rows" id="ctl-v-ch" min=CLIP_SIDE.0 max=CLIP_SIDE.1 value=s.clip_rows />
            <IntSlider label="columns" id="ctl-v-cw" min=CLIP_SIDE.0 max=CLIP_SIDE.1 value=s.clip_cols />
            // Qwen3-VL's only (a browser test moves it there), as in fig-vision-ids.
            <Show when=qwen3>
                <IntSlider label="text before each temporal patch" id="ctl-v-cts" min=STAMP.0 max=STAMP.1 value=s.stamp />
            </Show>
        </div>
        <div class="figure-tools">
            <FloatSlider label="view: turn (degrees)" id="ctl-v-cyaw" min=YAW.0 max=YAW.1 step=1.0 value=yaw />
            <FloatSlider label="view: tilt (degrees)" id="ctl-v-cpitch" min=PITCH.0 max=PITCH.1 step=1.0 value=pitch />
        </div>
        <AppearingButtons appearing=appearing speed=SPEED near=stats.near unit="temporal patch"
            play="▶ Play over time" />
        <DragCanvas node_ref=canvas_ref label=label
            drag=turning(canvas_ref, s.clip_view, PITCH, layout, hovered)
            readout=text />
        <p class="finding">{near::text(found)}</p>
        <figcaption>
            "A short video at the very start of the sequence, as the model's processor writes "
            "it (Qwen3-VL: each temporal patch after its timestamp text; a real prompt's text "
            "before the video would shift every id and every angle), each of its tokens placed "
            "at its position ids (t, h, w), as the figure of position ids above computes them: "
            "Qwen2.5-VL's temporal patches stand tokens_per_second × 1 s (2) apart on t, "
            "Qwen3-VL's blocks march along all three ids together. Each point is coloured by "
            "the angle that the chosen rotary pair of the language model's heads turns the "
            "token's query and key by: the pair's frequency θ^(−2j/head_dim) (each model's own "
            "θ, head_dim 128) times the id that drives the pair under M-RoPE (the figure above "
            "lists which). A pair that follows t gives each temporal patch one colour, in both "
            "models. A pair that follows h or w changes colour along the rows or the columns, "
            "visibly only for Qwen3-VL's first pairs: Qwen2.5-VL gives its 16 fastest pairs to "
            "t, so its fastest h pair turns under 2° a row and its w pairs barely turn across "
            "the video. The colour wheel repeats every 2π, so two points of one colour may be "
            "whole turns apart. Angles are computed here in double precision from the formula; "
            "the model computes them in float32 and rounds their cosines and sines to the "
            "dtype of its activations (bfloat16 when it runs in bfloat16). Play shows the "
            "temporal patches one after another (with fewer of them, each block is drawn "
            "larger); drag or use the arrow keys to turn the view, and hover a point to read it."
        </figcaption>
    }
}
