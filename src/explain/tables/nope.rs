//! NoPE (fig-tab-nope): what the causal mask alone tells a later layer, and the comparison row's
//! sentence on its limits.

use std::fmt;

use super::short;
use crate::explain::count;
use crate::params::format_significant;

/// The NoPE finding: the simulated mean squares of the first and last query's outputs over a
/// sequence of `n` with values of width `d`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct NopeFinding {
    pub n: usize,
    pub d: usize,
    pub first: f64,
    pub last: f64,
}

impl NopeFinding {
    /// The standard deviation of the estimate relative to its expected value: `√(2/d)`.
    pub fn relative_noise(self) -> f64 {
        (2.0 / self.d.max(1) as f64).sqrt()
    }
}

impl fmt::Display for NopeFinding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let noise = self.relative_noise();
        let reading = if noise <= 0.5 {
            "from the output's size alone, a later layer can tell roughly how far into the \
             sequence a token is — without any positional encoding"
                .to_string()
        } else {
            format!(
                "with only {} the estimate is noisy (its standard deviation is √(2/d) ≈ {} times \
                 its expected value), so the size tells early tokens from late ones only coarsely",
                count(self.d, "coordinate", "coordinates"),
                short(noise, 3)
            )
        };
        write!(
            f,
            "The first token's output has mean square {} and the last one's {} (estimates of 1 \
             and 1/{} from {}): {reading}.",
            format_significant(self.first, 3),
            format_significant(self.last, 3),
            self.n,
            count(self.d, "coordinate", "coordinates"),
        )
    }
}

/// The comparison table's "past the training length?" cell for NoPE: Wang et al. (2024)'s
/// finding and their own explanation, then this book's guess, labelled as such.
pub const NOPE_EXTRAPOLATES: &str = "no table runs out, and Kazemnejad et al. report better \
     length generalisation than the encodings they compared on their tasks; but Wang et al. \
     (2024) find it still has a limited context length, tie the failure to distracted attention \
     (weights spread too thinly over the many keys) and widen the context by tuning a softmax \
     temperature per head. (This book adds a guess: the output-size signal 1/(i + 1) of the \
     NoPE figure also takes values never seen in training.)";
