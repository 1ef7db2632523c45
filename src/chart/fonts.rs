//! The font native pictures are laid out and drawn with: the system's DejaVu Sans (Debian's
//! `fonts-dejavu-core`, which `make` installs), else Liberation Sans, registered once as
//! `sans-serif`, the family every chart asks for.
//!
//! A native SVG's text is measured by plotters with it (ab_glyph). A PNG's text is measured and
//! drawn by [`Glyphs`] with [`Line`], not by plotters' own ab_glyph drawing, which places each glyph at its pen position without its side
//! bearing (uneven letter spacing: "Sinusoi dal") and half an em above the box it measured (a
//! label rotated beside a colour bar fell off the picture's edge).
#![cfg(not(target_arch = "wasm32"))]

use std::sync::OnceLock;

use ab_glyph::{Font, FontRef, ScaleFont};
use plotters::style::{FontStyle, register_font};
use plotters_backend::text_anchor::{HPos, VPos};
use plotters_backend::{
    BackendColor, BackendCoord, BackendStyle, BackendTextStyle, DrawingBackend, DrawingErrorKind,
};

/// Where the regular and bold faces are looked for, in order.
const FACES: [(&str, &str); 2] = [
    (
        "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
        "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf",
    ),
    (
        "/usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf",
        "/usr/share/fonts/truetype/liberation/LiberationSans-Bold.ttf",
    ),
];

/// The regular face and, if found, the bold one.
struct Faces {
    regular: FontRef<'static>,
    bold: Option<FontRef<'static>>,
}

fn faces() -> &'static Result<Faces, String> {
    static FOUND: OnceLock<Result<Faces, String>> = OnceLock::new();
    FOUND.get_or_init(|| {
        let read = |path: &str| std::fs::read(path).ok().map(|b| &*Box::leak(b.into_boxed_slice()));
        for (regular, bold) in FACES {
            let Some(bytes) = read(regular) else { continue };
            let not_a_font = || format!("{regular} is not a font plotters can read");
            register_font("sans-serif", FontStyle::Normal, bytes).map_err(|_| not_a_font())?;
            let face = FontRef::try_from_slice(bytes).map_err(|_| not_a_font())?;
            let bold = read(bold).and_then(|bytes| {
                register_font("sans-serif", FontStyle::Bold, bytes).ok()?;
                FontRef::try_from_slice(bytes).ok()
            });
            return Ok(Faces {
                regular: face,
                bold,
            });
        }
        Err(format!(
            "no sans-serif TrueType font: looked for {} (Debian: apt-get install fonts-dejavu-core)",
            FACES.map(|(regular, _)| regular).join(" and ")
        ))
    })
}

/// Registers the font (once); an error names the files looked for.
pub fn register() -> Result<(), String> {
    faces().as_ref().map(|_| ()).map_err(Clone::clone)
}

/// The face for `style` at `size` pixels per em (CSS's `12px`), if the font is registered.
fn scaled(style: FontStyle, size: f64) -> Option<ab_glyph::PxScaleFont<&'static FontRef<'static>>> {
    let faces = faces().as_ref().ok()?;
    let face = match style {
        FontStyle::Bold => faces.bold.as_ref().unwrap_or(&faces.regular),
        _ => &faces.regular,
    };
    // ab_glyph scales by the height from ascent to descent; CSS sizes the em.
    let height = size as f32 * face.height_unscaled() / face.units_per_em()?;
    Some(face.as_scaled(height))
}

/// `text` laid out at `size` px per em: each glyph at its pen position (advances, kerned), the
/// box the advances span across and ascent to descent down. Measuring and drawing both use it.
pub struct Line {
    font: ab_glyph::PxScaleFont<&'static FontRef<'static>>,
    glyphs: Vec<(ab_glyph::GlyphId, f32)>,
    width: f32,
}

impl Line {
    /// The layout, or `None` if no font is registered.
    pub fn new(text: &str, style: FontStyle, size: f64) -> Option<Line> {
        let font = scaled(style, size)?;
        let mut pen = 0.0f32;
        let mut prev = None;
        let mut glyphs = Vec::with_capacity(text.len());
        for c in text.chars() {
            let id = font.glyph_id(c);
            if let Some(p) = prev {
                pen += font.kern(p, id);
            }
            glyphs.push((id, pen));
            pen += font.h_advance(id);
            prev = Some(id);
        }
        Some(Line {
            font,
            glyphs,
            width: pen,
        })
    }

    /// The box: `(width, height)` in whole pixels.
    pub fn size(&self) -> (u32, u32) {
        (self.width.ceil() as u32, self.font.height().ceil() as u32)
    }

    /// Calls `pixel(x, y, coverage)` for every pixel the text covers, in the coordinates of its
    /// box (top left at (0, 0), the baseline at the ascent), each glyph at its pen position plus
    /// its side bearing.
    pub fn draw(&self, mut pixel: impl FnMut(i32, i32, f32)) {
        let ascent = self.font.ascent();
        for &(id, pen) in &self.glyphs {
            let glyph = id.with_scale_and_position(self.font.scale(), ab_glyph::point(pen, ascent));
            if let Some(outline) = self.font.outline_glyph(glyph) {
                let bounds = outline.px_bounds();
                let (left, top) = (bounds.min.x as i32, bounds.min.y as i32);
                outline.draw(|x, y, coverage| pixel(left + x as i32, top + y as i32, coverage));
            }
        }
    }
}

/// A backend whose text is measured and drawn by [`Line`]; everything else goes to the backend
/// it wraps.
pub struct Glyphs<B>(pub B);

type Drawn<T, E> = Result<T, DrawingErrorKind<E>>;

/// Runs `$call` on the backend a [`Glyphs`] wraps.
macro_rules! inner {
    ($self:expr, $b:ident => $call:expr) => {{
        let $b = &mut $self.0;
        $call
    }};
}

impl<B: DrawingBackend> DrawingBackend for Glyphs<B> {
    type ErrorType = B::ErrorType;

    fn get_size(&self) -> (u32, u32) {
        self.0.get_size()
    }

    fn ensure_prepared(&mut self) -> Drawn<(), B::ErrorType> {
        self.0.ensure_prepared()
    }

    fn present(&mut self) -> Drawn<(), B::ErrorType> {
        self.0.present()
    }

    delegate_shapes!(B::ErrorType, inner);

    /// The text's box placed by its anchor at `pos`, turned by its transform about `pos`, each
    /// covered pixel blended at its coverage.
    fn draw_text<S: BackendTextStyle>(
        &mut self,
        text: &str,
        style: &S,
        pos: BackendCoord,
    ) -> Drawn<(), B::ErrorType> {
        let color = style.color();
        if color.alpha == 0.0 {
            return Ok(());
        }
        let Some(line) = Line::new(text, style.style(), style.size()) else {
            return Ok(());
        };
        let (w, h) = line.size();
        let (w, h) = (w as i32, h as i32);
        let anchor = style.anchor();
        let dx = match anchor.h_pos {
            HPos::Left => 0,
            HPos::Center => -w / 2,
            HPos::Right => -w,
        };
        let dy = match anchor.v_pos {
            VPos::Top => 0,
            VPos::Center => -h / 2,
            VPos::Bottom => -h,
        };
        let turn = style.transform();
        let (width, height) = self.0.get_size();
        let mut result = Ok(());
        line.draw(|x, y, coverage| {
            if result.is_err() || coverage <= 0.0 {
                return;
            }
            let (x, y) = turn.transform(x + dx, y + dy);
            let (x, y) = (pos.0 + x, pos.1 + y);
            if x >= 0 && y >= 0 && (x as u32) < width && (y as u32) < height {
                let alpha = color.alpha * f64::from(coverage.min(1.0));
                result = self.0.draw_pixel((x, y), BackendColor { alpha, ..color });
            }
        });
        result
    }

    fn estimate_text_size<S: BackendTextStyle>(
        &self,
        text: &str,
        style: &S,
    ) -> Drawn<(u32, u32), B::ErrorType> {
        Ok(Line::new(text, style.style(), style.size()).map_or((0, 0), |line| line.size()))
    }

    fn blit_bitmap(
        &mut self,
        pos: BackendCoord,
        size: (u32, u32),
        src: &[u8],
    ) -> Drawn<(), B::ErrorType> {
        self.0.blit_bitmap(pos, size, src)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn glyphs_stay_inside_their_box_and_keep_their_bearings() {
        register().unwrap();
        for (text, size) in [
            ("Sinusoidal positional encoding", 12.0),
            ("iiii", 24.0),
            ("Wg|", 30.0),
        ] {
            let line = Line::new(text, FontStyle::Normal, size).unwrap();
            let (w, h) = line.size();
            let (mut lo_x, mut hi_x, mut lo_y, mut hi_y) = (i32::MAX, i32::MIN, i32::MAX, i32::MIN);
            line.draw(|x, y, c| {
                if c > 0.05 {
                    (lo_x, hi_x, lo_y, hi_y) = (lo_x.min(x), hi_x.max(x), lo_y.min(y), hi_y.max(y));
                }
            });
            // Ink inside the box (a pixel of antialiasing either way), not half an em above it.
            assert!(
                lo_y >= -1 && hi_y <= h as i32,
                "{text}: rows {lo_y}..={hi_y} outside 0..{h}"
            );
            assert!(
                lo_x >= -1 && hi_x <= w as i32 + 1,
                "{text}: columns {lo_x}..={hi_x} outside 0..{w}"
            );
        }
        // An "i" has a left side bearing: its ink does not start at the pen.
        let mut first = i32::MAX;
        let i = Line::new("i", FontStyle::Normal, 40.0).unwrap();
        i.draw(|x, _, c| {
            if c > 0.5 {
                first = first.min(x);
            }
        });
        assert!(
            first >= 2,
            "the i's ink starts at {first}, at the pen: its bearing was dropped"
        );
    }
}
