//! The explainer's chapters, in reading order. A chapter is prose, controls and figures.
//!
//! The shell (the page, the embed, the downloads) reaches a chapter's code only through its
//! [`Unit`]: one loader that yields the chapter's [`Code`]. In a build split by chapter (the `split`
//! feature, `tools/build.mjs`) each later chapter's loader is a split point: its code, prose and
//! pictures and state go to a wasm module of their own, fetched the first time the loader runs. In
//! an unsplit build (`trunk serve`, the wasm tests, `tools/build.mjs --one-module`) the loader is
//! ready at once.

pub mod closing;
pub mod context;
pub mod rope;
pub mod sinusoids;
pub mod tables;

use std::future::Future;
use std::pin::Pin;

use leptos::prelude::*;

use super::split::{LoadError, split_point};
use super::state::context::ContextState;
use super::state::rope::RopeState;
use super::state::tables::TablesState;
use super::state::{self, AppState};
use super::{deferred, export};
use crate::scene;

/// What a chapter's code offers the shell.
pub struct Code {
    /// Makes the chapter's state, for everything below to find (see [`state::enter`]); called
    /// once, before anything else here.
    pub enter: fn(),
    /// The whole chapter: prose, controls and figures.
    pub page: fn() -> AnyView,
    /// Figure `id` on its own, and whether it reads the chapter's control panel. Every figure of
    /// the chapter in the book has an arm; a browser test embeds each one.
    pub figure: fn(&str) -> Option<(AnyView, bool)>,
    /// The control panel its figures share, if it has one.
    pub panel: Option<fn() -> AnyView>,
    /// What draws its figures' pictures for the SVG and CSV downloads, by figure id (made known
    /// to the downloads when the code arrives).
    pub pictures: &'static [(&'static str, scene::Build)],
}

/// A chapter's code, on its way.
pub type Loading = Pin<Box<dyn Future<Output = Result<&'static Code, LoadError>>>>;

/// A chapter as the shell knows it: its id in [`crate::book::CHAPTERS`] and its code's loader.
/// Adding a chapter adds its module, its [`Code`], one `split_point!` and one row here.
pub struct Unit {
    /// Its id in the book (`rope`).
    pub id: &'static str,
    /// Its code: fetched with the chapter's own module the first time in a split build (a failure
    /// is not kept: the next call tries again), at once otherwise.
    pub code: fn() -> Loading,
}

static SINUSOIDS: Code = Code {
    // Chapter 1's state is the page's own: made at the start, with the link's.
    enter: || {},
    page: || view! { <sinusoids::Sinusoids /> }.into_any(),
    figure: sinusoids::figure,
    panel: Some(|| view! { <sinusoids::SinusoidalControls /> }.into_any()),
    pictures: scene::sinusoids::PICTURES,
};

static ROPE: Code = Code {
    enter: || state::enter(app().rope, RopeState::new, RopeState::view),
    page: || view! { <rope::Rope /> }.into_any(),
    figure: rope::figure,
    panel: Some(|| view! { <rope::RopeControls /> }.into_any()),
    pictures: scene::rope::PICTURES,
};

static CONTEXT: Code = Code {
    enter: || state::enter(app().context, ContextState::new, ContextState::view),
    page: || view! { <context::Context /> }.into_any(),
    figure: context::figure,
    panel: Some(|| view! { <context::ContextControls /> }.into_any()),
    pictures: scene::context::PICTURES,
};

static TABLES: Code = Code {
    enter: || state::enter(app().tables, TablesState::new, TablesState::view),
    page: || view! { <tables::Tables /> }.into_any(),
    figure: tables::figure,
    panel: None,
    pictures: scene::tables::PICTURES,
};

/// The page's state.
fn app() -> AppState {
    expect_context::<AppState>()
}

split_point! {
    rope:
    /// Chapter 2's code.
    fn rope_code() -> &'static Code { &ROPE }
}

split_point! {
    context:
    /// Chapter 3's code.
    fn context_code() -> &'static Code { &CONTEXT }
}

split_point! {
    tables:
    /// Chapter 4's code.
    fn tables_code() -> &'static Code { &TABLES }
}

/// The chapters, in the book's order. Chapter 1 holds the first figure and is always in the main
/// module.
pub const UNITS: [Unit; 4] = [
    Unit {
        id: "sinusoids",
        code: || Box::pin(async { Ok(&SINUSOIDS) }),
    },
    Unit {
        id: "rope",
        code: || Box::pin(rope_code()),
    },
    Unit {
        id: "context",
        code: || Box::pin(context_code()),
    },
    Unit {
        id: "tables",
        code: || Box::pin(tables_code()),
    },
];

/// The chapter with book id `id`.
pub fn unit(id: &str) -> Option<&'static Unit> {
    UNITS.iter().find(|u| u.id == id)
}

/// What `show` makes of chapter `unit`'s code: built at once when the code is here (always, in an
/// unsplit build), else when its module has arrived; if it cannot be loaded, a message with a
/// button that tries again.
pub fn with_code(
    unit: &'static Unit,
    show: impl Fn(&'static Code) -> AnyView + Copy + Send + Sync + 'static,
) -> AnyView {
    let mut loading = (unit.code)();
    let ready = loading
        .as_mut()
        .poll(&mut std::task::Context::from_waker(std::task::Waker::noop()));
    if let std::task::Poll::Ready(Ok(code)) = ready {
        return arrived(code, show);
    }
    // `None` while the module is on its way; `Some(Err(()))` when it could not be loaded. The book
    // counts as unbuilt from the fetch until the chapter (or the message) is built.
    let place = crate::book::CHAPTERS
        .iter()
        .position(|c| c.id == unit.id)
        .unwrap_or(crate::book::CHAPTERS.len());
    let loaded = RwSignal::new(None::<Result<&'static Code, ()>>);
    let fetch = move |loading: Loading| {
        deferred::load_started(place);
        leptos::task::spawn_local(async move {
            let outcome = loading.await.map_err(|_| ());
            deferred::in_own_task(move || {
                let _ = loaded.try_set(Some(outcome));
            });
        })
    };
    match ready {
        std::task::Poll::Pending => fetch(loading),
        _ => {
            // Every outcome ends one load: this one ends as soon as its message is built.
            deferred::load_started(place);
            loaded.set(Some(Err(())));
        }
    }
    let retry = move |_| {
        loaded.set(None);
        fetch((unit.code)());
    };
    (move || {
        let Some(outcome) = loaded.get() else {
            return ().into_any();
        };
        let built = match outcome {
            // Built untracked: what the chapter reads is its own figures' business, not a reason
            // to build it again.
            Ok(code) => untrack(|| arrived(code, show)),
            // It takes the chapter's id, so that a link into the chapter lands on it.
            Err(()) => view! {
                <p class="chapter-failed" role="alert" id=unit.id>
                    {failed_message(place)}
                    <button type="button" class="button" on:click=retry>"Try again"</button>
                </p>
            }
            .into_any(),
        };
        deferred::load_ended(place);
        built
    })
    .into_any()
}

/// What a chapter that could not be loaded says in its place: which chapter, and why it may be.
fn failed_message(place: usize) -> String {
    let what = crate::book::CHAPTERS.get(place).map_or_else(
        || "This part of the explainer".to_string(),
        |c| format!("Chapter {}, “{}”,", c.number, c.title),
    );
    format!("{what} could not be loaded (a network problem?). ")
}

/// A chapter's code is here: its state is made, its pictures are known to the downloads, and
/// `show` builds what the shell asked for.
fn arrived(code: &'static Code, show: impl Fn(&'static Code) -> AnyView) -> AnyView {
    (code.enter)();
    export::know_pictures(code.pictures);
    show(code)
}
