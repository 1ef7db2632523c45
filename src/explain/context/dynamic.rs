//! Dynamic NTK (transformers' `dynamic`): the base that follows the length, how far its factor is
//! from the stretch it gives, the curve's text alternative, and what transformers' cache of
//! frequencies does at run time.

use std::fmt;

use super::{distinct, sig, slowdown_text};
use crate::math::rope_scaling::dynamic_base;
use crate::params::context::ContextView;
use crate::scene::context::length_text;

/// Dynamic NTK at the view's settings (`d > 2`): its formula, how far its factor is from the
/// stretch it gives, and the base at `T`. transformers' `_compute_dynamic_ntk_parameters` raises
/// the base by `α^(d/(d−2))` with `α = s·L/L₀ − (s − 1)`, which slows the slowest pair
/// (`base^(−(d−2)/d)`) exactly `α` times: at `L = s·L₀` that is `s² − s + 1`, not `s`; at
/// `s = 1` it is still `L/L₀`.
#[derive(Clone, Debug, PartialEq)]
pub struct DynamicClaim {
    /// `s`.
    pub factor: f64,
    /// `L₀`.
    pub original: usize,
    /// `T`.
    pub target: usize,
    /// The trained base.
    pub base: f64,
    /// The base at `L = max(T, L₀)`.
    pub grown: f64,
    /// `α` at `L = max(T, L₀)`: the slowest pair's slow-down there.
    pub slowest: f64,
    /// `α` at `L = s·L₀`: `s² − s + 1`.
    pub at_s_l0: f64,
}

/// `α = s·L/L₀ − (s − 1)` at `L = max(len, L₀)`.
fn alpha(factor: f64, original: usize, len: f64) -> f64 {
    let l0 = original.max(1) as f64;
    factor * len.max(l0) / l0 - (factor - 1.0)
}

/// How many times dynamic NTK slows its slowest pair at the current length `len`: `α` (1 at
/// head_dim 2, whose only pair has `θ = 1` for every base).
pub fn dynamic_slowest(v: &ContextView, len: usize) -> f64 {
    if v.dim <= 2 {
        1.0
    } else {
        alpha(v.factor, v.original, len as f64)
    }
}

/// The dynamic figure's sentence on its factor ([`DynamicClaim::factor_sentence`]); empty at
/// head_dim 2, where no pair is slowed.
pub fn dynamic_factor_note(v: &ContextView) -> String {
    if v.dim <= 2 {
        String::new()
    } else {
        format!("{} ", dynamic_claim(v).factor_sentence())
    }
}

/// The view's [`DynamicClaim`].
pub fn dynamic_claim(v: &ContextView) -> DynamicClaim {
    DynamicClaim {
        factor: v.factor,
        original: v.original,
        target: v.target,
        base: v.base,
        grown: dynamic_base(v.base, v.dim, v.factor, v.original, v.target),
        slowest: alpha(v.factor, v.original, v.target as f64),
        at_s_l0: alpha(v.factor, v.original, v.factor * v.original as f64),
    }
}

/// A length that may not be whole (`s·L₀` with a fractional `s`).
fn length_or_number(x: f64) -> String {
    if x.fract() == 0.0 && x >= 0.0 && x < usize::MAX as f64 {
        length_text(x as usize)
    } else {
        sig(x)
    }
}

impl DynamicClaim {
    /// "Its factor s is not how much it stretches: …": the slowest pair's slow-down at
    /// `L = s·L₀` (`s² − s + 1`), or at `s = 1` the base that still grows.
    pub fn factor_sentence(&self) -> String {
        let head = "Its factor s is not how much it stretches: at length L the slowest pair is slowed s·L/L₀ − (s − 1) times";
        if self.factor > 1.0 {
            format!(
                "{head}, so at L = s·L₀ = {} it is slowed s² − s + 1 = {} times, not s = {}.",
                length_or_number(self.factor * self.original as f64),
                sig(self.at_s_l0),
                sig(self.factor)
            )
        } else {
            format!(
                "{head}, so at s = 1 it is still slowed L/L₀ times: the base grows as (L/L₀)^(d/(d−2))."
            )
        }
    }
}

impl fmt::Display for DynamicClaim {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "Dynamic NTK is NTK-aware scaling whose base follows the length L = max(current length, L₀): base·(s·L/L₀ − (s − 1))^(d/(d−2)). {}",
            self.factor_sentence()
        )?;
        if self.target > self.original {
            write!(
                f,
                " Here at L = T = {}: the slowest pair is slowed {} times, base {}.",
                length_text(self.target),
                {
                    let t = sig(self.slowest);
                    if t == "1" || t == sig(self.factor) {
                        slowdown_text(self.slowest, self.factor)
                    } else {
                        t
                    }
                },
                sig(self.grown)
            )
        } else {
            write!(
                f,
                " Here T = {} is at most L₀ = {}, so L = L₀: the trained base {}, no pair slowed.",
                length_text(self.target),
                length_text(self.original),
                sig(self.grown)
            )
        }
    }
}

/// The dynamic-NTK curve as the plot draws it, for its text alternative.
pub fn dynamic_curve_text(v: &ContextView, end: usize) -> String {
    let trained = sig(v.base);
    if v.original >= end {
        format!(
            "flat at the trained base {trained} across the whole axis (up to {}), since L₀ = {} lies at or past its end",
            length_text(end),
            length_text(v.original)
        )
    } else {
        format!(
            "flat at {trained} up to L₀ = {}, then rising to {} at L = {}",
            length_text(v.original),
            sig(dynamic_base(v.base, v.dim, v.factor, v.original, end)),
            length_text(end)
        )
    }
}

/// What transformers 5.24's `dynamic_frequency_update` does when calls of different lengths
/// follow one another: it recomputes only when a length passes the cached maximum, and goes back
/// to the trained frequencies only for a sequence shorter than L₀ after having grown.
#[derive(Clone, Debug, PartialEq)]
pub struct DynamicRuntime {
    /// `L₀`.
    pub original: usize,
    /// The long call (T).
    pub long: usize,
    /// A later, shorter call, `L₀ < later < long`.
    pub later: usize,
    /// The base after the long call.
    pub long_base: f64,
    /// The base the formula gives for the later call.
    pub later_base: f64,
    /// The trained base.
    pub base: f64,
}

/// The view's [`DynamicRuntime`], when `T` leaves room for a call between `L₀` and `T`.
pub fn dynamic_runtime(v: &ContextView) -> Option<DynamicRuntime> {
    (v.target > v.original + 1).then(|| {
        let later = v.original + (v.target - v.original) / 2;
        let b = |len| dynamic_base(v.base, v.dim, v.factor, v.original, len);
        DynamicRuntime {
            original: v.original,
            long: v.target,
            later,
            long_base: b(v.target),
            later_base: b(later),
            base: v.base,
        }
    })
}

impl fmt::Display for DynamicRuntime {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (long, later) = distinct(self.long_base, self.later_base);
        let (long2, trained) = distinct(self.long_base, self.base);
        write!(
            f,
            "With these settings: after a {}-token call (base {long}), a {}-token call keeps base {long} instead of {later}, and so does a call of exactly L₀ = {} tokens (base {long2}, not the trained {trained}); only a call shorter than L₀ goes back to the trained base.",
            self.long, self.later, self.original
        )
    }
}

/// A one-pair (`d = 2`) note for the dynamic readout: transformers divides by zero there.
pub fn dynamic_d2_note(dim: usize) -> &'static str {
    if dim <= 2 {
        " (at head_dim 2 transformers divides by zero in d/(d − 2); this page takes the exponent as 1)"
    } else {
        ""
    }
}
