//! Properties over the whole accepted parameter space (`math::limits`): bounds, invariances and
//! laws the papers state, and "no NaN, no infinity, no panic" for every accepted input —
//! including arbitrary URL queries.
#![cfg(not(target_arch = "wasm32"))]

use pe_explorer::math::rope_config::{self, parse_config};
use pe_explorer::math::rope_scaling::{RopeScaling, RopeType};
use pe_explorer::math::sinusoidal::{Layout, SinusoidalParams, Spacing};
use pe_explorer::math::{
    alibi, attention, drope, learned, limits, naive, nope, pca, relative, rope, similarity, txl,
};
use pe_explorer::params::{self, NaiveView, OrderView, SinusoidalView};
use proptest::prelude::*;
use serde_json::Value;

mod encodings;
mod hostile_cli;
mod queries;
mod scaling;
mod tables;

fn layout() -> impl Strategy<Value = Layout> {
    prop_oneof![Just(Layout::Interleaved), Just(Layout::Half)]
}

fn spacing() -> impl Strategy<Value = Spacing> {
    prop_oneof![Just(Spacing::Paper), Just(Spacing::Fairseq)]
}

/// Any accepted base, spread over its decades.
fn base() -> impl Strategy<Value = f64> {
    (limits::BASE.0.log10()..=limits::BASE.1.log10()).prop_map(|e| 10f64.powf(e))
}

/// Sinusoidal parameters with the full ranges of d and base, and up to 64 positions (the table's
/// cost grows with positions; the formula does not change with them).
fn sinusoidal() -> impl Strategy<Value = SinusoidalParams> {
    (
        1usize..=64,
        limits::DIM.0..=limits::DIM.1,
        base(),
        layout(),
        spacing(),
    )
        .prop_map(|(positions, dim, base, layout, spacing)| SinusoidalParams {
            positions,
            dim,
            base,
            layout,
            spacing,
        })
}

fn even_dim() -> impl Strategy<Value = usize> {
    (1usize..=limits::DIM.1 / 2).prop_map(|h| 2 * h)
}

/// Even widths up to 128, for properties that cost O(n²·d).
fn even_dim_small() -> impl Strategy<Value = usize> {
    (1usize..=64).prop_map(|h| 2 * h)
}

/// Even widths up to `max`.
fn even_dim_upto(max: usize) -> impl Strategy<Value = usize> {
    (1usize..=max / 2).prop_map(|h| 2 * h)
}

/// Two values of [`limits::RAMP`], the first strictly below the second (beta_slow < beta_fast,
/// low_freq_factor < high_freq_factor), spread over the decades.
fn ramp_pair() -> impl Strategy<Value = (f64, f64)> {
    let (lo, hi) = (limits::RAMP.0.log10(), limits::RAMP.1.log10());
    (lo..hi, 0.0f64..=1.0).prop_map(move |(a, t)| {
        let low = 10f64.powf(a);
        let high = 10f64
            .powf(a + (hi - a) * t)
            .max(low * (1.0 + 1e-9))
            .min(limits::RAMP.1);
        (low, high)
    })
}

fn vector(d: usize) -> impl Strategy<Value = Vec<f64>> {
    prop::collection::vec(-10.0f64..10.0, d)
}

/// A value of an inclusive range, spread over its decades (the range's low end must be > 0).
fn log_uniform((lo, hi): (f64, f64)) -> impl Strategy<Value = f64> {
    (lo.log10()..=hi.log10()).prop_map(move |e| 10f64.powf(e).clamp(lo, hi))
}

/// Every field of a [`RopeScaling`] over its accepted range: LongRoPE lists of `dim/2` entries
/// in [`limits::EXT_FACTOR`] (or empty), YaRN's mscale pair and explicit attention factor (or
/// none), either `truncate`.
fn any_scaling() -> impl Strategy<Value = RopeScaling> {
    let lists = even_dim().prop_flat_map(|d| {
        let list = prop_oneof![
            Just(Vec::new()),
            prop::collection::vec(log_uniform(limits::EXT_FACTOR), d / 2),
        ];
        (Just(d), list.clone(), list)
    });
    let optional = |range: (f64, f64)| prop::option::of(range.0..=range.1);
    (
        (
            lists,
            base(),
            limits::FACTOR.0..=limits::FACTOR.1,
            limits::CONTEXT.0..=limits::CONTEXT.1,
            limits::CONTEXT.0..=limits::CONTEXT.1,
            prop::sample::select(RopeType::ALL.to_vec()),
        ),
        (
            ramp_pair(),
            ramp_pair(),
            optional(limits::MSCALE),
            optional(limits::MSCALE),
            prop::option::of(log_uniform(limits::ATTENTION_FACTOR)),
            any::<bool>(),
        ),
    )
        .prop_map(
            |(
                ((dim, short_factor, long_factor), base, factor, original_max, seq_len, rope_type),
                (betas, freq_factors, mscale, mscale_all_dim, attention_factor, truncate),
            )| RopeScaling {
                rope_type,
                dim,
                base,
                factor,
                original_max,
                seq_len,
                beta_slow: betas.0,
                beta_fast: betas.1,
                low_freq_factor: freq_factors.0,
                high_freq_factor: freq_factors.1,
                attention_factor,
                mscale,
                mscale_all_dim,
                short_factor,
                long_factor,
                truncate,
            },
        )
}

/// The keys a model config's RoPE is read from, and a few others.
fn config_key() -> impl Strategy<Value = String> {
    prop::sample::select(vec![
        "rope_type",
        "type",
        "factor",
        "rope_theta",
        "rope_scaling",
        "rope_parameters",
        "original_max_position_embeddings",
        "max_position_embeddings",
        "n_positions",
        "hidden_size",
        "num_attention_heads",
        "head_dim",
        "n_embd",
        "n_head",
        "rotary_dim",
        "rotary_pct",
        "rotary_emb_base",
        "partial_rotary_factor",
        "qk_rope_head_dim",
        "model_type",
        "short_factor",
        "long_factor",
        "low_freq_factor",
        "high_freq_factor",
        "beta_fast",
        "beta_slow",
        "mscale",
        "mscale_all_dim",
        "attention_factor",
        "truncate",
        "full_attention",
        "other",
    ])
    .prop_map(str::to_string)
}

/// JSON values a config might hold, nested a few levels: numbers of every size and sign, the
/// rope_type names, strings, booleans, null, lists and objects of config keys.
fn json_value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::from),
        any::<f64>().prop_filter_map("finite", |v| serde_json::Number::from_f64(v)
            .map(Value::Number)),
        (-10.0f64..300_000.0).prop_map(Value::from),
        (0u64..300_000).prop_map(Value::from),
        prop::sample::select(vec![
            "default", "linear", "ntk", "dynamic", "yarn", "llama3", "longrope", "su", "gptj",
            "gpt_neox", "",
        ])
        .prop_map(Value::from),
        "\\PC{0,6}".prop_map(Value::from),
    ];
    leaf.prop_recursive(3, 96, 64, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..64).prop_map(Value::Array),
            prop::collection::btree_map(config_key(), inner, 0..12)
                .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}

/// What `parse_config` returned is within this app's limits and computes finite numbers.
fn check_model(m: &rope_config::ModelRope) -> Result<(), TestCaseError> {
    let c = &m.scaling;
    prop_assert!(c.dim.is_multiple_of(2) && c.dim >= limits::ROTARY_DIM.0 && c.dim <= m.head_dim);
    prop_assert!((limits::DIM.0..=limits::DIM.1).contains(&m.head_dim));
    prop_assert!((limits::BASE.0..=limits::BASE.1).contains(&c.base));
    prop_assert!((limits::FACTOR.0..=limits::FACTOR.1).contains(&c.factor));
    prop_assert!((limits::CONTEXT.0..=limits::CONTEXT.1).contains(&c.original_max));
    prop_assert!((limits::CONTEXT.0..=limits::CONTEXT.1).contains(&m.max_position));
    let (inv_freq, attention) = c.compute();
    prop_assert_eq!(inv_freq.len(), c.dim / 2);
    prop_assert!(inv_freq.iter().all(|f| f.is_finite() && *f > 0.0));
    prop_assert!(attention.is_finite() && attention > 0.0);
    prop_assert!(c.scale_per_pair().iter().all(|r| r.is_finite() && *r > 0.0));
    prop_assert!(m.read.iter().chain(&m.warnings).all(|l| !l.contains('\n')));
    Ok(())
}
