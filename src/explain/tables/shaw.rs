//! Shaw et al.'s clipped relative positions (fig-tab-shaw).

use std::fmt;

use crate::explain::count;

/// The Shaw figure's finding for `n` positions and clipping distance `k`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ShawFinding {
    pub n: usize,
    pub k: usize,
}

impl ShawFinding {
    /// The distinct clipped distances among the `n²` pairs: `min(2k + 1, 2n − 1)`.
    pub fn distinct(self) -> usize {
        (2 * self.k + 1).min((2 * self.n).saturating_sub(1))
    }

    /// Whether some pair of the `n` positions is clipped.
    pub fn clips(self) -> bool {
        self.k + 1 < self.n
    }
}

impl fmt::Display for ShawFinding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (n, k) = (self.n, self.k);
        let far = if self.clips() {
            format!(
                "in one layer, every pair more than {k} apart shares the vectors of distance \
                 ±{k}, at any length (stacked layers can still pass on finer information, as \
                 Shaw et al. note)"
            )
        } else {
            format!(
                "no pair of these {n} positions is more than k = {k} apart, so nothing is clipped yet"
            )
        };
        write!(
            f,
            "k = {k}: {} (each with a wᴷ and a wⱽ) serve all {} query–key pairs of {n} \
             positions; {far}.",
            count(
                self.distinct(),
                "distinct clipped distance",
                "distinct clipped distances"
            ),
            n * n
        )
    }
}
