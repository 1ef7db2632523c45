//! The browser app (wasm32 only): Leptos components over `math` and `chart`.
//!
//! State flows one way: URL → state signals → memoised math → drawing effects. Controls write
//! signals; drawing never writes state.

pub mod animation;
pub mod backend;
pub mod canvas;
pub mod chapters;
pub mod clipboard;
pub mod contents;
pub mod controls;
pub mod deferred;
pub mod dial;
pub mod embed;
pub mod export;
pub mod figure;
pub mod figures;
pub mod frame;
pub mod lazy;
pub mod matrix;
pub mod near;
pub mod offscreen;
pub mod panic;
pub mod plot;
pub mod select;
pub mod shifted;
pub mod split;
pub mod state;
pub mod tasks;
pub mod theme;
pub mod units;
pub mod url;

use leptos::prelude::*;

use crate::params::Declared;
use crate::params::ThemeChoice;
use contents::Contents;
use state::{AppState, Notices};
use theme::PageTheme;

/// Mounts the app into `<main id="app">` (or the body) and removes the loading message.
pub fn mount() {
    panic::install();
    if let Some(loading) = document().get_element_by_id("loading") {
        loading.remove();
    }
    match document().get_element_by_id("app") {
        Some(el) => {
            use wasm_bindgen::JsCast;
            if let Ok(el) = el.dyn_into::<web_sys::HtmlElement>() {
                leptos::mount::mount_to(el, App).forget();
                // A link to a chapter or figure: the element exists only now, or (a chapter whose
                // module is on its way) once its chapter and those above it are built.
                deferred::when_built_through(contents::fragment_chapter(), || {
                    request_animation_frame(contents::scroll_to_fragment)
                });
                // After the mount, when every part still to build is counted.
                offscreen::skip_once_built();
            }
        }
        None => leptos::mount::mount_to_body(App),
    }
}

/// Reads the URL, provides state and theme to everything below, and keeps the URL in step.
/// Returns the state and the figure `?embed=` asks for, if any.
pub fn provide_app_state() -> (AppState, Option<&'static str>) {
    let (pairs, cut) = url::read_query();
    let state = AppState::from_query(&pairs);
    let embedded = match embed::requested(&pairs) {
        Ok(id) => id,
        Err(notice) => {
            state.notices.push(crate::params::Notice(notice));
            None
        }
    };
    if let Some(n) = cut {
        // First: it explains why later settings of the link were not read.
        state.notices.0.update(|list| list.insert(0, n.0));
    }
    let (choice, notice) = ThemeChoice::from_query(&pairs);
    if let Some(n) = notice {
        state.notices.push(n);
    }
    let theme = PageTheme::new(choice);
    provide_context(state);
    provide_context(state.notices);
    provide_context(theme);
    let view = state.sinusoidal.view();
    let order = state.order.view();
    let naive = state.naive.view();
    let (rope, context, tables, models) = (state.rope, state.context, state.tables, state.models);
    let vision = state.vision;
    let link = url::sync_to_url(Memo::new(move |_| {
        let mut pairs = order.get().to_query();
        pairs.extend(naive.get().to_query());
        pairs.extend(view.get().to_query());
        pairs.extend(rope.get().to_query());
        pairs.extend(context.get().to_query());
        pairs.extend(tables.get().to_query());
        pairs.extend(models.get().to_query());
        pairs.extend(vision.get().to_query());
        pairs.extend(theme.choice.get().to_query());
        if let Some(id) = embedded {
            pairs.push((crate::params::EMBED_KEY, id.to_string()));
        }
        pairs
    }));
    provide_context(link);
    (state, embedded)
}

/// The whole page.
#[component]
pub fn App() -> impl IntoView {
    let (_, embedded) = provide_app_state();
    // boot.js marks a page with `?embed=` before the first paint (hiding the static header); an id
    // the book does not have gets the whole page, header included, and a notice.
    if let Some(root) = document().document_element() {
        let _ = if embedded.is_some() {
            root.class_list().add_1("embedded")
        } else {
            root.class_list().remove_1("embedded")
        };
    }
    if let Some(id) = embedded {
        return view! {
            <NoticeBar />
            <embed::Embed id=id />
        }
        .into_any();
    }
    deferred::defer_from_now();
    view! {
        <HeaderActions />
        <NoticeBar />
        // The contents and chapter 1 are built in tasks of their own after this frame: mounting
        // all three in one task took ~160 ms on a 4× slowed phone. Nothing moves, as each is
        // built before anything below it exists (the footer waits too).
        <div class="book">
            <deferred::Deferred>
                <Contents />
            </deferred::Deferred>
            <div class="chapters">
                {chapters::UNITS
                    .iter()
                    .enumerate()
                    .map(|(place, unit)| view! {
                        <deferred::Deferred>
                            {chapters::with_code(unit, |code| (code.page)())}
                        </deferred::Deferred>
                        // Chapter 1's opening holds the first figure: what comes after waits
                        // for its draw.
                        {(place == 0).then(|| view! { <deferred::FirstFigureFirst /> })}
                    })
                    .collect_view()}
            </div>
        </div>
        <deferred::Deferred>
            <Footer />
        </deferred::Deferred>
    }
    .into_any()
}

/// The page's footer, once every chapter is here (not under a chapter still to come, which would
/// push it down).
#[component]
fn Footer() -> impl IntoView {
    let ready = RwSignal::new(false);
    deferred::after_chapters_above(crate::book::CHAPTERS.len(), move || {
        let _ = ready.try_set(true);
    });
    move || {
        ready.get().then(|| {
            view! {
                <footer class="footer">
                    <p>
                        "Every number is computed in Rust (compiled to WebAssembly) from the formulas of "
                        "the papers and checked against PyTorch and Hugging Face transformers. The link "
                        "in your address bar restores this exact view."
                    </p>
                </footer>
            }
        })
    }
}

/// The copy-link button and the theme switch, put into the static header's reserved
/// `#masthead-actions` box (index.html: the title and introduction are there before the
/// WebAssembly loads and are never re-created); where the page has no such box (a test mounting the
/// app into an empty element), at the top of the app.
#[component]
fn HeaderActions() -> impl IntoView {
    match document().get_element_by_id("masthead-actions") {
        Some(el) => view! {
            <leptos::portal::Portal mount=el>
                <Actions />
            </leptos::portal::Portal>
        }
        .into_any(),
        None => view! {
            <div class="actions">
                <Actions />
            </div>
        }
        .into_any(),
    }
}

/// The copy-link button and the theme switch.
#[component]
fn Actions() -> impl IntoView {
    let theme = expect_context::<PageTheme>();
    let dark = theme.is_dark();
    let link = expect_context::<url::ShareLink>();
    // The outcome of the last copy, shown on the button for a moment.
    let copied = RwSignal::new(None::<bool>);
    let copy_link = move |_| {
        link.write_now();
        let href = link.href();
        leptos::task::spawn_local(async move {
            copied.set(Some(clipboard::copy_text(&href).await));
            set_timeout(
                move || copied.set(None),
                std::time::Duration::from_millis(2000),
            );
        });
    };
    let toggle_theme = move |_| {
        theme.choice.set(if dark.get_untracked() {
            ThemeChoice::Light
        } else {
            ThemeChoice::Dark
        });
    };
    // The theme switch is a toggle button: its name ("Dark theme") stays, aria-pressed says whether
    // it is on (a name that changed with the state would contradict aria-pressed).
    view! {
                <button type="button" class="button" on:click=copy_link aria-live="polite">
                    {move || match copied.get() {
                        None => "Copy link",
                        Some(true) => "Link copied",
                        Some(false) => "Copy failed: use the address bar",
                    }}
                </button>
                <button
                    type="button"
                    class="button"
                    on:click=toggle_theme
                    aria-pressed=move || dark.get().to_string()
                >
                    <span aria-hidden="true">"☾ "</span>
                    "Dark theme"
                </button>
    }
}

/// Notices about clamped or refused input, until dismissed. Several collapse into the first one
/// and a "show all" toggle, so a link full of bad values cannot push the figures off the screen.
#[component]
fn NoticeBar() -> impl IntoView {
    let notices = expect_context::<Notices>();
    let expanded = RwSignal::new(false);
    let count = move || notices.0.with(Vec::len);
    view! {
        <div class="notices" role="status" aria-live="polite">
            <Show when=move || { count() > 0 }>
                <ul id="notice-list" class:collapsed=move || !expanded.get()>
                    {move || {
                        notices.0.get().into_iter().map(|n| view! { <li>{n}</li> }).collect_view()
                    }}
                </ul>
                <Show when=move || { count() > 1 }>
                    <button
                        type="button"
                        class="button small"
                        aria-controls="notice-list"
                        aria-expanded=move || expanded.get().to_string()
                        on:click=move |_| expanded.update(|e| *e = !*e)
                    >
                        {move || {
                            if expanded.get() {
                                "Show fewer".to_string()
                            } else {
                                format!("Show all {}", count())
                            }
                        }}
                    </button>
                </Show>
                <button
                    type="button"
                    class="button small"
                    on:click=move |_| {
                        notices.0.set(Vec::new());
                        expanded.set(false);
                    }
                >
                    "Dismiss"
                </button>
            </Show>
        </div>
    }
}
