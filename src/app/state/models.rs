//! Chapter 5's state ("RoPE as today's models ship it"): one signal per control, and the model
//! read from its config, memoised once for every figure.

use leptos::prelude::*;

use crate::math::layers::Model;
use crate::params::models::ModelsView;

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
    model: Memo<Result<Model, String>>,
    name: Memo<&'static str>,
    config_error: Memo<Option<String>>,
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
        let source = move || ModelsView {
            model: model.get(),
            config: config.get(),
            ..ModelsView::default()
        };
        let both = Memo::new(move |_| source().model_or_preset());
        let read = Memo::new(move |_| Ok(both.with(|(m, _)| m.clone())));
        let config_error = Memo::new(move |_| both.with(|(_, e)| e.clone()));
        let name = Memo::new(move |_| {
            let v = source();
            if config_error.get().is_some() {
                v.preset().name
            } else {
                v.name()
            }
        });
        let layers = Memo::new(move |_| both.with(|(m, _)| m.layers.len().max(1)));
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
                model: read,
                name,
                config_error,
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

    /// The model read from its config.
    pub fn model(self) -> Memo<Result<Model, String>> {
        self.derived.model
    }

    /// The model's name on the page.
    pub fn name(self) -> Memo<&'static str> {
        self.derived.name
    }

    /// Why the pasted config in the link could not be read (the preset is shown instead).
    pub fn config_error(self) -> Memo<Option<String>> {
        self.derived.config_error
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
