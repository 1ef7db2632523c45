//! fig-vision-ids, "Text and images in one sequence": the (t, h, w) position ids that a
//! vision-language model's language model gives every token of an input of text, an image and a
//! short video ([`crate::math::mrope`]), as three rows of numbers (with the original Qwen code's
//! ids where they differ) and as points in (t, h, w) space.

use std::fmt::Write as _;

use super::super::{CloudPanel, Height, Panel};
use super::sections::lm_rope;
use crate::chart::cloud::CloudSpec;
use crate::chart::idstrip::{self, Piece, PieceKind, StripSpec};
use crate::chart::theme::Theme;
use crate::math::mrope::{Block, Family, Resume, Segment};
use crate::params::vision::{VisionView, VlModel};

/// The input the view describes, as the chosen model's processor writes it, and each piece's name
/// and kind. Qwen2.5-VL: text, an image, text, a video of `frames` temporal patches, text.
/// Qwen3-VL writes the video as one block per temporal patch (two sampled frames; Qwen's code
/// calls it a frame), each after `stamp` tokens of text (its timestamp, with the start and end
/// tokens of the blocks around it).
pub fn input(v: &VisionView) -> Vec<(Segment, Piece)> {
    let mut out = Vec::new();
    let mut first = 0;
    let mut push = |segment: Segment, label: String, kind: PieceKind| {
        let len = segment.tokens();
        out.push((
            segment,
            Piece {
                first,
                len,
                label,
                kind,
            },
        ));
        first += len;
    };
    let text = Segment::Text(v.text);
    let (ih, iw) = (v.image_rows, v.image_cols);
    let (t, h, w) = (v.frames, v.video_rows, v.video_cols);
    push(text, "text".into(), PieceKind::Text);
    push(
        Segment::Vision { t: 1, h: ih, w: iw },
        format!("image {ih}×{iw}"),
        PieceKind::Image,
    );
    push(text, "text".into(), PieceKind::Text);
    match lm_rope(v.lm).mrope.family {
        Family::Qwen25Vl { .. } => push(
            Segment::Vision { t, h, w },
            format!("video {t}×{h}×{w}"),
            PieceKind::Video,
        ),
        Family::Qwen3Vl => {
            for k in 1..=t {
                push(Segment::Text(v.stamp), "time".into(), PieceKind::Text);
                push(
                    Segment::Vision { t: 1, h, w },
                    format!("video {k}/{t}"),
                    PieceKind::Video,
                );
            }
        }
    }
    push(text, "text".into(), PieceKind::Text);
    out
}

/// Everything the figure shows: the input, its blocks and every token's ids under transformers
/// 5.24's rule and the original Qwen code's.
#[derive(Clone, Debug, PartialEq)]
pub struct Ids {
    /// The pieces of the input, in order.
    pub pieces: Vec<Piece>,
    /// Its segments, placed by 5.24's rule.
    pub blocks: Vec<Block>,
    /// Placed by the original code's rule.
    pub original_blocks: Vec<Block>,
    /// Every token's (t, h, w), 5.24.
    pub ids: [Vec<usize>; 3],
    /// Every token's (t, h, w), the original code.
    pub original: [Vec<usize>; 3],
}

impl Ids {
    /// Tokens in the input.
    pub fn len(&self) -> usize {
        self.ids[0].len()
    }

    /// Whether the input has no tokens (never: every piece has at least one).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Token `k`'s piece.
    pub fn piece_of(&self, k: usize) -> Option<usize> {
        self.pieces
            .iter()
            .position(|p| (p.first..p.first + p.len).contains(&k))
    }

    /// Token `k`'s ids, 5.24's and the original code's.
    pub fn at(&self, k: usize) -> Option<([usize; 3], [usize; 3])> {
        (k < self.len()).then(|| {
            (
                [self.ids[0][k], self.ids[1][k], self.ids[2][k]],
                [
                    self.original[0][k],
                    self.original[1][k],
                    self.original[2][k],
                ],
            )
        })
    }

    /// The fourth row: where the original code's ids differ, the id itself when its three are
    /// equal (a text token), else how far they are shifted ("+3").
    pub fn original_row(&self) -> Vec<Option<String>> {
        (0..self.len())
            .map(|k| {
                let (ids, orig) = self.at(k)?;
                if ids == orig {
                    None
                } else if orig[0] == orig[1] && orig[1] == orig[2] {
                    Some(orig[0].to_string())
                } else {
                    Some(format!("{:+}", orig[0] as i64 - ids[0] as i64))
                }
            })
            .collect()
    }
}

/// The view's input and its ids.
pub fn ids(v: &VisionView) -> Ids {
    let m = &lm_rope(v.lm).mrope;
    let (segments, pieces): (Vec<Segment>, Vec<Piece>) = input(v).into_iter().unzip();
    // The figure's inputs are within what both rules accept (Qwen3-VL's blocks are T = 1).
    let placed = |resume| m.blocks(&segments, resume).unwrap_or_default();
    let ids = |resume| m.position_ids_by(&segments, resume).unwrap_or_default();
    Ids {
        pieces,
        blocks: placed(Resume::Transformers524),
        original_blocks: placed(Resume::Original),
        ids: ids(Resume::Transformers524),
        original: ids(Resume::Original),
    }
}

/// Rows of ids, owned ([`idstrip`] borrows them).
#[derive(Clone, Debug)]
pub struct IdsPanel {
    /// Caption.
    pub title: String,
    /// The ids.
    pub ids: Ids,
    /// The fourth row, as [`Ids::original_row`] writes it.
    pub other: Vec<Option<String>>,
    /// Page colours and scale.
    pub theme: Theme,
}

/// The fourth row's name.
pub const ORIGINAL: &str = "original";

impl IdsPanel {
    /// The strip's spec, `marked` the token outlined.
    pub fn spec(&self, marked: Option<usize>) -> StripSpec<'_> {
        strip_spec(
            self.title.clone(),
            &self.ids,
            &self.other,
            marked,
            self.theme,
        )
    }

    /// One CSV line per token: its piece and both rules' ids.
    pub fn write_csv(&self, out: &mut String) {
        out.push_str("token,piece,t,h,w,original t,original h,original w\n");
        for k in 0..self.ids.len() {
            let piece = self
                .ids
                .piece_of(k)
                .map_or("", |p| self.ids.pieces[p].label.as_str());
            if let Some(([t, h, w], [a, b, c])) = self.ids.at(k) {
                let _ = writeln!(out, "{k},{piece},{t},{h},{w},{a},{b},{c}");
            }
        }
    }
}

/// The strip of `ids` titled `title`, `other` its fourth row ([`Ids::original_row`]), `marked`
/// the token outlined.
pub fn strip_spec<'a>(
    title: String,
    ids: &'a Ids,
    other: &'a [Option<String>],
    marked: Option<usize>,
    theme: Theme,
) -> StripSpec<'a> {
    let [t, h, w] = &ids.ids;
    StripSpec {
        title,
        rows: [t, h, w],
        other_name: ORIGINAL,
        other,
        pieces: &ids.pieces,
        marked,
        theme,
    }
}

/// The strip's title.
pub fn strip_title(model: VlModel) -> String {
    format!("{}'s position ids, transformers 5.24", lm_rope(model).name)
}

/// The strip's height at CSS width `width` for `tokens` tokens.
pub fn strip_height(width: f64, tokens: usize) -> f64 {
    idstrip::height(width, tokens)
}

/// The cloud's height at CSS width `width`.
pub fn cloud_height(width: f64) -> f64 {
    (width * 0.55).clamp(280.0, 400.0)
}

/// The cloud's axes.
pub const CLOUD_AXES: [&str; 3] = ["t", "h", "w"];

/// The cloud's title.
pub const CLOUD_TITLE: &str = "The same ids as points in (t, h, w)";

/// Each token's (t, h, w), in input order.
pub fn points(ids: &Ids) -> Vec<[f64; 3]> {
    let [t, h, w] = &ids.ids;
    (0..ids.len())
        .map(|k| [t[k] as f64, h[k] as f64, w[k] as f64])
        .collect()
}

/// The cloud of `points` ([`points`]), seen from `[yaw, pitch]` (degrees), point `selected`
/// labelled.
pub fn cloud_spec(
    points: &[[f64; 3]],
    [yaw, pitch]: [f64; 2],
    selected: Option<(usize, String)>,
    theme: Theme,
) -> CloudSpec<'_> {
    CloudSpec {
        title: CLOUD_TITLE.into(),
        points,
        axes: CLOUD_AXES,
        shown: points.len(),
        yaw: yaw.to_radians(),
        pitch: pitch.to_radians(),
        selected,
        order: "token",
        positive: true,
        angles: None,
        theme,
    }
}

/// fig-vision-ids: the rows of ids and the cloud.
pub fn picture(views: &crate::params::Views, theme: Theme) -> Vec<(Panel, Height)> {
    let v = &views.vision;
    let ids = ids(v);
    let cloud = CloudPanel::owning(cloud_spec(&points(&ids), v.ids_view, None, theme));
    let n = ids.len();
    let strip = IdsPanel {
        title: strip_title(v.lm),
        other: ids.original_row(),
        ids,
        theme,
    };
    vec![
        (Panel::Ids(strip), Height::Counted(strip_height, n)),
        (Panel::Cloud(cloud), Height::Rule(cloud_height)),
    ]
}
