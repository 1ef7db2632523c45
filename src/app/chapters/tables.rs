//! Chapter 4, "Tables and biases": learned absolute positions and their cliff, relative
//! positions (Shaw's clipped distances, T5's buckets), ALiBi's linear biases, NoPE — and the
//! comparison that closes the book. Each figure carries its own controls.

use leptos::prelude::*;

use crate::app::deferred::Deferred;
use crate::app::frame::chapter;
use crate::app::near::{Near, watch};

use crate::app::chapters::closing::{QUESTIONS, Quiz, Timeline};
use crate::app::figures::tables::alibi::AlibiBias;
use crate::app::figures::tables::alibi_attention::AlibiAttention;
use crate::app::figures::tables::compare::Comparison;
use crate::app::figures::tables::drope::DroppedRotation;
use crate::app::figures::tables::extrapolate::ExtrapolationSideBySide;
use crate::app::figures::tables::learned::LearnedCliff;
use crate::app::figures::tables::learned_similarity::LearnedSimilarity;
use crate::app::figures::tables::nope::NoPosition;
use crate::app::figures::tables::same::SamePosition;
use crate::app::figures::tables::shaw::ShawClipped;
use crate::app::figures::tables::slopes::AlibiSlopes;
use crate::app::figures::tables::t5::T5Buckets;
use crate::app::figures::tables::txl::TransformerXl;
use crate::app::state::tables::TablesState;
use crate::explain::tables::slope_ladder;

/// DroPE's Table 10 (arXiv 2512.12167v1): needle-in-a-haystack scores of SmolLM-360M at 2×, 4×
/// and 8× its 2048-token context, as printed there.
const DROPE_TABLE_10: [(&str, [&str; 3]); 4] = [
    ("RoPE-NTK", ["29.84", "14.37", "7.19"]),
    ("YaRN", ["48.25", "25.62", "12.18"]),
    ("LongRoPE2", ["44.20", "26.20", "16.45"]),
    ("DroPE", ["74.92", "55.00", "52.20"]),
];

/// The chapter.
#[component]
pub fn Tables() -> impl IntoView {
    let s = expect_context::<TablesState>();
    // The paragraph's numbers follow the controls by its own place on the page.
    let sizes = Near::new();
    chapter! { "tables";
        <p>
            "Sinusoids and rotations are formulas. The other families either store one "
            "learned vector per position, learn something per distance instead, or skip "
            "vectors altogether and bias the attention scores — or use nothing at all. Each "
            "choice decides what "
            "happens at a position the model never saw in training."
        </p>
        <h3>"Learned absolute positions"</h3>
        <p use:watch=sizes>
            "BERT and GPT-2 learn their positions: a table of max_len rows, one per position, "
            "trained with the rest of the model. It can learn anything, but it has exactly "
            "max_len rows. (The original Transformer tried such a table too, with nearly "
            "identical results to its sinusoids, Vaswani et al. 2017, Table 3 row E; the "
            "authors kept the sinusoids because they may let a model extrapolate to longer "
            "sequences.) With the settings below the table has "
            {sizes.text(move || s.max_len.get())} " rows and the sequence has " {sizes.text(move || s.seq_len.get())}
            " positions."
        </p>
        <div class="figure-stack">
            <Deferred>
                <LearnedCliff />
            </Deferred>
            <p class="bridge">
                "Does a random table already encode order? Compare how alike its rows are:"
            </p>
            <Deferred>
                <LearnedSimilarity />
            </Deferred>
        </div>
        <h3>"Relative positions"</h3>
        <p>
            "If what matters is how far apart two tokens are, the model can learn something "
            "per distance instead of per position, inside attention. Shaw et al. (2018) learn "
            "a vector per distance up to a clip; T5 learns one number per head for each of a "
            "few buckets of distances. Published between them, Transformer-XL (Dai et al. "
            "2019) learns nothing per distance: it keeps a sinusoid, of the distance instead "
            "of the position, projected inside attention, with two learned vectors u and v "
            "in place of the query's position."
        </p>
        <div class="figure-stack">
            <Deferred>
                <ShawClipped />
            </Deferred>
            <Deferred>
                <TransformerXl />
            </Deferred>
            <Deferred>
                <T5Buckets />
            </Deferred>
        </div>
        <p class="bridge">
            "Where each keeps the distance decides what a longer text meets. Shaw's vectors "
            "stop at ±k: every farther pair shares the vectors of ±k. T5's buckets widen "
            "logarithmically, and every distance from max_distance on shares the last one. "
            "Transformer-XL's formula has no clip and no table: every distance gets its own "
            "R" <sub>"i−j"</sub> ", including distances no training segment had, and the "
            "paper evaluates with a memory several times longer than in training (§3.2, "
            "§3.3). Its released evaluation scripts still cap the distance (clamp_len): on "
            "WikiText-103, a memory of 1600 with clamp_len 1000, so every key farther than "
            "1000 shares R" <sub>"1000"</sub> ", as Shaw's share ±k. In all three a far pair gets a defined value; whether the model "
            "does well with it is a question of training, not of the formula."
        </p>
        <h3>"ALiBi: attention with linear biases"</h3>
        <p>
            "ALiBi (Press, Smith and Lewis 2022) learns nothing about positions. Each head "
            "subtracts its slope times the distance from every score: near keys are "
            "preferred, and each head prefers them with its own strength. The slopes are "
            "fixed, a geometric sequence 2^(−8h/H) for H heads, a power of two: 1/2, 1/4, "
            "…, 1/256 for 8. " {slope_ladder()} " For a head "
            "count that is not a power of two, the authors' code (and BLOOM) takes the "
            "slopes of the power of two below and then every other slope of the one above; "
            "the general rule the paper states would give other numbers."
        </p>
        <div class="figure-stack">
            <Deferred>
                <AlibiSlopes />
            </Deferred>
            <p class="bridge">
                "The bias of the chosen head, and of every head at once (click one to choose it):"
            </p>
            <Deferred>
                <AlibiBias />
            </Deferred>
            <p class="bridge">"What those biases do to the attention of one query:"</p>
            <Deferred>
                <AlibiAttention />
            </Deferred>
        </div>
        <h3>"NoPE: no positional encoding"</h3>
        <p>
            "Can a decoder do without any positional encoding? Its causal mask already treats "
            "positions differently: token i may look at i + 1 tokens, no more. (An encoder, "
            "whose attention has no mask, has no such signal.) Shipped models use it too, "
            "in some layers: Llama 4 and SmolLM3 leave every fourth layer without RoPE, and "
            "Cohere2 its global-attention layers."
        </p>
        <div class="figure-stack">
            <Deferred>
                <NoPosition />
            </Deferred>
        </div>
        <h3>"DroPE: drop the rotation after training"</h3>
        <p>
            "DroPE (Gelberg, Eguchi, Akiba and Cetin, Sakana AI, 2025) starts from a model "
            "pretrained with RoPE, removes the rotation from every layer, and trains the "
            "model a little more at its original context length, a recalibration: what is "
            "left is a NoPE model (in its longer SmolLM-360M runs, with QKNorm added for "
            "steadier training, whose scales are learned). The rotation is not useless, in the authors' account: it "
            "helps pretraining converge. Their hypothesis is that it is also what keeps a "
            "model from using a longer context: scaling methods like YaRN must compress the "
            "slow pairs' angles to keep them in the range training saw, and that shifts "
            "attention that matches content at long distances (their §4, Observation 2). "
            "Without the rotation a score reads content alone, wherever the key is, and "
            "order must come from the causal mask, as in the figure above. Why "
            "recalibrate at all? The paper says only that the rotation can be removed "
            "after a short recalibration; this book's reading: the weights were trained for "
            "rotated queries and keys, and dropping the rotation changes the score of every "
            "pair at a distance other than 0."
        </p>
        <div class="figure-stack">
            <Deferred>
                <DroppedRotation />
            </Deferred>
        </div>
        <p>
            "What the paper reports (its claims, from its own tables, arXiv 2512.12167v1; "
            "not recomputed here). On needle-in-a-haystack retrieval with SmolLM-360M, "
            "pretrained at 2048 tokens on 600B tokens and recalibrated at 2048, zero-shot "
            "at longer contexts:"
        </p>
        <table class="numbers">
            <caption>
                "Needle-in-a-haystack score, SmolLM-360M (the paper's Table 10)"
            </caption>
            <thead>
                <tr>
                    <th scope="col">"method"</th><th scope="col">"2× (4096)"</th>
                    <th scope="col">"4× (8192)"</th><th scope="col">"8× (16384)"</th>
                </tr>
            </thead>
            <tbody>
                {DROPE_TABLE_10
                    .iter()
                    .map(|(method, scores)| {
                        view! {
                            <tr>
                                <th scope="row">{*method}</th>
                                {scores.iter().map(|v| view! { <td>{*v}</td> }).collect_view()}
                            </tr>
                        }
                    })
                    .collect_view()}
            </tbody>
        </table>
        <p>
            "Its other tables: a half-billion-parameter model trained from scratch with "
            "RoPE, dropped for the last 2B of 16B tokens, retrieves more at 2× its context "
            "on three RULER tasks than the same model with PI, RoPE-NTK or YaRN and than "
            "ALiBi, NoPE and RNoPE-SWA models trained alike (Table 1: 28.0, 41.6 and 23.3 "
            "against at most 21.1, 36.2 and 21.4); on four LongBench tasks plus the needle "
            "test SmolLM-360M's average rises from 2.98 to 30.52 (YaRN: 19.94, Table 2); "
            "recalibrated on 20B tokens, SmolLM-1.7B and Llama 2 7B average 21.49 and 26.08 "
            "on three LongBench tasks, against 16.23 and 19.14 with YaRN and 18.53 and 21.88 "
            "with RoPE-NTK (Table 3). At longer contexts the paper scales DroPE's logits by a "
            "factor fitted at the target length (β = 1 + 0.103 ln s for SmolLM-DroPE, its "
            "App. C.2), as Wang et al. do for NoPE. The recalibration is not free: 30B to "
            "120B tokens for SmolLM-360M (5 to 20 % of its 600B; it recovers over 95 % of "
            "its short-context scores within 5B), 20B for the larger two (the paper counts "
            "that as 2 % and 0.5 % of their pretraining, taking 4T tokens for Llama 2 7B, "
            "whose own paper reports 2T: 1 %). Not shown: which of the 30B, 60B and 120B "
            "runs its Tables 2 and 10 use, a model dropped without recalibration, needle "
            "tests past 8× or RULER past 2×, models beyond 7B parameters, or a replication "
            "by others."
        </p>
        <h3>"Every method side by side"</h3>
        <div class="figure-stack">
            <Deferred>
                <Comparison />
            </Deferred>
            <p class="bridge">"What each one does with a single position:"</p>
            <Deferred>
                <SamePosition />
            </Deferred>
            <p class="bridge">
                "And the question every method must answer: what happens past the training "
                "length?"
            </p>
            <Deferred>
                <ExtrapolationSideBySide />
            </Deferred>
        </div>
        <h3 id="timeline">"From 2017 to today"</h3>
        <Deferred>
            <Timeline />
        </Deferred>
        <h3 id="quiz">"Check yourself"</h3>
        <p>
            {QUESTIONS} " questions; each answer links to a figure set up to show it (in a "
            "new tab, so your answers here stay). Your answers are not saved or put in the "
            "link."
        </p>
        <Deferred>
            <Quiz />
        </Deferred>
    }
}

/// This chapter's figure `id` on its own (an embed), and whether it reads the chapter's control
/// panel (the others carry their own controls); `None` for an id not of this chapter.
pub fn figure(id: &str) -> Option<(AnyView, bool)> {
    use crate::app::figures::tables::*;
    Some(match id {
        "fig-tab-learned" => (view! { <learned::LearnedCliff /> }.into_any(), false),
        "fig-tab-learned-sim" => (
            view! { <learned_similarity::LearnedSimilarity /> }.into_any(),
            false,
        ),
        "fig-tab-shaw" => (view! { <shaw::ShawClipped /> }.into_any(), false),
        "fig-tab-txl" => (view! { <txl::TransformerXl /> }.into_any(), false),
        "fig-tab-t5" => (view! { <t5::T5Buckets /> }.into_any(), false),
        "fig-tab-slopes" => (view! { <slopes::AlibiSlopes /> }.into_any(), false),
        "fig-tab-alibi" => (view! { <alibi::AlibiBias /> }.into_any(), false),
        "fig-tab-alibi-attention" => (
            view! { <alibi_attention::AlibiAttention /> }.into_any(),
            false,
        ),
        "fig-tab-nope" => (view! { <nope::NoPosition /> }.into_any(), false),
        "fig-tab-drope" => (view! { <drope::DroppedRotation /> }.into_any(), false),
        "fig-tab-compare" => (view! { <compare::Comparison /> }.into_any(), false),
        "fig-tab-same" => (view! { <same::SamePosition /> }.into_any(), false),
        "fig-tab-extrapolate" => (
            view! { <extrapolate::ExtrapolationSideBySide /> }.into_any(),
            false,
        ),
        _ => return None,
    })
}
