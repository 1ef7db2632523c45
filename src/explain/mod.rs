//! The sentences that change with the settings, one module per chapter, as pure functions of the
//! parameters (no web, no Leptos). A sentence whose truth depends on a setting is a typed claim:
//! a function decides which claim the numbers support, and the claim's `Display` is the text the
//! page shows. Property tests (`tests/claims_*.rs`, and the unit tests here) sweep each chapter's
//! parameter space, edges first, and re-derive every claim from the math's outputs by a separate
//! brute-force check, never by calling the predicate that chose the sentence.

pub mod context;
pub mod models;
pub mod position_ids;
pub mod rope;
pub mod sinusoids;
pub mod tables;
pub mod video;
pub mod vision;

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

/// Two numbers printed so that they look different when they are: `print(x, d)` at the first
/// `d` of `digits` at which `a` and `b` print differently (or at the first `d` when they are
/// equal); past the last `d`, each in full ([`crate::params::format_number`]). The chapters'
/// sentences choose the printer: decimals, or significant digits.
pub fn apart(
    a: f64,
    b: f64,
    digits: std::ops::RangeInclusive<usize>,
    print: impl Fn(f64, usize) -> String,
) -> (String, String) {
    for d in digits {
        let (x, y) = (print(a, d), print(b, d));
        if a == b || x != y {
            return (x, y);
        }
    }
    let full = crate::params::format_number;
    (full(a), full(b))
}

/// Two numbers that should look different when they are: the fewest decimals (at least 4, at
/// most 15) at which `lo` and `hi` print differently, or `None` when they are equal to 15.
pub fn distinguishing_decimals(lo: f64, hi: f64) -> Option<usize> {
    (4..=15).find(|&k| format!("{lo:.k$}") != format!("{hi:.k$}"))
}

/// "0.9700 to 0.9704", or, where four decimals hide the difference, "0.970000012 to
/// 0.970000064 (a spread of 5.2e-8)", or "0.970000000000000 throughout (equal at 15 decimals)".
pub fn range_text(lo: f64, hi: f64) -> String {
    match distinguishing_decimals(lo, hi) {
        Some(4) => format!("{lo:.4} to {hi:.4}"),
        Some(k) => format!("{lo:.k$} to {hi:.k$} (a spread of {:.1e})", hi - lo),
        None => format!("{lo:.15} throughout (equal at 15 decimals)"),
    }
}

#[cfg(test)]
mod tests {
    use super::{apart, count};

    #[test]
    fn apart_prints_two_numbers_until_they_differ() {
        let decimals = |x: f64, d: usize| format!("{x:.d$}");
        assert_eq!(
            apart(1.5, 1.5, 3..=15, decimals),
            ("1.500".into(), "1.500".into())
        );
        assert_eq!(
            apart(1.5, 2.5, 3..=15, decimals),
            ("1.500".into(), "2.500".into())
        );
        assert_eq!(
            apart(3.080_605, 3.080_505, 3..=15, decimals),
            ("3.0806".into(), "3.0805".into())
        );
        // Past the last digit each is printed in full.
        let (a, b) = apart(1.0, 1.0 + 1e-9, 3..=5, decimals);
        assert_eq!((a.as_str(), b.as_str()), ("1", "1.000000001"));
    }

    #[test]
    fn counts_agree_in_number() {
        assert_eq!(count(1, "pair", "pairs"), "1 pair");
        assert_eq!(count(0, "pair", "pairs"), "0 pairs");
        assert_eq!(count(64, "clock face", "clock faces"), "64 clock faces");
    }
}
