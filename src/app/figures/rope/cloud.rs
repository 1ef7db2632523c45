//! The token cloud: chapter 1's sentence repeated over many positions, each token's vector seen
//! in 3D through PCA — without positions (every copy of a word is one point), with the
//! sinusoidal encoding added, or turned by RoPE. Play makes the points appear position by
//! position; drag (or the view sliders, or the arrow keys) turns the view.

use leptos::html::Canvas;
use leptos::prelude::*;

use crate::app::backend;
use crate::app::canvas;
use crate::app::controls::{Choice, FloatSlider, IntSlider, split_pair};
use crate::app::figure::{DragCanvas, draw_effect};
use crate::app::figures::appearing::{Appearing, AppearingButtons};
use crate::app::figures::turning::turning;
use crate::app::frame::figure;
use crate::app::state::AppState;
use crate::app::state::rope::RopeState;
use crate::app::theme::chapter_context;
use crate::chart::cloud::{self, CloudLayout};
use crate::math::attention::tokenize;
use crate::math::cloud::{CloudMode, cloud};
use crate::params::rope::{CLOUD_POSITIONS, PITCH, YAW};
use crate::scene::rope as scene;

/// Positions that appear per second while playing.
const SPEED: f64 = 12.0;

/// The figure.
#[component]
pub fn TokenCloud() -> impl IntoView {
    let state = expect_context::<AppState>();
    let (s, theme) = chapter_context!(RopeState);
    let tokens = Memo::new(move |_| tokenize(&state.order.sentence.get()));
    let data =
        Memo::new(move |_| tokens.with(|t| cloud(t, s.cloud_positions.get(), s.cloud.get())));
    let appearing = Appearing::new(s.cloud_positions.into());
    let hovered = RwSignal::new(None::<usize>);
    let layout = StoredValue::new(CloudLayout::default());
    let canvas_ref = NodeRef::<Canvas>::new();
    let stats = draw_effect(canvas_ref, move |surface| {
        let t = theme.get();
        let view = s.view.get();
        let last = appearing.last();
        let mode = s.cloud.get();
        data.with(|c| {
            let selected = hovered
                .get()
                .filter(|&k| k <= last)
                .and_then(|k| c.tokens.get(k).map(|w| (k, format!("“{w}” at {k}"))));
            if canvas::fit(surface, scene::cloud_height).is_none() {
                return;
            }
            let Some(root) = backend::area(&surface.el) else {
                return;
            };
            let spec = scene::cloud_spec(mode, &c.points, last + 1, view, selected, t);
            if let Ok(l) = cloud::draw(&root, &spec) {
                let _ = root.present();
                layout.set_value(l);
            }
        });
    });
    let (yaw, pitch) = split_pair(s.view);
    let readout = move || {
        let c = data.get();
        let [a, b, d] = c.explained;
        let shares = if c.spread > 0.0 {
            format!(
                "PC1–3 explain {:.0} %, {:.0} % and {:.0} % of the variance",
                a * 100.0,
                b * 100.0,
                d * 100.0
            )
        } else {
            "all points coincide: no variance to explain".to_string()
        };
        match hovered.get().and_then(|k| c.points.get(k).map(|p| (k, p))) {
            Some((k, p)) => format!(
                "position {k} · “{}” · PC coordinates ({:.3}, {:.3}, {:.3}) · {shares}",
                c.tokens[k], p[0], p[1], p[2]
            ),
            None => format!("Showing positions 0 … {} · {shares}", appearing.last()),
        }
    };
    let distinct = move || {
        let c = data.get();
        let mut pts: Vec<[u64; 3]> = c.points.iter().map(|p| p.map(f64::to_bits)).collect();
        pts.sort_unstable();
        pts.dedup();
        pts.len()
    };
    let describe = move || {
        let n = s.cloud_positions.get();
        match s.cloud.get() {
            CloudMode::Plain => {
                let d = distinct();
                if d < n {
                    format!(
                        "{n} positions of the sentence, but only {d} distinct points: without positions every copy of a word is the same vector."
                    )
                } else {
                    format!(
                        "{n} points, all distinct here: no word repeats within these positions."
                    )
                }
            }
            CloudMode::Sinusoidal => format!(
                "{n} points, one per position: adding the sinusoidal encoding moves every copy of a word to its own place."
            ),
            CloudMode::Rope => format!(
                "{n} points, one per position: RoPE turns each word's vector by its position, so the copies of a word lie at the same distance from the origin in the full space but point in different directions."
            ),
        }
    };

    figure! { "fig-rope-cloud", "r-cloud ctl-r-cn ctl-r-yaw ctl-r-pitch", stats, [
        data-distinct=move || distinct().to_string()
    ];
        <div class="figure-tools">
            <Choice
                legend="vectors"
                name="r-cloud"
                options=vec![(CloudMode::Plain, "no positions"), (CloudMode::Sinusoidal, "+ sinusoidal"), (CloudMode::Rope, "RoPE")]
                value=s.cloud
            />
            <IntSlider label="positions" id="ctl-r-cn" min=CLOUD_POSITIONS.0 max=CLOUD_POSITIONS.1 value=s.cloud_positions />
        </div>
        <div class="figure-tools">
            <FloatSlider label="view: turn (degrees)" id="ctl-r-yaw" min=YAW.0 max=YAW.1 step=1.0 value=yaw />
            <FloatSlider label="view: tilt (degrees)" id="ctl-r-pitch" min=PITCH.0 max=PITCH.1 step=1.0 value=pitch />
        </div>
        <AppearingButtons appearing=appearing speed=SPEED near=stats.near unit="position"
            play="▶ Play from position 0" />
        <DragCanvas node_ref=canvas_ref label=describe
            drag=turning(canvas_ref, s.view, PITCH, layout, hovered)
            readout=readout />
        <figcaption>
            "Chapter 1's sentence, repeated (or cut) to fill the positions: the toy model's "
            "16-dimensional word vectors x, projected on the three directions of largest "
            "variance (PCA). Without positions every copy of a word is the same vector, so there "
            "is one point per different word: the inputs cannot tell the copies apart (a causal "
            "model can still infer order from its mask — chapter 4's NoPE). Adding "
            "the sinusoidal encoding spreads them out; RoPE's rotation, applied here to x itself "
            "(a model turns W" <sub>"q"</sub> "x and W" <sub>"k"</sub> "x), turns each vector "
            "by its position instead, so every copy keeps its length in the full 16 dimensions "
            "(the picture is centred on the cloud's mean and keeps 3 of 16 directions, so "
            "distances from its centre are not these lengths, and points that overlap here may "
            "be far apart in 16D). Its encodings use base 10000 and interleaved pairs whatever "
            "the chapter's controls say. Drag to turn the view; hover a point to read it."
        </figcaption>
    }
}
