//! Accepted input ranges, inclusive: the single source of truth for the app's sliders and URL
//! validation and for the CLI's flag checks.

/// Number of positions (rows) of a sinusoidal table or similarity matrix.
pub const POSITIONS: (usize, usize) = (1, 1024);

/// Model width d_model, or a RoPE head_dim — RoPE also needs it even (coordinates rotate in
/// pairs), so its range is the even numbers 2..=1024.
pub const DIM: (usize, usize) = (2, 1024);

/// Base of the geometric frequency progression (10000 in Vaswani et al. and RoFormer).
pub const BASE: (f64, f64) = (2.0, 1.0e7);

/// Tokens in the toy-attention sentence.
pub const TOKENS: (usize, usize) = (1, 16);

/// ALiBi head count: any count `slopes` supports, up to 1024 (BLOOM-176B has 112 heads).
pub const HEADS: (usize, usize) = (1, 1024);

/// Length of an ALiBi bias matrix.
pub const ALIBI_LEN: (usize, usize) = (1, 1024);

/// RoPE context-extension scale factor `s`.
pub const FACTOR: (f64, f64) = (1.0, 64.0);

/// A model's trained context length `L₀`, and a current sequence length.
pub const CONTEXT: (usize, usize) = (1, 1 << 24);

/// DroPE's toy: the trained length `L₀` and the target `T` (`T > L₀`), in positions.
pub const DROPE_CONTEXT: (usize, usize) = (2, 1 << 20);

/// DroPE's toy: the distractor keys, at distances `1 … N` (`N < T`).
pub const DISTRACTORS: (usize, usize) = (1, 1024);

/// YaRN's beta_fast / beta_slow and Llama 3's frequency factors (each strictly positive).
pub const RAMP: (f64, f64) = (1e-3, 1e3);

/// Largest relative distance of the RoPE decay curve.
pub const MAX_DISTANCE: (usize, usize) = (0, 100_000);

/// Rows of a learned table.
pub const MAX_LEN: (usize, usize) = (1, 4096);

/// Positions a RoPE rotation may be evaluated at (any real in range, up to this many of them).
pub const ROPE_POSITION: (f64, f64) = (0.0, 1.0e9);

/// RoPE's `rotary_dim` (partial rotation: only the first `rotary_dim` coordinates of a head
/// rotate): even, at least this, and at most the head_dim (so at most `DIM.1`).
pub const ROTARY_DIM: (usize, usize) = (2, DIM.1);

/// How many positions `pe rope-apply` takes at once.
pub const ROPE_POSITIONS_COUNT: usize = 1024;

/// Magnitude of each coordinate of a query or key vector given to `pe rope-apply` (keeps every
/// rotated coordinate and dot product finite: at most 1024·(1e100)² < f64::MAX).
pub const VECTOR_COMPONENT: (f64, f64) = (-1.0e100, 1.0e100);

/// Standard deviation σ of a learned table's `N(0, σ²)` entries (GPT-2 initialises with 0.02).
pub const SIGMA: (f64, f64) = (0.0, 10.0);

/// Seeds of the learned table: any 64-bit value.
pub const SEED: (u64, u64) = (0, u64::MAX);

/// Offset `k` of the sinusoidal shift matrix `M_k` (negative: a shift back).
pub const SHIFT: (f64, f64) = (-1.0e6, 1.0e6);

/// Tolerance ε of the sine-collision finder (`|sin q − sin p| < ε`).
pub const EPS: (f64, f64) = (1.0e-12, 1.0);

/// Positions the sine-collision finder starts from and searches up to.
pub const COLLISION_SEARCH: (usize, usize) = (0, 10_000_000);

/// Each entry of a LongRoPE `short_factor` / `long_factor` list (a per-pair rescale factor;
/// Phi-3's run from 1 to about 65).
pub const EXT_FACTOR: (f64, f64) = (1e-3, 1e3);

/// YaRN's `mscale` and `mscale_all_dim` (DeepSeek-V2 uses 0.707 and 0.707, V3 1 and 1); non-negative keeps
/// `get_mscale = 0.1·m·ln(s) + 1` at least 1.
pub const MSCALE: (f64, f64) = (0.0, 10.0);

/// An explicit `attention_factor` of a YaRN or LongRoPE config.
pub const ATTENTION_FACTOR: (f64, f64) = (1e-3, 1e3);

/// T5's `relative_attention_num_buckets` (T5 and mT5 use 32). At least 4, so that after the
/// bidirectional halving `max_exact = (num_buckets/2)/2 ≥ 1` (T5's own precondition).
pub const T5_BUCKETS: (usize, usize) = (4, 256);

/// T5's `relative_attention_max_distance` (T5 uses 128): where the log buckets end. It must also
/// exceed `max_exact` (`num_buckets/4` bidirectional, `num_buckets/2` causal), which the edges
/// check against the bucket count.
pub const T5_MAX_DISTANCE: (usize, usize) = (2, 65_536);

/// Size `L` of a T5 bucket matrix (`L × L` query–key pairs).
pub const T5_LEN: (usize, usize) = (1, 1024);

/// Shaw et al.'s clipping distance `k` (their models use 16; their ablation changes little for
/// k ≥ 2); 0 clips
/// every offset to 0 (no position information).
pub const SHAW_K: (usize, usize) = (0, 1024);

/// Positions of the NoPE output-variance simulation (its cost is `len·dim`).
pub const NOPE_LEN: (usize, usize) = (1, 4096);

/// Width of a figure drawn by `pe render`, in CSS pixels (the page's narrowest to a wide slide).
pub const RENDER_WIDTH: (u32, u32) = (320, 2400);

/// Device pixels per CSS pixel of a PNG drawn by `pe render` (2: a sharp picture on most screens).
pub const RENDER_SCALE: (f64, f64) = (1.0, 4.0);
