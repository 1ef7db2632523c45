//! fig-models-precision: how far off one rotary pair's angle is when positions are rounded to a
//! model's float type — the naive path (position, frequency and angle in that type) against
//! transformers' (angles in float32, only cos and sin rounded; [`crate::math::precision`]), at
//! positions spread over the context on a logarithmic axis, for the chosen layer's frequencies.

use crate::chart::lines::{Corner, Extras, LinePlotSpec, Series, series_color};
use crate::chart::theme::Theme;
use crate::math::layers::{Model, layer_rope};
use crate::math::partial::{Convention, layer_partial};
use crate::math::precision::{Dtype, angle_error, float32_angle, naive_angle};

/// Positions drawn: this many spread evenly on the logarithmic axis (fewer where they would
/// repeat a whole number).
pub const SAMPLES: usize = 480;

/// The foot of the error axis: log₁₀ of 10⁻⁸ rad. An error below it (or none) is drawn there.
pub const FLOOR: f64 = -8.0;

/// The frequencies the figure draws: the chosen layer's, or the nearest layer's whose RoPE is
/// computed here when the chosen one does not rotate or has a type not modelled.
#[derive(Clone, Debug, PartialEq)]
pub struct Rotary {
    /// The layer whose frequencies these are.
    pub layer: usize,
    /// Its attention (full, sliding, chunked).
    pub attention: crate::math::layers::Attention,
    /// Its `inv_freq`, one per rotary pair (fastest first).
    pub inv_freq: Vec<f64>,
    /// Why the chosen layer was not drawn (when `layer` is another one).
    pub skipped: Option<Skipped>,
}

/// Why the chosen layer's frequencies are not drawn.
#[derive(Clone, Debug, PartialEq)]
pub enum Skipped {
    /// It does not rotate q and k.
    NoRope,
    /// Its RoPE type is not computed here (the type's name).
    NotModelled(String),
}

/// The frequencies of layer `chosen` of `model` (read from `config`), or of the nearest layer
/// (below first at equal distance) whose RoPE is computed here; `None` when no layer has one.
pub fn rotary(config: &str, model: &Model, chosen: usize) -> Option<Rotary> {
    let n = model.layers.len();
    let chosen = chosen.min(n.saturating_sub(1));
    let mut skipped = None;
    for i in super::outward(chosen, n) {
        // Gemma 4's proportional full layers through math::partial (the pairs past
        // int(f·h // 2) at frequency 0); every other type through its RopeScaling. The type is
        // the model's, already read: each layer's config is read once.
        let proportional = model.layers[i]
            .rope
            .as_ref()
            .is_some_and(|r| r.rope_type == "proportional");
        let found = if proportional {
            layer_partial(config, i)
                .ok()
                .flatten()
                .map(|p| p.partial.inv_freq(Convention::Proportional))
        } else {
            layer_rope(config, i)
                .ok()
                .flatten()
                .map(|rope| rope.scaling.compute().0)
        };
        match found {
            Some(inv_freq) if !inv_freq.is_empty() => {
                return Some(Rotary {
                    layer: i,
                    attention: model.layers[i].attention,
                    inv_freq,
                    skipped,
                });
            }
            _ if i == chosen => {
                skipped = Some(match &model.layers[i].rope {
                    None => Skipped::NoRope,
                    Some(r) => Skipped::NotModelled(r.rope_type.clone()),
                });
            }
            _ => {}
        }
    }
    None
}

/// The positions drawn for a context of `tokens`: [`SAMPLES`] spread evenly on a logarithmic
/// axis from 1 to `tokens − 1` (whole numbers, each once), ascending.
pub fn positions(tokens: usize) -> Vec<usize> {
    let last = tokens.saturating_sub(1).max(1);
    let top = (last as f64).ln();
    let mut at: Vec<usize> = (0..SAMPLES)
        .map(|k| (top * k as f64 / (SAMPLES - 1) as f64).exp().round() as usize)
        .map(|p| p.clamp(1, last))
        .collect();
    at.dedup();
    at
}

/// One pair's angle errors at `positions`: (naive path, transformers' float32 path), radians
/// (infinite where the naive position overflows).
pub fn errors(w: f64, dtype: Dtype, positions: &[usize]) -> Vec<(f64, f64)> {
    positions
        .iter()
        .map(|&p| {
            (
                angle_error(naive_angle(p, w, dtype), p, w),
                angle_error(float32_angle(p, w), p, w),
            )
        })
        .collect()
}

/// The plot's height.
pub fn precision_height(width: f64) -> f64 {
    (width * 0.5).clamp(320.0, 380.0)
}

/// fig-models-precision: the angle error of pair `pair` (within the layer's pairs) of `rot`
/// over the context of `tokens`, both axes logarithmic, for the naive `dtype` path and
/// transformers' float32 path; the position's own rounding (ω times half the spacing of
/// `dtype`'s numbers) where positions are rounded; π dashed; `marked` (a position) marked.
/// With no rotating layer (`rot` is `None`), the axes alone under a title that says so.
pub fn precision_spec(
    rot: Option<&Rotary>,
    pair: usize,
    dtype: Dtype,
    tokens: usize,
    marked: Option<usize>,
    theme: Theme,
) -> (LinePlotSpec, Extras) {
    let freqs = rot.map_or(&[][..], |r| &r.inv_freq[..]);
    let pair = pair.min(freqs.len().saturating_sub(1));
    let w = freqs.get(pair).copied().unwrap_or(0.0);
    let at = if rot.is_some() {
        positions(tokens)
    } else {
        Vec::new()
    };
    let errs = errors(w, dtype, &at);
    let y = |e: f64| e.log10().max(FLOOR);
    let x = |p: usize| (p as f64).log10();
    let naive: Vec<(f64, f64)> = at
        .iter()
        .zip(&errs)
        .filter(|(_, e)| e.0.is_finite())
        .map(|(&p, e)| (x(p), y(e.0)))
        .collect();
    let float32: Vec<(f64, f64)> = at.iter().zip(&errs).map(|(&p, e)| (x(p), y(e.1))).collect();
    let half_gap: Vec<(f64, f64)> = at
        .iter()
        .filter(|&&p| p >= dtype.first_inexact() && dtype.overflow().is_none_or(|o| p < o))
        .map(|&p| (x(p), y(w * dtype.spacing(p as f64) / 2.0)))
        .collect();
    let top = naive
        .iter()
        .chain(&float32)
        .chain(&half_gap)
        .map(|p| p.1)
        .fold(std::f64::consts::PI.log10(), f64::max);
    let label = dtype.label();
    let mut series = vec![
        Series {
            label: format!("naive: all in {label}"),
            color: series_color(1),
            points: naive,
            dots: true,
            line: false,
        },
        Series {
            label: "transformers: float32 angle".into(),
            color: series_color(0),
            points: float32,
            dots: true,
            line: false,
        },
    ];
    if !half_gap.is_empty() {
        series.push(Series {
            label: format!("ω × half the {label} gap"),
            color: series_color(2),
            points: half_gap,
            dots: false,
            line: true,
        });
    }
    let last = tokens.saturating_sub(1).max(1);
    let spec = LinePlotSpec {
        title: match rot {
            Some(r) => format!(
                "Layer {}, pair {pair}: the angle's error in {label}",
                r.layer
            ),
            None => "No layer rotates q and k: no angle to round".into(),
        },
        x_desc: "position",
        y_desc: "angle error, rad",
        x_range: 0.0..(last as f64).log10().max(1.0),
        // Two decades above the data for the legend (top left), over the small positions.
        y_range: FLOOR..top + 2.0,
        series,
        marker: marked.map(|p| (x(p.max(1)), format!("position {p}"))),
        theme,
    };
    let extras = Extras {
        hlines: vec![(std::f64::consts::PI.log10(), "π".into())],
        x_log: true,
        y_log: true,
        legend: Corner::TopLeft,
        ..Extras::default()
    };
    (spec, extras)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::layers::presets::PRESETS;
    use crate::math::layers::read_model;

    #[test]
    fn positions_are_whole_ascending_and_span_the_context() {
        for tokens in [16, 17, 300, 4096, 1 << 20] {
            let p = positions(tokens);
            assert_eq!((p[0], *p.last().unwrap()), (1, tokens - 1));
            assert!(p.windows(2).all(|w| w[0] < w[1]));
            assert!(p.len() <= SAMPLES);
        }
    }

    #[test]
    fn every_preset_has_a_rotating_layer_near_every_layer() {
        for preset in PRESETS {
            let model = read_model(preset.config).unwrap();
            for chosen in 0..model.layers.len() {
                let rot = rotary(preset.config, &model, chosen).unwrap();
                let layer = &model.layers[chosen];
                match &rot.skipped {
                    None => assert_eq!(rot.layer, chosen, "{}", preset.id),
                    Some(Skipped::NoRope) => assert!(layer.rope.is_none()),
                    Some(Skipped::NotModelled(t)) => {
                        assert_eq!(layer.rope.as_ref().unwrap().rope_type, *t)
                    }
                }
                // No layer nearer than the one drawn rotates.
                let d = rot.layer.abs_diff(chosen);
                for i in 0..model.layers.len() {
                    if i.abs_diff(chosen) < d {
                        assert!(model.layers[i].rope.is_none());
                    }
                }
            }
        }
    }
}
