//! The shared reference's configs and transformers 5.24's M-RoPE pair rule, written out for the
//! chapter-6 claims tests (included with `#[path]`, so it is not a test crate itself).

#![allow(dead_code)]

/// A reference config of the shared reference (`../shared/reference/modern/configs/`).
pub fn reference_config(name: &str) -> serde_json::Value {
    let path = format!(
        "{}/../shared/reference/modern/configs/{name}.json",
        env!("CARGO_MANIFEST_DIR")
    );
    serde_json::from_str(&std::fs::read_to_string(&path).expect(&path)).expect("JSON")
}

/// Qwen2.5-VL-7B's `vision_config.tokens_per_second`.
pub fn tokens_per_second() -> usize {
    reference_config("qwen2.5-vl-7b")["vision_config"]["tokens_per_second"]
        .as_u64()
        .expect("tokens_per_second") as usize
}

/// The axis of pair `j` as transformers 5.24's `recomposition_frequencies` picks it: chunked
/// (Qwen2.5-VL) takes the sections in turn, interleaved (Qwen3-VL) `freqs_t[..., 1:3*h:3] =
/// freqs[1]`, `freqs_t[..., 2:3*w:3] = freqs[2]` over the t frequencies.
pub fn axis_of(interleaved: bool, [t, h, w]: [usize; 3], j: usize) -> usize {
    if interleaved {
        if (1..3 * h).step_by(3).any(|i| i == j) {
            1
        } else if (2..3 * w).step_by(3).any(|i| i == j) {
            2
        } else {
            0
        }
    } else if j < t {
        0
    } else if j < t + h {
        1
    } else {
        assert!(j < t + h + w);
        2
    }
}
