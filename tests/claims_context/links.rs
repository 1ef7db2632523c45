//! One regression test per reproducing link of the chapter-3 reviews (and the default view's
//! numbers), each read by the chapter's own query parser.

use super::*;

#[test]
fn default_view_yarn_ramp_is_20_to_46() {
    // Review, "checked and correct": default YaRN range (20, 46).
    let v = view("");
    let text = bands_text(&v, None);
    assert_says(
        &text,
        &[
            "floored and ceiled to 20 and 46 (truncate)",
            "keeps 21 pairs as trained (0 … 20)",
            "divides 18 pairs by exactly s = 4 (46 … 63)",
        ],
    );
    assert!(!text.contains("clamped"), "nothing is clamped: {text}");
}

#[test]
fn w1a_yarn_base_2_divides_every_pair() {
    // Review W1(a): low = 278, high = min(598, 127) = 127: inverted, every pair divided by 4.
    let v = view("?c.type=yarn&c.base=2");
    let text = bands_text(&v, None);
    assert_says(
        &text,
        &[
            "giving 278 and 127",
            "inverted (278 > 127: the clamp moved an end)",
            "divides every frequency by s = 4: all 64 pairs",
        ],
    );
    assert_never_says(&text, &["leaves the fast end alone"]);
}

#[test]
fn w1b_yarn_short_context_stretches_no_pair() {
    // Review W1(b): range (0, −1): no pair stretched.
    let v = view("?c.type=yarn&c.L=16&c.bs=3");
    let text = bands_text(&v, None);
    assert_says(
        &text,
        &[
            "giving 0 and -1",
            "inverted",
            "changes no frequency: all 64 pairs keep θ",
        ],
    );
}

#[test]
fn w1c_llama3_high_factors_divide_every_pair() {
    let v = view("?c.type=llama3&c.lo=999&c.hi=1000");
    let text = bands_text(&v, None);
    assert_says(&text, &["divides every frequency by s = 4: all 64 pairs"]);
}

#[test]
fn w1d_llama3_tiny_factors_keep_every_pair() {
    let v = view("?c.type=llama3&c.lo=0.001&c.hi=0.002");
    let text = bands_text(&v, None);
    assert_says(&text, &["changes no frequency: all 64 pairs keep θ"]);
}

#[test]
fn w2_yarn_high_end_past_the_last_pair() {
    // Review W2(a): high = 65 > 63, nothing clamps it; pair 63 is slowed 3.23× instead of 4×.
    let v = view("?c.type=yarn&c.L=65536&c.T=262144");
    let ramp = yarn_ramp(&v);
    assert_eq!(ramp.ends.1, 65.0);
    let text = bands_text(&v, None);
    assert_says(
        &text,
        &[
            "1 (θ divided by s) from index 65",
            "past the last pair, 63, so no pair is fully divided",
        ],
    );
    assert_never_says(&text, &["divides "]);
    let k = slowdowns(&v, RopeType::Yarn);
    assert!((k[63] - 3.23).abs() < 0.005, "{}", k[63]);
}

#[test]
fn ml3_dynamic_curve_flat_across_the_axis() {
    // L₀ = 1M past the axis end 2·max(T, len) = 32768: the curve drawn is flat throughout.
    let v = view("?c.type=dynamic&c.L=1048576&c.T=16384");
    let text = dynamic_curve_text(&v, 32_768);
    assert_says(&text, &["across the whole axis (up to 32k)"]);
    assert_never_says(&text, &["rising"]);
}

#[test]
fn ms2_ntk_default_leaves_17_pairs_past_their_arc() {
    // Review MS2: at the defaults NTK leaves 17 of the 18 slow pairs past their trained arc,
    // against 0 for linear.
    let v = view("?c.type=ntk");
    let text = bands_text(&v, None);
    assert_says(&text, &["fastest of the 18 that turn less than once"]);
    assert!(
        text.contains(
            "still takes 17 pairs past their trained arc, against 0 after linear interpolation"
        ),
        "{text}"
    );
    assert_says(&text, &["YaRN §3.1"]);
}

#[test]
fn u4_dynamic_head_dim_2_says_transformers_divides_by_zero() {
    // Review U4: base 130 000 at L = 16384 = 10000·(4·16384/4096 − 3) with exponent 1.
    let v = view("?c.type=dynamic&c.d=2&c.len=16384");
    assert_eq!(
        sig(dynamic_base(v.base, v.dim, v.factor, v.original, v.len)),
        "130000"
    );
    assert!(dynamic_d2_note(v.dim).contains("divides by zero"));
    assert!(bands_text(&v, None).contains("transformers divides by zero"));
}

#[test]
fn ml1_dynamic_runtime_keeps_the_grown_base() {
    // Review ML1: L₀ = 4096, s = 4, d = 128: after a 16384-token call the base is 135 402 and
    // a call of exactly 4096 tokens keeps it, not the trained 10000.
    let v = view("?c.type=dynamic");
    let text = dynamic_runtime(&v).expect("T > L₀").to_string();
    assert_says(
        &text,
        &[
            "after a 16384-token call (base 135402)",
            "exactly L₀ = 4096 tokens (base 135402, not the trained 10000)",
        ],
    );
}

#[test]
fn w3_qwen_preset_source_is_one_address() {
    let v = view("?c.model=qwen2.5-7b-yarn");
    let p = find(v.model.expect("the preset")).unwrap();
    assert_eq!(
        p.url(),
        Some("https://huggingface.co/Qwen/Qwen2.5-7B-Instruct")
    );
}

#[test]
fn inverted_betas_stretch_the_fast_end() {
    // β_fast = 1 < β_slow = 32: ends 45 and 21 (dim(1) = 45.03 floored, dim(32) = 20.94 ceiled).
    let v = view("?c.type=yarn&c.bf=1&c.bs=32");
    let text = bands_text(&v, None);
    assert_says(
        &text,
        &[
            "inverted (45 > 21: β_fast is below β_slow)",
            "divides 22 pairs by exactly s = 4 (0 … 21)",
            "stretches the fast end and leaves the slow end alone",
        ],
    );
}

// ------------------------------------------- the fresh chapter-3 review (docs/reviews/chapter-3.md)

#[test]
fn c3_w1_reach_cites_yarn_3_2_and_pi_2_2() {
    // W1: PI §2.3 is the interpolation bound and YaRN §3.1 is NTK-aware; the per-pair arc
    // argument is YaRN §3.2 (NTK-by-parts), and PI's extrapolation failure is §2.2.
    let doc = include_str!("../../src/math/rope_extension.rs");
    assert!(doc.contains("§3.2 \"NTK-by-parts\""), "YaRN §3.2 cited");
    assert!(
        doc.contains("§2.2 \"Direct extrapolation\""),
        "PI §2.2 cited"
    );
    assert!(!doc.contains("§2.3; Peng et al. 2023, YaRN §3.1"));
}

#[test]
fn c3_w2_the_rope_dicts_partial_rotary_factor_wins() {
    // W2: both values given; transformers 5.24 keeps the dict's (setdefault): 128 · 0.25 = 32.
    let m = parse_config(
        r#"{"hidden_size":4096,"num_attention_heads":32,"partial_rotary_factor":0.5,"rope_parameters":{"rope_type":"default","rope_theta":10000,"partial_rotary_factor":0.25}}"#,
    )
    .unwrap();
    let head = 4096 / 32;
    assert_eq!(m.head_dim, head);
    assert_eq!(m.scaling.dim, (head as f64 * 0.25) as usize);
    assert!(
        m.warnings.iter().any(|w| w.contains("is not used")),
        "{:?}",
        m.warnings
    );
    // So the page's claims about reading configs as transformers 5 does hold for it.
    assert!(PASTE_VERSIONS.starts_with("It is read as transformers 5 reads it"));
    assert!(NUMBERS_SOURCE.contains("with three exceptions"));
}

#[test]
fn c3_ml1_yarn_scaled_from_max_position_embeddings_since_4_43() {
    // ML1: _compute_yarn_parameters read config.max_position_embeddings from 4.43 on; what
    // changed at 4.45 is that Qwen2 started reading rope_scaling.
    assert!(
        PASTE_VERSIONS.contains(
            "From 4.43, when YaRN joined modeling_rope_utils, to 4.50, YaRN ignores original_max_position_embeddings"
        ),
        "{PASTE_VERSIONS}"
    );
    assert!(PASTE_VERSIONS.contains("Qwen2 models read rope_scaling only from 4.45"));
    assert!(PASTE_VERSIONS.contains("4.43 also rejects a factor that is not written as a float"));
    assert!(!PASTE_VERSIONS.contains("From 4.45 to 4.50"));
}

#[test]
fn c3_u1_dynamic_target_inside_l0_uses_l0() {
    // U1: T = 2048 < L₀ = 4096: L = max(T, L₀) = L₀, the trained base, not "L = T".
    let v = view("?c.type=dynamic&c.T=2048");
    let text = bands_text(&v, None);
    assert_never_says(&text, &["L = T"]);
    assert!(
        text.contains(
            "Here T = 2048 is at most L₀ = 4096, so L = L₀: the trained base 10000, no pair slowed."
        ),
        "{text}"
    );
    assert_eq!(
        dynamic_base(v.base, v.dim, v.factor, v.original, v.target),
        v.base
    );
}

#[test]
fn c3_u2_ntk_head_dim_2_does_not_blame_transformers() {
    // U2: transformers has no NTK-aware type; only its dynamic type divides by zero at d = 2.
    let ntk = bands_text(&view("?c.type=ntk&c.d=2"), None);
    assert_never_says(&ntk, &["transformers"]);
    assert_says(
        &ntk,
        &[
            "(Its exponent d/(d − 2), in bloc97's formula, is undefined at d = 2; this page takes it as 1.)",
        ],
    );
    let dynamic = bands_text(&view("?c.type=dynamic&c.d=2"), None);
    assert_says(&dynamic, &["transformers divides by zero"]);
}

#[test]
fn c3_u3_a_single_pair_is_not_the_fast_ones() {
    // U3: d = 2, one pair: no "fast ones too".
    for query in ["?c.type=linear&c.d=2", "?c.type=longrope&c.d=2"] {
        let v = view(query);
        let text = bands_text(&v, None);
        assert!(!text.contains("the fast ones too"), "{query}: {text}");
        assert!(
            text.contains(
                "divides every frequency by s = 4: its only pair rotates s times slower."
            ),
            "{query}: {text}"
        );
        assert!((slowdowns(&v, v.rope_type)[0] - 4.0).abs() < 1e-12);
    }
}

#[test]
fn c3_u4_s_equal_1_linear_and_ntk_do_not_contradict() {
    // U4: at s = 1 nothing changes: no "changes every input", no "the full s = 1".
    let linear = bands_text(&view("?c.type=linear&c.s=1"), None);
    assert_never_says(&linear, &["changes every input"]);
    assert_says(
        &linear,
        &[
            "at s = 1 that leaves every frequency as trained",
            "changes no frequency",
        ],
    );
    let ntk = bands_text(&view("?c.type=ntk&c.s=1"), None);
    assert_never_says(&ntk, &["the full s = 1"]);
    assert_says(
        &ntk,
        &["at s = 1 that is the trained base", "changes no frequency"],
    );
}

#[test]
fn c3_u5_the_synthetic_presets_lists_are_not_a_models_own() {
    // U5: the synthetic preset's lists fit head_dim 96, but they are not a real model's.
    let v = view("?c.model=longrope-synthetic&c.type=longrope&c.d=96&c.s=32&c.L=4096&c.T=131072");
    let lists = preset_lists(v.model).expect("the preset's lists");
    assert_eq!(lists.1.len(), 48);
    let text = bands_text(&v, Some(&lists));
    assert_never_says(&text, &["the model's own lists"]);
    assert_says(
        &text,
        &[
            "the synthetic example's lists, not a real model's: short all 1, long rising from 1 to 32",
        ],
    );
    // A pasted real config's lists (no preset) are the model's own.
    let own = ContextView { model: None, ..v };
    assert!(bands_text(&own, Some(&lists)).contains("the model's own lists"));
}

#[test]
fn c3_u7_the_s_le_1_guard_is_transformers_not_the_paper() {
    // U7: the paper's 0.1·ln s + 1 falls below 1 for s < 1; transformers' get_mscale returns 1.
    assert!(0.1 * 0.5f64.ln() + 1.0 < 1.0);
    assert_eq!(yarn_mscale(0.5), 1.0);
    assert_says(
        YARN_TEMPERATURE,
        &["transformers' get_mscale returns 1 for every s ≤ 1"],
    );
    assert!(!YARN_TEMPERATURE.contains("(fitted on LLaMA; 1 for s ≤ 1)"));
    assert!(YARN_TEMPERATURE.contains("§3.4"));
}

#[test]
fn c3_ms1_dynamic_factor_is_not_the_stretch() {
    // MS1: at T = s·L₀ = 16384 the slowest pair is slowed s·T/L₀ − (s − 1) = s² − s + 1 = 13
    // times, read here off the wavelengths.
    let v = view("?c.type=dynamic");
    assert_eq!(v.target as f64, v.factor * v.original as f64);
    let k = slowdowns(&v, RopeType::Dynamic);
    let slowest = k[k.len() - 1];
    let want = v.factor * v.factor - v.factor + 1.0;
    assert!((slowest - want).abs() < 1e-9 * want, "{slowest} vs {want}");
    let text = bands_text(&v, None);
    let n = format!("{}", want.round());
    assert_says(
        &text,
        &[
            &format!("at L = s·L₀ = 16k it is slowed s² − s + 1 = {n} times, not s = 4."),
            &format!("Here at L = T = 16k: the slowest pair is slowed {n} times"),
        ],
    );
    // The dynamic figure says the same, and its readout at L = T gives the same slow-down.
    assert!(dynamic_factor_note(&v).contains(&format!("s² − s + 1 = {n} times")));
    assert!((dynamic_slowest(&v, v.target) - want).abs() < 1e-9 * want);
    // At s = 1 the base still grows with L.
    let one = bands_text(&view("?c.type=dynamic&c.s=1"), None);
    assert_says(
        &one,
        &["at s = 1 it is still slowed L/L₀ times", "slowed 4 times"],
    );
}

#[test]
fn c3_ms2_longrope_changes_short_inputs_too() {
    // MS2: T = 2048 ≤ L₀: the short list applies, yet the attention factor √(1 + ln 4/ln 4096)
    // = √(7/6) still scales every input.
    let v = view("?c.type=longrope&c.T=2048");
    let text = bands_text(&v, None);
    let a = (1.0 + 4f64.ln() / 4096f64.ln()).sqrt();
    assert!((a - (7.0f64 / 6.0).sqrt()).abs() < 1e-12);
    assert_says(
        &text,
        &[
            "the short list applies here",
            &format!("√(1 + ln s / ln L₀) = {a:.5} is set when the model is built"),
            "short ones included",
        ],
    );
    assert!(
        SHORT_INPUTS
            .contains("its attention factor is set when the model is built and scales every input"),
        "{SHORT_INPUTS}"
    );
    assert!(!SHORT_INPUTS.contains("Only dynamic NTK and LongRoPE's switch"));
}

#[test]
fn c3_ms3_float32_changes_at_most_the_last_printed_digit() {
    // MS3: transformers computes inv_freq in float32 (base ** (arange(0, d, 2) / d)); the page's
    // six significant digits can differ from it only in the last one.
    let v = view("");
    let mut worst = 0.0f64;
    for i in 0..v.dim / 2 {
        let f64v = 1.0 / v.base.powf((2 * i) as f64 / v.dim as f64);
        let f32v = 1.0f32 / (v.base as f32).powf((2 * i) as f32 / v.dim as f32);
        worst = worst.max(((f32v as f64) - f64v).abs() / f64v);
    }
    assert!(worst > 1e-9 && worst < 1e-6, "{worst}");
    assert_says(
        NUMBERS_SOURCE,
        &[
            "float32",
            "the last of the six digits a readout prints can differ",
        ],
    );
}
