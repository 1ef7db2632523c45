//! fig-vision-video, "A video as a 3D cloud": a video's tokens at their position ids (t, h, w) —
//! the grid over time as the language model places it — each coloured by the angle that a chosen
//! rotary pair turns it by: the pair's frequency times the id that drives it
//! ([`crate::math::mrope`]).

use super::super::{CloudPanel, Height, Panel};
use super::sections::lm_rope;
use crate::chart::cloud::CloudSpec;
use crate::chart::theme::Theme;
use crate::math::mrope::{AXES, Family, LmRope, Segment};
use crate::params::vision::VisionView;

/// The video as the chosen model's processor writes it, alone at the start of the sequence:
/// Qwen2.5-VL one block of all its temporal patches; Qwen3-VL one block per temporal patch, each
/// after `stamp` tokens of text (its timestamp).
pub fn input(v: &VisionView) -> Vec<Segment> {
    let (t, h, w) = (v.clip_frames, v.clip_rows, v.clip_cols);
    match lm_rope(v.lm).mrope.family {
        Family::Qwen25Vl { .. } => vec![Segment::Vision { t, h, w }],
        Family::Qwen3Vl => (0..t)
            .flat_map(|_| [Segment::Text(v.stamp), Segment::Vision { t: 1, h, w }])
            .collect(),
    }
}

/// The video's tokens, their ids and the chosen pair's angle at each.
#[derive(Clone, Debug, PartialEq)]
pub struct Clip {
    /// Temporal patches, rows, columns.
    pub shape: (usize, usize, usize),
    /// Each video token's (t, h, w) ids, in order (temporal patch, then row, then column).
    pub ids: Vec<[usize; 3]>,
    /// The chosen pair (clamped to the model's pairs).
    pub pair: usize,
    /// The axis (0 = t, 1 = h, 2 = w) that drives it.
    pub axis: u8,
    /// Its frequency, radians per position: `θ^(−2·pair/head_dim)`.
    pub omega: f64,
    /// Each token's angle for the pair, `id[axis]·omega`, radians.
    pub angles: Vec<f64>,
}

impl Clip {
    /// Token `(k, i, j)`'s index, if inside the video.
    pub fn index(&self, (k, i, j): (usize, usize, usize)) -> Option<usize> {
        let (t, h, w) = self.shape;
        (k < t && i < h && j < w).then_some((k * h + i) * w + j)
    }

    /// Token `n`'s place: (temporal patch, row, column).
    pub fn place(&self, n: usize) -> (usize, usize, usize) {
        let (_, h, w) = self.shape;
        (n / (h * w), (n / w) % h, n % w)
    }
}

/// The view's video and its pair.
pub fn clip(v: &VisionView) -> Clip {
    let m: &LmRope = lm_rope(v.lm);
    let pairs = m.mrope.pairs;
    let pair = v.pair.min(pairs.saturating_sub(1));
    let axis = m.mrope.axis_of_pair().get(pair).copied().unwrap_or(0);
    let omega = m.omega(pair);
    let input = input(v);
    // The figure's inputs are within what both models accept (Qwen3-VL's blocks are T = 1).
    let [t, h, w] = m.mrope.position_ids(&input).unwrap_or_default();
    let mut ids = Vec::with_capacity(t.len());
    let mut at = 0;
    for segment in &input {
        let n = segment.tokens();
        if let Segment::Vision { .. } = segment {
            ids.extend((at..at + n).map(|k| [t[k], h[k], w[k]]));
        }
        at += n;
    }
    let angles = ids
        .iter()
        .map(|id| id[usize::from(axis)] as f64 * omega)
        .collect();
    Clip {
        shape: (v.clip_frames, v.clip_rows, v.clip_cols),
        ids,
        pair,
        axis,
        omega,
        angles,
    }
}

/// The cloud's axes: the position ids.
pub const CLOUD_AXES: [&str; 3] = ["t", "h", "w"];

/// Each token at its (t, h, w) ids, in order.
pub fn points(clip: &Clip) -> Vec<[f64; 3]> {
    clip.ids.iter().map(|id| id.map(|x| x as f64)).collect()
}

/// The cloud's title.
pub fn title(m: &LmRope, clip: &Clip) -> String {
    format!(
        // Short enough for a 360 px phone.
        "{}, pair {}, follows {}",
        m.name,
        clip.pair,
        AXES[usize::from(clip.axis)]
            .split(' ')
            .next()
            .unwrap_or("t")
    )
}

/// The cloud's height at CSS width `width`.
pub fn cloud_height(width: f64) -> f64 {
    (width * 0.62).clamp(300.0, 460.0)
}

/// The cloud of model `m`'s `clip` (its [`points`]), its first `shown` temporal patches drawn,
/// seen from `[yaw, pitch]` (degrees), point `selected` labelled.
pub fn cloud_spec<'a>(
    m: &LmRope,
    clip: &'a Clip,
    points: &'a [[f64; 3]],
    shown: usize,
    [yaw, pitch]: [f64; 2],
    selected: Option<(usize, String)>,
    theme: Theme,
) -> CloudSpec<'a> {
    let (t, h, w) = clip.shape;
    CloudSpec {
        title: title(m, clip),
        points,
        axes: CLOUD_AXES,
        shown: shown.min(t) * h * w,
        yaw: yaw.to_radians(),
        pitch: pitch.to_radians(),
        selected,
        order: "token",
        positive: true,
        angles: Some(&clip.angles),
        theme,
    }
}

/// fig-vision-video: the whole video.
pub fn picture(views: &crate::params::Views, theme: Theme) -> Vec<(Panel, Height)> {
    let v = &views.vision;
    let clip = clip(v);
    let points = points(&clip);
    let spec = cloud_spec(
        lm_rope(v.lm),
        &clip,
        &points,
        v.clip_frames,
        v.clip_view,
        None,
        theme,
    );
    let panel = CloudPanel::owning(spec);
    vec![(Panel::Cloud(panel), Height::Rule(cloud_height))]
}
