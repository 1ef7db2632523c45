//! Chapter 4's tables and biases, the toy attention and the naive signals: ranges, distributions,
//! monotone buckets.

use super::*;

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

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

    /// Transformer-XL's four terms over any sentence and seed: finite where the key is visible,
    /// hidden above the diagonal, and the authors' route (AC + rel_shift(BD)) gives their sum;
    /// a prefix of words moves every pair and changes no term.
    #[test]
    fn txl_terms_sum_to_the_authors_scores_and_ignore_a_prefix(
        words in prop::collection::vec("[A-Za-z]{1,6}", 1..=limits::TOKENS.1 / 2),
        prefix in prop::collection::vec("[a-z]{1,4}", 0..=limits::TOKENS.1 / 2),
        seed: u64,
    ) {
        let tokens = attention::tokenize(&words.join(" "));
        let n = tokens.len();
        let t = txl::terms(&tokens, seed);
        let score = t.score();
        let (_, authors) = txl::authors_scores(&tokens, seed);
        for i in 0..n {
            for j in 0..n {
                let k = i * n + j;
                prop_assert_eq!(score[k].is_some(), j <= i);
                if let Some(s) = score[k] {
                    prop_assert!(s.is_finite());
                    prop_assert!((s - authors[k]).abs() < 1e-9, "({}, {}): {} vs {}", i, j, s, authors[k]);
                }
            }
        }
        let longer: Vec<String> = prefix.iter().cloned().chain(tokens.iter().cloned()).collect();
        let (off, m) = (prefix.len(), longer.len());
        let big = txl::terms(&longer, seed).score();
        for i in 0..n {
            for j in 0..=i {
                let (a, b) = (score[i * n + j].unwrap(), big[(i + off) * m + j + off].unwrap());
                prop_assert!((a - b).abs() < 1e-9, "({}, {}) moved by {}: {} vs {}", i, j, off, a, b);
            }
        }
    }

    /// The Transformer-XL figure's finding names two pairs its term gives the same value: they
    /// do, for any sentence, seed and term.
    #[test]
    fn txl_twin_pairs_get_equal_values(
        words in prop::collection::vec("(the|dog|a|cat|[a-z]{1,3})", 1..=limits::TOKENS.1),
        seed: u64,
        pick in 0usize..5,
    ) {
        use pe_explorer::explain::tables::twin_pairs;
        use pe_explorer::params::tables::TxlTerm;
        let tokens = attention::tokenize(&words.join(" "));
        let t = txl::terms(&tokens, seed);
        let term = TxlTerm::ALL[pick];
        let m = match term {
            TxlTerm::Score => t.score(),
            TxlTerm::Content => t.content.clone(),
            TxlTerm::ContentPosition => t.content_position.clone(),
            TxlTerm::GlobalContent => t.global_content.clone(),
            TxlTerm::GlobalPosition => t.global_position.clone(),
            TxlTerm::Rows | TxlTerm::Shifted => unreachable!("picked among the first five"),
        };
        if let Some(((i, j), (p, q))) = twin_pairs(term, &tokens) {
            let n = tokens.len();
            prop_assert!(j <= i && q <= p && (i, j) != (p, q));
            let (a, b) = (m[i * n + j].unwrap(), m[p * n + q].unwrap());
            prop_assert!((a - b).abs() < 1e-9, "{:?} ({}, {}) {} vs ({}, {}) {}", term, i, j, a, p, q, b);
        }
    }

    /// DroPE's toy over its whole accepted space: every weight is a probability, and without
    /// rotation it is one number at every distance.
    #[test]
    fn drope_weights_are_probabilities(
        half in 1usize..=32,
        b in base(),
        (trained, target) in (limits::DROPE_CONTEXT.0..=4096usize)
            .prop_flat_map(|l| (Just(l), (l + 1)..=(l * 64).min(limits::DROPE_CONTEXT.1))),
        n in 1usize..=64,
        seed: u64,
    ) {
        let n = n.min(target - 1);
        let c = drope::curves(2 * half, b, trained, target, n, seed);
        prop_assert!(!c.distance.is_empty() && c.distance.len() <= drope::POINTS);
        prop_assert_eq!(*c.distance.last().unwrap(), target);
        for w in c.rope.iter().chain(&c.yarn).chain(&c.none) {
            prop_assert!(w.is_finite() && *w >= 0.0 && *w <= 1.0, "{}", w);
        }
        prop_assert!(c.none.windows(2).all(|w| w[0] == w[1]));
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
}
