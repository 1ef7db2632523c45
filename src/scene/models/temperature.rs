//! fig-models-temperature: the factor transformers 5.24's models multiply a query by at position
//! `p` ([`crate::math::temperature`]) — Llama 4's on its layers without RoPE and Ministral 3's on
//! every layer, in steps, and Beam's on its layers without RoPE, smooth — over the context,
//! positions on a linear axis (each step is a whole floor wide).

use crate::chart::lines::{Corner, Extras, LinePlotSpec, Series, series_color};
use crate::chart::theme::Theme;
use crate::math::temperature::{MINISTRAL3, QueryScale, beam_at};

/// The narrowest gap, as a fraction of the context, between two drawn steps: steps nearer to the
/// last drawn one are passed over (at 720 px, a thousandth of the axis is under a pixel).
pub const STEPS_ACROSS: usize = 1000;

/// The vertices of `q` over positions `0 … last` (`p`, `s(p)`): the first and last positions,
/// and at each drawn step `p` the positions `p − 1` and `p`, so every vertex lies on the formula
/// and a step is a vertical rise. A step less than `last`/[`STEPS_ACROSS`] positions after the
/// last drawn one is passed over, and the line climbs through it straight: at most
/// 2 × [`STEPS_ACROSS`] + 2 vertices.
pub fn staircase(q: &QueryScale, last: usize) -> Vec<(f64, f64)> {
    let last = last.max(1);
    let gap = last.div_ceil(STEPS_ACROSS);
    let floor = q.floor.max(1);
    let mut points = vec![(0.0, q.at(0))];
    let mut drawn = 0;
    // The first step past position 0, then the first at least `gap` further each time.
    let mut k = q.offset / floor + 1;
    while let Some(p) = q.step(k).filter(|&p| p <= last) {
        if p - 1 > drawn {
            points.push(((p - 1) as f64, q.at(p - 1)));
        }
        points.push((p as f64, q.at(p)));
        drawn = p;
        k = (k + 1).max((drawn + gap + q.offset).div_ceil(floor));
    }
    if last > drawn {
        points.push((last as f64, q.at(last)));
    }
    points
}

/// The positions the readout steps through: 0 … `last` in 200 equal steps and both sides of
/// every drawn step of `llama` and Ministral 3's, ascending.
pub fn readout_positions(llama: &QueryScale, last: usize) -> Vec<usize> {
    const SAMPLES: usize = 200;
    let last = last.max(1);
    let mut at: Vec<usize> = (0..=SAMPLES).map(|k| k * last / SAMPLES).collect();
    for q in [llama, &MINISTRAL3] {
        at.extend(staircase(q, last).iter().map(|p| p.0 as usize));
    }
    at.sort_unstable();
    at.dedup();
    at
}

/// Beam's smooth curve over positions `0 … last` (`p`, `(1 + (p + 1)/2048)^0.1`): 400 equal
/// steps and 100 on a logarithmic scale (where it rises fastest, at the start), every vertex on
/// the formula.
pub fn beam_curve(last: usize) -> Vec<(f64, f64)> {
    let last = last.max(1);
    let top = (last as f64).ln();
    let mut at: Vec<usize> = (0..=400).map(|k| k * last / 400).collect();
    at.extend((0..=100).map(|k| ((top * k as f64 / 100.0).exp().round() as usize).min(last)));
    at.sort_unstable();
    at.dedup();
    at.into_iter().map(|p| (p as f64, beam_at(p))).collect()
}

/// The plot's height.
pub fn temperature_height(width: f64) -> f64 {
    (width * 0.45).clamp(300.0, 360.0)
}

/// fig-models-temperature over a context of `tokens`: Llama 4's scale (`llama`: the model's
/// when it is a Llama 4, else its class's defaults), Ministral 3's and Beam's; `query` marked.
pub fn temperature_spec(
    llama: &QueryScale,
    tokens: usize,
    query: usize,
    theme: Theme,
) -> (LinePlotSpec, Extras) {
    let last = tokens.saturating_sub(1).max(1);
    let series = vec![
        Series {
            label: "Llama 4: layers without RoPE".into(),
            color: series_color(0),
            points: staircase(llama, last),
            dots: false,
            line: true,
        },
        Series {
            label: "Ministral 3: every layer".into(),
            color: series_color(1),
            points: staircase(&MINISTRAL3, last),
            dots: false,
            line: true,
        },
        Series {
            label: "Beam: layers without RoPE".into(),
            color: series_color(2),
            points: beam_curve(last),
            dots: false,
            line: true,
        },
    ];
    let top = series
        .iter()
        .flat_map(|s| &s.points)
        .map(|p| p.1)
        .fold(1.0, f64::max);
    let spec = LinePlotSpec {
        title: "How much each query is scaled, by its position".into(),
        x_desc: "query position p",
        y_desc: "factor on the query",
        x_range: 0.0..last as f64,
        // Room above the steps for the legend and the marker's label.
        y_range: 0.98..1.0 + (top - 1.0).max(0.05) * 1.8,
        series,
        marker: Some((
            query.min(last) as f64,
            format!("query {}", crate::explain::models::grouped(query as u64)),
        )),
        theme,
    };
    // The legend on the side away from the query's line (and its label).
    let legend = if query.min(last) * 2 < last {
        Corner::TopRight
    } else {
        Corner::TopLeft
    };
    let extras = Extras {
        legend,
        ..Extras::default()
    };
    (spec, extras)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::temperature::LLAMA4;

    #[test]
    fn the_staircase_rises_at_each_step() {
        let points = staircase(&LLAMA4, 40_000);
        // Steps at 8191, 16 383, 24 575 and 32 767: two vertices each, plus both ends.
        assert_eq!(points.len(), 2 + 2 * 4);
        assert_eq!(points[1..3], [(8190.0, 1.0), (8191.0, LLAMA4.at(8191))]);
        for w in points.windows(2) {
            assert!(w[1].0 > w[0].0 && w[1].1 >= w[0].1);
        }
        assert_eq!(points.last().unwrap().1, LLAMA4.at(40_000));
    }

    #[test]
    fn a_step_at_every_position_stays_a_few_thousand_points() {
        let dense = QueryScale {
            scale: 0.1,
            floor: 1,
            offset: 1,
        };
        let points = staircase(&dense, 1 << 20);
        assert!(points.len() <= 2 * STEPS_ACROSS + 2, "{}", points.len());
        assert_eq!(points.last().unwrap().1, dense.at(1 << 20));
        let at = readout_positions(&dense, 1 << 20);
        assert!(at.windows(2).all(|w| w[0] < w[1]) && at[0] == 0);
    }
}
