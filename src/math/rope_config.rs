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

use serde_json::{Map, Value};

use super::limits;
use super::rope_scaling::{RopeScaling, RopeType};

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

/// serde_json's message as `line L, column C: what`.
fn json_error(e: &serde_json::Error) -> String {
    let text = e.to_string();
    let what = text
        .rsplit_once(" at line ")
        .map_or(text.as_str(), |(w, _)| w);
    format!("line {}, column {}: {what}", e.line(), e.column())
}

/// A JSON value's kind, for messages.
fn kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// A value as it appears in the config, cut short for messages.
fn shown(v: &Value) -> String {
    let text = v.to_string();
    if text.chars().count() > 40 {
        format!("{}…", text.chars().take(40).collect::<String>())
    } else {
        text
    }
}

/// A number in messages and ranges: plain when short, exponent form (`1e6`) when long.
pub fn number_text(v: f64) -> String {
    if v != 0.0 && v.is_finite() && !(1e-2..1e5).contains(&v.abs()) {
        format!("{v:e}")
    } else {
        format!("{v}")
    }
}

/// `v` within the inclusive range, or an error naming `what`.
fn in_range(what: &str, v: f64, (lo, hi): (f64, f64)) -> Result<f64, String> {
    if (lo..=hi).contains(&v) {
        Ok(v)
    } else {
        Err(format!(
            "{what} {} is out of this app's range {}..={}",
            number_text(v),
            number_text(lo),
            number_text(hi)
        ))
    }
}

/// A whole number within the inclusive `usize` range.
fn int_in_range(what: &str, v: f64, (lo, hi): (usize, usize)) -> Result<usize, String> {
    in_range(what, v, (lo as f64, hi as f64)).map(|v| v as usize)
}

/// Where a value sits, for messages: `rope_scaling.factor`, or a top-level key alone.
fn path(owner: &str, key: &str) -> String {
    if owner.is_empty() {
        key.to_string()
    } else {
        format!("{owner}.{key}")
    }
}

/// A number of `map` (None when absent or null), or an error naming `owner.key`.
fn number(map: &Map<String, Value>, owner: &str, key: &str) -> Result<Option<f64>, String> {
    match map.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::Number(n)) => n
            .as_f64()
            .filter(|v| v.is_finite())
            .map(Some)
            .ok_or_else(|| format!("{} is not a finite number", path(owner, key))),
        Some(other) => Err(format!(
            "{} must be a number, got {}",
            path(owner, key),
            shown(other)
        )),
    }
}

/// A whole, non-negative number of `map` (None when absent or null).
fn whole(map: &Map<String, Value>, owner: &str, key: &str) -> Result<Option<f64>, String> {
    match number(map, owner, key)? {
        Some(v) if v < 0.0 || v.fract() != 0.0 => Err(format!(
            "{} must be a whole number, got {}",
            path(owner, key),
            number_text(v)
        )),
        v => Ok(v),
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

    fn base(&mut self) -> Result<f64, String> {
        let (v, from) = if let Some(v) = number(&self.dict, self.name, "rope_theta")? {
            (v, format!("{}.rope_theta", self.name))
        } else if let Some(v) = number(&self.top, "", "rope_theta")? {
            (v, "rope_theta".to_string())
        } else if let Some(v) = number(&self.top, "", "rotary_emb_base")? {
            (v, "rotary_emb_base, GPT-NeoX's name for it".to_string())
        } else {
            let from = if self.bare {
                self.default_note()
            } else {
                "not in the config: transformers' default"
            };
            (RopeScaling::default().base, from.to_string())
        };
        let v = in_range("rope_theta", v, limits::BASE)?;
        self.read.push(format!("rope_theta = {v} ({from})"));
        Ok(v)
    }

    fn head_dim(&mut self) -> Result<usize, String> {
        let top = &self.top;
        let (v, from) = if let Some(v) = whole(top, "", "qk_rope_head_dim")? {
            (
                v,
                "qk_rope_head_dim: DeepSeek's RoPE part of each head, which transformers uses as head_dim"
                    .to_string(),
            )
        } else if let Some(v) = whole(top, "", "head_dim")? {
            (v, "head_dim".to_string())
        } else if let Some((v, from)) = Self::ratio(top, "hidden_size", "num_attention_heads")? {
            (v, from)
        } else if let Some((v, from)) = Self::ratio(top, "n_embd", "n_head")? {
            (v, from)
        } else {
            if !self.bare {
                self.warnings.push(
                    "no head_dim, hidden_size/num_attention_heads or n_embd/n_head: head_dim 128 assumed"
                        .to_string(),
                );
            }
            (
                RopeScaling::default().dim as f64,
                self.default_note().to_string(),
            )
        };
        let v = int_in_range("head_dim", v, limits::DIM)?;
        self.read.push(format!("head_dim = {v} ({from})"));
        Ok(v)
    }

    /// `width // heads` when both are given.
    fn ratio(
        top: &Map<String, Value>,
        width: &str,
        heads: &str,
    ) -> Result<Option<(f64, String)>, String> {
        match (whole(top, "", width)?, whole(top, "", heads)?) {
            (Some(w), Some(h)) if h >= 1.0 => Ok(Some((
                (w / h).floor(),
                format!("{width} {w} / {heads} {h}"),
            ))),
            (Some(_), Some(_)) => Err(format!("{heads} must be at least 1")),
            _ => Ok(None),
        }
    }

    fn rotary_dim(&mut self, head_dim: usize) -> Result<usize, String> {
        let gpt_neox = self.top.get("model_type").and_then(Value::as_str) == Some("gpt_neox");
        let top = number(&self.top, "", "partial_rotary_factor")?;
        let fraction = if let Some(p) = number(&self.dict, self.name, "partial_rotary_factor")? {
            if let Some(t) = top.filter(|&t| t != p) {
                self.warnings.push(format!(
                    "partial_rotary_factor {} (top level) is not used: transformers 5 keeps {}.partial_rotary_factor {}",
                    number_text(t),
                    self.name,
                    number_text(p)
                ));
            }
            Some((p, format!("{}.partial_rotary_factor", self.name)))
        } else if let Some(p) = top {
            Some((p, "partial_rotary_factor".to_string()))
        } else if let Some(p) = number(&self.top, "", "rotary_pct")? {
            Some((p, "rotary_pct".to_string()))
        } else if gpt_neox && !self.top.contains_key("rotary_dim") {
            Some((0.25, "GPTNeoXConfig's default rotary_pct".to_string()))
        } else {
            None
        };
        let (rotary, from) = if let Some((p, name)) = fraction {
            if !(p > 0.0 && p <= 1.0) {
                return Err(format!(
                    "{name} {} is out of range: a fraction above 0, at most 1",
                    number_text(p)
                ));
            }
            let r = (head_dim as f64 * p).floor() as usize;
            (r, format!("{name} {p} × head_dim {head_dim}"))
        } else if let Some(r) = whole(&self.top, "", "rotary_dim")? {
            if r > head_dim as f64 {
                return Err(format!(
                    "rotary_dim {} is larger than head_dim {head_dim}",
                    number_text(r)
                ));
            }
            (r as usize, "rotary_dim".to_string())
        } else {
            (head_dim, "all of head_dim".to_string())
        };
        if rotary < limits::ROTARY_DIM.0 {
            return Err(format!(
                "rotary dim {rotary} ({from}) is below {}",
                limits::ROTARY_DIM.0
            ));
        }
        if !rotary.is_multiple_of(2) {
            return Err(format!(
                "rotary dim {rotary} ({from}) must be even: RoPE rotates coordinate pairs"
            ));
        }
        self.read.push(format!("rotary dim = {rotary} ({from})"));
        Ok(rotary)
    }

    /// `(max_position_embeddings, whether the config gives it)`.
    fn max_position(&mut self) -> Result<(usize, bool), String> {
        let top = &self.top;
        let (v, from, given) = if let Some(v) = whole(top, "", "max_position_embeddings")? {
            (v, "max_position_embeddings", true)
        } else if let Some(v) = whole(top, "", "n_positions")? {
            (v, "n_positions", true)
        } else {
            let default = RopeScaling::default().seq_len as f64;
            (default, self.default_note(), false)
        };
        let v = int_in_range("max_position_embeddings", v, limits::CONTEXT)?;
        self.read
            .push(format!("max_position_embeddings = {v} ({from})"));
        Ok((v, given))
    }

    /// The trained context `L₀` this type scales from, and whether the config names it.
    fn original_max(&mut self, t: RopeType, max_position: usize) -> Result<(usize, bool), String> {
        let in_dict = whole(&self.dict, self.name, ORIGINAL)?;
        match t {
            RopeType::Yarn | RopeType::Llama3 | RopeType::Longrope => {
                let (v, from, given) = if let Some(v) = whole(&self.top, "", ORIGINAL)? {
                    (
                        v,
                        format!("{ORIGINAL} at the top level, which transformers prefers"),
                        true,
                    )
                } else if let Some(v) = in_dict {
                    (v, format!("{}.{ORIGINAL}", self.name), true)
                } else {
                    (
                        max_position as f64,
                        format!("no {ORIGINAL}: max_position_embeddings, as transformers fills it"),
                        false,
                    )
                };
                let v = int_in_range(ORIGINAL, v, limits::CONTEXT)?;
                self.read.push(format!("trained context L₀ = {v} ({from})"));
                Ok((v, given))
            }
            RopeType::Dynamic => {
                self.read.push(format!(
                    "trained context L₀ = {max_position} (max_position_embeddings, which dynamic NTK scales from)"
                ));
                if let Some(v) = in_dict {
                    self.read.push(format!(
                        "{}.{ORIGINAL} = {} is not used by dynamic (transformers reads max_position_embeddings)",
                        self.name,
                        number_text(v)
                    ));
                }
                Ok((max_position, true))
            }
            _ => Ok((max_position, false)),
        }
    }

    fn factor(&mut self, t: RopeType, max_position: usize, original: usize) -> Result<f64, String> {
        if t == RopeType::Default {
            return Ok(1.0);
        }
        let key = path(self.name, "factor");
        let explicit = number(&self.dict, self.name, "factor")?;
        let derivable = matches!(t, RopeType::Longrope)
            || (t == RopeType::Yarn && self.dict.get("factor") == Some(&Value::Null));
        let (v, from) = match explicit {
            Some(v) => (v, key.clone()),
            None if derivable => (
                max_position as f64 / original as f64,
                format!(
                    "max_position_embeddings {max_position} / {ORIGINAL} {original}: {key} is not given"
                ),
            ),
            None => return Err(format!("{key} must be a number, got null")),
        };
        let v = if v < 1.0 {
            self.warnings.push(format!(
                "{key} {} is below 1; transformers warns and uses it, this app uses 1",
                number_text(v)
            ));
            1.0
        } else {
            in_range(&key, v, limits::FACTOR)?
        };
        self.read.push(format!("factor = {v} ({from})"));
        Ok(v)
    }

    /// A number of the dict within `range`, if given.
    fn optional(&self, key: &str, range: (f64, f64)) -> Result<Option<f64>, String> {
        number(&self.dict, self.name, key)?
            .map(|v| in_range(&path(self.name, key), v, range))
            .transpose()
    }

    /// A number of the dict within `range`, or `default` when absent, null or 0 (Python's
    /// `value or default`).
    fn or_default(&self, key: &str, default: f64, range: (f64, f64)) -> Result<f64, String> {
        Ok(self
            .optional(key, (f64::MIN, f64::MAX))?
            .filter(|v| *v != 0.0)
            .map(|v| in_range(&path(self.name, key), v, range))
            .transpose()?
            .unwrap_or(default))
    }

    fn yarn(&mut self, c: &mut RopeScaling) -> Result<(), String> {
        c.beta_fast = self.or_default("beta_fast", 32.0, limits::RAMP)?;
        c.beta_slow = self.or_default("beta_slow", 1.0, limits::RAMP)?;
        if c.beta_fast < c.beta_slow {
            self.warnings.push(format!(
                "beta_fast {} is below beta_slow {}; transformers warns and uses them",
                c.beta_fast, c.beta_slow
            ));
        }
        c.attention_factor = self.optional("attention_factor", limits::ATTENTION_FACTOR)?;
        c.mscale = self.optional("mscale", limits::MSCALE)?;
        c.mscale_all_dim = self.optional("mscale_all_dim", limits::MSCALE)?;
        c.truncate = match self.dict.get("truncate") {
            None | Some(Value::Null) => true,
            Some(Value::Bool(b)) => *b,
            Some(other) => {
                return Err(format!(
                    "{}.truncate must be true or false, got {}",
                    self.name,
                    shown(other)
                ));
            }
        };
        self.read.push(format!(
            "beta_fast = {}, beta_slow = {}, truncate = {}",
            c.beta_fast, c.beta_slow, c.truncate
        ));
        let attention = match (c.attention_factor, c.mscale, c.mscale_all_dim) {
            (Some(a), _, _) => format!("{}.attention_factor {a}", self.name),
            (None, Some(m), Some(all)) if m != 0.0 && all != 0.0 => {
                format!("get_mscale(s, mscale {m}) / get_mscale(s, mscale_all_dim {all})")
            }
            _ => "0.1·ln(s) + 1".to_string(),
        };
        self.read.push(format!("attention factor from {attention}"));
        Ok(())
    }

    /// transformers 5's warning when the explicit YaRN factor differs from
    /// `max_position_embeddings / original_max_position_embeddings` (and that ratio is not 1).
    fn yarn_implicit_factor(&mut self, c: &RopeScaling, max_position: usize) {
        let implicit = max_position as f64 / c.original_max as f64;
        if implicit != c.factor && implicit != 1.0 {
            self.warnings.push(format!(
                "factor {} differs from max_position_embeddings / {ORIGINAL} = {}; transformers warns and uses the factor",
                c.factor,
                number_text(implicit)
            ));
        }
    }

    fn llama3(&mut self, c: &mut RopeScaling, max_position: Option<usize>) -> Result<(), String> {
        let required = |key: &str| -> Result<f64, String> {
            self.optional(key, limits::RAMP)?
                .ok_or_else(|| format!("{}.{key} must be a number, got null", self.name))
        };
        c.low_freq_factor = required("low_freq_factor")?;
        c.high_freq_factor = required("high_freq_factor")?;
        if c.high_freq_factor <= c.low_freq_factor {
            self.warnings.push(format!(
                "high_freq_factor {} is not above low_freq_factor {}; transformers warns (this app keeps θ on the shared edge)",
                c.high_freq_factor, c.low_freq_factor
            ));
        }
        if let Some(max) = max_position.filter(|&m| c.original_max >= m) {
            self.warnings.push(format!(
                "{ORIGINAL} {} is not below max_position_embeddings {max}; transformers warns",
                c.original_max
            ));
        }
        self.read.push(format!(
            "low_freq_factor = {}, high_freq_factor = {} ({})",
            c.low_freq_factor, c.high_freq_factor, self.name
        ));
        Ok(())
    }

    /// One LongRoPE list: `dim/2` numbers within [`limits::EXT_FACTOR`].
    fn factor_list(&self, key: &str, dim: usize) -> Result<Vec<f64>, String> {
        let Some(Value::Array(items)) = self.dict.get(key) else {
            return Err(format!(
                "{}.{key} must be a list of numbers, got {}",
                self.name,
                self.dict.get(key).map_or("nothing".to_string(), shown)
            ));
        };
        if items.len() != dim / 2 {
            return Err(format!(
                "{key} has {} entries; rope_type 'longrope' needs head_dim·partial/2 = {}",
                items.len(),
                dim / 2
            ));
        }
        items
            .iter()
            .enumerate()
            .map(|(i, item)| {
                let what = format!("{}.{key}[{i}]", self.name);
                match item.as_f64().filter(|v| v.is_finite()) {
                    Some(v) => in_range(&what, v, limits::EXT_FACTOR),
                    None => Err(format!("{what} must be a number, got {}", shown(item))),
                }
            })
            .collect()
    }

    fn longrope(&mut self, c: &mut RopeScaling) -> Result<(), String> {
        c.short_factor = self.factor_list("short_factor", c.dim)?;
        c.long_factor = self.factor_list("long_factor", c.dim)?;
        c.attention_factor = self.optional("attention_factor", limits::ATTENTION_FACTOR)?;
        self.read.push(format!(
            "short_factor and long_factor: {} entries each; the model holds the short ones until a sequence is longer than L₀ = {}, then the long ones",
            c.dim / 2,
            c.original_max
        ));
        Ok(())
    }

    /// Adjacent pairs (coordinates `2i, 2i+1`): GPT-J's `rotate_every_two` (`model_type` gptj, or
    /// GPT-J's keys `rotary_dim` with `n_embd`/`n_head`), and DeepSeek-V2/V3, whose q/k rope
    /// parts are stored interleaved (DeepSeek's `modeling_deepseek.py` de-interleaves them before
    /// `rotate_half`; V3's `rope_interleave`, default true, can turn that off).
    fn interleaved(&mut self) -> bool {
        let top = &self.top;
        let model_type = top.get("model_type").and_then(Value::as_str);
        let gptj = model_type == Some("gptj")
            || (top.contains_key("rotary_dim")
                && top.contains_key("n_embd")
                && top.contains_key("n_head"));
        let deepseek = matches!(model_type, Some("deepseek_v2" | "deepseek_v3"))
            && top.get("rope_interleave").and_then(Value::as_bool) != Some(false);
        self.read.push(if gptj {
            "pairing = interleaved (GPT-J's rotate_every_two: coordinates 2i, 2i+1)".to_string()
        } else if deepseek {
            "pairing = interleaved (coordinates 2i, 2i+1: DeepSeek stores its q/k rope parts interleaved)"
                .to_string()
        } else {
            "pairing = half-split (rotate_half: coordinates i, i + d/2)".to_string()
        });
        gptj || deepseek
    }
}

#[cfg(test)]
#[path = "rope_config_tests.rs"]
mod tests;
