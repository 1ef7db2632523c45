//! The page URL as the state's home: read the query once at start, write it back coalesced.
//!
//! One `history.replaceState` costs ~4 ms in Chromium, so a burst of slider input events writes the
//! URL once, `WRITE_DELAY_MS` after the last change, never on every event.

use std::cell::Cell;
use std::rc::Rc;
use std::time::Duration;

use leptos::prelude::*;

use crate::params::{self, build_query};

/// Quiet time after the last change before the URL is written.
const WRITE_DELAY_MS: u64 = 250;

/// The current query string's pairs, decoded (at most [`params::MAX_QUERY_BYTES`] of it, with a
/// notice when cut).
pub fn read_query() -> (Vec<(String, String)>, Option<params::Notice>) {
    let search = window().location().search().unwrap_or_default();
    params::parse_query_capped(&search)
}

/// The shareable link of the current view, built from the state (not from the address bar, which
/// lags [`WRITE_DELAY_MS`] behind the controls).
#[derive(Clone, Copy)]
pub struct ShareLink(Memo<Vec<(&'static str, String)>>);

impl ShareLink {
    /// The current query's pairs (read untracked).
    pub fn pairs(self) -> Vec<(String, String)> {
        self.0.with_untracked(|pairs| {
            pairs
                .iter()
                .map(|(k, v)| ((*k).to_string(), v.clone()))
                .collect()
        })
    }

    /// The page's address with the current query (read untracked).
    pub fn href(self) -> String {
        let location = window().location();
        let origin = location.origin().unwrap_or_default();
        format!(
            "{origin}{}{}{}",
            location.pathname().unwrap_or_default(),
            self.0.with_untracked(|pairs| build_query(pairs)),
            location.hash().unwrap_or_default()
        )
    }

    /// The page's address with the current query minus `embed`, scrolled to `#id`: the full
    /// explainer at that figure, in the same state.
    pub fn href_without_embed(self, id: &str) -> String {
        let location = window().location();
        let pairs: Vec<(&str, String)> = self.0.with(|pairs| {
            pairs
                .iter()
                .filter(|(k, _)| *k != params::EMBED_KEY)
                .cloned()
                .collect()
        });
        format!(
            "{}{}{}#{id}",
            location.origin().unwrap_or_default(),
            location.pathname().unwrap_or_default(),
            build_query(&pairs)
        )
    }

    /// The address that embeds figure `id` in the current state (read untracked).
    pub fn embed_href(self, id: &'static str) -> String {
        let location = window().location();
        let mut pairs: Vec<(&str, String)> = self.0.with_untracked(|pairs| {
            pairs
                .iter()
                .filter(|(k, _)| *k != params::EMBED_KEY)
                .cloned()
                .collect()
        });
        pairs.push((params::EMBED_KEY, id.to_string()));
        format!(
            "{}{}{}",
            location.origin().unwrap_or_default(),
            location.pathname().unwrap_or_default(),
            build_query(&pairs)
        )
    }

    /// Makes `#id` the address bar's fragment (without scrolling or a history entry), so the next
    /// [`ShareLink::href`] points at that element.
    pub fn set_fragment(self, id: &str) {
        if let Ok(history) = window().history() {
            let _ = history.replace_state_with_url(
                &wasm_bindgen::JsValue::NULL,
                "",
                Some(&format!("#{id}")),
            );
        }
    }

    /// Writes the current view into the address bar now (before a copy, say).
    pub fn write_now(self) {
        if let Ok(history) = window().history() {
            let _ = history.replace_state_with_url(
                &wasm_bindgen::JsValue::NULL,
                "",
                Some(&self.href()),
            );
        }
    }
}

/// Keeps the URL in step with `query`: whenever it changes, writes it with `replaceState` after
/// [`WRITE_DELAY_MS`] of quiet. Only the newest pending write runs. While one is pending,
/// `<main id="app">` carries `data-url-pending`: until then the address bar still shows an
/// earlier state (tests that compare links wait for it to go).
pub fn sync_to_url(query: Memo<Vec<(&'static str, String)>>) -> ShareLink {
    let generation = Rc::new(Cell::new(0u64));
    Effect::new(move |_| {
        query.track();
        let ticket = generation.get().wrapping_add(1);
        generation.set(ticket);
        mark_pending(true);
        let generation = Rc::clone(&generation);
        set_timeout(
            move || {
                if generation.get() == ticket {
                    ShareLink(query).write_now();
                    mark_pending(false);
                }
            },
            Duration::from_millis(WRITE_DELAY_MS),
        );
    });
    ShareLink(query)
}

thread_local! {
    /// Whether `<main id="app">` carries `data-url-pending` (so that a burst of changes writes
    /// the attribute once).
    static PENDING: Cell<bool> = const { Cell::new(false) };
}

/// Mirrors whether a URL write is pending on `<main id="app">` as `data-url-pending`.
fn mark_pending(pending: bool) {
    if PENDING.with(|p| p.replace(pending)) != pending {
        super::deferred::mark_book("data-url-pending", pending);
    }
}
