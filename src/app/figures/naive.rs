//! Naive fixes and why they fail: the integer position explodes, a single sine collides, binary
//! bits are the right ladder of frequencies but discrete.

use leptos::html::Canvas;
use leptos::prelude::*;
use plotters::prelude::*;

use crate::app::controls::{IntSlider, LogSlider};
use crate::app::figure::{DrawStats, FigureLink, draw_effect_into};
use crate::app::matrix::{Matrix, MatrixPainter};
use crate::app::plot::paint_lines;
use crate::app::state::AppState;
use crate::app::theme::PageTheme;
use crate::chart::colorbar::ColorBar;
use crate::chart::colormap::Scale;
use crate::chart::heatmap::HeatmapSpec;
use crate::chart::lines::{self, LinePlotSpec, Series};
use crate::math::attention::token_embedding;
use crate::math::naive;
use crate::params::{NAIVE_EPS, NAIVE_POS, format_number};

fn plot_height(width: f64) -> f64 {
    (width * 0.4).clamp(240.0, 340.0)
}

fn table_height(width: f64) -> f64 {
    (width * 0.9).clamp(240.0, 420.0)
}

/// Magnitude of the position signal against position, for three schemes and the word itself.
#[component]
fn Magnitudes(stats: DrawStats) -> impl IntoView {
    let state = expect_context::<AppState>().sinusoidal;
    let theme = expect_context::<PageTheme>().chart();
    let params = state.params();
    let canvas_ref = NodeRef::<Canvas>::new();
    draw_effect_into(canvas_ref, stats, move |canvas| {
        let p = params.get();
        let (n, d, pairs) = (p.positions, p.dim, p.pairs());
        let word: f64 = token_embedding("dog", d)
            .iter()
            .map(|x| x * x)
            .sum::<f64>()
            .sqrt();
        let curve = |f: &dyn Fn(usize) -> f64| -> Vec<(f64, f64)> {
            (0..n).map(|p| (p as f64, f(p))).collect()
        };
        let top = naive::integer_norm(n.saturating_sub(1), d).max(word * 1.5);
        let spec = LinePlotSpec {
            title: "Size of the position signal added to each token",
            x_desc: "position",
            y_desc: "norm",
            x_range: 0.0..(n.max(2) - 1) as f64,
            y_range: 0.0..top * 1.05,
            series: vec![
                Series {
                    label: "integer pos in every dim".into(),
                    color: lines::series_color(4),
                    points: curve(&|p| naive::integer_norm(p, d)),
                    dots: false,
                    line: true,
                },
                Series {
                    label: format!("pos/(n−1), n = {n}"),
                    color: lines::series_color(1),
                    points: curve(&|p| naive::normalized_norm(p, n, d)),
                    dots: false,
                    line: true,
                },
                Series {
                    label: "sinusoidal".into(),
                    color: lines::series_color(0),
                    points: curve(&|_| naive::sinusoidal_norm(pairs)),
                    dots: false,
                    line: true,
                },
                Series {
                    label: "the word “dog” (for scale)".into(),
                    color: RGBColor(0x99, 0x99, 0x99),
                    points: curve(&|_| word),
                    dots: false,
                    line: true,
                },
            ],
            marker: None,
            theme: theme.get(),
        };
        paint_lines(canvas, plot_height, &spec);
    });
    let numbers = move || {
        let p = params.get();
        let last = p.positions - 1;
        let word: f64 = token_embedding("dog", p.dim)
            .iter()
            .map(|x| x * x)
            .sum::<f64>()
            .sqrt();
        format!(
            "At position {last}: integer {:.1}, normalised {:.2}, sinusoidal {:.2} (at every \
             position), the word itself {:.2}.",
            naive::integer_norm(last, p.dim),
            naive::normalized_norm(last, p.positions, p.dim),
            naive::sinusoidal_norm(p.pairs()),
            word
        )
    };
    view! {
        <div class="subfigure">
            <p class="readout" id="fig-naive-norms">{numbers}</p>
            <canvas
                node_ref=canvas_ref
                role="img"
                aria-label="Norm of the position signal against position: the integer scheme grows without bound and dwarfs the word embedding; the normalised one stays bounded but depends on the sequence length; the sinusoidal one is constant."
            ></canvas>
            <p class="finding">
                "Adding the integer position drowns the word: by position 100 the signal is "
                "hundreds of times larger. Dividing by the length keeps it small, but then "
                "“position 10” means something different in every sentence."
            </p>
        </div>
    }
}

/// The single-sine collision finder.
#[component]
fn SineCollision() -> impl IntoView {
    let state = expect_context::<AppState>().naive;
    let found = Memo::new(move |_| {
        let (p, eps) = (state.pos.get(), state.eps.get());
        naive::sine_collision(p, eps, p + 100_000)
    });
    let result = move || {
        let (p, eps) = (state.pos.get(), state.eps.get());
        let s = (p as f64).sin();
        match found.get() {
            Some(q) => format!(
                "sin({p}) = {s:.6}; the nearest later position with |sin q − sin {p}| < {} is q = {q}: sin({q}) = {:.6}. A model could not tell {p} from {q}.",
                format_number(eps),
                (q as f64).sin()
            ),
            None => format!(
                "sin({p}) = {s:.6}; no later position within {} in the next 100000.",
                format_number(eps)
            ),
        }
    };
    view! {
        <div class="subfigure" id="fig-naive-sine" data-collision=move || found.get().map(|q| q.to_string()).unwrap_or_default()>
            <div class="figure-tools wide-slider">
                <IntSlider label="position" id="ctl-npos" min=NAIVE_POS.0 max=NAIVE_POS.1 value=state.pos />
                <LogSlider label="tolerance ε" id="ctl-eps" min=NAIVE_EPS.0 max=NAIVE_EPS.1 value=state.eps />
            </div>
            <p class="finding" aria-live="polite">{result}</p>
        </div>
    }
}

/// The binary position bits beside the sinusoidal encoding's first columns.
#[component]
fn BinaryBits(stats: DrawStats) -> impl IntoView {
    let state = expect_context::<AppState>().sinusoidal;
    let theme = expect_context::<PageTheme>().chart();
    let params = state.params();
    let bits_ref = NodeRef::<Canvas>::new();
    let sine_ref = NodeRef::<Canvas>::new();
    let n = Memo::new(move |_| params.get().positions.min(128));
    let bits = Memo::new(move |_| naive::bits_for(n.get()));
    let mut bit_painter = MatrixPainter::default();
    draw_effect_into(bits_ref, stats, move |canvas| {
        let (n, b) = (n.get(), bits.get());
        let table = naive::binary_table(n, b);
        let spec = HeatmapSpec {
            title: "Binary bits of the position",
            x_desc: "bit (fastest first)",
            y_desc: "position",
            cols: 0..b as usize,
            rows: 0..n,
            colorbar: ColorBar {
                lo: 0.0,
                hi: 1.0,
                label: "bit",
                scale: Scale::Sequential,
            },
            col_names: None,
            row_names: None,
            theme: theme.get(),
        };
        let matrix = Matrix {
            values: &table,
            stride: b as usize,
            version: None,
            toeplitz: false,
        };
        bit_painter.paint(canvas, table_height, &spec, matrix, &[]);
    });
    let mut sine_painter = MatrixPainter::default();
    draw_effect_into(sine_ref, stats, move |canvas| {
        let p = params.get();
        let n = n.get();
        let cols = (2 * bits.get() as usize).min(p.dim);
        let table = crate::math::sinusoidal::SinusoidalParams { positions: n, ..p }.table();
        let spec =
            HeatmapSpec::encoding("Sinusoidal PE, first columns", 0..n, 0..cols, theme.get());
        let matrix = Matrix {
            values: &table,
            stride: p.dim,
            version: None,
            toeplitz: false,
        };
        sine_painter.paint(canvas, table_height, &spec, matrix, &[]);
    });
    view! {
        <div class="subfigure">
            <div class="pair">
                <div class="canvas-wrap">
                <canvas
                    node_ref=bits_ref
                    role="img"
                    aria-label=move || format!("Binary bits of positions 0 to {}: the lowest bit flips every position, each higher bit half as often.", n.get() - 1)
                ></canvas>
                </div>
                <div class="canvas-wrap">
                <canvas
                    node_ref=sine_ref
                    role="img"
                    aria-label="The first columns of the sinusoidal encoding for the same positions: the same fast-to-slow ladder, but smooth."
                ></canvas>
                </div>
            </div>
            <p class="finding">
                "Binary counting is unique and bounded, with the same ladder — the lowest bit "
                "flips fastest, each next one half as often. But it jumps between 0 and 1: the "
                "sinusoidal encoding is its smooth, continuous cousin."
            </p>
        </div>
    }
}

/// The naive-fixes figure: three panels.
///
/// `data-controls` lists the controls that repaint its canvases (n, d); `data-text-controls` the
/// collision finder's position and ε, which change only its text.
#[component]
pub fn NaiveFixes() -> impl IntoView {
    let stats = DrawStats::new();
    view! {
        <figure
            class="figure"
            id="fig-naive"
            data-controls="ctl-n ctl-d"
            data-text-controls="ctl-npos ctl-eps"
            data-draw-ms=stats.ms_text()
            data-drawn-at=stats.at_text()
        >
            <FigureLink id="fig-naive" />
            <Magnitudes stats />
            <SineCollision />
            <BinaryBits stats />
            <figcaption>
                "Three first ideas for a position signal. Each fails one of the requirements: "
                "bounded, the same meaning in any sentence length, unique per position, smooth."
            </figcaption>
        </figure>
    }
}
