//! Chapter 1, "Order and sinusoids": how the sinusoidal encoding gives every position its own
//! pattern of waves.

use leptos::prelude::*;

use crate::app::controls::{Choice, IntSlider, LogSlider};
use crate::app::figures::attention::OrderBlindness;
use crate::app::figures::clocks::SinusoidalClocks;
use crate::app::figures::heatmap::SinusoidalHeatmap;
use crate::app::figures::naive::NaiveFixes;
use crate::app::figures::shift::RelativeShift;
use crate::app::figures::similarity::SinusoidalSimilarity;
use crate::app::figures::token::AddToToken;
use crate::app::figures::waves::SinusoidalWaves;
use crate::app::state::AppState;
use crate::math::limits;
use crate::math::sinusoidal::{Layout, Spacing};
use crate::params::{TableView, format_number, round_significant};

/// `PE(pos, 2i[+1]) = func(pos / base^(2i/d))` in MathML with the current base and d_model.
#[component]
fn Equation(func: &'static str, offset: &'static str) -> impl IntoView {
    let s = expect_context::<AppState>().sinusoidal;
    let base = move || crate::params::format_number(s.base.get());
    let dim = move || s.dim.get().to_string();
    view! {
        <math display="block">
            <mrow>
                <mi>"PE"</mi>
                <mo>"("</mo>
                <mi>"pos"</mi>
                <mo>","</mo>
                <mn>"2"</mn>
                <mi>"i"</mi>
                {(!offset.is_empty()).then(|| view! { <mo>"+"</mo><mn>"1"</mn> })}
                <mo>")"</mo>
                <mo>"="</mo>
                <mi>{func}</mi>
                <mo>"("</mo>
                <mfrac>
                    <mi>"pos"</mi>
                    <msup>
                        <mn>{base}</mn>
                        <mrow><mn>"2"</mn><mi>"i"</mi><mo>"/"</mo><mn>{dim}</mn></mrow>
                    </msup>
                </mfrac>
                <mo>")"</mo>
            </mrow>
        </math>
    }
}

/// The chapter: prose, the controls of the sinusoidal encoding, and the heatmap.
#[component]
pub fn Sinusoids() -> impl IntoView {
    let s = expect_context::<AppState>().sinusoidal;
    let max_pos = Signal::derive(move || s.positions.get().saturating_sub(1));
    let params = s.params();
    // Wavelength 2π/ω of the slowest pair, in positions.
    let slowest = move || {
        let p = params.get();
        let omega = p.pair_omega(p.pairs().saturating_sub(1));
        if omega > 0.0 {
            format_number(round_significant(std::f64::consts::TAU / omega, 3))
        } else {
            "∞".to_string()
        }
    };
    view! {
        <section class="chapter" id="sinusoids" aria-labelledby="sinusoids-title">
            <h2 id="sinusoids-title">"1 · Order and sinusoids"</h2>
            <p>
                "Attention compares every token with every other token, and nothing in it says "
                "where a token sits. Feed a sentence with a repeated word to a toy attention layer: "
                "the two copies get exactly the same row of weights. Swap the words around and "
                "the weights are merely shuffled along."
            </p>
            <OrderBlindness />
            <p>
                "So a transformer adds a " <em>"position vector"</em> " to each token before "
                "attention. What should it be? The obvious candidates each break something:"
            </p>
            <NaiveFixes />
            <p>
                "The original Transformer (Vaswani et al., 2017) keeps the good part of binary "
                "counting — a ladder from fast to slow — and makes it smooth, with sines and "
                "cosines of geometrically spaced frequencies:"
            </p>
            <div class="formula" aria-label="PE(pos, 2i) = sin(pos / base^(2i/d)); PE(pos, 2i+1) = cos(pos / base^(2i/d))">
                <Equation func="sin" offset="" />
                <Equation func="cos" offset="+1" />
            </div>
            <div class="figure-grid">
                <div class="controls" role="group" aria-label="Sinusoidal encoding controls">
                    <IntSlider
                        label="positions"
                        id="ctl-n"
                        min=limits::POSITIONS.0
                        max=limits::POSITIONS.1
                        value=s.positions
                    />
                    <IntSlider label="d_model" id="ctl-d" min=limits::DIM.0 max=limits::DIM.1 value=s.dim />
                    <LogSlider label="base" id="ctl-base" min=limits::BASE.0 max=limits::BASE.1 value=s.base />
                    <IntSlider label="position" id="ctl-pos" min=0usize max=max_pos value=s.pos />
                    <Choice
                        legend="layout"
                        name="layout"
                        options=vec![(Layout::Interleaved, "interleaved"), (Layout::Half, "half-split")]
                        value=s.layout
                    />
                    <Choice
                        legend="spacing"
                        name="spacing"
                        options=vec![(Spacing::Paper, "paper"), (Spacing::Fairseq, "fairseq")]
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
                <div class="figure-stack">
                    // Hidden figures are off screen for the drawing code too: they skip redraws.
                    <div class="slot" hidden=move || !s.show.get().heatmap()>
                        <SinusoidalHeatmap />
                    </div>
                    <p class="bridge" hidden=move || !s.show.get().waves()>
                        "Read the table down a column and you get a wave. With d_model = "
                        {move || s.dim.get()} " there are " {move || params.get().pairs()}
                        " frequency pairs, from a wavelength of 2π ≈ 6.3 positions to "
                        {slowest} " positions for the slowest."
                    </p>
                    <div class="slot" hidden=move || !s.show.get().waves()>
                        <SinusoidalWaves />
                    </div>
                    <p class="bridge">
                        "Read it along a row instead — one position — and each pair is a clock "
                        "hand turning at its own speed. The hands together tell every position "
                        "apart, the way seconds, minutes and hours do."
                    </p>
                    <SinusoidalClocks />
                    <p class="bridge">
                        "If every position has its own pattern, how alike are two positions? "
                        "Compare every pair of rows:"
                    </p>
                    <SinusoidalSimilarity />
                    <p class="bridge">
                        "The similarity depends only on the distance because a shift by k "
                        "positions is the same rotation everywhere, whatever the starting "
                        "position:"
                    </p>
                    <RelativeShift />
                    <p class="bridge">
                        "Finally, the model never sees the encoding alone: it is added to the "
                        "word's own vector. Where does position end up?"
                    </p>
                    <AddToToken />
                </div>
            </div>
        </section>
    }
}
