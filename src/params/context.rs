//! Chapter 3, "Stretching the context": its URL keys (prefix `c.`) and the view they parse into.
//!
//! The view holds one scalar per control. A LongRoPE model's factor lists are too long for a
//! link: a preset or a pasted config brings them along in the page's state, and a link (or a
//! head_dim the lists do not fit) falls back to [`synthetic_long_factors`], which says so.

use super::decl::{choice, own};
use super::listed::{declared, view_struct};
use super::{Notice, quote};
use crate::math::limits;
use crate::math::rope_config::ModelRope;
use crate::math::rope_presets::PRESETS;
use crate::math::rope_scaling::{RopeScaling, RopeType};

/// The chapter's key prefix.
pub const PREFIX: &str = "c.";

/// head_dim (the rotary part): even, 2 … 1024.
pub const HEAD_DIM: (usize, usize) = (2, limits::DIM.1);

/// Lengths the chapter's figures go to (trained context, target, current length). The score
/// curve sums in closed form, so 2²⁴ positions cost what 100 do.
pub const LENGTH: (usize, usize) = (16, limits::CONTEXT.1);

/// mscale and mscale_all_dim (DeepSeek's YaRN): 0 means "not set".
pub const MSCALE: (f64, f64) = (0.0, 2.0);

/// A config's explicit attention factor: 0 (not set) or a positive value within limits.
pub const ATTENTION_FACTOR: (f64, f64) = (0.0, limits::ATTENTION_FACTOR.1);

crate::params::listed::fields! { $
    /// Chapter 3's parameters, each one row ([`super::listed`]): [`ContextView`], its [`TABLE`]
    /// and the app's signals are written from this list.
    context_fields
    listed {
        /// The preset the controls came from (its id), if any.
        model: Option<&'static str> = None => [
            own("c.model", read_model, |v| v.model.unwrap_or_default().to_string())
                .omit_when(|v| v.model.is_none()),
        ],
        /// The scaling method.
        rope_type: crate::math::rope_scaling::RopeType = RopeType::Yarn
            => named!("c.type", RopeType),
        /// Rotary dimension (the coordinates that turn; head_dim for full rotation).
        dim: usize = 128 => even!("c.d", "c.d (head_dim)", HEAD_DIM),
        /// `rope_theta`.
        base: f64 = 10_000.0 => float!("c.base", "c.base", limits::BASE),
        /// Scale factor `s`.
        factor: f64 = 4.0 => float!("c.s", "c.s (factor)", limits::FACTOR),
        /// Trained context `L₀`.
        original: usize = 4096 => int!("c.L", "c.L (trained context)", LENGTH),
        /// The length the model should read, `T`.
        target: usize = 16_384 => int!("c.T", "c.T (target length)", LENGTH),
        /// Current sequence length (dynamic NTK's figure).
        len: usize = 8192 => int!("c.len", "c.len (current length)", LENGTH),
        /// YaRN `beta_fast`.
        beta_fast: f64 = 32.0 => float!("c.bf", "c.bf", limits::RAMP),
        /// YaRN `beta_slow`.
        beta_slow: f64 = 1.0 => float!("c.bs", "c.bs", limits::RAMP),
        /// Llama 3 `low_freq_factor`.
        low_freq: f64 = 1.0 => float!("c.lo", "c.lo", limits::RAMP),
        /// Llama 3 `high_freq_factor`.
        high_freq: f64 = 4.0 => float!("c.hi", "c.hi", limits::RAMP),
        /// DeepSeek's `mscale` (0 = not set).
        mscale: f64 = 0.0 => float!("c.ms", "c.ms (mscale)", MSCALE),
        /// DeepSeek's `mscale_all_dim` (0 = not set).
        mscale_all_dim: f64 = 0.0 => float!("c.msa", "c.msa (mscale_all_dim)", MSCALE),
        /// A config's explicit `attention_factor` (YaRN, LongRoPE; 0 = not set).
        attention_factor: f64 = 0.0 => float!(
            "c.af",
            "c.af (attention_factor)",
            ATTENTION_FACTOR
        ),
        /// YaRN's `truncate`: floor and ceil the ramp's ends (transformers' default, true).
        truncate: bool = true => [choice(
            "c.trunc",
            &["true", "false"],
            |v| if v.truncate { "true" } else { "false" },
            |v, s| v.truncate = s == "true",
        )],
        /// Methods overlaid in the wavelength figure, besides the chosen one.
        compare: Vec<crate::math::rope_scaling::RopeType> = vec![RopeType::Linear, RopeType::Ntk]
            => [own("c.cmp", read_compare, |v| {
                let names: Vec<&str> = v.compare.iter().map(|t| t.as_str()).collect();
                names.join(",")
            })],
    }
    own {}
}
#[cfg_attr(not(target_arch = "wasm32"), allow(unused_imports))] // read by the app's state
pub(crate) use context_fields;

context_fields!(view_struct {
    /// The chapter's controls. By default Llama 2's RoPE (θ = 10000, head_dim 128, 4096
    /// trained positions) stretched 4× with YaRN.
    #[derive(Clone, Debug, PartialEq)]
    ContextView
});

/// LongRoPE's lists when no model supplies them: `short_i = 1`, `long_i = s^(i/(P−1))` for the
/// `P = dim/2` pairs — a smooth ramp from "untouched" for the fastest pair to "interpolated by s"
/// for the slowest. Synthetic: LongRoPE searches its lists per model (Ding et al. 2024); these
/// only show the mechanism.
pub fn synthetic_long_factors(dim: usize, factor: f64) -> (Vec<f64>, Vec<f64>) {
    let p = (dim / 2).max(1);
    let long = (0..p)
        .map(|i| {
            if p == 1 {
                factor
            } else {
                factor.powf(i as f64 / (p - 1) as f64)
            }
        })
        .collect();
    (vec![1.0; p], long)
}

/// Methods from a comma list (`linear,ntk`): unknown names are dropped with a notice.
fn parse_methods(text: &str) -> (Vec<RopeType>, Option<Notice>) {
    let mut out = Vec::new();
    let mut bad = Vec::new();
    for part in text.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        match RopeType::parse(part) {
            Some(t) if !out.contains(&t) => out.push(t),
            Some(_) => {}
            None => bad.push(part),
        }
    }
    let notice = (!bad.is_empty()).then(|| {
        Notice(format!(
            "c.cmp: “{}” is not a method ({}); left out.",
            quote(&bad.join(",")),
            RopeType::ALL.map(RopeType::as_str).join(", ")
        ))
    });
    (out, notice)
}

impl ContextView {
    /// The scaling `rope_type` computes for this view at current length `seq_len`, with
    /// LongRoPE's `lists` (short, long) when they fit `dim/2`, else the synthetic ones.
    pub fn scaling(
        &self,
        rope_type: RopeType,
        seq_len: usize,
        lists: Option<&(Vec<f64>, Vec<f64>)>,
    ) -> RopeScaling {
        let fits = lists.filter(|(s, l)| s.len() == self.dim / 2 && l.len() == self.dim / 2);
        let (short_factor, long_factor) = match fits {
            Some((s, l)) => (s.clone(), l.clone()),
            None if rope_type == RopeType::Longrope => {
                synthetic_long_factors(self.dim, self.factor)
            }
            None => (Vec::new(), Vec::new()),
        };
        let set = |v: f64| (v > 0.0).then_some(v);
        RopeScaling {
            rope_type,
            dim: self.dim,
            base: self.base,
            factor: self.factor,
            original_max: self.original,
            seq_len,
            beta_fast: self.beta_fast,
            beta_slow: self.beta_slow,
            low_freq_factor: self.low_freq,
            high_freq_factor: self.high_freq,
            attention_factor: set(self.attention_factor),
            truncate: self.truncate,
            mscale: set(self.mscale),
            mscale_all_dim: set(self.mscale_all_dim),
            short_factor,
            long_factor,
        }
    }

    /// Plain RoPE's inverse frequencies `θ_i = base^(−2i/d)` at this view's head_dim and base.
    pub fn plain(&self) -> Vec<f64> {
        crate::math::rope::inv_freq(self.dim, self.base)
    }

    /// The chosen method's inverse frequencies and attention factor at the target length.
    pub fn scaled(&self, lists: Option<&(Vec<f64>, Vec<f64>)>) -> (Vec<f64>, f64) {
        self.scaling(self.rope_type, self.target, lists).compute()
    }
}

/// LongRoPE's (short, long) factor lists of a parsed config, if it is LongRoPE and has them.
pub fn longrope_lists(m: &ModelRope) -> Option<(Vec<f64>, Vec<f64>)> {
    let c = &m.scaling;
    (c.rope_type == RopeType::Longrope && !c.long_factor.is_empty())
        .then(|| (c.short_factor.clone(), c.long_factor.clone()))
}

/// The LongRoPE lists a link brings back: those of the preset `model` names, if any.
pub fn preset_lists(model: Option<&str>) -> Option<(Vec<f64>, Vec<f64>)> {
    model
        .and_then(crate::math::rope_presets::find)
        .and_then(|p| crate::math::rope_config::parse_config(p.config).ok())
        .and_then(|m| longrope_lists(&m))
}

context_fields!(rows declared {
    TABLE ContextView,
    |_| {};
});

/// Reads `c.cmp`, the methods overlaid in the wavelength figure.
fn read_compare(v: &mut ContextView, text: &str) -> Option<Notice> {
    let (list, notice) = parse_methods(text);
    v.compare = list;
    notice
}

/// Reads `c.model`: a preset's id, or a notice.
fn read_model(v: &mut ContextView, text: &str) -> Option<Notice> {
    match PRESETS.iter().find(|p| p.id == text) {
        Some(p) => {
            v.model = Some(p.id);
            None
        }
        None => Some(Notice(format!(
            "c.model = “{}” is not one of the presets; ignored.",
            quote(text)
        ))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::params::Declared;
    use crate::params::decl::Kind;
    use crate::params::parse_query;

    #[test]
    fn the_rope_type_row_names_every_type() {
        let row = TABLE.rows().find(|p| p.key == "c.type");
        let Some(Kind::Choice { names, .. }) = row.map(|p| &p.kind) else {
            panic!("c.type is a choice")
        };
        assert_eq!(*names, RopeType::ALL.map(RopeType::as_str));
    }

    #[test]
    fn every_key_round_trips() {
        let changed = ContextView {
            model: Some("llama3.1-8b"),
            rope_type: RopeType::Llama3,
            dim: 96,
            base: 500_000.0,
            factor: 8.0,
            original: 8192,
            target: 131_072,
            len: 20_000,
            beta_fast: 16.0,
            beta_slow: 2.0,
            low_freq: 1.5,
            high_freq: 3.0,
            mscale: 0.707,
            mscale_all_dim: 1.0,
            attention_factor: 1.25,
            truncate: false,
            compare: vec![RopeType::Longrope, RopeType::Default],
        };
        crate::params::decl::check_round_trip(&TABLE, &changed);
    }

    #[test]
    fn bad_values_clamp_or_fall_back_with_notices() {
        let (v, notices) = ContextView::from_query(&parse_query(
            "c.type=su&c.d=7&c.s=100&c.L=0&c.T=1e99&c.bf=NaN&c.cmp=linear,bogus,linear&c.model=gpt5&c.ms=-1",
        ));
        let d = ContextView::default();
        assert_eq!(v.rope_type, d.rope_type);
        assert_eq!(v.dim, 6);
        assert_eq!(v.factor, limits::FACTOR.1);
        assert_eq!(v.original, LENGTH.0);
        assert_eq!(v.target, LENGTH.1);
        assert_eq!(v.beta_fast, d.beta_fast);
        assert_eq!(v.compare, vec![RopeType::Linear]);
        assert_eq!(v.model, None);
        assert_eq!(v.mscale, 0.0);
        assert_eq!(notices.len(), 9, "{notices:?}");
        let (v, notices) = ContextView::from_query(&parse_query("c.trunc=maybe"));
        assert!(v.truncate);
        assert_eq!(notices.len(), 1);
    }

    #[test]
    fn synthetic_lists_fit_and_match_the_synthetic_preset() {
        let (short, long) = synthetic_long_factors(96, 32.0);
        assert_eq!((short.len(), long.len()), (48, 48));
        assert_eq!(long[0], 1.0);
        assert!((long[47] - 32.0).abs() < 1e-12);
        let preset = PRESETS
            .iter()
            .find(|p| p.id == "longrope-synthetic")
            .expect("the synthetic LongRoPE preset");
        let m = crate::math::rope_config::parse_config(preset.config).unwrap();
        for (a, b) in m.scaling.long_factor.iter().zip(&long) {
            // The preset prints its lists to four decimals.
            assert!((a - b).abs() < 1e-4 * b, "{a} vs {b}");
        }
        assert_eq!(synthetic_long_factors(2, 8.0).1, vec![8.0]);
    }

    #[test]
    fn scaling_uses_lists_only_when_they_fit() {
        let v = ContextView {
            rope_type: RopeType::Longrope,
            ..ContextView::default()
        };
        let lists = (vec![1.0; 10], vec![2.0; 10]);
        let s = v.scaling(RopeType::Longrope, 100_000, Some(&lists));
        assert_eq!(
            s.long_factor.len(),
            64,
            "10 entries do not fit head_dim 128: synthetic"
        );
        let fit = (vec![1.0; 64], vec![2.0; 64]);
        let s = v.scaling(RopeType::Longrope, 100_000, Some(&fit));
        assert_eq!(s.long_factor, vec![2.0; 64]);
        assert!(v.scaling(RopeType::Yarn, 1, None).long_factor.is_empty());
    }
}
