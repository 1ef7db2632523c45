//! Chapter 5, "RoPE as today's models ship it": its URL keys (prefix `m.`) and the view they
//! parse into — which model's published config, which of its layers, how many tokens the
//! cache holds, and the query whose keys the masks show.

use super::Notice;
use super::decl::{choice, own};
use super::listed::{declared, view_struct};
use crate::math::layers::paste::MAX_KEPT_BYTES;
use crate::math::layers::presets::{ModelPreset, PRESETS};
use crate::math::layers::{MAX_LAYERS, Model, read_model};
use crate::math::precision::Dtype;

/// The chapter's key prefix.
pub const PREFIX: &str = "m.";

/// Tokens in the context (the KV cache after them, and the keys a query can see): 16 … 2²⁰.
pub const TOKENS: (usize, usize) = (16, 1 << 20);

/// The rotary pairs a link may choose: 0 … 2047 (a head of up to 4096 coordinates).
pub const PAIRS: (usize, usize) = (0, 2047);

/// The presets' names in links, in the page's order.
pub const MODEL_IDS: [&str; PRESETS.len()] = {
    let mut ids = [""; PRESETS.len()];
    let mut i = 0;
    while i < PRESETS.len() {
        ids[i] = PRESETS[i].id;
        i += 1;
    }
    ids
};

crate::params::listed::fields! { $
    /// Chapter 5's parameters, each one row ([`super::listed`]): [`ModelsView`], its [`TABLE`]
    /// and the app's signals are written from this list.
    models_fields
    listed {
        /// The model: an index into [`crate::math::layers::presets::PRESETS`].
        model: usize = 0 => [choice(
            "m.model",
            &MODEL_IDS,
            |v| MODEL_IDS[v.model.min(MODEL_IDS.len() - 1)],
            |v, name| v.model = MODEL_IDS.iter().position(|&m| m == name).unwrap_or(0),
        )],
        /// The chosen layer, from 0.
        layer: usize = 5 => int_within!("m.layer", "m.layer (layer)", |v| (0, v.layer_limit())),
        /// Tokens in the context.
        tokens: usize = 32_768 => int!("m.L", "m.L (tokens)", TOKENS),
        /// The query position whose keys the masks show, below `tokens`.
        query: usize = 32_767 => int_within!(
            "m.p",
            "m.p (query position)",
            |v| (0, v.tokens.saturating_sub(1))
        ),
        /// The float type of the precision figure (fig-models-precision).
        dtype: crate::math::precision::Dtype = Dtype::Bf16
            => named!("m.dt", crate::math::precision::Dtype),
        /// The partial-rotation figure's `partial_rotary_factor` (fig-models-partial): the
        /// layer's, or one chosen.
        fraction: crate::math::partial::Fraction = crate::math::partial::Fraction::Quarter
            => named!("m.prf", crate::math::partial::Fraction),
        /// The precision figure's rotary pair, from 0 (the fastest); drawn within the layer's
        /// pairs.
        pair: usize = 0 => int!("m.pair", "m.pair (rotary pair)", PAIRS),
        /// The cached-keys figure's example for a layer whose RoPE does not depend on the length
        /// (fig-models-stale).
        regime: crate::math::cached_keys::Regime = crate::math::cached_keys::Regime::Dynamic
            => named!("m.cm", crate::math::cached_keys::Regime),
        /// The cached-keys figure's key position k, at most the query's.
        key: usize = 2048 => int_within!("m.key", "m.key (cached key position)", |v| (
            0,
            v.chosen_query()
        )),
        /// A pasted config, kept to the fields read ([`crate::math::layers::paste`]): in
        /// place of the preset when set. Checked when the chapter reads it, not here (the
        /// JSON reader stays out of the page's first module).
        config: Option<String> = None => [own("m.cfg", read_config, |v| {
            v.config.clone().unwrap_or_default()
        })],
    }
    own {}
}
#[cfg_attr(not(target_arch = "wasm32"), allow(unused_imports))] // read by the app's state
pub(crate) use models_fields;

models_fields!(view_struct {
    /// The chapter's controls.
    #[derive(Clone, Debug, PartialEq)]
    ModelsView
});

/// What chapter 5's figures draw for a view ([`ModelsView::shown`]).
#[derive(Clone, Debug, PartialEq)]
pub struct Shown {
    /// The model.
    pub model: Model,
    /// Its name on the page.
    pub name: &'static str,
    /// Why the pasted config could not be read, when the preset is drawn in its place.
    pub error: Option<String>,
    /// The config the model was read from (the pasted one, or the preset's).
    pub config: std::borrow::Cow<'static, str>,
}

/// The name of a pasted config on the page.
pub const PASTED: &str = "Your config";

/// Preset `model` (the last one for an index past the list).
pub fn preset_of(model: usize) -> &'static ModelPreset {
    &PRESETS[model.min(PRESETS.len() - 1)]
}

/// The number of layers of preset `model`.
pub fn layer_count(model: usize) -> usize {
    preset_of(model).layers.max(1)
}

impl ModelsView {
    /// The chosen preset.
    pub fn preset(&self) -> &'static ModelPreset {
        preset_of(self.model)
    }

    /// The model as the figures draw it: the pasted config's, or the preset's when there is none
    /// or it cannot be read (then with why, in one line); and its name on the page.
    pub fn shown(&self) -> Shown {
        let preset = self.preset();
        let pasted = self.config.as_deref().map(read_model);
        match (pasted, &self.config) {
            (Some(Ok(model)), Some(text)) => Shown {
                model,
                name: PASTED,
                error: None,
                config: text.clone().into(),
            },
            (pasted, _) => Shown {
                // Every preset reads (a test): the default model is never drawn.
                model: read_model(preset.config).unwrap_or_default(),
                name: preset.name,
                error: pasted.and_then(Result::err),
                config: preset.config.into(),
            },
        }
    }

    /// The last layer a link may choose: the preset's last, or with a pasted config (whose
    /// layers are counted when the chapter reads it) the last a config may have.
    pub fn layer_limit(&self) -> usize {
        if self.config.is_some() {
            MAX_LAYERS - 1
        } else {
            layer_count(self.model) - 1
        }
    }

    /// The chosen layer within the layers a link may choose.
    pub fn chosen_layer(&self) -> usize {
        self.layer.min(self.layer_limit())
    }

    /// The query within the tokens.
    pub fn chosen_query(&self) -> usize {
        self.query.min(self.tokens.saturating_sub(1))
    }
}

models_fields!(rows declared {
    TABLE ModelsView,
    |v| {
        v.layer = v.chosen_layer();
        v.query = v.chosen_query();
        v.key = v.key.min(v.query);
    };
});

/// Reads `m.cfg`, a pasted config: none when empty; refused (the preset shown) past
/// [`MAX_KEPT_BYTES`].
fn read_config(v: &mut ModelsView, text: &str) -> Option<Notice> {
    if text.is_empty() {
        v.config = None;
        None
    } else if text.len() > MAX_KEPT_BYTES {
        Some(Notice(format!(
            "m.cfg (a pasted config) has {} bytes; at most {MAX_KEPT_BYTES} are read, so the \
             preset is shown",
            text.len()
        )))
    } else {
        v.config = Some(text.to_string());
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::params::{Declared, parse_query};

    #[test]
    fn every_written_key_is_a_declared_key_and_reads_back() {
        let view = ModelsView {
            model: 6,
            layer: 60,
            tokens: TOKENS.1,
            query: 12_345,
            dtype: Dtype::F16,
            pair: 17,
            regime: crate::math::cached_keys::Regime::Longrope,
            key: 99,
            fraction: crate::math::partial::Fraction::Layer,
            config: Some("{\"model_type\":\"qwen3\"}".into()),
        };
        crate::params::decl::check_round_trip(&TABLE, &view);
        for (model, id) in MODEL_IDS.iter().enumerate() {
            assert_eq!(*id, PRESETS[model].id);
            let (v, notices) = ModelsView::from_query(&parse_query(&format!("m.model={id}")));
            assert_eq!(v.model, model);
            assert!(notices.is_empty(), "{notices:?}");
        }
    }

    #[test]
    fn bad_values_clamp_or_fall_back_with_notices() {
        let (v, notices) = ModelsView::from_query(&parse_query(
            "m.model=gpt-5&m.layer=99&m.L=3&m.p=100&m.key=50",
        ));
        assert_eq!(v.model, 0);
        assert_eq!(v.layer, layer_count(0) - 1);
        assert_eq!(v.tokens, TOKENS.0);
        assert_eq!(v.query, TOKENS.0 - 1);
        assert_eq!(v.key, TOKENS.0 - 1);
        assert_eq!(notices.len(), 5, "{notices:?}");
        // A smaller model keeps the chosen layer inside it.
        let (v, _) = ModelsView::from_query(&parse_query("m.model=gpt-oss-20b&m.layer=40"));
        assert_eq!(v.layer, 23);
    }
}
