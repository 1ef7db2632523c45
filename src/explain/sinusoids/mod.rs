//! What the page says about the sinusoidal encoding's current settings: the sentences that depend
//! on the layout, the spacing and the parity of d, as pure functions of the parameters. Every
//! caption, readout and formula of chapter 1 that changes with those settings is built here, so
//! one test reads each of them under every layout × spacing × odd/even d and checks it against
//! the column mapping the table itself uses ([`SinusoidalParams::column`]).

mod clocks;
mod turns;
mod word;

pub use super::{distinguishing_decimals, range_text};
pub use clocks::*;
pub use turns::*;
pub use word::*;

use super::count;
use crate::math::sinusoidal::{Column, Layout, SinusoidalParams, Spacing};
use crate::params::format_number;

/// Complete (sin, cos) pairs: `⌊d/2⌋`.
pub fn full_pairs(p: &SinusoidalParams) -> usize {
    p.dim / 2
}

/// The column of the lone sine — the last pair's sine when an odd `d` with paper spacing leaves it
/// without a cosine — or `None`.
pub fn lone_sine(p: &SinusoidalParams) -> Option<usize> {
    let h = full_pairs(p);
    (p.pairs() > h).then(|| (0..p.dim).find(|&c| p.column(c) == Column::Sin(h)))?
}

/// The padding column of zeros (odd `d` with tensor2tensor/fairseq spacing), or `None`.
pub fn zero_column(p: &SinusoidalParams) -> Option<usize> {
    (0..p.dim).find(|&c| p.column(c) == Column::Zero)
}

/// The exponent of the frequency formula `ω_i = 1/base^(…)`: `2i/d` (paper) or `i/(⌊d/2⌋−1)`
/// (tensor2tensor, fairseq; a single pair uses 1 as the divisor).
pub fn exponent_text(p: &SinusoidalParams) -> String {
    match p.spacing {
        Spacing::Paper => format!("2i/{}", p.dim),
        Spacing::Fairseq => format!("i/{}", full_pairs(p).saturating_sub(1).max(1)),
    }
}

/// `ω_i = 1/base^(exponent)` with the current base and d.
pub fn omega_text(p: &SinusoidalParams) -> String {
    format!("ω_i = 1/{}^({})", format_number(p.base), exponent_text(p))
}

/// The column of pair `i`'s sine (`cos = false`) or cosine, as the formula names it: `2i`, `2i+1`
/// (interleaved) or `i`, `i+h` (half-split, `h` = the width of the sine block).
pub fn column_text(p: &SinusoidalParams, cos: bool) -> String {
    match (p.layout, cos) {
        (Layout::Interleaved, false) => "2i".into(),
        (Layout::Interleaved, true) => "2i+1".into(),
        (Layout::Half, false) => "i".into(),
        (Layout::Half, true) => format!("i+{}", p.pairs()),
    }
}

/// What an odd `d` changes (empty for an even `d`).
pub fn odd_note(p: &SinusoidalParams) -> String {
    match (lone_sine(p), zero_column(p)) {
        (Some(c), _) => format!(
            " d is odd: pair {} has only a sine (column {c}) and no cosine.",
            full_pairs(p)
        ),
        (None, Some(c)) => format!(" d is odd: column {c} is zero padding."),
        (None, None) => String::new(),
    }
}

/// The range of the pair index and what d is, for under the formula.
pub fn pair_range_text(p: &SinusoidalParams) -> String {
    format!(
        "for i = 0 … {}, where d = d_model = {}.{}",
        p.pairs().saturating_sub(1),
        p.dim,
        odd_note(p)
    )
}

/// How the columns hold the pairs, for the heatmap.
pub fn columns_text(p: &SinusoidalParams) -> String {
    if p.pairs() == 1 {
        return match p.layout {
            Layout::Interleaved => "Columns 0 and 1 hold the sine and cosine of the single pair, whose ω is base⁰ = 1 at every base",
            Layout::Half => "Column 0 holds the sine of the single pair and column 1 its cosine; its ω is base⁰ = 1 at every base",
        }
        .to_string();
    }
    match p.layout {
        Layout::Interleaved => {
            "Columns 2i and 2i+1 hold the sine and cosine of pair i, so the frequency falls from left to right"
                .to_string()
        }
        Layout::Half => format!(
            "Column i holds the sine of pair i and column i + {} its cosine, so the frequency falls from left to right twice — across the sine block, then across the cosine block",
            p.pairs()
        ),
    }
}

/// What the relative-shift check does with an odd d's lone sine at offset `k` (`None`: no lone
/// sine, or k = 0). Over every integer position no fixed matrix of the vector alone shifts that
/// column: the sequences e^{±ipω} of distinct frequencies in (0, 1] are linearly independent, and
/// cos(p·ω_h) needs e^{ipω_h} and e^{−ipω_h} in a proportion sin(p·ω_h) does not have. Over finitely
/// many rows a fitted matrix can do better (exactly, when the rows are independent).
pub fn lone_sine_shift_note(p: &SinusoidalParams, k: usize) -> Option<String> {
    let col = lone_sine(p).filter(|_| k > 0)?;
    let h = full_pairs(p);
    Some(format!(
        "Column {col} is a lone sine (odd d): its 2×2 block needs cos(p·ω_{h}), which the vector \
         lacks, so this check borrows it from p itself; turning the sine without that cosine would \
         be off by up to |sin({k}·ω_{h})| = {:.1e}. Over every integer position no fixed matrix \
         of the vector alone shifts that column, since cos(p·ω_{h}) is no combination of the \
         other columns' waves; over just the {} shown a matrix fitted to them does at least as \
         well, often far better.",
        (k as f64 * p.pair_omega(h)).sin().abs(),
        count(p.positions, "row", "rows")
    ))
}

/// Which pairs the clocks figure draws: all complete pairs if at most
/// [`crate::chart::clock::MAX_CLOCKS`], else that many spread from the fastest to the slowest; a
/// lone sine has no clock (it has no cosine).
pub fn clocks_shown_text(p: &SinusoidalParams) -> String {
    let shown = crate::chart::clock::shown_pairs(p).len();
    let h = full_pairs(p);
    let which = if shown == h && h == 1 {
        "The one clock is the only (sin, cos) pair".to_string()
    } else if shown == h {
        format!("The {shown} clocks are all the (sin, cos) pairs")
    } else {
        format!(
            "{} of the {h} (sin, cos) pairs are drawn, spread evenly from the fastest to the slowest",
            shown
        )
    };
    let lone = if lone_sine(p).is_some() {
        "; the lone sine of an odd d has no cosine, so no clock"
    } else {
        ""
    };
    format!("{which}{lone}.")
}

/// Who uses which layout, and why the layout changes no distance (under the formula). The
/// attributions are the conventions `../shared/reference/sinusoidal.json` was computed from:
/// DistilBERT interleaves (the paper's formula); Marian concatenates [sin | cos] with the paper's
/// spacing; M2M100, like fairseq's `get_embedding` and tensor2tensor's `get_timing_signal_1d`,
/// concatenates with tensor2tensor's spacing.
pub fn layout_text(p: &SinusoidalParams) -> String {
    let mix = if p.layout == Layout::Interleaved && p.spacing == Spacing::Fairseq {
        " Interleaved columns with tensor2tensor's spacing, as set now, is a mix none of these uses."
    } else {
        ""
    };
    format!(
        "The paper's formula and DistilBERT interleave the columns; tensor2tensor, fairseq and \
         Hugging Face's M2M100 put every sine first and then every cosine, and so does Marian, \
         with the paper's spacing. The two layouts hold the same numbers in permuted columns, so \
         norms, similarities and the shift law are the same under both — which is why the \
         similarity figure has no layout of its own.{mix}"
    )
}

/// The heatmap's caption.
pub fn heatmap_caption(p: &SinusoidalParams) -> String {
    format!(
        "Each row is the vector added to the token at that position. {}; {} (rad per position).{}",
        columns_text(p),
        omega_text(p),
        odd_note(p)
    )
}

/// The waves figure's first sentence.
pub fn waves_caption(p: &SinusoidalParams) -> String {
    let which = match p.layout {
        Layout::Interleaved => "Column 2i is sin(pos·ω_i), column 2i+1 its cosine.".to_string(),
        Layout::Half => format!(
            "Column i is sin(pos·ω_i), column i + {} its cosine.",
            p.pairs()
        ),
    };
    format!("{which}{}", odd_note(p))
}

/// Which columns of the waves oscillate fast.
pub fn waves_speed_text(p: &SinusoidalParams) -> String {
    if p.pairs() == 1 {
        return "Columns 0 and 1 share the one frequency, ω = 1.".to_string();
    }
    match p.layout {
        Layout::Interleaved => "Low columns oscillate fast, high ones slowly.".to_string(),
        Layout::Half => format!(
            "Columns 0 and {} oscillate fastest; each block slows towards its end.",
            p.pairs()
        ),
    }
}

/// The number of pairs, said honestly for an odd `d`.
pub fn pairs_count_text(p: &SinusoidalParams) -> String {
    let h = full_pairs(p);
    match (lone_sine(p), zero_column(p)) {
        (Some(_), _) => format!(
            "{} plus one lone sine",
            count(h, "(sin, cos) pair", "(sin, cos) pairs")
        ),
        (None, Some(_)) => format!(
            "{} plus a column of zeros",
            count(h, "(sin, cos) pair", "(sin, cos) pairs")
        ),
        (None, None) => count(h, "(sin, cos) pair", "(sin, cos) pairs"),
    }
}

/// The slowest wavelength of `p`'s encoding, and where it comes from.
fn slowest_text(p: &SinusoidalParams) -> String {
    let sig = |x: f64| format_number(crate::params::round_significant(x, 5));
    let wavelength = std::f64::consts::TAU / p.pair_omega(p.pairs().saturating_sub(1));
    match p.spacing {
        Spacing::Paper if lone_sine(p).is_some() => format!(
            "{} positions (the lone sine's, 2π·base^(1−1/d))",
            sig(wavelength)
        ),
        Spacing::Paper => format!("{} positions (2π·base^(1−2/d))", sig(wavelength)),
        Spacing::Fairseq if full_pairs(p) >= 2 && p.base == 10_000.0 => format!(
            "exactly 2π·base = {} positions — the paper's “2π to 10000·2π”",
            sig(wavelength)
        ),
        Spacing::Fairseq if full_pairs(p) >= 2 => format!(
            "exactly 2π·base = {} positions (the paper's “2π to 10000·2π”, with base {} for 10000)",
            sig(wavelength),
            format_number(p.base)
        ),
        Spacing::Fairseq => "2π ≈ 6.28 positions: with a single pair its only ω is 1, and reaching 2π·base needs d ≥ 4".to_string(),
    }
}

/// Whether fairseq's `get_embedding` follows tensor2tensor at this d: it divides by
/// `half_dim − 1`, which is zero below d = 4 (tensor2tensor divides by `max(…, 1)`).
fn fairseq_note(p: &SinusoidalParams) -> &'static str {
    if full_pairs(p) >= 2 {
        " (which fairseq follows)"
    } else {
        " (fairseq's copy of it divides by zero below d = 4)"
    }
}

/// One sentence on the two spacings: where each one's slowest wavelength ends.
pub fn spacing_text(p: &SinusoidalParams) -> String {
    let other = SinusoidalParams {
        spacing: match p.spacing {
            Spacing::Paper => Spacing::Fairseq,
            Spacing::Fairseq => Spacing::Paper,
        },
        ..*p
    };
    match p.spacing {
        Spacing::Paper => format!(
            "With the paper's formula the slowest wavelength is {}; the authors' tensor2tensor code{} spaces the frequencies as base^(−i/max(⌊d/2⌋−1, 1)) instead, so its slowest is {}.",
            slowest_text(p),
            fairseq_note(p),
            slowest_text(&other)
        ),
        Spacing::Fairseq => format!(
            "With tensor2tensor's spacing{} the slowest wavelength is {}; the paper's own formula, base^(−2i/d), stops at {}.",
            fairseq_note(p),
            slowest_text(p),
            slowest_text(&other)
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn every_setting() -> impl Iterator<Item = SinusoidalParams> {
        let layouts = [Layout::Interleaved, Layout::Half];
        let spacings = [Spacing::Paper, Spacing::Fairseq];
        let dims = (2..=13).chain([127, 128]);
        dims.flat_map(move |dim| {
            layouts.into_iter().flat_map(move |layout| {
                spacings.into_iter().map(move |spacing| SinusoidalParams {
                    positions: 100,
                    dim,
                    base: 10_000.0,
                    layout,
                    spacing,
                })
            })
        })
    }

    #[test]
    fn column_names_match_the_table_for_every_setting() {
        for p in every_setting() {
            for i in 0..full_pairs(&p) {
                let (sin, cos) = match p.layout {
                    Layout::Interleaved => (2 * i, 2 * i + 1),
                    Layout::Half => (i, i + p.pairs()),
                };
                assert_eq!(p.column(sin), Column::Sin(i), "{p:?} pair {i}");
                assert_eq!(p.column(cos), Column::Cos(i), "{p:?} pair {i}");
                // The column the formula's name points at, for pair k.
                let named = |cos: bool, k: usize| {
                    let text = column_text(&p, cos);
                    match (text.as_str(), p.layout) {
                        ("2i", _) => 2 * k,
                        ("2i+1", _) => 2 * k + 1,
                        ("i", _) => k,
                        (other, Layout::Half) => {
                            k + other.trim_start_matches("i+").parse::<usize>().unwrap()
                        }
                        (other, _) => panic!("{other}"),
                    }
                };
                assert_eq!(named(false, i), sin, "{p:?}");
                assert_eq!(named(true, i), cos, "{p:?}");
            }
            let caption = heatmap_caption(&p);
            if p.pairs() == 1 {
                // One frequency: the caption names columns 0 and 1 (tests/claims_sinusoids.rs).
                assert!(caption.contains("Column"), "{caption}");
                continue;
            }
            assert_eq!(
                caption.contains("2i and 2i+1"),
                p.layout == Layout::Interleaved,
                "{caption}"
            );
            assert_eq!(
                caption.contains(&format!("i + {}", p.pairs())),
                p.layout == Layout::Half,
                "{caption}"
            );
            assert_eq!(
                waves_caption(&p).contains("2i+1"),
                p.layout == Layout::Interleaved
            );
        }
    }

    #[test]
    fn the_formula_gives_the_frequencies_the_table_uses() {
        for p in every_setting() {
            for i in 0..p.pairs() {
                let exponent = match p.spacing {
                    Spacing::Paper => 2.0 * i as f64 / p.dim as f64,
                    Spacing::Fairseq => i as f64 / full_pairs(&p).saturating_sub(1).max(1) as f64,
                };
                let omega = p.base.powf(-exponent);
                let expected = p.pair_omega(i);
                assert!(
                    (omega - expected).abs() <= 1e-12 * expected,
                    "{p:?} pair {i}: {omega} vs {expected}"
                );
            }
            let text = exponent_text(&p);
            match p.spacing {
                Spacing::Paper => assert_eq!(text, format!("2i/{}", p.dim)),
                Spacing::Fairseq => assert!(text.starts_with("i/")),
            }
            assert!(pair_range_text(&p).contains(&format!("i = 0 … {}", p.pairs() - 1)));
        }
    }

    #[test]
    fn odd_d_is_said_by_the_same_predicate_the_math_uses() {
        for p in every_setting() {
            let odd = p.dim % 2 == 1;
            assert_eq!(!odd_note(&p).is_empty(), odd, "{p:?}");
            let lone = lone_sine(&p);
            // A lone sine exactly when the rows are not shift invariant.
            assert_eq!(lone.is_some(), !p.is_shift_invariant(), "{p:?}");
            if let Some(c) = lone {
                assert_eq!(p.column(c), Column::Sin(full_pairs(&p)));
                assert!((0..p.dim).all(|k| p.column(k) != Column::Cos(full_pairs(&p))));
                assert!(odd_note(&p).contains(&format!("column {c}")));
                assert!(pairs_count_text(&p).contains("lone sine"));
            }
            assert_eq!(
                zero_column(&p).is_some(),
                odd && p.spacing == Spacing::Fairseq,
                "{p:?}"
            );
            if !odd {
                assert_eq!(
                    pairs_count_text(&p),
                    crate::explain::count(p.dim / 2, "(sin, cos) pair", "(sin, cos) pairs")
                );
            }
        }
    }

    #[test]
    fn the_spacing_sentence_has_both_slowest_wavelengths() {
        let p = crate::params::SINUSOIDAL_DEFAULT;
        let text = spacing_text(&p);
        assert!(text.contains("54410") && text.contains("62832"), "{text}");
        // Its numbers are the table's own slowest wavelengths, for every setting.
        for p in every_setting() {
            let slowest = std::f64::consts::TAU / p.pair_omega(p.pairs() - 1);
            let shown = format_number(crate::params::round_significant(slowest, 5));
            let text = spacing_text(&p);
            assert!(
                text.contains(&shown)
                    || (full_pairs(&p) < 2
                        && p.spacing == Spacing::Fairseq
                        && text.contains("6.28")),
                "{p:?}: {text}"
            );
        }
    }
}
