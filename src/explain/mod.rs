//! The sentences that change with the settings, one module per chapter, as pure functions of the
//! parameters (no web, no Leptos). A sentence whose truth depends on a setting is a typed claim:
//! a function decides which claim the numbers support, and the claim's `Display` is the text the
//! page shows. Property tests (`tests/claims_*.rs`, and the unit tests here) sweep each chapter's
//! parameter space, edges first, and re-derive every claim from the math's outputs by a separate
//! brute-force check, never by calling the predicate that chose the sentence.

pub mod context;
pub mod rope;
pub mod sinusoids;
pub mod tables;

/// The angle between two readings of a hand turned by `angle` radians, in degrees (0 … 180):
/// angles compared modulo 360°.
pub fn wrapped_degrees(angle: f64) -> f64 {
    let a = angle.rem_euclid(std::f64::consts::TAU);
    a.min(std::f64::consts::TAU - a).to_degrees()
}

/// `n` followed by the singular or the plural noun: "1 pair", "2 pairs", "0 pairs".
pub fn count(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

#[cfg(test)]
mod tests {
    use super::count;

    #[test]
    fn counts_agree_in_number() {
        assert_eq!(count(1, "pair", "pairs"), "1 pair");
        assert_eq!(count(0, "pair", "pairs"), "0 pairs");
        assert_eq!(count(64, "clock face", "clock faces"), "64 clock faces");
    }
}
