//! DroPE (fig-tab-drope): what each rotation does to the weight of a key that matches the query
//! in content, as that key moves back past the trained length, read off the figure's own curves
//! ([`crate::math::drope::curves`]).

use std::fmt;

use crate::math::drope::Curves;
use crate::params::format_significant;

/// A softmax weight as the page writes it: three significant digits, or more decimals where
/// fewer would print it as 1 or as one half when it is neither (0.99985 is not "1", 0.49996 not
/// "0.500"), so the number agrees with the sentence around it.
pub fn weight_text(w: f64) -> String {
    if w < 0.4 {
        return format_significant(w, 3);
    }
    (3..=15)
        .map(|k| format!("{w:.k$}"))
        .find(|s| {
            let printed: f64 = s.parse().unwrap_or(w);
            (printed < 1.0 || w >= 1.0)
                && ((printed > 0.5) == (w > 0.5))
                && ((printed < 0.5) == (w < 0.5))
        })
        .unwrap_or_else(|| format!("{w}"))
}

/// Where one rotation's curve gives the matching key most of the attention.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Majority {
    /// The weight at the nearest sampled distance, `N + 1`.
    pub nearest: f64,
    /// The first sampled distance at which the weight is below one half, if any.
    pub first_below: Option<usize>,
    /// Of the sampled distances past L₀: how many give more than one half.
    pub past_above: usize,
    /// How many sampled distances lie past L₀.
    pub past: usize,
    /// The largest weight past L₀.
    pub past_max: f64,
}

impl Majority {
    /// Reads `weights` over `distance` (as in [`Curves`]) against the trained length `trained`.
    pub fn of(distance: &[usize], weights: &[f64], trained: usize) -> Majority {
        let first_below = distance
            .iter()
            .zip(weights)
            .find(|(_, w)| **w < 0.5)
            .map(|(t, _)| *t);
        let past: Vec<f64> = distance
            .iter()
            .zip(weights)
            .filter(|(t, _)| **t > trained)
            .map(|(_, w)| *w)
            .collect();
        Majority {
            nearest: weights.first().copied().unwrap_or(0.0),
            first_below,
            past_above: past.iter().filter(|w| **w > 0.5).count(),
            past: past.len(),
            past_max: past.iter().copied().fold(0.0, f64::max),
        }
    }
}

/// The figure's finding over the three curves.
#[derive(Clone, Debug, PartialEq)]
pub struct DropeFinding {
    /// The first sampled distance, `N + 1`.
    pub nearest: usize,
    /// The distractors `N`.
    pub distractors: usize,
    /// The trained length L₀.
    pub trained: usize,
    /// YaRN's factor `T/L₀`.
    pub factor: usize,
    /// Plain RoPE's curve, read.
    pub rope: Majority,
    /// YaRN's curve, read.
    pub yarn: Majority,
    /// The weight with no rotation (the same at every distance).
    pub none: f64,
}

impl DropeFinding {
    /// The finding for `curves` (`N` distractors, trained length `trained`, `T = factor·L₀`).
    pub fn new(curves: &Curves, distractors: usize, trained: usize, factor: usize) -> DropeFinding {
        let read = |w: &[f64]| Majority::of(&curves.distance, w, trained);
        DropeFinding {
            nearest: curves.distance.first().copied().unwrap_or(distractors + 1),
            distractors,
            trained,
            factor,
            rope: read(&curves.rope),
            yarn: read(&curves.yarn),
            none: curves.none.first().copied().unwrap_or(0.0),
        }
    }

    /// One rotation's sentence.
    fn rotation(&self, name: &str, m: &Majority) -> String {
        let start = format!(
            "{name} the matching key takes {} of the attention at distance {}",
            weight_text(m.nearest),
            self.nearest
        );
        let fall = match m.first_below {
            Some(t) if t == self.nearest => ", already less than half".to_string(),
            Some(t) => format!(
                ", and first less than half at distance {t} ({} L₀ = {})",
                if t > self.trained { "past" } else { "inside" },
                self.trained
            ),
            None => ", and more than half at every sampled distance up to T".to_string(),
        };
        let past = if m.past_above == m.past {
            format!(
                "past L₀ it has the majority at all {} sampled distances",
                m.past
            )
        } else if m.past_above == 0 {
            format!(
                "past L₀ it has the majority at none of the {} sampled distances (at most {})",
                m.past,
                weight_text(m.past_max)
            )
        } else {
            format!(
                "past L₀ it has the majority at {} of the {} sampled distances",
                m.past_above, m.past
            )
        };
        format!("{start}{fall}; {past}.")
    }
}

impl fmt::Display for DropeFinding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let share = if self.none > 0.5 {
            "more than half"
        } else if self.none < 0.5 {
            "less than half"
        } else {
            "exactly half"
        };
        write!(
            f,
            "{} {} Without rotation (DroPE) it takes {} at every distance, {share}: the score \
             reads content alone, so where the key is changes nothing. (With no preference at \
             all, each of the {} keys would get 1/{} = {}.)",
            self.rotation("Under RoPE", &self.rope),
            self.rotation(
                &format!("Under YaRN (factor s = T/L₀ = {})", self.factor),
                &self.yarn
            ),
            weight_text(self.none),
            self.distractors + 1,
            self.distractors + 1,
            format_significant(1.0 / (self.distractors + 1) as f64, 3)
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::drope::curves;

    #[test]
    fn weights_print_on_the_side_of_one_half_and_one_they_are_on() {
        assert_eq!(weight_text(0.99996), "0.99996");
        assert_eq!(weight_text(0.49996), "0.49996");
        assert_eq!(weight_text(0.50004), "0.50004");
        assert_eq!(weight_text(0.5), "0.500");
        assert_eq!(weight_text(0.75), "0.750");
        assert_eq!(weight_text(0.0123), "0.0123");
    }

    /// Every claim of the finding, recomputed from the curves by brute force, over settings
    /// from head_dim 2 to 256, bases 2 to 10⁶ and both ends of the lengths.
    #[test]
    fn the_finding_says_what_the_curves_show() {
        for (d, base, trained, factor, n, seed) in [
            (128, 10_000.0, 4096, 8, 16, 0),
            (2, 2.0, 1024, 2, 1, 1),
            (2, 1.0e6, 1024, 16, 512, 2),
            (256, 500_000.0, 8192, 4, 64, 3),
            (16, 10_000.0, 1024, 2, 512, 4),
        ] {
            let c = curves(d, base, trained, trained * factor, n, seed);
            let f = DropeFinding::new(&c, n, trained, factor);
            let text = f.to_string();
            assert_eq!(f.nearest, n + 1);
            for (m, w) in [(f.rope, &c.rope), (f.yarn, &c.yarn)] {
                let below = c.distance.iter().zip(w).find(|(_, w)| **w < 0.5);
                assert_eq!(m.first_below, below.map(|(t, _)| *t));
                let past: Vec<f64> = c
                    .distance
                    .iter()
                    .zip(w)
                    .filter(|(t, _)| **t > trained)
                    .map(|(_, w)| *w)
                    .collect();
                assert!(!past.is_empty(), "T itself is past L₀");
                assert_eq!(m.past, past.len());
                assert_eq!(m.past_above, past.iter().filter(|w| **w > 0.5).count());
            }
            assert!(text.contains(&format!("1/{} =", n + 1)), "{text}");
            assert!(text.contains(&weight_text(c.none[0])), "{text}");
        }
    }
}
