//! A model's RoPE read from its Hugging Face `config.json`, resolved the way transformers resolves
//! it (`PreTrainedConfig.standardize_rope_params`, `validate_rope` and the
//! `_compute_*_parameters` functions of `modeling_rope_utils`, as of transformers 5), checked
//! against this app's [`super::limits`], and ready for [`RopeScaling::compute`].
//!
//! Accepted input: a whole `config.json`; or only its `rope_scaling` object; or only the newer
//! `rope_parameters` object (which may carry `rope_theta`). The legacy key `type` is read as
//! `rope_type`, and the legacy name `su` as `longrope`.
//!
//! Where each value comes from:
//!
//! - base: `rope_parameters.rope_theta` (transformers 5 keeps it there), else top-level
//!   `rope_theta`, else GPT-NeoX's `rotary_emb_base`, else 10000 (transformers' `default_theta`).
//! - head_dim: DeepSeek's `qk_rope_head_dim` (transformers' `DeepseekV2Config` sets `head_dim` to
//!   it: only that part of a head rotates), else `head_dim`, else
//!   `hidden_size // num_attention_heads`, else GPT-J's `n_embd // n_head`.
//! - rotary dim `int(head_dim · partial_rotary_factor)`: the scaling dict's
//!   `partial_rotary_factor`, else the top-level one (transformers 5.24's
//!   `convert_rope_params_to_dict` and `standardize_rope_params` only `setdefault` the top-level
//!   value into the dict, which the `_compute_*` functions read: the dict's own value wins), else
//!   GPT-NeoX's `rotary_pct` (0.25 when a `gpt_neox` config omits it, as `GPTNeoXConfig` does),
//!   else GPT-J's `rotary_dim` (null = the whole head), else the whole head.
//! - `max_position_embeddings`, else `n_positions`.
//! - the trained context `L₀`: `max_position_embeddings` for `dynamic` (what
//!   `_compute_dynamic_ntk_parameters` reads; a scaling dict's `original_max_position_embeddings`
//!   is unused there); for `yarn`, `llama3` and `longrope` the top-level
//!   `original_max_position_embeddings` (Phi-3 puts it there, and `standardize_rope_params` gives
//!   it priority), else the dict's, else `max_position_embeddings`.
//! - factor: the dict's. `longrope` without one takes `max_position_embeddings / L₀` (Phi-3:
//!   131072/4096 = 32); so does `yarn` with `"factor": null`.
//!
//! **Versions.** This module follows transformers 5, which the reference numbers (transformers
//! 5.23: Qwen2.5 YaRN attention factor 1.1386 = 0.1·ln 4 + 1) confirm; older releases read the same
//! dict differently. From 4.43 (when YaRN joined `modeling_rope_utils`) to 4.50,
//! `_compute_yarn_parameters` ignored `original_max_position_embeddings` and scaled from
//! `max_position_embeddings` (4.43's validator also raised on a factor that is not a float, and
//! Qwen2 read `rope_scaling` only from 4.45). 4.51 to 4.55
//! replaced an explicit factor by `max_position_embeddings / original_max_position_embeddings`
//! whenever the dict named an original length (Qwen2.5's documented `factor 4, original 32768`
//! with `max_position_embeddings 32768` then meant factor 1, no scaling, and attention factor 1;
//! huggingface/transformers#38224). 4.56 fixed it: transformers 5 uses the explicit factor and
//! derives one only when it is null. Early 4.4x releases' `_compute_longrope_parameters` took the
//! long factors at initialisation whenever `max_position_embeddings` exceeded the original;
//! transformers 5 holds the short factors until a sequence is longer than `L₀`, which
//! [`RopeScaling::seq_len`] models: this parser sets it to `L₀`, so a LongRoPE config computes
//! what the model holds when it is built (its short factors).
//!
//! **Checks**, like `validate_rope`: a required key missing from the scaling dict is an error
//! naming the keys and the `rope_type` (`llama3` needs `original_max_position_embeddings` as
//! transformers 4's validator did; transformers 5.24 fills it from `max_position_embeddings` in
//! `standardize_rope_params` and `_validate_llama3_rope_parameters` then warns that it must be
//! less than `max_position_embeddings`); an unknown key is a warning (as
//! `_check_received_keys` logs "Unrecognized keys": e.g. `original_max_position_embeddings` in a
//! `dynamic` dict, where 5.24's `_validate_dynamic_rope_parameters` allows only `rope_theta` and
//! `partial_rotary_factor` besides the factor), and so are the other conditions
//! transformers warns about (a factor below 1 — used as 1 here —, `beta_fast < beta_slow`,
//! `high_freq_factor ≤ low_freq_factor`, a YaRN factor that disagrees with
//! `max_position_embeddings / original_max_position_embeddings`). A LongRoPE list of the wrong
//! length is an error here (transformers only warns, then fails or misbehaves when it computes),
//! and so is any value outside [`super::limits`]. Every error is one line; the result is always
//! safe to compute.

mod json;
mod methods;
mod model;

use serde_json::{Map, Value};

use super::rope_scaling::{RopeScaling, RopeType};
pub use json::number_text;
use json::{json_error, kind, shown};

/// The longest text [`parse_config`] reads.
pub const MAX_CONFIG_BYTES: usize = 65_536;

/// A model's RoPE as read from its config.
#[derive(Clone, Debug, PartialEq)]
pub struct ModelRope {
    /// `dim` = rotary dim, base, factor, `original_max` (the trained context each type uses),
    /// `seq_len` (= `original_max`: what the model holds when built, LongRoPE's short factors)
    /// and every type-specific field.
    pub scaling: RopeScaling,
    /// The width of one query/key head (for DeepSeek, its RoPE part `qk_rope_head_dim`).
    pub head_dim: usize,
    /// `max_position_embeddings` (or `n_positions`).
    pub max_position: usize,
    /// GPT-J's `rotate_every_two` pairing (coordinates `2i, 2i+1`); else half-split
    /// (`rotate_half`: `i, i + d/2`).
    pub interleaved: bool,
    /// One short line per value read and where it came from.
    pub read: Vec<String>,
    /// What transformers would warn about (unknown keys, a factor below 1, …).
    pub warnings: Vec<String>,
}

/// Keys that mark a whole `config.json` rather than a bare scaling object.
const MODEL_KEYS: [&str; 13] = [
    "model_type",
    "architectures",
    "hidden_size",
    "num_attention_heads",
    "head_dim",
    "max_position_embeddings",
    "n_positions",
    "n_embd",
    "n_head",
    "rope_scaling",
    "rope_parameters",
    "qk_rope_head_dim",
    "rotary_dim",
];

/// Keys that mark a bare scaling object.
const SCALING_KEYS: [&str; 5] = ["rope_type", "type", "factor", "short_factor", "long_factor"];

/// Keys every scaling dict may hold.
const COMMON_KEYS: [&str; 4] = ["rope_type", "type", "rope_theta", "partial_rotary_factor"];

const ORIGINAL: &str = "original_max_position_embeddings";

/// `(required, optional)` keys of each type's scaling dict (`_validate_*_rope_parameters`).
fn keys_of(t: RopeType) -> (&'static [&'static str], &'static [&'static str]) {
    match t {
        RopeType::Default => (&[], &[]),
        RopeType::Linear | RopeType::Ntk => (&["factor"], &[]),
        // 5.24's `_validate_dynamic_rope_parameters`: no original_max_position_embeddings.
        RopeType::Dynamic => (&["factor"], &[]),
        RopeType::Yarn => (
            &["factor"],
            &[
                "attention_factor",
                "beta_fast",
                "beta_slow",
                "mscale",
                "mscale_all_dim",
                ORIGINAL,
                "truncate",
            ],
        ),
        RopeType::Longrope => (
            &["short_factor", "long_factor"],
            &["attention_factor", "factor", ORIGINAL],
        ),
        RopeType::Llama3 => (
            &["factor", ORIGINAL, "low_freq_factor", "high_freq_factor"],
            &[],
        ),
    }
}

/// Reads a model's RoPE from a `config.json` text (or its `rope_scaling` / `rope_parameters`
/// object). Errors are one line: bad JSON says `line L, column C: …`.
pub fn parse_config(text: &str) -> Result<ModelRope, String> {
    if text.len() > MAX_CONFIG_BYTES {
        return Err(format!(
            "the config has {} bytes; at most {MAX_CONFIG_BYTES} are read",
            text.len()
        ));
    }
    let value: Value = serde_json::from_str(text).map_err(|e| json_error(&e))?;
    match value {
        Value::Object(root) => Reader::new(root)?.run(),
        other => Err(format!(
            "expected a JSON object (a config.json, or its rope_scaling or rope_parameters), got {}",
            kind(&other)
        )),
    }
}

/// Reads one config: the top level and the scaling dict.
struct Reader {
    /// The top level of a whole config (empty when only a scaling object was given).
    top: Map<String, Value>,
    /// The scaling dict (empty when the config has none).
    dict: Map<String, Value>,
    /// Its name in messages: `rope_scaling` or `rope_parameters`.
    name: &'static str,
    /// Only a scaling object was given.
    bare: bool,
    read: Vec<String>,
    warnings: Vec<String>,
}

impl Reader {
    /// Splits the root object into the top level and the scaling dict.
    fn new(root: Map<String, Value>) -> Result<Reader, String> {
        let bare = !MODEL_KEYS.iter().any(|k| root.contains_key(*k))
            && SCALING_KEYS.iter().any(|k| root.contains_key(*k));
        let mut r = Reader {
            top: Map::new(),
            dict: Map::new(),
            name: "rope_scaling",
            bare,
            read: Vec::new(),
            warnings: Vec::new(),
        };
        if bare {
            if root.contains_key("rope_theta") {
                r.name = "rope_parameters";
            }
            r.read.push(format!(
                "only a {} object was given: the model's other values are this app's defaults",
                r.name
            ));
            r.dict = root;
            return Ok(r);
        }
        r.top = root;
        let scaling = r.top.get("rope_scaling").filter(|v| !v.is_null());
        let parameters = r.top.get("rope_parameters").filter(|v| !v.is_null());
        let (name, dict) = match (scaling, parameters) {
            (Some(s), Some(_)) => {
                r.warnings.push(
                    "both rope_scaling and rope_parameters are given; transformers reads rope_scaling"
                        .to_string(),
                );
                ("rope_scaling", s)
            }
            (Some(s), None) => ("rope_scaling", s),
            (None, Some(p)) => ("rope_parameters", p),
            (None, None) => return Ok(r),
        };
        r.name = name;
        let Value::Object(dict) = dict else {
            return Err(format!(
                "{name} must be an object or null, got {}",
                kind(dict)
            ));
        };
        r.dict = r.per_layer(dict.clone());
        Ok(r)
    }

    /// transformers 5's per-layer-type `rope_parameters` (`{"full_attention": {…},
    /// "sliding_attention": {…}}`): reads the `full_attention` entry (else the first).
    fn per_layer(&mut self, dict: Map<String, Value>) -> Map<String, Value> {
        let nested = !dict.is_empty() && dict.values().all(Value::is_object);
        if !nested {
            return dict;
        }
        let names: Vec<&str> = dict.keys().map(String::as_str).collect();
        let chosen = if dict.contains_key("full_attention") {
            "full_attention"
        } else {
            names[0]
        };
        self.warnings.push(format!(
            "{} holds one entry per layer type ({}); this reads {chosen}",
            self.name,
            names.join(", ")
        ));
        match dict.get(chosen) {
            Some(Value::Object(inner)) => inner.clone(),
            _ => Map::new(),
        }
    }

    fn run(mut self) -> Result<ModelRope, String> {
        let rope_type = self.rope_type()?;
        self.check_keys(rope_type)?;
        let base = self.base()?;
        let head_dim = self.head_dim()?;
        let dim = self.rotary_dim(head_dim)?;
        let (max_position, max_given) = self.max_position()?;
        let (original_max, original_given) = self.original_max(rope_type, max_position)?;
        let factor = self.factor(rope_type, max_position, original_max)?;
        let mut scaling = RopeScaling {
            rope_type,
            dim,
            base,
            factor,
            original_max,
            seq_len: original_max,
            ..RopeScaling::default()
        };
        match rope_type {
            RopeType::Yarn => {
                self.yarn(&mut scaling)?;
                if max_given && original_given {
                    self.yarn_implicit_factor(&scaling, max_position);
                }
            }
            RopeType::Llama3 => self.llama3(&mut scaling, max_given.then_some(max_position))?,
            RopeType::Longrope => self.longrope(&mut scaling)?,
            _ => {}
        }
        let interleaved = self.interleaved();
        Ok(ModelRope {
            scaling,
            head_dim,
            max_position,
            interleaved,
            read: self.read,
            warnings: self.warnings,
        })
    }

    /// A string of the scaling dict.
    fn dict_string(&self, key: &str) -> Result<Option<&str>, String> {
        match self.dict.get(key) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::String(s)) => Ok(Some(s)),
            Some(other) => Err(format!(
                "{}.{key} must be a string, got {}",
                self.name,
                shown(other)
            )),
        }
    }

    fn rope_type(&mut self) -> Result<RopeType, String> {
        let modern = self.dict_string("rope_type")?.map(str::to_owned);
        let legacy = self.dict_string("type")?.map(str::to_owned);
        let (name, from) = match (modern.as_deref(), legacy.as_deref()) {
            (Some(m), Some(l)) if m != l => {
                self.warnings.push(format!(
                    "{} has rope_type '{m}' and type '{l}'; transformers reads rope_type",
                    self.name
                ));
                (m, "rope_type")
            }
            (Some(m), _) => (m, "rope_type"),
            (None, Some(l)) => (l, "type, the legacy name of rope_type"),
            (None, None) => {
                let why = if self.dict.is_empty() {
                    format!("no {}: plain RoPE", self.name)
                } else {
                    format!("{} names none: transformers takes default", self.name)
                };
                self.read.push(format!("rope_type = default ({why})"));
                return Ok(RopeType::Default);
            }
        };
        let t = if name == "su" {
            Some(RopeType::Longrope)
        } else {
            RopeType::parse(name)
        };
        let Some(t) = t else {
            let known: Vec<&str> = RopeType::ALL.iter().map(|t| t.as_str()).collect();
            return Err(format!(
                "unknown rope_type '{name}' in {}; known: {} (and su, the legacy name of longrope)",
                self.name,
                known.join(", ")
            ));
        };
        let legacy_name = if name == "su" {
            " 'su', the legacy name of longrope"
        } else {
            ""
        };
        self.read.push(format!(
            "rope_type = {} ({}.{from}{legacy_name})",
            t.as_str(),
            self.name
        ));
        if t == RopeType::Ntk {
            self.warnings.push(
                "rope_type 'ntk' is this app's NTK-aware base change, not a transformers rope_type"
                    .to_string(),
            );
        }
        Ok(t)
    }

    /// Missing required keys are an error, unknown ones a warning (`_check_received_keys`).
    fn check_keys(&mut self, t: RopeType) -> Result<(), String> {
        let (required, optional) = keys_of(t);
        let missing: Vec<&str> = required
            .iter()
            .copied()
            .filter(|k| {
                let given = self.dict.contains_key(*k)
                    || (*k == ORIGINAL && self.top.contains_key(ORIGINAL));
                !given
            })
            .collect();
        if !missing.is_empty() {
            return Err(format!(
                "{} for rope_type '{}' is missing {}",
                self.name,
                t.as_str(),
                missing.join(", ")
            ));
        }
        let unknown: Vec<&str> = self
            .dict
            .keys()
            .map(String::as_str)
            .filter(|k| !required.contains(k) && !optional.contains(k) && !COMMON_KEYS.contains(k))
            .collect();
        if !unknown.is_empty() {
            self.warnings.push(format!(
                "unknown key{} in {} for rope_type '{}': {} (ignored, as transformers does after warning)",
                if unknown.len() > 1 { "s" } else { "" },
                self.name,
                t.as_str(),
                unknown.join(", ")
            ));
        }
        Ok(())
    }

    /// Where a default came from, for `read`.
    fn default_note(&self) -> &'static str {
        if self.bare {
            "not given: this app's default"
        } else {
            "not in the config: this app's default"
        }
    }
}

#[cfg(test)]
mod tests;
