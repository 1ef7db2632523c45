//! Choosing with the pointer and the keys: a cell of a matrix figure, a face of a clock or wheel
//! figure. Hover maps the pointer through the layout the last draw kept; the arrow, Home/End and
//! Page keys step the selection; leaving the canvas clears it.

use leptos::html::Canvas;
use leptos::prelude::*;
use web_sys::HtmlCanvasElement;

use super::figure::Pointer;
use crate::chart::clock::ClockLayout;
use crate::chart::heatmap::HeatmapLayout;

/// The backend pixel under a mouse event on `canvas` (CSS offset × device-pixel ratio).
pub fn event_pixel(canvas: &HtmlCanvasElement, ev: &web_sys::MouseEvent) -> (f64, f64) {
    let ratio = f64::from(canvas.width()) / f64::from(canvas.client_width().max(1));
    (
        f64::from(ev.offset_x()) * ratio,
        f64::from(ev.offset_y()) * ratio,
    )
}

/// Arrow-key navigation over the cells `rows × cols`: the next cursor for `key` from `at`, or
/// `None` for keys it does not handle.
pub fn step_cursor(
    key: &str,
    at: (usize, usize),
    rows: std::ops::Range<usize>,
    cols: std::ops::Range<usize>,
) -> Option<(usize, usize)> {
    let (r, c) = at;
    let next = match key {
        "ArrowUp" => (r.saturating_sub(1), c),
        "ArrowDown" => (r + 1, c),
        "ArrowLeft" => (r, c.saturating_sub(1)),
        "ArrowRight" => (r, c + 1),
        "Home" => (r, cols.start),
        "End" => (r, cols.end.saturating_sub(1)),
        "PageUp" => (r.saturating_sub(10), c),
        "PageDown" => (r + 10, c),
        _ => return None,
    };
    Some((
        next.0
            .clamp(rows.start, rows.end.saturating_sub(1).max(rows.start)),
        next.1
            .clamp(cols.start, cols.end.saturating_sub(1).max(cols.start)),
    ))
}

/// The key handler of a matrix figure's canvas: the arrow, Home/End and Page keys move `cursor`
/// over the `size()` = (rows, columns) cells, starting from `start` when nothing is selected.
pub fn key_cursor(
    cursor: RwSignal<Option<(usize, usize)>>,
    size: impl Fn() -> (usize, usize) + Copy + 'static,
    start: (usize, usize),
) -> impl Fn(leptos::ev::KeyboardEvent) + Copy + 'static {
    move |ev| {
        let (rows, cols) = size();
        let at = cursor.get_untracked().unwrap_or(start);
        if let Some(next) = step_cursor(&ev.key(), at, 0..rows, 0..cols) {
            ev.prevent_default();
            cursor.set(Some(next));
        }
    }
}

/// Arrow-key navigation over `n` items in a row (clock faces, wheels): the next selection for
/// `key` from `at` (nothing selected starts at 0), or `None` for keys it does not handle or when
/// there are no items.
pub fn step_item(key: &str, at: Option<usize>, n: usize) -> Option<usize> {
    let last = n.checked_sub(1)?;
    Some(match key {
        "ArrowRight" | "ArrowDown" => at.map_or(0, |k| (k + 1).min(last)),
        "ArrowLeft" | "ArrowUp" => at.map_or(0, |k| k.saturating_sub(1)),
        "Home" => 0,
        "End" => last,
        _ => return None,
    })
}

/// Hover and keyboard selection over the faces of a clock or wheel figure: the selected face,
/// cleared whenever `count` drops to it or below (and when the pointer leaves), and the canvas's
/// [`Pointer`].
pub fn face_selection(
    canvas: NodeRef<Canvas>,
    layout: StoredValue<Option<ClockLayout>>,
    count: Signal<usize>,
) -> (RwSignal<Option<usize>>, Pointer) {
    let selected = RwSignal::new(None::<usize>);
    Effect::new(move |_| {
        let n = count.get();
        if selected.get_untracked().is_some_and(|k| k >= n) {
            selected.set(None);
        }
    });
    let on_key = move |ev: web_sys::KeyboardEvent| {
        let n = count.get_untracked();
        if let Some(next) = step_item(&ev.key(), selected.get_untracked(), n) {
            ev.prevent_default();
            selected.set(Some(next));
        }
    };
    let pointer = Pointer::new(hover_face(canvas, layout, selected), on_key).clearing(selected);
    (selected, pointer)
}

/// The `mousemove` handler of a figure of clock faces (or wheels): selects the face under the
/// pointer in the last drawn `layout` (none between faces).
pub fn hover_face(
    canvas: NodeRef<Canvas>,
    layout: StoredValue<Option<ClockLayout>>,
    selected: RwSignal<Option<usize>>,
) -> impl Fn(web_sys::MouseEvent) + Copy + 'static {
    move |ev| {
        let Some(el) = canvas.get_untracked() else {
            return;
        };
        let (x, y) = event_pixel(&el, &ev);
        let hit = layout.with_value(|l| l.as_ref().and_then(|l| l.clock_at(x, y)));
        if hit != selected.get_untracked() {
            selected.set(hit);
        }
    }
}

/// The `mousemove` handler of a matrix figure: maps the pointer to a cell of the last drawn
/// `layout` and moves `cursor` there (outside the cells it leaves the cursor alone).
pub fn hover_cell(
    canvas: NodeRef<Canvas>,
    layout: StoredValue<Option<HeatmapLayout>>,
    cursor: RwSignal<Option<(usize, usize)>>,
) -> impl Fn(web_sys::MouseEvent) + Copy + 'static {
    move |ev| {
        let Some(el) = canvas.get_untracked() else {
            return;
        };
        let (x, y) = event_pixel(&el, &ev);
        if let Some(cell) = layout.with_value(|l| l.as_ref().and_then(|l| l.cell_at(x, y))) {
            cursor.set(Some(cell));
        }
    }
}

/// The [`Pointer`] of a matrix figure's canvas: [`hover_cell`] moves `cursor`, `on_key` (usually
/// [`key_cursor`]) steps it, and leaving the canvas clears it.
pub fn cell_pointer(
    canvas: NodeRef<Canvas>,
    layout: StoredValue<Option<HeatmapLayout>>,
    cursor: RwSignal<Option<(usize, usize)>>,
    on_key: impl Fn(web_sys::KeyboardEvent) + 'static,
) -> Pointer {
    Pointer::new(hover_cell(canvas, layout, cursor), on_key).clearing(cursor)
}
