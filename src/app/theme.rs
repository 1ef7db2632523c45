//! Light and dark: the reader's choice (in the URL) or the system's, applied to the page as
//! `<html data-theme=…>` and to the charts as a [`Theme`].

use leptos::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen::closure::Closure;

use super::canvas::device_pixel_ratio;
use crate::chart::theme::Theme;
use crate::params::ThemeChoice;

/// The page's theme state.
#[derive(Clone, Copy)]
pub struct PageTheme {
    /// What the reader picked.
    pub choice: RwSignal<ThemeChoice>,
    /// Whether the system prefers dark.
    system_dark: RwSignal<bool>,
    /// Device-pixel ratio (changes when the window moves to another screen or zooms).
    ratio: RwSignal<f64>,
}

impl PageTheme {
    /// Starts from `choice`, follows the system's preference and the window's pixel ratio, and keeps
    /// `<html data-theme>` in step.
    pub fn new(choice: ThemeChoice) -> PageTheme {
        let theme = PageTheme {
            choice: RwSignal::new(choice),
            system_dark: RwSignal::new(false),
            ratio: RwSignal::new(device_pixel_ratio()),
        };
        if let Some(query) = window()
            .match_media("(prefers-color-scheme: dark)")
            .ok()
            .flatten()
        {
            theme.system_dark.set(query.matches());
            let system_dark = theme.system_dark;
            let on_change = Closure::<dyn Fn(web_sys::MediaQueryListEvent)>::new(
                move |ev: web_sys::MediaQueryListEvent| system_dark.set(ev.matches()),
            );
            query.set_onchange(Some(on_change.as_ref().unchecked_ref()));
            on_change.forget();
        }
        let ratio = theme.ratio;
        let _ = window_event_listener(leptos::ev::resize, move |_| {
            ratio.set(device_pixel_ratio());
        });
        let dark = theme.is_dark();
        Effect::new(move |_| {
            let name = if dark.get() { "dark" } else { "light" };
            if let Some(root) = document().document_element() {
                let _ = root.set_attribute("data-theme", name);
            }
        });
        theme
    }

    /// Whether the page is dark now.
    pub fn is_dark(self) -> Memo<bool> {
        Memo::new(move |_| match self.choice.get() {
            ThemeChoice::Auto => self.system_dark.get(),
            ThemeChoice::Light => false,
            ThemeChoice::Dark => true,
        })
    }

    /// The charts' theme now.
    pub fn chart(self) -> Memo<Theme> {
        let dark = self.is_dark();
        Memo::new(move |_| {
            let base = if dark.get() {
                Theme::DARK
            } else {
                Theme::LIGHT
            };
            base.scaled(self.ratio.get())
        })
    }
}
