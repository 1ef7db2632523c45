//! RoPE's angles in low precision: what rounding positions, frequencies and their product to a
//! model's float type does to the angle `p·ω_i`.
//!
//! - bfloat16 keeps 8 significant bits: whole numbers are exact up to 256, then spaced 2 up to
//!   512, …, 32 from 4096 to 8192. float16 keeps 11 bits (exact up to 2048) and overflows past
//!   65 504 (a position from 65 520 on rounds to infinity). float32 keeps 24.
//! - **Naive path**: the position, the frequency and their product each rounded to the type
//!   (`angle = round(round(p) · round(ω))`; the product of two such numbers is exact in f64, so
//!   rounding it once is what the type's own multiply gives).
//! - **transformers' path** (the rotary embeddings' `forward`, e.g. transformers 5.24's
//!   `LlamaRotaryEmbedding`: `position_ids.float() * inv_freq.float()`): the frequencies are a
//!   float32 buffer as the model is loaded and the angles are computed in float32,
//!   `angle = f32(f32(p) · f32(ω))`; cos and sin are then cast to the model's type (Llama 4
//!   rotates q and k in float32 and rounds only the result). Its angle error is the same whatever
//!   that type; rounding cos and sin turns the pair by a little more ([`cos_sin_turn`]), the same
//!   at every position.
//!
//! Errors are against the float64 angle `p·ω_i`, in radians. Rounding is to nearest, ties to even
//! (`half`'s conversions, as PyTorch's casts).

use half::{bf16, f16};

crate::names::named! {
    /// A float type a model's weights and activations may have.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
    pub enum Dtype {
        /// IEEE single precision (24 significant bits).
        #[default]
        F32 = "f32",
        /// bfloat16 (8 significant bits, float32's range).
        Bf16 = "bf16",
        /// IEEE half precision (11 significant bits, largest finite 65 504).
        F16 = "f16",
    }
}

impl Dtype {
    /// `x` rounded to this type (through float32, as a float32 tensor cast to it), back in f64.
    pub fn round(self, x: f64) -> f64 {
        let single = x as f32;
        f64::from(match self {
            Dtype::F32 => single,
            Dtype::Bf16 => bf16::from_f32(single).to_f32(),
            Dtype::F16 => f16::from_f32(single).to_f32(),
        })
    }

    /// Significant bits (the stored ones and the implicit leading one).
    pub fn bits(self) -> u32 {
        match self {
            Dtype::F32 => 24,
            Dtype::Bf16 => 8,
            Dtype::F16 => 11,
        }
    }

    /// The first whole number the type does not hold exactly: 2^bits + 1 (bfloat16 257,
    /// float16 2049, float32 16 777 217).
    pub fn first_inexact(self) -> usize {
        (1usize << self.bits()) + 1
    }

    /// The first whole number that rounds to infinity: float16's 65 520 (halfway between its
    /// largest finite 65 504 and the next step, 65 536, rounds up); none for float32 and
    /// bfloat16 within any position.
    pub fn overflow(self) -> Option<usize> {
        (self == Dtype::F16).then_some(65_520)
    }

    /// The gap between the type's neighbouring numbers around `x ≥ 1` (its binade
    /// `2^k ≤ x < 2^(k+1)` holds them `2^(k + 1 − bits)` apart).
    pub fn spacing(self, x: f64) -> f64 {
        let k = x.max(1.0).log2().floor() as i32;
        2f64.powi(k + 1 - self.bits() as i32)
    }

    /// The type's name as the page writes it.
    pub fn label(self) -> &'static str {
        match self {
            Dtype::F32 => "float32",
            Dtype::Bf16 => "bfloat16",
            Dtype::F16 => "float16",
        }
    }
}

/// The naive path's angle at position `p` for frequency `w`: the position, the frequency and
/// their product each rounded to `dtype` (infinite or NaN once the position overflows).
pub fn naive_angle(p: usize, w: f64, dtype: Dtype) -> f64 {
    dtype.round(dtype.round(p as f64) * dtype.round(w))
}

/// transformers' angle at position `p` for frequency `w`: `f32(p) · f32(ω)` in float32.
pub fn float32_angle(p: usize, w: f64) -> f64 {
    f64::from(p as f32 * w as f32)
}

/// `|angle − p·w|`, the error against the float64 angle; infinite for an angle that is not a
/// number (an overflowed position times a zero frequency is NaN: as lost as the overflow).
pub fn angle_error(angle: f64, p: usize, w: f64) -> f64 {
    let err = (angle - p as f64 * w).abs();
    if err.is_nan() { f64::INFINITY } else { err }
}

/// The RoPE score `q·k` of `q = k` = all ones between positions `query` and `key`, from the
/// angles `angle(p, ω)` of every frequency of `inv_freq`: each pair adds `2·cos(a_q − a_k)`
/// (the score depends on the two angles only; cos, sin and the products taken exactly).
pub fn ones_score(
    inv_freq: &[f64],
    query: usize,
    key: usize,
    angle: impl Fn(usize, f64) -> f64,
) -> f64 {
    inv_freq
        .iter()
        .map(|&w| 2.0 * (angle(query, w) - angle(key, w)).cos())
        .sum()
}

/// How far rounding `cos θ` and `sin θ` to `dtype` turns the pair, at worst over `samples`
/// angles evenly spread over a turn: the largest `|atan2(round(sin θ), round(cos θ)) − θ|`
/// (wrapped to a half turn).
pub fn cos_sin_turn(dtype: Dtype, samples: usize) -> f64 {
    use std::f64::consts::{PI, TAU};
    (0..samples)
        .map(|k| {
            let t = TAU * k as f64 / samples as f64 - PI;
            let back = dtype.round(t.sin()).atan2(dtype.round(t.cos()));
            let d = (back - t).rem_euclid(TAU);
            d.min(TAU - d)
        })
        .fold(0.0, f64::max)
}

/// The largest naive-path angle error over positions `0..len` and every frequency of
/// `inv_freq` (infinite once a position overflows the type).
pub fn naive_angle_error(inv_freq: &[f64], len: usize, dtype: Dtype) -> f64 {
    worst(inv_freq, len, |p, w| naive_angle(p, w, dtype))
}

/// The largest angle error of transformers' float32 path over positions `0..len` and every
/// frequency of `inv_freq`.
pub fn float32_angle_error(inv_freq: &[f64], len: usize) -> f64 {
    worst(inv_freq, len, float32_angle)
}

/// The largest `|angle(p, ω) − p·ω|` over positions `0..len` and the frequencies `inv_freq`.
fn worst(inv_freq: &[f64], len: usize, angle: impl Fn(usize, f64) -> f64) -> f64 {
    let mut worst = 0.0f64;
    for p in 0..len {
        for &w in inv_freq {
            worst = worst.max(angle_error(angle(p, w), p, w));
        }
    }
    worst
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bfloat16_spaces_whole_numbers_as_its_eight_bits_allow() {
        let b = Dtype::Bf16;
        assert_eq!(b.round(256.0), 256.0);
        assert_eq!(b.round(257.0), 256.0); // a tie: to even
        assert_eq!(b.round(259.0), 260.0);
        assert_eq!(b.round(4097.0), 4096.0);
        assert_eq!(b.round(4112.0), 4096.0); // spacing 32 from 4096: 4112 is a tie, to even
        assert_eq!(b.round(4113.0), 4128.0);
        assert_eq!(Dtype::F16.round(2049.0), 2048.0);
        assert_eq!(Dtype::F16.round(65_504.0), 65_504.0);
        assert_eq!(Dtype::F16.round(65_520.0), f64::INFINITY);
        assert_eq!(Dtype::F32.round(16_777_217.0), 16_777_216.0);
    }

    #[test]
    fn the_naive_path_loses_the_fast_pairs_first_and_the_float32_path_barely_any() {
        let f = crate::math::rope::inv_freq(128, 10_000.0);
        // Below 256 every bf16 position is exact; the error is the rounding of ω and the product.
        let short = naive_angle_error(&f, 256, Dtype::Bf16);
        let long = naive_angle_error(&f, 4096, Dtype::Bf16);
        assert!(long > short && long > 1.0, "{short} {long}");
        // The fast pairs carry the worst error (pair 0 alone: bf16 spaces positions 2048 to 4095
        // by 16, so up to 8 rad); the slowest pairs' angles stay small.
        assert_eq!(naive_angle_error(&f[..1], 4096, Dtype::Bf16), 8.0);
        let fast = naive_angle_error(&f[..8], 4096, Dtype::Bf16);
        let slow = naive_angle_error(&f[60..], 4096, Dtype::Bf16);
        assert_eq!(fast, long);
        assert!(slow < 0.01 * fast, "{slow} vs {fast}");
        let f32_path = float32_angle_error(&f, 4096);
        assert!(f32_path < 1e-3, "{f32_path}");
        assert!(naive_angle_error(&f, 70_000, Dtype::F16).is_infinite());
    }

    #[test]
    fn bfloat16_holds_only_the_first_frequency_at_theta_10000_with_a_head_of_128() {
        // The chapter's pitfall on `model.to(torch.bfloat16)`: inv_freq (float32) rounded.
        let f = crate::math::rope::inv_freq(128, 10_000.0);
        let exact: Vec<usize> = (0..f.len())
            .filter(|&i| Dtype::Bf16.round(f[i]) == Dtype::F32.round(f[i]))
            .collect();
        assert_eq!(exact, [0]);
    }

    #[test]
    fn rounding_cos_and_sin_turns_the_pair_by_at_most_the_caption_s_bound() {
        // The caption: about 0.003 rad in bfloat16, 0.0003 in float16, none in float32 worth
        // drawing.
        let bf = cos_sin_turn(Dtype::Bf16, 400_000);
        let half = cos_sin_turn(Dtype::F16, 400_000);
        assert!((0.0027..0.0029).contains(&bf), "{bf}");
        assert!((0.00033..0.00035).contains(&half), "{half}");
        assert!(cos_sin_turn(Dtype::F32, 400_000) < 1e-7);
    }

    #[test]
    fn the_first_inexact_position_the_overflow_and_the_spacing_are_what_rounding_gives() {
        for dtype in Dtype::ALL {
            let first = dtype.first_inexact();
            assert_ne!(dtype.round(first as f64), first as f64, "{dtype:?}");
            assert!(
                (1..first).all(|p| dtype.round(p as f64) == p as f64),
                "{dtype:?}"
            );
            // Whole numbers in a binade are `spacing` apart: the next one up is that far.
            for x in [1.0, 3.0, 256.0, 300.0, 4096.0, 5000.0, 60_000.0] {
                let s = dtype.spacing(x);
                let below = dtype.round(x);
                assert_eq!(dtype.round(below + s), below + s, "{dtype:?} {x}");
                assert_ne!(
                    dtype.round(below + s / 2.0 + s / 8.0),
                    below,
                    "{dtype:?} {x}"
                );
            }
        }
        assert_eq!(Dtype::F16.round(65_519.0), 65_504.0);
        assert_eq!(Dtype::F16.overflow(), Some(65_520));
        assert!(Dtype::F16.round(65_520.0).is_infinite());
        assert_eq!(Dtype::Bf16.overflow(), None);
        assert!(Dtype::Bf16.round(f64::from(1u32 << 20)).is_finite());
    }
}
