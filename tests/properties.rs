//! Properties over the whole accepted parameter space (`math::limits`): bounds, invariances and
//! laws the papers state, and "no NaN, no infinity, no panic" for every accepted input —
//! including arbitrary URL queries.
#![cfg(not(target_arch = "wasm32"))]

use pe_explorer::math::rope_config::{self, parse_config};
use pe_explorer::math::rope_scaling::{RopeScaling, RopeType};
use pe_explorer::math::sinusoidal::{Layout, SinusoidalParams, Spacing};
use pe_explorer::math::{
    alibi, attention, learned, limits, naive, nope, pca, relative, rope, similarity,
};
use pe_explorer::params::{self, NaiveView, OrderView, SinusoidalView};
use proptest::prelude::*;
use serde_json::Value;

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

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn sinusoidal_is_bounded_finite_and_fast_equals_exact(p in sinusoidal()) {
        let t = p.table();
        prop_assert_eq!(t.len(), p.positions * p.dim);
        for pos in 0..p.positions {
            for col in 0..p.dim {
                let v = t[pos * p.dim + col];
                prop_assert!(v.is_finite() && v.abs() <= 1.0 + 1e-12);
                prop_assert!((v - p.value(pos, col)).abs() < 1e-9);
            }
        }
    }

    #[test]
    fn shift_matrix_law(p in sinusoidal(), pos in 0usize..500, k in 0usize..500) {
        let moved = p.apply_shift(&p.row(pos), pos, k as f64);
        for (a, b) in moved.iter().zip(p.row(pos + k)) {
            prop_assert!((a - b).abs() < 1e-9);
        }
    }

    #[test]
    fn similarity_unit_diagonal_symmetric_and_paths_agree(p in sinusoidal()) {
        let n = p.positions;
        let mut fast = Vec::new();
        similarity::sinusoidal_matrix_into(&p, &mut fast);
        let general = similarity::cosine_matrix(&p.table(), n, p.dim);
        for a in 0..n {
            prop_assert!((fast[a * n + a] - 1.0).abs() < 1e-12);
            for b in 0..n {
                prop_assert_eq!(fast[a * n + b], fast[b * n + a]);
                prop_assert!((fast[a * n + b] - general[a * n + b]).abs() < 1e-9);
            }
        }
    }

    #[test]
    fn rope_keeps_norms_and_dots_depend_only_on_offset(
        (d, q, k) in even_dim().prop_flat_map(|d| (Just(d), vector(d), vector(d))),
        b in base(),
        m in 0.0f64..5000.0,
        n in 0.0f64..5000.0,
        shift in 0.0f64..5000.0,
        layout in layout(),
    ) {
        let theta = rope::inv_freq(d, b);
        let qm = rope::rotate(&q, m, &theta, layout);
        prop_assert!((rope::dot(&qm, &qm) - rope::dot(&q, &q)).abs() < 1e-9 * (1.0 + rope::dot(&q, &q)));
        let dots = rope::dots(&q, &k, &[m, n, m + shift, n + shift], &theta, layout);
        let scale = 1.0 + rope::dot(&q, &q).sqrt() * rope::dot(&k, &k).sqrt();
        // q at m · k at n  equals  q at m+s · k at n+s.
        prop_assert!((dots[1] - dots[2 * 4 + 3]).abs() < 1e-8 * scale);
    }

    #[test]
    fn rope_efficient_form_equals_rotate(
        (d, x) in even_dim_upto(256).prop_flat_map(|d| (Just(d), vector(d))),
        b in base(),
        pos in 0.0f64..1e5,
        layout in layout(),
    ) {
        let theta = rope::inv_freq(d, b);
        let want = rope::rotate(&x, pos, &theta, layout);
        let tol = 1e-9 * (1.0 + rope::dot(&x, &x).sqrt());
        for (a, e) in rope::apply_efficient(&x, pos, &theta, layout).iter().zip(&want) {
            prop_assert!((a - e).abs() <= tol, "{} vs {}", a, e);
        }
    }

    #[test]
    fn rope_partial_rotation_keeps_norms_and_the_tail(
        (d, r, x) in even_dim_upto(256)
            .prop_flat_map(|d| (Just(d), (1..=d / 2).prop_map(|h| 2 * h), vector(d))),
        b in base(),
        pos in 0.0f64..1e5,
        layout in layout(),
    ) {
        let y = rope::rotate_partial(&x, pos, b, r, layout);
        prop_assert_eq!(y.len(), d);
        let (nx, ny) = (rope::dot(&x, &x), rope::dot(&y, &y));
        prop_assert!((nx - ny).abs() <= 1e-9 * (1.0 + nx));
        prop_assert_eq!(&y[r..], &x[r..]);
    }

    #[test]
    fn rope_hf_permutation_turns_interleaved_into_half(
        (d, q, k) in even_dim_upto(256).prop_flat_map(|d| (Just(d), vector(d), vector(d))),
        b in base(),
        m in 0.0f64..1e5,
        n in 0.0f64..1e5,
    ) {
        let theta = rope::inv_freq(d, b);
        let perm = rope::hf_permutation(d);
        let mut sorted = perm.clone();
        sorted.sort_unstable();
        prop_assert_eq!(sorted, (0..d).collect::<Vec<_>>());
        let (pq, pk) = (rope::permute(&q, &perm), rope::permute(&k, &perm));
        let qi = rope::rotate(&q, m, &theta, Layout::Interleaved);
        let qh = rope::rotate(&pq, m, &theta, Layout::Half);
        prop_assert_eq!(rope::permute(&qi, &perm), qh.clone());
        let ki = rope::rotate(&k, n, &theta, Layout::Interleaved);
        let kh = rope::rotate(&pk, n, &theta, Layout::Half);
        let scale = 1.0 + rope::dot(&q, &q).sqrt() * rope::dot(&k, &k).sqrt();
        prop_assert!((rope::dot(&qi, &ki) - rope::dot(&qh, &kh)).abs() <= 1e-12 * scale);
    }

    #[test]
    fn pca_is_finite_orthonormal_and_ordered(
        (n, d, data) in (1usize..40, 1usize..24)
            .prop_flat_map(|(n, d)| (Just(n), Just(d), prop::collection::vec(
                prop_oneof![3 => -10.0f64..10.0, 1 => Just(0.0), 1 => Just(1.0)],
                n * d,
            ))),
        k in 0usize..30,
        magnitude in prop::sample::select(vec![1e-300, 1e-6, 1.0, 1e6, 1e300]),
    ) {
        let data: Vec<f64> = data.iter().map(|x| x * magnitude).collect();
        let p = pca::pca(&data, n, d, k);
        prop_assert_eq!(p.components.len(), k.min(d));
        prop_assert!(p.mean.iter().chain(p.components.iter().flatten()).chain(&p.variances).all(|x| x.is_finite()));
        prop_assert!(p.variances.iter().all(|&v| v >= 0.0));
        prop_assert!(p.variances.windows(2).all(|w| w[0] >= w[1]));
        for (a, u) in p.components.iter().enumerate() {
            for (b, v) in p.components.iter().enumerate() {
                let want = if a == b { 1.0 } else { 0.0 };
                prop_assert!((rope::dot(u, v) - want).abs() < 1e-9, "{} {}", a, b);
            }
        }
        for row in data.chunks_exact(d) {
            prop_assert!(p.project(row).iter().all(|x| x.is_finite()));
        }
    }

    #[test]
    fn rope_scaling_is_finite_positive_and_never_faster(c in any_scaling()) {
        // Without LongRoPE lists (then θ itself), mscale pair or explicit attention factor, which
        // may speed a frequency up or set an attention factor below 1.
        let c = RopeScaling {
            attention_factor: None,
            mscale: None,
            mscale_all_dim: None,
            short_factor: Vec::new(),
            long_factor: Vec::new(),
            ..c
        };
        let (d, b, factor, rope_type) = (c.dim, c.base, c.factor, c.rope_type);
        let (inv_freq, attention_factor) = c.compute();
        let plain = rope::inv_freq(d, b);
        prop_assert_eq!(inv_freq.len(), d / 2);
        prop_assert!(attention_factor.is_finite() && attention_factor >= 1.0);
        for (f, p) in inv_freq.iter().zip(&plain) {
            prop_assert!(f.is_finite() && *f > 0.0, "{:?}: {}", rope_type, f);
            // Every scheme slows frequencies down (or keeps them): none speeds one up. Linear,
            // YaRN and Llama 3 blend θ with θ/s, so none slows one by more than s (the NTK
            // family's base change has no such bound).
            prop_assert!(*f <= p * (1.0 + 1e-12), "{:?}: {} > {}", rope_type, f, p);
            if matches!(rope_type, RopeType::Linear | RopeType::Yarn | RopeType::Llama3) {
                prop_assert!(*f >= p / factor * (1.0 - 1e-12), "{:?}: {} < {}/s", rope_type, f, p);
            }
        }
    }

    #[test]
    fn every_scaling_with_every_field_is_finite_and_positive(c in any_scaling()) {
        let (inv_freq, attention_factor) = c.compute();
        prop_assert_eq!(inv_freq.len(), c.dim / 2);
        prop_assert!(attention_factor.is_finite() && attention_factor > 0.0, "{:?}", c);
        prop_assert!(inv_freq.iter().all(|f| f.is_finite() && *f > 0.0), "{:?}", c);
        let ratio = c.scale_per_pair();
        prop_assert!(ratio.iter().all(|r| r.is_finite() && *r > 0.0), "{:?}", c);
        let (low, high) = pe_explorer::math::rope_scaling::yarn_correction_range(&c);
        prop_assert!(low.is_finite() && high.is_finite());
    }

    #[test]
    fn parse_config_never_panics_on_any_text(text in "\\PC{0,200}") {
        if let Ok(m) = parse_config(&text) {
            check_model(&m)?;
        }
    }

    #[test]
    fn parse_config_never_panics_on_json_ish_objects(
        root in prop::collection::btree_map(config_key(), json_value(), 0..16),
    ) {
        let text = Value::Object(root.into_iter().collect()).to_string();
        match parse_config(&text) {
            Ok(m) => check_model(&m)?,
            Err(e) => prop_assert!(!e.is_empty() && !e.contains('\n'), "{}", e),
        }
    }

    #[test]
    fn rope_sweep_and_similarity_fast_path_agree_with_the_general_ones(
        (d, x) in even_dim_small().prop_flat_map(|d| (Just(d), vector(d))),
        b in base(),
        n in 1usize..48,
        layout in layout(),
    ) {
        let theta = rope::inv_freq(d, b);
        let mut sweep = Vec::new();
        rope::rotate_sweep_into(&x, n, &theta, layout, &mut sweep);
        let scale = 1.0 + rope::dot(&x, &x).sqrt();
        for (m, row) in sweep.chunks_exact(d).enumerate() {
            for (a, e) in row.iter().zip(rope::rotate(&x, m as f64, &theta, layout)) {
                prop_assert!((a - e).abs() < 1e-11 * scale);
            }
        }
        // RoPE position vectors: rotations of the all-ones vector.
        let mut ones = Vec::new();
        rope::rotate_sweep_into(&vec![1.0; d], n, &theta, layout, &mut ones);
        let general = similarity::cosine_matrix(&ones, n, d);
        let fast = similarity::rope_matrix(d, b, n);
        for a in 0..n {
            prop_assert!((fast[a * n + a] - 1.0).abs() < 1e-12);
            for c in 0..n {
                prop_assert_eq!(fast[a * n + c], fast[c * n + a]);
                prop_assert!((fast[a * n + c] - general[a * n + c]).abs() < 1e-9);
            }
        }
    }

    #[test]
    fn decay_is_finite_and_bounded_by_its_start(d in even_dim(), b in base(), r in 0usize..2000) {
        let bound = rope::decay(d, b, r);
        prop_assert_eq!(bound.len(), r + 1);
        for v in &bound {
            prop_assert!(v.is_finite() && *v >= 0.0 && *v <= bound[0] + 1e-9);
        }
    }

    #[test]
    fn alibi_slopes_for_every_head_count(heads in limits::HEADS.0..=limits::HEADS.1, len in 1usize..40) {
        let s = alibi::slopes(heads);
        prop_assert_eq!(s.len(), heads);
        prop_assert!(s.iter().all(|m| m.is_finite() && *m > 0.0 && *m < 1.0));
        // The closest power of two p ≤ heads gets the paper's geometric sequence 2^(−8h/p)
        // (all of them when heads is a power of two) ...
        let p = 1usize << heads.ilog2();
        let ratio = 2f64.powf(-8.0 / p as f64);
        prop_assert!((s[0] - ratio).abs() < 1e-15);
        for w in s[..p].windows(2) {
            prop_assert!((w[1] / w[0] - ratio).abs() < 1e-12, "geometric with ratio 2^(−8/p)");
        }
        // ... and the rest are every other slope of 2p heads: 2^(−8(2k+1)/(2p)), k = 0, 1, ….
        for (k, &m) in s[p..].iter().enumerate() {
            let want = 2f64.powf(-8.0 * (2 * k + 1) as f64 / (2 * p) as f64);
            prop_assert!((m - want).abs() < 1e-15, "extra slope {}: {} vs {}", k, m, want);
        }
        for (h, &m) in s.iter().enumerate() {
            let b = alibi::bias(m, len, false);
            let c = alibi::bias(m, len, true);
            for i in 0..len {
                for j in 0..len {
                    let want = -m * i.abs_diff(j) as f64;
                    prop_assert!(b[i * len + j].is_finite() && b[i * len + j] <= 0.0);
                    prop_assert!((b[i * len + j] - want).abs() <= 1e-15, "head {} ({}, {})", h, i, j);
                    if j > i {
                        prop_assert_eq!(c[i * len + j], f64::NEG_INFINITY);
                    } else {
                        prop_assert_eq!(c[i * len + j], b[i * len + j]);
                    }
                }
            }
        }
    }

    /// Over T5's whole valid space (`limits::T5_BUCKETS`, a max distance in
    /// `limits::T5_MAX_DISTANCE` above max_exact): every bucket is below `num_buckets`, and on each
    /// side of the query the bucket never falls as the distance grows.
    #[test]
    fn t5_buckets_are_in_range_and_monotone_in_the_distance(
        (num_buckets, bidirectional, max_distance) in (limits::T5_BUCKETS.0..=limits::T5_BUCKETS.1, any::<bool>())
            .prop_flat_map(|(nb, bidirectional)| {
                let max_exact = if bidirectional { nb / 4 } else { nb / 2 };
                let lo = (max_exact + 1).max(limits::T5_MAX_DISTANCE.0);
                (Just(nb), Just(bidirectional), lo..=limits::T5_MAX_DISTANCE.1)
            }),
        rel in any::<i64>(),
    ) {
        let bucket = |r: i64| relative::t5_bucket(r, bidirectional, num_buckets, max_distance);
        prop_assert!(bucket(rel) < num_buckets);
        let reach = (2 * max_distance).min(4096) as i64;
        let (mut before, mut after) = (bucket(0), bucket(1));
        for n in 1..=reach {
            let (b, a) = (bucket(-n), bucket(n));
            prop_assert!(b < num_buckets && a < num_buckets);
            prop_assert!(b >= before, "−{}: {} < {}", n, b, before);
            prop_assert!(a >= after, "+{}: {} < {}", n, a, after);
            if !bidirectional {
                prop_assert_eq!(a, 0, "causal: keys after the query share bucket 0");
            }
            (before, after) = (b, a);
        }
        // From the max distance on, every distance shares the side's last bucket.
        let last = if bidirectional { num_buckets / 2 - 1 } else { num_buckets - 1 };
        prop_assert_eq!(bucket(-(max_distance as i64)), last);
        prop_assert_eq!(bucket(i64::MIN), last);
    }

    /// Outside the valid space too: no panic, and the bucket stays below `num_buckets`.
    #[test]
    fn t5_buckets_never_panic(rel: i64, bidirectional: bool, num_buckets in 1usize.., max_distance: usize) {
        prop_assert!(relative::t5_bucket(rel, bidirectional, num_buckets, max_distance) < num_buckets);
        let small = num_buckets % 300 + 1;
        prop_assert!(relative::t5_bucket(rel, bidirectional, small, max_distance % 300) < small);
    }

    #[test]
    fn shaw_clip_stays_within_k(rel: i64, k in prop_oneof![0usize..64, any::<usize>()]) {
        let c = relative::shaw_clip(rel, k);
        prop_assert!(c.unsigned_abs() as u128 <= k as u128);
        if (rel.unsigned_abs() as u128) <= k as u128 {
            prop_assert_eq!(c, rel);
        }
        prop_assert!(relative::shaw_index(rel, k) as u128 <= 2 * k as u128);
    }

    #[test]
    fn alibi_attention_rows_are_distributions(
        slope in prop_oneof![Just(0.0), 0.0f64..=8.0],
        len in 0usize..=512,
        query in 0usize..600,
        causal: bool,
    ) {
        let mut w = Vec::new();
        alibi::attention_row_into(slope, query, len, causal, &mut w);
        prop_assert_eq!(w.len(), len);
        prop_assert!(w.iter().all(|x| x.is_finite() && *x >= 0.0));
        if len > 0 {
            prop_assert!((w.iter().sum::<f64>() - 1.0).abs() < 1e-12);
            let q = query.min(len - 1);
            // The query's own key weighs most; causal rows give the future nothing.
            prop_assert!(w.iter().all(|x| *x <= w[q]));
            if causal {
                prop_assert!(w[q + 1..].iter().all(|x| *x == 0.0));
            }
        }
    }

    #[test]
    fn nope_output_variance_is_finite_and_non_negative(seed: u64, len in 1usize..200, dim in 1usize..64) {
        let mut out = Vec::new();
        nope::output_variance_into(seed, len, dim, &mut out);
        prop_assert_eq!(out.len(), len);
        prop_assert!(out.iter().all(|v| v.is_finite() && *v >= 0.0));
    }

    #[test]
    fn learned_rows_are_the_table_rows(max_len in 1usize..32, dim in 1usize..32, seed: u64, sigma in limits::SIGMA.0..=limits::SIGMA.1) {
        let t = learned::LearnedTable::new(max_len, dim, sigma, seed);
        let mut row = Vec::new();
        for pos in 0..max_len {
            learned::row_into(seed, sigma, pos, dim, &mut row);
            prop_assert_eq!(t.row(pos), Some(row.as_slice()));
        }
        let mut sim = Vec::new();
        learned::cosine_similarity_into(seed, sigma, max_len, dim, &mut sim);
        prop_assert_eq!(sim.len(), max_len * max_len);
        prop_assert!(sim.iter().all(|s| s.is_finite() && s.abs() <= 1.0));
    }

    #[test]
    fn toy_attention_rows_are_distributions(words in prop::collection::vec("[A-Za-z]{1,6}[.,!?]?", 1..=limits::TOKENS.1), with_position: bool) {
        let sentence = words.join(" ");
        let tokens = attention::tokenize(&sentence);
        let n = tokens.len();
        let w = attention::weights(&tokens, attention::TOY_DIM, with_position);
        prop_assert_eq!(w.len(), n * n);
        for row in w.chunks_exact(n) {
            prop_assert!(row.iter().all(|v| v.is_finite() && *v >= 0.0));
            prop_assert!((row.iter().sum::<f64>() - 1.0).abs() < 1e-9);
        }
    }

    #[test]
    fn learned_rows_exist_exactly_below_max_len(max_len in 1usize..64, dim in 2usize..64, seed: u64, probe in 0usize..128, sigma in limits::SIGMA.0..=limits::SIGMA.1) {
        let t = learned::LearnedTable::new(max_len, dim, sigma, seed);
        prop_assert_eq!(t.row(probe).is_some(), probe < max_len);
        prop_assert!(t.data().iter().all(|v| v.is_finite()));
    }

    #[test]
    fn naive_collisions_really_collide_and_are_the_nearest(pos in 0usize..2000, eps in 1e-4f64..0.1) {
        let limit = pos + 10_000;
        let hit = naive::sine_collision(pos, eps, limit);
        let end = hit.unwrap_or(limit);
        if let Some(q) = hit {
            prop_assert!(q > pos && ((q as f64).sin() - (pos as f64).sin()).abs() < eps);
        }
        for q in pos + 1..end {
            prop_assert!(((q as f64).sin() - (pos as f64).sin()).abs() >= eps, "{} is nearer", q);
        }
    }

    #[test]
    fn naive_signals_are_finite_and_binary_rows_unique(n in 1usize..=1024, d in limits::DIM.0..=limits::DIM.1) {
        let bits = naive::bits_for(n);
        let table = naive::binary_table(n, bits);
        prop_assert_eq!(table.len(), n * bits as usize);
        let rows: std::collections::HashSet<Vec<u64>> = table
            .chunks_exact(bits as usize)
            .map(|r| r.iter().map(|v| v.to_bits()).collect())
            .collect();
        prop_assert_eq!(rows.len(), n, "every position has its own bits");
        for pos in [0, n / 2, n - 1] {
            prop_assert!(naive::integer_norm(pos, d).is_finite());
            prop_assert!(naive::normalized_norm(pos, n, d) <= (d as f64).sqrt() + 1e-12);
        }
    }

    /// Whatever the URL holds, reading it never panics and every value lands inside its range.
    #[test]
    fn any_url_query_gives_valid_state(query in "[a-z=&%0-9.,+-]{0,80}", key in prop::sample::select(vec!["n", "d", "base", "pos", "layout", "spacing", "dims", "rows", "cols", "k", "at", "s", "pe", "npos", "eps", "theme"]), value in "\\PC{0,24}") {
        let mut pairs = params::parse_query(&query);
        pairs.push((key.to_string(), value));
        let (view, _) = SinusoidalView::from_query(&pairs);
        let p = view.params;
        prop_assert!((limits::POSITIONS.0..=limits::POSITIONS.1).contains(&p.positions));
        prop_assert!((limits::DIM.0..=limits::DIM.1).contains(&p.dim));
        prop_assert!(p.base.is_finite() && (limits::BASE.0..=limits::BASE.1).contains(&p.base));
        prop_assert!(view.pos < p.positions);
        prop_assert!(!view.dims.is_empty() && view.dims.iter().all(|&k| k < p.dim));
        prop_assert!(view.shift <= params::MAX_SHIFT);
        let (order, _) = OrderView::from_query(&pairs);
        prop_assert!(params::check_sentence(&order.sentence).is_ok());
        let (naive_view, _) = NaiveView::from_query(&pairs);
        prop_assert!(naive_view.eps.is_finite() && naive_view.eps > 0.0);
        let _ = params::ThemeChoice::from_query(&pairs);
    }

    /// Whatever a link holds for any chapter's declared keys, the link the page writes back for
    /// the views read from it reads back as the same views, with no notice: every declaration
    /// writes what it reads.
    #[test]
    fn every_declared_key_writes_what_it_reads(
        picks in prop::collection::vec(
            (
                prop::sample::select(params::state_keys().collect::<Vec<_>>()),
                prop_oneof![
                    (0u32..5000).prop_map(|x| x.to_string()),
                    (-10.0f64..1e6).prop_map(|x| x.to_string()),
                    (0.0f64..4.0).prop_map(|x| x.to_string()),
                    prop::sample::select(vec![
                        "half", "random", "sin", "none", "yarn", "llama3", "true", "false", "0",
                        "1", "on", "off", "3,4", "0.5,-1", "0-9", "7-2", "1,2,3", "linear,ntk",
                        "llama2-7b", "a b c",
                    ])
                    .prop_map(str::to_string),
                    "[a-z0-9.,+ -]{0,12}",
                ],
            ),
            0..12,
        ),
    ) {
        let pairs: Vec<(String, String)> =
            picks.into_iter().map(|(k, v)| (k.to_string(), v)).collect();
        let (views, _) = params::Views::from_query(&pairs);
        let mut written = views.sinusoidal.to_query();
        written.extend(views.order.to_query());
        written.extend(views.naive.to_query());
        written.extend(views.rope.to_query());
        written.extend(views.context.to_query());
        written.extend(views.tables.to_query());
        let link = params::build_query(&written);
        let (back, notices) = params::Views::from_query(&params::parse_query(&link));
        prop_assert!(notices.is_empty(), "{link}: {notices:?}");
        prop_assert_eq!(back, views, "{}", link);
    }

    /// Whatever the URL holds for chapter 2, reading it never panics, every value lands inside
    /// its range, and the view the figures compute from is one they can draw.
    #[test]
    fn any_rope_query_gives_valid_state(
        query in "[a-z.=&%0-9,+-]{0,80}",
        key in prop::sample::select(params::rope::TABLE.keys().collect::<Vec<_>>()),
        value in "\\PC{0,24}",
    ) {
        use pe_explorer::params::rope::{self as rp, RopeView};
        let mut pairs = params::parse_query(&query);
        pairs.push((key.to_string(), value));
        let (v, _) = RopeView::from_query(&pairs);
        prop_assert!(v.dim % 2 == 0 && (rp::HEAD_DIM.0..=rp::HEAD_DIM.1).contains(&v.dim));
        prop_assert!(v.base.is_finite() && (limits::BASE.0..=limits::BASE.1).contains(&v.base));
        prop_assert!((rp::POSITIONS.0..=rp::POSITIONS.1).contains(&v.positions));
        prop_assert!(v.pos < v.positions);
        prop_assert!(v.rotary_dim % 2 == 0 && v.rotary_dim >= 2 && v.rotary_dim <= v.dim);
        prop_assert!(v.vector.iter().all(|x| x.is_finite() && (rp::VECTOR_COORD.0..=rp::VECTOR_COORD.1).contains(x)));
        prop_assert!((rp::THETA_DEG.0..=rp::THETA_DEG.1).contains(&v.theta_deg));
        prop_assert!((rp::THETA_DEG.0..=rp::THETA_DEG.1).contains(&v.sentence_theta_deg));
        prop_assert!(v.vector_pos <= rp::VECTOR_POS.1);
        prop_assert!(v.sentences.iter().all(|s| rp::check_sentence(s).is_ok()));
        prop_assert!(v.words.iter().all(|w| rp::check_word(w).is_ok()));
        prop_assert!(v.pair.iter().all(|&k| k < limits::TOKENS.1));
        prop_assert!(v.shift <= rp::SHIFT.1 && v.value_offset <= rp::SHIFT.1);
        prop_assert!((rp::CLOUD_POSITIONS.0..=rp::CLOUD_POSITIONS.1).contains(&v.cloud_positions));
        prop_assert!((rp::YAW.0..=rp::YAW.1).contains(&v.view[0]) && (rp::PITCH.0..=rp::PITCH.1).contains(&v.view[1]));
        // What the score figure computes from it is finite.
        let q = vec![1.0; v.dim];
        let g = pe_explorer::math::rope_scores::score_by_distance(&q, &q, v.base, v.rotary_dim, v.layout, v.positions.min(64));
        prop_assert!(g.iter().all(|x| x.is_finite()));
    }
}

// ---- `pe` on hostile argument vectors, in-process ----

/// The `pe` command line, compiled into this test so that it runs in-process
/// ([`cli::run_with`] with in-memory streams) rather than one process per case. `cli::run` (the
/// process's own streams) is the binary's and unused here.
#[allow(dead_code)]
#[path = "../src/bin/pe/cli.rs"]
mod cli;

use std::ffi::OsString;

use clap::ArgAction;

/// A flag as clap declares it.
#[derive(Debug, Clone)]
struct PeFlag {
    name: String,
    /// clap's id, and the ids of the flags it cannot go with.
    id: String,
    conflicts: Vec<String>,
    takes_value: bool,
    required: bool,
    /// Takes a path (`value_name = "FILE"`).
    file: bool,
    /// Asks for the help or the version.
    meta: bool,
    /// The values of [`PE_PLAIN`] that parse as the flag's type.
    plain: Vec<&'static str>,
    choices: Vec<String>,
}

/// `pe`'s subcommands (clap's `help` included) with their flags, and the top level's flags,
/// read from clap so that new subcommands and flags are fuzzed too.
fn pe_commands() -> (Vec<(String, Vec<PeFlag>)>, Vec<PeFlag>) {
    let mut command = cli::command();
    command.build();
    let flags = |c: &clap::Command| -> Vec<PeFlag> {
        c.get_arguments()
            .filter(|a| !a.is_positional())
            .flat_map(|a| {
                let names = a.get_long().map(|l| format!("--{l}")).into_iter();
                let names = names.chain(a.get_short().map(|s| format!("-{s}")));
                names.map(|name| PeFlag {
                    name,
                    id: a.get_id().to_string(),
                    conflicts: c
                        .get_arg_conflicts_with(a)
                        .iter()
                        .map(|b| b.get_id().to_string())
                        .collect(),
                    takes_value: a.get_action().takes_values(),
                    required: a.is_required_set(),
                    file: a
                        .get_value_names()
                        .is_some_and(|names| names.iter().any(|n| n.as_str() == "FILE")),
                    meta: matches!(
                        a.get_action(),
                        ArgAction::Help
                            | ArgAction::HelpShort
                            | ArgAction::HelpLong
                            | ArgAction::Version
                    ),
                    plain: PE_PLAIN
                        .split_whitespace()
                        .filter(|v| pe_parses(a, v))
                        .collect(),
                    choices: a
                        .get_possible_values()
                        .iter()
                        .map(|v| v.get_name().to_string())
                        .collect(),
                })
            })
            .collect()
    };
    let subs = command
        .get_subcommands()
        .map(|s| (s.get_name().to_string(), flags(s)))
        .collect();
    (subs, flags(&command))
}

/// Whether `value` parses as the type of `arg`'s value (integers and reals; any text else).
fn pe_parses(arg: &clap::Arg, value: &str) -> bool {
    use std::any::TypeId;
    let id = arg.get_value_parser().type_id();
    if id == TypeId::of::<usize>() || id == TypeId::of::<u64>() {
        value.parse::<u64>().is_ok()
    } else if id == TypeId::of::<f64>() {
        value.parse::<f64>().is_ok()
    } else {
        true
    }
}

/// Small sizes and lists (space-separated): values that often pass, so that some runs get as far
/// as the JSON.
const PE_PLAIN: &str = "0 1 2 3 4 8 16 0.5 1e-3 1,2 1,2,3,4 0,5 0.5,1,2,3";

/// An argument that is not valid UTF-8.
fn not_utf8() -> OsString {
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStringExt;
        OsString::from_vec(b"4\xff\xfe".to_vec())
    }
    #[cfg(windows)]
    {
        use std::os::windows::ffi::OsStringExt;
        OsString::from_wide(&[0x34, 0xD800])
    }
    #[cfg(not(any(unix, windows)))]
    OsString::from("4\u{FFFD}")
}

/// [`pe_hostile`]'s kinds before this one are tame (no flags, no paths).
const PE_TAME: usize = 4;
/// The kind of [`pe_hostile`]'s values that are paths.
const PE_PATHS: usize = 5;

/// Hostile values, by kind: numbers out of every range or not numbers at all; text (empty,
/// unicode, control and bidi characters, not UTF-8); broken lists; very long values; flags and
/// subcommand names where a value goes; paths that do not exist or are not configs, a config,
/// and `-` (stdin for `--config`). Sizes that are valid but large (`1024` positions…) are left
/// out to keep every case fast.
fn pe_hostile(sub_names: &[String], config: &str) -> Vec<Vec<OsString>> {
    let words = |text: &str, more: &[&str]| -> Vec<OsString> {
        text.split_whitespace()
            .chain(more.iter().copied())
            .map(OsString::from)
            .collect()
    };
    let numbers = "-1 -0 +3 1e999 -1e999 1e-999 NaN nan -nan inf -inf +inf Infinity 0x10 1_000 \
        18446744073709551615 18446744073709551616 -9223372036854775809 1e6 1e9 1e100 1e101 \
        -1e100 340282366920938463463374607431768211456 1.7976931348623157e308 4.0 4.5";
    let text = [
        "",
        " ",
        "é",
        "🦀",
        "x\u{202e}y",
        "a\nb",
        "4\n",
        "\r",
        "\t",
        "\0",
        "\u{1b}[31mred",
        "\u{2028}",
        "\u{85}",
        "\u{FFFD}",
    ];
    let mut text = words("", &text);
    text.push(not_utf8());
    let long = [
        "9".repeat(400),
        "1,".repeat(20_000),
        "x".repeat(100_000),
        "é ".repeat(5_000),
    ];
    let mut tokens = words("- -- = --dim=4 -dim --DIM --help -h --version -V help", &[]);
    tokens.extend(sub_names.iter().map(OsString::from));
    let paths = [
        "-",
        "/nonexistent/dir/config.json",
        "/nonexistent/a\nb.json",
        "/",
        "/dev/null",
        "/dev/zero",
        "Cargo.toml",
        config,
    ];
    vec![
        words(numbers, &[" 4", "4 "]),
        text,
        words(
            "1,2,,x , ,,, 1;2 1,nan 1,inf -1,-2 1,1e999",
            &["1 2", " 1, 2 ", "1,\n2"],
        ),
        long.map(OsString::from).to_vec(),
        tokens,
        words("", &paths),
    ]
}

/// What `--config -` reads: nothing, a model config, broken or hostile JSON, not UTF-8, or an
/// endless stream (the reader stops at `MAX_CONFIG_BYTES`).
fn pe_stdin(choice: usize) -> Box<dyn std::io::Read> {
    const TEXTS: &[&[u8]] = &[
        b"",
        br#"{"hidden_size": 64, "num_attention_heads": 4, "rope_theta": 10000}"#,
        br#"{"rope_type": "yarn", "factor": 4}"#,
        br#"{"rope_type": "x\ny\u001b[0m"}"#,
        br#"{"rope_scaling": {"rope_type": "longrope", "short_factor": [1e999]}}"#,
        b"{",
        b"\xff\xfe",
        b"[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[",
    ];
    match TEXTS.get(choice) {
        Some(text) => Box::new(std::io::Cursor::new(*text)),
        None => Box::new(std::io::repeat(b' ')),
    }
}

/// A hostile value: a kind, then one of its values, or random text with any characters.
fn pe_hostile_value(kinds: &[Vec<OsString>]) -> BoxedStrategy<OsString> {
    let kinds: Vec<_> = kinds
        .iter()
        .map(|kind| (1, prop::sample::select(kind.clone()).boxed()))
        .chain([(1, "(?s).{0,12}".prop_map(OsString::from).boxed())])
        .collect();
    prop::strategy::Union::new_weighted(kinds).boxed()
}

/// How hostile a value is: plain (one of the flag's choices, a small size or list that parses
/// as its type, a path for a path), tame (or a hostile number, list, long or odd text: what
/// gets past clap to `pe`'s own checks) or wild (or a flag, a subcommand name or a path).
#[derive(Debug, Clone, Copy, PartialEq)]
enum PeMix {
    Plain,
    Tame,
    Wild,
}

/// A value for `flag` of that mix (for a path: one of the paths, a config and `-` among them);
/// a sixth of the hostile ones with a line break, an escape or a bidi control at one end.
fn pe_value(flag: &PeFlag, hostile: &[Vec<OsString>], mix: PeMix) -> BoxedStrategy<OsString> {
    let plain = if flag.file {
        prop::sample::select(hostile[PE_PATHS].clone()).boxed()
    } else {
        prop::sample::select(flag.plain.clone())
            .prop_map(OsString::from)
            .boxed()
    };
    let mut values = vec![(2, plain)];
    if !flag.choices.is_empty() {
        let choices = prop::sample::select(flag.choices.clone());
        values.push((2, choices.prop_map(OsString::from).boxed()));
    }
    if mix == PeMix::Plain {
        return prop::strategy::Union::new_weighted(values).boxed();
    }
    let kinds = if mix == PeMix::Wild {
        hostile
    } else {
        &hostile[..PE_TAME]
    };
    values.push((3, pe_hostile_value(kinds)));
    const BREAKS: &[&str] = &["\n", "\r", "\u{1b}", "\u{2028}", "\u{85}", "\u{202e}"];
    let around = prop::option::weighted(1.0 / 6.0, (prop::sample::select(BREAKS), any::<bool>()));
    (prop::strategy::Union::new_weighted(values), around)
        .prop_map(|(value, around)| match around {
            None => value,
            Some((c, true)) => {
                let mut v = value;
                v.push(c);
                v
            }
            Some((c, false)) => {
                let mut v = OsString::from(c);
                v.push(value);
                v
            }
        })
        .boxed()
}

/// One of `flags` and its value as two tokens or as `--flag=value` (a switch alone); wild, also
/// a flag without its value or a switch with one.
fn pe_flag(
    flags: Vec<PeFlag>,
    hostile: Vec<Vec<OsString>>,
    mix: PeMix,
) -> BoxedStrategy<Vec<OsString>> {
    prop::sample::select(flags)
        .prop_flat_map(move |f| {
            let forms = if mix == PeMix::Wild { 0..4u8 } else { 1..4u8 };
            (pe_value(&f, &hostile, mix), forms).prop_map(move |(value, form)| match form {
                1 if f.takes_value || mix == PeMix::Wild => {
                    let mut joined = OsString::from(format!("{}=", f.name));
                    joined.push(&value);
                    vec![joined]
                }
                2 | 3 if f.takes_value => vec![OsString::from(&f.name), value],
                _ => vec![OsString::from(&f.name)],
            })
        })
        .boxed()
}

/// Tame argument vectors: a subcommand with flags (not clap's `help`), its required flags and
/// some of its others (not `--help`, none that conflict), each once, with plain values but for
/// one tame value — so that many get past clap to `pe`'s own checks, and some through them to
/// the JSON.
fn pe_tame(
    subs: &[(String, Vec<PeFlag>)],
    hostile: &[Vec<OsString>],
) -> BoxedStrategy<Vec<OsString>> {
    let subs = subs
        .iter()
        .filter(|(_, flags)| flags.iter().any(|f| !f.meta));
    let cases = subs.map(|(name, flags)| {
        let flags: Vec<PeFlag> = flags.iter().filter(|f| !f.meta).cloned().collect();
        let slots: Vec<_> = flags
            .iter()
            .map(|f| {
                let include = if f.required {
                    Just(true).boxed()
                } else {
                    prop::bool::weighted(0.3).boxed()
                };
                let one = || vec![f.clone()];
                let plain = pe_flag(one(), hostile.to_vec(), PeMix::Plain);
                (
                    include,
                    plain,
                    pe_flag(one(), hostile.to_vec(), PeMix::Tame),
                )
            })
            .collect();
        let name = OsString::from(name);
        (slots, any::<prop::sample::Index>())
            .prop_map(move |(slots, at)| {
                let mut chosen: Vec<(&PeFlag, _, _)> = Vec::new();
                for (f, (include, plain, tame)) in flags.iter().zip(slots) {
                    let clash =
                        |g: &PeFlag| g.conflicts.contains(&f.id) || f.conflicts.contains(&g.id);
                    if include && !chosen.iter().any(|(g, ..)| clash(g)) {
                        chosen.push((f, plain, tame));
                    }
                }
                let tame = (!chosen.is_empty()).then(|| at.index(chosen.len()));
                let mut argv = vec![OsString::from("pe"), name.clone()];
                for (k, (_, plain, tame_value)) in chosen.into_iter().enumerate() {
                    argv.extend(if Some(k) == tame { tame_value } else { plain });
                }
                argv
            })
            .boxed()
    });
    prop::strategy::Union::new(cases).boxed()
}

/// Wild argument vectors: a subcommand (or none, or a hostile token), maybe its required flags,
/// then its flags and other subcommands' with wild values or none, and loose values; maybe one
/// token dropped.
fn pe_wild(
    subs: &[(String, Vec<PeFlag>)],
    top: &[PeFlag],
    hostile: &[Vec<OsString>],
) -> BoxedStrategy<Vec<OsString>> {
    let every_flag: Vec<PeFlag> = subs.iter().flat_map(|(_, f)| f.clone()).collect();
    let token = pe_hostile_value(hostile).prop_map(|t| vec![t]);
    let heads = subs
        .iter()
        .map(|(name, flags)| (Just(vec![OsString::from(name)]).boxed(), flags.clone()))
        .chain([
            (Just(Vec::new()).boxed(), top.to_vec()),
            (token.clone().boxed(), top.to_vec()),
        ]);
    let cases = heads.map(|(head, flags)| {
        let required: Vec<_> = flags
            .iter()
            .filter(|f| f.required && f.takes_value)
            .map(|f| {
                let name = OsString::from(&f.name);
                pe_value(f, hostile, PeMix::Wild).prop_map(move |v| vec![name.clone(), v])
            })
            .collect();
        let own = if flags.is_empty() {
            top.to_vec()
        } else {
            flags
        };
        let piece = prop_oneof![
            4 => pe_flag(own, hostile.to_vec(), PeMix::Wild),
            1 => pe_flag(every_flag.clone(), hostile.to_vec(), PeMix::Wild),
            1 => token.clone(),
        ];
        let drop = prop::option::weighted(0.2, any::<prop::sample::Index>());
        (
            head,
            any::<bool>(),
            required,
            prop::collection::vec(piece, 0..5),
            drop,
        )
            .prop_map(|(head, with_required, required, pieces, drop)| {
                let mut argv = vec![OsString::from("pe")];
                argv.extend(head);
                if with_required {
                    argv.extend(required.into_iter().flatten());
                }
                argv.extend(pieces.into_iter().flatten());
                if let Some(at) = drop.filter(|_| argv.len() > 1) {
                    argv.remove(1 + at.index(argv.len() - 1));
                }
                argv
            })
            .boxed()
    });
    prop::strategy::Union::new(cases).boxed()
}

/// Random argument vectors for `pe`, half tame and half wild, and which stdin `--config -`
/// reads.
fn pe_argv() -> impl Strategy<Value = (Vec<OsString>, usize)> {
    let (subs, top) = pe_commands();
    let names: Vec<String> = subs.iter().map(|(name, _)| name.clone()).collect();
    let config = format!("{}/pe-fuzz-config.json", env!("CARGO_TARGET_TMPDIR"));
    std::fs::write(&config, r#"{"head_dim": 8, "rope_theta": 500000}"#).expect("write config");
    let hostile = pe_hostile(&names, &config);
    let out_dir = format!("{}/pe-render-out", env!("CARGO_TARGET_TMPDIR"));
    std::fs::create_dir_all(&out_dir).expect("output folder");
    let argv = prop_oneof![pe_tame(&subs, &hostile), pe_wild(&subs, &top, &hostile)]
        .prop_map(move |argv| confine_out(argv, &out_dir));
    (argv, 0..9usize)
}

/// `argv` with the value of every `--out` (the file `pe render` writes) replaced by a path in
/// `dir`, so fuzzing writes nowhere else: a file there, or one in a folder that does not exist
/// (the write fails), chosen by the argument count.
fn confine_out(mut argv: Vec<OsString>, dir: &str) -> Vec<OsString> {
    let path = if argv.len().is_multiple_of(2) {
        format!("{dir}/figure")
    } else {
        format!("{dir}/missing/figure")
    };
    for k in 0..argv.len() {
        if argv[k] == "--out" {
            if let Some(v) = argv.get_mut(k + 1) {
                *v = OsString::from(&path);
            }
        } else if argv[k].to_string_lossy().starts_with("--out=") {
            argv[k] = OsString::from(format!("--out={path}"));
        }
    }
    argv
}

/// The characters that break a line, drive a terminal or reorder text: none may be in an
/// error's line.
fn breaks_line(c: char) -> bool {
    let bidi = matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}');
    c.is_control() || bidi || c == '\u{2028}' || c == '\u{2029}'
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 5000,
        rng_seed: prop::test_runner::RngSeed::Fixed(13),
        ..ProptestConfig::default()
    })]

    /// Whatever the arguments (and stdin for `--config -`): no panic; exit 0 with one JSON
    /// document on stdout (or the help or the version) and nothing on stderr, or exit 2 with
    /// nothing on stdout and one line on stderr starting `pe: `, free of control characters.
    #[test]
    fn pe_never_panics_and_errors_are_one_line((argv, stdin) in pe_argv()) {
        let (mut out, mut err) = (Vec::new(), Vec::new());
        let mut input = pe_stdin(stdin);
        let run = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            cli::run_with(argv.clone(), &mut *input, &mut out, &mut err)
        }));
        let Ok(status) = run else {
            return Err(TestCaseError::fail(format!("pe panicked on {argv:?}")));
        };
        let out = String::from_utf8(out).expect("stdout is UTF-8");
        let err = String::from_utf8(err).expect("stderr is UTF-8");
        match status {
            0 => {
                prop_assert!(err.is_empty(), "{argv:?}: {err}");
                if serde_json::from_str::<Value>(&out).is_ok() {
                    prop_assert_eq!(out.lines().count(), 1, "{:?}", argv);
                } else {
                    let version = format!("pe {}\n", env!("CARGO_PKG_VERSION"));
                    let help = out.starts_with("Usage: pe") || out.contains("\nUsage: pe");
                    prop_assert!(help || out == version, "{argv:?}: neither JSON nor help: {out}");
                }
            }
            2 => {
                prop_assert!(out.is_empty(), "{argv:?}: {out}");
                prop_assert!(err.starts_with("pe: "), "{argv:?}: {err}");
                let line = err.strip_suffix('\n');
                prop_assert!(line.is_some_and(|l| !l.contains(breaks_line)), "{argv:?}: {err:?}");
            }
            other => prop_assert!(false, "{argv:?}: exit {other}: {err}"),
        }
    }
}
