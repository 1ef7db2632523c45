//! fig-models-yarn: YaRN's two factors over the scale factor s ([`crate::math::yarn_scale`]) —
//! the cos/sin amplitude, the softmax scale's factor, and what the two make of a rotated
//! coordinate's share of a logit — for the chosen layer's fields, s on a logarithmic axis.

use crate::chart::lines::{Corner, Extras, LinePlotSpec, Series, series_color};
use crate::chart::theme::Theme;
use crate::math::yarn_scale::YarnScale;

/// The factors drawn: `s` from 1 to [`top_factor`], this many points on a logarithmic axis.
const SAMPLES: usize = 161;

/// The largest factor drawn: 128, or twice the layer's when it is larger.
pub fn top_factor(y: &YarnScale) -> f64 {
    (2.0 * y.factor).max(128.0)
}

/// The factors drawn, ascending: [`SAMPLES`] from 1 to [`top_factor`] on a logarithmic axis,
/// and the layer's own.
pub fn factors(y: &YarnScale) -> Vec<f64> {
    let top = top_factor(y).ln();
    let mut s: Vec<f64> = (0..SAMPLES)
        .map(|k| (top * k as f64 / (SAMPLES - 1) as f64).exp())
        .collect();
    if y.factor >= 1.0 {
        s.push(y.factor);
    }
    s.sort_by(f64::total_cmp);
    s.dedup();
    s
}

/// The plot's height.
pub fn yarn_height(width: f64) -> f64 {
    (width * 0.45).clamp(300.0, 360.0)
}

/// fig-models-yarn for the layer's fields `y`, its factor marked (`marked`: another factor
/// marked instead, under the reader's cursor).
pub fn yarn_spec(y: &YarnScale, marked: Option<f64>, theme: Theme) -> (LinePlotSpec, Extras) {
    let s = factors(y);
    let curve = |f: &dyn Fn(&YarnScale) -> f64| -> Vec<(f64, f64)> {
        s.iter().map(|&s| (s.log10(), f(&y.at(s)))).collect()
    };
    // The rotated share first: where the amplitude is 1 it equals the softmax factor, and the
    // softmax line, drawn after it, stays in view.
    let softmax_label = match y.mscale_all_dim {
        _ if !y.softmax => "softmax scale × 1 (no yarn_apply_mscale)",
        Some(a) if a != 0.0 => "softmax scale × get_mscale(s, mscale_all_dim)²",
        _ => "softmax scale × 1 (mscale_all_dim absent or 0)",
    };
    let series = vec![
        Series {
            label: "a rotated coordinate's share of a logit".into(),
            color: series_color(2),
            points: curve(&YarnScale::rotated_logit),
            dots: false,
            line: true,
        },
        Series {
            label: "cos and sin × attention_factor".into(),
            color: series_color(0),
            points: curve(&YarnScale::amplitude),
            dots: false,
            line: true,
        },
        Series {
            label: softmax_label.into(),
            color: series_color(1),
            points: curve(&YarnScale::softmax_factor),
            dots: false,
            line: true,
        },
    ];
    let values = series.iter().flat_map(|s| &s.points).map(|p| p.1);
    let (low, high) = values.fold((1.0f64, 1.0f64), |(l, h), v| (l.min(v), h.max(v)));
    let span = (high - low).max(0.1);
    let at = marked.unwrap_or(y.factor).max(1.0);
    let label = match marked {
        Some(s) => format!("s = {}", crate::explain::models::yarn::short(s)),
        None if y.factor < 1.0 => format!("factor {} (drawn at 1)", y.factor),
        None => format!("factor {}", y.factor),
    };
    let spec = LinePlotSpec {
        title: "YaRN's two factors, by the scale factor s".into(),
        x_desc: "scale factor s (factor)",
        y_desc: "multiplier",
        x_range: 0.0..top_factor(y).log10(),
        // Room above the curves for the legend.
        y_range: (low - 0.05 * span)..(high + 0.9 * span),
        series,
        marker: Some((at.log10(), label)),
        theme,
    };
    let extras = Extras {
        x_log: true,
        legend: Corner::TopLeft,
        ..Extras::default()
    };
    (spec, extras)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::yarn_scale::DEEPSEEK_V3;

    #[test]
    fn the_layer_s_own_factor_is_drawn_and_every_point_is_the_formula() {
        let s = factors(&DEEPSEEK_V3);
        assert!(s.contains(&40.0) && s[0] == 1.0 && s.windows(2).all(|w| w[0] < w[1]));
        let (spec, _) = yarn_spec(&DEEPSEEK_V3, None, Theme::LIGHT);
        let softmax = &spec.series[2].points;
        let at40 = softmax
            .iter()
            .find(|p| (p.0 - 40f64.log10()).abs() < 1e-12)
            .unwrap();
        assert!((at40.1 - DEEPSEEK_V3.softmax_factor()).abs() < 1e-15);
    }
}
