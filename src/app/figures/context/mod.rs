//! The figures of chapter 3, "Stretching the context", one file each, and the names they share.

pub mod attention;
pub mod dynamic;
pub mod scores;
pub mod turns;
pub mod wavelengths;

use crate::math::rope_scaling::RopeType;

/// A method's short name in legends: "plain RoPE" for `default`, else its label.
pub fn method_name(t: RopeType) -> &'static str {
    match t {
        RopeType::Default => "plain RoPE",
        RopeType::Linear => "linear (PI)",
        RopeType::Ntk => "NTK-aware",
        RopeType::Dynamic => "dynamic NTK",
        RopeType::Yarn => "YaRN",
        RopeType::Llama3 => "Llama 3",
        RopeType::Longrope => "LongRoPE",
    }
}

/// A length in positions, compactly: 4096, 32k (for 32768), 1M.
pub fn length_text(n: usize) -> String {
    if n >= 1 << 20 && n.is_multiple_of(1 << 20) {
        format!("{}M", n >> 20)
    } else if n >= 1 << 13 && n.is_multiple_of(1024) {
        format!("{}k", n >> 10)
    } else {
        n.to_string()
    }
}
