//! What every canvas figure shares: redraw when what it reads changes or the canvas is resized, only
//! while the canvas is on screen, and record how long the redraw took (`data-draw-ms`) and when it
//! ended (`data-drawn-at`, for the browser benchmark).
//!
//! The canvas width comes from a `ResizeObserver`, never from `clientWidth` while drawing: reading
//! layout right after an input forces a synchronous style and layout pass (0.5–0.9 ms a redraw).
//!
//! Every figure is linked to the same sliders, so one input could repaint a dozen canvases. An
//! `IntersectionObserver` tells each figure whether it is within [`NEAR_MARGIN`] of the viewport;
//! figures further away skip the work and repaint, with the current values, when they scroll in.

use leptos::html::Canvas;
use leptos::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen::closure::Closure;
use web_sys::{HtmlCanvasElement, ResizeObserver, ResizeObserverEntry};

use super::canvas::{Surface, sizing_only};
use super::near;
use super::shifted;
use super::tasks::{TaskQueue, When};

mod canvases;
pub use canvases::*;

/// Timing of a figure's last redraw.
#[derive(Clone, Copy, Default)]
pub struct DrawStats {
    /// How long the last recompute + redraw took, in milliseconds.
    pub ms: RwSignal<f64>,
    /// `performance.now()` when the last redraw ended.
    pub at: RwSignal<f64>,
    /// Whether the figure is in the viewport: any of its canvases (animations stop when none is).
    pub near: RwSignal<bool>,
    /// Whether each canvas the figure is drawn on is in the viewport, in the order they were
    /// watched. One list per figure: a figure whose panels are drawn by separate effects sharing
    /// these stats (chapter 3's wavelengths and slow-downs) was counted as off screen whenever the
    /// last panel to report had left, though the other was in view.
    seen: StoredValue<Vec<bool>>,
}

impl DrawStats {
    /// Fresh stats (nothing drawn yet).
    pub fn new() -> DrawStats {
        DrawStats {
            ms: RwSignal::new(0.0),
            at: RwSignal::new(0.0),
            near: RwSignal::new(false),
            seen: StoredValue::new(Vec::new()),
        }
    }

    /// `data-draw-ms` text.
    pub fn ms_text(self) -> impl Fn() -> String + Copy + Send + Sync + 'static {
        move || format!("{:.3}", self.ms.get())
    }

    /// `data-drawn-at` text.
    pub fn at_text(self) -> impl Fn() -> String + Copy + Send + Sync + 'static {
        move || format!("{:.3}", self.at.get())
    }
}

/// Milliseconds from the page's time origin (0 if unavailable).
pub fn now() -> f64 {
    web_sys::window()
        .and_then(|w| w.performance())
        .map(|p| p.now())
        .unwrap_or(0.0)
}

/// Counts `el` among the canvases of the figure `stats` times: `stats.near` holds while any of them
/// is within [`NEAR_MARGIN`] of the viewport. Each canvas mirrors its own state as `data-near` and
/// `data-near-at` (after which its picture is current: when it came near, or the last draw if the
/// figure was near already) so tests can wait for that repaint. Without `IntersectionObserver`
/// support, `near` is simply set.
fn watch_visibility(el: &HtmlCanvasElement, stats: DrawStats) {
    let Some(index) = stats.seen.try_update_value(|seen| {
        seen.push(false);
        seen.len() - 1
    }) else {
        return;
    };
    let canvas = el.clone();
    near::observe(el, NEAR_MARGIN, move |is_near| {
        // A figure that was unmounted (an embed swapped, a test's app dropped) has disposed
        // its signals: its observer then does nothing instead of panicking.
        let Some(was) = stats.near.try_get_untracked() else {
            return;
        };
        let _ = canvas.set_attribute("data-near", if is_near { "true" } else { "false" });
        if is_near {
            // Near already (another of its canvases, or `shifted` before this report): no draw
            // follows, and the last one drew every canvas.
            let since = if was { stats.at.get_untracked() } else { now() };
            let _ = canvas.set_attribute("data-near-at", &format!("{since:.3}"));
        }
        let any = stats.seen.try_update_value(|seen| {
            if let Some(slot) = seen.get_mut(index) {
                *slot = is_near;
            }
            seen.iter().any(|&s| s)
        });
        // Unchanged, it is left alone: a set would draw again.
        if let Some(any) = any.filter(|&any| any != was) {
            stats.near.set(any);
        }
    });
}

/// The laid-out CSS width of `canvas` (0 until it is mounted and laid out), kept current by a
/// `ResizeObserver`.
fn observed_width(canvas: NodeRef<Canvas>) -> RwSignal<f64> {
    let width = RwSignal::new(0.0);
    once_mounted(canvas, move |el| watch_width(el, width));
    width
}

/// A figure's second canvas, painted by the same effect as its first (the curve beside a matrix,
/// the right-hand matrix of a pair, the small multiples): its node, and its laid-out CSS width
/// (0 until it is mounted and laid out), kept current by a `ResizeObserver`.
#[derive(Clone, Copy)]
pub struct SecondCanvas {
    /// The canvas element's node.
    pub node: NodeRef<Canvas>,
    width: RwSignal<f64>,
}

impl Default for SecondCanvas {
    fn default() -> Self {
        SecondCanvas::new()
    }
}

impl SecondCanvas {
    /// A canvas to mount with `node_ref=…node`, its width watched once it is mounted.
    pub fn new() -> SecondCanvas {
        let node = NodeRef::<Canvas>::new();
        SecondCanvas {
            node,
            width: observed_width(node),
        }
    }

    /// The surface to paint, or `None` before the canvas is mounted. Tracks the node and the
    /// width, so the effect that reads it repaints when either changes.
    pub fn surface(self) -> Option<Surface> {
        Some(Surface {
            el: self.node.get()?,
            css_width: self.width.get(),
        })
    }
}

/// Runs `setup` once, with the canvas, as soon as it is mounted.
fn once_mounted(canvas: NodeRef<Canvas>, setup: impl Fn(&HtmlCanvasElement) + 'static) {
    Effect::new(move |done: Option<bool>| {
        if done == Some(true) {
            return true;
        }
        canvas.get().map(|el| setup(&el)).is_some()
    });
}

/// Sets `width` to `el`'s laid-out CSS width whenever it changes (the observer reports after
/// layout, so nothing is forced). Without `ResizeObserver` support, reads it once.
fn watch_width(el: &HtmlCanvasElement, width: RwSignal<f64>) {
    let on_change = Closure::<dyn FnMut(js_sys::Array)>::new(move |entries: js_sys::Array| {
        if let Some(last) = entries.iter().last() {
            let entry: ResizeObserverEntry = last.unchecked_into();
            let w = entry.content_rect().width();
            // Disposed with its figure: nothing to update.
            if width.try_get_untracked().is_some_and(|old| old != w) {
                let _ = width.try_set(w);
            }
        }
    });
    match ResizeObserver::new(on_change.as_ref().unchecked_ref()) {
        Ok(observer) => {
            observer.observe(el);
            // The observer and its callback live as long as the page.
            on_change.forget();
        }
        Err(_) => width.set(f64::from(el.client_width())),
    }
}

/// How far outside the viewport a figure still counts as visible: none. A margin (120 px tried)
/// made every input redraw the figure just below the fold too, unseen (chapter 1's base slider 8
/// → 22 ms by the reader's clock); a figure pushed across the fold is drawn by [`shifted`].
const NEAR_MARGIN: &str = "0px";

/// Runs `draw` with the mounted canvas whenever a signal it reads changes or the canvas is
/// resized, while the canvas is near the viewport and laid out, and times each run. `draw` must
/// only read state and paint.
pub fn draw_effect(canvas: NodeRef<Canvas>, draw: impl FnMut(&Surface) + 'static) -> DrawStats {
    let stats = DrawStats::new();
    draw_effect_into(canvas, stats, draw);
    stats
}

/// [`draw_effect`] recording into existing `stats` (figures with several canvases share one).
pub fn draw_effect_into(
    canvas: NodeRef<Canvas>,
    stats: DrawStats,
    draw: impl FnMut(&Surface) + 'static,
) {
    once_mounted(canvas, move |el| watch_visibility(el, stats));
    run_draws(canvas, stats, draw);
}

/// [`draw_effect_into`] for a figure drawn on several canvases, `panels` (the first is the one
/// `draw` is given): it draws while any of them is near the viewport, so a tall figure scrolled
/// to from below still paints.
pub fn draw_panels_effect(
    panels: &[NodeRef<Canvas>],
    stats: DrawStats,
    draw: impl FnMut(&Surface) + 'static,
) {
    let Some(&first) = panels.first() else {
        return;
    };
    for &panel in panels {
        once_mounted(panel, move |el| watch_visibility(el, stats));
    }
    run_draws(first, stats, draw);
}

/// The canvases of a figure drawn in `N` panels by one [`draw_panels_effect`], each with its
/// observed width.
#[derive(Clone, Copy)]
pub struct Panels<const N: usize> {
    /// The panels' canvases, in order. Panel 0's width is not observed here: the draw effect
    /// watches the canvas it is given, the first.
    canvases: [SecondCanvas; N],
}

impl<const N: usize> Default for Panels<N> {
    fn default() -> Panels<N> {
        Panels::new()
    }
}

impl<const N: usize> Panels<N> {
    /// `N` canvases, the widths of all but the first observed once they are mounted.
    pub fn new() -> Panels<N> {
        Panels {
            canvases: std::array::from_fn(|k| match k {
                0 => SecondCanvas {
                    node: NodeRef::new(),
                    width: RwSignal::new(0.0),
                },
                _ => SecondCanvas::new(),
            }),
        }
    }

    /// The node of panel `k`'s canvas (mount it with `node_ref=`).
    pub fn node(self, k: usize) -> NodeRef<Canvas> {
        self.canvases[k].node
    }

    /// The nodes of all the panels' canvases, in order.
    pub fn nodes(self) -> [NodeRef<Canvas>; N] {
        self.canvases.map(|c| c.node)
    }

    /// Redraws all of them on every change of what `draw` reads, each panel given its surface
    /// (panel 0 the one [`draw_panels_effect`] gives; the others at their observed widths, and
    /// skipped before they are mounted).
    pub fn draw(self, stats: DrawStats, mut draw: impl FnMut(usize, &Surface) + 'static) {
        draw_panels_effect(&self.nodes(), stats, move |first| {
            draw(0, first);
            for k in 1..N {
                if let Some(surface) = self.canvases[k].surface() {
                    draw(k, &surface);
                }
            }
        });
    }
}

/// The effect of [`draw_effect_into`]: draws on `canvas` whenever what `draw` reads changes or
/// the canvas is resized, while `stats.near` holds, and times each run.
///
/// A figure off screen is also sized once, in an idle moment after the page loads ([`PRIMERS`]):
/// its draw runs with [`super::canvas::sizing_only`], so its canvases take their heights and
/// nothing is drawn. A canvas that waited until it scrolled into view would grow there and push
/// the text under it down (layout shift); drawing every figure off screen instead cost a long
/// task each (up to 90 ms on a phone profile, much of it compiling drawing code) and their paints.
fn run_draws(canvas: NodeRef<Canvas>, stats: DrawStats, draw: impl FnMut(&Surface) + 'static) {
    // One copy of the effect for all 69 figures' draw closures, not one per closure type:
    // monomorphised, this function cost about as much wasm as the closures themselves.
    run_boxed_draws(canvas, stats, Box::new(draw));
}

fn run_boxed_draws(canvas: NodeRef<Canvas>, stats: DrawStats, mut draw: Box<dyn FnMut(&Surface)>) {
    let near = stats.near;
    let width = observed_width(canvas);
    // Set to size the canvases once even though off screen.
    let primed = RwSignal::new(false);
    once_mounted(canvas, move |el| {
        let prime = move || {
            // Already drawn (it came into view first), or unmounted: nothing to do.
            if stats.at.try_get_untracked() == Some(0.0) {
                let _ = primed.try_set(true);
            }
        };
        // In its turn in the idle queue, or at once when it comes within a screen of the view
        // first (a quick scroll outran the queue: layout shift 0.5–0.7 on an 800 × 1600 window).
        // Within a screen, it is one of the figures a layout change may push into view.
        TaskQueue::push(&PRIMERS, prime);
        let canvas = el.clone();
        near::observe(el, SOON_MARGIN, move |soon| {
            if soon {
                prime();
            }
            shifted::track(&canvas, near, soon);
        });
    });
    Effect::new(move |_| {
        let prime = primed.get();
        let is_near = near.get();
        // Off screen: read nothing else, so no input reaches this figure until it comes near.
        if !is_near && !prime {
            return;
        }
        let css_width = width.get();
        let Some(el) = canvas.get().filter(|_| css_width >= 1.0) else {
            return;
        };
        if !is_near {
            sizing_only(|| draw(&Surface { el, css_width }));
            primed.set(false);
            return;
        }
        let start = now();
        draw(&Surface { el, css_width });
        let end = now();
        stats.ms.set(end - start);
        stats.at.set(end);
        super::deferred::figure_drew();
        if prime {
            primed.set(false);
        }
    });
}

/// How close to the view a figure not yet sized is sized at once, ahead of its turn in
/// [`PRIMERS`]: a screen above or below.
const SOON_MARGIN: &str = "100% 0px";

/// Runs `then` in the idle queue that sizes the figures off screen, after every figure queued so
/// far ([`super::offscreen`] waits for their final sizes).
pub fn after_sizing(then: impl FnOnce() + 'static) {
    TaskQueue::push(&PRIMERS, then);
}

thread_local! {
    /// Figures waiting to be sized off screen, in page order: one per idle period, so the sizing
    /// passes never add up to a long task that would delay the reader's input.
    static PRIMERS: TaskQueue = const { TaskQueue::new(When::Idle, |_| {}) };
}
