//! The book's contents, from [`crate::book::CHAPTERS`]: a sticky list beside the text on wide
//! screens, a compact menu at the top on narrow ones. The entry being read is marked
//! (`aria-current`), followed by an `IntersectionObserver` over the chapters and figures.

use leptos::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen::closure::Closure;
use web_sys::{IntersectionObserver, IntersectionObserverEntry};

use crate::book::CHAPTERS;

/// The id of the chapter or figure in the reading band of the viewport (the middle of the screen).
fn follow_reading(current: RwSignal<&'static str>) {
    let ids: Vec<&'static str> = CHAPTERS
        .iter()
        .flat_map(|c| std::iter::once(c.id).chain(c.figures.iter().map(|f| f.id)))
        .collect();
    let on_change = Closure::<dyn FnMut(js_sys::Array)>::new(move |entries: js_sys::Array| {
        for entry in entries.iter() {
            let entry: IntersectionObserverEntry = entry.unchecked_into();
            if entry.is_intersecting() {
                let id = entry.target().id();
                if let Some(&id) = ids.iter().find(|&&k| k == id) {
                    current.set(id);
                }
            }
        }
    });
    let init = web_sys::IntersectionObserverInit::new();
    // A band from 35 % to 45 % of the viewport's height: what the reader is looking at.
    init.set_root_margin("-35% 0px -55% 0px");
    let Ok(observer) =
        IntersectionObserver::new_with_options(on_change.as_ref().unchecked_ref(), &init)
    else {
        return;
    };
    let document = document();
    for c in &CHAPTERS {
        for id in std::iter::once(c.id).chain(c.figures.iter().map(|f| f.id)) {
            if let Some(el) = document.get_element_by_id(id) {
                observer.observe(&el);
            }
        }
    }
    // The observer and its callback live as long as the page.
    on_change.forget();
}

/// The list of chapters and their figures; `current` marks the entry being read.
fn entries(current: RwSignal<&'static str>) -> impl IntoView {
    let mark = move |id: &'static str| move || (current.get() == id).then_some("location");
    view! {
        <ol class="toc-chapters">
            {CHAPTERS
                .iter()
                .map(|c| {
                    let inside = move || {
                        let now = current.get();
                        now == c.id || c.figures.iter().any(|f| f.id == now)
                    };
                    view! {
                        <li class:reading=inside>
                            <a href=format!("#{}", c.id) aria-current=mark(c.id)>
                                <span class="toc-number">{c.number}</span>
                                {c.title}
                            </a>
                            <ol class="toc-figures">
                                {c
                                    .figures
                                    .iter()
                                    .map(|f| {
                                        view! {
                                            <li>
                                                <a href=format!("#{}", f.id) aria-current=mark(f.id)>
                                                    {f.title}
                                                </a>
                                            </li>
                                        }
                                    })
                                    .collect_view()}
                            </ol>
                        </li>
                    }
                })
                .collect_view()}
        </ol>
    }
    .into_any()
}

/// The contents: a sidebar (wide screens) and a menu (narrow screens); CSS shows one of them.
#[component]
pub fn Contents() -> impl IntoView {
    let current = RwSignal::new("");
    // Once the page is built (effects run after mounting; the deferred parts a task each after
    // that), watch what is being read: a part built later would not be watched.
    Effect::new(move |done: Option<()>| {
        if done.is_none() {
            super::deferred::when_built(move || follow_reading(current));
        }
    });
    let menu = NodeRef::<leptos::html::Details>::new();
    // Following a link from the menu closes it.
    let close_menu = move |ev: web_sys::MouseEvent| {
        let is_link = ev
            .target()
            .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
            .and_then(|el| el.closest("a").ok().flatten())
            .is_some();
        if is_link && let Some(details) = menu.get() {
            details.set_open(false);
        }
    };
    view! {
        <nav class="toc" aria-label="Contents">
            <p class="toc-title">"Contents"</p>
            {entries(current)}
        </nav>
        <details class="toc-menu" node_ref=menu on:click=close_menu>
            <summary>"Contents"</summary>
            <nav aria-label="Contents menu">{entries(current)}</nav>
        </details>
    }
}

/// Scrolls to the element named by the address's fragment (`#rope`, `#fig-rope-2d`): the page is
/// built by the app after the browser looked for it.
pub fn scroll_to_fragment() {
    let Some(id) = fragment() else {
        return;
    };
    // A figure whose chapter (or the rest of it) could not be loaded: the message that stands in
    // its place.
    let chapter = || {
        let place = crate::book::place(&id)?;
        let el = document().get_element_by_id(crate::book::CHAPTERS.get(place)?.id)?;
        el.query_selector(".chapter-failed")
            .ok()
            .flatten()
            .or(Some(el))
    };
    let target = document().get_element_by_id(&id).or_else(chapter);
    if let Some(el) = target {
        el.scroll_into_view();
    }
}

/// The place in the book (from 0) of the chapter the address's fragment names, or holds the figure
/// it names; `None` for any other fragment (it may be anywhere) or none.
pub fn fragment_chapter() -> Option<usize> {
    crate::book::place(&fragment()?)
}

/// The address's fragment, decoded, if it has one.
fn fragment() -> Option<String> {
    let hash = window().location().hash().unwrap_or_default();
    let id = hash.strip_prefix('#').filter(|id| !id.is_empty())?;
    Some(crate::params::percent_decode(id))
}
