//! ALiBi: the slopes' findings and readouts for every head count, and the local and global heads
//! read off the softmax weights.

use pe_explorer::explain::tables::{self as claims, HeadRanges, SlopeReadout, SlopesFinding};
use pe_explorer::math::alibi;
use pe_explorer::params::tables as ptab;
use proptest::prelude::*;

use super::says::{assert_never_says, assert_opens, assert_says};
use super::view;

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, ..ProptestConfig::default() })]

    #[test]
    fn alibi_ranges_match_the_softmax(heads in ptab::HEADS.0..=ptab::HEADS.1, n in ptab::ALIBI_LEN.0..=ptab::ALIBI_LEN.1, causal in any::<bool>()) {
        check_ranges(heads, n, causal);
    }

    #[test]
    fn alibi_ranges_with_the_readers_slope(heads in ptab::HEADS.0..=ptab::HEADS.1, head in 1usize..=64, log2 in -16.0f64..=2.0, n in ptab::ALIBI_LEN.0..=ptab::ALIBI_LEN.1, causal in any::<bool>()) {
        let slopes = ptab::with_slope(alibi::slopes(heads), ptab::head_in_range(head, heads), Some(2f64.powf(log2)));
        check_ranges_of(&slopes, n, causal);
    }
}

fn check_ranges(heads: usize, n: usize, causal: bool) {
    check_ranges_of(&alibi::slopes(heads), n, causal);
}

/// "1 position", "2 positions".
fn positions(k: usize) -> String {
    format!("{k} position{}", if k == 1 { "" } else { "s" })
}

/// The weight a key `distance` positions back gets relative to the query's own key, read off a
/// causal softmax over `distance + 1` keys with equal content scores.
fn relative_weight(m: f64, distance: usize) -> f64 {
    let mut w = Vec::new();
    alibi::attention_row_into(m, distance, distance + 1, true, &mut w);
    w[0] / w[distance]
}

/// The local/global finding for the slopes in use, each count read off the softmax weights.
fn check_ranges_of(slopes: &[f64], n: usize, causal: bool) -> String {
    let heads = slopes.len();
    let q = if causal { n - 1 } else { n / 2 };
    let claim = claims::head_ranges(slopes, n, q);
    let visible: Vec<usize> = (0..n).filter(|&j| !causal || j <= q).collect();
    let reach = visible.iter().map(|&j| q.abs_diff(j)).max().unwrap();
    // Locality is judged at 4 positions, or at the farthest key when none is 4 away.
    let near = reach.min(4);
    let mut w = Vec::new();
    let (mut local, mut global) = (0, 0);
    for &m in slopes {
        alibi::attention_row_into(m, q, n, causal, &mut w);
        let own = w[q];
        // Global: every visible key gets more than half the query's own weight.
        if visible.iter().all(|&j| w[j] > 0.5 * own) {
            global += 1;
        }
        // Local: the key `near` positions back gets less than half (q ≥ near always).
        if w[q - near] < 0.5 * own {
            local += 1;
        }
    }
    assert!(local + global <= heads, "a head both local and global");
    assert_eq!(claim.reach, reach);
    assert_eq!(
        (claim.local, claim.global),
        (local, global),
        "{heads} heads, n {n}, causal {causal}"
    );
    let text = claim.to_string();
    let verb = |k: usize| if k == 1 { "gives" } else { "give" };
    let near_text = if near == 4 {
        "a key 4 positions away less than half".to_string()
    } else {
        format!(
            "the farthest key this query sees, {} away (none is 4 away), less than half",
            positions(near)
        )
    };
    assert_says(
        &text,
        &[
            &format!("{local} {} {near_text}", verb(local)),
            &format!(
                "{global} {} every key this query sees, up to {} away",
                verb(global),
                positions(reach)
            ),
        ],
    );
    let rest = heads - local - global;
    let lie = if rest == 1 { "lies" } else { "lie" };
    assert_says(&text, &[&format!("and {rest} {lie} between.")]);
    // The far key: the flattest slope in use, its bias m·4000 and the weight e^(−m·4000) to 2
    // significant digits, from a softmax over 4001 keys.
    let m = slopes.iter().copied().fold(f64::INFINITY, f64::min);
    let factor = relative_weight(m, 4000);
    let number_after = |marker: &str| -> f64 {
        text.split(marker)
            .nth(1)
            .and_then(|t| t.split([' ', ':']).next())
            .unwrap()
            .parse()
            .unwrap()
    };
    let shown = number_after("e^(−m·4000) ≈ ");
    assert!(
        (shown - factor).abs() <= 0.05 * factor,
        "{shown} vs {factor}"
    );
    let bias = number_after("m·4000 = ");
    assert!(
        (bias - 4000.0 * m).abs() <= 1e-3 * 4000.0 * m,
        "{bias} vs m = {m}"
    );
    let margin = number_after("beats the own key's by more than ");
    assert_eq!(margin, bias);
    // Only a negligible weight is called invisible.
    let verdict = if factor < 0.01 {
        "of the weight of the query's own key, all but invisible."
    } else if factor < 0.5 {
        "of the weight of the query's own key, damped, not hidden."
    } else {
        "of the weight of the query's own key, more than half"
    };
    assert!(text.contains(verdict), "{factor}: {text}");
    assert_eq!(text.contains("invisible"), factor < 0.01, "{text}");
    assert_never_says(&text, &["whatever their content"]);
    text
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
            assert_opens(&text, "1 head: its slope is 2^−8");
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
                assert_says(&text, &[&format!("head {} between heads 1 and 2", p + 2)]);
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
    assert_says(
        &default,
        &[
            "slope 1 of the 16-head sequence",
            "the paper's general rule, 2^(−8·9/12), would give 2^−6.000 ≈ 0.01562",
        ],
    );
    let finding = SlopesFinding {
        heads: 12,
        overridden: Some(9),
    }
    .to_string();
    assert_says(
        &finding,
        &[
            "heads 9 … 12 take slopes 1, 3, …, 7 of the 16-head sequence",
            "Head 9's slope is steeper than every slope of heads 1 … 8",
        ],
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
    assert_says(&finding, &["2^(8/8) ≈ 2 from head to head"]);
}

#[test]
fn regression_alibi_attention_defaults() {
    let v = view("");
    let text = claims::head_ranges(&v.slopes(), 64, 63).to_string();
    // 8 heads, n = 64: ln 2/m = 1.39, 2.77 < 4 (local); 88.7, 177 > 63 (global).
    assert_opens(
        &text,
        "With 8 heads and n = 64: 2 give a key 4 positions away less than half the weight of the query's own key (local); 2 give every key this query sees, up to 63 positions away, more than half the weight of its own key (global); and 4 lie between.",
    );
    assert_says(&text, &["e^(−m·4000) ≈ 1.6e-7"]);
}

#[test]
fn regression_causal_off_notes() {
    let v = view("t.causal=0");
    assert!(!v.causal);
    assert!(claims::alibi_mask_note(v.causal).contains("not in the paper"));
    assert!(claims::alibi_mask_note(true).is_empty());
    let bias: Vec<f64> = (0..=37).map(|j| -0.5 * (37 - j) as f64).collect();
    let same = claims::same_finding((37, 64), &[0.0; 64], None, &[10.0, 1.0], &bias, v.causal);
    assert_says(
        &same,
        &[
            "lowers the score of the key 37 positions back by 18.50",
            "as a decoder sees them",
        ],
    );
    assert!(
        !claims::same_finding((37, 64), &[0.0; 64], None, &[10.0, 1.0], &bias, true)
            .contains("decoder")
    );
}

// ------------------------------------------------------------------ the second review's links

/// The ranges finding the page shows for a link (the attention figure's query: the last one,
/// causal, else the middle one).
fn ranges_text(query: &str) -> String {
    let v = view(query);
    check_ranges_of(&v.slopes(), v.alibi_len, v.causal)
}

/// W1: with the reader's slope m = 10⁻⁴ (or 2⁻¹⁶) the flattest head keeps e^(−0.4) ≈ 0.67 (0.94)
/// of the weight 4000 positions back; the page no longer calls that invisible.
#[test]
fn regression_w1_flattest_head_with_the_readers_slope_is_not_invisible() {
    for (query, weight) in [("t.m=0.0001", "0.67"), ("t.m=0.0000153", "0.94")] {
        let v = view(query);
        let m = v.slopes().iter().copied().fold(f64::INFINITY, f64::min);
        assert_eq!(
            Some(m),
            v.slope,
            "{query}: the override is the flattest slope"
        );
        let factor = relative_weight(m, 4000);
        assert_eq!(format!("{factor:.2}"), weight, "{query}");
        let text = ranges_text(query);
        assert!(
            text.contains(&format!(
                "e^(−m·4000) ≈ {weight} of the weight of the query's own key, more than half: at \
                 this slope even that key stays in view"
            )),
            "{text}"
        );
        assert_never_says(&text, &["invisible"]);
    }
    // The defaults: m = 1/256, a bias of 15.6 and a weight of e^(−15.625) ≈ 1.6e-7.
    let text = ranges_text("");
    assert!(relative_weight(1.0 / 256.0, 4000) < 1.7e-7);
    assert!(
        text.contains(
            "e^(−m·4000) ≈ 1.6e-7 of the weight of the query's own key, all but invisible"
        ),
        "{text}"
    );
    // A slope whose far key is damped but visible: m = 2^−10, e^(−3.9) ≈ 0.02.
    let text = ranges_text("t.head=8&t.m=0.0009765625");
    assert_says(
        &text,
        &["≈ 0.020 of the weight of the query's own key, damped, not hidden"],
    );
}

/// W2: with n = 2 or 3 the query sees no key 4 positions away; the local count is judged at the
/// farthest key it sees, and "1 position" is singular.
#[test]
fn regression_w2_short_sequences_judge_locality_at_the_farthest_key() {
    // n = 2: one key 1 back; every head gives it more than e^(−1/2) ≈ 0.61 of the own weight.
    let text = ranges_text("t.an=2");
    assert!(relative_weight(0.5, 1) > 0.5);
    assert_opens(
        &text,
        "With 8 heads and n = 2: 0 give the farthest key this query sees, 1 position away \
             (none is 4 away), less than half the weight of the query's own key (local); 8 give \
             every key this query sees, up to 1 position away",
    );
    // n = 3, causal: the key 2 back gets e^(−1) ≈ 0.37 from head 1 (local), e^(−0.5) ≈ 0.61 from
    // head 2 (global).
    assert!(relative_weight(0.5, 2) < 0.5 && relative_weight(0.25, 2) > 0.5);
    let text = ranges_text("t.an=3");
    assert_opens(
        &text,
        "With 8 heads and n = 3: 1 gives the farthest key this query sees, 2 positions away \
             (none is 4 away), less than half the weight of the query's own key (local); 7 give \
             every key this query sees, up to 2 positions away",
    );
    // n = 3, no mask: the middle query sees keys 1 away on both sides.
    let text = ranges_text("t.an=3&t.causal=0");
    assert_says(
        &text,
        &[
            "0 give the farthest key this query sees, 1 position away",
            "up to 1 position away",
        ],
    );
    // n = 5: a key 4 back exists again; heads 1 and 2 halve within 4 (ln 2/m = 1.39, 2.77).
    let text = ranges_text("t.an=5");
    assert_opens(
        &text,
        "With 8 heads and n = 5: 2 give a key 4 positions away",
    );
}

/// M1: the half-weight distances grow by 2^(8/H) per head, not by 2 unless H = 8.
#[test]
fn regression_m1_the_ladder_factor_is_2_to_the_8_over_h() {
    let ratio = |heads: usize| {
        let s = alibi::slopes(heads);
        alibi::half_weight_distance(s[1]) / alibi::half_weight_distance(s[0])
    };
    assert!((ratio(4) - 4.0).abs() < 1e-12);
    assert!((ratio(8) - 2.0).abs() < 1e-12);
    assert!((ratio(16) - 1.414).abs() < 5e-4);
    let text = claims::slope_ladder();
    assert!(
        text.contains(
            "2^(8/H) times the previous one's: 4 for 4 heads, 2 for 8, 1.414 (√2) for 16."
        ),
        "{text}"
    );
    assert_never_says(&text, &["twice the previous"]);
    // The slopes figure at ?t.h=16 prints the same factor.
    let v = view("t.h=16");
    let finding = SlopesFinding {
        heads: v.heads,
        overridden: None,
    }
    .to_string();
    assert_says(&finding, &["2^(8/16) ≈ 1.414"]);
}

/// M3/M4/X2: App. B is the authors' hypothesis, and the bias competes with the content score:
/// BLOOM's flattest slope (1/256, of its 112 heads) over its 2048-token context gives −8, which a
/// content margin of 8 offsets.
#[test]
fn regression_m3_m4_app_b_is_a_hypothesis_and_content_can_outweigh_the_bias() {
    let bloom = alibi::slopes(112);
    let flattest = bloom.iter().copied().fold(f64::INFINITY, f64::min);
    assert!((flattest - 1.0 / 256.0).abs() < 1e-15, "{flattest}");
    let bias = flattest * 2048.0;
    assert!((bias - 8.0).abs() < 1e-12, "{bias}");
    let factor = relative_weight(flattest, 2048);
    assert!((factor - (-8f64).exp()).abs() < 1e-12 && format!("{factor:.4}") == "0.0003");
    // Two keys, own score 0 and far score c − 8: the far one wins once c > 8.
    let far_share = |c: f64| 1.0 / (1.0 + (-(c - bias)).exp());
    assert!(far_share(7.9) < 0.5 && far_share(8.1) > 0.5);
    let t = claims::BIAS_AGAINST_CONTENT;
    assert!(
        t.contains("m = 1/256") && t.contains("2048 positions back"),
        "{t}"
    );
    assert_says(
        t,
        &[
            "by 8: at equal content a factor e⁻⁸ ≈ 0.0003",
            "a content margin of 8 makes up",
        ],
    );
    for t in [
        claims::BIAS_AGAINST_CONTENT,
        claims::APP_B,
        claims::ALIBI_EXTRAPOLATES,
    ] {
        assert!(
            !t.contains("cannot retrieve") && !t.contains("cannot be retrieved"),
            "{t}"
        );
        assert_never_says(t, &["finds"]);
    }
    assert!(claims::APP_B.contains("Press et al. hypothesise"));
    assert!(claims::APP_B.contains("might not be using contexts longer"));
    assert!(claims::ALIBI_EXTRAPOLATES.contains("the authors hypothesise"));
    assert!(claims::ALIBI_EXTRAPOLATES.contains("a strong enough content match still wins"));
}

/// A finding with no heads still prints (no slope: no far-key sentence).
#[test]
fn empty_ranges_print() {
    let text = HeadRanges {
        heads: 0,
        n: 0,
        reach: 0,
        near: 0,
        local: 0,
        global: 0,
        flattest: f64::NAN,
    }
    .to_string();
    assert_never_says(&text, &["flattest"]);
}
