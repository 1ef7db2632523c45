//! The clock analogy: for the current position, one clock per frequency pair, the hand at angle
//! `pos·ω_i` — fast "second hands" on the left, slow "hour hands" on the right.

use std::f64::consts::TAU;

use leptos::html::Canvas;
use leptos::prelude::*;

use crate::app::near;

use crate::app::dial::ClockPainter;
use crate::app::figure::{InteractiveCanvas, draw_effect};
use crate::app::frame::figure;
use crate::app::state::AppState;
use crate::app::theme::chapter_context;
use crate::chart::clock::{ClockLayout, pair_readout, shown_pairs};
use crate::scene::sinusoids as scene;

/// The clock figure with its readout.
#[component]
pub fn SinusoidalClocks() -> impl IntoView {
    let (state, theme) = chapter_context!(AppState.sinusoidal);
    let params = state.params();
    let pos = state.current_pos();
    let pairs = Memo::new(move |_| shown_pairs(&params.get()));

    let canvas_ref = NodeRef::<Canvas>::new();
    let layout = StoredValue::new(None::<ClockLayout>);
    let (selected, pointer) = crate::app::select::face_selection(
        canvas_ref,
        layout,
        Signal::derive(move || pairs.with(Vec::len)),
    );
    let mut painter = ClockPainter::default();
    let stats = draw_effect(canvas_ref, move |canvas| {
        let drawn = pairs.with(|pairs| {
            let spec =
                scene::clocks_spec(&params.get(), pos.get(), pairs, selected.get(), theme.get());
            painter.paint(canvas, scene::clocks_height, &spec)
        });
        layout.set_value(drawn);
    });

    let readout = move || {
        let p = params.get();
        let at = pos.get();
        match selected
            .get()
            .and_then(|k| pairs.with(|v| v.get(k).copied()))
        {
            Some(i) => pair_readout(&p, at, i),
            None => "Hover a clock (or focus the figure and use the arrow keys) to read its hand."
                .to_string(),
        }
    };
    let readings = Memo::new(move |_| crate::explain::sinusoids::readings(&params.get()));
    let describe = move || {
        let p = params.get();
        let at = pos.get() as f64;
        let turns = |k: usize| at * p.pair_omega(k) / TAU;
        // The hands drawn are the complete pairs shown (a lone sine has no clock).
        let (first, last) = pairs.with(|v| (v.first().copied(), v.last().copied()));
        format!(
            "{} for position {}. Each hand turns by pos times the pair's frequency: \
             at this position the first hand has made {:.2} turns and the last {:.4}; {}.",
            crate::explain::count(pairs.with(Vec::len), "clock face", "clock faces"),
            pos.get(),
            first.map_or(0.0, turns),
            last.map_or(0.0, turns),
            readings.get()
        )
    };

    figure! { "fig-clocks", "ctl-pos ctl-d ctl-base spacing", stats;
        <InteractiveCanvas node_ref=canvas_ref readout=readout label=describe
            pointer=pointer />
        <figcaption>
            "Each frequency pair is a clock hand: its tip is (sin, cos) of pos·ω" <sub>"i"</sub>
            ". λ is the pair's wavelength in positions. "
            {near::text(move || crate::explain::sinusoids::clocks_shown_text(&params.get()))}
            " Move the position slider and watch the "
            "fast hands race while the slow ones creep, like the second, minute and hour hands "
            "of a clock; " {near::text(move || readings.get().to_string())} "."
        </figcaption>
    }
}
