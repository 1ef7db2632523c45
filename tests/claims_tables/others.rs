//! Shaw's clipped distances, NoPE's signal, one position side by side and past the training
//! length.

use std::collections::BTreeSet;

use pe_explorer::explain::tables::{self as claims, NopeFinding, ShawFinding};
use pe_explorer::math::relative;
use pe_explorer::params::tables as ptab;
use proptest::prelude::*;

use super::says::{assert_never_says, assert_opens, assert_says};
use super::view;

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, ..ProptestConfig::default() })]

    #[test]
    fn shaw_counts_match_the_pairs(n in ptab::SHAW_POSITIONS.0..=ptab::SHAW_POSITIONS.1, k in ptab::SHAW_K.0..=ptab::SHAW_K.1) {
        check_shaw(n, k);
    }
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
    assert_says(
        &text,
        &[&format!("k = {k}: {} distinct clipped {noun}", clips.len())],
    );
    assert!(text.contains(&format!("all {} query–key pairs", n * n)));
    assert_eq!(text.contains("nothing is clipped yet"), !clipped, "{text}");
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
    assert_says(&coarse, &["√(2/d) ≈ 1.41 times"]);
    let fine = NopeFinding {
        n: 256,
        d: 64,
        first: 1.02,
        last: 0.0039,
    }
    .to_string();
    assert_says(
        &fine,
        &[
            "without any positional encoding",
            "estimates of 1 and 1/256 from 64 coordinates",
        ],
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
    assert_opens(
        &text,
        "k = 4: 9 distinct clipped distances (each with a wᴷ and a wⱽ) serve all 256 query–key pairs of 16 positions; in one layer, every pair more than 4 apart",
    );
}

// ------------------------------------------------------------------ the second review's links

/// U3: at position 0 the query's only key is its own, at (not before) it.
#[test]
fn regression_u3_position_0_has_only_its_own_key() {
    let v = view("t.p=0");
    assert_eq!(v.pos, 0);
    let text = claims::same_finding((v.pos, 64), &[0.0; 64], None, &[0.0], &[0.0], v.causal);
    assert_says(
        &text,
        &["its only key at or before the query is its own (bias 0)"],
    );
}

/// U4: at head_dim 2 (θ = 1 rad) the 512 trained positions cover the whole circle (gaps of about
/// 1° at most); a new
/// position's angle falls between two seen ones, not on one.
#[test]
fn regression_u4_new_angles_fall_between_seen_ones() {
    let theta = pe_explorer::math::rope::inv_freq(2, 10_000.0)[0];
    assert_eq!(theta, 1.0);
    let tau = std::f64::consts::TAU;
    let mut seen: Vec<f64> = (0..512).map(|p| (p as f64 * theta) % tau).collect();
    seen.sort_by(f64::total_cmp);
    let widest = seen
        .windows(2)
        .map(|w| w[1] - w[0])
        .fold(tau - seen[511] + seen[0], f64::max);
    assert!(widest.to_degrees() < 1.1, "{}", widest.to_degrees());
    let new = (600.0 * theta) % tau;
    let nearest = seen
        .iter()
        .map(|s| (s - new).abs())
        .fold(f64::INFINITY, f64::min);
    assert!(nearest > 0.0 && nearest < widest);
    let t5 = claims::T5 {
        num_buckets: 32,
        max_distance: 128,
        bidirectional: true,
    };
    let text = claims::extrapolation_finding(640, 512, theta, t5);
    assert_says(
        &text,
        &[
            "already covered the whole circle within max_len, so its new angles fall among those it took in training (between them, not beyond them)",
        ],
    );
    assert_never_says(&text, &["only repeats"]);
}

/// M5: Wang et al. (2024) tie NoPE's limit to distracted attention and fix it with per-head
/// temperatures; the 1/(i + 1) story is this book's, labelled as such.
#[test]
fn regression_m5_wang_et_al_are_credited_with_their_own_explanation() {
    let t = claims::NOPE_EXTRAPOLATES;
    let wang = t.find("Wang et al.").unwrap();
    let guess = t.find("This book adds a guess").unwrap();
    let signal = t.find("1/(i + 1)").unwrap();
    assert!(wang < guess && guess < signal, "{t}");
    assert_says(t, &["distracted attention", "softmax temperature per head"]);
    assert_never_says(t, &["(Wang et al. 2024):"]);
}

/// The second chapter-4 read, M2: the NoPE plot's top was fixed at 10^0.15, so a first query's
/// mean square above ≈ 1.41 (`?t.nd=8&t.seed=0`: 1.74; `?t.nd=1&t.seed=3`: 3.53) was drawn on
/// the frame, at the wrong height. Every simulated value now lies inside the plot.
#[test]
fn regression_r2_m2_the_nope_plot_holds_every_simulated_value() {
    use pe_explorer::chart::theme::Theme;
    use pe_explorer::math::nope;
    use pe_explorer::scene::tables::nope_spec;
    let mut above = 0;
    for (seed, d) in [(0, 8), (3, 1), (1, 64), (2, 1), (5, 2)] {
        let mut variance = Vec::new();
        nope::output_variance_into(seed, 256, d, &mut variance);
        let (spec, _) = nope_spec(&variance, d, None, Theme::LIGHT);
        let top = variance
            .iter()
            .filter(|v| **v > 0.0)
            .map(|v| v.log10())
            .fold(f64::MIN, f64::max);
        above += usize::from(top > 0.15);
        assert!(
            spec.y_range.end > top,
            "seed {seed}, d = {d}: top {} under {top}",
            spec.y_range.end
        );
    }
    assert!(above >= 2, "the settings the read named exceed the old top");
}

/// The second chapter-4 read, U4: Transformer-XL's finding wrote negatives with an ASCII hyphen
/// while the same figure's readout writes "−".
#[test]
fn regression_r2_u4_the_transformer_xl_finding_writes_a_real_minus() {
    use pe_explorer::explain::tables::TxlFinding;
    use pe_explorer::math::{attention, txl};
    use pe_explorer::params::tables::TxlTerm;
    let tokens = attention::tokenize("The dog saw the dog");
    let mut negatives = 0;
    for seed in 0..16 {
        let terms = txl::terms(&tokens, seed);
        for term in TxlTerm::ALL {
            let text = TxlFinding {
                tokens: &tokens,
                terms: &terms,
                term,
            }
            .to_string();
            let ascii = text
                .as_bytes()
                .windows(2)
                .any(|w| w[0] == b'-' && w[1].is_ascii_digit());
            assert!(!ascii, "seed {seed}, {term:?}: {text}");
            negatives += usize::from(text.contains('−'));
        }
    }
    assert!(negatives > 0, "some finding states a negative value");
}
