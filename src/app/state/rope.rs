//! Chapter 2's state ("Rotations: RoPE"): one signal per control, and what every figure derives
//! from them, memoised once.

use leptos::prelude::*;

use crate::math::rope::{self, Layout};
use crate::params::rope::{CloudMode, QkSource, RopeView, fit_pos, fit_rotary, qk_vectors};

/// The RoPE chapter's controls.
#[derive(Clone, Copy)]
pub struct RopeState {
    /// head_dim (even).
    pub dim: RwSignal<usize>,
    /// The base (`rope_theta`).
    pub base: RwSignal<f64>,
    /// Which coordinates pair up.
    pub layout: RwSignal<Layout>,
    /// Positions of the q·k matrix.
    pub positions: RwSignal<usize>,
    /// The current position m (read through [`RopeState::current_pos`]).
    pub pos: RwSignal<usize>,
    /// Coordinates that rotate; `None` = all of them.
    pub rotary: RwSignal<Option<usize>>,
    /// q and k of the q·k figure.
    pub qk: RwSignal<QkSource>,
    /// Seed of the random q and k.
    pub seed: RwSignal<u64>,
    /// The 2D vector.
    pub vector: RwSignal<[f64; 2]>,
    /// Angle per position of the 2D vector, degrees.
    pub theta_deg: RwSignal<f64>,
    /// Position of the 2D vector.
    pub vector_pos: RwSignal<usize>,
    /// The two sentences (always valid).
    pub sentences: RwSignal<[String; 2]>,
    /// The two compared words.
    pub words: RwSignal<[String; 2]>,
    /// Angle per position of the sentence figure, degrees.
    pub sentence_theta_deg: RwSignal<f64>,
    /// The "why not add?" figure's query and key token indices (in chapter 1's sentence; read
    /// them fitted to its length).
    pub pair: RwSignal<[usize; 2]>,
    /// How far that figure moves both tokens.
    pub shift: RwSignal<usize>,
    /// How far the "why only q and k" figure moves the sentence.
    pub value_offset: RwSignal<usize>,
    /// Which vectors the token cloud shows.
    pub cloud: RwSignal<CloudMode>,
    /// Positions of the token cloud.
    pub cloud_positions: RwSignal<usize>,
    /// The cloud's yaw and pitch, degrees.
    pub view: RwSignal<[f64; 2]>,
    derived: Derived,
}

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
        let dim = RwSignal::new(view.dim);
        let base = RwSignal::new(view.base);
        let positions = RwSignal::new(view.positions);
        let pos = RwSignal::new(view.pos);
        let rotary = RwSignal::new((view.rotary_dim != view.dim).then_some(view.rotary_dim));
        let qk = RwSignal::new(view.qk);
        let seed = RwSignal::new(view.seed);
        let rotary_dim = Memo::new(move |_| fit_rotary(rotary.get(), dim.get()));
        let derived = Derived {
            inv_freq: Memo::new(move |_| rope::inv_freq(dim.get(), base.get())),
            rotary_inv_freq: Memo::new(move |_| rope::inv_freq(rotary_dim.get(), base.get())),
            current_pos: Memo::new(move |_| fit_pos(pos.get(), positions.get())),
            rotary_dim,
            qk: Memo::new(move |_| qk_vectors(qk.get(), dim.get(), seed.get())),
        };
        RopeState {
            dim,
            base,
            layout: RwSignal::new(view.layout),
            positions,
            pos,
            rotary,
            qk,
            seed,
            vector: RwSignal::new(view.vector),
            theta_deg: RwSignal::new(view.theta_deg),
            vector_pos: RwSignal::new(view.vector_pos),
            sentences: RwSignal::new(view.sentences),
            words: RwSignal::new(view.words),
            sentence_theta_deg: RwSignal::new(view.sentence_theta_deg),
            pair: RwSignal::new(view.pair),
            shift: RwSignal::new(view.shift),
            value_offset: RwSignal::new(view.value_offset),
            cloud: RwSignal::new(view.cloud),
            cloud_positions: RwSignal::new(view.cloud_positions),
            view: RwSignal::new(view.view),
            derived,
        }
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
            dim: self.dim.get(),
            base: self.base.get(),
            layout: self.layout.get(),
            positions: self.positions.get(),
            pos: pos.get(),
            rotary_dim: rotary_dim.get(),
            qk: self.qk.get(),
            seed: self.seed.get(),
            vector: self.vector.get(),
            theta_deg: self.theta_deg.get(),
            vector_pos: self.vector_pos.get(),
            sentences: self.sentences.get(),
            words: self.words.get(),
            sentence_theta_deg: self.sentence_theta_deg.get(),
            pair: self.pair.get(),
            shift: self.shift.get(),
            value_offset: self.value_offset.get(),
            cloud: self.cloud.get(),
            cloud_positions: self.cloud_positions.get(),
            view: self.view.get(),
        })
    }
}
