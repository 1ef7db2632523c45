//! YaRN's ramp: which pair indices `find_correction_range` puts its ends at, and what the clamp,
//! the rounding and inverted ends do to it (the first sentence of YaRN's readout).

use std::fmt;

use super::{distinct, sig};
use crate::explain::count;
use crate::math::rope_scaling::{RopeType, yarn_correction_dim, yarn_correction_range};
use crate::params::context::ContextView;

/// How YaRN's ramp comes out (`find_correction_range` in transformers' `_compute_yarn_parameters`).
#[derive(Clone, Debug, PartialEq)]
pub struct YarnRamp {
    /// `beta_fast`, `beta_slow`.
    pub betas: (f64, f64),
    /// `find_correction_dim` of each, unrounded.
    pub raw: (f64, f64),
    /// Floored/ceiled (`truncate`), before the clamp.
    pub rounded: (f64, f64),
    /// After the clamp to `[0, d − 1]`: the ramp's `(low, high)`.
    pub ends: (f64, f64),
    /// `truncate`.
    pub truncate: bool,
    /// The rotary dimension `d`.
    pub dim: usize,
}

/// YaRN's ramp at the view's settings.
pub fn yarn_ramp(v: &ContextView) -> YarnRamp {
    let c = v.scaling(RopeType::Yarn, v.target, None);
    let raw = (
        yarn_correction_dim(c.beta_fast, c.dim, c.base, c.original_max),
        yarn_correction_dim(c.beta_slow, c.dim, c.base, c.original_max),
    );
    let rounded = if c.truncate {
        (raw.0.floor(), raw.1.ceil())
    } else {
        raw
    };
    YarnRamp {
        betas: (c.beta_fast, c.beta_slow),
        raw,
        rounded,
        ends: yarn_correction_range(&c),
        truncate: c.truncate,
        dim: c.dim,
    }
}

impl fmt::Display for YarnRamp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (bf, bs) = self.betas;
        let (fast, slow) = distinct(self.raw.0, self.raw.1);
        let pairs = self.dim / 2;
        write!(
            f,
            "YaRN ramps between the pair indices that turn β_fast = {} and β_slow = {} times within L₀: {fast} and {slow} (find_correction_dim)",
            sig(bf),
            sig(bs)
        )?;
        if self.truncate {
            let (a, b) = distinct(self.rounded.0, self.rounded.1);
            write!(f, ", floored and ceiled to {a} and {b} (truncate)")?;
        } else {
            write!(f, ", not rounded (truncate = false)")?;
        }
        let (low, high) = self.ends;
        let (lo_text, hi_text) = distinct(low, high);
        if self.ends != self.rounded {
            write!(
                f,
                ", then clamped to 0 … d − 1 = {} — the head's coordinates, not its {} — giving {lo_text} and {hi_text}",
                self.dim - 1,
                count(pairs, "pair", "pairs")
            )?;
        }
        if low < high {
            write!(
                f,
                ". The ramp is 0 (θ kept) up to index {lo_text} and 1 (θ divided by s) from index {hi_text}, blended between"
            )?;
            if high > (pairs.saturating_sub(1)) as f64 && low < (pairs.saturating_sub(1)) as f64 {
                write!(
                    f,
                    "; index {hi_text} lies past the last pair, {}, so no pair is fully divided",
                    pairs.saturating_sub(1)
                )?;
            }
            write!(f, ".")
        } else if low == high {
            write!(
                f,
                ". Both ends are {lo_text}, so transformers adds 0.001 to the slow end and the ramp is a step: θ kept up to index {lo_text}, divided by s above it."
            )
        } else {
            let why = if self.rounded.0 > self.rounded.1 {
                "β_fast is below β_slow"
            } else {
                "the clamp moved an end"
            };
            write!(
                f,
                ". The ends are inverted ({lo_text} > {hi_text}: {why}), so transformers' ramp runs backwards: θ divided by s up to index {hi_text}, kept from index {lo_text}, blended between."
            )
        }
    }
}
