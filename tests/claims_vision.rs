//! The patch-grid figure's cells and sentences (fig-vision-grid), re-derived from Qwen2.5-VL's
//! vision rotary embedding in transformers 5.24 as written in Python: `inv_freq = 1 / θ **
//! (arange(0, D, 2) / D)` with `D = head_dim // 2`, each patch's angles `cat(h·inv_freq,
//! w·inv_freq)`, repeated `cat((emb, emb))` and applied as `x·cos + rotate_half(x)·sin`; and 1D
//! RoPE over the whole head for the grid read row by row. proptest sweeps grids from 1 × 1 to
//! 32 × 32, every chosen patch, heads of 4 to 256 coordinates and both kinds of q and k.
#![cfg(not(target_arch = "wasm32"))]

#[path = "common/reference.rs"]
mod reference;
#[path = "common/says.rs"]
mod says;

use pe_explorer::chart::theme::Theme;
use pe_explorer::explain::vision::{GridFinding, describe};
use pe_explorer::params::rope::{QkSource, qk_vectors};
use pe_explorer::params::vision::VisionView;
use pe_explorer::params::{Views, parse_query};
use pe_explorer::scene::{self, Panel};
use proptest::prelude::*;
use reference::*;
use says::{assert_never_says, assert_says};

const THETA: f64 = 10_000.0;

/// `inv_freq = 1.0 / (base ** (arange(0, dim, 2) / dim))`.
fn inv_freq(dim: usize) -> Vec<f64> {
    (0..dim)
        .step_by(2)
        .map(|i| 1.0 / THETA.powf(i as f64 / dim as f64))
        .collect()
}

/// `x * cos + rotate_half(x) * sin` with `emb` repeated over both halves.
fn rotate(x: &[f64], emb: &[f64]) -> Vec<f64> {
    let half = x.len() / 2;
    let full: Vec<f64> = emb.iter().chain(emb).copied().collect();
    let rotated_half: Vec<f64> = (0..x.len())
        .map(|i| if i < half { -x[i + half] } else { x[i - half] })
        .collect();
    (0..x.len())
        .map(|i| x[i] * full[i].cos() + rotated_half[i] * full[i].sin())
        .collect()
}

fn dot(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

/// The vision encoder's angles for patch `(h, w)`: `cat(h·inv_freq, w·inv_freq)`.
fn axial_emb(head_dim: usize, (h, w): (usize, usize)) -> Vec<f64> {
    let f = inv_freq(head_dim / 2);
    f.iter()
        .map(|x| h as f64 * x)
        .chain(f.iter().map(|x| w as f64 * x))
        .collect()
}

/// 1D RoPE's angles for position `p` over the whole head.
fn line_emb(head_dim: usize, p: usize) -> Vec<f64> {
    inv_freq(head_dim).iter().map(|x| p as f64 * x).collect()
}

/// The number printed right after `marker` in `text` (digits, sign and point).
fn number_after<'a>(text: &'a str, marker: &str) -> &'a str {
    let at = text
        .find(marker)
        .unwrap_or_else(|| panic!("no {marker:?} in:\n{text}"))
        + marker.len();
    let rest = &text[at..];
    let end = rest
        .find(|ch: char| !(ch.is_ascii_digit() || ch == '-' || ch == '.'))
        .unwrap_or(rest.len());
    rest[..end].trim_end_matches('.')
}

/// `printed` is `value` rounded to its own decimals.
#[track_caller]
fn is_rounded(printed: &str, value: f64) {
    let decimals = printed.split('.').nth(1).map_or(0, str::len);
    let x: f64 = printed.parse().unwrap();
    assert!(
        (x - value).abs() <= 0.5 * 10f64.powi(-(decimals as i32)) + 1e-9 * (1.0 + value.abs()),
        "{printed} for {value}"
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn cells_and_sentences(
        rows in prop_oneof![Just(1usize), Just(32usize), 1usize..=32],
        cols in prop_oneof![Just(1usize), Just(32usize), 1usize..=32],
        row in 0usize..40,
        col in 0usize..40,
        quarter in prop_oneof![Just(1usize), Just(20usize), Just(64usize), 1usize..=64],
        random in any::<bool>(),
        seed in any::<u64>(),
    ) {
        let head_dim = 4 * quarter;
        let qk = if random { "random" } else { "ones" };
        let (views, _) = Views::from_query(&parse_query(&format!(
            "v.rows={rows}&v.cols={cols}&v.r={row}&v.c={col}&v.hd={head_dim}&v.qk={qk}&v.seed={seed}"
        )));
        let v: &VisionView = &views.vision;
        let patch = (row.min(rows - 1), col.min(cols - 1));
        prop_assert_eq!(v.patch(), patch);
        let source = if random { QkSource::Random } else { QkSource::Ones };
        let (q, k) = qk_vectors(source, head_dim, seed);
        let q_axial = rotate(&q, &axial_emb(head_dim, patch));
        let q_line = rotate(&q, &line_emb(head_dim, patch.0 * cols + patch.1));
        let picture = scene::picture("fig-vision-grid", &views, Theme::LIGHT).unwrap();
        let [(Panel::Matrix(axial), _), (Panel::Matrix(flat), _)] = &picture.panels[..] else {
            panic!("two matrices");
        };
        prop_assert_eq!(axial.cell, Some(patch));
        let tolerance = 1e-9 * head_dim as f64;
        let mut want_axial = vec![0.0; rows * cols];
        let mut want_flat = vec![0.0; rows * cols];
        for r in 0..rows {
            for c in 0..cols {
                let a = dot(&q_axial, &rotate(&k, &axial_emb(head_dim, (r, c))));
                let f = dot(&q_line, &rotate(&k, &line_emb(head_dim, r * cols + c)));
                prop_assert!((axial.value(r, c) - a).abs() < tolerance, "axial ({r}, {c})");
                prop_assert!((flat.value(r, c) - f).abs() < tolerance, "flat ({r}, {c})");
                want_axial[r * cols + c] = axial.value(r, c);
                want_flat[r * cols + c] = flat.value(r, c);
            }
        }
        // The colour scale holds every cell of both.
        let bound = axial.spec.colorbar.hi;
        prop_assert!(want_axial.iter().chain(&want_flat).all(|s| s.abs() <= bound));
        prop_assert_eq!(axial.spec.colorbar.lo, -bound);

        let text = GridFinding {
            shape: (rows, cols),
            patch,
            qk: source,
            axial: &want_axial,
            flat: &want_flat,
        }
        .to_string();
        let (r, c) = patch;
        if rows * cols == 1 {
            assert_says(&text, &["One patch only", &format!("{:.3}", dot(&q_axial, &rotate(&k, &axial_emb(head_dim, patch))))]);
        } else if rows == 1 || cols == 1 {
            assert_says(&text, &["is a line already", if rows == 1 { "column's" } else { "row's" }]);
            // Along the line the other axis's pairs never turn: every angle of that half is 0.
            for at in [(0, 0), (rows - 1, cols - 1)] {
                let emb = axial_emb(head_dim, at);
                let still = if rows == 1 { &emb[..head_dim / 4] } else { &emb[head_dim / 4..] };
                prop_assert!(still.iter().all(|&x| x == 0.0));
            }
        } else {
            let (down, vway) = if r + 1 < rows { ((r + 1, c), "below") } else { ((r - 1, c), "above") };
            let (side, hway) = if c + 1 < cols { ((r, c + 1), "to the right of") } else { ((r, c - 1), "to the left of") };
            let score = |s: &[f64], (a, b): (usize, usize)| s[a * cols + b];
            let (a, b) = (score(&want_axial, down), score(&want_axial, side));
            let opening = format!("Axial 2D RoPE: the patch {vway} ({r}, {c}) scores ");
            let pa = number_after(&text, &opening);
            let pb = number_after(&text, &format!("the patch {hway} it "));
            is_rounded(pa, a);
            is_rounded(pb, b);
            prop_assert_eq!(pa == pb, a == b, "{}", text);
            prop_assert_eq!(text.contains(&format!("{pb}, the same")), a == b, "{}", text);
            if a == b && !random {
                assert_says(&text, &["with q = k = all ones every pair weighs the same"]);
            }
            if random {
                assert_never_says(&text, &["all ones"]);
            }
            // With q = k = all ones a row step and a column step score alike.
            if !random {
                prop_assert!((a - b).abs() < tolerance);
            }
            let (fa, fb) = (score(&want_flat, down), score(&want_flat, side));
            let places = if cols == 1 { "1 place".to_string() } else { format!("{cols} places") };
            let pfa = number_after(&text, &format!("Read row by row, the patch {vway} ({r}, {c}) is {places} away and scores "));
            let pfb = number_after(&text, &format!("the patch {hway} it is 1 place away and scores "));
            is_rounded(pfa, fa);
            is_rounded(pfb, fb);
            prop_assert_eq!(pfa == pfb, fa == fb, "{}", text);
        }
        let alt = describe((rows, cols), patch, source);
        assert_says(&alt, &[
            &format!("{rows} by {cols} image patches"),
            &format!("row {r}, column {c}"),
        ]);
        // Only a grid with two rows has a patch above or below another.
        let places = if cols == 1 { "1 place".to_string() } else { format!("{cols} places") };
        prop_assert_eq!(alt.contains(&format!("above or below is {places} away")), rows > 1);
        assert_never_says(&alt, &[" 1 places"]);
    }
}

#[test]
fn the_axial_score_depends_only_on_the_offset_and_the_lines_only_on_the_distance() {
    let (views, _) = Views::from_query(&parse_query(
        "v.rows=9&v.cols=11&v.r=4&v.c=5&v.qk=random&v.seed=7",
    ));
    let picture = scene::picture("fig-vision-grid", &views, Theme::LIGHT).unwrap();
    let [(Panel::Matrix(axial), _), (Panel::Matrix(flat), _)] = &picture.panels[..] else {
        panic!("two matrices");
    };
    // The axial score depends on the offset only: q at (4, 5) and k at (6, 2) score as q at
    // (1, 8) and k at (3, 5), the same offset (+2, −3).
    let (q, k) = qk_vectors(QkSource::Random, 80, 7);
    let moved = dot(
        &rotate(&q, &axial_emb(80, (1, 8))),
        &rotate(&k, &axial_emb(80, (3, 5))),
    );
    assert!((axial.value(6, 2) - moved).abs() < 1e-9);
    // Read row by row (11 columns), the patch one row down, (5, 5), is 11 places on, as the
    // patch (1, 0) is from (0, 0): the line's score depends on the distance only.
    let line = dot(
        &rotate(&q, &line_emb(80, 0)),
        &rotate(&k, &line_emb(80, 11)),
    );
    assert!((flat.value(5, 5) - line).abs() < 1e-9);
    // And not on the 2D offset: the patch one column right, (4, 6), is 1 place on.
    assert!((flat.value(5, 5) - flat.value(4, 6)).abs() > 1e-3);
}

#[test]
fn the_sections_figure_draws_each_models_config_and_says_what_each_axis_gets() {
    use pe_explorer::explain::vision::{sections_finding, sections_readout, wavelength_text};
    use pe_explorer::math::mrope::{Mrope, QWEN3_VL_8B, QWEN25_VL_7B};
    // The presets are the published configs.
    let q25 = reference_config("qwen2.5-vl-7b");
    assert_eq!(
        q25["hidden_size"].as_u64().unwrap() / q25["num_attention_heads"].as_u64().unwrap(),
        QWEN25_VL_7B.head_dim as u64
    );
    assert_eq!(q25["rope_theta"].as_f64(), Some(QWEN25_VL_7B.theta));
    assert_eq!(Mrope::from_config(&q25, 64), Ok(QWEN25_VL_7B.mrope.clone()));
    let q3 = reference_config("qwen3-vl-8b");
    assert_eq!(
        q3["text_config"]["head_dim"].as_u64(),
        Some(QWEN3_VL_8B.head_dim as u64)
    );
    assert_eq!(
        q3["text_config"]["rope_theta"].as_f64(),
        Some(QWEN3_VL_8B.theta)
    );
    assert_eq!(
        q3["text_config"]["rope_scaling"]["mrope_interleaved"].as_bool(),
        Some(true)
    );
    assert_eq!(Mrope::from_config(&q3, 64), Ok(QWEN3_VL_8B.mrope.clone()));
    // The vision heads of the grid figure: 1280 over 16 heads.
    let vision = &q25["vision_config"];
    assert_eq!(
        vision["hidden_size"].as_u64().unwrap() / vision["num_heads"].as_u64().unwrap(),
        80
    );
    assert_eq!(vision["patch_size"].as_u64(), Some(14));

    for (lm, m, other, interleaved) in [
        ("qwen2.5-vl-7b", &QWEN25_VL_7B, &QWEN3_VL_8B, false),
        ("qwen3-vl-8b", &QWEN3_VL_8B, &QWEN25_VL_7B, true),
    ] {
        let (views, notices) = Views::from_query(&parse_query(&format!("v.lm={lm}")));
        assert!(notices.is_empty());
        let picture = scene::picture("fig-vision-sections", &views, Theme::LIGHT).unwrap();
        let [(Panel::Lines(spec, extras), _)] = &picture.panels[..] else {
            panic!("one plot");
        };
        assert!(extras.y_log);
        let wavelength = |j: usize| 2.0 * std::f64::consts::PI * m.theta.powf(j as f64 / 64.0);
        // Every pair is one dot, in its axis's series, at its wavelength.
        let mut seen = [0usize; 64];
        for (axis, series) in spec.series.iter().enumerate() {
            for &(x, y) in &series.points {
                let j = x as usize;
                assert_eq!(x, j as f64);
                assert_eq!(
                    axis_of(interleaved, m.mrope.section, j),
                    axis,
                    "{lm} pair {j}"
                );
                assert!((10f64.powf(y) / wavelength(j) - 1.0).abs() < 1e-12);
                seen[j] += 1;
            }
        }
        assert!(seen.iter().all(|&n| n == 1), "{lm}: {seen:?}");
        // The finding: each axis's pairs and the wavelengths of its fastest and slowest.
        let text = sections_finding(m, other);
        for (model, interleaved) in [(m, interleaved), (other, !interleaved)] {
            for (axis, name) in ["t (time)", "h (height)", "w (width)"]
                .into_iter()
                .enumerate()
            {
                let mine: Vec<usize> = (0..64)
                    .filter(|&j| axis_of(interleaved, model.mrope.section, j) == axis)
                    .collect();
                let w = |j: usize| 2.0 * std::f64::consts::PI * model.theta.powf(j as f64 / 64.0);
                let phrase = format!(
                    "{name} drives {} pairs, wavelengths {} to {} positions",
                    mine.len(),
                    wavelength_text(w(mine[0])),
                    wavelength_text(w(*mine.last().unwrap()))
                );
                assert_says(&text, &[&phrase]);
            }
        }
        assert_says(
            &text,
            &[
                "each axis owns a band of its own",
                "every axis has pairs among the fastest 3 pairs and among the slowest 6 pairs",
            ],
        );
        // The readout of every pair names its axis in both models.
        for j in 0..64 {
            let r = sections_readout(m, other, j);
            let mine =
                ["t (time)", "h (height)", "w (width)"][axis_of(interleaved, m.mrope.section, j)];
            let theirs = ["t (time)", "h (height)", "w (width)"]
                [axis_of(!interleaved, other.mrope.section, j)];
            assert_says(
                &r,
                &[
                    &format!(
                        "Pair {j}: wavelength {} positions; its angle follows the {mine} id",
                        wavelength_text(wavelength(j))
                    ),
                    &format!("pair {j} follows the {theirs} id"),
                ],
            );
        }
        assert_eq!(sections_readout(m, other, 64), "");
    }
}
