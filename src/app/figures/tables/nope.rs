//! NoPE, no positional encoding: a causal mask alone leaks position (Haviv et al. 2022;
//! Kazemnejad et al. 2023). With equal scores, query `i` averages the `i + 1` values it may
//! see, each with weight `1/(i + 1)`; the average of `i + 1` independent values has variance
//! `σ²/(i + 1)`, so the output's size tells the position. Both over the sequence, on log axes,
//! with the variance simulated from seeded random values.

use leptos::html::Canvas;
use leptos::prelude::*;

use crate::app::near;

use super::SeedField;
use crate::app::controls::IntSlider;
use crate::app::figure::{DrawStats, InteractiveCanvas, draw_effect_into};
use crate::app::figures::cursor::XCursor;
use crate::app::frame::figure;
use crate::app::state::tables::TablesState;
use crate::app::tasks::run_in_slices;
use crate::app::theme::chapter_context;
use crate::explain::count as counted;
use crate::explain::tables::NopeFinding;
use crate::math::nope;
use crate::params::format_significant;
use crate::params::tables::{NOPE_DIM, NOPE_LEN};
use crate::scene::tables as scene;

/// The largest simulation (positions × width) run in one go while the figure is off screen:
/// 2¹⁶ normal draws. A larger one runs that many per browser task, so a shared control (the seed)
/// moved at another figure never waits for it; in view it runs at once, to draw in the input's
/// frame.
const AT_ONCE: usize = 1 << 16;

/// What the figure's sentences say while the simulation of the setting shown is still running.
const SIMULATING: &str = "Simulating the output variance for this setting…";

/// The seed, sequence length and width a simulation is of.
type Setting = (u64, usize, usize);

/// `f` of the last finished simulation, if it is of setting `now`.
fn of_setting<T>(
    done: RwSignal<Option<(Setting, Vec<f64>)>>,
    now: Setting,
    f: impl FnOnce(&[f64]) -> T,
) -> Option<T> {
    done.with(|d| match d {
        Some((of, v)) if *of == now => Some(f(v)),
        _ => None,
    })
}

/// The figure.
#[component]
pub fn NoPosition() -> impl IntoView {
    let (s, theme) = chapter_context!(TablesState);
    let stats = DrawStats::new();
    // The last finished simulation and its setting, read through `of_setting` only when it is of
    // the setting shown (`None` while a newer one runs).
    let done = RwSignal::new(None::<(Setting, Vec<f64>)>);
    let newest = StoredValue::new(0u64);
    let setting = move || (s.seed.get(), s.nope_len.get(), s.nope_dim.get());
    Effect::new(move |_| {
        let (now, near) = (setting(), stats.near.get());
        if done.with_untracked(|d| matches!(d, Some((at, _)) if *at == now)) {
            return;
        }
        let ticket = newest.get_value().wrapping_add(1);
        newest.set_value(ticket);
        let (seed, len, dim) = now;
        let mut run = nope::VarianceRun::new(seed, len, dim);
        if near || len.saturating_mul(dim) <= AT_ONCE {
            run.advance(usize::MAX);
            done.set(Some((now, run.take_values())));
            return;
        }
        let rows = (AT_ONCE / dim.max(1)).max(1);
        run_in_slices(ticket, newest, move || {
            let finished = run.advance(rows);
            if finished {
                let _ = done.try_set(Some((now, run.take_values())));
            }
            finished
        });
    });
    let cursor = XCursor::new();
    let count = move || s.nope_len.get_untracked();
    let canvas_ref = NodeRef::<Canvas>::new();
    draw_effect_into(canvas_ref, stats, move |surface| {
        let (n, d, t) = (s.nope_len.get(), s.nope_dim.get(), theme.get());
        let at = cursor.get(n);
        let drawn = of_setting(done, setting(), |v| scene::nope_spec(v, d, at, t));
        let Some((spec, extras)) = drawn else {
            // Sized all the same (off screen, that is all a draw does).
            let _ = crate::app::canvas::fit(surface, scene::nope_height);
            return;
        };
        cursor.paint(surface, scene::nope_height, &spec, &extras);
    });
    let readout = move || {
        let n = s.nope_len.get();
        match cursor.get(n) {
            Some(i) => of_setting(done, setting(), |v| {
                format!(
                    "Query {i} sees {}: each gets weight {}; its output's mean square over \
                     {} (an estimate of its variance) is {} (expected 1/(i + 1) = {}).",
                    counted(i + 1, "token", "tokens"),
                    format_significant(nope::uniform_weight(i), 4),
                    match s.nope_dim.get() {
                        1 => "its 1 coordinate".to_string(),
                        d => format!("the {d} coordinates"),
                    },
                    format_significant(v.get(i).copied().unwrap_or(0.0), 4),
                    format_significant(nope::uniform_weight(i), 4)
                )
            })
            .unwrap_or_else(|| SIMULATING.to_string()),
            None => {
                "Hover the plot (or focus it and use the arrow keys) to read one query.".to_string()
            }
        }
    };
    let finding = move || {
        let (n, d) = (s.nope_len.get(), s.nope_dim.get());
        of_setting(done, setting(), |v| {
            NopeFinding {
                n,
                d,
                first: v.first().copied().unwrap_or(0.0),
                last: v.last().copied().unwrap_or(0.0),
            }
            .to_string()
        })
        .unwrap_or_else(|| SIMULATING.to_string())
    };
    let describe = move || {
        let n = s.nope_len.get();
        format!(
            "On log–log axes over {n} positions, a falling line of the weight 1/(i + 1) that \
             uniform causal attention gives each key, and {} of the output's mean square, an \
             estimate of its variance that scatters around the same line (more so for small \
             d). {}",
            if scene::nope_dots(n) {
                "dots"
            } else {
                "a line"
            },
            finding()
        )
    };
    figure! { "fig-tab-nope", "ctl-t-nn ctl-t-nd ctl-t-nseed", stats;
        <div class="figure-tools">
            <IntSlider label="sequence length" id="ctl-t-nn" min=NOPE_LEN.0 max=NOPE_LEN.1 value=s.nope_len />
            <IntSlider label="value width d" id="ctl-t-nd" min=NOPE_DIM.0 max=NOPE_DIM.1 value=s.nope_dim />
            <SeedField id="ctl-t-nseed" seed=s.seed />
        </div>
        <InteractiveCanvas node_ref=canvas_ref readout=readout label=describe
            pointer=cursor.pointer(canvas_ref, count, |x| 10f64.powf(x) - 1.0).clearing(cursor.at) />
        <p class="finding">{near::text(finding)}</p>
        <figcaption>
            "A decoder without any positional encoding (NoPE) still has its causal mask: "
            "query i may attend to keys 0 … i only. Even when every score is equal, that "
            "mask makes each weight 1/(i + 1), and averaging i + 1 independent values with "
            "unit variance leaves variance 1/(i + 1) — a signal of position that later "
            "layers can read (the argument of Chi et al. 2023). Irie et al. (2019) already "
            "found that deep Transformer language models do not need positional encoding; "
            "Haviv et al. (2022) found causal language models without it competitive with "
            "those with it, and probed position from their activations. Kazemnejad et al. "
            "(2023, Theorem 1) prove that a first causal layer can recover absolute "
            "positions by another route: attending equally to every key and reading a "
            "marker only the first token carries, it outputs exactly 1/(i + 1); they also "
            "report that NoPE generalises to longer inputs better than the encodings they "
            "compared on their tasks, though it too fails past a limit (Wang et al. 2024). "
            "All of this needs the mask: an encoder without positions attends both ways, is "
            "blind to order (" <a href="#fig-attention">"chapter 1's order-blindness figure"</a> "), and masked language "
            "models trained without positions do worse. The values share the learned "
            "table's seed."
        </figcaption>
    }
}
