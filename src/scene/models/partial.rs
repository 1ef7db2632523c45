//! fig-models-partial: partial rotation under transformers' two conventions
//! ([`crate::math::partial`]) for the chosen layer's head, θ and `partial_rotary_factor` (or one
//! chosen): every coordinate of the head along x, at the wavelength of the pair it turns in
//! (log y), or on a row above for a coordinate that does not turn (proportional: a pair at
//! ω = 0; rotary_dim: outside the rotated part). A pair shows as two dots at one height — its two
//! coordinates —, so the picture is also the pairing map.

use std::f64::consts::TAU;

use crate::chart::lines::{Corner, Extras, LinePlotSpec, Series, series_color};
use crate::chart::theme::Theme;
use crate::math::layers::{Attention, Model};
use crate::math::partial::{Convention, Fraction, LayerPartial, Partial, Role, layer_partial};

/// The layer the figure reads, and why the chosen one was passed over.
#[derive(Clone, Debug, PartialEq)]
pub struct PartialLayer {
    /// The layer read.
    pub layer: usize,
    /// Its attention.
    pub attention: Attention,
    /// Its RoPE's convention, type and head.
    pub own: LayerPartial,
    /// Why the chosen layer was not read (when `layer` is another one).
    pub passed: Option<Passed>,
}

/// Why the chosen layer is not the one drawn.
#[derive(Clone, Debug, PartialEq)]
pub enum Passed {
    /// It does not rotate q and k.
    NoRope,
    /// Its RoPE could not be read (the reason, one line).
    Unread(String),
}

/// The layers from `chosen` outward (the one below first at each distance), within `0 … n − 1`.
pub fn outward(chosen: usize, n: usize) -> impl Iterator<Item = usize> {
    std::iter::once(Some(chosen))
        .chain((1..n).flat_map(move |k| [chosen.checked_sub(k), Some(chosen + k)]))
        .flatten()
        .filter(move |&i| i < n)
}

/// Layer `chosen` of `model` (read from `config`), or the nearest layer that rotates and reads;
/// else why none can be drawn.
pub fn partial_layer(config: &str, model: &Model, chosen: usize) -> Result<PartialLayer, String> {
    let n = model.layers.len();
    let chosen = chosen.min(n.saturating_sub(1));
    let mut passed = None;
    let mut unread = None;
    for i in outward(chosen, n) {
        match layer_partial(config, i) {
            Ok(Some(own)) => {
                return Ok(PartialLayer {
                    layer: i,
                    attention: model.layers[i].attention,
                    own,
                    passed,
                });
            }
            Ok(None) if i == chosen => passed = Some(Passed::NoRope),
            Ok(None) => {}
            Err(e) => {
                if i == chosen {
                    passed = Some(Passed::Unread(e.clone()));
                }
                unread.get_or_insert(format!("layer {i}'s RoPE could not be read ({e})"));
            }
        }
    }
    Err(unread.unwrap_or_else(|| "no layer rotates q and k".to_string()))
}

/// What the figure draws for `layer` and `fraction`: the layer's head, θ and factor, with its
/// own rotated part or `int(h·f)` for a chosen `f`.
pub fn drawn(layer: &PartialLayer, fraction: Fraction) -> Partial {
    let own = layer.own.partial;
    match fraction.value() {
        Some(f) => Partial {
            rotary: Partial::rotary_of(own.head_dim, f),
            ..own
        },
        None => own,
    }
}

/// log₁₀ of the wavelength `2π/ω` in tokens.
pub fn log_wavelength(omega: f64) -> f64 {
    (TAU / omega).log10()
}

/// The foot of the axis: a third of a decade under the fastest pair's wavelength `2π·factor`.
fn foot(p: &Partial) -> f64 {
    log_wavelength(1.0 / p.factor) - 0.3
}

/// The rows of coordinates that do not turn, above the data: (proportional's ω = 0 row,
/// rotary_dim's not-rotated row), and the top of the axis, which leaves the upper 35 % of the
/// plot to the legend (about a quarter of a 320 px plot) above the rows' labels.
fn rows(p: &Partial) -> (f64, f64, f64) {
    let slowest = Convention::ALL
        .iter()
        .filter(|&&c| p.turning(c) > 0)
        .map(|&c| log_wavelength(p.omega(c, p.turning(c) - 1)))
        .fold(log_wavelength(1.0 / p.factor) + 1.0, f64::max);
    let labels = slowest + 1.6;
    (
        slowest + 1.2,
        slowest + 0.6,
        labels + (labels - foot(p)) * 0.35 / 0.65,
    )
}

/// The plot's height.
pub fn partial_height(width: f64) -> f64 {
    (width * 0.5).clamp(320.0, 380.0)
}

/// fig-models-partial for `p` (of layer `index`), `marked` a coordinate; or the axes alone under
/// why no layer can be drawn.
pub fn partial_spec(
    layer: Result<(usize, &Partial), &str>,
    marked: Option<usize>,
    theme: Theme,
) -> (LinePlotSpec, Extras) {
    let (index, p) = match layer {
        Ok(l) => l,
        Err(why) => {
            let spec = LinePlotSpec {
                title: format!("Nothing to lay out: {why}"),
                x_desc: "coordinate of the head",
                y_desc: "wavelength, tokens",
                x_range: 0.0..1.0,
                y_range: 0.0..1.0,
                series: Vec::new(),
                marker: None,
                theme,
            };
            return (spec, Extras::default());
        }
    };
    let (still_row, passes_row, top) = rows(p);
    let mut series = Vec::new();
    let mut fills = Vec::new();
    for (k, c) in Convention::ALL.into_iter().enumerate() {
        let row = match c {
            Convention::Proportional => still_row,
            Convention::RotaryDim => passes_row,
        };
        let mut turning = Vec::new();
        // Runs of coordinates that do not turn, as bars on the convention's row (bars, not
        // dots: the CSV lists only wavelengths).
        let mut start = None;
        for x in 0..p.head_dim {
            match p.role(c, x) {
                Role::Turns { omega, .. } => turning.push((x as f64, log_wavelength(omega))),
                _ => {
                    let a = *start.get_or_insert(x);
                    let ends =
                        x + 1 == p.head_dim || matches!(p.role(c, x + 1), Role::Turns { .. });
                    if ends {
                        start = None;
                        fills.push(super::rect(
                            series_color(k),
                            (a as f64 - 0.5, x as f64 + 0.5),
                            (row - 0.2, row + 0.2),
                        ));
                    }
                }
            }
        }
        series.push(Series {
            label: format!("{}: {} of {} turn", c.label(), p.rotated(c), p.head_dim),
            color: series_color(k),
            points: turning,
            dots: true,
            line: false,
        });
    }
    let spec = LinePlotSpec {
        title: format!(
            "Layer {index}: a head of {}, θ {}{}",
            p.head_dim,
            crate::explain::models::theta_text(p.theta),
            if p.factor == 1.0 {
                String::new()
            } else {
                format!(", frequencies ÷ {}", p.factor)
            }
        ),
        x_desc: "coordinate of the head",
        y_desc: "wavelength, tokens",
        x_range: -0.5..p.head_dim as f64 - 0.5,
        y_range: foot(p)..top,
        series,
        marker: marked.map(|x| (x as f64, format!("coordinate {x}"))),
        theme,
    };
    let extras = Extras {
        fills,
        hlines: vec![
            (still_row, "ω = 0, no wavelength (proportional)".into()),
            (passes_row, "not rotated (rotary_dim)".into()),
        ],
        y_log: true,
        legend: Corner::TopRight,
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
    fn every_preset_has_a_layer_to_draw_near_every_layer() {
        for preset in PRESETS {
            let model = read_model(preset.config).unwrap();
            for chosen in 0..model.layers.len() {
                let l = partial_layer(preset.config, &model, chosen).unwrap();
                match &l.passed {
                    None => assert_eq!(l.layer, chosen, "{}", preset.id),
                    Some(Passed::NoRope) => assert!(model.layers[chosen].rope.is_none()),
                    Some(Passed::Unread(e)) => panic!("{} layer {chosen}: {e}", preset.id),
                }
            }
        }
    }

    #[test]
    fn turning_coordinates_are_dots_the_others_bars() {
        let p = Partial {
            head_dim: 512,
            rotary: 128,
            theta: 1e6,
            factor: 1.0,
            interleaved: false,
        };
        let (spec, extras) = partial_spec(Ok((5, &p)), Some(3), Theme::LIGHT);
        assert_eq!(spec.series.len(), 2);
        assert!(spec.series.iter().all(|s| s.points.len() == 128));
        // proportional's still pairs are two runs (64–255, 320–511); rotary_dim's one (128–511).
        let runs: Vec<(f64, f64)> = extras
            .fills
            .iter()
            .map(|f| (f.lower[0].0, f.lower[1].0))
            .collect();
        assert_eq!(runs, [(63.5, 255.5), (319.5, 511.5), (127.5, 511.5)]);
        let top = spec.series.iter().flat_map(|s| &s.points).map(|p| p.1);
        assert!(top.fold(f64::MIN, f64::max) < spec.y_range.end);
        assert_eq!(extras.hlines.len(), 2);
    }
}
