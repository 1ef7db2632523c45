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
    /// Of the sampled distances from L₀ on: how many give more than one half.
    pub past_above: usize,
    /// How many sampled distances are L₀ or more.
    pub past: usize,
    /// The largest weight at those.
    pub past_max: f64,
}

impl Majority {
    /// Reads `weights` over `distance` (as in [`Curves`]) against the trained length `trained`:
    /// a model trained on `L₀` tokens has seen distances up to `L₀ − 1` only.
    pub fn of(distance: &[usize], weights: &[f64], trained: usize) -> Majority {
        let first_below = distance
            .iter()
            .zip(weights)
            .find(|(_, w)| **w < 0.5)
            .map(|(t, _)| *t);
        let past: Vec<f64> = distance
            .iter()
            .zip(weights)
            .filter(|(t, _)| **t >= trained)
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

/// The last distance up to which every distance is sampled (the samples start at `N + 1` one
/// apart, then the step grows: see [`crate::math::drope::distances`]).
pub fn every_distance_until(distance: &[usize]) -> usize {
    let first = distance.first().copied().unwrap_or(0);
    distance
        .iter()
        .enumerate()
        .take_while(|(k, t)| **t == first + k)
        .last()
        .map_or(first, |(_, t)| *t)
}

/// The figure's finding over the three curves.
#[derive(Clone, Debug, PartialEq)]
pub struct DropeFinding {
    /// The first sampled distance, `N + 1`.
    pub nearest: usize,
    /// The last distance up to which every distance is sampled.
    pub dense_until: usize,
    /// The last sampled distance, `T`.
    pub target: usize,
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
            dense_until: every_distance_until(&curves.distance),
            target: curves.distance.last().copied().unwrap_or(trained * factor),
            distractors,
            trained,
            factor,
            rope: read(&curves.rope),
            yarn: read(&curves.yarn),
            none: curves.none.first().copied().unwrap_or(0.0),
        }
    }

    /// "below L₀ = 4096" or "at or past L₀ = 4096".
    fn side(&self, t: usize) -> String {
        if t < self.trained {
            format!("below L₀ = {}", self.trained)
        } else {
            format!("at or past L₀ = {}", self.trained)
        }
    }

    /// One rotation's sentence. Where the samples are a step apart the weight between them is
    /// unknown (the fastest pair turns up to a radian per position), so what is said of them
    /// says "sampled".
    fn rotation(&self, name: &str, m: &Majority) -> String {
        let start = format!(
            "{name} the matching key takes {} of the attention at distance {}",
            weight_text(m.nearest),
            self.nearest
        );
        let every = self.dense_until == self.target;
        let fall = match m.first_below {
            Some(t) if t == self.nearest => ", already less than half".to_string(),
            Some(t) if t <= self.dense_until => format!(
                ", and first less than half at distance {t} ({})",
                self.side(t)
            ),
            Some(t) => format!(
                ", at least half at every distance up to {}, and first less than half at a \
                 sampled distance at {t} ({}; between samples it may drop sooner)",
                self.dense_until,
                self.side(t)
            ),
            None if every => ", and at least half at every distance up to T".to_string(),
            None => format!(
                ", and at least half at every distance up to {} and at every sampled distance \
                 beyond, up to T",
                self.dense_until
            ),
        };
        let sampled = if every { "" } else { "sampled " };
        let past = if m.past_above == m.past {
            format!(
                "from L₀ on it has the majority at all {} {sampled}distances",
                m.past
            )
        } else if m.past_above == 0 {
            format!(
                "from L₀ on it has the majority at none of the {} {sampled}distances (at most {})",
                m.past,
                weight_text(m.past_max)
            )
        } else {
            format!(
                "from L₀ on it has the majority at {} of the {} {sampled}distances",
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
    /// from head_dim 2 to 256, bases 2 to 10⁶ (and to 10⁷ in the property sweep) and both ends of the lengths.
    #[test]
    fn the_finding_says_what_the_curves_show() {
        for (d, base, trained, factor, n, seed) in [
            (128, 10_000.0, 4096, 8, 16, 0),
            (2, 2.0, 1024, 2, 1, 1),
            (2, 1.0e6, 1024, 16, 512, 2),
            (256, 500_000.0, 8192, 4, 64, 3),
            (16, 10_000.0, 1024, 2, 512, 4),
            // The second read's W1: the first sampled drop lies far past the first true one.
            (256, 1.0e6, 65_536, 16, 1, 0),
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
                    .filter(|(t, _)| **t >= trained)
                    .map(|(_, w)| *w)
                    .collect();
                assert!(!past.is_empty(), "T itself is past L₀");
                assert_eq!(m.past, past.len());
                assert_eq!(m.past_above, past.iter().filter(|w| **w > 0.5).count());
            }
            assert!(text.contains(&format!("1/{} =", n + 1)), "{text}");
            // A first drop named as exact is the first at every distance: RoPE's curve does not
            // depend on T, so one sampled up to that distance (under 2048 of them) has them all.
            if let Some(t) = f.rope.first_below.filter(|t| *t <= f.dense_until) {
                if t == n + 1 {
                    assert!(text.contains("already less than half"), "{text}");
                } else {
                    assert!(text.contains(&format!("first less than half at distance {t} (")));
                }
                let all = curves(d, base, 1, t, n, seed);
                let first = all.distance.iter().zip(&all.rope).find(|(_, w)| **w < 0.5);
                assert_eq!(first.map(|(t, _)| *t), Some(t), "{text}");
            }
            assert!(text.contains(&weight_text(c.none[0])), "{text}");
        }
    }
}
