//! Rotating a 2D vector: the seed walkthrough. One coordinate pair `v`, rotated by `m·θ` at
//! position `m`, with the trail of earlier positions. Drag the tip (or type x, y, or use the arrow
//! keys) to change `v`; the length readout never changes, because a rotation keeps the norm.

use leptos::html::Canvas;
use leptos::prelude::*;

use crate::app::animation::{Player, reduced_motion};
use crate::app::canvas::Surface;
use crate::app::controls::{FloatSlider, IntSlider, split_pair};
use crate::app::figure::{Drag, DragCanvas, draw_effect};
use crate::app::frame::figure;
use crate::app::plot::paint_plane;
use crate::app::select::event_pixel;
use crate::app::state::rope::RopeState;
use crate::app::theme::chapter_context;
use crate::chart::plane::PlaneLayout;
use crate::chart::theme::Theme;
use crate::math::plane::{norm, rotate};
use crate::params::rope::{VECTOR_COORD, VECTOR_POS};
use crate::scene::rope as scene;

/// Positions the animation plays through per second.
const SPEED: f64 = 1.5;

/// Rows of the walkthrough table: positions 0 … 4.
const TABLE_ROWS: usize = 5;

/// A coordinate rounded to the hundredth and kept in range.
fn coordinate(x: f64) -> f64 {
    ((x * 100.0).round() / 100.0).clamp(VECTOR_COORD.0, VECTOR_COORD.1)
}

/// Formats a coordinate with three decimals, without a negative zero.
fn coord_text(x: f64) -> String {
    let r = (x * 1000.0).round() / 1000.0;
    format!("{:.3}", if r == 0.0 { 0.0 } else { r })
}

/// Draws the plane; returns its layout for dragging.
fn paint(surface: &Surface, v: [f64; 2], m: f64, theta: f64, t: Theme) -> Option<PlaneLayout> {
    paint_plane(
        surface,
        scene::vector_height,
        &scene::vector_spec(v, m, theta, t),
    )
}

/// The figure.
#[component]
pub fn RotatingVector() -> impl IntoView {
    let (s, theme) = chapter_context!(RopeState);
    let player = Player::new();
    let canvas_ref = NodeRef::<Canvas>::new();
    let layout = StoredValue::new(None::<PlaneLayout>);
    let stats = draw_effect(canvas_ref, move |surface| {
        let m = player.position(s.vector_pos);
        let theta = s.theta_deg.get().to_radians();
        layout.set_value(paint(surface, s.vector.get(), m, theta, theme.get()));
    });
    let set_from_pointer = move |ev: &web_sys::PointerEvent, _first: bool| {
        let Some(el) = canvas_ref.get_untracked() else {
            return;
        };
        let (x, y) = event_pixel(&el, ev);
        if let Some(p) = layout.with_value(|l| l.as_ref().map(|l| l.point(x, y))) {
            s.vector.set([coordinate(p[0]), coordinate(p[1])]);
        }
    };
    let on_key = move |ev: web_sys::KeyboardEvent| {
        let delta = if ev.shift_key() { 0.25 } else { 0.05 };
        let [x, y] = s.vector.get_untracked();
        let next = match ev.key().as_str() {
            "ArrowLeft" => [x - delta, y],
            "ArrowRight" => [x + delta, y],
            "ArrowUp" => [x, y + delta],
            "ArrowDown" => [x, y - delta],
            _ => return,
        };
        ev.prevent_default();
        s.vector.set([coordinate(next[0]), coordinate(next[1])]);
    };

    let shown_pos = move || player.position(s.vector_pos);
    let readout = move || {
        let (v, m, theta) = (s.vector.get(), shown_pos(), s.theta_deg.get());
        let turned = rotate(v, m * theta.to_radians());
        format!(
            "m = {} · angle m·θ = {:.1}° · R(m·θ)·v = [{}, {}] · length |R·v| = {} = |v|",
            scene::fmt_pos(m),
            m * theta,
            coord_text(turned[0]),
            coord_text(turned[1]),
            coord_text(norm(turned)),
        )
    };
    // The rows are rebuilt whenever v, θ or m changes, with plain values: a reactive closure in
    // them would be a new effect per row and change, and a dropped effect stays in the
    // subscriber list of every signal it read (reactive_graph 0.2 never removes it), so a long
    // session would pile them up.
    let table = move || {
        let (v, theta) = (s.vector.get(), s.theta_deg.get().to_radians());
        let current = s.vector_pos.get();
        let mut rows: Vec<usize> = (0..TABLE_ROWS).collect();
        if current >= TABLE_ROWS {
            rows.push(current);
        }
        rows.into_iter()
            .map(|m| {
                let p = rotate(v, m as f64 * theta);
                view! {
                    <tr class:current=current == m>
                        <td>{m}</td>
                        <td>{format!("{:.1}°", m as f64 * theta.to_degrees())}</td>
                        <td>{format!("[{}, {}]", coord_text(p[0]), coord_text(p[1]))}</td>
                    </tr>
                }
            })
            .collect_view()
    };
    let describe = move || {
        let (v, m, theta) = (s.vector.get(), s.vector_pos.get(), s.theta_deg.get());
        format!(
            "A 2D vector v = [{}, {}] drawn from the origin, and the same vector rotated \
             counter-clockwise by {m} × {theta}° for position {m}, with dots at the earlier \
             positions on a circle of radius {}.",
            coord_text(v[0]),
            coord_text(v[1]),
            coord_text(norm(v))
        )
    };
    let apple = move |_| {
        player.stop();
        s.vector.set([1.0, 0.0]);
        s.theta_deg.set(90.0);
        s.vector_pos.set(3);
    };
    let step_by = move |delta: i64| {
        player.stop();
        let next = (s.vector_pos.get_untracked() as i64 + delta).clamp(0, VECTOR_POS.1 as i64);
        s.vector_pos.set(next as usize);
    };
    let toggle = move |_| {
        if player.playing.get_untracked() {
            player.stop();
        } else {
            player.play(s.vector_pos, VECTOR_POS.1, SPEED, stats.near);
        }
    };
    // The x and y sliders edit the vector's coordinates.
    let (x, y) = split_pair(s.vector);
    let animated = !reduced_motion();

    figure! { "fig-rope-2d", "ctl-r-vpos ctl-r-theta ctl-r-x ctl-r-y", stats, [
        data-norm=move || {
            let v = s.vector.get();
            format!("{}", norm(rotate(v, shown_pos() * s.theta_deg.get().to_radians())))
        }
    ];
        <div class="figure-tools">
            <IntSlider label="position m" id="ctl-r-vpos" min=VECTOR_POS.0 max=VECTOR_POS.1 value=s.vector_pos />
            <FloatSlider label="θ per position (degrees)" id="ctl-r-theta" min=0.0 max=180.0 step=1.0 value=s.theta_deg />
            <FloatSlider label="x" id="ctl-r-x" min=VECTOR_COORD.0 max=VECTOR_COORD.1 step=0.01 value=x />
            <FloatSlider label="y" id="ctl-r-y" min=VECTOR_COORD.0 max=VECTOR_COORD.1 step=0.01 value=y />
        </div>
        <div class="figure-tools buttons">
            <button type="button" class="button" on:click=move |_| step_by(-1) title="Previous position">
                <span aria-hidden="true">"◀ "</span>
                "m − 1"
            </button>
            {animated.then(|| view! {
                <button type="button" class="button" on:click=toggle aria-pressed=move || player.playing.get().to_string()>
                    {move || if player.playing.get() { "❚❚ Pause" } else { "▶ Play" }}
                </button>
            })}
            <button type="button" class="button" on:click=move |_| step_by(1) title="Next position">
                "m + 1"
                <span aria-hidden="true">" ▶"</span>
            </button>
            <button type="button" class="button" on:click=apple>
                "Walkthrough: [1, 0] (the word “apple”), 90° per position"
            </button>
        </div>
        <DragCanvas node_ref=canvas_ref label=describe
            drag=Drag::new(set_from_pointer, on_key) readout=readout />
        <table class="numbers">
            <caption>"v at the first positions (and the current one)"</caption>
            <thead>
                <tr><th scope="col">"position m"</th><th scope="col">"angle m·θ"</th><th scope="col">"R(m·θ)·v"</th></tr>
            </thead>
            <tbody>{table}</tbody>
        </table>
        <figcaption>
            "RoPE in two dimensions: the query (or key) vector v of a word at position m is turned by m·θ. "
            "Drag the tip of v (or focus the picture and use the arrow keys), change θ, or "
            "press play: the arrow turns, the dots mark the earlier positions, and the length "
            "stays |v| because a rotation never stretches."
        </figcaption>
    }
}
