//! Chapter 6's pictures ("Beyond a line"): a grid of image patches coloured by each patch's RoPE
//! score with a chosen one, under axial 2D RoPE as Qwen2.5-VL's vision encoder computes it
//! ([`crate::math::axial`]) and with the grid read row by row as one line of 1D RoPE; the three
//! position ids a vision-language model's language model gives text, image and video tokens
//! ([`ids`]); and which id drives each rotary pair ([`sections`]).

pub mod ids;
pub mod sections;
pub mod video;

use super::{Build, Height, MatrixPanel, Panel};
use crate::chart::colorbar::ColorBar;
use crate::chart::colormap::Scale;
use crate::chart::heatmap::HeatmapSpec;
use crate::chart::theme::Theme;
use crate::math::axial;
use crate::params::Views;
use crate::params::rope::qk_vectors;
use crate::params::vision::VisionView;

/// θ of Qwen2.5-VL's vision rotary embedding (`rope_theta`, left to the config's default 10000
/// in transformers 5.24's `Qwen2_5_VLVisionConfig`), used by both grids.
pub const VISION_THETA: f64 = 10_000.0;

/// The chapter's pictures, by figure id.
pub const PICTURES: &[(&str, Build)] = &[
    ("fig-vision-grid", grid),
    ("fig-vision-ids", ids::picture),
    ("fig-vision-sections", sections::sections),
    ("fig-vision-video", video::picture),
];

/// A grid's height at CSS width `width` (each of the two grids).
pub fn grid_height(width: f64) -> f64 {
    (width * 0.75).clamp(200.0, 460.0)
}

/// Both grids' scores with the chosen patch, row-major, and the colour scale's half-range.
#[derive(Clone, Debug, PartialEq)]
pub struct GridScores {
    /// Axial 2D RoPE.
    pub axial: Vec<f64>,
    /// The grid read row by row as one line of 1D RoPE.
    pub flat: Vec<f64>,
    /// The largest |score| of either grid (at least a tiny positive number): the colour bar
    /// runs from minus this to this, shared by the two.
    pub bound: f64,
}

/// The scores the view's two grids show.
pub fn scores(v: &VisionView) -> GridScores {
    let (q, k) = qk_vectors(v.qk, v.head_dim, v.seed);
    let shape = (v.rows, v.cols);
    let at = v.patch();
    let axial = axial::grid_scores(VISION_THETA, shape, at, &q, &k);
    let flat = axial::flattened_grid_scores(VISION_THETA, shape, at, &q, &k);
    let bound = axial
        .iter()
        .chain(&flat)
        .fold(f64::MIN_POSITIVE, |m, s| m.max(s.abs()));
    GridScores { axial, flat, bound }
}

/// The two grids' frames: axial, then row by row; one colour scale `−bound … bound`.
pub fn grid_specs(v: &VisionView, bound: f64, theme: Theme) -> [HeatmapSpec; 2] {
    let (r, c) = v.patch();
    let spec = |title: String| HeatmapSpec {
        title,
        x_desc: "patch column",
        y_desc: "patch row",
        cols: 0..v.cols,
        rows: 0..v.rows,
        colorbar: ColorBar {
            lo: -bound,
            hi: bound,
            label: "q·k with the outlined patch",
            scale: Scale::Diverging,
        },
        col_names: None,
        row_names: None,
        theme,
    };
    [
        spec(format!("Axial 2D RoPE: q at patch ({r}, {c})")),
        spec(format!(
            "Row by row as one line: q at position {}",
            r * v.cols + c
        )),
    ]
}

/// fig-vision-grid: the two grids, outlined at the chosen patch.
pub fn grid(views: &Views, theme: Theme) -> Vec<(Panel, Height)> {
    let v = &views.vision;
    let s = scores(v);
    let [axial_spec, flat_spec] = grid_specs(v, s.bound, theme);
    let panel = |spec, values| {
        (
            Panel::Matrix(MatrixPanel {
                spec,
                values,
                stride: v.cols,
                toeplitz: false,
                outlines: Vec::new(),
                cell: Some(v.patch()),
            }),
            Height::Rule(grid_height),
        )
    };
    vec![panel(axial_spec, s.axial), panel(flat_spec, s.flat)]
}
