//! The video cloud (fig-vision-video): each token's place, ids and angle, its CSV and its
//! sentences, re-derived from transformers 5.24 as written in Python — the video's ids from
//! `get_rope_index` (Qwen2.5-VL: `t = k·tokens_per_second`, `h = i`, `w = j`; Qwen3-VL: one
//! `T = 1` block per temporal patch after its timestamp text, each block at `current_pos`),
//! the pair's axis from `recomposition_frequencies`, its frequency `1 / θ^(2j/head_dim)` — for
//! every video, pair and model the controls allow.
#![cfg(not(target_arch = "wasm32"))]

#[path = "common/reference.rs"]
mod reference;
#[path = "common/says.rs"]
mod says;

use pe_explorer::chart::theme::Theme;
use pe_explorer::explain::video::{describe, finding, readout, turn_text};
use pe_explorer::math::mrope::{QWEN3_VL_8B, QWEN25_VL_7B};
use pe_explorer::params::vision::{CLIP_SIDE, CLIP_TIME, PAIR, STAMP, VisionView, VlModel};
use pe_explorer::params::{Views, parse_query};
use pe_explorer::scene::{self, Panel};
use proptest::prelude::*;
use reference::*;
use says::{assert_never_says, assert_says};

/// The video's tokens' (t, h, w) ids, temporal patch by temporal patch, row by row.
fn video_ids(v: &VisionView) -> Vec<[usize; 3]> {
    let (t, h, w) = (v.clip_frames, v.clip_rows, v.clip_cols);
    let mut ids = Vec::new();
    let mut current_pos = 0;
    for k in 0..t {
        let start = match v.lm {
            VlModel::Qwen25 => 0,
            VlModel::Qwen3 => {
                current_pos += v.stamp;
                let s = current_pos;
                current_pos += h.max(w);
                s
            }
        };
        let time = match v.lm {
            VlModel::Qwen25 => k * tokens_per_second(),
            VlModel::Qwen3 => start,
        };
        for i in 0..h {
            for j in 0..w {
                ids.push([time, start + i, start + j]);
            }
        }
    }
    ids
}

fn check(v: &VisionView) {
    let q = format!(
        "v.lm={}&v.ts={}&v.cf={}&v.ch={}&v.cw={}&v.pair={}",
        match v.lm {
            VlModel::Qwen25 => "qwen2.5-vl-7b",
            VlModel::Qwen3 => "qwen3-vl-8b",
        },
        v.stamp,
        v.clip_frames,
        v.clip_rows,
        v.clip_cols,
        v.pair
    );
    let (views, notices) = Views::from_query(&parse_query(&q));
    assert!(notices.is_empty(), "{q}: {notices:?}");
    let (m, config, interleaved) = match v.lm {
        VlModel::Qwen25 => (&QWEN25_VL_7B, reference_config("qwen2.5-vl-7b"), false),
        VlModel::Qwen3 => (&QWEN3_VL_8B, reference_config("qwen3-vl-8b"), true),
    };
    let text = config
        .get("text_config")
        .filter(|t| t.is_object())
        .unwrap_or(&config);
    let theta = text["rope_theta"].as_f64().unwrap();
    let head_dim = text["head_dim"].as_u64().unwrap_or_else(|| {
        text["hidden_size"].as_u64().unwrap() / text["num_attention_heads"].as_u64().unwrap()
    }) as usize;
    let rope = text
        .get("rope_scaling")
        .or(text.get("rope_parameters"))
        .unwrap();
    let section: Vec<usize> = rope["mrope_section"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_u64().unwrap() as usize)
        .collect();
    let axis = axis_of(interleaved, [section[0], section[1], section[2]], v.pair);
    let omega = 1.0 / theta.powf((2 * v.pair) as f64 / head_dim as f64);
    let ids = video_ids(v);
    let picture = scene::picture("fig-vision-video", &views, Theme::LIGHT).unwrap();
    let [(Panel::Cloud(cloud), _)] = &picture.panels[..] else {
        panic!("{q}: one cloud");
    };
    assert_eq!(cloud.points.len(), ids.len(), "{q}");
    assert_eq!(cloud.shown, ids.len(), "{q}: every temporal patch shown");
    let angles = cloud.angles.as_ref().expect("angles");
    let (t, h, w) = (v.clip_frames, v.clip_rows, v.clip_cols);
    let clip = pe_explorer::scene::vision::video::clip(&views.vision);
    for (n, id) in ids.iter().enumerate() {
        let (k, i, j) = (n / (h * w), (n / w) % h, n % w);
        assert_eq!(cloud.points[n], id.map(|x| x as f64), "{q}: {n}");
        assert_eq!(clip.place(n), (k, i, j), "{q}: {n}");
        let want = id[axis] as f64 * omega;
        assert!(
            (angles[n] - want).abs() <= 1e-12 * want.abs().max(1.0),
            "{q}: token {n}: {} vs {want}",
            angles[n]
        );
        assert_eq!(clip.ids[n], *id, "{q}: token {n}");
    }
    // The readout of the first and the last token.
    for n in [0, ids.len() - 1] {
        let text = readout(&clip, n);
        let id = ids[n];
        assert_says(
            &text,
            &[
                &format!("(t, h, w) = ({}, {}, {})", id[0], id[1], id[2]),
                &format!("pair {}: angle = {}·ω = ", v.pair, id[axis]),
                &format!(
                    "{:.1}° after whole turns",
                    (id[axis] as f64 * omega)
                        .rem_euclid(std::f64::consts::TAU)
                        .to_degrees()
                ),
            ],
        );
    }
    // The finding: each step's turn, from the ids written out here.
    let found = finding(m, &clip);
    let names = ["t (time)", "h (height)", "w (width)"];
    assert_says(
        &found,
        &[
            &format!("Pair {} of {}", v.pair, m.name),
            &format!("follows the {} id", names[axis]),
        ],
    );
    let turn = |a: usize, b: usize| (ids[b][axis] as f64 - ids[a][axis] as f64) * omega;
    for (what, size, next) in [
        ("temporal patch", t, h * w),
        ("row", h, w),
        ("column", w, 1),
    ] {
        if size > 1 {
            assert_says(
                &found,
                &[&format!(
                    "{} from one {what} to the next",
                    turn_text(turn(0, next))
                )],
            );
        } else {
            assert_says(
                &found,
                &[&format!("cannot turn between {what}s (the video has 1)")],
            );
        }
    }
    // Qwen3-VL's blocks move every id between temporal patches.
    let moves = t > 1 && axis != 0 && ids[h * w][axis] > ids[0][axis];
    assert_eq!(moves, v.lm == VlModel::Qwen3 && t > 1 && axis != 0, "{q}");
    let block = |n: usize| {
        format!("each temporal patch is a block of its own, {n} positions after the one before")
    };
    if v.lm == VlModel::Qwen3 && t > 1 {
        // Every id of block k + 1 is stamp + max(h, w) past block k's.
        let n = ids[h * w][axis] - ids[0][axis];
        assert_eq!(n, v.stamp + h.max(w), "{q}");
        assert_says(&found, &[&block(n)]);
        if axis == 0 {
            assert_says(
                &found,
                &[
                    &format!("Its t id steps by {n} between temporal patches"),
                    "not seconds",
                ],
            );
        } else {
            assert_says(&found, &["yet it turns between temporal patches"]);
        }
    } else {
        assert_never_says(
            &found,
            &["yet it turns", "is a block of its own", "not seconds"],
        );
    }
    // The pair's frequency and wavelength, to three significant digits.
    let sig = |x: f64| {
        let digits = 2 - x.abs().log10().floor() as i32;
        (x * 10f64.powi(digits)).round() / 10f64.powi(digits)
    };
    let printed: Vec<f64> = found
        .split("ω = ")
        .nth(1)
        .and_then(|rest| rest.split(" rad per position").next())
        .map(|x| x.replace(['\u{202f}', ' '], "").parse().unwrap())
        .into_iter()
        .collect();
    assert_eq!(printed.len(), 1, "{q}: {found}");
    assert!(
        (printed[0] - sig(omega)).abs() <= 1e-9 * omega,
        "{q}: ω {} vs {omega}",
        printed[0]
    );
    assert_never_says(&found, &["NaN", "inf"]);
    let alt = describe(m, &clip, t);
    assert_says(&alt, &[&format!("rotary pair {} (which follows", v.pair)]);
    // The CSV: a point a line, with its angle.
    let csv = picture.csv();
    assert!(csv.contains("token,t,h,w,angle (rad)"), "{csv}");
    assert_eq!(
        csv.lines().filter(|l| !l.starts_with('#')).count(),
        1 + ids.len()
    );
}

#[test]
fn the_defaults_and_the_edges() {
    for q in [
        "",
        "v.lm=qwen3-vl-8b",
        "v.lm=qwen3-vl-8b&v.pair=1",
        "v.pair=63&v.cf=1&v.ch=1&v.cw=1",
        "v.lm=qwen3-vl-8b&v.pair=62&v.cf=16&v.ch=12&v.cw=12&v.ts=16",
    ] {
        check(&Views::from_query(&parse_query(q)).0.vision);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn every_video_pair_and_model(
        qwen3 in any::<bool>(),
        frames in CLIP_TIME.0..=CLIP_TIME.1,
        rows in CLIP_SIDE.0..=CLIP_SIDE.1,
        cols in CLIP_SIDE.0..=CLIP_SIDE.1,
        pair in PAIR.0..=PAIR.1,
        stamp in STAMP.0..=STAMP.1,
    ) {
        check(&VisionView {
            lm: if qwen3 { VlModel::Qwen3 } else { VlModel::Qwen25 },
            clip_frames: frames,
            clip_rows: rows,
            clip_cols: cols,
            pair,
            stamp,
            ..VisionView::default()
        });
    }
}
