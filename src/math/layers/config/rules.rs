//! Per model type, the rule that turns its config's fields into layers: which layers slide, chunk
//! or attend in full, and which RoPE each gets (see `math::layers` for the rules' sources in
//! transformers 5.24).

use serde_json::{Map, Value};

use super::super::{
    Attention, Layer, LayerRope, every_nth_full, json_object, layer, sliding_or_full, theta_of,
    type_of,
};
use super::TextConfig;

impl TextConfig {
    pub(super) fn gemma3(&self) -> Result<Vec<Layer>, String> {
        let n = self.num_layers(26)?;
        let mut window = self.count("sliding_window", 1)?.unwrap_or(4096);
        if self.flag("use_bidirectional_attention", false)? {
            window = window / 2 + 1;
        }
        let pattern = self.count("sliding_window_pattern", 1)?.unwrap_or(6);
        let types = self.sliding_types(n, every_nth_full(pattern))?;
        let nested = |key: &str| -> Result<Map<String, Value>, String> {
            match self.fields.get("rope_parameters") {
                Some(Value::Object(m)) => match m.get(key) {
                    Some(Value::Object(d)) => Ok(d.clone()),
                    None | Some(Value::Null) => Ok(Map::new()),
                    Some(v) => Err(format!("rope_parameters.{key} is {v}; expected an object")),
                },
                None | Some(Value::Null) => Ok(Map::new()),
                Some(v) => Err(format!("rope_parameters is {v}; expected an object")),
            }
        };
        let mut full = nested("full_attention")?;
        let sliding = nested("sliding_attention")?;
        // The class starts each layer type's dict as {"rope_type": "default"} when the config
        // names none, and a legacy rope_scaling updates the full layers' dict.
        if self.absent("rope_parameters") {
            full.insert("rope_type".into(), Value::from("default"));
        }
        match self.fields.get("rope_scaling") {
            Some(Value::Object(scaling)) => {
                for (k, v) in scaling {
                    full.insert(k.clone(), v.clone());
                }
            }
            None | Some(Value::Null) => {}
            Some(v) => return Err(format!("rope_scaling is {v}; expected an object or null")),
        }
        let resolve = |d: &Map<String, Value>, name: &str, theta_key: &str, default_theta: f64| {
            let theta = theta_of(d.get("rope_theta"), &format!("{name}.rope_theta"))?
                .or(theta_of(self.fields.get(theta_key), theta_key)?)
                .unwrap_or(default_theta);
            let rope_type = type_of(d, name)?.unwrap_or_else(|| "default".to_string());
            Ok::<_, String>(LayerRope::of(rope_type, theta, d.clone()))
        };
        let full = resolve(&full, "rope_parameters.full_attention", "rope_theta", 1.0e6)?;
        let sliding = resolve(
            &sliding,
            "rope_parameters.sliding_attention",
            "rope_local_base_freq",
            1.0e4,
        )?;
        Ok(sliding_or_full(
            &types,
            Some(window),
            Some(sliding),
            Some(full),
        ))
    }

    pub(super) fn gemma4(&self) -> Result<Vec<Layer>, String> {
        let n = self.num_layers(30)?;
        let mut window = self.count("sliding_window", 1)?.unwrap_or(512);
        if self
            .fields
            .get("use_bidirectional_attention")
            .and_then(Value::as_str)
            == Some("all")
        {
            window = window / 2 + 1;
        }
        let mut types = self.sliding_types(n, every_nth_full(6))?;
        if let Some(last) = types.last_mut() {
            *last = "full_attention".to_string();
        }
        if matches!(self.fields.get("rope_scaling"), Some(Value::Object(m)) if !m.is_empty()) {
            return Err(
                "a Gemma 4 config with a rope_scaling: transformers 5.24 replaces the \
                        per-layer-type rope_parameters with it; give rope_parameters instead"
                    .to_string(),
            );
        }
        let given = |key: &str, default: LayerRope| -> Result<LayerRope, String> {
            let name = format!("rope_parameters.{key}");
            match self.fields.get("rope_parameters") {
                Some(Value::Object(m)) if !m.is_empty() => match m.get(key) {
                    Some(Value::Object(d)) => Ok(LayerRope::of(
                        type_of(d, &name)?.unwrap_or_else(|| "default".to_string()),
                        theta_of(d.get("rope_theta"), &format!("{name}.rope_theta"))?
                            .unwrap_or(default.theta),
                        d.clone(),
                    )),
                    _ => Err(format!("{name} is missing; expected an object")),
                },
                _ => Ok(default),
            }
        };
        let sliding = given(
            "sliding_attention",
            LayerRope::of("default".into(), 1.0e4, Map::new()),
        )?;
        let full = given(
            "full_attention",
            LayerRope::of(
                "proportional".into(),
                1.0e6,
                json_object(&[("partial_rotary_factor", Value::from(0.25))]),
            ),
        )?;
        Ok(sliding_or_full(
            &types,
            Some(window),
            Some(sliding),
            Some(full),
        ))
    }

    pub(super) fn llama4(&self) -> Result<Vec<Layer>, String> {
        let n = self.num_layers(48)?;
        let uses = self.rope_layers(n, true)?;
        let chunk = match self.fields.get("attention_chunk_size") {
            None => Some(8192),
            Some(Value::Null) => None,
            Some(_) => self.count("attention_chunk_size", 1)?,
        };
        let types = self.layer_types(n, &["chunked_attention", "full_attention"], |i| {
            if uses[i] && chunk.is_some() {
                "chunked_attention"
            } else {
                "full_attention"
            }
        })?;
        let rope = self.rope(5.0e5, None)?;
        types
            .iter()
            .zip(&uses)
            .map(|(t, &r)| {
                let rope = r.then(|| rope.clone());
                if t == "chunked_attention" {
                    let Some(c) = chunk else {
                        return Err("a chunked_attention layer needs attention_chunk_size".into());
                    };
                    Ok(layer(Attention::Chunked, Some(c), rope))
                } else {
                    Ok(layer(Attention::Full, None, rope))
                }
            })
            .collect()
    }

    pub(super) fn smollm3(&self) -> Result<Vec<Layer>, String> {
        let n = self.num_layers(36)?;
        let uses = self.rope_layers(n, false)?;
        let use_window = self.flag("use_sliding_window", false)?;
        let window = self.count("sliding_window", 1)?;
        let types = self.sliding_types(n, |i| {
            if use_window && window.is_some() && !uses[i] {
                "sliding_attention"
            } else {
                "full_attention"
            }
        })?;
        let rope = self.rope(2.0e6, None)?;
        Ok(types
            .iter()
            .zip(&uses)
            .map(|(t, &r)| {
                let w = window.filter(|_| use_window && t == "sliding_attention");
                let kind = if w.is_some() {
                    Attention::Sliding
                } else {
                    Attention::Full
                };
                layer(kind, w, r.then(|| rope.clone()))
            })
            .collect())
    }

    pub(super) fn cohere2(&self) -> Result<Vec<Layer>, String> {
        let n = self.num_layers(40)?;
        let window = self.count("sliding_window", 1)?.unwrap_or(4096);
        let pattern = self.count("sliding_window_pattern", 1)?.unwrap_or(4);
        let types = self.sliding_types(n, every_nth_full(pattern))?;
        let rope = self.rope(1.0e4, None)?;
        // Cohere2Attention rotates only where it has a window.
        Ok(sliding_or_full(&types, Some(window), Some(rope), None))
    }

    pub(super) fn gpt_oss(&self) -> Result<Vec<Layer>, String> {
        let n = self.num_layers(36)?;
        let window = self.count("sliding_window", 1)?.unwrap_or(128);
        let types = self.sliding_types(n, every_nth_full(2))?;
        // GptOssConfig's default dict.
        let yarn = LayerRope::of(
            "yarn".into(),
            150_000.0,
            json_object(&[
                ("factor", Value::from(32.0)),
                ("beta_fast", Value::from(32.0)),
                ("beta_slow", Value::from(1.0)),
                ("truncate", Value::from(false)),
                ("original_max_position_embeddings", Value::from(4096)),
            ]),
        );
        let rope = self.rope(150_000.0, Some(yarn))?;
        Ok(sliding_or_full(
            &types,
            Some(window),
            Some(rope.clone()),
            Some(rope),
        ))
    }

    pub(super) fn qwen(&self) -> Result<Vec<Layer>, String> {
        let qwen3 = self.model_type == "qwen3";
        let n = self.num_layers(if qwen3 { 32 } else { 80 })?;
        // transformers: `sliding_window if use_sliding_window else None` (a null window: none).
        let window = if self.flag("use_sliding_window", false)? {
            match self.fields.get("sliding_window") {
                None => Some(4096),
                Some(_) => self.count("sliding_window", 1)?,
            }
        } else {
            None
        };
        let from = self
            .count("max_window_layers", 0)?
            .unwrap_or(if qwen3 { 28 } else { 80 });
        let types = self.sliding_types(n, |i| {
            if window.is_some() && i >= from {
                "sliding_attention"
            } else {
                "full_attention"
            }
        })?;
        let rope = self.rope(if qwen3 { 1.0e4 } else { 1.0e6 }, None)?;
        Ok(sliding_or_full(
            &types,
            window,
            Some(rope.clone()),
            Some(rope),
        ))
    }

    pub(super) fn all_full(&self) -> Result<Vec<Layer>, String> {
        let deepseek = self.model_type == "deepseek_v3";
        let n = self.num_layers(if deepseek { 61 } else { 32 })?;
        let rope = self.rope(if deepseek { 1.0e4 } else { 5.0e5 }, None)?;
        Ok((0..n)
            .map(|_| layer(Attention::Full, None, Some(rope.clone())))
            .collect())
    }
}
