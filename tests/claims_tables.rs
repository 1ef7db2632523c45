//! Chapter 4's setting-dependent sentences (`explain::tables`), re-derived by brute force from
//! the math: proptest sweeps over the chapter's parameter space (edges included), and one named
//! regression per link the chapter-4 review reproduced its findings with. No check calls the
//! predicate that chose a sentence: the runs of T5 buckets are scanned distance by distance, the
//! ALiBi ranges are read off the softmax weights, the similarities recomputed from the rows.
#![cfg(not(target_arch = "wasm32"))]

use std::collections::BTreeSet;

use pe_explorer::explain::tables::{
    self as claims, BucketRun, HeadRanges, NeighbourSimilarity, NopeFinding, ShawFinding,
    SlopeReadout, SlopesFinding, T5, T5Readout,
};
use pe_explorer::math::{alibi, learned, relative};
use pe_explorer::params::parse_query;
use pe_explorer::params::tables::{self as ptab, TablesView};
use proptest::prelude::*;

/// The view a link opens.
fn view(query: &str) -> TablesView {
    TablesView::from_query(&parse_query(query)).0
}

/// The T5 settings the page reads from `v`.
fn t5_of(v: &TablesView) -> T5 {
    T5 {
        num_buckets: v.buckets,
        max_distance: v.t5_max_distance(),
        bidirectional: v.bidirectional,
    }
}

/// transformers' `_relative_position_bucket`, written again from the Python (float32 as torch
/// computes it), for keys `n ≥ 0` positions before the query: an independent reference.
fn reference_before(n: u64, bidirectional: bool, num_buckets: usize, max_distance: usize) -> usize {
    let nb = if bidirectional {
        num_buckets / 2
    } else {
        num_buckets
    };
    let max_exact = nb / 2;
    if (n as usize) < max_exact {
        return n as usize;
    }
    let scale = ((max_distance as f64) / (max_exact as f64)).ln() as f32;
    let x = ((n as f32 / max_exact as f32) as f64).ln() as f32;
    let large = max_exact + ((x / scale) * (nb - max_exact) as f32) as usize;
    large.min(nb - 1)
}

/// Far probes beyond any scanned bound.
const PROBES: [u64; 4] = [1_000_000, 1_000_000_000, 1 << 40, i64::MAX as u64];

/// The buckets of keys before the query for distances `0..=bound`, scanned one by one.
fn scan(t5: T5, bound: u64) -> Vec<usize> {
    (0..=bound)
        .map(|d| {
            relative::t5_bucket(
                -(d as i64),
                t5.bidirectional,
                t5.num_buckets,
                t5.max_distance,
            )
        })
        .collect()
}

/// A bound past which nothing can change: twice max_distance, and at least 5000.
fn bound(t5: T5) -> u64 {
    (2 * t5.max_distance as u64).max(5000)
}

/// Checks a readout's run against the scan.
fn check_readout(t5: T5, r: i64, claim: &T5Readout, buckets: &[usize]) {
    let b_at = |d: u64| {
        relative::t5_bucket(
            -(d as i64),
            t5.bidirectional,
            t5.num_buckets,
            t5.max_distance,
        )
    };
    let text = claim.to_string();
    assert_eq!(
        claim.bucket,
        relative::t5_bucket(r, t5.bidirectional, t5.num_buckets, t5.max_distance)
    );
    assert!(
        text.starts_with(&format!(
            "j − i = {} → bucket {} (",
            r.to_string().replace('-', "−"),
            claim.bucket
        )),
        "{text}"
    );
    if !t5.bidirectional && r > 0 {
        assert_eq!(claim.run, BucketRun::FutureKey, "{t5:?} {r}");
        assert_eq!(claim.bucket, 0);
        return;
    }
    let d = r.unsigned_abs();
    let b = b_at(d);
    let same: Vec<u64> = (0..buckets.len() as u64)
        .filter(|&x| buckets[x as usize] == b)
        .collect();
    let (lo, hi) = (same[0], *same.last().unwrap());
    // Buckets never decrease: the run is contiguous.
    assert_eq!(
        same.len() as u64,
        hi - lo + 1,
        "{t5:?}: bucket {b} is not a run"
    );
    let far = PROBES.iter().all(|&p| b_at(p) == b);
    let top = buckets.len() as u64 - 1;
    match claim.run {
        BucketRun::Exact { distance } => {
            assert_eq!(distance, d);
            assert_eq!((lo, hi), (d, d), "{t5:?} {r}: {text}");
            assert!((d as usize) < t5.num_buckets / if t5.bidirectional { 4 } else { 2 });
        }
        BucketRun::Own { distance } => {
            assert_eq!(distance, d);
            assert_eq!((lo, hi), (d, d), "{t5:?} {r}: {text}");
            assert!(!far);
            assert!(text.contains(&format!("distance {d} alone")), "{text}");
        }
        BucketRun::Shared { first, last } => {
            assert_eq!(first, lo, "{t5:?} {r}: {text}");
            match last {
                Some(l) => {
                    assert_eq!(l, hi, "{t5:?} {r}: {text}");
                    assert!(l < top && !far);
                    assert!(l > first);
                    assert!(
                        text.contains(&format!("shared by distances {first} … {l}")),
                        "{text}"
                    );
                }
                None => {
                    assert_eq!(hi, top, "{t5:?} {r}: the last bucket must reach the bound");
                    assert!(far, "{t5:?} {r}: a far probe left bucket {b}");
                    assert!(
                        text.contains(&format!("every distance from {first} on, however far")),
                        "{text}"
                    );
                }
            }
        }
        BucketRun::FutureKey => panic!("{t5:?} {r}: not a future key"),
    }
}

/// Checks the finding against the scan of both sides.
fn check_finding(t5: T5) {
    let bound = bound(t5);
    let buckets = scan(t5, bound);
    let f = claims::t5_finding(t5);
    let text = f.to_string();
    let last = *buckets.last().unwrap();
    assert!(PROBES.iter().all(|&p| {
        relative::t5_bucket(
            -(p as i64),
            t5.bidirectional,
            t5.num_buckets,
            t5.max_distance,
        ) == last
    }));
    let flat = buckets.iter().position(|&b| b == last).unwrap() as u64;
    assert_eq!(f.flat_from, flat, "{t5:?}");
    assert_eq!(f.last, last);
    // The log buckets reach the last one at or before max_distance.
    assert!(flat <= t5.max_distance as u64, "{t5:?}: flat from {flat}");
    assert!(
        text.contains(&format!(
            "every distance from {flat} on, max_distance = {} included, shares the last bucket",
            t5.max_distance
        )),
        "{text}"
    );
    let me = if t5.bidirectional {
        t5.num_buckets / 4
    } else {
        t5.num_buckets / 2
    } as u64;
    let log: BTreeSet<usize> = (me..flat).map(|d| buckets[d as usize]).collect();
    assert_eq!(f.log_buckets, log.len(), "{t5:?}");
    if flat > me {
        let noun = if log.len() == 1 { "bucket" } else { "buckets" };
        assert!(
            text.contains(&format!("{} log-spaced {noun}", log.len())),
            "{text}"
        );
    }
    // Every bucket any pair gets, both sides.
    let used: BTreeSet<usize> = (-(bound as i64)..=bound as i64)
        .map(|r| relative::t5_bucket(r, t5.bidirectional, t5.num_buckets, t5.max_distance))
        .collect();
    let unused: Vec<usize> = (0..t5.num_buckets).filter(|b| !used.contains(b)).collect();
    assert_eq!(f.unused, unused, "{t5:?}");
    assert_eq!(text.contains("never used"), !unused.is_empty(), "{text}");
    assert!(!text.contains("of each side"), "{text}");
    if !t5.bidirectional {
        assert!(!text.contains("after it. "), "{text}");
    }
    // The text alternative names the same first distance.
    assert!(claims::t5_describe(t5, 16).contains(&format!("from distance {flat} on")));
}

fn t5_settings() -> impl Strategy<Value = T5> {
    (
        ptab::T5_BUCKETS.0..=ptab::T5_BUCKETS.1,
        any::<bool>(),
        0usize..4,
        any::<u16>(),
    )
        .prop_map(|(nb, bi, kind, raw)| {
            let lo = ptab::exact_buckets(nb, bi) + 1;
            let md = match kind {
                // max_distance ≤ num_buckets, its minimum, or anywhere.
                0 => lo + raw as usize % (nb.max(lo) - lo + 1),
                1 => lo,
                2 => ptab::T5_MAX_DISTANCE.1,
                _ => lo + raw as usize % (ptab::T5_MAX_DISTANCE.1 - lo + 1),
            };
            T5 {
                num_buckets: nb,
                max_distance: md.max(ptab::distance_in_range(md, nb, bi)),
                bidirectional: bi,
            }
        })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, ..ProptestConfig::default() })]

    #[test]
    fn t5_readouts_state_the_true_run(t5 in t5_settings(), picks in proptest::collection::vec(any::<u32>(), 12)) {
        let bound = bound(t5);
        let buckets = scan(t5, bound);
        let span = 2 * t5.max_distance as i64 + 10;
        let flat = buckets.iter().position(|&b| b == *buckets.last().unwrap()).unwrap() as i64;
        let mut rs: Vec<i64> = picks.iter().map(|&p| (p as i64 % (2 * span + 1)) - span).collect();
        rs.extend([0, 1, -1, flat, -flat, flat - 1, -(flat - 1), t5.max_distance as i64, -(t5.max_distance as i64), -(t5.max_distance as i64) + 1]);
        for r in rs {
            check_readout(t5, r, &claims::t5_readout(t5, r), &buckets);
        }
    }

    #[test]
    fn t5_findings_match_the_scan(t5 in t5_settings()) {
        check_finding(t5);
    }

    #[test]
    fn alibi_ranges_match_the_softmax(heads in ptab::HEADS.0..=ptab::HEADS.1, n in ptab::ALIBI_LEN.0..=ptab::ALIBI_LEN.1, causal in any::<bool>()) {
        check_ranges(heads, n, causal);
    }

    #[test]
    fn neighbour_similarity_is_judged_against_chance(dim in 2usize..=16, max_len in ptab::MAX_LEN.0..=160, seed in any::<u64>()) {
        check_similarity(max_len.min(128), dim, seed);
    }

    #[test]
    fn shaw_counts_match_the_pairs(n in ptab::SHAW_POSITIONS.0..=ptab::SHAW_POSITIONS.1, k in ptab::SHAW_K.0..=ptab::SHAW_K.1) {
        check_shaw(n, k);
    }
}

/// Every T5 setting at the sliders' ends, exhaustively.
#[test]
fn t5_edges_exhaustively() {
    for nb in [4, 5, 6, 7, 32, 33, 127, 128] {
        for bi in [true, false] {
            let lo = ptab::exact_buckets(nb, bi) + 1;
            for md in [lo, lo + 1, lo + 2, nb, nb + 1, 128, ptab::T5_MAX_DISTANCE.1] {
                let t5 = T5 {
                    num_buckets: nb,
                    max_distance: md.max(lo),
                    bidirectional: bi,
                };
                check_finding(t5);
                let buckets = scan(t5, bound(t5));
                let (md, flat) = (t5.max_distance as i64, t5.flat_from() as i64);
                let near = |r: i64, x: i64| (r.abs() - x).abs() <= 3;
                for r in (-(md + 3)..=(md + 3))
                    .filter(|&r| r.abs() < 150 || r % 41 == 0 || near(r, md) || near(r, flat))
                {
                    check_readout(t5, r, &claims::t5_readout(t5, r), &buckets);
                }
            }
        }
    }
}

/// The reference reimplementation agrees with the page's bucket function (so the regressions
/// below, whose expectations come from the review's recomputed numbers, test the same thing).
#[test]
fn the_reference_bucket_agrees() {
    for (bi, nb, md) in [
        (true, 32, 128),
        (false, 32, 128),
        (true, 9, 128),
        (false, 17, 27),
    ] {
        for d in 0..3000u64 {
            assert_eq!(
                reference_before(d, bi, nb, md),
                relative::t5_bucket(-(d as i64), bi, nb, md),
                "{bi} {nb} {md} {d}"
            );
        }
    }
}

fn check_ranges(heads: usize, n: usize, causal: bool) {
    let slopes = alibi::slopes(heads);
    let q = if causal { n - 1 } else { n / 2 };
    let claim = claims::head_ranges(&slopes, n, q);
    let mut w = Vec::new();
    let (mut local, mut global) = (0, 0);
    for &m in &slopes {
        alibi::attention_row_into(m, q, n, causal, &mut w);
        let own = w[q];
        let visible: Vec<usize> = (0..n).filter(|&j| !causal || j <= q).collect();
        // Global: every visible key gets more than half the query's own weight.
        if visible.iter().all(|&j| w[j] > 0.5 * own) {
            global += 1;
        } else if (-4.0 * m).exp() < 0.5 {
            local += 1;
        }
    }
    let reach = (0..n)
        .filter(|&j| !causal || j <= q)
        .map(|j| q.abs_diff(j))
        .max()
        .unwrap();
    assert_eq!(claim.reach, reach);
    assert_eq!(
        (claim.local, claim.global),
        (local, global),
        "{heads} heads, n {n}, causal {causal}"
    );
    let text = claim.to_string();
    let verb = |k: usize| if k == 1 { "gives" } else { "give" };
    assert!(
        text.contains(&format!("{local} {} a key 4 positions away", verb(local))),
        "{text}"
    );
    assert!(
        text.contains(&format!(
            "{global} {} every key this query sees, up to {reach} positions away",
            verb(global)
        )),
        "{text}"
    );
    // The far-key factor is e^(−m·4000) of the smallest slope, to 2 significant digits.
    let m = slopes.iter().copied().fold(f64::INFINITY, f64::min);
    let factor = (-m * 4000.0).exp();
    let shown: f64 = text
        .split("e^(−m·4000) ≈ ")
        .nth(1)
        .and_then(|t| t.split(' ').next())
        .unwrap()
        .parse()
        .unwrap();
    assert!(
        (shown - factor).abs() <= 0.05 * factor,
        "{shown} vs {factor}"
    );
}

#[test]
fn alibi_ranges_at_the_edges() {
    for heads in [1, 2, 3, 7, 8, 9, 12, 63, 64] {
        for n in [2, 3, 4, 5, 64, 512] {
            for causal in [true, false] {
                check_ranges(heads, n, causal);
            }
        }
    }
}

/// The mean similarity of neighbouring rows, from the rows themselves.
fn neighbour_mean(p: usize, dim: usize, seed: u64) -> f64 {
    let table = learned::LearnedTable::new(p, dim, 0.02, seed);
    let cos = |a: &[f64], b: &[f64]| {
        let dot: f64 = a.iter().zip(b).map(|(x, y)| x * y).sum();
        let na = a.iter().map(|x| x * x).sum::<f64>().sqrt();
        let nb = b.iter().map(|x| x * x).sum::<f64>().sqrt();
        dot / (na * nb)
    };
    let sum: f64 = (0..p - 1)
        .map(|a| cos(table.row(a).unwrap(), table.row(a + 1).unwrap()))
        .sum();
    sum / (p - 1) as f64
}

/// The claim as the page builds it, from the page's own matrix.
fn similarity_claim(p: usize, dim: usize, seed: u64) -> NeighbourSimilarity {
    let mut m = Vec::new();
    learned::cosine_similarity_into(seed, 0.02, p, dim, &mut m);
    let learned_mean = (0..p - 1).map(|a| m[a * p + a + 1]).sum::<f64>() / (p - 1) as f64;
    let off: f64 = (0..p * p)
        .filter(|k| k / p != k % p)
        .map(|k| m[k] * m[k])
        .sum();
    NeighbourSimilarity {
        positions: p,
        dim,
        rms: (off / (p * (p - 1)) as f64).sqrt(),
        learned: learned_mean,
        sinusoidal: 0.5,
    }
}

fn check_similarity(p: usize, dim: usize, seed: u64) {
    let claim = similarity_claim(p, dim, seed);
    let mean = neighbour_mean(p, dim, seed);
    assert!((claim.learned - mean).abs() < 1e-9);
    let band = 2.0 / ((dim * (p - 1)) as f64).sqrt();
    let text = claim.to_string();
    assert!(text.contains(&format!("±{band:.3}")), "{text}");
    assert!(text.contains(&format!("distance 1 is {mean:.3}")), "{text}");
    if mean.abs() <= band {
        assert!(text.contains("no more alike than strangers"), "{text}");
    } else {
        assert!(
            text.contains("a fluke of this seed") && !text.contains("no more alike"),
            "{text}"
        );
    }
}

/// The ±band is what random rows give: at d = 2, p = 8, about 5% of seeds fall outside it.
#[test]
fn the_chance_band_is_two_standard_deviations() {
    let outside = (0..600u64)
        .filter(|&seed| neighbour_mean(8, 2, seed).abs() > 2.0 / (2.0 * 7.0f64).sqrt())
        .count();
    assert!(
        (6..=72).contains(&outside),
        "{outside} of 600 seeds outside"
    );
}

fn check_shaw(n: usize, k: usize) {
    let mut clips = BTreeSet::new();
    let mut clipped = false;
    for i in 0..n as i64 {
        for j in 0..n as i64 {
            let c = relative::shaw_clip(j - i, k);
            clipped |= c != j - i;
            clips.insert(c);
        }
    }
    let f = ShawFinding { n, k };
    let text = f.to_string();
    let noun = if clips.len() == 1 {
        "distance"
    } else {
        "distances"
    };
    assert!(
        text.contains(&format!("k = {k}: {} distinct clipped {noun}", clips.len())),
        "{text}"
    );
    assert!(text.contains(&format!("all {} query–key pairs", n * n)));
    assert_eq!(text.contains("nothing is clipped yet"), !clipped, "{text}");
}

/// Slopes: every head count of the page. Each printed number is recomputed here.
#[test]
fn slopes_findings_for_every_head_count() {
    for heads in ptab::HEADS.0..=ptab::HEADS.1 {
        let slopes = alibi::slopes(heads);
        let text = SlopesFinding {
            heads,
            overridden: None,
        }
        .to_string();
        let p = 1usize << heads.ilog2();
        if heads == 1 {
            assert!(text.starts_with("1 head: its slope is 2^−8"), "{text}");
        } else if p == heads {
            // The half-weight distances grow by 2^(8/H) from head to head.
            for (h, &m) in slopes.iter().enumerate() {
                let want = 2f64.ln() * 2f64.powf(8.0 * (h + 1) as f64 / heads as f64);
                assert!((std::f64::consts::LN_2 / m - want).abs() < 1e-9 * want);
            }
            let ratio = 2f64.powf(8.0 / heads as f64);
            let shown: f64 = text
                .split("≈ ")
                .nth(1)
                .unwrap()
                .split(' ')
                .next()
                .unwrap()
                .parse()
                .unwrap();
            assert!((shown - ratio).abs() < 1e-3 * ratio, "{shown} vs {ratio}");
        } else {
            let extra = heads - p;
            // Head p + 1 is steeper than the whole first run.
            assert!(slopes[p] > slopes[..p].iter().copied().fold(0.0, f64::max));
            // Each later extra head lies strictly between two neighbours of the first run.
            for k in 1..extra {
                let m = slopes[p + k];
                assert!(
                    slopes[..p].windows(2).any(|w| w[0] > m && m > w[1]),
                    "{heads}: head {}",
                    p + k + 1
                );
            }
            if extra >= 2 {
                let m = slopes[p + 1];
                assert!(slopes[0] > m && m > slopes[1]);
                assert!(
                    text.contains(&format!("head {} between heads 1 and 2", p + 2)),
                    "{text}"
                );
            }
            // The paper's general rule, recomputed: 2^(−8(p+1)/H), differs from the code's.
            let exponent = -8.0 * (p + 1) as f64 / heads as f64;
            let shown = format!("2^{:.3}", exponent).replace('-', "−");
            let shown_prefix = shown.trim_end_matches('0').trim_end_matches('.');
            assert!(
                text.contains(shown_prefix),
                "{heads}: {shown_prefix} in {text}"
            );
            assert!((2f64.powf(exponent) - slopes[p]).abs() > 1e-6);
            assert!(text.contains("authors' code"));
        }
        // The readout of every head names the default slope, and for a non-power of two the
        // paper's rule as another number.
        for h in 1..=heads {
            let r = SlopeReadout {
                head: h,
                heads,
                slope: slopes[h - 1],
                default: slopes[h - 1],
            }
            .to_string();
            assert!(
                r.starts_with(&format!("Head {h} of {heads}: slope m = 2^")),
                "{r}"
            );
            assert_eq!(r.contains("the paper's general rule"), p != heads, "{r}");
            assert!(!r.contains("paper's is"));
        }
    }
}

// ------------------------------------------------------------------ the review's links

#[test]
fn regression_t5_defaults_hover_100_is_the_last_bucket_from_91() {
    let v = view("");
    let t5 = t5_of(&v);
    // Review: bidirectional 32/128 is flat from distance 91 (bucket 15).
    assert_eq!(reference_before(90, true, 32, 128), 14);
    assert_eq!(reference_before(91, true, 32, 128), 15);
    assert_eq!(
        claims::t5_readout(t5, -100).to_string(),
        "j − i = −100 → bucket 15 (the last bucket for keys before the query: every distance \
         from 91 on, however far, shares it)"
    );
    assert!(claims::t5_readout(t5, 200).to_string().starts_with("j − i = 200 → bucket 31 (the last bucket for keys after the query: every distance from 91 on"));
    assert_eq!(
        claims::t5_readout(t5, -80).to_string(),
        "j − i = −80 → bucket 14 (logarithmic: shared by distances 64 … 90 (keys before the query))"
    );
    let finding = claims::t5_finding(t5).to_string();
    assert!(finding.contains("Distances 0 … 7 get one bucket each; distances 8 … 90 fall into 7 log-spaced buckets; every distance from 91 on, max_distance = 128 included, shares the last bucket (15, or 31 for keys after the query)."), "{finding}");
    assert!(
        finding.contains("1 bucket is never used at these settings: 16"),
        "{finding}"
    );
    // Quiz Q6's link (?t.tn=300) shows this phrase.
    assert!(
        claims::t5_finding(t5_of(&view("t.tn=300")))
            .to_string()
            .contains(
                "every distance from 91 on, max_distance = 128 included, shares the last bucket"
            )
    );
    // The extrapolation figure agrees.
    let ex = claims::extrapolation_finding(640, 512, 1e-4, t5);
    assert!(
        ex.contains("T5's bucket stops changing at distance 91"),
        "{ex}"
    );
}

#[test]
fn regression_t5_causal_hover_113_is_the_last_bucket() {
    let v = view("t.bi=0");
    let t5 = t5_of(&v);
    assert_eq!(reference_before(112, false, 32, 128), 30);
    assert_eq!(reference_before(113, false, 32, 128), 31);
    for r in [-113, -127, -128, -5000] {
        assert_eq!(
            claims::t5_readout(t5, r).to_string(),
            format!(
                "j − i = −{} → bucket 31 (the last bucket: every distance from 113 on, however far, shares it)",
                -r
            )
        );
    }
    assert_eq!(
        claims::t5_readout(t5, -100).to_string(),
        "j − i = −100 → bucket 30 (logarithmic: shared by distances 99 … 112)"
    );
    assert!(
        claims::t5_readout(t5, 3)
            .to_string()
            .contains("a future key")
    );
}

#[test]
fn regression_t5_md_16_hover_15_is_shared_by_every_farther_distance() {
    let t5 = t5_of(&view("t.md=16"));
    assert_eq!(t5.max_distance, 16);
    // Review: buckets of 13, 14, 15, 16, 17, 1000 are 13, 14, 15, 15, 15, 15.
    let want: Vec<usize> = [13, 14, 15, 16, 17, 1000]
        .iter()
        .map(|&d| reference_before(d, true, 32, 16))
        .collect();
    assert_eq!(want, [13, 14, 15, 15, 15, 15]);
    let text = claims::t5_readout(t5, -15).to_string();
    assert_eq!(
        text,
        "j − i = −15 → bucket 15 (the last bucket for keys before the query: every distance from 15 on, however far, shares it)"
    );
    assert!(!text.contains("of its own"));
    assert!(
        claims::t5_readout(t5, -14)
            .to_string()
            .contains("distance 14 alone has this bucket at these settings")
    );
}

#[test]
fn regression_t5_causal_md_17_has_one_side() {
    let t5 = t5_of(&view("t.bi=0&t.md=17"));
    let text = claims::t5_finding(t5).to_string();
    assert!(!text.contains("each side"), "{text}");
    assert!(
        text.contains("14 buckets are never used at these settings: 17 … 30"),
        "{text}"
    );
    assert!(text.contains("distance 16 falls into 1 log-spaced bucket; every distance from 17 on, max_distance = 17 included"), "{text}");
}

#[test]
fn regression_t5_odd_33_buckets_leaves_bucket_32_unused() {
    let t5 = t5_of(&view("t.nb=33"));
    let f = claims::t5_finding(t5);
    assert_eq!(f.unused, [16, 32]);
    let text = f.to_string();
    assert!(
        text.contains(
            "buckets 0 … 15 for keys at or before the query and 16 … 31 for keys after it"
        ),
        "{text}"
    );
    assert!(
        text.contains("2 buckets are never used at these settings: 16, 32"),
        "{text}"
    );
    assert!(text.contains("bucket 32 lies past both sides"), "{text}");
}

#[test]
fn regression_slopes_12_heads_head_9_yours() {
    let v = view("t.h=12&t.head=9&t.m=0.5");
    let h = v.chosen_head();
    let r = SlopeReadout {
        head: h,
        heads: v.heads,
        slope: v.slopes()[h - 1],
        default: v.default_slopes()[h - 1],
    }
    .to_string();
    assert_eq!(
        r,
        "Head 9 of 12: slope m = 2^−1.000 = 0.5000 (yours; the default, from the authors' code, \
         is 2^−0.5000 ≈ 0.7071) · the bias falls by ln 2 (the weight halves) every 1.386 positions."
    );
    let default = SlopeReadout {
        head: 9,
        heads: 12,
        slope: v.default_slopes()[8],
        default: v.default_slopes()[8],
    }
    .to_string();
    // Code 2^−0.5 = 0.7071, the paper's rule 2^−6 = 0.015625 (review, W3).
    assert!(
        default.contains("slope 1 of the 16-head sequence"),
        "{default}"
    );
    assert!(
        default.contains("the paper's general rule, 2^(−8·9/12), would give 2^−6.000 ≈ 0.01562"),
        "{default}"
    );
    let finding = SlopesFinding {
        heads: 12,
        overridden: Some(9),
    }
    .to_string();
    assert!(
        finding.contains("heads 9 … 12 take slopes 1, 3, …, 7 of the 16-head sequence"),
        "{finding}"
    );
    assert!(
        finding.contains("Head 9's slope is steeper than every slope of heads 1 … 8"),
        "{finding}"
    );
    assert!(
        finding.ends_with("Head 9 uses your slope instead."),
        "{finding}"
    );
}

#[test]
fn regression_slopes_8_heads_half_weight_distances_double() {
    let finding = SlopesFinding {
        heads: 8,
        overridden: None,
    }
    .to_string();
    // ln 2 · 2^h, h = 1 … 8.
    assert!(
        finding
            .contains("about 1.386, 2.773, 5.545, 11.09, 22.18, 44.36, 88.72 and 177.4 positions"),
        "{finding}"
    );
    assert!(
        finding.contains("2^(8/8) ≈ 2 from head to head"),
        "{finding}"
    );
}

#[test]
fn regression_alibi_attention_defaults() {
    let v = view("");
    let text = claims::head_ranges(&v.slopes(), 64, 63).to_string();
    // 8 heads, n = 64: ln 2/m = 1.39, 2.77 < 4 (local); 88.7, 177 > 63 (global).
    assert!(text.starts_with("With 8 heads and n = 64: 2 give a key 4 positions away less than half the weight of the query's own key (local); 2 give every key this query sees, up to 63 positions away, more than half the weight of its own key (global); and 4 lie between."), "{text}");
    assert!(text.contains("e^(−m·4000) ≈ 1.6e-7"), "{text}");
}

#[test]
fn regression_learned_similarity_small_table() {
    // ?t.L=8&t.d=2: the verdict follows the sample; find seeds of both kinds.
    let v = view("t.L=8&t.d=2");
    assert_eq!((v.max_len, v.dim), (8, 2));
    let (mut fluke, mut calm) = (false, false);
    for seed in 0..300 {
        let text = similarity_claim(8, 2, seed).to_string();
        check_similarity(8, 2, seed);
        fluke |= text.contains("a fluke of this seed");
        calm |= text.contains("no more alike than strangers");
    }
    assert!(fluke && calm);
    assert!(similarity_claim(8, 2, 1).to_string().contains("±0.535"));
}

#[test]
fn regression_causal_off_notes() {
    let v = view("t.causal=0");
    assert!(!v.causal);
    assert!(claims::alibi_mask_note(v.causal).contains("not in the paper"));
    assert!(claims::alibi_mask_note(true).is_empty());
    let bias: Vec<f64> = (0..=37).map(|j| -0.5 * (37 - j) as f64).collect();
    let same = claims::same_finding((37, 64), &[0.0; 64], None, &[10.0, 1.0], &bias, v.causal);
    assert!(
        same.contains("lowers the score of the key 37 positions back by 18.50"),
        "{same}"
    );
    assert!(same.contains("as a decoder sees them"), "{same}");
    assert!(
        !claims::same_finding((37, 64), &[0.0; 64], None, &[10.0, 1.0], &bias, true)
            .contains("decoder")
    );
}

#[test]
fn regression_learned_cliff_1024() {
    let v = view("t.n=1024");
    let text = claims::learned_status(v.max_len, v.seq_len);
    assert!(
        text.starts_with("512 of the 1024 positions (512 … 1023) have no learned vector"),
        "{text}"
    );
    assert!(
        text.contains("RoPE's angles p·θᵢ") && !text.contains("m·θ"),
        "{text}"
    );
    // Quiz Q2's link.
    let q2 = view("t.L=512&t.n=600");
    assert!(
        claims::learned_status(q2.max_len, q2.seq_len)
            .contains("88 of the 600 positions (512 … 599) have no learned vector")
    );
}

#[test]
fn regression_nope_noise_depends_on_d() {
    let coarse = NopeFinding {
        n: 256,
        d: 1,
        first: 0.9,
        last: 0.004,
    }
    .to_string();
    assert!(coarse.contains("√(2/d) ≈ 1.41 times"), "{coarse}");
    let fine = NopeFinding {
        n: 256,
        d: 64,
        first: 1.02,
        last: 0.0039,
    }
    .to_string();
    assert!(fine.contains("without any positional encoding"), "{fine}");
    assert!(
        fine.contains("estimates of 1 and 1/256 from 64 coordinates"),
        "{fine}"
    );
}

#[test]
fn regression_shaw_defaults() {
    let v = view("");
    let text = ShawFinding {
        n: v.shaw_len,
        k: v.shaw_k,
    }
    .to_string();
    assert!(text.starts_with("k = 4: 9 distinct clipped distances (each with a wᴷ and a wⱽ) serve all 256 query–key pairs of 16 positions; in one layer, every pair more than 4 apart"), "{text}");
    let _ = HeadRanges {
        heads: 0,
        n: 0,
        reach: 0,
        local: 0,
        global: 0,
        flattest: f64::NAN,
    }
    .to_string();
}
