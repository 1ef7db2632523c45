//! One backend type for both places a figure is drawn: the page's canvas backend `C`, or SVG
//! ([`Svg`]). The chart functions are generic over the backend, and each backend type they are
//! used with is a second copy of all of them in the wasm bundle; drawing both the page and its SVG
//! download through `Dual` keeps one copy. Every call is forwarded to the backend inside.

use plotters_backend::{
    BackendColor, BackendCoord, BackendStyle, BackendTextStyle, DrawingBackend, DrawingErrorKind,
};

use super::svg::Svg;

/// The canvas backend `C`, or SVG.
pub enum Dual<'a, C> {
    /// The page's canvas.
    Canvas(C),
    /// An SVG document being written (with the canvas backend that measures its text, if any).
    Svg(Svg<'a, C>),
}

/// A drawing error of either backend.
#[derive(Debug)]
pub enum DualError<E> {
    /// The canvas backend's.
    Canvas(E),
    /// The SVG backend's.
    Svg(std::io::Error),
}

impl<E: std::fmt::Display> std::fmt::Display for DualError<E> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            DualError::Canvas(e) => e.fmt(f),
            DualError::Svg(e) => e.fmt(f),
        }
    }
}

impl<E: std::error::Error> std::error::Error for DualError<E> {}

/// plotters-svg 0.3.7 writes a text's `font-size` as its size divided by 1.24
/// (`SVGBackend::draw_text`), so an SVG's text came out 19 % smaller than the canvas draws it and
/// than the chart measured it when laying itself out. This style asks for 1.24 times the size, so
/// the SVG's `font-size` is the size the chart gave.
struct SvgText<'s, S>(&'s S);

/// plotters-svg's divisor of the font size (see [`SvgText`]).
const SVG_FONT_DIVISOR: f64 = 1.24;

impl<S: BackendTextStyle> BackendTextStyle for SvgText<'_, S> {
    type FontError = S::FontError;

    fn color(&self) -> BackendColor {
        self.0.color()
    }

    fn size(&self) -> f64 {
        self.0.size() * SVG_FONT_DIVISOR
    }

    fn transform(&self) -> plotters_backend::FontTransform {
        self.0.transform()
    }

    fn style(&self) -> plotters_backend::FontStyle {
        self.0.style()
    }

    fn anchor(&self) -> plotters_backend::text_anchor::Pos {
        self.0.anchor()
    }

    fn family(&self) -> plotters_backend::FontFamily<'_> {
        self.0.family()
    }

    fn layout_box(&self, text: &str) -> Result<((i32, i32), (i32, i32)), Self::FontError> {
        self.0.layout_box(text)
    }

    fn draw<E, F: FnMut(i32, i32, BackendColor) -> Result<(), E>>(
        &self,
        text: &str,
        pos: BackendCoord,
        draw: F,
    ) -> Result<Result<(), E>, Self::FontError> {
        self.0.draw(text, pos, draw)
    }
}

/// No canvas: `Dual<NoCanvas>` is SVG only (native code, tests).
pub enum NoCanvas {}

impl DrawingBackend for NoCanvas {
    type ErrorType = std::io::Error;

    fn get_size(&self) -> (u32, u32) {
        match *self {}
    }

    fn ensure_prepared(&mut self) -> Result<(), DrawingErrorKind<std::io::Error>> {
        match *self {}
    }

    fn present(&mut self) -> Result<(), DrawingErrorKind<std::io::Error>> {
        match *self {}
    }

    fn draw_pixel(
        &mut self,
        _: BackendCoord,
        _: BackendColor,
    ) -> Result<(), DrawingErrorKind<std::io::Error>> {
        match *self {}
    }
}

/// `e` with its drawing error wrapped by `wrap` (a font error stays as it is).
fn lift<E, F>(e: DrawingErrorKind<E>, wrap: impl FnOnce(E) -> F) -> DrawingErrorKind<F>
where
    E: std::error::Error + Send + Sync,
    F: std::error::Error + Send + Sync,
{
    match e {
        DrawingErrorKind::DrawingError(e) => DrawingErrorKind::DrawingError(wrap(e)),
        DrawingErrorKind::FontError(f) => DrawingErrorKind::FontError(f),
    }
}

/// Runs `$call` on whichever backend `$self` holds, lifting its error.
macro_rules! forward {
    ($self:expr, $b:ident => $call:expr) => {
        match $self {
            Dual::Canvas($b) => $call.map_err(|e| lift(e, DualError::Canvas)),
            Dual::Svg(Svg { inner: $b, .. }) => $call.map_err(|e| lift(e, DualError::Svg)),
        }
    };
}

type Drawn<T, E> = Result<T, DrawingErrorKind<DualError<E>>>;

impl<C> DrawingBackend for Dual<'_, C>
where
    C: DrawingBackend,
{
    type ErrorType = DualError<C::ErrorType>;

    fn get_size(&self) -> (u32, u32) {
        match self {
            Dual::Canvas(b) => b.get_size(),
            Dual::Svg(s) => s.inner.get_size(),
        }
    }

    fn ensure_prepared(&mut self) -> Drawn<(), C::ErrorType> {
        forward!(self, b => b.ensure_prepared())
    }

    fn present(&mut self) -> Drawn<(), C::ErrorType> {
        forward!(self, b => b.present())
    }

    delegate_shapes!(DualError<C::ErrorType>, forward);

    fn draw_text<S: BackendTextStyle>(
        &mut self,
        text: &str,
        style: &S,
        pos: BackendCoord,
    ) -> Drawn<(), C::ErrorType> {
        match self {
            Dual::Canvas(b) => b
                .draw_text(text, style, pos)
                .map_err(|e| lift(e, DualError::Canvas)),
            Dual::Svg(Svg { inner: b, .. }) => b
                .draw_text(text, &SvgText(style), pos)
                .map_err(|e| lift(e, DualError::Svg)),
        }
    }

    fn estimate_text_size<S: BackendTextStyle>(
        &self,
        text: &str,
        style: &S,
    ) -> Drawn<(u32, u32), C::ErrorType> {
        match self {
            Dual::Svg(Svg {
                measure: Some(c), ..
            }) => c
                .estimate_text_size(text, style)
                .map_err(|e| lift(e, DualError::Canvas)),
            _ => forward!(self, b => b.estimate_text_size(text, style)),
        }
    }

    fn blit_bitmap(
        &mut self,
        pos: BackendCoord,
        size: (u32, u32),
        src: &[u8],
    ) -> Drawn<(), C::ErrorType> {
        match self {
            Dual::Canvas(b) => b
                .blit_bitmap(pos, size, src)
                .map_err(|e| lift(e, DualError::Canvas)),
            Dual::Svg(s) => s.blit(pos, size, src).map_err(|e| lift(e, DualError::Svg)),
        }
    }
}
