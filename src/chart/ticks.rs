//! The line plots' tick labels: how many plotters is asked for, how they read (a logarithmic
//! axis's values are log₁₀ of what is shown) and how much room the y axis's take.

use std::ops::Range;

/// A tick label on a logarithmic axis: the tick `v` is `log₁₀` of the value shown (`1k` for 3,
/// `0.01` for −2, `3.16` for 0.5).
pub fn power_label(v: &f64) -> String {
    let x = 10f64.powf(*v);
    if (v - v.round()).abs() < 1e-9 {
        let k = v.round() as i32;
        return match k {
            3..=5 => format!("{}k", 10i64.pow(k as u32 - 3)),
            6..=8 => format!("{}M", 10i64.pow(k as u32 - 6)),
            0..=2 => format!("{}", 10i64.pow(k as u32)),
            _ => format!("1e{k}"),
        };
    }
    // Three significant digits, with k and M for thousands and millions (316k, 31.6k, 3.16k).
    let (scaled, suffix) = if x >= 1e6 {
        (x / 1e6, "M")
    } else if x >= 1e3 {
        (x / 1e3, "k")
    } else {
        (x, "")
    };
    format!("{}{suffix}", crate::params::format_significant(scaled, 3))
}

/// Formats an axis value compactly: integers without decimals (from 10 000 on in thousands or
/// millions to three decimals, `20k`, `1.5M`), others with up to 3 significant
/// decimals.
pub fn tick_label(v: &f64) -> String {
    if (v - v.round()).abs() < 1e-9 {
        let a = v.abs();
        let (scaled, suffix) = if a >= 1e6 {
            (v / 1e6, "M")
        } else if a >= 1e4 {
            (v / 1e3, "k")
        } else {
            return format!("{}", v.round() as i64);
        };
        let digits = format!("{scaled:.3}");
        format!(
            "{}{suffix}",
            digits.trim_end_matches('0').trim_end_matches('.')
        )
    } else {
        let s = format!("{v:.3}");
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    }
}

/// The width of the y axis's label area: room for the axis description and the longest tick
/// label (ticks at the ends and the middle stand in for them all).
pub fn y_label_area(range: &Range<f64>, log: bool) -> f64 {
    let format = if log { power_label } else { tick_label };
    let longest = [range.start, (range.start + range.end) / 2.0, range.end]
        .iter()
        .map(|v| format(v).chars().count())
        .max()
        .unwrap_or(0);
    52.0 + 7.0 * longest.saturating_sub(4) as f64
}

/// How many tick labels to ask plotters for on an axis over `range` (at most `linear`). Plotters
/// steps by 1, 2 or 5 times a power of ten, as many steps as fit the count: on a logarithmic axis
/// (values are log₁₀ of what is shown) asking for as many labels as the whole powers of ten in the
/// range makes the step 1 (or 2, …): labels at 1, 10, 100, not also at 3.16, 31.6, 316 between
/// them. A range with fewer than two powers in it gets two labels.
pub fn label_count(range: &Range<f64>, log: bool, linear: usize) -> usize {
    if !log {
        return linear;
    }
    let powers = range.end.floor() - range.start.ceil() + 1.0;
    if powers.is_finite() && powers >= 2.0 {
        (powers as usize).min(linear)
    } else {
        2
    }
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::*;

    #[test]
    fn power_labels_read_as_the_quantity() {
        assert_eq!(power_label(&0.0), "1");
        assert_eq!(power_label(&2.0), "100");
        assert_eq!(power_label(&3.0), "1k");
        assert_eq!(power_label(&5.0), "100k");
        assert_eq!(power_label(&6.0), "1M");
        assert_eq!(power_label(&-2.0), "1e-2");
        assert_eq!(power_label(&0.5), "3.16");
        assert_eq!(power_label(&5.5), "316k");
        assert_eq!(power_label(&4.5), "31.6k");
        assert_eq!(power_label(&-1.5), "0.0316");
    }

    #[test]
    fn tick_labels_are_compact() {
        assert_eq!(tick_label(&3.0), "3");
        assert_eq!(tick_label(&-0.5), "-0.5");
        assert_eq!(tick_label(&0.125), "0.125");
        assert_eq!(tick_label(&8192.0), "8192");
        assert_eq!(tick_label(&20_000.0), "20k");
        assert_eq!(tick_label(&-12_500.0), "-12.5k");
        assert_eq!(tick_label(&1_500_000.0), "1.5M");
    }

    #[test]
    fn a_log_axis_asks_for_one_label_per_power_of_ten() {
        assert_eq!(label_count(&(-0.3..2.5), true, 6), 3);
        assert_eq!(label_count(&(-0.3..0.9), true, 6), 2);
        assert_eq!(label_count(&(0.0..12.0), true, 6), 6);
        assert_eq!(label_count(&(0.0..12.0), false, 6), 6);
    }
}
