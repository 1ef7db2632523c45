//! Real models' RoPE, as [`super::rope_config::parse_config`] reads them: each preset is an
//! excerpt of the model's `config.json` holding the values that matter for RoPE, with where those
//! values come from and one honest sentence about them.

/// One model's RoPE configuration.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Preset {
    /// A stable identifier (for URLs).
    pub id: &'static str,
    /// The model's name.
    pub name: &'static str,
    /// Where the values come from: the model's `config.json` on huggingface.co, or a documentation
    /// page.
    pub source: &'static str,
    /// One sentence about the values.
    pub note: &'static str,
    /// A `config.json` excerpt with the real values, for `parse_config`.
    pub config: &'static str,
}

impl Preset {
    /// The source's address, when the source is a single `https://` address (no note after it),
    /// for a link.
    pub fn url(&self) -> Option<&'static str> {
        (self.source.starts_with("https://") && !self.source.contains(char::is_whitespace))
            .then_some(self.source)
    }
}

/// The presets, in the order the explainer lists them.
pub const PRESETS: &[Preset] = &[
    Preset {
        id: "llama2-7b",
        name: "Llama 2 7B",
        source: "https://huggingface.co/meta-llama/Llama-2-7b-hf/blob/main/config.json",
        note: "Plain RoPE over a 4096-token context; this config (as written by transformers 4.31) has no rope_theta, so transformers' default 10000 applies.",
        config: r#"{
  "model_type": "llama",
  "hidden_size": 4096,
  "num_attention_heads": 32,
  "num_key_value_heads": 32,
  "max_position_embeddings": 4096,
  "rope_scaling": null
}"#,
    },
    Preset {
        id: "llama3.1-8b",
        name: "Llama 3.1 8B",
        source: "https://huggingface.co/meta-llama/Llama-3.1-8B/blob/main/config.json",
        note: "Llama 3 scaling: wavelengths longer than the original 8192-token context are stretched 8×, short ones kept, the band between blended, for a 131072-token context. Llama 3.1 was then trained on contexts up to 128K, so it also saw angles beyond its 8K arc.",
        config: r#"{
  "model_type": "llama",
  "hidden_size": 4096,
  "num_attention_heads": 32,
  "num_key_value_heads": 8,
  "max_position_embeddings": 131072,
  "rope_theta": 500000.0,
  "rope_scaling": {
    "factor": 8.0,
    "high_freq_factor": 4.0,
    "low_freq_factor": 1.0,
    "original_max_position_embeddings": 8192,
    "rope_type": "llama3"
  }
}"#,
    },
    Preset {
        id: "mistral-7b-v0.1",
        name: "Mistral 7B v0.1",
        source: "https://huggingface.co/mistralai/Mistral-7B-v0.1/blob/main/config.json",
        note: "Plain RoPE with θ = 10000; max_position_embeddings says 32768 (used as L₀ here), but each layer attends within a 4096-token sliding window, and Mistral gives v0.1 an 8k training context.",
        config: r#"{
  "model_type": "mistral",
  "hidden_size": 4096,
  "num_attention_heads": 32,
  "num_key_value_heads": 8,
  "max_position_embeddings": 32768,
  "rope_theta": 10000.0,
  "sliding_window": 4096
}"#,
    },
    Preset {
        id: "mistral-7b-v0.3",
        name: "Mistral 7B v0.3",
        source: "https://huggingface.co/mistralai/Mistral-7B-v0.3/blob/main/config.json",
        note: "No scaling at all: the base itself is raised to θ = 1000000 (since v0.2) and the sliding window is gone.",
        config: r#"{
  "model_type": "mistral",
  "hidden_size": 4096,
  "num_attention_heads": 32,
  "num_key_value_heads": 8,
  "max_position_embeddings": 32768,
  "rope_theta": 1000000.0,
  "sliding_window": null
}"#,
    },
    Preset {
        id: "codellama-7b",
        name: "Code Llama 7B",
        source: "https://huggingface.co/codellama/CodeLlama-7b-hf/blob/main/config.json",
        note: "Llama 2 fine-tuned for 16384-token inputs by raising θ from 10000 to 1000000 rather than by a rope_scaling.",
        config: r#"{
  "model_type": "llama",
  "hidden_size": 4096,
  "num_attention_heads": 32,
  "num_key_value_heads": 32,
  "max_position_embeddings": 16384,
  "rope_theta": 1000000,
  "rope_scaling": null
}"#,
    },
    Preset {
        id: "qwen2.5-7b-yarn",
        name: "Qwen2.5 7B Instruct + YaRN",
        source: "https://huggingface.co/Qwen/Qwen2.5-7B-Instruct",
        note: "YaRN factor 4 as the model card's section on processing long texts says to add for long inputs; the published config.json has no rope_scaling. Static YaRN changes short inputs too, which is why Qwen warns it may impact performance on shorter texts and advises adding it only when needed.",
        config: r#"{
  "model_type": "qwen2",
  "hidden_size": 3584,
  "num_attention_heads": 28,
  "num_key_value_heads": 4,
  "max_position_embeddings": 32768,
  "rope_theta": 1000000.0,
  "rope_scaling": {
    "factor": 4.0,
    "original_max_position_embeddings": 32768,
    "type": "yarn"
  }
}"#,
    },
    Preset {
        id: "gpt-neox-20b",
        name: "GPT-NeoX 20B",
        source: "https://huggingface.co/EleutherAI/gpt-neox-20b/blob/main/config.json",
        note: "Partial rotation: only the first quarter (rotary_pct 0.25) of each 96-wide head rotates, 24 coordinates; the base is named rotary_emb_base.",
        config: r#"{
  "model_type": "gpt_neox",
  "hidden_size": 6144,
  "num_attention_heads": 64,
  "max_position_embeddings": 2048,
  "rotary_pct": 0.25,
  "rotary_emb_base": 10000
}"#,
    },
    Preset {
        id: "gpt-j-6b",
        name: "GPT-J 6B",
        source: "https://huggingface.co/EleutherAI/gpt-j-6B/blob/main/config.json",
        note: "Rotates the first 64 of each 256-wide head and pairs neighbouring coordinates (rotate_every_two); the base 10000 is fixed in the model code, not in the config.",
        config: r#"{
  "model_type": "gptj",
  "n_embd": 4096,
  "n_head": 16,
  "n_positions": 2048,
  "rotary_dim": 64
}"#,
    },
    Preset {
        id: "gemma-7b",
        name: "Gemma 7B",
        source: "https://huggingface.co/google/gemma-7b/blob/main/config.json",
        note: "head_dim 256 is given explicitly: wider than hidden_size / num_attention_heads = 192.",
        config: r#"{
  "model_type": "gemma",
  "hidden_size": 3072,
  "num_attention_heads": 16,
  "num_key_value_heads": 16,
  "head_dim": 256,
  "max_position_embeddings": 8192,
  "rope_theta": 10000.0
}"#,
    },
    Preset {
        id: "deepseek-v2",
        name: "DeepSeek-V2",
        source: "https://huggingface.co/deepseek-ai/DeepSeek-V2/blob/main/config.json",
        note: "YaRN factor 40 on the 64-wide RoPE part of each head (qk_rope_head_dim, stored interleaved); mscale = mscale_all_dim, so the rotary tables' factor is 1, while DeepSeek's attention multiplies its softmax scale by get_mscale(40, 0.707)² ≈ 1.59 (outside modeling_rope_utils).",
        config: r#"{
  "model_type": "deepseek_v2",
  "hidden_size": 5120,
  "num_attention_heads": 128,
  "qk_nope_head_dim": 128,
  "qk_rope_head_dim": 64,
  "v_head_dim": 128,
  "max_position_embeddings": 163840,
  "rope_theta": 10000,
  "rope_scaling": {
    "beta_fast": 32,
    "beta_slow": 1,
    "factor": 40,
    "mscale": 0.707,
    "mscale_all_dim": 0.707,
    "original_max_position_embeddings": 4096,
    "type": "yarn"
  }
}"#,
    },
    Preset {
        id: "longrope-synthetic",
        name: "LongRoPE (synthetic example)",
        source: "synthetic, shaped like Phi-3-mini-128k-instruct (https://huggingface.co/microsoft/Phi-3-mini-128k-instruct/blob/main/config.json holds the real lists)",
        note: "Synthetic lists, not a real model's: short_factor all 1, long_factor the geometric ramp 32^(i/47) from 1 to 32 (to 4 decimals); the rest is Phi-3-mini-128k's shape (3072/32 heads, θ 10000, 4096 → 131072). Real lists come from LongRoPE's search for each model (Ding et al. 2024), and real short_factor lists are not all 1.",
        config: r#"{
  "model_type": "phi3",
  "hidden_size": 3072,
  "num_attention_heads": 32,
  "max_position_embeddings": 131072,
  "original_max_position_embeddings": 4096,
  "rope_theta": 10000.0,
  "rope_scaling": {
    "type": "longrope",
    "short_factor": [
      1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0,
      1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0,
      1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0
    ],
    "long_factor": [
      1.0, 1.0765, 1.1589, 1.2476, 1.3431, 1.4458, 1.5565, 1.6756, 1.8038, 1.9419, 2.0905,
      2.2504, 2.4227, 2.6081, 2.8076, 3.0225, 3.2538, 3.5028, 3.7709, 4.0594, 4.3701, 4.7045,
      5.0645, 5.4521, 5.8693, 6.3185, 6.802, 7.3225, 7.8829, 8.4861, 9.1355, 9.8346, 10.5872,
      11.3974, 12.2696, 13.2086, 14.2194, 15.3075, 16.479, 17.74, 19.0976, 20.5591, 22.1324,
      23.8261, 25.6494, 27.6122, 29.7252, 32.0
    ]
  }
}"#,
    },
];

/// The preset with id `id`.
pub fn find(id: &str) -> Option<&'static Preset> {
    PRESETS.iter().find(|p| p.id == id)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::rope_config::parse_config;
    use crate::math::rope_scaling::{RopeScaling, RopeType};

    /// `(id, rope_type, base, head_dim, rotary dim, factor, L₀, max_position, interleaved,
    /// attention factor)`, each worked out by hand from the values in the brief and the configs.
    type Expected = (
        &'static str,
        RopeType,
        f64,
        usize,
        usize,
        f64,
        usize,
        usize,
        bool,
        f64,
    );
    #[rustfmt::skip]
    const EXPECTED: [Expected; 11] = [
        // 4096/32 = 128 wide, all of it rotates; no rope_theta → 10000.
        ("llama2-7b", RopeType::Default, 1e4, 128, 128, 1.0, 4096, 4096, false, 1.0),
        // 4096/32 = 128 (the published config has no head_dim); L₀ = original_max 8192; attention 1.
        ("llama3.1-8b", RopeType::Llama3, 5e5, 128, 128, 8.0, 8192, 131_072, false, 1.0),
        ("mistral-7b-v0.1", RopeType::Default, 1e4, 128, 128, 1.0, 32768, 32768, false, 1.0),
        ("mistral-7b-v0.3", RopeType::Default, 1e6, 128, 128, 1.0, 32768, 32768, false, 1.0),
        ("codellama-7b", RopeType::Default, 1e6, 128, 128, 1.0, 16384, 16384, false, 1.0),
        // 3584/28 = 128; YaRN attention 0.1·ln 4 + 1 = 1.1386294361.
        ("qwen2.5-7b-yarn", RopeType::Yarn, 1e6, 128, 128, 4.0, 32768, 32768, false, 1.138_629_436_111_989),
        // 6144/64 = 96, rotary_pct 0.25 → 24.
        ("gpt-neox-20b", RopeType::Default, 1e4, 96, 24, 1.0, 2048, 2048, false, 1.0),
        // 4096/16 = 256, rotary_dim 64, interleaved.
        ("gpt-j-6b", RopeType::Default, 1e4, 256, 64, 1.0, 2048, 2048, true, 1.0),
        ("gemma-7b", RopeType::Default, 1e4, 256, 256, 1.0, 8192, 8192, false, 1.0),
        // qk_rope_head_dim 64, stored interleaved; get_mscale(40, 0.707)/get_mscale(40, 0.707) = 1.
        ("deepseek-v2", RopeType::Yarn, 1e4, 64, 64, 40.0, 4096, 163_840, true, 1.0),
        // 3072/32 = 96; factor 131072/4096 = 32; sqrt(1 + ln 32/ln 4096) = sqrt(17/12).
        ("longrope-synthetic", RopeType::Longrope, 1e4, 96, 96, 32.0, 4096, 131_072, false, 1.190_238_071_423_808_3),
    ];

    #[test]
    fn every_preset_parses_cleanly_with_its_values() {
        assert_eq!(PRESETS.len(), EXPECTED.len());
        for (p, e) in PRESETS.iter().zip(EXPECTED) {
            assert_eq!(p.id, e.0, "order");
            let m = parse_config(p.config).unwrap_or_else(|err| panic!("{}: {err}", p.id));
            assert!(m.warnings.is_empty(), "{}: {:?}", p.id, m.warnings);
            let c = &m.scaling;
            assert_eq!(c.rope_type, e.1, "{}", p.id);
            assert_eq!(c.base, e.2, "{}", p.id);
            assert_eq!((m.head_dim, c.dim), (e.3, e.4), "{}", p.id);
            assert_eq!(c.factor, e.5, "{}", p.id);
            assert_eq!((c.original_max, m.max_position), (e.6, e.7), "{}", p.id);
            assert_eq!(m.interleaved, e.8, "{}", p.id);
            let (inv_freq, attention) = c.compute();
            assert!((attention - e.9).abs() < 1e-12, "{}: {attention}", p.id);
            assert_eq!(inv_freq.len(), c.dim / 2);
            assert!(
                inv_freq.iter().all(|f| f.is_finite() && *f > 0.0),
                "{}",
                p.id
            );
            assert!(!p.name.is_empty() && !p.source.is_empty() && !p.note.is_empty());
        }
    }

    #[test]
    fn deepseek_and_synthetic_longrope_details() {
        let ds = parse_config(PRESETS[9].config).unwrap();
        assert_eq!(
            (ds.scaling.mscale, ds.scaling.mscale_all_dim),
            (Some(0.707), Some(0.707))
        );
        assert_eq!((ds.scaling.beta_fast, ds.scaling.beta_slow), (32.0, 1.0));
        let lr = parse_config(PRESETS[10].config).unwrap();
        assert!(lr.scaling.short_factor.iter().all(|&f| f == 1.0));
        for (i, &f) in lr.scaling.long_factor.iter().enumerate() {
            let ramp = 32f64.powf(i as f64 / 47.0);
            assert!((f - ramp).abs() <= 5e-5, "long_factor[{i}] = {f} vs {ramp}");
        }
        // As read, the model holds its short factors (all 1: nothing stretched); a sequence
        // past L₀ = 4096 switches to the long ones: the slowest pair is stretched 32×.
        assert_eq!(lr.scaling.seq_len, 4096);
        assert!(lr.scaling.scale_per_pair().iter().all(|&k| k == 1.0));
        let long = RopeScaling {
            seq_len: 4097,
            ..lr.scaling.clone()
        };
        assert!((long.scale_per_pair()[47] - 32.0).abs() < 1e-12);
    }

    #[test]
    fn every_linked_source_is_one_address() {
        // A source with a note after its address would make a broken link (the Qwen preset's did).
        for p in PRESETS {
            if let Some(url) = p.url() {
                assert!(!url.contains(' ') && !url.contains('('), "{}: {url}", p.id);
            }
            let linked = p.url().is_some();
            let synthetic = p.source.starts_with("synthetic");
            assert!(
                linked != synthetic,
                "{}: linked or labelled synthetic",
                p.id
            );
        }
    }
}
