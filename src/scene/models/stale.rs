//! fig-models-stale: how far each rotary pair of a cached key is turned from where a cache
//! rebuilt with the current frequencies would put it ([`crate::math::cached_keys`]): the chosen
//! layer's RoPE when its frequencies depend on the length (`dynamic`, `longrope`), else the
//! chosen example's.

use crate::chart::lines::{Corner, Extras, LinePlotSpec, Series, series_color};
use crate::chart::theme::Theme;
use crate::math::cached_keys::{CachedKey, Regime, example};
use crate::math::layers::{Model, layer_rope};
use crate::math::plane::wrap;
use crate::math::rope_scaling::RopeScaling;
use std::f64::consts::PI;

/// The foot of the error axis: log₁₀ of 10⁻⁸ rad. An error below it (or none) is drawn there.
pub const FLOOR: f64 = -8.0;

/// Whose frequencies the figure draws.
#[derive(Clone, Debug, PartialEq)]
pub struct StaleRope {
    /// The chosen layer, when its own RoPE depends on the length; `None` for the example.
    pub layer: Option<usize>,
    /// Its regime.
    pub regime: Regime,
    /// The RoPE.
    pub scaling: RopeScaling,
    /// When the chosen layer's own RoPE is dynamic or LongRoPE but is not drawn: its type, and
    /// why.
    pub unread: Option<(String, String)>,
    /// What reading the layer's RoPE noted (a value out of range, read as the nearest allowed).
    pub notes: Vec<String>,
}

/// The chosen layer's RoPE when its type is `dynamic` or `longrope` and it can be drawn, else
/// `regime`'s example (saying why when the layer's own could not be).
pub fn stale_rope(config: &str, model: &Model, chosen: usize, regime: Regime) -> StaleRope {
    let example = |unread| StaleRope {
        layer: None,
        regime,
        scaling: example(regime),
        unread,
        notes: Vec::new(),
    };
    let Some(kind) = model
        .layers
        .get(chosen)
        .and_then(|l| l.rope.as_ref())
        .map(|r| r.rope_type.clone())
        .filter(|t| t == "dynamic" || t == "longrope")
    else {
        return example(None);
    };
    // L₀: dynamic NTK's is max_position_embeddings, whose default transformers takes from the
    // model's config class when the file has none (not known here); LongRoPE's is
    // original_max_position_embeddings, which it requires.
    let stated = |key: &str| {
        model.fields.contains_key(key)
            || model.layers[chosen]
                .rope
                .as_ref()
                .is_some_and(|r| r.params.contains_key(key))
    };
    let (needed, why) = match kind.as_str() {
        "dynamic" => (
            "max_position_embeddings",
            "the config has no max_position_embeddings, dynamic NTK's L₀, and transformers \
             takes its default from the model's config class, not known here",
        ),
        _ => (
            "original_max_position_embeddings",
            "the config has no original_max_position_embeddings, LongRoPE's L₀",
        ),
    };
    if !stated(needed) {
        return example(Some((kind, why.to_string())));
    }
    match layer_rope(config, chosen) {
        Ok(Some(m)) => match Regime::of(m.scaling.rope_type) {
            Some(Regime::Dynamic) if m.scaling.dim <= 2 => example(Some((
                kind,
                "transformers cannot build dynamic NTK for a rotary dimension of 2: its exponent \
                 d/(d − 2) divides by zero"
                    .to_string(),
            ))),
            Some(own) => StaleRope {
                layer: Some(chosen),
                regime: own,
                scaling: m.scaling,
                unread: None,
                notes: m.warnings,
            },
            None => example(Some((kind, "it is read as another type".to_string()))),
        },
        Ok(None) => example(Some((kind, "it does not rotate".to_string()))),
        Err(e) => example(Some((kind, e))),
    }
}

/// The plot's height.
pub fn stale_height(width: f64) -> f64 {
    (width * 0.5).clamp(320.0, 380.0)
}

/// The y drawn for an error of `e` radians: log₁₀ of its size, at least [`FLOOR`].
pub fn error_y(e: f64) -> f64 {
    e.abs().log10().max(FLOOR)
}

/// fig-models-stale: each pair's error for the key `c.key` read by the query `c.query`, and the
/// same wrapped into [0, π], on a logarithmic axis over the pair index; π dashed; `marked` (a
/// pair) marked.
pub fn stale_spec(
    c: &CachedKey,
    regime: Regime,
    marked: Option<usize>,
    theme: Theme,
) -> (LinePlotSpec, Extras) {
    let n = c.now.len();
    let points: Vec<(f64, f64)> = (0..n).map(|i| (i as f64, error_y(c.error(i)))).collect();
    let felt: Vec<(f64, f64)> = (0..n)
        .map(|i| (i as f64, error_y(wrap(c.error(i)))))
        .collect();
    let top = points.iter().map(|p| p.1).fold(PI.log10(), f64::max);
    let title = if c.changed() {
        format!("{}: key at {}, query at {}", regime.label(), c.key, c.query)
    } else {
        format!(
            "{}: key at {}, query at {}: no change",
            regime.label(),
            c.key,
            c.query
        )
    };
    let spec = LinePlotSpec {
        title,
        x_desc: "rotary pair (0 the fastest)",
        y_desc: "angle error, rad",
        x_range: -0.5..(n.max(1) as f64 - 0.5),
        // Four decades above the data for the legend (two lines, on a 390 px phone too).
        y_range: FLOOR..top + 4.0,
        series: vec![
            Series {
                label: "cached key's error, k·|ω(p + 1) − ω(k + 1)|".into(),
                color: series_color(1),
                points,
                dots: true,
                line: false,
            },
            Series {
                label: "wrapped into [0, π]".into(),
                color: series_color(0),
                points: felt,
                dots: true,
                line: false,
            },
        ],
        marker: marked
            .filter(|&i| i < n)
            .map(|i| (i as f64, format!("pair {i}"))),
        theme,
    };
    let extras = Extras {
        hlines: vec![(PI.log10(), "π".into())],
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
    fn presets_draw_the_examples_and_a_dynamic_layer_draws_its_own() {
        for preset in PRESETS {
            let model = read_model(preset.config).unwrap();
            for chosen in 0..model.layers.len() {
                let r = stale_rope(preset.config, &model, chosen, Regime::Longrope);
                assert_eq!((r.layer, r.scaling), (None, example(Regime::Longrope)));
                assert!(r.unread.is_none() && r.notes.is_empty());
            }
        }
        let text = r#"{"model_type": "qwen3", "hidden_size": 1024, "num_attention_heads": 16,
            "num_hidden_layers": 2, "max_position_embeddings": 8192, "rope_theta": 1e6,
            "rope_scaling": {"rope_type": "dynamic", "factor": 3.0}}"#;
        let model = read_model(text).unwrap();
        let r = stale_rope(text, &model, 1, Regime::Longrope);
        assert_eq!((r.layer, r.regime), (Some(1), Regime::Dynamic));
        assert_eq!((r.scaling.dim, r.scaling.factor), (64, 3.0));
        assert_eq!((r.scaling.base, r.scaling.original_max), (1e6, 8192));
        // A two-coordinate head: transformers cannot build it; the example, saying why.
        let narrow = text.replace("\"hidden_size\": 1024", "\"hidden_size\": 32");
        let model = read_model(&narrow).unwrap();
        let r = stale_rope(&narrow, &model, 1, Regime::Longrope);
        assert_eq!((r.layer, r.regime), (None, Regime::Longrope));
        assert!(r.unread.unwrap().1.contains("divides by zero"));
    }

    #[test]
    fn every_dot_is_its_pair_s_error() {
        let c = CachedKey::of(&example(Regime::Dynamic), 2048, 32_767);
        let (spec, _) = stale_spec(&c, Regime::Dynamic, Some(3), Theme::LIGHT);
        let dots = &spec.series[0].points;
        assert_eq!(dots.len(), 64);
        assert_eq!(dots[0].1, FLOOR);
        for (i, d) in dots.iter().enumerate() {
            assert_eq!(*d, (i as f64, error_y(c.error(i))));
            let felt = spec.series[1].points[i].1;
            assert!(felt <= d.1 + 1e-9 && felt <= std::f64::consts::PI.log10() + 1e-12);
        }
    }
}
