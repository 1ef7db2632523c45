//! Mounting the book in slices. Building the whole book's DOM in one go was one long task, during
//! which the page cannot answer a tap: Lighthouse's simulated phone (4× slower CPU) counted 0.9 s
//! for it and 1.1 s of total blocking time. Parts wrapped in [`Deferred`] are built one per task
//! instead, right after the page's frame (header buttons, notices), in the order they were met:
//! the contents, chapter 1's first screen, each later chapter's frame and the footer, then the
//! parts inside those. Each slice takes a few milliseconds, the browser can paint and handle input
//! between them, and Lighthouse's blocking time fell to about 0.1 s, then (the contents and chapter
//! 1 in slices of their own instead of in the mount's task) to about 25 ms.
//!
//! Nothing on screen moves: a deferred part is empty until it is built, and each part is built
//! either after everything above it and before anything below it exists (the contents, chapter 1,
//! the footer), or far below the first screen (a browser test sums layout shifts during load).
//! Chapter 1's first screen is one part (on a 1280 × 900 desktop its first figure starts 555 px
//! down); the first part inside it starts about 1,500 px down at every width measured (412 to
//! 1,920 px). A link to a figure
//! (`#fig-…`) mounts everything at once, so the figure exists to scroll to; so does an embed,
//! which has one figure only.
//!
//! In a build split by chapter, a chapter whose module is on its way counts as pending too
//! ([`load_started`], [`load_ended`]), and [`when_built`] waits for it. A link to a figure waits
//! only for the figure's chapter and the chapters above it ([`when_built_through`]): what is built
//! below it later moves nothing in view, and a link into chapter 1 no longer waits for the
//! modules of chapters 2 to 4.
//!
//! While slices or chapters are pending, `<main id="app">` carries `data-pending` with their count
//! (tests wait for `0`).

use std::cell::{Cell, RefCell};

use leptos::prelude::*;

use super::tasks::{TaskQueue, When};

thread_local! {
    /// Slices waiting to be built, in the order they were met.
    static SLICES: TaskQueue = const { TaskQueue::new(When::Next, mark_pending) };
    /// Whether deferring is on (see [`defer_from_now`]).
    static ON: Cell<bool> = const { Cell::new(false) };
    /// Slices waiting, as last reported.
    static SLICES_WAITING: Cell<usize> = const { Cell::new(0) };
    /// How many loads of each chapter's module are on their way, by the chapter's place in the
    /// book (from 0).
    static LOADS: RefCell<Vec<usize>> = const { RefCell::new(Vec::new()) };
    /// What waits for the book, or for its first chapters, to be built ([`when_built_through`]).
    static WAITING: RefCell<Vec<Waiting>> = const { RefCell::new(Vec::new()) };
    /// Whether a figure has drawn (see [`FirstFigureFirst`]).
    static DREW: Cell<bool> = const { Cell::new(false) };
    /// Whether the book waits for its first figure to draw ([`FirstFigureFirst`]), and what
    /// waits with it ([`after_first_figure`]).
    static FIRST: RefCell<Option<Vec<Then>>> = const { RefCell::new(None) };
}

/// Something to run later.
type Then = Box<dyn FnOnce()>;

/// Something waiting to run once every chapter up to `through` (by place in the book, from 0) is
/// built, or with `through` `None`, the whole book.
struct Waiting {
    through: Option<usize>,
    then: Box<dyn FnOnce()>,
}

/// Longest wait for the first figure's draw before the rest of the book goes on anyway.
const FIRST_FIGURE_WAIT: std::time::Duration = std::time::Duration::from_millis(2000);

/// Put right after the part that holds the book's first figure: until that part is built and,
/// if the figure is then in view, until it has drawn (at most [`FIRST_FIGURE_WAIT`]), the parts
/// queued after it (the later chapters) wait, and so do the fetches of chapter modules
/// ([`after_first_figure`]). On a slow phone those modules' downloads and compiles otherwise
/// raced the first figure's draw, and when they won they delayed it by about 0.1–0.2 s (issue
/// 27: the remaining chapters come after the first live figure). With the figure out of view, or
/// not deferring (a link to a figure, an embed), nothing waits.
#[component]
pub fn FirstFigureFirst() -> impl IntoView {
    if ON.with(Cell::get) && !DREW.with(Cell::get) {
        FIRST.with(|f| {
            f.borrow_mut().get_or_insert_with(Vec::new);
        });
        TaskQueue::push(&SLICES, hold_for_first_figure);
    }
}

/// Runs `then` now, or once the book's first figure has drawn ([`FirstFigureFirst`]).
pub fn after_first_figure(then: impl FnOnce() + 'static) {
    let waits = FIRST.with(|f| match f.borrow_mut().as_mut() {
        Some(list) => {
            list.push(Box::new(then));
            None
        }
        None => Some(then),
    });
    if let Some(then) = waits {
        then();
    }
}

/// Whether what [`after_first_figure`] is given waits.
pub fn first_figure_pending() -> bool {
    FIRST.with(|f| f.borrow().is_some())
}

/// The part holding the first figure is built: if the figure is in view and has not drawn, the
/// book waits for it; else it goes on.
fn hold_for_first_figure() {
    let in_view = document()
        .query_selector("#app figure[id^='fig-'] canvas")
        .ok()
        .flatten()
        .is_some_and(|canvas| {
            let r = canvas.get_bounding_client_rect();
            let height = window()
                .inner_height()
                .ok()
                .and_then(|h| h.as_f64())
                .unwrap_or(0.0);
            r.width() > 0.0 && r.bottom() > 0.0 && r.top() < height
        });
    if in_view && first_figure_pending() {
        TaskQueue::hold(&SLICES);
        set_timeout(first_figure_done, FIRST_FIGURE_WAIT);
    } else {
        first_figure_done();
    }
}

/// The book's first figure has drawn (or need not be waited for): what waited goes on.
fn first_figure_done() {
    if let Some(waiting) = FIRST.with(|f| f.borrow_mut().take()) {
        TaskQueue::release(&SLICES);
        for then in waiting {
            then();
        }
    }
}

/// A figure has drawn: the book, if waiting for its first figure ([`FirstFigureFirst`]), goes on.
pub fn figure_drew() {
    if !DREW.with(|d| d.replace(true)) {
        first_figure_done();
    }
}

/// Chapter `place`'s module (by place in the book, from 0) is on its way: the chapter is not
/// built until [`load_ended`].
pub fn load_started(place: usize) {
    LOADS.with(|loads| {
        let mut loads = loads.borrow_mut();
        if loads.len() <= place {
            loads.resize(place.saturating_add(1), 0);
        }
        loads[place] += 1;
    });
    show_pending();
}

/// Runs `piece` in a task of its own, after the slices queued before it: a chapter whose module
/// has just arrived is built there, not in the task that received the module (modules arriving
/// together would otherwise build their chapters in one long task).
pub fn in_own_task(piece: impl FnOnce() + 'static) {
    TaskQueue::push(&SLICES, piece);
}

/// Chapter `place`'s module arrived (and the chapter is built) or failed to arrive.
pub fn load_ended(place: usize) {
    LOADS.with(|loads| {
        if let Some(n) = loads.borrow_mut().get_mut(place) {
            *n = n.saturating_sub(1);
        }
    });
    show_pending();
}

/// Turns deferring on for the page being mounted, unless the address names a fragment (a figure
/// or chapter to scroll to must exist at once).
pub fn defer_from_now() {
    let has_fragment = window().location().hash().is_ok_and(|h| h.len() > 1);
    ON.with(|on| on.set(!has_fragment));
}

/// Builds `children` now, or — while deferring is on — in a task of its own after everything
/// queued before it.
#[component]
pub fn Deferred(children: Children) -> impl IntoView {
    if !ON.with(Cell::get) {
        return children().into_any();
    }
    let ready = RwSignal::new(false);
    let slot = std::sync::Mutex::new(Some(children));
    TaskQueue::push(&SLICES, move || {
        let _ = ready.try_set(true);
    });
    // `ready` changes once, so this builds the children once.
    (move || {
        ready
            .get()
            .then(|| slot.lock().ok().and_then(|mut c| c.take()).map(|c| c()))
            .flatten()
    })
    .into_any()
}

/// Runs `then` once every deferred part of the book is built, including the parts inside parts
/// (queued only when their frame is built) and the chapters whose module is on its way; at once if
/// nothing waits.
pub fn when_built(then: impl FnOnce() + 'static) {
    when_built_through(None, then);
}

/// Runs `then` once the chapters up to place `through` (from 0) are built, whatever is still to
/// come below them; with `None`, once the whole book is ([`when_built`]). With a place, only a
/// chapter on its way holds it back, not a deferred slice: it is meant for a page that builds
/// everything at once (a link to a figure), where no slice is deferred, and for the order in which
/// arriving chapters are built ([`after_chapters_above`]).
pub fn when_built_through(through: Option<usize>, then: impl FnOnce() + 'static) {
    if is_built(through) {
        then();
    } else {
        let then = Box::new(then);
        WAITING.with(|w| w.borrow_mut().push(Waiting { through, then }));
    }
}

/// Whether the chapters up to `through` (or, with `None`, every slice and chapter) are built.
fn is_built(through: Option<usize>) -> bool {
    match through {
        Some(place) => LOADS.with(|loads| {
            let loads = loads.borrow();
            loads.iter().take(place.saturating_add(1)).all(|&n| n == 0)
        }),
        None => pending() == 0,
    }
}

/// Runs `then` once no chapter above place `place` (from 0) has its module on the way: a chapter
/// whose module arrives before those of the chapters above it is built after them, so that
/// nothing it adds pushes down what is already in view.
pub fn after_chapters_above(place: usize, then: impl FnOnce() + 'static) {
    match place.checked_sub(1) {
        None => then(),
        Some(above) => when_built_through(Some(above), then),
    }
}

/// Slices and chapters still to build, as `data-pending` shows them.
fn pending() -> usize {
    SLICES_WAITING.with(Cell::get) + LOADS.with(|loads| loads.borrow().iter().sum::<usize>())
}

/// Runs what waits and is now due, in the order it came (what runs may queue more slices or
/// fetch a chapter again: what comes after it is checked only then); the rest keeps waiting.
fn run_waiting() {
    for waiting in WAITING.with(|w| std::mem::take(&mut *w.borrow_mut())) {
        when_built_through(waiting.through, waiting.then);
    }
}

/// Notes the number of pending slices.
fn mark_pending(count: usize) {
    SLICES_WAITING.with(|n| n.set(count));
    show_pending();
}

/// Sets or removes the boolean attribute `name` of `<main id="app">`, by which tests know that the
/// book is busy: text waiting to settle ([`super::near`]), a link waiting to be written
/// ([`super::url`]).
pub fn mark_book(name: &str, on: bool) {
    if let Some(app) = document().get_element_by_id("app") {
        let _ = if on {
            app.set_attribute(name, "")
        } else {
            app.remove_attribute(name)
        };
    }
}

/// Mirrors the number of pending slices and chapters on `<main id="app">`; when something waiting
/// is due, it runs in a task of its own (not inside the queue's bookkeeping).
fn show_pending() {
    if let Some(app) = document().get_element_by_id("app") {
        let _ = app.set_attribute("data-pending", &pending().to_string());
    }
    let due = WAITING.with(|w| w.borrow().iter().any(|w| is_built(w.through)));
    if due {
        set_timeout(run_waiting, std::time::Duration::ZERO);
    }
}
