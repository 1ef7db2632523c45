//! Which pairs a method keeps, slows or divides: each pair's fate from its slow-down `θ/θ′`, the
//! pairs grouped by fate, and the [`StretchClaim`] that sums a method up (the second sentence
//! under the wavelength figure).

use std::fmt;

use super::{ranges, sig};
use crate::explain::count;
use crate::math::rope_scaling::RopeType;
use crate::scene::context::method_name;

/// What a scaling does to one pair, read off its slow-down `k = θ/θ′` and the factor `s`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PairFate {
    /// `k = 1` (to 1e-9): the pair keeps its trained frequency.
    Kept,
    /// `1 < k < s`: slowed, but less than `s`.
    Between,
    /// `k = s` (to 1e-9 relative): fully interpolated.
    Divided,
    /// `k > s`.
    Beyond,
    /// `k < 1`: sped up (a LongRoPE list entry below 1).
    Faster,
}

/// The fate of a pair slowed `k` times under factor `s` (kept wins when `s = 1`).
pub fn fate(k: f64, s: f64) -> PairFate {
    if (k - 1.0).abs() <= 1e-9 {
        PairFate::Kept
    } else if (k - s).abs() <= 1e-9 * s {
        PairFate::Divided
    } else if k < 1.0 {
        PairFate::Faster
    } else if k < s {
        PairFate::Between
    } else {
        PairFate::Beyond
    }
}

/// The pairs of each fate, in pair order.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Groups {
    /// Kept (`k = 1`).
    pub kept: Vec<usize>,
    /// Slowed less than `s`.
    pub between: Vec<usize>,
    /// Divided by exactly `s`.
    pub divided: Vec<usize>,
    /// Slowed more than `s`.
    pub beyond: Vec<usize>,
    /// Sped up.
    pub faster: Vec<usize>,
    /// The factor `s`.
    pub factor: f64,
}

impl fmt::Display for Groups {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let s = sig(self.factor);
        let n = |v: &Vec<usize>| count(v.len(), "pair", "pairs");
        let divided = format!(" by exactly s = {s}");
        let beyond = format!(" by more than s = {s}");
        let fates: [(&Vec<usize>, &str, &str); 5] = [
            (&self.kept, "keeps", " as trained"),
            (&self.between, "slows", " by less than s"),
            (&self.divided, "divides", &divided),
            (&self.beyond, "slows", &beyond),
            (&self.faster, "speeds up", ""),
        ];
        let mut parts: Vec<String> = fates
            .into_iter()
            .filter(|(pairs, ..)| !pairs.is_empty())
            .map(|(pairs, verb, how)| format!("{verb} {}{how} ({})", n(pairs), ranges(pairs)))
            .collect();
        let text = match parts.len() {
            0 => String::new(),
            1 => parts.remove(0),
            _ => {
                let last = parts.pop().unwrap_or_default();
                format!("{} and {last}", parts.join(", "))
            }
        };
        write!(f, "{text}")
    }
}

/// What a method does to the pairs, as a whole: the sentence under the wavelength figure.
#[derive(Clone, Debug, PartialEq)]
pub enum StretchClaim {
    /// Every pair keeps its frequency.
    NoneStretched {
        /// The method's name.
        method: &'static str,
        /// How many pairs.
        pairs: usize,
    },
    /// Every pair is divided by exactly `s > 1`.
    EveryPairDivided {
        /// The method's name.
        method: &'static str,
        /// How many pairs.
        pairs: usize,
        /// `s`.
        factor: f64,
    },
    /// Slow-downs never fall from pair to pair; the fastest pair is kept, the slowest is not.
    FastKeptSlowStretched {
        /// The method's name.
        method: &'static str,
        /// The pairs by fate.
        groups: Groups,
    },
    /// Slow-downs never fall from pair to pair, every pair is slowed, not all alike.
    SlowerPairsMore {
        /// The method's name.
        method: &'static str,
        /// The pairs by fate.
        groups: Groups,
    },
    /// Slow-downs never rise from pair to pair; the fastest pair is slowed, the slowest kept.
    FastStretchedSlowKept {
        /// The method's name.
        method: &'static str,
        /// The pairs by fate.
        groups: Groups,
    },
    /// Anything else.
    Uneven {
        /// The method's name.
        method: &'static str,
        /// The pairs by fate.
        groups: Groups,
    },
}

/// Decides the [`StretchClaim`] of a method with factor `s` from its per-pair slow-downs.
pub fn stretch_claim(rope_type: RopeType, s: f64, scale: &[f64]) -> StretchClaim {
    let method = method_name(rope_type);
    let pairs = scale.len();
    let mut groups = Groups {
        factor: s,
        ..Groups::default()
    };
    for (i, &k) in scale.iter().enumerate() {
        match fate(k, s) {
            PairFate::Kept => groups.kept.push(i),
            PairFate::Between => groups.between.push(i),
            PairFate::Divided => groups.divided.push(i),
            PairFate::Beyond => groups.beyond.push(i),
            PairFate::Faster => groups.faster.push(i),
        }
    }
    let rising = scale.windows(2).all(|w| w[1] >= w[0] * (1.0 - 1e-12));
    let falling = scale.windows(2).all(|w| w[1] <= w[0] * (1.0 + 1e-12));
    let is_kept = |i: usize| groups.kept.contains(&i);
    let last = pairs.saturating_sub(1);
    if groups.kept.len() == pairs {
        StretchClaim::NoneStretched { method, pairs }
    } else if groups.divided.len() == pairs {
        StretchClaim::EveryPairDivided {
            method,
            pairs,
            factor: s,
        }
    } else if rising && is_kept(0) {
        StretchClaim::FastKeptSlowStretched { method, groups }
    } else if rising && groups.faster.is_empty() && groups.kept.is_empty() {
        StretchClaim::SlowerPairsMore { method, groups }
    } else if falling && is_kept(last) && groups.faster.is_empty() {
        StretchClaim::FastStretchedSlowKept { method, groups }
    } else {
        StretchClaim::Uneven { method, groups }
    }
}

impl fmt::Display for StretchClaim {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StretchClaim::NoneStretched { method, pairs } => write!(
                f,
                "Here {method} changes no frequency: {} as trained.",
                if *pairs == 1 {
                    "its only pair keeps θ".to_string()
                } else {
                    format!("all {pairs} pairs keep θ")
                }
            ),
            StretchClaim::EveryPairDivided {
                method,
                pairs,
                factor,
            } => {
                let s = sig(*factor);
                if *pairs == 1 {
                    write!(
                        f,
                        "Here {method} divides every frequency by s = {s}: its only pair rotates s times slower."
                    )
                } else {
                    write!(
                        f,
                        "Here {method} divides every frequency by s = {s}: all {pairs} pairs, the fast ones too, turn s times slower."
                    )
                }
            }
            StretchClaim::FastKeptSlowStretched { method, groups } => write!(
                f,
                "Here {method} leaves the fast end alone and stretches the slow end: it {groups}."
            ),
            StretchClaim::SlowerPairsMore { method, groups } => write!(
                f,
                "Here {method} slows every pair, the slower ones at least as much: it {groups}."
            ),
            StretchClaim::FastStretchedSlowKept { method, groups } => write!(
                f,
                "Here {method} stretches the fast end and leaves the slow end alone, the reverse of what it is meant for: it {groups}."
            ),
            StretchClaim::Uneven { method, groups } => {
                write!(f, "Here {method} slows the pairs unevenly: it {groups}.")
            }
        }
    }
}
