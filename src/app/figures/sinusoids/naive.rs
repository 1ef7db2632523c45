//! Naive fixes and why they fail: the integer position explodes, a single sine collides, binary
//! bits are the right ladder of frequencies but discrete.

use leptos::html::Canvas;
use leptos::prelude::*;

use crate::app::near;

use crate::app::controls::{IntSlider, LogSlider};
use crate::app::figure::{DrawStats, StillCanvas, draw_effect_into};
use crate::app::frame::figure;
use crate::app::matrix::{Matrix, MatrixPainter};
use crate::app::plot::paint_lines;
use crate::app::state::AppState;
use crate::app::theme::chapter_context;
use crate::math::naive;
use crate::params::{NAIVE_EPS, NAIVE_POS, format_number};
use crate::scene::sinusoids as scene;

/// Magnitude of the position signal against position, for three schemes and the word itself.
#[component]
fn Magnitudes(stats: DrawStats) -> impl IntoView {
    let (state, theme) = chapter_context!(AppState.sinusoidal);
    let params = state.params();
    let canvas_ref = NodeRef::<Canvas>::new();
    draw_effect_into(canvas_ref, stats, move |canvas| {
        let spec = scene::magnitudes_spec(&params.get(), theme.get());
        paint_lines(canvas, scene::naive_plot_height, &spec);
    });
    let numbers = move || {
        let p = params.get();
        let last = p.positions - 1;
        let word = scene::word_norm(p.dim);
        let sinusoidal = if p.is_shift_invariant() || p.positions == 1 {
            format!(
                "sinusoidal {:.2} (√{}, at every position)",
                p.row_norm(0),
                p.dim / 2
            )
        } else {
            let (lo, hi) = (0..p.positions)
                .map(|q| p.row_norm(q))
                .fold((f64::INFINITY, 0.0_f64), |(lo, hi), v| {
                    (lo.min(v), hi.max(v))
                });
            format!(
                "sinusoidal {} (√({} + sin²(pos·ω)): the lone sine of an odd d makes it vary)",
                crate::explain::sinusoids::range_text(lo, hi),
                p.dim / 2
            )
        };
        format!(
            "At position {last}: integer {:.1}, normalised {:.2}, {sinusoidal}, the word itself {:.2}.",
            naive::integer_norm(last, p.dim),
            naive::normalized_norm(last, p.positions, p.dim),
            word
        )
    };
    view! {
        <div class="subfigure">
            <p class="readout" id="fig-naive-norms">{near::text(numbers)}</p>
            <canvas
                node_ref=canvas_ref
                role="img"
                aria-label=near::text(move || format!(
                    "Norm of the position signal against position: the integer scheme grows without bound and dwarfs the word embedding; the normalised one stays bounded but depends on the sequence length; the sinusoidal one {}.",
                    if params.get().is_shift_invariant() { "is constant" } else { "stays between √h and √(h+1), h the number of complete pairs" }
                ))
            ></canvas>
            <p class="finding">
                {near::text(move || {
                    let p = params.get();
                    let last = p.positions - 1;
                    let word = scene::word_norm(p.dim);
                    let bound = format!(
                        "Dividing by the length keeps it bounded (at most √d = {:.1}, about √3 times the word), but then “position 10” means something different in every sentence.",
                        (p.dim as f64).sqrt()
                    );
                    if last == 0 {
                        format!("With one position there is nothing to grow. {bound}")
                    } else {
                        let ratio = naive::integer_norm(last, p.dim) / word;
                        let verb = if ratio >= 10.0 {
                            "drowns the word"
                        } else {
                            "grows past the word with every position"
                        };
                        format!(
                            "Adding the integer position {verb}: at position {last} the signal is {}× the word's norm (about pos·√3, as the word's entries are uniform in [−1, 1)). {bound}",
                            crate::params::format_significant(ratio, 2)
                        )
                    }
                })}
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
            Some(q) => {
                let sq = (q as f64).sin();
                // Why they match: sin(π − x) = sin x when p + q is near an odd multiple of π,
                // else the two are nearly a whole number of turns apart.
                // Why they match: q − p near a whole number of turns (sin repeats), or p + q
                // near an odd multiple of π (sin(π − x) = sin x) — whichever is nearer.
                let (pi, tau) = (std::f64::consts::PI, std::f64::consts::TAU);
                let turns = ((q - p) as f64 / tau).round();
                let odd = (((p + q) as f64 / pi - 1.0) / 2.0).round() * 2.0 + 1.0;
                let why =
                    if ((p + q) as f64 - odd * pi).abs() < ((q - p) as f64 - turns * tau).abs() {
                        format!(" — sin(π − x) = sin x, and {} ≈ {odd}π", p + q)
                    } else {
                        format!(" — {q} − {p} ≈ {turns}·2π, a whole number of turns")
                    };
                let cosines = format!(
                    "cos({p}) = {:.4}, cos({q}) = {:.4}",
                    (p as f64).cos(),
                    (q as f64).cos()
                );
                let pair = match naive::pair_collision(p, eps, p + 100_000) {
                    Some(q2) if q2 == q => format!(
                        "Here the cosine matches too ({cosines}) — q − p is almost a whole number of turns — so one (sin, cos) pair cannot separate them either; a second, slower pair can."
                    ),
                    Some(q2) => format!(
                        "A (sin, cos) pair can: {cosines}; the first position whose sine and cosine both match within ε is {q2}."
                    ),
                    None => format!(
                        "A (sin, cos) pair can: {cosines}; no position in the next 100000 matches both within ε."
                    ),
                };
                format!(
                    "sin({p}) = {s:.6}; the nearest later position with |sin q − sin {p}| < {} is q = {q}: sin({q}) = {sq:.6}, off by {:.1e}{why}. To within ε this one feature cannot tell {p} from {q}. {pair}",
                    format_number(eps),
                    (sq - s).abs(),
                )
            }
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
            <p class="finding" aria-live="polite">{near::text(result)}</p>
        </div>
    }
}

/// The binary position bits beside the sinusoidal encoding's first columns.
#[component]
fn BinaryBits(stats: DrawStats) -> impl IntoView {
    let (state, theme) = chapter_context!(AppState.sinusoidal);
    let params = state.params();
    let bits_ref = NodeRef::<Canvas>::new();
    let sine_ref = NodeRef::<Canvas>::new();
    let n = Memo::new(move |_| scene::bits_positions(&params.get()));
    let bits = Memo::new(move |_| naive::bits_for(n.get()));
    let mut bit_painter = MatrixPainter::default();
    draw_effect_into(bits_ref, stats, move |canvas| {
        let (n, b) = (n.get(), bits.get());
        let table = naive::binary_table(n, b);
        let spec = scene::bits_spec(n, b, theme.get());
        let matrix = Matrix {
            values: &table,
            stride: b as usize,
            version: None,
            toeplitz: false,
        };
        bit_painter.paint(canvas, scene::naive_table_height, &spec, matrix, &[]);
    });
    let mut sine_painter = MatrixPainter::default();
    // One buffer for the table across redraws, as the heatmap keeps one: a fresh n × d table
    // (up to ~100 KB) per redraw fragments the wasm heap over a long session.
    let mut table = Vec::new();
    draw_effect_into(sine_ref, stats, move |canvas| {
        let p = params.get();
        let n = n.get();
        crate::math::sinusoidal::SinusoidalParams { positions: n, ..p }.table_into(&mut table);
        let spec = scene::first_columns_spec(&p, n, bits.get(), theme.get());
        let matrix = Matrix {
            values: &table,
            stride: p.dim,
            version: None,
            toeplitz: false,
        };
        sine_painter.paint(canvas, scene::naive_table_height, &spec, matrix, &[]);
    });
    view! {
        <div class="subfigure">
            <div class="pair">
                <StillCanvas
                    node_ref=bits_ref
                    label=move || format!("Binary bits of positions 0 to {}: the lowest bit flips every position, each higher bit half as often.", n.get() - 1) />
                <StillCanvas node_ref=sine_ref label="The first columns of the sinusoidal encoding for the same positions: a fast-to-slow ladder too, but smooth."
                />
            </div>
            <p class="finding">
                {near::text(move || {
                    let p = params.get();
                    let step = if p.pairs() >= 2 {
                        let ratio = p.pair_omega(0) / p.pair_omega(1);
                        format!(
                            " The sinusoidal ladder is smooth, and with these settings {} binary's ×2: each pair's wavelength is ×{:.3} the last.",
                            if ratio < 2.0 { "finer than" } else { "no finer than" },
                            ratio
                        )
                    } else {
                        String::new()
                    };
                    format!(
                        "Binary counting is unique and bounded, with a ladder from fast to slow: each bit flips half as often as the one before (period ×2). But it jumps between 0 and 1.{step} The paper does not say binary counting motivated it, but the sinusoidal encoding can be seen as its smooth cousin."
                    )
                })}
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
    figure! { "fig-naive", "ctl-n ctl-d", stats, [
        data-text-controls="ctl-npos ctl-eps"
    ];
        <Magnitudes stats />
        <SineCollision />
        <BinaryBits stats />
        <figcaption>
            "Four first ideas for a position signal, each failing one of four requirements: "
            "bounded (the integer fails), the same meaning at any sentence length (the "
            "normalised position fails), unique per position (one sine fails: no two integers "
            "have exactly the same sine, but some come within any tolerance — sin 2 ≈ sin 353), "
            "smooth (binary bits fail)."
        </figcaption>
    }
}
