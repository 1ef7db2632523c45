//! The models chapter 5 starts from: excerpts of their published `config.json` (the fields that
//! decide each layer's attention, RoPE and KV cache; the same files as the shared reference's
//! `modern/configs/`), read by this module like any pasted config.

/// One model's published config.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ModelPreset {
    /// Its name in links (`m.model=gemma-3-4b`).
    pub id: &'static str,
    /// Its name on the page.
    pub name: &'static str,
    /// The excerpt of its `config.json`.
    pub config: &'static str,
    /// Its number of layers (what reading `config` gives; written here so that a link's layer is
    /// checked without parsing JSON, which would put the JSON reader in the page's first module).
    pub layers: usize,
    /// Where the config is published.
    pub source: &'static str,
    /// What the excerpt changes or adds to the published file (empty: nothing).
    pub note: &'static str,
}

/// The presets, in the order the page lists them (the first is the default).
pub const PRESETS: [ModelPreset; 8] = [
    ModelPreset {
        id: "gemma-3-4b",
        name: "Gemma 3 4B",
        config: include_str!("presets/gemma-3-4b.json"),
        layers: 34,
        source: "https://huggingface.co/google/gemma-3-4b-it",
        note: "",
    },
    ModelPreset {
        id: "gemma-4-31b",
        name: "Gemma 4 31B",
        config: include_str!("presets/gemma-4-31b.json"),
        layers: 60,
        source: "https://huggingface.co/google/gemma-4-31B-it",
        note: "",
    },
    ModelPreset {
        id: "llama-4-scout",
        name: "Llama 4 Scout",
        config: include_str!("presets/llama-4-scout.json"),
        layers: 48,
        source: "https://huggingface.co/meta-llama/Llama-4-Scout-17B-16E-Instruct",
        note: "",
    },
    ModelPreset {
        id: "gpt-oss-20b",
        name: "gpt-oss-20b",
        config: include_str!("presets/gpt-oss-20b.json"),
        layers: 24,
        source: "https://huggingface.co/openai/gpt-oss-20b",
        note: "",
    },
    ModelPreset {
        id: "smollm3-3b",
        name: "SmolLM3-3B",
        config: include_str!("presets/smollm3-3b.json"),
        layers: 36,
        source: "https://huggingface.co/HuggingFaceTB/SmolLM3-3B",
        note: "",
    },
    ModelPreset {
        id: "command-a",
        name: "Command A",
        config: include_str!("presets/command-a.json"),
        layers: 64,
        source: "https://huggingface.co/CohereLabs/c4ai-command-a-03-2025",
        note: "",
    },
    ModelPreset {
        id: "deepseek-v3",
        name: "DeepSeek-V3",
        config: include_str!("presets/deepseek-v3.json"),
        layers: 61,
        source: "https://huggingface.co/deepseek-ai/DeepSeek-V3",
        note: "",
    },
    ModelPreset {
        id: "qwen3-8b-yarn",
        name: "Qwen3-8B + YaRN ×4",
        config: include_str!("presets/qwen3-8b-yarn.json"),
        layers: 36,
        source: "https://huggingface.co/Qwen/Qwen3-8B",
        note: "The published config with the rope_scaling its model card gives for texts past \
               32 768 tokens (YaRN, factor 4).",
    },
];

/// The preset named `id` in links.
pub fn preset(id: &str) -> Option<&'static ModelPreset> {
    PRESETS.iter().find(|p| p.id == id)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_preset_reads_and_has_a_distinct_id() {
        for (k, p) in PRESETS.iter().enumerate() {
            let layers = super::super::parse_layers(p.config).expect(p.id);
            assert_eq!(layers.layers.len(), p.layers, "{}", p.id);
            super::super::parse_cache(p.config).expect(p.id);
            assert!(p.source.starts_with("https://huggingface.co/"), "{}", p.id);
            assert!(PRESETS[..k].iter().all(|q| q.id != p.id), "{}", p.id);
            assert_eq!(preset(p.id), Some(p));
        }
        assert_eq!(preset("nope"), None);
    }

    #[test]
    fn presets_are_the_shared_reference_configs() {
        let folder = format!(
            "{}/../shared/reference/modern/configs",
            env!("CARGO_MANIFEST_DIR")
        );
        for p in &PRESETS {
            let shared = std::fs::read_to_string(format!("{folder}/{}.json", p.id)).expect(p.id);
            assert_eq!(p.config, shared, "{}", p.id);
        }
    }
}
