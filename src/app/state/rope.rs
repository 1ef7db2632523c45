//! Chapter 2's state ("Rotations: RoPE"): one signal per control, and what every figure derives
//! from them, memoised once.

use leptos::prelude::*;

use super::signals::view_signals;

use crate::math::rope;
use crate::params::rope::{RopeView, fit_pos, fit_rotary, qk_vectors};

crate::params::rope::rope_fields!(view_signals {
    /// The RoPE chapter's controls, one signal per listed parameter of [`RopeView`]. Read `pos`
    /// through [`RopeState::current_pos`].
    pub struct RopeSignals for RopeView;
    /// The RoPE chapter's state: the signals of [`RopeSignals`] as its own fields, and what
    /// every figure derives from them.
    pub struct RopeState {
        /// Coordinates that rotate; `None` = all of them (read through [`RopeState::rotary_dim`]).
        pub rotary: RwSignal<Option<usize>>,
        derived: Derived,
    }
});

#[derive(Clone, Copy)]
struct Derived {
    inv_freq: Memo<Vec<f64>>,
    rotary_inv_freq: Memo<Vec<f64>>,
    current_pos: Memo<usize>,
    rotary_dim: Memo<usize>,
    qk: Memo<(Vec<f64>, Vec<f64>)>,
}

impl RopeState {
    /// Signals holding `view`, and the memos derived from them.
    pub fn new(view: RopeView) -> RopeState {
        let rotary = RwSignal::new((view.rotary_dim != view.dim).then_some(view.rotary_dim));
        let signals = RopeSignals::new(view);
        let RopeSignals {
            dim,
            base,
            positions,
            pos,
            qk,
            seed,
            ..
        } = signals;
        let rotary_dim = Memo::new(move |_| fit_rotary(rotary.get(), dim.get()));
        let derived = Derived {
            inv_freq: Memo::new(move |_| rope::inv_freq(dim.get(), base.get())),
            rotary_inv_freq: Memo::new(move |_| rope::inv_freq(rotary_dim.get(), base.get())),
            current_pos: Memo::new(move |_| fit_pos(pos.get(), positions.get())),
            rotary_dim,
            qk: Memo::new(move |_| qk_vectors(qk.get(), dim.get(), seed.get())),
        };
        RopeState::assemble(signals, rotary, derived)
    }

    /// `θ_i = base^(−2i/d)` for the current head_dim and base.
    pub fn inv_freq(self) -> Memo<Vec<f64>> {
        self.derived.inv_freq
    }

    /// The frequencies of the pairs that turn: `inv_freq(rotary_dim, base)` (Hugging Face builds
    /// them from `dim = head_dim · partial_rotary_factor`).
    pub fn rotary_inv_freq(self) -> Memo<Vec<f64>> {
        self.derived.rotary_inv_freq
    }

    /// The current position, below the number of positions.
    pub fn current_pos(self) -> Memo<usize> {
        self.derived.current_pos
    }

    /// The rotated coordinates: even, `2 ≤ rotary_dim ≤ head_dim`.
    pub fn rotary_dim(self) -> Memo<usize> {
        self.derived.rotary_dim
    }

    /// The q and k vectors of the q·k figure (all ones, or seeded random).
    pub fn qk_vectors(self) -> Memo<(Vec<f64>, Vec<f64>)> {
        self.derived.qk
    }

    /// The whole view, for the URL.
    pub fn view(self) -> Memo<RopeView> {
        let pos = self.current_pos();
        let rotary_dim = self.rotary_dim();
        Memo::new(move |_| RopeView {
            pos: pos.get(),
            ..self.tracked(rotary_dim.get())
        })
    }
}
