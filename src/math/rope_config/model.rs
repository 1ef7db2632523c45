//! The model's own fields: base, head_dim, rotary dim, the lengths, and how coordinates pair.

use serde_json::{Map, Value};

use super::json::{in_range, int_in_range, number, number_text, whole};
use super::{ORIGINAL, Reader};
use crate::math::limits;
use crate::math::rope_scaling::{RopeScaling, RopeType};

impl Reader {
    pub(super) fn base(&mut self) -> Result<f64, String> {
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

    pub(super) fn head_dim(&mut self) -> Result<usize, String> {
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
    pub(super) fn ratio(
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

    pub(super) fn rotary_dim(&mut self, head_dim: usize) -> Result<usize, String> {
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
    pub(super) fn max_position(&mut self) -> Result<(usize, bool), String> {
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
    pub(super) fn original_max(
        &mut self,
        t: RopeType,
        max_position: usize,
    ) -> Result<(usize, bool), String> {
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

    /// Adjacent pairs (coordinates `2i, 2i+1`): GPT-J's `rotate_every_two` (`model_type` gptj, or
    /// GPT-J's keys `rotary_dim` with `n_embd`/`n_head`); Llama 4 (transformers 5.24's
    /// `apply_rotary_emb`: `view_as_complex(x.reshape(…, -1, 2))`); Cohere, Cohere2 and GLM
    /// (their `rotate_half` takes `x[..., ::2]` and `x[..., 1::2]`); and DeepSeek-V2/V3, whose q/k rope
    /// parts are stored interleaved (DeepSeek's `modeling_deepseek.py` de-interleaves them before
    /// `rotate_half`; V3's `rope_interleave`, default true, can turn that off).
    pub(super) fn interleaved(&mut self) -> bool {
        let top = &self.top;
        let model_type = top.get("model_type").and_then(Value::as_str);
        let gptj = model_type == Some("gptj")
            || (top.contains_key("rotary_dim")
                && top.contains_key("n_embd")
                && top.contains_key("n_head"));
        let deepseek = matches!(model_type, Some("deepseek_v2" | "deepseek_v3"))
            && top.get("rope_interleave").and_then(Value::as_bool) != Some(false);
        let adjacent = matches!(
            model_type,
            Some("llama4" | "llama4_text" | "cohere" | "cohere2" | "glm")
        );
        self.read.push(if gptj {
            "pairing = interleaved (GPT-J's rotate_every_two: coordinates 2i, 2i+1)".to_string()
        } else if deepseek {
            "pairing = interleaved (coordinates 2i, 2i+1: DeepSeek stores its q/k rope parts interleaved)"
                .to_string()
        } else if adjacent {
            "pairing = interleaved (coordinates 2i, 2i+1: Llama 4 turns them as one complex number; \
             Cohere's and GLM's rotate_half takes x[..., ::2] and x[..., 1::2])"
                .to_string()
        } else {
            "pairing = half-split (rotate_half: coordinates i, i + d/2)".to_string()
        });
        gptj || deepseek || adjacent
    }
}
