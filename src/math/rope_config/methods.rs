//! The scaling dict's fields per method: the factor, YaRN's, Llama 3's and LongRoPE's.

use serde_json::Value;

use super::json::{in_range, number, number_text, path, shown};
use super::{ORIGINAL, Reader};
use crate::math::limits;
use crate::math::rope_scaling::{RopeScaling, RopeType};

impl Reader {
    pub(super) fn factor(
        &mut self,
        t: RopeType,
        max_position: usize,
        original: usize,
    ) -> Result<f64, String> {
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
    pub(super) fn optional(&self, key: &str, range: (f64, f64)) -> Result<Option<f64>, String> {
        number(&self.dict, self.name, key)?
            .map(|v| in_range(&path(self.name, key), v, range))
            .transpose()
    }

    /// A number of the dict within `range`, or `default` when absent, null or 0 (Python's
    /// `value or default`).
    pub(super) fn or_default(
        &self,
        key: &str,
        default: f64,
        range: (f64, f64),
    ) -> Result<f64, String> {
        Ok(self
            .optional(key, (f64::MIN, f64::MAX))?
            .filter(|v| *v != 0.0)
            .map(|v| in_range(&path(self.name, key), v, range))
            .transpose()?
            .unwrap_or(default))
    }

    pub(super) fn yarn(&mut self, c: &mut RopeScaling) -> Result<(), String> {
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
    pub(super) fn yarn_implicit_factor(&mut self, c: &RopeScaling, max_position: usize) {
        let implicit = max_position as f64 / c.original_max as f64;
        if implicit != c.factor && implicit != 1.0 {
            self.warnings.push(format!(
                "factor {} differs from max_position_embeddings / {ORIGINAL} = {}; transformers warns and uses the factor",
                c.factor,
                number_text(implicit)
            ));
        }
    }

    pub(super) fn llama3(
        &mut self,
        c: &mut RopeScaling,
        max_position: Option<usize>,
    ) -> Result<(), String> {
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
    pub(super) fn factor_list(&self, key: &str, dim: usize) -> Result<Vec<f64>, String> {
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

    pub(super) fn longrope(&mut self, c: &mut RopeScaling) -> Result<(), String> {
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
}
