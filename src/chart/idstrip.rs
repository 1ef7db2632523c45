//! Rows of numbers, one column per token: the (t, h, w) position ids of an input of text and
//! vision blocks, wrapped onto as many lines as the width needs, each piece of the input named
//! and tinted above its tokens, and a fourth row with another rule's ids where they differ.

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::lines::series_color;
use super::theme::{Theme, begin_titled, title_height};

/// What a piece of the input is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PieceKind {
    /// Text tokens.
    Text,
    /// An image's tokens.
    Image,
    /// A video's tokens.
    Video,
}

/// A run of tokens of one kind, named above them.
#[derive(Clone, Debug, PartialEq)]
pub struct Piece {
    /// Its first token.
    pub first: usize,
    /// Its tokens.
    pub len: usize,
    /// Its name ("text", "image 3 × 4", …).
    pub label: String,
    /// Its kind (the tint of its cells).
    pub kind: PieceKind,
}

/// What the strip shows.
#[derive(Clone, Debug)]
pub struct StripSpec<'a> {
    /// Caption.
    pub title: String,
    /// The ids, one row per axis (t, h, w), one column per token.
    pub rows: [&'a [usize]; 3],
    /// The fourth row's label.
    pub other_name: &'a str,
    /// The fourth row, per token: what it shows where the other rule differs ("12", "+2").
    pub other: &'a [Option<String>],
    /// The input's pieces, in order.
    pub pieces: &'a [Piece],
    /// A token to outline (hovered).
    pub marked: Option<usize>,
    /// Page colours and scale.
    pub theme: Theme,
}

/// Where each token's column went, for hover.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct StripLayout {
    /// Each token's column: left, top, right, bottom, in backend pixels.
    pub cells: Vec<[i32; 4]>,
}

impl StripLayout {
    /// The token whose column holds backend pixel `(x, y)`.
    pub fn at(&self, x: f64, y: f64) -> Option<usize> {
        self.cells.iter().position(|&[l, t, r, b]| {
            x >= f64::from(l) && x < f64::from(r) && y >= f64::from(t) && y < f64::from(b)
        })
    }
}

/// CSS widths and heights of the strip's parts.
const LABELS: f64 = 62.0;
const CELL: f64 = 26.0;
const ROW: f64 = 17.0;
const BAND: f64 = 17.0;
const GAP: f64 = 10.0;
const ROW_NAMES: [&str; 3] = ["t", "h", "w"];

/// Tokens per line at CSS width `width`.
pub fn per_line(width: f64) -> usize {
    ((width - LABELS - 8.0) / CELL).floor().max(1.0) as usize
}

/// The strip's CSS height at CSS width `width` for `tokens` tokens.
pub fn height(width: f64, tokens: usize) -> f64 {
    let lines = tokens.max(1).div_ceil(per_line(width));
    f64::from(title_height(&Theme::LIGHT)) + lines as f64 * (BAND + 4.0 * ROW + GAP) + 6.0
}

/// `c` at opacity `a` over the page's background.
fn over(c: RGBColor, a: f64, t: &Theme) -> RGBColor {
    let m = |x: u8, y: u8| (f64::from(x) * a + f64::from(y) * (1.0 - a)).round() as u8;
    RGBColor(
        m(c.0, t.background.0),
        m(c.1, t.background.1),
        m(c.2, t.background.2),
    )
}

/// The tint of a kind's cells (text: none).
fn tint(kind: PieceKind, t: &Theme) -> Option<RGBColor> {
    match kind {
        PieceKind::Text => None,
        PieceKind::Image => Some(over(series_color(0), 0.22, t)),
        PieceKind::Video => Some(over(series_color(1), 0.28, t)),
    }
}

/// Draws the strip.
pub fn draw<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    spec: &StripSpec,
) -> Result<StripLayout, DrawingAreaErrorKind<DB::ErrorType>> {
    let t = &spec.theme;
    let top = begin_titled(root, &spec.title, t)? as i32;
    let (w, _) = root.dim_in_pixel();
    let px = |v: f64| t.px(v) as i32;
    let n = spec.rows[0].len();
    let per = per_line(f64::from(w) / t.scale);
    let (labels, cell, row, band) = (px(LABELS), px(CELL), px(ROW), px(BAND));
    let line_h = band + 4 * row + px(GAP);
    let font = |size: f64| ("sans-serif", t.font(size)).into_font().color(&t.text);
    let grid = ShapeStyle::from(t.axis.mix(0.25)).stroke_width(1);
    let mut cells = Vec::with_capacity(n);
    let lines = n.max(1).div_ceil(per);
    for line in 0..lines {
        let y0 = top + line as i32 * line_h;
        let first = line * per;
        let last = (first + per).min(n);
        // Row names.
        let names = ROW_NAMES.iter().copied().chain([spec.other_name]);
        for (r, name) in names.enumerate() {
            root.draw(&Text::new(
                name.to_string(),
                (labels - px(8.0), y0 + band + r as i32 * row + row / 2),
                font(if r < 3 { 12.0 } else { 10.5 })
                    .color(if r < 3 { &t.text } else { &t.axis })
                    .pos(Pos::new(HPos::Right, VPos::Center)),
            ))?;
        }
        // The pieces' names and tints over this line's tokens.
        for piece in spec.pieces {
            let (a, b) = (piece.first.max(first), (piece.first + piece.len).min(last));
            if a >= b {
                continue;
            }
            let (x0, x1) = (
                labels + (a - first) as i32 * cell,
                labels + (b - first) as i32 * cell,
            );
            let color = match piece.kind {
                PieceKind::Text => over(t.axis, 0.45, t),
                PieceKind::Image => series_color(0),
                PieceKind::Video => series_color(1),
            };
            root.draw(&Rectangle::new(
                [(x0 + 1, y0 + band - px(4.0)), (x1 - 1, y0 + band - px(1.0))],
                color.filled(),
            ))?;
            // The name where it fits (about 6.2 CSS px a character at 11 px).
            let room = f64::from(x1 - x0) / t.scale;
            if room >= piece.label.chars().count() as f64 * 6.2 + 4.0 {
                root.draw(&Text::new(
                    piece.label.clone(),
                    (x0 + px(2.0), y0 + band - px(5.0)),
                    font(11.0).pos(Pos::new(HPos::Left, VPos::Bottom)),
                ))?;
            }
            if let Some(fill) = tint(piece.kind, t) {
                root.draw(&Rectangle::new(
                    [(x0, y0 + band), (x1, y0 + band + 3 * row)],
                    fill.filled(),
                ))?;
            }
        }
        for k in first..last {
            let x0 = labels + (k - first) as i32 * cell;
            let values = spec.rows.iter().map(|r| Some(r[k].to_string()));
            let other = spec.other.get(k).cloned().flatten();
            for (r, value) in values.chain([other]).enumerate() {
                let y = y0 + band + r as i32 * row;
                root.draw(&Rectangle::new([(x0, y), (x0 + cell, y + row)], grid))?;
                if let Some(v) = value {
                    let size = if v.chars().count() > 2 { 9.5 } else { 11.0 };
                    root.draw(&Text::new(
                        v,
                        (x0 + cell / 2, y + row / 2),
                        font(size)
                            .color(if r < 3 { &t.text } else { &t.highlight })
                            .pos(Pos::new(HPos::Center, VPos::Center)),
                    ))?;
                }
            }
            cells.push([x0, y0 + band, x0 + cell, y0 + band + 4 * row]);
        }
    }
    if let Some(&[l, tp, r, b]) = spec.marked.and_then(|k| cells.get(k)) {
        root.draw(&Rectangle::new(
            [(l, tp), (r, b)],
            ShapeStyle::from(t.highlight).stroke_width(t.px(2.0)),
        ))?;
    }
    Ok(StripLayout { cells })
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::*;

    #[test]
    fn it_wraps_to_the_width_and_finds_each_token() {
        let (t, h, w): (Vec<usize>, Vec<usize>, Vec<usize>) = (0..30).map(|k| (k, k, k)).collect();
        let other: Vec<Option<String>> = (0..30).map(|k| (k > 25).then(|| "99".into())).collect();
        let pieces = [Piece {
            first: 0,
            len: 30,
            label: "text".into(),
            kind: PieceKind::Text,
        }];
        let spec = StripSpec {
            title: "ids".into(),
            rows: [&t, &h, &w],
            other_name: "original",
            other: &other,
            pieces: &pieces,
            marked: Some(3),
            theme: Theme::LIGHT,
        };
        let width = 400u32;
        let tall = height(f64::from(width), 30);
        let mut layout = None;
        let svg = crate::chart::svg::render(width, tall as u32, |root| {
            layout = Some(draw(root, &spec).map_err(|e| e.to_string())?);
            Ok(())
        })
        .unwrap();
        for text in ["ids", "original", "\n29\n", "\n99\n", "\ntext\n"] {
            assert!(svg.contains(text), "missing {text}");
        }
        let layout = layout.unwrap();
        assert_eq!(layout.cells.len(), 30);
        let per = per_line(f64::from(width));
        assert!(per < 30, "one line of {per}");
        // The first token of the second line sits under the first of the first line.
        assert_eq!(layout.cells[per][0], layout.cells[0][0]);
        assert!(layout.cells[per][1] > layout.cells[0][3]);
        assert!(f64::from(layout.cells[29][3]) <= tall);
        for k in [0, per - 1, per, 29] {
            let [l, top, r, b] = layout.cells[k];
            let (x, y) = (f64::from(l + r) / 2.0, f64::from(top + b) / 2.0);
            assert_eq!(layout.at(x, y), Some(k));
        }
        assert_eq!(layout.at(1.0, 1.0), None);
    }
}
