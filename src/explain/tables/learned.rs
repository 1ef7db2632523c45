//! Learned absolute positions (fig-tab-learned, fig-tab-learned-similarity): the cliff past
//! max_len, and how alike a random table's neighbouring rows are.

use std::fmt;

use crate::explain::count;

/// The learned-cliff figure's status line.
pub fn learned_status(max_len: usize, n: usize) -> String {
    if n > max_len {
        let missing = n - max_len;
        let (which, verb) = if missing == 1 {
            (format!("position {max_len}"), "has")
        } else {
            (format!("{max_len} … {}", n - 1), "have")
        };
        format!(
            "{missing} of the {n} positions ({which}) {verb} no learned vector: a model with this \
             table cannot read {}. The sinusoidal rows continue, and so do RoPE's angles p·θᵢ \
             (position p times each pair's frequency).",
            if missing == 1 { "it" } else { "them" }
        )
    } else {
        format!(
            "All {n} positions have a learned row (the table has {max_len}). Drag the sequence \
             length past {max_len} to fall off the end."
        )
    }
}

/// The cosine beyond which [`parallel_share`] counts two directions as nearly parallel (or
/// opposite): 0.9, within about 26° of the same or the opposite direction.
pub const NEARLY_PARALLEL: f64 = 0.9;

/// The share of pairs of independent random directions in `d ≥ 2` dimensions whose cosine has
/// `|cos| >` [`NEARLY_PARALLEL`]. The angle φ between two such directions has density
/// `∝ sin^(d−2) φ` on `[0, π]`, so the share is `∫₀^a sin^(d−2) / ∫₀^(π/2) sin^(d−2)` with
/// `a = arccos 0.9` (Simpson's rule). At d = 2 the angle is uniform: `2·arccos(0.9)/π ≈ 0.287`
/// (the cosine follows the arcsine law, which peaks at ±1); at d = 3 the cosine is uniform: 0.1.
pub fn parallel_share(d: usize) -> f64 {
    let k = d.max(2) as i32 - 2;
    let simpson = |b: f64| {
        let steps = 2000;
        let h = b / steps as f64;
        let g = |x: f64| x.sin().powi(k);
        let inner: f64 = (1..steps)
            .map(|i| g(i as f64 * h) * if i % 2 == 1 { 4.0 } else { 2.0 })
            .sum();
        (g(0.0) + inner + g(b)) * h / 3.0
    };
    simpson(NEARLY_PARALLEL.acos()) / simpson(std::f64::consts::FRAC_PI_2)
}

/// How random directions in `d` dimensions sit, decided from [`parallel_share`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Alignment {
    /// 32 dimensions or more: cosines of about ±1/√d, nearly orthogonal.
    NearlyOrthogonal,
    /// At least 5% of random pairs have `|cos| > 0.9` (d = 2, 3).
    OftenParallel { share: f64 },
    /// Fewer than 5%, but the typical cosine ±1/√d is far from 0.
    RarelyParallel { share: f64 },
}

impl Alignment {
    /// The alignment of random directions in `d` dimensions.
    pub fn of(d: usize) -> Alignment {
        if d >= 32 {
            return Alignment::NearlyOrthogonal;
        }
        let share = parallel_share(d);
        if share >= 0.05 {
            Alignment::OftenParallel { share }
        } else {
            Alignment::RarelyParallel { share }
        }
    }
}

/// A share as a percentage: "29%", "3.7%", or "fewer than 0.1%".
fn percent(share: f64) -> String {
    if share < 0.001 {
        "fewer than 0.1%".to_string()
    } else {
        format!("{}%", super::short(100.0 * share, 2))
    }
}

/// The learned-similarity finding: `positions` rows of width `dim`, the off-diagonal RMS of the
/// learned rows' similarity, and the mean similarity at distance 1 of the learned and the
/// sinusoidal rows.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct NeighbourSimilarity {
    pub positions: usize,
    pub dim: usize,
    pub rms: f64,
    pub learned: f64,
    pub sinusoidal: f64,
}

impl NeighbourSimilarity {
    /// Two standard deviations of the mean of `positions − 1` neighbour similarities of random
    /// rows: the cosine of two independent random directions in `d` dimensions has mean 0 and
    /// variance exactly `1/d`, and neighbour pairs are uncorrelated, so `2/√(d·(p − 1))`.
    pub fn chance(&self) -> f64 {
        2.0 / ((self.dim.max(1) * self.positions.saturating_sub(1).max(1)) as f64).sqrt()
    }

    /// Whether the sample mean lies within [`Self::chance`] of 0.
    pub fn within_chance(&self) -> bool {
        self.learned.abs() <= self.chance()
    }
}

impl fmt::Display for NeighbourSimilarity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let p = self.positions;
        if p < 2 {
            return write!(f, "One position: there is no pair to compare.");
        }
        let d = self.dim;
        let orthogonal = match Alignment::of(d) {
            Alignment::NearlyOrthogonal => {
                "random vectors in this many dimensions are nearly orthogonal".to_string()
            }
            Alignment::OftenParallel { share } => format!(
                "in only {d} dimensions random directions are often nearly parallel or opposite \
                 (|cos| > 0.9 for {} of random pairs)",
                percent(share)
            ),
            Alignment::RarelyParallel { share } => format!(
                "in {d} dimensions random directions are rarely nearly parallel (|cos| > 0.9 for \
                 {} of random pairs), but not orthogonal either",
                percent(share)
            ),
        };
        let pairs = count(p - 1, "neighbour pair", "neighbour pairs");
        let verdict = if self.within_chance() {
            format!(
                "within the ±{:.3} (two standard deviations) that random rows give over {pairs}, \
                 so neighbours are no more alike than strangers",
                self.chance()
            )
        } else {
            format!(
                "outside the ±{:.3} (two standard deviations) that random rows usually give over \
                 {pairs}: a fluke of this seed, since every row is drawn independently and the \
                 expected similarity is 0 (re-roll to see it move)",
                self.chance()
            )
        };
        write!(
            f,
            "Over the first {p} positions: off the diagonal, the learned rows' similarity has a \
             root mean square of {:.3} (1/√d = {:.3}: {orthogonal}). Their mean similarity at \
             distance 1 is {:.3}, {verdict}. The sinusoidal rows' mean similarity at distance 1 \
             is {:.3}.",
            self.rms,
            1.0 / (self.dim.max(1) as f64).sqrt(),
            self.learned,
            self.sinusoidal
        )
    }
}
