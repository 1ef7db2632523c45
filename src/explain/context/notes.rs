//! Chapter 3's fixed sentences whose facts were checked against their sources (the chapter-3
//! review): kept here, not in the components, so that `tests/claims_context/` can hold them to
//! those facts. The components render them as they are.

/// Where the chapter's numbers come from, and where they differ from transformers'.
pub const NUMBERS_SOURCE: &str = "The numbers are those of Hugging Face transformers 5 (modeling_rope_utils), for real model configurations — or paste your own — with three exceptions: NTK-aware, which transformers has no fixed-factor type for, is bloc97's base change; at head_dim 2 the exponent d/(d − 2) of NTK-aware and dynamic NTK is taken as 1 (transformers' dynamic divides by zero); and a pasted factor below 1 is used as 1, where transformers warns and uses it. transformers computes the frequencies in float32, which keeps about seven significant digits, and this page in f64: the last of the six digits a readout prints can differ from transformers' by one.";

/// Which methods change short inputs (transformers 5.24: YaRN's and LongRoPE's
/// `attention_scaling` is computed once, in `_compute_*_parameters`, and `longrope_frequency_update`
/// only swaps `inv_freq`).
pub const SHORT_INPUTS: &str = "Linear interpolation, NTK-aware scaling, YaRN and Llama 3 are static: they change the frequencies for every input, short ones included. This is why Qwen's model cards warn that static YaRN may impact performance on shorter texts, and advise adding rope_scaling only when long inputs are needed. Dynamic NTK and LongRoPE depend on the length, but only dynamic NTK gives an input no longer than L₀ the trained frequencies: LongRoPE switches from its short factors to its long ones past L₀, yet its attention factor is set when the model is built and scales every input, and a real model's short_factor list is not all 1.";

/// What transformers versions before 5 did with the same scaling dict (the paste box's hint).
/// Sources: the wheels of transformers 4.42.4 (no `modeling_rope_utils`; Llama reads only
/// `linear` and `dynamic`, Phi-3 has its own `yarn` and `su` classes), 4.43.0 (`_compute_yarn_parameters` scales from
/// `config.max_position_embeddings`; its validator raises on a factor that is not a float),
/// 4.44.2 (the same, the validator only warns; Qwen2 does not read `rope_scaling`), 4.45.0
/// (Qwen2 uses `ROPE_INIT_FUNCTIONS`), 4.51 to 4.55 and 4.56 (huggingface/transformers#38224).
pub const PASTE_VERSIONS: &str = "It is read as transformers 5 reads it; older versions read the same dict differently. Before 4.43 a llama3 rope_scaling is rejected (\"must be a dictionary with two fields\"). From 4.43, when YaRN joined modeling_rope_utils, to 4.50, YaRN ignores original_max_position_embeddings and scales from max_position_embeddings; 4.43 also rejects a factor that is not written as a float (4 rather than 4.0), and Qwen2 models read rope_scaling only from 4.45 (before that they ignore it). From 4.51 to 4.55 YaRN replaces an explicit factor by max_position_embeddings / original_max_position_embeddings, so Qwen's documented snippet (factor 4, original 32768, max_position_embeddings 32768) meant factor 1, no scaling; 4.56 fixed it. Older configs name the key type instead of rope_type, which transformers still reads (and so does this page).";

/// The attention-factor figure's account of YaRN's temperature (YaRN §3.4, and transformers'
/// `get_mscale`).
pub const YARN_TEMPERATURE: &str = "One hypothesis is that a longer context spreads attention over more keys and flattens the softmax. YaRN (Peng et al. 2023, §3.4) observes that a temperature lowers perplexity uniformly over the extended window and multiplies q and k by √(1/t) = 0.1·ln s + 1, fitted on LLaMA 7B to 65B; below s = 1 the fit would fall under 1, and transformers' get_mscale returns 1 for every s ≤ 1. This multiplies the rotary part of every score by the factor's square.";
