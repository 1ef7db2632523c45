//! The explainer's chapters, in reading order. A chapter is prose, controls and figures.

pub mod closing;
pub mod context;
pub mod rope;
pub mod sinusoids;
pub mod tables;

use leptos::prelude::*;

/// A chapter as the shell knows it (the page, the embed): its id in [`crate::book::CHAPTERS`],
/// the chapter itself, each of its figures on its own, and its control panel. Adding a chapter
/// adds its module and one row here.
pub struct Unit {
    /// Its id in the book (`rope`).
    pub id: &'static str,
    /// The whole chapter: prose, controls and figures.
    pub page: fn() -> AnyView,
    /// Figure `id` on its own, and whether it reads the chapter's control panel. Every figure of
    /// the chapter in the book has an arm; a browser test embeds each one.
    pub figure: fn(&str) -> Option<(AnyView, bool)>,
    /// The control panel its figures share, if it has one.
    pub panel: Option<fn() -> AnyView>,
}

/// The chapters, in the book's order.
pub const UNITS: [Unit; 4] = [
    Unit {
        id: "sinusoids",
        page: || view! { <sinusoids::Sinusoids /> }.into_any(),
        figure: sinusoids::figure,
        panel: Some(|| view! { <sinusoids::SinusoidalControls /> }.into_any()),
    },
    Unit {
        id: "rope",
        page: || view! { <rope::Rope /> }.into_any(),
        figure: rope::figure,
        panel: Some(|| view! { <rope::RopeControls /> }.into_any()),
    },
    Unit {
        id: "context",
        page: || view! { <context::Context /> }.into_any(),
        figure: context::figure,
        panel: Some(|| view! { <context::ContextControls /> }.into_any()),
    },
    Unit {
        id: "tables",
        page: || view! { <tables::Tables /> }.into_any(),
        figure: tables::figure,
        panel: None,
    },
];

/// The chapter with book id `id`.
pub fn unit(id: &str) -> Option<&'static Unit> {
    UNITS.iter().find(|u| u.id == id)
}
