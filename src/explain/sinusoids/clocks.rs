//! Whether the clock hands (the complete pairs) tell the positions shown apart ([`Readings`]).

use std::fmt;

use super::full_pairs;
use crate::explain::{count, wrapped_degrees};
use crate::math::sinusoidal::SinusoidalParams;
use crate::params::format_significant;

/// The two readings of the clock hands (the complete pairs) most alike among the positions
/// shown: positions `distance` apart, whose hands differ by at most `degrees` (the largest
/// angle between the two readings of any one hand). A shift by k turns every hand by k·ω_i, so
/// this depends only on the distance.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Nearest {
    pub distance: usize,
    pub degrees: f64,
}

/// [`Nearest`] over the positions shown; `None` for a single position.
pub fn nearest_readings(p: &SinusoidalParams) -> Option<Nearest> {
    let omegas: Vec<f64> = (0..full_pairs(p)).map(|i| p.pair_omega(i)).collect();
    let mut best: Option<Nearest> = None;
    for k in 1..p.positions {
        let bound = best.map_or(f64::INFINITY, |b| b.degrees);
        let mut widest = 0.0_f64;
        for &w in &omegas {
            widest = widest.max(wrapped_degrees(k as f64 * w));
            if widest >= bound {
                break;
            }
        }
        if widest < bound {
            best = Some(Nearest {
                distance: k,
                degrees: widest,
            });
        }
    }
    best
}

/// Below this many degrees, two readings of a hand look the same on a clock face.
pub const ALIKE_DEGREES: f64 = 1.0;

/// Whether the hands tell the positions shown apart (the clocks' caption, the bridge before
/// them, the heatmap's text alternative).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Readings {
    /// One position: nothing to tell apart.
    One,
    /// Every two readings differ by at least [`ALIKE_DEGREES`] on some hand.
    Apart { nearest: Nearest },
    /// Two positions `nearest.distance` apart read almost alike; `one_pair` when d has a single
    /// (sin, cos) pair.
    Alike { nearest: Nearest, one_pair: bool },
}

/// [`Readings`] of the positions shown.
pub fn readings(p: &SinusoidalParams) -> Readings {
    match nearest_readings(p) {
        None => Readings::One,
        Some(nearest) if nearest.degrees >= ALIKE_DEGREES => Readings::Apart { nearest },
        Some(nearest) => Readings::Alike {
            nearest,
            one_pair: full_pairs(p) == 1,
        },
    }
}

impl fmt::Display for Readings {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match *self {
            Readings::One => write!(f, "with one position shown there is nothing to tell apart"),
            Readings::Apart { nearest } => write!(
                f,
                "together the hands tell every position shown apart: the two readings most alike, \
                 {} apart, still differ by {:.1}° on some hand",
                count(nearest.distance, "position", "positions"),
                nearest.degrees
            ),
            Readings::Alike { nearest, one_pair } => write!(
                f,
                "yet positions {} apart read almost alike: no hand differs by more than {}°{}",
                nearest.distance,
                format_significant(nearest.degrees, 2),
                if one_pair {
                    " — one pair cannot separate them; a larger d_model adds hands"
                } else {
                    ""
                }
            ),
        }
    }
}
