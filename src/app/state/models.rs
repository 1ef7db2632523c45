//! Chapter 5's state ("RoPE as today's models ship it"): one signal per control, and the model
//! read from its config, memoised once for every figure.

use leptos::prelude::*;

use crate::params::models::{ModelsView, Shown};

/// The chapter's controls.
#[derive(Clone, Copy)]
pub struct ModelsState {
    /// The preset, an index into the presets.
    pub model: RwSignal<usize>,
    /// The chosen layer (read through [`ModelsState::layer`]).
    pub layer: RwSignal<usize>,
    /// Tokens in the context.
    pub tokens: RwSignal<usize>,
    /// The query position (read through [`ModelsState::query`]).
    pub query: RwSignal<usize>,
    /// A pasted config, kept to the fields read, in place of the preset.
    pub config: RwSignal<Option<String>>,
    derived: Derived,
}

#[derive(Clone, Copy)]
struct Derived {
    view: Memo<ModelsView>,
    shown: Memo<Shown>,
    layer: Memo<usize>,
    query: Memo<usize>,
    layers: Memo<usize>,
}

impl ModelsState {
    /// Signals holding `v`, and the memos derived from them.
    pub fn new(v: ModelsView) -> ModelsState {
        let model = RwSignal::new(v.model);
        let layer = RwSignal::new(v.layer);
        let tokens = RwSignal::new(v.tokens);
        let query = RwSignal::new(v.query);
        let config = RwSignal::new(v.config);
        let shown = Memo::new(move |_| {
            ModelsView {
                model: model.get(),
                config: config.get(),
                ..ModelsView::default()
            }
            .shown()
        });
        let layers = Memo::new(move |_| shown.with(|s| s.model.layers.len().max(1)));
        let chosen_layer = Memo::new(move |_| layer.get().min(layers.get() - 1));
        let chosen_query = Memo::new(move |_| query.get().min(tokens.get().saturating_sub(1)));
        let view = Memo::new(move |_| ModelsView {
            model: model.get(),
            layer: chosen_layer.get(),
            tokens: tokens.get(),
            query: chosen_query.get(),
            config: config.get(),
        });
        ModelsState {
            model,
            layer,
            tokens,
            query,
            config,
            derived: Derived {
                view,
                shown,
                layer: chosen_layer,
                query: chosen_query,
                layers,
            },
        }
    }

    /// The whole view (for the URL).
    pub fn view(self) -> Memo<ModelsView> {
        self.derived.view
    }

    /// The model the figures draw, its name, and why a pasted config could not be read.
    pub fn shown(self) -> Memo<Shown> {
        self.derived.shown
    }

    /// The chosen layer, within the model's layers.
    pub fn layer(self) -> Memo<usize> {
        self.derived.layer
    }

    /// The query, below the tokens.
    pub fn query(self) -> Memo<usize> {
        self.derived.query
    }

    /// The model's number of layers.
    pub fn layers(self) -> Memo<usize> {
        self.derived.layers
    }
}
