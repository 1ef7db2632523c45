//! Light and dark: the reader's choice (in the URL) or the system's, applied to the page as
//! `<html data-theme=…>` and to the charts as a [`Theme`].

use leptos::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen::closure::Closure;

use super::canvas::device_pixel_ratio;
use crate::chart::theme::Theme;
use crate::params::ThemeChoice;

/// `chapter_context!(State)` (or `chapter_context!(AppState.field)` for a part of the page's
/// state): what a figure starts from, its chapter's state (provided as context when the chapter
/// is built) and the charts' theme, as `(state, theme)`. A macro, not a generic function: written
/// out in place it compiles to what each figure wrote by hand, where a generic function (with
/// chapter 1's states provided as contexts of their own) cost 2.8 KB gzip of wasm (measured with
/// benches/bundle.mjs).
macro_rules! chapter_context {
    ($app:ident . $field:ident) => {
        (
            ::leptos::prelude::expect_context::<$app>().$field,
            ::leptos::prelude::expect_context::<$crate::app::theme::PageTheme>().chart(),
        )
    };
    ($state:ty) => {
        (
            ::leptos::prelude::expect_context::<$state>(),
            ::leptos::prelude::expect_context::<$crate::app::theme::PageTheme>().chart(),
        )
    };
}
pub(crate) use chapter_context;

/// The page's theme state.
#[derive(Clone, Copy)]
pub struct PageTheme {
    /// What the reader picked.
    pub choice: RwSignal<ThemeChoice>,
    /// Whether the page is dark (the choice, or the system's preference for `Auto`).
    dark: Memo<bool>,
    /// The charts' theme: colours for `dark`, sizes for the device-pixel ratio.
    chart: Memo<Theme>,
    /// The device-pixel ratio the charts draw at.
    ratio: RwSignal<f64>,
}

impl PageTheme {
    /// Starts from `choice`, follows the system's preference and the window's pixel ratio (it
    /// changes when the window moves to another screen or zooms), and keeps `<html data-theme>`
    /// in step.
    pub fn new(choice: ThemeChoice) -> PageTheme {
        let choice = RwSignal::new(choice);
        let system_dark = RwSignal::new(false);
        let ratio = RwSignal::new(device_pixel_ratio());
        if let Some(query) = window()
            .match_media("(prefers-color-scheme: dark)")
            .ok()
            .flatten()
        {
            system_dark.set(query.matches());
            let on_change = Closure::<dyn Fn(web_sys::MediaQueryListEvent)>::new(
                move |ev: web_sys::MediaQueryListEvent| system_dark.set(ev.matches()),
            );
            query.set_onchange(Some(on_change.as_ref().unchecked_ref()));
            on_change.forget();
        }
        let _ = window_event_listener(leptos::ev::resize, move |_| {
            ratio.set(device_pixel_ratio());
        });
        let dark = Memo::new(move |_| match choice.get() {
            ThemeChoice::Auto => system_dark.get(),
            ThemeChoice::Light => false,
            ThemeChoice::Dark => true,
        });
        let chart = Memo::new(move |_| {
            let base = if dark.get() {
                Theme::DARK
            } else {
                Theme::LIGHT
            };
            base.scaled(ratio.get())
        });
        Effect::new(move |_| {
            let name = if dark.get() { "dark" } else { "light" };
            if let Some(root) = document().document_element() {
                let _ = root.set_attribute("data-theme", name);
            }
        });
        PageTheme {
            choice,
            dark,
            chart,
            ratio,
        }
    }

    /// Makes every figure on screen redraw at `ratio` device pixels per CSS pixel (a PNG export),
    /// or at the screen's density again (`None`).
    pub fn set_pixel_ratio(self, ratio: Option<f64>) {
        super::canvas::set_ratio_override(ratio);
        self.ratio.set(device_pixel_ratio());
    }

    /// Whether the page is dark now.
    pub fn is_dark(self) -> Memo<bool> {
        self.dark
    }

    /// The charts' theme now.
    pub fn chart(self) -> Memo<Theme> {
        self.chart
    }
}
