//! Chapter 4, "Tables and biases" (with the comparison table, timeline and quiz): the sentences that depend on the settings.
//!
//! Each sentence whose truth depends on a setting is a typed claim decided here from the math's
//! outputs ([`t5_bucket`](crate::math::relative::t5_bucket), [`slopes`](crate::math::alibi::slopes),
//! [`shaw_clip`](crate::math::relative::shaw_clip), the simulated similarities and variances); its
//! `Display` is the exact text the page shows. The Leptos components only render
//! `claim.to_string()`. The few fixed sentences that state a number or a source's finding live
//! here too, as constants, so the tests can check them. `tests/claims_tables/` re-derives every
//! claim by brute force.
//!
//! One submodule per family: [`t5`] (buckets), [`alibi`] (slopes, local and global heads),
//! [`learned`] (the cliff, the rows' similarity), [`shaw`] (clipped distances), [`txl`] (Transformer-XL's four terms), [`nope`] (the
//! mask's signal), [`drope`] (a matching key's weight with and without rotation), [`compare`] (one position, and past the training length). Everything is
//! re-exported here, so `explain::tables::X` names any of them.

mod alibi;
mod compare;
mod drope;
mod learned;
mod nope;
mod shaw;
mod t5;
mod txl;

pub use alibi::*;
pub use compare::*;
pub use drope::*;
pub use learned::*;
pub use nope::*;
pub use shaw::*;
pub use t5::*;
pub use txl::*;

use crate::params::{format_number, round_significant};

/// `x` with `digits` significant digits and no trailing zeros: 2.000 → "2", 1.41421 → "1.414".
fn short(x: f64, digits: i32) -> String {
    format_number(round_significant(x, digits))
}

/// "distance 7" or "distances 3 … 7".
fn distances(first: u64, last: u64) -> String {
    if first == last {
        format!("distance {first}")
    } else {
        format!("distances {first} … {last}")
    }
}

/// Sorted numbers as runs: `[1, 2, 3, 7]` → "1 … 3, 7".
pub fn runs_text(sorted: &[usize]) -> String {
    let mut parts = Vec::new();
    let mut k = 0;
    while k < sorted.len() {
        let mut end = k;
        while end + 1 < sorted.len() && sorted[end + 1] == sorted[end] + 1 {
            end += 1;
        }
        parts.push(match end - k {
            0 => sorted[k].to_string(),
            1 => format!("{}, {}", sorted[k], sorted[end]),
            _ => format!("{} … {}", sorted[k], sorted[end]),
        });
        k = end + 1;
    }
    parts.join(", ")
}
