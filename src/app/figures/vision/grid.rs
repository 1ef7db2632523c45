//! A grid of image patches, each coloured by its RoPE score with a chosen patch: axial 2D RoPE
//! as Qwen2.5-VL's vision encoder computes it, beside the same grid read row by row as one line
//! of 1D RoPE, on one colour scale.

use leptos::html::Canvas;
use leptos::prelude::*;

use crate::app::controls::{Choice, IntSlider};
use crate::app::figure::{SecondCanvas, draw_effect};
use crate::app::figures::tables::SeedField;
use crate::app::frame::figure;
use crate::app::matrix::{Matrix, MatrixPainter, MatrixPair};
use crate::app::near;
use crate::app::select::key_cursor;
use crate::app::state::vision::VisionState;
use crate::app::theme::chapter_context;
use crate::chart::heatmap::HeatmapLayout;
use crate::explain::vision::{GridFinding, describe, patch_readout};
use crate::params::rope::QkSource;
use crate::params::vision::{GRID, VISION_HEAD_DIM};
use crate::scene::vision as scene;

/// The figure.
#[component]
pub fn PatchGrid() -> impl IntoView {
    let (s, theme) = chapter_context!(VisionState);
    let axial_ref = NodeRef::<Canvas>::new();
    let flat = SecondCanvas::new();
    let [axial_layout, flat_layout] = [(); 2].map(|_| StoredValue::new(None::<HeatmapLayout>));
    let cursor = RwSignal::new(None::<(usize, usize)>);
    let (mut left, mut right) = (MatrixPainter::default(), MatrixPainter::default());
    let stats = draw_effect(axial_ref, move |surface| {
        let t = theme.get();
        s.scores().with(|scores| {
            let v = s.grid().get();
            let [axial_spec, flat_spec] = scene::grid_specs(&v, scores.bound, t);
            let stride = v.cols;
            fn matrix(values: &[f64], stride: usize) -> Matrix<'_> {
                Matrix {
                    values,
                    stride,
                    version: None,
                    toeplitz: false,
                }
            }
            left.mark_cell(Some(v.patch()));
            axial_layout.set_value(left.paint(
                surface,
                scene::grid_height,
                &axial_spec,
                matrix(&scores.axial, stride),
                &[],
            ));
            let Some(surface) = flat.surface() else {
                return;
            };
            right.mark_cell(Some(v.patch()));
            flat_layout.set_value(right.paint(
                &surface,
                scene::grid_height,
                &flat_spec,
                matrix(&scores.flat, stride),
                &[],
            ));
        });
    });
    let on_key = key_cursor(
        cursor,
        move || (s.rows.get_untracked(), s.cols.get_untracked()),
        (0, 0),
    );
    let readout = move || {
        let Some((r, c)) = cursor.get() else {
            return "Hover either grid (or focus it and use the arrow keys) to read a patch's \
                    scores."
                .to_string();
        };
        let (rows, cols, (r0, c0)) = (s.rows.get(), s.cols.get(), s.patch().get());
        if r >= rows || c >= cols {
            return String::new();
        }
        s.scores().with(|scores| {
            let at = r * cols + c;
            patch_readout(cols, (r0, c0), (r, c), (scores.axial[at], scores.flat[at]))
        })
    };
    let finding = move || {
        let (qk, shape, patch) = (s.qk.get(), (s.rows.get(), s.cols.get()), s.patch().get());
        s.scores().with(|scores| {
            GridFinding {
                shape,
                patch,
                qk,
                axial: &scores.axial,
                flat: &scores.flat,
            }
            .to_string()
        })
    };
    let label = move || describe((s.rows.get(), s.cols.get()), s.patch().get(), s.qk.get());
    let last_row = Signal::derive(move || s.rows.get().saturating_sub(1));
    let last_col = Signal::derive(move || s.cols.get().saturating_sub(1));
    let random = move || s.qk.get() == QkSource::Random;
    figure! { "fig-vision-grid", "ctl-v-rows ctl-v-cols ctl-v-r ctl-v-c ctl-v-hd v-qk", stats, [
        data-cell=move || cursor.get().map(|(a, b)| format!("{a},{b}")).unwrap_or_default()
    ];
        <div class="figure-tools">
            <IntSlider label="grid rows" id="ctl-v-rows" min=GRID.0 max=GRID.1 value=s.rows />
            <IntSlider label="grid columns" id="ctl-v-cols" min=GRID.0 max=GRID.1 value=s.cols />
            <IntSlider label="patch row" id="ctl-v-r" min=0 max=last_row value=s.row />
            <IntSlider label="patch column" id="ctl-v-c" min=0 max=last_col value=s.col />
            <IntSlider label="head_dim" id="ctl-v-hd" min=VISION_HEAD_DIM.0 max=VISION_HEAD_DIM.1 step=4 value=s.head_dim />
            <Choice legend="q and k" name="v-qk" options=vec![(QkSource::Ones, "all ones"), (QkSource::Random, "random")] value=s.qk />
            <Show when=random>
                <SeedField id="ctl-v-seed" seed=s.seed />
            </Show>
        </div>
        <MatrixPair canvases=[(axial_ref, axial_layout), (flat.node, flat_layout)] cursor=cursor on_key=on_key
            readout=readout label=label />
        <p class="finding">{near::text(finding)}</p>
        <figcaption>
            "A vision encoder with 2D RoPE cuts an image into patches (Qwen2.5-VL: 14 × 14 "
            "pixels) and gives each patch its row and its column. Qwen2.5-VL's vision encoder builds its "
            "rotary frequencies for half a head (Qwen2_5_VLVisionRotaryEmbedding in "
            "transformers 5.24, rope type \u{201c}axial\u{201d}): head_dim/4 of them, "
            "θ^(−4i/head_dim) with θ = 10000; Qwen2.5-VL-7B's vision heads have head_dim 80 "
            "(1280 over 16 heads), so 20 frequencies. The first half of the head's pairs turn "
            "by the row times those frequencies, the second half by the column times the same "
            "ones (rotate_half pairs coordinate p with p + head_dim/2). So for a given q and k "
            "the score of two patches depends only on their row offset and their column "
            "offset. Only the rotation is drawn: 28 of the encoder's 32 layers also attend "
            "only within windows of 8 × 8 patches. The second grid reads the patches row by "
            "row as one line of 1D RoPE over the whole head (θ^(−2i/head_dim), θ = 10000), as "
            "a language model does with an image whose patch tokens it takes in text order "
            "(LLaVA-1.5, for example): the patch directly below is a whole row of places away, "
            "and, in a grid wider than one patch, the last patch of a row sits next to the "
            "first patch of the row below, on the other side of the image. Its frequencies "
            "differ too, so the two grids differ even one patch to the right, where the line "
            "keeps the 2D offset."
        </figcaption>
    }
}
