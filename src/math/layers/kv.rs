//! The KV cache each layer keeps, as transformers 5.24's `DynamicCache` sizes it: a full layer
//! keeps every position, a sliding or chunked one the last `W − 1` (`DynamicSlidingWindowLayer`
//! keeps `[-W + 1:]` of its keys; a chunked layer is that class with `W` = the chunk, and whether
//! a layer rotates does not matter). Each kept position holds what the attention module hands to
//! `Cache.update`: `kv_heads` keys of `d_k` and values of `d_v` numbers (DeepSeek-V3's MLA: one
//! latent of `kv_lora_rank` and the shared rotated key of `qk_rope_head_dim`). For the same model
//! with every layer full, each layer keeps its own width and every position.
//! `tests/reference/kv/` holds transformers' own numbers for the shared reference's configs.

use super::{Attention, Layer};

/// What one layer caches per kept position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CacheWidth {
    /// Heads of keys and values.
    pub kv_heads: usize,
    /// Numbers per key head.
    pub d_k: usize,
    /// Numbers per value head.
    pub d_v: usize,
}

impl CacheWidth {
    /// Bytes per kept position at `bytes` per number (bf16: 2).
    pub fn bytes_per_position(self, bytes: usize) -> u64 {
        (self.kv_heads * (self.d_k + self.d_v) * bytes) as u64
    }
}

/// The positions `layer` keeps after `len` tokens.
pub fn kept(layer: &Layer, len: usize) -> usize {
    match (layer.attention, layer.window) {
        (Attention::Sliding | Attention::Chunked, Some(w)) => len.min(w.saturating_sub(1)),
        _ => len,
    }
}

/// The cache of a model after `len` tokens, in bytes: with its layer pattern, and with every
/// layer full.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CacheBytes {
    /// With the model's own pattern.
    pub pattern: u64,
    /// With every layer keeping every position.
    pub all_full: u64,
}

/// The cache of `layers` with `widths` (one per layer) after `len` tokens, `bytes` per number.
pub fn cache_bytes(
    layers: &[Layer],
    widths: &[CacheWidth],
    len: usize,
    bytes: usize,
) -> CacheBytes {
    let per = |w: &CacheWidth| w.bytes_per_position(bytes);
    CacheBytes {
        pattern: layers
            .iter()
            .zip(widths)
            .map(|(l, w)| kept(l, len) as u64 * per(w))
            .sum(),
        all_full: widths.iter().map(|w| len as u64 * per(w)).sum(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sliding_layer_keeps_one_less_than_its_window() {
        let sliding = Layer {
            attention: Attention::Sliding,
            window: Some(4),
            rope: None,
        };
        let full = Layer {
            attention: Attention::Full,
            window: None,
            rope: None,
        };
        assert_eq!((kept(&sliding, 2), kept(&sliding, 10)), (2, 3));
        assert_eq!(kept(&full, 10), 10);
        let w = CacheWidth {
            kv_heads: 2,
            d_k: 4,
            d_v: 4,
        };
        let b = cache_bytes(&[sliding, full], &[w, w], 10, 2);
        assert_eq!(
            b,
            CacheBytes {
                pattern: (3 + 10) * 32,
                all_full: 20 * 32
            }
        );
    }
}
