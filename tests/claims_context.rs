//! Chapter 3's setting-dependent sentences (`explain::context`): a sweep over the chapter's whole
//! parameter space, edges first, that re-derives every claim by brute force from the frequencies
//! (never through the predicate that chose the sentence), and one regression test per reproducing
//! link of the chapter-3 review, parsed by the chapter's own query parser.

#![cfg(not(target_arch = "wasm32"))]

use std::f64::consts::{PI, TAU};

use pe_explorer::explain::context::notes::{
    NUMBERS_SOURCE, PASTE_VERSIONS, SHORT_INPUTS, YARN_TEMPERATURE,
};
use pe_explorer::explain::context::{
    bands_text, dynamic_curve_text, dynamic_d2_note, dynamic_factor_note, dynamic_runtime,
    dynamic_slowest, ntk_claim, sig, view_turns, yarn_ramp,
};
use pe_explorer::math::limits;
use pe_explorer::math::rope_config::parse_config;
use pe_explorer::math::rope_presets::find;
use pe_explorer::math::rope_scaling::{RopeType, dynamic_base, yarn_mscale};
use pe_explorer::params::context::{ContextView, LENGTH, preset_lists};
use pe_explorer::params::parse_query;
use proptest::prelude::*;

/// The view a link opens.
fn view(query: &str) -> ContextView {
    let (v, notices) = ContextView::from_query(&parse_query(query));
    assert!(notices.is_empty(), "{query}: {notices:?}");
    v
}

/// Each pair's slow-down as the ratio of its wavelengths after and before, with the trained
/// frequency computed here from its definition `base^(−2i/d)`.
fn slowdowns(v: &ContextView, t: RopeType) -> Vec<f64> {
    let scaled = v.scaling(t, v.target, None).compute().0;
    scaled
        .iter()
        .enumerate()
        .map(|(i, f)| {
            let theta = v.base.powf(-2.0 * i as f64 / v.dim as f64);
            (TAU / f) / (TAU / theta)
        })
        .collect()
}

/// The pair indices of a range list: "0 … 20, 22" → [0, …, 20, 22].
fn parse_ranges(text: &str) -> Vec<usize> {
    let mut out = Vec::new();
    for part in text.split(", ") {
        match part.split_once(" … ") {
            Some((a, b)) => out.extend(a.parse::<usize>().unwrap()..=b.parse::<usize>().unwrap()),
            None => out.push(part.parse().unwrap()),
        }
    }
    out
}

/// The count and pairs the text gives after `verb` ("keeps", "slows", …) and before `what`:
/// `keeps 21 pairs as trained (0 … 20)`.
fn group(text: &str, verb: &str, what: &str) -> Vec<usize> {
    let mut found = Vec::new();
    let mut rest = text;
    while let Some(at) = rest.find(&format!("{verb} ")) {
        rest = &rest[at + verb.len() + 1..];
        let Some((n, tail)) = rest.split_once(' ') else {
            break;
        };
        let Ok(n) = n.parse::<usize>() else { continue };
        let tail = tail
            .trim_start_matches("pairs ")
            .trim_start_matches("pair ");
        if let Some(after) = tail.strip_prefix(what) {
            let inside = &after[after.find('(').unwrap() + 1..];
            let list = &inside[..inside.find(')').unwrap()];
            let pairs = parse_ranges(list);
            assert_eq!(pairs.len(), n, "{verb} {n} … ({list}) in {text}");
            found = pairs;
        }
    }
    found
}

/// Every claim about which pairs the method keeps, slows or divides, checked against the
/// slow-downs pair by pair.
fn check_stretch(v: &ContextView, text: &str) {
    let k = slowdowns(v, v.rope_type);
    let s = v.factor;
    let n = k.len();
    let near = |a: f64, b: f64| (a - b).abs() <= 1e-8 * b.max(1.0);
    let all = |f: &dyn Fn(f64) -> bool| k.iter().all(|&x| f(x));
    if text.contains("changes no frequency") {
        assert!(all(&|x| near(x, 1.0)), "{text}\n{k:?}");
        return;
    }
    if text.contains("divides every frequency by s = ") {
        assert!(all(&|x| near(x, s)), "{text}\n{k:?}");
        return;
    }
    let kept = group(text, "keeps", "as trained");
    let between = group(text, "slows", "by less than s");
    let divided = group(text, "divides", "by exactly s");
    let beyond = group(text, "slows", "by more than s");
    let mut listed: Vec<usize> = [&kept, &between, &divided, &beyond]
        .iter()
        .flat_map(|g| g.iter().copied())
        .collect();
    listed.sort_unstable();
    assert_eq!(
        listed,
        (0..n).collect::<Vec<_>>(),
        "every pair listed once: {text}"
    );
    for &i in &kept {
        assert!(near(k[i], 1.0), "pair {i} kept: {} in {text}", k[i]);
    }
    for &i in &divided {
        assert!(near(k[i], s), "pair {i} divided: {} in {text}", k[i]);
    }
    for &i in &between {
        assert!(
            k[i] > 1.0 + 1e-10 && k[i] < s * (1.0 - 1e-10),
            "pair {i} between: {}",
            k[i]
        );
    }
    for &i in &beyond {
        assert!(k[i] > s * (1.0 + 1e-10), "pair {i} beyond: {}", k[i]);
    }
    let rising = k.windows(2).all(|w| w[1] >= w[0] * (1.0 - 1e-9));
    let falling = k.windows(2).all(|w| w[1] <= w[0] * (1.0 + 1e-9));
    if text.contains("leaves the fast end alone") {
        assert!(
            rising && near(k[0], 1.0) && !near(k[n - 1], 1.0),
            "{text}\n{k:?}"
        );
    }
    if text.contains("stretches the fast end and leaves the slow end alone") {
        assert!(
            falling && near(k[n - 1], 1.0) && !near(k[0], 1.0),
            "{text}\n{k:?}"
        );
    }
    if text.contains("slows every pair, the slower ones at least as much") {
        assert!(rising && k.iter().all(|&x| x > 1.0), "{text}\n{k:?}");
    }
}

/// YaRN's ends by hand: `d·ln(L₀/(2π·r))/(2·ln base)`, floored/ceiled, clamped to `[0, d − 1]`.
fn yarn_ends(v: &ContextView) -> (f64, f64) {
    let dim =
        |r: f64| v.dim as f64 * (v.original as f64 / (r * 2.0 * PI)).ln() / (2.0 * v.base.ln());
    let (mut lo, mut hi) = (dim(v.beta_fast), dim(v.beta_slow));
    if v.truncate {
        lo = lo.floor();
        hi = hi.ceil();
    }
    (lo.max(0.0), hi.min(v.dim as f64 - 1.0))
}

fn check_yarn(v: &ContextView, text: &str) {
    let (lo, hi) = yarn_ends(v);
    let last = (v.dim / 2 - 1) as f64;
    assert_eq!(text.contains("inverted"), lo > hi, "{lo} {hi}: {text}");
    assert_eq!(
        text.contains("ramp is a step"),
        lo == hi,
        "{lo} {hi}: {text}"
    );
    let past = lo < hi && hi > last && lo < last;
    assert_eq!(
        text.contains("past the last pair"),
        past,
        "{lo} {hi}: {text}"
    );
    if past && v.factor > 1.0 {
        // No pair is fully divided: the last one is slowed strictly less than s.
        let k = slowdowns(v, RopeType::Yarn);
        assert!(k[v.dim / 2 - 1] < v.factor, "{k:?}");
    }
}

/// Pairs taken more than half a degree past their trained arc by T, by hand.
fn past_count(v: &ContextView, t: RopeType) -> usize {
    let scaled = v.scaling(t, v.target, None).compute().0;
    scaled
        .iter()
        .enumerate()
        .filter(|(i, f)| {
            let theta = v.base.powf(-2.0 * *i as f64 / v.dim as f64);
            let seen = ((v.original - 1) as f64 * theta / TAU).min(1.0);
            let reached = ((v.target - 1) as f64 * **f / TAU).min(1.0);
            (reached - seen) * 360.0 > 0.5
        })
        .count()
}

fn check_ntk(v: &ContextView, text: &str) {
    if v.dim <= 2 {
        assert!(text.contains("undefined at d = 2"), "{text}");
        return;
    }
    // At s = 1 nothing is slowed "the full s".
    assert_eq!(
        text.contains("only the slowest is slowed the full s"),
        v.factor > 1.0,
        "{text}"
    );
    let (ntk, linear) = (
        past_count(v, RopeType::Ntk),
        past_count(v, RopeType::Linear),
    );
    let pairs = |n: usize| format!("{n} pair{}", if n == 1 { "" } else { "s" });
    if ntk > linear {
        let want = format!(
            "still takes {} past their trained arc, against {linear} after",
            pairs(ntk)
        );
        assert!(text.contains(&want), "{want} in {text}");
    } else if ntk > 0 {
        let want = format!(
            "it takes {} past their trained arc (linear interpolation with the same s: {linear})",
            pairs(ntk)
        );
        assert!(text.contains(&want), "{want} in {text}");
    } else {
        assert!(
            text.contains("takes no pair past its trained arc"),
            "{text}"
        );
    }
}

/// The number printed right after `label` ("…slowed 13 times").
fn number_after(text: &str, label: &str) -> f64 {
    let at = text
        .find(label)
        .unwrap_or_else(|| panic!("“{label}” in {text}"));
    let rest = &text[at + label.len()..];
    let end = rest
        .find(|c: char| !(c.is_ascii_digit() || c == '.' || c == 'e' || c == '-'))
        .unwrap_or(rest.len());
    rest[..end]
        .trim_end_matches('.')
        .parse()
        .unwrap_or_else(|_| panic!("a number after “{label}” in {text}"))
}

/// Dynamic NTK's text: the slowest pair's slow-down, read off the wavelengths, is the number the
/// text gives at T, and `s² − s + 1` the one it gives at `s·L₀` (computed here from s alone).
fn check_dynamic(v: &ContextView, text: &str) {
    let k = slowdowns(v, RopeType::Dynamic);
    let slowest = k[k.len() - 1];
    if v.target > v.original {
        let shown = number_after(text, ": the slowest pair is slowed ");
        assert!(
            (shown - slowest).abs() <= 1e-5 * slowest,
            "{shown} vs {slowest}: {text}"
        );
        assert!(!text.contains("so L = L₀"), "{text}");
    } else {
        assert!((slowest - 1.0).abs() < 1e-9, "{slowest}");
        assert!(text.contains("so L = L₀: the trained base"), "{text}");
        assert!(!text.contains("L = T"), "{text}");
    }
    if v.factor > 1.0 {
        let want = v.factor * v.factor - v.factor + 1.0;
        let shown = number_after(text, "s² − s + 1 = ");
        assert!(
            (shown - want).abs() <= 1e-5 * want,
            "{shown} vs {want}: {text}"
        );
    } else {
        assert!(
            text.contains("at s = 1 it is still slowed L/L₀ times"),
            "{text}"
        );
    }
}

/// LongRoPE's text: its attention factor √(1 + ln s / ln L₀), computed here, and that it
/// changes short inputs.
fn check_longrope(v: &ContextView, text: &str) {
    let a = (1.0 + v.factor.ln() / (v.original as f64).ln()).sqrt();
    if v.factor > 1.0 {
        let shown = number_after(text, "√(1 + ln s / ln L₀) = ");
        assert!((shown - a).abs() <= 1e-5 * a, "{shown} vs {a}: {text}");
        assert!(text.contains("short ones included"), "{text}");
    } else {
        assert!(text.contains("is 1 here (s = 1)"), "{text}");
    }
}

fn check_turns(v: &ContextView) {
    let claim = view_turns(v, v.rope_type, None).to_string();
    let plain = past_count(v, RopeType::Default);
    let after = past_count(v, v.rope_type);
    let slow = (0..v.dim / 2)
        .filter(|&i| ((v.original - 1) as f64) * v.base.powf(-2.0 * i as f64 / v.dim as f64) < TAU)
        .count();
    assert!(claim.starts_with(&format!("{slow} of ")), "{claim}");
    let want = format!(
        "plain RoPE takes {plain} pair{} more",
        if plain == 1 { "" } else { "s" }
    );
    assert!(claim.contains(&want), "{want} in {claim}");
    assert!(
        claim.ends_with(&format!(", {after}.")),
        "{after} in {claim}"
    );
}

fn ramp() -> impl Strategy<Value = f64> {
    prop_oneof![
        Just(limits::RAMP.0),
        Just(limits::RAMP.1),
        Just(1.0),
        Just(32.0),
        (limits::RAMP.0.ln()..limits::RAMP.1.ln()).prop_map(f64::exp),
    ]
}

fn length() -> impl Strategy<Value = usize> {
    prop_oneof![
        Just(LENGTH.0),
        Just(LENGTH.1),
        Just(4096usize),
        ((LENGTH.0 as f64).ln()..(LENGTH.1 as f64).ln()).prop_map(|x| x.exp() as usize),
    ]
}

fn views() -> impl Strategy<Value = ContextView> {
    (
        (
            prop::sample::select(RopeType::ALL.to_vec()),
            prop_oneof![
                Just(2usize),
                Just(4),
                (1usize..=8).prop_map(|h| 2 * h),
                (1usize..=128).prop_map(|h| 2 * h)
            ],
            prop_oneof![
                Just(limits::BASE.0),
                Just(limits::BASE.1),
                (limits::BASE.0.ln()..limits::BASE.1.ln()).prop_map(f64::exp)
            ],
            prop_oneof![
                Just(1.0),
                Just(limits::FACTOR.1),
                (4.0..=256.0f64).prop_map(|x| (x.round()) / 4.0)
            ],
        ),
        (
            length(),
            length(),
            ramp(),
            ramp(),
            ramp(),
            ramp(),
            any::<bool>(),
        ),
    )
        .prop_map(
            |((rope_type, dim, base, factor), (original, target, bf, bs, lo, hi, truncate))| {
                ContextView {
                    rope_type,
                    dim,
                    base,
                    factor,
                    original,
                    target,
                    len: target,
                    beta_fast: bf,
                    beta_slow: bs,
                    low_freq: lo,
                    high_freq: hi,
                    truncate,
                    ..ContextView::default()
                }
            },
        )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(4000))]

    #[test]
    fn every_chapter_three_claim_holds_by_brute_force(v in views()) {
        let text = bands_text(&v, None);
        match v.rope_type {
            RopeType::Default => prop_assert_eq!(text.as_str(), "Plain RoPE: nothing is rescaled."),
            // transformers has a dynamic type (which divides by zero at d = 2), no NTK-aware one.
            RopeType::Ntk if v.dim <= 2 => {
                prop_assert!(text.contains("undefined at d = 2"), "{}", text);
                prop_assert!(!text.contains("transformers"), "{}", text);
                check_stretch(&v, &text);
            }
            RopeType::Dynamic if v.dim <= 2 => {
                prop_assert!(text.contains("transformers divides by zero"), "{}", text);
                prop_assert!(dynamic_factor_note(&v).is_empty());
                check_stretch(&v, &text);
            }
            t => {
                check_stretch(&v, &text);
                match t {
                    RopeType::Yarn => check_yarn(&v, &text),
                    RopeType::Ntk => check_ntk(&v, &ntk_claim(&v).to_string()),
                    RopeType::Dynamic => check_dynamic(&v, &text),
                    RopeType::Longrope => check_longrope(&v, &text),
                    // At s = 1 linear interpolation does not claim to change every input.
                    RopeType::Linear => prop_assert_eq!(
                        text.contains("changes every input"),
                        v.factor > 1.0,
                        "{}",
                        text
                    ),
                    _ => {}
                }
            }
        }
        check_turns(&v);
        // The dynamic curve's text alternative describes what the axis shows.
        let end = (2 * v.target.max(v.len)).min(LENGTH.1);
        let curve = dynamic_curve_text(&v, end);
        prop_assert_eq!(curve.contains("whole axis"), v.original >= end, "{}", curve);
        prop_assert_eq!(curve.contains("then rising"), v.original < end, "{}", curve);
        // The run-time example needs a length strictly between L₀ and T.
        if let Some(r) = dynamic_runtime(&v) {
            prop_assert!(v.original < r.later && r.later < r.long && r.long == v.target);
        } else {
            prop_assert!(v.target <= v.original + 1);
        }
    }
}

// ------------------------------------------------------- the review's reproducing links

#[test]
fn default_view_yarn_ramp_is_20_to_46() {
    // Review, "checked and correct": default YaRN range (20, 46).
    let v = view("");
    let text = bands_text(&v, None);
    assert!(
        text.contains("floored and ceiled to 20 and 46 (truncate)"),
        "{text}"
    );
    assert!(
        text.contains("keeps 21 pairs as trained (0 … 20)"),
        "{text}"
    );
    assert!(
        text.contains("divides 18 pairs by exactly s = 4 (46 … 63)"),
        "{text}"
    );
    assert!(!text.contains("clamped"), "nothing is clamped: {text}");
}

#[test]
fn w1a_yarn_base_2_divides_every_pair() {
    // Review W1(a): low = 278, high = min(598, 127) = 127: inverted, every pair divided by 4.
    let v = view("?c.type=yarn&c.base=2");
    let text = bands_text(&v, None);
    assert!(text.contains("giving 278 and 127"), "{text}");
    assert!(
        text.contains("inverted (278 > 127: the clamp moved an end)"),
        "{text}"
    );
    assert!(
        text.contains("divides every frequency by s = 4: all 64 pairs"),
        "{text}"
    );
    assert!(!text.contains("leaves the fast end alone"), "{text}");
}

#[test]
fn w1b_yarn_short_context_stretches_no_pair() {
    // Review W1(b): range (0, −1): no pair stretched.
    let v = view("?c.type=yarn&c.L=16&c.bs=3");
    let text = bands_text(&v, None);
    assert!(text.contains("giving 0 and -1"), "{text}");
    assert!(text.contains("inverted"), "{text}");
    assert!(
        text.contains("changes no frequency: all 64 pairs keep θ"),
        "{text}"
    );
}

#[test]
fn w1c_llama3_high_factors_divide_every_pair() {
    let v = view("?c.type=llama3&c.lo=999&c.hi=1000");
    let text = bands_text(&v, None);
    assert!(
        text.contains("divides every frequency by s = 4: all 64 pairs"),
        "{text}"
    );
}

#[test]
fn w1d_llama3_tiny_factors_keep_every_pair() {
    let v = view("?c.type=llama3&c.lo=0.001&c.hi=0.002");
    let text = bands_text(&v, None);
    assert!(
        text.contains("changes no frequency: all 64 pairs keep θ"),
        "{text}"
    );
}

#[test]
fn w2_yarn_high_end_past_the_last_pair() {
    // Review W2(a): high = 65 > 63, nothing clamps it; pair 63 is slowed 3.23× instead of 4×.
    let v = view("?c.type=yarn&c.L=65536&c.T=262144");
    let ramp = yarn_ramp(&v);
    assert_eq!(ramp.ends.1, 65.0);
    let text = bands_text(&v, None);
    assert!(text.contains("1 (θ divided by s) from index 65"), "{text}");
    assert!(
        text.contains("past the last pair, 63, so no pair is fully divided"),
        "{text}"
    );
    assert!(!text.contains("divides "), "{text}");
    let k = slowdowns(&v, RopeType::Yarn);
    assert!((k[63] - 3.23).abs() < 0.005, "{}", k[63]);
}

#[test]
fn ml3_dynamic_curve_flat_across_the_axis() {
    // L₀ = 1M past the axis end 2·max(T, len) = 32768: the curve drawn is flat throughout.
    let v = view("?c.type=dynamic&c.L=1048576&c.T=16384");
    let text = dynamic_curve_text(&v, 32_768);
    assert!(text.contains("across the whole axis (up to 32k)"), "{text}");
    assert!(!text.contains("rising"), "{text}");
}

#[test]
fn ms2_ntk_default_leaves_17_pairs_past_their_arc() {
    // Review MS2: at the defaults NTK leaves 17 of the 18 slow pairs past their trained arc,
    // against 0 for linear.
    let v = view("?c.type=ntk");
    let text = bands_text(&v, None);
    assert!(
        text.contains("fastest of the 18 that turn less than once"),
        "{text}"
    );
    assert!(
        text.contains(
            "still takes 17 pairs past their trained arc, against 0 after linear interpolation"
        ),
        "{text}"
    );
    assert!(text.contains("YaRN §3.1"), "{text}");
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
    assert!(
        text.contains("after a 16384-token call (base 135402)"),
        "{text}"
    );
    assert!(
        text.contains("exactly L₀ = 4096 tokens (base 135402, not the trained 10000)"),
        "{text}"
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
    assert!(
        text.contains("inverted (45 > 21: β_fast is below β_slow)"),
        "{text}"
    );
    assert!(
        text.contains("divides 22 pairs by exactly s = 4 (0 … 21)"),
        "{text}"
    );
    assert!(
        text.contains("stretches the fast end and leaves the slow end alone"),
        "{text}"
    );
}

// ------------------------------------------- the fresh chapter-3 review (docs/reviews/chapter-3.md)

#[test]
fn c3_w1_reach_cites_yarn_3_2_and_pi_2_2() {
    // W1: PI §2.3 is the interpolation bound and YaRN §3.1 is NTK-aware; the per-pair arc
    // argument is YaRN §3.2 (NTK-by-parts), and PI's extrapolation failure is §2.2.
    let doc = include_str!("../src/math/rope_extension.rs");
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
    assert!(!text.contains("L = T"), "{text}");
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
    assert!(!ntk.contains("transformers"), "{ntk}");
    assert!(
        ntk.contains("(Its exponent d/(d − 2), in bloc97's formula, is undefined at d = 2; this page takes it as 1.)"),
        "{ntk}"
    );
    let dynamic = bands_text(&view("?c.type=dynamic&c.d=2"), None);
    assert!(
        dynamic.contains("transformers divides by zero"),
        "{dynamic}"
    );
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
    assert!(!linear.contains("changes every input"), "{linear}");
    assert!(
        linear.contains("at s = 1 that leaves every frequency as trained"),
        "{linear}"
    );
    assert!(linear.contains("changes no frequency"), "{linear}");
    let ntk = bands_text(&view("?c.type=ntk&c.s=1"), None);
    assert!(!ntk.contains("the full s = 1"), "{ntk}");
    assert!(ntk.contains("at s = 1 that is the trained base"), "{ntk}");
    assert!(ntk.contains("changes no frequency"), "{ntk}");
}

#[test]
fn c3_u5_the_synthetic_presets_lists_are_not_a_models_own() {
    // U5: the synthetic preset's lists fit head_dim 96, but they are not a real model's.
    let v = view("?c.model=longrope-synthetic&c.type=longrope&c.d=96&c.s=32&c.L=4096&c.T=131072");
    let lists = preset_lists(v.model).expect("the preset's lists");
    assert_eq!(lists.1.len(), 48);
    let text = bands_text(&v, Some(&lists));
    assert!(!text.contains("the model's own lists"), "{text}");
    assert!(
        text.contains("the synthetic example's lists, not a real model's: short all 1, long rising from 1 to 32"),
        "{text}"
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
    assert!(
        YARN_TEMPERATURE.contains("transformers' get_mscale returns 1 for every s ≤ 1"),
        "{YARN_TEMPERATURE}"
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
    assert!(
        text.contains(&format!(
            "at L = s·L₀ = 16k it is slowed s² − s + 1 = {n} times, not s = 4."
        )),
        "{text}"
    );
    assert!(
        text.contains(&format!(
            "Here at L = T = 16k: the slowest pair is slowed {n} times"
        )),
        "{text}"
    );
    // The dynamic figure says the same, and its readout at L = T gives the same slow-down.
    assert!(dynamic_factor_note(&v).contains(&format!("s² − s + 1 = {n} times")));
    assert!((dynamic_slowest(&v, v.target) - want).abs() < 1e-9 * want);
    // At s = 1 the base still grows with L.
    let one = bands_text(&view("?c.type=dynamic&c.s=1"), None);
    assert!(
        one.contains("at s = 1 it is still slowed L/L₀ times"),
        "{one}"
    );
    assert!(one.contains("slowed 4 times"), "{one}");
}

#[test]
fn c3_ms2_longrope_changes_short_inputs_too() {
    // MS2: T = 2048 ≤ L₀: the short list applies, yet the attention factor √(1 + ln 4/ln 4096)
    // = √(7/6) still scales every input.
    let v = view("?c.type=longrope&c.T=2048");
    let text = bands_text(&v, None);
    let a = (1.0 + 4f64.ln() / 4096f64.ln()).sqrt();
    assert!((a - (7.0f64 / 6.0).sqrt()).abs() < 1e-12);
    assert!(text.contains("the short list applies here"), "{text}");
    assert!(
        text.contains(&format!(
            "√(1 + ln s / ln L₀) = {a:.5} is set when the model is built"
        )),
        "{text}"
    );
    assert!(text.contains("short ones included"), "{text}");
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
    assert!(NUMBERS_SOURCE.contains("float32"), "{NUMBERS_SOURCE}");
    assert!(
        NUMBERS_SOURCE.contains("the last of the six digits a readout prints can differ"),
        "{NUMBERS_SOURCE}"
    );
}
