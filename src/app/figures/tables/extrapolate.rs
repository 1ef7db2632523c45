//! Extrapolation side by side: one length past the training length `L`, and what each method
//! gives a position `p` there. A learned table has nothing; sinusoids and RoPE's angles continue
//! (RoPE's slowest pair, unless it turned a full circle within `L`, into angles training never
//! showed); ALiBi's bias just grows; T5's bucket stops changing at or before max_distance.

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
use crate::math::relative::t5_bucket;
use crate::math::{learned, rope};
use crate::params::format_significant;
use crate::params::tables::{MAX_LEN, SEQUENCE};

fn height(width: f64) -> f64 {
    (width * 0.22).clamp(150.0, 190.0)
}

/// The panels, top to bottom.
const PANELS: usize = 5;

/// What each method gives position `p`: one number per panel (`None`: nothing there).
#[derive(Clone, Copy, PartialEq)]
struct Inputs {
    max_len: usize,
    dim: usize,
    seed: u64,
    slope: f64,
    /// RoPE's slowest frequency for head_dim `dim` rounded down to even, base 10000.
    rope_theta: f64,
    /// The sinusoid's slowest frequency for width `dim`.
    sin_omega: f64,
    buckets: (usize, usize, bool),
}

impl Inputs {
    /// RoPE's slowest pair's frequency for head_dim `dim` (rounded down to even), base 10000.
    fn slowest(self) -> f64 {
        self.rope_theta
    }

    /// The sinusoidal table's slowest pair's frequency for width `dim` (odd widths have
    /// ⌈d/2⌉ pairs).
    fn sin_slowest(self) -> f64 {
        self.sin_omega
    }

    /// The first distance whose T5 bucket is the last one (every farther key shares it).
    fn t5_flat_from(self) -> usize {
        let (nb, md, bi) = self.buckets;
        let last = t5_bucket(-(md as i64), bi, nb, md);
        (0..=md)
            .find(|&d| t5_bucket(-(d as i64), bi, nb, md) == last)
            .unwrap_or(md)
    }

    fn at(self, panel: usize, p: usize, row: &mut Vec<f64>) -> Option<f64> {
        let (nb, md, bi) = self.buckets;
        match panel {
            // Column 0 is the first draw of the row's own stream: drawing one value gives it
            // (the other d − 1 are not needed).
            0 => (p < self.max_len).then(|| {
                learned::row_into(self.seed, SIGMA, p, 1, row);
                row.first().copied().unwrap_or(0.0)
            }),
            1 => Some((p as f64 * self.sin_slowest()).sin()),
            2 => Some((p as f64 * self.slowest()).to_degrees()),
            3 => Some(-self.slope * p as f64),
            _ => Some(t5_bucket(-(p as i64), bi, nb, md) as f64),
        }
    }
}

/// Panel titles and y descriptions.
const TITLES: [(&str, &str); PANELS] = [
    (
        "Learned: column 0 of row p (no row from max_len on)",
        "value",
    ),
    ("Sinusoidal: the slowest pair's sine, sin(p·ω)", "sin"),
    ("RoPE: the slowest pair's angle p·θ", "degrees"),
    (
        "ALiBi: the bias of a key p positions back (the head with the smallest slope)",
        "bias",
    ),
    ("T5: the bucket of a key p positions back", "bucket"),
];

/// The figure.
#[component]
pub fn ExtrapolationSideBySide() -> impl IntoView {
    let s = expect_context::<AppState>().tables;
    let theme = expect_context::<PageTheme>().chart();
    let (slopes, max_distance) = (s.slopes(), s.max_distance());
    let inputs = Memo::new(move |_| Inputs {
        max_len: s.max_len.get(),
        dim: s.dim.get(),
        seed: s.seed.get(),
        slope: slopes.with(|m| m.iter().copied().fold(f64::INFINITY, f64::min)),
        rope_theta: {
            let d = (s.dim.get() / 2 * 2).max(2);
            rope::inv_freq(d, 10_000.0).last().copied().unwrap_or(1.0)
        },
        sin_omega: {
            let p = sinusoidal(1, s.dim.get());
            p.pair_omega(p.pairs().saturating_sub(1))
        },
        buckets: (s.buckets.get(), max_distance.get(), s.bidirectional.get()),
    });
    let refs: [NodeRef<Canvas>; PANELS] = std::array::from_fn(|_| NodeRef::new());
    let widths: Vec<RwSignal<f64>> = refs.iter().map(|r| observed_width(*r)).collect();
    let cursor = XCursor::new();
    let count = move || s.seq_len.get_untracked();
    let stats = DrawStats::new();
    // How many positions a panel plots at most (the rest are sampled evenly).
    const POINTS: usize = 800;
    draw_panels_effect(&refs, stats, move |first| {
        let (n, t, x) = (s.seq_len.get(), theme.get(), inputs.get());
        let at = cursor.get(n);
        let step = n.div_ceil(POINTS).max(1);
        let mut row = Vec::new();
        for (k, (title, y_desc)) in TITLES.iter().enumerate() {
            let surface = if k == 0 {
                first.clone()
            } else {
                let Some(el) = refs[k].get() else { continue };
                Surface {
                    el,
                    css_width: widths[k].get(),
                }
            };
            let points: Vec<(f64, f64)> = (0..n)
                .step_by(step)
                .filter_map(|p| x.at(k, p, &mut row).map(|v| (p as f64, v)))
                .collect();
            let (lo, hi) = points
                .iter()
                .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), q| {
                    (a.min(q.1), b.max(q.1))
                });
            let (lo, hi) = if lo.is_finite() {
                (lo, hi)
            } else {
                (-1.0, 1.0)
            };
            let pad = ((hi - lo) * 0.08).max(1e-6);
            let mut series = vec![Series {
                label: String::new(),
                color: series_color(k),
                points,
                dots: false,
                line: true,
            }];
            if k == 2 {
                // The largest angle the slowest pair reached in training.
                let seen = (x.max_len.saturating_sub(1) as f64 * x.slowest()).to_degrees();
                series.push(Series {
                    label: format!("seen in training: up to {}°", format_significant(seen, 4)),
                    color: series_color(6),
                    points: vec![(0.0, seen), ((n - 1).max(1) as f64, seen)],
                    dots: false,
                    line: true,
                });
            }
            let spec = LinePlotSpec {
                title: title.to_string(),
                x_desc: "position p",
                y_desc,
                x_range: 0.0..(n - 1).max(1) as f64,
                y_range: (lo - pad)..(hi + pad),
                series,
                marker: Some(match at {
                    Some(p) => (p as f64, format!("p = {p}")),
                    None => (x.max_len as f64, format!("max_len = {}", x.max_len)),
                }),
                theme: t,
            };
            let layout = paint_lines(&surface, height, &spec);
            if k == 0 {
                cursor.layout.set_value(layout);
            }
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
        let seen = (x.max_len.saturating_sub(1) as f64 * x.slowest()).to_degrees();
        let reach = ((n - 1) as f64 * x.slowest()).to_degrees();
        let rope = if seen >= 360.0 {
            format!(
                "RoPE's slowest pair (wavelength {} positions) already turned a full circle \
                 within max_len, so it only repeats angles seen in training",
                format_significant(std::f64::consts::TAU / x.slowest(), 3)
            )
        } else {
            format!(
                "RoPE's slowest pair turns on to {}°, beyond the {}° it reached in training",
                format_significant(reach, 4),
                format_significant(seen, 4)
            )
        };
        let flat = x.t5_flat_from();
        if n <= x.max_len {
            format!(
                "The sequence ({n}) fits in max_len ({}): every method still has something for \
                 every position. Drag the length past it.",
                x.max_len
            )
        } else {
            format!(
                "Past max_len = {}: the learned table has nothing; the sinusoid continues; \
                 {rope}; ALiBi's bias keeps falling in a straight line; T5's bucket {} \
                 (every distance from there on, max_distance = {} included, shares the last \
                 bucket).",
                x.max_len,
                if n > flat {
                    format!("stops changing at distance {flat}")
                } else {
                    format!("would stop changing at distance {flat}")
                },
                x.buckets.1
            )
        }
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
    view! {
        <figure
            class="figure"
            id="fig-tab-extrapolate"
            data-controls="ctl-t-xL ctl-t-xn"
            data-draw-ms=stats.ms_text()
            data-drawn-at=stats.at_text()
        >
            <FigureLink id="fig-tab-extrapolate" />
            <div class="figure-tools">
                <IntSlider label="max_len (the training length)" id="ctl-t-xL" min=MAX_LEN.0 max=MAX_LEN.1 value=s.max_len />
                <IntSlider label="sequence length" id="ctl-t-xn" min=SEQUENCE.0 max=SEQUENCE.1 value=s.seq_len />
            </div>
            {refs
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
                                aria-label=move || if k == 0 { describe() } else { TITLES[k].0.to_string() }
                                aria-describedby="fig-tab-extrapolate-readout"
                                on:mousemove=cursor.on_move(r, count, |x| x)
                                on:mouseleave=move |_| cursor.at.set(None)
                                on:keydown=cursor.on_key(count)
                            ></canvas>
                        </div>
                    }
                })
                .collect_view()}
            <p class="readout" id="fig-tab-extrapolate-readout" aria-live="polite">{readout}</p>
            <p class="finding">{finding}</p>
            <figcaption>
                "One length slider for every method, past the training length max_len (the same "
                "sliders as the learned table's). The learned table and the sinusoids use its "
                "width d; RoPE's panel uses head_dim d rounded down to even (base 10000); ALiBi "
                "the smallest slope of the heads above; "
                "T5 its buckets above. Continuing is not the same as working: the sinusoid and "
                "RoPE's angle are defined everywhere, but past max_len the model meets positions "
                "(and, for pairs that had not turned a full circle, angles) it never trained on."
            </figcaption>
        </figure>
    }
}
