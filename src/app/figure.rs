//! What every canvas figure shares: redraw when what it reads changes or the window resizes, and
//! record how long the redraw took (`data-draw-ms`) and when it ended (`data-drawn-at`, for the
//! browser benchmark's input → repainted latency).

use leptos::html::Canvas;
use leptos::prelude::*;
use web_sys::HtmlCanvasElement;

/// A counter bumped on every window resize; one listener for the whole page.
#[derive(Clone, Copy)]
pub struct Resize(RwSignal<u32>);

/// Installs the page's resize listener and provides [`Resize`] to the components below.
pub fn provide_resize() {
    let tick = RwSignal::new(0u32);
    let _ = window_event_listener(leptos::ev::resize, move |_| {
        tick.update(|t| *t = t.wrapping_add(1));
    });
    provide_context(Resize(tick));
}

/// Timing of a figure's last redraw.
#[derive(Clone, Copy)]
pub struct DrawStats {
    /// How long the last recompute + redraw took, in milliseconds.
    pub ms: RwSignal<f64>,
    /// `performance.now()` when the last redraw ended.
    pub at: RwSignal<f64>,
}

impl DrawStats {
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

/// Runs `draw` with the mounted canvas whenever a signal it reads changes or the window resizes,
/// and times each run. `draw` must only read state and paint: it never writes state.
pub fn draw_effect(
    canvas: NodeRef<Canvas>,
    mut draw: impl FnMut(&HtmlCanvasElement) + 'static,
) -> DrawStats {
    let stats = DrawStats {
        ms: RwSignal::new(0.0),
        at: RwSignal::new(0.0),
    };
    let resize = use_context::<Resize>();
    Effect::new(move |_| {
        if let Some(Resize(tick)) = resize {
            tick.track();
        }
        let Some(el) = canvas.get() else {
            return;
        };
        let start = now();
        draw(&el);
        let end = now();
        stats.ms.set(end - start);
        stats.at.set(end);
    });
    stats
}
