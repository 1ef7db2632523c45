//! The two figures in the plane: one 2D vector turned by its position (fig-rope-2d), and the
//! words of two sentences turned by theirs (fig-rope-sentences).

use std::f64::consts::PI;

use super::super::{Height, Panel};
use crate::chart::lines::series_color;
use crate::chart::plane::{AngleArc, Arrow, PlaneSpec};
use crate::chart::theme::Theme;
use crate::math::attention::tokenize;
use crate::math::plane::{angle_between, direction, find_pair, norm, rotate, rotated_words};
use crate::params::Views;

// ------------------------------------------------------------------ fig-rope-2d

/// The plane's height.
pub fn vector_height(width: f64) -> f64 {
    (width * 0.62).clamp(300.0, 460.0)
}

/// A position: whole while stopped, one decimal while animating.
pub fn fmt_pos(m: f64) -> String {
    if (m - m.round()).abs() < 1e-9 {
        format!("{}", m.round() as i64)
    } else {
        format!("{m:.1}")
    }
}

/// `v` (faint, at m = 0) and `v` turned by `m·theta` (radians), with the trail of the whole
/// positions up to `m` on the circle of radius `|v|` and the angle swept.
pub fn vector_spec(v: [f64; 2], m: f64, theta: f64, t: Theme) -> PlaneSpec {
    let r = norm(v);
    let extent = if r <= 1.25 { 1.5 } else { 3.0 };
    let turned = rotate(v, m * theta);
    let whole = m.floor() as usize;
    let trail: Vec<[f64; 2]> = (0..=whole).map(|k| rotate(v, k as f64 * theta)).collect();
    let sweep = (m * theta).rem_euclid(2.0 * PI);
    let start = direction(v);
    let title = format!(
        "v turned by m·θ = {:.1}° at m = {}",
        (m * theta).to_degrees(),
        fmt_pos(m)
    );
    PlaneSpec {
        title,
        extent,
        circle: Some(r),
        trail,
        trail_color: series_color(0),
        arcs: vec![AngleArc {
            from: start,
            to: start + sweep,
            radius: (r * 0.35).max(extent * 0.12),
            color: series_color(1),
            label: format!("{:.0}°", sweep.to_degrees()),
        }],
        arrows: vec![
            Arrow {
                tip: v,
                color: t.text,
                label: "v (m = 0)".into(),
                faint: true,
            },
            Arrow {
                tip: turned,
                color: series_color(0),
                label: format!("m = {}", fmt_pos(m)),
                faint: false,
            },
        ],
        theme: t,
    }
}

/// fig-rope-2d: the vector at its position (not animating).
pub fn vector(v: &Views, theme: Theme) -> Vec<(Panel, Height)> {
    let r = &v.rope;
    let spec = vector_spec(
        r.vector,
        r.vector_pos as f64,
        r.theta_deg.to_radians(),
        theme,
    );
    vec![(Panel::Plane(spec), Height::Rule(vector_height))]
}

// ------------------------------------------------------------------ fig-rope-sentences

/// Each sentence's plane's height.
pub fn sentence_height(width: f64) -> f64 {
    (width * 0.95).clamp(280.0, 420.0)
}

/// One sentence's picture: what it shows and the pair's angle, if both words are in it.
#[derive(Clone, Debug)]
pub struct Reading {
    /// The sentence's words.
    pub words: Vec<String>,
    /// Where the two compared words sit, if both are there.
    pub pair: Option<(usize, usize)>,
    /// The angle from the first to the second, radians.
    pub angle: Option<f64>,
}

/// Reads `sentence` with the compared `pair_words`, every word turned by its position × `theta`.
pub fn read(sentence: &str, pair_words: &[String; 2], theta: f64) -> Reading {
    let words = tokenize(sentence);
    let pair = find_pair(&words, &pair_words[0], &pair_words[1]);
    let turned = rotated_words(&words, theta);
    let angle = pair.map(|(a, b)| angle_between(turned[a], turned[b]));
    Reading { words, pair, angle }
}

/// A sentence's words as unit arrows turned by position × `theta`, the compared pair emphasised
/// with the angle between them.
pub fn sentence_spec(title: &str, r: &Reading, theta: f64, t: Theme) -> PlaneSpec {
    let turned = rotated_words(&r.words, theta);
    let mut arrows: Vec<Arrow> = Vec::new();
    let emphasised = |k: usize| r.pair.is_some_and(|(a, b)| k == a || k == b);
    for (k, (w, v)) in r.words.iter().zip(&turned).enumerate() {
        if !emphasised(k) {
            arrows.push(Arrow {
                tip: *v,
                color: t.axis,
                label: format!("{w} ({k})"),
                faint: true,
            });
        }
    }
    let mut arcs = Vec::new();
    if let (Some((a, b)), Some(angle)) = (r.pair, r.angle) {
        for (slot, k) in [a, b].into_iter().enumerate() {
            arrows.push(Arrow {
                tip: turned[k],
                color: series_color(slot),
                label: format!("{} ({k})", r.words[k]),
                faint: false,
            });
        }
        let from = direction(turned[a]);
        arcs.push(AngleArc {
            from,
            to: from + angle,
            radius: 0.45,
            color: series_color(2),
            label: format!("{:.1}°", angle.to_degrees()),
        });
    }
    PlaneSpec {
        title: title.to_string(),
        extent: 1.35,
        circle: Some(1.0),
        trail: Vec::new(),
        trail_color: t.axis,
        arcs,
        arrows,
        theme: t,
    }
}

/// The panels' titles, in page order.
pub const SENTENCE_TITLES: [&str; 2] = ["Sentence 1", "Sentence 2"];

/// fig-rope-sentences: both sentences, side by side on the page.
pub fn sentences(v: &Views, theme: Theme) -> Vec<(Panel, Height)> {
    let r = &v.rope;
    let theta = r.sentence_theta_deg.to_radians();
    r.sentences
        .iter()
        .zip(SENTENCE_TITLES)
        .map(|(s, title)| {
            let spec = sentence_spec(title, &read(s, &r.words, theta), theta, theme);
            (Panel::Plane(spec), Height::Rule(sentence_height))
        })
        .collect()
}
