//! A learned position table and its cliff: rows `0 … n − 1` of a seeded `N(0, σ²)` table of
//! `max_len` rows, beside the sinusoidal table over the same rows. Past `max_len` the learned
//! table has no row (grey, hatched when there are many rows); the sinusoidal one goes on.

use std::cell::RefCell;

use leptos::html::Canvas;
use leptos::prelude::*;

use crate::app::near;

use super::{Presets, SeedField};
use crate::app::controls::IntSlider;
use crate::app::figure::{SecondCanvas, draw_effect};
use crate::app::frame::figure;
use crate::app::matrix::{MatrixPainter, MatrixPair};
use crate::app::select::key_cursor;
use crate::app::state::tables::TablesState;
use crate::app::theme::chapter_context;
use crate::chart::heatmap::HeatmapLayout;
use crate::explain::tables::learned_status;
use crate::params::tables::{MAX_LEN, SEQUENCE, WIDTH};
use crate::scene::tables as scene;

/// The figure.
#[component]
pub fn LearnedCliff() -> impl IntoView {
    let (s, theme) = chapter_context!(TablesState);
    let learned_ref = NodeRef::<Canvas>::new();
    let sin = SecondCanvas::new();
    let [learned_layout, sin_layout] = [(); 2].map(|_| StoredValue::new(None::<HeatmapLayout>));
    let cursor = RwSignal::new(None::<(usize, usize)>);
    let version = RwSignal::new(0u64);
    let (mut left, mut right) = (MatrixPainter::default(), MatrixPainter::default());
    let mut drawn_for = None;
    // Only the rows a pixel shows are drawn from the seed: painting goes row by row, so one row
    // of cache makes each drawn row cost one pass of `dim` draws.
    let row_cache = RefCell::new((usize::MAX, Vec::<f64>::new()));
    let stats = draw_effect(learned_ref, move |surface| {
        let (max_len, n, d, seed, t) = (
            s.max_len.get(),
            s.seq_len.get(),
            s.dim.get(),
            s.seed.get(),
            theme.get(),
        );
        if drawn_for != Some((max_len, n, d, seed)) {
            drawn_for = Some((max_len, n, d, seed));
            version.update(|v| *v += 1);
            row_cache.borrow_mut().0 = usize::MAX;
        }
        let v = Some(version.get_untracked());
        let [spec, sin_spec] = scene::learned_specs(n, d, t);
        let value = |r: usize, c: usize| {
            scene::learned_cell((max_len, d, seed), &mut row_cache.borrow_mut(), r, c)
        };
        learned_layout.set_value(left.paint_fn(
            surface,
            scene::learned_height,
            &spec,
            v,
            value,
            &[],
        ));
        let Some(surface) = sin.surface() else {
            return;
        };
        let waves = scene::column_waves(&scene::sinusoidal(n, d));
        sin_layout.set_value(right.paint_fn(
            &surface,
            scene::learned_height,
            &sin_spec,
            v,
            |r, c| scene::wave_cell(&waves, r, c),
            &[],
        ));
    });

    let on_key = key_cursor(
        cursor,
        move || (s.seq_len.get_untracked(), s.dim.get_untracked()),
        (0, 0),
    );
    let readout = move || {
        let Some((r, c)) = cursor.get() else {
            return "Hover either table (or focus it and use the arrow keys) to read a value."
                .to_string();
        };
        let (max_len, d, seed) = (s.max_len.get(), s.dim.get(), s.seed.get());
        if r >= s.seq_len.get() || c >= d {
            return String::new();
        }
        let sin = scene::sinusoidal(r + 1, d).value(r, c);
        if r >= max_len {
            format!(
                "Position {r}, column {c}: the learned table has no vector here (its rows are \
                 0 … {}); the sinusoidal value is {sin:.4}.",
                max_len - 1
            )
        } else {
            let learned =
                scene::learned_cell((max_len, d, seed), &mut (usize::MAX, Vec::new()), r, c);
            format!("Position {r}, column {c}: learned {learned:.4} · sinusoidal {sin:.4}")
        }
    };
    let status = move || learned_status(s.max_len.get(), s.seq_len.get());
    let describe = move || {
        format!(
            "Two heatmaps of {} positions by {} columns. Left, a learned table of {} rows drawn \
             from a normal distribution with seed {}: noise with no pattern{}. Right, the \
             sinusoidal table: waves that slow down from left to right, defined at every position.",
            s.seq_len.get(),
            s.dim.get(),
            s.max_len.get(),
            s.seed.get(),
            if s.seq_len.get() > s.max_len.get() {
                ", and greyed-out rows from position max_len on, where it has no vector"
            } else {
                ""
            }
        )
    };
    let presets = [
        ("bert", "BERT-base: 512 × 768", 512, 768),
        ("gpt2", "GPT-2 small: 1024 × 768", 1024, 768),
    ];

    figure! { "fig-tab-learned", "ctl-t-L ctl-t-n ctl-t-d ctl-t-seed", stats, [
        data-cell=move || cursor.get().map(|(a, b)| format!("{a},{b}")).unwrap_or_default()
    ];
        <div class="figure-tools">
            <Presets id="ctl-t-preset" presets=presets rows=s.max_len cols=s.dim />
            <IntSlider label="max_len (rows of the table)" id="ctl-t-L" min=MAX_LEN.0 max=MAX_LEN.1 value=s.max_len />
            <IntSlider label="sequence length n" id="ctl-t-n" min=SEQUENCE.0 max=SEQUENCE.1 value=s.seq_len />
            <IntSlider label="width d" id="ctl-t-d" min=WIDTH.0 max=WIDTH.1 value=s.dim />
            <SeedField id="ctl-t-seed" seed=s.seed />
        </div>
        <MatrixPair canvases=[(learned_ref, learned_layout), (sin.node, sin_layout)] cursor=cursor on_key=on_key
            readout=readout label=describe />
        <p class="finding">{near::text(status)}</p>
        <figcaption>
            "A learned table is a trainable matrix with one row per position, looked up and "
            "added to the token embedding. Before training it is random (here N(0, 0.02²), "
            "the initialisation Hugging Face transformers gives BERT's and GPT-2's); training "
            "shapes it. Whatever training "
            "does, it has max_len rows: BERT has 512, GPT-2 1024, and a position past the "
            "last row has no vector at all (greyed out). The sinusoidal table on the right is "
            "computed, not stored, so it has a row for every position."
        </figcaption>
    }
}
