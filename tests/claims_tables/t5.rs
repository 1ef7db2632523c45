//! T5's buckets: readouts, findings and the matrix's text alternative against a distance-by-
//! distance scan and a reference port of transformers' `_relative_position_bucket`.

use std::collections::BTreeSet;

use pe_explorer::explain::tables::{self as claims, BucketRun, T5, T5Readout};
use pe_explorer::math::relative;
use pe_explorer::params::tables::{self as ptab, TablesView};
use proptest::prelude::*;

use super::says::{assert_never_says, assert_says};
use super::view;

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
            assert_says(&text, &[&format!("distance {d} alone")]);
        }
        BucketRun::Shared { first, last } => {
            assert_eq!(first, lo, "{t5:?} {r}: {text}");
            match last {
                Some(l) => {
                    assert_eq!(l, hi, "{t5:?} {r}: {text}");
                    assert!(l < top && !far);
                    assert!(l > first);
                    assert_says(&text, &[&format!("shared by distances {first} … {l}")]);
                }
                None => {
                    assert_eq!(hi, top, "{t5:?} {r}: the last bucket must reach the bound");
                    assert!(far, "{t5:?} {r}: a far probe left bucket {b}");
                    assert_says(
                        &text,
                        &[&format!("every distance from {first} on, however far")],
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
    assert_says(
        &text,
        &[&format!(
            "every distance from {flat} on, max_distance = {} included, shares the last bucket",
            t5.max_distance
        )],
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
        assert_says(&text, &[&format!("{} log-spaced {noun}", log.len())]);
    }
    // Every bucket any pair gets, both sides.
    let used: BTreeSet<usize> = (-(bound as i64)..=bound as i64)
        .map(|r| relative::t5_bucket(r, t5.bidirectional, t5.num_buckets, t5.max_distance))
        .collect();
    let unused: Vec<usize> = (0..t5.num_buckets).filter(|b| !used.contains(b)).collect();
    assert_eq!(f.unused, unused, "{t5:?}");
    assert_eq!(text.contains("never used"), !unused.is_empty(), "{text}");
    assert_never_says(&text, &["of each side"]);
    if !t5.bidirectional {
        assert_never_says(&text, &["after it. "]);
    }
    // The text alternative, for matrices that stop short of, at and past the last bucket.
    for n in [
        2,
        3,
        me as usize,
        me as usize + 1,
        flat as usize,
        flat as usize + 1,
        1024,
    ] {
        check_picture(
            t5,
            n.clamp(ptab::T5_POSITIONS.0, ptab::T5_POSITIONS.1),
            &buckets,
        );
    }
}

/// Checks the matrix's text alternative against the buckets of the distances it shows,
/// `0 … n − 1`: exact ones (a bucket that distance alone has, below the first shared bucket),
/// log-spaced bands, and flat colour only when the last bucket is among them.
fn check_picture(t5: T5, n: usize, buckets: &[usize]) {
    let text = claims::t5_describe(t5, n);
    let last = *buckets.last().unwrap();
    let flat = buckets.iter().position(|&b| b == last).unwrap();
    let shown = &buckets[..n];
    // The exact buckets: bucket = distance, below num_buckets/4 (or /2 causal).
    let me = if t5.bidirectional {
        t5.num_buckets / 4
    } else {
        t5.num_buckets / 2
    };
    let exact = shown
        .iter()
        .enumerate()
        .take_while(|&(d, &b)| b == d && d < me)
        .count();
    let log: BTreeSet<usize> = shown
        .iter()
        .enumerate()
        .filter(|&(d, &b)| d >= me && b != last)
        .map(|(_, &b)| b)
        .collect();
    assert!(
        text.starts_with(&format!(
            "T5's bucket numbers for {n} positions, as a {n} by {n} matrix"
        )),
        "{text}"
    );
    assert_eq!(
        text.contains("flat colour"),
        flat < n,
        "{t5:?} n {n}: {text}"
    );
    if flat < n {
        assert_says(
            &text,
            &[&format!(
                "flat colour from distance {flat} on (the last bucket)"
            )],
        );
    }
    if exact == n {
        assert!(
            text.contains(&format!(
                "every distance shown (0 … {}) has a bucket of its own",
                n - 1
            )),
            "{t5:?} n {n}: {text}"
        );
        assert_never_says(&text, &["log-spaced band"]);
    } else if exact > 1 {
        assert!(
            text.contains(&format!("distances 0 … {} with a bucket each", exact - 1)),
            "{t5:?} n {n}: {text}"
        );
    }
    if log.is_empty() {
        assert_never_says(&text, &["log-spaced band"]);
    } else {
        let last_log = shown.iter().rposition(|&b| b != last).unwrap();
        let noun = if log.len() == 1 { "band" } else { "bands" };
        let span = if last_log == me {
            format!("distance {me}")
        } else {
            format!("distances {me} … {last_log}")
        };
        assert!(
            text.contains(&format!("{} log-spaced {noun} covering {span}", log.len())),
            "{t5:?} n {n}: {text}"
        );
    }
    assert_eq!(
        text.contains("Above the diagonal"),
        !t5.bidirectional,
        "{text}"
    );
    assert!(
        text.ends_with(&format!("flat from distance {flat} on.")),
        "{text}"
    );
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
    fn t5_pictures_match_the_scan(t5 in t5_settings(), n in ptab::T5_POSITIONS.0..=ptab::T5_POSITIONS.1) {
        check_picture(t5, n, &scan(t5, bound(t5)));
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
    assert_says(
        &finding,
        &[
            "Distances 0 … 7 get one bucket each; distances 8 … 90 fall into 7 log-spaced buckets; every distance from 91 on, max_distance = 128 included, shares the last bucket (15, or 31 for keys after the query).",
            "1 bucket is never used at these settings: 16",
        ],
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
    assert_says(&ex, &["T5's bucket stops changing at distance 91"]);
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
    assert_never_says(&text, &["each side"]);
    assert_says(
        &text,
        &[
            "14 buckets are never used at these settings: 17 … 30",
            "distance 16 falls into 1 log-spaced bucket; every distance from 17 on, max_distance = 17 included",
        ],
    );
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
    assert_says(
        &text,
        &[
            "2 buckets are never used at these settings: 16, 32",
            "bucket 32 lies past both sides",
        ],
    );
}

// ------------------------------------------------------------------ the second review's links

/// W3: an 8 × 8 matrix (defaults: 8 exact buckets) shows exact buckets only; no bands, no flat
/// colour. 50 positions: exact and log bands, the last bucket beyond it. 256: all three.
#[test]
fn regression_w3_t5_text_alternative_promises_only_what_the_matrix_shows() {
    let v = view("t.tn=8");
    let t5 = t5_of(&v);
    let shown: Vec<usize> = (0..8).map(|d| reference_before(d, true, 32, 128)).collect();
    assert_eq!(shown, [0, 1, 2, 3, 4, 5, 6, 7]);
    let text = claims::t5_describe(t5, v.t5_len);
    assert!(
        text.contains(
            "every distance shown (0 … 7) has a bucket of its own, so every diagonal has its own \
             colour; the log-spaced buckets start at distance 8, beyond this matrix."
        ),
        "{text}"
    );
    assert!(
        !text.contains("flat colour") && !text.contains("widening"),
        "{text}"
    );

    let v = view("t.tn=50");
    let log: BTreeSet<usize> = (8..50)
        .map(|d| reference_before(d, true, 32, 128))
        .collect();
    assert_eq!(log.len(), 6); // starting at 8, 12, 16, 23, 32 and 46
    let text = claims::t5_describe(t5_of(&v), v.t5_len);
    assert!(
        text.contains(
            "distances 0 … 7 with a bucket each, 6 log-spaced bands covering distances 8 … 49, \
             and the last bucket, from distance 91 on, lies beyond this matrix."
        ),
        "{text}"
    );
    assert_never_says(&text, &["flat colour"]);

    let v = view("");
    assert_eq!(reference_before(91, true, 32, 128), 15);
    let text = claims::t5_describe(t5_of(&v), v.t5_len);
    assert_says(
        &text,
        &[
            "7 log-spaced bands covering distances 8 … 90, and flat colour from distance 91 on (the last bucket).",
        ],
    );
}

/// M2: quiz Q6's explanation names the encoder's 91 and the decoder's 113.
#[test]
fn regression_m2_quiz_q6_names_the_encoders_91_and_the_decoders_113() {
    let first_of_last = |bi: bool| {
        let last = reference_before(1_000_000, bi, 32, 128);
        (0..)
            .find(|&d| reference_before(d, bi, 32, 128) == last)
            .unwrap()
    };
    assert_eq!((first_of_last(true), first_of_last(false)), (91, 113));
    let why = claims::QUIZ_T5_WHY;
    assert_says(
        why,
        &[
            "In the encoder (bidirectional), every distance from 91 on",
            "in the decoder (causal), whose 32 buckets all count keys at or before the query, every distance from 113 on shares the last bucket",
        ],
    );
    // The figure at ?t.bi=0 says the same.
    let finding = claims::t5_finding(t5_of(&view("t.bi=0"))).to_string();
    assert_says(&finding, &["every distance from 113 on"]);
    // Both 200 and 1000 lie past either start.
    for bi in [true, false] {
        assert_eq!(
            reference_before(200, bi, 32, 128),
            reference_before(1000, bi, 32, 128)
        );
    }
}
