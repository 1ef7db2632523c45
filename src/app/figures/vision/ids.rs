//! Text and images in one sequence: the (t, h, w) position ids a vision-language model's language
//! model gives every token of an input of text, an image and a short video, as three rows of
//! numbers and as points in (t, h, w) space ([`crate::scene::vision::ids`]).

use leptos::html::Canvas;
use leptos::prelude::*;

use crate::app::backend;
use crate::app::canvas;
use crate::app::controls::{Choice, FloatSlider, IntSlider, split_pair};
use crate::app::figure::DrawStats;
use crate::app::figure::{DragCanvas, InteractiveCanvas, Pointer, draw_effect_into};
use crate::app::figures::turning::turning;
use crate::app::frame::figure;
use crate::app::near;
use crate::app::select::{event_pixel, step_item};
use crate::app::state::vision::VisionState;
use crate::app::theme::chapter_context;
use crate::chart::cloud::{self, CloudLayout};
use crate::chart::idstrip::{self, StripLayout};
use crate::explain::position_ids::{describe, finding, readout};
use crate::params::vision::{IMAGE, PITCH, STAMP, TEXT, VIDEO, VlModel, YAW};
use crate::scene::vision::ids as scene;
use crate::scene::vision::sections::{lm_rope, models};

/// The figure.
#[component]
pub fn PositionIds() -> impl IntoView {
    let (s, theme) = chapter_context!(VisionState);
    let strip_ref = NodeRef::<Canvas>::new();
    let cloud_ref = NodeRef::<Canvas>::new();
    let hovered = RwSignal::new(None::<usize>);
    let strip_layout = StoredValue::new(StripLayout::default());
    let cloud_layout = StoredValue::new(CloudLayout::default());
    let other = Memo::new(move |_| s.ids().with(scene::Ids::original_row));
    let points = Memo::new(move |_| s.ids().with(scene::points));
    let stats = DrawStats::new();
    draw_effect_into(strip_ref, stats, move |surface| {
        let (t, model, marked) = (theme.get(), s.lm.get(), hovered.get());
        s.ids().with(|ids| {
            other.with(|other| {
                if canvas::fit(surface, |w| scene::strip_height(w, ids.len())).is_none() {
                    return;
                }
                let Some(root) = backend::area(&surface.el) else {
                    return;
                };
                let spec = scene::strip_spec(scene::strip_title(model), ids, other, marked, t);
                if let Ok(l) = idstrip::draw(&root, &spec) {
                    let _ = root.present();
                    strip_layout.set_value(l);
                }
            });
        });
    });
    draw_effect_into(cloud_ref, stats, move |surface| {
        let (t, view, marked) = (theme.get(), s.ids_view.get(), hovered.get());
        points.with(|points| {
            if canvas::fit(surface, scene::cloud_height).is_none() {
                return;
            }
            let Some(root) = backend::area(&surface.el) else {
                return;
            };
            let selected = marked.filter(|&k| k < points.len()).map(|k| {
                let [a, b, c] = points[k];
                (k, format!("token {k} ({a}, {b}, {c})"))
            });
            let spec = scene::cloud_spec(points, view, selected, t);
            if let Ok(l) = cloud::draw(&root, &spec) {
                let _ = root.present();
                cloud_layout.set_value(l);
            }
        });
    });
    let count = move || s.ids().with_untracked(scene::Ids::len);
    let strip_pointer = Pointer::new(
        move |ev: web_sys::MouseEvent| {
            if let Some(el) = strip_ref.get_untracked() {
                let (x, y) = event_pixel(&el, &ev);
                let hit = strip_layout.with_value(|l| l.at(x, y));
                if hit.is_some() && hit != hovered.get_untracked() {
                    hovered.set(hit);
                }
            }
        },
        move |ev: web_sys::KeyboardEvent| {
            if let Some(k) = step_item(&ev.key(), hovered.get_untracked(), count()) {
                ev.prevent_default();
                hovered.set(Some(k));
            }
        },
    )
    .clearing(hovered);
    let (yaw, pitch) = split_pair(s.ids_view);
    let text = move || {
        s.ids().with(|ids| match hovered.get() {
            Some(k) if k < ids.len() => readout(ids, k),
            _ => format!(
                "{} tokens. Hover a column or a point (or focus the rows and use the arrow \
                 keys) to read a token's ids.",
                ids.len()
            ),
        })
    };
    let found = move || s.ids().with(|ids| finding(lm_rope(s.lm.get()), ids));
    let label = move || s.ids().with(|ids| describe(lm_rope(s.lm.get()), ids));
    // The cloud's own readout: the view, and the hovered point's place.
    let cloud_text = move || {
        let [yaw, pitch] = s.ids_view.get();
        let at = hovered.get().and_then(|k| {
            points.with(|p| {
                p.get(k)
                    .map(|[a, b, c]| format!("Token {k} is at (t, h, w) = ({a}, {b}, {c}). "))
            })
        });
        format!(
            "{}Seen turned {yaw:.0}° and tilted {pitch:.0}°.",
            at.unwrap_or_default()
        )
    };
    let cloud_label = move || {
        let [yaw, pitch] = s.ids_view.get();
        format!(
            "The same {} tokens as points at their (t, h, w) ids, joined in input order and \
             coloured from the first token to the last, seen turned {yaw:.0}° and tilted \
             {pitch:.0}°. Drag or use the arrow keys to turn it.",
            count()
        )
    };
    let qwen3 = move || s.lm.get() == VlModel::Qwen3;
    figure! { "fig-vision-ids", "v-lm-ids ctl-v-tx ctl-v-ih ctl-v-iw ctl-v-vt ctl-v-vh ctl-v-vw ctl-v-yaw ctl-v-pitch", stats, [
        data-token=move || hovered.get().map(|k| k.to_string()).unwrap_or_default()
    ];
        <div class="figure-tools">
            <Choice legend="model" name="v-lm-ids" options=models() value=s.lm />
            <IntSlider label="text tokens per piece" id="ctl-v-tx" min=TEXT.0 max=TEXT.1 value=s.text />
            <IntSlider label="image rows" id="ctl-v-ih" min=IMAGE.0 max=IMAGE.1 value=s.image_rows />
            <IntSlider label="image columns" id="ctl-v-iw" min=IMAGE.0 max=IMAGE.1 value=s.image_cols />
        </div>
        <div class="figure-tools">
            <IntSlider label="video temporal patches" id="ctl-v-vt" min=VIDEO.0 max=VIDEO.1 value=s.frames />
            <IntSlider label="video rows" id="ctl-v-vh" min=VIDEO.0 max=VIDEO.1 value=s.video_rows />
            <IntSlider label="video columns" id="ctl-v-vw" min=VIDEO.0 max=VIDEO.1 value=s.video_cols />
            // Not among the figure's declared controls: it exists for Qwen3-VL only (a browser
            // test moves it there).
            <Show when=qwen3>
                <IntSlider label="text before each temporal patch" id="ctl-v-ts" min=STAMP.0 max=STAMP.1 value=s.stamp />
            </Show>
        </div>
        <InteractiveCanvas node_ref=strip_ref readout=text label=label pointer=strip_pointer />
        <p class="finding">{near::text(found)}</p>
        <div class="figure-tools">
            <FloatSlider label="view: turn (degrees)" id="ctl-v-yaw" min=YAW.0 max=YAW.1 step=1.0 value=yaw />
            <FloatSlider label="view: tilt (degrees)" id="ctl-v-pitch" min=PITCH.0 max=PITCH.1 step=1.0 value=pitch />
        </div>
        <DragCanvas node_ref=cloud_ref label=cloud_label
            drag=turning(cloud_ref, s.ids_view, PITCH, cloud_layout, hovered)
            readout=cloud_text readout_id="fig-vision-ids-cloud-readout" />
        <figcaption>
            "The language model reads one sequence: text tokens, then an image's tokens row by "
            "row, and so on. Each token gets three position ids, t, h and w (transformers 5.24, "
            "get_rope_index of Qwen2_5_VLModel and Qwen3VLModel). Text advances all three "
            "together, one per token. An image's tokens (one per 2 × 2 block of patches, "
            "14 pixels wide in Qwen2.5-VL and 16 in Qwen3-VL; tinted blue) share one t and count "
            "rows in h and columns in w from where the image starts. In Qwen2.5-VL a video's "
            "temporal patch (two frames; tinted orange) steps t by tokens_per_second × its "
            "seconds: 2 (Qwen2.5-VL-7B's config.json) × 1 s, as when frames are sampled at 2 per "
            "second (5.24 also takes 1 s when it is given no second_per_grid_ts). Qwen3-VL's "
            "processor writes a video instead as one image-like block per temporal patch (Qwen's "
            "code calls it a frame), each after a timestamp such as \u{201c}<1.0 seconds>"
            "\u{201d}; that text, with the start and end tokens of the blocks around it, takes "
            "several tokens, more as the timestamp gains digits, so its length is a control "
            "here. After a vision block, 5.24 starts the next text at the block's start plus the "
            "larger of its row and column counts; the original Qwen code (transformers 4.x's "
            "get_rope_index) started it one past the block's largest id. The two agree after an "
            "image and differ after a Qwen2.5-VL video whose time ids outrun its height and "
            "width: the row \u{201c}original\u{201d} gives the original code's id where it "
            "differs. Each text piece here includes the special tokens that open and close an "
            "image or a video, and the sizes are kept small to stay legible (real images and "
            "videos have hundreds of tokens). Below, the same ids as points in (t, h, w), "
            "joined and coloured in input order: drag or use the arrow keys to turn them, and "
            "hover a point to read its ids."
        </figcaption>
    }
}
