//! The hover cursor of line-plot figures: an index along the x axis, moved by the pointer or
//! the arrow keys.

use leptos::html::Canvas;
use leptos::prelude::*;

use crate::app::canvas::Surface;
use crate::app::figure::Pointer;
use crate::app::plot::paint_lines_with;
use crate::chart::lines::{Extras, LinePlotLayout, LinePlotSpec};

/// A cursor over `count()` items along a line plot's x axis: `index(x)` maps a data x to an item.
#[derive(Clone, Copy)]
pub struct XCursor {
    /// The item under the pointer or moved to with the keys.
    pub at: RwSignal<Option<usize>>,
    /// Where the plot was drawn (set by the drawing, read by the pointer).
    pub layout: StoredValue<Option<LinePlotLayout>>,
}

impl Default for XCursor {
    fn default() -> Self {
        XCursor::new()
    }
}

impl XCursor {
    /// A cursor with nothing selected.
    pub fn new() -> XCursor {
        XCursor {
            at: RwSignal::new(None),
            layout: StoredValue::new(None),
        }
    }

    /// The pointer handler: the item under the pointer, through `index`.
    pub fn on_move(
        self,
        canvas: NodeRef<Canvas>,
        count: impl Fn() -> usize + Copy + 'static,
        index: impl Fn(f64) -> f64 + Copy + 'static,
    ) -> impl Fn(web_sys::MouseEvent) + Copy + 'static {
        move |ev: web_sys::MouseEvent| {
            let Some(el) = canvas.get_untracked() else {
                return;
            };
            let ratio = f64::from(el.width()) / f64::from(el.client_width().max(1));
            let x = self.layout.with_value(|l| {
                l.as_ref()
                    .and_then(|l| l.data_x(f64::from(ev.offset_x()) * ratio))
            });
            let n = count();
            if let (Some(x), true) = (x, n > 0) {
                let i = index(x).round().clamp(0.0, (n - 1) as f64) as usize;
                self.at.set(Some(i));
            }
        }
    }

    /// The key handler: arrows step by one, Page keys by a tenth, Home/End to the ends.
    pub fn on_key(
        self,
        count: impl Fn() -> usize + Copy + 'static,
    ) -> impl Fn(web_sys::KeyboardEvent) + Copy + 'static {
        move |ev: web_sys::KeyboardEvent| {
            let n = count();
            if n == 0 {
                return;
            }
            let at = self.at.get_untracked().unwrap_or(0).min(n - 1);
            let page = (n / 10).max(1);
            let next = match ev.key().as_str() {
                "ArrowLeft" | "ArrowDown" => at.saturating_sub(1),
                "ArrowRight" | "ArrowUp" => (at + 1).min(n - 1),
                "PageDown" => (at + page).min(n - 1),
                "PageUp" => at.saturating_sub(page),
                "Home" => 0,
                "End" => n - 1,
                _ => return,
            };
            ev.prevent_default();
            self.at.set(Some(next));
        }
    }

    /// The canvas's [`Pointer`]: [`XCursor::on_move`] and [`XCursor::on_key`] (leaving the canvas
    /// keeps the item; `.clearing(cursor.at)` drops it).
    pub fn pointer(
        self,
        canvas: NodeRef<Canvas>,
        count: impl Fn() -> usize + Copy + 'static,
        index: impl Fn(f64) -> f64 + Copy + 'static,
    ) -> Pointer {
        Pointer::new(self.on_move(canvas, count, index), self.on_key(count))
    }

    /// Paints the line plot `spec` with `extras` on `surface` (its height by `height`) and keeps
    /// where it went, for the pointer.
    pub fn paint(
        self,
        surface: &Surface,
        height: impl Fn(f64) -> f64,
        spec: &LinePlotSpec,
        extras: &Extras,
    ) {
        self.layout
            .set_value(paint_lines_with(surface, height, spec, extras));
    }

    /// The selected item, below `n` (the last one if the list shrank).
    pub fn get(self, n: usize) -> Option<usize> {
        self.at.get().map(|i| i.min(n.saturating_sub(1)))
    }
}
