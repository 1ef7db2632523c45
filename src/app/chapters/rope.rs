//! Chapter 2, "Rotations: RoPE": instead of adding a position vector, turn each query and key
//! by an angle proportional to its position, so that attention scores see only relative
//! positions.

use leptos::prelude::*;

use crate::app::deferred::Deferred;
use crate::app::frame::{chapter, figure_grid};
use crate::app::near::{Near, watch};

use crate::app::controls::{Choice, IntSlider, LogSlider};
use crate::app::figures::rope::add::WhyNotAdd;
use crate::app::figures::rope::cloud::TokenCloud;
use crate::app::figures::rope::dims::BeforeAfter;
use crate::app::figures::rope::efficient::EfficientForm;
use crate::app::figures::rope::layouts::Layouts;
use crate::app::figures::rope::scores::ScoresOverPositions;
use crate::app::figures::rope::sentences::SameAngle;
use crate::app::figures::rope::values::WhyOnlyQk;
use crate::app::figures::rope::vector::RotatingVector;
use crate::app::figures::rope::wheels::FrequencyWheels;
use crate::app::state::rope::RopeState;
use crate::math::limits;
use crate::math::rope::Layout;
use crate::params::rope::{HEAD_DIM, POSITIONS};

/// The chapter.
#[component]
pub fn Rope() -> impl IntoView {
    let s = expect_context::<RopeState>();
    let inv_freq = s.rotary_inv_freq();
    let slowest = move || {
        inv_freq.with(|f| {
            f.last().map_or("∞".to_string(), |t| {
                crate::params::format_significant(std::f64::consts::TAU / t, 4)
            })
        })
    };
    // The paragraph's numbers follow the controls by its own place on the page.
    let near = Near::new();
    chapter! { "rope";
        <p>
            "Chapter 1 added a position vector to each word. Rotary position embedding, RoPE "
            "(Su et al., RoFormer, 2021), does something else: it leaves the words alone and "
            "turns each query and key by an angle proportional to its position. GPT-J, "
            "GPT-NeoX, LLaMA, Mistral, Qwen and Gemma all use it."
        </p>
        <p>
            "What is wrong with adding? Attention compares a query with a key. Add positions "
            "to the input and that comparison splits into four parts, and three of them hold "
            "the positions themselves, not just how far apart the two words are. Take two "
            "words of chapter 1's sentence and move both by the same offset:"
        </p>
        <Deferred>
            <WhyNotAdd />
        </Deferred>
        <p>
            "Start with one pair of coordinates — a 2D vector. At position m it is turned by "
            "m·θ. A rotation can change the direction but never the length:"
        </p>
        <Deferred>
            <RotatingVector />
        </Deferred>
        <p>
            "Why turn? The angle between two turned vectors is their original angle plus the "
            "difference of their turns (mod 360°). In this toy a word's vector does not depend "
            "on its neighbours, so the same two words at the same distance in two different "
            "sentences end up at the same angle to each other:"
        </p>
        <Deferred>
            <SameAngle />
        </Deferred>
        <p use:watch=near>
            "A real attention head turns its query and key after the projections W"
            <sub>"q"</sub> " and W" <sub>"k"</sub> " — in every layer of the models above "
            "(some newer ones, like Llama 4, leave it out of some layers). Of its head_dim "
            "coordinates the first r = rotary_dim turn (all of them "
            "unless only part of the head rotates), in r/2 pairs i = 0 … r/2 − 1, each at its "
            "own rate θ" <sub>"i"</sub> " = base" <sup>"−2i/r"</sup>
            " — the same geometric ladder as the sinusoidal encoding. Pair 0 turns exactly 1 "
            "radian (≈ 57.3°) per position; with these settings the last pair needs "
            {near.text(slowest)} " positions for one turn. Why so many rates? One pair alone "
            "aliases: two distances whose difference is a whole number of its turns get the "
            "same angle (set θ to 180° in the sentences figure above: every even distance then "
            "gives one angle, every odd distance another). Fast pairs tell nearby positions "
            "apart, slow pairs far ones, and together they separate distances any one pair "
            "would confuse — chapter 1's clocks again."
        </p>
        <p>
            "A word on names: θ means three things here. In the 2D figures above it is an "
            "angle per position in degrees; θ" <sub>"i"</sub> " is pair i's rate in radians "
            "per position; and Hugging Face's " <code>"rope_theta"</code> " is the base of "
            "that ladder — RoFormer's 10000 — not an angle at all."
        </p>
        {figure_grid! { RopeControls;
            <Deferred>
                <FrequencyWheels />
            </Deferred>
            <p class="bridge">
                "Why only the distance counts: every R" <sub>"m"</sub> " turns each pair by "
                "its own m·θ" <sub>"i"</sub> " and leaves the rest (2×2 blocks on the "
                "diagonal when the pairs are interleaved, the same blocks spread over "
                "coordinates i and i + r/2 when half-split), so R" <sub>"m"</sub>
                <sup>"T"</sup> "R" <sub>"n"</sub> " = R" <sub>"n−m"</sub> " and (R"
                <sub>"m"</sub> "q)·(R" <sub>"n"</sub> "k) = q" <sup>"T"</sup> "R"
                <sub>"n−m"</sub> "k (RoFormer §3.2.2, eq. 16). In complex numbers, pair i "
                "of q is one number q̃" <sub>"i"</sub> ", turning it is multiplying by "
                "e" <sup>"imθ" <sub>"i"</sub></sup> ", and the score is Re Σ" <sub>"i"</sub>
                " q̃" <sub>"i"</sub> " k̃" <sub>"i"</sub> "* e" <sup>"i(m−n)θ"
                <sub>"i"</sub></sup> " — the form RoFormer derives it in; Meta's LLaMA "
                "code turns q and k as complex numbers this way, then takes an ordinary dot "
                "product. That is what RoFormer set out to find: a way "
                "to encode each position alone such that the query–key product depends "
                "only on the words and their distance; in 2D a rotation by m·θ is the "
                "answer its derivation arrives at (§3.4.1). So for a fixed q and k the "
                "score is a function of m − n alone (real q and k still depend on the "
                "words and their context), and a causal model only uses m ≥ n:"
            </p>
            <Deferred>
                <ScoresOverPositions />
            </Deferred>
            <p class="bridge">
                "RoFormer's “long-term decay” is a property of its bound, which shrinks "
                "with distance when there are many pairs. The score itself may fall too or "
                "not — with one pair it never does, random q and k need not, and the "
                "sentence under the figure says which for the settings shown — and the "
                "base sets how far a fall takes (chapter 3 leans on this). Which "
                "coordinates carry position? Turn one q to a few positions and compare "
                "them coordinate by coordinate:"
            </p>
            <Deferred>
                <BeforeAfter />
            </Deferred>
            <p class="bridge">
                "Hugging Face, GPT-NeoX, GPT-J and Meta's LLaMA code never build the R"
                <sub>"m"</sub> " of the wheels figure. The same rotation is two "
                "element-wise products and a shuffle:"
            </p>
            <Deferred>
                <EfficientForm />
            </Deferred>
            <p class="bridge">
                "Which coordinates form a pair is a convention, and the libraries disagree. "
                "It changes the vectors, not the scores — once the weights are permuted:"
            </p>
            <Deferred>
                <Layouts />
            </Deferred>
        }}
        <p>
            "Only the queries and keys are turned, never the values — what attention "
            "averages. Here is one reason:"
        </p>
        <Deferred>
            <WhyOnlyQk />
        </Deferred>
        <p>
            "Finally, a picture to compare the two ideas side by side. Repeat chapter 1's "
            "sentence over many positions and squeeze every word vector to three dimensions — "
            "as it is, with the sinusoidal encoding added, and turned by RoPE's rotation. A "
            "model turns W" <sub>"q"</sub> "x and W" <sub>"k"</sub> "x, not x, and its "
            "residual stream carries no rotated words, so the third cloud shows what a "
            "rotation does to vectors, not what a model holds:"
        </p>
        <Deferred>
            <TokenCloud />
        </Deferred>
        <p>
            "What RoPE buys: no learned parameters, no table that ends at a maximum length, "
            "norms kept, so it also fits linear attention (RoFormer §3.3), and keys turned "
            "once at their own position and cached as they are, while every score still sees "
            "only the distance — which is why it slots into a KV cache. What it does not buy: "
            "a pair whose angle never completed a turn in training meets angles it never saw "
            "when the input grows past the training length. The slow pairs of a long head "
            "are exactly those, and the next chapter is about what happens there."
        </p>
    }
}

/// The RoPE chapter's controls (its panel; an embedded figure shows it too).
#[component]
pub fn RopeControls() -> impl IntoView {
    let s = expect_context::<RopeState>();
    let max_pos = Signal::derive(move || s.positions.get().saturating_sub(1));
    let rotary_dim = s.rotary_dim();
    // The rotary_dim slider edits a plain number; "all coordinates" is stored as `None` so that
    // it follows head_dim.
    let rot = RwSignal::new(rotary_dim.get_untracked());
    Effect::new(move |_| rot.set(rotary_dim.get()));
    Effect::new(move |_| {
        let r = rot.get();
        let d = s.dim.get_untracked();
        let next = (r < d).then_some(r);
        if s.rotary.get_untracked() != next {
            s.rotary.set(next);
        }
    });
    view! {
        <div class="controls" role="group" aria-label="RoPE controls">
            <IntSlider label="head_dim" id="ctl-r-d" min=HEAD_DIM.0 max=HEAD_DIM.1 step=2 value=s.dim />
            <LogSlider label="base (rope_theta)" id="ctl-r-base" min=limits::BASE.0 max=limits::BASE.1 value=s.base />
            <IntSlider label="positions (rows)" id="ctl-r-n" min=POSITIONS.0 max=POSITIONS.1 value=s.positions />
            <IntSlider label="current position m" id="ctl-r-pos" min=0usize max=max_pos value=s.pos />
            <IntSlider label="rotary_dim (coordinates that turn)" id="ctl-r-rot" min=2usize max=Signal::derive(move || s.dim.get()) step=2 value=rot />
            <Choice
                legend="layout"
                name="r-layout"
                options=vec![(Layout::Interleaved, "interleaved"), (Layout::Half, "half-split")]
                value=s.layout
            />
        </div>
    }
}

/// This chapter's figure `id` on its own (an embed), and whether it reads the chapter's control
/// panel (the others carry their own controls); `None` for an id not of this chapter.
pub fn figure(id: &str) -> Option<(AnyView, bool)> {
    use crate::app::figures::rope::*;
    Some(match id {
        "fig-rope-add" => (view! { <add::WhyNotAdd /> }.into_any(), false),
        "fig-rope-2d" => (view! { <vector::RotatingVector /> }.into_any(), false),
        "fig-rope-sentences" => (view! { <sentences::SameAngle /> }.into_any(), false),
        "fig-rope-wheels" => (view! { <wheels::FrequencyWheels /> }.into_any(), true),
        "fig-rope-efficient" => (view! { <efficient::EfficientForm /> }.into_any(), true),
        "fig-rope-scores" => (view! { <scores::ScoresOverPositions /> }.into_any(), true),
        "fig-rope-dims" => (view! { <dims::BeforeAfter /> }.into_any(), true),
        "fig-rope-layouts" => (view! { <layouts::Layouts /> }.into_any(), true),
        "fig-rope-values" => (view! { <values::WhyOnlyQk /> }.into_any(), false),
        "fig-rope-cloud" => (view! { <cloud::TokenCloud /> }.into_any(), false),
        _ => return None,
    })
}
