//! The explainer's chapters, in reading order. A chapter is prose, controls and figures.
//!
//! The shell (the page, the embed, the downloads) reaches a chapter's code only through its
//! [`Unit`]: one loader that yields the chapter's [`Code`]. In a build split by chapter (the `split`
//! feature, `tools/build.mjs`) each later chapter's loader is a split point: its code, prose and
//! pictures and state go to a wasm module of their own, fetched the first time the loader runs.
//! Chapter 1's code is only its opening, up to its first figure: the rest of the chapter is a unit
//! of its own ([`sinusoids::REST`], reached through [`Code::rest`]), so that the first figure comes
//! with the least download. In an unsplit build (`trunk serve`, the wasm tests, `tools/build.mjs
//! --one-module`) every loader is ready at once.

pub mod closing;
pub mod context;
pub mod models;
pub mod rope;
pub mod sinusoids;
pub mod tables;
pub mod vision;

use leptos::prelude::*;

use super::split::split_point;
use super::state::context::ContextState;
use super::state::models::ModelsState;
use super::state::rope::RopeState;
use super::state::tables::TablesState;
use super::state::vision::VisionState;
use super::state::{self, AppState};
pub use super::units::{Code, Part, Unit, with_code};
use crate::scene;

/// Chapter 1's opening, up to its first figure: in the main module, for the first figure to
/// come with the least download. The rest of the chapter has a module of its own
/// ([`sinusoids::REST`]), fetched once the first figure has drawn.
static SINUSOIDS: Code = Code {
    // Chapter 1's state is the page's own: made at the start, with the link's.
    enter: || {},
    page: || view! { <sinusoids::Sinusoids /> }.into_any(),
    figure: sinusoids::figure,
    panel: None,
    pictures: scene::sinusoids::OPENING_PICTURES,
    rest: Some(&sinusoids::REST),
};

static ROPE: Code = Code {
    enter: || state::enter(app().rope, RopeState::new, RopeState::view),
    page: || view! { <rope::Rope /> }.into_any(),
    figure: rope::figure,
    panel: Some(|| view! { <rope::RopeControls /> }.into_any()),
    pictures: scene::rope::PICTURES,
    rest: None,
};

static CONTEXT: Code = Code {
    enter: || state::enter(app().context, ContextState::new, ContextState::view),
    page: || view! { <context::Context /> }.into_any(),
    figure: context::figure,
    panel: Some(|| view! { <context::ContextControls /> }.into_any()),
    pictures: scene::context::PICTURES,
    rest: None,
};

static TABLES: Code = Code {
    enter: || state::enter(app().tables, TablesState::new, TablesState::view),
    page: || view! { <tables::Tables /> }.into_any(),
    figure: tables::figure,
    panel: None,
    pictures: scene::tables::PICTURES,
    rest: None,
};

static MODELS: Code = Code {
    enter: || state::enter(app().models, ModelsState::new, ModelsState::view),
    page: || view! { <models::Models /> }.into_any(),
    figure: models::figure,
    panel: Some(|| view! { <models::ModelControls /> }.into_any()),
    pictures: scene::models::PICTURES,
    rest: None,
};

static VISION: Code = Code {
    enter: || state::enter(app().vision, VisionState::new, VisionState::view),
    page: || view! { <vision::Vision /> }.into_any(),
    figure: vision::figure,
    panel: None,
    pictures: scene::vision::PICTURES,
    rest: None,
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

split_point! {
    models:
    /// Chapter 5's code.
    fn models_code() -> &'static Code { &MODELS }
}

split_point! {
    vision:
    /// Chapter 6's code.
    fn vision_code() -> &'static Code { &VISION }
}

/// The chapters, in the book's order. Chapter 1's opening holds the first figure and is always in
/// the main module.
pub const UNITS: [Unit; 6] = [
    Unit {
        id: "sinusoids",
        part: Part::Whole,
        code: || Box::pin(async { Ok(&SINUSOIDS) }),
        own_module: false,
    },
    Unit {
        id: "rope",
        part: Part::Whole,
        code: || Box::pin(rope_code()),
        own_module: true,
    },
    Unit {
        id: "context",
        part: Part::Whole,
        code: || Box::pin(context_code()),
        own_module: true,
    },
    Unit {
        id: "tables",
        part: Part::Whole,
        code: || Box::pin(tables_code()),
        own_module: true,
    },
    Unit {
        id: "models",
        part: Part::Whole,
        code: || Box::pin(models_code()),
        own_module: true,
    },
    Unit {
        id: "vision",
        part: Part::Whole,
        code: || Box::pin(vision_code()),
        own_module: true,
    },
];

/// The chapter with book id `id`.
pub fn unit(id: &str) -> Option<&'static Unit> {
    UNITS.iter().find(|u| u.id == id)
}
