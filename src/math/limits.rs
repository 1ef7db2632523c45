//! Accepted input ranges, inclusive: the single source of truth for the app's sliders and URL
//! validation and for the CLI's flag checks.

/// Number of positions (rows) of a sinusoidal table or similarity matrix.
pub const POSITIONS: (usize, usize) = (1, 1024);

/// Model width d_model (or a RoPE head_dim; RoPE needs it even).
pub const DIM: (usize, usize) = (2, 1024);

/// Base of the geometric frequency progression (10000 in Vaswani et al. and RoFormer).
pub const BASE: (f64, f64) = (2.0, 1.0e6);

/// Tokens in the toy-attention sentence.
pub const TOKENS: (usize, usize) = (1, 16);
