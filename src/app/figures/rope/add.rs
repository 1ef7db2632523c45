//! Why not add? With the position added to the input, the score of a query/key pair splits into
//! content·content, content·position, position·content and position·position terms. Move both
//! tokens by the same offset — the distance stays — and the three terms that hold a position
//! change. RoPE's score of the same pair does not move.

use leptos::html::Canvas;
use leptos::prelude::*;

use crate::app::near;

use crate::app::controls::IntSlider;
use crate::app::figure::{DrawStats, StillCanvas, draw_effect_into};
use crate::app::frame::figure;
use crate::app::lazy::near_memo;
use crate::app::plot::paint_lines;
use crate::app::state::AppState;
use crate::app::state::rope::RopeState;
use crate::app::theme::chapter_context;
use crate::math::attention::tokenize;
use crate::params::rope::SHIFT;
use crate::scene::rope as scene;

/// A token picker: one option per token of the sentence.
#[component]
pub fn TokenSelect(
    /// Visible label.
    label: &'static str,
    /// Element id.
    id: &'static str,
    /// The sentence's tokens.
    tokens: Memo<Vec<String>>,
    /// Which of the pair it picks: 0 the query, 1 the key.
    which: usize,
) -> impl IntoView {
    let s = expect_context::<RopeState>();
    let chosen = move || s.pair.get()[which].min(tokens.with(Vec::len).saturating_sub(1));
    let on_change = move |ev: leptos::ev::Event| {
        if let Ok(k) = event_target_value(&ev).parse::<usize>() {
            s.pair.update(|p| p[which] = k);
        }
    };
    view! {
        <span class="text-field">
            <label for=id>{label}</label>
            <select id=id class="exact" on:change=on_change prop:value=move || chosen().to_string()>
                // Rebuilt when the sentence changes, with a plain `selected` (`prop:value` keeps
                // the choice current): a reactive one would be a new effect per option and
                // sentence, and reactive_graph 0.2 never drops a dropped effect from the
                // subscriber list of the signals it read.
                {move || {
                    let now = untrack(chosen);
                    tokens
                        .get()
                        .into_iter()
                        .enumerate()
                        .map(|(k, t)| view! { <option value=k.to_string() selected=now == k>{format!("{k}: {t}")}</option> })
                        .collect_view()
                }}
            </select>
        </span>
    }
}

/// The figure.
#[component]
pub fn WhyNotAdd() -> impl IntoView {
    let state = expect_context::<AppState>();
    let (s, theme) = chapter_context!(RopeState);
    let tokens = Memo::new(move |_| tokenize(&state.order.sentence.get()));
    // The pair, fitted to the sentence.
    let pair = Memo::new(move |_| scene::add_pair(tokens.with(Vec::len), s.pair.get()));
    // Off screen, computed when idle (see `app::lazy`).
    let stats = DrawStats::new();
    let curves = near_memo(
        stats.near,
        move || (tokens.get(), pair.get()),
        |(t, p)| scene::add_curves(t, *p),
    );
    let canvas_ref = NodeRef::<Canvas>::new();
    draw_effect_into(canvas_ref, stats, move |surface| {
        let (o, t) = (s.shift.get(), theme.get());
        curves.with(|c| {
            if c.is_empty() {
                return;
            }
            let spec = scene::add_spec(c, o, t);
            paint_lines(surface, scene::add_height, &spec);
        });
    });
    let at = move || curves.with(|c| c.get(s.shift.get()).copied());
    let rows = move || {
        at().map(|(t, r)| {
            let first = curves.with(|c| c.first().copied());
            let (t0, r0) = first.unwrap_or((t, r));
            let row = |name: &'static str, now: f64, then: f64| {
                view! {
                    <tr>
                        <th scope="row">{name}</th>
                        <td>{format!("{now:.4}")}</td>
                        <td>{format!("{:+.4}", now - then)}</td>
                    </tr>
                }
            };
            view! {
                {row("content·content", t.content_content, t0.content_content)}
                {row("content·position", t.content_position, t0.content_position)}
                {row("position·content", t.position_content, t0.position_content)}
                {row("position·position", t.position_position, t0.position_position)}
                {row("added: total", t.total(), t0.total())}
                {row("RoPE score", r, r0)}
            }
        })
    };
    let readout = move || {
        let (a, b) = pair.get();
        let o = s.shift.get();
        tokens.with(|t| match (t.get(a), t.get(b), at(), curves.with(|c| c.first().copied())) {
            (Some(q), Some(k), Some((terms, r)), Some((t0, r0))) => format!(
                "query “{q}” at {} · key “{k}” at {} · m − n = {} · added score {:.4} ({:+.4} since o = 0) · RoPE score {:.4} (change {:+.1e}, rounding)",
                a + o,
                b + o,
                a as i64 - b as i64,
                terms.total(),
                terms.total() - t0.total(),
                r,
                r - r0
            ),
            _ => String::new(),
        })
    };
    let describe = move || {
        "Six curves over the offset by which both tokens move: the content·content term and the \
         RoPE score are flat; the three terms that hold a position, and so the added total, move."
            .to_string()
    };

    figure! { "fig-rope-add", "ctl-r-shift ctl-r-qtok ctl-r-ktok", stats, [
        data-rope-drift=move || {
            curves.with(|c| {
                let r0 = c.first().map_or(0.0, |v| v.1);
                format!("{}", c.iter().map(|v| (v.1 - r0).abs()).fold(0.0, f64::max))
            })
        }
    ];
        <div class="figure-tools">
            <TokenSelect label="query token" id="ctl-r-qtok" tokens=tokens which=0 />
            <TokenSelect label="key token" id="ctl-r-ktok" tokens=tokens which=1 />
            <IntSlider label="offset o of both tokens" id="ctl-r-shift" min=SHIFT.0 max=SHIFT.1 value=s.shift />
        </div>
        <StillCanvas node_ref=canvas_ref label=describe />
        <p class="readout" aria-live="polite">{near::text(readout)}</p>
        <table class="numbers">
            <caption>"At the current offset, and the change since offset 0"</caption>
            <thead>
                <tr><th scope="col">"term"</th><th scope="col">"value"</th><th scope="col">"change"</th></tr>
            </thead>
            <tbody>{rows}</tbody>
        </table>
        <figcaption>
            "The toy model of chapter 1 (its sentence, word vectors x, projections W"
            <sub>"q"</sub> ", W" <sub>"k"</sub> ", sinusoidal p). Added to the input, the score "
            "(W" <sub>"q"</sub> "(x" <sub>"a"</sub> " + p" <sub>"m"</sub> "))·(W"
            <sub>"k"</sub> "(x" <sub>"b"</sub> " + p" <sub>"n"</sub>
            "))/√d splits into four terms (Ke, He & Liu 2021). Only content·content ignores "
            "where the tokens are; the other three generally change when both tokens move together, "
            "although their distance does not (p" <sub>"m"</sub> "·p" <sub>"n"</sub>
            " alone depends only on m − n; the projections between them break that). RoPE scores (R" <sub>"m"</sub> "W" <sub>"q"</sub>
            "x" <sub>"a"</sub> ")·(R" <sub>"n"</sub> "W" <sub>"k"</sub> "x" <sub>"b"</sub>
            ")/√d, which depends on m − n only: its line is flat. The toy is fixed — 16 "
            "dimensions, base 10000, interleaved pairs — so the chapter's head_dim, base, "
            "layout and rotary_dim controls do not change this figure."
        </figcaption>
    }
}
