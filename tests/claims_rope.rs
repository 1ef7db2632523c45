//! Chapter 2's setting-dependent sentences (`explain::rope`), swept over the parameter space and
//! re-derived by brute force — scores by rotating q and k and taking the dot product, angles by
//! turning 2D vectors — never by calling the predicate that chose the sentence; and the
//! fact-check's reproducing links (`../shared/reviews/chapter-2.md`) as named regression tests.

#![cfg(not(target_arch = "wasm32"))]

#[path = "common/says.rs"]
mod says;
use pe_explorer::params::Declared;
use says::assert_says;

use pe_explorer::explain::rope::{AngleVerdict, ScoreTrend, angle_verdict, score_trend};
use pe_explorer::math::plane;
use pe_explorer::math::rope::{Layout, dot, inv_freq, rotate};
use pe_explorer::math::rope_scores::{QueryKey, decay_bound};
use pe_explorer::params::parse_query;
use pe_explorer::params::rope::RopeView;
use pe_explorer::scene::rope::score_tables;
use proptest::prelude::*;

fn view(query: &str) -> RopeView {
    RopeView::from_query(&parse_query(query)).0
}

/// The score at distances 0 … n − 1 by rotating q to r and k to 0 and taking the dot product.
fn brute_scores(q: &[f64], k: &[f64], base: f64, r: usize, layout: Layout, n: usize) -> Vec<f64> {
    let f = inv_freq(r, base);
    let k0 = rotate(k, 0.0, &f, layout);
    (0..n)
        .map(|m| dot(&rotate(q, m as f64, &f, layout), &k0))
        .collect()
}

/// The page's trend for a link, with the brute-force scores beside it.
fn trend(v: &RopeView) -> (ScoreTrend, Vec<f64>) {
    let (q, k) = v.qk_vectors();
    let n = v.positions;
    let (g, bound) = score_tables((&q, &k), (v.base, v.rotary(), v.layout), n);
    let brute = brute_scores(&q, &k, v.base, v.rotary(), v.layout, n);
    for (a, b) in g[n - 1..].iter().zip(&brute) {
        assert!((a - b).abs() <= 1e-9 * (1.0 + b.abs()), "{a} vs {b}");
    }
    (score_trend(&g[n - 1..], &bound, v.rotary() / 2), brute)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(160))]

    /// "falls" exactly when, in the rotated vectors' own dot products, every distance from n/2 on
    /// stays within half the score at 0; the shares printed are those of the brute-force scores.
    #[test]
    fn the_score_falls_when_its_far_half_is_small(
        half in prop_oneof![Just(1usize), Just(2), 1usize..=32],
        base in prop_oneof![Just(2.0f64), Just(1e6), 2.0f64..1e6],
        n in prop_oneof![Just(1usize), Just(7), Just(8), 1usize..=160],
        random in any::<bool>(),
        seed in any::<u64>(),
        half_split in any::<bool>(),
    ) {
        let layout = if half_split { Layout::Half } else { Layout::Interleaved };
        let q = if random { rand_vec(2 * half, seed) } else { vec![1.0; 2 * half] };
        let k = if random { rand_vec(2 * half, seed ^ 0x9e37) } else { vec![1.0; 2 * half] };
        let g = brute_scores(&q, &k, base, 2 * half, layout, n);
        let bound = decay_bound(QueryKey { q: &q, k: &k, base, rotary_dim: 2 * half, layout }, n);
        let claim = score_trend(&g, &bound, half);
        let text = claim.to_string();
        match claim {
            ScoreTrend::Short { n: m } => prop_assert!(m < 8 && m == n),
            ScoreTrend::StartsAtZero => prop_assert!(g[0].abs() < 1e-6 * g.iter().fold(1e-300, |a: f64, v| a.max(v.abs()))),
            ScoreTrend::Falls { from, far, .. } | ScoreTrend::Persists { from, far, .. } => {
                let worst = g[n / 2..].iter().map(|v| v.abs()).fold(0.0, f64::max) / g[0].abs();
                prop_assert_eq!(from, n / 2);
                prop_assert!((far - worst).abs() < 1e-9, "{far} vs {worst}");
                prop_assert_eq!(matches!(claim, ScoreTrend::Falls { .. }), worst <= 0.5, "{}", text);
                prop_assert_eq!(text.contains("falls:"), worst <= 0.5);
                // The two shares printed (two significant digits) are the far score's and the
                // bound's at the last distance, each against distance 0.
                let bound_end = if bound[0] > 0.0 { bound[n - 1] / bound[0] } else { 1.0 };
                let printed = printed_percents(&text);
                prop_assert_eq!(printed.len(), 2, "{}", text);
                for (shown, share) in printed.iter().zip([worst, bound_end]) {
                    let want = 100.0 * share;
                    prop_assert!((shown - want).abs() <= 0.051 * want.abs() + 1e-12, "{} vs {} in {}", shown, want, text);
                }
            }
        }
    }

    /// "same angle" compares modulo 360°; "the angles agree" for different distances exactly
    /// when the two turned word pairs really make the same angle.
    #[test]
    fn the_angle_verdict_matches_the_turned_vectors(
        a in 0i64..20, d1 in 1i64..12, b in 0i64..20, d2 in 1i64..12,
        theta in prop_oneof![Just(0.0f64), Just(180.0), Just(90.0), Just(45.0), Just(20.0), 1.0f64..180.0],
        w1 in "[a-z]{1,5}", w2 in "[a-z]{1,5}",
    ) {
        let t = theta.to_radians();
        let angle = |start: i64, d: i64| {
            let x = plane::rotate(plane::word_vector(&w1), start as f64 * t);
            let y = plane::rotate(plane::word_vector(&w2), (start + d) as f64 * t);
            plane::angle_between(x, y)
        };
        let (x, y) = (angle(a, d1), angle(b, d2));
        let verdict = angle_verdict(Some((d1, x)), Some((d2, y)), theta);
        let apart = pe_explorer::explain::wrapped_degrees(x - y);
        match verdict {
            AngleVerdict::SameDistance { gap, .. } => {
                prop_assert_eq!(d1, d2);
                prop_assert!(gap < 1e-6 && (gap - apart).abs() < 1e-9);
            }
            AngleVerdict::Aliased { .. } => {
                prop_assert!(d1 != d2 && theta != 0.0);
                prop_assert!(apart < 1e-6, "{x} {y}");
            }
            AngleVerdict::NoTurn { .. } => {
                prop_assert!(d1 != d2 && theta == 0.0);
                prop_assert!(apart < 1e-9);
            }
            AngleVerdict::Differ { by, .. } => {
                prop_assert!(d1 != d2);
                prop_assert!(apart > 1e-9);
                let expected = pe_explorer::explain::wrapped_degrees(((d1 - d2) as f64 * theta).to_radians());
                prop_assert!((by.min(360.0 - by) - expected).abs() < 1e-6);
            }
            AngleVerdict::Missing => prop_assert!(false),
        }
    }
}

/// A seeded vector of numbers in −1 … 1 (SplitMix64), for the sweep's random q and k.
/// The numbers printed before " %" in a sentence.
fn printed_percents(text: &str) -> Vec<f64> {
    text.split(" %")
        .filter_map(|part| part.rsplit([' ', '(']).next()?.parse().ok())
        .collect()
}

/// A score that starts at a billionth of its largest value starts at 0 (cargo mutants found the
/// threshold untested).
#[test]
fn a_score_a_billionth_of_its_peak_starts_at_zero() {
    let mut g = vec![1e-8, 100.0, 50.0, 10.0, 5.0, 1.0, 0.5, 0.1];
    let bound = vec![1.0; g.len()];
    assert_eq!(score_trend(&g, &bound, 4), ScoreTrend::StartsAtZero);
    g[0] = 1e-6;
    assert!(!matches!(
        score_trend(&g, &bound, 4),
        ScoreTrend::StartsAtZero
    ));
}

/// Angles compare modulo 360° from either side: (4 − 2) × θ just under 360° is a whole turn
/// (cargo mutants found only the side above 360° tested).
#[test]
fn a_turn_just_under_360_degrees_aliases() {
    let theta = 179.999_999_999_999_97;
    assert!(
        (2.0 * theta) % 360.0 > 359.0,
        "the test needs a total just under 360°"
    );
    let verdict = angle_verdict(Some((4, 0.0)), Some((2, 0.0)), theta);
    assert!(
        matches!(verdict, AngleVerdict::Aliased { degrees, .. } if degrees == 360.0),
        "{verdict:?}"
    );
}

fn rand_vec(n: usize, mut seed: u64) -> Vec<f64> {
    (0..n)
        .map(|_| {
            seed = seed.wrapping_add(0x9e37_79b9_7f4a_7c15);
            let mut z = seed;
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            z ^= z >> 31;
            (z >> 11) as f64 / (1u64 << 52) as f64 - 1.0
        })
        .collect()
}

// ---------------------------------------------------------------- the review's links

/// W1 and ML1: at base 2 the all-ones score collapses (128 → 0.06 by distance 100 in the review);
/// a larger base keeps more of it far out. The caption must say it falls at base 2.
#[test]
fn w1_a_small_base_makes_the_score_fall_faster() {
    let (small, g) = trend(&view("?r.base=2"));
    assert!(matches!(small, ScoreTrend::Falls { .. }), "{small}");
    assert!(
        (g[0] - 128.0).abs() < 1e-9 && g[100].abs() < 0.1,
        "{} {}",
        g[0],
        g[100]
    );
    let far = |t: ScoreTrend| match t {
        ScoreTrend::Falls { far, .. } | ScoreTrend::Persists { far, .. } => far,
        other => panic!("{other:?}"),
    };
    let (default, _) = trend(&view(""));
    let (large, _) = trend(&view("?r.base=1000000"));
    assert!(far(small) < far(default) && far(default) < far(large));
}

/// One pair: the score is 2·cos(r), which never dies down.
#[test]
fn one_pair_persists() {
    let (t, g) = trend(&view("?r.d=2"));
    assert!(matches!(t, ScoreTrend::Persists { pairs: 1, .. }), "{t}");
    assert!((g[44] - 2.0 * 44f64.cos()).abs() < 1e-12);
}

/// W2: the same word twice at distance 2 with θ = 90°: 180° in one sentence may read −180° in
/// the other; compared modulo 360° they agree.
#[test]
fn w2_angles_agree_modulo_360() {
    let v = view(
        "?r.w1=the&r.w2=the&r.stheta=90&r.s1=the%20x%20the&r.s2=a%20b%20c%20d%20e%20f%20g%20h%20i%20j%20k%20the%20x%20the",
    );
    let t = v.sentence_theta_deg.to_radians();
    let [a, b] = &v.sentences;
    let read = |s: &str| pe_explorer::scene::rope::read(s, &v.words, t);
    let (r1, r2) = (read(a), read(b));
    let side = |r: &pe_explorer::scene::rope::Reading| {
        let (x, y) = r.pair.unwrap();
        (y as i64 - x as i64, r.angle.unwrap())
    };
    let verdict = angle_verdict(Some(side(&r1)), Some(side(&r2)), v.sentence_theta_deg);
    match verdict {
        AngleVerdict::SameDistance { distance: 2, gap } => assert!(gap < 1e-9, "{gap}"),
        other => panic!("{other:?}"),
    }
    assert!(!verdict.to_string().contains("e2°"));
}

/// M3: θ = 180°, distances 2 and 4 ("ate … cheese"): the same angle, said to be aliasing.
#[test]
fn m3_distances_2_and_4_alias_at_180() {
    let v =
        view("?r.stheta=180&r.s2=In%20the%20house%20a%20cat%20ate%20some%20old%20tasty%20cheese");
    let t = v.sentence_theta_deg.to_radians();
    let read = |s: &str| pe_explorer::scene::rope::read(s, &v.words, t);
    let (r1, r2) = (read(&v.sentences[0]), read(&v.sentences[1]));
    let side = |r: &pe_explorer::scene::rope::Reading| {
        let (x, y) = r.pair.unwrap();
        (y as i64 - x as i64, r.angle.unwrap())
    };
    let (s1, s2) = (side(&r1), side(&r2));
    assert_ne!(s1.0, s2.0);
    let verdict = angle_verdict(Some(s1), Some(s2), 180.0);
    assert!(
        matches!(verdict, AngleVerdict::Aliased { .. }),
        "{verdict:?}"
    );
    assert!(verdict.to_string().contains("many pairs"));
}

// ---------------------------------------------------------------- the fresh read's links
// (docs/reviews/chapter-2.md)

/// Fresh ML2: at θ = 0 nothing turns, so different distances meeting at one angle is not the
/// aliasing that makes RoPE use many pairs.
#[test]
fn fresh_ml2_theta_zero_is_no_turn() {
    let v = view("?r.stheta=0&r.s1=ate%20cheese");
    let t = v.sentence_theta_deg.to_radians();
    let read = |s: &str| pe_explorer::scene::rope::read(s, &v.words, t);
    let side = |r: &pe_explorer::scene::rope::Reading| {
        let (x, y) = r.pair.unwrap();
        (y as i64 - x as i64, r.angle.unwrap())
    };
    let (a, b) = (side(&read(&v.sentences[0])), side(&read(&v.sentences[1])));
    assert_ne!(a.0, b.0);
    let verdict = angle_verdict(Some(a), Some(b), v.sentence_theta_deg);
    assert!(
        matches!(verdict, AngleVerdict::NoTurn { .. }),
        "{verdict:?}"
    );
    assert!(!verdict.to_string().contains("many pairs"));
}

/// Fresh U2: a negative distance is written with its sign in brackets, and −360° is said as
/// degrees, not as "1 whole turn".
#[test]
fn fresh_u2_negative_distances_read_plainly() {
    let text = angle_verdict(Some((2, 0.3)), Some((-1, 1.0)), 30.0).to_string();
    assert!(
        text.contains("(2 − (−1))") && !text.contains("- -"),
        "{text}"
    );
    let text = angle_verdict(Some((1, 0.5)), Some((3, 0.5)), 180.0).to_string();
    assert_says(&text, &["= −360°"]);
}
