//! Interleaved or half-split: which coordinates pair up (RoFormer, GPT-J and Meta's original
//! LLaMA code pair (2i, 2i+1); GPT-NeoX and Hugging Face Llama pair (i, i + d/2)). The same q and k
//! turn to different vectors under the two, but once the rows of W_q and W_k are permuted the way
//! Hugging Face's LLaMA conversion does, the scores are identical. Partial rotation turns only the
//! first rotary_dim coordinates.

use leptos::html::Canvas;
use leptos::prelude::*;

use crate::app::near;

use crate::app::backend;
use crate::app::canvas;
use crate::app::figure::{StillCanvas, draw_effect};
use crate::app::frame::figure;
use crate::app::state::rope::RopeState;
use crate::app::theme::chapter_context;
use crate::chart::pairs;
use crate::math::rope::{self, Layout};
use crate::params::rope::{QkSource, qk_vectors};
use crate::scene::rope as scene;

/// Scores of q at position m against k at position n under the three settings the figure
/// compares: interleaved; half-split with the same q, k; half-split with q, k permuted.
#[derive(Clone, Copy, PartialEq)]
struct Scores {
    interleaved: f64,
    half_same: f64,
    half_permuted: f64,
}

fn scores(q: &[f64], k: &[f64], m: f64, n: f64, base: f64, r: usize) -> Scores {
    let turn = |x: &[f64], p: f64, layout: Layout| rope::rotate_partial(x, p, base, r, layout);
    let score =
        |layout: Layout, q: &[f64], k: &[f64]| rope::dot(&turn(q, m, layout), &turn(k, n, layout));
    // The permutation acts within the turning coordinates; the rest stay where they are.
    let mut perm = rope::hf_permutation(r);
    perm.extend(r..q.len());
    let (pq, pk) = (rope::permute(q, &perm), rope::permute(k, &perm));
    Scores {
        interleaved: score(Layout::Interleaved, q, k),
        half_same: score(Layout::Half, q, k),
        half_permuted: score(Layout::Half, &pq, &pk),
    }
}

/// A model's setting for the presets: head_dim, rotary_dim and layout, from its config.json.
struct Preset {
    name: &'static str,
    dim: usize,
    rotary: usize,
    layout: Layout,
    source: &'static str,
}

const PRESETS: [Preset; 3] = [
    Preset {
        name: "Llama 2 7B",
        dim: 128,
        rotary: 128,
        layout: Layout::Half,
        source: "hidden_size 4096 / 32 heads; Hugging Face rotate_half",
    },
    Preset {
        name: "GPT-NeoX-20B",
        dim: 96,
        rotary: 24,
        layout: Layout::Half,
        source: "hidden_size 6144 / 64 heads; rotary_pct 0.25",
    },
    Preset {
        name: "GPT-J-6B",
        dim: 256,
        rotary: 64,
        layout: Layout::Interleaved,
        source: "n_embd 4096 / 16 heads; rotary_dim 64; rotate_every_two",
    },
];

/// The figure.
#[component]
pub fn Layouts() -> impl IntoView {
    let (s, theme) = chapter_context!(RopeState);
    let rotary = s.rotary_dim();
    let pos = s.current_pos();
    let canvas_ref = NodeRef::<Canvas>::new();
    let stats = draw_effect(canvas_ref, move |surface| {
        let (d, r, t) = (s.dim.get(), rotary.get(), theme.get());
        if canvas::fit(surface, scene::layouts_height).is_none() {
            return;
        }
        let Some(root) = backend::area(&surface.el) else {
            return;
        };
        let spec = scene::layouts_spec(d, r, t);
        if pairs::draw(&root, &spec).is_ok() {
            let _ = root.present();
        }
    });
    // Random q and k (the chapter's seed): with all-ones vectors every pairing gives the same score.
    let vectors = Memo::new(move |_| qk_vectors(QkSource::Random, s.dim.get(), s.seed.get()));
    let result = Memo::new(move |_| {
        let (m, base, r) = (pos.get() as f64, s.base.get(), rotary.get());
        vectors.with(|(q, k)| scores(q, k, m, 0.0, base, r))
    });
    let perm_text = move || {
        let r = rotary.get();
        let perm = rope::hf_permutation(r);
        let shown: Vec<String> = perm.iter().take(8).map(usize::to_string).collect();
        format!(
            "new row j ← old row perm[j] over the {r} turning coordinates: perm = [{}{}]",
            shown.join(", "),
            if perm.len() > 8 { ", …" } else { "" }
        )
    };
    let verdict = move || {
        let sc = result.get();
        format!(
            "|interleaved − half-split after permuting| = {:.1e}",
            (sc.interleaved - sc.half_permuted).abs()
        )
    };
    let apply = move |p: &'static Preset| {
        move |_| {
            s.dim.set(p.dim);
            s.rotary.set((p.rotary < p.dim).then_some(p.rotary));
            s.layout.set(p.layout);
        }
    };

    figure! { "fig-rope-layouts", "ctl-r-d ctl-r-rot", stats, [
        data-scores=move || {
            let sc = result.get();
            format!("{},{},{}", sc.interleaved, sc.half_same, sc.half_permuted)
        }
    ];
        <div class="figure-tools buttons">
            <span class="hint">"Set head_dim, rotary_dim and layout as in:"</span>
            {PRESETS
                .iter()
                .map(|p| view! {
                    <button type="button" class="button" on:click=apply(p) title=p.source>{p.name}</button>
                })
                .collect_view()}
        </div>
        <StillCanvas
            node_ref=canvas_ref
            label=move || {
                format!(
                    "The {} coordinates of a head in two rows. Interleaved: arcs join neighbours 2i and 2i+1. Half-split: arcs join i and i + {}, across the middle of the turning coordinates.{}",
                    s.dim.get(),
                    rotary.get() / 2,
                    if rotary.get() < s.dim.get() { " The coordinates past rotary_dim are hatched: they do not turn." } else { "" }
                )
            }
        />
        <table class="numbers">
            <caption>{near::text(move || format!("q · k with q at position m = {} and k at position 0 (random q, k; seed {})", pos.get(), s.seed.get()))}</caption>
            <tbody>
                <tr><th scope="row">"interleaved"</th><td>{near::text(move || format!("{:.6}", result.get().interleaved))}</td></tr>
                <tr><th scope="row">"half-split, same q and k"</th><td>{near::text(move || format!("{:.6}", result.get().half_same))}</td></tr>
                <tr><th scope="row">"half-split, q and k permuted"</th><td>{near::text(move || format!("{:.6}", result.get().half_permuted))}</td></tr>
            </tbody>
        </table>
        <p class="readout" aria-live="polite">{near::text(verdict)}</p>
        <p class="hint">{near::text(perm_text)}</p>
        <figcaption>
            "The two layouts pair different coordinates, so the same q and k turn into different "
            "vectors and, in general, different scores. Hugging Face's LLaMA conversion permutes "
            "the rows of W" <sub>"q"</sub> " and W" <sub>"k"</sub>
            " (within each head of width d, row 2i + t moves to t·d/2 + i; here, within the "
            "rotary_dim turning coordinates): the permuted q and k under the half-split layout "
            "are the interleaved result, permuted, so every score is the same. Partial rotation "
            "(GPT-NeoX, GPT-J) turns only the first rotary_dim coordinates and passes the rest "
            "through: those add the same q·k at every distance, so a head can match on content "
            "there with no position in the way, and fewer coordinates are turned (a common "
            "reading of why, not a result we can cite)."
        </figcaption>
    }
}
