//! The mathematics of positional encodings: pure `f64` functions, no web, no drawing. Each module
//! states its formulas and their sources (paper section, library function); `tests/reference.rs`
//! checks them against numbers produced by PyTorch and Hugging Face transformers.
//!
//! Functions here assume valid input (see [`limits`]) and document their preconditions; the edges
//! (`crate::params`, the `pe` CLI) validate and clamp before calling.

pub mod alibi;
pub mod attention;
pub mod axial;
pub mod cached_keys;
pub mod cloud;
pub mod drope;
pub mod layers;
pub mod learned;
pub mod limits;
pub mod mrope;
pub mod naive;
pub mod nope;
pub mod partial;
pub mod pca;
pub mod phase;
pub mod plane;
pub mod precision;
pub mod relative;
pub mod rope;
pub mod rope_config;
pub mod rope_extension;
pub mod rope_presets;
pub mod rope_scaling;
pub mod rope_scores;
pub mod rope_terms;
pub mod rope_values;
pub mod similarity;
pub mod sinusoidal;
pub mod temperature;
pub mod txl;
pub mod yarn_scale;
