//! Chapter 2, "Rotations: RoPE": instead of adding a position vector, turn each query and key
//! by an angle proportional to its position, so that attention scores see only relative
//! positions.

use leptos::prelude::*;

use crate::app::deferred::Deferred;

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
use crate::app::state::AppState;
use crate::math::limits;
use crate::math::rope::Layout;
use crate::params::rope::{HEAD_DIM, POSITIONS};

/// The chapter.
#[component]
pub fn Rope() -> impl IntoView {
    let s = expect_context::<AppState>().rope;
    let inv_freq = s.rotary_inv_freq();
    let slowest = move || {
        inv_freq.with(|f| {
            f.last().map_or("∞".to_string(), |t| {
                crate::params::format_significant(std::f64::consts::TAU / t, 4)
            })
        })
    };
    view! {
        <section class="chapter" id="rope" aria-labelledby="rope-title">
            <h2 id="rope-title">"2 · Rotations: RoPE"</h2>
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
            <p>
                "A real attention head turns its query and key — after the projections W"
                <sub>"q"</sub> " and W" <sub>"k"</sub> ", in every layer; the values are not "
                "turned. Of its head_dim coordinates the first r = rotary_dim turn (all of them "
                "unless only part of the head rotates), in r/2 pairs i = 0 … r/2 − 1, each at its "
                "own rate θ" <sub>"i"</sub> " = base" <sup>"−2i/r"</sup>
                " — the same geometric ladder as the sinusoidal encoding. Pair 0 turns exactly 1 "
                "radian (≈ 57.3°) per position; with these settings the last pair needs "
                {slowest} " positions for one turn."
            </p>
            <div class="figure-grid">
                <Deferred>
                    <RopeControls />
                </Deferred>
                <div class="figure-stack">
                    <Deferred>
                        <FrequencyWheels />
                    </Deferred>
                    <p class="bridge">
                        "Implementations never build that matrix. The same rotation is two "
                        "element-wise products and a shuffle:"
                    </p>
                    <Deferred>
                        <EfficientForm />
                    </Deferred>
                    <p class="bridge">
                        "For a fixed q and k, turning q by m and k by n and taking their dot product "
                        "gives a number that depends only on m − n (real q and k still depend on the "
                        "words and their context). Every diagonal of the score matrix is constant; "
                        "a causal model only uses m ≥ n:"
                    </p>
                    <Deferred>
                        <ScoresOverPositions />
                    </Deferred>
                    <p class="bridge">
                        "Which coordinates carry position? Turn one q to a few positions and compare "
                        "them coordinate by coordinate:"
                    </p>
                    <Deferred>
                        <BeforeAfter />
                    </Deferred>
                    <p class="bridge">
                        "Which coordinates form a pair is a convention, and the libraries disagree. "
                        "It changes the vectors, not the scores — once the weights are permuted:"
                    </p>
                    <Deferred>
                        <Layouts />
                    </Deferred>
                </div>
            </div>
            <p>
                "Only the queries and keys are turned. The values — what attention averages — are "
                "left alone; here is one reason:"
            </p>
            <Deferred>
                <WhyOnlyQk />
            </Deferred>
            <p>
                "Finally, the whole picture at once. Repeat chapter 1's sentence over many "
                "positions and look at every token's vector, squeezed to three dimensions:"
            </p>
            <Deferred>
                <TokenCloud />
            </Deferred>
        </section>
    }
}

/// The RoPE chapter's controls (its panel; an embedded figure shows it too).
#[component]
pub fn RopeControls() -> impl IntoView {
    let s = expect_context::<AppState>().rope;
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
