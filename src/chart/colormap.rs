//! Colour maps as 256-entry lookup tables, so painting a cell is one multiply-add and one table load.

/// An RGBA colour, one byte a channel.
pub type Rgba = [u8; 4];

/// Number of entries in a lookup table.
pub const LUT_SIZE: usize = 256;

/// A colour map sampled at [`LUT_SIZE`] evenly spaced points of `[lo, hi]`.
#[derive(Clone, Debug, PartialEq)]
pub struct Lut {
    entries: [Rgba; LUT_SIZE],
}

/// ColorBrewer's 11-class RdBu (Cynthia Brewer, colorbrewer2.org), reversed so that −1 is deep blue,
/// 0 is near-white and +1 is deep red: the diverging map readers know from matplotlib's `RdBu_r`.
const RD_BU_R: [[u8; 3]; 11] = [
    [0x05, 0x30, 0x61],
    [0x21, 0x66, 0xac],
    [0x43, 0x93, 0xc3],
    [0x92, 0xc5, 0xde],
    [0xd1, 0xe5, 0xf0],
    [0xf7, 0xf7, 0xf7],
    [0xfd, 0xdb, 0xc7],
    [0xf4, 0xa5, 0x82],
    [0xd6, 0x60, 0x4d],
    [0xb2, 0x18, 0x2b],
    [0x67, 0x00, 0x1f],
];

/// A diverging map for dark pages: light blue → near-black → light orange, so that zero recedes into
/// the background the way white does on a light page (the idea of Crameri's "berlin" map).
const DARK_DIVERGING: [[u8; 3]; 7] = [
    [0xa8, 0xd8, 0xff],
    [0x4a, 0x9c, 0xe0],
    [0x1f, 0x4f, 0x80],
    [0x16, 0x18, 0x1d],
    [0x82, 0x33, 0x1c],
    [0xe0, 0x6c, 0x3c],
    [0xff, 0xcf, 0xa0],
];

/// ColorBrewer's 9-class Blues: white → deep blue, for values from 0 up (attention weights).
const BLUES: [[u8; 3]; 9] = [
    [0xf7, 0xfb, 0xff],
    [0xde, 0xeb, 0xf7],
    [0xc6, 0xdb, 0xef],
    [0x9e, 0xca, 0xe1],
    [0x6b, 0xae, 0xd6],
    [0x42, 0x92, 0xc6],
    [0x21, 0x71, 0xb5],
    [0x08, 0x51, 0x9c],
    [0x08, 0x30, 0x6b],
];

/// A sequential map for dark pages: near-black → purple → orange → pale yellow (after matplotlib's
/// "magma", sampled at six points), so small values recede into the background.
const DARK_SEQUENTIAL: [[u8; 3]; 6] = [
    [0x16, 0x18, 0x1d],
    [0x3b, 0x0f, 0x70],
    [0x8c, 0x29, 0x81],
    [0xde, 0x49, 0x68],
    [0xfe, 0x9f, 0x6d],
    [0xfc, 0xfd, 0xbf],
];

/// Whether a scale is centred on zero (−1 … 1: encodings, similarities) or runs from a minimum up
/// (0 … 1: attention weights).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Scale {
    /// Centred: blue below zero, red above.
    #[default]
    Diverging,
    /// From low (background-like) to high (strong colour).
    Sequential,
}

/// Which diverging map to use; chosen by the page theme.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Diverging {
    /// For light backgrounds (zero is near-white).
    #[default]
    Light,
    /// For dark backgrounds (zero is near-black).
    Dark,
}

impl Lut {
    /// Linear interpolation through evenly spaced RGB control points.
    fn from_stops(stops: &[[u8; 3]]) -> Lut {
        let mut entries = [[0, 0, 0, 255]; LUT_SIZE];
        let segments = (stops.len() - 1) as f64;
        for (k, entry) in entries.iter_mut().enumerate() {
            let t = k as f64 / (LUT_SIZE - 1) as f64 * segments;
            let i = (t.floor() as usize).min(stops.len() - 2);
            let f = t - i as f64;
            for c in 0..3 {
                let a = f64::from(stops[i][c]);
                let b = f64::from(stops[i + 1][c]);
                entry[c] = (a + (b - a) * f).round() as u8;
            }
        }
        Lut { entries }
    }

    /// The diverging map for a theme.
    pub fn diverging(kind: Diverging) -> Lut {
        match kind {
            Diverging::Light => Lut::from_stops(&RD_BU_R),
            Diverging::Dark => Lut::from_stops(&DARK_DIVERGING),
        }
    }

    /// The map for `scale` on a page whose diverging map is `kind` (light or dark).
    pub fn for_scale(scale: Scale, kind: Diverging) -> Lut {
        match (scale, kind) {
            (Scale::Diverging, _) => Lut::diverging(kind),
            (Scale::Sequential, Diverging::Light) => Lut::from_stops(&BLUES),
            (Scale::Sequential, Diverging::Dark) => Lut::from_stops(&DARK_SEQUENTIAL),
        }
    }

    /// Entry `k` (0 ..= 255).
    pub fn entry(&self, k: u8) -> Rgba {
        self.entries[usize::from(k)]
    }

    /// The colour of `value` on the scale `[lo, hi]` (values outside are clamped; NaN maps to `lo`).
    pub fn color(&self, value: f64, lo: f64, hi: f64) -> Rgba {
        self.entries[usize::from(Self::index(value, lo, 255.0 / (hi - lo)))]
    }

    /// Table index of `value`: `round((value − lo)·scale)` clamped to 0..=255. The float-to-int `as`
    /// cast saturates and maps NaN to 0, so no input can index out of bounds.
    #[inline]
    fn index(value: f64, lo: f64, scale: f64) -> u8 {
        ((value - lo) * scale + 0.5) as u8
    }

    /// Paints `values` as RGBA pixels into `out` (resized to `4·values.len()`, allocation reused).
    /// One pixel per value, in the same order: a row-major matrix becomes a row-major image.
    pub fn paint_into(&self, values: &[f64], lo: f64, hi: f64, out: &mut Vec<u8>) {
        resize_exact(out, values.len() * 4);
        let scale = 255.0 / (hi - lo);
        for (px, &v) in out.chunks_exact_mut(4).zip(values) {
            px.copy_from_slice(&self.entries[usize::from(Self::index(v, lo, scale))]);
        }
    }
}

/// The stripe colour of the pattern that marks a cell with no value (NaN): a mid grey that reads
/// on light and dark backgrounds.
pub const HATCH: Rgba = [0x8c, 0x8c, 0x8c, 255];

/// A cell with no value in a small image: the stripe grey, translucent over the background.
pub const MISSING: Rgba = [0x8c, 0x8c, 0x8c, 0x90];

/// Rows from which a no-value cell is striped rather than flat.
pub const STRIPED_ROWS: usize = 128;

/// Pixel `(x, y)` of the no-value pattern: diagonal stripes two pixels wide every six, over
/// transparency (the chart's background shows between them).
pub fn hatch(x: usize, y: usize) -> Rgba {
    if (x + y) % 6 < 2 { HATCH } else { [0, 0, 0, 0] }
}

/// Resizes `out` to `len` bytes; when that needs more room, to exactly `len` (not the doubled
/// capacity `Vec` would take). A painter's image buffer lives as long as its figure and follows
/// the shown size: doubling it on one more row would hold twice the largest image for good, and
/// ask the wasm heap for one large block where a slightly larger one would do.
fn resize_exact(out: &mut Vec<u8>, len: usize) {
    if len > out.capacity() {
        out.clear();
        out.reserve_exact(len);
    }
    out.resize(len, 0);
}

/// Which of `cells` (a range of matrix indices) each of `pixels` screen pixels shows, by nearest
/// neighbour — what pixelated (nearest-neighbour) scaling of the cells layer picks. With at least as many pixels as
/// cells it is every cell once.
pub fn sample_indices(cells: std::ops::Range<usize>, pixels: usize) -> Vec<usize> {
    let n = cells.len();
    if pixels == 0 || n <= pixels {
        return cells.collect();
    }
    (0..pixels).map(|p| cells.start + p * n / pixels).collect()
}

impl Lut {
    /// Paints the cells at `rows × cols` (lists of matrix indices, e.g. from [`sample_indices`])
    /// of a row-major matrix with `stride` columns as an RGBA image `cols.len()` pixels wide.
    /// Indices beyond the matrix paint entry 0.
    pub fn paint_sampled_into(
        &self,
        values: &[f64],
        stride: usize,
        rows: &[usize],
        cols: &[usize],
        range: (f64, f64),
        out: &mut Vec<u8>,
    ) {
        self.paint_cells_into(rows, cols, range, out, |r, c| {
            values.get(r * stride + c).copied()
        });
    }

    /// Like [`Lut::paint_sampled_into`] for an `n × n` Toeplitz matrix given by its `2n − 1`
    /// diagonals: entry `(r, c)` is `diagonals[r + n − 1 − c]` (a value that depends only on
    /// `r − c`, such as RoPE's q·k). Indices beyond the matrix paint entry 0.
    pub fn paint_toeplitz_into(
        &self,
        diagonals: &[f64],
        n: usize,
        rows: &[usize],
        cols: &[usize],
        range: (f64, f64),
        out: &mut Vec<u8>,
    ) {
        self.paint_cells_into(rows, cols, range, out, |r, c| {
            (r + n)
                .checked_sub(1 + c)
                .and_then(|k| diagonals.get(k))
                .copied()
        });
    }

    /// Like [`Lut::paint_sampled_into`] for a matrix given by its entries `value(r, c)`, which is
    /// never materialised (a sparse matrix such as RoPE's `R_m` needs no `d × d` buffer).
    pub fn paint_fn_into(
        &self,
        rows: &[usize],
        cols: &[usize],
        range: (f64, f64),
        out: &mut Vec<u8>,
        value: impl Fn(usize, usize) -> f64,
    ) {
        self.paint_cells_into(rows, cols, range, out, |r, c| Some(value(r, c)));
    }

    /// Paints `value(r, c)` for every `r` in `rows` and `c` in `cols` (a missing value paints
    /// entry 0; NaN — no value at all, such as a row past a learned table's end or a masked
    /// entry — paints the [`hatch`] pattern, or flat [`MISSING`] when there are fewer than
    /// [`STRIPED_ROWS`] rows: one image pixel per cell, stretched, would turn stripes into
    /// blocks) as an RGBA image `cols.len()` pixels wide, into `out` (allocation reused).
    fn paint_cells_into(
        &self,
        rows: &[usize],
        cols: &[usize],
        (lo, hi): (f64, f64),
        out: &mut Vec<u8>,
        value: impl Fn(usize, usize) -> Option<f64>,
    ) {
        resize_exact(out, rows.len() * cols.len() * 4);
        let scale = 255.0 / (hi - lo);
        let mut px = out.chunks_exact_mut(4);
        let striped = rows.len() >= STRIPED_ROWS;
        for (y, &r) in rows.iter().enumerate() {
            for (x, &c) in cols.iter().enumerate() {
                let v = value(r, c).unwrap_or(lo);
                if let Some(p) = px.next() {
                    if v.is_nan() {
                        p.copy_from_slice(&if striped { hatch(x, y) } else { MISSING });
                    } else {
                        p.copy_from_slice(&self.entries[usize::from(Self::index(v, lo, scale))]);
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn toeplitz_painting_equals_painting_the_full_matrix() {
        let lut = Lut::diverging(Diverging::Light);
        let n = 5;
        let diagonals: Vec<f64> = (0..2 * n - 1).map(|k| (k as f64 * 0.7).sin()).collect();
        let full: Vec<f64> = (0..n * n)
            .map(|k| diagonals[k / n + n - 1 - k % n])
            .collect();
        let (rows, cols) = ([0, 2, 4], [1, 3, 4]);
        let (mut a, mut b) = (Vec::new(), Vec::new());
        lut.paint_sampled_into(&full, n, &rows, &cols, (-1.0, 1.0), &mut a);
        lut.paint_toeplitz_into(&diagonals, n, &rows, &cols, (-1.0, 1.0), &mut b);
        assert_eq!(a, b);
    }

    #[test]
    fn ends_and_middle_match_the_control_points() {
        let lut = Lut::diverging(Diverging::Light);
        assert_eq!(lut.color(-1.0, -1.0, 1.0), [0x05, 0x30, 0x61, 255]);
        assert_eq!(lut.color(1.0, -1.0, 1.0), [0x67, 0x00, 0x1f, 255]);
        // 0 sits halfway between entries 127 and 128, both within a step of the white stop.
        let mid = lut.color(0.0, -1.0, 1.0);
        assert!(mid.iter().take(3).all(|&c| c >= 0xf0), "{mid:?}");
    }

    #[test]
    fn nan_cells_are_hatched() {
        let lut = Lut::diverging(Diverging::Light);
        let mut out = Vec::new();
        let cols = [0, 1, 2];
        let value = |r: usize, c: usize| if r == 1 { f64::NAN } else { c as f64 - 1.0 };
        // Few rows: flat.
        lut.paint_fn_into(&[0, 1], &cols, (-1.0, 1.0), &mut out, value);
        assert_eq!(&out[..4], &lut.entry(0));
        assert_eq!(&out[12..16], &MISSING);
        assert_eq!(&out[20..24], &MISSING);
        // Many rows: striped. Row 1: pixel (0, 1) is stripe ((0 + 1) mod 6 < 2), (1, 1) and
        // (2, 1) background.
        let rows: Vec<usize> = (0..STRIPED_ROWS).collect();
        lut.paint_fn_into(&rows, &cols, (-1.0, 1.0), &mut out, value);
        assert_eq!(&out[12..16], &HATCH);
        assert_eq!(&out[16..20], &[0, 0, 0, 0]);
        assert_eq!(&out[20..24], &[0, 0, 0, 0]);
    }

    #[test]
    fn out_of_range_and_nan_are_clamped() {
        let lut = Lut::diverging(Diverging::Dark);
        assert_eq!(lut.color(-7.0, -1.0, 1.0), lut.entry(0));
        assert_eq!(lut.color(9.0, -1.0, 1.0), lut.entry(255));
        assert_eq!(lut.color(f64::NAN, -1.0, 1.0), lut.entry(0));
    }

    #[test]
    fn paint_sampled_picks_the_sub_matrix() {
        let lut = Lut::diverging(Diverging::Light);
        // 3×3 matrix; the block rows 1..3, cols 0..2 is [[-1, 0], [1, 1]].
        let m = [0.0, 0.0, 0.0, -1.0, 0.0, 9.0, 1.0, 1.0, 9.0];
        let mut out = Vec::new();
        lut.paint_sampled_into(&m, 3, &[1, 2], &[0, 1], (-1.0, 1.0), &mut out);
        assert_eq!(out.len(), 2 * 2 * 4);
        assert_eq!(&out[0..4], &lut.entry(0));
        assert_eq!(&out[4..8], &lut.color(0.0, -1.0, 1.0));
        assert_eq!(&out[8..12], &lut.entry(255));
        assert_eq!(&out[12..16], &lut.entry(255));
    }

    #[test]
    fn sampling_picks_one_cell_per_pixel_and_keeps_small_ranges_whole() {
        assert_eq!(sample_indices(10..14, 100), vec![10, 11, 12, 13]);
        assert_eq!(sample_indices(0..8, 4), vec![0, 2, 4, 6]);
        assert_eq!(sample_indices(0..1024, 700).len(), 700);
        assert_eq!(*sample_indices(0..1024, 700).last().unwrap(), 1022);
        let lut = Lut::diverging(Diverging::Light);
        let m = [-1.0, 0.0, 1.0, 1.0, 0.0, -1.0];
        let mut out = Vec::new();
        lut.paint_sampled_into(&m, 3, &[1], &[0, 2], (-1.0, 1.0), &mut out);
        assert_eq!(out, [lut.entry(255), lut.entry(0)].concat());
    }

    #[test]
    fn painting_a_function_equals_painting_its_matrix() {
        let lut = Lut::diverging(Diverging::Light);
        let f = |r: usize, c: usize| ((r * 7 + c) as f64 * 0.3).sin();
        let full: Vec<f64> = (0..4 * 5).map(|k| f(k / 5, k % 5)).collect();
        let (rows, cols) = ([0, 1, 3], [0, 2, 4]);
        let (mut a, mut b) = (Vec::new(), Vec::new());
        lut.paint_sampled_into(&full, 5, &rows, &cols, (-1.0, 1.0), &mut a);
        lut.paint_fn_into(&rows, &cols, (-1.0, 1.0), &mut b, f);
        assert_eq!(a, b);
    }

    #[test]
    fn the_image_buffer_grows_to_the_exact_size() {
        let lut = Lut::diverging(Diverging::Light);
        let mut out = Vec::new();
        lut.paint_fn_into(&[0, 1], &[0, 1, 2], (-1.0, 1.0), &mut out, |_, _| 0.0);
        lut.paint_fn_into(&[0, 1, 2], &[0, 1, 2], (-1.0, 1.0), &mut out, |_, _| 0.0);
        assert_eq!((out.len(), out.capacity()), (36, 36));
        lut.paint_fn_into(&[0], &[0], (-1.0, 1.0), &mut out, |_, _| 0.0);
        assert_eq!((out.len(), out.capacity()), (4, 36));
    }

    #[test]
    fn paint_reuses_the_buffer_and_writes_every_pixel() {
        let lut = Lut::diverging(Diverging::Light);
        let mut out = vec![9; 100];
        lut.paint_into(&[-1.0, 1.0], -1.0, 1.0, &mut out);
        assert_eq!(out.len(), 8);
        assert_eq!(&out[..4], &lut.entry(0));
        assert_eq!(&out[4..], &lut.entry(255));
    }
}
