//! Relative shift: `PE(pos + k) = M_k · PE(pos)` with one 2×2 rotation block per frequency pair,
//! the same for every position. The plot lays `M_k·PE(pos)` (dots) over `PE(pos+k)` (line).

use leptos::html::Canvas;
use leptos::prelude::*;

use crate::app::near;

use crate::app::controls::IntSlider;
use crate::app::figure::draw_effect;
use crate::app::frame::figure;
use crate::app::plot::paint_lines;
use crate::app::state::AppState;
use crate::app::tasks::run_in_slices;
use crate::app::theme::chapter_context;
use crate::chart::lines::LinePlotLayout;
use crate::math::sinusoidal::{Column, ShiftCheck, SinusoidalParams};
use crate::params::MAX_SHIFT;
use crate::scene::sinusoids as scene;

/// The largest table (positions × d) whose shift check runs in the input's own frame: 2¹⁶ entries,
/// about 0.4 ms natively. A larger table is checked this many entries per browser task.
const CHECK_AT_ONCE: usize = 1 << 16;

/// `a` formatted with a fixed sign column, for the matrix entries.
fn entry(a: f64) -> String {
    format!("{a:.4}")
}

/// The figure: offset slider, overlay plot, the rotation block of the chosen pair.
#[component]
pub fn RelativeShift() -> impl IntoView {
    let (state, theme) = chapter_context!(AppState.sinusoidal);
    let params = state.params();
    let pos = state.current_pos();
    let k = state.shift;
    let moved = Memo::new(move |_| {
        let p = params.get();
        let at = pos.get();
        p.apply_shift(&p.row(at), at, k.get() as f64)
    });
    let target = Memo::new(move |_| params.get().row(pos.get() + k.get()));
    let canvas_ref = NodeRef::<Canvas>::new();
    let layout = StoredValue::new(None::<LinePlotLayout>);
    let pair = RwSignal::new(0usize);
    let stats = draw_effect(canvas_ref, move |canvas| {
        let p = params.get();
        let (at, shift) = (pos.get(), k.get());
        let spec = target.with(|tg| {
            moved.with(|mv| {
                let borrowed = crate::explain::sinusoids::lone_sine(&p).is_some();
                scene::shift_spec(p.dim, borrowed, at, shift, tg, mv, theme.get())
            })
        });
        layout.set_value(paint_lines(canvas, scene::shift_height, &spec));
    });

    let on_move = move |ev: leptos::ev::MouseEvent| {
        let Some(canvas) = canvas_ref.get_untracked() else {
            return;
        };
        let (x, _) = crate::app::select::event_pixel(&canvas, &ev);
        let p = params.get_untracked();
        if let Some(d) = layout.with_value(|l| l.as_ref().and_then(|l| l.data_x(x))) {
            let col = (d.round().max(0.0) as usize).min(p.dim - 1);
            if let Column::Sin(i) | Column::Cos(i) = p.column(col) {
                pair.set(i);
            }
        }
    };
    let on_key = move |ev: leptos::ev::KeyboardEvent| {
        let pairs = params.get_untracked().pairs();
        let at = pair.get_untracked();
        let next = match ev.key().as_str() {
            "ArrowRight" | "ArrowUp" => (at + 1).min(pairs - 1),
            "ArrowLeft" | "ArrowDown" => at.saturating_sub(1),
            "Home" => 0,
            "End" => pairs - 1,
            _ => return,
        };
        ev.prevent_default();
        pair.set(next);
    };
    let block = move || {
        let p = params.get();
        let i = pair.get().min(p.pairs() - 1);
        let m = p.shift_matrix(k.get() as f64)[i];
        (i, p.pair_omega(i), m)
    };

    // The whole-table check only feeds this figure's sentence: O(positions · d), natively 0.08 ms
    // at the defaults (100 × 128) and 6 ms at the largest sizes (1024 × 1024). It runs only while
    // the figure is near the screen (an input elsewhere in the book never waits for it; coming
    // into view starts it). A small table is checked at once, so the sentence changes in the
    // input's own frame; a larger one in slices of CHECK_AT_ONCE entries, one per task after the
    // plot has been painted, so neither the input → repaint path nor the reader's next input waits
    // for it, and the sentence says it is checking meanwhile. Only the newest pending check
    // runs. The parameters and offset of the last check and its error, `None` before the first.
    let error = RwSignal::new(None::<(SinusoidalParams, usize, f64)>);
    let generation = StoredValue::new(0u64);
    Effect::new(move |_| {
        if !stats.near.get() {
            return;
        }
        let (p, kk) = (params.get(), k.get());
        if error.with_untracked(|e| matches!(e, Some((q, j, _)) if *q == p && *j == kk)) {
            return;
        }
        let ticket = generation.get_value().wrapping_add(1);
        generation.set_value(ticket);
        if p.positions.saturating_mul(p.dim) <= CHECK_AT_ONCE {
            error.set(Some((p, kk, p.max_shift_error(kk))));
            return;
        }
        // At the largest sizes the whole check is one 6–15 ms task, which a reader's next input
        // would have to wait for.
        let rows = (CHECK_AT_ONCE / p.dim.max(1)).max(1);
        let mut check = ShiftCheck::new(p, kk);
        run_in_slices(ticket, generation, move || match check.advance(rows) {
            Some(worst) => {
                let _ = error.try_set(Some((p, kk, worst)));
                true
            }
            None => false,
        });
    });
    // The last check, when it is of the parameters and offset shown.
    let current_error = move || {
        error
            .get()
            .filter(|&(q, j, _)| q == params.get() && j == k.get())
            .map(|(_, j, e)| (j, e))
    };

    figure! { "fig-shift", "ctl-k ctl-pos ctl-d ctl-base layout spacing", stats, [
        data-max-error=move || current_error().map(|(_, e)| format!("{e:e}")).unwrap_or_default()
        data-max-error-k=move || current_error().map(|(k, _)| k.to_string()).unwrap_or_default()
    ];
        <div class="figure-tools wide-slider">
            <IntSlider label="offset k" id="ctl-k" min=0usize max=MAX_SHIFT value=k />
        </div>
        <div class="canvas-wrap">
            <canvas
                node_ref=canvas_ref
                tabindex="0"
                role="img"
                aria-label=near::text(move || {
                    format!(
                        "Two curves over the dimensions: PE at position {} and the rotation \
                         M_{} applied to PE at position {}{}. They coincide.",
                        pos.get() + k.get(),
                        k.get(),
                        pos.get(),
                        if crate::explain::sinusoids::lone_sine(&params.get()).is_some() {
                            " (the lone sine's cosine taken from the position itself)"
                        } else {
                            ""
                        }
                    )
                })
                aria-describedby="fig-shift-block"
                on:mousemove=on_move
                on:keydown=on_key
            ></canvas>
        </div>
        <div class="block-readout" id="fig-shift-block" aria-live="polite">
            {
                let shown = near::text(move || {
                    let p = params.get();
                    let lone = crate::explain::sinusoids::lone_sine(&p).is_some();
                    let b = block();
                    let is_lone = lone && b.0 == p.dim / 2;
                    (b, k.get(), is_lone)
                });
                move || {
                let ((i, omega, m), kk, is_lone) = shown.get();
                view! {
                    <math display="block">
                        <mrow>
                            <msub><mi>"M"</mi><mn>{kk.to_string()}</mn></msub>
                            <mo>"restricted to pair"</mo><mn>{i.to_string()}</mn>
                            <mo>"="</mo>
                            <mrow>
                                <mo>"["</mo>
                                <mtable>
                                    <mtr><mtd><mn>{entry(m[0][0])}</mn></mtd><mtd><mn>{entry(m[0][1])}</mn></mtd></mtr>
                                    <mtr><mtd><mn>{entry(m[1][0])}</mn></mtd><mtd><mn>{entry(m[1][1])}</mn></mtd></mtr>
                                </mtable>
                                <mo>"]"</mo>
                            </mrow>
                        </mrow>
                    </math>
                    <p class="readout">
                        {format!(
                            "pair {i}: rotation by k·ω = {kk} × {} = {} rad — no position in it.{}",
                            crate::params::format_significant(omega, 4),
                            crate::params::format_significant(kk as f64 * omega, 5),
                            if is_lone {
                                " Pair {i} is the lone sine: its block would need a cosine column the vector lacks (see below)."
                                    .replace("{i}", &i.to_string())
                            } else {
                                String::new()
                            }
                        )}
                    </p>
                }
            }}
        </div>
        <p class="finding">
            {near::text(move || match current_error() {
                Some((kk, e)) => {
                    let p = params.get();
                    let h = p.dim / 2;
                    let (who, odd) = match crate::explain::sinusoids::lone_sine_shift_note(&p, kk) {
                        Some(note) => (format!("for the {h} complete pairs "), format!(" {note}")),
                        None => (String::new(), String::new()),
                    };
                    format!(
                        "Across all {} positions and {} columns, the largest entry of |M_{kk} · PE(p) − PE(p + {kk})| is {e:.1e}: {who}the same matrix shifts every position.{odd}",
                        p.positions,
                        p.dim,
                    )
                }
                _ => format!("Checking M_{} against every position…", k.get()),
            })}
        </p>
        <figcaption>
            "Because sin and cos of (pos + k)·ω are sin and cos of pos·ω rotated by k·ω, "
            "for every complete (sin, cos) pair, moving k positions is one fixed linear map, "
            "whatever the position. Vaswani et al. "
            "hypothesised that this would let attention easily learn to attend by relative "
            "position; learned position embeddings did about as well (Table 3, row E), and in "
            "a real layer q·k also mixes word and position (word × position terms). Hover the "
            "plot (or use arrow keys) to pick a frequency pair."
        </figcaption>
    }
}
