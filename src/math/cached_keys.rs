//! Cached keys when the frequencies change: RoPE types whose `inv_freq` depends on the current
//! sequence length, and the keys a KV cache kept from before the change.
//!
//! transformers 5.24's `dynamic_rope_update` (modeling_rope_utils) recomputes a rotary
//! embedding's `inv_freq` in its forward pass, from `seq_len = max(position_ids) + 1`:
//!
//! - `dynamic` (`dynamic_frequency_update`): when `seq_len` passes the longest length so far
//!   (`max_seq_len_cached`, first `max_position_embeddings` = L₀), `_compute_dynamic_ntk_parameters`
//!   at `seq_len`: base' = `base·(s·L/L₀ − (s − 1))^(d/(d−2))`, so every pair but the first
//!   slows a little more at each new token past L₀.
//! - `longrope` (`longrope_frequency_update`): `long_factor` when `seq_len > L₀`
//!   (`original_max_position_embeddings`), else `short_factor`; one switch, at `L₀ + 1`.
//!
//! Only the frequencies change: the keys already in the cache keep the rotation they were given.
//! With a prompt no longer than L₀ and each later token generated one at a time, the key at
//! position `k` was rotated with the frequencies of length `k + 1` (those of a prompt of length
//! `P ≤ L₀` are the same: both types keep the trained frequencies up to L₀), and the query at `p`
//! uses those of length `p + 1`. The query–key angle of pair i is then
//! `p·ω_i(p + 1) − k·ω_i(k + 1)` where a cache rebuilt with the new frequencies would give
//! `(p − k)·ω_i(p + 1)`: the cached key is off by `k·(ω_i(p + 1) − ω_i(k + 1))` radians.
//!
//! transformers keeps the cache for `dynamic`. For `longrope`, Phi-3's
//! `prepare_inputs_for_generation` drops it the first time the input is longer than L₀ while the
//! cache holds at most L₀ tokens, so the whole sequence is recomputed with the long factors (no
//! error); a model of another type given `rope_type: "longrope"` keeps its keys. (PhiMoE drops
//! its cache at the same step, but its rotary embedding calls `rope_init_fn(config)` with no
//! length, so its frequencies are the short ones at every length and only its cos/sin scale
//! switches, `short_mscale` → `long_mscale`; Phi-4-multimodal's override drops the cache but
//! leaves generate's `next_sequence_length` at 1.) The attention factor (`longrope`'s
//! `sqrt(1 + ln s/ln L₀)`, 1 for `dynamic`) does not depend on the length.
//!
//! These hold for one sequence (a padded batch takes its longest), a model fresh from loading
//! (after a longer run, `dynamic` goes back to the trained frequencies only below L₀), and exact
//! arithmetic (transformers computes the angles in float32).

use super::rope_scaling::{RopeScaling, RopeType};

crate::names::named! {
    /// Which length-dependent RoPE the figure's example has.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
    pub enum Regime {
        /// Dynamic NTK: the base grows with every token past L₀.
        #[default]
        Dynamic = "dynamic",
        /// LongRoPE: short factors up to L₀, long ones past it.
        Longrope = "longrope",
    }
}

impl Regime {
    /// A human name.
    pub fn label(self) -> &'static str {
        match self {
            Regime::Dynamic => "dynamic NTK",
            Regime::Longrope => "LongRoPE",
        }
    }

    /// The regime of a RoPE type, if its frequencies depend on the length.
    pub fn of(rope_type: RopeType) -> Option<Regime> {
        match rope_type {
            RopeType::Dynamic => Some(Regime::Dynamic),
            RopeType::Longrope => Some(Regime::Longrope),
            _ => None,
        }
    }
}

/// Llama 2 7B's head as transformers builds it (`meta-llama/Llama-2-7b-hf`'s config: 4096/32,
/// no `rope_theta`, `max_position_embeddings` 4096): rotary dimension, θ, L₀.
pub const LLAMA2_7B: (usize, f64, usize) = (128, 10_000.0, 4096);

/// The dynamic example's factor: `rope_scaling={"rope_type": "dynamic", "factor": 2.0}`.
pub const DYNAMIC_FACTOR: f64 = 2.0;

/// The LongRoPE example's shape (Phi-3-mini-128k-instruct's: 3072/32 heads, θ 10 000,
/// `original_max_position_embeddings` 4096, `max_position_embeddings` 131 072) and its synthetic
/// lists: short factors 1, long ones the geometric ramp `32^(i/47)` to 4 decimals (chapter 4's
/// `longrope-synthetic` preset, checked by a test).
pub const PHI3_SHAPE: (usize, f64, usize, usize) = (96, 10_000.0, 4096, 131_072);

/// The example of `regime` drawn for a layer that has neither type: dynamic NTK as transformers
/// computes it for Llama 2 7B loaded with `rope_scaling={"rope_type": "dynamic", "factor":
/// 2.0}` (L₀ its `max_position_embeddings`); LongRoPE with the synthetic lists in Phi-3-mini-128k's
/// shape ([`PHI3_SHAPE`]).
pub fn example(regime: Regime) -> RopeScaling {
    match regime {
        Regime::Dynamic => {
            let (dim, base, original_max) = LLAMA2_7B;
            RopeScaling {
                rope_type: RopeType::Dynamic,
                dim,
                base,
                factor: DYNAMIC_FACTOR,
                original_max,
                seq_len: original_max,
                ..RopeScaling::default()
            }
        }
        Regime::Longrope => {
            let (dim, base, original_max, max_position) = PHI3_SHAPE;
            let pairs = dim / 2;
            let ramp = |i: usize| {
                let f = 32f64.powf(i as f64 / (pairs - 1) as f64);
                (f * 1e4).round() / 1e4
            };
            RopeScaling {
                rope_type: RopeType::Longrope,
                dim,
                base,
                factor: max_position as f64 / original_max as f64,
                original_max,
                seq_len: original_max,
                short_factor: vec![1.0; pairs],
                long_factor: (0..pairs).map(ramp).collect(),
                ..RopeScaling::default()
            }
        }
    }
}

/// `scaling`'s `inv_freq` for a sequence of `len` tokens.
pub fn frequencies_at(scaling: &RopeScaling, len: usize) -> Vec<f64> {
    let mut at = scaling.clone();
    at.seq_len = len;
    at.compute().0
}

/// A cached key at `key` and the query at `query` (`key ≤ query`): the frequencies each was
/// rotated with.
#[derive(Clone, Debug, PartialEq)]
pub struct CachedKey {
    /// The key's position k.
    pub key: usize,
    /// The query's position p.
    pub query: usize,
    /// `inv_freq` at length `k + 1`, when the key was cached.
    pub then: Vec<f64>,
    /// `inv_freq` at length `p + 1`, the query's.
    pub now: Vec<f64>,
    /// The attention factor (cos and sin scaled by it).
    pub attention: f64,
    /// L₀: the length past which the frequencies change.
    pub original: usize,
}

impl CachedKey {
    /// The key at `key` (clamped to `query`) under `scaling`, read by the query at `query`.
    pub fn of(scaling: &RopeScaling, key: usize, query: usize) -> CachedKey {
        let key = key.min(query);
        CachedKey {
            key,
            query,
            then: frequencies_at(scaling, key + 1),
            now: frequencies_at(scaling, query + 1),
            attention: scaling.compute().1,
            original: scaling.original_max,
        }
    }

    /// Pair `i`'s error, radians: `k·(ω_i(p + 1) − ω_i(k + 1))` (negative when the pair slowed).
    pub fn error(&self, i: usize) -> f64 {
        self.key as f64 * (self.now[i] - self.then[i])
    }

    /// Every pair's error.
    pub fn errors(&self) -> Vec<f64> {
        (0..self.now.len()).map(|i| self.error(i)).collect()
    }

    /// Whether any frequency differs between the key's length and the query's.
    pub fn changed(&self) -> bool {
        self.then != self.now
    }

    /// The score of the query with the key for `q = k =` all ones (each pair contributes
    /// `2·cos` of its query–key angle, times the attention factor squared): (with the cached key,
    /// with the key recomputed at the query's frequencies).
    pub fn ones_scores(&self) -> (f64, f64) {
        let (p, k) = (self.query as f64, self.key as f64);
        let a2 = self.attention * self.attention;
        let mut cached = 0.0;
        let mut fresh = 0.0;
        for (&now, &then) in self.now.iter().zip(&self.then) {
            cached += 2.0 * (p * now - k * then).cos();
            fresh += 2.0 * ((p - k) * now).cos();
        }
        (a2 * cached, a2 * fresh)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn examples_are_chapter_4_s_presets_as_transformers_reads_them() {
        let read = |id| {
            let preset = crate::math::rope_presets::find(id).unwrap();
            crate::math::rope_config::parse_config(preset.config).unwrap()
        };
        let mut llama = read("llama2-7b").scaling;
        assert_eq!(
            (llama.dim, llama.base, llama.original_max),
            (LLAMA2_7B.0, LLAMA2_7B.1, LLAMA2_7B.2)
        );
        llama.rope_type = RopeType::Dynamic;
        llama.factor = DYNAMIC_FACTOR;
        assert_eq!(example(Regime::Dynamic), llama);
        let phi = read("longrope-synthetic");
        assert_eq!(phi.max_position, PHI3_SHAPE.3);
        assert_eq!(example(Regime::Longrope), phi.scaling);
        assert_eq!(example(Regime::Longrope).compute(), phi.scaling.compute());
    }

    #[test]
    fn no_error_before_the_switch_and_a_linear_one_after() {
        let l = example(Regime::Longrope);
        let before = CachedKey::of(&l, 1000, 4095);
        assert!(!before.changed() && before.errors().iter().all(|&e| e == 0.0));
        let after = CachedKey::of(&l, 1000, 4096);
        let twice = CachedKey::of(&l, 2000, 4096);
        assert!(after.changed());
        for i in 0..48 {
            assert!((twice.error(i) - 2.0 * after.error(i)).abs() < 1e-9);
        }
        // A key cached after the switch has the long factors too.
        assert!(!CachedKey::of(&l, 5000, 9000).changed());
    }
}
