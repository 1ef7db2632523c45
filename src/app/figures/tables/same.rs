//! Same position, every method: what each family contributes for one position `p` — the vector
//! sinusoids add to `x`, the learned table's row (or nothing past max_len), the angles RoPE
//! turns q and k by, and the biases ALiBi adds to the scores of query `p` — under one position
//! slider.

use leptos::html::Canvas;
use leptos::prelude::*;

use super::SIGMA;
use super::learned::sinusoidal;
use crate::app::canvas::Surface;
use crate::app::controls::IntSlider;
use crate::app::figure::{DrawStats, FigureLink, draw_panels_effect, observed_width};
use crate::app::figures::cursor::XCursor;
use crate::app::plot::paint_lines;
use crate::app::state::AppState;
use crate::app::theme::PageTheme;
use crate::chart::lines::{LinePlotSpec, Series, series_color};
use crate::math::{learned, rope};
use crate::params::format_significant;
use crate::params::tables::POSITION;

fn height(width: f64) -> f64 {
    (width * 0.5).clamp(170.0, 240.0)
}

/// The panels.
const PANELS: usize = 4;

/// What the figure shows for one position.
#[derive(Clone, PartialEq)]
struct Contributions {
    /// `PE(p)`, one value per column.
    sinusoidal: Vec<f64>,
    /// The learned row, if the table has one.
    learned: Option<Vec<f64>>,
    /// RoPE's angle of each pair, degrees mod 360.
    angles: Vec<f64>,
    /// ALiBi's bias of query `p` for keys `0 … p` (causal), the chosen head.
    bias: Vec<f64>,
    /// Whether that head's slope is the reader's, not the paper's.
    own_slope: bool,
}

fn contributions(
    p: usize,
    d: usize,
    max_len: usize,
    seed: u64,
    (slope, own_slope): (f64, bool),
) -> Contributions {
    let table = sinusoidal(p + 1, d);
    let sinusoidal = (0..d).map(|c| table.value(p, c)).collect();
    let learned = (p < max_len).then(|| {
        let mut row = Vec::new();
        learned::row_into(seed, SIGMA, p, d, &mut row);
        row
    });
    let head_dim = (d / 2 * 2).max(2);
    let angles = rope::inv_freq(head_dim, 10_000.0)
        .iter()
        .map(|t| (p as f64 * t).to_degrees().rem_euclid(360.0))
        .collect();
    let bias = (0..=p).map(|j| 0.0 - slope * (p - j) as f64).collect();
    Contributions {
        sinusoidal,
        learned,
        angles,
        bias,
        own_slope,
    }
}

/// Panel `k`'s title, axes and values.
fn panel(
    k: usize,
    c: &Contributions,
    p: usize,
    head: usize,
) -> (String, &'static str, &'static str, &[f64]) {
    match k {
        0 => (
            format!("Sinusoidal: PE({p}), added to x"),
            "column j",
            "value",
            &c.sinusoidal,
        ),
        1 => (
            match c.learned {
                Some(_) => format!("Learned: row {p}, added to x"),
                None => format!("Learned: no row {p} (past max_len)"),
            },
            "column j",
            "value",
            c.learned.as_deref().unwrap_or(&[]),
        ),
        2 => (
            format!("RoPE: angle {p}·θᵢ of each pair, turns q and k"),
            "pair i",
            "degrees (mod 360)",
            &c.angles,
        ),
        _ => (
            format!(
                "ALiBi: biases on query {p}'s keys (head {head}{})",
                if c.own_slope { ", your slope" } else { "" }
            ),
            "key j (0 … p)",
            "bias",
            &c.bias,
        ),
    }
}

/// The figure.
#[component]
pub fn SamePosition() -> impl IntoView {
    let s = expect_context::<AppState>().tables;
    let theme = expect_context::<PageTheme>().chart();
    let (slopes, head) = (s.slopes(), s.head());
    let data = Memo::new(move |_| {
        let m = slopes.with(|v| v.get(head.get() - 1).copied().unwrap_or(0.0));
        let own = s.slope.get().is_some();
        contributions(
            s.pos.get(),
            s.dim.get(),
            s.max_len.get(),
            s.seed.get(),
            (m, own),
        )
    });
    let refs: [NodeRef<Canvas>; PANELS] = std::array::from_fn(|_| NodeRef::new());
    let widths: Vec<RwSignal<f64>> = refs.iter().map(|r| observed_width(*r)).collect();
    let cursors: [XCursor; PANELS] = std::array::from_fn(|_| XCursor::new());
    let stats = DrawStats::new();
    draw_panels_effect(&refs, stats, move |first| {
        let (p, h, t) = (s.pos.get(), head.get(), theme.get());
        data.with(|c| {
            for k in 0..PANELS {
                let surface = if k == 0 {
                    first.clone()
                } else {
                    let Some(el) = refs[k].get() else { continue };
                    Surface {
                        el,
                        css_width: widths[k].get(),
                    }
                };
                let (title, x_desc, y_desc, values) = panel(k, c, p, h);
                let n = values.len();
                let at = cursors[k].get(n);
                let (lo, hi) = match k {
                    0 => (-1.1, 1.1),
                    1 => (-4.0 * SIGMA, 4.0 * SIGMA),
                    2 => (0.0, 360.0),
                    _ => {
                        let low = values.first().copied().unwrap_or(0.0).min(-1e-3);
                        (low * 1.08, -low * 0.08)
                    }
                };
                let spec = LinePlotSpec {
                    title: title.clone(),
                    x_desc,
                    y_desc,
                    x_range: 0.0..(n.max(2) - 1) as f64,
                    y_range: lo..hi,
                    series: vec![Series {
                        label: String::new(),
                        color: series_color(k),
                        points: values
                            .iter()
                            .enumerate()
                            .map(|(i, v)| (i as f64, *v))
                            .collect(),
                        dots: n <= 64 || k == 2,
                        line: k != 2,
                    }],
                    marker: at.map(|i| (i as f64, i.to_string())),
                    theme: t,
                };
                cursors[k]
                    .layout
                    .set_value(paint_lines(&surface, height, &spec));
            }
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
        let (p, d) = (s.pos.get(), s.dim.get());
        data.with(|c| {
            let norm = |v: &[f64]| v.iter().map(|x| x * x).sum::<f64>().sqrt();
            let deg = |a: Option<&f64>| format_significant(a.copied().unwrap_or(0.0), 4);
            let rope = if c.angles.len() == 1 {
                format!("turns its one pair by {}°", deg(c.angles.first()))
            } else {
                format!(
                    "turns its fastest pair by {}° and its slowest by {}° (mod 360)",
                    deg(c.angles.first()),
                    deg(c.angles.last())
                )
            };
            let alibi = if p == 0 {
                "its only key is the query itself (bias 0)".to_string()
            } else {
                format!(
                    "lowers the score of the key {p} positions back by {}",
                    format_significant(-c.bias.first().copied().unwrap_or(0.0), 4)
                )
            };
            format!(
                "At position {p} with d = {d}: sinusoids add a vector of length {}; the learned \
                 table {}; RoPE {rope} and adds nothing; ALiBi adds nothing to x, and {alibi}.",
                format_significant(norm(&c.sinusoidal), 4),
                match &c.learned {
                    Some(row) => format!("adds one of length {}", format_significant(norm(row), 4)),
                    None => "has no row to add".to_string(),
                },
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
        let r = refs[k];
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
    view! {
        <figure
            class="figure"
            id="fig-tab-same"
            data-controls="ctl-t-p ctl-t-sd"
            data-draw-ms=stats.ms_text()
            data-drawn-at=stats.at_text()
        >
            <FigureLink id="fig-tab-same" />
            <div class="figure-tools">
                <IntSlider label="position p" id="ctl-t-p" min=POSITION.0 max=POSITION.1 value=s.pos />
                <IntSlider label="width d (head_dim for RoPE)" id="ctl-t-sd" min=crate::params::tables::WIDTH.0 max=crate::params::tables::WIDTH.1 value=s.dim />
            </div>
            <div class="pair">{canvas(0)} {canvas(1)}</div>
            <div class="pair">{canvas(2)} {canvas(3)}</div>
            <p class="finding">{finding}</p>
            <figcaption>
                "One position, four answers. Sinusoids and a learned table add a vector to the "
                "token's embedding, so position mixes into every product downstream. RoPE adds "
                "nothing: it turns each pair of q and k coordinates by its own angle. ALiBi "
                "touches neither vectors nor angles: it lowers the scores of far keys. The width, "
                "seed, max_len and ALiBi head are those of the figures above (RoPE: head_dim d "
                "rounded down to even, base 10000)."
            </figcaption>
        </figure>
    }
}
