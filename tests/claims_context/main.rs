//! Chapter 3's setting-dependent sentences (`explain::context`): a sweep over the chapter's whole
//! parameter space, edges first, that re-derives every claim by brute force from the frequencies
//! (never through the predicate that chose the sentence), and one regression test per reproducing
//! link of the chapter-3 review, parsed by the chapter's own query parser.

#![cfg(not(target_arch = "wasm32"))]

#[path = "../common/says.rs"]
mod says;
use pe_explorer::params::Declared;
use says::{assert_never_says, assert_says};

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

mod links;

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
        assert_says(text, &["undefined at d = 2"]);
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
        assert_says(text, &["takes no pair past its trained arc"]);
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
        assert_never_says(text, &["so L = L₀"]);
    } else {
        assert!((slowest - 1.0).abs() < 1e-9, "{slowest}");
        assert_says(text, &["so L = L₀: the trained base"]);
        assert_never_says(text, &["L = T"]);
    }
    if v.factor > 1.0 {
        let want = v.factor * v.factor - v.factor + 1.0;
        let shown = number_after(text, "s² − s + 1 = ");
        assert!(
            (shown - want).abs() <= 1e-5 * want,
            "{shown} vs {want}: {text}"
        );
    } else {
        assert_says(text, &["at s = 1 it is still slowed L/L₀ times"]);
    }
}

/// LongRoPE's text: its attention factor √(1 + ln s / ln L₀), computed here, and that it
/// changes short inputs.
fn check_longrope(v: &ContextView, text: &str) {
    let a = (1.0 + v.factor.ln() / (v.original as f64).ln()).sqrt();
    if v.factor > 1.0 {
        let shown = number_after(text, "√(1 + ln s / ln L₀) = ");
        assert!((shown - a).abs() <= 1e-5 * a, "{shown} vs {a}: {text}");
        assert_says(text, &["short ones included"]);
    } else {
        assert_says(text, &["is 1 here (s = 1)"]);
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
