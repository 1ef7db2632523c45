//! Chapter 2, "Rotations: RoPE": the sentences that depend on the settings. The score caption's
//! verdict on decay ([`ScoreTrend`], from the score curve and RoFormer's bound the figure draws)
//! and the same-angle figure's verdict ([`AngleVerdict`], from the two angles it reads).

use std::fmt;

use super::{count, wrapped_degrees};

/// What the score curve does over the distances shown, for the figure's q and k.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum ScoreTrend {
    /// Fewer than 8 distances: too few to speak of a trend.
    Short { n: usize },
    /// The score at distance 0 is (near) zero: nothing to fall from.
    StartsAtZero,
    /// Beyond distance `from` (= n/2) |score| stays within `far` (a share) of |score(0)|, at most
    /// one half; the bound has fallen to `bound_end` of its start at distance n − 1.
    Falls {
        from: usize,
        far: f64,
        bound_end: f64,
        pairs: usize,
    },
    /// Beyond distance `from` |score| still reaches `far` of |score(0)|, more than one half.
    Persists {
        from: usize,
        far: f64,
        bound_end: f64,
        pairs: usize,
    },
}

/// Decides [`ScoreTrend`] from the score at distances 0 … n − 1 (`g[r]`) and the bound there
/// (`bound[r]`); `pairs` = rotary_dim / 2.
pub fn score_trend(g: &[f64], bound: &[f64], pairs: usize) -> ScoreTrend {
    let n = g.len().min(bound.len());
    if n < 8 {
        return ScoreTrend::Short { n };
    }
    let start = g[0].abs();
    let largest = g.iter().fold(0.0_f64, |m, v| m.max(v.abs()));
    if start <= 1e-9 * largest.max(1e-300) {
        return ScoreTrend::StartsAtZero;
    }
    let from = n / 2;
    let far = g[from..n].iter().fold(0.0_f64, |m, v| m.max(v.abs())) / start;
    let bound_end = if bound[0] > 0.0 {
        bound[n - 1] / bound[0]
    } else {
        1.0
    };
    if far <= 0.5 {
        ScoreTrend::Falls {
            from,
            far,
            bound_end,
            pairs,
        }
    } else {
        ScoreTrend::Persists {
            from,
            far,
            bound_end,
            pairs,
        }
    }
}

/// A share as a percentage with the digits it needs: "46 %", "0.31 %".
fn percent(x: f64) -> String {
    crate::params::format_significant(100.0 * x, 2) + " %"
}

impl fmt::Display for ScoreTrend {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match *self {
            ScoreTrend::Short { n } => write!(
                f,
                "With {} there are too few distances to see a trend.",
                count(n, "position", "positions")
            ),
            ScoreTrend::StartsAtZero => write!(
                f,
                "Here q·k is 0 at distance 0, so there is no height to fall from; re-roll q and k."
            ),
            ScoreTrend::Falls {
                from,
                far,
                bound_end,
                pairs,
            } => write!(
                f,
                "Here the score falls: beyond distance {from} its size stays within {} of its value \
                 at distance 0, and the bound is down to {} of its start by the last distance shown \
                 ({}).",
                percent(far),
                percent(bound_end),
                count(pairs, "turning pair", "turning pairs")
            ),
            ScoreTrend::Persists {
                from,
                far,
                bound_end,
                pairs,
            } => write!(
                f,
                "Here the score does not stay below half its start: beyond distance {from} its \
                 size still reaches {} of its value at distance 0 (the bound is at {} of its start \
                 by the last distance shown; {}).",
                percent(far),
                percent(bound_end),
                count(pairs, "turning pair", "turning pairs")
            ),
        }
    }
}

/// What the same-angle figure finds for two sentences: the distances between the two words and
/// the angles between them (radians, any range), θ per position in degrees.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum AngleVerdict {
    /// A sentence lacks one of the words.
    Missing,
    /// The same distance: the angles agree to `gap` degrees, compared modulo 360°.
    SameDistance { distance: i64, gap: f64 },
    /// θ = 0: nothing turns, so every distance leaves the words at their own angle.
    NoTurn { d1: i64, d2: i64 },
    /// Different distances whose difference times θ is a whole, non-zero number of turns (to
    /// 1e-9°): one pair cannot tell them apart.
    Aliased { d1: i64, d2: i64, degrees: f64 },
    /// Different distances, different angles: they differ by (d1 − d2)·θ modulo 360°.
    Differ { d1: i64, d2: i64, by: f64 },
}

/// Decides [`AngleVerdict`]: `None` where a sentence lacks a word.
pub fn angle_verdict(
    first: Option<(i64, f64)>,
    second: Option<(i64, f64)>,
    theta_deg: f64,
) -> AngleVerdict {
    let (Some((d1, x)), Some((d2, y))) = (first, second) else {
        return AngleVerdict::Missing;
    };
    if d1 == d2 {
        return AngleVerdict::SameDistance {
            distance: d1,
            gap: wrapped_degrees(x - y),
        };
    }
    if theta_deg == 0.0 {
        return AngleVerdict::NoTurn { d1, d2 };
    }
    let total = (d1 - d2) as f64 * theta_deg;
    let by = total.rem_euclid(360.0);
    let off = by.min(360.0 - by);
    if off < 1e-9 {
        AngleVerdict::Aliased {
            d1,
            d2,
            degrees: (total / 360.0).round() * 360.0,
        }
    } else {
        AngleVerdict::Differ { d1, d2, by }
    }
}

/// A number after a minus sign: "3", or "(−3)" for a negative one.
fn signed(x: i64) -> String {
    if x < 0 {
        format!("(−{})", x.unsigned_abs())
    } else {
        x.to_string()
    }
}

/// A whole number of degrees with a true minus sign: "720", "−360".
fn minus(x: f64) -> String {
    let s = format!("{}", x.abs().round() as u64);
    if x < 0.0 { format!("−{s}") } else { s }
}

impl fmt::Display for AngleVerdict {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match *self {
            AngleVerdict::Missing => write!(
                f,
                "Put both words in both sentences to compare their angles."
            ),
            AngleVerdict::SameDistance { distance, gap } => write!(
                f,
                "Same distance ({distance}), same angle: the two angles agree to {:.0e}° (compared \
                 modulo 360°).",
                gap.max(1e-12)
            ),
            AngleVerdict::NoTurn { d1, d2 } => write!(
                f,
                "At θ = 0 nothing turns: at distance {d1}, {d2} or any other the two words keep \
                 the angle their own vectors make."
            ),
            AngleVerdict::Aliased { d1, d2, degrees } => write!(
                f,
                "The distances differ ({d1} and {d2}), yet the angles agree: ({d1} − {}) × θ = \
                 {}°, a whole number of turns. One turning pair cannot tell these distances \
                 apart — which is why RoPE turns many pairs, each at its own rate.",
                signed(d2),
                minus(degrees)
            ),
            AngleVerdict::Differ { d1, d2, by } => write!(
                f,
                "The distances differ ({d1} and {d2}), so the angles differ by ({d1} − {}) × θ \
                 = {by:.2}° (mod 360°).",
                signed(d2)
            ),
        }
    }
}
