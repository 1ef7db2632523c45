//! A packed-RGB image as a plotters element, handed to the backend's own `blit_bitmap` in one call
//! (the SVG backend embeds it as one PNG). plotters' `BitMapElement` would pull the bitmap backend
//! into the wasm bundle; this does not.

use std::iter::{Once, once};

use plotters::element::{Drawable, PointCollection};
use plotters_backend::{BackendCoord, DrawingBackend, DrawingErrorKind};

/// An RGB image (`3·width·height` bytes, row-major) with its top-left corner in backend pixels.
pub struct Raster<'a> {
    origin: BackendCoord,
    size: (u32, u32),
    rgb: &'a [u8],
}

impl<'a> Raster<'a> {
    /// An image of `size = (width, height)` at `origin`. `rgb` must hold `3·width·height` bytes;
    /// a shorter buffer is not drawn.
    pub fn new(origin: BackendCoord, size: (u32, u32), rgb: &'a [u8]) -> Self {
        Raster { origin, size, rgb }
    }
}

impl<'a, 'b> PointCollection<'b, BackendCoord> for &'b Raster<'a> {
    type Point = &'b BackendCoord;
    type IntoIter = Once<&'b BackendCoord>;
    fn point_iter(self) -> Self::IntoIter {
        once(&self.origin)
    }
}

impl<DB: DrawingBackend> Drawable<DB> for Raster<'_> {
    fn draw<I: Iterator<Item = BackendCoord>>(
        &self,
        mut pos: I,
        backend: &mut DB,
        _parent_dim: (u32, u32),
    ) -> Result<(), DrawingErrorKind<DB::ErrorType>> {
        let needed = self.size.0 as usize * self.size.1 as usize * 3;
        match pos.next() {
            Some(at) if self.rgb.len() >= needed => {
                backend.blit_bitmap(at, self.size, &self.rgb[..needed])
            }
            _ => Ok(()),
        }
    }
}
