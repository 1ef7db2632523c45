//! Chapter 6's sentences ("Beyond a line"): what the grid of patches shows for the chosen patch,
//! under axial 2D RoPE and with the grid read row by row — each number read from the scores the
//! figure draws.

use std::fmt;

use super::distinguishing_decimals;
use crate::params::rope::QkSource;

/// A neighbour of the chosen patch: its place and its direction from the chosen patch.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Neighbour {
    /// Its row and column.
    pub at: (usize, usize),
    /// "down", "up", "right" or "left".
    pub way: &'static str,
}

/// The patch one row away (below, or above on the last row), if the grid has two rows.
pub fn vertical(rows: usize, (r, c): (usize, usize)) -> Option<Neighbour> {
    if r + 1 < rows {
        Some(Neighbour {
            at: (r + 1, c),
            way: "down",
        })
    } else {
        r.checked_sub(1).map(|up| Neighbour {
            at: (up, c),
            way: "up",
        })
    }
}

/// The patch one column away (to the right, or to the left in the last column), if the grid
/// has two columns.
pub fn horizontal(cols: usize, (r, c): (usize, usize)) -> Option<Neighbour> {
    if c + 1 < cols {
        Some(Neighbour {
            at: (r, c + 1),
            way: "right",
        })
    } else {
        c.checked_sub(1).map(|left| Neighbour {
            at: (r, left),
            way: "left",
        })
    }
}

/// Two scores, printed with 3 decimals or, where that hides a difference, as many as show it
/// (up to 15); equal ones are said to be.
fn pair_text(a: f64, b: f64) -> (String, String, bool) {
    if a == b {
        return (format!("{a:.3}"), format!("{b:.3}"), true);
    }
    let k = match distinguishing_decimals(a, b) {
        Some(k) if format!("{a:.3}") == format!("{b:.3}") => k,
        _ => 3,
    };
    (format!("{a:.k$}"), format!("{b:.k$}"), false)
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
            "Axial 2D RoPE: the patch one row {} of ({r}, {c}) scores {a}, the patch one column \
             {} {b}",
            down.way, side.way
        )?;
        if same {
            write!(f, ", the same")?;
            if self.qk == QkSource::Ones {
                write!(f, " (with q = k = all ones, rows and columns turn alike)")?;
            }
        }
        let (fa, fb, fsame) = pair_text(self.at(self.flat, down.at), self.at(self.flat, side.at));
        write!(
            f,
            ". Read row by row, the patch one row {} is {cols} positions away and scores {fa}; \
             the patch one column {} is 1 position away and scores {fb}{}.",
            down.way,
            side.way,
            if fsame { ", the same" } else { "" }
        )
    }
}

/// The text alternative of the two grids.
pub fn describe(shape: (usize, usize), patch: (usize, usize), qk: QkSource) -> String {
    let ((rows, cols), (r, c)) = (shape, patch);
    format!(
        "Two heatmaps of a grid of {rows} by {cols} image patches, each patch coloured by its \
         score q·k with the patch at row {r}, column {c} (outlined), q and k {}. Left, axial 2D \
         RoPE: a patch's colour depends only on its row and column offsets from the outlined \
         patch. Right, the grid read row by row as one line of 1D RoPE: a patch's colour \
         depends only on how many places apart the two are in that line{}.",
        match qk {
            QkSource::Ones => "all ones",
            QkSource::Random => "seeded random vectors",
        },
        if rows > 1 {
            format!(", so a patch directly above or below is {cols} places away")
        } else {
            String::new()
        }
    )
}
