//! A loadable part of the book: a chapter, or the rest of one whose opening is in the main module
//! ([`Unit`]), and what its code offers the shell ([`Code`]). [`with_code`] builds what the shell
//! asks of a unit's code: at once when the code is here, else when its module has arrived, or a
//! message with a button that tries again. Knows no chapter: the registry is
//! [`super::chapters::UNITS`].

use std::future::Future;
use std::pin::Pin;

use leptos::prelude::*;

use super::split::LoadError;
use super::{deferred, export};
use crate::scene;

/// What a chapter's code offers the shell.
pub struct Code {
    /// Makes the chapter's state, for everything below to find (see
    /// [`super::state::enter`]); called once, before anything else here.
    pub enter: fn(),
    /// The whole chapter: prose, controls and figures.
    pub page: fn() -> AnyView,
    /// Figure `id` on its own, and whether it reads the chapter's control panel. Every figure of
    /// the chapter in the book has an arm here or in `rest`; a browser test embeds each one.
    pub figure: fn(&str) -> Option<(AnyView, bool)>,
    /// The control panel its figures share, if it has one.
    pub panel: Option<fn() -> AnyView>,
    /// What draws its figures' pictures for the SVG and CSV downloads, by figure id (made known
    /// to the downloads when the code arrives).
    pub pictures: &'static [(&'static str, scene::Build)],
    /// The rest of the chapter, with its own module, when this code is only its opening: the
    /// figures `figure` does not have are there.
    pub rest: Option<&'static Unit>,
}

/// A chapter's code, on its way.
pub type Loading = Pin<Box<dyn Future<Output = Result<&'static Code, LoadError>>>>;

/// A loadable part of the book as the shell knows it: its chapter's id in
/// [`crate::book::CHAPTERS`], which part of the chapter it is, and its code's loader. Adding a
/// chapter adds its module, its [`Code`], one `split_point!` and one row to
/// [`super::chapters::UNITS`].
pub struct Unit {
    /// Its chapter's id in the book (`rope`).
    pub id: &'static str,
    /// The whole chapter, or the rest of it.
    pub part: Part,
    /// Its code: fetched with the chapter's own module the first time in a split build (a failure
    /// is not kept: the next call tries again), at once otherwise.
    pub code: fn() -> Loading,
    /// Whether its code has a module of its own in a split build (all but chapter 1's opening).
    pub own_module: bool,
}

/// Which part of its chapter a [`Unit`] is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Part {
    /// The whole chapter (its page is the chapter's `<section>`).
    Whole,
    /// The rest of a chapter whose opening is in the main module (its page goes inside the
    /// opening's `<section>`).
    Rest,
}

/// What `show` makes of chapter `unit`'s code: built at once when the code is here (always, in an
/// unsplit build), else when its module has arrived; if it cannot be loaded, a message with a
/// button that tries again.
pub fn with_code(
    unit: &'static Unit,
    show: impl Fn(&'static Code) -> AnyView + Copy + Send + Sync + 'static,
) -> AnyView {
    // In a build split by chapter, a module's fetch waits while the book's first figure is on its
    // way (deferred::FirstFigureFirst; polling the loader would start it): the chapter counts as
    // on its way from now all the same, so chapters below it are still built after it.
    let waits = cfg!(feature = "split") && unit.own_module && deferred::first_figure_pending();
    let first = (!waits).then(|| {
        let mut loading = (unit.code)();
        let ready = loading
            .as_mut()
            .poll(&mut std::task::Context::from_waker(std::task::Waker::noop()));
        (loading, ready)
    });
    if let Some((_, std::task::Poll::Ready(Ok(code)))) = first {
        return arrived(code, show);
    }
    // `None` while the module is on its way; `Some(Err(()))` when it could not be loaded. The book
    // counts as unbuilt from the fetch until the chapter (or the message) is built.
    let place = crate::book::place(unit.id).unwrap_or(crate::book::CHAPTERS.len());
    let loaded = RwSignal::new(None::<Result<&'static Code, ()>>);
    let fetch = move |loading: Loading| {
        leptos::task::spawn_local(async move {
            let outcome = loading.await.map_err(|_| ());
            deferred::after_chapters_above(place, move || {
                deferred::in_own_task(move || {
                    let _ = loaded.try_set(Some(outcome));
                });
            });
        })
    };
    // Every outcome ends one load: a failure as soon as its message is built.
    deferred::load_started(place);
    match first {
        None => deferred::after_first_figure(move || fetch((unit.code)())),
        Some((loading, std::task::Poll::Pending)) => fetch(loading),
        Some(_) => loaded.set(Some(Err(()))),
    }
    let retry = move |_| {
        loaded.set(None);
        deferred::load_started(place);
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
            // In place of a whole chapter it takes the chapter's id, so that a link into the
            // chapter lands on it.
            Err(()) => view! {
                <p class="chapter-failed" role="alert" id=(unit.part == Part::Whole).then_some(unit.id)>
                    {failed_message(place, unit.part)}
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
fn failed_message(place: usize, part: Part) -> String {
    let what = match (crate::book::CHAPTERS.get(place), part) {
        (Some(c), Part::Whole) => format!("Chapter {}, “{}”,", c.number, c.title),
        (Some(c), Part::Rest) => format!("The rest of chapter {}, “{}”,", c.number, c.title),
        (None, _) => "This part of the explainer".to_string(),
    };
    format!("{what} could not be loaded (a network problem?). ")
}

/// A chapter's code is here: its state is made, its pictures are known to the downloads, and
/// `show` builds what the shell asked for.
fn arrived(code: &'static Code, show: impl Fn(&'static Code) -> AnyView) -> AnyView {
    (code.enter)();
    export::know_pictures(code.pictures);
    show(code)
}
