//! Who owns which frequencies: the rotary pairs of a vision-language model's language model on
//! the wavelength axis, each coloured by the position id (t, h or w) that drives it under the
//! model's `mrope_section` ([`crate::scene::vision::sections`]).

use leptos::html::Canvas;
use leptos::prelude::*;

use crate::app::controls::Choice;
use crate::app::figure::{InteractiveCanvas, draw_effect};
use crate::app::figures::cursor::XCursor;
use crate::app::frame::figure;
use crate::app::near;
use crate::app::state::vision::VisionState;
use crate::app::theme::chapter_context;
use crate::explain::vision::{sections_finding, sections_readout};
use crate::params::vision::VlModel;
use crate::scene::vision::sections as scene;

/// The model the comparison is with.
fn other(model: VlModel) -> VlModel {
    match model {
        VlModel::Qwen25 => VlModel::Qwen3,
        VlModel::Qwen3 => VlModel::Qwen25,
    }
}

/// The figure.
#[component]
pub fn FrequencyOwners() -> impl IntoView {
    let (s, theme) = chapter_context!(VisionState);
    let cursor = XCursor::new();
    let count = move || scene::lm_rope(s.lm.get_untracked()).mrope.pairs;
    let canvas_ref = NodeRef::<Canvas>::new();
    let stats = draw_effect(canvas_ref, move |surface| {
        let (m, t) = (scene::lm_rope(s.lm.get()), theme.get());
        let (spec, extras) = scene::sections_spec(m, cursor.get(m.mrope.pairs), t);
        cursor.paint(surface, scene::sections_height, &spec, &extras);
    });
    let readout = move || {
        let model = s.lm.get();
        let m = scene::lm_rope(model);
        match cursor.get(m.mrope.pairs) {
            Some(j) => sections_readout(m, scene::lm_rope(other(model)), j),
            None => "Hover the plot (or focus it and use the arrow keys) to read a pair.".into(),
        }
    };
    let finding = move || {
        let model = s.lm.get();
        sections_finding(scene::lm_rope(model), scene::lm_rope(other(model)))
    };
    let describe = move || {
        let m = scene::lm_rope(s.lm.get());
        let [t, h, w] = m.mrope.section;
        format!(
            "Dots over the {} rotary pairs of {}'s language model, at each pair's wavelength \
             on a logarithmic axis, in three colours by the position id that drives the pair \
             (mrope_section [{t}, {h}, {w}], {}). {}",
            m.mrope.pairs,
            m.name,
            m.layout(),
            readout()
        )
    };
    let index = move |x: f64| x.round().clamp(0.0, count().saturating_sub(1) as f64);
    let models = vec![
        (VlModel::Qwen25, "Qwen2.5-VL-7B (chunked)"),
        (VlModel::Qwen3, "Qwen3-VL-8B (interleaved)"),
    ];
    figure! { "fig-vision-sections", "v-lm", stats;
        <div class="figure-tools">
            <Choice legend="model" name="v-lm" options=models value=s.lm />
        </div>
        <InteractiveCanvas node_ref=canvas_ref readout=readout label=describe
            pointer=cursor.pointer(canvas_ref, count, index).clearing(cursor.at) />
        <p class="finding">{near::text(finding)}</p>
        <figcaption>
            "In the language model every token gets three position ids, t, h and w (a text "
            "token all three equal), and each rotary pair of a head turns by one of them; "
            "mrope_section says how many pairs each id drives. Qwen2.5-VL chunks them: the "
            "first section[0] pairs, the fastest, follow t, the next section[1] h, the last "
            "section[2], the slowest, w. Qwen3-VL interleaves them (its config writes "
            "mrope_interleaved: true; transformers 5.24 interleaves Qwen3-VL's pairs whatever "
            "the flag says): pair j follows h when j mod 3 = 1 and j < 3·section[1], w when "
            "j mod 3 = 2 and j < 3·section[2], and t otherwise, so its last pairs all follow t "
            "(transformers 5.24, the rotary embeddings' recomposition_frequencies). Qwen3-VL's "
            "technical report motivates the change by the chunked layout's imbalanced "
            "frequency spectrum: time gets only the fastest pairs and width only the slowest. "
            "Both "
            "are about which position drives a pair, not which two coordinates form it "
            "(chapter 2's interleaved or half-split pairing): both models pair coordinate p "
            "with p + head_dim/2. Each model is drawn with its own config: head_dim 128, θ = "
            "1 000 000 for Qwen2.5-VL-7B and 5 000 000 for Qwen3-VL-8B."
        </figcaption>
    }
}
