//! Unit tests of each method's frequencies: closed forms, values worked by hand, edge settings
//! (d = 2, equal Llama 3 factors), names. The numbers from transformers are checked in
//! tests/reference.rs.

use super::*;

fn cfg(rope_type: RopeType, factor: f64) -> RopeScaling {
    RopeScaling {
        rope_type,
        factor,
        ..RopeScaling::default()
    }
}

#[test]
fn ntk_interpolates_the_lowest_frequency_by_exactly_s() {
    // base' = base·s^(d/(d−2)) makes θ'_{d/2−1} = base'^(−(d−2)/d) = θ_{d/2−1}/s.
    let (plain, _) = cfg(RopeType::Default, 1.0).compute();
    let (ntk, _) = cfg(RopeType::Ntk, 8.0).compute();
    let last = plain.len() - 1;
    assert!((ntk[last] - plain[last] / 8.0).abs() < 1e-15);
    assert_eq!(ntk[0], 1.0);
}

#[test]
fn dynamic_changes_nothing_inside_the_trained_context() {
    let mut c = cfg(RopeType::Dynamic, 4.0);
    c.seq_len = 1000;
    assert_eq!(c.compute().0, cfg(RopeType::Default, 1.0).compute().0);
    c.seq_len = 4 * 4096;
    assert!(c.compute().0[10] < cfg(RopeType::Default, 1.0).compute().0[10]);
}

#[test]
fn yarn_keeps_fast_dims_and_interpolates_slow_ones() {
    // d = 128, base 10000, L₀ = 4096: low = ⌊dim(32)⌋, high = ⌈dim(1)⌉ with
    // dim(r) = 128·ln(4096/(2π·r))/(2·ln 10000) (= 20.94 and 45.03, so 20 and 46).
    let c = cfg(RopeType::Yarn, 4.0);
    let (low, high) = yarn_correction_range(&c);
    let by_hand = |r: f64| 128.0 * (4096.0 / (2.0 * PI * r)).ln() / (2.0 * 10_000f64.ln());
    assert_eq!(low, by_hand(32.0).floor());
    assert_eq!(high, by_hand(1.0).ceil());
    let (f, attn) = c.compute();
    let (plain, _) = cfg(RopeType::Default, 1.0).compute();
    assert_eq!(f[0], plain[0]);
    assert!((f[63] - plain[63] / 4.0).abs() < 1e-18);
    assert!((attn - (0.1 * 4f64.ln() + 1.0)).abs() < 1e-15);
}

#[test]
fn yarn_spot_value_by_hand() {
    // Same setting: (low, high) = (20, 46). Pair 30 has ramp (30 − 20)/(46 − 20) = 5/13, so
    // inv_freq = θ₃₀·(ramp/4 + 1 − ramp) = θ₃₀·0.7115384615…, θ₃₀ = 10000^(−60/128)
    // = 0.0133352143…: 0.0094885178827 (by hand, to 11 digits).
    let c = cfg(RopeType::Yarn, 4.0);
    assert_eq!(yarn_correction_range(&c), (20.0, 46.0));
    let (f, _) = c.compute();
    assert!((f[30] - 0.009_488_517_882_7).abs() < 1e-13, "{}", f[30]);
    // Outside the ramp: pair 20 keeps θ (ramp 0), pair 46 and beyond are θ/4 (ramp 1).
    let plain = inv_freq(128, 10_000.0);
    assert_eq!(f[20], plain[20]);
    assert!((f[46] - plain[46] / 4.0).abs() < 1e-18);
    // No scaling, no attention change.
    assert_eq!(yarn_mscale(1.0), 1.0);
    assert_eq!(yarn_mscale(0.5), 1.0);
}

#[test]
fn llama3_spot_value_by_hand() {
    // Llama 3.1: d = 128, base 500000, s = 8, L₀ = 8192, factors 1 and 4. Pair 32 has
    // θ = 500000^(−1/2) = 0.00141421356…, wavelength 2π/θ = 4442.88 (between 2048 and 8192),
    // smooth = (8192/4442.88 − 1)/3 = 0.2812826…, so inv_freq = θ·((1 − smooth)/8 + smooth)
    // = θ·0.3711222795 = 0.000524846160993 (by hand).
    let c = RopeScaling {
        rope_type: RopeType::Llama3,
        base: 500_000.0,
        factor: 8.0,
        original_max: 8192,
        ..RopeScaling::default()
    };
    let (f, attn) = c.compute();
    assert!((f[32] - 0.000_524_846_160_993).abs() < 1e-15, "{}", f[32]);
    assert_eq!(attn, 1.0);
}

#[test]
fn llama3_with_equal_factors_stays_finite() {
    let mut c = cfg(RopeType::Llama3, 8.0);
    c.low_freq_factor = 2.0;
    c.high_freq_factor = 2.0;
    assert!(c.compute().0.iter().all(|v| v.is_finite() && *v > 0.0));
}

#[test]
fn every_type_at_d_2_is_finite() {
    for t in RopeType::ALL {
        let c = RopeScaling {
            rope_type: t,
            dim: 2,
            factor: 64.0,
            seq_len: 1 << 24,
            ..RopeScaling::default()
        };
        let (f, attn) = c.compute();
        assert_eq!(f.len(), 1);
        assert!(f[0].is_finite() && f[0] > 0.0 && attn.is_finite(), "{t:?}");
    }
}

#[test]
fn llama3_matches_its_three_bands() {
    let mut c = cfg(RopeType::Llama3, 8.0);
    c.original_max = 8192;
    c.base = 500_000.0;
    let (f, _) = c.compute();
    let plain = inv_freq(128, 500_000.0);
    for (i, (&got, &t)) in f.iter().zip(&plain).enumerate() {
        let wavelen = 2.0 * PI / t;
        if wavelen < 8192.0 / 4.0 {
            assert_eq!(got, t, "high frequency {i} kept");
        } else if wavelen > 8192.0 {
            assert_eq!(got, t / 8.0, "low frequency {i} divided");
        } else {
            assert!(got < t && got > t / 8.0, "medium {i} blended");
        }
    }
}

#[test]
fn names_round_trip() {
    for t in RopeType::ALL {
        assert_eq!(RopeType::parse(t.as_str()), Some(t));
    }
    assert_eq!(RopeType::parse("longrope"), Some(RopeType::Longrope));
    assert_eq!(
        RopeType::parse("su"),
        None,
        "the legacy alias is the config parser's"
    );
    assert_eq!(RopeType::Longrope.label(), "LongRoPE");
    assert_eq!(RopeType::ALL[0].label(), "none (plain RoPE)");
}

#[test]
fn yarn_mscale_pair_sets_the_attention_factor() {
    // DeepSeek-V2: mscale = mscale_all_dim = 0.707, s = 40: the ratio is exactly 1.
    let mut c = cfg(RopeType::Yarn, 40.0);
    c.mscale = Some(0.707);
    c.mscale_all_dim = Some(0.707);
    assert_eq!(c.compute().1, 1.0);
    // mscale 1 with mscale_all_dim 0.707 (a made-up pair): (0.1·ln 40 + 1)/(0.0707·ln 40 + 1)
    // = 1.3688879/1.2608040 = 1.0857264 (by hand).
    c.mscale = Some(1.0);
    assert!(
        (c.compute().1 - 1.085_726_4).abs() < 1e-7,
        "{}",
        c.compute().1
    );
    // A zero in the pair falls back to get_mscale(s); an explicit attention_factor wins.
    c.mscale_all_dim = Some(0.0);
    assert_eq!(c.compute().1, yarn_mscale(40.0));
    c.attention_factor = Some(0.5);
    assert_eq!(c.compute().1, 0.5);
}

#[test]
fn yarn_without_truncation_keeps_the_fractional_range() {
    // Same setting as above: dim(32) = 20.94…, dim(1) = 45.03… unrounded.
    let mut c = cfg(RopeType::Yarn, 4.0);
    c.truncate = false;
    let (low, high) = yarn_correction_range(&c);
    assert!(
        (low - 20.94).abs() < 0.01 && (high - 45.03).abs() < 0.01,
        "{low} {high}"
    );
    // Pair 21 sits just past low: ramp (21 − low)/(high − low) ≈ 0.0024, almost θ.
    let f = c.compute().0;
    let plain = inv_freq(128, 10_000.0);
    let ramp = (21.0 - low) / (high - low);
    assert!((f[21] - plain[21] * (ramp / 4.0 + 1.0 - ramp)).abs() < 1e-18);
}

#[test]
fn longrope_picks_short_or_long_factors_by_sequence_length() {
    // d = 8 (4 pairs), base 100: θ = 1, 0.316…, 0.1, 0.0316…
    let c = RopeScaling {
        rope_type: RopeType::Longrope,
        dim: 8,
        base: 100.0,
        factor: 32.0,
        original_max: 4096,
        seq_len: 4096,
        short_factor: vec![1.0, 2.0, 4.0, 8.0],
        long_factor: vec![1.0, 10.0, 20.0, 40.0],
        ..RopeScaling::default()
    };
    let plain = inv_freq(8, 100.0);
    let (f, attn) = c.compute();
    assert_eq!(f[2], plain[2] / 4.0, "short factors up to L₀");
    // sqrt(1 + ln 32/ln 4096) = sqrt(1 + 5/12) = sqrt(17/12).
    assert!((attn - (17.0f64 / 12.0).sqrt()).abs() < 1e-15);
    let long = RopeScaling {
        seq_len: 4097,
        ..c.clone()
    };
    assert_eq!(
        long.compute().0[3],
        plain[3] / 40.0,
        "long factors beyond L₀"
    );
    assert_eq!(long.scale_per_pair(), vec![1.0, 10.0, 20.0, 40.0]);
    // Empty lists are all ones; factor ≤ 1 gives attention 1; an explicit one wins.
    let plainish = RopeScaling {
        short_factor: Vec::new(),
        factor: 1.0,
        ..c.clone()
    };
    assert_eq!(plainish.compute(), (plain.clone(), 1.0));
    let explicit = RopeScaling {
        attention_factor: Some(1.25),
        ..c
    };
    assert_eq!(explicit.compute().1, 1.25);
}

#[test]
fn scale_per_pair_is_one_for_plain_and_s_for_linear() {
    assert!(
        cfg(RopeType::Default, 1.0)
            .scale_per_pair()
            .iter()
            .all(|&r| r == 1.0)
    );
    let r = cfg(RopeType::Linear, 8.0).scale_per_pair();
    assert!(r.iter().all(|&x| (x - 8.0).abs() < 1e-12), "{r:?}");
    // YaRN: 1 for the fast pairs (below low = 20), s for the slow ones (from high = 46).
    let y = cfg(RopeType::Yarn, 4.0).scale_per_pair();
    assert_eq!(y[0], 1.0);
    assert!((y[63] - 4.0).abs() < 1e-12);
}
