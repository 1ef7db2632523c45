//! Chapter 1's setting-dependent sentences (`explain::sinusoids`), swept over the parameter space
//! and re-derived by brute force from the table itself (its rows, the angles of its columns),
//! never by calling the predicate that chose the sentence; and the fact-check's reproducing links
//! (`../shared/reviews/chapter-1.md`) as named regression tests.

#![cfg(not(target_arch = "wasm32"))]

#[path = "common/says.rs"]
mod says;
use pe_explorer::params::Declared;
use says::{assert_never_says, assert_says};

use std::f64::consts::{PI, TAU};

use pe_explorer::explain::sinusoids::{
    self as explain, Readings, SlowestTurn, WordMove, group_name, pair_groups,
};
use pe_explorer::math::limits;
use pe_explorer::math::similarity;
use pe_explorer::math::sinusoidal::{Layout, SinusoidalParams, Spacing};
use pe_explorer::params::{SinusoidalView, parse_query};
use proptest::prelude::*;

/// The view a link gives, as the page parses it.
fn view(query: &str) -> SinusoidalView {
    SinusoidalView::from_query(&parse_query(query)).0
}

/// Each pair's frequency from the formula, written out again: paper `base^(−2i/d)`,
/// tensor2tensor `base^(−i/max(⌊d/2⌋ − 1, 1))`; an odd d with paper spacing adds the lone sine's.
fn frequencies(p: &SinusoidalParams) -> Vec<f64> {
    let h = p.dim / 2;
    match p.spacing {
        Spacing::Paper => (0..p.dim.div_ceil(2))
            .map(|i| p.base.powf(-2.0 * i as f64 / p.dim as f64))
            .collect(),
        Spacing::Fairseq => (0..h)
            .map(|i| {
                p.base
                    .powf(-(i as f64) / (h.saturating_sub(1).max(1)) as f64)
            })
            .collect(),
    }
}

/// Where pair `i`'s sine and cosine sit, found in row 0 and row 1 of the table itself: the
/// columns whose value at position 0 is 0 (sines) or 1 (cosines), matched by frequency.
fn hand_angles(p: &SinusoidalParams, pos: usize) -> Vec<f64> {
    let row = p.row(pos);
    let h = p.dim / 2;
    (0..h)
        .map(|i| {
            let (s, c) = match p.layout {
                Layout::Interleaved => (row[2 * i], row[2 * i + 1]),
                Layout::Half => (row[i], row[i + p.pairs()]),
            };
            s.atan2(c)
        })
        .collect()
}

fn angle_between(a: f64, b: f64) -> f64 {
    let d = (a - b).rem_euclid(TAU);
    d.min(TAU - d) * 180.0 / PI
}

fn params() -> impl Strategy<Value = SinusoidalParams> {
    (
        prop_oneof![Just(1usize), Just(2), 1usize..=80],
        prop_oneof![Just(2usize), Just(3), Just(4), Just(5), 2usize..=64],
        prop_oneof![
            Just(limits::BASE.0),
            Just(limits::BASE.1),
            Just(10_000.0),
            (0.0f64..1.0).prop_map(|t| limits::BASE.0 * (limits::BASE.1 / limits::BASE.0).powf(t))
        ],
        prop_oneof![Just(Layout::Interleaved), Just(Layout::Half)],
        prop_oneof![Just(Spacing::Paper), Just(Spacing::Fairseq)],
    )
        .prop_map(|(positions, dim, base, layout, spacing)| SinusoidalParams {
            positions,
            dim,
            base,
            layout,
            spacing,
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// The waves bridge: one frequency exactly when the formula gives one; then the rows do not
    /// change with the base. Otherwise "under a turn" exactly when (n − 1)·ω_slowest < 2π.
    #[test]
    fn slowest_turn_is_what_the_frequencies_say(p in params()) {
        let omegas = frequencies(&p);
        let slowest = omegas.iter().copied().fold(f64::INFINITY, f64::min);
        let turns = (p.positions - 1) as f64 * slowest / TAU;
        let claim = explain::slowest_turn(&p);
        let text = claim.to_string();
        match claim {
            SlowestTurn::OnePair { .. } => {
                prop_assert_eq!(omegas.len(), 1);
                let other = SinusoidalParams { base: if p.base > 100.0 { 2.0 } else { 1e6 }, ..p };
                for pos in 0..p.positions {
                    prop_assert_eq!(p.row(pos), other.row(pos));
                }
                prop_assert!(!text.contains("too small"));
            }
            SlowestTurn::Partial { .. } => {
                prop_assert!(omegas.len() > 1 && turns < 1.0, "{text}");
            }
            SlowestTurn::Whole { .. } => {
                prop_assert!(omegas.len() > 1 && turns >= 1.0, "{text}");
                prop_assert!(text.contains("too small"));
            }
        }
        // A share under one turn never prints as a whole turn.
        if let Some(share) = text.split("turns only ").nth(1) {
            let x: f64 = share.split(' ').next().unwrap().parse().unwrap();
            prop_assert!(x < 1.0 && x <= turns, "{text}");
        }
        let one = p.positions == 1;
        prop_assert_eq!(text.contains("1 position shown"), one, "{}", text);
    }

    /// The chapter's last sentence: a pair completes a turn when its hand, followed row by row
    /// through the table, sweeps 2π; the lone sine's frequency is the formula's last.
    #[test]
    fn unfinished_counts_the_hands_that_never_go_round(p in params()) {
        let h = p.dim / 2;
        let mut swept = vec![0.0; h];
        let mut prev = hand_angles(&p, 0);
        for pos in 1..p.positions {
            let now = hand_angles(&p, pos);
            for i in 0..h {
                swept[i] += (now[i] - prev[i]).rem_euclid(TAU);
            }
            prev = now;
        }
        let slow = swept.iter().filter(|&&a| a < TAU - 1e-9).count();
        let claim = explain::unfinished(&p);
        // Angles within 1e-9 of a whole turn are too close to call.
        if swept.iter().all(|a| (a - TAU).abs() > 1e-9) {
            prop_assert_eq!(claim.slow, slow);
        }
        let lone = (p.spacing == Spacing::Paper && p.dim % 2 == 1).then(|| {
            let w = *frequencies(&p).last().unwrap();
            (p.positions - 1) as f64 * w < TAU
        });
        prop_assert_eq!(claim.lone_slow, lone);
        let text = claim.to_string();
        prop_assert_eq!(text.contains("pair completes a turn"), claim.slow == 0, "{}", text);
        prop_assert_eq!(text.contains("never saw"), claim.slow > 0 || lone == Some(true), "{}", text);
    }

    /// The clocks: every two readings of the positions shown compared hand by hand.
    #[test]
    fn readings_match_every_pair_of_rows(p in params()) {
        let angles: Vec<Vec<f64>> = (0..p.positions).map(|q| hand_angles(&p, q)).collect();
        let mut nearest = f64::INFINITY;
        for a in 0..p.positions {
            for b in a + 1..p.positions {
                let widest = angles[a].iter().zip(&angles[b]).map(|(&x, &y)| angle_between(x, y)).fold(0.0, f64::max);
                nearest = nearest.min(widest);
            }
        }
        match explain::readings(&p) {
            Readings::One => prop_assert_eq!(p.positions, 1),
            Readings::Apart { nearest: n } => {
                prop_assert!((n.degrees - nearest).abs() < 1e-6, "{} vs {}", n.degrees, nearest);
                prop_assert!(nearest >= explain::ALIKE_DEGREES);
            }
            Readings::Alike { nearest: n, one_pair } => {
                prop_assert!((n.degrees - nearest).abs() < 1e-6);
                prop_assert!(nearest < explain::ALIKE_DEGREES);
                prop_assert_eq!(one_pair, p.dim / 2 == 1);
            }
        }
    }

    /// The frequency falls across the columns only when there is more than one.
    #[test]
    fn columns_text_says_falls_only_with_many_frequencies(p in params()) {
        let text = explain::columns_text(&p);
        prop_assert_eq!(text.contains("falls"), frequencies(&p).len() > 1, "{}", text);
    }

    /// Two printed ends differ exactly when the numbers do (to 15 decimals), and each prints
    /// its number rounded.
    #[test]
    fn range_text_prints_ends_that_differ(lo in -2.0f64..2.0, gap in prop_oneof![Just(0.0), 1e-14f64..1e-3, 1e-3f64..1.0]) {
        let hi = lo + gap;
        let text = explain::range_text(lo, hi);
        if let Some((a, b)) = text.split_once(" to ") {
            let b = b.split(' ').next().unwrap();
            prop_assert_ne!(a, b);
            let decimals = a.split('.').nth(1).unwrap().len();
            prop_assert_eq!(a, format!("{lo:.decimals$}"));
            prop_assert_eq!(b, format!("{hi:.decimals$}"));
        } else {
            prop_assert!(text.contains("throughout"));
            prop_assert_eq!(format!("{lo:.15}"), format!("{hi:.15}"));
        }
    }
}

/// The least-squares residual of fitting `target` with the columns of `rows` (rows × d), by
/// Gaussian elimination on the normal equations with a tiny ridge.
fn fit_residual(rows: &[Vec<f64>], target: &[f64]) -> f64 {
    let d = rows[0].len();
    let mut a = vec![vec![0.0; d + 1]; d];
    for (r, &t) in rows.iter().zip(target) {
        for i in 0..d {
            for j in 0..d {
                a[i][j] += r[i] * r[j];
            }
            a[i][d] += r[i] * t;
        }
    }
    for (i, row) in a.iter_mut().enumerate() {
        row[i] += 1e-12;
    }
    for c in 0..d {
        let pivot = (c..d)
            .max_by(|&x, &y| a[x][c].abs().total_cmp(&a[y][c].abs()))
            .unwrap();
        a.swap(c, pivot);
        for r in 0..d {
            if r != c {
                let f = a[r][c] / a[c][c];
                let pivot_row = a[c].clone();
                for (x, y) in a[r].iter_mut().zip(pivot_row) {
                    *x -= f * y;
                }
            }
        }
    }
    let x: Vec<f64> = (0..d).map(|i| a[i][d] / a[i][i]).collect();
    rows.iter()
        .zip(target)
        .map(|(r, &t)| (r.iter().zip(&x).map(|(u, v)| u * v).sum::<f64>() - t).abs())
        .fold(0.0, f64::max)
}

// ---------------------------------------------------------------- the review's links

/// F1: one pair at the largest base: the base sets nothing, and the sentence says so.
#[test]
fn f1_one_pair_at_the_largest_base() {
    for q in ["?d=2&base=1000000", "?d=3&spacing=fairseq"] {
        let p = view(q).params;
        let text = explain::slowest_turn(&p).to_string();
        assert!(
            matches!(explain::slowest_turn(&p), SlowestTurn::OnePair { .. }),
            "{q}"
        );
        assert!(
            text.contains("the base sets nothing") && text.contains("turns 16 times"),
            "{q}: {text}"
        );
        assert!(!text.contains("base is too small"), "{q}: {text}");
    }
}

/// F2: d = 3: the lone sine turns 0.034 of a circle over 100 positions, so not everything
/// completes a turn.
#[test]
fn f2_the_lone_sine_is_counted() {
    let p = view("?d=3").params;
    let text = explain::unfinished(&p).to_string();
    assert_says(&text, &["the lone sine does not"]);
    assert_never_says(&text, &["longer inputs bring only"]);
}

/// F4: `?d=5&n=5&k=1`: a matrix fitted to the five rows shifts the lone sine's column (the
/// review's least-squares error 2e-17), so the note must not deny that any fixed matrix can.
#[test]
fn f4_a_fitted_matrix_can_shift_the_rows_shown() {
    let v = view("?d=5&n=5&k=1");
    let p = v.params;
    let rows: Vec<Vec<f64>> = (0..p.positions).map(|q| p.row(q)).collect();
    let col = explain::lone_sine(&p).unwrap();
    let target: Vec<f64> = (0..p.positions).map(|q| p.row(q + 1)[col]).collect();
    assert!(fit_residual(&rows, &target) < 1e-6);
    let note = explain::lone_sine_shift_note(&p, 1).unwrap();
    assert_says(
        &note,
        &["Over every integer position", "over just the 5 rows shown"],
    );
    assert_never_says(&note, &["No fixed matrix"]);
}

/// F5: at d = 129 the distance-1 diagonal spreads by 5e-8: the caption's two ends differ.
#[test]
fn f5_the_diagonal_range_shows_its_spread() {
    for q in ["?d=129", "?d=1023&base=1000000"] {
        let p = view(q).params;
        let diag = similarity::sinusoidal_diagonal(&p, 1);
        // The same range from the rows' cosine similarity.
        let mut brute = (f64::INFINITY, f64::NEG_INFINITY);
        for a in 0..p.positions - 1 {
            let (x, y) = (p.row(a), p.row(a + 1));
            let dot: f64 = x.iter().zip(&y).map(|(u, v)| u * v).sum();
            let norm = |v: &[f64]| v.iter().map(|u| u * u).sum::<f64>().sqrt();
            let c = dot / (norm(&x) * norm(&y));
            brute = (brute.0.min(c), brute.1.max(c));
        }
        let lo = diag.iter().copied().fold(f64::INFINITY, f64::min);
        let hi = diag.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        assert!(
            (lo - brute.0).abs() < 1e-12 && (hi - brute.1).abs() < 1e-12,
            "{q}"
        );
        let text = explain::range_text(lo, hi);
        let (a, b) = text.split_once(" to ").unwrap();
        assert_ne!(a, b.split(' ').next().unwrap(), "{q}: {text}");
    }
}

/// F6: one pair over 1024 positions: positions 710 apart read alike.
#[test]
fn f6_one_pair_cannot_tell_710_apart() {
    let p = view("?d=2&n=1024&pos=710").params;
    match explain::readings(&p) {
        Readings::Alike { nearest, one_pair } => {
            assert_eq!(nearest.distance, 710);
            assert!(one_pair);
        }
        other => panic!("{other:?}"),
    }
    // The default reads every position apart.
    let p = view("").params;
    assert!(matches!(explain::readings(&p), Readings::Apart { .. }));
}

/// F7: `?d=2&at=0,50,710`: one pair, nearly a whole number of turns: no "slowest against
/// fastest", and the tiny mean is printed with its digits, not as 0.00.
#[test]
fn f7_one_pair_moved_710() {
    let v = view("?d=2&at=0,50,710");
    let p = v.params;
    let (r0, r2) = (p.row(0), p.row(710));
    let diff: Vec<f64> = r2.iter().zip(&r0).map(|(a, b)| a - b).collect();
    let mean = diff.iter().map(|x| x.abs()).sum::<f64>() / 2.0;
    let groups = pair_groups(&p, &diff);
    let claim = WordMove::from_groups(710, &groups, group_name(&p));
    let text = claim.to_string();
    assert!(matches!(claim, WordMove::OneGroup { .. }), "{text}");
    assert!(
        !text.contains("0.00") && !text.contains("slowest"),
        "{text}"
    );
    assert!((mean - 3e-5).abs() < 1e-5, "{mean}");
}

/// F10: singular and plural agree at one pair and one position.
#[test]
fn f10_counts_agree_in_number() {
    let p = view("?d=2&n=1").params;
    assert!(explain::pairs_count_text(&p).starts_with("1 (sin, cos) pair"));
    assert!(!explain::pairs_count_text(&p).contains("pairs"));
    assert!(
        explain::slowest_turn(&p)
            .to_string()
            .contains("1 position shown")
    );
    assert!(
        explain::unfinished(&p)
            .to_string()
            .contains("1 position shown")
    );
}

/// F13 and F14: one pair has nothing falling; base 500 does not quote 10000·2π as its range; d = 3
/// says fairseq divides by zero.
#[test]
fn f13_f14_single_pair_and_other_bases() {
    let p = view("?d=2&layout=half").params;
    assert!(!explain::columns_text(&p).contains("falls"));
    let p = view("?base=500&spacing=fairseq").params;
    let text = explain::spacing_text(&p);
    assert!(
        text.contains("3141.6") && text.contains("with base 500 for 10000"),
        "{text}"
    );
    let p = view("?d=3").params;
    assert!(explain::spacing_text(&p).contains("divides by zero"));
}

/// F16: who uses which layout, and the mix no library uses.
#[test]
fn f16_layouts_are_attributed() {
    let p = view("?spacing=fairseq").params;
    let text = explain::layout_text(&p);
    assert!(
        text.contains("DistilBERT")
            && text.contains("M2M100")
            && text.contains("none of these uses")
    );
    let p = view("?layout=half&spacing=fairseq").params;
    assert!(!explain::layout_text(&p).contains("none of these uses"));
}

// ---------------------------------------------------------------- the fresh read's links
// (docs/reviews/chapter-1.md)

/// Per-group mean |Δ| written out again from the table's rows: pair i's two columns (or one)
/// count for group ⌊groups·i/pairs⌋, groups = min(pairs, 4), fastest first.
fn brute_groups(p: &SinusoidalParams, a: usize, b: usize) -> Vec<f64> {
    let (ra, rb) = (p.row(a), p.row(b));
    let pairs = p.pairs();
    let groups = pairs.min(4);
    let (mut sum, mut n) = (vec![0.0; groups], vec![0usize; groups]);
    let h = p.dim / 2;
    for i in 0..pairs {
        let cols: Vec<usize> = match (p.layout, i < h) {
            (Layout::Interleaved, true) => vec![2 * i, 2 * i + 1],
            (Layout::Half, true) => vec![i, i + pairs],
            (Layout::Interleaved, false) => vec![2 * i],
            (Layout::Half, false) => vec![i],
        };
        let g = (groups * i / pairs).min(groups - 1);
        for c in cols {
            sum[g] += (rb[c] - ra[c]).abs();
            n[g] += 1;
        }
    }
    sum.iter().zip(&n).map(|(s, &k)| s / k as f64).collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// The moved word's sentence speaks of the group that really moved most.
    #[test]
    fn the_moved_word_names_what_moved_most(p in params(), a in 0usize..200, b in 0usize..200) {
        let (a, b) = (a % p.positions, b % p.positions);
        let groups = brute_groups(&p, a, b);
        let claim = WordMove::from_groups(a.abs_diff(b), &pair_groups(&p, &{
            let (ra, rb) = (p.row(a), p.row(b));
            rb.iter().zip(&ra).map(|(x, y)| x - y).collect::<Vec<f64>>()
        }), group_name(&p));
        let most = groups.iter().copied().fold(0.0, f64::max);
        let (fast, slow) = (groups[0], *groups.last().unwrap());
        let top = groups.iter().position(|&v| v == most).unwrap();
        match claim {
            WordMove::Still => prop_assert_eq!(a, b),
            WordMove::OneGroup { .. } => prop_assert_eq!(groups.len(), 1),
            WordMove::Little { .. } => prop_assert!(most < WordMove::SMALL),
            WordMove::FastOnly { .. } => prop_assert!(top == 0 && slow < fast / 4.0 && most >= WordMove::SMALL),
            WordMove::Middle { at, .. } => prop_assert!(at == top && top != 0 && top + 1 != groups.len()),
            WordMove::SlowToo { .. } => {
                prop_assert!(slow >= fast / 4.0 && most >= WordMove::SMALL);
                prop_assert!(top == 0 || top + 1 == groups.len());
            }
        }
    }
}

/// Fresh F1 and F9: a middle pair moves most; the caption says so instead of "barely" or
/// "mostly the fast pairs".
#[test]
fn fresh_f1_f9_a_middle_pair_moved_most() {
    for (q, a, b) in [("?d=8&at=0,50,44", 0, 44), ("?d=6&at=0,50,31", 0, 31)] {
        let p = view(q).params;
        let groups = brute_groups(&p, a, b);
        let diff: Vec<f64> = p.row(b).iter().zip(&p.row(a)).map(|(x, y)| x - y).collect();
        let claim = WordMove::from_groups(b - a, &pair_groups(&p, &diff), group_name(&p));
        let text = claim.to_string();
        assert!(
            matches!(claim, WordMove::Middle { at: 1, .. }),
            "{q}: {text} {groups:?}"
        );
        assert!(
            !text.contains("barely") && !text.contains("mostly the fast"),
            "{text}"
        );
    }
}

/// Fresh F2: one frequency, so no column is faster than another.
#[test]
fn fresh_f2_one_pair_has_no_fast_columns() {
    for q in ["?d=2", "?d=3&spacing=fairseq"] {
        let text = explain::waves_speed_text(&view(q).params);
        assert!(
            !text.contains("fast") && text.contains("one frequency"),
            "{q}: {text}"
        );
    }
}

/// Fresh F7: the clocks drawn are said to be a sample at the default d.
#[test]
fn fresh_f7_the_clocks_are_a_sample() {
    let text = explain::clocks_shown_text(&view("").params);
    assert_says(&text, &["12 of the 64"]);
    assert!(explain::clocks_shown_text(&view("?d=5").params).contains("no clock"));
    assert_eq!(
        explain::clocks_shown_text(&view("?d=2").params),
        "The one clock is the only (sin, cos) pair."
    );
    assert!(explain::clocks_shown_text(&view("?d=8").params).starts_with("The 4 clocks are all"));
}

/// F3: the clocks' text alternative names the last hand drawn, and with an odd d (paper
/// spacing) that is the last complete pair, never the lone sine, which has no clock.
#[test]
fn f3_the_last_hand_is_the_last_clock_drawn() {
    for q in ["?d=5&pos=50", "?d=129&pos=99"] {
        let p = view(q).params;
        let shown = pe_explorer::chart::clock::shown_pairs(&p);
        let lone = explain::lone_sine(&p).map(|_| p.dim / 2);
        assert_eq!(shown.last().copied(), Some(p.dim / 2 - 1), "{q}");
        assert!(lone.is_some() && !shown.contains(&lone.unwrap()), "{q}");
    }
}

/// F8: with a lone sine the shift figure's title says its cosine is borrowed.
#[test]
fn f8_the_shift_title_says_the_cosine_is_borrowed() {
    use pe_explorer::chart::theme::Theme;
    use pe_explorer::params::Views;
    use pe_explorer::scene::Panel;
    let title = |q: &str| {
        let v = Views::from_query(&parse_query(q)).0;
        match &pe_explorer::scene::sinusoids::shift(&v, Theme::LIGHT)[0].0 {
            Panel::Lines(spec, _) => spec.title.clone(),
            _ => panic!("a line plot"),
        }
    };
    assert!(title("?d=5").contains("the lone sine's cosine borrowed"));
    assert!(!title("?d=6").contains("borrowed"));
}
