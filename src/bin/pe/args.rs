//! The `pe` command line as clap types. Every range in the help text is printed from
//! `math::limits`, so the help and the checks in `commands` cannot disagree.

use clap::{Args, Parser, Subcommand, ValueEnum};

use pe_explorer::math::limits;
use pe_explorer::math::rope_scaling::RopeType;
use pe_explorer::math::sinusoidal::{Layout, Spacing};

/// `lo..=hi` of a real range.
fn real(range: (f64, f64)) -> String {
    super::check::real_range(range)
}

/// `lo..=hi` of an integer range.
fn int<T: std::fmt::Display>((lo, hi): (T, T)) -> String {
    format!("{lo}..={hi}")
}

fn positions_help() -> String {
    format!("Number of positions, {}", int(limits::POSITIONS))
}

fn dim_help() -> String {
    format!("d_model, {}", int(limits::DIM))
}

fn even_dim_help() -> String {
    format!(
        "head_dim, even, {} (RoPE rotates coordinate pairs)",
        int(limits::DIM)
    )
}

fn rotary_dim_help() -> String {
    format!(
        "Rotate only the first R coordinates (HF partial_rotary_factor, GPT-NeoX rotary_pct, GPT-J rotary_dim), even, {}..=--dim; default: --dim",
        limits::ROTARY_DIM.0
    )
}

fn rope_positions_help() -> String {
    format!(
        "Comma-separated positions, each {}, at most {} of them",
        real(limits::ROPE_POSITION),
        limits::ROPE_POSITIONS_COUNT
    )
}

fn base_help() -> String {
    format!(
        "Base of the frequencies (rope_theta for RoPE), {}",
        real(limits::BASE)
    )
}

fn seed_help() -> String {
    format!("Seed of the N(0, σ²) table, {}", int(limits::SEED))
}

fn sigma_help() -> String {
    format!("Standard deviation σ of the table, {}", real(limits::SIGMA))
}

/// The numbers behind every figure of the Positional Encoding Explorer, as JSON on stdout.
///
/// Matrices are lists of rows (row = position or query, column = dimension or key). Floats are
/// printed in full (shortest round-trip form). Bad input prints one line to stderr and exits with
/// status 2. Every flag's range is in its subcommand's --help.
#[derive(Debug, Parser)]
#[command(name = "pe", version)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

/// Output of `pe render`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum RenderFormat {
    /// The picture, as SVG.
    Svg,
    /// The numbers the figure shows, as CSV (a header row per panel, the state in a comment).
    Csv,
    /// The picture, as PNG at --scale device pixels per CSS pixel (text in the system's DejaVu Sans, else Liberation Sans).
    Png,
}

/// Page theme of a rendered figure.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ThemeArg {
    /// Light page colours.
    Light,
    /// Dark page colours.
    Dark,
}

/// `pe render`'s flags.
#[derive(Debug, Args)]
pub struct RenderArgs {
    /// The figure's id, as in its link (`#fig-waves`); `pe render --list` prints them.
    #[arg(required_unless_present_any = ["list", "all"], conflicts_with = "all", value_parser = clap::builder::PossibleValuesParser::new(pe_explorer::scene::ids()))]
    pub figure: Option<String>,
    /// Every figure, each to `<id>.<format>` in the folder --out names (which must exist).
    #[arg(long)]
    pub all: bool,
    /// Print the ids of the figures that render here → {"figures": [...]}.
    #[arg(long)]
    pub list: bool,
    /// The figure's state: a link's query (`n=256&d=64&pos=10`, with or without the leading `?`).
    #[arg(long, default_value = "", allow_hyphen_values = true)]
    pub query: String,
    /// Output format.
    #[arg(long, value_enum, default_value = "svg")]
    pub format: RenderFormat,
    /// Page colours (default: the query's theme=, else light).
    #[arg(long, value_enum)]
    pub theme: Option<ThemeArg>,
    #[arg(long, default_value_t = 800, help = format!(
        "Width in CSS pixels, {}; each panel is as tall as the page makes it at this width",
        int(limits::RENDER_WIDTH)
    ))]
    pub width: u32,
    #[arg(long, default_value_t = 2.0, help = format!(
        "Device pixels per CSS pixel of a PNG, {}",
        real(limits::RENDER_SCALE)
    ))]
    pub scale: f64,
    /// The file to write (replaced if it exists); with --all, the folder to write into.
    #[arg(long, value_name = "OUT", required_unless_present = "list")]
    pub out: Option<String>,
}

/// Column layout / RoPE pairing.
#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum LayoutArg {
    /// sin/cos (or rotated pairs) alternate: (2i, 2i+1). The paper, DistilBERT, RoFormer, GPT-J.
    Interleaved,
    /// [sin block | cos block], pairs (i, i+d/2). Marian, fairseq, GPT-NeoX, HF Llama rotate_half.
    Half,
}

impl From<LayoutArg> for Layout {
    fn from(l: LayoutArg) -> Layout {
        match l {
            LayoutArg::Interleaved => Layout::Interleaved,
            LayoutArg::Half => Layout::Half,
        }
    }
}

/// Frequency spacing of the sinusoidal table.
#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum SpacingArg {
    /// ω_k = base^(−2k/d) (Vaswani et al.).
    Paper,
    /// ω_k = exp(−ln(base)·k/(d/2−1)) (fairseq, tensor2tensor, M2M100).
    Fairseq,
}

impl From<SpacingArg> for Spacing {
    fn from(s: SpacingArg) -> Spacing {
        match s {
            SpacingArg::Paper => Spacing::Paper,
            SpacingArg::Fairseq => Spacing::Fairseq,
        }
    }
}

/// A Hugging Face `rope_type` (plus `ntk`).
#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum ScalingArg {
    /// Plain RoPE.
    Default,
    /// Position interpolation: θ/s.
    Linear,
    /// Dynamic NTK (uses --seq-len and --original-max = max_position_embeddings).
    Dynamic,
    /// YaRN (uses --beta-fast, --beta-slow, --original-max = original_max_position_embeddings).
    Yarn,
    /// Llama 3 (uses --low-freq-factor, --high-freq-factor, --original-max).
    Llama3,
    /// NTK-aware base change: base·s^(d/(d−2)).
    Ntk,
    /// LongRoPE (needs --short-factor and --long-factor; --original-max = original_max_position_embeddings, a --seq-len above it picks the long factors).
    Longrope,
}

impl From<ScalingArg> for RopeType {
    fn from(s: ScalingArg) -> RopeType {
        match s {
            ScalingArg::Default => RopeType::Default,
            ScalingArg::Linear => RopeType::Linear,
            ScalingArg::Dynamic => RopeType::Dynamic,
            ScalingArg::Yarn => RopeType::Yarn,
            ScalingArg::Llama3 => RopeType::Llama3,
            ScalingArg::Ntk => RopeType::Ntk,
            ScalingArg::Longrope => RopeType::Longrope,
        }
    }
}

/// `pe rope-freqs`: the scaling from flags, or a model's config.json with `--config`.
#[derive(Debug, Args)]
pub struct RopeFreqsArgs {
    #[arg(long, value_name = "FILE", help = format!(
        "Read the model's RoPE from its Hugging Face config.json (or only its rope_scaling / rope_parameters object), at most {} bytes; - reads stdin. Replaces every other flag but --seq-len",
        pe_explorer::math::rope_config::MAX_CONFIG_BYTES
    ))]
    pub config: Option<String>,
    #[arg(
        long,
        requires = "config",
        help = "With --config: the layer whose rotary embedding to read (models whose layers differ: gemma3, gemma4, llama4, smollm3, cohere2, gpt_oss, qwen3, qwen2_5_vl, qwen3_vl, deepseek_v3; default 0 for those); a layer without RoPE answers \"rope\": false, \"inv_freq\": [], \"attention_factor\": null; Gemma 4's proportional full layers answer the whole head's inv_freq, the pairs past int(partial_rotary_factor × head_dim // 2) at 0 (their wavelengths null), with \"turning_pairs\""
    )]
    pub layer: Option<usize>,
    #[arg(long, required_unless_present = "config", conflicts_with = "config", help = format!(
        "{} — the rotary dimension",
        even_dim_help()
    ))]
    pub dim: Option<usize>,
    #[arg(long, default_value_t = 10_000.0, conflicts_with = "config", help = base_help())]
    pub base: f64,
    /// The rope_type (transformers' modeling_rope_utils definitions).
    #[arg(long, value_enum, default_value = "default", conflicts_with = "config")]
    pub scaling: ScalingArg,
    #[arg(long, default_value_t = 1.0, conflicts_with = "config", help = format!("Scale factor s, {}", real(limits::FACTOR)))]
    pub factor: f64,
    #[arg(long, default_value_t = 4096, conflicts_with = "config", help = format!(
        "Trained context: max_position_embeddings (dynamic) or original_max_position_embeddings (yarn, llama3, longrope), {}",
        int(limits::CONTEXT)
    ))]
    pub original_max: usize,
    #[arg(long, help = format!(
        "Current sequence length (dynamic; longrope takes its long factors above the trained context), {}; default: --target, else the trained context (--original-max, or the config's L₀), so a LongRoPE config answers with its short factors, which transformers' rotary embedding holds until a sequence is longer than original_max_position_embeddings",
        int(limits::CONTEXT)
    ))]
    pub seq_len: Option<usize>,
    #[arg(long, value_parser = clap::builder::PossibleValuesParser::new(
        pe_explorer::math::precision::Dtype::NAMES.iter().copied()
    ), help = format!(
        "Round inv_freq to this float type (with --config too; the wavelengths printed are then 2π over the rounded values), and with --seq-len L add \"dtype\", \"max_angle_error\" (positions, inv_freq and their product rounded to the type, radians against float64, over positions 0..L; null once a position overflows float16) and \"max_angle_error_transformers\" (angles computed in float32 from a float32 inv_freq, as transformers' rotary embeddings do); L at most {}",
        super::rope_freqs::MAX_DTYPE_POSITIONS
    ))]
    pub dtype: Option<String>,
    #[arg(long, help = format!(
        "Target length T, {}: adds chapter 3's numbers — each pair's reach of the circle within L₀ and by T, plain and scaled, and the all-ones score curve to T − 1 (480 log columns); also the current length when --seq-len is not given",
        int(limits::CONTEXT)
    ))]
    pub target: Option<usize>,
    #[arg(long, default_value_t = 32.0, conflicts_with = "config", help = format!("YaRN beta_fast, {}, above --beta-slow", real(limits::RAMP)))]
    pub beta_fast: f64,
    #[arg(long, default_value_t = 1.0, conflicts_with = "config", help = format!("YaRN beta_slow, {}", real(limits::RAMP)))]
    pub beta_slow: f64,
    #[arg(long, conflicts_with = "config", help = format!(
        "YaRN mscale (DeepSeek), {}; with --mscale-all-dim sets the attention factor",
        real(limits::MSCALE)
    ))]
    pub mscale: Option<f64>,
    #[arg(long, conflicts_with = "config", help = format!("YaRN mscale_all_dim (DeepSeek), {}", real(limits::MSCALE)))]
    pub mscale_all_dim: Option<f64>,
    #[arg(long, conflicts_with = "config", help = format!(
        "Explicit attention_factor (yarn, longrope), {}; default: the type's formula",
        real(limits::ATTENTION_FACTOR)
    ))]
    pub attention_factor: Option<f64>,
    #[arg(long, default_value_t = 1.0, conflicts_with = "config", help = format!("Llama 3 low_freq_factor, {}", real(limits::RAMP)))]
    pub low_freq_factor: f64,
    #[arg(long, default_value_t = 4.0, conflicts_with = "config", help = format!(
        "Llama 3 high_freq_factor, {}, above --low-freq-factor",
        real(limits::RAMP)
    ))]
    pub high_freq_factor: f64,
    #[arg(long, allow_hyphen_values = true, conflicts_with = "config", help = format!(
        "LongRoPE short_factor: --dim/2 comma-separated numbers, each {}",
        real(limits::EXT_FACTOR)
    ))]
    pub short_factor: Option<String>,
    #[arg(long, allow_hyphen_values = true, conflicts_with = "config", help = format!(
        "LongRoPE long_factor: --dim/2 comma-separated numbers, each {}",
        real(limits::EXT_FACTOR)
    ))]
    pub long_factor: Option<String>,
}

/// Whose position vectors a similarity matrix compares.
#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum MethodArg {
    /// The sinusoidal table (with --spacing; the layout does not change similarities).
    Sinusoidal,
    /// RoPE: the rotations of the all-ones vector, (1/(d/2))·Σ_i cos((m−n)·θ_i).
    Rope,
    /// A seeded learned table, N(0, σ²).
    Learned,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Sinusoidal table PE(pos, i) → {"data": [[...]], ...parameters}.
    Sinusoidal {
        #[arg(long, help = positions_help())]
        positions: usize,
        #[arg(long, help = dim_help())]
        dim: usize,
        #[arg(long, default_value_t = 10_000.0, help = base_help())]
        base: f64,
        /// Column layout.
        #[arg(long, value_enum, default_value = "interleaved")]
        layout: LayoutArg,
        /// Frequency spacing.
        #[arg(long, value_enum, default_value = "paper")]
        spacing: SpacingArg,
    },
    /// RoPE inverse frequencies, wavelengths (2π/inv_freq), per-pair slow-down θ/θ' and attention factor of a rope_type, from flags or from a model's config.json (--config) → {"inv_freq": [...], "wavelengths": [...], "scale_per_pair": [...], "attention_factor": x, ...}.
    RopeFreqs(RopeFreqsArgs),
    /// What each layer does with positions, from a model's config.json as transformers 5.24 reads it (gemma3, gemma4, llama4, smollm3, cohere2, gpt_oss, qwen3, qwen2_5_vl, qwen3_vl, deepseek_v3) → {"num_layers": N, "layers": [{"layer": i, "attention": "full"|"sliding"|"chunked", "window": W or null, "rope": true|false, "rope_type": ..., "rope_theta": ...}, ...]}; window is the sliding window or the attention chunk (null for full), rope_type and rope_theta null on a layer without RoPE.
    Layers {
        #[arg(long, help = format!(
            "The model's config.json, at most {} bytes; - reads stdin",
            pe_explorer::math::rope_config::MAX_CONFIG_BYTES
        ))]
        config: String,
    },
    /// M-RoPE position ids of an input of text and images, as transformers 5.24's get_rope_index gives them (qwen2_5_vl, qwen3_vl), and the axis that drives each rotary pair → {"position_ids": [[t…], [h…], [w…]], "axis_of_pair": [0|1|2, …]}: one column per token in input order; 0 = t, 1 = h, 2 = w. Text advances all three ids; a vision block starting at s gives (s + k·Δt, s + row, s + column), and the next text starts at s + max(H, W).
    Mrope {
        #[arg(long, help = format!(
            "The model's config.json, at most {} bytes; - reads stdin",
            pe_explorer::math::rope_config::MAX_CONFIG_BYTES
        ))]
        config: String,
        #[arg(long, help = format!(
            "Comma-separated segments text:N or image:T,H,W (the grid in the language model's units, after the 2×2 spatial merge), at most {} tokens; for qwen2_5_vl an image with T > 1 is a video at one second per temporal patch (Δt = tokens_per_second); qwen3_vl takes a video as one T = 1 block per frame, separated by text",
            pe_explorer::math::mrope::MAX_TOKENS
        ))]
        input: String,
    },
    /// Rotate q and k to each position → {"q_rot": [[...]], "k_rot": [[...]], "dots": [[...]]}; dots[a][b] = q at a · k at b. With --rotary-dim R only the first R coordinates rotate.
    RopeApply {
        #[arg(long, help = format!("{} — the length of --q and --k", even_dim_help()))]
        dim: usize,
        #[arg(long, default_value_t = 10_000.0, help = base_help())]
        base: f64,
        /// Pairing convention.
        #[arg(long, value_enum)]
        layout: LayoutArg,
        #[arg(long, help = rotary_dim_help())]
        rotary_dim: Option<usize>,
        #[arg(long, allow_hyphen_values = true, help = rope_positions_help())]
        positions: String,
        #[arg(long, allow_hyphen_values = true, help = format!(
            "Comma-separated query vector, each entry {}",
            real(limits::VECTOR_COMPONENT)
        ))]
        q: String,
        #[arg(long, allow_hyphen_values = true, help = format!(
            "Comma-separated key vector, each entry {}",
            real(limits::VECTOR_COMPONENT)
        ))]
        k: String,
    },
    /// Meta's interleaved RoPE vs Hugging Face's rotate_half on the rows permuted by convert_llama_weights_to_hf.py → {"permutation": [...], "interleaved": {"q_rot", "k_rot", "dots"}, "half_permuted": {"q", "k", "q_rot", "k_rot", "dots"}, "max_dot_difference": x}; the dots agree.
    RopePermute {
        #[arg(long, help = format!("{} — the length of --q and --k", even_dim_help()))]
        dim: usize,
        #[arg(long, default_value_t = 10_000.0, help = base_help())]
        base: f64,
        #[arg(long, allow_hyphen_values = true, default_value = "0,5", help = rope_positions_help())]
        positions: String,
        #[arg(long, allow_hyphen_values = true, help = format!(
            "Comma-separated query vector in Meta's interleaved order, each entry {}; default: --dim N(0, 1) draws with seed 0",
            real(limits::VECTOR_COMPONENT)
        ))]
        q: Option<String>,
        #[arg(long, allow_hyphen_values = true, help = format!(
            "Comma-separated key vector in Meta's interleaved order, each entry {}; default: --dim N(0, 1) draws with seed 1",
            real(limits::VECTOR_COMPONENT)
        ))]
        k: Option<String>,
    },
    /// ALiBi head slopes, half-weight distances and bias matrices → {"slopes": [...], "half_weight_distance": [...], "bias": [[[...]]]}; bias[h][i][j] = −m_h·|i−j|, half_weight_distance[h] = ln 2/m_h. With --query, also each head's attention weights of that query under equal content scores → "attention": [[...]].
    Alibi {
        #[arg(long, help = format!("Number of heads, {} (BLOOM-176B has 112)", int(limits::HEADS)))]
        heads: usize,
        #[arg(long, default_value_t = 8, help = format!("Bias matrix size, {}", int(limits::ALIBI_LEN)))]
        len: usize,
        /// Causal form: keys after the query (j > i) are masked, printed as null (−∞).
        #[arg(long)]
        causal: bool,
        /// Query position, 0..=--len − 1: adds softmax_j(−m_h·|query − j|) for each head.
        #[arg(long)]
        query: Option<usize>,
    },
    /// T5's relative-position buckets (Hugging Face T5Attention._relative_position_bucket) → {"relative_position": [−D..=D], "bucket": [...], "max_exact": e, ...}; relative_position = key − query. With --len, also "matrix": [[...]], matrix[i][j] = bucket of j − i.
    T5Buckets {
        #[arg(long, help = format!(
            "relative_attention_num_buckets, {} (halved when bidirectional)",
            int(limits::T5_BUCKETS)
        ))]
        num_buckets: usize,
        #[arg(long, help = format!(
            "relative_attention_max_distance, {}, above max_exact (num_buckets/4 bidirectional, num_buckets/2 causal)",
            int(limits::T5_MAX_DISTANCE)
        ))]
        max_distance: usize,
        /// Causal (decoder) buckets: keys after the query all share bucket 0; default bidirectional.
        #[arg(long)]
        causal: bool,
        #[arg(long, help = format!("Also the L × L bucket matrix, L {}", int(limits::T5_LEN)))]
        len: Option<usize>,
    },
    /// NoPE: uniform causal attention's output variance per position → {"uniform_weight": [1/(i+1) ...], "output_variance": [...]}; values are seeded N(0, 1) vectors, output i is the mean of values 0..=i, whose per-coordinate second moment has expectation 1/(i+1).
    Nope {
        #[arg(long, help = format!("Positions, {}", int(limits::NOPE_LEN)))]
        len: usize,
        #[arg(long, default_value_t = 256, help = format!("Width of the value vectors, {}", int(limits::DIM)))]
        dim: usize,
        #[arg(long, default_value_t = 0, help = format!("Seed of the N(0, 1) values, {}", int(limits::SEED)))]
        seed: u64,
    },
    /// RoFormer's long-term decay bound (§3.4.3) → {"relative_distance": [0..R], "bound": [...]}.
    Decay {
        #[arg(long, help = even_dim_help())]
        dim: usize,
        #[arg(long, default_value_t = 10_000.0, help = base_help())]
        base: f64,
        #[arg(long, default_value_t = 512, help = format!("Largest relative distance R, {}", int(limits::MAX_DISTANCE)))]
        max_distance: usize,
    },
    /// Cosine similarity of position vectors → {"data": [[...]]}.
    Similarity {
        /// Which encoding.
        #[arg(long, value_enum)]
        method: MethodArg,
        #[arg(long, help = positions_help())]
        positions: usize,
        #[arg(long, help = format!("Width, {} (even for rope)", int(limits::DIM)))]
        dim: usize,
        #[arg(long, default_value_t = 10_000.0, help = format!("{} (sinusoidal, rope)", base_help()))]
        base: f64,
        /// Frequency spacing (sinusoidal).
        #[arg(long, value_enum, default_value = "paper")]
        spacing: SpacingArg,
        #[arg(long, default_value_t = 0, help = format!("{} (learned)", seed_help()))]
        seed: u64,
        #[arg(long, default_value_t = 1.0, help = format!("{} (learned)", sigma_help()))]
        sigma: f64,
    },
    /// A seeded learned position table, N(0, σ²) → {"data": [[...]]}.
    Learned {
        #[arg(long, help = format!("Rows (max_len), {}", int(limits::MAX_LEN)))]
        max_len: usize,
        #[arg(long, help = dim_help())]
        dim: usize,
        #[arg(long, help = seed_help())]
        seed: u64,
        #[arg(long, default_value_t = 1.0, help = sigma_help())]
        sigma: f64,
    },
    /// The shift matrix M_k with PE(pos+k) = M_k·PE(pos), one 2×2 block per frequency pair → {"omega": [...], "blocks": [[[c, s], [−s, c]], ...]}.
    Shift {
        #[arg(long, help = dim_help())]
        dim: usize,
        #[arg(long, default_value_t = 10_000.0, help = base_help())]
        base: f64,
        /// Frequency spacing.
        #[arg(long, value_enum, default_value = "paper")]
        spacing: SpacingArg,
        #[arg(long, allow_hyphen_values = true, help = format!("Offset k, {}", real(limits::SHIFT)))]
        k: f64,
    },
    /// Toy attention weights with and without sinusoidal positions → {"tokens": [...], "without_position": [[...]], "with_position": [[...]], ...}.
    Attention {
        #[arg(long, default_value = pe_explorer::math::attention::EXAMPLE, help = format!(
            "The sentence: words split at whitespace, lower-cased, edge punctuation dropped; {} words",
            int(limits::TOKENS)
        ))]
        sentence: String,
    },
    /// DroPE's toy (Gelberg et al. 2025, arXiv 2512.12167): a query, a key equal to it placed t positions back, and N standard-normal distractor keys at distances 1 … N; the matching key's softmax weight at each sampled distance t (N + 1 … T, at most 2048 of them) under plain RoPE (rotate_half), YaRN-scaled RoPE (factor T/L₀, its attention factor) and no rotation (DroPE after the drop) → {"distance": [...], "rope": [...], "yarn": [...], "none": [...]}.
    Drope {
        #[arg(long, default_value_t = 128, help = even_dim_help())]
        dim: usize,
        #[arg(long, default_value_t = 10_000.0, help = base_help())]
        base: f64,
        #[arg(long, help = format!("Trained length L₀, {}", int(limits::DROPE_CONTEXT)))]
        trained: usize,
        #[arg(long, help = format!("Target T, above L₀, {}", int(limits::DROPE_CONTEXT)))]
        target: usize,
        #[arg(long, default_value_t = 16, help = format!("Distractor keys N, below T, {}", int(limits::DISTRACTORS)))]
        distractors: usize,
        #[arg(long, default_value_t = 0, help = format!("Seed of q and the distractors, {}", int(limits::SEED)))]
        seed: u64,
    },
    /// Transformer-XL's relative score on the toy model (Dai et al. 2019, §3.3), its four terms per query i and visible key j ≤ i → {"tokens": [...], "a": [[...]], "b": [[...]], "c": [[...]], "d": [[...]], "score": [[...]]}; rows = queries, columns = keys, each term divided by √d, score = a + b + c + d, null above the diagonal (the causal mask). a: content-based addressing, b: content-dependent positional bias, c: global content bias (u), d: global positional bias (v); W_{k,R}, u and v are drawn from the seed. Also "bd_rows", (b) + (d) as the authors' code computes them before _rel_shift (row = query, column c = distance n − 1 − c), and "bd_shifted", after it (above the diagonal: what the causal mask hides).
    TxlTerms {
        #[arg(long, default_value = pe_explorer::math::attention::EXAMPLE, help = format!(
            "The sentence: words split at whitespace, lower-cased, edge punctuation dropped; {} words",
            int(limits::TOKENS)
        ))]
        sentence: String,
        #[arg(long, default_value_t = 0, help = format!("Seed of W_{{k,R}}, u and v, {}", int(limits::SEED)))]
        seed: u64,
    },
    /// Draw a figure of the explainer (any but the comparison table, which is text) as the page draws it, natively, panels stacked top to bottom: SVG (the same chart code on plotters' SVG backend), PNG (its bitmap backend at --scale) or CSV (the numbers it shows) → {"figure": id, "format": ..., "out": OUT, "bytes": n, "width": w, "height": h (device pixels), "panels": [titles]}; {"figures": [...]} with --all or --list. The state comes from the page's own link query.
    Render(RenderArgs),
    /// The nearest later integer position whose sine is within ε of sin(pos) → {"collision": q or null, ...}.
    SineCollision {
        #[arg(long, help = format!("Position, {}", int(limits::COLLISION_SEARCH)))]
        pos: usize,
        #[arg(long, default_value_t = 1e-3, help = format!("Tolerance ε, {}", real(limits::EPS)))]
        eps: f64,
        #[arg(long, default_value_t = 100_000, help = format!(
            "Search up to this position, {}",
            int(limits::COLLISION_SEARCH)
        ))]
        limit: usize,
    },
}
