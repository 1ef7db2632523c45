//! A costly value a figure derives from shared state, computed at once only while the figure is
//! near the screen. The toy sentence, `d` and the other chapter-wide controls feed figures in
//! several chapters; a figure's readout, sentence and test attributes read its memos even while it
//! is off screen (its canvas does not: see [`super::figure`]), so one keystroke in chapter 1 used
//! to recompute chapter 2's value-rotation curves (5 ms) inside the reader's frame (issue 25).
//!
//! Here the value follows its inputs at once while the figure is near, and in the next idle
//! period while it is not: an input elsewhere in the book never waits for it, and the text it
//! feeds is current by the time anyone (a reader scrolling, a screen reader) reaches it.

use std::cell::{Cell, RefCell};
use std::rc::Rc;

use leptos::prelude::*;

use super::tasks::{TaskQueue, When};

/// `compute(inputs())`, kept current: at once while `near` holds, else in the next idle period
/// (the newest inputs only). `inputs` is what the value depends on (cheap, tracked); `compute` is
/// the costly part (untracked). Computed once at creation.
pub fn near_memo<I, T>(
    near: RwSignal<bool>,
    inputs: impl Fn() -> I + 'static,
    compute: impl Fn(&I) -> T + 'static,
) -> ReadSignal<T>
where
    I: Clone + PartialEq + 'static,
    T: PartialEq + Send + Sync + 'static,
{
    let first = untrack(&inputs);
    let value = RwSignal::new(compute(&first));
    // The inputs of the value held, and the newest inputs read.
    let held = Rc::new(RefCell::new(first));
    let latest = Rc::new(RefCell::new(None::<I>));
    let poll = {
        let (held, latest) = (Rc::clone(&held), Rc::clone(&latest));
        move || {
            let now = inputs();
            let changed = *held.borrow() != now;
            *latest.borrow_mut() = Some(now);
            changed
        }
    };
    let update = move || {
        let Some(now) = latest.borrow_mut().take() else {
            return;
        };
        let _ = value.try_maybe_update(|v| {
            let next = compute(&now);
            let changed = *v != next;
            *v = next;
            (changed, ())
        });
        *held.borrow_mut() = now;
    };
    follow(near, Box::new(poll), Rc::new(update));
    value.read_only()
}

/// The part of [`near_memo`] that does not depend on its types (one copy in the wasm): whenever
/// `poll` (which reads the inputs, tracked) says they changed, runs `update` at once while `near`
/// holds, else once in the next idle period.
fn follow(near: RwSignal<bool>, poll: Box<dyn Fn() -> bool>, update: Rc<dyn Fn()>) {
    let pending = Rc::new(Cell::new(false));
    Effect::new(move |_| {
        let changed = poll();
        let is_near = near.get();
        if !changed || is_near {
            pending.set(false);
            if changed {
                update();
            }
            return;
        }
        if !pending.replace(true) {
            let (pending, update) = (Rc::clone(&pending), Rc::clone(&update));
            TaskQueue::push(&LATER, move || {
                if pending.replace(false) {
                    update();
                }
            });
        }
    });
}

thread_local! {
    /// Off-screen figures' values waiting for an idle period, one per period.
    static LATER: TaskQueue = const { TaskQueue::new(When::Idle, |_| {}) };
}
