//! Figures that a layout change pushes into the viewport draw in that same frame (issue 25).
//!
//! A figure learns that it is in view from an `IntersectionObserver`, whose reports come after the
//! frame is painted. When an input makes the text above a figure grow or shrink (the ALiBi slopes
//! explanation is longer for a number of heads that is not a power of two), a figure just past the
//! fold moves into view and shows its old picture, or an empty canvas, for a frame: the reader's
//! clock for ALiBi's head count read 25–39 ms at p95 for that reason.
//!
//! A `ResizeObserver` on `<main id="app">` reports after layout and before paint whenever the book's
//! height changes. Then each figure within a screen of the view ([`track`]) that is not yet counted
//! as near is checked against the viewport, and marked near if it is in it: its draw runs in a
//! microtask of that callback, before the frame is painted. Only those figures are read (a handful
//! of `getBoundingClientRect` calls on a layout that is already clean), and only when the height
//! changed.

use std::cell::RefCell;

use leptos::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen::closure::Closure;
use web_sys::{Element, ResizeObserver};

thread_local! {
    /// The figures within a screen of the view: a canvas, and the signal that says it is near.
    static SOON: RefCell<Vec<(Element, RwSignal<bool>)>> = const { RefCell::new(Vec::new()) };
    /// Whether the observer on `<main id="app">` is set.
    static OBSERVING: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Counts `el` (a figure's canvas, whose `near` its own observer keeps) among the figures within a
/// screen of the view while `soon` holds.
pub fn track(el: &Element, near: RwSignal<bool>, soon: bool) {
    SOON.with(|list| {
        let mut list = list.borrow_mut();
        list.retain(|(e, _)| e != el);
        if soon {
            list.push((el.clone(), near));
        }
    });
    if soon && !OBSERVING.with(|o| o.replace(true)) {
        observe_book();
    }
}

/// Sets the observer on `<main id="app">` (nothing where it or `ResizeObserver` is missing).
fn observe_book() {
    let Some(book) = document().get_element_by_id("app") else {
        return;
    };
    let on_resize = Closure::<dyn FnMut(js_sys::Array)>::new(|_: js_sys::Array| mark_pushed_in());
    if let Ok(observer) = ResizeObserver::new(on_resize.as_ref().unchecked_ref()) {
        observer.observe(&book);
        // The observer and its callback live as long as the page.
        on_resize.forget();
    }
}

/// Marks near every tracked figure that is now in the viewport but not yet counted as near;
/// forgets figures that were unmounted.
fn mark_pushed_in() {
    let height = viewport_height();
    let mut pushed_in = Vec::new();
    SOON.with(|list| {
        list.borrow_mut()
            .retain(|(el, near)| match near.try_get_untracked() {
                None => false,
                Some(true) => true,
                Some(false) => {
                    if in_viewport(el, height) {
                        pushed_in.push(*near);
                    }
                    true
                }
            });
    });
    // Set outside the borrow: the draws they start may track or forget figures.
    for near in pushed_in {
        let _ = near.try_set(true);
    }
}

/// The viewport's height in CSS pixels (0 where the window gives none).
pub fn viewport_height() -> f64 {
    window()
        .inner_height()
        .ok()
        .and_then(|h| h.as_f64())
        .unwrap_or(0.0)
}

/// Whether any of `el`'s box is in a viewport `height` tall (its vertical extent only: the book
/// does not scroll sideways).
pub fn in_viewport(el: &Element, height: f64) -> bool {
    let rect = el.get_bounding_client_rect();
    rect.height() > 0.0 && rect.bottom() > 0.0 && rect.top() < height
}
