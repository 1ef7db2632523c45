//! The turns figure's summary: how many pairs turn less than once within the trained context,
//! and how many the target takes past the arc training showed them, before and after scaling.

use std::fmt;

use crate::explain::count;
use crate::math::rope::inv_freq;
use crate::math::rope_extension::{PairReach, reach};
use crate::math::rope_scaling::RopeType;
use crate::params::context::ContextView;
use crate::scene::context::{length_text, method_name};

/// Whether a share of a turn reaches past the trained arc by more than half a degree (a sliver
/// below that is rounding of the interpolation, not new angles).
pub fn past_arc(share: f64) -> bool {
    share * 360.0 > 0.5
}

/// How many pairs turn less than once over the trained positions and how many the target
/// takes past their trained arc, before and after scaling: the turns figure's summary.
#[derive(Clone, Debug, PartialEq)]
pub struct TurnsClaim {
    /// Pairs whose trained angles cover less than a full turn.
    pub slow: usize,
    /// All pairs.
    pub pairs: usize,
    /// `L₀`.
    pub original: usize,
    /// `T`.
    pub target: usize,
    /// The method.
    pub method: &'static str,
    /// Pairs taken past their arc by `T` without scaling.
    pub plain_new: usize,
    /// The same after scaling.
    pub scaled_new: usize,
}

/// The [`TurnsClaim`] of `reach` (from [`reach`]).
pub fn turns_claim(
    r: &[PairReach],
    rope_type: RopeType,
    original: usize,
    target: usize,
) -> TurnsClaim {
    TurnsClaim {
        slow: r.iter().filter(|p| p.seen < 1.0).count(),
        pairs: r.len(),
        original,
        target,
        method: method_name(rope_type),
        plain_new: r.iter().filter(|p| past_arc(p.unseen_plain())).count(),
        scaled_new: r.iter().filter(|p| past_arc(p.unseen_scaled())).count(),
    }
}

/// "18 of 64 pairs turn less than once", "1 of 64 pairs turns less than once".
pub fn slow_pairs_text(slow: usize, pairs: usize) -> String {
    format!(
        "{slow} of {} {} less than once",
        count(pairs, "pair", "pairs"),
        if slow == 1 { "turns" } else { "turn" }
    )
}

impl fmt::Display for TurnsClaim {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} over the trained positions 0 … L₀ − 1 (L₀ = {}). Up to T = {}, plain RoPE takes {} more than half a degree past every angle training showed them; after {}, {}.",
            slow_pairs_text(self.slow, self.pairs),
            length_text(self.original),
            length_text(self.target),
            count(self.plain_new, "pair", "pairs"),
            self.method,
            self.scaled_new
        )
    }
}

/// The view's [`TurnsClaim`] for method `rope_type`.
pub fn view_turns(
    v: &ContextView,
    rope_type: RopeType,
    lists: Option<&(Vec<f64>, Vec<f64>)>,
) -> TurnsClaim {
    let plain = inv_freq(v.dim, v.base);
    let scaled = v.scaling(rope_type, v.target, lists).compute().0;
    turns_claim(
        &reach(&plain, &scaled, v.original, v.target),
        rope_type,
        v.original,
        v.target,
    )
}
