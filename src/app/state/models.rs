//! Chapter 5's state ("RoPE as today's models ship it"): one signal per control, and the model
//! read from its config, memoised once for every figure.

use leptos::prelude::*;

use super::signals::view_signals;

use crate::params::models::{ModelsView, Shown};

crate::params::models::models_fields!(view_signals {
    /// The chapter's controls, one signal per parameter of [`ModelsView`]. Read `layer` and
    /// `query` through [`ModelsState::layer`] and [`ModelsState::query`].
    pub struct ModelsSignals for ModelsView;
    /// The chapter's state: the signals of [`ModelsSignals`] as its own fields, and the model
    /// read from its config with what follows from it.
    pub struct ModelsState {
        derived: Derived,
    }
});

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
        let signals = ModelsSignals::new(v);
        let ModelsSignals {
            model,
            layer,
            tokens,
            query,
            config,
            ..
        } = signals;
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
            layer: chosen_layer.get(),
            query: chosen_query.get(),
            ..signals.tracked()
        });
        ModelsState::assemble(
            signals,
            Derived {
                view,
                shown,
                layer: chosen_layer,
                query: chosen_query,
                layers,
            },
        )
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
