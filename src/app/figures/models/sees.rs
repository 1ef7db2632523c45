//! What a query sees, layer by layer: per layer of the chosen model, the keys the query attends
//! to and the positions whose information reaches it only through the layers below
//! ([`crate::math::layers::earliest_reached`]).

use leptos::html::Canvas;
use leptos::prelude::*;

use crate::app::near;

use crate::app::figure::{InteractiveCanvas, draw_effect};
use crate::app::figures::cursor::XCursor;
use crate::app::frame::figure;
use crate::app::state::models::ModelsState;
use crate::app::theme::chapter_context;
use crate::explain::count as keys_count;
use crate::explain::models::{ReachFinding, grouped};
use crate::scene::models as scene;

/// The figure.
#[component]
pub fn QuerySees() -> impl IntoView {
    let (s, theme) = chapter_context!(ModelsState);
    let shown = s.shown();
    let reach = Memo::new(move |_| {
        let query = s.query().get();
        shown.with(|m| scene::reach(&m.model, query))
    });
    let cursor = XCursor::new();
    let count = move || s.query().get_untracked() + 1;
    let canvas_ref = NodeRef::<Canvas>::new();
    let stats = draw_effect(canvas_ref, move |surface| {
        let (query, chosen, t) = (s.query().get(), s.layer().get(), theme.get());
        shown.with(|m| {
            let (mut spec, extras) = scene::sees_spec(&m.model, m.name, query, chosen, t);
            spec.marker = cursor
                .get(query + 1)
                .map(|j| (j as f64, format!("key {j}")));
            cursor.paint(surface, scene::sees_height, &spec, &extras);
        });
    });
    let readout = move || {
        let query = s.query().get();
        let Some(j) = cursor.get(query + 1) else {
            return "Hover the plot (or focus it and use the arrow keys) to read one key."
                .to_string();
        };
        reach.with(|r| {
            let direct = r.iter().filter(|(d, _)| *d <= j).count();
            let first = r.iter().position(|(_, through)| *through <= j);
            format!(
                "Key {}: the query at {} attends to it in {} of {}; {}.",
                grouped(j as u64),
                grouped(query as u64),
                keys_count(direct, "layer", "layers"),
                r.len(),
                match first {
                    Some(0) => "its information is there from the lowest layer on".to_string(),
                    Some(i) => format!("its information reaches the query from layer {i} on"),
                    None => "its information never reaches the query".to_string(),
                }
            )
        })
    };
    let finding = move || {
        let (query, chosen) = (s.query().get(), s.layer().get());
        shown.with(|m| ReachFinding::new(&m.model.layers, chosen, query).to_string())
    };
    let describe = move || {
        let name = shown.with(|m| m.name);
        format!(
            "For each of {name}'s layers, lowest at the bottom, a bar over the keys the query at \
             position {} attends to, and in grey the earlier positions whose information reaches \
             it only through the layers below. {}",
            s.query().get(),
            finding()
        )
    };
    figure! { "fig-models-sees", "ctl-m-model ctl-m-layer ctl-m-p", stats;
        <InteractiveCanvas node_ref=canvas_ref readout=readout label=describe
            pointer=cursor.pointer(canvas_ref, count, |x| x).clearing(cursor.at) />
        <p class="finding">{near::text(finding)}</p>
        <figcaption>
            "A layer mixes into each position what that position's query attends to. So the "
            "query reads, in layer i, positions that already hold what they read in layer "
            "i − 1: a window of W moves information W − 1 positions back per layer, and one "
            "full layer brings in everything before it. The grey bars mark the positions "
            "those paths start from; "
            "whether a model uses them, and how well, is a matter of training, not of the "
            "masks."
        </figcaption>
    }
}
