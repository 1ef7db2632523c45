//! The comparison that closes the book: every family of positional encoding this book draws in one
//! table — who uses it, its idea, whether it reaches past its training length, what it learns, and where
//! it acts — each row linked to the figure that shows it.

use leptos::prelude::*;

use crate::app::figure::now;
use crate::app::frame::FigureLink;
use crate::explain::tables::{ALIBI_EXTRAPOLATES, NOPE_EXTRAPOLATES};

/// One row of the table.
struct Row {
    method: &'static str,
    figure: &'static str,
    used_by: &'static str,
    idea: &'static str,
    extrapolates: &'static str,
    parameters: &'static str,
    acts: &'static str,
}

const ROWS: [Row; 10] = [
    Row {
        method: "Sinusoidal",
        figure: "fig-heatmap",
        used_by: "the original Transformer (Vaswani et al. 2017); Marian, M2M100",
        idea: "fixed sine and cosine waves of geometric wavelengths, one vector per position",
        extrapolates: "defined at every position, but models trained with it degrade past their \
                       training length (Press et al. 2022)",
        parameters: "none",
        acts: "added to x",
    },
    Row {
        method: "Learned absolute",
        figure: "fig-tab-learned",
        used_by: "BERT, GPT-2",
        idea: "a trainable table with one row per position",
        extrapolates: "no: there is no row past max_len",
        parameters: "max_len × d",
        acts: "added to x",
    },
    Row {
        method: "Relative, clipped (Shaw et al. 2018)",
        figure: "fig-tab-shaw",
        used_by: "Shaw et al.'s translation Transformer",
        idea: "a learned vector per distance j − i, clipped at ±k, in the keys and the values",
        extrapolates: "defined at any length: farther pairs share the vectors of ±k",
        parameters: "2 × (2k + 1) vectors per layer and head (shared across heads in their big \
                     model)",
        acts: "keys and values in attention",
    },
    Row {
        method: "Transformer-XL (Dai et al. 2019)",
        figure: "fig-tab-txl",
        used_by: "Transformer-XL, XLNet",
        idea: "a sinusoid of the distance i − j, projected by a key matrix of its own, and \
               learned vectors u and v in place of the query's position: four terms in each \
               score",
        extrapolates: "defined at any distance by the formula; with its cache of earlier \
                       segments the paper attends farther at evaluation than in training \
                       (§3.2), though its released evaluations clamp the distance (clamp_len \
                       1000 with a 1600-token memory on WikiText-103)",
        parameters: "a projection W_k,R per layer; u and v per head, shared by all layers in \
                     the authors' PyTorch code (their TensorFlow scripts for WikiText-103 and \
                     One Billion Word give each layer its own, as does Hugging Face's port)",
        acts: "the attention scores only",
    },
    Row {
        method: "T5 buckets",
        figure: "fig-tab-t5",
        used_by: "T5, mT5, Flan-T5",
        idea: "a learned scalar per distance bucket and head; exact near, logarithmic far",
        extrapolates: "defined at any length: all distances past max_distance share one bucket",
        parameters: "num_buckets × heads per stack (encoder and decoder each), in its first \
                     layer and reused by the others",
        acts: "biases scores",
    },
    Row {
        method: "RoPE",
        figure: "fig-rope-2d",
        used_by: "GPT-J, GPT-NeoX, LLaMA, Mistral, Qwen, Gemma",
        idea: "rotate q and k by angles proportional to the position, so q·k depends on the \
               distance",
        extrapolates: "defined at every position, but quality collapses past the trained \
                       context without rescaling (Chen et al. 2023)",
        parameters: "none",
        acts: "rotates q and k",
    },
    Row {
        method: "RoPE rescaled (PI, NTK, YaRN, Llama 3, LongRoPE)",
        figure: "fig-ctx-wavelengths",
        used_by: "Llama 3.1 (llama3), Qwen2.5 with YaRN, Phi-3 (LongRoPE)",
        idea: "slow down some or all rotation frequencies so long contexts map to familiar \
               angles",
        extrapolates: "to a chosen target length, usually with some long-context fine-tuning",
        parameters: "none: a few fixed scalars (LongRoPE: searched factors, one per pair, for \
                     short and long contexts)",
        acts: "rotates q and k",
    },
    Row {
        method: "ALiBi",
        figure: "fig-tab-alibi",
        used_by: "BLOOM, MPT",
        idea: "subtract m·|i − j| from each score, with a fixed slope m per head",
        extrapolates: ALIBI_EXTRAPOLATES,
        parameters: "none (the slopes are fixed)",
        acts: "biases scores",
    },
    Row {
        method: "NoPE",
        figure: "fig-tab-nope",
        used_by: "NoPE layers among RoPE layers: Llama 4 (no_rope_layers), SmolLM3; Cohere2's \
                  global-attention layers; first studied by Irie et al. 2019, Haviv et al. 2022, \
                  Kazemnejad et al. 2023",
        idea: "no encoding: the causal mask alone leaks position",
        extrapolates: NOPE_EXTRAPOLATES,
        parameters: "none",
        acts: "nowhere (only the causal mask)",
    },
    Row {
        method: "DroPE",
        figure: "fig-tab-drope",
        used_by: "the authors' SmolLM-360M, SmolLM-1.7B and Llama 2 7B, recalibrated (Gelberg \
                  et al. 2025)",
        idea: "pretrain with RoPE, then remove the rotation from every layer and train briefly \
               more at the original context length",
        extrapolates: "after the drop a score reads content alone at any distance, as NoPE's \
                       does; the paper reports zero-shot gains over PI, RoPE-NTK and YaRN (its \
                       Table 10: needle in a haystack at 8× SmolLM-360M's context, 52.20 \
                       against 12.18 with YaRN)",
        parameters: "none for positions: the model's own weights, recalibrated (its longer \
                     SmolLM-360M runs add QKNorm's learned scales)",
        acts: "rotates q and k in pretraining; after the drop, nowhere (only the causal mask)",
    },
];

/// The figure.
#[component]
pub fn Comparison() -> impl IntoView {
    // A table is drawn once it is in the page.
    let drawn = RwSignal::new(String::new());
    Effect::new(move |_| drawn.set(format!("{:.1}", now())));
    view! {
        <figure class="figure" id="fig-tab-compare" data-drawn-at=move || drawn.get()>
            <FigureLink id="fig-tab-compare" />
            <div class="table-scroll" tabindex="0" role="region" aria-labelledby="fig-tab-compare-caption">
                <table class="compare">
                    <thead>
                        <tr>
                            <th scope="col">"method"</th><th scope="col">"used by"</th>
                            <th scope="col">"key idea"</th><th scope="col">"past the training length?"</th>
                            <th scope="col">"learned parameters"</th><th scope="col">"where it acts"</th>
                        </tr>
                    </thead>
                    <tbody>
                        {ROWS
                            .iter()
                            .map(|r| {
                                view! {
                                    <tr>
                                        <th scope="row">
                                            <a href=format!("#{}", r.figure)>{r.method}</a>
                                        </th>
                                        <td>{r.used_by}</td>
                                        <td>{r.idea}</td>
                                        <td>{r.extrapolates}</td>
                                        <td>{r.parameters}</td>
                                        <td>{r.acts}</td>
                                    </tr>
                                }
                            })
                            .collect_view()}
                    </tbody>
                </table>
            </div>
            <figcaption id="fig-tab-compare-caption">
                "Every family this book draws, side by side; each method's name links to the "
                "figure that shows it. Where an encoding acts decides what it can do: added to "
                "x, it mixes with the content in every product; in Shaw's keys and values, a "
                "learned vector per distance meets the query's content in the score and is "
                "added to the output; in Transformer-XL's scores, a fixed sinusoid of the "
                "distance, projected, meets the query's content and a learned bias; rotating q "
                "and k, it reaches only the scores and makes them depend "
                "on the distance; as a bias, it is a content-independent preference for near or "
                "far keys; and with NoPE it is nowhere, leaving the causal mask alone to carry "
                "position."
            </figcaption>
        </figure>
    }
}
