//! Work done a piece per browser task, in the order it was queued, so that many small jobs never
//! add up to one long task that would delay the reader's input. The book's deferred parts
//! ([`super::deferred`]) run in the next task; the figures' first, off-screen draws
//! ([`super::figure`]) when the browser is idle.

use std::cell::{Cell, RefCell};
use std::collections::VecDeque;
use std::thread::LocalKey;

use leptos::prelude::window;
use wasm_bindgen::JsCast;
use wasm_bindgen::closure::Closure;

/// Runs `step` once per browser task (`setTimeout(…, 0)`) until it returns true, or until `newest`
/// no longer holds `ticket` (a newer run was asked for, so this one stops): long work done after
/// an input without a long task that the reader's next input would wait for.
pub fn run_in_slices(
    ticket: u64,
    newest: leptos::prelude::StoredValue<u64>,
    mut step: impl FnMut() -> bool + 'static,
) {
    use leptos::prelude::GetValue;
    leptos::prelude::set_timeout(
        move || {
            if newest.try_get_value() == Some(ticket) && !step() {
                run_in_slices(ticket, newest, step);
            }
        },
        std::time::Duration::ZERO,
    );
}

/// When a queue runs its next piece.
#[derive(Clone, Copy)]
pub enum When {
    /// In the next task (`setTimeout(…, 0)`).
    Next,
    /// In the next idle period (`requestIdleCallback`, or a 40 ms timer where the browser has
    /// none).
    Idle,
}

/// A queue of pieces of work, run one per task.
pub struct TaskQueue {
    pieces: RefCell<VecDeque<Box<dyn FnOnce()>>>,
    /// Whether a task is already scheduled to run the next piece.
    scheduled: Cell<bool>,
    when: When,
    /// Told how many pieces wait, whenever that changes.
    report: fn(usize),
    /// While held, no piece runs (they keep their order and count as waiting).
    held: Cell<bool>,
}

impl TaskQueue {
    /// An empty queue running its pieces `when`, telling `report` how many wait.
    pub const fn new(when: When, report: fn(usize)) -> TaskQueue {
        TaskQueue {
            pieces: RefCell::new(VecDeque::new()),
            scheduled: Cell::new(false),
            when,
            report,
            held: Cell::new(false),
        }
    }

    /// Runs no more pieces until [`TaskQueue::release`] (the piece running now ends as usual).
    pub fn hold(queue: &'static LocalKey<TaskQueue>) {
        queue.with(|q| q.held.set(true));
    }

    /// Runs the pieces again, from the next one on, after a hold.
    pub fn release(queue: &'static LocalKey<TaskQueue>) {
        let start = queue.with(|q| {
            q.held.set(false);
            !q.pieces.borrow().is_empty() && !q.scheduled.replace(true)
        });
        if start {
            schedule(queue);
        }
    }

    /// Queues `piece` to run in a task of its own, after everything queued before it.
    pub fn push(queue: &'static LocalKey<TaskQueue>, piece: impl FnOnce() + 'static) {
        let start = queue.with(|q| {
            let waiting = {
                let mut pieces = q.pieces.borrow_mut();
                pieces.push_back(Box::new(piece));
                pieces.len()
            };
            (q.report)(waiting);
            !q.held.get() && !q.scheduled.replace(true)
        });
        if start {
            schedule(queue);
        }
    }
}

/// Runs the next piece of `queue`, then schedules the one after it.
fn run_next(queue: &'static LocalKey<TaskQueue>) {
    let piece = queue.with(|q| {
        let piece = (!q.held.get())
            .then(|| q.pieces.borrow_mut().pop_front())
            .flatten();
        if piece.is_none() {
            q.scheduled.set(false);
        }
        piece
    });
    let Some(piece) = piece else {
        return;
    };
    piece();
    let more = queue.with(|q| {
        let waiting = q.pieces.borrow().len();
        (q.report)(waiting);
        let more = waiting > 0 && !q.held.get();
        q.scheduled.set(more);
        more
    });
    if more {
        schedule(queue);
    }
}

fn schedule(queue: &'static LocalKey<TaskQueue>) {
    let step = Closure::once_into_js(move || run_next(queue));
    let window = window();
    let (idle, timer_ms) = match queue.with(|q| q.when) {
        When::Next => (None, 0),
        When::Idle => (
            js_sys::Reflect::get(&window, &"requestIdleCallback".into())
                .ok()
                .and_then(|f| f.dyn_into::<js_sys::Function>().ok()),
            40,
        ),
    };
    let scheduled = match idle {
        Some(request) => request.call1(&window, &step).is_ok(),
        None => window
            .set_timeout_with_callback_and_timeout_and_arguments_0(step.unchecked_ref(), timer_ms)
            .is_ok(),
    };
    if !scheduled {
        queue.with(|q| q.scheduled.set(false));
    }
}
