//! NTK-aware scaling (bloc97's base change; transformers has no fixed-factor type for it): what
//! it slows, and how much of the target it leaves past the trained arcs compared with linear
//! interpolation.

use std::fmt;

use super::turns::view_turns;
use super::{PairFate, fate, sig, slowdown_text};
use crate::explain::count;
use crate::math::rope::inv_freq;
use crate::math::rope_scaling::RopeType;
use crate::params::context::ContextView;
use crate::scene::context::length_text;

/// NTK-aware scaling with factor `s`: only the slowest pair is slowed `s` times, so it does not
/// reach `s·L₀` (YaRN §3.1); the counts come from the turns figure's own test.
#[derive(Clone, Debug, PartialEq)]
pub struct NtkClaim {
    /// `s`.
    pub factor: f64,
    /// The slow-down of the fastest pair that turns less than once within L₀, and its index.
    pub first_slow: Option<(usize, f64)>,
    /// Pairs under one turn within L₀.
    pub slow: usize,
    /// Pairs past their trained arc by T after NTK-aware scaling.
    pub ntk_past: usize,
    /// The same after linear interpolation with the same s.
    pub linear_past: usize,
    /// `T`.
    pub target: usize,
}

/// The view's [`NtkClaim`].
pub fn ntk_claim(v: &ContextView) -> NtkClaim {
    let ntk = view_turns(v, RopeType::Ntk, None);
    let linear = view_turns(v, RopeType::Linear, None);
    let plain = inv_freq(v.dim, v.base);
    let scale = v.scaling(RopeType::Ntk, v.target, None).scale_per_pair();
    let l0 = v.original.saturating_sub(1) as f64;
    let first_slow = plain
        .iter()
        .position(|t| l0 * t < std::f64::consts::TAU)
        .map(|i| (i, scale[i]));
    NtkClaim {
        factor: v.factor,
        first_slow,
        slow: ntk.slow,
        ntk_past: ntk.scaled_new,
        linear_past: linear.scaled_new,
        target: v.target,
    }
}

impl fmt::Display for NtkClaim {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.factor > 1.0 {
            write!(
                f,
                "NTK-aware scaling raises the base to base·s^(d/(d−2)): pair i is slowed s^(2i/(d−2)) times, so the fastest pair is untouched and only the slowest is slowed the full s = {}.",
                sig(self.factor)
            )?;
        } else {
            write!(
                f,
                "NTK-aware scaling raises the base to base·s^(d/(d−2)), which slows pair i s^(2i/(d−2)) times; at s = 1 that is the trained base, and every pair keeps its frequency."
            )?;
        }
        if let Some((i, k)) = self
            .first_slow
            .filter(|&(_, k)| fate(k, self.factor) == PairFate::Between)
        {
            let which = if self.slow == 1 {
                "the only pair that turns less than once within L₀".to_string()
            } else {
                format!(
                    "the fastest of the {} that turn less than once within L₀",
                    self.slow
                )
            };
            write!(
                f,
                " Pair {i}, {which}, is slowed only {}×.",
                slowdown_text(k, self.factor)
            )?;
        }
        let t = length_text(self.target);
        if self.ntk_past > self.linear_past {
            write!(
                f,
                " So up to T = {t} NTK-aware still takes {} past their trained arc, against {} after linear interpolation with the same s: with factor s it covers less, and YaRN §3.1 notes that its s has to be set higher than the expected scale.",
                count(self.ntk_past, "pair", "pairs"),
                self.linear_past
            )?;
        } else if self.ntk_past > 0 {
            write!(
                f,
                " Up to T = {t} it takes {} past their trained arc (linear interpolation with the same s: {}).",
                count(self.ntk_past, "pair", "pairs"),
                self.linear_past
            )?;
        } else {
            write!(f, " Up to T = {t} it takes no pair past its trained arc.")?;
        }
        write!(f, " It is fixed: short inputs get the same frequencies.")
    }
}
