//! Chapter 3's state ("Stretching the context"): one signal per control, the LongRoPE lists a
//! preset or a pasted config brought, and what every figure derives from them, memoised once.

use leptos::prelude::*;

use super::signals::view_signals;

use crate::math::rope;
use crate::math::rope_config::ModelRope;
use crate::math::rope_presets::Preset;
use crate::params::context::{ContextView, longrope_lists, preset_lists};

crate::params::context::context_fields!(view_signals {
    /// The chapter's controls, one signal per parameter of [`ContextView`].
    pub struct ContextSignals for ContextView;
    /// The chapter's state: the signals of [`ContextSignals`] as its own fields, what a preset
    /// or a pasted config brought besides, and the memos every figure reads.
    pub struct ContextState {
        /// LongRoPE's (short, long) lists from a preset or a pasted config (not in the URL).
        pub lists: RwSignal<Option<(Vec<f64>, Vec<f64>)>>,
        /// What the last preset or pasted config said about itself (shown under the controls).
        pub read: RwSignal<Vec<String>>,
        view: Memo<ContextView>,
        plain: Memo<Vec<f64>>,
        scaled: Memo<(Vec<f64>, f64)>,
    }
});

impl ContextState {
    /// Signals holding `v`, and the memos derived from them.
    pub fn new(v: ContextView) -> ContextState {
        let model = v.model;
        let signals = ContextSignals::new(v);
        let ContextSignals { dim, base, .. } = signals;
        // A link that names a LongRoPE preset brings its lists back.
        let lists = RwSignal::new(preset_lists(model));
        let view = Memo::new(move |_| signals.tracked());
        let plain = Memo::new(move |_| rope::inv_freq(dim.get(), base.get()));
        let scaled = Memo::new(move |_| view.with(|v| lists.with(|l| v.scaled(l.as_ref()))));
        ContextState::assemble(
            signals,
            lists,
            RwSignal::new(Vec::new()), // read: nothing yet
            view,
            plain,
            scaled,
        )
    }

    /// The whole view (for the URL, and for figures that need several controls).
    pub fn view(self) -> Memo<ContextView> {
        self.view
    }

    /// The trained frequencies `θ_i = base^(−2i/d)`.
    pub fn plain(self) -> Memo<Vec<f64>> {
        self.plain
    }

    /// The chosen method's `(θ'_i, attention factor)` at the target length.
    pub fn scaled(self) -> Memo<(Vec<f64>, f64)> {
        self.scaled
    }

    /// Sets every control from a model's config (a preset's or a pasted one); `model` names the
    /// preset. The target becomes the model's `max_position_embeddings` when that is longer than
    /// its trained context, else `s·L₀`.
    pub fn apply(self, m: &ModelRope, model: Option<&'static str>) {
        let c = &m.scaling;
        let clamp_len = |v: usize| {
            v.clamp(
                crate::params::context::LENGTH.0,
                crate::params::context::LENGTH.1,
            )
        };
        let original = clamp_len(c.original_max);
        let target = if m.max_position > c.original_max {
            m.max_position
        } else {
            (c.factor * c.original_max as f64).round() as usize
        };
        self.model.set(model);
        self.rope_type.set(c.rope_type);
        self.dim
            .set(c.dim.clamp(2, crate::params::context::HEAD_DIM.1) / 2 * 2);
        self.base.set(c.base);
        self.factor.set(c.factor);
        self.original.set(original);
        self.target.set(clamp_len(target));
        self.len.set(clamp_len(target));
        self.beta_fast.set(c.beta_fast);
        self.beta_slow.set(c.beta_slow);
        self.low_freq.set(c.low_freq_factor);
        self.high_freq.set(c.high_freq_factor);
        self.mscale.set(c.mscale.unwrap_or(0.0));
        self.mscale_all_dim.set(c.mscale_all_dim.unwrap_or(0.0));
        self.attention_factor.set(c.attention_factor.unwrap_or(0.0));
        self.truncate.set(c.truncate);
        self.lists.set(longrope_lists(m));
        // The lines may quote the pasted text (an unknown key): each one line, at most 20.
        let read = m
            .read
            .iter()
            .cloned()
            .chain(m.warnings.iter().map(|w| format!("warning: {w}")))
            .take(20)
            .map(|line| crate::params::quote_line(&line))
            .collect();
        self.read.set(read);
    }

    /// Sets every control from `preset`.
    pub fn apply_preset(self, preset: &'static Preset) -> Result<(), String> {
        let m = crate::math::rope_config::parse_config(preset.config)?;
        self.apply(&m, Some(preset.id));
        Ok(())
    }
}
