//! Chapter 4's state ("Tables and biases"): one signal per control, and the ALiBi slopes every
//! ALiBi figure reads, memoised once.

use leptos::prelude::*;

use crate::math::{alibi, attention, drope, txl};
use crate::params::tables::{TablesView, TxlTerm, distance_in_range, head_in_range, with_slope};

/// The chapter's controls.
#[derive(Clone, Copy)]
pub struct TablesState {
    /// Learned table rows `max_len`.
    pub max_len: RwSignal<usize>,
    /// Sequence length against the learned table.
    pub seq_len: RwSignal<usize>,
    /// Learned table width.
    pub dim: RwSignal<usize>,
    /// Seed of the learned table and of NoPE's values.
    pub seed: RwSignal<u64>,
    /// Shaw's `k`.
    pub shaw_k: RwSignal<usize>,
    /// Positions of Shaw's matrix.
    pub shaw_len: RwSignal<usize>,
    /// Positions of T5's matrix.
    pub t5_len: RwSignal<usize>,
    /// T5 `num_buckets`.
    pub buckets: RwSignal<usize>,
    /// T5 `max_distance` (read through [`TablesState::max_distance`]).
    pub max_distance: RwSignal<usize>,
    /// T5 bidirectional.
    pub bidirectional: RwSignal<bool>,
    /// ALiBi heads.
    pub heads: RwSignal<usize>,
    /// ALiBi sequence length.
    pub alibi_len: RwSignal<usize>,
    /// ALiBi causal mask.
    pub causal: RwSignal<bool>,
    /// The chosen head, from 1 (read through [`TablesState::head`]).
    pub head: RwSignal<usize>,
    /// The chosen head's slope when overridden.
    pub slope: RwSignal<Option<f64>>,
    /// NoPE sequence length.
    pub nope_len: RwSignal<usize>,
    /// NoPE value width.
    pub nope_dim: RwSignal<usize>,
    /// The position every method is compared at.
    pub pos: RwSignal<usize>,
    /// Transformer-XL's sentence.
    pub txl_sentence: RwSignal<String>,
    /// Seed of Transformer-XL's `W_{k,R}`, `u` and `v`.
    pub txl_seed: RwSignal<u64>,
    /// Which of Transformer-XL's terms the matrix shows.
    pub txl_term: RwSignal<TxlTerm>,
    /// DroPE's head_dim.
    pub drope_dim: RwSignal<usize>,
    /// DroPE's RoPE base.
    pub drope_base: RwSignal<f64>,
    /// DroPE's trained length L₀.
    pub drope_trained: RwSignal<usize>,
    /// DroPE's target over L₀.
    pub drope_factor: RwSignal<usize>,
    /// DroPE's distractor keys.
    pub drope_distractors: RwSignal<usize>,
    /// Seed of DroPE's query and distractors.
    pub drope_seed: RwSignal<u64>,
    derived: Derived,
}

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
        let max_len = RwSignal::new(v.max_len);
        let seq_len = RwSignal::new(v.seq_len);
        let dim = RwSignal::new(v.dim);
        let seed = RwSignal::new(v.seed);
        let shaw_k = RwSignal::new(v.shaw_k);
        let shaw_len = RwSignal::new(v.shaw_len);
        let t5_len = RwSignal::new(v.t5_len);
        let buckets = RwSignal::new(v.buckets);
        let max_distance = RwSignal::new(v.max_distance);
        let bidirectional = RwSignal::new(v.bidirectional);
        let heads = RwSignal::new(v.heads);
        let alibi_len = RwSignal::new(v.alibi_len);
        let causal = RwSignal::new(v.causal);
        let head = RwSignal::new(v.head);
        let slope = RwSignal::new(v.slope);
        let nope_len = RwSignal::new(v.nope_len);
        let nope_dim = RwSignal::new(v.nope_dim);
        let pos = RwSignal::new(v.pos);
        let txl_sentence = RwSignal::new(v.txl_sentence);
        let txl_seed = RwSignal::new(v.txl_seed);
        let txl_term = RwSignal::new(v.txl_term);
        let drope_dim = RwSignal::new(v.drope_dim);
        let drope_base = RwSignal::new(v.drope_base);
        let drope_trained = RwSignal::new(v.drope_trained);
        let drope_factor = RwSignal::new(v.drope_factor);
        let drope_distractors = RwSignal::new(v.drope_distractors);
        let drope_seed = RwSignal::new(v.drope_seed);
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
            max_len: max_len.get(),
            seq_len: seq_len.get(),
            dim: dim.get(),
            seed: seed.get(),
            shaw_k: shaw_k.get(),
            shaw_len: shaw_len.get(),
            t5_len: t5_len.get(),
            buckets: buckets.get(),
            max_distance: t5_distance.get(),
            bidirectional: bidirectional.get(),
            heads: heads.get(),
            alibi_len: alibi_len.get(),
            causal: causal.get(),
            head: chosen_head.get(),
            slope: slope.get(),
            nope_len: nope_len.get(),
            nope_dim: nope_dim.get(),
            pos: pos.get(),
            txl_sentence: txl_sentence.get(),
            txl_seed: txl_seed.get(),
            txl_term: txl_term.get(),
            drope_dim: drope_dim.get(),
            drope_base: drope_base.get(),
            drope_trained: drope_trained.get(),
            drope_factor: drope_factor.get(),
            drope_distractors: drope_distractors.get(),
            drope_seed: drope_seed.get(),
        });
        TablesState {
            max_len,
            seq_len,
            dim,
            seed,
            shaw_k,
            shaw_len,
            t5_len,
            buckets,
            max_distance,
            bidirectional,
            heads,
            alibi_len,
            causal,
            head,
            slope,
            nope_len,
            nope_dim,
            pos,
            txl_sentence,
            txl_seed,
            txl_term,
            drope_dim,
            drope_base,
            drope_trained,
            drope_factor,
            drope_distractors,
            drope_seed,
            derived: Derived {
                view,
                default_slopes,
                slopes,
                head: chosen_head,
                max_distance: t5_distance,
                txl_tokens,
                txl,
                drope,
            },
        }
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
