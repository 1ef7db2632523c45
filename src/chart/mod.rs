//! Pictures of the numbers: colour maps, heatmap rasters and frames, colour bars, line plots and
//! clock faces. Generic over plotters' `DrawingBackend`, so one figure draws to a canvas in the
//! browser and to SVG natively. No Leptos and no DOM here.

/// The shape-drawing methods of a `DrawingBackend` that hands them to a backend it wraps, written
/// once for every such wrapper: `$via!(self, b => b.method(…))` runs the call on the wrapped
/// backend `b` and gives its result as the wrapper's (its error type is `$error`).
macro_rules! delegate_shapes {
    ($error:ty, $via:ident) => {
        fn draw_pixel(
            &mut self,
            point: BackendCoord,
            color: BackendColor,
        ) -> Result<(), DrawingErrorKind<$error>> {
            $via!(self, b => b.draw_pixel(point, color))
        }

        fn draw_line<S: BackendStyle>(
            &mut self,
            from: BackendCoord,
            to: BackendCoord,
            style: &S,
        ) -> Result<(), DrawingErrorKind<$error>> {
            $via!(self, b => b.draw_line(from, to, style))
        }

        fn draw_rect<S: BackendStyle>(
            &mut self,
            upper_left: BackendCoord,
            bottom_right: BackendCoord,
            style: &S,
            fill: bool,
        ) -> Result<(), DrawingErrorKind<$error>> {
            $via!(self, b => b.draw_rect(upper_left, bottom_right, style, fill))
        }

        fn draw_path<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
            &mut self,
            path: I,
            style: &S,
        ) -> Result<(), DrawingErrorKind<$error>> {
            $via!(self, b => b.draw_path(path, style))
        }

        fn draw_circle<S: BackendStyle>(
            &mut self,
            center: BackendCoord,
            radius: u32,
            style: &S,
            fill: bool,
        ) -> Result<(), DrawingErrorKind<$error>> {
            $via!(self, b => b.draw_circle(center, radius, style, fill))
        }

        fn fill_polygon<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
            &mut self,
            vert: I,
            style: &S,
        ) -> Result<(), DrawingErrorKind<$error>> {
            $via!(self, b => b.fill_polygon(vert, style))
        }
    };
}

pub mod band;
pub mod clock;
pub mod cloud;
pub mod colorbar;
pub mod colormap;
pub mod dual;
pub mod fonts;
pub mod heatmap;
pub mod idstrip;
pub mod lines;
pub mod multiples;
pub mod pairs;
pub mod plane;
pub mod raster;
pub mod svg;
pub mod theme;
pub mod ticks;
