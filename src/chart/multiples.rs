//! Small multiples: many small matrices (one per attention head) in a grid of square tiles, each
//! under a one-line label, painted as one RGBA image — one `putImageData` in the browser.

use super::colormap::{Lut, Rgba, hatch};

/// Where the tiles go, in device pixels.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TileGrid {
    /// Number of tiles.
    pub count: usize,
    /// Tiles per row.
    pub cols: usize,
    /// Side of a tile.
    pub tile: usize,
    /// Space between tiles.
    pub gap: usize,
    /// Height of the label strip above each tile.
    pub label: usize,
}

impl TileGrid {
    /// `count` tiles across `width` pixels: as many per row as fit at `min_tile` or more, each
    /// at most `max_tile`.
    pub fn new(
        count: usize,
        width: usize,
        min_tile: usize,
        max_tile: usize,
        gap: usize,
        label: usize,
    ) -> TileGrid {
        let count = count.max(1);
        let fit = ((width + gap) / (min_tile.max(1) + gap)).max(1);
        let cols = fit.min(count);
        let tile = ((width.saturating_sub(gap * (cols - 1))) / cols).clamp(1, max_tile.max(1));
        TileGrid {
            count,
            cols,
            tile,
            gap,
            label,
        }
    }

    /// Rows of tiles.
    pub fn rows(&self) -> usize {
        self.count.div_ceil(self.cols)
    }

    /// The whole grid's size: width and height.
    pub fn size(&self) -> (usize, usize) {
        (
            self.cols * self.tile + (self.cols - 1) * self.gap,
            self.rows() * (self.label + self.tile) + (self.rows() - 1) * self.gap,
        )
    }

    /// Top-left pixel of tile `k`'s image (its label sits above it).
    pub fn origin(&self, k: usize) -> (usize, usize) {
        let (r, c) = (k / self.cols, k % self.cols);
        (
            c * (self.tile + self.gap),
            r * (self.label + self.tile + self.gap) + self.label,
        )
    }

    /// The tile (label included) under pixel `(x, y)`, if any.
    pub fn tile_at(&self, x: f64, y: f64) -> Option<usize> {
        if x < 0.0 || y < 0.0 {
            return None;
        }
        let (x, y) = (x as usize, y as usize);
        let (c, r) = (
            x / (self.tile + self.gap),
            y / (self.label + self.tile + self.gap),
        );
        let inside = x % (self.tile + self.gap) < self.tile
            && y % (self.label + self.tile + self.gap) < self.label + self.tile;
        let k = r * self.cols + c;
        (inside && c < self.cols && k < self.count).then_some(k)
    }

    /// Paints every tile into `out` (RGBA, the grid's size; the gaps and labels transparent):
    /// pixel `(y, x)` of tile `k` is `value(k, y, x)` on the colour table over `range`, NaN
    /// hatched.
    pub fn paint(
        &self,
        lut: &Lut,
        (lo, hi): (f64, f64),
        value: impl Fn(usize, usize, usize) -> f64,
        out: &mut Vec<u8>,
    ) {
        let (w, h) = self.size();
        out.clear();
        out.resize(w * h * 4, 0);
        let scale = 1.0 / (hi - lo);
        let color = |v: f64, x: usize, y: usize| -> Rgba {
            if v.is_nan() {
                hatch(x, y)
            } else {
                lut.entry(((v - lo) * scale * 255.0 + 0.5).clamp(0.0, 255.0) as u8)
            }
        };
        for k in 0..self.count {
            let (x0, y0) = self.origin(k);
            for y in 0..self.tile {
                let row = (y0 + y) * w;
                for x in 0..self.tile {
                    let at = (row + x0 + x) * 4;
                    if let Some(px) = out.get_mut(at..at + 4) {
                        px.copy_from_slice(&color(value(k, y, x), x, y));
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chart::colormap::Diverging;

    #[test]
    fn tiles_fit_the_width_and_are_found_back() {
        let g = TileGrid::new(12, 500, 60, 120, 8, 14);
        assert!(g.size().0 <= 500, "{g:?}");
        assert_eq!(g.rows(), 12usize.div_ceil(g.cols));
        for k in 0..12 {
            let (x, y) = g.origin(k);
            assert_eq!(g.tile_at(x as f64 + 1.0, y as f64 + 1.0), Some(k));
            assert_eq!(
                g.tile_at(x as f64 + 1.0, (y - 1) as f64),
                Some(k),
                "label strip"
            );
        }
        assert_eq!(g.tile_at(-1.0, 3.0), None);
        // A gap is no tile.
        let (x, y) = g.origin(0);
        assert_eq!(g.tile_at((x + g.tile) as f64 + 1.0, y as f64), None);
        // One tile on a narrow canvas still has a pixel.
        assert!(TileGrid::new(64, 0, 60, 120, 8, 14).tile >= 1);
    }

    #[test]
    fn paint_fills_tiles_and_leaves_gaps_transparent() {
        let g = TileGrid::new(2, 40, 10, 10, 4, 3);
        let lut = Lut::for_scale(crate::chart::colormap::Scale::Sequential, Diverging::Light);
        let mut out = Vec::new();
        g.paint(&lut, (0.0, 1.0), |k, _, _| k as f64, &mut out);
        let (w, h) = g.size();
        assert_eq!(out.len(), w * h * 4);
        let px = |x: usize, y: usize| &out[(y * w + x) * 4..(y * w + x) * 4 + 4];
        let (x1, y1) = g.origin(1);
        assert_eq!(px(0, g.label), &lut.entry(0));
        assert_eq!(px(x1, y1), &lut.entry(255));
        assert_eq!(px(0, 0), &[0, 0, 0, 0], "label strip");
        assert_eq!(px(g.tile + 1, g.label), &[0, 0, 0, 0], "gap");
    }
}
