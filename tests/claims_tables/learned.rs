//! Learned tables: the cliff past max_len and the random rows' similarity, recomputed from the
//! rows.

use pe_explorer::explain::tables::{self as claims, NeighbourSimilarity};
use pe_explorer::math::learned;
use pe_explorer::params::tables as ptab;
use proptest::prelude::*;

use super::says::{assert_never_says, assert_opens, assert_says};
use super::view;

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, ..ProptestConfig::default() })]

    #[test]
    fn neighbour_similarity_is_judged_against_chance(dim in 2usize..=16, max_len in ptab::MAX_LEN.0..=160, seed in any::<u64>()) {
        check_similarity(max_len.min(128), dim, seed);
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
    assert_says(
        &text,
        &[&format!("±{band:.3}"), &format!("distance 1 is {mean:.3}")],
    );
    if mean.abs() <= band {
        assert_says(&text, &["no more alike than strangers"]);
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
fn regression_learned_cliff_1024() {
    let v = view("t.n=1024");
    let text = claims::learned_status(v.max_len, v.seq_len);
    assert_opens(
        &text,
        "512 of the 1024 positions (512 … 1023) have no learned vector",
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

// ------------------------------------------------------------------ the second review's links

/// The share of neighbouring rows of a random table whose cosine has |cos| > 0.9: independent
/// Gaussian rows, so independent random directions.
fn sampled_parallel_share(dim: usize, rows: usize, seed: u64) -> f64 {
    let table = learned::LearnedTable::new(rows, dim, 1.0, seed);
    let cos = |a: &[f64], b: &[f64]| {
        let dot: f64 = a.iter().zip(b).map(|(x, y)| x * y).sum();
        let na = a.iter().map(|x| x * x).sum::<f64>().sqrt();
        let nb = b.iter().map(|x| x * x).sum::<f64>().sqrt();
        dot / (na * nb)
    };
    let hits = (0..rows - 1)
        .filter(|&a| cos(table.row(a).unwrap(), table.row(a + 1).unwrap()).abs() > 0.9)
        .count();
    hits as f64 / (rows - 1) as f64
}

/// M6: in 2 dimensions the cosine of random directions follows the arcsine law, peaked at ±1:
/// |cos| > 0.9 for 2·arccos(0.9)/π ≈ 28.7% of pairs, so they are not "rarely parallel". In 3 the
/// cosine is uniform (10%); in 4, 2(a − sin a·cos a)/π ≈ 3.7% with a = arccos 0.9.
#[test]
fn regression_m6_random_directions_in_2_dimensions_are_often_parallel() {
    let a = 0.9f64.acos();
    let exact = [
        (2, 2.0 * a / std::f64::consts::PI, "29%"),
        (3, 0.1, "10%"),
        (
            4,
            2.0 * (a - a.sin() * a.cos()) / std::f64::consts::PI,
            "3.7%",
        ),
    ];
    for (dim, share, shown) in exact {
        let sampled = sampled_parallel_share(dim, 20_000, 3);
        assert!(
            (sampled - share).abs() < 0.015,
            "d {dim}: {sampled} vs {share}"
        );
        let v = view(&format!("t.d={dim}"));
        assert_eq!(v.dim, dim);
        let text = similarity_claim(8, v.dim, v.seed).to_string();
        assert!(
            text.contains(&format!("|cos| > 0.9 for {shown} of random pairs")),
            "d {dim}: {text}"
        );
        assert_eq!(
            text.contains("often nearly parallel"),
            share >= 0.05,
            "{text}"
        );
        assert_eq!(
            text.contains("rarely nearly parallel"),
            share < 0.05,
            "{text}"
        );
        assert_never_says(&text, &["rarely parallel, but"]);
    }
    // 16 dimensions: under 0.1% (the sample sees none), and 32 or more: nearly orthogonal.
    assert!(sampled_parallel_share(16, 20_000, 3) < 0.001);
    assert!(
        similarity_claim(8, 16, 1)
            .to_string()
            .contains("fewer than 0.1% of random pairs")
    );
    assert!(
        similarity_claim(8, 32, 1)
            .to_string()
            .contains("nearly orthogonal")
    );
}

/// U1: one position past the table is singular, not a range "512 … 512".
#[test]
fn regression_u1_one_missing_position_is_singular() {
    let v = view("t.n=513");
    assert_eq!((v.max_len, v.seq_len), (512, 513));
    let text = claims::learned_status(v.max_len, v.seq_len);
    assert_opens(
        &text,
        "1 of the 513 positions (position 512) has no learned vector: a model with this \
             table cannot read it.",
    );
    assert_never_says(&text, &["512 … 512"]);
}
