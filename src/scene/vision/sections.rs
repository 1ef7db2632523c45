//! fig-vision-sections, "Who owns which frequencies": the rotary pairs of a vision-language
//! model's language model on chapter 3's wavelength axis, each coloured by the position id that
//! drives it under the model's `mrope_section` ([`crate::math::mrope`]).

use super::super::{Height, Panel};
use crate::chart::lines::{Corner, Extras, LinePlotSpec, Series, series_color};
use crate::chart::theme::Theme;
use crate::math::mrope::{AXES, LmRope, QWEN3_VL_8B, QWEN25_VL_7B};
use crate::params::vision::VlModel;

/// The model a view chooses.
pub fn lm_rope(model: VlModel) -> &'static LmRope {
    match model {
        VlModel::Qwen25 => &QWEN25_VL_7B,
        VlModel::Qwen3 => &QWEN3_VL_8B,
    }
}

/// Each model a view can choose, with its name: the options of the figures' model choice.
pub fn models() -> Vec<(VlModel, &'static str)> {
    [VlModel::Qwen25, VlModel::Qwen3]
        .into_iter()
        .map(|m| (m, lm_rope(m).name))
        .collect()
}

/// The plot's height at CSS width `width`.
pub fn sections_height(width: f64) -> f64 {
    (width * 0.55).clamp(260.0, 400.0)
}

/// The plot: per axis, a dot at every pair it drives (pair index across, wavelength up on a log
/// axis); `marked` the pair under the cursor.
pub fn sections_spec(m: &LmRope, marked: Option<usize>, theme: Theme) -> (LinePlotSpec, Extras) {
    let owner = m.mrope.axis_of_pair();
    let n = owner.len();
    let series = (0..3u8)
        .map(|axis| Series {
            label: AXES[usize::from(axis)].into(),
            color: series_color(usize::from(axis)),
            points: (0..n)
                .filter(|&j| owner[j] == axis)
                .map(|j| (j as f64, m.wavelength(j).log10()))
                .collect(),
            dots: true,
            line: false,
        })
        .collect();
    let [t, h, w] = m.mrope.section;
    // One vertical range for both models, so that switching does not rescale the axis.
    let top = [&QWEN25_VL_7B, &QWEN3_VL_8B]
        .iter()
        .map(|x| x.wavelength(x.mrope.pairs.saturating_sub(1)))
        .fold(m.wavelength(n.saturating_sub(1)), f64::max)
        .log10();
    let spec = LinePlotSpec {
        // Short enough for a 360 px phone.
        title: format!("{}, {} [{t}, {h}, {w}]", m.name, m.layout()),
        x_desc: "rotary pair (0 the fastest)",
        y_desc: "wavelength, positions",
        x_range: -0.5..(n.max(1) as f64 - 0.5),
        // Room above the slowest pair for the legend's three lines.
        y_range: std::f64::consts::TAU.log10() - 0.3..top + 2.5,
        series,
        marker: marked
            .filter(|&j| j < n)
            .map(|j| (j as f64, format!("pair {j}"))),
        theme,
    };
    let extras = Extras {
        y_log: true,
        legend: Corner::TopLeft,
        ..Extras::default()
    };
    (spec, extras)
}

/// fig-vision-sections: the chosen model's pairs.
pub fn sections(views: &crate::params::Views, theme: Theme) -> Vec<(Panel, Height)> {
    let (spec, extras) = sections_spec(lm_rope(views.vision.lm), None, theme);
    vec![(Panel::Lines(spec, extras), Height::Rule(sections_height))]
}
