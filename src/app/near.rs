//! Text out of view follows the controls once they settle (issue 25).
//!
//! One move of a chapter-wide control (chapter 1's d_model, chapter 2's head_dim) rewrote about
//! twenty captions, readouts, canvas labels and paragraphs across its chapter, most of them out of
//! view. The wasm took about 3 ms; the browser's layout and paint of that text took about 10 ms
//! more, inside the reader's frame (hiding the out-of-view text halved the frame's update). So text
//! that depends on the controls waits while its part of the page (a figure, a paragraph) is out
//! of view: it changes at once while the part is in view, when the part comes into view, and
//! otherwise once the controls have been still for [`SETTLE_MS`] — all of it in one task, when the
//! reader is not waiting for a frame. A screen reader, or a reader who scrolls, meets current text:
//! nothing is stale for longer than a pause of the hand.
//!
//! The canvases already work this way (off screen they are not drawn, [`super::figure`]); their
//! costly derived values too ([`super::lazy`]).
//!
//! While text waits, `<main id="app">` carries `data-settling` (tests wait for it to go).

use std::cell::{Cell, RefCell};
use std::rc::Rc;
use std::sync::Arc;

use leptos::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen::closure::Closure;
use web_sys::{IntersectionObserver, IntersectionObserverEntry};

/// How long the controls must be still before text out of view follows them, in milliseconds: a
/// key held down repeats every ~33 ms and a drag moves every frame, so text waits through both.
const SETTLE_MS: f64 = 120.0;

/// Whether a part of the page (a figure, a paragraph) is in the viewport, as its text sees it.
#[derive(Clone, Copy)]
pub struct Near(RwSignal<bool>);

impl Default for Near {
    fn default() -> Near {
        Near::new()
    }
}

impl Near {
    /// Not in view until an observer says so (text built now is current anyway).
    pub fn new() -> Near {
        Near(RwSignal::new(false))
    }

    /// `f`, as the part shows it: at once while the part is in view, else once the controls
    /// settle (see the module's comment).
    pub fn text<T>(self, f: impl Fn() -> T + Send + Sync + 'static) -> Signal<T>
    where
        T: Clone + PartialEq + Send + Sync + 'static,
    {
        self.text_of(Arc::new(f))
    }

    /// [`Near::text`] for `f` as `dyn` (one copy in the wasm per type of text, not one per
    /// closure: per closure, the book's hundred-odd texts cost about 25 KB of gzipped wasm).
    #[inline(never)]
    fn text_of<T>(self, f: Text<T>) -> Signal<T>
    where
        T: Clone + PartialEq + Send + Sync + 'static,
    {
        let latest = Memo::new(move |_| f());
        let shown = RwSignal::new(latest.get_untracked());
        follow(
            self.0,
            Box::new(move || latest.track()),
            // Run from a timer too, perhaps after the part was unmounted (an embed swapped):
            // then the text is gone and there is nothing to show.
            Rc::new(move || {
                let Some(now) = latest.try_get_untracked() else {
                    return;
                };
                if shown.try_with_untracked(|s| *s != now) == Some(true) {
                    let _ = shown.try_set(now);
                }
            }),
        );
        shown.into()
    }
}

/// A text that follows the controls.
type Text<T> = Arc<dyn Fn() -> T + Send + Sync>;

/// The directive that keeps `near` current for `el` (`<p use:watch=near>`): an observer per part.
/// Without `IntersectionObserver` support, the part counts as in view.
pub fn watch(el: leptos::tachys::renderer::types::Element, near: Near) {
    // Disposed with its part (an embed swapped): nothing to update.
    observe(&el, "0px", move |is_near| {
        let _ = near.0.try_set(is_near);
    });
}

/// Calls `on_change` with whether `el` is within `margin` (CSS `rootMargin`) of the viewport,
/// whenever that changes; with `true` at once where `IntersectionObserver` is missing. The
/// observer lives as long as the page.
pub fn observe(el: &web_sys::Element, margin: &str, on_change: impl FnMut(bool) + 'static) {
    let on_change = Rc::new(RefCell::new(on_change));
    let report = Rc::clone(&on_change);
    let callback = Closure::<dyn FnMut(js_sys::Array)>::new(move |entries: js_sys::Array| {
        if let Some(last) = entries.iter().last() {
            let entry: IntersectionObserverEntry = last.unchecked_into();
            (report.borrow_mut())(entry.is_intersecting());
        }
    });
    let init = web_sys::IntersectionObserverInit::new();
    init.set_root_margin(margin);
    match IntersectionObserver::new_with_options(callback.as_ref().unchecked_ref(), &init) {
        Ok(observer) => {
            observer.observe(el);
            callback.forget();
        }
        Err(_) => (on_change.borrow_mut())(true),
    }
}

/// `f`, as the figure being built shows it ([`Near::text`] with the figure's [`Near`], which
/// `figure!` provides); outside a figure, `f` at once.
pub fn text<T>(f: impl Fn() -> T + Send + Sync + 'static) -> Signal<T>
where
    T: Clone + PartialEq + Send + Sync + 'static,
{
    text_of(Arc::new(f))
}

/// [`text`] for `f` as `dyn`.
#[inline(never)]
fn text_of<T>(f: Text<T>) -> Signal<T>
where
    T: Clone + PartialEq + Send + Sync + 'static,
{
    match use_context::<Near>() {
        Some(near) => near.text_of(f),
        None => Signal::derive(move || f()),
    }
}

/// The part of [`Near::text`] that does not depend on its type (one copy in the wasm): whenever
/// `track` (the text, read tracked) changes or the part comes into view, `sync` shows it, at once
/// in view, else once the controls settle.
fn follow(near: RwSignal<bool>, track: Box<dyn Fn()>, sync: Rc<dyn Fn()>) {
    let queued = Rc::new(Cell::new(false));
    Effect::new(move |ran: Option<()>| {
        track();
        let in_view = near.get();
        // The first run shows what changed since the text was read (usually nothing).
        if in_view || ran.is_none() {
            sync();
        } else if !queued.replace(true) {
            settle_later(Rc::clone(&queued), Rc::clone(&sync));
        } else {
            LAST_CHANGE.with(|t| t.set(js_sys::Date::now()));
        }
    });
}

/// Text waiting for the controls to settle: whether it still waits, and what shows it.
type Waiting = (Rc<Cell<bool>>, Rc<dyn Fn()>);

thread_local! {
    /// Text waiting for the controls to settle ([`settle_later`]).
    static WAITING: RefCell<Vec<Waiting>> = const { RefCell::new(Vec::new()) };
    /// When text last changed out of view (`Date.now()`, in milliseconds).
    static LAST_CHANGE: Cell<f64> = const { Cell::new(0.0) };
    /// Whether a timer is set to show it.
    static TIMER: Cell<bool> = const { Cell::new(false) };
}

/// Queues `sync` for when the controls settle.
fn settle_later(queued: Rc<Cell<bool>>, sync: Rc<dyn Fn()>) {
    WAITING.with(|w| w.borrow_mut().push((queued, sync)));
    LAST_CHANGE.with(|t| t.set(js_sys::Date::now()));
    if !TIMER.with(|t| t.replace(true)) {
        mark_settling(true);
        check_after(SETTLE_MS);
    }
}

/// Shows the waiting text if nothing changed for [`SETTLE_MS`], else looks again when it will
/// have been that long.
fn check_after(ms: f64) {
    set_timeout(
        || {
            let still = js_sys::Date::now() - LAST_CHANGE.with(Cell::get);
            if still < SETTLE_MS {
                check_after(SETTLE_MS - still);
                return;
            }
            TIMER.with(|t| t.set(false));
            for (queued, sync) in WAITING.with(|w| std::mem::take(&mut *w.borrow_mut())) {
                if queued.replace(false) {
                    sync();
                }
            }
            mark_settling(false);
        },
        std::time::Duration::from_micros((ms.max(1.0) * 1000.0) as u64),
    );
}

/// Mirrors whether text waits on `<main id="app">` as `data-settling`.
fn mark_settling(waiting: bool) {
    if let Some(app) = document().get_element_by_id("app") {
        let _ = if waiting {
            app.set_attribute("data-settling", "")
        } else {
            app.remove_attribute("data-settling")
        };
    }
}
