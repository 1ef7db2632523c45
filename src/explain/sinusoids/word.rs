//! What moving a word does to its vector, said from the change of every group of pairs
//! ([`WordMove`]).

use std::fmt;

use crate::explain::count;
use crate::math::sinusoidal::{Column, SinusoidalParams};

/// Mean of |v| over the columns of each quarter of the frequency pairs, fastest first (pair `i`'s
/// columns, wherever the layout puts them, count for quarter `⌊4i/pairs⌋`; zero padding counts
/// for none) — or of each pair when there are fewer than four. The same for both layouts.
pub fn pair_groups(p: &SinusoidalParams, v: &[f64]) -> Vec<f64> {
    let pairs = p.pairs().max(1);
    let groups = pairs.min(4);
    let (mut sum, mut count) = (vec![0.0; groups], vec![0usize; groups]);
    for (c, x) in v.iter().enumerate() {
        if let Column::Sin(i) | Column::Cos(i) = p.column(c) {
            let g = (groups * i / pairs).min(groups - 1);
            sum[g] += x.abs();
            count[g] += 1;
        }
    }
    sum.iter()
        .zip(&count)
        .map(|(s, &n)| if n > 0 { s / n as f64 } else { 0.0 })
        .collect()
}

/// "quarter of the pairs" or "pair", as [`pair_groups`] groups them.
pub fn group_name(p: &SinusoidalParams) -> &'static str {
    if p.pairs() >= 4 {
        "quarter of the pairs"
    } else {
        "pair"
    }
}

/// Mean absolute change of a word's columns per group of pairs, fastest first, as the token
/// figure groups them: what moving the word does, said from those numbers (every group's, not
/// only the ends').
#[derive(Debug, Clone, PartialEq)]
pub enum WordMove {
    /// p₂ = p₀: nothing moved.
    Still,
    /// One group (fewer than two pairs): nothing to compare.
    OneGroup { moved: usize, mean: f64 },
    /// Every group moved little (under [`WordMove::SMALL`]).
    Little {
        moved: usize,
        slow: f64,
        fast: f64,
        group: &'static str,
    },
    /// The fastest group moved most, and the slowest less than a quarter of it.
    FastOnly {
        moved: usize,
        slow: f64,
        fast: f64,
        group: &'static str,
    },
    /// A group between the ends moved most (`at`: its index, 0 = fastest).
    Middle {
        moved: usize,
        at: usize,
        most: f64,
        slow: f64,
        fast: f64,
        group: &'static str,
    },
    /// An end group moved most, and the slowest at least a quarter of the fastest.
    SlowToo {
        moved: usize,
        slow: f64,
        fast: f64,
        group: &'static str,
    },
}

impl WordMove {
    /// A mean change below this reads as "barely moved" (the columns range over −1 … 1).
    pub const SMALL: f64 = 0.05;

    /// Decides from the groups' means (fastest first), the distance moved and the group's name.
    pub fn from_groups(moved: usize, groups: &[f64], group: &'static str) -> WordMove {
        let (fast, slow) = (
            groups.first().copied().unwrap_or(0.0),
            groups.last().copied().unwrap_or(0.0),
        );
        let (at, most) =
            groups
                .iter()
                .copied()
                .enumerate()
                .fold(
                    (0, f64::NEG_INFINITY),
                    |(i, m), (j, v)| if v > m { (j, v) } else { (i, m) },
                );
        if moved == 0 {
            WordMove::Still
        } else if groups.len() < 2 {
            WordMove::OneGroup { moved, mean: fast }
        } else if most < Self::SMALL {
            WordMove::Little {
                moved,
                slow,
                fast,
                group,
            }
        } else if at == 0 && slow < fast / 4.0 {
            WordMove::FastOnly {
                moved,
                slow,
                fast,
                group,
            }
        } else if at == 0 || at + 1 == groups.len() {
            WordMove::SlowToo {
                moved,
                slow,
                fast,
                group,
            }
        } else {
            WordMove::Middle {
                moved,
                at,
                most,
                slow,
                fast,
                group,
            }
        }
    }
}

/// "1st", "2nd", "3rd", "4th" … (the groups number at most four).
fn ordinal(n: usize) -> String {
    let suffix = match (n % 10, n % 100) {
        (1, x) if x != 11 => "st",
        (2, x) if x != 12 => "nd",
        (3, x) if x != 13 => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}

/// A mean change with enough digits to be true: "0.88", or "3.0e-5" where two decimals would
/// print 0.00.
fn mean_text(x: f64) -> String {
    if x != 0.0 && x.abs() < 0.005 {
        format!("{x:.1e}")
    } else {
        format!("{x:.2}")
    }
}

impl fmt::Display for WordMove {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match *self {
            WordMove::Still => write!(f, "Put p₂ away from p₀ to move the word."),
            WordMove::OneGroup { moved, mean } => write!(
                f,
                "Moving the word by {} changes its one pair by {} on average.",
                count(moved, "position", "positions"),
                mean_text(mean)
            ),
            WordMove::FastOnly {
                moved,
                slow,
                fast,
                group,
            } => write!(
                f,
                "Moving the word by {} changes mostly the fast pairs: the slowest {group} moves \
                 {} on average against {} for the fastest. One reading — an interpretation, not \
                 something the encoding forces — is that a model can keep what a word means in \
                 those quiet dimensions.",
                count(moved, "position", "positions"),
                mean_text(slow),
                mean_text(fast)
            ),
            WordMove::Little {
                moved,
                slow,
                fast,
                group,
            } => write!(
                f,
                "Moving the word by {} barely changes it: the slowest {group} moves {} on average \
                 and the fastest {} (the columns run from −1 to 1).",
                count(moved, "position", "positions"),
                mean_text(slow),
                mean_text(fast)
            ),
            WordMove::Middle {
                moved,
                at,
                most,
                slow,
                fast,
                group,
            } => write!(
                f,
                "Moving the word by {} changes the {} {group} from the fastest most, by {} on \
                 average, against {} for the fastest and {} for the slowest.",
                count(moved, "position", "positions"),
                ordinal(at + 1),
                mean_text(most),
                mean_text(fast),
                mean_text(slow)
            ),
            WordMove::SlowToo {
                moved,
                slow,
                fast,
                group,
            } => write!(
                f,
                "Moving the word by {} moves the slowest {group} by {} on average against {} for \
                 the fastest: over that distance the slow pairs move too, by at least a quarter \
                 as much as the fast ones.",
                count(moved, "position", "positions"),
                mean_text(slow),
                mean_text(fast)
            ),
        }
    }
}
