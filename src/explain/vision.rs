//! Chapter 6's sentences ("Beyond a line"): what the grid of patches shows for the chosen patch,
//! under axial 2D RoPE and with the grid read row by row — each number read from the scores the
//! figure draws; and which position id drives which rotary pair under a model's M-RoPE.

use std::fmt;

use super::{apart, count};
use crate::explain::models::grouped;
use crate::math::mrope::{AXES, LmRope};
use crate::params::rope::QkSource;
use crate::params::{format_significant, round_significant};

/// A neighbour of the chosen patch: its place and its direction from the chosen patch.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Neighbour {
    /// Its row and column.
    pub at: (usize, usize),
    /// Where it is from the chosen patch: "below", "above", "to the right of" or "to the left
    /// of".
    pub way: &'static str,
}

/// The patch one row away (below, or above on the last row), if the grid has two rows.
pub fn vertical(rows: usize, (r, c): (usize, usize)) -> Option<Neighbour> {
    if r + 1 < rows {
        Some(Neighbour {
            at: (r + 1, c),
            way: "below",
        })
    } else {
        r.checked_sub(1).map(|up| Neighbour {
            at: (up, c),
            way: "above",
        })
    }
}

/// The patch one column away (to the right, or to the left in the last column), if the grid
/// has two columns.
pub fn horizontal(cols: usize, (r, c): (usize, usize)) -> Option<Neighbour> {
    if c + 1 < cols {
        Some(Neighbour {
            at: (r, c + 1),
            way: "to the right of",
        })
    } else {
        c.checked_sub(1).map(|left| Neighbour {
            at: (r, left),
            way: "to the left of",
        })
    }
}

/// Two scores, printed with 3 decimals or, where that hides a difference, as many as show it
/// (up to 15); equal ones are said to be.
fn pair_text(a: f64, b: f64) -> (String, String, bool) {
    let (x, y) = apart(a, b, 3..=15, |x, d| format!("{x:.d$}"));
    (x, y, a == b)
}

/// The grid figure's finding: the chosen patch's nearest neighbours in both readings.
#[derive(Clone, Copy, Debug)]
pub struct GridFinding<'a> {
    /// Rows and columns of the grid.
    pub shape: (usize, usize),
    /// The chosen patch.
    pub patch: (usize, usize),
    /// Where q and k come from.
    pub qk: QkSource,
    /// Axial scores, row-major.
    pub axial: &'a [f64],
    /// Row-by-row scores, row-major.
    pub flat: &'a [f64],
}

impl GridFinding<'_> {
    fn at(&self, scores: &[f64], (r, c): (usize, usize)) -> f64 {
        scores[r * self.shape.1 + c]
    }
}

impl fmt::Display for GridFinding<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (rows, cols) = self.shape;
        let (r, c) = self.patch;
        let (down, side) = (vertical(rows, self.patch), horizontal(cols, self.patch));
        if rows * cols == 1 {
            return write!(
                f,
                "One patch only: its score with itself is {:.3} in both readings (no pair turns).",
                self.axial[0]
            );
        }
        let (Some(down), Some(side)) = (down, side) else {
            // A single row or column is a line already: both readings are 1D RoPE along it.
            return write!(
                f,
                "A grid of {rows} × {cols} patches is a line already: along it the axial \
                 encoding turns only the {} pairs (the other half of the head never turns), \
                 while reading it as one line turns every pair.",
                if rows == 1 { "column's" } else { "row's" }
            );
        };
        let (a, b, same) = pair_text(self.at(self.axial, down.at), self.at(self.axial, side.at));
        write!(
            f,
            "Axial 2D RoPE: the patch {} ({r}, {c}) scores {a}, the patch {} it {b}",
            down.way, side.way
        )?;
        if same {
            write!(f, ", the same")?;
            if self.qk == QkSource::Ones {
                write!(
                    f,
                    " (rows and columns turn at the same frequencies, and with q = k = all ones \
                     every pair weighs the same)"
                )?;
            }
        }
        let (fa, fb, fsame) = pair_text(self.at(self.flat, down.at), self.at(self.flat, side.at));
        write!(
            f,
            ". Read row by row, the patch {} ({r}, {c}) is {} away and scores {fa}; the patch {} \
             it is 1 place away and scores {fb}{}.",
            down.way,
            count(cols, "place", "places"),
            side.way,
            if fsame { ", the same" } else { "" }
        )
    }
}

/// The readout of the patch at `at` in a grid of `cols` columns, with the chosen patch at
/// `patch`, and its two scores (axial, row by row).
pub fn patch_readout(
    cols: usize,
    patch: (usize, usize),
    (r, c): (usize, usize),
    (axial, flat): (f64, f64),
) -> String {
    let (r0, c0) = patch;
    let line = (r * cols + c).abs_diff(r0 * cols + c0);
    format!(
        "Patch ({r}, {c}): {} and {} from ({r0}, {c0}), axial score {axial:.3}; {} away in the \
         line, score {flat:.3}.",
        count(r.abs_diff(r0), "row", "rows"),
        count(c.abs_diff(c0), "column", "columns"),
        count(line, "place", "places"),
    )
}

/// The text alternative of the two grids.
pub fn describe(shape: (usize, usize), patch: (usize, usize), qk: QkSource) -> String {
    let ((rows, cols), (r, c)) = (shape, patch);
    format!(
        "Two heatmaps of a grid of {rows} by {cols} image patches, each patch coloured by its \
         score q·k with the patch at row {r}, column {c} (outlined), q and k {}. The first, \
         axial 2D RoPE: a patch's colour depends only on its row offset and its column offset \
         from the outlined patch. The second, the grid read row by row as one line of 1D \
         RoPE: a patch's colour depends only on how many places it is before or after the \
         outlined patch in that line{}.",
        match qk {
            QkSource::Ones => "all ones",
            QkSource::Random => "seeded random vectors",
        },
        if rows > 1 {
            format!(
                ", so a patch directly above or below is {} away",
                count(cols, "place", "places")
            )
        } else {
            String::new()
        }
    )
}

/// One axis of a layout: how many pairs its id drives, and the wavelengths (positions) of its
/// fastest and slowest pair; `None` when it drives none.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct AxisShare {
    /// Pairs it drives.
    pub pairs: usize,
    /// Its fastest pair and slowest pair, by index.
    pub range: Option<(usize, usize)>,
}

/// Each axis's share of `m`'s pairs (t, h, w).
pub fn axis_shares(m: &LmRope) -> [AxisShare; 3] {
    let owner = m.mrope.axis_of_pair();
    [0u8, 1, 2].map(|axis| {
        let mine: Vec<usize> = (0..owner.len()).filter(|&j| owner[j] == axis).collect();
        AxisShare {
            pairs: mine.len(),
            range: mine.first().zip(mine.last()).map(|(&a, &b)| (a, b)),
        }
    })
}

/// A wavelength in positions, to three significant digits: "6.28", "160", "28 500" (grouped),
/// "5.06e6" from a million on.
pub fn wavelength_text(x: f64) -> String {
    if (1e3..1e6).contains(&x) {
        grouped(round_significant(x, 3) as u64)
    } else {
        format_significant(x, 3)
    }
}

/// "t (time) drives 16 pairs, wavelengths 6.28 to 160 positions; …" for `m`, whose axes have
/// `shares`.
fn layout_text(m: &LmRope, shares: &[AxisShare; 3]) -> String {
    shares
        .iter()
        .zip(AXES)
        .map(|(share, axis)| match share.range {
            None => format!("{axis} drives no pair"),
            Some((a, b)) if a == b => format!(
                "{axis} drives 1 pair, wavelength {} positions",
                wavelength_text(m.wavelength(a))
            ),
            Some((a, b)) => format!(
                "{axis} drives {} pairs, wavelengths {} to {} positions",
                share.pairs,
                wavelength_text(m.wavelength(a)),
                wavelength_text(m.wavelength(b))
            ),
        })
        .collect::<Vec<_>>()
        .join("; ")
}

/// Whether axes with `shares` own separate bands: no axis has a pair between another's fastest
/// and slowest.
fn separate_bands(shares: &[AxisShare; 3]) -> bool {
    shares.iter().enumerate().all(|(i, a)| {
        shares
            .iter()
            .enumerate()
            .all(|(k, b)| match (a.range, b.range) {
                (Some((a0, a1)), Some((b0, b1))) if i != k => a1 < b0 || b1 < a0,
                _ => true,
            })
    })
}

/// What `m`'s layout gives each axis, then `other`'s, and how the two differ.
pub fn sections_finding(m: &LmRope, other: &LmRope) -> String {
    let layout = |x: &LmRope| {
        let shares = axis_shares(x);
        let band = if separate_bands(&shares) {
            "each axis owns a band of its own".to_string()
        } else {
            // Every axis reaches down to the fastest pair whose index is the largest of the axes'
            // first pairs, and up to the smallest of their last pairs.
            let ranges: Vec<(usize, usize)> = shares.iter().filter_map(|s| s.range).collect();
            let first = ranges.iter().map(|r| r.0).max().unwrap_or(0);
            let slowest = ranges.iter().map(|r| r.1).min().unwrap_or(0);
            format!(
                "every axis has pairs among the fastest {} and among the slowest {}",
                count(first + 1, "pair", "pairs"),
                count(x.mrope.pairs.saturating_sub(slowest), "pair", "pairs")
            )
        };
        format!(
            "{} ({}, θ = {}): {}; {band}.",
            x.name,
            x.layout(),
            grouped(x.theta as u64),
            layout_text(x, &shares),
        )
    };
    format!("{} {}", layout(m), layout(other))
}

/// The readout of pair `j` in `m`, with what drives pair `j` in `other`.
pub fn sections_readout(m: &LmRope, other: &LmRope, j: usize) -> String {
    let (mine, theirs) = (m.mrope.axis_of_pair(), other.mrope.axis_of_pair());
    let (Some(&a), Some(&b)) = (mine.get(j), theirs.get(j)) else {
        return String::new();
    };
    format!(
        "Pair {j}: wavelength {} positions; its angle follows the {} id in {}'s {} layout. \
         In {}'s {} layout pair {j} follows the {} id (wavelength {} there).",
        wavelength_text(m.wavelength(j)),
        AXES[usize::from(a)],
        m.name,
        m.layout(),
        other.name,
        other.layout(),
        AXES[usize::from(b)],
        wavelength_text(other.wavelength(j)),
    )
}

#[cfg(test)]
mod tests {
    use super::{patch_readout, wavelength_text};

    #[test]
    fn the_readout_counts_rows_columns_and_places() {
        assert_eq!(
            patch_readout(9, (5, 8), (0, 0), (1.0, -0.5)),
            "Patch (0, 0): 5 rows and 8 columns from (5, 8), axial score 1.000; 53 places away \
             in the line, score -0.500."
        );
        assert_eq!(
            patch_readout(9, (5, 8), (4, 8), (2.0, 3.0)),
            "Patch (4, 8): 1 row and 0 columns from (5, 8), axial score 2.000; 9 places away in \
             the line, score 3.000."
        );
        assert!(patch_readout(9, (5, 8), (5, 7), (0.0, 0.0)).contains("1 column from"));
        assert!(patch_readout(9, (5, 8), (5, 7), (0.0, 0.0)).contains("1 place away"));
    }

    #[test]
    fn wavelengths_print_three_significant_digits() {
        assert_eq!(wavelength_text(std::f64::consts::TAU), "6.28");
        assert_eq!(wavelength_text(160.3), "160");
        assert_eq!(wavelength_text(28_473.2), "28\u{202f}500");
        assert_eq!(wavelength_text(35_333.0), "35\u{202f}300");
        assert_eq!(wavelength_text(5_062_000.0), "5.06e6");
    }
}
