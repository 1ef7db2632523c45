//! Same position, every method: what each family contributes for one position `p` — the vector
//! sinusoids add to `x`, the learned table's row (or nothing past max_len), the angles RoPE
//! turns q and k by, and the biases ALiBi adds to the scores of query `p` — under one position
//! slider.

use leptos::prelude::*;

use crate::app::near;

use crate::app::controls::IntSlider;
use crate::app::figure::{DrawStats, Panels};
use crate::app::figures::cursor::XCursor;
use crate::app::frame::figure;
use crate::app::plot::paint_lines;
use crate::app::state::tables::TablesState;
use crate::app::theme::chapter_context;
use crate::explain::tables::same_finding;
use crate::params::format_significant;
use crate::params::tables::POSITION;
use crate::scene::tables::{self as scene, SAME_PANELS as PANELS, same_panel as panel};

/// The figure.
#[component]
pub fn SamePosition() -> impl IntoView {
    let (s, theme) = chapter_context!(TablesState);
    let (slopes, head) = (s.slopes(), s.head());
    let data = Memo::new(move |_| {
        let m = slopes.with(|v| v.get(head.get() - 1).copied().unwrap_or(0.0));
        let own = s.slope.get().is_some();
        scene::contributions(
            s.pos.get(),
            s.dim.get(),
            (s.max_len.get(), s.seed.get()),
            (m, own),
        )
    });
    let panels = Panels::<PANELS>::new();
    let stats = DrawStats::new();
    let cursors: [XCursor; PANELS] = std::array::from_fn(|_| XCursor::new());
    panels.draw(stats, move |k, surface| {
        let (p, h, t) = (s.pos.get(), head.get(), theme.get());
        data.with(|c| {
            let at = cursors[k].get(panel(k, c, p, h).3.len());
            let spec = scene::same_spec(k, c, (p, h), at, t);
            cursors[k]
                .layout
                .set_value(paint_lines(surface, scene::same_height, &spec));
        });
    });
    let read = move |k: usize| {
        move || {
            let (p, h) = (s.pos.get(), head.get());
            data.with(|c| {
                let (title, x_desc, _, values) = panel(k, c, p, h);
                match cursors[k].get(values.len()) {
                    Some(i) if i < values.len() => format!(
                        "{}: {x_desc} {i} → {}",
                        title.split(':').next().unwrap_or(""),
                        format_significant(values[i], 4)
                    ),
                    _ if values.is_empty() => format!(
                        "The learned table has {} rows: position {p} has no vector.",
                        s.max_len.get()
                    ),
                    _ => format!(
                        "{title}. Hover (or focus and use the arrow keys) to read one value."
                    ),
                }
            })
        }
    };
    let finding = move || {
        let (p, d, causal) = (s.pos.get(), s.dim.get(), s.causal.get());
        data.with(|c| {
            same_finding(
                (p, d),
                &c.sinusoidal,
                c.learned.as_deref(),
                &c.angles,
                &c.bias,
                causal,
            )
        })
    };
    let describe = move |k: usize| {
        move || {
            let (p, h) = (s.pos.get(), head.get());
            data.with(|c| {
                let (title, x_desc, _, values) = panel(k, c, p, h);
                format!("{title}: {} values over {x_desc}.", values.len())
            })
        }
    };
    let canvas = move |k: usize| {
        let r = panels.node(k);
        let count = move || data.with_untracked(|c| panel(k, c, s.pos.get_untracked(), 1).3.len());
        view! {
            <div>
                <div class="canvas-wrap">
                    <canvas
                        node_ref=r
                        width="500"
                        height="220"
                        tabindex="0"
                        role="img"
                        aria-label=describe(k)
                        aria-describedby=format!("fig-tab-same-readout-{k}")
                        on:mousemove=cursors[k].on_move(r, count, |x| x)
                        on:mouseleave=move |_| cursors[k].at.set(None)
                        on:keydown=cursors[k].on_key(count)
                    ></canvas>
                </div>
                <p class="readout" id=format!("fig-tab-same-readout-{k}") aria-live="polite">{read(k)}</p>
            </div>
        }
    };
    figure! { "fig-tab-same", "ctl-t-p ctl-t-sd", stats;
        <div class="figure-tools">
            <IntSlider label="position p" id="ctl-t-p" min=POSITION.0 max=POSITION.1 value=s.pos />
            <IntSlider label="width d (head_dim for RoPE)" id="ctl-t-sd" min=crate::params::tables::WIDTH.0 max=crate::params::tables::WIDTH.1 value=s.dim />
        </div>
        <div class="pair">{canvas(0)} {canvas(1)}</div>
        <div class="pair">{canvas(2)} {canvas(3)}</div>
        <p class="finding">{near::text(finding)}</p>
        <figcaption>
            "One position, four answers. Sinusoids and a learned table add a vector to the "
            "token's embedding, so position mixes into every product downstream. RoPE adds "
            "nothing: it turns each pair of q and k coordinates by its own angle. ALiBi "
            "touches neither vectors nor angles: it lowers the scores of far keys. The width, "
            "seed, max_len and ALiBi head are those of the figures above (RoPE: head_dim d "
            "rounded down to even, base 10000); the ALiBi panel shows the keys up to p, as a "
            "decoder sees them, whatever the causal box above says."
        </figcaption>
    }
}
