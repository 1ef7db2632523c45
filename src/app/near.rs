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

/// The directive that keeps `near` current for `el` (`<p use:watch=near>`), through [`observe`].
/// Without `IntersectionObserver` support, the part counts as in view.
pub fn watch(el: leptos::tachys::renderer::types::Element, near: Near) {
    // Disposed with its part (an embed swapped): nothing to update.
    observe(&el, "0px", move |is_near| {
        let _ = near.0.try_set(is_near);
    });
}

/// Calls `on_change` with whether `el` is within `margin` (CSS `rootMargin`) of the viewport,
/// whenever that changes; with `true` at once where `IntersectionObserver` is missing. The
/// observation lasts as long as the page.
///
/// All the elements watched with one margin share one observer. With an observer each (about 190
/// on the page), traces of head_dim moves on the wheels put the browser's intersection step at a
/// median 0.31 of the move's layout time; shared, at 0.25 (about 0.1–0.2 ms a frame).
pub fn observe(el: &web_sys::Element, margin: &'static str, on_change: impl FnMut(bool) + 'static) {
    let on_change: OnChange = Box::new(on_change);
    let unobserved = SHARED.with(|shared| {
        let mut shared = shared.borrow_mut();
        let index = match shared.iter().position(|o| o.margin == margin) {
            Some(index) => index,
            None => match Shared::new(margin) {
                Some(observer) => {
                    shared.push(observer);
                    shared.len() - 1
                }
                None => return Some(on_change),
            },
        };
        shared[index].add(el, on_change);
        None
    });
    if let Some(mut on_change) = unobserved {
        on_change(true);
    }
}

/// What is told of an element's intersections.
type OnChange = Box<dyn FnMut(bool)>;

/// One observer for every element watched with one margin, and what to tell of each.
struct Shared {
    margin: &'static str,
    observer: IntersectionObserver,
    /// Each element's slots in `calls` (a JS array of indices), held weakly.
    slots: js_sys::WeakMap,
    /// What to call per slot; a call is out of its slot while it runs.
    calls: Rc<RefCell<Vec<Option<OnChange>>>>,
}

thread_local! {
    /// The observers, one per margin in use.
    static SHARED: RefCell<Vec<Shared>> = const { RefCell::new(Vec::new()) };
}

impl Shared {
    /// An observer for `margin`; `None` without `IntersectionObserver` support.
    fn new(margin: &'static str) -> Option<Shared> {
        let calls: Rc<RefCell<Vec<Option<OnChange>>>> = Rc::default();
        let slots = js_sys::WeakMap::new();
        let (report, find) = (Rc::clone(&calls), slots.clone());
        let callback = Closure::<dyn FnMut(js_sys::Array)>::new(move |entries: js_sys::Array| {
            // An element reported twice in one batch is told its last state only.
            let mut last: Vec<(u32, bool)> = Vec::new();
            for entry in entries.iter() {
                let entry: IntersectionObserverEntry = entry.unchecked_into();
                let indices: js_sys::Array = find.get(&entry.target()).unchecked_into();
                let now = entry.is_intersecting();
                for index in indices.iter().filter_map(|i| i.as_f64()) {
                    let index = index as u32;
                    match last.iter_mut().find(|(i, _)| *i == index) {
                        Some(seen) => seen.1 = now,
                        None => last.push((index, now)),
                    }
                }
            }
            for (index, now) in last {
                // Taken out while it runs: it may watch another element, which adds a slot.
                let call = report
                    .borrow_mut()
                    .get_mut(index as usize)
                    .and_then(Option::take);
                if let Some(mut call) = call {
                    call(now);
                    report.borrow_mut()[index as usize] = Some(call);
                }
            }
        });
        let init = web_sys::IntersectionObserverInit::new();
        init.set_root_margin(margin);
        let observer =
            IntersectionObserver::new_with_options(callback.as_ref().unchecked_ref(), &init)
                .ok()?;
        // The observer and its callback live as long as the page.
        callback.forget();
        Some(Shared {
            margin,
            observer,
            slots,
            calls,
        })
    }

    /// Watches `el` for `on_change`.
    fn add(&self, el: &web_sys::Element, on_change: OnChange) {
        let index = {
            let mut calls = self.calls.borrow_mut();
            calls.push(Some(on_change));
            calls.len() - 1
        };
        let known = self.slots.get(el);
        let indices: js_sys::Array = if known.is_undefined() {
            let indices = js_sys::Array::new();
            self.slots.set(el, &indices);
            indices
        } else {
            // Watched already: observed again, so that the browser reports it afresh (to its
            // earlier watchers too, with the state they know).
            self.observer.unobserve(el);
            known.unchecked_into()
        };
        indices.push(&wasm_bindgen::JsValue::from(index as u32));
        self.observer.observe(el);
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
    super::deferred::mark_book("data-settling", waiting);
}
