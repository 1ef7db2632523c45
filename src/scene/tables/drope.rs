//! fig-tab-drope: the weight of a key that matches the query in content, against its distance
//! on a logarithmic axis, under plain RoPE, YaRN and no rotation ([`crate::math::drope`]), with
//! the distances past the trained length shaded.

use super::super::{Height, Panel};
use super::lines;
use crate::chart::lines::{Corner, Extras, Fill, LinePlotSpec, Series, series_color};
use crate::chart::theme::Theme;
use crate::explain::tables::every_distance_until;
use crate::math::drope::{self, Curves};
use crate::params::Views;

/// The plot's height.
pub fn drope_height(width: f64) -> f64 {
    (width * 0.5).clamp(300.0, 380.0)
}

/// The series' names, in the order of [`drope_spec`]'s series (the legend's, the CSV's).
pub fn drope_series_names(factor: usize) -> [String; 3] {
    [
        "RoPE".to_string(),
        format!("YaRN (s = {factor})"),
        "no rotation (DroPE)".to_string(),
    ]
}

/// The plot of `c` for `N = distractors`, trained length `trained` and `T = factor·L₀`; the
/// sampled distance `at` (an index into `c.distance`) marked.
pub fn drope_spec(
    c: &Curves,
    distractors: usize,
    (trained, factor): (usize, usize),
    at: Option<usize>,
    theme: Theme,
) -> (LinePlotSpec, Extras) {
    let x = |t: usize| (t as f64).log10();
    let first = c.distance.first().copied().unwrap_or(distractors + 1);
    let last = c.distance.last().copied().unwrap_or(trained * factor);
    let curve = |w: &[f64]| -> Vec<(f64, f64)> {
        c.distance.iter().zip(w).map(|(&t, &w)| (x(t), w)).collect()
    };
    let names = drope_series_names(factor);
    // Where every distance is sampled the curve is a line; beyond, the samples are a step apart
    // and the weight between them unknown (the fastest pair turns up to a radian per position),
    // so they are dots, not joined (a line would claim the values between).
    let dense = c
        .distance
        .partition_point(|&t| t <= every_distance_until(&c.distance));
    let mut series = Vec::new();
    for (k, (w, label)) in [&c.rope, &c.yarn, &c.none]
        .into_iter()
        .zip(names)
        .enumerate()
    {
        let points = curve(w);
        // No rotation is one value everywhere: a line is exact.
        let split = if k == 2 { points.len() } else { dense };
        let (joined, apart) = points.split_at(split);
        series.push(Series {
            label,
            color: series_color(k),
            points: joined.to_vec(),
            dots: false,
            line: true,
        });
        if !apart.is_empty() {
            series.push(Series {
                label: String::new(),
                color: series_color(k),
                points: apart.to_vec(),
                dots: true,
                line: false,
            });
        }
    }
    let past = (x(trained.max(first)), x(last));
    let top = weight_axis_top(c);
    let hlines = drope_reference_lines(distractors, top);
    let extras = Extras {
        fills: vec![Fill {
            label: "past L₀ (never trained)".into(),
            color: series_color(4),
            lower: vec![(past.0, 0.0), (past.1, 0.0)],
            upper: vec![(past.0, top), (past.1, top)],
        }],
        hlines,
        x_log: true,
        legend: Corner::BottomLeft,
        ..Extras::default()
    };
    let spec = LinePlotSpec {
        title: "The matching key's weight, by distance".into(),
        x_desc: "distance of the matching key",
        y_desc: "softmax weight",
        x_range: x(first)..x(last).max(x(first) + 0.1),
        y_range: 0.0..top,
        series,
        marker: at
            .and_then(|k| c.distance.get(k))
            .map(|&t| (x(t), format!("distance {t}"))),
        theme,
    };
    (spec, extras)
}

/// The dashed reference lines drawn on an axis up to `top`: one half, and no preference
/// `1/(N + 1)` (one line when `N = 1`, where they coincide), each only when on the axis.
pub fn drope_reference_lines(distractors: usize, top: f64) -> Vec<(f64, String)> {
    let lines = if distractors == 1 {
        vec![(0.5, "half = no preference, 1/2".to_string())]
    } else {
        vec![
            (0.5, "half".to_string()),
            (
                1.0 / (distractors + 1) as f64,
                format!("no preference, 1/{}", distractors + 1),
            ),
        ]
    };
    lines.into_iter().filter(|(y, _)| *y <= top).collect()
}

/// The top of the weight axis: 1 when some weight reaches one half, else the first of 0.5, 0.2,
/// 0.1, 0.05, 0.02, 0.01, 0.005 at or above every weight (0.005 at least: the axis's ticks have
/// three decimals), so small weights are not a flat line on the axis.
pub fn weight_axis_top(c: &Curves) -> f64 {
    let max = c
        .rope
        .iter()
        .chain(&c.yarn)
        .chain(&c.none)
        .copied()
        .fold(0.0, f64::max);
    if max >= 0.5 {
        return 1.0;
    }
    [0.5, 0.2, 0.1, 0.05, 0.02, 0.01, 0.005]
        .into_iter()
        .take_while(|top| *top >= max)
        .last()
        .unwrap_or(0.5)
}

/// fig-tab-drope: the three curves.
pub fn drope(v: &Views, theme: Theme) -> Vec<(Panel, Height)> {
    let t = &v.tables;
    let c = drope::curves(
        t.drope_dim,
        t.drope_base,
        t.drope_trained,
        t.drope_target(),
        t.drope_distractors,
        t.drope_seed,
    );
    let spec = drope_spec(
        &c,
        t.drope_distractors,
        (t.drope_trained, t.drope_factor),
        None,
        theme,
    );
    vec![lines(spec, Height::Rule(drope_height))]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_weight_axis_holds_every_weight_and_no_more_than_needed() {
        let with = |w: f64| Curves {
            distance: vec![5],
            rope: vec![w],
            yarn: vec![w / 2.0],
            none: vec![w / 3.0],
        };
        assert_eq!(weight_axis_top(&with(0.7)), 1.0);
        assert_eq!(weight_axis_top(&with(0.5)), 1.0);
        assert_eq!(weight_axis_top(&with(0.3)), 0.5);
        assert_eq!(weight_axis_top(&with(0.2)), 0.2);
        assert_eq!(weight_axis_top(&with(0.013)), 0.02);
        assert_eq!(weight_axis_top(&with(0.004)), 0.005);
        assert_eq!(weight_axis_top(&with(1e-9)), 0.005);
    }
}
