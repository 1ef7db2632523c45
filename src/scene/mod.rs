//! Every figure as data: for a figure id and the views a link describes, the panels the figure
//! draws (line plots, heatmaps, clock faces) with their titles, axes and numbers.
//!
//! One source for each figure's picture: the browser paints these specs on canvases
//! (`app/figures`), `pe render` draws them natively to SVG through the same chart functions, and
//! [`Picture::csv`] writes the numbers they show. No Leptos and no web here.

mod checks;
pub mod context;
pub mod models;
pub mod png;
pub mod rope;
pub mod sinusoids;
pub mod svg;
pub mod tables;
pub mod vision;

use crate::params::Declared;
use std::fmt::Write as _;

use crate::chart::clock::ClockSpec;
use crate::chart::cloud::CloudSpec;
use crate::chart::colorbar::ColorBar;
use crate::chart::heatmap::HeatmapSpec;
use crate::chart::lines::{Extras, LinePlotSpec, Series};
use crate::chart::pairs::PairsSpec;
use crate::chart::plane::PlaneSpec;
use crate::chart::theme::Theme;
use crate::params::Views;
use plotters::prelude::RGBColor;

/// A panel's CSS height for a CSS width: the figure's own rule, shared with the page, and for a
/// rule that depends on how many items the panel holds (the wheels: one per pair), that count.
#[derive(Clone, Copy, Debug)]
pub enum Height {
    /// `rule(width)`.
    Rule(fn(f64) -> f64),
    /// `rule(width, items)`.
    Counted(fn(f64, usize) -> f64, usize),
}

impl Height {
    /// The height at CSS width `width`.
    pub fn at(self, width: f64) -> f64 {
        match self {
            Height::Rule(rule) => rule(width),
            Height::Counted(rule, items) => rule(width, items),
        }
    }
}

/// A matrix drawn as a heatmap: `values` row-major with `stride` columns (or, `toeplitz`, the
/// `2·stride − 1` diagonals of a `stride × stride` matrix that depends only on `r − c`); the spec's
/// `rows` and `cols` pick the window shown; `outlines` are the matrix rows outlined (the current
/// position).
#[derive(Clone, Debug)]
pub struct MatrixPanel {
    /// Frame, axes and colour bar.
    pub spec: HeatmapSpec,
    /// The matrix, row-major, or its diagonals.
    pub values: Vec<f64>,
    /// Columns per row of `values`.
    pub stride: usize,
    /// `values` are the diagonals: entry `(r, c)` is `values[r + stride − 1 − c]` (a 4096 × 4096
    /// matrix of RoPE scores is never materialised).
    pub toeplitz: bool,
    /// Rows outlined.
    pub outlines: Vec<usize>,
    /// A cell outlined (the chosen patch of a grid), if any.
    pub cell: Option<(usize, usize)>,
}

impl MatrixPanel {
    /// Entry `(r, c)` of the matrix (NaN outside it).
    pub fn value(&self, r: usize, c: usize) -> f64 {
        if c >= self.stride {
            return f64::NAN;
        }
        let at = if self.toeplitz {
            (r + self.stride).checked_sub(1 + c)
        } else {
            Some(r * self.stride + c)
        };
        at.and_then(|k| self.values.get(k))
            .copied()
            .unwrap_or(f64::NAN)
    }
}

/// The most cells a heatmap's CSV holds: a larger matrix is written at evenly sampled rows and
/// columns (at most [`CSV_SIDE`] of each), as its picture samples them.
pub const CSV_CELLS: usize = 1 << 20;

/// Rows and columns of a sampled heatmap CSV.
pub const CSV_SIDE: usize = 1024;

/// A point cloud in 3D (the page's [`CloudSpec`] borrows its points; this owns them).
#[derive(Clone, Debug)]
pub struct CloudPanel {
    /// Caption.
    pub title: String,
    /// The points, in position order.
    pub points: Vec<[f64; 3]>,
    /// Names of the three axes.
    pub axes: [&'static str; 3],
    /// How many points are shown (the first ones).
    pub shown: usize,
    /// Turn about the vertical axis, radians.
    pub yaw: f64,
    /// Tilt towards the viewer, radians.
    pub pitch: f64,
    /// What the points' order counts ("position", "token").
    pub order: &'static str,
    /// The coordinates are all ≥ 0 ([`CloudSpec::positive`]).
    pub positive: bool,
    /// Each point's angle, which colours it ([`CloudSpec::angles`]).
    pub angles: Option<Vec<f64>>,
    /// Page colours and scale.
    pub theme: Theme,
}

impl CloudPanel {
    /// The panel of `spec`, owning copies of its points and angles (its selection dropped).
    pub fn owning(spec: CloudSpec<'_>) -> CloudPanel {
        CloudPanel {
            title: spec.title,
            points: spec.points.to_vec(),
            axes: spec.axes,
            shown: spec.shown,
            yaw: spec.yaw,
            pitch: spec.pitch,
            order: spec.order,
            positive: spec.positive,
            angles: spec.angles.map(<[f64]>::to_vec),
            theme: spec.theme,
        }
    }

    /// The chart's spec, borrowing the points.
    pub fn spec(&self) -> CloudSpec<'_> {
        CloudSpec {
            title: self.title.clone(),
            points: &self.points,
            axes: self.axes,
            shown: self.shown,
            yaw: self.yaw,
            pitch: self.pitch,
            selected: None,
            order: self.order,
            positive: self.positive,
            angles: self.angles.as_deref(),
            theme: self.theme,
        }
    }
}

/// Small multiples: `count` square matrices of the same kind on one colour scale (ALiBi's bias
/// per head), each sampled at `side × side` cells, labelled.
#[derive(Clone, Debug)]
pub struct TilesPanel {
    /// Caption.
    pub title: String,
    /// One label per tile.
    pub labels: Vec<String>,
    /// The matrix index each of a tile's `side` rows (and columns) shows.
    pub indices: Vec<usize>,
    /// `count × side × side` values, tile by tile, row-major (NaN: no value, hatched).
    pub values: Vec<f64>,
    /// The colour scale.
    pub colorbar: ColorBar,
    /// The tile the page outlines (the chosen head), if any.
    pub selected: Option<usize>,
    /// Page colours and scale.
    pub theme: Theme,
}

impl TilesPanel {
    /// Cells per tile side.
    pub fn side(&self) -> usize {
        self.indices.len()
    }
}

/// One drawing of a figure.
#[derive(Clone, Debug)]
pub enum Panel {
    /// Curves over a shared x axis.
    Lines(LinePlotSpec, Extras),
    /// A heatmap.
    Matrix(MatrixPanel),
    /// Clock faces.
    Clocks(ClockSpec),
    /// Arrows in the plane.
    Plane(PlaneSpec),
    /// Which coordinates pair up under each RoPE layout.
    Pairs(PairsSpec),
    /// Points in 3D.
    Cloud(CloudPanel),
    /// Small multiples.
    Tiles(TilesPanel),
    /// Rows of position ids.
    Ids(vision::ids::IdsPanel),
}

impl Panel {
    /// The panel's title.
    pub fn title(&self) -> &str {
        match self {
            Panel::Lines(spec, _) => &spec.title,
            Panel::Matrix(m) => &m.spec.title,
            Panel::Clocks(spec) => &spec.title,
            Panel::Plane(spec) => &spec.title,
            Panel::Pairs(spec) => &spec.title,
            Panel::Cloud(c) => &c.title,
            Panel::Tiles(t) => &t.title,
            Panel::Ids(p) => &p.title,
        }
    }
}

/// `v` as points `(index, value)`.
pub(crate) fn indexed(v: &[f64]) -> Vec<(f64, f64)> {
    v.iter().enumerate().map(|(i, &y)| (i as f64, y)).collect()
}

/// A plain line series: joined points, no dots.
pub(crate) fn line(label: String, color: RGBColor, points: Vec<(f64, f64)>) -> Series {
    Series {
        label,
        color,
        points,
        dots: false,
        line: true,
    }
}

/// A line plot without extras as a panel.
pub(crate) fn lines(spec: LinePlotSpec, height: Height) -> (Panel, Height) {
    (Panel::Lines(spec, Extras::default()), height)
}

/// A figure's panels, top to bottom, each with its height rule.
#[derive(Clone, Debug)]
pub struct Picture {
    /// The figure's id (`fig-waves`).
    pub id: &'static str,
    /// Its title in the contents.
    pub title: &'static str,
    /// The state it shows, as the query of a link (without the defaults).
    pub query: String,
    /// Its panels.
    pub panels: Vec<(Panel, Height)>,
}

/// Builds one figure's panels from the views (listed by figure id in its chapter's `PICTURES`).
pub type Build = fn(&Views, Theme) -> Vec<(Panel, Height)>;

/// The picture builders of chapter `chapter` (its id in [`crate::book::CHAPTERS`]), by figure id.
pub fn builders(chapter: &str) -> Vec<(&'static str, Build)> {
    match chapter {
        "sinusoids" => [sinusoids::OPENING_PICTURES, sinusoids::REST_PICTURES].concat(),
        "rope" => rope::PICTURES.to_vec(),
        "context" => context::PICTURES.to_vec(),
        "tables" => tables::PICTURES.to_vec(),
        "models" => models::PICTURES.to_vec(),
        "vision" => vision::PICTURES.to_vec(),
        _ => Vec::new(),
    }
}

/// Figure `id`'s builder among `builders`.
pub fn builder(builders: &[(&str, Build)], id: &str) -> Option<Build> {
    builders.iter().find(|(f, _)| *f == id).map(|&(_, b)| b)
}

/// The ids of the figures [`picture`] can draw, in book order.
pub fn ids() -> impl Iterator<Item = &'static str> {
    crate::book::CHAPTERS
        .iter()
        .flat_map(|c| c.figures.iter())
        .filter(|f| f.picture)
        .map(|f| f.id)
}

/// Whether [`picture`] can draw figure `id` (every figure but the one that is text).
pub fn has_picture(id: &str) -> bool {
    crate::book::find_figure(id).is_some_and(|(_, f)| f.picture)
}

/// The query pairs of the views a chapter's figures read.
fn chapter_query(chapter: &str, views: &Views) -> Vec<(&'static str, String)> {
    match chapter {
        "sinusoids" => {
            let mut q = views.sinusoidal.to_query();
            q.extend(views.order.to_query());
            q.extend(views.naive.to_query());
            q
        }
        "rope" => {
            // Three figures of chapter 2 read chapter 1's sentence.
            let mut q = views.rope.to_query();
            q.extend(views.order.to_query());
            q
        }
        "context" => views.context.to_query(),
        "models" => views.models.to_query(),
        "vision" => views.vision.to_query(),
        _ => views.tables.to_query(),
    }
}

/// Figure `id` in the state `views` describe, drawn in `theme`. An unknown id, or a figure that is
/// text (the comparison table), is an error naming the ids there are.
pub fn picture(id: &str, views: &Views, theme: Theme) -> Result<Picture, String> {
    let known = || ids().collect::<Vec<_>>().join(", ");
    let Some((chapter, figure)) = crate::book::find_figure(id) else {
        return Err(format!(
            "no figure “{}” (figures: {})",
            crate::params::quote(id),
            known()
        ));
    };
    let Some(build) = builder(&builders(chapter.id), id) else {
        return Err(format!(
            "{id} is a table of text, not a picture (figures drawn here: {})",
            known()
        ));
    };
    Ok(draw(chapter.id, figure, build, views, theme))
}

/// `figure` of chapter `chapter`, drawn by `build` in the state `views` describe, in `theme`.
pub fn draw(
    chapter: &str,
    figure: &crate::book::Figure,
    build: Build,
    views: &Views,
    theme: Theme,
) -> Picture {
    Picture {
        id: figure.id,
        title: figure.title,
        query: crate::params::build_query(&chapter_query(chapter, views)),
        panels: build(views, theme),
    }
}

/// `text` as one CSV field: quoted when it holds a comma, quote or line break (RFC 4180).
fn field(text: &str) -> String {
    if text.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", text.replace('"', "\"\""))
    } else {
        text.to_string()
    }
}

/// A number as CSV writes it: the shortest digits that read back as the same `f64`, in plain
/// notation (no exponent).
fn number(x: f64) -> String {
    format!("{x}")
}

impl Picture {
    /// The numbers the figure shows, as CSV (RFC 4180, `\n` line ends): comment lines (`#`) name
    /// the figure and its state, then one table per panel, each after a `# panel k: title` line
    /// and a header row. Line plots whose series share their x values are one row per x and one
    /// column per series; others one row per point (`series, x, y`). A heatmap is one row per
    /// matrix row, its first column the row index (or name); a clock panel one row per clock.
    pub fn csv(&self) -> String {
        let mut out = String::new();
        let _ = writeln!(
            out,
            "# Positional Encoding Explorer · {} · {}",
            self.id, self.title
        );
        let state = if self.query.is_empty() {
            "every control at its default".to_string()
        } else {
            self.query.clone()
        };
        let _ = writeln!(out, "# state: {state}");
        for (k, (panel, _)) in self.panels.iter().enumerate() {
            if k > 0 {
                out.push('\n');
            }
            let _ = writeln!(out, "# panel {}: {}", k + 1, panel.title());
            match panel {
                Panel::Lines(spec, extras) => lines_csv(spec, extras, &mut out),
                Panel::Matrix(m) => matrix_csv(m, &mut out),
                Panel::Plane(spec) => {
                    out.push_str("arrow,x,y,length,angle (rad)\n");
                    for a in &spec.arrows {
                        let [x, y] = a.tip;
                        let _ = writeln!(
                            out,
                            "{},{},{},{},{}",
                            field(&a.label),
                            number(x),
                            number(y),
                            number(x.hypot(y)),
                            number(y.atan2(x))
                        );
                    }
                }
                Panel::Pairs(spec) => {
                    out.push_str("layout,pair,first coordinate,second coordinate\n");
                    let r = spec.rotary_dim.clamp(2, spec.dim.max(2));
                    for (layout, name) in &spec.layouts {
                        for i in 0..r / 2 {
                            let (a, b) = crate::math::rope::pair(*layout, r, i);
                            let _ = writeln!(out, "{},{i},{a},{b}", field(name));
                        }
                    }
                }
                Panel::Cloud(c) => {
                    let [a, b, d] = c.axes;
                    let angle = if c.angles.is_some() {
                        ",angle (rad)"
                    } else {
                        ""
                    };
                    let _ = writeln!(
                        out,
                        "{},{},{},{}{angle}",
                        field(c.order),
                        field(a),
                        field(b),
                        field(d)
                    );
                    for (k, p) in c.points.iter().take(c.shown).enumerate() {
                        let angle = c
                            .angles
                            .as_ref()
                            .and_then(|a| a.get(k))
                            .map_or(String::new(), |x| format!(",{}", number(*x)));
                        let _ = writeln!(
                            out,
                            "{k},{},{},{}{angle}",
                            number(p[0]),
                            number(p[1]),
                            number(p[2])
                        );
                    }
                }
                Panel::Ids(p) => p.write_csv(&mut out),
                Panel::Tiles(t) => {
                    out.push_str("tile,row,column,value\n");
                    let side = t.side();
                    for (k, label) in t.labels.iter().enumerate() {
                        for (y, r) in t.indices.iter().enumerate() {
                            for (x, c) in t.indices.iter().enumerate() {
                                let v = t.values.get((k * side + y) * side + x).copied();
                                let v = v.map(number).unwrap_or_default();
                                let _ = writeln!(out, "{},{r},{c},{v}", field(label));
                            }
                        }
                    }
                }
                Panel::Clocks(spec) => {
                    out.push_str("clock,label,angle (rad),angle mod 2π (rad)\n");
                    for (i, c) in spec.clocks.iter().enumerate() {
                        let label = format!("{} · {}", c.label, c.sublabel);
                        let _ = writeln!(
                            out,
                            "{i},{},{},{}",
                            field(&label),
                            number(c.angle),
                            number(c.angle.rem_euclid(std::f64::consts::TAU))
                        );
                    }
                }
            }
        }
        out
    }
}

/// `10^v`, snapped to the nearest integer when within rounding of it (a distance of 3 plotted as
/// `log₁₀ 3` comes back as 3, not 2.9999999999999996).
fn unlog10(v: f64) -> f64 {
    let x = 10f64.powf(v);
    if (x - x.round()).abs() <= 1e-9 * x.abs().max(1.0) {
        x.round()
    } else {
        x
    }
}

/// Series `k`'s name in a CSV: its legend label, or for a curve the legend leaves unnamed (the
/// lower half of a ± band, the other heads drawn in grey), the last named one before it with
/// `#k`, else “series k”.
fn series_name(spec: &LinePlotSpec, k: usize) -> String {
    let label = &spec.series[k].label;
    if !label.is_empty() {
        return label.clone();
    }
    spec.series[..k]
        .iter()
        .rev()
        .find(|s| !s.label.is_empty())
        .map_or_else(|| format!("series {k}"), |s| format!("{} #{k}", s.label))
}

/// A line plot's points. A logarithmic axis holds `log₁₀` of its quantity: the CSV holds the
/// quantity itself.
fn lines_csv(spec: &LinePlotSpec, extras: &Extras, out: &mut String) {
    let unlog = |log: bool| move |v: f64| if log { unlog10(v) } else { v };
    let (fx, fy) = (unlog(extras.x_log), unlog(extras.y_log));
    let first = spec.series.first().map(|s| &s.points);
    let shared = first.is_some_and(|xs| {
        spec.series
            .iter()
            .all(|s| s.points.len() == xs.len() && s.points.iter().zip(xs).all(|(a, b)| a.0 == b.0))
    });
    if shared {
        out.push_str(&field(spec.x_desc));
        for k in 0..spec.series.len() {
            out.push(',');
            out.push_str(&field(&series_name(spec, k)));
        }
        out.push('\n');
        for (i, (x, _)) in first.into_iter().flatten().enumerate() {
            out.push_str(&number(fx(*x)));
            for s in &spec.series {
                out.push(',');
                out.push_str(&number(fy(s.points[i].1)));
            }
            out.push('\n');
        }
    } else {
        let _ = writeln!(out, "series,{},{}", field(spec.x_desc), field(spec.y_desc));
        for (k, s) in spec.series.iter().enumerate() {
            let label = field(&series_name(spec, k));
            for (x, y) in &s.points {
                let _ = writeln!(out, "{label},{},{}", number(fx(*x)), number(fy(*y)));
            }
        }
    }
}

fn matrix_csv(m: &MatrixPanel, out: &mut String) {
    let spec = &m.spec;
    let name = |names: &Option<Vec<String>>, k: usize, i: usize| {
        names
            .as_ref()
            .and_then(|n| n.get(k))
            .cloned()
            .unwrap_or_else(|| i.to_string())
    };
    let (mut rows, mut cols): (Vec<usize>, Vec<usize>) =
        (spec.rows.clone().collect(), spec.cols.clone().collect());
    if rows.len() * cols.len() > CSV_CELLS {
        rows = crate::chart::colormap::sample_indices(spec.rows.clone(), CSV_SIDE);
        cols = crate::chart::colormap::sample_indices(spec.cols.clone(), CSV_SIDE);
        let _ = writeln!(
            out,
            "# sampled: {} of {} rows and {} of {} columns, evenly spaced (the header and first column give each one's index)",
            rows.len(),
            spec.rows.len(),
            cols.len(),
            spec.cols.len()
        );
    }
    out.push_str(&field(&format!("{} \\ {}", spec.y_desc, spec.x_desc)));
    for &c in &cols {
        out.push(',');
        out.push_str(&field(&name(&spec.col_names, c - spec.cols.start, c)));
    }
    out.push('\n');
    for &r in &rows {
        out.push_str(&field(&name(&spec.row_names, r - spec.rows.start, r)));
        for &c in &cols {
            out.push(',');
            out.push_str(&number(m.value(r, c)));
        }
        out.push('\n');
    }
}
