//! Chapter 1, "Order and sinusoids": how the sinusoidal encoding gives every position its own
//! pattern of waves.

use leptos::prelude::*;

use crate::app::deferred::Deferred;
use crate::app::frame::{chapter, figure_grid};
use crate::app::near::{Near, watch};
use crate::app::split::split_point;
use crate::app::units::{Code, Part, Unit, with_code};
use crate::scene;

use crate::app::controls::{Choice, IntSlider, LogSlider};
use crate::app::figures::sinusoids::attention::OrderBlindness;
use crate::app::figures::sinusoids::clocks::SinusoidalClocks;
use crate::app::figures::sinusoids::heatmap::SinusoidalHeatmap;
use crate::app::figures::sinusoids::naive::NaiveFixes;
use crate::app::figures::sinusoids::shift::RelativeShift;
use crate::app::figures::sinusoids::similarity::SinusoidalSimilarity;
use crate::app::figures::sinusoids::token::AddToToken;
use crate::app::figures::sinusoids::waves::SinusoidalWaves;
use crate::app::state::AppState;
use crate::explain::sinusoids as explain;
use crate::math::limits;
use crate::math::sinusoidal::{Layout, Spacing};
use crate::params::TableView;

/// `PE(pos, column) = func(pos / base^(exponent))` in MathML, with the column names and the
/// exponent of the current layout and spacing ([`crate::explain`]) and the current base, as the
/// formula's part of the page (`near`) shows them.
#[component]
fn Equation(func: &'static str, cos: bool, near: Near) -> impl IntoView {
    let params = expect_context::<AppState>().sinusoidal.params();
    let base = near.text(move || crate::params::format_number(params.get().base));
    let column = near.text(move || explain::column_text(&params.get(), cos));
    let exponent = near.text(move || explain::exponent_text(&params.get()));
    view! {
        <math display="block">
            <mrow>
                <mi>"PE"</mi>
                <mo>"("</mo>
                <mi>"pos"</mi>
                <mo>","</mo>
                <mi>{column}</mi>
                <mo>")"</mo>
                <mo>"="</mo>
                <mi>{func}</mi>
                <mo>"("</mo>
                <mfrac>
                    <mi>"pos"</mi>
                    <msup>
                        <mn>{base}</mn>
                        <mi>{exponent}</mi>
                    </msup>
                </mfrac>
                <mo>")"</mo>
            </mrow>
        </math>
    }
}

/// The rest of chapter 1 (after its first figure) as the shell knows it: a module of its own in a
/// split build, fetched once the first figure has drawn (`deferred::FirstFigureFirst`).
pub static REST: Unit = Unit {
    id: "sinusoids",
    part: Part::Rest,
    code: || Box::pin(rest_code()),
    own_module: true,
};

/// The rest of chapter 1's code.
static REST_CODE: Code = Code {
    enter: || {},
    page: || view! { <SinusoidsRest /> }.into_any(),
    figure: rest_figure,
    panel: Some(|| view! { <SinusoidalControls /> }.into_any()),
    pictures: scene::sinusoids::REST_PICTURES,
    rest: None,
};

split_point! {
    sinusoids_rest:
    /// The rest of chapter 1's code.
    fn rest_code() -> &'static Code { &REST_CODE }
}

/// The chapter's opening, up to its first figure (which the reader should see first, with the
/// least download), and the rest of the chapter when its code is here.
#[component]
pub fn Sinusoids() -> impl IntoView {
    chapter! { "sinusoids";
        <p>
            "Attention compares every token with every other token and, without a causal "
            "mask, nothing in it says where a token sits (a decoder's mask leaks some order: "
            "each token sees only earlier ones). Feed a sentence with a repeated word to a toy attention layer: "
            "the two copies get exactly the same row of weights. Swap the words around and "
            "the weights are merely shuffled along."
        </p>
        <OrderBlindness />
        // Not deferred: it counts as on its way from now (its fetch waits for the first
        // figure's draw), so that it is built before any later chapter.
        {with_code(&REST, |code| (code.page)())}
    }
}

/// The chapter after its first figure: prose, the controls of the sinusoidal encoding, and the
/// figures they drive.
#[component]
fn SinusoidsRest() -> impl IntoView {
    let s = expect_context::<AppState>().sinusoidal;
    let params = s.params();
    let readings = Memo::new(move |_| explain::readings(&params.get()));
    let shift_k = s.shift;
    // Why sine and cosine: the part of sin((p+k)ω) a fixed matrix cannot reach with sines alone.
    // Each passage's text follows the controls by its own place on the page (`near`).
    let [hint, formula, note, waves, clocks, shift, unfinished] =
        std::array::from_fn(|_| Near::new());
    let sine_alone = move || {
        let p = params.get();
        crate::params::format_significant((shift_k.get() as f64 * p.pair_omega(0)).sin().abs(), 2)
    };
    view! {
            <p>
                "So a transformer adds a " <em>"position vector"</em> " to each token before "
                "attention. What should it be? The obvious candidates each break something:"
            </p>
            <p class="hint" use:watch=hint>
                {hint.text(move || format!(
                    "(The paper adds it once, at the bottom of the encoder and decoder stacks, to \
                     embeddings first multiplied by √d_model — {} at d_model = {} — with dropout \
                     on the sum.)",
                    crate::params::format_significant((s.dim.get() as f64).sqrt(), 3),
                    s.dim.get()
                ))}
            </p>
            <Deferred>
                <NaiveFixes />
            </Deferred>
            <p>
                "The original Transformer (Vaswani et al., 2017) uses a ladder from fast to slow — "
                "which can be seen as a smooth version of binary counting — made of sines and "
                "cosines of geometrically spaced frequencies:"
            </p>
            <div
                class="formula"
                role="group"
                use:watch=formula
                aria-label=formula.text(move || {
                    let p = params.get();
                    let (sin, cos, e) = (
                        explain::column_text(&p, false),
                        explain::column_text(&p, true),
                        explain::exponent_text(&p),
                    );
                    let b = crate::params::format_number(p.base);
                    format!("PE(pos, {sin}) = sin(pos / {b}^({e})); PE(pos, {cos}) = cos(pos / {b}^({e}))")
                })
            >
                <Equation func="sin" cos=false near=formula />
                <Equation func="cos" cos=true near=formula />
            </div>
            <p class="formula-note" use:watch=note>
                {note.text(move || explain::pair_range_text(&params.get()))} " "
                {note.text(move || explain::spacing_text(&params.get()))} " "
                {note.text(move || explain::layout_text(&params.get()))}
            </p>
            {figure_grid! { SinusoidalControls;
                // Hidden figures are off screen for the drawing code too: they skip redraws.
                <div class="slot" hidden=move || !s.show.get().heatmap()>
                    <Deferred>
                        <SinusoidalHeatmap />
                    </Deferred>
                </div>
                <p class="bridge" hidden=move || !s.show.get().waves() use:watch=waves>
                    "Read the table down a column and you get a wave. With d_model = "
                    {waves.text(move || s.dim.get())} " there are " {waves.text(move || explain::pairs_count_text(&params.get()))}
                    "; each turns at an angular frequency ω" <sub>"i"</sub> " in radians per "
                    "position, and its wavelength 2π/ω" <sub>"i"</sub> " is in positions: "
                    {waves.text(move || explain::slowest_turn(&params.get()).to_string())}
                </p>
                <div class="slot" hidden=move || !s.show.get().waves()>
                    <Deferred>
                        <SinusoidalWaves />
                    </Deferred>
                </div>
                <p class="bridge" use:watch=clocks>
                    "Read it along a row instead — one position — and each pair is a clock "
                    "hand turning at its own speed, like the second, minute and hour hands; "
                    {clocks.text(move || readings.get().to_string())} "."
                </p>
                <Deferred>
                    <SinusoidalClocks />
                </Deferred>
                <p class="bridge">
                    "If every position has its own pattern, how alike are two positions? "
                    "Compare every pair of rows:"
                </p>
                <Deferred>
                    <SinusoidalSimilarity />
                </Deferred>
                <p class="bridge" use:watch=shift>
                    {shift.text(move || if params.get().is_shift_invariant() {
                        "The similarity depends only on the distance because a shift by k "
                    } else {
                        "Apart from the lone sine, the similarity depends only on the distance, because a shift by k "
                    })}
                    "positions is the same rotation of every (sin, cos) pair, whatever the "
                    "starting position. That is why each pair has both: sin((p+k)ω) = "
                    "cos(kω)·sin(pω) + sin(kω)·cos(pω), and with sines alone the second term "
                    {shift.text(move || if shift_k.get() == 0 {
                        "(zero at k = 0, where nothing moves — pick an offset below)".to_string()
                    } else {
                        format!("— up to {} for pair 0 at k = {} —", sine_alone(), shift_k.get())
                    })}
                    " would be out of reach of any fixed matrix:"
                </p>
                <Deferred>
                    <RelativeShift />
                </Deferred>
                <p class="bridge">
                    "Finally, the model never sees the encoding alone: it is added to the "
                    "word's own vector. Where does position end up?"
                </p>
                <Deferred>
                    <AddToToken />
                </Deferred>
                <p class="bridge" use:watch=unfinished>
                    "Vaswani et al. chose sinusoids because they “may allow the model to "
                    "extrapolate to sequence lengths longer than the ones encountered during "
                    "training” — a hope, and learned position embeddings did about as well "
                    "in their tests (Table 3, row E). In practice sinusoidal models degrade "
                    "past their training length (Press et al., 2022). "
                    {unfinished.text(move || explain::unfinished(&params.get()).to_string())}
                </p>
            }}
    }
}

/// The sinusoidal encoding's controls (the chapter's panel; an embedded figure shows it too).
#[component]
pub fn SinusoidalControls() -> impl IntoView {
    let s = expect_context::<AppState>().sinusoidal;
    let max_pos = Signal::derive(move || s.positions.get().saturating_sub(1));
    view! {
        <div class="controls" role="group" aria-label="Sinusoidal encoding controls">
            <IntSlider
                label="positions (rows)"
                id="ctl-n"
                min=limits::POSITIONS.0
                max=limits::POSITIONS.1
                value=s.positions
            />
            <IntSlider label="d_model" id="ctl-d" min=limits::DIM.0 max=limits::DIM.1 value=s.dim />
            <LogSlider label="base" id="ctl-base" min=limits::BASE.0 max=limits::BASE.1 value=s.base />
            <IntSlider label="highlighted position" id="ctl-pos" min=0usize max=max_pos value=s.pos />
            <Choice
                legend="layout"
                name="layout"
                options=vec![(Layout::Interleaved, "interleaved"), (Layout::Half, "half-split")]
                value=s.layout
            />
            <Choice
                legend="spacing"
                name="spacing"
                options=vec![(Spacing::Paper, "paper"), (Spacing::Fairseq, "tensor2tensor")]
                value=s.spacing
            />
            <Choice
                legend="show the table as"
                name="show"
                options=vec![
                    (TableView::Both, "both"),
                    (TableView::Heatmap, "heatmap"),
                    (TableView::Waves, "waves"),
                ]
                value=s.show
            />
        </div>
    }
}

/// The chapter's opening figure on its own (an embed), which carries its own controls; `None`
/// for any other id (the rest of the chapter's are in [`rest_figure`]).
pub fn figure(id: &str) -> Option<(AnyView, bool)> {
    (id == "fig-attention").then(|| (view! { <OrderBlindness /> }.into_any(), false))
}

/// Figure `id` of the rest of the chapter on its own (an embed), and whether it reads the
/// chapter's control panel (the others carry their own controls); `None` for an id not there.
fn rest_figure(id: &str) -> Option<(AnyView, bool)> {
    use crate::app::figures::sinusoids::*;
    Some(match id {
        "fig-naive" => (view! { <naive::NaiveFixes /> }.into_any(), false),
        "fig-heatmap" => (view! { <heatmap::SinusoidalHeatmap /> }.into_any(), true),
        "fig-waves" => (view! { <waves::SinusoidalWaves /> }.into_any(), true),
        "fig-clocks" => (view! { <clocks::SinusoidalClocks /> }.into_any(), true),
        "fig-similarity" => (
            view! { <similarity::SinusoidalSimilarity /> }.into_any(),
            true,
        ),
        "fig-shift" => (view! { <shift::RelativeShift /> }.into_any(), true),
        "fig-token" => (view! { <token::AddToToken /> }.into_any(), true),
        _ => return None,
    })
}
