//! Every method side by side: one position (fig-tab-same) and past the training length
//! (fig-tab-extrapolate).

use super::T5;
use crate::params::format_significant;

// ------------------------------------------------------------------ fig-tab-same

/// The same-position finding. `angles`: RoPE's angles in degrees (mod 360); `bias`: ALiBi's
/// biases of query `p`'s keys `0 … p`; `causal`: the ALiBi figures' mask box.
pub fn same_finding(
    (p, d): (usize, usize),
    sinusoidal: &[f64],
    learned: Option<&[f64]>,
    angles: &[f64],
    bias: &[f64],
    causal: bool,
) -> String {
    let norm = |v: &[f64]| v.iter().map(|x| x * x).sum::<f64>().sqrt();
    let deg = |a: Option<&f64>| format_significant(a.copied().unwrap_or(0.0), 4);
    let rope = if angles.len() == 1 {
        format!("turns its one pair by {}°", deg(angles.first()))
    } else {
        format!(
            "turns its fastest pair by {}° and its slowest by {}° (mod 360)",
            deg(angles.first()),
            deg(angles.last())
        )
    };
    let alibi = if p == 0 {
        "its only key at or before the query is its own (bias 0)".to_string()
    } else {
        format!(
            "lowers the score of the key {p} positions back by {}",
            format_significant(-bias.first().copied().unwrap_or(0.0), 4)
        )
    };
    let mask = if causal {
        ""
    } else {
        " (The panel shows the keys 0 … p before the query, as a decoder sees them; with the \
         causal box above unticked, keys after the query get the mirror-image biases.)"
    };
    format!(
        "At position {p} with d = {d}: sinusoids add a vector of length {}; the learned table {}; \
         RoPE {rope} and adds nothing; ALiBi adds nothing to x, and {alibi}.{mask}",
        format_significant(norm(sinusoidal), 4),
        match learned {
            Some(row) => format!("adds one of length {}", format_significant(norm(row), 4)),
            None => "has no row to add".to_string(),
        },
    )
}

// ------------------------------------------------------------------ fig-tab-extrapolate

/// The extrapolation finding: sequence `n`, training length `max_len`, RoPE's slowest frequency
/// `slowest` (rad per position) and T5's settings.
pub fn extrapolation_finding(n: usize, max_len: usize, slowest: f64, t5: T5) -> String {
    if n <= max_len {
        return format!(
            "The sequence ({n}) fits in max_len ({max_len}): every method still has something \
             for every position. Drag the length past it."
        );
    }
    let seen = (max_len.saturating_sub(1) as f64 * slowest).to_degrees();
    let reach = ((n - 1) as f64 * slowest).to_degrees();
    let rope = if seen >= 360.0 {
        format!(
            "RoPE's slowest pair (wavelength {} positions) already covered the whole circle \
             within max_len, so its new angles fall among those it took in training (between them, not beyond them)",
            format_significant(std::f64::consts::TAU / slowest, 3)
        )
    } else {
        format!(
            "RoPE's slowest pair turns on to {}°, beyond the {}° it reached in training",
            format_significant(reach, 4),
            format_significant(seen, 4)
        )
    };
    let flat = t5.flat_from();
    let md = t5.max_distance;
    let stops = if (n - 1) as u64 >= flat {
        format!("stops changing at distance {flat}")
    } else {
        format!("would stop changing at distance {flat}")
    };
    let included = if flat <= md as u64 {
        format!(", max_distance = {md} included,")
    } else {
        String::new()
    };
    format!(
        "Past max_len = {max_len}: the learned table has nothing; the sinusoid continues; \
         {rope}; ALiBi's bias keeps falling in a straight line; T5's bucket {stops} (every \
         distance from there on{included} shares the last bucket)."
    )
}
