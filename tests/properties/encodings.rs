//! Sinusoids, RoPE and the token cloud: bounds, the shift law, offsets alone in the dots, the
//! fast paths against the general ones.

use super::*;

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
}
