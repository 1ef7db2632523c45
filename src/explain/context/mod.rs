//! Chapter 3, "Stretching the context": the sentences that depend on the settings.
//!
//! Each sentence is a typed claim decided from the math's outputs — the per-pair slow-downs
//! `θ_i/θ′_i` of [`crate::math::rope_scaling::RopeScaling::scale_per_pair`], YaRN's correction
//! range, each pair's reach of the circle ([`crate::math::rope_extension::reach`]) — and its
//! `Display` is the text the page shows. `tests/claims_context/` sweeps the chapter's parameter
//! space and re-derives every claim by brute force.
//!
//! By meaning: [`stretch`] (each pair's fate and the method's [`StretchClaim`]), [`yarn`] (the
//! ramp), [`mechanism`] (what each method is, with this view's numbers), [`turns`] (the turns
//! figure's summary), [`ntk`] (NTK-aware against linear), [`dynamic`] (dynamic NTK's base, its
//! curve and run time) and [`notes`] (the chapter's fixed sentences that the tests check).

pub mod dynamic;
pub mod mechanism;
pub mod notes;
pub mod ntk;
pub mod stretch;
pub mod turns;
pub mod yarn;

pub use dynamic::{
    DynamicClaim, DynamicRuntime, dynamic_claim, dynamic_curve_text, dynamic_d2_note,
    dynamic_factor_note, dynamic_runtime, dynamic_slowest,
};
pub use mechanism::{bands_text, mechanism_text};
pub use ntk::{NtkClaim, ntk_claim};
pub use stretch::{Groups, PairFate, StretchClaim, fate, stretch_claim};
pub use turns::{TurnsClaim, past_arc, slow_pairs_text, turns_claim, view_turns};
pub use yarn::{YarnRamp, yarn_ramp};

use crate::params::{format_number, round_significant};

/// `x` to six significant digits, without trailing zeros: "4", "1.13863", "135402".
pub fn sig(x: f64) -> String {
    format_number(round_significant(x, 6))
}

/// `a` and `b` with as few significant digits (at least 6) as keep two different values from
/// printing alike.
pub fn distinct(a: f64, b: f64) -> (String, String) {
    super::apart(a, b, 6..=17, |x, d| {
        format_number(round_significant(x, d as i32))
    })
}

/// The indices as ranges: "0 … 20", "3, 5 … 9", or "none".
pub fn ranges(indices: &[usize]) -> String {
    let mut out: Vec<String> = Vec::new();
    let mut k = 0;
    while k < indices.len() {
        let start = indices[k];
        let mut end = start;
        while k + 1 < indices.len() && indices[k + 1] == end + 1 {
            k += 1;
            end = indices[k];
        }
        out.push(if start == end {
            start.to_string()
        } else {
            format!("{start} … {end}")
        });
        k += 1;
    }
    if out.is_empty() {
        "none".into()
    } else {
        out.join(", ")
    }
}

/// A pair's slow-down `θ/θ′` for the readout, with enough digits that a value that is neither 1
/// nor `s` does not print as either.
pub fn slowdown_text(k: f64, s: f64) -> String {
    match fate(k, s) {
        PairFate::Kept => "1".into(),
        PairFate::Divided => sig(s),
        _ => {
            for digits in 4..=17 {
                let t = format_number(round_significant(k, digits));
                // 4 digits at least, more until it differs from both 1 and s.
                if t != "1" && t != format_number(round_significant(s, digits)) {
                    return t;
                }
            }
            format_number(k)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_and_distinct() {
        assert_eq!(ranges(&[]), "none");
        assert_eq!(ranges(&[0, 1, 2, 5, 7, 8]), "0 … 2, 5, 7 … 8");
        assert_eq!(distinct(20.94, 20.94), ("20.94".into(), "20.94".into()));
        let (a, b) = distinct(1.000_000_1, 1.000_000_2);
        assert_ne!(a, b);
        assert_eq!(sig(4.0), "4");
    }

    #[test]
    fn slowdowns_that_are_neither_end_do_not_print_as_one() {
        assert_eq!(slowdown_text(1.0, 4.0), "1");
        assert_eq!(slowdown_text(4.0, 4.0), "4");
        assert_ne!(slowdown_text(3.999_99, 4.0), "4");
        assert_ne!(slowdown_text(1.000_01, 4.0), "1");
    }
}
