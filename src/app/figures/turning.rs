//! A 3D point cloud's canvas: dragging turns the view (half a degree a pixel), the arrow keys turn
//! it by 5°, and hovering picks the nearest point. The token cloud and chapter 6's cloud of
//! position ids share it.

use leptos::html::Canvas;
use leptos::prelude::*;

use crate::app::canvas::device_pixel_ratio;
use crate::app::figure::Drag;
use crate::app::select::event_pixel;
use crate::chart::cloud::CloudLayout;

/// The canvas's [`Drag`]: `view` (yaw, pitch in degrees; pitch kept within `pitch`) turned by
/// dragging and the arrow keys; `hovered` the point of `layout` nearest the pointer (within 12
/// CSS pixels), cleared when it leaves.
pub fn turning(
    canvas: NodeRef<Canvas>,
    view: RwSignal<[f64; 2]>,
    pitch: (f64, f64),
    layout: StoredValue<CloudLayout>,
    hovered: RwSignal<Option<usize>>,
) -> Drag {
    let turn = move |dy: f64, dp: f64| {
        view.update(|[y, p]| {
            *y = wrap(*y + dy);
            *p = (*p + dp).clamp(pitch.0, pitch.1);
        });
    };
    let last = StoredValue::new((0, 0));
    let on_drag = move |ev: &web_sys::PointerEvent, first: bool| {
        let (x0, y0) = last.get_value();
        last.set_value((ev.client_x(), ev.client_y()));
        if !first {
            let (dx, dy) = (ev.client_x() - x0, ev.client_y() - y0);
            turn(f64::from(dx) * 0.5, f64::from(dy) * 0.5);
        }
    };
    let on_key = move |ev: web_sys::KeyboardEvent| {
        let (dy, dp) = match ev.key().as_str() {
            "ArrowLeft" => (-5.0, 0.0),
            "ArrowRight" => (5.0, 0.0),
            "ArrowUp" => (0.0, -5.0),
            "ArrowDown" => (0.0, 5.0),
            _ => return,
        };
        ev.prevent_default();
        turn(dy, dp);
    };
    let on_hover = move |ev: &web_sys::PointerEvent| {
        if let Some(el) = canvas.get_untracked() {
            let (x, y) = event_pixel(&el, ev);
            let hit = layout.with_value(|l| l.nearest(x, y, 12.0 * device_pixel_ratio()));
            if hit != hovered.get_untracked() {
                hovered.set(hit);
            }
        }
    };
    Drag::new(on_drag, on_key).hovering(on_hover, move || hovered.set(None))
}

/// A turn wrapped into [−180°, 180°].
fn wrap(deg: f64) -> f64 {
    (deg + 180.0).rem_euclid(360.0) - 180.0
}
