//! Validation of parsed flags against `math::limits`: each check returns the value or the
//! one-line message `pe` prints before exiting with status 2.

use pe_explorer::math::limits;

pub type Checked<T> = Result<T, String>;

/// A number for messages and help: plain when short, in exponent form (`1e6`) when long (the
/// same form as the config reader's messages).
pub fn number(v: f64) -> String {
    pe_explorer::math::rope_config::number_text(v)
}

/// `lo..=hi` of a real range, for messages and help.
pub fn real_range((lo, hi): (f64, f64)) -> String {
    format!("{}..={}", number(lo), number(hi))
}

/// `v` within the inclusive integer range, or an error naming `--flag`.
pub fn int<T>(flag: &str, v: T, (lo, hi): (T, T)) -> Checked<T>
where
    T: PartialOrd + std::fmt::Display + Copy,
{
    if lo <= v && v <= hi {
        Ok(v)
    } else {
        Err(format!("--{flag} {v} is out of range {lo}..={hi}"))
    }
}

/// `v` finite and within the inclusive real range (NaN and ±∞ are rejected).
pub fn real(flag: &str, v: f64, (lo, hi): (f64, f64)) -> Checked<f64> {
    if v.is_finite() && (lo..=hi).contains(&v) {
        Ok(v)
    } else {
        Err(format!(
            "--{flag} {} is out of range {}",
            number(v),
            real_range((lo, hi))
        ))
    }
}

/// A RoPE head_dim: in [`limits::DIM`] and even.
pub fn even_dim(v: usize) -> Checked<usize> {
    let d = int("dim", v, limits::DIM)?;
    if d.is_multiple_of(2) {
        Ok(d)
    } else {
        Err(format!(
            "--dim {d} must be even for RoPE (coordinates are rotated in pairs)"
        ))
    }
}

/// A RoPE `rotary_dim` for a head of width `dim`: even, in
/// `limits::ROTARY_DIM.0..=min(dim, limits::ROTARY_DIM.1)`.
pub fn rotary_dim(v: usize, dim: usize) -> Checked<usize> {
    let (lo, hi) = limits::ROTARY_DIM;
    let r = int("rotary-dim", v, (lo, dim.min(hi)))?;
    if r.is_multiple_of(2) {
        Ok(r)
    } else {
        Err(format!(
            "--rotary-dim {r} must be even (coordinates are rotated in pairs)"
        ))
    }
}

/// A comma-separated list of finite numbers, each within `range`.
pub fn list(flag: &str, text: &str, range: (f64, f64)) -> Checked<Vec<f64>> {
    text.split(',')
        .map(|part| {
            let part = part.trim();
            match part.parse::<f64>() {
                Ok(v) if v.is_finite() => real(flag, v, range),
                _ => Err(format!("--{flag}: “{part}” is not a finite number")),
            }
        })
        .collect()
}

/// `a < b` for two flags that bound a band (`--beta-slow` below `--beta-fast`, …).
pub fn below(low_flag: &str, low: f64, high_flag: &str, high: f64) -> Checked<()> {
    if low < high {
        Ok(())
    } else {
        Err(format!(
            "--{low_flag} {low} must be below --{high_flag} {high}"
        ))
    }
}

/// T5's `max_distance` above its `max_exact` (`num_buckets/4` bidirectional, `num_buckets/2`
/// causal), where the log buckets start: returns `max_exact`.
pub fn t5_max_distance(
    num_buckets: usize,
    max_distance: usize,
    bidirectional: bool,
) -> Checked<usize> {
    let buckets = if bidirectional {
        num_buckets / 2
    } else {
        num_buckets
    };
    let max_exact = buckets / 2;
    if max_distance > max_exact {
        Ok(max_exact)
    } else {
        let kind = if bidirectional {
            "bidirectional"
        } else {
            "causal"
        };
        Err(format!(
            "--max-distance {max_distance} must be above max_exact {max_exact} (--num-buckets {num_buckets}, {kind}), where the log buckets start"
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_are_inclusive_and_reject_non_finite() {
        assert_eq!(int("n", 1usize, (1, 3)), Ok(1));
        assert_eq!(int("n", 3usize, (1, 3)), Ok(3));
        assert!(int("n", 4usize, (1, 3)).is_err());
        assert_eq!(real("x", 2.0, (2.0, 3.0)), Ok(2.0));
        for bad in [f64::NAN, f64::INFINITY, f64::NEG_INFINITY, 3.5] {
            assert!(real("x", bad, (2.0, 3.0)).is_err(), "{bad}");
        }
    }

    #[test]
    fn numbers_read_well() {
        assert_eq!(number(2.0), "2");
        assert_eq!(number(1e6), "1e6");
        assert_eq!(number(-1e100), "-1e100");
        assert_eq!(number(1e-3), "1e-3");
        assert_eq!(number(f64::NAN), "NaN");
        assert_eq!(real_range((2.0, 1e6)), "2..=1e6");
    }

    #[test]
    fn lists_parse_and_check_each_entry() {
        assert_eq!(
            list("q", "1, -2.5,3e2", (-1e3, 1e3)),
            Ok(vec![1.0, -2.5, 300.0])
        );
        assert!(list("q", "1,,2", (-1e3, 1e3)).is_err());
        assert!(list("q", "1,nan", (-1e3, 1e3)).is_err());
        assert!(list("q", "1,1e4", (-1e3, 1e3)).is_err());
    }

    #[test]
    fn even_dim_and_band_checks() {
        assert_eq!(even_dim(8), Ok(8));
        assert!(even_dim(7).is_err());
        assert!(even_dim(0).is_err());
        assert!(below("a", 1.0, "b", 2.0).is_ok());
        assert!(below("a", 2.0, "b", 2.0).is_err());
    }

    #[test]
    fn t5_max_distance_is_above_max_exact() {
        assert_eq!(t5_max_distance(32, 128, true), Ok(8));
        assert_eq!(t5_max_distance(32, 9, true), Ok(8));
        assert!(t5_max_distance(32, 8, true).is_err());
        assert_eq!(t5_max_distance(32, 17, false), Ok(16));
        assert_eq!(
            t5_max_distance(32, 16, false),
            Err("--max-distance 16 must be above max_exact 16 (--num-buckets 32, causal), where the log buckets start".to_string())
        );
    }

    #[test]
    fn rotary_dim_is_even_and_at_most_the_head() {
        assert_eq!(rotary_dim(2, 8), Ok(2));
        assert_eq!(rotary_dim(8, 8), Ok(8));
        assert!(rotary_dim(0, 8).is_err());
        assert!(rotary_dim(5, 8).is_err());
        assert!(rotary_dim(10, 8).is_err());
        assert_eq!(
            rotary_dim(10, 8),
            Err("--rotary-dim 10 is out of range 2..=8".to_string())
        );
    }
}
