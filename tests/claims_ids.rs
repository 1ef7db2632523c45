//! The position-ids figure (fig-vision-ids): its rows of ids, its cloud, its CSV and its
//! sentences, re-derived from transformers 5.24's `get_rope_index` (Qwen2_5_VLModel and
//! Qwen3VLModel) as written in Python — text `arange(text_len).expand(3, -1) + current_pos`,
//! a vision block `meshgrid(arange(T)·time_interval, arange(H), arange(W), indexing="ij") +
//! current_pos`, then `current_pos += max(H, W)`; Qwen3-VL's videos split into `T = 1` blocks
//! (`repeat_interleave`) — and from the original Qwen code's `st_idx =
//! llm_pos_ids_list[-1].max() + 1`. proptest sweeps every input the controls allow, for both
//! models.
#![cfg(not(target_arch = "wasm32"))]

#[path = "common/reference.rs"]
mod reference;
#[path = "common/says.rs"]
mod says;

use pe_explorer::chart::theme::Theme;
use pe_explorer::explain::position_ids::{describe, finding, readout};
use pe_explorer::math::mrope::{QWEN3_VL_8B, QWEN25_VL_7B};
use pe_explorer::params::vision::{IMAGE, STAMP, TEXT, VIDEO, VisionView, VlModel};
use pe_explorer::params::{Views, parse_query};
use pe_explorer::scene::{self, Panel};
use proptest::prelude::*;
use reference::*;
use says::{assert_never_says, assert_says};

/// What a token is, as the processor lays the input out.
#[derive(Clone, Copy, PartialEq)]
enum Tok {
    Text,
    /// A token of a vision block `(T, H, W)` whose time step is `dt`.
    Vision(usize, usize, usize, usize),
}

/// The input of the view, token group by token group, as each model's processor writes it:
/// text, image, text, video, text (Qwen3-VL: the video as a timestamp then a frame, per
/// temporal patch).
fn layout(v: &VisionView) -> Vec<(Tok, usize)> {
    let mut out = vec![
        (Tok::Text, v.text),
        (Tok::Vision(1, v.image_rows, v.image_cols, 1), 1),
        (Tok::Text, v.text),
    ];
    match v.lm {
        // tokens_per_second (the reference config.json's) × 1 s.
        VlModel::Qwen25 => out.push((
            Tok::Vision(v.frames, v.video_rows, v.video_cols, tokens_per_second()),
            1,
        )),
        VlModel::Qwen3 => {
            for _ in 0..v.frames {
                out.push((Tok::Text, v.stamp));
                out.push((Tok::Vision(1, v.video_rows, v.video_cols, 0), 1));
            }
        }
    }
    out.push((Tok::Text, v.text));
    out
}

/// `get_rope_index`, 5.24 (`original` false) or the original Qwen code (`original` true).
fn get_rope_index(v: &VisionView, original: bool) -> Vec<[usize; 3]> {
    let mut ids: Vec<[usize; 3]> = Vec::new();
    let mut current_pos = 0usize;
    for (tok, n) in layout(v) {
        if original {
            current_pos = ids.iter().flatten().max().map_or(0, |m| m + 1);
        }
        match tok {
            Tok::Text => {
                ids.extend((0..n).map(|i| [current_pos + i; 3]));
                current_pos += n;
            }
            Tok::Vision(t, h, w, dt) => {
                for k in 0..t {
                    for i in 0..h {
                        for j in 0..w {
                            ids.push([k * dt + current_pos, i + current_pos, j + current_pos]);
                        }
                    }
                }
                current_pos += h.max(w);
            }
        }
    }
    ids
}

fn view(query: &str) -> VisionView {
    let (views, notices) = Views::from_query(&parse_query(query));
    assert!(notices.is_empty(), "{query}: {notices:?}");
    views.vision
}

fn query(v: &VisionView) -> String {
    format!(
        "v.lm={}&v.tx={}&v.ih={}&v.iw={}&v.vt={}&v.vh={}&v.vw={}&v.ts={}",
        match v.lm {
            VlModel::Qwen25 => "qwen2.5-vl-7b",
            VlModel::Qwen3 => "qwen3-vl-8b",
        },
        v.text,
        v.image_rows,
        v.image_cols,
        v.frames,
        v.video_rows,
        v.video_cols,
        v.stamp
    )
}

/// Checks every number the figure shows and says for `v`.
fn check(v: &VisionView) {
    let q = query(v);
    let views = view(&q);
    assert_eq!(&views, v);
    let (now, orig) = (get_rope_index(v, false), get_rope_index(v, true));
    let picture = scene::picture(
        "fig-vision-ids",
        &Views::from_query(&parse_query(&q)).0,
        Theme::LIGHT,
    )
    .unwrap();
    let [(Panel::Ids(strip), _), (Panel::Cloud(cloud), _)] = &picture.panels[..] else {
        panic!("{q}: the rows and the cloud");
    };
    let ids = &strip.ids;
    assert_eq!(ids.len(), now.len(), "{q}");
    for (k, (a, b)) in now.iter().zip(&orig).enumerate() {
        assert_eq!(ids.at(k), Some((*a, *b)), "{q}: token {k}");
        assert_eq!(cloud.points[k], a.map(|x| x as f64), "{q}: point {k}");
        // The fourth row: nothing where the rules agree; a text token's id, or the shift.
        let shown = strip.other[k].clone();
        if a == b {
            assert_eq!(shown, None, "{q}: token {k}");
        } else {
            // Only the text after a Qwen2.5-VL video can differ here: a text token's id.
            assert!(b[0] == b[1] && b[1] == b[2], "{q}: token {k}");
            assert_eq!(shown, Some(b[0].to_string()), "{q}: token {k}");
        }
        let text = readout(ids, k);
        assert_says(
            &text,
            &[
                &format!("token {k} · "),
                &format!("(t, h, w) = ({}, {}, {})", a[0], a[1], a[2]),
            ],
        );
        if a == b {
            assert_says(&text, &["the original Qwen code: the same"]);
        } else {
            assert_says(
                &text,
                &[&format!(
                    "the original Qwen code: ({}, {}, {})",
                    b[0], b[1], b[2]
                )],
            );
        }
    }
    // The CSV: a header, then every token with both rules' ids.
    let csv = picture.csv();
    let lines: Vec<&str> = csv.lines().collect();
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("token,piece,t,h,w,original t"))
    );
    for (k, (a, b)) in now.iter().zip(&orig).enumerate() {
        let tail = format!(",{},{},{},{},{},{}", a[0], a[1], a[2], b[0], b[1], b[2]);
        assert!(
            lines
                .iter()
                .any(|l| l.starts_with(&format!("{k},")) && l.ends_with(&tail)),
            "{q}: token {k} in the CSV"
        );
    }
    // The sentences.
    let m = match v.lm {
        VlModel::Qwen25 => &QWEN25_VL_7B,
        VlModel::Qwen3 => &QWEN3_VL_8B,
    };
    let differ = now.iter().zip(&orig).filter(|(a, b)| a != b).count();
    let alt = describe(m, ids);
    assert_says(&alt, &[&format!("an input of {} token", now.len())]);
    if differ == 0 {
        assert_says(&alt, &["(nowhere here)"]);
    } else {
        let n = if differ == 1 {
            "1 token)".to_string()
        } else {
            format!("{differ} tokens)")
        };
        assert_says(&alt, &[&n]);
    }
    let found = finding(m, ids);
    // The image starts after the first text; its ids, and the text after it.
    let s = v.text;
    let (ih, iw) = (v.image_rows, v.image_cols);
    let run = |lo: usize, n: usize| {
        if n == 1 {
            format!("= {lo}")
        } else {
            format!("{lo}–{}", lo + n - 1)
        }
    };
    assert_says(
        &found,
        &[
            &format!("t = {s}, with h {} and w {}", run(s, ih), run(s, iw)),
            &format!(
                "the text after it starts at {s} + max({ih}, {iw}) = {}, as in the original Qwen code",
                s + ih.max(iw)
            ),
        ],
    );
    let video = s + ih.max(iw) + v.text;
    let (t, h, w) = (v.frames, v.video_rows, v.video_cols);
    match v.lm {
        VlModel::Qwen25 => {
            let after = video + h.max(w);
            let largest = video + ((t - 1) * tokens_per_second()).max(h - 1).max(w - 1);
            // The first token after the video, by each rule.
            let first = now.len() - v.text;
            assert_eq!(now[first], [after; 3], "{q}");
            if orig[first] == now[first] {
                assert!(largest < after, "{q}");
                assert_says(
                    &found,
                    &[&format!("= {after}, as in the original Qwen code.")],
                );
            } else {
                assert_eq!(orig[first], [largest + 1; 3], "{q}");
                let relation = if after < largest { "below" } else { "equal to" };
                assert_says(
                    &found,
                    &[&format!(
                        "= {after}, {relation} the video's largest time id {largest}; the original Qwen code started it one past the block's largest id, at {video} + {} = {}",
                        largest + 1 - video,
                        largest + 1
                    )],
                );
            }
            assert_says(
                &found,
                &[&format!("with h {} and w {}", run(video, h), run(video, w))],
            );
            if t > 1 {
                assert_says(
                    &found,
                    &["(a step of tokens_per_second 2 × 1 s per temporal patch)"],
                );
            } else {
                assert_never_says(&found, &["tokens_per_second"]);
            }
        }
        VlModel::Qwen3 => {
            let starts: Vec<String> = (0..t)
                .map(|k| (video + v.stamp + k * (v.stamp + h.max(w))).to_string())
                .collect();
            let listed = match &starts[..] {
                [one] => one.clone(),
                [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
                [] => unreachable!(),
            };
            assert_says(&found, &[&format!("with a single t ({listed})")]);
            let after = video + t * (v.stamp + h.max(w));
            assert_says(
                &found,
                &[&format!(
                    "The text after the video starts at {after}, as in the original Qwen code"
                )],
            );
            assert_eq!(now[now.len() - v.text], [after; 3]);
            assert_eq!(differ, 0, "{q}");
        }
    }
    for plural in ["1 tokens", "1 frames", "1 token share"] {
        let after_a_digit = found
            .match_indices(plural)
            .all(|(at, _)| found[..at].ends_with(|c: char| c.is_ascii_digit()));
        assert!(after_a_digit, "{q}: \"{plural}\" in {found}");
    }
    assert_never_says(&found, &["NaN"]);
}

#[test]
fn the_caption_s_patch_sizes_and_time_step_are_the_configs() {
    // "14 pixels wide in Qwen2.5-VL and 16 in Qwen3-VL", "2 (Qwen2.5-VL-7B's config.json)".
    let patch = |name: &str| reference_config(name)["vision_config"]["patch_size"].as_u64();
    assert_eq!(patch("qwen2.5-vl-7b"), Some(14));
    assert_eq!(patch("qwen3-vl-8b"), Some(16));
    assert_eq!(tokens_per_second(), 2);
}

#[test]
fn the_defaults_show_where_the_two_rules_part() {
    let v = view("");
    check(&v);
    // Qwen2.5-VL's default video (3 temporal patches, 2 × 2 tokens) outruns its sides.
    let now = get_rope_index(&v, false);
    assert_ne!(now, get_rope_index(&v, true));
    let v3 = view("v.lm=qwen3-vl-8b");
    check(&v3);
    assert_eq!(get_rope_index(&v3, false), get_rope_index(&v3, true));
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn every_input_the_controls_allow(
        qwen3 in any::<bool>(),
        text in TEXT.0..=TEXT.1,
        image in (IMAGE.0..=IMAGE.1, IMAGE.0..=IMAGE.1),
        video in (VIDEO.0..=VIDEO.1, VIDEO.0..=VIDEO.1, VIDEO.0..=VIDEO.1),
        stamp in STAMP.0..=STAMP.1,
    ) {
        let v = VisionView {
            lm: if qwen3 { VlModel::Qwen3 } else { VlModel::Qwen25 },
            text,
            image_rows: image.0,
            image_cols: image.1,
            frames: video.0,
            video_rows: video.1,
            video_cols: video.2,
            stamp,
            ..VisionView::default()
        };
        check(&v);
    }
}
