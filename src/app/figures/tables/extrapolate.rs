//! Extrapolation side by side: one length past the training length `L`, and what each method
//! gives a position `p` there. A learned table has nothing; sinusoids and RoPE's angles continue
//! (RoPE's slowest pair, unless it turned a full circle within `L`, into angles training never
//! showed); ALiBi's bias just grows; T5's bucket stops changing at the last bucket's first
//! distance, at or before max_distance.

use leptos::prelude::*;

use crate::app::near;

use crate::app::controls::IntSlider;
use crate::app::figure::{DrawStats, Panels};
use crate::app::figures::cursor::XCursor;
use crate::app::frame::figure;
use crate::app::plot::paint_lines;
use crate::app::state::tables::TablesState;
use crate::app::theme::chapter_context;
use crate::explain::tables::extrapolation_finding;
use crate::params::format_significant;
use crate::params::tables::{MAX_LEN, SEQUENCE};
use crate::scene::tables::{
    self as scene, EXTRAPOLATE_PANELS as PANELS, EXTRAPOLATE_TITLES as TITLES, Inputs,
};

/// The figure.
#[component]
pub fn ExtrapolationSideBySide() -> impl IntoView {
    let (s, theme) = chapter_context!(TablesState);
    let (slopes, max_distance) = (s.slopes(), s.max_distance());
    let inputs = Memo::new(move |_| {
        let table = (s.max_len.get(), s.dim.get(), s.seed.get());
        let buckets = (s.buckets.get(), max_distance.get(), s.bidirectional.get());
        slopes.with(|m| Inputs::new(table, m, buckets))
    });
    let panels = Panels::<PANELS>::new();
    let stats = DrawStats::new();
    let cursor = XCursor::new();
    let count = move || s.seq_len.get_untracked();
    panels.draw(stats, move |k, surface| {
        let (n, t, x) = (s.seq_len.get(), theme.get(), inputs.get());
        let spec = scene::extrapolate_spec(k, n, x, cursor.get(n), t);
        let layout = paint_lines(surface, scene::extrapolate_height, &spec);
        if k == 0 {
            cursor.layout.set_value(layout);
        }
    });
    let readout = move || {
        let (n, x) = (s.seq_len.get(), inputs.get());
        let Some(p) = cursor.get(n) else {
            return "Hover a panel (or focus the first and use the arrow keys) to read one \
                    position in every method."
                .to_string();
        };
        let mut row = Vec::new();
        let learned = x
            .at(0, p, &mut row)
            .map_or("no vector".to_string(), |v| format_significant(v, 3));
        format!(
            "Position {p}: learned {learned} · sinusoidal {} · RoPE angle {}° · ALiBi bias {} · \
             T5 bucket {}",
            format_significant(x.at(1, p, &mut row).unwrap_or(0.0), 3),
            format_significant(x.at(2, p, &mut row).unwrap_or(0.0), 4),
            format_significant(x.at(3, p, &mut row).unwrap_or(0.0), 4),
            x.at(4, p, &mut row).unwrap_or(0.0)
        )
    };
    let finding = move || {
        let (n, x) = (s.seq_len.get(), inputs.get());
        extrapolation_finding(n, x.max_len, x.slowest(), x.t5())
    };
    let describe = move || {
        format!(
            "Five small line plots over positions 0 to {}, one per method{}. {}",
            s.seq_len.get() - 1,
            if s.max_len.get() < s.seq_len.get() {
                format!(", with max_len {} marked", s.max_len.get())
            } else {
                String::new()
            },
            finding()
        )
    };
    figure! { "fig-tab-extrapolate", "ctl-t-xL ctl-t-xn", stats;
        <div class="figure-tools">
            <IntSlider label="max_len (the training length)" id="ctl-t-xL" min=MAX_LEN.0 max=MAX_LEN.1 value=s.max_len />
            <IntSlider label="sequence length" id="ctl-t-xn" min=SEQUENCE.0 max=SEQUENCE.1 value=s.seq_len />
        </div>
        {panels.nodes()
            .into_iter()
            .enumerate()
            .map(|(k, r)| {
                view! {
                    <div class="canvas-wrap">
                        // Sized like a drawn panel from the start, so the figure is not
                        // five default-sized canvases tall (and its first panel out of
                        // view) before it draws.
                        <canvas
                            node_ref=r
                            width="1000"
                            height="190"
                            tabindex=if k == 0 { "0" } else { "-1" }
                            role="img"
                            aria-label=near::text(move || if k == 0 { describe() } else { TITLES[k].0.to_string() })
                            aria-describedby="fig-tab-extrapolate-readout"
                            on:mousemove=cursor.on_move(r, count, |x| x)
                            on:mouseleave=move |_| cursor.at.set(None)
                            on:keydown=cursor.on_key(count)
                        ></canvas>
                    </div>
                }
            })
            .collect_view()}
        <p class="readout" id="fig-tab-extrapolate-readout" aria-live="polite">{near::text(readout)}</p>
        <p class="finding">{near::text(finding)}</p>
        <figcaption>
            "One length slider for every method, past the training length max_len (the same "
            "sliders as the learned table's). The learned table and the sinusoids use its "
            "width d; RoPE's panel uses head_dim d rounded down to even (base 10000); ALiBi "
            "the smallest slope of the heads above; "
            "T5 its buckets above. Continuing is not the same as working: the sinusoid and "
            "RoPE's angle are defined everywhere, but past max_len the model meets positions "
            "(and, for pairs that had not turned a full circle, angles) it never trained on."
        </figcaption>
    }
}
