//! Partial rotation: a config's `partial_rotary_factor` f (or `rotary_dim`) rotates only part of
//! each query/key head of width `h`, and transformers 5.24 lays that part out in two different
//! ways (`modeling_rope_utils`):
//!
//! - **rotary_dim** (the `_compute_*` functions of the scaling types, and the default RoPE of the
//!   models whose `compute_default_rope_parameters` reads f — Qwen3-Next, Phi-3, GPT-NeoX, GLM;
//!   applied by their `apply_rotary_pos_emb`, which rotates `q[..., :rotary_dim]` and passes the
//!   rest through): `r = int(h·f)` coordinates rotate, `inv_freq_i = θ^(−2i/r)` for `i` in
//!   `0, 2, …, r − 1` halved (`ceil(r/2)` pairs, so the rotated width is `2·ceil(r/2)`), pair `i`
//!   joins coordinates `i` and `i + width/2` (`rotate_half` within the rotated part; GPT-J's
//!   `rotate_every_two` and GLM's interleaved `rotate_half`: `2i` and `2i + 1`), and coordinates
//!   from `width` on are not rotated. The model types chapter 5 reads all rotate the whole head:
//!   their default RoPE ignores f, and with another type an f below 1 would not run.
//! - **proportional** (`_compute_proportional_rope_parameters`; Gemma 4's full layers, with
//!   `global_head_dim`): `int(f·h // 2)` pairs turn with `inv_freq_i = θ^(−2i/h)` — the exponent
//!   over the whole head —, the other `h/2 − int(f·h // 2)` pairs get frequency exactly 0, and
//!   `rotate_half` pairs coordinates `i` and `i + h/2` across the whole head's halves.
//!
//! Both divide by the dict's `factor` (1 when absent; linear scaling). Since
//! `⌊⌊x⌋/2⌋ = ⌊x/2⌋`, the proportional type turns `⌊r/2⌋` pairs for the same `r = int(h·f)`: the
//! two agree on how many pairs turn (for even `r`) and, below f = 1, on little else: the
//! coordinates `0 … ⌊r/2⌋ − 1` and pair 0's frequency; not which coordinates rotate beyond those,
//! which pair with which, or any other frequency.
//!
//! Frequencies here are f64; transformers computes them in float32 (a relative difference
//! around 10⁻⁷).

use serde_json::Value;

use super::layers::layer_rope_config;
use super::rope_config::parse_config;
use super::rope_scaling::RopeType;

/// How a partial rotation is laid out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Convention {
    /// The first `r` coordinates rotate, frequencies over `r`.
    RotaryDim,
    /// Pairs across the whole head's halves, frequencies over the head, the rest at ω = 0.
    Proportional,
}

impl Convention {
    /// Both, in the order the figure lists them.
    pub const ALL: [Convention; 2] = [Convention::Proportional, Convention::RotaryDim];

    /// Its name on the page (the `rope_type` for proportional, the field for the other).
    pub fn label(self) -> &'static str {
        match self {
            Convention::RotaryDim => "rotary_dim",
            Convention::Proportional => "proportional",
        }
    }
}

/// What one coordinate of the head does under a convention.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Role {
    /// It turns with `partner` as rotary pair `pair` at frequency `omega` (> 0).
    Turns {
        /// The pair's index.
        pair: usize,
        /// The other coordinate of the pair.
        partner: usize,
        /// The pair's `inv_freq`.
        omega: f64,
    },
    /// It is in rotary pair `pair` with `partner`, whose frequency is exactly 0: turned by
    /// angle 0 at every position (proportional).
    Still {
        /// The pair's index.
        pair: usize,
        /// The other coordinate of the pair.
        partner: usize,
    },
    /// It is outside the rotated part (rotary_dim).
    Passes,
}

/// One head's partial rotation: width `head_dim` (even, ≥ 2), `rotary` = `int(h·f)` ≤ `h`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Partial {
    /// `h`, the head's width.
    pub head_dim: usize,
    /// `r = int(h·f)`.
    pub rotary: usize,
    /// `rope_theta`.
    pub theta: f64,
    /// The dict's `factor` (both conventions divide every frequency by it).
    pub factor: f64,
    /// GPT-J's `rotate_every_two` pairing for rotary_dim (`2i`, `2i + 1`).
    pub interleaved: bool,
}

impl Partial {
    /// `r = int(h·f)` for a fraction `f` in (0, 1] (floor, as Python's `int` of a positive float).
    pub fn rotary_of(head_dim: usize, fraction: f64) -> usize {
        ((head_dim as f64 * fraction).floor() as usize).min(head_dim)
    }

    /// Pairs that turn: rotary_dim `ceil(r/2)`; proportional `⌊r/2⌋`.
    pub fn turning(&self, c: Convention) -> usize {
        match c {
            Convention::RotaryDim => self.rotary.div_ceil(2),
            Convention::Proportional => (self.rotary / 2).min(self.head_dim / 2),
        }
    }

    /// Coordinates a convention rotates: rotary_dim its rotated width `2·ceil(r/2)`;
    /// proportional the turning pairs' two coordinates.
    pub fn rotated(&self, c: Convention) -> usize {
        2 * self.turning(c)
    }

    /// The frequencies a convention's `inv_freq` holds, fastest first: rotary_dim's
    /// `ceil(r/2)`; proportional's `h/2`, the ones past the turning pairs exactly 0.
    pub fn inv_freq(&self, c: Convention) -> Vec<f64> {
        let (count, over) = match c {
            Convention::RotaryDim => (self.turning(c), self.rotary),
            Convention::Proportional => (self.head_dim / 2, self.head_dim),
        };
        let turning = self.turning(c);
        (0..count)
            .map(|i| {
                if i < turning {
                    self.theta.powf(-((2 * i) as f64) / over as f64) / self.factor
                } else {
                    0.0
                }
            })
            .collect()
    }

    /// The frequency of turning pair `i` (`i` < [`Partial::turning`]).
    pub fn omega(&self, c: Convention, i: usize) -> f64 {
        let over = match c {
            Convention::RotaryDim => self.rotary,
            Convention::Proportional => self.head_dim,
        };
        self.theta.powf(-((2 * i) as f64) / over as f64) / self.factor
    }

    /// What coordinate `x` (< `h`) does under convention `c`.
    pub fn role(&self, c: Convention, x: usize) -> Role {
        let turning = self.turning(c);
        let (pair, partner) = match c {
            Convention::RotaryDim if x >= self.rotated(c) => return Role::Passes,
            Convention::RotaryDim if self.interleaved => (x / 2, x ^ 1),
            Convention::RotaryDim => {
                let half = self.rotated(c) / 2;
                (x % half, if x < half { x + half } else { x - half })
            }
            Convention::Proportional => {
                let half = self.head_dim / 2;
                (x % half, if x < half { x + half } else { x - half })
            }
        };
        if pair < turning {
            Role::Turns {
                pair,
                partner,
                omega: self.omega(c, pair),
            }
        } else {
            Role::Still { pair, partner }
        }
    }

    /// Coordinates that turn under both conventions.
    pub fn turning_in_both(&self) -> usize {
        (0..self.head_dim)
            .filter(|&x| {
                Convention::ALL
                    .iter()
                    .all(|&c| matches!(self.role(c, x), Role::Turns { .. }))
            })
            .count()
    }
}

crate::names::named! {
    /// The `partial_rotary_factor` the figure draws: the layer's own, or one chosen.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
    pub enum Fraction {
        /// The layer's (1 for a layer that rotates its whole head).
        Layer = "layer",
        /// 1/8.
        Eighth = "0.125",
        /// 1/4.
        #[default]
        Quarter = "0.25",
        /// 1/2.
        Half = "0.5",
        /// 3/4.
        ThreeQuarters = "0.75",
    }
}

impl Fraction {
    /// The chosen fraction (`None`: the layer's).
    pub fn value(self) -> Option<f64> {
        match self {
            Fraction::Layer => None,
            Fraction::Eighth => Some(0.125),
            Fraction::Quarter => Some(0.25),
            Fraction::Half => Some(0.5),
            Fraction::ThreeQuarters => Some(0.75),
        }
    }
}

/// One layer's partial rotation as its config states it.
#[derive(Clone, Debug, PartialEq)]
pub struct LayerPartial {
    /// The convention its `rope_type` uses: proportional for `proportional`, else rotary_dim.
    pub convention: Convention,
    /// The layer's `rope_type`.
    pub rope_type: String,
    /// Its head, rotated part, θ, linear factor and pairing.
    pub partial: Partial,
    /// What the config says about the head that the reader should know.
    pub notes: Vec<HeadNote>,
}

/// A fact about a layer's head or fraction that its config does not show plainly.
#[derive(Clone, Debug, PartialEq)]
pub enum HeadNote {
    /// Gemma 4's full layers read `global_head_dim`, not `head_dim`.
    GlobalHeadDim,
    /// DeepSeek's `head_dim` is `qk_rope_head_dim`, the rotated part of a q/k head `whole` wide.
    RopePart {
        /// `qk_nope_head_dim + qk_rope_head_dim`.
        whole: usize,
    },
    /// The config's `partial_rotary_factor` is below 1, but this model type's default RoPE reads
    /// only `head_dim` and rotates the whole head.
    FractionIgnored {
        /// The config's rotated part `int(h·f)`.
        rotary: usize,
    },
    /// With this `rope_type` the frequencies cover only `int(h·f)` coordinates while this model
    /// type rotates the whole head: transformers 5.24 would fail to run it.
    FractionFails,
}

/// Layer `layer`'s partial rotation, read as transformers 5.24 reads it: a `proportional` layer
/// from its dict (`rope_theta`, `partial_rotary_factor` default 1, `factor` default 1) and its
/// head (`head_dim`, Gemma 4's `global_head_dim` for full layers, else `hidden_size //
/// num_attention_heads`); any other through [`parse_config`] (its rotary dim and pairing; the
/// factor only for `linear`: the other types rescale frequencies in ways this module does not
/// draw). `None` for a layer that does not rotate.
pub fn layer_partial(text: &str, layer: usize) -> Result<Option<LayerPartial>, String> {
    let Some(config) = layer_rope_config(text, layer)? else {
        return Ok(None);
    };
    let params = config.get("rope_parameters").cloned().unwrap_or_default();
    let rope_type = params
        .get("rope_type")
        .and_then(Value::as_str)
        .unwrap_or("default")
        .to_string();
    if rope_type == "proportional" {
        let partial = proportional(&config, &params)?;
        let global = config.get("global_head_dim").and_then(Value::as_u64);
        let notes = if global == Some(partial.head_dim as u64) {
            vec![HeadNote::GlobalHeadDim]
        } else {
            Vec::new()
        };
        return Ok(Some(LayerPartial {
            convention: Convention::Proportional,
            rope_type,
            partial,
            notes,
        }));
    }
    let rope = parse_config(&config.to_string())?;
    let s = &rope.scaling;
    if rope.head_dim % 2 != 0 {
        return Err(format!("head_dim {} must be even", rope.head_dim));
    }
    let mut notes = Vec::new();
    let whole = ["qk_nope_head_dim", "qk_rope_head_dim"]
        .iter()
        .map(|k| config.get(*k).and_then(Value::as_u64))
        .sum::<Option<u64>>();
    if let (Some(whole), true) = (whole, config.get("qk_rope_head_dim").is_some()) {
        notes.push(HeadNote::RopePart {
            whole: whole as usize,
        });
    }
    let mut rotary = s.dim;
    if rotary < rope.head_dim {
        // Every model type chapter 5 reads rotates the whole head (its `apply_rotary_pos_emb`).
        if s.rope_type == RopeType::Default {
            notes.push(HeadNote::FractionIgnored { rotary });
            rotary = rope.head_dim;
        } else {
            notes.push(HeadNote::FractionFails);
        }
    }
    Ok(Some(LayerPartial {
        convention: Convention::RotaryDim,
        rope_type,
        partial: Partial {
            head_dim: rope.head_dim,
            rotary,
            theta: s.base,
            factor: if s.rope_type == RopeType::Linear {
                s.factor
            } else {
                1.0
            },
            interleaved: rope.interleaved,
        },
        notes,
    }))
}

/// A `proportional` layer's head and rotated part (`_compute_proportional_rope_parameters`).
fn proportional(config: &Value, params: &Value) -> Result<Partial, String> {
    let number = |v: &Value, key: &str, default: Option<f64>| -> Result<f64, String> {
        match v.get(key) {
            None | Some(Value::Null) => default.ok_or_else(|| format!("no {key}")),
            Some(x) => x
                .as_f64()
                .filter(|x| x.is_finite())
                .ok_or_else(|| format!("{key} must be a number")),
        }
    };
    let head_dim = match number(config, "head_dim", None) {
        Ok(h) => h,
        Err(_) => {
            number(config, "hidden_size", None)? / number(config, "num_attention_heads", None)?
        }
    };
    let head_dim = head_dim.floor();
    if !(2.0..=f64::from(super::limits::DIM.1 as u32)).contains(&head_dim) || head_dim % 2.0 != 0.0
    {
        return Err(format!(
            "head_dim {head_dim} must be even, from 2 to {}",
            super::limits::DIM.1
        ));
    }
    // The dict's, else the top level's (transformers 5.24's `convert_rope_params_to_dict`
    // copies a top-level value into every layer type's dict), else 1.
    let top = number(config, "partial_rotary_factor", Some(1.0))?;
    let fraction = number(params, "partial_rotary_factor", Some(top))?;
    if !(fraction > 0.0 && fraction <= 1.0) {
        return Err(format!(
            "partial_rotary_factor {fraction} must be above 0 and at most 1"
        ));
    }
    let theta = number(params, "rope_theta", None)?;
    let factor = number(params, "factor", Some(1.0))?;
    let (lo, hi) = super::limits::BASE;
    if !(lo..=hi).contains(&theta) {
        return Err(format!("rope_theta {theta} must be from {lo} to {hi}"));
    }
    if !(1.0..=super::limits::FACTOR.1).contains(&factor) {
        return Err(format!(
            "factor {factor} must be from 1 to {}",
            super::limits::FACTOR.1
        ));
    }
    let head_dim = head_dim as usize;
    Ok(Partial {
        head_dim,
        rotary: Partial::rotary_of(head_dim, fraction),
        theta,
        factor,
        interleaved: false,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::layers::presets::preset;

    fn gemma4_full() -> Partial {
        Partial {
            head_dim: 512,
            rotary: 128,
            theta: 1e6,
            factor: 1.0,
            interleaved: false,
        }
    }

    #[test]
    fn gemma_4s_full_layers_turn_64_of_256_pairs_the_slowest_about_188_tokens() {
        let p = layer_partial(preset("gemma-4-31b").unwrap().config, 5)
            .unwrap()
            .unwrap();
        assert_eq!(p.convention, Convention::Proportional);
        assert_eq!(p.partial, gemma4_full());
        let f = p.partial.inv_freq(Convention::Proportional);
        assert_eq!(f.len(), 256);
        assert_eq!(f.iter().filter(|&&w| w > 0.0).count(), 64);
        let slowest = 2.0 * std::f64::consts::PI / f[63];
        assert!((187.0..189.0).contains(&slowest), "{slowest}");
        // transformers' float32 formula: 1 / (θ ** (arange(0, 128, 2) / 512)).
        for (i, w) in f.iter().take(64).enumerate() {
            let t = 1.0f32 / 1e6f32.powf((2 * i) as f32 / 512.0);
            assert!((w - f64::from(t)).abs() <= 1e-6 * w, "{i}");
        }
        // The sliding layers rotate their whole head of 256 with θ 10⁴.
        let s = layer_partial(preset("gemma-4-31b").unwrap().config, 0)
            .unwrap()
            .unwrap();
        assert_eq!((s.partial.head_dim, s.partial.rotary), (256, 256));
        assert_eq!(s.convention, Convention::RotaryDim);
    }

    #[test]
    fn the_two_conventions_pair_different_coordinates() {
        let p = gemma4_full();
        assert_eq!(
            p.role(Convention::Proportional, 3),
            Role::Turns {
                pair: 3,
                partner: 259,
                omega: p.omega(Convention::Proportional, 3)
            }
        );
        assert_eq!(
            p.role(Convention::Proportional, 64),
            Role::Still {
                pair: 64,
                partner: 320
            }
        );
        assert!(matches!(
            p.role(Convention::RotaryDim, 67),
            Role::Turns {
                pair: 3,
                partner: 3,
                ..
            }
        ));
        assert_eq!(p.role(Convention::RotaryDim, 128), Role::Passes);
        // Only coordinates 0–63 turn in both.
        assert_eq!(p.turning_in_both(), 64);
        let gptj = Partial {
            interleaved: true,
            ..p
        };
        assert!(matches!(
            gptj.role(Convention::RotaryDim, 5),
            Role::Turns {
                pair: 2,
                partner: 4,
                ..
            }
        ));
    }

    #[test]
    fn an_odd_rotary_dim_turns_ceil_r_over_2_pairs_over_r_plus_1_coordinates() {
        let p = Partial {
            head_dim: 90,
            rotary: 11,
            theta: 1e4,
            factor: 2.0,
            interleaved: false,
        };
        assert_eq!(p.turning(Convention::RotaryDim), 6);
        assert_eq!(p.turning(Convention::Proportional), 5);
        assert_eq!(p.role(Convention::RotaryDim, 12), Role::Passes);
        assert!(matches!(
            p.role(Convention::RotaryDim, 11),
            Role::Turns {
                pair: 5,
                partner: 5,
                ..
            }
        ));
        assert!(matches!(
            p.role(Convention::RotaryDim, 6),
            Role::Turns {
                pair: 0,
                partner: 0,
                ..
            }
        ));
        let f = p.inv_freq(Convention::RotaryDim);
        assert_eq!(f.len(), 6);
        assert!((f[5] - 1e4f64.powf(-10.0 / 11.0) / 2.0).abs() < 1e-15);
    }

    #[test]
    fn a_whole_head_is_the_same_under_both() {
        let p = Partial {
            rotary: 512,
            ..gemma4_full()
        };
        assert_eq!(
            p.inv_freq(Convention::RotaryDim),
            p.inv_freq(Convention::Proportional)
        );
        for x in 0..512 {
            assert_eq!(
                p.role(Convention::RotaryDim, x),
                p.role(Convention::Proportional, x)
            );
        }
    }

    #[test]
    fn a_bad_proportional_dict_is_an_error() {
        let config = |dict: &str| {
            format!(
                r#"{{"model_type": "gemma4_text", "head_dim": 256, "global_head_dim": 512,
                "num_hidden_layers": 1, "layer_types": ["full_attention"], "rope_parameters": {{"full_attention": {dict},
                "sliding_attention": {{"rope_type": "default", "rope_theta": 10000.0}}}}}}"#
            )
        };
        for (dict, said) in [
            (
                r#"{"rope_type": "proportional", "rope_theta": 1e6, "partial_rotary_factor": 1.5}"#,
                "partial_rotary_factor 1.5",
            ),
            (
                r#"{"rope_type": "proportional", "rope_theta": 1e6, "factor": 0.5}"#,
                "factor 0.5",
            ),
        ] {
            let e = layer_partial(&config(dict), 0).unwrap_err();
            assert!(e.contains(said), "{e}");
        }
        let ok = layer_partial(
            &config(r#"{"rope_type": "proportional", "rope_theta": 1e6}"#),
            0,
        )
        .unwrap()
        .unwrap();
        assert_eq!((ok.partial.head_dim, ok.partial.rotary), (512, 512));
    }
}
