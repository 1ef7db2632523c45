//! One wheel per coordinate pair: at position m, pair i has turned by m·θ_i. Fast pairs first.
//! Beside them, the rotation matrix R_m that does all of it at once, as a live picture, and its
//! first two 2×2 blocks in MathML with the current values.

use std::f64::consts::TAU;

use leptos::html::Canvas;
use leptos::prelude::*;

use crate::app::backend;
use crate::app::canvas::{self, Surface};
use crate::app::figure::{
    DrawStats, FigureLink, InteractiveCanvas, draw_panels_effect, observed_width,
};
use crate::app::matrix::MatrixPainter;
use crate::app::state::AppState;
use crate::app::theme::PageTheme;
use crate::chart::clock::{self, Clock, ClockLayout, ClockSpec};
use crate::chart::colorbar::ColorBar;
use crate::chart::colormap::Scale;
use crate::chart::heatmap::HeatmapSpec;
use crate::chart::theme::Theme;
use crate::math::rope::{self, Layout};
use crate::params::format_significant;

/// Wheels per row for a canvas `width` CSS pixels wide (cells of about 84 px).
fn columns(width: f64) -> usize {
    ((width / 84.0).floor() as usize).clamp(1, 16)
}

/// Height of the wheels canvas for `pairs` wheels.
fn wheels_height(width: f64, pairs: usize) -> f64 {
    let cols = columns(width);
    let rows = pairs.div_ceil(cols).max(1);
    rows as f64 * (width / cols as f64).max(84.0) + 34.0
}

fn matrix_height(width: f64) -> f64 {
    (width * 0.62).clamp(280.0, 460.0)
}

/// A short angle: degrees within the current turn.
fn degrees(angle: f64) -> String {
    format!("{:.0}°", angle.rem_euclid(TAU).to_degrees())
}

fn paint_wheels(
    surface: &Surface,
    m: usize,
    inv_freq: &[f64],
    selected: Option<usize>,
    t: Theme,
) -> Option<ClockLayout> {
    canvas::fit(surface, |w| wheels_height(w, inv_freq.len()))?;
    let root = backend::area(&surface.el)?;
    let title = format!("Position m = {m}: pair i has turned by m·θ_i");
    let spec = ClockSpec {
        title: title.clone(),
        clocks: inv_freq
            .iter()
            .enumerate()
            .map(|(i, theta)| {
                let angle = m as f64 * theta;
                Clock {
                    angle,
                    label: format!("pair {i}"),
                    sublabel: degrees(angle),
                }
            })
            .collect(),
        selected,
        counter_clockwise: true,
        theme: t,
    };
    let layout = clock::draw(&root, &spec).ok()?;
    root.present().ok()?;
    Some(layout)
}

/// The figure.
#[component]
pub fn FrequencyWheels() -> impl IntoView {
    let s = expect_context::<AppState>().rope;
    let theme = expect_context::<PageTheme>().chart();
    let inv_freq = s.rotary_inv_freq();
    let rotary = s.rotary_dim();
    let pos = s.current_pos();
    let wheels_ref = NodeRef::<Canvas>::new();
    let matrix_ref = NodeRef::<Canvas>::new();
    let matrix_width = observed_width(matrix_ref);
    let layout = StoredValue::new(None::<ClockLayout>);
    let (selected, on_move, on_key) = crate::app::matrix::face_selection(
        wheels_ref,
        layout,
        Signal::derive(move || inv_freq.with(Vec::len)),
    );
    let mut painter = MatrixPainter::default();
    let mut version = 0u64;
    let mut entries: Vec<(f64, usize, f64)> = Vec::new();
    // Drawn while either canvas is in view (the lower one can be on screen alone).
    let stats = DrawStats::new();
    draw_panels_effect(&[wheels_ref, matrix_ref], stats, move |surface| {
        let (m, t, layout_kind) = (pos.get(), theme.get(), s.layout.get());
        let drawn = inv_freq.with(|f| paint_wheels(surface, m, f, selected.get(), t));
        layout.set_value(drawn);
        let Some(el) = matrix_ref.get() else {
            return;
        };
        let surface = Surface {
            el,
            css_width: matrix_width.get(),
        };
        let d = s.dim.get();
        let r = rotary.get();
        // R_m over the turning coordinates, the identity over the rest (partial rotation), one
        // entry per row: its diagonal value and its one off-diagonal (column, value). The painter
        // reads the cells from these rows, so no d × d matrix (128 KB at head_dim 128) is built
        // per position (large short-lived blocks fragment the wasm heap).
        entries.clear();
        entries.resize(d, (1.0, usize::MAX, 0.0));
        inv_freq.with(|f| {
            for (i, &theta) in f.iter().enumerate() {
                // As `rope::rotation_matrix`: rows a and b hold pair i's 2×2 block.
                let (sn, cs) = (m as f64 * theta).sin_cos();
                let (a, b) = rope::pair(layout_kind, r, i);
                entries[a] = (cs, b, -sn);
                entries[b] = (cs, a, sn);
            }
        });
        version += 1;
        let title = format!("R_m at m = {m} ({} layout)", layout_kind.as_str());
        let spec = HeatmapSpec {
            title: title.clone(),
            x_desc: "input coordinate",
            y_desc: "output coordinate",
            cols: 0..d,
            rows: 0..d,
            colorbar: ColorBar {
                lo: -1.0,
                hi: 1.0,
                label: "entry",
                scale: Scale::Diverging,
            },
            col_names: None,
            row_names: None,
            theme: t,
        };
        let entry = |row: usize, col: usize| {
            let (diagonal, other, value) = entries[row];
            if col == row {
                diagonal
            } else if col == other {
                value
            } else {
                0.0
            }
        };
        painter.paint_fn(&surface, matrix_height, &spec, Some(version), entry, &[]);
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
    let block = move |i: usize| {
        move || {
            let m = pos.get() as f64;
            let theta = inv_freq.with(|f| f.get(i).copied());
            theta.map(|theta| {
                let (sn, cs) = (m * theta).sin_cos();
                let (a, b) = rope::pair(s.layout.get(), rotary.get(), i);
                let num = |x: f64| format!("{:.4}", if x.abs() < 5e-5 { 0.0 } else { x });
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
                                        <mtr><mtd><mn>{num(cs)}</mn></mtd><mtd><mn>{num(-sn)}</mn></mtd></mtr>
                                        <mtr><mtd><mn>{num(sn)}</mn></mtd><mtd><mn>{num(cs)}</mn></mtd></mtr>
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

    view! {
        <figure
            class="figure"
            id="fig-rope-wheels"
            data-controls="ctl-r-d ctl-r-base ctl-r-pos r-layout ctl-r-rot"
            data-draw-ms=stats.ms_text()
            data-drawn-at=stats.at_text()
        >
            <FigureLink id="fig-rope-wheels" />
            <InteractiveCanvas
                node_ref=wheels_ref
                readout_id="fig-rope-wheels-readout"
                label=describe
                on_move=on_move
                on_leave=move || selected.set(None)
                on_key=on_key
            />
            <p class="readout" id="fig-rope-wheels-readout" aria-live="polite">{readout}</p>
            <div class="canvas-wrap">
                <canvas
                    node_ref=matrix_ref
                    role="img"
                    aria-label=move || {
                        format!(
                            "The {d} × {d} rotation matrix R_m at position {}: zero except for one 2×2 rotation block per turning coordinate pair ({}), and ones on the diagonal for coordinates that do not turn.",
                            pos.get(),
                            if s.layout.get() == Layout::Interleaved { "along the diagonal" } else { "at rows and columns i and i + rotary_dim/2" },
                            d = s.dim.get(),
                        )
                    }
                ></canvas>
            </div>
            <div class="blocks">{block(0)}{block(1)}</div>
            <figcaption>
                "Each wheel is one turning coordinate pair of a query or key, turned by m·θ"
                <sub>"i"</sub> " with θ" <sub>"i"</sub> " = base" <sup>"−2i/r"</sup>
                ", r = rotary_dim. The matrix R" <sub>"m"</sub> " applies every wheel at once: a "
                "2×2 rotation per pair, 1 on the diagonal for coordinates past rotary_dim, zeros "
                "elsewhere, so it never mixes one pair with another."
            </figcaption>
        </figure>
    }
}
