//! One wheel per coordinate pair: at position m, pair i has turned by m·θ_i. Fast pairs first.
//! Beside them, the rotation matrix R_m that does all of it at once, as a live picture, and its
//! first two 2×2 blocks in MathML with the current values.

use std::f64::consts::TAU;

use leptos::html::Canvas;
use leptos::prelude::*;

use crate::app::near::{Near, watch};

use crate::app::dial::ClockPainter;
use crate::app::figure::{
    DrawStats, InteractiveCanvas, SecondCanvas, StillCanvas, draw_panels_effect,
};
use crate::app::frame::figure;
use crate::app::matrix::MatrixPainter;
use crate::app::state::rope::RopeState;
use crate::app::theme::chapter_context;
use crate::chart::clock::ClockLayout;
use crate::chart::theme::Theme;
use crate::math::rope::{self, Layout};
use crate::params::format_significant;
use crate::scene::rope as scene;

/// Everything the wheels' canvas shows: position, hovered wheel, theme, width and frequencies.
#[derive(PartialEq)]
struct WheelsPainted {
    m: usize,
    selected: Option<usize>,
    theme: Theme,
    width: f64,
    inv_freq: Vec<f64>,
}

/// The figure.
#[component]
pub fn FrequencyWheels() -> impl IntoView {
    let (s, theme) = chapter_context!(RopeState);
    let (inv_freq, rotary, pos) = (s.rotary_inv_freq(), s.rotary_dim(), s.current_pos());
    let wheels_ref = NodeRef::<Canvas>::new();
    let matrix = SecondCanvas::new();
    let layout = StoredValue::new(None::<ClockLayout>);
    let (selected, pointer) = crate::app::select::face_selection(
        wheels_ref,
        layout,
        Signal::derive(move || inv_freq.with(Vec::len)),
    );
    let mut painter = MatrixPainter::default();
    let mut wheels = ClockPainter::default();
    let mut version = 0u64;
    let mut entries: Vec<scene::RotationRow> = Vec::new();
    // What the wheels were last painted from: the layout (interleaved or half-split) moves R_m's
    // blocks but not a wheel, so switching it repaints the matrix alone.
    let mut painted: Option<WheelsPainted> = None;
    // Drawn while either canvas is in view (the lower one can be on screen alone).
    let stats = DrawStats::new();
    draw_panels_effect(&[wheels_ref, matrix.node], stats, move |surface| {
        let (m, t, layout_kind) = (pos.get(), theme.get(), s.layout.get());
        let now = WheelsPainted {
            m,
            selected: selected.get(),
            theme: t,
            width: surface.css_width,
            inv_freq: inv_freq.get(),
        };
        if painted.as_ref() != Some(&now) {
            let spec = scene::wheels_spec(m, &now.inv_freq, now.selected, t);
            let count = now.inv_freq.len();
            let drawn = wheels.paint(surface, |w| scene::wheels_height(w, count), &spec);
            painted = drawn.is_some().then_some(now);
            layout.set_value(drawn);
        }
        let Some(surface) = matrix.surface() else {
            return;
        };
        let d = s.dim.get();
        // R_m one entry per row (diagonal and off-diagonal): the painter reads the cells from
        // these rows, so no d × d matrix (128 KB at head_dim 128) is built per position (large
        // short-lived blocks fragment the wasm heap).
        inv_freq.with(|f| scene::rotation_rows(m, f, layout_kind, rotary.get(), d, &mut entries));
        version += 1;
        let spec = scene::rotation_spec(m, d, layout_kind, t);
        let entry = |row: usize, col: usize| scene::rotation_entry(&entries, row, col);
        painter.paint_fn(
            &surface,
            scene::rotation_height,
            &spec,
            Some(version),
            entry,
            &[],
        );
    });
    let readout = move || {
        let m = pos.get();
        let (d, layout_kind) = (rotary.get(), s.layout.get());
        match selected
            .get()
            .and_then(|i| inv_freq.with(|f| f.get(i).map(|&t| (i, t))))
        {
            Some((i, theta)) => {
                let (a, b) = rope::pair(layout_kind, d, i);
                let angle = m as f64 * theta;
                format!(
                    "pair {i} (coordinates {a}, {b}): θ_{i} = {} rad per position · m·θ = {} rad = {:.2} turns · wavelength 2π/θ = {} positions",
                    format_significant(theta, 4),
                    format_significant(angle, 4),
                    angle / TAU,
                    format_significant(TAU / theta, 4),
                )
            }
            None => "Hover a wheel (or focus the wheels and use the arrow keys) to read its pair."
                .to_string(),
        }
    };
    let describe = move || {
        let m = pos.get() as f64;
        inv_freq.with(|f| {
            format!(
                "{} wheels, one per turning coordinate pair, at position {}: pair 0 has turned {:.2} \
                 turns, the last pair {:.4} turns.",
                f.len(),
                pos.get(),
                m * f.first().copied().unwrap_or(0.0) / TAU,
                m * f.last().copied().unwrap_or(0.0) / TAU,
            )
        })
    };
    // The first two 2×2 blocks with their live values.
    // Below the wheels, so often out of view while the wheels are in it: their text follows the
    // controls by the blocks' own place on the page.
    let blocks_near = Near::new();
    let block = move |i: usize| {
        let shown = blocks_near.text(move || {
            let m = pos.get() as f64;
            let theta = inv_freq.with(|f| f.get(i).copied());
            theta.map(|theta| {
                let (sn, cs) = (m * theta).sin_cos();
                let num = |x: f64| format!("{:.4}", if x.abs() < 5e-5 { 0.0 } else { x });
                (
                    rope::pair(s.layout.get(), rotary.get(), i),
                    [num(cs), num(-sn), num(sn)],
                )
            })
        });
        move || {
            shown.get().map(|((a, b), [cs, minus_sn, sn])| {
                view! {
                    <div class="block">
                        <p class="block-label">{format!("pair {i}: rows and columns {a}, {b}")}</p>
                        <math display="block">
                            <mrow>
                                <msub><mi>"R"</mi><mn>{i}</mn></msub>
                                <mo>"="</mo>
                                <mrow>
                                    <mo>"["</mo>
                                    <mtable>
                                        <mtr><mtd><mn>{cs.clone()}</mn></mtd><mtd><mn>{minus_sn}</mn></mtd></mtr>
                                        <mtr><mtd><mn>{sn}</mn></mtd><mtd><mn>{cs}</mn></mtd></mtr>
                                    </mtable>
                                    <mo>"]"</mo>
                                </mrow>
                            </mrow>
                        </math>
                    </div>
                }
            })
        }
    };

    figure! { "fig-rope-wheels", "ctl-r-d ctl-r-base ctl-r-pos r-layout ctl-r-rot", stats;
        <InteractiveCanvas node_ref=wheels_ref readout=readout label=describe
            pointer=pointer />
        <StillCanvas
            node_ref=matrix.node
            label=move || {
                format!(
                    "The {d} × {d} rotation matrix R_m at position {}: zero except for one 2×2 rotation block per turning coordinate pair ({}), and ones on the diagonal for coordinates that do not turn.",
                    pos.get(),
                    if s.layout.get() == Layout::Interleaved { "along the diagonal" } else { "at rows and columns i and i + rotary_dim/2" },
                    d = s.dim.get(),
                )
            }
        />
        <div class="blocks" use:watch=blocks_near>{block(0)}{block(1)}</div>
        <figcaption>
            "Each wheel is one turning coordinate pair of a query or key, turned by m·θ"
            <sub>"i"</sub> " with θ" <sub>"i"</sub> " = base" <sup>"−2i/r"</sup>
            ", r = rotary_dim. The matrix R" <sub>"m"</sub> " applies every wheel at once: a "
            "2×2 rotation per pair, 1 on the diagonal for coordinates past rotary_dim, zeros "
            "elsewhere, so it never mixes one pair with another."
        </figcaption>
    }
}
