//! Embed mode: `?embed=<figure-id>` (plus that figure's state keys and `theme=`) renders one
//! figure of the book with the controls it reads, a one-line caption and a link that opens the
//! full explainer at that figure in the same state. No header, no contents, no other figure is
//! mounted, so none is computed. Inside an iframe the page reports its height to the host
//! whenever it changes, with the message Observable's embeds use:
//! `{context: "iframe.resize", src: location.href, height}`.

use leptos::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen::closure::Closure;

use crate::app::chapters::{self, Unit};
use crate::app::url::ShareLink;
use crate::book::{self, Chapter, Figure};
use crate::params::EMBED_KEY;

/// The figure `?embed=` names, if it is one of the book's (an unknown id shows the whole book,
/// with a notice).
pub fn requested(pairs: &[(String, String)]) -> Result<Option<&'static str>, String> {
    match pairs.iter().rev().find(|(k, _)| k == EMBED_KEY) {
        None => Ok(None),
        Some((_, v)) => match book::find_figure(v) {
            Some((_, f)) => Ok(Some(f.id)),
            None => Err(format!(
                "embed = “{}” is not a figure of this explainer; showing the whole book.",
                crate::params::quote(v)
            )),
        },
    }
}

/// The embedded figure: its controls, itself, a caption line with the link to the full page.
#[component]
pub fn Embed(
    /// The figure's element id (one of the book's).
    id: &'static str,
) -> impl IntoView {
    let link = expect_context::<ShareLink>();
    let Some((chapter, fig)) = book::find_figure(id) else {
        return ().into_any();
    };
    let Some(unit) = chapters::unit(chapter.id) else {
        return ().into_any();
    };
    report_height();
    let full = move || link.href_without_embed(id);
    let body = figure_of(unit, id);
    view! {
        <div class="embed" data-embed=id>
            <div class="embed-body">{body}</div>
            <p class="embed-caption">
                {caption(chapter, fig)} " "
                <a href=full target="_blank" rel="noopener">"Open in the full explainer ↗"</a>
            </p>
        </div>
    }
    .into_any()
}

/// Figure `id` of `unit` with the control panel it reads, once the unit's code is here; from the
/// rest of the chapter when the unit's code is only its opening.
fn figure_of(unit: &'static Unit, id: &'static str) -> AnyView {
    chapters::with_code(unit, move |code| match (code.figure)(id) {
        Some((body, uses_panel)) => view! {
            <div class="figure-stack">{body}</div>
            {uses_panel.then(|| code.panel.map(|panel| panel()))}
        }
        .into_any(),
        None => code
            .rest
            .map_or_else(|| ().into_any(), |rest| figure_of(rest, id)),
    })
}

/// "Chapter 3 · Stretching the context — Pairs that turn less than once within L₀".
fn caption(chapter: &Chapter, fig: &Figure) -> String {
    format!(
        "{} — from chapter {}, {}, of the Positional Encoding Explorer.",
        fig.title, chapter.number, chapter.title
    )
}

/// Inside an iframe, posts the document's height to the host page whenever it changes.
fn report_height() {
    let Some(window) = web_sys::window() else {
        return;
    };
    let Ok(Some(parent)) = window.parent() else {
        return;
    };
    if parent == window {
        return;
    }
    // The body, not the root: the root's scroll height never falls below the frame's own
    // height, so a frame made too tall could never shrink back.
    let Some(root) = window.document().and_then(|d| d.body()) else {
        return;
    };
    let post = Closure::<dyn FnMut(js_sys::Array)>::new(move |_entries: js_sys::Array| {
        let Some(w) = web_sys::window() else { return };
        let Some(el) = w.document().and_then(|d| d.body()) else {
            return;
        };
        let message = js_sys::Object::new();
        let set = |k: &str, v: &wasm_bindgen::JsValue| {
            let _ = js_sys::Reflect::set(&message, &k.into(), v);
        };
        set("context", &"iframe.resize".into());
        set("src", &w.location().href().unwrap_or_default().into());
        set("height", &f64::from(el.offset_height()).into());
        if let Ok(Some(parent)) = w.parent() {
            let _ = parent.post_message(&message, "*");
        }
    });
    if let Ok(observer) = web_sys::ResizeObserver::new(post.as_ref().unchecked_ref()) {
        observer.observe(&root);
        // The observer lives as long as the page (one per embed).
        post.forget();
        std::mem::forget(observer);
    }
}
