//! What each layer does: a bar per layer of the chosen model, as tall as the keys the query
//! attends to there, coloured by the layer's kind; hover or arrow keys read a layer, a click or
//! Enter chooses it for the chapter's other figures; the config fields behind the chosen layer.

use leptos::html::Canvas;
use leptos::prelude::*;

use crate::app::near;

use crate::app::figure::{InteractiveCanvas, Pointer, draw_effect};
use crate::app::figures::cursor::XCursor;
use crate::app::frame::figure;
use crate::app::state::models::ModelsState;
use crate::app::theme::chapter_context;
use crate::explain::models::{PatternFinding, kind_counts, kind_parts, layer_text, raw_fields};
use crate::params::models::Shown;
use crate::scene::models as scene;

/// The figure.
#[component]
pub fn LayerStrip() -> impl IntoView {
    let (s, theme) = chapter_context!(ModelsState);
    let shown = s.shown();
    let cursor = XCursor::new();
    let count = move || s.layers().get_untracked();
    let canvas_ref = NodeRef::<Canvas>::new();
    let stats = draw_effect(canvas_ref, move |surface| {
        let (query, chosen, t) = (s.query().get(), s.layer().get(), theme.get());
        shown.with(|m| {
            let (spec, extras) = scene::layers_spec(&m.model, m.name, query, chosen, t);
            cursor.paint(surface, scene::layers_height, &spec, &extras);
        });
    });
    let choose = move || {
        if let Some(i) = cursor.get(count()) {
            s.layer.set(i);
        }
    };
    let on_key = {
        let step = cursor.on_key(count);
        move |ev: web_sys::KeyboardEvent| {
            if matches!(ev.key().as_str(), "Enter" | " ") {
                ev.prevent_default();
                if cursor.at.get_untracked().is_none() {
                    cursor.at.set(Some(s.layer().get_untracked()));
                }
                choose();
            } else {
                step(ev);
            }
        }
    };
    let pointer =
        Pointer::new(cursor.on_move(canvas_ref, count, |x| x), on_key).clearing(cursor.at);
    let readout = move || {
        shown.with(|Shown { model: m, .. }| match cursor.get(m.layers.len()) {
            Some(i) => format!(
                "{} {}",
                layer_text(i, &m.layers[i]),
                if i == s.layer().get() {
                    "(The chosen layer.)"
                } else {
                    "Click or press Enter to choose it."
                }
            ),
            None => "Hover a bar (or focus the plot and use the arrow keys) to read a layer; \
                         click or press Enter to choose it."
                .to_string(),
        })
    };
    let finding = move || {
        let tokens = s.tokens.get();
        shown.with(|m| PatternFinding::new(&m.model, tokens).to_string())
    };
    let describe = move || {
        let (query, chosen) = (s.query().get(), s.layer().get());
        shown.with(|Shown { model: m, name, .. }| {
            let seen = scene::keys_seen(m, query);
            format!(
                "A bar for each of {name}'s {} layers, its height on a logarithmic axis the keys \
                 the query at position {query} attends to there ({} to {}), coloured by kind: \
                 {}. Layer {chosen} is marked.",
                m.layers.len(),
                seen.iter().min().copied().unwrap_or(0),
                seen.iter().max().copied().unwrap_or(0),
                kind_parts(kind_counts(&m.layers)).join(", ")
            )
        })
    };
    let fields = move || {
        let chosen = s.layer().get();
        shown.with(|m| raw_fields(&m.model, chosen))
    };
    figure! { "fig-models-layers", "ctl-m-model ctl-m-layer ctl-m-p", stats, [
        data-text-controls="ctl-m-L"
    ];
        <div on:click=move |_| choose()>
            <InteractiveCanvas
                node_ref=canvas_ref
                readout=readout
                label=describe
                pointer=pointer
            />
        </div>
        <p class="finding">{near::text(finding)}</p>
        <table class="raw-fields">
            <caption>{near::text(move || format!("The config fields behind layer {}, and what they mean", s.layer().get()))}</caption>
            <thead>
                <tr>
                    <th scope="col">"field"</th><th scope="col">"value"</th>
                    <th scope="col">"meaning here"</th>
                </tr>
            </thead>
            <tbody>
                {move || {
                    fields()
                        .into_iter()
                        .map(|f| {
                            view! {
                                <tr>
                                    <td><code>{f.field}</code></td>
                                    <td><code>{f.value}</code></td>
                                    <td>{f.meaning}</td>
                                </tr>
                            }
                        })
                        .collect_view()
                }}
            </tbody>
        </table>
        <figcaption>
            "Each bar is one layer, lowest first. Its height is how many keys the query "
            "attends to there: every key up to it in a full layer, the last W in a sliding "
            "window (all of them while there are fewer), its own chunk up to itself in a chunked layer (transformers 5.24's "
            "masks: full kv ≤ q; sliding q − W < kv ≤ q; chunked, the same chunk of C). "
            "Its colour says which, and whether the layer rotates q and k at all. The "
            "layers are read from the model's published config.json the way transformers "
            "5.24 reads it (its config classes and attention modules); the table gives the "
            "fields that decide the chosen layer."
        </figcaption>
    }
}
