//! Chapter 4's state ("Tables and biases"): one signal per control, and the ALiBi slopes every
//! ALiBi figure reads, memoised once.

use leptos::prelude::*;

use super::signals::view_signals;

use crate::math::{alibi, attention, drope, txl};
use crate::params::tables::{TablesView, distance_in_range, head_in_range, with_slope};

crate::params::tables::tables_fields!(view_signals {
    /// The chapter's controls, one signal per parameter of [`TablesView`]. Read `head` and
    /// `max_distance` through [`TablesState::head`] and [`TablesState::max_distance`].
    pub struct TablesSignals for TablesView;
    /// The chapter's state: the signals of [`TablesSignals`] as its own fields, and the ALiBi
    /// slopes and other memos its figures read.
    pub struct TablesState {
        derived: Derived,
    }
});

#[derive(Clone, Copy)]
struct Derived {
    view: Memo<TablesView>,
    default_slopes: Memo<Vec<f64>>,
    slopes: Memo<Vec<f64>>,
    head: Memo<usize>,
    max_distance: Memo<usize>,
    txl_tokens: Memo<Vec<String>>,
    txl: Memo<txl::Terms>,
    drope: Memo<drope::Curves>,
}

impl TablesState {
    /// Signals holding `v`, and the memos derived from them.
    pub fn new(v: TablesView) -> TablesState {
        let signals = TablesSignals::new(v);
        let TablesSignals {
            buckets,
            max_distance,
            bidirectional,
            heads,
            head,
            slope,
            txl_sentence,
            txl_seed,
            drope_dim,
            drope_base,
            drope_trained,
            drope_factor,
            drope_distractors,
            drope_seed,
            ..
        } = signals;
        let drope = Memo::new(move |_| {
            let trained = drope_trained.get();
            drope::curves(
                drope_dim.get(),
                drope_base.get(),
                trained,
                trained * drope_factor.get(),
                drope_distractors.get(),
                drope_seed.get(),
            )
        });
        let txl_tokens = Memo::new(move |_| txl_sentence.with(|s| attention::tokenize(s)));
        let txl = Memo::new(move |_| txl_tokens.with(|t| txl::terms(t, txl_seed.get())));
        let chosen_head = Memo::new(move |_| head_in_range(head.get(), heads.get()));
        let t5_distance = Memo::new(move |_| {
            distance_in_range(max_distance.get(), buckets.get(), bidirectional.get())
        });
        let default_slopes = Memo::new(move |_| alibi::slopes(heads.get()));
        let slopes =
            Memo::new(move |_| with_slope(default_slopes.get(), chosen_head.get(), slope.get()));
        let view = Memo::new(move |_| TablesView {
            max_distance: t5_distance.get(),
            head: chosen_head.get(),
            ..signals.tracked()
        });
        TablesState::assemble(
            signals,
            Derived {
                view,
                default_slopes,
                slopes,
                head: chosen_head,
                max_distance: t5_distance,
                txl_tokens,
                txl,
                drope,
            },
        )
    }

    /// The whole view (for the URL).
    pub fn view(self) -> Memo<TablesView> {
        self.derived.view
    }

    /// The default slopes (the authors' code's) for the current head count.
    pub fn default_slopes(self) -> Memo<Vec<f64>> {
        self.derived.default_slopes
    }

    /// The slopes in use: the default ones, with the chosen head's replaced when overridden.
    pub fn slopes(self) -> Memo<Vec<f64>> {
        self.derived.slopes
    }

    /// The chosen head, from 1, within the head count.
    pub fn head(self) -> Memo<usize> {
        self.derived.head
    }

    /// T5's `max_distance`, raised above the exact buckets when `num_buckets` grows past it.
    pub fn max_distance(self) -> Memo<usize> {
        self.derived.max_distance
    }

    /// Transformer-XL's tokens (the sentence as the toy attention reads it).
    pub fn txl_tokens(self) -> Memo<Vec<String>> {
        self.derived.txl_tokens
    }

    /// DroPE's three curves: the matching key's weight at each sampled distance.
    pub fn drope(self) -> Memo<drope::Curves> {
        self.derived.drope
    }

    /// Transformer-XL's four terms over the sentence, under the seed.
    pub fn txl(self) -> Memo<txl::Terms> {
        self.derived.txl
    }
}
