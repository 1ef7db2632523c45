//! How far the encoding's components turn over the positions shown: the waves bridge's verdict on
//! the base ([`SlowestTurn`]) and the chapter's closing sentence ([`Unfinished`]).

use std::f64::consts::TAU;
use std::fmt;

use super::{full_pairs, lone_sine};
use crate::explain::count;
use crate::math::sinusoidal::SinusoidalParams;
use crate::params::{format_number, format_significant, round_significant};

/// "1 position" or "100 positions", for "over the … shown".
fn positions_text(n: usize) -> String {
    count(n, "position", "positions")
}

/// A share of a turn below 1, truncated (never rounded up to a whole turn) to two significant
/// digits: 0.9996 → "0.99", 0.0342 → "0.034".
fn share_below_one(t: f64) -> String {
    let decimals = (-t.log10()).ceil() as i32 + 1;
    let scale = 10f64.powi(decimals);
    format!(
        "{:.*}",
        decimals.max(0) as usize,
        (t * scale).floor() / scale
    )
}

/// How far something turns: "does not turn at all", "turns only 0.034 of a circle", "turns 16 times".
fn turns_phrase(t: f64) -> String {
    if t <= 0.0 {
        "does not turn at all".to_string()
    } else if t < 1.0 {
        format!("turns only {} of a circle", share_below_one(t))
    } else {
        format!("turns {} times", format_significant(t, 2))
    }
}

/// How far the slowest component of the encoding turns over the positions shown, and what the
/// base has to do with it (the waves bridge).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum SlowestTurn {
    /// A single frequency (d = 2, or d = 3 with tensor2tensor's spacing): its ω is base⁰ = 1, so
    /// the base sets nothing.
    OnePair { positions: usize, turns: f64 },
    /// The slowest component stays under one turn.
    Partial {
        positions: usize,
        wavelength: f64,
        turns: f64,
    },
    /// Even the slowest turns at least once: a larger base would slow it.
    Whole {
        positions: usize,
        wavelength: f64,
        turns: f64,
    },
}

/// The slowest component's turns over the positions shown: `(n − 1)·ω/2π`.
pub fn slowest_turn(p: &SinusoidalParams) -> SlowestTurn {
    let omega = p.pair_omega(p.pairs() - 1);
    let positions = p.positions;
    let turns = positions.saturating_sub(1) as f64 * omega / TAU;
    let wavelength = TAU / omega;
    if p.pairs() == 1 {
        SlowestTurn::OnePair { positions, turns }
    } else if turns < 1.0 {
        SlowestTurn::Partial {
            positions,
            wavelength,
            turns,
        }
    } else {
        SlowestTurn::Whole {
            positions,
            wavelength,
            turns,
        }
    }
}

impl fmt::Display for SlowestTurn {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        let wavelength = |w: f64| format_number(round_significant(w, 5));
        match *self {
            SlowestTurn::OnePair { positions, turns } => write!(
                f,
                "2π ≈ 6.2832 for the one pair at every base, since its ω is base⁰ = 1: the base \
                 sets nothing here, and over the {} shown the pair {}. Only a larger d_model adds \
                 slower pairs.",
                positions_text(positions),
                turns_phrase(turns)
            ),
            SlowestTurn::Partial {
                positions,
                wavelength: w,
                turns,
            } => write!(
                f,
                "from 2π ≈ 6.3 for the fastest to {} for the slowest. The base sets that slowest \
                 wavelength, so it should exceed the longest context: over the {} shown the \
                 slowest one {}.",
                wavelength(w),
                positions_text(positions),
                turns_phrase(turns)
            ),
            SlowestTurn::Whole {
                positions,
                wavelength: w,
                turns,
            } => write!(
                f,
                "from 2π ≈ 6.3 for the fastest to {} for the slowest. The base sets that slowest \
                 wavelength, so it should exceed the longest context: here even the slowest one \
                 {} over the {} shown — this base is too small for this many positions.",
                wavelength(w),
                turns_phrase(turns),
                positions_text(positions)
            ),
        }
    }
}

/// Over the positions shown, the components that never complete a turn (the chapter's last
/// sentence): `slow` of the `pairs` complete pairs, and whether the lone sine of an odd d
/// (paper spacing) is among them (`None`: there is none).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Unfinished {
    pub positions: usize,
    pub slow: usize,
    pub pairs: usize,
    pub lone_slow: Option<bool>,
}

/// Which components fail to complete a turn, `(n − 1)·ω < 2π`, over the positions shown.
pub fn unfinished(p: &SinusoidalParams) -> Unfinished {
    let last = p.positions.saturating_sub(1) as f64;
    let short = |k: usize| last * p.pair_omega(k) < TAU;
    let pairs = full_pairs(p);
    Unfinished {
        positions: p.positions,
        slow: (0..pairs).filter(|&k| short(k)).count(),
        pairs,
        lone_slow: lone_sine(p).map(|_| short(pairs)),
    }
}

impl fmt::Display for Unfinished {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        let shown = positions_text(self.positions);
        let every = if self.pairs == 1 {
            "the one pair completes a turn"
        } else {
            "every pair completes a turn"
        };
        match (self.slow, self.lone_slow) {
            (0, Some(true)) => write!(
                f,
                "Over the {shown} shown {every}, but the lone sine does not: longer inputs show \
                 it angles it never saw."
            ),
            (0, None) if self.pairs == 1 => write!(
                f,
                "Over the {shown} shown {every}; longer inputs only take it round the same \
                 circle again."
            ),
            (0, lone) => write!(
                f,
                "Over the {shown} shown {every}{}; longer inputs bring only new combinations of \
                 angles.",
                if lone.is_some() {
                    ", and so does the lone sine"
                } else {
                    ""
                }
            ),
            (slow, lone) => {
                let lone = lone == Some(true);
                let (verb, them) = if slow == 1 && !lone {
                    ("completes", "it angles it")
                } else {
                    ("complete", "them angles they")
                };
                write!(
                    f,
                    "Over the {shown} shown, {slow} of the {}{} never {verb} a turn: longer inputs \
                     show {them} never saw.",
                    count(self.pairs, "pair", "pairs"),
                    if lone { " and the lone sine" } else { "" }
                )
            }
        }
    }
}
