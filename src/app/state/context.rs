//! Chapter 3's state ("Stretching the context"): one signal per control, the LongRoPE lists a
//! preset or a pasted config brought, and what every figure derives from them, memoised once.

use leptos::prelude::*;

use crate::math::rope;
use crate::math::rope_config::ModelRope;
use crate::math::rope_presets::Preset;
use crate::math::rope_scaling::RopeType;
use crate::params::context::{ContextView, longrope_lists, preset_lists};

/// The chapter's controls.
#[derive(Clone, Copy)]
pub struct ContextState {
    /// The preset the controls came from.
    pub model: RwSignal<Option<&'static str>>,
    /// The method.
    pub rope_type: RwSignal<RopeType>,
    /// Rotary dimension.
    pub dim: RwSignal<usize>,
    /// `rope_theta`.
    pub base: RwSignal<f64>,
    /// Scale factor.
    pub factor: RwSignal<f64>,
    /// Trained context `L₀`.
    pub original: RwSignal<usize>,
    /// Target length `T`.
    pub target: RwSignal<usize>,
    /// Current length (dynamic NTK).
    pub len: RwSignal<usize>,
    /// YaRN `beta_fast`.
    pub beta_fast: RwSignal<f64>,
    /// YaRN `beta_slow`.
    pub beta_slow: RwSignal<f64>,
    /// Llama 3 `low_freq_factor`.
    pub low_freq: RwSignal<f64>,
    /// Llama 3 `high_freq_factor`.
    pub high_freq: RwSignal<f64>,
    /// DeepSeek `mscale` (0 = not set).
    pub mscale: RwSignal<f64>,
    /// DeepSeek `mscale_all_dim` (0 = not set).
    pub mscale_all_dim: RwSignal<f64>,
    /// A config's explicit attention factor (0 = not set).
    pub attention_factor: RwSignal<f64>,
    /// YaRN's `truncate`.
    pub truncate: RwSignal<bool>,
    /// Methods overlaid in the wavelength figure.
    pub compare: RwSignal<Vec<RopeType>>,
    /// LongRoPE's (short, long) lists from a preset or a pasted config (not in the URL).
    pub lists: RwSignal<Option<(Vec<f64>, Vec<f64>)>>,
    /// What the last preset or pasted config said about itself (shown under the controls).
    pub read: RwSignal<Vec<String>>,
    view: Memo<ContextView>,
    plain: Memo<Vec<f64>>,
    scaled: Memo<(Vec<f64>, f64)>,
}

impl ContextState {
    /// Signals holding `v`, and the memos derived from them.
    pub fn new(v: ContextView) -> ContextState {
        let model = RwSignal::new(v.model);
        let rope_type = RwSignal::new(v.rope_type);
        let dim = RwSignal::new(v.dim);
        let base = RwSignal::new(v.base);
        let factor = RwSignal::new(v.factor);
        let original = RwSignal::new(v.original);
        let target = RwSignal::new(v.target);
        let len = RwSignal::new(v.len);
        let beta_fast = RwSignal::new(v.beta_fast);
        let beta_slow = RwSignal::new(v.beta_slow);
        let low_freq = RwSignal::new(v.low_freq);
        let high_freq = RwSignal::new(v.high_freq);
        let mscale = RwSignal::new(v.mscale);
        let mscale_all_dim = RwSignal::new(v.mscale_all_dim);
        let attention_factor = RwSignal::new(v.attention_factor);
        let truncate = RwSignal::new(v.truncate);
        let compare = RwSignal::new(v.compare);
        // A link that names a LongRoPE preset brings its lists back.
        let lists = RwSignal::new(preset_lists(v.model));
        let view = Memo::new(move |_| ContextView {
            model: model.get(),
            rope_type: rope_type.get(),
            dim: dim.get(),
            base: base.get(),
            factor: factor.get(),
            original: original.get(),
            target: target.get(),
            len: len.get(),
            beta_fast: beta_fast.get(),
            beta_slow: beta_slow.get(),
            low_freq: low_freq.get(),
            high_freq: high_freq.get(),
            mscale: mscale.get(),
            mscale_all_dim: mscale_all_dim.get(),
            attention_factor: attention_factor.get(),
            truncate: truncate.get(),
            compare: compare.get(),
        });
        let plain = Memo::new(move |_| rope::inv_freq(dim.get(), base.get()));
        let scaled = Memo::new(move |_| view.with(|v| lists.with(|l| v.scaled(l.as_ref()))));
        ContextState {
            model,
            rope_type,
            dim,
            base,
            factor,
            original,
            target,
            len,
            beta_fast,
            beta_slow,
            low_freq,
            high_freq,
            mscale,
            mscale_all_dim,
            attention_factor,
            truncate,
            compare,
            lists,
            read: RwSignal::new(Vec::new()),
            view,
            plain,
            scaled,
        }
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
